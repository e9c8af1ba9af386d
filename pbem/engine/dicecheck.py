"""A turn's rolls checked against the dice record they come from (rule ``dice``, docs/dice.md).

Each die the turn rolls takes the next die of the draws the header names (or, when it names only the record,
of the record's requests for the turn's game turn, the file's writer and its phases, in sequence order). A die
that differs from its draw, a draw used twice, drawn for another turn or for another purpose, a draw not (yet)
revealed, and a roll with no draw left are each a ``mismatch``; draws of the turn left unused are a warning
(a roll asked for and not shown). Across the files of a game, :class:`DrawLedger` finds a draw that a later file
takes again (a ``mismatch`` in the later file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.engine.dice import turn_rolls
from pbem.model.actions import DiceClaim, Phase, Turn
from pbem.model.errors import Source
from pbem.model.module import Module
from pbem.model.violation import MISMATCH, WARNING, Violation

RULE = "dice"


@dataclass(frozen=True)
class _Die:
    """One die of the record: which draw, what for, its sides and face."""

    seq: int
    roll: int
    purpose: str
    sides: int
    face: int
    turn: int

    @property
    def label(self) -> str:
        return f"#{self.seq}.{self.roll} ({self.purpose})"


def check_dice(turn: Turn, module: Module) -> list[Violation]:
    """The violations of ``turn``'s rolls against the record its header names (none when it names none)."""
    claim = turn.header.dice
    if claim is None:
        return []
    header = Source(turn.file)
    found: list[Violation] = [Violation(RULE, MISMATCH, f"dice record {claim.name}: {problem}", source=header) for problem in claim.problems]
    dice, refused = _draws(turn, claim)
    found += [Violation(RULE, MISMATCH, f"dice record {claim.name}: {text}", source=header) for text in refused]
    actions = {a.index: a for a in turn.actions}
    at = 0
    for roll in turn_rolls(turn, module):
        action = actions.get(roll.index) if roll.index is not None else None

        def bad(message: str, severity: str = MISMATCH) -> None:
            found.append(Violation(RULE, severity, message, action.index if action else None, action.source if action else None))

        taken = dice[at : at + roll.count]
        at += roll.count
        if len(taken) < roll.count:
            bad(f"{roll.purpose} roll {_shown(roll)} has no draw left in the dice record {claim.name}: it was not drawn there")
            continue
        word = _kind_word(roll.purpose)
        for die in taken:
            if die.turn != turn.header.turn:
                bad(f"{roll.purpose} roll uses draw {die.label} of {claim.name}, drawn for turn {die.turn}, not turn {turn.header.turn}")
            if word and word not in _words(die.purpose):
                bad(f"{roll.purpose} roll uses draw {die.label} of {claim.name}, drawn for another purpose")
            if die.sides != roll.sides:
                bad(f"{roll.purpose} roll is a d{roll.sides}, but draw {die.label} of {claim.name} is a d{die.sides}")
        faces = tuple(d.face for d in taken)
        written = roll.faces if roll.faces is not None else (roll.total,)
        record = faces if roll.faces is not None else (sum(faces),)
        if written != record:
            bad(f"{roll.purpose} roll {_shown(roll)} differs from the dice record {claim.name}: draw "
                f"{', '.join(d.label for d in taken)} gave {'+'.join(map(str, faces))}")
    if at < len(dice):
        left = dice[at:]
        found.append(Violation(RULE, WARNING, source=header, message=f"{len(left)} {'die' if len(left) == 1 else 'dice'} drawn in {claim.name} for this turn "
                                              f"({', '.join(d.label for d in left)}) {'is' if len(left) == 1 else 'are'} not used by any roll"))
    return found


def draws_taken(turn: Turn, module: Module) -> list[tuple[int, int]]:
    """The draws ``(request, roll)`` of its record that ``turn``'s rolls take, in order, each once."""
    claim = turn.header.dice
    if claim is None or claim.record is None:
        return []
    dice, _ = _draws(turn, claim)
    wanted = sum(roll.count for roll in turn_rolls(turn, module))
    return list(dict.fromkeys((die.seq, die.roll) for die in dice[:wanted]))


class DrawLedger:
    """Which file of a game took each draw of its dice records: a draw a later file takes again is a mismatch."""

    def __init__(self) -> None:
        self._taken: dict[tuple[str, int, int], str] = {}

    def take(self, name: str, turn: Turn, module: Module) -> list[Violation]:
        """Record the draws file ``name`` takes; the violations for those an earlier file of the game took."""
        claim = turn.header.dice
        if claim is None or claim.record is None:
            return []
        found: list[Violation] = []
        for seq, roll in draws_taken(turn, module):
            key = (claim.record.game, seq, roll)
            earlier = self._taken.setdefault(key, name)
            if earlier != name:
                found.append(Violation(RULE, MISMATCH, f"draw #{seq}.{roll} of the dice record {claim.name} was already used "
                                                       f"by {earlier}: a draw gives one roll in a game", source=Source(turn.file)))
        return found


def _shown(roll) -> str:
    return "+".join(map(str, roll.faces)) if roll.faces is not None else str(roll.total)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower().replace("_", " ")))


def _kind_word(purpose: str) -> str | None:
    """The word a draw's purpose must hold for a roll: its purpose's first word (``attack``, ``political``)."""
    words = re.findall(r"[a-z0-9]+", purpose.lower().replace("_", " "))
    return words[0] if words else None


def _draws(turn: Turn, claim: DiceClaim) -> tuple[list[_Die], list[str]]:
    """The record's dice the turn uses, in order, and the named draws that cannot be used."""
    record = claim.record
    refused: list[str] = []
    if claim.draws is None:
        writer = turn.header.writer or turn.header.side
        phases = _phases(turn)
        named = [(seq, None) for seq, entry in sorted(record.entries.items())
                 if entry.request.turn == turn.header.turn and entry.request.side.lower() == writer.lower()
                 and (not phases or _norm(entry.request.phase) in phases)]
    else:
        named = claim.draws
    used: set[tuple[int, int]] = set()
    out: list[_Die] = []
    for seq, roll in named:
        entry = record.entries.get(seq)
        if entry is None:
            refused.append(f"no request #{seq} in it")
            continue
        if entry.status != "revealed":
            refused.append(f"request #{seq} is {entry.status}: its dice cannot be used yet")
            continue
        rolls = entry.rolls() or []
        numbers = [roll] if roll is not None else list(range(1, len(rolls) + 1))
        for number in numbers:
            if not 1 <= number <= len(rolls):
                refused.append(f"request #{seq} has no roll {number}")
                continue
            if (seq, number) in used:
                refused.append(f"draw #{seq}.{number} is used twice")
                continue
            used.add((seq, number))
            spec, faces = rolls[number - 1]
            sides = int(spec["dice"].partition("d")[2])
            out += [_Die(seq, number, spec["for"], sides, face, entry.request.turn) for face in faces]
    return out, refused


def _norm(phase: str) -> str:
    return re.sub(r"[\s-]+", "_", phase.strip().lower())


def _phases(turn: Turn) -> set[str]:
    """The phases the file covers, as its header and phase markers name them."""
    found = {_norm(a.name) for a in turn.actions if isinstance(a, Phase)}
    for place in (turn.header.start_at, turn.header.end_at):
        if isinstance(place, dict) and place.get("phase"):
            found.add(_norm(str(place["phase"])))
    return found
