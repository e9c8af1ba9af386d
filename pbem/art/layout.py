"""Where hexes fall in a picture: a printed grid's centres and corners in pixels, and its calibration.

A layout maps a :class:`HexGridSpec` onto pixels with an origin (the pixel centre of the first printed
hex) and a pitch (centre-to-centre distance between neighbouring columns and rows). A regular grid drawn
by pbem uses the pitch of a regular hexagon; a grid calibrated over a scanned or printed map image uses
the pitch measured on that image, which may be slightly stretched.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.model.errors import PbemError
from pbem.model.hexgrid import Hex, HexGridSpec
from pbem.model.jsonsource import JsonDocument, load_json

Point = tuple[float, float]

SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class HexLayout:
    """Pixel geometry of a printed hex grid."""

    spec: HexGridSpec
    origin: Point  # pixel centre of the hex at (first_column, first_row)
    pitch: Point  # (dx, dy): flat grids step dx per column and dy per row; pointy ones alike

    @classmethod
    def regular(cls, spec: HexGridSpec, size: float, margin: float = 0.0) -> "HexLayout":
        """A grid of regular hexes of circumradius ``size`` whose top-left hex touches ``margin``."""
        if spec.orientation == "flat":
            dx, dy = 1.5 * size, SQRT3 * size
            first_shifted = _is_shifted(spec, spec.first_column)
            origin = (margin + size, margin + dy / 2 + (0 if not first_shifted else dy / 2))
            # With the first column shifted down, the unshifted second column is the highest one.
            if first_shifted:
                origin = (origin[0], origin[1])
        else:
            dx, dy = SQRT3 * size, 1.5 * size
            first_shifted = _is_shifted(spec, spec.first_row)
            origin = (margin + dx / 2 + (dx / 2 if first_shifted else 0), margin + size)
        return cls(spec, origin, (dx, dy))

    # --- geometry -------------------------------------------------------------------------------
    def center_of(self, column: int, row: int) -> Point:
        s = self.spec
        dx, dy = self.pitch
        if s.orientation == "flat":
            shift = (_is_shifted(s, column) - _is_shifted(s, s.first_column)) * dy / 2
            return (self.origin[0] + (column - s.first_column) * dx, self.origin[1] + (row - s.first_row) * dy + shift)
        shift = (_is_shifted(s, row) - _is_shifted(s, s.first_row)) * dx / 2
        return (self.origin[0] + (column - s.first_column) * dx + shift, self.origin[1] + (row - s.first_row) * dy)

    def center(self, h: Hex) -> Point:
        return self.center_of(*self.spec.to_offset(h))

    def label_center(self, label: str) -> Point:
        """Pixel centre of a printed label such as ``X28``; ``PbemError`` if it is not in the grid's format."""
        try:
            return self.center_of(*self.spec.unformat(label))
        except ValueError as error:
            raise PbemError(str(error)) from None

    def corners(self, h: Hex) -> list[Point]:
        """The six corners, clockwise from the east (flat) or north-east (pointy) corner."""
        x, y = self.center(h)
        return self.corners_at(x, y)

    def corners_at(self, x: float, y: float) -> list[Point]:
        dx, dy = self.pitch
        if self.spec.orientation == "flat":
            rx, ry = dx * 2 / 3, dy / 2
            return [(x + rx, y), (x + rx / 2, y + ry), (x - rx / 2, y + ry), (x - rx, y), (x - rx / 2, y - ry), (x + rx / 2, y - ry)]
        rx, ry = dx / 2, dy * 2 / 3
        return [(x + rx, y - ry / 2), (x + rx, y + ry / 2), (x, y + ry), (x - rx, y + ry / 2), (x - rx, y - ry / 2), (x, y - ry)]

    def side(self, a: Hex, b: Hex) -> tuple[Point, Point]:
        """The two corners of the hexside between adjacent hexes ``a`` and ``b``."""
        bx, by = self.center(b)
        ranked = sorted(self.corners(a), key=lambda p: (p[0] - bx) ** 2 + (p[1] - by) ** 2)
        return ranked[0], ranked[1]

    @property
    def radius(self) -> float:
        """Half the smaller hex extent: the room a counter has."""
        return min(self.pitch) / 2

    def extent(self) -> tuple[float, float, float, float]:
        """Bounding box (x0, y0, x1, y1) of every hex of the grid."""
        s = self.spec
        xs, ys = [], []
        for column in (s.first_column, s.first_column + 1, s.first_column + s.columns - 1, s.first_column + s.columns - 2):
            for row in (s.first_row, s.first_row + 1, s.first_row + s.rows - 1, s.first_row + s.rows - 2):
                for x, y in self.corners_at(*self.center_of(column, row)):
                    xs.append(x)
                    ys.append(y)
        return min(xs), min(ys), max(xs), max(ys)


