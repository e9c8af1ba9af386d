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
