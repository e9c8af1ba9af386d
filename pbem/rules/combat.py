"""Shared combat mechanics: odds rounded for the defender, column shifts on an odds scale, CRT look-up.

>>> round_odds(29, 10), round_odds(10, 29)
((2, 1), (1, 3))
>>> scale = OddsScale(["1/4", "1/3", "1/2", "1/1", "2/1", "3/1", "4/1", "5/1", "6/1", "7/1"])
>>> scale.shift("7/1", -2)
'5/1'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


def round_odds(attack: int, defence: int) -> tuple[int, int]:
    """Odds as ``(a, d)`` with 1 on one side, rounded in the defender's favour (29:10 → 2:1, 10:29 → 1:3)."""
    if defence <= 0:
        raise ValueError("defence must be positive")
    if attack >= defence:
        return attack // defence, 1
    if attack <= 0:
        return 0, 1
    return 1, math.ceil(defence / attack)


def ratio_text(odds: tuple[int, int]) -> str:
    return f"{odds[0]}/{odds[1]}"


class OddsScale:
    """A CRT's odds columns (``1/4`` … ``7/1``) as a scale that can be extended, shifted and clamped.

    Position 0 is the first column; odds worse than the first column sit at negative positions and
    better than the last beyond it, one position per step of the ratio, so shifting may happen before or
    after clamping to the printed columns.
    """

    def __init__(self, columns: list[str]):
        self.columns = list(columns)
        self._position = {c: i for i, c in enumerate(self.columns)}
        self._even = self._position["1/1"]

    def position(self, odds: tuple[int, int]) -> int:
        a, d = odds
        if a == 0:
            return -(10**6)
        return self._even + (a - 1) if a >= d else self._even - (d - 1)

    def clamp(self, position: int) -> int:
        return max(0, min(len(self.columns) - 1, position))

    def column(self, position: int) -> str:
        return self.columns[self.clamp(position)]

    def shift(self, column: str, columns: int) -> str:
        return self.column(self._position[column] + columns)

    def final(self, odds: tuple[int, int], net_shift: int, clamp_first: bool = False) -> str:
        """The column after shifting ``odds`` by ``net_shift`` (right positive)."""
        position = self.position(odds)
        if clamp_first:
            position = self.clamp(position)
        return self.column(position + net_shift)


@dataclass(frozen=True)
class CombatResultsTable:
    """A CRT whose die roll picks a result row, possibly through a terrain-dependent die-row column."""

    columns: tuple[str, ...]
    rows: dict[str, tuple[str, ...]]
    die_rows: dict[str, dict[int, str]]

    @classmethod
    def from_table(cls, table: dict[str, Any]) -> "CombatResultsTable":
        return cls(
            columns=tuple(table["columns"]),
            rows={name: tuple(results) for name, results in table["rows"].items()},
            die_rows={key: {int(die): row for die, row in mapping.items()} for key, mapping in table["die_rows"].items()},
        )

    @property
    def scale(self) -> OddsScale:
        return OddsScale(list(self.columns))

    def dice(self, die_row: str) -> range:
        faces = self.die_rows[die_row]
        return range(min(faces), max(faces) + 1)

    def result(self, column: str, roll: int, die_row: str) -> str:
        """The result under ``column`` for ``roll`` read through die-row column ``die_row``."""
        row = self.die_rows[die_row][roll]
        return self.rows[row][self.columns.index(column)]


def split_result(result: str) -> tuple[str, str]:
    """``'1/-'`` → ``('1', '-')``: the attacker's part and the defender's part."""
    attacker, _, defender = result.partition("/")
    return attacker, defender


