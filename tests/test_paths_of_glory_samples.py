"""Every Paths of Glory sample gets its expected verdict from ``pbem check --format json``."""

import json

import pytest

from pbem.model.resources import data_dir
from pbem.model.schemas import validator

SAMPLES = data_dir("samples") / "paths-of-glory"
EXPECTED = json.loads((SAMPLES / "expected.json").read_text())


def test_enough_samples_of_each_kind():
    verdicts = [v["ok"] for v in EXPECTED.values()]
    assert verdicts.count(True) >= 10 and verdicts.count(False) >= 25
    states = {p.name for p in SAMPLES.glob("state-*.json")}
    assert set(EXPECTED) == {p.name for p in SAMPLES.glob("*.json")} - {"expected.json"} - states


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_verdict(pbem, name):
    result = pbem("check", SAMPLES / name, "--format", "json")
    report = json.loads(result.out)
    validator("report").validate(report)
    rules = sorted({v["rule"] for v in report["violations"] if v["severity"] != "warning"})
    assert {"ok": report["ok"], "rules": rules} == EXPECTED[name], report["violations"]
    assert result.code == (0 if EXPECTED[name]["ok"] else 1)
    # The only warnings allowed: an event whose effect the module does not check (README lists them).
    assert all(v["rule"] == "9.5" for v in report["violations"] if v["severity"] == "warning")


@pytest.mark.parametrize("name", sorted(n for n, v in EXPECTED.items() if not v["ok"]))
def test_illegal_samples_break_the_rule_in_their_name(name):
    assert EXPECTED[name]["rules"] == [name.split("-")[1]]


def test_the_extended_example_ends_where_the_rules_say(pbem, tmp_path):
    """LR2022's Extended Example: after Sedan (+1) and Lodz (+1) the VP marker stands at 12."""
    after = tmp_path / "after.json"
    assert pbem("check", SAMPLES / "legal-01-guns-of-august-opening.json", "--write-state", after).code == 0
    state = json.loads(after.read_text())
    assert state["status"]["vp"] == 12
    assert state["status"]["control"] == {"Sedan": "cp", "Tarnopol": "ap", "Czestochowa": "cp", "Lodz": "cp"}
    where = {u["id"]: u["at"] for u in state["units"]}
    assert where["FR-5-ARMY"] == "Cambrai" and where["AH-CORPS-01"] == "Czernowitz" and where["AH-3-ARMY"] == "eliminated"
    assert where["RU-3-ARMY"] == "Tarnopol" and where["GE-CORPS-11"] == "Lodz"
