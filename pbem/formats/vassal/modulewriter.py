"""Writing a VASSAL module's parts: ``buildFile.xml``, ``moduledata``, grids, piece slots and ``.vsav`` set-ups.

These are the VASSAL writing primitives behind ``pbem module export`` (:mod:`pbem.export.vmod`, which draws the
pictures): a hex map gets a ``HexGrid`` numbered so that VASSAL names each hex by the module's own label, a
point-to-point map a ``RegionGrid`` with one region per space; a unit is a piece named by its unit id, with a
layer of its faces (front, back, and one more per step past two) flipped by Ctrl-F. Names, piece ids and slot ids derive from the module's ids
and nothing carries a date, so the same module gives the same bytes. Nothing here draws.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import Any, Sequence
from xml.sax.saxutils import quoteattr

from pbem.formats.vassal.archive import write_zip
from pbem.formats.vassal.commands import encode_tree
from pbem.formats.vassal.grids import HexGrid
from pbem.formats.vassal.obfuscation import Obfuscation, obfuscate
from pbem.formats.vassal.sequence import TAB, join, join_chain
from pbem.model.errors import PbemError
from pbem.model.hexgrid import HexGridSpec
from pbem.model.maps import HexMap
from pbem.model.module import Module

VASSAL_VERSION = "3.7.0"
MAP_ID = "Main Map"
BOARD = "Board"
FLIP_KEY = "70,130"  # Ctrl-F as VASSAL encodes a key stroke (key code, modifiers)
SAVE_KEY = 0x5A  # the obfuscation key: fixed, so a scenario gives the same bytes every time
_MEMBER = re.compile(r"^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,120}/)?[A-Za-z0-9][A-Za-z0-9._ -]{0,120}$")
_T = "VASSAL.build."


def member_name(name: str) -> str:
    """``name`` if it is a safe zip member (no absolute path, no ``..``, plain characters), else an error."""
    if not _MEMBER.fullmatch(name) or ".." in name:
        raise PbemError(f"refusing to write {name!r} into the module: not a plain file name")
    return name


def stable_id(text: str, used: set[int]) -> int:
    """A positive id from ``text`` alone, so a unit keeps its id in every export."""
    number = zlib.crc32(text.encode("utf-8")) % 900_000_000 + 100_000_000
    if number in used:
        raise PbemError(f"two names give the same VASSAL id ({text!r}); rename one")
    used.add(number)
    return number


@dataclass
class Grid:
    """A board's grid element and where a piece on each location stands (its centre, in board pixels)."""

    xml: str
    centres: dict[str, tuple[int, int]]


def hex_numbering(spec: HexGridSpec) -> tuple[int, dict[str, Any]]:
    """The raw column of the first printed column (flat) or row (pointy) and the ``HexGridNumbering``
    attributes that name a hex by ``spec``'s labels.

    VASSAL shifts odd raw columns half a hex down; pbem says which printed columns are. A sideways
    (pointy) VASSAL grid is the flat one turned on its side: its raw columns are the printed rows, shifted
    half a hex right, and its "horizontal" numbering names them, so the label's column comes from the
    vertical numbering and is written first (``first="V"``).
    """
    pointy = spec.orientation == "pointy"
    first_line = spec.first_row if pointy else spec.first_column
    first_shifted = (first_line % 2 == 1) == (spec.shifted == "odd")
    k = 1 if first_shifted else 0
    if spec.label == "letter-number":
        if spec.first_column + spec.columns - 1 > 26:
            raise PbemError("VASSAL letters columns A..Z, then AA, BB (not AB): a letter-number map wider than 26 columns cannot be numbered alike")
        if pointy:
            return k, {"first": "V", "hType": "N", "hOff": spec.first_row - k, "hLeading": 0, "vType": "A",
                       "vOff": spec.first_column - 1, "vLeading": 0}
        return k, {"first": "H", "hType": "A", "hOff": spec.first_column - k - 1, "hLeading": 0, "vType": "N",
                   "vOff": spec.first_row, "vLeading": 0}
    match = re.fullmatch(r"(C+)(R+)", spec.label)
    assert match is not None
    column_leading, row_leading = len(match.group(1)) - 1, len(match.group(2)) - 1
    if pointy:
        return k, {"first": "V", "hType": "N", "hOff": spec.first_row - k, "hLeading": row_leading, "vType": "N",
                   "vOff": spec.first_column, "vLeading": column_leading}
    return k, {"first": "H", "hType": "N", "hOff": spec.first_column - k, "hLeading": column_leading, "vType": "N",
               "vOff": spec.first_row, "vLeading": row_leading}


