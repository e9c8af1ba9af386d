"""The user's own map image under pbem's pieces: the module's calibration fitted to the image given.

The image is the user's (a scan or the publisher's file): it is read, bounded in pixels, and drawn under the
counters, never copied into the project. The module's ``calibration.json`` says where its hexes lie on the
image it was measured on; an image of the same board at another resolution gets the grid scaled to it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PIL import Image

from pbem.art.images import check_canvas, open_image
from pbem.art.layout import Calibration, HexLayout, load_calibration
from pbem.model.errors import PbemError
from pbem.model.maps import GameMap, HexMap

CALIBRATION = "calibration.json"
MAX_BACKGROUND_PIXELS = 40_000_000  # a 400 dpi scan of a 22" x 34" map is 120 Mpx; 300 dpi of 11" x 17" is 17 Mpx
ASPECT_TOLERANCE = 0.01  # a scan at another resolution keeps the board's proportions within 1 %


def module_calibration(module_path: Path | None, module_id: str) -> Calibration:
    """The calibration of a module's map image; a clear error when the module has none."""
    path = module_path / CALIBRATION if module_path is not None else None
    if path is None or not path.is_file():
        raise PbemError(f"module {module_id} has no {CALIBRATION}: its map cannot be drawn over an image (see docs/art.md)")
    return load_calibration(path)


def scaled(layout: HexLayout, factor_x: float, factor_y: float) -> HexLayout:
    """The same grid on an image scaled by ``factor_x`` and ``factor_y``."""
    return replace(layout, origin=(layout.origin[0] * factor_x, layout.origin[1] * factor_y), pitch=(layout.pitch[0] * factor_x, layout.pitch[1] * factor_y))


def fit(calibration: Calibration, size: tuple[int, int], image_path: str | Path) -> HexLayout:
    """The calibrated grid on an image of ``size`` pixels: as measured, or scaled from the measured size."""
    if calibration.image_size is None or tuple(size) == tuple(calibration.image_size):
        return calibration.layout
    width, height = calibration.image_size
    fx, fy = size[0] / width, size[1] / height
    if abs(fx / fy - 1) > ASPECT_TOLERANCE:
        raise PbemError.at(
            image_path,
            f"image is {size[0]} x {size[1]} pixels, not the proportions of the calibrated map image ({width} x {height}): "
            "is it the whole map, uncropped?",
        )
    return scaled(calibration.layout, fx, fy)


def hex_radius(layout: HexLayout) -> float:
    """Centre-to-corner size of the layout's hexes, in pixels."""
    dx, dy = layout.pitch
    return dx * 2 / 3 if layout.spec.orientation == "flat" else dy * 2 / 3


def load_background(
    image_path: str | Path, module_path: Path | None, game_map: GameMap, module_id: str, hex_size: float | None = None
) -> tuple[Image.Image, HexLayout]:
    """The user's map image and the module's grid fitted to it; with ``hex_size``, both scaled so that a
    hex's radius is that many pixels (bigger counters over a small scan)."""
    if not isinstance(game_map, HexMap):
        raise PbemError(f"module {module_id}'s map is not a hex grid: --background needs a calibrated hex map")
    calibration = module_calibration(module_path, module_id)
    spec, own = calibration.layout.spec, game_map.spec
    if (spec.columns, spec.rows, spec.first_column, spec.first_row, spec.orientation, spec.shifted) != (
        own.columns, own.rows, own.first_column, own.first_row, own.orientation, own.shifted
    ):
        raise PbemError.at(calibration.source, f"the calibrated grid is not the grid of module {module_id}'s map")
    image = open_image(image_path, MAX_BACKGROUND_PIXELS)
    layout = fit(calibration, image.size, image_path)
    if hex_size is None:
        return image, layout
    factor = hex_size / hex_radius(layout)
    size = check_canvas(image.width * factor, image.height * factor, "picture over the map image")
    return image.resize(size, Image.Resampling.LANCZOS), scaled(layout, size[0] / image.width, size[1] / image.height)
