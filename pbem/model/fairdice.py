"""Dice two players can trust by email, with no server: request (a commitment), answer, reveal.

The protocol, as ``docs/dice.md`` publishes it for any other implementation:

- The *request* is the canonical JSON (:func:`canonical`) of ``{"v": 1, "game", "seq", "turn", "phase", "side",
  "rolls": [{"for", "dice"}]}``; its bytes are written ``request`` below. The roller draws 32 secret random bytes
  ``secret`` and sends the request with ``commitment = SHA-256(request ‖ secret)``.
- The request's *digest* is ``SHA-256(request ‖ commitment)``: what the answer and the reveal name.
- The *answer* (the opponent): 32 random bytes ``answer`` of their own, and the digest.
- The *reveal* (the roller): ``secret``. Anyone then checks ``SHA-256(request ‖ secret) == commitment`` and draws
  die ``i`` (0-based, over the request's dice in order) from the blocks
  ``HMAC-SHA-256(key = secret ‖ answer, msg = request ‖ be32(i) ‖ be32(j))``, ``j = 0, 1, ...``: each block is read
  as 8 big-endian 32-bit words ``w``; the first ``w < 2**32 - 2**32 % n`` gives the face ``w % n + 1`` of an
  ``n``-sided die (rejection sampling: no face more likely than another).

Neither player can bias a die: the roller fixed ``secret`` (and the request, so the purposes) before seeing
``answer``; the opponent chose ``answer`` without knowing ``secret``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from dataclasses import dataclass, field
from typing import Any

from pbem.model.errors import PbemError

VERSION = 1
SECRET_BYTES = 32
GAME_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")
MAX_SIDES = 1000
MAX_DICE = 100  # dice in one request
MAX_TEXT = 200  # characters of a purpose or a phase
MAX_MESSAGES = 30_000  # in one record: 10,000 requests, answered and revealed
MAX_RECORD_DICE = 100_000  # in one record: a few seconds to recompute them all
_DICE = re.compile(r"^\s*(?:(\d{1,3})\s*[x×*]\s*)?(\d{1,3})?\s*d\s*(\d{1,4})\s*$", re.IGNORECASE)
_HEX64 = re.compile(r"[0-9a-f]{64}\Z")
KINDS = ("request", "answer", "reveal")


class DiceError(PbemError):
    """A dice message or record that is malformed, or that the protocol refuses."""


def canonical(value: Any) -> bytes:
    """The one byte string of a JSON value: keys sorted, no spaces, UTF-8 (not ``\\u`` escapes), no NaN.

    >>> canonical({"b": 1, "a": "é"})
    b'{"a":"\\xc3\\xa9","b":1}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def parse_roll(text: str) -> dict[str, str]:
    """``"attack on 3005: 1d6"`` -> ``{"for": "attack on 3005", "dice": "1d6"}``; ``"political: 2 × 1d6"`` and
    ``"political: 2d6"`` -> two six-sided dice; no dice named: one six-sided die."""
    purpose, colon, dice = text.rpartition(":")
    if not colon or not _DICE.match(dice):
        purpose, dice = text, "1d6"
    found = _DICE.match(dice)
    assert found is not None
    times, count, sides = int(found.group(1) or 1), int(found.group(2) or 1), int(found.group(3))
    roll = {"for": " ".join(purpose.split()), "dice": f"{times * count}d{sides}"}
    check_roll(roll, "--for")
    return roll


def dice_of(roll: dict[str, Any]) -> tuple[int, int]:
    """(count, sides) of a roll entry's ``dice`` (``"2d6"``)."""
    count, _, sides = str(roll["dice"]).partition("d")
    return int(count), int(sides)


def check_roll(roll: Any, where: str) -> None:
    if not isinstance(roll, dict) or set(roll) != {"for", "dice"}:
        raise DiceError(f"{where}: a roll is {{\"for\": purpose, \"dice\": \"NdM\"}}")
    if not isinstance(roll["for"], str) or not roll["for"].strip() or len(roll["for"]) > MAX_TEXT:
        raise DiceError(f"{where}: a roll's purpose is text of 1 to {MAX_TEXT} characters")
    found = re.fullmatch(r"([1-9]\d{0,2})d([1-9]\d{0,3})", roll["dice"]) if isinstance(roll["dice"], str) else None
    if not found or not 2 <= int(found.group(2)) <= MAX_SIDES:
        raise DiceError(f"{where}: dice {roll['dice']!r} is not NdM with 2 to {MAX_SIDES} sides")