def vassal_hex_grid(spec: HexGridSpec, origin: tuple[float, float], pitch: tuple[float, float]) -> tuple[int, dict[str, Any]]:
    """The raw column of the first printed column (row, when pointy) and the ``HexGrid`` attributes whose
    hexes sit where a layout of ``origin`` and ``pitch`` draws them.

    Sideways, VASSAL reads ``dx`` and ``x0`` along the board's height and ``dy`` and ``y0`` along its width.
    """
    k, _ = hex_numbering(spec)
    if spec.orientation == "pointy":
        across, along = pitch[1], pitch[0]  # row to row (down the board); hex to hex within a row
        start_across, start_along = origin[1], origin[0]
    else:
        across, along = pitch
        start_across, start_along = origin
    x0 = round(start_across - k * across)
    y0 = round(start_along - (along / 2 if k else 0))
    return k, {"dx": across, "dy": along, "x0": x0, "y0": y0, "sideways": spec.orientation == "pointy"}


def _attrs(values: dict[str, Any]) -> str:
    def text(value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)

    return "".join(f" {key}={quoteattr(_NOT_XML.sub('', text(value)))}" for key, value in values.items())


def hex_grid(game_map: HexMap, origin: tuple[float, float], pitch: tuple[float, float]) -> Grid:
    """The ``HexGrid`` of a board on which ``game_map`` is drawn with ``origin`` and ``pitch``, numbered as the
    map's labels, and the centre VASSAL snaps a piece to on each hex."""
    spec = game_map.spec
    _, numbering = hex_numbering(spec)
    k, geometry = vassal_hex_grid(spec, origin, pitch)
    grid = {"color": "0,0,0", "cornersLegal": False, "dotsVisible": False, "dx": repr(geometry["dx"]), "dy": repr(geometry["dy"]),
            "edgesLegal": False, "sideways": geometry["sideways"], "snapTo": True, "visible": False,
            "x0": geometry["x0"], "y0": geometry["y0"]}
    number = {"color": "0,0,0", "first": numbering["first"], "fontSize": 9, "hDescend": False, "hDrawOff": 0,
              **{k2: numbering[k2] for k2 in ("hLeading", "hOff", "hType")},
              "locationFormat": "$gridLocation$", "rotateText": 0, "sep": "", "stagger": False, "vDescend": False, "vDrawOff": 0,
              **{k2: numbering[k2] for k2 in ("vLeading", "vOff", "vType")}, "visible": False}
    xml = (f"<{_T}module.map.boardPicker.board.HexGrid{_attrs(grid)}>"
           f"<{_T}module.map.boardPicker.board.mapgrid.HexGridNumbering{_attrs(number)}/>"
           f"</{_T}module.map.boardPicker.board.HexGrid>")
    # A piece stands where VASSAL snaps it: the centre of its raw (column, row).
    vassal_grid = HexGrid(**geometry)
    pointy = spec.orientation == "pointy"
    centres = {}
    for index in range(len(game_map)):
        column, row = spec.unformat(game_map.label(index))
        if pointy:
            raw = (row - spec.first_row + k, column - spec.first_column)
        else:
            raw = (column - spec.first_column + k, row - spec.first_row)
        centres[game_map.label(index)] = vassal_grid.snap_center(*raw)
    return Grid(xml, centres)


def region_grid(centres: dict[str, tuple[int, int]]) -> Grid:
    """A ``RegionGrid`` with one region per location, at its centre."""
    regions = "".join(f"<{_T}module.map.boardPicker.board.Region{_attrs({'name': name, 'originx': x, 'originy': y})}/>"
                      for name, (x, y) in centres.items())
    xml = (f"<{_T}module.map.boardPicker.board.RegionGrid{_attrs({'fontsize': 9, 'snapto': True, 'visible': False})}>"
           f"{regions}</{_T}module.map.boardPicker.board.RegionGrid>")
    return Grid(xml, centres)


