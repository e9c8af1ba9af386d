"""The tamper-evidence hash chain over a game's record and turn files (described in ``docs/archive.md``).

::

    genesis  = SHA-256("pbem-archive-chain-v2" 0x00 ‖ record)      record: canonical JSON of the module id and
               version, the scenario, the start (scenario id or SHA-256 of the start state file), the
               players by side and the result the game was stored with, and (only when the game has any)
               its dice records (docs/dice.md): {"dice": {name: SHA-256 of the record file}}
    link[i]  = SHA-256(link[i-1] ‖ uint32_be(i) ‖ SHA-256(name[i]) ‖ SHA-256(bytes[i]))   (link[-1] = genesis)
    head     = link[last]

Editing a byte of a turn file changes its hash and every link after it; dropping, inserting or reordering
turns changes the links from that point; dropping the last turns changes the head; editing the record
changes every link. Anyone holding the head (players mail it to each other when a game ends) can tell
whether the archive still holds that game: ``pbem archive verify GAME --head HEX``.

Games stored before scheme 2 keep their scheme-1 chain, whose genesis binds only the start
(``SHA-256("pbem-archive-chain-v1" 0x00 ‖ "scenario:" id | "state:" bytes)``): re-chaining them would make
any edit made before the upgrade look authentic, and would break the heads players kept.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

SCHEMES = {1: b"pbem-archive-chain-v1\x00", 2: b"pbem-archive-chain-v2\x00"}
CURRENT = 2


def file_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Record:
    """What the genesis link binds: where the game started and, from scheme 2, what it was stored as."""

    scheme: int
    start_scenario: str | None
    start_data: bytes | None
    module: str = ""
    module_version: str = ""
    scenario: str | None = None
    players: dict[str, list[str]] = field(default_factory=dict)
    result: str | None = None
    dice: tuple[tuple[str, str], ...] = ()  # (name, SHA-256 hex) of each dice record stored with the game

    def canonical(self) -> bytes:
        """The scheme-2 record as canonical JSON (sorted keys, ASCII, each side's names sorted)."""
        start = f"state:{file_hash(self.start_data)}" if self.start_data is not None else f"scenario:{self.start_scenario or ''}"
        value = {
            "module": self.module,
            "module_version": self.module_version,
            "scenario": self.scenario,
            "start": start,
            "players": {side: sorted(names) for side, names in self.players.items()},
            "result": self.result,
        }
        if self.dice:  # a game without dice records keeps the genesis it always had
            value["dice"] = dict(sorted(self.dice))
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def genesis(record: Record) -> str:
    """The link before the first turn: it binds the chain to where the game started (and, from scheme 2, to its record)."""
    if record.scheme == 1:
        start = b"state:" + record.start_data if record.start_data is not None else b"scenario:" + (record.start_scenario or "").encode("utf-8", "surrogatepass")
        return hashlib.sha256(SCHEMES[1] + start).hexdigest()
    if record.scheme != 2:
        raise ValueError(f"unknown chain scheme {record.scheme}")
    return hashlib.sha256(SCHEMES[2] + record.canonical()).hexdigest()


def link(previous: str, seq: int, name: str, data: bytes) -> str:
    """The link of turn ``seq`` (0-based) named ``name`` with contents ``data``, chained to ``previous``."""
    digest = hashlib.sha256(bytes.fromhex(previous))
    digest.update(seq.to_bytes(4, "big"))
    digest.update(hashlib.sha256(name.encode("utf-8", "surrogatepass")).digest())
    digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def chain(record: Record, turns: list[tuple[str, bytes]]) -> list[str]:
    """Every link of a game, first turn first."""
    links: list[str] = []
    previous = genesis(record)
    for seq, (name, data) in enumerate(turns):
        previous = link(previous, seq, name, data)
        links.append(previous)
    return links


@dataclass(frozen=True)
class StoredLink:
    seq: int
    name: str
    data: bytes
    file_hash: str
    link: str


def first_break(record: Record, stored: list[StoredLink], head: str, count: int) -> str | None:
    """Why the stored chain is broken, naming the first broken link, or ``None`` if it holds."""
    previous = genesis(record)
    for position, entry in enumerate(stored):
        where = f"link {position + 1} ({entry.name})"
        if entry.seq != position:
            return f"{where}: turn {position + 1} is missing (the next stored turn is number {entry.seq + 1})"
        if file_hash(entry.data) != entry.file_hash:
            return f"{where}: the turn file's bytes do not match their recorded hash (the file was edited)"
        expected = link(previous, position, entry.name, entry.data)
        if expected != entry.link:
            if position == 0:
                edited = "start state" if record.scheme == 1 else "start, module, scenario, players, result or dice records"
                return f"{where}: does not follow from the game's start (its {edited} edited, or turns dropped or reordered)"
            return f"{where}: does not follow from link {position} (turns edited, dropped, inserted or reordered)"
        previous = entry.link
    if len(stored) != count:
        return f"link {len(stored) + 1}: the game had {count} turns, {len(stored)} are stored (turns dropped)"
    if previous != head:
        return f"head: the last link is not the game's recorded head (turns dropped or appended after link {len(stored)})"
    return None
