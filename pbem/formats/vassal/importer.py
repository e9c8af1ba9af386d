"""A VASSAL module as a new pbem module: maps and their locations, pieces as counters, dice, decks, mapping.

What VASSAL knows is transcribed; what it does not know (unit values, terrain, connections on a region
map, the rules) is left out and listed in the module's notes, never invented. Board pictures and piece
images are referenced by their name inside the module, never copied.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any

from pbem.formats.vassal.buildfile import MapDef, Module
from pbem.formats.vassal.geometry import module_json
from pbem.formats.vassal.grids import HexGrid, RegionGrid, SquareGrid, ZonedGrid
from pbem.formats.vassal.layout import OFFBOARD, MapLayout, map_layout
from pbem.formats.vassal.modulefile import BUILD_FILES, ModuleFile
from pbem.formats.vassal.sequence import split
from pbem.formats.vassal.traits import Piece, PieceError
from pbem.model.errors import PbemError

REDUCED_LEVEL = "+ (reduced)"  # the level name pbem module export gives a reduced face

MAX_LOCATIONS = 100_000  # cells enumerated per board, and candidate points of all boards: far beyond any printed map
GENERIC_TYPE = "vassal_piece"
# The whole import is bounded, not only each grid (issue 26): a hostile module multiplies grids by zones, zones
# by polygon points and pieces by pieces. Real modules stay far below: Paths of Glory has 2 maps, 486 regions
# and ~1,000 palette pieces.
MAX_MAPS = 200
MAX_PIECES = 20_000  # palette entries
MAX_POLYGON_POINTS = 100_000  # all zones' polygons together
MAX_IMPORT_WORK = 10_000_000  # points looked at while naming locations (a cell times the zone points it is tested against)


class _Budget:
    """The work left for naming a module's locations; past it the module is refused, before the work is done."""

    def __init__(self, source: str, limit: int = MAX_IMPORT_WORK):
        self.source, self.left = source, limit
        self.points = 0  # candidate points of every board so far

    def count(self, points: int, what: str) -> None:
        self.points += points
        if self.points > MAX_LOCATIONS:
            raise PbemError.at(self.source, f"{what}: the module's boards have more than {MAX_LOCATIONS:,} locations in all, more than pbem imports")

    def charge(self, work: float, what: str) -> None:
        self.left -= work
        if self.left < 0:
            raise PbemError.at(self.source, f"{what}: naming its locations would take more than {MAX_IMPORT_WORK:,} steps, more than pbem imports")


def slug(text: str, upper: bool = False, empty: str = "x") -> str:
    """``text`` reduced to letters, digits and hyphens.

    >>> slug("Main Map"), slug("1st Armd. Div", upper=True)
    ('main-map', '1ST-ARMD-DIV')
    """
    out = re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")
    out = out.upper() if upper else out.lower()
    return out or empty


def piece_faces(piece: Piece) -> list[str]:
    """Every image a piece can show: its BasicPiece's, then each layer's, in the order VASSAL lists them."""
    faces = [piece.image] if piece.image else []
    for trait in reversed(piece.traits[:-1]):
        if trait.kind == "emb2;":
            fields = trait.fields
            for image in split(fields[15], ",") if len(fields) > 15 else []:
                if image and image not in faces:
                    faces.append(image)
    return faces


@dataclass
class Location:
    name: str
    xy: tuple[int, int]
    group: int  # locations of one regular grid share a group; neighbours are found within a group
    spacing: float = 0.0  # the distance under which two locations of the group are neighbours


@dataclass
class Imported:
    """The files of the new module (relative path -> JSON data) and what could not be imported."""

    module_id: str
    files: dict[str, Any]
    not_imported: list[str] = field(default_factory=list)
    setups: dict[str, Any] = field(default_factory=dict)  # set-up file name -> its SavedGame
    counts: dict[str, int] = field(default_factory=dict)


