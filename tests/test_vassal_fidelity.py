"""VASSAL files read as VASSAL itself shows them (issue 14), on real files or files made from real modules.

Every log in ../shared/data that carries VASSAL's own auto-reports ("X moves A -> B", "X created in A")
is an oracle: pbem's name for each position must be the one VASSAL printed.
"""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from pbem.formats.vassal.commands import encode_tree
from pbem.formats.vassal.describe import open_vassal_file
from pbem.formats.vassal.modulefile import ModuleFile
from pbem.formats.vassal.obfuscation import obfuscate
from pbem.formats.vassal.savefile import read_saved_game

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SAMPLES = DATA / "vassal-samples"
ZXVT_MODULE = SAMPLES / "zxvt-buildFile.xml"
ZXVT_LOG = SAMPLES / "zxvt-5x5_startup.vlog"
TLD_LOG = SAMPLES / "tld-game-0606-1.log"
TLD_MODULE = SAMPLES / "tld-buildFile.xml"
POG_SAVE = DATA / "paths-of-glory" / "vassal" / "Classic10-8.vsav"

if not SAMPLES.is_dir():
    pytest.skip(f"VASSAL sample files not found at {SAMPLES} (the repo's sibling ../shared)", allow_module_level=True)

RED = "1571600961012"  # the zxvt log's first piece, "Captured by Red", created at (36, 236) = B05


def log_json(pbem, path: Path, *extra: str) -> dict:
    result = pbem("vassal", "log", str(path), *extra, "--format", "json")
    assert result.code == 0, result.err
    return json.loads(result.out)


def zxvt_log(tmp_path: Path, *steps, name: str = "made.vlog", restore_extra=()) -> Path:
    """The real zxvt log with ``steps`` (lists of commands) added after its own six."""
    game = read_saved_game(ZXVT_LOG.read_bytes(), ZXVT_LOG)
    tokens = list(game.tokens)
    at = tokens.index("end_save") if "end_save" in tokens else 2
    for extra in restore_extra:
        tokens.insert(at, extra)
    tokens += [[f"LOG\t{command}" for command in step] for step in steps]
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("savedGame", obfuscate(encode_tree(tokens).encode("utf-8"), game.obfuscation))
        archive.writestr("moduledata", (SAMPLES / "zxvt-moduledata").read_bytes())
    return path


def move(piece: str, x: int, y: int, old_x: int, old_y: int) -> str:
    return f"M/{piece}/Main Map/{x}/{y}/null/Main Map/{old_x}/{old_y}/null/alex123321"


# --- the oracle ------------------------------------------------------------------------------------------

REPORT = re.compile(r"^(?P<piece>.*?) (?:moves (?P<source>.*?) -> (?P<target>.*?)|created in (?P<at>.*?))(?: \*)?$")


def _modules() -> list[ModuleFile]:
    out = []
    for path in sorted(DATA.rglob("*")):
        if path.is_file() and (path.name.endswith(("buildFile", "buildFile.xml")) or path.suffix in (".vmod", ".vmdx")):
            try:
                thing = open_vassal_file(path)
            except Exception:
                continue
            if isinstance(thing, ModuleFile):
                out.append(thing)
    return out


def _logs_with_reports() -> list[Path]:
    out = []
    for path in sorted(DATA.rglob("*")):
        if not path.is_file() or path.suffix not in (".vlog", ".log"):
            continue
        game = read_saved_game(path.read_bytes(), path)
        text = encode_tree(game.tree)
        if re.search(r"CHAT\* ?.* (moves .* -> |created in )", text):
            out.append(path)
    return out


def _module_for(log: Path, modules: list[ModuleFile]) -> ModuleFile:
    game = read_saved_game(log.read_bytes(), log)
    name = game.moduledata.name if game.moduledata else ""
    prefix = log.name.split("-")[0]
    for module in modules:
        if name and module.module.name == name:
            return module
    for module in modules:
        if Path(module.source).name.split("-")[0] == prefix:
            return module
    raise AssertionError(f"no module in {DATA} for {log.name}")


