"""Every real VASSAL file in ../shared/data decodes, round-trips byte for byte, and reads as VASSAL shows it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.formats.vassal.archive import read_zip, write_zip
from pbem.formats.vassal.describe import open_vassal_file
from pbem.formats.vassal.layout import layouts_for
from pbem.formats.vassal.modulefile import open_module
from pbem.formats.vassal.savefile import SavedGame, encode_saved_game, read_saved_game

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SAMPLES = DATA / "vassal-samples"
POG = DATA / "paths-of-glory" / "vassal"

if not SAMPLES.is_dir():
    pytest.skip(f"VASSAL sample files not found at {SAMPLES} (the repo's sibling ../shared)", allow_module_level=True)

GAMES = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".vsav", ".vlog", ".sav", ".log"))
ZIPS = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".vsav", ".vlog", ".sav", ".log", ".vmod"))
ALL_FILES = sorted(p for p in SAMPLES.iterdir() if p.name != "README.md") + sorted(POG.glob("*"))


def run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        main(list(args))
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_save_or_log_round_trips_byte_for_byte(path):
    data = path.read_bytes()
    game = read_saved_game(data, path)
    assert encode_saved_game(game) == data


@pytest.mark.parametrize("path", ZIPS, ids=lambda p: p.name)
def test_zip_container_round_trips_byte_for_byte(path):
    data = path.read_bytes()
    archive = read_zip(data, path)
    assert write_zip(archive.members, archive.layout, archive.comment, originals=archive.members) == data


def test_paths_of_glory_save_round_trips():
    path = POG / "Classic10-8.vsav"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    data = path.read_bytes()
    assert encode_saved_game(read_saved_game(data, path)) == data


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
def test_info_reads_every_file(path, capsys):
    code, out, err = run(capsys, "vassal", "info", str(path), "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["kind"] in ("module", "save", "log", "metadata")
    if report["kind"] == "log":
        assert report["steps"] > 0


def test_info_text_is_plain_when_not_a_terminal(capsys):
    code, out, _ = run(capsys, "vassal", "info", str(SAMPLES / "zxvt-buildFile.xml"))
    assert code == 0
    assert "\x1b[" not in out
    assert "square grid dx=50 dy=50 x0=36 y0=36" in out


def test_tld_log_lists_steps_dice_and_undos(capsys):
    code, out, _ = run(capsys, "vassal", "log", str(SAMPLES / "tld-game-0606-1.log"),
                       "--vassal-module", str(SAMPLES / "tld-buildFile.xml"), "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["kind"] == "log"
    assert len(report["steps"]) == 1091
    summary = report["summary"]
    assert summary["rolls"] == 132 and summary["rolls_per_player"] == {"Joel": 132}
    rolls = [e for s in report["steps"] for e in s["events"] if e["type"] == "roll"]
    assert rolls[0]["button"] == "d6" and rolls[0]["values"] == [2] and rolls[0]["player"] == "Joel"
    undo_chats = [e for s in report["steps"] for e in s["events"] if e["type"] == "chat" and e.get("undo")]
    assert len(undo_chats) == 3
    # The run of undos 558..562 takes back steps 557..553, one after the other.
    undos = {s["index"]: e["undoes"] for s in report["steps"] for e in s["events"] if e["type"] == "undo"}
    assert [undos[i] for i in range(558, 563)] == [557, 556, 555, 554, 553]
    moves = [e for s in report["steps"] for e in s["events"] if e["type"] == "move"]
    assert any(e["to"].get("location") == "2724" for e in moves)
    assert "foo" not in out  # the player's VASSAL secret never shows


def test_zxvt_pieces_are_named_b05_and_f01(capsys):
    code, out, _ = run(capsys, "vassal", "log", str(SAMPLES / "zxvt-5x5_startup.vlog"),
                       "--vassal-module", str(SAMPLES / "zxvt-buildFile.xml"), "--format", "json")
    assert code == 0
    report = json.loads(out)
    for step in report["steps"]:
        add, chat = step["events"]
        assert add["type"] == "add" and chat["type"] == "chat"
        assert chat["text"] == f"{add['piece']} created in {add['at']['location']}"
    assert {s["events"][0]["at"]["location"] for s in report["steps"]} == {"B05", "F01"}


def test_kassala_pieces_fall_on_hex_centres():
    module = open_module(SAMPLES / "kassala-buildFile.xml").module
    grid = module.maps[0].boards[0].grid
    game = read_saved_game((SAMPLES / "kassala-Default_Setup.vsav").read_bytes(), "kassala")
    pieces, _ = game.pieces()
    assert len(pieces) == 23
    for piece in pieces.values():
        assert grid.snap((piece.x, piece.y)) == (piece.x, piece.y)


def test_paths_of_glory_pieces_are_named_by_spaces():
    save, build = POG / "Classic10-8.vsav", POG / "buildFile.xml"
    if not (save.is_file() and build.is_file()):
        pytest.skip("Paths of Glory sample files not found")
    module = open_module(build).module
    game = open_vassal_file(save)
    assert isinstance(game, SavedGame)
    layouts = layouts_for(module, game.board_layouts())
    pieces, _ = game.pieces()
    names = {layouts["Map"].location_name(p.x, p.y) for p in pieces.values() if p.map_id == "Map"}
    assert {"Paris", "Metz", "Verdun", "Constantinople"} <= names or {"Paris", "Metz", "Verdun"} <= names
    assert layouts["Map"].point_of("Paris") is not None


def test_vasl_dice_reports(capsys):
    code, out, _ = run(capsys, "vassal", "log", str(SAMPLES / "vasl-templates-analyze-vlog-3d6.vlog"), "--format", "json")
    assert code == 0
    rolls = [e for s in json.loads(out)["steps"] for e in s["events"] if e["type"] == "roll"]
    assert [(r["button"], r["values"]) for r in rolls][:3] == [("IFT DR", [6, 6]), ("RS dr", [2]), ("3d6", [3, 4, 1])]
    assert rolls[2]["total"] == 8


def test_module_info_lists_maps_boards_and_grids(capsys):
    code, out, _ = run(capsys, "vassal", "info", str(SAMPLES / "tld-buildFile.xml"), "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert report["kind"] == "module" and report["module"] == {"name": "The Longest Day", "version": "0.0"}
    normandy = report["maps"][0]
    assert normandy["id"] == "Normandy"
    grid = normandy["boards"][0]["grid"]
    assert grid["kind"] == "zoned"
    assert grid["background"]["kind"] == "hex" and grid["background"]["numbering"]["v_off"] == 1
    assert any(zone["grid"] and zone["grid"]["kind"] == "square" for zone in grid["zones"])
    assert report["pieces"] == 2070


def test_module_zip_reads_like_its_build_file(capsys):
    _, from_zip, _ = run(capsys, "vassal", "info", str(SAMPLES / "kassala-repacked-noimages.vmod"), "--format", "json")
    _, from_xml, _ = run(capsys, "vassal", "info", str(SAMPLES / "kassala-buildFile.xml"), "--format", "json")
    zipped, unpacked = json.loads(from_zip), json.loads(from_xml)
    assert zipped["maps"] == unpacked["maps"] and zipped["pieces"] == unpacked["pieces"] == 36
    assert zipped["dice"][0]["report_format"].startswith("** $name$ = $result$ ***")
