"""`pbem check --explain`: each combat worked out as the tables give it, so a player can write odds and results right."""

from __future__ import annotations

import json
from pathlib import Path

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


def _pog_turn(tmp_path, change=lambda text: text):
    """The Paths of Glory turn of docs/notation.md (Sedan, then Tarnopol with a flank attempt), changed, as a file."""
    import re

    text = (Path(__file__).resolve().parents[1] / "docs" / "notation.md").read_text()  # docs are not installed
    turn = re.search(r"## A Paths of Glory turn.*?```\n(.*?)```", text, re.S).group(1)
    path = tmp_path / "t.pbem"
    path.write_text(change(turn))
    return path


def test_paths_of_glory_attack_shows_both_fires(pbem, tmp_path):
    result = pbem("check", _pog_turn(tmp_path), "--explain", "--format", "json")
    assert result.code == 0, result.out
    report = json.loads(result.out)
    Draft202012Validator(json.loads((data_dir("schemas") / "report.schema.json").read_text())).validate(report)
    sedan, tarnopol = report["odds"]
    attacker, defender = sedan["fire"]
    assert (attacker["strength"], attacker["table"], attacker["column"]) == (10, "army", "9-11")
    assert (defender["strength"], defender["table"], defender["column"]) == (3, "army", "3")
    # The turn's claim, 2/5 with roll 4 and defender roll 3, is what the two tables give.
    assert attacker["losses"]["4"] == 5 and defender["losses"]["3"] == 2 and sedan["simultaneous"]
    assert not tarnopol["simultaneous"] and "flank attempt succeeds" in tarnopol["notes"][0]
    text = pbem("check", _pog_turn(tmp_path), "--explain").out
    assert "attacker's fire: GE 2nd Army 5 + GE 3rd Army 5 = 10 CF on the army table, column 9-11" in text
    assert "losses inflicted by defender roll: 1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4" in text


def test_paths_of_glory_trench_shifts_and_card_drms_carry_their_rules(pbem, tmp_path):
    state = json.loads((data_dir("modules") / "paths-of-glory" / "scenarios" / "1914.json").read_text())
    state["status"]["trenches"]["Sedan"] = {"level": 1, "owner": "ap"}
    (tmp_path / "s.json").write_text(json.dumps({k: v for k, v in state.items() if k not in ("$schema", "id", "last_turn", "note", "source", "title")}))

    def change(text):  # from the trenched state; Von Francois (+1 for Germans attacking Russians only) played
        return text.replace("Scenario: 1914\n", "Scenario: 1914\nStart: s.json\n").replace("attack Sedan,", "attack Sedan, cards CP-03,")

    text = pbem("check", _pog_turn(tmp_path, change), "--explain").out
    assert "shifts: trench level 1 -1 (12.2.8, Terrain Effects Chart) -> column 6-8" in text
    assert "shifts: trench level 1 +1 (12.2.8, Terrain Effects Chart) -> column 4" in text
    assert "combat card CP-03 Von Francois: not counted below (its condition does not hold here)" in text


def test_an_attack_without_a_result_takes_the_tables_result(pbem, tmp_path):
    result = pbem("check", _pog_turn(tmp_path, lambda text: text.replace(", roll 4 = 2/5", ", roll 4")), "--explain")
    assert result.code == 0, result.out
    assert "[roll] attack on Sedan, defender roll 3, roll 4 = 2/5" in result.out


def test_an_attack_without_a_result_whose_losses_do_not_fit_it_is_judged(pbem, tmp_path):
    # Rolls 1 and 6: the tables give 4/3, so the FR 5th Army's one loss and its retreat are judged against that.
    result = pbem("check", _pog_turn(tmp_path, lambda text: text.replace("defender roll 3, roll 4 = 2/5", "defender roll 6, roll 1")))
    assert result.code == 1 and "= 4/3" in result.out


def test_12_3_3_a_flank_attack_without_a_result_takes_the_tables_result_in_sequence(pbem, tmp_path):
    # The flank attempt succeeds: the attacker fires first (4), the defender with what the written losses left (1).
    result = pbem("check", _pog_turn(tmp_path, lambda text: text.replace(", roll 3 = 1/4", ", roll 3")))
    assert result.code == 0 and "[warning]" not in result.out, result.out
    assert "flank roll 4, defender roll 4, roll 3 = 1/4" in result.out


def _failed_flank(defender_loses: str):
    """Tarnopol's attack with a failed flank attempt (roll 1 +1 = 2) and no result: the AH 3rd Army fires first (roll 6:
    4), the RU armies each lose a step and fire reduced (4 CF, roll 3: 3), the defender losing ``defender_loses``."""
    def change(text):
        attack = text.index("RU 3rd Army + RU 8th Army attack Tarnopol")
        return text[:attack] + ("RU 3rd Army + RU 8th Army attack Tarnopol, flank Kamenets Podolski roll 1, defender roll 6, roll 3\n"
                                f"    attacker loses RU 3rd Army + RU 8th Army\n    defender loses {defender_loses}\n")
    return change


