"""Issue 24, class 1: rules pbem read wrongly and so accused legal play. Each rule has a legal and an illegal turn
written from the rulebook's words (LR2022 = ../shared/rules/en/paths-of-glory-deluxe-2022.txt; the seed edition is
the module's default, see the module README)."""

import dataclasses
import json
from pathlib import Path

import pytest

from pbem.engine.rulesets import module_ruleset
from pbem.engine.replay import replay
from pbem.engine.rulesets import module_ruleset
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.module import load_module

REPO = Path(__file__).resolve().parents[1]
MODULE = REPO / "modules" / "paths-of-glory"
CP_ROUND = {"phase": "action", "round": 1, "side": "cp"}
AP_ROUND = {"phase": "action", "round": 1, "side": "ap"}
CP_PASSES = [CP_ROUND, {"card": "CP-05", "use": "rp"}, AP_ROUND]


@pytest.fixture(scope="module")
def module():
    return load_module(MODULE)


def set_up(**status) -> dict:
    """The 1914 set-up as a state document, its status changed by ``status``."""
    scenario = json.loads((MODULE / "scenarios" / "1914.json").read_text())
    state = {k: v for k, v in scenario.items() if k not in ("$schema", "id", "last_turn", "note", "source", "title")}
    state["status"] = {**state["status"], **status}
    return state


def place(state: dict, **where) -> dict:
    """Units moved to spaces or boxes: ``place(state, GE_CORPS_01="reserve")`` (underscores for hyphens)."""
    for unit in state["units"]:
        key = unit["id"].replace("-", "_")
        if key in where:
            unit["at"] = where[key]
    return state


def verdicts(module, tmp_path, actions, state=None, turn=2, edition="seed"):
    """The (rule, severity) of every violation but warnings, for a turn of ``actions`` from ``state``."""
    start = tmp_path / "start.json"
    start.write_text(json.dumps(state or set_up()))
    path = tmp_path / "turn.json"
    path.write_text(json.dumps({"module": "paths-of-glory", "turn": turn, "side": "cp", "start": {"state": "start.json"}, "actions": actions}))
    parsed, _ = load_turn(path, module)
    edited = dataclasses.replace(module, options={**module.options, "edition": edition})
    result = replay(edited, load_start_state(parsed, edited, None), parsed)
    return sorted({v.rule for v in result.violations if v.severity != "warning"})


# --- 11.2.1: either player's Entrench event lets both sides entrench -------------------------------------------------
def entrench(purpose="move", moved=False):
    actions = [CP_ROUND, {"card": None, "use": "automatic"}, {"activate": {"Koblenz": purpose}, "cost": 1}]
    if moved:
        actions.append({"move": "GE-3-ARMY", "path": ["Koblenz", "Frankfurt"]})
        return actions + [{"special": "entrench", "units": ["GE-3-ARMY"], "at": "Frankfurt", "roll": 2, "result": "success"}]
    return actions + [{"special": "entrench", "units": ["GE-2-ARMY"], "at": "Koblenz", "roll": 2, "result": "success"}]


@pytest.mark.parametrize("edition", ["seed", "lr2022"])
def test_11_2_1_the_allied_entrench_event_lets_the_cp_entrench_too(module, tmp_path, edition):
    # LR2022 11.2.1 "the Entrench Event has been played by either player"; seed 11.2.1 "任何一個玩家使用了Entrench".
    assert verdicts(module, tmp_path, entrench(), set_up(events_played=["AP-12"]), edition=edition) == []
    assert verdicts(module, tmp_path, entrench(), set_up(events_played=["CP-06"]), edition=edition) == []
    assert verdicts(module, tmp_path, entrench(), set_up(events_played=[]), edition=edition) == ["11.2.1"]


def test_11_2_1_entrenching_in_an_attack_activated_space_is_11_2_1(module, tmp_path):
    # Issue 24 class 4: "If a space is Activated for movement ..." is 11.2.1, not 11.2.2 (how to build).
    assert verdicts(module, tmp_path, entrench("attack"), set_up(events_played=["AP-12"])) == ["11.2.1"]
    assert verdicts(module, tmp_path, entrench(moved=True), set_up(events_played=["AP-12"])) == ["11.2.1"]