@dataclass(frozen=True)
class Request:
    """What the roller asks for: the game, turn, phase, side, a sequence number and each roll's purpose and dice."""

    game: str
    seq: int
    turn: int
    phase: str
    side: str
    rolls: tuple[dict[str, str], ...]

    def body(self) -> dict[str, Any]:
        return {"v": VERSION, "game": self.game, "seq": self.seq, "turn": self.turn, "phase": self.phase, "side": self.side,
                "rolls": [dict(r) for r in self.rolls]}

    def encoded(self) -> bytes:
        """The request's canonical bytes, ``request`` in the protocol."""
        return canonical(self.body())

    def dice(self) -> list[tuple[int, int]]:
        """(roll index, sides) of every die in order."""
        out = []
        for n, roll in enumerate(self.rolls):
            count, sides = dice_of(roll)
            out += [(n, sides)] * count
        return out

    @classmethod
    def from_body(cls, body: Any, where: str = "request") -> "Request":
        if not isinstance(body, dict) or set(body) != {"v", "game", "seq", "turn", "phase", "side", "rolls"}:
            raise DiceError(f"{where}: a request has exactly v, game, seq, turn, phase, side and rolls")
        if body["v"] != VERSION or type(body["v"]) is not int:
            raise DiceError(f"{where}: version {body['v']!r}, this pbem reads version {VERSION}")
        check_game(body["game"], where)
        for key in ("seq", "turn"):
            if type(body[key]) is not int or not 0 <= body[key] < 2**31:
                raise DiceError(f"{where}: {key} is a whole number from 0")
        for key in ("phase", "side"):
            if not isinstance(body[key], str) or len(body[key]) > MAX_TEXT:
                raise DiceError(f"{where}: {key} is text of at most {MAX_TEXT} characters")
        rolls = body["rolls"]
        if not isinstance(rolls, list) or not rolls:
            raise DiceError(f"{where}: a request asks for at least one roll")
        for n, roll in enumerate(rolls):
            check_roll(roll, f"{where}: roll {n + 1}")
        request = cls(body["game"], body["seq"], body["turn"], body["phase"], body["side"], tuple(dict(r) for r in rolls))
        if len(request.dice()) > MAX_DICE:
            raise DiceError(f"{where}: more than {MAX_DICE} dice in one request")
        return request


def check_game(game: Any, where: str) -> None:
    if not isinstance(game, str) or not GAME_NAME.match(game):
        raise DiceError(f"{where}: game {game!r} is not a name of letters, digits, '.', '_' and '-' (at most 64)")


def commitment(request: bytes, secret: bytes) -> bytes:
    """``SHA-256(request ‖ secret)``."""
    return hashlib.sha256(request + secret).digest()


def digest(request: bytes, committed: bytes) -> bytes:
    """The request's digest, ``SHA-256(request ‖ commitment)``: what an answer and a reveal name."""
    return hashlib.sha256(request + committed).digest()


def draw(request: Request, secret: bytes, answer: bytes) -> list[int]:
    """Every die of ``request``, in order, from the two players' random bytes (see the module's docstring)."""
    key = secret + answer
    message = request.encoded()
    faces = []
    for i, (_, sides) in enumerate(request.dice()):
        limit = 2**32 - 2**32 % sides
        j = 0
        while True:
            block = hmac.new(key, message + i.to_bytes(4, "big") + j.to_bytes(4, "big"), hashlib.sha256).digest()
            words = [int.from_bytes(block[k : k + 4], "big") for k in range(0, 32, 4)]
            good = next((w for w in words if w < limit), None)
            if good is not None:
                faces.append(good % sides + 1)
                break
            j += 1
    return faces