def _cells(grid, size: tuple[int, int]) -> list[tuple[int, int]]:
    """Centres of a hex or square grid's cells that lie on a board of ``size``."""
    width, height = size
    out: list[tuple[int, int]] = []
    span_x, span_y = (height, width) if isinstance(grid, HexGrid) and grid.sideways else (width, height)
    if (span_x / grid.dx + 4) * (span_y / grid.dy + 4) > MAX_LOCATIONS:
        return out  # no printed map has so many cells: a hostile or broken grid
    if isinstance(grid, SquareGrid):
        columns = range(math.floor(-grid.x0 / grid.dx) - 1, math.ceil((width - grid.x0) / grid.dx) + 2)
        rows = range(math.floor(-grid.y0 / grid.dy) - 1, math.ceil((height - grid.y0) / grid.dy) + 2)
        for c in columns:
            for r in rows:
                out.append((int(c * grid.dx + grid.x0), int(r * grid.dy + grid.y0)))
    else:
        w, h = (height, width) if grid.sideways else (width, height)
        columns = range(math.floor(-grid.x0 / grid.dx) - 1, math.ceil((w - grid.x0) / grid.dx) + 2)
        rows = range(math.floor(-grid.y0 / grid.dy) - 2, math.ceil((h - grid.y0) / grid.dy) + 2)
        for c in columns:
            for r in rows:
                out.append(grid.snap_center(c, r))
    return [(x, y) for x, y in out if 0 <= x < width and 0 <= y < height]


def _spacing(grid) -> float:
    if isinstance(grid, SquareGrid):
        return max(grid.dx, grid.dy) + 2  # centres are whole pixels: allow for their rounding
    return max(grid.dy, math.hypot(grid.dx, grid.dy / 2)) + 2


def _cell_count(grid, size: tuple[int, int] | None) -> float:
    """At most how many candidate points ``grid`` gives on a board of ``size`` (before any is worked out)."""
    if isinstance(grid, (HexGrid, SquareGrid)):
        if size is None or grid.numbering is None:
            return 0
        count = (size[0] / grid.dx + 4) * (size[1] / grid.dy + 4)
        return count if count <= MAX_LOCATIONS else 0  # _cells lists none of a grid so dense
    if isinstance(grid, RegionGrid):
        return len(grid.regions)
    if isinstance(grid, ZonedGrid):
        return len(grid.zones) + _cell_count(grid.background, size) + sum(_cell_count(z.grid, size) for z in grid.zones)
    return 0


def _naming_cost(grid) -> int:
    """Boxes looked at to name one point of ``grid``: each zone's is tested in turn (then the polygons of those
    that hold the point, charged as they come: :func:`_polygon_cost`)."""
    if isinstance(grid, ZonedGrid):
        return 1 + len(grid.zones)
    return 1


def _polygon_cost(grid, point: tuple[int, int]) -> int:
    """Polygon points looked at to name ``point`` on ``grid``: those of every zone whose box holds it."""
    if isinstance(grid, ZonedGrid):
        return sum(len(zone.polygon) for zone in grid.zones if zone.may_contain(point))
    return 0


