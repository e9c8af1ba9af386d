"""`pbem check --explain`: each combat worked out as the tables give it, so a player can write odds and results right."""

from __future__ import annotations

import json

from jsonschema import Draft202012Validator

from pbem.model.resources import data_dir

SAMPLES = data_dir("samples")


def test_china_war_attack_is_worked_out(pbem):
    result = pbem("check", SAMPLES / "china-war-1980" / "legal-05-mass-attack.json", "--explain")
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0].endswith("legal-05-mass-attack.json:12: attack on 3004: 9 to 11 = 1/2")
    assert "pla mass attack +2 (9.54)" in lines[1] and "river -2 (10.12)" in lines[1] and "net +0 -> column 1/2" in lines[1]
    # Every roll of the die, and the one claimed among them.
    assert lines[2] == "    results: 1: E/-, 2: E/-, 3: 1/-, 4: 1/-, 5: 1/1, 6: 1/1"
    claimed = json.loads((SAMPLES / "china-war-1980" / "legal-05-mass-attack.json").read_text())["actions"][-1]
    assert f"{claimed['roll']}: {claimed['result']}" in lines[2]


def test_a_wrong_claim_still_gets_the_right_working(pbem, tmp_path):
    turn = json.loads((SAMPLES / "china-war-1980" / "legal-05-mass-attack.json").read_text())
    turn.pop("$schema", None)
    attack = turn["actions"][-1]
    attack["roll"], attack["result"] = 1, "1/1"  # the player has not rolled yet, or guessed
    path = tmp_path / "t.json"
    path.write_text(json.dumps(turn))
    result = pbem("check", path, "--explain", "--format", "json")
    assert result.code == 1
    report = json.loads(result.out)
    schema = json.loads((data_dir("schemas") / "report.schema.json").read_text())
    Draft202012Validator(schema).validate(report)
    (odds,) = report["odds"]
    assert odds["results"]["1"] == "E/-" and odds["column"] == "1/2" and odds["odds"] == "1/2"


def test_red_winter_attack_is_worked_out_for_2d6(pbem):
    result = pbem("check", SAMPLES / "red-winter" / "legal-01-soviet-advance.json", "--explain", "--format", "json")
    (odds,) = json.loads(result.out)["odds"]
    assert (odds["attack"], odds["defence"], odds["odds"], odds["column"]) == (15, 10, "1/1", "2/1")
    assert sorted(map(int, odds["results"])) == list(range(2, 13)) and odds["results"]["8"] == "0/1"


def test_without_explain_nothing_changes(pbem):
    result = pbem("check", SAMPLES / "china-war-1980" / "legal-05-mass-attack.json", "--format", "json")
    assert "odds" not in json.loads(result.out)
