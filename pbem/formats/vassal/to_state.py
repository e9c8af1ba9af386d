"""A VASSAL save (or the start of a log) as a pbem state, through the module's ``vassal.json``.

Every unit piece is placed on its space or in its box; a piece the mapping cannot name is a warning
(with its VASSAL name and place), a unit on a place the mapping lacks is an error naming both.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from pbem.formats.vassal.layout import MapLayout, layouts_for
from pbem.formats.vassal.mapping import Mapping, fill, load_mapping
from pbem.formats.vassal.savefile import SavedGame, collect_pieces
from pbem.formats.vassal.traits import Piece
from pbem.model.errors import PbemError
from pbem.model.jsonsource import load_json
from pbem.model.module import Module, bundled_modules, load_module
from pbem.model.patterns import match


@dataclass
class PieceNamer:
    """Names VASSAL pieces as units and places as locations, the same way for a save and for a log's steps."""

    mapping: Mapping
    layouts: dict[str, MapLayout]
    file: str
    units: dict[str, str] = field(default_factory=dict)  # VASSAL piece id -> unit id
    warnings: list[str] = field(default_factory=list)
    candidates: int = 0  # pieces with a unit's marker properties, named or not (set by assign)
    unnamed: list[str] = field(default_factory=list)  # the names of those no piece rule names
    vassal_module: Any = None  # the VASSAL module description that names places

    def place_name(self, map_id: str | None, x: int | None, y: int | None) -> str | None:
        layout = self.layouts.get(map_id or "")
        if layout is None or x is None or y is None:
            return None
        return layout.location_name(x, y)

    def where(self, map_id: str | None, x: int | None, y: int | None) -> tuple[str, str] | None:
        return self.mapping.location(map_id, self.place_name(map_id, x, y))

    def describe(self, piece: Piece) -> str:
        name = self.place_name(piece.map_id, piece.x, piece.y)
        return f"{piece.map_id or '?'}" + (f" / {name}" if name else "") + f" ({piece.x},{piece.y})"

    def assign(self, pieces: dict[str, Piece]) -> None:
        """Give every unit piece its unit id; generic pieces are numbered in VASSAL piece id order."""
        counters: dict[str, int] = {}
        taken: set[str] = set()
        self.units, self.warnings, self.unnamed, self.candidates = {}, [], [], 0
        for piece_id in sorted(pieces, key=_id_order):
            piece = pieces[piece_id]
            if not self.mapping.is_candidate(piece):
                continue
            self.candidates += 1
            full, _ = self.mapping.face(piece.name)
            rule = self.mapping.unit_rule(full)
            if rule is None:
                self.unnamed.append(full)
                self.warnings.append(f"piece {piece.name!r} at {self.describe(piece)}: no unit in the mapping")
                continue
            kind, template, groups = rule
            if kind == "unit":
                unit_id = fill(template, groups)
            else:
                key = fill(template, groups, 0)
                counters[key] = counters.get(key, 0) + 1
                unit_id = fill(template, groups, counters[key])
            if unit_id not in self.mapping.module.units:
                self.warnings.append(f"piece {piece.name!r} at {self.describe(piece)}: {unit_id} is not a unit of {self.mapping.module.id} (a spare counter?)")
                continue
            if unit_id in taken:
                self.warnings.append(f"piece {piece.name!r} at {self.describe(piece)}: {unit_id} is already another piece")
                continue
            taken.add(unit_id)
            self.units[piece_id] = unit_id

    def check_read(self) -> None:
        """Refuse, in one line, a position read wrongly: no unit at all, or most unit pieces named by no rule
        (a save of a module version the mapping reads differently, or of another game)."""
        module, read = self.mapping.module, self.mapping.version_read
        if not self.units:
            found = f"{self.candidates} unit pieces ({_examples(self.unnamed)}), none of them" if self.candidates else "no unit piece"
            raise PbemError.at(self.file, f"{found} named by the {module.id} VASSAL mapping, reading {read}: an empty position is not read")
        if self.mapping.units.get("only") and len(self.unnamed) * 2 > self.candidates:
            raise PbemError.at(self.file, f"{len(self.unnamed)} of {self.candidates} unit pieces are named by no rule of the {module.id} "
                               f"VASSAL mapping, reading {read}: {_examples(self.unnamed)}: not read as that version")


def _examples(names: list[str], most: int = 3) -> str:
    shown = sorted(set(names))
    return ", ".join(repr(name[:40]) for name in shown[:most]) + (", ..." if len(shown) > most else "")


def _id_order(piece_id: str) -> tuple[int, int | str]:
    return (0, int(piece_id)) if piece_id.isdigit() else (1, piece_id)


def module_for_game(game: SavedGame, file: str, pieces: dict[str, Piece] | None = None) -> Module:
    """The bundled module whose ``vassal.json`` answers to the save's VASSAL module name and version."""
    meta = game.moduledata
    name, version = (meta.name, meta.version) if meta else (None, None)
    known = []
    for path in bundled_modules():
        if not (path / "vassal.json").is_file():
            continue
        module = load_module(path)
        mapping = load_mapping(module)
        if mapping.answers_to(name, version) or (meta is None and _recognised(pieces if pieces is not None else game.pieces()[0], mapping)):
            return module
        known.append(mapping.claimed())
    what = f"VASSAL module {name[:80]!r} version {(version or '')[:40]!r}" if name else "an unnamed VASSAL module"
    raise PbemError.at(file, f"a game of {what}: no pbem module reads it (known: {'; '.join(known) or 'none'}); give --module")