REDUCED = "+ (reduced)"  # the second face's level name: VASSAL names a reduced piece "ID (reduced)"


def level_names(faces: int, steps: int) -> list[str]:
    """The Layer's level names for a piece of ``faces`` images and ``steps`` steps: the front is unnamed, the
    second step ``+ (reduced)`` (VASSAL shows "ID (reduced)"), each further step ``+ (reduced K)`` with K the
    steps lost, so "ID (reduced 2)" is the third step; a one-step counter's blank back is unnamed."""
    return [""] + [("" if k >= steps else REDUCED if k == 1 else f"+ (reduced {k})") for k in range(1, faces)]


def piece_type(unit_id: str, front: str, back: str, reduced: bool = True, more: Sequence[str] = ()) -> str:
    """The trait chain of a unit's piece: a Layer of its faces over a BasicPiece named by the unit id.

    The faces are ``front``, ``back`` (the reduced step, or a blank back when not ``reduced``) and ``more``, one
    image per step past two (a counter of three or more steps); Ctrl-F ("Flip") steps to the next face, from
    the last back to the front."""
    images = [front, back, *more]
    names = level_names(len(images), len(images) if more else (2 if reduced else 1))
    layer = join(["", "130", "", "Flip", "130", "", "", "130", "", "", "", "1", "false", "0", "0",
                  join(images, ","), join(names, ","), "true", "Face", "", "", "false", "", "1",
                  "1", "true", "", FLIP_KEY, "", "Face", "1.0"], ";")
    return join_chain(["emb2;" + layer, "piece;;;;" + unit_id])


def add_piece(piece_id: str, type_text: str, state: str) -> str:
    """An AddPiece command (``+/id/type/state``, each part escaped as VASSAL's SequenceEncoder does)."""
    return join(["+", piece_id, type_text, state], "/")


def piece_state(level: int, map_id: str | None, x: int, y: int, gpid: int) -> str:
    return join_chain([str(level), join([map_id or "null", str(x), str(y), str(gpid), "0"], ";")])


def piece_slot(unit_id: str, gpid: int, type_text: str, size: int) -> str:
    """A palette ``PieceSlot`` of a unit's piece (``type_text``, a ``size`` pixels square counter)."""
    text = add_piece("null", type_text, piece_state(1, None, 0, 0, gpid))
    return (f"<{_T}widget.PieceSlot{_attrs({'entryName': unit_id, 'gpid': gpid, 'height': size, 'width': size})}>"
            f"{_text(text)}</{_T}widget.PieceSlot>")