@dataclass(frozen=True)
class CombatOdds:
    """What the tables give for one attack, as a player works it out: strengths, odds, each column shift, the
    final column, and the result for every roll of the dice."""

    target: str
    attack: int
    defence: int
    odds: str | None  # None: no defence to divide by
    shifts: tuple[tuple[str, int, str], ...]  # (shift, signed columns: + is right, the rule that gives it or "")
    column: str
    die_row: str | None  # the CRT's die-row column where the terrain picks one
    results: tuple[tuple[int, str], ...]  # (roll, result) for every roll the dice can give
    parts: tuple[str, ...] = ()  # what else the strengths are made of ("militia +2 (10.23)")

    @property
    def net(self) -> int:
        return sum(n for _, n, _ in self.shifts)

    def lines(self) -> list[str]:
        """The working, one line per step, as a player would write it down."""
        odds = self.odds or "no defence"
        made = f" ({', '.join(self.parts)})" if self.parts else ""
        shifts = ", ".join(f"{name.replace('_', ' ')} {n:+d}" + (f" ({rule})" if rule else "") for name, n, rule in self.shifts)
        row = f", die-row column {self.die_row}" if self.die_row else ""
        return [
            f"attack on {self.target}: {self.attack} to {self.defence}{made} = {odds}",
            f"shifts: {shifts or 'none'}; net {self.net:+d} -> column {self.column}{row}",
            "results: " + ", ".join(f"{roll}: {result}" for roll, result in self.results),
        ]

    def expected(self, action: Any) -> str | None:
        """The result the tables give for the roll ``action`` wrote (None if the dice cannot give that roll)."""
        return dict(self.results).get(action.roll)

    def as_json(self) -> dict[str, Any]:
        return {
            "target": self.target, "attack": self.attack, "defence": self.defence, "odds": self.odds,
            "parts": list(self.parts),
            "shifts": [{"shift": name, "columns": n, "rule": rule} for name, n, rule in self.shifts],
            "net": self.net, "column": self.column, "die_row": self.die_row,
            "results": {str(roll): result for roll, result in self.results},
        }  # fmt: skip


@dataclass(frozen=True)
class StrengthTable:
    """A fire table read by one side's own strength: columns are strength ranges (``3``, ``6-8``, ``16+``).

    Column shifts move along the printed columns and stop at either edge; the modified die is clamped to
    the printed rows; a strength below the first column reads the first column.

    >>> table = StrengthTable.from_table({"columns": ["1", "2-3", "4+"], "rows": {"1": [0, 1, 2], "2": [1, 2, 3]}})
    >>> table.column(3), table.column(9), table.column(0)
    (1, 2, 0)
    >>> table.result(9, shift=-1, roll=5)
    2
    """

    columns: tuple[str, ...]
    bounds: tuple[tuple[int, float], ...]
    rows: dict[int, tuple[int, ...]]

    @classmethod
    def from_table(cls, table: dict[str, Any]) -> "StrengthTable":
        bounds = []
        for label in table["columns"]:
            if label.endswith("+"):
                bounds.append((int(label[:-1]), math.inf))
            else:
                low, _, high = label.partition("-")
                bounds.append((int(low), int(high or low)))
        rows = {int(die): tuple(values) for die, values in table["rows"].items()}
        return cls(tuple(table["columns"]), tuple(bounds), rows)

    def column(self, strength: int) -> int:
        """Index of the column holding ``strength``."""
        for index, (low, high) in enumerate(self.bounds):
            if low <= strength <= high:
                return index
        return 0 if strength < self.bounds[0][0] else len(self.columns) - 1

    def shifted(self, strength: int, shift: int) -> int:
        """The column index after ``shift`` columns (right positive), stopped at the table's edges."""
        return max(0, min(len(self.columns) - 1, self.column(strength) + shift))

    def result(self, strength: int, shift: int, roll: int) -> int:
        """The loss number for a modified ``roll`` (clamped to the printed rows) on the shifted column."""
        die = max(min(self.rows), min(max(self.rows), roll))
        return self.rows[die][self.shifted(strength, shift)]


@dataclass(frozen=True)
class ColumnResults:
    """What a CRT gives on a column the player names, where the module does not work the odds out (its sources lack
    the rule): the table, the column, and the result for every roll."""

    target: str
    table: str  # which CRT
    column: str
    results: tuple[tuple[int, str], ...]
    note: str = ""  # why the odds are not worked out

    def expected(self, action: Any) -> str | None:
        return dict(self.results).get(action.roll)

    def lines(self) -> list[str]:
        head = f"attack on {self.target}: the {self.table} at column {self.column} (as written)"
        return [head + (f"; {self.note}" if self.note else ""), "results: " + ", ".join(f"{roll}: {result}" for roll, result in self.results)]

    def as_json(self) -> dict[str, Any]:
        return {"target": self.target, "table": self.table, "column": self.column, "note": self.note,
                "results": {str(roll): result for roll, result in self.results}}  # fmt: skip