def test_11_2_1_one_army_a_space_entrenches(module, tmp_path):
    second = {"special": "entrench", "units": ["GE-3-ARMY"], "at": "Koblenz", "roll": 2, "result": "success"}
    assert verdicts(module, tmp_path, entrench() + [second], set_up(events_played=["AP-12"])) == ["11.2.1"]


# --- 13.1.8: strategic redeployment out of the Reserve Box ----------------------------------------------------------
def out_of_reserve(unit, space):
    return [*CP_PASSES, {"card": "AP-05", "use": "sr"}, {"reinforce": [unit], "at": space}]


@pytest.mark.parametrize("edition", ["seed", "lr2022"])
def test_13_1_8_a_us_corps_goes_to_any_allied_port_in_france(module, tmp_path, edition):
    # LR2022 13.1.8 "US Corps may SR from the Reserve box to any Allied-controlled port in France even if the port
    # space does not contain a US unit"; seed 13.1.8 says the same (美軍Corps ... 法國境內任何一座協約控制的港口).
    state = place(set_up(), US_CORPS_01="reserve")
    assert verdicts(module, tmp_path, out_of_reserve("US-CORPS-01", "Le Havre"), state, edition=edition) == []
    assert verdicts(module, tmp_path, out_of_reserve("US-CORPS-01", "Nancy"), state, edition=edition) == ["13.1.8"]
    state["status"]["control"] = {"Le Havre": "cp"}
    assert verdicts(module, tmp_path, out_of_reserve("US-CORPS-01", "Le Havre"), state, edition=edition) == ["13.1.8"]


def test_13_1_8_a_serbian_corps_goes_to_salonika_under_the_2022_rules_only(module, tmp_path):
    # LR2022 13.1.8 "Serbia Corps can SR from the Reserve Box to Salonika since it is a supply source for the Serbs";
    # the seed's 13.1.8 allows only the corps' own capital or supply source (本國 ... 首都或補給源).
    state = place(set_up(control={"Salonika": "ap"}), SB_CORPS_01="reserve")
    assert verdicts(module, tmp_path, out_of_reserve("SB-CORPS-01", "Salonika"), state, edition="lr2022") == []
    assert verdicts(module, tmp_path, out_of_reserve("SB-CORPS-01", "Salonika"), state, edition="seed") == ["13.1.8"]
    assert verdicts(module, tmp_path, out_of_reserve("SB-CORPS-01", "Kavala"), state, edition="lr2022") == ["13.1.8"]


# --- seed 11.1.12: Persia closed before Turkey's entry, in the seed only ---------------------------------------------
def into_persia():
    return [*CP_PASSES, {"card": None, "use": "automatic"}, {"activate": {"Basra": "move"}, "cost": 1},
            {"move": "BR-CORPS-04", "path": ["Basra", "Ahwaz"]}]


def test_11_1_12_persia_is_barred_before_turkey_enters_only_in_the_seed(module, tmp_path):
    # Seed 11.1.12: both sides enter Persia freely once Turkey is at war; LR2022 11.1.13 only sets Persia's control
    # when Turkey enters and bars nothing.
    assert verdicts(module, tmp_path, into_persia(), edition="lr2022") == []
    assert verdicts(module, tmp_path, into_persia(), edition="seed") == ["11.1.12"]
    turkey_in = set_up(neutral_nations=["BU", "GR", "IT", "RO", "US"])
    assert verdicts(module, tmp_path, into_persia(), turkey_in, edition="seed") == []


# --- 12.4.4 with 12.6.1: a corps replacing an eliminated attacking army is an attacker --------------------------------
def replaced_attacker(advance, retreats=None):
    """GE 2nd Army (reduced, CF 3, LF 3) attacks Sedan alone: loss numbers 3/4 (army table, column 3, rolls 4
    and 6). The army is eliminated and GE Corps #1 replaces it from the Reserve Box (12.4.4); the French 5th Army
    loses a step and, the attacker having won with a full-strength unit (the corps), retreats one space."""
    attack = {"attack": ["GE-2-ARMY"], "target": "Sedan", "roll": 6, "defender_roll": 4, "result": "3/4",
              "losses": {"attacker": ["GE-2-ARMY"], "defender": ["FR-5-ARMY"]}, "replacements": {"GE-2-ARMY": "GE-CORPS-01"},
              "advance": advance}
    if retreats is not None:
        attack["retreats"] = retreats
    return [CP_ROUND, {"card": None, "use": "automatic"}, {"activate": {"Koblenz": "attack"}, "cost": 1}, attack]