def _hex(value: Any, where: str, name: str) -> bytes:
    if not isinstance(value, str) or not _HEX64.match(value):
        raise DiceError(f"{where}: {name} is 64 lowercase hex digits")
    return bytes.fromhex(value)


@dataclass
class Entry:
    """One request of a record and what followed it: the answer, the reveal, and the dice once revealed."""

    request: Request
    commitment: bytes
    answer: bytes | None = None
    secret: bytes | None = None
    _faces: list[int] | None = field(default=None, repr=False, compare=False)

    @property
    def digest(self) -> bytes:
        return digest(self.request.encoded(), self.commitment)

    def faces(self) -> list[int] | None:
        """The dice, once answered and revealed (worked out once)."""
        if self.secret is None or self.answer is None:
            return None
        if self._faces is None:
            self._faces = draw(self.request, self.secret, self.answer)
        return self._faces

    def rolls(self) -> list[tuple[dict[str, str], list[int]]] | None:
        """Each roll entry with its faces, once revealed."""
        faces = self.faces()
        if faces is None:
            return None
        out, at = [], 0
        for roll in self.request.rolls:
            count = dice_of(roll)[0]
            out.append((roll, faces[at : at + count]))
            at += count
        return out

    @property
    def status(self) -> str:
        if self.answer is None:
            return "awaiting the answer"
        if self.secret is None:
            return "awaiting the reveal (the roller can already compute the dice)"
        return "revealed"


def request_message(request: Request, committed: bytes) -> dict[str, Any]:
    return {"kind": "request", "request": request.body(), "commitment": committed.hex()}


def answer_message(entry: Entry) -> dict[str, Any]:
    assert entry.answer is not None
    return {"kind": "answer", "game": entry.request.game, "seq": entry.request.seq, "request": entry.digest.hex(), "answer": entry.answer.hex()}


def reveal_message(entry: Entry) -> dict[str, Any]:
    assert entry.answer is not None and entry.secret is not None
    return {"kind": "reveal", "game": entry.request.game, "seq": entry.request.seq, "request": entry.digest.hex(),
            "answer": entry.answer.hex(), "secret": entry.secret.hex()}


def message_kind(message: Any) -> str:
    kind = message.get("kind") if isinstance(message, dict) else None
    if kind not in KINDS:
        raise DiceError("not a dice message: its kind is none of request, answer, reveal")
    return kind