LOGS = _logs_with_reports()


def test_the_oracle_has_logs():
    assert ZXVT_LOG in LOGS


@pytest.mark.parametrize("log", LOGS, ids=lambda p: p.name)
def test_every_position_agrees_with_vassals_own_reports(pbem, log):
    module = _module_for(log, _modules())
    report = log_json(pbem, log, "--vassal-module", module.source)
    compared = 0
    for step in report["steps"]:
        reports = [REPORT.match(event["text"]) for event in step["events"]
                   if event["type"] == "chat" and event.get("auto") and not event.get("undo")]
        reports = [match for match in reports if match]
        moves = [event for event in step["events"] if event["type"] in ("move", "add")]
        for match in reports:
            kind = "add" if match.group("at") is not None else "move"
            event = next(event for event in moves if event["type"] == kind)
            moves.remove(event)
            if kind == "add":
                assert event["at"]["location"] == match.group("at"), (step["index"], event)
            else:
                assert (event["from"].get("location"), event["to"]["location"]) == \
                    (match.group("source"), match.group("target")), (step["index"], event)
            compared += 1
    assert compared > 0


# --- 1. board choices inside a log ---------------------------------------------------------------------

def two_board_module(tmp_path: Path) -> Path:
    """The real zxvt module with a second board, "5x5 East", numbered from column K."""
    xml = ZXVT_MODULE.read_text()
    board = re.search(r'<VASSAL\.build\.module\.map\.boardPicker\.Board .*?</VASSAL\.build\.module\.map\.boardPicker\.Board>',
                      xml, re.S).group(0)
    east = board.replace('name="5x5"', 'name="5x5 East"').replace('hOff="1"', 'hOff="11"')
    path = tmp_path / "buildFile.xml"
    path.write_text(xml.replace(board, board + east))
    return path


def test_board_change_inside_a_log_renames_positions(pbem, tmp_path):
    module = two_board_module(tmp_path)
    log = zxvt_log(tmp_path,
                   [move(RED, 311, 236, 36, 236)],  # right of the one 5x5 board: offboard
                   ["Main MapBoardPicker\t5x5 East\t0\t0\t5x5\t1\t0"],  # East left, 5x5 right of it
                   [move(RED, 36, 236, 311, 236)])
    steps = log_json(pbem, log, "--vassal-module", str(module))["steps"]
    assert steps[6]["events"][0]["to"]["location"] == "offboard"
    assert steps[7]["events"][0] == {"type": "boards", "map": "Main Map", "command_index": 0, "boards": [
        {"name": "5x5 East", "reversed": False, "column": 0, "row": 0},
        {"name": "5x5", "reversed": False, "column": 1, "row": 0}]}
    # Now (311, 236) is (36, 236) on "5x5", named B05; (36, 236) is on "5x5 East", its column L.
    assert (steps[8]["events"][0]["from"]["location"], steps[8]["events"][0]["to"]["location"]) == ("B05", "L05")
    text = pbem("vassal", "log", str(log), "--vassal-module", str(module)).out
    assert "boards of Main Map: 5x5 East, 5x5 at column 1, row 0" in text


# --- 2. a zoned grid over a region grid ----------------------------------------------------------------