def reduced_second_army(**where):
    state = set_up()
    for unit in state["units"]:
        if unit["id"] == "GE-2-ARMY":
            unit["step"] = 1
    return place(state, GE_CORPS_01="reserve", GE_3_ARMY="Frankfurt", **where)


def test_12_5_1_the_replacing_corps_is_the_full_strength_attacker_that_forces_a_retreat(module, tmp_path):
    # 12.5.1: the attacker won with a full-strength unit left: the corps that replaced the army (12.4.4).
    state = reduced_second_army()
    assert verdicts(module, tmp_path, replaced_attacker([], {"FR-5-ARMY": ["Cambrai"]}), state, turn=1) == []
    assert verdicts(module, tmp_path, replaced_attacker([], {}), state, turn=1) == ["12.5.1"]


def test_12_6_1_the_replacing_corps_advances_as_an_attacker(module, tmp_path):
    # Seed 12.6.1 / LR2022 12.7.1: "All remaining full strength attacking units may advance".
    state = reduced_second_army(GE_CORPS_02="Koblenz")
    assert verdicts(module, tmp_path, replaced_attacker(["GE-CORPS-01"], {"FR-5-ARMY": ["Cambrai"]}), state, turn=1) == []
    # GE Corps #2 in Koblenz neither attacked nor replaced an attacker.
    assert verdicts(module, tmp_path, replaced_attacker(["GE-CORPS-02"], {"FR-5-ARMY": ["Cambrai"]}), state, turn=1) == ["12.6.1"]


# --- Issue 24 class 4: violations the audit found missed --------------------------------------------------------------
SEDAN_ATTACK = [CP_ROUND, {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1}]


def two_armies_in_sedan(corps_in_reserve=True):
    """The French 5th Army (full, LF 3) and a reduced French 3rd Army (LF 3) in Sedan; the set-up's FR corps in the
    Reserve Box, or none there."""
    empty = {} if corps_in_reserve else {f"FR_CORPS_0{n}": "reinforcements" for n in range(1, 8)}
    state = place(set_up(), FR_3_ARMY="Sedan", **empty)
    for unit in state["units"]:
        if unit["id"] == "FR-3-ARMY":
            unit["step"] = 1
    return state


def sedan_loses(losses, replacements, retreats):
    """GE 2nd and 3rd Armies (10 CF, roll 4) against Sedan (5 CF, roll 3): loss numbers 3/5."""
    return [*SEDAN_ATTACK, {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 4, "defender_roll": 3, "result": "3/5",
                            "losses": {"attacker": ["GE-2-ARMY"], "defender": losses}, "replacements": replacements, "retreats": retreats}]


def test_12_4_3_the_rulebook_example_a_reduced_army_replaced_by_a_corps_that_takes_two_steps(module, tmp_path):
    # 12.4.3's example (LR2022 and seed alike): a full French Army (LF 3) and a reduced one (LF 3) suffer 5: the
    # reduced army is eliminated, a corps (LF 1) replaces it and takes two steps; the full army stays intact.
    legal = sedan_loses(["FR-3-ARMY", "FR-CORPS-01", "FR-CORPS-01"], {"FR-3-ARMY": "FR-CORPS-01"}, {"FR-5-ARMY": ["Cambrai", "Chateau Thierry"]})
    assert verdicts(module, tmp_path, legal, two_armies_in_sedan(), turn=1) == []
    fewer = sedan_loses(["FR-5-ARMY"], {}, {"FR-5-ARMY": ["Cambrai", "Chateau Thierry"], "FR-3-ARMY": ["Cambrai", "Chateau Thierry"]})
    assert verdicts(module, tmp_path, fewer, two_armies_in_sedan(), turn=1) == ["12.4.3"]
    # Without a corps in the Reserve Box, 3 is the most the two armies can take: the same losses are legal.
    assert verdicts(module, tmp_path, fewer, two_armies_in_sedan(corps_in_reserve=False), turn=1) == []