def _is_shifted(spec: HexGridSpec, n: int) -> int:
    return 1 if (n % 2 == 1) == (spec.shifted == "odd") else 0


# --- calibration over a map image -----------------------------------------------------------------


@dataclass(frozen=True)
class Calibration:
    """A printed map image and the grid measured on it."""

    layout: HexLayout
    image: str | None  # file name of the image the calibration was measured on
    image_size: tuple[int, int] | None
    checks: dict[str, Point]  # label -> expected pixel centre (measured by eye on the image)
    source: str


def load_calibration(path: str | Path) -> Calibration:
    """Read a calibration file (``calibration.json``); every field is checked."""
    document = load_json(path)
    return calibration_from_json(document)


def calibration_from_json(document: JsonDocument) -> Calibration:
    data: Any = document.data
    if not isinstance(data, dict):
        raise document.error("", "a calibration must be a JSON object")
    grid = data.get("grid")
    if not isinstance(grid, dict):
        raise document.error("/grid", "missing grid: label, orientation, shifted, first_column, columns, first_row, rows")
    try:
        spec = HexGridSpec(
            label=_get(document, grid, "label", str, "/grid"),
            first_column=_get(document, grid, "first_column", int, "/grid", 1),
            columns=_get(document, grid, "columns", int, "/grid"),
            first_row=_get(document, grid, "first_row", int, "/grid", 1),
            rows=_get(document, grid, "rows", int, "/grid"),
            orientation=_get(document, grid, "orientation", str, "/grid"),
            shifted=_get(document, grid, "shifted", str, "/grid"),
        )
    except ValueError as error:
        raise document.error("/grid", str(error)) from None
    if not (1 <= spec.columns <= 1000 and 1 <= spec.rows <= 1000):
        raise document.error("/grid", "a grid has 1 to 1000 columns and rows")
    origin = _pair(document, data, "origin")
    pitch = _pair(document, data, "pitch")
    if not (2 <= pitch[0] <= 2000 and 2 <= pitch[1] <= 2000):
        raise document.error("/pitch", "pitch must be 2 to 2000 pixels")
    size = data.get("image_size")
    image_size = None
    if size is not None:
        w, h = _pair(document, data, "image_size")
        image_size = (int(w), int(h))
    checks = {}
    for label, point in (data.get("checks") or {}).items():
        if not isinstance(point, list) or len(point) != 2 or not all(isinstance(v, (int, float)) for v in point):
            raise document.error(f"/checks/{label}", "a check is [x, y] in image pixels")
        checks[label] = (float(point[0]), float(point[1]))
    image = data.get("image")
    if image is not None and not isinstance(image, str):
        raise document.error("/image", "image must be a file name")
    return Calibration(HexLayout(spec, origin, pitch), image, image_size, checks, document.source("").file)


def _get(document: JsonDocument, data: dict, key: str, kind: type, base: str, default: Any = None) -> Any:
    value = data.get(key, default)
    if value is None or not isinstance(value, kind) or isinstance(value, bool):
        raise document.error(f"{base}/{key}", f"{key} must be a {kind.__name__}")
    return value


def _pair(document: JsonDocument, data: dict, key: str) -> Point:
    value = data.get(key)
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value)
    ):
        raise document.error(f"/{key}", f"{key} must be [x, y] in pixels")
    return (float(value[0]), float(value[1]))
