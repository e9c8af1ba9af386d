"""A game's dice on record: every roll its turn files (or VASSAL logs) show, with who rolled it and for what.

A roll is one die type thrown once: its faces when the file gives each die (``[1, 4]``, a VASSAL report), or its
total when it gives only the sum (a ``2d6`` combat roll written as ``9``). Who rolled: the side acting (the
attacker for an attack's roll, the defender for the defender's roll; for a roll whose modifiers name one side per
die, as the China War political roll does, each side its own die), or the VASSAL player whose button it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pbem.model.actions import Combat, Fire, Roll, Special, Turn
from pbem.model.module import Module

_DICE = re.compile(r"^\s*(\d{1,3})\s*d\s*(\d{1,3})\s*$", re.IGNORECASE)
DEFAULT_DIE = 6  # every bundled game rolls six-sided dice unless its tables or the roll say otherwise


@dataclass(frozen=True)
class DieRoll:
    """One throw of ``count`` dice of ``sides`` sides: the faces, or only their total."""

    file: str
    where: str  # "line 12", "step 5", or the action's index
    player: str
    purpose: str
    count: int
    sides: int
    faces: tuple[int, ...] | None  # each die's face, when known
    total: int
    undone: bool = False  # taken back by an undo (VASSAL)
    index: int | None = None  # the action of the turn that rolled it

    @property
    def die(self) -> str:
        return f"d{self.sides}" if self.faces is not None else f"{self.count}d{self.sides} total"

    def as_json(self) -> dict[str, Any]:
        return {"file": self.file, "where": self.where, "player": self.player, "purpose": self.purpose, "dice": f"{self.count}d{self.sides}",
                "faces": list(self.faces) if self.faces is not None else None, "total": self.total, "undone": self.undone}


@dataclass
class DiceRecord:
    """Every roll of a game in play order, and the re-rolls after undos (VASSAL)."""

    rolls: list[DieRoll] = field(default_factory=list)
    rerolls: list[dict[str, Any]] = field(default_factory=list)  # {"file", "step", "undone_step", "player", "button", "before", "after"}


def parse_dice(text: str | None) -> tuple[int, int] | None:
    found = _DICE.match(text or "")
    return (int(found.group(1)), int(found.group(2))) if found else None


def combat_dice(module: Module) -> tuple[int, int]:
    """The dice of the module's combat results table: a die-row key such as ``2d6``, else one die as many
    sided as its highest die-row key (``1``..``6``: a d6), else a d6."""
    crt = module.tables.get("crt") if isinstance(module.tables, dict) else None
    rows = crt.get("die_rows") if isinstance(crt, dict) else None
    if isinstance(rows, dict):
        for key, column in rows.items():
            dice = parse_dice(key)
            if dice:
                return dice
            numbers = [int(k) for k in column if str(k).isdigit()] if isinstance(column, dict) else []
            if numbers and max(numbers) > 1:
                return 1, max(numbers)
    return 1, DEFAULT_DIE


def turn_rolls(turn: Turn, module: Module, default_side: str | None = None) -> list[DieRoll]:
    """The rolls a turn file holds, in order."""
    out: list[DieRoll] = []
    fight = combat_dice(module)
    acting = default_side or turn.header.writer or turn.header.side

    def where(action) -> str:
        source = action.source
        if source is not None and source.line:
            return f"line {source.line}"
        if source is not None and source.pointer and not source.pointer.startswith("/"):
            return source.pointer
        return f"action {action.index + 1}"

    def side_of(units) -> str:
        for unit_id in units or ():
            unit = module.units.get(unit_id)
            if unit is not None:
                return unit.side
        return acting

    def other(side: str) -> str:
        return next((s for s in module.sides if s != side), side)

    def add(action, player: str, purpose: str, dice: tuple[int, int], values: tuple[int, ...]) -> None:
        count, sides = dice
        if len(values) == count and count > 0:
            out.append(DieRoll(turn.file, where(action), player, purpose, count, sides, tuple(values), sum(values), index=action.index))
        elif len(values) == 1:
            out.append(DieRoll(turn.file, where(action), player, purpose, count, sides, None, values[0], index=action.index))
        else:  # as many values as dice of one kind each: one die each
            for value in values:
                out.append(DieRoll(turn.file, where(action), player, purpose, 1, sides, (value,), value, index=action.index))

    for action in turn.actions:
        if isinstance(action, Roll):
            dice = parse_dice(action.dice) or (len(action.values), DEFAULT_DIE)
            owners = [s for s in action.modifiers if s in module.sides]
            if len(owners) == len(action.values) > 1 and dice[0] == len(action.values):
                for owner, value in zip(owners, action.values):
                    out.append(DieRoll(turn.file, where(action), owner, action.purpose, 1, dice[1], (value,), value, index=action.index))
            else:
                add(action, action.side or acting, action.purpose, dice, tuple(action.values))
        elif isinstance(action, Combat):
            attacker = side_of(action.attackers)
            add(action, attacker, action.kind, fight, (action.roll,))
            if action.defender_roll is not None:
                add(action, other(attacker), f"{action.kind} (defender)", fight, (action.defender_roll,))
            if action.flank_roll is not None:
                add(action, attacker, "flank attempt", (1, DEFAULT_DIE), (action.flank_roll,))
        elif isinstance(action, Fire) and action.rolls:
            add(action, side_of(action.units), "fire", (len(action.rolls), DEFAULT_DIE), tuple(action.rolls))
        elif isinstance(action, Special) and action.rolls:
            add(action, side_of(action.units), action.order, (len(action.rolls), DEFAULT_DIE), tuple(action.rolls))
    return out


def vassal_rolls(rolls: list[dict[str, Any]], purposes: dict[str, str] | None = None) -> list[DieRoll]:
    """Rolls read from VASSAL logs (``ChainFile.rolls``): each die a face, the player whose button it was."""
    out = []
    for roll in rolls:
        values = tuple(int(v) for v in roll["values"])
        dice = parse_dice(roll.get("dice")) or (len(values), DEFAULT_DIE)
        sides = dice[1] if dice[1] >= max(values, default=1) else max(values)
        purpose = roll.get("purpose") or (purposes or {}).get(roll.get("button") or "", roll.get("button") or "dice")
        out.append(DieRoll(roll["file"], f"step {roll['step']}", roll.get("player") or "unknown", purpose, len(values), sides, values,
                           sum(values), bool(roll.get("undone"))))
    return out