def test_12_1_6_no_space_is_attacked_twice_in_one_action(module, tmp_path):
    # LR2022 12.1.6 "No space can be attacked more than once in a single action" (the seed is silent).
    first = {"attack": ["GE-2-ARMY"], "target": "Sedan", "roll": 1, "defender_roll": 6, "result": "4/2", "losses": {"attacker": ["GE-2-ARMY"]}}
    second = {**first, "attack": ["GE-3-ARMY"], "losses": {"attacker": ["GE-3-ARMY"]}}
    assert verdicts(module, tmp_path, [*SEDAN_ATTACK, first, second], turn=1) == ["12.1.6"]
    next_round = [{"phase": "action", "round": 1, "side": "ap"}, {"card": "AP-05", "use": "rp"},
                  {"phase": "action", "round": 2, "side": "cp"}, {"card": "CP-01", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1}]
    assert verdicts(module, tmp_path, [*SEDAN_ATTACK, first, *next_round, second], turn=1) == []


def test_an_action_that_breaks_two_rules_reports_both(module, tmp_path, pbem):
    # A move that jumps from Frankfurt to Sedan (11.1.3) and into the French 5th Army there (11.1.7).
    move = [CP_ROUND, {"card": None, "use": "automatic"}, {"activate": {"Koblenz": "move"}, "cost": 1},
            {"move": "GE-2-ARMY", "path": ["Koblenz", "Frankfurt", "Sedan"]}]
    assert verdicts(module, tmp_path, move, turn=1) == ["11.1.3", "11.1.7"]
    report = json.loads(pbem("check", tmp_path / "turn.json", "--format", "json").out)
    assert sorted((v["index"], v["rule"]) for v in report["violations"] if v["severity"] == "illegal") == [(3, "11.1.3"), (3, "11.1.7")]
    # Spending RP in the replacement phase without the points (17.1.1) while Paris is in enemy hands (17.1.3).
    state = set_up(control={"Paris": "cp"})
    for unit in state["units"]:
        if unit["id"] == "FR-5-ARMY":
            unit["step"] = 1
    assert verdicts(module, tmp_path, [{"phase": "replacement"}, {"replace": "FR-5-ARMY"}], state) == ["17.1.1", "17.1.3"]
    state["status"]["control"] = {}
    state["status"]["replacement_points"] = {"FR": 5}
    assert verdicts(module, tmp_path, [{"phase": "replacement"}, {"replace": "FR-5-ARMY"}], state) == []


def test_12_4_4_3_which_british_corps_replace_which_army(module):
    # LR2022 12.4.4.3 / seed 12.4.4.3: the BEF Army only by the BEF Corps; AUS, CND, PT and ANA Corps replace none.
    from pbem.engine.rulesets import module_ruleset
    from pbem.model.jsonsource import load_json
    from pbem.model.state import State

    state = State.from_json(module, load_json(MODULE / "scenarios" / "1914.json"))
    rules, units = module_ruleset(module), state.units
    assert rules._may_replace(units["BR-BEF-ARMY"], units["BR-BEF-CORPS"])
    assert not rules._may_replace(units["BR-BEF-ARMY"], units["BR-CORPS-01"])
    assert rules._may_replace(units["BR-1-ARMY"], units["BR-CORPS-01"])
    assert not rules._may_replace(units["BR-1-ARMY"], units["BR-AUS-CORPS"]) and not rules._may_replace(units["BR-1-ARMY"], units["BR-BEF-CORPS"])
    state.units["BR-CORPS-01"].box = "reinforcements"
    assert not rules._reserve_corps(state, units["BR-1-ARMY"])  # only the BEF Corps is left in the box


def test_13_1_8_out_of_the_reserve_box_into_a_besieged_enemy_fort_space(module, tmp_path):
    # LR2022 13.1.5: "Units can SR into and out of a besieged enemy fort so long as the fort remains besieged"; the
    # GE 1st Army besieges Liege, so a German corps joins it from the Reserve Box (13.1.8), an Austrian one does not.
    state = place(set_up(forts={"Liege": "besieged"}), GE_1_ARMY="Liege")
    sr = [CP_ROUND, {"card": "CP-04", "use": "sr"}]
    assert verdicts(module, tmp_path, [*sr, {"reinforce": ["GE-CORPS-01"], "at": "Liege"}], state) == []
    assert verdicts(module, tmp_path, [*sr, {"reinforce": ["AH-CORPS-01"], "at": "Liege"}], state) == ["13.1.8"]
