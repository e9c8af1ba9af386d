"""What a new user tripped on with 'pbem module import': an id of pbem's own, a board with no place, repeated
piece names, a module with no locations. Each VASSAL module here is written by the test (no shared data)."""

from __future__ import annotations

import json

from pbem.formats.vassal.archive import write_zip
from pbem.formats.vassal.commands import encode_tree
from pbem.formats.vassal.modulewriter import add_piece
from pbem.formats.vassal.obfuscation import Obfuscation, obfuscate
from pbem.formats.vassal.sequence import join
from pbem.model.module import load_module

GRID = """<VASSAL.build.module.map.boardPicker.board.SquareGrid dx="50.0" dy="50.0" x0="36" y0="36">
    <VASSAL.build.module.map.boardPicker.board.mapgrid.SquareGridNumbering first="H" hType="A" vType="N" sep="" hOff="1" vOff="1" hLeading="1" vLeading="1"/>
   </VASSAL.build.module.map.boardPicker.board.SquareGrid>"""


def build_file(name: str = "Repeats", boards: str = "", slots: str = "", setup: str = "") -> str:
    boards = boards or f'<VASSAL.build.module.map.boardPicker.Board name="B" width="275" height="275">{GRID}</VASSAL.build.module.map.boardPicker.Board>'
    return f"""<?xml version="1.0"?>
<VASSAL.build.GameModule name="{name}" version="1" VassalVersion="3.7.0">
 <VASSAL.build.module.PlayerRoster><entry>Red</entry><entry>Blue</entry></VASSAL.build.module.PlayerRoster>
 <VASSAL.build.module.Map mapName="M"><VASSAL.build.module.map.BoardPicker>{boards}{setup}</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>
 {slots}
</VASSAL.build.GameModule>
"""


def slot(name: str, gpid: int) -> str:
    return f'<VASSAL.build.widget.PieceSlot entryName="{name}" gpid="{gpid}">+/null/piece;;;town.png;{name}/null;0;0;{gpid};0</VASSAL.build.widget.PieceSlot>'


def setup_save(pieces: list[tuple[str, int, int, int]]) -> bytes:
    """A .vsav placing each (name, gpid, x, y) on map M."""
    adds = [add_piece(str(100 + k), f"piece;;;town.png;{name}", join(["M", str(x), str(y), str(gpid), "0"], ";"))
            for k, (name, gpid, x, y) in enumerate(pieces)]
    saved = obfuscate(encode_tree(["begin_save", "", adds, "MBoardPicker\tB\t0\t0", "end_save"]).encode(), Obfuscation("obfuscated", 0x5A, "lower"))
    return write_zip({"savedGame": saved, "savedata": b"<data/>", "moduledata": b"<data/>"})


def test_an_imported_module_never_takes_a_bundled_modules_id(pbem, tmp_path):
    source = tmp_path / "buildFile.xml"
    source.write_text(build_file(name="Red Winter", slots=slot("Town", 1)))
    result = pbem("module", "import", source, "--out", tmp_path / "rw")
    assert result.code == 0, result.err
    assert "module red-winter-vassal with" in result.out and "id: red-winter-vassal" in result.out
    assert load_module(tmp_path / "rw").id == "red-winter-vassal"
    assert json.loads((tmp_path / "rw" / "vassal.json").read_text())["module"] == "red-winter-vassal"
    assert load_module("red-winter").name == "Red Winter"  # the bundled one is still the one its id names
    # An id given by hand may not be a bundled module's either; one of the user's own is fine.
    refused = pbem("module", "import", source, "--out", tmp_path / "x", "--id", "red-winter")
    assert refused.code == 2 and "already has a module 'red-winter'" in refused.err and not (tmp_path / "x").exists()
    named = pbem("module", "import", source, "--out", tmp_path / "mine", "--id", "my-winter")
    assert named.code == 0 and load_module(tmp_path / "mine").id == "my-winter"


def test_a_board_with_no_place_is_one_clear_line_not_a_crash(pbem, tmp_path):
    # Two boards in one column; the upper one has no size (its image is not in the file), so the lower one's
    # place on the map is unknown: it was a TypeError in the importer (exit 3).
    boards = (f'<VASSAL.build.module.map.boardPicker.Board name="Top">{GRID}</VASSAL.build.module.map.boardPicker.Board>'
              f'<VASSAL.build.module.map.boardPicker.Board name="Bottom" width="275" height="275">{GRID}</VASSAL.build.module.map.boardPicker.Board>')
    source = tmp_path / "buildFile.xml"
    source.write_text(build_file(boards=boards, slots=slot("Town", 1), setup="<setup>MBoardPicker\tTop\t0\t0\tBottom\t0\t1</setup>"))
    result = pbem("module", "import", source, "--out", tmp_path / "out")
    assert result.code == 0, result.err
    notes = [line for line in result.out.splitlines() if "'Bottom'" in line]
    assert notes == ["  not imported: board 'Bottom' of map 'M': placed after a board of unknown size, so VASSAL's names on it"
                     " are not known (--board-size gives the sizes of the boards before it)"]
    assert pbem("module", "validate", tmp_path / "out").code == 0
    # Given the upper board's size, the lower one is placed and its cells are named.
    sized = pbem("module", "import", source, "--out", tmp_path / "sized", "--board-size", "Top=275x275")
    assert sized.code == 0 and "board 'Bottom'" not in sized.out and "with 25 locations" in sized.out  # both boards name A01-E05


def test_repeated_piece_names_give_unique_ids_and_a_module_that_validates(pbem, tmp_path):
    # "Town 01" comes first in the palette; the set-up places "Town" twice, whose copies would be P-TOWN-01, -02.
    folder = tmp_path / "vassal"
    folder.mkdir()
    (folder / "buildFile.xml").write_text(build_file(slots=slot("Town 01", 2) + slot("Town", 1) + slot("Town", 3)))
    (folder / "Setup.vsav").write_bytes(setup_save([("Town", 1, 36, 36), ("Town", 1, 86, 36), ("Town 01", 2, 136, 36)]))
    result = pbem("module", "import", folder / "buildFile.xml", "--out", tmp_path / "out")
    assert result.code == 0, result.err
    assert "/tmp" not in result.err
    units = json.loads((tmp_path / "out" / "counters.json").read_text())["units"]
    ids = [u["id"] for u in units]
    assert len(ids) == len(set(ids)) == 3 and ids[0] == "P-TOWN-01"
    assert pbem("module", "validate", tmp_path / "out").code == 0
    scenario = load_module(tmp_path / "out").scenarios["setup"]
    placed = {u["id"]: u["at"] for u in json.loads(scenario.read_text())["units"]}
    assert placed == {"P-TOWN-01": "D01", **{i: at for i, at in zip(ids[1:], ("B01", "C01"))}}


def test_a_module_with_no_locations_is_reported_as_such(pbem, tmp_path):
    boards = '<VASSAL.build.module.map.boardPicker.Board name="B" width="275" height="275"/>'  # no grid
    source = tmp_path / "buildFile.xml"
    source.write_text(build_file(boards=boards, slots=slot("Town", 1)))
    result = pbem("module", "import", source, "--out", tmp_path / "out")
    assert result.code == 0
    assert result.err.startswith(f"warning: {tmp_path / 'out'}: the module has no locations")
    assert "board 'B' of map 'M' has no grid" in result.out