def predefined_setup(member: str, name: str) -> str:
    """A ``PredefinedSetup`` menu entry opening the save ``member`` of the module as ``name``."""
    return f"<{_T}module.PredefinedSetup{_attrs({'file': member, 'isMenu': False, 'name': name, 'useFile': True})}/>"


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _text(text: str) -> str:
    """``text`` as XML character data: escaped, and without the control characters XML cannot hold."""
    return _NOT_XML.sub("", text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def build_file(module: Module, size: tuple[int, int], grid: Grid, slots_by_side: dict[str, list[str]], setups: list[str],
               next_slot: int) -> bytes:
    """The ``buildFile.xml`` of a module with one map of one board (``board.png``, ``size`` pixels, ``grid``), a palette
    list of piece slots per side, 1d6 and 2d6 buttons, a turn counter and the ``setups``."""
    width, height = size
    sides = "".join(f"<entry>{_text(side)}</entry>" for side in module.sides)
    lists = "".join(
        f"<{_T}widget.ListWidget{_attrs({'divider': 150, 'entryName': side, 'height': 400, 'scale': 1.0, 'width': 400})}>"
        + "".join(slots) + f"</{_T}widget.ListWidget>" for side, slots in slots_by_side.items())
    dice = "".join(
        f"<{_T}module.DiceButton{_attrs({'addToTotal': 0, 'canDisable': False, 'hotkey': '', 'icon': '/images/die.gif', 'keepCount': 1, 'keepDice': False, 'keepOption': '>', 'lockAdd': False, 'lockDice': False, 'lockPlus': False, 'lockSides': False, 'nDice': n, 'nSides': 6, 'name': f'{n}d6', 'plus': 0, 'prompt': False, 'propertyGate': '', 'reportFormat': '** $name$ = $result$ *** &lt;$PlayerName$&gt;', 'reportTotal': False, 'sortDice': False, 'text': f'{n}d6', 'tooltip': f'Roll {n}d6'})}/>"
        for n in (1, 2))
    last = max((turn for name in module.scenarios if (turn := module.last_turn(name)) is not None), default=None)
    turn_level = _attrs({"incr": 1, "loop": False, "loopLimit": last or -1, "start": 1, "turnFormat": "Turn $value$"})
    tracker = (f"<{_T}module.turn.TurnTracker{_attrs({'buttonText': 'Turn', 'hotkey': '', 'icon': '', 'length': -1, 'lengthStyle': 'Maximum', 'name': 'Turn', 'nexthotkey': '', 'prevhotkey': '', 'reportFormat': '* Turn $newTurn$', 'tooltip': 'Game turn', 'turnFormat': '$level1$'})}>"
               f"<{_T}module.turn.CounterTurnLevel{turn_level}/></{_T}module.turn.TurnTracker>")
    root = _attrs({"ModuleOther1": f"Exported by pbem from module {module.id}", "ModuleOther2": "", "VassalVersion": VASSAL_VERSION,
                   "description": module.metadata.get("title", module.name), "name": module.name,
                   "nextPieceSlotId": next_slot, "version": module.version})
    map_attrs = _attrs({"allowMultiple": False, "backgroundcolor": "255,255,255", "buttonName": "Map", "changeFormat": "$message$",
                        "color": "0,0,0", "createFormat": "$pieceName$ created in $location$ *", "edgeHeight": 0, "edgeWidth": 0,
                        "hotkey": "", "icon": "/images/map.gif", "launch": False, "mapName": MAP_ID, "markMoved": "Never",
                        "moveToFormat": "$pieceName$ moves $previousLocation$ &rarr; $location$ *",
                        "moveWithinFormat": "$pieceName$ moves $previousLocation$ &rarr; $location$ *", "thickness": 3})
    xml = (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        f"<{_T}GameModule{root}>"
        f"<{_T}module.BasicCommandEncoder/>"
        f"<{_T}module.Documentation/>"
        f"<{_T}module.PlayerRoster{_attrs({'buttonText': 'Retire', 'buttonToolTip': 'Switch sides'})}>{sides}</{_T}module.PlayerRoster>"
        f"<{_T}module.GlobalOptions{_attrs({'autoReport': 'Always', 'playerIdFormat': '$PlayerName$'})}/>"
        f"<{_T}module.Chatter/>"
        f"<{_T}module.KeyNamer/>"
        f"<{_T}module.Map{map_attrs}>"
        f"<{_T}module.map.BoardPicker{_attrs({'addColumnText': 'Add column', 'addRowText': 'Add row', 'boardPrompt': 'Select board', 'slotHeight': 125, 'slotScale': 0.2, 'slotWidth': 350, 'title': 'Choose Boards'})}>"
        f"<{_T}module.map.boardPicker.Board{_attrs({'image': 'board.png', 'name': BOARD, 'reversible': False, 'width': width, 'height': height})}>"
        f"{grid.xml}</{_T}module.map.boardPicker.Board>"
        f"<setup>{_text(MAP_ID + 'BoardPicker' + TAB + BOARD + TAB + '0' + TAB + '0')}</setup>"
        f"</{_T}module.map.BoardPicker>"
        f"<{_T}module.map.StackMetrics{_attrs({'bottom': '40,0', 'disabled': False, 'down': '37,0', 'exSepX': 6, 'exSepY': 18, 'top': '38,0', 'unexSepX': 4, 'unexSepY': 6, 'up': '39,0'})}/>"
        f"<{_T}module.map.ForwardToKeyBuffer/><{_T}module.map.Scroller/><{_T}module.map.ForwardToChatter/>"
        f"<{_T}module.map.MenuDisplayer/><{_T}module.map.MapCenterer/><{_T}module.map.StackExpander/>"
        f"<{_T}module.map.PieceMover/><{_T}module.map.KeyBufferer/>"
        f"<{_T}module.map.Zoomer{_attrs({'zoomLevels': '0.25,0.333,0.5,0.75,1.0,1.5', 'zoomStart': 5})}/>"
        f"</{_T}module.Map>"
        f"<{_T}module.PieceWindow{_attrs({'hidden': False, 'hotkey': '', 'icon': '', 'scale': 1.0, 'text': 'Counters', 'tooltip': 'Counters'})}>"
        f"<{_T}widget.TabWidget{_attrs({'entryName': 'Counters'})}>{lists}</{_T}widget.TabWidget>"
        f"</{_T}module.PieceWindow>"
        f"{dice}{tracker}{''.join(setups)}"
        f"<{_T}module.PrototypesContainer/>"
        f"</{_T}GameModule>\n")
    return xml.encode("utf-8")


def moduledata(module: Module) -> bytes:
    """The module's metadata; ``dateSaved`` is 0 so that the bytes depend on the module alone."""
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            f"  <version>{_text(module.version)}</version>\n  <VassalVersion>{VASSAL_VERSION}</VassalVersion>\n"
            f"  <dateSaved>0</dateSaved>\n  <description>{_text(module.metadata.get('title', module.name))}</description>\n"
            f"  <name>{_text(module.name)}</name>\n</data>\n").encode("utf-8")