def _best_reading(pieces: dict[str, Piece], mapping: Mapping) -> tuple[Mapping, int, int]:
    """The version family whose piece rules name most unit pieces: (its reading, candidates, named)."""
    best: tuple[Mapping, int, int] | None = None
    for reading in mapping.readings():
        candidates, named = reading.coverage(pieces)
        if best is None or named > best[2]:
            best = (reading, candidates, named)
    assert best is not None  # readings() is never empty
    return best


def _recognised(pieces: dict[str, Piece], mapping: Mapping) -> bool:
    """A save without metadata (a module's predefined set-up) belongs to the mapping if, read as one of its
    version families, most unit pieces map."""
    _, candidates, named = _best_reading(pieces, mapping)
    return named * 2 > candidates > 0


def check_answers(mapping: Mapping, game: SavedGame, file: str, pieces: dict[str, Piece] | None = None) -> None:
    """Refuse, in one line, a save or log of another game, or of a version of the VASSAL module the mapping
    does not read."""
    meta = game.moduledata
    if meta is not None and not mapping.answers_to(meta.name, meta.version):
        claimed, name, version = mapping.claimed(), meta.name[:80], meta.version[:40]
        if any(meta.name == e["name"] for e in mapping.data["vassal_modules"]):
            raise PbemError.at(file, f"a game of VASSAL module {name!r} version {version!r}: module {mapping.module.id} reads only {claimed}")
        raise PbemError.at(file, f"a game of VASSAL module {name!r} {version!r}, not one that module {mapping.module.id} reads ({claimed})")
    if meta is None and not _recognised(pieces if pieces is not None else game.pieces()[0], mapping):
        raise PbemError.at(file, f"its pieces are not those of module {mapping.module.id}'s VASSAL mapping: not a game of it")


def reading_for(mapping: Mapping, game: SavedGame, pieces: dict[str, Piece]) -> Mapping:
    """The mapping reading ``game`` as its VASSAL module version does: the version family that lists the
    version its metadata records, else (no metadata) the family whose rules name most of its unit pieces."""
    meta = game.moduledata
    if meta is not None:
        return mapping.reading(mapping.family_of(meta.version), meta.name, meta.version)
    return _best_reading(pieces, mapping)[0]


def namer_for(game: SavedGame, mapping: Mapping, vassal_module=None, restore: list | None = None) -> PieceNamer:
    from pbem.formats.vassal.commands import BoardLayout

    vassal_module = vassal_module or mapping.vassal_module()
    if vassal_module is None:
        raise PbemError.at(mapping.file, "the mapping has no places and no VASSAL module was given")
    layouts = [c for c in restore if isinstance(c, BoardLayout)] if restore is not None else game.board_layouts()
    latest = {command.map_id: command for command in layouts}
    for map_def in vassal_module.maps:
        command = latest.get(map_def.id)
        unknown = [name for name, *_ in command.boards if map_def.board(name) is None] if command else []
        if unknown and map_def.boards:
            # Read with another board's places, every piece would stand somewhere else.
            raise PbemError.at(game.source, f"map {map_def.id!r} holds board {unknown[0][:80]!r}, which the {mapping.module.id} VASSAL "
                               f"mapping does not place (it places {', '.join(repr(b.name) for b in map_def.boards)})")
    namer = PieceNamer(mapping, layouts_for(vassal_module, layouts), game.source)
    namer.vassal_module = vassal_module
    return namer


def game_board(mapping: Mapping, game: SavedGame, restore: list | None = None) -> str | None:
    """The board the save's game map holds (its BoardPicker command), or None when it does not say."""
    from pbem.formats.vassal.commands import BoardLayout

    layouts = [c for c in restore if isinstance(c, BoardLayout)] if restore is not None else game.board_layouts()
    boards = [c.boards for c in layouts if c.map_id == mapping.data["locations"]["map"]]
    return boards[-1][0][0] if boards and boards[-1] else None


def base_status(mapping: Mapping) -> dict[str, Any]:
    scenario = mapping.status_from
    if scenario is None:
        return {}
    return copy.deepcopy(load_json(mapping.module.scenarios[scenario]).data.get("status", {}))


