"""VASSAL logs and saves checked as turns: sample logs built from the real Paths of Glory save with pbem's log
writer (in a temporary folder: they carry the VASSAL module's own pieces), their expected verdicts, undo and
re-roll, the turn pbem understood, and refusals."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
SAVE = SHARED / "paths-of-glory" / "vassal" / "Classic10-8.vsav"
EXPECTED = json.loads((REPO / "samples" / "paths-of-glory" / "vassal" / "expected.json").read_text())
pytestmark = pytest.mark.skipif(not SAVE.is_file(), reason="../shared/data/paths-of-glory/vassal is absent")


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    spec = importlib.util.spec_from_file_location("build_vassal_samples", REPO / "modules" / "paths-of-glory" / "tools" / "build_vassal_samples.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    out = tmp_path_factory.mktemp("vassal-samples")
    built = tool.build(SAVE, out, expected_file=False)
    assert built == EXPECTED  # the recipe and the committed verdicts agree on what exists
    return out


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_log_verdicts(pbem, logs, name):
    result = pbem("check", logs / name, "--format", "json")
    report = json.loads(result.out)
    expected = EXPECTED[name]
    assert result.code == (0 if expected["ok"] else 1), result.out
    assert report["ok"] is expected["ok"]
    assert sorted({v["rule"] for v in report["violations"]}) == sorted(expected["rules"])


def test_a_violation_names_the_vassal_step(pbem, logs):
    result = pbem("check", logs / "illegal-11.1.7-through-an-enemy-space.vlog")
    assert result.code == 1
    assert re.search(r"illegal-11\.1\.7-through-an-enemy-space\.vlog: step 2: rule 11\.1\.7 \[illegal\] Sedan holds enemy units", result.out)


def test_a_reroll_after_an_undo_is_reported_with_both_results_and_steps(pbem, logs):
    result = pbem("check", logs / "reroll-after-undo.vlog")
    assert "step 6: rule undo [warning] Grey Die rolled again by Ted after an undo: 1 at step 4 (undone), then 4 at step 6" in result.out


def test_undone_steps_are_left_out_of_the_turn(pbem, logs, tmp_path):
    out = tmp_path / "turn.json"
    assert pbem("vassal", "turn", logs / "legal-02-undone-move.vlog", "--out", out).code == 0
    moves = [a for a in json.loads(out.read_text())["actions"] if "move" in a]
    assert moves == [{"move": "GE-4-ARMY", "path": ["Metz", "Strasbourg"]}]
    assert json.loads(out.read_text())["start"] == {"state": "turn-start.json"}  # the log's opening position
    assert (tmp_path / "turn-start.json").is_file()


def test_the_turn_pbem_understood_checks_as_the_log_does(pbem, logs, tmp_path):
    out = tmp_path / "opening.json"
    assert pbem("vassal", "turn", logs / "legal-01-opening.vlog", "--out", out).code == 0
    turn = json.loads(out.read_text())
    actions = turn["actions"]
    assert actions[:3] == [{"phase": "action", "side": "cp"}, {"card": "CP-10", "use": "ops"},
                           {"activate": {"Metz": "move", "Oppeln": "move", "Munkacs": "move"}}]
    corps = [a for a in actions if "move" in a and a["move"].startswith("GE-CORPS")]
    assert len(corps) == 1 and corps[0]["path"] == ["Oppeln", "Czestochowa", "Lodz"]  # two drags, one move
    assert {"comment": "Ted: that's my first round"} in actions
    assert pbem("check", out).code == 0


def test_a_log_of_another_game_is_refused_in_one_line(pbem):
    other = SHARED / "vassal-samples" / "zxvt-5x5_startup.vlog"
    if not other.is_file():
        pytest.skip("../shared/data/vassal-samples is absent")
    result = pbem("check", other)
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1
    assert "Capture of the territory" in result.err


def test_a_save_needs_the_previous_position(pbem):
    result = pbem("check", SAVE)
    assert result.code == 2 and "give --state PREVIOUS" in result.err


def test_a_save_against_the_previous_state_is_a_turn_of_net_moves(pbem, tmp_path):
    start = tmp_path / "before.json"
    assert pbem("vassal", "state", SAVE, "--out", start).code == 0
    before = json.loads(start.read_text())
    for unit in before["units"]:
        if unit["id"] == "GE-4-ARMY":
            unit["at"] = "Strasbourg"
        if unit["id"] == "FR-6-ARMY":
            unit.pop("step")
    start.write_text(json.dumps(before))
    out = tmp_path / "turn.json"
    assert pbem("vassal", "turn", SAVE, "--state", start, "--out", out).code == 0
    actions = json.loads(out.read_text())["actions"]
    assert {"move": "GE-4-ARMY", "path": ["Strasbourg", "Metz"]} in actions
    assert {"loss": "FR-6-ARMY"} in actions
    assert len(actions) == 2
    checked = pbem("check", SAVE, "--state", start, "--format", "json")
    assert checked.code == 1  # moves with no card played: the rules say which
    assert json.loads(checked.out)["violations"]


def test_an_attack_declared_in_the_chat_gathers_its_dice_losses_retreat_and_advance(pbem, logs, tmp_path):
    out = tmp_path / "attack.json"
    assert pbem("vassal", "turn", logs / "legal-03-attack-on-sedan.vlog", "--out", out).code == 0
    actions = json.loads(out.read_text())["actions"]
    assert {"activate": {"Metz": "move", "Koblenz": "attack"}} in actions
    attack = next(a for a in actions if "attack" in a)
    assert sorted(attack.pop("attack")) == ["GE-2-ARMY", "GE-3-ARMY"]
    assert attack == {"target": "Sedan", "result": "2/5", "roll": 4, "defender_roll": 3,
                      "losses": {"defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Chateau Thierry", "Cambrai"]},
                      "advance": ["GE-2-ARMY", "GE-3-ARMY"]}
    assert not any("roll" in a and isinstance(a["roll"], dict) for a in actions)  # the dice belong to the attack


@pytest.fixture(scope="module")
def opening():
    spec = importlib.util.spec_from_file_location("build_vassal_samples", REPO / "modules" / "paths-of-glory" / "tools" / "build_vassal_samples.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool.Opening


@pytest.mark.parametrize("chat, rolls, message", [
    ("attack Sedan from Koblenz: 2/5", [], "has no die roll"),
    ("attack Sedan from Koblenz", [4, 3], "write the result in the declaration"),
    ("attack Atlantis from Koblenz: 2/5", [4, 3], "'Atlantis', not a space"),
    ("attack Sedan from Paris: 2/5", [4, 3], "no unit of the side playing stands in Paris"),
])
def test_an_attack_that_cannot_be_read_is_an_input_error_at_its_step(pbem, opening, tmp_path, chat, rolls, message):
    o = opening(SAVE)
    o.play("CP-10", "OPS (CP)")
    o.writer.chat(chat)
    for button, value in zip(("Grey Die", "Blue Die"), rolls):
        o.roll(button, value)
    path = o.save("bad.vlog", tmp_path)
    result = pbem("check", path)
    assert result.code == 2 and "bad.vlog: step 2: " in result.err and message in result.err
    assert len(result.err.strip().splitlines()) == 1


def test_the_archive_takes_a_vassal_log_in_a_game_folder(pbem, logs, tmp_path):
    game = tmp_path / "game"
    game.mkdir()
    (game / "01-cp.vlog").write_bytes((logs / "legal-03-attack-on-sedan.vlog").read_bytes())
    db = tmp_path / "archive.sqlite"
    added = pbem("archive", "--db", db, "add", game)
    assert added.code == 0, added.err
    assert "1 turn, 5 actions, all legal" in added.out
    assert pbem("archive", "--db", db, "verify").code == 0


def test_a_unit_moved_where_the_mapping_has_no_place_is_an_input_error_naming_both(pbem, opening, tmp_path):
    o = opening(SAVE)
    o.play("CP-10", "OPS (CP)")
    o.writer.move(o.unit("GE-4-ARMY"), "Preferences", 10, 10)
    path = o.save("lost.vlog", tmp_path)
    result = pbem("check", path)
    assert result.code == 2
    assert "lost.vlog: step 2: unit GE-4-ARMY was moved to Preferences" in result.err
    assert "a place the paths-of-glory VASSAL mapping lacks" in result.err


@pytest.mark.parametrize("name", ["legal-03-attack-on-sedan.vlog", "mismatch-12.2.8-wrong-combat-result.vlog"])
def test_the_turn_in_notation_checks_as_the_log_does(pbem, logs, tmp_path, name):
    out = tmp_path / "turn.pbem"
    assert pbem("vassal", "turn", logs / name, "--out", out).code == 0
    assert "Start: state turn-start.json" in out.read_text()
    from_log = json.loads(pbem("check", logs / name, "--format", "json").out)
    from_notation = json.loads(pbem("check", out, "--format", "json").out)
    assert [(v["rule"], v["message"]) for v in from_notation["violations"]] == [(v["rule"], v["message"]) for v in from_log["violations"]]


@pytest.mark.parametrize("name", ["sedan.log", "sedan.txt", "sedan"])
def test_a_vassal_log_is_read_as_a_log_whatever_its_name(pbem, logs, tmp_path, name):
    # VASSAL itself wrote '.log' for years, and a mail client may rename an attachment: the content decides.
    renamed = tmp_path / name
    renamed.write_bytes((logs / "legal-03-attack-on-sedan.vlog").read_bytes())
    result = pbem("check", renamed)
    assert result.code == 0, result.err
    assert f"{renamed}: 5 actions checked, all legal" in result.out
    assert pbem("state", "show", renamed).out.startswith("paths-of-glory, scenario 1914")
    # and as the previous position of a save
    save = tmp_path / "after.sav"
    save.write_bytes(SAVE.read_bytes())
    assert pbem("check", renamed, "--state", save).code in (0, 1)


def test_a_zip_that_is_not_a_vassal_game_is_still_refused(pbem, tmp_path):
    import zipfile

    path = tmp_path / "turn.log"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("buildFile.xml", "<x/>")
    result = pbem("check", path)
    assert result.code == 2 and "a zip file, not a VASSAL save or log" in result.err


def test_vassal_log_takes_a_pbem_module_or_a_vassal_module(pbem, logs):
    log = logs / "legal-03-attack-on-sedan.vlog"
    named = pbem("vassal", "log", log, "--module", "paths-of-glory")  # a pbem module: its vassal.json's places
    assert named.code == 0 and "GE4: Metz (Map) -> Strasbourg (Map)" in named.out and named.err == ""
    vmod = SAVE.parent / "buildFile.xml"
    given = pbem("vassal", "log", log, "--vassal-module", vmod)
    assert given.code == 0 and "Strasbourg" in given.out and given.err == ""
    # The old spelling (a VASSAL module given to --module) still works, with one note on standard error.
    old = pbem("vassal", "log", log, "--module", vmod)
    assert old.code == 0 and old.out == given.out
    assert old.err.count("\n") == 1 and "--vassal-module" in old.err and "deprecated" in old.err
    both = pbem("vassal", "log", log, "--module", vmod, "--vassal-module", vmod)
    assert both.code == 2 and "give it once" in both.err
