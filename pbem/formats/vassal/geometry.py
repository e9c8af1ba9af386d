"""A VASSAL module's maps as plain JSON (boards, grids with their numbering, zones, decks) and back.

An imported pbem module keeps this in its ``map.json`` (key ``vassal``), so a save or log of the
original module is named exactly as VASSAL names it without the ``.vmod`` at hand.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pbem.formats.vassal.buildfile import Board, DiceButton, MapDef, Module
from pbem.formats.vassal.grids import HexGrid, Numbering, Region, RegionGrid, SquareGrid, Zone, ZonedGrid
from pbem.model.errors import PbemError

_NUMBERING_FIELDS = ("first", "sep", "h_type", "v_type", "h_leading", "v_leading", "h_off", "v_off",
                     "h_descend", "v_descend", "location_format", "stagger", "oblique")
_KIND = {"hex": HexGrid, "square": SquareGrid}


def grid_json(grid) -> dict[str, Any] | None:
    """A grid as JSON: ``kind`` and the attributes VASSAL's naming uses."""
    if grid is None:
        return None
    if isinstance(grid, (HexGrid, SquareGrid)):
        out: dict[str, Any] = {"kind": grid.kind, "dx": grid.dx, "dy": grid.dy, "x0": grid.x0, "y0": grid.y0}
        if isinstance(grid, HexGrid):
            out["sideways"] = grid.sideways
        if grid.numbering is not None:
            out["numbering"] = {name: getattr(grid.numbering, name) for name in _NUMBERING_FIELDS}
        return out
    if isinstance(grid, RegionGrid):
        return {"kind": "region", "regions": [[r.name, r.x, r.y] for r in grid.regions]}
    if isinstance(grid, ZonedGrid):
        return {"kind": "zoned", "background": grid_json(grid.background),
                "zones": [{"name": z.name, "polygon": [list(p) for p in z.polygon], "location_format": z.location_format,
                           "use_parent_grid": z.use_parent_grid, "grid": grid_json(z.grid)} for z in grid.zones]}
    raise PbemError(f"unknown grid {type(grid).__name__}")


def grid_from_json(data: dict[str, Any] | None):
    """Inverse of :func:`grid_json`."""
    if data is None:
        return None
    kind = data.get("kind")
    if kind in _KIND:
        numbering = Numbering(**data["numbering"]) if data.get("numbering") else None
        extra = {"sideways": bool(data.get("sideways"))} if kind == "hex" else {}
        return _KIND[kind](dx=float(data["dx"]), dy=float(data["dy"]), x0=int(data["x0"]), y0=int(data["y0"]),
                           numbering=numbering, **extra)
    if kind == "region":
        return RegionGrid([Region(str(name), int(x), int(y)) for name, x, y in data["regions"]])
    if kind == "zoned":
        zones = [Zone(name=z["name"], polygon=[(int(x), int(y)) for x, y in z["polygon"]],
                      location_format=z["location_format"], use_parent_grid=bool(z["use_parent_grid"]),
                      grid=grid_from_json(z.get("grid"))) for z in data["zones"]]
        return ZonedGrid(zones=zones, background=grid_from_json(data.get("background")))
    raise PbemError(f"unknown grid kind {kind!r}")


def map_json(map_def: MapDef) -> dict[str, Any]:
    return {
        "id": map_def.id, "name": map_def.name, "kind": map_def.kind,
        "edge": [map_def.edge_width, map_def.edge_height],
        "default_layout": map_def.default_layout,
        "boards": [{"name": b.name, "image": b.image, "size": list(b.size) if b.size else None,
                    "reversible": b.reversible, "grid": grid_json(b.grid)} for b in map_def.boards],
        "decks": [{"name": name, "xy": [x, y], "board": owner} for name, x, y, owner in map_def.decks],
    }


def map_from_json(data: dict[str, Any]) -> MapDef:
    boards = []
    for b in data["boards"]:
        size = b.get("size")
        boards.append(Board(name=b["name"], image=b.get("image", ""), width=size[0] if size else None,
                            height=size[1] if size else None, grid=grid_from_json(b.get("grid")),
                            reversible=bool(b.get("reversible"))))
    return MapDef(id=data["id"], name=data["name"], kind=data["kind"], edge_width=data["edge"][0],
                  edge_height=data["edge"][1], boards=boards, default_layout=data.get("default_layout"),
                  decks=[(d["name"], d["xy"][0], d["xy"][1], d.get("board", "")) for d in data.get("decks", [])])


def dice_json(button: DiceButton) -> dict[str, Any]:
    return {"name": button.name, "kind": button.kind, "dice": button.n_dice, "sides": button.n_sides,
            "plus": button.plus, "add_to_total": button.add_to_total, "report_total": button.report_total,
            "report_format": button.report_format, "keep": button.keep}


def dice_from_json(data: dict[str, Any]) -> DiceButton:
    return DiceButton(name=data["name"], kind=data["kind"], n_dice=data["dice"], n_sides=data["sides"],
                      plus=data.get("plus", 0), add_to_total=data.get("add_to_total", 0),
                      report_total=bool(data.get("report_total")), report_format=data.get("report_format"),
                      keep=data.get("keep"))


def module_json(module: Module) -> dict[str, Any]:
    """What naming positions and reading dice needs of ``module``."""
    return {"name": module.name, "version": module.version, "vassal_version": module.vassal_version,
            "maps": [map_json(m) for m in module.maps], "dice": [dice_json(d) for d in module.dice],
            "sides": list(module.sides)}


def module_from_json(data: dict[str, Any]) -> Module:
    try:
        return Module(name=data.get("name", ""), version=data.get("version", ""),
                      vassal_version=data.get("vassal_version", ""),
                      maps=[map_from_json(m) for m in data.get("maps", [])],
                      dice=[dice_from_json(d) for d in data.get("dice", [])], sides=list(data.get("sides", [])))
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise PbemError(f"the map's 'vassal' geometry is malformed ({type(error).__name__}: {error})") from None


def imported_module(folder: str | Path) -> Module | None:
    """The VASSAL geometry kept in a pbem module folder's map (written by ``pbem module import``), or None."""
    from pbem.model.jsonsource import load_json

    folder = Path(folder)
    if not (folder / "module.json").is_file():
        return None
    manifest = load_json(folder / "module.json").data
    relative = manifest.get("map") if isinstance(manifest, dict) else None
    if not isinstance(relative, str):
        return None
    target = (folder / relative).resolve()
    if folder.resolve() not in target.parents:
        raise PbemError.at(folder / "module.json", f"{relative!r} lies outside the module folder")
    data = load_json(target).data
    if not isinstance(data, dict) or not isinstance(data.get("vassal"), dict):
        return None
    return module_from_json(data["vassal"])