Modifier = tuple[str, int, str]  # (what, signed amount, the rule that gives it or "")


@dataclass(frozen=True)
class SideFire:
    """One side's fire in a combat where both sides fire, each on a table read by its own strength: what the
    strength is made of, the table and column, every column shift and die roll modifier with its rule, and the
    loss number the fire inflicts for every roll of the die."""

    side: str  # "attacker" or "defender": who fires
    roll_field: str  # the turn field that holds this side's die ("roll", "defender_roll")
    strength: int
    parts: tuple[str, ...]  # "GE 2nd Army 5", "fort 3"
    table: str  # the table fired on ("army", "corps")
    column: str  # the strength's own column
    shifts: tuple[Modifier, ...]
    final_column: str
    drms: tuple[Modifier, ...]
    losses: tuple[tuple[int, int], ...]  # (die as rolled, loss number inflicted), DRMs applied and clamped

    @property
    def drm(self) -> int:
        return sum(n for _, n, _ in self.drms)

    def lines(self) -> list[str]:
        def listed(items: tuple[Modifier, ...]) -> str:
            return ", ".join(f"{what} {n:+d}" + (f" ({rule})" if rule else "") for what, n, rule in items) or "none"

        parts = " + ".join(self.parts) or "nothing"
        return [
            f"{self.side}'s fire: {parts} = {self.strength} CF on the {self.table} table, column {self.column}",
            f"  shifts: {listed(self.shifts)} -> column {self.final_column}; die roll modifiers: {listed(self.drms)}",
            f"  losses inflicted by {self.roll_field.replace('_', ' ')}: " + ", ".join(f"{roll}: {loss}" for roll, loss in self.losses),
        ]

    def as_json(self) -> dict[str, Any]:
        def listed(items: tuple[Modifier, ...], key: str) -> list[dict[str, Any]]:
            return [{key: what, "amount": n, "rule": rule} for what, n, rule in items]

        return {
            "side": self.side, "roll_field": self.roll_field, "strength": self.strength, "parts": list(self.parts),
            "table": self.table, "column": self.column, "shifts": listed(self.shifts, "shift"),
            "final_column": self.final_column, "drms": listed(self.drms, "drm"),
            "losses": {str(roll): loss for roll, loss in self.losses},
        }  # fmt: skip


@dataclass(frozen=True)
class FireWorking:
    """What the fire tables give for one combat in which both sides fire: the attacker's fire, then the
    defender's, and notes on what changes the order or the strengths (a flank attack). The result is written
    ``A/D``: the loss number the attacker suffers, then the defender's."""

    target: str
    attacker: SideFire
    defender: SideFire
    notes: tuple[str, ...] = ()
    simultaneous: bool = True  # False after a flank attempt: the side firing second fires with what the first fire left

    def expected(self, action: Any) -> str | None:
        """The result for the rolls ``action`` wrote (None if a roll is missing or the defender's fire is not known
        before the losses are chosen: one side fired first)."""
        roll, defender_roll = getattr(action, "roll", None), getattr(action, "defender_roll", None)
        if roll is None or defender_roll is None or not self.simultaneous:
            return None
        inflicted, suffered = dict(self.attacker.losses).get(roll), dict(self.defender.losses).get(defender_roll)
        return None if inflicted is None or suffered is None else f"{suffered}/{inflicted}"

    def lines(self) -> list[str]:
        return [f"attack on {self.target}", *self.attacker.lines(), *self.defender.lines(), *self.notes]

    def as_json(self) -> dict[str, Any]:
        return {
            "target": self.target, "fire": [self.attacker.as_json(), self.defender.as_json()],
            "notes": list(self.notes), "simultaneous": self.simultaneous,
        }  # fmt: skip
