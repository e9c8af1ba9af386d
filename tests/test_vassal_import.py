"""pbem module import on every real VASSAL module in ../shared/data: the module folder validates, its rules
check nothing (every action kind is reported as not checked), and a log or save of the original module read
with the imported module names every position exactly as it does with the original."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import cli
from pbem.formats.vassal.describe import open_vassal_file
from pbem.formats.vassal.geometry import imported_module
from pbem.formats.vassal.layout import layouts_for
from pbem.formats.vassal.logevents import read_events
from pbem.formats.vassal.modulefile import open_module
from pbem.model.jsonsource import load_json
from pbem.model.module import load_module

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"  # ../shared beside the clone
SAMPLES = DATA / "vassal-samples"
POG = DATA / "paths-of-glory" / "vassal"

# module file, then the saves and logs of it at hand
CASES = {
    "zxvt": (SAMPLES / "zxvt-buildFile.xml", [SAMPLES / "zxvt-5x5_startup.vlog"]),
    "tld": (SAMPLES / "tld-buildFile.xml", [SAMPLES / "tld-game-0606-1.log", SAMPLES / "tld-scenario_3.sav"]),
    "kassala": (SAMPLES / "kassala-buildFile.xml", [SAMPLES / "kassala-Default_Setup.vsav"]),
    "kassala-vmod": (SAMPLES / "kassala-repacked-noimages.vmod", [SAMPLES / "kassala-Default_Setup.vsav"]),
    "predefined-setups": (SAMPLES / "vassal-test-predefined-setups.vmod", []),
    "paths-of-glory": (POG / "buildFile.xml", [POG / "Classic10-8.vsav"]),
}


def _need(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path} is not here (real VASSAL files live in ../shared/data beside the clone)")


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    made: dict[str, Path] = {}

    def make(case: str) -> Path:
        if case not in made:
            source, _ = CASES[case]
            _need(source)
            out = tmp_path_factory.mktemp("imported") / case
            result = CliRunner().invoke(cli, ["module", "import", str(source), "--out", str(out)])
            assert result.exit_code == 0, result.output
            made[case] = out
        return made[case]

    return make


@pytest.mark.parametrize("case", sorted(CASES))
def test_imported_module_validates(imported, case):
    folder = imported(case)
    result = CliRunner().invoke(cli, ["module", "validate", str(folder)])
    assert result.exit_code == 0, result.output
    module = load_module(folder)
    assert module.rules_file is None  # an empty ruleset: checks nothing


@pytest.mark.parametrize("case", sorted(CASES))
def test_positions_named_as_with_the_original(imported, case):
    source, games = CASES[case]
    folder = imported(case)
    original = open_module(source).module
    copy = imported_module(folder)
    assert copy is not None
    for path in games:
        _need(path)
        game = open_vassal_file(path)
        assert read_events(game, copy) == read_events(game, original)  # every move, add and report alike
        pieces, _ = game.pieces()
        layouts_a = layouts_for(original, game.board_layouts())
        layouts_b = layouts_for(copy, game.board_layouts())
        named = 0
        for piece in pieces.values():
            if piece.map_id in layouts_a and piece.x is not None:
                a = layouts_a[piece.map_id].location_name(piece.x, piece.y)
                assert layouts_b[piece.map_id].location_name(piece.x, piece.y) == a, (piece.name, a)
                named += 1
        assert named or not pieces


def test_zxvt_grid_and_neighbours(imported):
    folder = imported("zxvt")
    module = load_module(folder)
    game_map = module.map
    assert sorted(game_map.label(i) for i in range(len(game_map))) == [f"{c}0{r}" for c in "BCDEF" for r in range(1, 6)]  # hOff=1: column 0 is B, as the log shows
    c3 = game_map.find("C03")
    assert sorted(game_map.label(n) for n in game_map.neighbours[c3]) == ["B03", "C02", "C04", "D03"]


def test_paths_of_glory_spaces_and_pieces(imported):
    folder = imported("paths-of-glory")
    module = load_module(folder)
    for space in ("Paris", "Berlin", "Aachen", "Liege"):
        assert module.map.find(space) is not None, space
    names = {unit.name for unit in module.units.values()}
    assert {"GE1", "BEF"} <= names
    ge1 = next(unit for unit in module.units.values() if unit.name == "GE1")
    assert len(ge1.type.attributes["faces"]) >= 2  # front and reduced face, as image names
    result = CliRunner().invoke(cli, ["vassal", "state", str(POG / "Classic10-8.vsav"), "--module", str(folder), "--format", "json"])
    assert result.exit_code == 0, result.output


def test_every_action_reported_as_not_checked(imported, tmp_path, pbem):
    import json

    folder = imported("zxvt")
    module = load_module(folder)
    unit = next(iter(module.units))
    (tmp_path / "start.json").write_text(json.dumps({"scenario": "start", "module": module.id, "turn": 1,
                                                     "units": [{"id": unit, "at": "B01"}]}))
    turn = {"module": module.id, "turn": 1, "side": module.sides[0], "start": {"state": "start.json"},
            "actions": [{"move": unit, "path": ["B01", "B02"]}, {"roll": {"purpose": "x", "dice": "1d6", "value": 3}}]}
    (tmp_path / "turn.json").write_text(json.dumps(turn))
    result = pbem("check", tmp_path / "turn.json", "--module", folder, "--format", "json")
    report = json.loads(result.out)
    assert result.code == 0, result.err  # warnings only: nothing is judged illegal
    messages = [(v["severity"], v["message"]) for v in report["violations"]]
    assert [m.split()[0] for _, m in messages] == ["move", "roll"]
    assert all(severity == "warning" and "not checked" in m for severity, m in messages), messages


def test_refuses_an_existing_folder_and_writes_nothing_on_bad_input(tmp_path, pbem):
    bad = tmp_path / "bad.xml"
    bad.write_text("<not-vassal")
    out = tmp_path / "out"
    result = pbem("module", "import", bad, "--out", out)
    assert result.code == 2 and not out.exists() and "bad.xml" in result.err
    assert [p.name for p in tmp_path.iterdir()] == ["bad.xml"]  # no staging folder left behind
    out.mkdir()
    result = pbem("module", "import", bad, "--out", out)
    assert result.code == 2 and "already exists" in result.err


HOSTILE = """<?xml version="1.0"?>
<VASSAL.build.GameModule name="../../{name}" version="1" VassalVersion="3.7.0">
 <VASSAL.build.module.PlayerRoster><entry>../a</entry><entry>b\\c</entry></VASSAL.build.module.PlayerRoster>
 <VASSAL.build.module.Map mapName="M"><VASSAL.build.module.map.BoardPicker>
  <VASSAL.build.module.map.boardPicker.Board name="B" width="10000000" height="10000000">
   <VASSAL.build.module.map.boardPicker.board.HexGrid dx="0.01" dy="0.01">
    <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering/>
   </VASSAL.build.module.map.boardPicker.board.HexGrid>
  </VASSAL.build.module.map.boardPicker.Board>
 </VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>
 <VASSAL.build.widget.PieceSlot entryName="x" gpid="1">+/null/piece;;;..\\/..\\/etc\\/passwd;p/null;0;0;1;0</VASSAL.build.widget.PieceSlot>
