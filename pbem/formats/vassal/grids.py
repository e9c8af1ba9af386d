"""Map grids and their numbering: a board point → the location name VASSAL shows (``$gridLocation$``), and back.

Follows ``HexGrid``, ``SquareGrid``, ``RegionGrid``, ``ZonedGrid`` and their ``…GridNumbering`` classes,
including Java's integer arithmetic: ``(int)`` truncates, ``Math.round``/``floor(v + 0.5)`` rounds half up.
Points are board pixels (map pixels minus the board's origin); sizes are the grid container's
(the board, or the zone's bounding box for a grid inside a zone), needed only by descending numbering.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pbem.formats.vassal.traits import substitute

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# No printed map has more rows or columns; a point further from a grid's origin comes from a hostile file
# and is named offboard rather than by a name of thousands of letters.
MAX_INDEX = 10_000
_ALPHA_MATCH = "-?(?:" + "|".join(letter + "+" for letter in ALPHABET) + ")"
Point = tuple[int, int]
Size = tuple[int, int] | None  # width, height; None when unknown (no image to measure)


def jround(value: float) -> int:
    """Java's ``Math.round``: half rounds up, not to even."""
    return math.floor(value + 0.5)


def name_part(value: int, kind: str, leading: int) -> str:
    """One row or column name (``RegularGridNumbering.getName``).

    >>> [name_part(n, "N", 1) for n in (5, 12)], [name_part(n, "A", 0) for n in (0, 25, 26, 27, 52)]
    (['05', '12'], ['A', 'Z', 'AA', 'BB', 'AAA'])
    """
    text = "-" if value < 0 else ""
    value = abs(value)
    if kind == "A":
        # VASSAL appends the letter and subtracts 26 until the value goes negative.
        return text + ALPHABET[value % 26] * (value // 26 + 1)
    digits = str(value)
    return text + "0" * max(0, leading + 1 - len(digits)) + digits


def parse_part(text: str, kind: str) -> int:
    """Inverse of :func:`name_part` (``RegularGridNumbering.parseName``)."""
    if len(text) > (MAX_INDEX // 26 + 2 if kind == "A" else 12):  # far beyond MAX_INDEX
        raise ValueError(f"grid name part {text[:20]!r}... is too long")
    if kind != "A":
        return int(text)
    negative = text.startswith("-")
    letters = text[1:] if negative else text
    value = 26 * (len(letters) - 1) + ALPHABET.index(letters[-1]) if letters else 0
    return -value if negative else value


@dataclass(slots=True)
class Numbering:
    """``HexGridNumbering`` / ``SquareGridNumbering`` settings (``RegularGridNumbering``)."""

    first: str = "H"
    sep: str = ""
    h_type: str = "N"
    v_type: str = "N"
    h_leading: int = 1
    v_leading: int = 1
    h_off: int = 0
    v_off: int = 0
    h_descend: bool = False
    v_descend: bool = False
    location_format: str = "$gridLocation$"
    stagger: bool = True  # hex only: odd columns numbered one higher ("slanted right" when oblique)
    oblique: bool = False  # ObliqueHexGridNumbering (3.8): rows run diagonally

    def grid_location(self, row: int, column: int) -> str:
        row_name = name_part(row + self.v_off, self.v_type, self.v_leading)
        col_name = name_part(column + self.h_off, self.h_type, self.h_leading)
        return col_name + self.sep + row_name if self.first == "H" else row_name + self.sep + col_name

    def format(self, row: int, column: int) -> str | None:
        """The location name of (row, column), or ``None`` when either is beyond :data:`MAX_INDEX`."""
        if abs(row) + abs(self.v_off) > MAX_INDEX or abs(column) + abs(self.h_off) > MAX_INDEX:
            return None
        return substitute(self.location_format, {
            "gridLocation": self.grid_location(row, column),
            "row": name_part(row + self.v_off, self.v_type, self.v_leading),
            "column": name_part(column + self.h_off, self.h_type, self.h_leading),
        }, unknown_empty=True)

    def parse(self, name: str) -> tuple[int, int] | None:
        """The (column, row) numbers, before offsets, that ``name`` stands for; ``None`` if it does not match."""
        pattern, col_group, row_group = self._pattern()
        if pattern is None:
            return None
        match = pattern.fullmatch(name)
        if not match:
            return None
        try:
            return parse_part(match.group(col_group), self.h_type), parse_part(match.group(row_group), self.v_type)
        except ValueError:
            return None

    def _pattern(self) -> tuple[re.Pattern | None, int, int]:
        def part(kind: str, leading: int) -> str:
            return _ALPHA_MATCH if kind == "A" else "-?[0-9]{%d,}" % (leading + 1)

        groups = {"count": 0, "col": 0, "row": 0}

        def group(axis: str) -> str:
            groups["count"] += 1
            groups[axis] = groups["count"]
            kind, leading = (self.h_type, self.h_leading) if axis == "col" else (self.v_type, self.v_leading)
            return "(" + part(kind, leading) + ")"

        def property_regex(token: str) -> str | None:
            if token == "gridLocation":
                first, second = ("col", "row") if self.first == "H" else ("row", "col")
                return group(first) + re.escape(self.sep) + group(second)
            if token == "row":
                return group("row")
            if token == "column":
                return group("col")
            return None

        regex = _format_regex(self.location_format, property_regex)
        if not regex or not groups["col"] or not groups["row"]:
            return None, 0, 0
        return re.compile(regex), groups["col"], groups["row"]


def _format_regex(location_format: str, property_regex: Callable[[str], str | None]) -> str:
    """A VASSAL location format (``text $property$ text``) as a regex: literal text escaped, each property
    replaced by what ``property_regex`` gives for it (a property it returns None for is left out)."""
    from pbem.formats.vassal.sequence import split

    tokens = split(location_format, "$")
    regex = ""
    for index, token in enumerate(tokens):
        if not token:
            continue
        if index % 2 == 0 or index + 1 >= len(tokens):
            regex += re.escape(token)
        else:
            regex += property_regex(token) or ""
    return regex


def _java_div(a: int, b: int) -> int:
    """Java's integer division, which truncates toward zero."""
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


def _slant(row: int, column: int, right: bool) -> int:
    """``ObliqueHexGridNumbering.slantRow``."""
    return _java_div(column, 2) + row if right else row - _java_div(column, 2) + 1


@dataclass(slots=True)
class HexGrid:
    """``HexGrid``: flat-topped columns ``dx`` apart, hexes ``dy`` apart; ``sideways`` swaps x and y."""

    dx: float = math.sqrt(3) / 2 * 64.0
    dy: float = 64.0
    x0: int = 0
    y0: int = 32
    sideways: bool = False
    numbering: Numbering | None = None
    kind: str = "hex"

    def _frame(self, point: Point) -> Point:
        return (point[1], point[0]) if self.sideways else point

    def raw_column(self, point: Point) -> int:
        x, _ = self._frame(point)
        return math.floor((x - self.x0) / self.dx + 0.5)

    def raw_row(self, point: Point) -> int:
        x, y = self._frame(point)
        column = jround((x - self.x0) / self.dx)
        if column % 2 == 0:
            return jround((y - self.y0) / self.dy)
        return jround((y - self.y0 - self.dy / 2) / self.dy)

    def raw_center(self, column: int, row: int) -> Point:
        """The centre of raw hex (column, row) as the numbering computes it (``getCenterPoint``)."""
        x = int(column * self.dx) + self.x0
        y = (int(row * self.dy) if column % 2 == 0 else int(row * self.dy + self.dy / 2)) + self.y0
        return (y, x) if self.sideways else (x, y)

    def snap_center(self, column: int, row: int) -> Point:
        """The centre VASSAL snaps pieces to (``hexPointCenterFromRawIndex``): rounded differently, sic."""
        x = int(self.dx * column + self.x0)
        y = int(self.dy * row + self.y0) if column % 2 == 0 else int(self.dy * row + int(self.dy / 2) + self.y0)
        return (y, x) if self.sideways else (x, y)

    def snap(self, point: Point) -> Point:
        """The centre of the hex containing ``point``, where VASSAL snaps a piece dropped there.

        VASSAL takes a rectangular candidate cell and then tests true hexagons; the nearest centre among
        the candidate and its neighbours is the same hex for any point not on a hexside.
        """
        x, y = self._frame(point)
        column = math.floor((x - self.x0 + self.dx / 2) / self.dx)
        row = math.floor((y - self.y0 + self.dy / 2) / self.dy) if column % 2 == 0 else math.floor((y - self.y0) / self.dy)
        best, best_distance = None, math.inf
        for dc in (0, -1, 1):
            for dr in (0, -1, 1):
                cx, cy = self._frame(self.snap_center(column + dc, row + dr))
                distance = (cx - x) ** 2 + (cy - y) ** 2
                if distance < best_distance:
                    best, best_distance = (cx, cy), distance
        return self._frame(best)

    def _max_rows(self, size: Size) -> int:
        return math.floor(size[1] / self.dx + 0.5) if size else 0  # sic: height over hex width

    def _max_columns(self, size: Size) -> int:
        return math.floor(size[0] / self.dy + 0.5) if size else 0  # sic: width over hex height

    def location_name(self, point: Point, size: Size = None) -> str | None:
        if self.numbering is None:
            return None
        n = self.numbering
        raw_column = self.raw_column(point)
        column = raw_column
        if n.v_descend and self.sideways:
            column = self._max_rows(size) - column
        if n.h_descend and not self.sideways:
            column = self._max_columns(size) - column
        row = self.raw_row(point)
        if n.v_descend and not self.sideways:
            row = self._max_rows(size) - row
        if n.h_descend and self.sideways:
            row = self._max_columns(size) - row
        if n.stagger and raw_column % 2 != 0:
            row += -1 if (n.h_descend if self.sideways else n.v_descend) else 1
        if n.oblique:
            row = _slant(row, column, n.stagger)
        return n.format(row, column)

    def point_of(self, name: str, size: Size = None) -> Point | None:
        if self.numbering is None:
            return None
        parsed = self.numbering.parse(name)
        if parsed is None:
            return None
        n = self.numbering
        column, row = parsed[0] - n.h_off, parsed[1] - n.v_off
        if n.oblique:
            # VASSAL 3.8 does not undo the slant here (its getLocation is HexGridNumbering's); this does.
            row = row - _java_div(column, 2) if n.stagger else row + _java_div(column, 2) - 1
        if n.stagger and column % 2 != 0:
            row += 1 if (n.h_descend if self.sideways else n.v_descend) else -1
        if self.sideways:
            if n.v_descend:
                column = self._max_rows(size) - column
            if n.h_descend:
                row = self._max_columns(size) - row
        else:
            if n.h_descend:
                column = self._max_columns(size) - column
            if n.v_descend:
                row = self._max_rows(size) - row
        return self.raw_center(column, row)


@dataclass(slots=True)
class SquareGrid:
    """``SquareGrid``: cells ``dx`` by ``dy``, cell (0,0) centred at (``x0``, ``y0``)."""

    dx: float = 48.0
    dy: float = 48.0
    x0: int = 24
    y0: int = 24
    numbering: Numbering | None = None
    kind: str = "square"

    def column(self, point: Point) -> int:
        return math.floor((point[0] - self.x0) / self.dx + 0.5)

    def row(self, point: Point) -> int:
        return int((point[1] - self.y0) / self.dy + 0.5)  # truncation, not floor, as VASSAL does

    def snap(self, point: Point) -> Point:
        return (int(self.column(point) * self.dx + self.x0), int(self.row(point) * self.dy + self.y0))

    def _max_rows(self, size: Size) -> int:
        return int(size[1] / self.dy + 0.5) if size else 0

    def _max_columns(self, size: Size) -> int:
        return int(size[0] / self.dx + 0.5) if size else 0

    def location_name(self, point: Point, size: Size = None) -> str | None:
        if self.numbering is None:
            return None
        column, row = self.column(point), self.row(point)
        if self.numbering.h_descend:
            column = self._max_columns(size) - column
        if self.numbering.v_descend:
            row = self._max_rows(size) - row
        return self.numbering.format(row, column)

    def point_of(self, name: str, size: Size = None) -> Point | None:
        if self.numbering is None:
            return None
        parsed = self.numbering.parse(name)
        if parsed is None:
            return None
        column, row = parsed[0] - self.numbering.h_off, parsed[1] - self.numbering.v_off
        if self.numbering.v_descend:
            row = self._max_rows(size) - row
        if self.numbering.h_descend:
            column = self._max_columns(size) - column
        return int(column * self.dx + self.x0), int(row * self.dy + self.y0)


@dataclass(slots=True)
class Region:
    name: str
    x: int
    y: int


@dataclass(slots=True)
class RegionGrid:
    """``RegionGrid`` (an irregular grid): a point is named by the nearest region origin, however far."""

    regions: list[Region] = field(default_factory=list)
    kind: str = "region"
    _by_x: list[tuple[int, int, Region]] | None = field(default=None, repr=False, compare=False)

    def location_name(self, point: Point, size: Size = None) -> str | None:
        """The nearest region's name (the first listed among equally near ones).

        Regions are searched outward from the point's x in x order, stopping on each side once the x distance
        alone exceeds the best distance: a few regions looked at per point rather than all of them.
        """
        if self._by_x is None:
            self._by_x = sorted((region.x, order, region) for order, region in enumerate(self.regions))
        by_x = self._by_x
        if not by_x:
            return None
        px, py = point
        best: tuple[float, int] = (math.inf, 0)
        found = None
        right = bisect.bisect_left(by_x, (px,))
        left = right - 1
        while left >= 0 or right < len(by_x):
            for index in (left, right):
                if 0 <= index < len(by_x):
                    x, order, region = by_x[index]
                    key = ((px - x) ** 2 + (py - region.y) ** 2, order)
                    if key < best:
                        best, found = key, region
            if left >= 0 and (px - by_x[left][0]) ** 2 > best[0]:
                left = -1
            else:
                left -= 1
            if right < len(by_x) and (by_x[right][0] - px) ** 2 > best[0]:
                right = len(by_x)
            else:
                right += 1
        return found.name if found else None

    def point_of(self, name: str, size: Size = None) -> Point | None:
        for region in self.regions:
            if region.name == name:
                return region.x, region.y
        return None

    def snap(self, point: Point) -> Point:
        name = self.location_name(point)
        return self.point_of(name) if name is not None else point


@dataclass(slots=True)
class Zone:
    """One zone of a ``ZonedGrid``: a polygon with its own name format and optionally its own grid."""

    name: str
    polygon: list[Point]
    location_format: str = "$name$"
    use_parent_grid: bool = False
    grid: "HexGrid | SquareGrid | RegionGrid | None" = None
    _box: tuple[int, int, int, int] | None = field(default=None, repr=False, compare=False)

    def box(self) -> tuple[int, int, int, int]:
        """(min x, min y, max x, max y) of the polygon, worked out once ((0, 0, 0, 0) without one)."""
        if self._box is None:
            xs = [x for x, _ in self.polygon] or [0]
            ys = [y for _, y in self.polygon] or [0]
            self._box = (min(xs), min(ys), max(xs), max(ys))
        return self._box

    def may_contain(self, point: Point) -> bool:
        """False when ``point`` is outside the polygon's box (so surely outside the polygon): no point looked at."""
        x0, y0, x1, y1 = self.box()
        return x0 <= point[0] < x1 and y0 <= point[1] < y1

    @property
    def size(self) -> Size:
        if not self.polygon:
            return (0, 0)
        xs = [x for x, _ in self.polygon]
        ys = [y for _, y in self.polygon]
        return max(xs) - min(xs), max(ys) - min(ys)

    def contains(self, point: Point) -> bool:
        return self.may_contain(point) and polygon_contains(self.polygon, point)


@dataclass(slots=True)
class ZonedGrid:
    """``ZonedGrid``: the first zone containing a point names it, else the background grid does."""

    zones: list[Zone] = field(default_factory=list)
    background: "HexGrid | SquareGrid | RegionGrid | None" = None
    kind: str = "zoned"

    def _zone_grid(self, zone: Zone):
        return self.background if zone.use_parent_grid else zone.grid

    def location_name(self, point: Point, size: Size = None) -> str | None:
        for zone in self.zones:
            if zone.contains(point):
                grid = self._zone_grid(zone)
                grid_size = size if zone.use_parent_grid else zone.size
                inner = grid.location_name(point, grid_size) if grid is not None else None
                return substitute(zone.location_format, {"name": zone.name, "gridLocation": inner or ""})
        if self.background is not None:
            return self.background.location_name(point, size)
        return None

    def point_of(self, name: str, size: Size = None) -> Point | None:
        for zone in self.zones:
            point = _zone_point(zone, self._zone_grid(zone), name, size if zone.use_parent_grid else zone.size)
            if point is not None and zone.contains(point):
                return point
        return self.background.point_of(name, size) if self.background is not None else None

    def snap(self, point: Point) -> Point:
        for zone in self.zones:
            if zone.contains(point):
                grid = self._zone_grid(zone)
                return grid.snap(point) if grid is not None else point
        return self.background.snap(point) if self.background is not None else point


def _zone_point(zone: Zone, grid, name: str, size: Size) -> Point | None:
    """``Zone.getLocation``: match the zone's format, then ask its grid, or use the polygon's mean."""
    found = {"grid": False}

    def property_regex(token: str) -> str | None:
        if token == "name":
            return re.escape(zone.name)
        if token == "gridLocation" and grid is not None:
            found["grid"] = True
            return "(.*)"
        return None

    regex = _format_regex(zone.location_format, property_regex)
    has_grid = found["grid"]
    if not regex:
        return None
    match = re.fullmatch(regex, name, re.S)
    if not match:
        return None
    if has_grid:
        return grid.point_of(match.group(match.lastindex or 1), size)
    if not zone.polygon:
        return 0, 0
    mean = (int(sum(x for x, _ in zone.polygon) / len(zone.polygon)),
            int(sum(y for _, y in zone.polygon) / len(zone.polygon)))
    return mean if zone.contains(mean) else zone.polygon[0]


def polygon_contains(polygon: list[Point], point: Point) -> bool:
    """``java.awt.Polygon.contains``: even-odd rule, a point on the top or left edge is inside."""
    if len(polygon) <= 2:
        return False
    x, y = point
    xs = [px for px, _ in polygon]
    ys = [py for _, py in polygon]
    if not (min(xs) <= x < max(xs) and min(ys) <= y < max(ys)):
        return False
    hits = 0
    last_x, last_y = polygon[-1]
    for cur_x, cur_y in polygon:
        try:
            if cur_y == last_y:
                continue
            if cur_x < last_x:
                if x >= last_x:
                    continue
                left_x = cur_x
            else:
                if x >= cur_x:
                    continue
                left_x = last_x
            if cur_y < last_y:
                if y < cur_y or y >= last_y:
                    continue
                if x < left_x:
                    hits += 1
                    continue
                test1, test2 = x - cur_x, y - cur_y
            else:
                if y < last_y or y >= cur_y:
                    continue
                if x < left_x:
                    hits += 1
                    continue
                test1, test2 = x - last_x, y - last_y
            if test1 < test2 / (last_y - cur_y) * (last_x - cur_x):
                hits += 1
        finally:
            last_x, last_y = cur_x, cur_y
    return hits % 2 == 1


Grid = HexGrid | SquareGrid | RegionGrid | ZonedGrid
