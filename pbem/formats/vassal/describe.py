"""Plain-data summaries of modules, saves and logs, for ``pbem vassal info`` (JSON-ready dicts)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

from typing import TYPE_CHECKING

from pbem.formats.vassal.archive import is_zip, read_zip
from pbem.formats.vassal.metadata import Metadata, read_metadata
from pbem.formats.vassal.modulefile import (ModuleFile, module_from_archive, module_from_build_file, open_module,
                                           read_vassal_bytes)
from pbem.formats.vassal.savefile import SAVE_ENTRY, SavedGame, read_saved_game
from pbem.formats.vassal.obfuscation import HEADER
from pbem.formats.vassal.xmlsafe import parse_xml
from pbem.model.errors import PbemError

if TYPE_CHECKING:  # a save's report needs neither: they are imported when a module is described
    from pbem.formats.vassal.buildfile import Module
    from pbem.formats.vassal.grids import Numbering


def open_vassal_file(path: str | Path) -> SavedGame | ModuleFile | Metadata:
    """Whatever VASSAL file ``path`` is: a save or log, a module (zip or buildFile), or a metadata file."""
    path = Path(path)
    if path.is_dir():
        return open_module(path)  # an unpacked module or extension
    data = read_vassal_bytes(path)
    if is_zip(data):
        archive = read_zip(data, path)
        if SAVE_ENTRY in archive.names:
            return read_saved_game(data, path, archive)
        return module_from_archive(archive, path)
    if data.startswith(HEADER) or data.startswith(b"begin_save"):
        return read_saved_game(data, path)
    stripped = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped.startswith(b"<"):
        root = parse_xml(data, path)
        if root.tag == "data" or root.tag == "extensiondata":
            return read_metadata(data, path)
        return module_from_build_file(data, path)
    raise PbemError.at(path, "not a VASSAL module, save, log or metadata file")


def _date(millis: int | None) -> str | None:
    if millis is None:
        return None
    try:
        return dt.datetime.fromtimestamp(millis / 1000, dt.timezone.utc).isoformat(timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return None


def numbering_info(numbering: Numbering | None) -> dict | None:
    if numbering is None:
        return None
    return {"first": numbering.first, "sep": numbering.sep, "h_type": numbering.h_type,
            "v_type": numbering.v_type, "h_leading": numbering.h_leading, "v_leading": numbering.v_leading,
            "h_off": numbering.h_off, "v_off": numbering.v_off, "h_descend": numbering.h_descend,
            "v_descend": numbering.v_descend, "stagger": numbering.stagger, "oblique": numbering.oblique,
            "location_format": numbering.location_format}


def grid_info(grid) -> dict | None:
    from pbem.formats.vassal.grids import HexGrid, RegionGrid, SquareGrid, ZonedGrid

    if grid is None:
        return None
    if isinstance(grid, HexGrid):
        return {"kind": "hex", "dx": grid.dx, "dy": grid.dy, "x0": grid.x0, "y0": grid.y0,
                "sideways": grid.sideways, "numbering": numbering_info(grid.numbering)}
    if isinstance(grid, SquareGrid):
        return {"kind": "square", "dx": grid.dx, "dy": grid.dy, "x0": grid.x0, "y0": grid.y0,
                "numbering": numbering_info(grid.numbering)}
    if isinstance(grid, RegionGrid):
        return {"kind": "region", "regions": len(grid.regions)}
    if isinstance(grid, ZonedGrid):
        return {"kind": "zoned", "background": grid_info(grid.background),
                "zones": [{"name": zone.name, "location_format": zone.location_format,
                           "use_parent_grid": zone.use_parent_grid, "grid": grid_info(zone.grid)}
                          for zone in grid.zones]}
    return None


def module_info(module: Module) -> list[dict]:
    return [{"id": map_def.id, "kind": map_def.kind,
             "boards": [{"name": board.name, "image": board.image or None,
                         "size": list(board.size) if board.size else None, "grid": grid_info(board.grid)}
                        for board in map_def.boards]}
            for map_def in module.maps]


def metadata_info(meta: Metadata | None) -> dict | None:
    if meta is None:
        return None
    return {"name": meta.name or None, "version": meta.version or None,
            "vassal_version": meta.vassal_version or None, "saved": _date(meta.date_saved),
            "description": meta.description or None}


def describe(thing: SavedGame | ModuleFile | Metadata, source: str) -> dict:
    """The ``info`` report of an opened file."""
    if isinstance(thing, SavedGame):
        return describe_game(thing)
    if isinstance(thing, ModuleFile):
        module = thing.module
        meta = thing.metadata
        # An extension's metadata may carry its module's name: its own name and version come from its root.
        meta_name = meta.name if meta and not thing.is_extension else None
        info = {
            "file": source, "kind": "extension" if thing.is_extension else "module",
            "vassal_version": ((meta.vassal_version if meta else "") or module.vassal_version) or None,
            "module": {"name": module.name or meta_name or None,
                       "version": module.version or (meta.version if meta else None) or None},
            "build_file": thing.build_file,
            "maps": module_info(module),
            "pieces": len(module.slots), "prototypes": len(module.prototypes),
            "dice": [{"name": d.name, "dice": d.n_dice, "sides": d.n_sides, "plus": d.plus,
                      "add_to_total": d.add_to_total, "report_total": d.report_total,
                      "report_format": d.report_format} for d in module.dice],
            "sides": module.sides,
            "metadata": metadata_info(meta),
        }
        if module.extends is not None:
            info["extends"] = {"name": module.extends[0] or None, "version": module.extends[1] or None}
        return info
    return {"file": source, "kind": "metadata", "vassal_version": thing.vassal_version or None,
            "module": {"name": thing.name or None, "version": thing.version or None},
            "metadata": metadata_info(thing)}


def describe_game(game: SavedGame) -> dict:
    pieces, stacks = game.pieces()
    per_map = Counter(piece.map_id for piece in pieces.values())
    layouts = {layout.map_id: layout for layout in game.board_layouts()}
    map_ids = list(dict.fromkeys(list(layouts) + [m for m in per_map if m is not None]))
    moduledata = game.moduledata
    info = {
        "file": game.source, "kind": game.kind,
        "vassal_version": game.vassal_version or None,
        "module": {"name": moduledata.name if moduledata else None,
                   "version": moduledata.version if moduledata else None},
        "encoding": {"obfuscation": game.obfuscation.encoding,
                     "hex": game.obfuscation.hex_case if game.obfuscation.encoding == "obfuscated" else None},
        "saved": _date(game.savedata.date_saved) if game.savedata else None,
        "description": (game.savedata.description or None) if game.savedata else None,
        "maps": [{"id": map_id,
                  "boards": [{"name": name, "reversed": rev, "column": col, "row": row}
                             for name, rev, col, row in (layouts[map_id].boards if map_id in layouts else ())],
                  "pieces": per_map.get(map_id, 0)} for map_id in map_ids],
        "pieces": len(pieces), "stacks": sum(1 for s in stacks.values() if s.kind == "stack"),
        "decks": sum(1 for s in stacks.values() if s.kind == "deck"),
        # A roster lists a player again each time they rejoin: each player once.
        "players": list({(player.shown_name, player.side): {"name": player.shown_name, "side": player.side}
                         for player in game.players()}.values()),
    }
    if not game.vassal_version and game.savedata is None and game.obfuscation.hex_case == "upper":
        info["vassal_version_note"] = "2.9 or older (upper-case hex, no savedata)"
    if game.kind == "log":
        info["steps"] = len(game.steps)
    return info