def test_12_3_3_a_failed_flank_attack_without_a_result_takes_the_sequence_s_result(pbem, tmp_path):
    result = pbem("check", _pog_turn(tmp_path, _failed_flank("AH 3rd Army")))
    assert result.code == 0 and "flank roll 1, defender roll 6, roll 3 = 4/3" in result.out, result.out


def test_12_3_3_a_failed_flank_attack_without_a_result_is_judged_against_the_sequence(pbem, tmp_path):
    # Fired together, the full RU armies (6 CF, roll 3) would inflict 4: two AH steps. In sequence they inflict 3.
    result = pbem("check", _pog_turn(tmp_path, _failed_flank("AH 3rd Army + AH 3rd Army")))
    assert result.code == 1 and "= 4/3" in result.out
    assert "rule 12.4.3 [illegal] the defender takes 4 in losses; the loss number is 3 and may not be exceeded" in result.out, result.out


def test_12_3_3_a_flank_attack_whose_second_fire_waits_on_losses_names_them(pbem, tmp_path):
    unwritten = lambda text: text.replace(", roll 3 = 1/4", ", roll 3").replace("    defender loses AH 3rd Army + AH 3rd Army\n", "")
    result = pbem("check", _pog_turn(tmp_path, unwritten))
    assert ("[warning] no result written and the flank attempt succeeds (12.3.3): the attacker fires first and inflicts 4, and the defender fires "
            "with what that leaves: write the defender's losses (\"defender loses ...\"), or the result: the combat is not checked") in result.out, result.out
    no_attacker_losses = pbem("check", _pog_turn(tmp_path, lambda text: _failed_flank("AH 3rd Army")(text).replace("    attacker loses RU 3rd Army + RU 8th Army\n", "")))
    assert ("no result written and the flank attempt fails (12.3.3): the defender fires first and inflicts 4, and the attacker fires with what that leaves: "
            "write the attacker's losses (\"attacker loses ...\"), or the result") in no_attacker_losses.out, no_attacker_losses.out


def test_china_war_and_red_winter_attacks_need_no_result(pbem, tmp_path):
    for sample in (SAMPLES / "china-war-1980" / "legal-05-mass-attack.json", SAMPLES / "red-winter" / "legal-01-soviet-advance.json"):
        turn = json.loads(sample.read_text())
        turn.pop("$schema", None)
        for action in turn["actions"]:
            action.pop("result", None) if "attack" in action else None
        path = tmp_path / sample.name  # both start from their scenario
        path.write_text(json.dumps(turn))
        result = pbem("check", path, "--explain")
        assert result.code == 0, result.out
        assert "results: " in result.out and "[roll] attack on" in result.out


def test_no_retreat_attack_reads_its_column_for_every_roll_and_needs_no_result(pbem, tmp_path):
    sample = SAMPLES / "no-retreat" / "legal-01-axis-turn.json"
    turn = json.loads(sample.read_text())
    turn.pop("$schema", None)
    for action in turn["actions"]:
        action.pop("result", None) if "attack" in action else None
    (tmp_path / "t.json").write_text(json.dumps(turn))
    result = pbem("check", tmp_path / "t.json", "--state", SAMPLES / "no-retreat" / "state-1941.json", "--explain", "--format", "json")
    assert result.code == 0, result.out
    report = json.loads(result.out)
    Draft202012Validator(json.loads((data_dir("schemas") / "report.schema.json").read_text())).validate(report)
    (column,) = report["odds"]
    assert column["column"] == "3/1" and column["results"] == {"1": "CB", "2": "EX", "3": "DR", "4": "DR", "5": "DS", "6": "DD"}
    # A column the CRT does not print and no result: nothing to take the result from, so the attack is left
    # unchecked with a warning that asks for the result (written, the column is judged as before).
    for action in turn["actions"]:
        if "attack" in action:
            action["column"] = action["odds"] = "9/1"
    (tmp_path / "t.json").write_text(json.dumps(turn))
    refused = pbem("check", tmp_path / "t.json", "--state", SAMPLES / "no-retreat" / "state-1941.json")
    assert refused.code == 0 and "[warning] no result written and the module does not work this combat out" in refused.out


def test_12_3_2_a_refused_flank_attempt_without_a_result_is_still_judged(pbem, tmp_path):
    # Lemberg attacks from nowhere: no flank sequence; both sides fire together, and the pin is refused.
    refused = lambda text: text.replace("flank Kamenets Podolski roll 4, defender roll 4, roll 3 = 1/4", "flank Lemberg roll 4, defender roll 4, roll 3")
    result = pbem("check", _pog_turn(tmp_path, refused))
    assert result.code == 1 and "rule 12.3.2 [illegal] the pinning space Lemberg is not one of the attacking spaces" in result.out, result.out
    missing = pbem("check", _pog_turn(tmp_path, lambda text: text.replace("defender roll 4, roll 3 = 1/4", "roll 3")))
    assert "[warning] no result written and the defender's roll (defender_roll) missing: write it, or the result" in missing.out, missing.out