def scenario_save(module: Module, scenario: str, centres: dict[str, tuple[int, int]],
                  slot_of: dict[str, tuple[int, str]]) -> tuple[bytes, list[str]]:
    """A ``.vsav`` with every unit of ``scenario`` on its location (at its centre in ``centres``), stacked as the set-up
    stacks them, and the units it leaves off the map; ``slot_of`` gives each unit's piece id and type."""
    from pbem.model.jsonsource import load_json
    from pbem.model.state import State

    state = State.from_json(module, load_json(module.scenarios[scenario]))
    by_place: dict[str, list[str]] = {}
    missing = []
    for unit_id, unit in state.units.items():
        at = unit.at
        label = module.map.label(at) if at >= 0 else None
        if at < 0 or label is None or label not in centres:
            missing.append(unit_id)
            continue
        by_place.setdefault(label, []).append(unit_id)
    adds: list[str] = []
    stacks: list[str] = []
    used: set[int] = set()
    for label in sorted(by_place, key=lambda name: module.map.find(name)):
        x, y = centres[label]
        ids = []
        for unit_id in by_place[label]:
            gpid, type_text = slot_of[unit_id]
            step = state.units[unit_id].step
            piece_id = str(gpid)
            ids.append(piece_id)
            adds.append(add_piece(piece_id, type_text, piece_state(step + 1, MAP_ID, x, y, gpid)))
        stack_id = str(stable_id(f"stack {label}", used))
        stacks.append(add_piece(stack_id, "stack", join([MAP_ID, str(x), str(y), *ids], ";")))
    restore = ["begin_save", "", adds + stacks] if adds else ["begin_save", ""]
    restore += [MAP_ID + "BoardPicker" + TAB + BOARD + TAB + "0" + TAB + "0", "end_save"]
    plain = encode_tree(restore).encode("utf-8")
    saved = obfuscate(plain, Obfuscation("obfuscated", SAVE_KEY, "lower"))
    savedata = ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
                f"  <version>{_text(module.version)}</version>\n  <VassalVersion>{VASSAL_VERSION}</VassalVersion>\n"
                f"  <dateSaved>0</dateSaved>\n  <description>{_text(scenario)}</description>\n</data>\n").encode("utf-8")
    return write_zip({"savedGame": saved, "savedata": savedata, "moduledata": moduledata(module)}), sorted(missing)


__all__ = ["Grid", "build_file", "hex_grid", "hex_numbering", "level_names", "member_name", "moduledata", "piece_slot", "piece_type",
           "predefined_setup", "region_grid", "scenario_save", "stable_id", "vassal_hex_grid"]