</VASSAL.build.GameModule>
"""


def test_hostile_module_imports_in_bounds_and_writes_only_its_folder(tmp_path, pbem):
    import time

    source = tmp_path / "buildFile.xml"
    source.write_text(HOSTILE.format(name="evil"))
    out = tmp_path / "out"
    start = time.monotonic()
    result = pbem("module", "import", source, "--out", out)
    assert time.monotonic() - start < 30
    assert result.code == 0, result.err
    assert "more than" in result.out  # the absurd grid is named as not listed
    assert sorted(p.name for p in tmp_path.iterdir()) == ["buildFile.xml", "out"]
    assert sorted(p.name for p in out.iterdir()) == ["counters.json", "map.json", "module.json", "vassal.json"]
    assert pbem("module", "validate", out).code == 0
    module = load_module(out)
    assert module.id == "evil" and module.sides == ("a", "b-c")
    (unit,) = module.units.values()
    assert unit.type.attributes["faces"] == ["../../etc/passwd"]  # an image name, kept as data; never opened or copied


def test_module_without_a_name_is_refused(tmp_path, pbem):
    source = tmp_path / "buildFile.xml"
    source.write_text(HOSTILE.format(name="").replace('name="../../"', 'name="///"'))
    result = pbem("module", "import", source, "--out", tmp_path / "out")
    assert result.code == 2 and "no name" in result.err and not (tmp_path / "out").exists()


def test_paths_of_glory_classic_setup_agrees_with_the_bundled_1914_scenario(imported):
    """The Classic save beside the buildFile becomes a scenario; every army and named corps on the map stands
    where the bundled 1914 scenario (cross-checked with that save by hand) puts it."""
    from pbem.formats.vassal.mapping import fill, load_mapping

    folder = imported("paths-of-glory")
    _need(POG / "Classic10-8.vsav")
    copy = load_module(folder)
    assert "classic10-8" in copy.scenarios
    setup = {u["id"]: u["at"] for u in load_json(copy.scenarios["classic10-8"]).data["units"]}
    bundled = load_module("paths-of-glory")
    mapping = load_mapping(bundled)
    expected = {u["id"]: u["at"] for u in load_json(bundled.scenarios["1914"]).data["units"]}
    compared = 0
    for unit_id, unit in copy.units.items():
        rule = mapping.unit_rule(unit.name)
        if rule is None or rule[0] != "unit" or unit_id not in setup:
            continue
        theirs = fill(rule[1], rule[2])
        if theirs in expected and bundled.map.find(expected[theirs]) is not None:
            assert setup[unit_id] == expected[theirs], (unit.name, theirs)
            compared += 1
    assert compared >= 25, compared  # 28 armies and named corps start on the map


def test_board_size_given_lists_the_cells_of_a_board_whose_image_is_absent(tmp_path, pbem):
    source, _ = CASES["tld"]
    _need(source)
    out = tmp_path / "tld"
    result = pbem("module", "import", source, "--out", out, "--board-size", "Normandy=2400x1800")
    assert result.code == 0, result.err
    game_map = load_module(out).map
    assert game_map.find("1010") is not None and game_map.find("Cherbourg Alarm Units") is not None
    assert len(game_map.neighbours[game_map.find("1010")]) == 6
    bad = pbem("module", "import", source, "--out", tmp_path / "x", "--board-size", "Normandy=0x1")
    assert bad.code == 2 and "--board-size" in bad.err and not (tmp_path / "x").exists()
