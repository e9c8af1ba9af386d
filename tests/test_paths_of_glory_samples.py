"""Every Paths of Glory sample gets its expected verdict from ``pbem check --format json``."""

import json

import pytest

from pbem.model.resources import data_dir
from sample_support import check_sample, expected_verdicts

SAMPLES = data_dir("samples") / "paths-of-glory"
EXPECTED = expected_verdicts(SAMPLES)


def test_enough_samples_of_each_kind():
    verdicts = [v["ok"] for v in EXPECTED.values()]
    assert verdicts.count(True) >= 10 and verdicts.count(False) >= 25
    states = {p.name for p in SAMPLES.glob("state-*.json")}
    assert set(EXPECTED) == {p.name for p in SAMPLES.glob("*.json")} - {"expected.json"} - states


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_verdict(pbem, name):
    report = check_sample(pbem, SAMPLES, name, EXPECTED[name])
    # The only warnings allowed: an event or combat cards whose effect the module does not check (README lists them).
    assert all(v["rule"] in ("9.5", "9.5.4") for v in report["violations"] if v["severity"] == "warning")


@pytest.mark.parametrize("name", sorted(n for n, v in EXPECTED.items() if not v["ok"]))
def test_illegal_samples_break_the_rule_in_their_name(name):
    assert EXPECTED[name]["rules"] == [name.split("-")[1]]


def test_the_extended_example_ends_where_the_rules_say(pbem, tmp_path):
    """LR2022's Extended Example: after Sedan (+1) and Lodz (+1) the VP marker stands at 12."""
    after = tmp_path / "after.json"
    assert pbem("check", SAMPLES / "legal-01-guns-of-august-opening.json", "--write-state", after).code == 0
    state = json.loads(after.read_text())
    assert state["status"]["vp"] == 12
    assert state["status"]["control"] == {"Liege": "cp", "Sedan": "cp", "Tarnopol": "ap", "Czestochowa": "cp", "Lodz": "cp"}
    where = {u["id"]: u["at"] for u in state["units"]}
    assert where["FR-5-ARMY"] == "Cambrai" and where["AH-CORPS-01"] == "Czernowitz" and where["AH-3-ARMY"] == "eliminated"
    assert where["RU-3-ARMY"] == "Tarnopol" and where["GE-CORPS-11"] == "Lodz"


def test_a_game_goes_into_the_archive_and_plays_back_in_the_viewer(pbem, tmp_path):
    import re

    db, out = tmp_path / "archive.sqlite", tmp_path / "game.html"
    added = pbem("archive", "--db", db, "add", SAMPLES / "legal-01-guns-of-august-opening.json", "--title", "August 1914")
    assert added.code == 0 and "all legal" in added.out
    assert pbem("replay", "1", "--db", db, "--out", out).code == 0
    data = json.loads(re.search(r'<script type="application/json" id="game">(.*?)</script>', out.read_text(), re.S).group(1))
    assert data["map"]["kind"] == "point"
    text = out.read_text()
    assert "Activate Bar le Duc (move), Dubno (attack), Kamenets-Podolski (attack) for 3" in text
    assert "A-H Corps #1 replaces AH 3rd Army" in text and "Card CP-10 SUD Army played for ops" in text


def test_the_turn_picture_marks_activations(pbem, tmp_path):
    from pbem.art.overlay import ActivationMark, turn_marks
    from pbem.formats.turnfile import load_start_state, load_turn

    turn, module = load_turn(SAMPLES / "legal-01-guns-of-august-opening.json")
    marks = turn_marks(turn, load_start_state(turn, module), [], module.sides)
    activations = {(module.map.label(m.location), m.purpose) for m in marks if isinstance(m, ActivationMark)}
    # the activate actions' spaces (Guns of August's own activation of Liege and Koblenz is not an activate action)
    assert ("Dubno", "attack") in activations and ("Oppeln", "move") in activations and len(activations) == 5
    out = tmp_path / "turn.png"
    assert pbem("art", "turn", SAMPLES / "legal-01-guns-of-august-opening.json", "--out", out).code == 0 and out.stat().st_size > 0
