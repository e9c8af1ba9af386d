"""A pbem module as a VASSAL module (``.vmod``) and its scenarios as ``.vsav`` saves.

The board is the map picture pbem draws, under the grid :mod:`pbem.formats.vassal.modulewriter` writes for it:
a hex map's ``HexGrid`` names each hex by the module's own label, a point-to-point map's ``RegionGrid`` has one
region per space. Every unit is a palette piece named by its unit id, its faces the counter pbem draws: front and back, and one
more per step of a counter with three or more.
Names, piece ids and slot ids derive from the module's ids, and the zip carries no dates, so the same
module gives the same bytes and a later export is a clean upgrade.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

from pbem.art.counters import render_counter
from pbem.art.maps import MapPicture, map_picture
from pbem.art.style import load_style
from pbem.formats.vassal.archive import write_zip
from pbem.formats.vassal.modulewriter import (
    Grid,
    build_file,
    hex_grid,
    member_name,
    moduledata,
    piece_slot,
    piece_type,
    predefined_setup,
    region_grid,
    scenario_save,
    stable_id,
)
from pbem.model.errors import PbemError
from pbem.model.maps import HexMap, PointMap
from pbem.model.module import Module

COUNTER_PX = 75
HEX_SIZE = 40.0  # hex circumradius in pixels: counters of 75 px fit


@dataclass
class Board:
    """The exported board: its picture, its grid element, and where each location's centre is."""

    image: Image.Image
    grid: Grid

    @property
    def centres(self) -> dict[str, tuple[int, int]]:
        return self.grid.centres


def hex_board(module: Module, hex_size: float = HEX_SIZE) -> Board:
    """The board of a hex map: the map pbem draws, and the VASSAL grid over its hexes."""
    game_map = module.map
    assert isinstance(game_map, HexMap)
    picture: MapPicture = map_picture(game_map, load_style(module.path), hex_size=hex_size)
    layout = picture.layout
    assert layout is not None
    return Board(picture.image, hex_grid(game_map, layout.origin, layout.pitch))


def point_board(module: Module) -> Board:
    """The board of a point-to-point map: the map pbem draws, and a region on each space's centre."""
    game_map = module.map
    assert isinstance(game_map, PointMap)
    picture = map_picture(game_map, load_style(module.path))
    centres = {game_map.label(i): (round(x), round(y)) for i, (x, y) in enumerate(picture.centers)}
    return Board(picture.image, region_grid(centres))


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


@dataclass
class Exported:
    files: dict[str, bytes]
    pieces: int
    locations: int
    off_map: dict[str, list[str]]  # scenario -> units not on the map (in a box)


def export_module(module: Module, scenarios: list[str] | None = None) -> Exported:
    """The ``.vmod`` members for ``module``, with ``scenarios`` (default: all) as predefined set-ups."""
    board = hex_board(module) if isinstance(module.map, HexMap) else point_board(module)
    style = load_style(module.path)
    images: dict[str, bytes] = {"images/board.png": _png(board.image)}
    used: set[int] = set()
    slots_by_side: dict[str, list[str]] = {}
    slot_of: dict[str, tuple[int, str]] = {}
    for unit_id, unit in module.units.items():
        kind = unit.type
        # One picture per counter type, or per unit when the style prints each unit's designation in the export.
        designation = style.designation_of(unit_id) if style.export_designations else ""
        stem = unit_id if designation else kind.id
        front = member_name(f"{stem}-front.png")
        back = member_name(f"{stem}-back.png")
        more = [member_name(f"{stem}-face{face + 1}.png") for face in range(2, len(kind.steps))]  # steps past two
        if f"images/{front}" not in images:
            images[f"images/{front}"] = _png(render_counter(kind, 0, style, COUNTER_PX, designation=designation))
            # the reduced step, or a blank back
            images[f"images/{back}"] = _png(render_counter(kind, 1, style, COUNTER_PX, designation=designation))
            for face, name in enumerate(more, start=2):
                images[f"images/{name}"] = _png(render_counter(kind, face, style, COUNTER_PX, designation=designation))
        gpid = stable_id(unit_id, used)
        type_text = piece_type(unit_id, front, back, reduced=len(kind.steps) > 1, more=more)
        slot_of[unit_id] = (gpid, type_text)
        slots_by_side.setdefault(kind.side, []).append(piece_slot(unit_id, gpid, type_text, COUNTER_PX))
    chosen = sorted(module.scenarios) if scenarios is None else scenarios
    for name in chosen:
        if name not in module.scenarios:
            raise PbemError(f"module {module.id} has no scenario {name!r} ({', '.join(sorted(module.scenarios)) or 'none'})")
    files: dict[str, bytes] = {}
    off_map: dict[str, list[str]] = {}
    setups = []
    for name in chosen:
        save, missing = scenario_save(module, name, board.centres, slot_of)
        member = member_name(f"{name}.vsav")
        files[member] = save
        off_map[name] = missing
        setups.append(predefined_setup(member, name))
    build = build_file(module, board.image.size, board.grid, slots_by_side, setups, max(used, default=0) + 1)
    files = {"buildFile.xml": build, "moduledata": moduledata(module), **files, **images}
    for member in files:
        member_name(member)
    return Exported(files, len(slot_of), len(board.centres), off_map)


def vmod_bytes(exported: Exported) -> bytes:
    """The ``.vmod`` zip: members in a fixed order, no dates."""
    return write_zip({name: exported.files[name] for name in exported.files})


__all__ = ["COUNTER_PX", "HEX_SIZE", "Board", "Exported", "export_module", "hex_board", "point_board", "vmod_bytes"]