@dataclass
class Record:
    """A game's dice record: every request, answer and reveal, by sequence number, each checked as it comes in.

    :meth:`add` refuses (raises :class:`DiceError`) a message for another game, two requests with one sequence
    number, an answer or reveal to an unknown request, a second answer, a reveal that does not match its
    commitment, and a secret or commitment used before.
    """

    game: str
    entries: dict[int, Entry] = field(default_factory=dict)
    messages: list[dict[str, Any]] = field(default_factory=list)  # as received, in order: the file's content
    _commitments: set[bytes] = field(default_factory=set, repr=False)  # every commitment and secret seen: a reuse
    _secrets: set[bytes] = field(default_factory=set, repr=False)  # is found in constant time, however long the record
    _dice: int = field(default=0, repr=False)

    def add(self, message: dict[str, Any]) -> bool:
        """Check and record ``message``; False when the record already holds it (a message pasted twice)."""
        if len(self.messages) >= MAX_MESSAGES:
            raise DiceError(f"a record holds at most {MAX_MESSAGES} messages")
        kind = message_kind(message)
        handler = {"request": self._request, "answer": self._answer, "reveal": self._reveal}[kind]
        if not handler(message):
            return False
        self.messages.append(message)
        return True

    def _same_game(self, game: str) -> None:
        if game != self.game:
            raise DiceError(f"this message is for game {game!r}, the record is game {self.game!r}'s")

    def _request(self, message: dict[str, Any]) -> bool:
        if set(message) != {"kind", "request", "commitment"}:
            raise DiceError("a request message has exactly kind, request and commitment")
        request = Request.from_body(message["request"])
        committed = _hex(message["commitment"], "request", "commitment")
        self._same_game(request.game)
        known = self.entries.get(request.seq)
        if known is not None:
            if known.request == request and known.commitment == committed:
                return False
            raise DiceError(f"two requests with sequence number {request.seq}: the record already holds a different request #{request.seq}")
        if self._dice + len(request.dice()) > MAX_RECORD_DICE:
            raise DiceError(f"a record holds at most {MAX_RECORD_DICE:,} dice")
        if committed in self._commitments:
            raise DiceError(f"request #{request.seq} reuses the commitment of an earlier request: its secret was used before")
        self.entries[request.seq] = Entry(request, committed)
        self._commitments.add(committed)
        self._dice += len(request.dice())
        return True

    def _entry(self, message: dict[str, Any], kind: str, keys: set[str]) -> Entry:
        if set(message) != keys:
            raise DiceError(f"an {kind} message has exactly {', '.join(sorted(keys))}")
        check_game(message["game"], kind)
        self._same_game(message["game"])
        seq = message["seq"]
        if type(seq) is not int:
            raise DiceError(f"{kind}: seq is a whole number")
        named = _hex(message["request"], kind, "request")
        entry = self.entries.get(seq)
        if entry is None or entry.digest != named:
            raise DiceError(f"{kind} to an unknown request (#{seq} with that digest is not in the record)")
        return entry

    def _answer(self, message: dict[str, Any]) -> bool:
        entry = self._entry(message, "answer", {"kind", "game", "seq", "request", "answer"})
        answer = _hex(message["answer"], "answer", "answer")
        if entry.answer is not None:
            if entry.answer == answer:
                return False
            raise DiceError(f"request #{entry.request.seq} was already answered with other bytes")
        entry.answer = answer
        return True

    def _reveal(self, message: dict[str, Any]) -> bool:
        entry = self._entry(message, "reveal", {"kind", "game", "seq", "request", "answer", "secret"})
        answer = _hex(message["answer"], "reveal", "answer")
        secret = _hex(message["secret"], "reveal", "secret")
        seq = entry.request.seq
        if commitment(entry.request.encoded(), secret) != entry.commitment:
            raise DiceError(f"the reveal of #{seq} does not match its commitment")
        if entry.answer is None:
            raise DiceError(f"the reveal of #{seq} comes before its answer: record the answer first")
        if entry.answer != answer:
            raise DiceError(f"the reveal of #{seq} used another answer than the one recorded")
        if entry.secret is not None:
            return False
        if secret in self._secrets:
            raise DiceError(f"the reveal of #{seq} reuses a secret revealed before")
        entry.secret = secret
        self._secrets.add(secret)
        return True

    def as_json(self) -> dict[str, Any]:
        return {"pbem_dice_record": VERSION, "game": self.game, "messages": self.messages}

    def text(self) -> str:
        """The record file: one message a line, so two players' records compare line by line."""
        lines = [json.dumps(m, sort_keys=True, ensure_ascii=False) for m in self.messages]
        body = ",\n  ".join(lines)
        return (f'{{"pbem_dice_record": {VERSION}, "game": {json.dumps(self.game)}, "messages": [\n  {body}\n]}}\n' if lines
                else f'{{"pbem_dice_record": {VERSION}, "game": {json.dumps(self.game)}, "messages": []}}\n')



def read_record(data: Any, where: str, strict: bool = True) -> tuple[Record, list[str]]:
    """A record from its file's JSON, each message checked in order. ``strict``: the first refusal raises;
    otherwise each refused message is left out and said in the returned problems."""
    if not isinstance(data, dict) or data.get("pbem_dice_record") != VERSION or set(data) != {"pbem_dice_record", "game", "messages"}:
        raise DiceError(f"{where}: not a pbem dice record (version {VERSION})")
    check_game(data["game"], where)
    if not isinstance(data["messages"], list):
        raise DiceError(f"{where}: messages is a list")
    record = Record(data["game"])
    problems = []
    for n, message in enumerate(data["messages"]):
        try:
            record.add(message)
        except DiceError as error:
            if strict:
                raise DiceError(f"{where}: message {n + 1}: {error.message}") from None
            problems.append(f"message {n + 1}: {error.message}")
    return record, problems
