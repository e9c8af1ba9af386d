"""The rules the independent audit found unchecked, each with a legal and an illegal turn written from the rules'
words: 12.5.2 retreat length, 12.5.5 friendly spaces first, 15.1.11 no Russian siege in August 1914, 15.2.3 the
siege force stays, seed 13.1.10 / LR2022 13.1.11 capitals and the Reserve Box, 13.1.5 / 14.3.1 traced supply."""

import dataclasses
import json
from pathlib import Path

import pytest

from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.module import load_module
from pbem.model.resources import data_dir

REPO = Path(__file__).resolve().parents[1]
AUDIT = data_dir("samples") / "paths-of-glory" / "audit"
SEDAN = {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 4, "defender_roll": 3, "result": "2/5",
         "losses": {"defender": ["FR-5-ARMY"]}, "advance": ["GE-2-ARMY"]}
CP_ROUND = [{"phase": "action", "round": 1, "side": "cp"}]
KOBLENZ_MOVES = [*CP_ROUND, {"card": None, "use": "automatic"}, {"activate": {"Koblenz": "move"}, "cost": 1},
                 {"move": "GE-2-ARMY", "path": ["Koblenz", "Frankfurt"]}]


@pytest.fixture(scope="module")
def module():
    return load_module(REPO / "modules" / "paths-of-glory")


def rules_broken(module, tmp_path, actions, state=None, turn=1, edition="seed"):
    """The rule numbers of the illegal verdicts for a turn of ``actions`` from an audit state (or the 1914 set-up)."""
    path = tmp_path / "turn.json"
    # The edition is the game's choice: the turn header's options win over the start state's (its scenario's).
    path.write_text(json.dumps({"module": "paths-of-glory", "turn": turn, "side": "cp", "start": {"scenario": "1914"},
                                "options": {"edition": edition}, "actions": actions}))
    parsed, _ = load_turn(path, module)
    start = load_start_state(parsed, module, state if state is None or Path(state).is_absolute() else AUDIT / state)
    edited = dataclasses.replace(module, options={**module.options, "edition": edition})
    result = replay(edited, start, parsed)
    return sorted({v.rule for v in result.violations if v.severity != "warning"})


def set_up() -> dict:
    """The 1914 set-up as a state document (without the scenario's own descriptive keys)."""
    scenario = json.loads((REPO / "modules" / "paths-of-glory" / "scenarios" / "1914.json").read_text())
    return {k: v for k, v in scenario.items() if k not in ("$schema", "id", "last_turn", "note", "source", "title")}