def save_to_state(game: SavedGame, mapping: Mapping, pieces: dict[str, Piece] | None = None,
                  namer: PieceNamer | None = None) -> tuple[dict[str, Any], PieceNamer]:
    """The state a save (or a log's restore part) shows, as state JSON, and the namer with its piece ids."""
    namer = namer or namer_for(game, mapping)
    if pieces is None:
        pieces, _ = game.pieces()
    namer.assign(pieces)
    namer.check_read()
    module = mapping.module
    status = base_status(mapping)
    scenario_data = load_json(module.scenarios[mapping.status_from]).data if mapping.status_from else {}
    inactive = mapping.data["locations"].get("inactive_nations")
    sleeping = set(status.get(inactive["status"], ())) if inactive else set()
    if inactive and "markers" in inactive:
        # A nation with a neutrality marker rule is neutral only while its marker is on the game map.
        on_map = [p.basic_name for p in pieces.values() if p.map_id == mapping.data["locations"]["map"]]
        for nation, pattern in inactive["markers"].items():
            if not any(match(pattern, name) for name in on_map):
                sleeping.discard(nation)
        status[inactive["status"]] = [n for n in status.get(inactive["status"], []) if n in sleeping]
    units: list[dict[str, Any]] = []
    for piece_id in sorted(namer.units, key=_id_order):
        piece = pieces[piece_id]
        unit_id = namer.units[piece_id]
        place = namer.where(piece.map_id, piece.x, piece.y)
        if place is None:
            raise PbemError.at(game.source, f"unit {unit_id} (piece {piece.name!r}) stands on {namer.describe(piece)}, a place the {module.id} VASSAL mapping lacks")
        _, step = mapping.face(piece.name)
        if inactive and module.units[unit_id].type.nationality in sleeping:
            place = ("box", inactive["box"])
        entry: dict[str, Any] = {"id": unit_id, "at": place[1]}
        if step:
            entry["step"] = step
        units.append(entry)
    turn = scenario_data.get("turn", 1)
    markers: dict[str, dict[str, Any]] = {}
    rules = mapping.data.get("markers", []) + mapping.data.get("counters", [])
    prefilters = [rule.get("basic_name") for rule in rules]
    for piece in pieces.values():
        if None not in prefilters and not any(match(p, piece.basic_name) for p in prefilters):
            continue  # not a marker: its trait chain need not be decoded
        name = piece.name
        for rule in mapping.data.get("markers", ()):
            found = match(rule["name"], name)
            if found is None:
                continue
            place = namer.where(piece.map_id, piece.x, piece.y)
            if place is None or place[0] != "space":
                continue
            groups = {k: mapping.side(v) if k == "side" else v for k, v in found.groupdict().items()}
            markers.setdefault(rule["status"], {})[place[1]] = {k: _number(fill(t, groups)) for k, t in rule["value"].items()}
        for rule in mapping.data.get("counters", ()):
            if match(rule["name"], name) is None:
                continue
            found = match(rule["location"], namer.place_name(piece.map_id, piece.x, piece.y) or "")
            if found is None:
                continue
            value = int(found.group("value"))
            if rule.get("field") == "turn":
                turn = value
            else:
                status[rule["status"]] = value
    status.update(markers)
    state: dict[str, Any] = {"module": module.id, "module_version": module.version,
                             "scenario": mapping.status_from, "turn": turn}
    for key in ("first_side", "side"):
        if key in scenario_data:
            state[key] = scenario_data[key]
    state["units"] = units
    if status:
        state["status"] = status
    return state, namer


def _number(text: str) -> int | str:
    return int(text) if re.fullmatch(r"-?\d+", text) else text


@dataclass
class OpenedGame:
    """A save or log with the module that reads it, its mapping, its pieces and the namer."""

    game: SavedGame
    module: Module
    mapping: Mapping
    pieces: dict[str, Piece]
    namer: PieceNamer
    restore: list = field(default_factory=list)  # the restore part's parsed commands
    stacks: dict = field(default_factory=dict)


def open_game(path: str, module: Module | None = None, vassal_module_path: str | None = None) -> OpenedGame:
    """Read a ``.vsav``/``.vlog`` and find (or check) the pbem module it is a game of."""
    from pbem.formats.vassal.describe import open_vassal_file
    from pbem.formats.vassal.modulefile import open_module
    from pbem.formats.vassal.traits import PieceError

    try:
        game = open_vassal_file(path)
        if not isinstance(game, SavedGame):
            raise PbemError.at(path, "not a VASSAL save or log")
        restore = game.restore_commands()
        pieces, stacks = collect_pieces(restore)
        if module is None:
            module = module_for_game(game, str(path), pieces)
        mapping = load_mapping(module)
        check_answers(mapping, game, str(path), pieces)
        mapping = reading_for(mapping, game, pieces).on_board(game_board(mapping, game, restore))
        vassal_module = open_module(vassal_module_path).module if vassal_module_path else None
        namer = namer_for(game, mapping, vassal_module, restore)
    except (PieceError, RecursionError) as error:
        raise PbemError.at(path, str(error)) from None
    return OpenedGame(game, module, mapping, pieces, namer, restore, stacks)


def state_of(opened: OpenedGame) -> dict[str, Any]:
    """The game's state as state JSON, checked against the schema and loadable by the module."""
    import json

    from pbem.model import schemas
    from pbem.model.jsonsource import parse_json
    from pbem.model.state import State

    state, _ = save_to_state(opened.game, opened.mapping, opened.pieces, opened.namer)
    document = parse_json(json.dumps(state), opened.game.source)
    schemas.check(document, "state")
    State.from_json(opened.module, document)
    return state
