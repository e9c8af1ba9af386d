"""Small Paths of Glory VASSAL saves and logs, built here from the format's facts (``../shared/spec/``), one per
version family of the VASSAL module: the real saves are megabytes and stay outside the repository.

A unit piece is built as the module's are: a ``mark;Layer`` Marker whose value is ``Units``, a Layer trait
(``emb2;``) whose two levels name the full and the reduced face, a ``mark;Nation`` Marker, and the BasicPiece
(its name the full face's, or the 10.0 cavalry's ``RU Cav Corps``). Its BasicPiece state is
``map;x;y;gpid;0``, map pixels on the ``Map`` (where the mapping's Classic Map regions are) or on a force pool.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pbem.formats.vassal.archive import write_zip
from pbem.formats.vassal.commands import encode_tree
from pbem.formats.vassal.obfuscation import Obfuscation, obfuscate
from pbem.formats.vassal.sequence import join, join_chain

REPO = Path(__file__).resolve().parents[1]
MAPPING = REPO / "modules" / "paths-of-glory" / "vassal.json"
HOW = Obfuscation("obfuscated", 0x5A, "lower")


@dataclass(frozen=True)
class Counter:
    """One unit piece: its faces' names as the version shows them, where it stands, and which face is up."""

    full: str
    at: str  # a Classic Map region (a space), or "CP Forces" / "AP Forces" (the force pools)
    reduced: bool = False
    basic: str | None = None  # the BasicPiece's name when the Layer renames even the full face
    nation: str = "GE"


# The same position in each family's names: the unit ids pbem must read from it.
POSITION = {
    "GE-1-ARMY": ("Aachen", 0), "GE-7-ARMY": ("Strasbourg", 1), "FR-5-ARMY": ("Sedan", 0),
    "BR-BEF-ARMY": ("Brussels", 0), "FR-ORIENT-ARMY": ("reinforcements", 0), "GE-CORPS-01": ("Metz", 0),
    "GE-CORPS-02": ("Metz", 1), "GE-POL-CORPS-01": ("reinforcements", 0), "RU-CAV-CORPS-01": ("reinforcements", 0),
}

NAMES = {
    # 10.0 and 10.1 name each counter in full.
    "10.0-10.1": [Counter("GE 1st Army", "Aachen"), Counter("GE 7th Army", "Strasbourg", True),
                  Counter("FR 5th Army", "Sedan", nation="FR"), Counter("BR BEF Army", "Brussels", nation="BR"),
                  Counter("FR Army of the Orient", "AP Forces", nation="FR"), Counter("GE Corps", "Metz"),
                  Counter("GE Corps", "Metz", True), Counter("POL Corps", "CP Forces"),
                  Counter("RU Cav", "AP Forces", basic="RU Cav Corps", nation="RU")],
    # From 10.2 the names are short.
    "10.2-10.8": [Counter("GE1", "Aachen"), Counter("GE7", "Strasbourg", True), Counter("FR5", "Sedan", nation="FR"),
                  Counter("BEF", "Brussels", nation="BR"), Counter("Orient", "AP Forces", nation="FR"),
                  Counter("GEc", "Metz"), Counter("GEc", "Metz", True), Counter("POLc", "CP Forces"),
                  Counter("RU Cav", "AP Forces", nation="RU")],
}
FAMILY_OF = {version: family for family, versions in
             {"10.0-10.1": ["10.0", "10.1"], "10.2-10.8": ["10.2", "10.3", "10.4", "10.5", "10.6", "10.6a", "10.7", "10.8"]}.items()
             for version in versions}


def regions(board: str = "Classic Map") -> dict[str, tuple[int, int]]:
    """The regions the mapping keeps for a board of the game map (name -> map pixel)."""
    places = json.loads(MAPPING.read_text())["places"]
    found = places["regions"] if board == places["board"] else places["boards"][board]["regions"]
    return {name: (x, y) for name, x, y in found}


def unit_piece(number: int, counter: Counter, where: dict[str, tuple[int, int]]) -> str:
    """``+/id/type/state`` of one unit piece."""
    if counter.at in ("CP Forces", "AP Forces"):
        map_id, (x, y) = counter.at, (100 + 60 * number, 300)
    else:
        map_id, (x, y) = "Map", where[counter.at]
    reduced_name = f"({counter.full})"
    layer = join(["emb2", "Activate", "2", "", "Take Losses", "2", "", "Replace", "2", "", "", "", "1", "false", "0", "0",
                  "front.png,back.png", f"{counter.full},{reduced_name}", "true", "Status", "", "", "true", "CounterLayer", "1", ""], ";")
    types = join_chain(["mark;Layer", layer, "mark;Nation", f"piece;;;front.png;{counter.basic or counter.full}"])
    states = join_chain(["Units", "2" if counter.reduced else "1", counter.nation, f"{map_id};{x};{y};;0"])
    return "+/" + join([str(number), types, states], "/")


def marker_piece(number: int, name: str, at: tuple[int, int]) -> str:
    """A piece that is no unit (a trench marker, a card): no ``Layer`` of ``Units``."""
    types = join_chain(["mark;Layer", f"piece;;;marker.png;{name}"])
    states = join_chain(["Markers", f"Map;{at[0]};{at[1]};;0"])
    return "+/" + join([str(number), types, states], "/")


def restore_tree(counters: list[Counter], markers: int = 0, board: str | None = None, placed_on: str | None = None) -> list:
    """The restore commands: the game map's board (``MapBoardPicker⇥board⇥column⇥row``) when ``board`` is
    given, then the pieces, placed on the regions of ``placed_on`` (default: that board)."""
    where = regions(placed_on or board or "Classic Map")
    commands = [f"MapBoardPicker\t{board}\t0\t0"] if board else []
    commands += [unit_piece(1000 + k, counter, where) for k, counter in enumerate(counters)]
    commands += [marker_piece(2000 + k, f"Marker {k}", where["Paris"]) for k in range(markers)]
    return ["begin_save", "", [""] + commands, "end_save"]


def metadata(version: str, name: str = "Paths of Glory") -> bytes:
    """``moduledata`` as VASSAL writes it (``<data version="1">`` with name and version)."""
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n  <version>{version}</version>\n'
            f"  <VassalVersion>3.4.0</VassalVersion>\n  <dateSaved>1599503402954</dateSaved>\n  <name>{name}</name>\n</data>\n").encode()


def save_bytes(counters: list[Counter], version: str | None, markers: int = 0, board: str | None = None,
               placed_on: str | None = None) -> bytes:
    """A ``.vsav``: ``savedGame`` (obfuscated), and ``moduledata`` naming ``version`` unless it is None (a
    module's predefined set-up has none)."""
    raw = obfuscate(encode_tree(restore_tree(counters, markers, board, placed_on)).encode("utf-8"), HOW)
    entries = {"savedGame": raw}
    if version is not None:
        entries["moduledata"] = metadata(version)
    return write_zip(entries)


def log_bytes(counters: list[Counter], version: str, moves: list[tuple[int, str]]) -> bytes:
    """A ``.vlog``: the save's position, then one step per move (piece index in ``counters``, region)."""
    from pbem.formats.vassal.logwriter import LogWriter
    from pbem.formats.vassal.savefile import read_saved_game

    start = read_saved_game(save_bytes(counters, version), "start.vsav")
    writer = LogWriter(start, player="Central Powers")
    where = regions()
    for index, region in moves:
        writer.move(str(1000 + index), "Map", *where[region])
    return writer.to_bytes("Paths of Glory", version, vassal_version="3.4.0")
