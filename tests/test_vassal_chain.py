"""Issue 25, part 2: a Paths of Glory game as a chain of VASSAL logs (one per action round), built with pbem's log
writer from the real save: each log opens where the one before ended, or a piece was moved between logs (rule
continuity); the undos and re-rolls of the whole chain."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SAVE = REPO.parent / "shared" / "data" / "paths-of-glory" / "vassal" / "Classic10-8.vsav"
pytestmark = pytest.mark.skipif(not SAVE.is_file(), reason="../shared/data/paths-of-glory/vassal is absent")
FILES = ["01-cp-round-1.vlog", "02-ap-round-1.vlog", "03-cp-round-2.vlog"]


def _tool():
    spec = importlib.util.spec_from_file_location("build_vassal_samples", REPO / "modules" / "paths-of-glory" / "tools" / "build_vassal_samples.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


@pytest.fixture(scope="module")
def chains(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("chains")
    assert _tool().build_chains(SAVE, out) == {"chain-clean": FILES, "chain-moved": FILES}
    return out


def test_a_clean_chain_checks_legal_each_log_from_where_the_one_before_ended(pbem, chains):
    result = pbem("check", chains / "chain-clean")
    assert result.code == 0, result.out + result.err
    assert "continuity" not in result.out
    assert "chain of 3 files: every file opens where the one before ended" in result.out
    # Round 1 of the AP and round 2 of the CP follow on from the replay: no 8.1.1 complaint.
    assert "8.1.1" not in result.out


def test_a_piece_moved_between_logs_is_illegal_naming_the_piece_both_places_and_both_files(pbem, chains):
    result = pbem("check", *(chains / "chain-moved" / name for name in FILES))
    assert result.code == 1
    lines = [line for line in result.out.splitlines() if "rule continuity [" in line]
    assert len(lines) == 1, result.out
    (line,) = lines
    assert line.startswith("02-ap-round-1.vlog: opening position: rule continuity [illegal] FR-5-ARMY")
    assert "at the end of 01-cp-round-1.vlog it is on Map / Sedan" in line and "at the start of 02-ap-round-1.vlog it is on Map / Verdun" in line


def test_the_chain_report_in_json(pbem, chains):
    report = json.loads(pbem("check", chains / "chain-moved", "--format", "json").out)
    assert [f["file"] for f in report["chain"]] == FILES and not report["ok"]
    (broken,) = report["continuity"]
    assert broken["rule"] == "continuity" and broken["severity"] == "illegal" and broken["source"]["file"] == "02-ap-round-1.vlog"
    (again,) = report["rerolls"]
    assert (again["file"], again["step"], again["undone_step"], again["before"], again["after"], again["player"]) == (
        "03-cp-round-2.vlog", 5, 3, [1], [6], "Ted")


def test_the_undo_and_reroll_report_covers_every_log_per_player(pbem, chains):
    out = pbem("check", chains / "chain-clean").out
    assert "undos and re-rolls, by player:\n  Ted: 1 roll(s) taken back, 1 rolled again\n" in out
    assert "    03-cp-round-2.vlog: Grey Die 1 at step 3 (undone), rolled again: 6 at step 5" in out
    assert "Ann" not in out.split("undos and re-rolls")[1]  # the AP player took nothing back


def test_a_save_in_a_chain_is_a_position(pbem, chains, tmp_path):
    # The real save, then the first log, which opens with that very position: they follow on.
    folder = tmp_path / "with-save"
    folder.mkdir()
    shutil.copy(SAVE, folder / "00-start.vsav")
    shutil.copy(chains / "chain-clean" / FILES[0], folder / FILES[0])
    result = pbem("check", folder)
    assert result.code == 0 and "00-start.vsav: a save: a position in the chain" in result.out, result.out + result.err
    # The first log, then the save of the position before it: the moved units are named, the save too.
    result = pbem("check", folder / FILES[0], folder / "00-start.vsav")
    assert result.code == 1
    assert "00-start.vsav: opening position: rule continuity [illegal] GE-4-ARMY" in result.out
    assert "it does not follow on from the file before" in result.out


def test_archive_add_keeps_the_continuity_violation_and_show_and_replay_name_it(pbem, chains, tmp_path):
    db = tmp_path / "a.sqlite"
    added = pbem("archive", "--db", db, "add", chains / "chain-moved")
    assert added.code == 0 and "3 turns" in added.out, added.err
    shown = json.loads(pbem("archive", "--db", db, "show", "1", "--format", "json").out)
    assert [t["name"] for t in shown["turns"]] == FILES
    rules = [(t["name"], v["rule"]) for t in shown["turns"] for v in t["violations"] if v["severity"] == "illegal"]
    assert rules == [("02-ap-round-1.vlog", "continuity")]
    page = tmp_path / "game.html"
    assert pbem("replay", "1", "--db", db, "--out", page).code == 0
    assert "FR-5-ARMY (FR5): at the end of 01-cp-round-1.vlog" in page.read_text()
    clean = pbem("archive", "--db", db, "add", chains / "chain-clean")
    assert clean.code == 0 and "3 turns" in clean.out
    assert pbem("archive", "--db", db, "revalidate", "--dry-run", "--jobs", "1").code == 0  # verdicts stand when replayed again


def test_several_files_that_are_not_vassal_are_refused_in_one_line(pbem):
    samples = REPO / "samples" / "china-war-1980"
    result = pbem("check", samples / "legal-01-amur-crossing.json", samples / "legal-02-chinese-reply.json")
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1 and "chain of VASSAL logs" in result.err


def test_the_position_after_a_log_is_what_the_log_ends_with():
    from pbem.formats.vassal.logwriter import LogWriter
    from pbem.formats.vassal.to_state import open_game

    opened = open_game(str(SAVE))
    tool = _tool()
    o = tool.Opening(SAVE)
    unchanged = LogWriter(opened.game).position()
    before, _ = opened.game.pieces()
    after, _ = unchanged.pieces()
    assert {p: (v.map_id, v.x, v.y) for p, v in before.items()} == {p: (v.map_id, v.x, v.y) for p, v in after.items()}
    o.move("GE-4-ARMY", "Strasbourg")
    pieces, stacks = o.writer.position().pieces()
    pid = o.unit("GE-4-ARMY")
    assert (pieces[pid].x, pieces[pid].y) == o.xy["Strasbourg"]
    assert not any(pid in s.children for s in stacks.values())


def test_dice_stats_of_a_chain_of_logs_shows_the_roll_taken_back_and_its_reroll(pbem, chains):
    result = pbem("dice", "stats", chains / "chain-clean")
    assert result.code == 0, result.err
    assert "5 roll(s) on record: 4 kept, 1 taken back by an undo" in result.out
    assert "  Ted: 03-cp-round-2.vlog step 3 combat 1 taken back; rolled again at step 5: 6" in result.out
    report = json.loads(pbem("dice", "stats", *(chains / "chain-clean" / n for n in FILES), "--format", "json").out)
    assert {g["player"]: g["counts"] for g in report["groups"]} == {
        "Ann": {"1": 0, "2": 1, "3": 0, "4": 0, "5": 0, "6": 0}, "Ted": {"1": 0, "2": 0, "3": 1, "4": 0, "5": 1, "6": 1}}