def sedan(retreat):
    return [*CP_ROUND, {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
            {**SEDAN, "retreats": {"FR-5-ARMY": retreat}}]


def test_12_5_2_a_difference_above_one_retreats_two_spaces(module, tmp_path):
    assert rules_broken(module, tmp_path, sedan(["Cambrai", "Chateau Thierry"])) == []
    assert rules_broken(module, tmp_path, sedan(["Cambrai"])) == ["12.5.2"]


def test_12_5_5_a_retreat_goes_through_friendly_spaces_while_one_is_open(module, tmp_path):
    state = "state-cambrai-held-by-the-cp-empty.json"
    assert rules_broken(module, tmp_path, sedan(["Chateau Thierry", "Melun"]), state) == []
    assert rules_broken(module, tmp_path, sedan(["Cambrai", "Amiens"]), state) == ["12.5.5"]


def _russians_to_konigsberg():
    return [*KOBLENZ_MOVES, {"phase": "action", "round": 1, "side": "ap"}, {"card": None, "use": "automatic"},
            {"activate": {"Lomza": "move"}, "cost": 1}, {"move": "RU-2-ARMY", "path": ["Lomza", "Tannenberg", "Konigsberg"]}]


def test_15_1_11_no_russian_siege_of_a_german_fort_in_august_1914(module, tmp_path):
    assert rules_broken(module, tmp_path, _russians_to_konigsberg()) == ["15.1.11"]
    legal = [a if a.get("move") != "RU-2-ARMY" else {**a, "path": ["Lomza", "Tannenberg"]} for a in _russians_to_konigsberg()]
    assert rules_broken(module, tmp_path, legal) == []


def _from_liege(attackers, result, losses):
    return [*CP_ROUND, {"card": "CP-04", "use": "ops"}, {"activate": {"Liege": "attack"}, "cost": 1},
            {"attack": attackers, "target": "Brussels", "roll": 4, "defender_roll": 1, "result": result, "losses": losses}]


def test_15_2_3_only_units_beyond_the_siege_attack_next_door(module, tmp_path):
    spare = _from_liege(["GE-CORPS-01"], "3/1", {"attacker": ["GE-CORPS-01", "GE-CORPS-01"]})
    assert rules_broken(module, tmp_path, spare, "state-liege-besieged-by-army-and-corps.json") == []
    lone = _from_liege(["GE-1-ARMY"], "3/3", {"attacker": ["GE-1-ARMY"], "defender": ["BR-BEF-ARMY"]})
    assert rules_broken(module, tmp_path, lone, "state-liege-besieged.json") == ["15.2.3"]
    both = _from_liege(["GE-1-ARMY", "GE-CORPS-01"], "3/3", {"attacker": ["GE-1-ARMY"], "defender": ["BR-BEF-ARMY"]})
    assert "15.2.3" in rules_broken(module, tmp_path, both, "state-liege-besieged-by-army-and-corps.json")  # both leave: none stays


def _reserve_sr(unit, at):
    return [*KOBLENZ_MOVES, {"phase": "action", "round": 1, "side": "ap"}, {"card": "AP-05", "use": "sr"}, {"reinforce": unit, "at": at}]


def test_13_1_10_no_sr_out_of_the_reserve_box_while_the_capital_is_enemy_held(module, tmp_path):
    held = "state-paris-held-by-germans.json"
    assert rules_broken(module, tmp_path, _reserve_sr("FR-CORPS-01", "Nancy"), held) == ["13.1.10"]
    assert rules_broken(module, tmp_path, _reserve_sr("FR-CORPS-01", "Nancy")) == []
    assert rules_broken(module, tmp_path, _reserve_sr("BR-CORPS-01", "London"), held) == []


def test_lr2022_13_1_11_adds_a_besieged_capital(module, tmp_path):
    state = set_up()
    state["status"].setdefault("forts", {})["Paris"] = "besieged"
    for unit in state["units"]:  # a siege lasts while its besiegers stand in the fort's space (15.2.1, 15.2.4)
        if unit["id"] == "FR-6-ARMY":
            unit["at"] = "Orleans"
        if unit["id"] == "GE-1-ARMY":
            unit["at"] = "Paris"
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    assert rules_broken(module, tmp_path, _reserve_sr("FR-CORPS-01", "Nancy"), path, edition="lr2022") == ["13.1.11"]
    assert rules_broken(module, tmp_path, _reserve_sr("FR-CORPS-01", "Nancy"), path, edition="seed") == []


def test_supply_is_traced_for_activation_and_sr_not_read_from_the_flag(module, tmp_path):
    cut_off = "state-ge-corps-cut-off-in-rouen.json"
    move = [*CP_ROUND, {"card": None, "use": "automatic"}, {"activate": {"Rouen": "move"}, "cost": 1},
            {"move": "GE-CORPS-01", "path": ["Rouen", "Le Mans"]}]
    assert "14.3.1" in rules_broken(module, tmp_path, move, cut_off)
    sr = [*CP_ROUND, {"card": "CP-04", "use": "sr"}, {"move": "GE-CORPS-01", "path": ["Rouen", "Caen"], "by": "strategic"}]
    assert "13.1.5" in rules_broken(module, tmp_path, sr, cut_off)
    # A unit flagged out of supply whose line the trace finds is in supply: the trace decides.
    state = set_up()
    next(u for u in state["units"] if u["id"] == "GE-2-ARMY")["supplied"] = False
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    assert rules_broken(module, tmp_path, KOBLENZ_MOVES, path) == []


@pytest.mark.parametrize("name", ["illegal-9.2.3-french-and-us-in-brussels-for-1.json", "illegal-9.2.4-withholds-austrians-to-save-cost.json"])
def test_an_underpaid_automatic_operation_cites_the_cost_rule_too(pbem, name):
    report = json.loads(pbem("check", AUDIT / name, "--format", "json").out)
    assert {"9.2.1", "9.2.3"} <= {v["rule"] for v in report["violations"]}


def test_the_9_2_7_message_counts_in_english(pbem):
    report = json.loads(pbem("check", AUDIT / "illegal-9.2.7-two-near-east-combat-activations.json", "--format", "json").out)
    assert any(v["rule"] == "9.2.7" and "is the 2nd" in v["message"] for v in report["violations"])


def test_15_1_3_a_besieged_fort_is_attacked_only_from_its_own_space(module, tmp_path, pbem):
    inside = [*CP_ROUND, {"card": "CP-04", "use": "ops"}, {"activate": {"Liege": "attack"}, "cost": 1},
              {"attack": ["GE-1-ARMY"], "target": "Liege", "roll": 4, "defender_roll": 1, "result": "1/4", "declare": ["fort_destroyed"]}]
    assert rules_broken(module, tmp_path, inside, "state-liege-besieged.json") == []
    outside = [*CP_ROUND, {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
               {"attack": ["GE-2-ARMY"], "target": "Liege", "roll": 4, "defender_roll": 1, "result": "0/4", "declare": ["fort_destroyed"]}]
    assert "15.1.3" in rules_broken(module, tmp_path, outside, "state-liege-besieged.json")
    # Not besieged, the fort is attacked from next door (15.1.2): the sample that storms Liege.
    assert pbem("check", REPO / "samples" / "paths-of-glory" / "legal-28-liege-stormed.json").code == 0
