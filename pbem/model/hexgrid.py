"""Hex geometry: axial coordinates inside, printed labels (``1305``, ``X28``) only at the edges.

After Red Blob Games' "Hexagonal Grids". A map's printed grid is described by :class:`HexGridSpec`:
orientation (``flat``: flat-topped hexes in vertical columns, as on SPI maps; ``pointy``: rows), which
columns (or rows) are shifted half a hex, the first printed column and row, and the label format.

>>> spec = HexGridSpec(label="CCRR", first_column=1, columns=10, first_row=1, rows=10, shifted="even")
>>> spec.label_of(spec.parse("0203"))
'0203'
>>> spec.distance(spec.parse("0101"), spec.parse("0303"))
3
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator, NamedTuple


class Hex(NamedTuple):
    """A hex in axial coordinates (q, r); the cube coordinate s is ``-q - r``."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: "Hex") -> "Hex":  # type: ignore[override]
        return Hex(self.q + other.q, self.r + other.r)

    def distance(self, other: "Hex") -> int:
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def neighbours(self) -> list["Hex"]:
        return [self + d for d in DIRECTIONS]

    def direction_to(self, other: "Hex") -> int | None:
        """Index in :data:`DIRECTIONS` of ``other`` if it is adjacent, else ``None``."""
        delta = Hex(other.q - self.q, other.r - self.r)
        return DIRECTIONS.index(delta) if delta in DIRECTIONS else None


# Axial directions in order around the hex; opposite directions are 3 apart.
DIRECTIONS: tuple[Hex, ...] = (Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1))


def opposite(direction: int) -> int:
    return (direction + 3) % 6


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b`` (both included), for line of sight."""
    n = a.distance(b)
    if n == 0:
        return [a]
    # Nudge off the exact hexside so ties break the same way every time.
    aq, ar = a.q + 1e-6, a.r + 1e-6
    bq, br = b.q + 1e-6, b.r + 1e-6
    return [_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def _round(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(q, r)


def ring(center: Hex, radius: int) -> list[Hex]:
    if radius == 0:
        return [center]
    results = []
    cur = Hex(center.q + DIRECTIONS[4].q * radius, center.r + DIRECTIONS[4].r * radius)
    for side in range(6):
        for _ in range(radius):
            results.append(cur)
            cur = cur + DIRECTIONS[side]
    return results


def spiral(center: Hex, radius: int) -> Iterator[Hex]:
    """Every hex within ``radius`` of ``center``."""
    for k in range(radius + 1):
        yield from ring(center, k)


def column_letters(number: int) -> str:
    """1 → A, 26 → Z, 27 → AA (spreadsheet style, as printed on letter-lettered maps)."""
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def column_number(letters: str) -> int:
    number = 0
    for char in letters:
        number = number * 26 + ord(char) - ord("A") + 1
    return number


_NUMERIC_FORMAT = re.compile(r"^(C+)(R+)$")
_LETTER_LABEL = re.compile(r"^([A-Z]+)(\d+)$")


@dataclass(frozen=True)
class HexGridSpec:
    """How a printed hex grid is laid out and labelled.

    ``label`` is ``CCRR`` (or ``CCCRRR`` …: zero-padded column then row digits) or ``letter-number``
    (column letters then the row number, e.g. ``X28``). ``shifted`` says which printed columns (flat)
    or rows (pointy) sit half a hex lower (right): ``odd`` or ``even``.
    """

    label: str = "CCRR"
    first_column: int = 1
    columns: int = 1
    first_row: int = 1
    rows: int = 1
    orientation: str = "flat"
    shifted: str = "even"

    def __post_init__(self) -> None:
        if self.orientation not in ("flat", "pointy"):
            raise ValueError(f"orientation must be 'flat' or 'pointy', not {self.orientation!r}")
        if self.shifted not in ("odd", "even"):
            raise ValueError(f"shifted must be 'odd' or 'even', not {self.shifted!r}")
        if self.label != "letter-number" and not _NUMERIC_FORMAT.match(self.label):
            raise ValueError(f"label format must be like 'CCRR' or 'letter-number', not {self.label!r}")

    # --- offset (printed column, row) <-> axial -------------------------------------------------
    def _parity(self) -> int:
        return 1 if self.shifted == "odd" else 0

    def to_hex(self, column: int, row: int) -> Hex:
        p = self._parity()
        if self.orientation == "flat":
            return Hex(column, row - (column + _shift(column, p)) // 2)
        return Hex(column - (row + _shift(row, p)) // 2, row)

    def to_offset(self, h: Hex) -> tuple[int, int]:
        p = self._parity()
        if self.orientation == "flat":
            column = h.q
            return column, h.r + (column + _shift(column, p)) // 2
        row = h.r
        return h.q + (row + _shift(row, p)) // 2, row

    # --- labels ------------------------------------------------------------------------------------
    def format(self, column: int, row: int) -> str:
        if self.label == "letter-number":
            return f"{column_letters(column)}{row}"
        c_digits, r_digits = (len(g) for g in _NUMERIC_FORMAT.match(self.label).groups())  # type: ignore[union-attr]
        return f"{column:0{c_digits}d}{row:0{r_digits}d}"

    def unformat(self, label: str) -> tuple[int, int]:
        """Printed (column, row) of ``label``; ``ValueError`` if it is not in this format."""
        if self.label == "letter-number":
            match = _LETTER_LABEL.match(label.strip().upper())
            if not match:
                raise ValueError(f"{label!r} is not a letter+number hex label")
            return column_number(match.group(1)), int(match.group(2))
        c_digits, r_digits = (len(g) for g in _NUMERIC_FORMAT.match(self.label).groups())  # type: ignore[union-attr]
        if len(label) != c_digits + r_digits or not label.isdigit():
            raise ValueError(f"{label!r} is not a {c_digits + r_digits}-digit hex number")
        return int(label[:c_digits]), int(label[c_digits:])

    def parse(self, label: str) -> Hex:
        return self.to_hex(*self.unformat(label))

    def label_of(self, h: Hex) -> str:
        return self.format(*self.to_offset(h))

    def contains(self, h: Hex) -> bool:
        column, row = self.to_offset(h)
        return (
            self.first_column <= column < self.first_column + self.columns
            and self.first_row <= row < self.first_row + self.rows
        )

    def hexes(self) -> Iterator[Hex]:
        """Every hex of the grid, column by column (flat) or row by row (pointy)."""
        if self.orientation == "flat":
            for column in range(self.first_column, self.first_column + self.columns):
                for row in range(self.first_row, self.first_row + self.rows):
                    yield self.to_hex(column, row)
        else:
            for row in range(self.first_row, self.first_row + self.rows):
                for column in range(self.first_column, self.first_column + self.columns):
                    yield self.to_hex(column, row)

    def distance(self, a: Hex, b: Hex) -> int:
        return a.distance(b)


def _shift(n: int, parity: int) -> int:
    """1 when line ``n`` is one of the shifted ones, so that ``(n + shift) // 2`` rounds the right way."""
    return 1 if (n & 1) != parity else 0