def test_zoned_grid_with_a_region_grid_background(pbem, tmp_path):
    xml = ZXVT_MODULE.read_text()
    grid = re.search(r"<VASSAL\.build\.module\.map\.boardPicker\.board\.SquareGrid .*?</VASSAL\.build\.module\.map\.boardPicker\.board\.SquareGrid>",
                     xml, re.S).group(0)
    zoned = ('<VASSAL.build.module.map.boardPicker.board.ZonedGrid>'
             '<VASSAL.build.module.map.boardPicker.board.mapgrid.Zone name="North" path="0,0;275,0;275,100;0,100" '
             'locationFormat="$name$" useParentGrid="false"/>'
             '<VASSAL.build.module.map.boardPicker.board.RegionGrid snapto="true" fontsize="9" visible="false">'
             '<VASSAL.build.module.map.boardPicker.board.Region name="Lake" originx="40" originy="230"/>'
             '<VASSAL.build.module.map.boardPicker.board.Region name="Town" originx="230" originy="230"/>'
             '</VASSAL.build.module.map.boardPicker.board.RegionGrid>'
             '</VASSAL.build.module.map.boardPicker.board.ZonedGrid>')
    module = tmp_path / "buildFile.xml"
    module.write_text(xml.replace(grid, zoned))
    info = json.loads(pbem("vassal", "info", str(module), "--format", "json").out)
    assert info["maps"][0]["boards"][0]["grid"]["background"] == {"kind": "region", "regions": 2}
    steps = log_json(pbem, ZXVT_LOG, "--vassal-module", str(module))["steps"]
    # The log creates pieces at (36, 236) and (236, 36): the first by the region background, the other in the zone.
    assert [step["events"][0]["at"]["location"] for step in steps[:2]] == ["Lake", "North"]


# --- 3. "other" events keep their command ------------------------------------------------------------

def test_other_event_keeps_its_command(pbem, tmp_path):
    log = zxvt_log(tmp_path, ["TURNTurnTracker0\t0|1;0;false;10"])
    event = log_json(pbem, log)["steps"][6]["events"][0]
    assert event == {"type": "other", "command": "TURNTurnTracker0", "command_index": 0}
    assert "other TURNTurnTracker0" in pbem("vassal", "log", str(log)).out


# --- 4. module or extension by the buildFile's root ------------------------------------------------------

def test_old_module_without_moduledata_is_a_module(pbem, tmp_path):
    path = tmp_path / "old.vmod"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("buildFile", ZXVT_MODULE.read_bytes())
    info = json.loads(pbem("vassal", "info", str(path), "--format", "json").out)
    assert info["kind"] == "module" and info["module"] == {"name": "Capture of the territory", "version": "0.3.0"}
    assert "extends" not in info


def extension_build_file() -> bytes:
    """The zxvt module's map, as an extension of that module would carry it."""
    xml = ZXVT_MODULE.read_text()
    body = re.search(r"<VASSAL\.build\.module\.Map .*?</VASSAL\.build\.module\.Map>", xml, re.S).group(0)
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>'
            '<VASSAL.build.module.ModuleExtension anyModule="false" description="" extensionId="a1b2" '
            'module="Capture of the territory" moduleVersion="0.3.0" nextPieceSlotId="0" '
            f'vassalVersion="3.6.1" version="1.2">{body}</VASSAL.build.module.ModuleExtension>').encode()


def test_extension_zip(pbem, tmp_path):
    path = tmp_path / "Extra maps.vmdx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("buildFile.xml", extension_build_file())
        # VASSAL writes the module's name into an extension's metadata: it is not the extension's.
        archive.writestr("extensiondata", (SAMPLES / "zxvt-moduledata").read_bytes())
    info = json.loads(pbem("vassal", "info", str(path), "--format", "json").out)
    assert info["kind"] == "extension"
    assert info["module"] == {"name": "Extra maps", "version": "1.2"}
    assert info["extends"] == {"name": "Capture of the territory", "version": "0.3.0"}
    text = pbem("vassal", "info", str(path)).out
    assert "VASSAL extension" in text and "module: Extra maps 1.2" in text and "extends: Capture of the territory 0.3.0" in text


def test_bare_extension_build_file(pbem, tmp_path):
    folder = tmp_path / "Extra maps"
    folder.mkdir()
    (folder / "buildFile.xml").write_bytes(extension_build_file())
    for target in (folder / "buildFile.xml", folder):
        info = json.loads(pbem("vassal", "info", str(target), "--format", "json").out)
        assert (info["kind"], info["module"], info["vassal_version"]) == \
            ("extension", {"name": "Extra maps", "version": "1.2"}, "3.6.1")