def _candidates(grid, size: tuple[int, int] | None, groups: list, budget: _Budget | None = None, what: str = "") -> list[tuple[tuple[int, int], int, float]]:
    """Board points worth naming: cell centres, region origins, zone centres; with their neighbour group."""
    out: list[tuple[tuple[int, int], int, float]] = []
    if grid is None:
        return out
    if isinstance(grid, (HexGrid, SquareGrid)):
        if size is None or grid.numbering is None:
            return out
        groups.append(grid)
        out += [(p, len(groups), _spacing(grid)) for p in _cells(grid, size)]
    elif isinstance(grid, RegionGrid):
        out += [((r.x, r.y), 0, 0.0) for r in grid.regions]
    elif isinstance(grid, ZonedGrid):
        for zone in grid.zones:
            inner = grid.background if zone.use_parent_grid else zone.grid
            if inner is not None:
                zone_size = size if zone.use_parent_grid else (max(x for x, _ in zone.polygon), max(y for _, y in zone.polygon)) if zone.polygon else None
                if budget is not None:  # every cell of the zone's grid, each tested against the zone's box at least
                    budget.charge(_cell_count(inner, zone_size), what)
                inside = [c for c in _candidates(inner, zone_size, groups, budget, what) if zone.may_contain(c[0])]
                if budget is not None:
                    budget.charge(len(inside) * len(zone.polygon), what)  # those in its box, against its polygon
                out += [c for c in inside if zone.contains(c[0])]
            elif zone.polygon:
                xs, ys = [x for x, _ in zone.polygon], [y for _, y in zone.polygon]
                out.append(((sum(xs) // len(xs), sum(ys) // len(ys)), 0, 0.0))
        out += _candidates(grid.background, size, groups, budget, what)
    return out


def map_locations(map_def: MapDef, layout: MapLayout, extra_points: list[tuple[int, int]],
                  budget: _Budget | None = None) -> tuple[dict[str, Location], list[str]]:
    """Every location VASSAL can name on ``map_def`` as laid out by default, first point per name."""
    budget = budget or _Budget("")
    found: dict[str, Location] = {}
    missing: list[str] = []
    groups: list = []
    for placed in layout.boards:
        board = placed.board
        if placed.x is None or placed.y is None:
            missing.append(f"board {board.name!r} of map {map_def.id!r}: placed after a board of unknown size, so VASSAL's"
                           " names on it are not known (--board-size gives the sizes of the boards before it)")
            continue
        if board.grid is None:
            missing.append(f"board {board.name!r} of map {map_def.id!r} has no grid: VASSAL names no location on it")
        elif not _named(board.grid):
            missing.append(f"board {board.name!r} of map {map_def.id!r}: its grid is not numbered, so VASSAL names no cell of it")
        if board.size is None and _has_regular(board.grid):
            missing.append(f"board {board.name!r} of map {map_def.id!r}: size unknown (its image is not in the file given;"
                           f" --board-size gives it), so its grid cells are only those pieces are placed on")
        if board.size is not None and _has_regular(board.grid) and _too_many(board.grid, board.size):
            missing.append(f"board {board.name!r} of map {map_def.id!r}: its grid has more than {MAX_LOCATIONS} cells; they are not listed")
        what = f"board {board.name[:60]!r} of map {map_def.id[:60]!r}"
        cost = _naming_cost(board.grid)
        budget.charge(_cell_count(board.grid, board.size) * cost, what)  # before any cell is listed or named
        candidates = _candidates(board.grid, board.size, groups, budget, what)
        budget.count(len(candidates), what)
        for (x, y), group, spacing in candidates:
            if placed.reversed and board.size:
                x, y = board.size[0] - x, board.size[1] - y
            point = (placed.x + x, placed.y + y)
            budget.charge(_polygon_cost(board.grid, (x, y)), what)
            name = layout.location_name(*point)
            if name and name != OFFBOARD and name not in found:
                found[name] = Location(name, point, group, spacing)
    budget.charge(len(extra_points) * max((_naming_cost(p.board.grid) for p in layout.boards), default=1), f"the pieces placed on map {map_def.id[:60]!r}")
    for point in extra_points:
        name = layout.location_name(*point)
        if name and name != OFFBOARD and name not in found:
            found[name] = Location(name, point, 0, 0.0)
    for name, x, y, _ in map_def.decks:
        found.pop(name, None)  # a deck is a place for cards, not a map location
    return found, missing


def _too_many(grid, size: tuple[int, int]) -> bool:
    grids = [grid] if isinstance(grid, (HexGrid, SquareGrid)) else []
    if isinstance(grid, ZonedGrid):
        grids = [g for g in [grid.background] + [z.grid for z in grid.zones] if isinstance(g, (HexGrid, SquareGrid))]
    return any((size[0] / g.dx + 4) * (size[1] / g.dy + 4) > MAX_LOCATIONS for g in grids)


def _named(grid) -> bool:
    """Whether VASSAL gives a grid's points names (an unnumbered hex or square grid names none)."""
    if isinstance(grid, (HexGrid, SquareGrid)):
        return grid.numbering is not None
    if isinstance(grid, ZonedGrid):
        return bool(grid.zones) or _named(grid.background)
    return isinstance(grid, RegionGrid) and bool(grid.regions)


def _has_regular(grid) -> bool:
    if isinstance(grid, (HexGrid, SquareGrid)):
        return grid.numbering is not None
    if isinstance(grid, ZonedGrid):
        return _has_regular(grid.background) or any(_has_regular(z.grid) for z in grid.zones)
    return False


def connections(locations: dict[str, Location]) -> list[list[str]]:
    """Neighbouring cells of each regular grid, by distance between centres (hex and square grids only)."""
    out = []
    buckets: dict[tuple[int, int, int], list[Location]] = {}
    for location in locations.values():
        if location.group:
            size = location.spacing
            key = (location.group, int(location.xy[0] // size), int(location.xy[1] // size))
            buckets.setdefault(key, []).append(location)
    for (group, bx, by), members in buckets.items():
        for location in members:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    for other in buckets.get((group, bx + dx, by + dy), ()):
                        if location.name < other.name and math.dist(location.xy, other.xy) <= location.spacing:
                            out.append([location.name, other.name])
    return sorted(out)


def import_module(found: ModuleFile, board_sizes: dict[str, tuple[int, int]] | None = None, module_id: str | None = None) -> Imported:
    """The pbem module files for the VASSAL module ``found``, with the id ``module_id`` (default: its name's slug)."""
    module = found.module
    for map_def in module.maps:
        for board in map_def.boards:
            if board_sizes and board.name in board_sizes and board.size is None:
                board.width, board.height = board_sizes[board.name]
    name = module.name or (found.metadata.name if found.metadata else "") or "VASSAL module"
    module_id = module_id or slug(name)
    version = module.version or "0"
    notes: list[str] = []
    _check_bounds(module, found.source)
    setups = module_setups(found)
    placed, copies = _placed_points(setups)
    per_map: dict[str, dict[str, Location]] = {}
    budget = _Budget(found.source)
    for map_def in module.maps:
        locations, missing = map_locations(map_def, map_layout(map_def), placed.get(map_def.id, []), budget)
        per_map[map_def.id] = locations
        notes += missing
    main = max(module.maps, key=lambda m: len(per_map[m.id]), default=None)
    main_locations = per_map[main.id] if main else {}
    boxes = ["eliminated", "offboard"]  # offboard: where VASSAL names no location
    map_boxes: dict[str, str] = {}
    for map_def in module.maps:
        if main is not None and map_def.id != main.id:
            box = slug(map_def.id).replace("-", "_")
            while box in boxes or not box[0].isalpha():
                box = "map_" + box
            boxes.append(box)
            map_boxes[map_def.id] = box
            notes.append(f"map {map_def.id!r} ({len(per_map[map_def.id])} locations) is the box {box!r}: pbem has one map per module")
    sides_written = list(dict.fromkeys(s for s in module.sides if s))
    sides = _side_ids(sides_written)
    side_list = list(sides.values())
    if len(side_list) < 2:
        notes.append("the module names fewer than two sides (no PlayerRoster): player-1 and player-2 stand in for them")
        side_list = list(dict.fromkeys(side_list + ["player-1", "player-2"]))[:2]

    counter_types, units, rules = _counters(module, notes, copies)
    spaces = {n: {"xy": list(loc.xy)} for n, loc in sorted(main_locations.items())}
    links = connections(main_locations)
    if main is not None and not links and main_locations:
        notes.append(f"map {main.id!r} has no regular grid: connections between its {len(main_locations)} locations are not in VASSAL and not imported")
    notes.append("counter values (attack, defence, movement), terrain and the rules are not in a VASSAL module: values are 0 and no rule is checked")
    game_map: dict[str, Any] = {
        "$schema": "../../schemas/map.schema.json", "id": main.id if main else "map", "kind": "points",
        "note": f"Imported from the VASSAL module {name} {version}: locations named as VASSAL names them; the board pictures"
                " are the module's images, referenced by name, not copied.",
        "spaces": spaces, "connections": [{"between": pair} for pair in links],
        "vassal": module_json(module),
    }
    game_map["vassal"]["main_map"] = main.id if main else None
    manifest = {
        "$schema": "../../schemas/module.schema.json", "id": module_id, "name": name,
        "title": f"{name} (imported from VASSAL {module.vassal_version or '?'})", "version": version,
        "sides": side_list, "map": "map.json", "counters": "counters.json", "boxes": boxes,
        "notes": ["Imported by pbem module import: no rule is checked yet (every action is reported as not checked)."] + notes,
        "sources": [f"VASSAL module {name} {version} ({found.source.rsplit('/', 1)[-1]})"],
    }
    counters = {"note": "Pieces of the VASSAL module's palette; faces are its image names; values are not in VASSAL.",
                "counter_types": counter_types, "units": units}
    mapping: dict[str, Any] = {
        "$schema": "../../schemas/vassal.schema.json", "module": module_id,
        "note": "Written by pbem module import: a piece is the unit of its palette name; locations keep VASSAL's names.",
        "vassal_modules": [{"name": name, "versions": [version]}],
        "locations": {"map": main.id if main else "Map", "same_names": True, "names": {OFFBOARD: "offboard"},
                      "maps": map_boxes},
    }
    if sides_written:
        mapping["sides"] = {written: sides[written] for written in sides_written}
    if rules:
        mapping["units"] = {"pieces": rules}
        lost = max((_reduced_levels(slot.piece) for slot in module.slots if slot.piece is not None), default=0)
        if lost > 1:  # "ID (reduced 2)": the third step, as pbem module export names a counter's further faces
            mapping["units"]["reduced_name"] = r"^(?P<name>.+) \(reduced(?: (?P<lost>[2-9]|[1-9][0-9]))?\)$"
        elif lost:
            mapping["units"]["reduced_name"] = r"^(?P<name>.+) \(reduced\)$"  # as pbem module export names a back face
    if module.dice:
        mapping["dice"] = {d.name: {"purpose": slug(d.name).replace("-", "_"), "dice": f"{d.n_dice}d{d.n_sides}"}
                           for d in module.dice if d.name and d.n_sides > 0}
    decks = {d[0]: [d[1], d[2]] for m in module.maps for d in m.decks if d[0]}
    if decks:
        boxes.append("decks")
        mapping["locations"]["names"].update({deck: "decks" for deck in sorted(decks) if deck not in main_locations})
        notes.append(f"decks {', '.join(sorted(decks))}: their positions are kept with the map geometry; cards are pieces")
    files = {"module.json": manifest, "map.json": game_map, "counters.json": counters}
    if rules:
        files["vassal.json"] = mapping
    else:
        notes.append("no piece in the palette: no VASSAL mapping of units is written (the mapping needs one)")
    counts = {"locations": len(spaces), "connections": len(links), "units": len(units), "maps": len(module.maps),
              "dice": len(module.dice), "decks": len(decks), "scenarios": 0}
    return Imported(module_id, files, notes, setups=setups, counts=counts)


def _zones(grid) -> list:
    return list(grid.zones) if isinstance(grid, ZonedGrid) else []


def _check_bounds(module: Module, source: str) -> None:
    """Refuse, in one line and before any work, a module past the whole import's bounds."""
    if len(module.maps) > MAX_MAPS:
        raise PbemError.at(source, f"the module has {len(module.maps):,} maps, more than the {MAX_MAPS} pbem imports")
    if len(module.slots) > MAX_PIECES:
        raise PbemError.at(source, f"the module's palette has {len(module.slots):,} pieces, more than the {MAX_PIECES:,} pbem imports")
    points = sum(len(zone.polygon) for map_def in module.maps for board in map_def.boards for zone in _zones(board.grid))
    if points > MAX_POLYGON_POINTS:
        raise PbemError.at(source, f"the module's zones have {points:,} polygon points, more than the {MAX_POLYGON_POINTS:,} pbem imports")


def _reduced_levels(piece: Piece) -> int:
    """How many steps a piece's layer names past its front, as ``pbem module export`` writes them: a level
    '+ (reduced)', then '+ (reduced 2)', '+ (reduced 3)' ... in a row (0 when it names none)."""
    for trait in piece.traits:
        if trait.kind == "emb2;" and len(trait.fields) > 16:
            names = split(trait.fields[16], ",")
            if REDUCED_LEVEL in names:
                lost = 1
                while f"+ (reduced {lost + 1})" in names and lost < 99:
                    lost += 1
                return lost
    return 0


def _side_ids(written: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for side in written:
        base = slug(side)
        if not base[0].isalpha():
            base = "side-" + base
        candidate, n = base, 2
        while candidate in out.values():
            candidate, n = f"{base}-{n}", n + 1
        out[side] = candidate
    return out


def _counters(module: Module, notes: list[str], copies: dict[str, int]) -> tuple[dict, list, list]:
    types: dict[str, Any] = {}
    units: list[dict] = []
    rules: list[dict] = []
    seen: set[str] = set()
    taken: set[str] = set()  # every unit id given so far, numbered copies included
    tried: dict[str, int] = {}  # see _free_id
    unnamed = 0
    for slot in module.slots:
        piece = slot.piece
        if piece is None:
            continue
        name = piece.name or slot.name
        if not name:
            unnamed += 1
            continue
        if name in seen:
            continue
        seen.add(name)
        n_copies = copies.get(name, 1)
        unit_id = _free_id("P-" + slug(name, upper=True), n_copies, taken, tried)
        type_id = "p_" + unit_id[2:].lower().replace("-", "_")
        faces = piece_faces(piece)
        types[type_id] = {
            "name": name, "side": "neutral", "nationality": "unknown", "arm": "unknown", "size": "none",
            "quality": None, "mechanized": False, "retreats": True,
            "steps": [{"attack": 0, "defence": 0, "move": 0}] * (1 + _reduced_levels(piece)),
            "source": "VASSAL module palette", "note": "values are not in the VASSAL module",
            "attributes": {"faces": faces, "palette": slot.name or name},
        }
        if n_copies > 1:  # the set-ups place several: one unit each, numbered in VASSAL piece id order
            units += [{"id": f"{unit_id}-{n:02d}", "type": type_id, "name": name} for n in range(1, n_copies + 1)]
            rules.append({"name": "^" + re.escape(name) + "$", "generic": unit_id + "-{n:02}"})
        else:
            units.append({"id": unit_id, "type": type_id, "name": name})
            rules.append({"name": "^" + re.escape(name) + "$", "unit": unit_id})
    if unnamed:
        notes.append(f"{unnamed} palette pieces without a name are not imported")
    if len(module.slots) > len(seen) + unnamed:
        notes.append(f"{len(module.slots) - len(seen) - unnamed} palette entries repeat a name (or are stacks): one counter per name,"
                     " with as many units as the module's set-ups place copies of it")
    if not types:
        types[GENERIC_TYPE] = {
            "name": "VASSAL piece", "side": "neutral", "nationality": "unknown", "arm": "unknown", "size": "none",
            "quality": None, "mechanized": False, "steps": [{"attack": 0, "defence": 0, "move": 0}], "retreats": True,
            "source": "VASSAL module", "note": "the module's palette has no piece",
        }
    return types, units, rules


def _free_id(base: str, copies: int, taken: set[str], tried: dict[str, int] | None = None) -> str:
    """A unit id for a piece name: ``base``, or ``base-2``, ``base-3`` … so that neither it nor its numbered copies
    (``-01`` … when the set-ups place ``copies`` > 1) is an id already given; the ids it takes join ``taken``.
    Two names may slug alike ("Town 01" and a second "Town" placed twice both reach ``P-TOWN-01``).

    ``tried`` remembers, per base, the first candidate whose own id was still free: every one before it is taken
    for good, so 20,000 names that slug alike cost 20,000 tries in all, not 200 million.
    """
    n = tried.get(base, 1) if tried is not None else 1
    unit_id = base if n == 1 else f"{base}-{n}"
    lowest = None  # the first candidate whose own id is free (a search with other copies may still take it)
    while True:
        if unit_id not in taken:
            lowest = n if lowest is None else lowest
            wanted = [f"{unit_id}-{k:02d}" for k in range(1, copies + 1)] if copies > 1 else [unit_id]
            if not any(w in taken for w in wanted):
                taken.update(wanted)
                taken.add(unit_id)  # the generic rule's stem: no other piece may take it either
                if tried is not None:
                    tried[base] = n + 1 if lowest == n else lowest
                return unit_id
        n += 1
        unit_id = f"{base}-{n}"


def module_setups(found: ModuleFile) -> dict[str, Any]:
    """The module's own set-ups (``.vsav`` files at the root of the ``.vmod``, or beside an unpacked buildFile),
    by file name; a set-up that does not read is left out and named in the notes by the caller."""
    from pbem.formats.vassal.savefile import read_saved_game

    out: dict[str, Any] = {}
    members: dict[str, bytes | None] = {}
    if found.archive is not None:
        for member in found.archive.names:
            if member.lower().endswith((".vsav", ".sav")) and "/" not in member:
                members[member] = found.archive.get(member)
    elif Path(found.source).name in BUILD_FILES:  # an unpacked module: its set-ups lie beside the buildFile
        from pbem.formats.vassal.modulefile import read_vassal_bytes

        for path in sorted(Path(found.source).parent.iterdir()):
            if path.suffix.lower() in (".vsav", ".sav") and path.is_file():
                members[path.name] = read_vassal_bytes(path)
    for name, data in sorted(members.items()):
        if data is None:
            continue
        try:
            game = read_saved_game(data, f"{found.source}!{name}")
            game.pieces()
        except (PbemError, PieceError, ValueError, RecursionError):
            continue  # a broken set-up only costs the names it would have given
        out[name] = game
    return out


def _placed_points(setups: dict[str, Any]) -> tuple[dict[str, list[tuple[int, int]]], dict[str, int]]:
    """Map points where the set-ups place pieces (names for boards of unknown size), and how many copies of
    each piece name the set-up with the most has."""
    points: dict[str, list[tuple[int, int]]] = {}
    copies: dict[str, int] = {}
    for game in setups.values():
        pieces, _ = game.pieces()
        count: dict[str, int] = {}
        for piece in pieces.values():
            count[piece.name] = count.get(piece.name, 0) + 1
            if piece.map_id is not None and piece.x is not None and piece.y is not None:
                points.setdefault(piece.map_id, []).append((piece.x, piece.y))
        for name, n in count.items():
            copies[name] = max(copies.get(name, 0), n)
    return points, copies


def scenarios_from_setups(imported: Imported, module) -> None:
    """Add each set-up the module's VASSAL mapping reads as a scenario (``scenario-<id>.json``) to ``imported``."""
    from pbem.formats.vassal.mapping import Mapping
    from pbem.formats.vassal.to_state import save_to_state
    from pbem.model.jsonsource import parse_json

    if "vassal.json" not in imported.files:
        return
    import json

    mapping = Mapping(module, parse_json(json.dumps(imported.files["vassal.json"]), "vassal.json"))
    manifest = imported.files["module.json"]
    for name, game in sorted(imported.setups.items()):
        scenario_id = slug(name.rsplit(".", 1)[0])
        try:
            state, namer = save_to_state(game, mapping)
        except PbemError as error:
            _note(imported, f"set-up {name!r}: {error.message}")
            continue
        if namer.warnings:
            _note(imported, f"set-up {name!r}: {len(namer.warnings)} pieces are no unit ({namer.warnings[0]})")
        scenario = {"$schema": "../../schemas/scenario.schema.json", "id": scenario_id, "title": name.rsplit(".", 1)[0],
                    "module": module.id, "source": f"the VASSAL module's set-up {name}", "turn": state["turn"],
                    "units": state["units"]}
        imported.files[f"scenario-{scenario_id}.json"] = scenario
        manifest.setdefault("scenarios", {})[scenario_id] = f"scenario-{scenario_id}.json"
    imported.counts["scenarios"] = len(manifest.get("scenarios", {}))


def _note(imported: Imported, text: str) -> None:
    imported.not_imported.append(text)
    imported.files["module.json"]["notes"].append(text)