# --- 5. an unpacked module folder ---------------------------------------------------------------------

def test_info_of_an_unpacked_module_folder(pbem, tmp_path):
    folder = tmp_path / "zxvt"
    folder.mkdir()
    (folder / "buildFile").write_bytes(ZXVT_MODULE.read_bytes())
    (folder / "moduledata").write_bytes((SAMPLES / "zxvt-moduledata").read_bytes())
    result = pbem("vassal", "info", str(folder))
    assert result.code == 0, result.err
    assert "VASSAL module" in result.out and "Capture of the territory 0.3.0" in result.out
    assert "square grid dx=50" in result.out


# --- 6. --vassal-module of another game ---------------------------------------------------------------------

def test_module_of_another_game_is_named(pbem):
    report = log_json(pbem, ZXVT_LOG, "--vassal-module", str(TLD_MODULE))
    assert report["warnings"] == [
        "the log was made with the module 'Capture of the territory', not 'The Longest Day'",
        "none of the log's 6 positions falls on a board of 'The Longest Day' (another game's module?)"]
    text = pbem("vassal", "log", str(TLD_LOG), "--vassal-module", str(ZXVT_MODULE)).out
    assert "warning: none of the log's" in text.splitlines()[1]


def test_the_right_module_gives_no_warning(pbem):
    assert "warnings" not in log_json(pbem, ZXVT_LOG, "--vassal-module", str(ZXVT_MODULE))


# --- 7. empty names, escaped player names -------------------------------------------------------------

def test_unnamed_pieces_and_stacks(pbem, tmp_path):
    game = read_saved_game(ZXVT_LOG.read_bytes(), ZXVT_LOG)
    add = game.steps[0][0][len("LOG\t"):].replace("piece;;;Captured by Red;Captured by Red/", "piece;;;;/")
    log = zxvt_log(tmp_path, [add.replace(RED, "9001")],
                   ["+/9002/stack/Main Map;36;236;9001"],
                   [move("9002", 86, 236, 36, 236)])
    report = log_json(pbem, log)
    steps = report["steps"]
    assert steps[6]["events"][0]["piece"] == "(unnamed)"
    assert steps[8]["events"][0]["piece"] == "stack of (unnamed)"
    text = pbem("vassal", "log", str(log)).out
    assert "move stack of (unnamed): " in text and "move : " not in text and "stack of ," not in text


@pytest.mark.skipif(not POG_SAVE.is_file(), reason="Paths of Glory save not found")
def test_player_names_unescaped_and_once(pbem):
    info = json.loads(pbem("vassal", "info", str(POG_SAVE), "--format", "json").out)
    assert info["players"] == [{"name": "<Brian Reynolds (<observer>)>", "side": "<observer>"}]


# --- 8. undo, marked (3.6.7+) and inferred (older) ------------------------------------------------------

@pytest.mark.parametrize("marked", [True, False], ids=["marked", "inferred"])
def test_undo_of_a_real_step(pbem, tmp_path, marked):
    # Take back the log's last step (Gray created in F01) as VASSAL does: the piece removed, the report undone.
    game = read_saved_game(ZXVT_LOG.read_bytes(), ZXVT_LOG)
    last = game.steps[-1]
    piece_id = last[0].split("/")[1]
    undo = [f"-/{piece_id}", "CHAT* UNDO: * Gray created in F01"]
    log = zxvt_log(tmp_path, ["UNDO\ttrue", *undo, "UNDO\tfalse"] if marked else undo)
    report = log_json(pbem, log)
    steps = report["steps"]
    assert steps[5]["undone_by"] == 7
    assert steps[6]["events"][0] == {"type": "undo", "undoes": 6, "inferred": not marked,
                                     "what": ["add Gray", "chat"]}
    assert report["summary"]["undos"] == 1
