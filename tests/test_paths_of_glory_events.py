"""Issue 24, class 2: event effects that change later checks, each with a legal and an illegal turn. Card effects are
read from the cards (the module README's event table); rule numbers are the rulebook's (LR2022 =
../shared/rules/en/paths-of-glory-deluxe-2022.txt)."""

import dataclasses
import json
from pathlib import Path

import pytest

from pbem.engine.replay import replay
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


def set_up(scenario="1914", **status) -> dict:
    data = json.loads((MODULE / "scenarios" / f"{scenario}.json").read_text())
    state = {k: v for k, v in data.items() if k not in ("$schema", "id", "last_turn", "note", "source", "title")}
    state["scenario"] = scenario
    state["status"] = {**state["status"], **status}
    return state


def place(state: dict, **where) -> dict:
    for unit in state["units"]:
        key = unit["id"].replace("-", "_")
        if key in where:
            spec = where[key]
            unit["at"], step = spec if isinstance(spec, tuple) else (spec, None)
            if step is not None:
                unit["step"] = step
    return state


def run(module, tmp_path, actions, state=None, turn=2, edition="seed"):
    start = tmp_path / "start.json"
    start.write_text(json.dumps(state or set_up()))
    path = tmp_path / "turn.json"
    path.write_text(json.dumps({"module": "paths-of-glory", "turn": turn, "side": "cp", "start": {"state": "start.json"}, "actions": actions}))
    parsed, _ = load_turn(path, module)
    edited = dataclasses.replace(module, options={**module.options, "edition": edition})
    return replay(edited, load_start_state(parsed, edited, None), parsed)


def rules(module, tmp_path, actions, state=None, turn=2, edition="seed"):
    result = run(module, tmp_path, actions, state, turn, edition)
    return sorted({v.rule for v in result.violations if v.severity != "warning"})


# --- activation costs: Sud Army, 11th Army (9.2.3's CP exception), Moltke, Fall of the Tsar -------------------------
def activate(space, cost, side="cp"):
    head = [CP_ROUND] if side == "cp" else CP_PASSES
    return [*head, {"card": None, "use": "automatic"}, {"activate": {space: "move"}, "cost": cost}]


def test_sud_army_one_ah_unit_and_two_ge_corps_activate_as_one_nationality(module, tmp_path):
    # Seed 9.2.3 names "CP Sud Army" among the exceptions; the card: up to 2 GE corps with any 1 AH unit.
    state = place(set_up(events_played=["CP-10"]), GE_CORPS_01="Cracow", GE_CORPS_02="Cracow")
    assert rules(module, tmp_path, activate("Cracow", 1), state) == []
    state["status"]["events_played"] = []
    assert rules(module, tmp_path, activate("Cracow", 1), state) == ["9.2.1", "9.2.3"]
    # A Turkish corps with them pays its own nationality: 2 OPS.
    state = place(set_up(events_played=["CP-10"]), GE_CORPS_01="Cracow", TU_CORPS_01="Cracow")
    two = [CP_ROUND, {"card": "CP-13", "use": "ops"}, {"activate": {"Cracow": "move"}, "cost": 2}]
    assert rules(module, tmp_path, two, state) == []
    assert rules(module, tmp_path, [*two[:2], {"activate": {"Cracow": "move"}, "cost": 1}], state) == ["9.2.3"]


def test_eleventh_army_stacks_with_any_cp_corps_as_one_unit(module, tmp_path):
    state = place(set_up(events_played=["CP-29"]), GE_11_ARMY="Cracow")
    assert rules(module, tmp_path, activate("Cracow", 1), state) == []
    state["status"]["events_played"] = []
    assert rules(module, tmp_path, activate("Cracow", 1), state) == ["9.2.1", "9.2.3"]


def test_moltke_cp_activation_in_belgium_or_france_costs_a_unit(module, tmp_path):
    state = place(set_up(events_played=["AP-09"]), GE_3_ARMY="Sedan", GE_2_ARMY="Sedan", FR_5_ARMY="Paris")
    ops = [CP_ROUND, {"card": "CP-13", "use": "ops"}, {"activate": {"Sedan": "move"}, "cost": 2}]
    assert rules(module, tmp_path, ops, state) == []
    assert rules(module, tmp_path, [*ops[:2], {"activate": {"Sedan": "move"}, "cost": 1}], state) == ["9.2.3"]
    state["status"]["events_played"] = ["AP-09", "CP-13"]  # Falkenhayn cancels Moltke
    assert rules(module, tmp_path, [*ops[:2], {"activate": {"Sedan": "move"}, "cost": 1}], state) == []


def test_fall_of_the_tsar_russian_combat_activation_costs_a_unit(module, tmp_path):
    state = place(set_up(events_played=["CP-52"]), RU_CORPS_09="Kovno")
    combat = [*CP_PASSES, {"card": None, "use": "automatic"}, {"activate": {"Kovno": "attack"}, "cost": 1}]
    assert rules(module, tmp_path, combat, state) == ["9.2.1", "9.2.3"]  # two RU units: 2 OPS
    assert rules(module, tmp_path, [*combat[:-1], {"activate": {"Kovno": "move"}, "cost": 1}], state) == []  # movement: 1


# --- events that conduct operations or SR ----------------------------------------------------------------------------
def test_an_event_that_conducts_operations_lets_the_card_activate(module, tmp_path):
    # Mata Hari: the CP examines the Allied hand "and then conducts Operations using this card" (3 OPS).
    ops = [CP_ROUND, {"card": "CP-17", "use": "event"}, {"activate": {"Koblenz": "move"}, "cost": 1},
           {"move": "GE-2-ARMY", "path": ["Koblenz", "Frankfurt"]}]
    state = set_up(commitment={"cp": "limited_war", "ap": "mobilization"})
    assert rules(module, tmp_path, ops, state) == []
    # Reichstag Truce adds a VP and conducts nothing.
    assert rules(module, tmp_path, [CP_ROUND, {"card": "CP-09", "use": "event"}, *ops[2:]], state) == ["9.2.1", "9.2.5"]


def test_historical_yellow_stripe_events_double_as_ops_only_in_the_historical_scenario(module, tmp_path):
    # LR2022 5.7.4.7: Landships (among others) doubles as OPS in the historical scenario.
    ops = [*CP_PASSES, {"card": "AP-28", "use": "event"}, {"activate": {"Nancy": "move"}, "cost": 1}]
    status = {"commitment": {"cp": "limited_war", "ap": "limited_war"}}
    assert rules(module, tmp_path, ops, set_up("1914-historical", **status)) == []
    assert rules(module, tmp_path, ops, set_up("1914", **status)) == ["9.2.1"]


def test_guns_of_august_places_and_activates_the_armies(module, tmp_path):
    # The card: Liege's fort destroyed, GE 1st and 2nd Armies placed in Liege, GE 1st-3rd Armies activated for combat.
    attack = {"attack": ["GE-1-ARMY", "GE-2-ARMY"], "target": "Brussels", "roll": 1, "defender_roll": 1, "result": "3/3",
              "losses": {"attacker": ["GE-1-ARMY"], "defender": ["BR-BEF-ARMY"]}}
    found = run(module, tmp_path, [CP_ROUND, {"card": "CP-01", "use": "event"}, attack], turn=1)
    assert [v.rule for v in found.violations if v.severity != "warning"] == [], found.violations
    assert found.state.status["forts"]["Liege"] == "destroyed" and found.state.units["GE-1-ARMY"].at == module.map.index("Liege")
    other = {**attack, "attack": ["GE-4-ARMY"], "target": "Nancy", "result": "1/2", "losses": {}}
    assert "9.2.5" in rules(module, tmp_path, [CP_ROUND, {"card": "CP-01", "use": "event"}, other], turn=1)


def test_salonika_redeploys_up_to_three_br_or_fr_corps_to_salonika(module, tmp_path):
    state = set_up(commitment={"cp": "limited_war", "ap": "limited_war"}, neutral_nations=["BU", "IT", "RO", "US"])
    play = [*CP_PASSES, {"card": "AP-30", "use": "event"}]
    assert rules(module, tmp_path, [*play, {"reinforce": ["FR-CORPS-01", "BR-CORPS-01"], "at": "Salonika"}], state) == []
    assert rules(module, tmp_path, [*play, {"reinforce": ["FR-CORPS-01"], "at": "Athens"}], state) == ["9.5.1.1"]
    assert rules(module, tmp_path, [*play, {"reinforce": ["RU-CORPS-01"], "at": "Salonika"}], state) == ["9.5.1.1"]


# --- replacement points: events and the historical scenario (5.7.3) ----------------------------------------------
def replace_ge_army(state):
    place(state, GE_4_ARMY=("Metz", 1))
    return [{"phase": "replacement"}, {"replace": "GE-4-ARMY"}]


def test_walter_rathenau_adds_a_german_rp_each_replacement_phase(module, tmp_path):
    state = set_up(events_played=["CP-33"])
    assert rules(module, tmp_path, replace_ge_army(state), state) == []
    state["status"]["events_played"] = ["CP-33", "AP-37"]  # Independent Air Force cancels the bonus
    assert rules(module, tmp_path, replace_ge_army(state), state) == ["17.1.1"]


def test_5_7_3_the_historical_scenario_gives_the_cp_a_german_rp_in_total_war(module, tmp_path):
    # LR2022 5.7.3: during Total War, controlling Sedan and two more French or Belgian spaces.
    control = {"Sedan": "cp", "Cambrai": "cp", "Brussels": "cp"}
    state = set_up("1914-historical", commitment={"cp": "total_war", "ap": "limited_war"}, control=control)
    assert rules(module, tmp_path, replace_ge_army(state), state) == []
    state["status"]["commitment"]["cp"] = "limited_war"
    assert rules(module, tmp_path, replace_ge_army(state), state) == ["17.1.1"]


def test_landwehr_rp_flip_reduced_units_at_once(module, tmp_path):
    state = place(set_up(), GE_CORPS_11=("Oppeln", 1), GE_4_ARMY=("Metz", 1))
    play = [CP_ROUND, {"card": "CP-05", "use": "event"}]
    assert rules(module, tmp_path, [*play, {"replace": "GE-CORPS-11"}, {"replace": "GE-4-ARMY"}], state) == []
    assert rules(module, tmp_path, [*play, {"replace": "GE-5-ARMY"}], state) == ["9.5.1.1"]  # at full strength
    assert rules(module, tmp_path, [CP_ROUND, {"card": "CP-05", "use": "ops"}, {"replace": "GE-4-ARMY"}], state) == ["17.1.2"]


# --- the mandated offensive (7.1.9-7.1.11) ------------------------------------------------------------------------------
def mo(value, result):
    return [{"phase": "mandated_offensive"}, {"roll": {"purpose": "mandated_offensive", "side": "cp", "value": value, "result": result}}]


def test_h_l_take_command_ignores_the_german_mandated_offensive(module, tmp_path):
    # LR2022 7.1.10 (seed 7.1.5 and 7.1.10): once H-L Take Command is played the GE result is "None".
    state = set_up(events_played=["CP-54"])
    assert rules(module, tmp_path, mo(4, "none"), state) == []
    assert rules(module, tmp_path, mo(4, "GE"), state) == ["7.1"]
    assert rules(module, tmp_path, mo(4, "GE"), set_up()) == []


def test_h_l_take_command_played_with_a_german_offensive_in_effect_cancels_it(module, tmp_path):
    state = set_up(commitment={"cp": "total_war", "ap": "total_war"}, mandated_offensive={"cp": "GE", "ap": "none"})
    result = run(module, tmp_path, [CP_ROUND, {"card": "CP-54", "use": "event"}], state, turn=12)
    assert result.state.status["mandated_offensive"]["cp"] == "none"


def test_hoffmann_adds_one_to_the_cp_roll(module, tmp_path):
    # LR2022 7.1.9: +1 to the CP roll for all future rolls. A 3 (TU) becomes a 4 (GE).
    state = set_up(events_played=["CP-37"], neutral_nations=["BU", "GR", "IT", "RO", "US"])
    assert rules(module, tmp_path, mo(3, "GE"), state) == []
    assert rules(module, tmp_path, mo(3, "TU"), state) == ["7.1"]


# --- VP, war status and the state ----------------------------------------------------------------------------------
def test_vp_and_war_status_events_change_the_state(module, tmp_path):
    state = set_up(events_played=["CP-01"])
    after = run(module, tmp_path, [*CP_PASSES, {"card": "AP-13", "use": "event"}], state).state  # Rape of Belgium: -1 VP
    assert after.status["vp"] == 9
    state = set_up(commitment={"cp": "total_war", "ap": "total_war"})
    after = run(module, tmp_path, [CP_ROUND, {"card": "CP-65", "use": "event"}], state, turn=14).state  # Prince Max: +3 (9.5.1.3)
    assert after.status["war_status"]["cp"] == 3 and after.status["combined_war_status"] == 3 and after.status["vp"] == 10


# --- units placed or removed by events -------------------------------------------------------------------------------
def test_russian_cavalry_enters_with_a_supplied_russian_army(module, tmp_path):
    play = [*CP_PASSES, {"card": "AP-57", "use": "event"}]
    both = ["RU-CAV-CORPS-01", "RU-CAV-CORPS-02"]
    assert rules(module, tmp_path, [*play, {"reinforce": both, "at": "Kovno"}]) == []
    assert rules(module, tmp_path, [*play, {"reinforce": both, "at": "Riga"}]) == ["9.5.1.1"]  # a corps, no army


def test_czech_legion_and_polish_restoration_fill_the_reserve_boxes(module, tmp_path):
    status = {"commitment": {"cp": "limited_war", "ap": "limited_war"}, "events_played": []}
    state = place(set_up(**status), AH_CORPS_01="eliminated")
    play = [*CP_PASSES, {"card": "AP-60", "use": "event"}]
    result = run(module, tmp_path, [*play, {"remove": ["AH-CORPS-01"], "to": "permanently_eliminated"}], state)
    assert [v.rule for v in result.violations if v.severity != "warning"] == []
    assert result.state.units["RU-CZECH-LEGION"].box == "reserve"
    assert rules(module, tmp_path, [*play, {"remove": ["AH-1-ARMY"], "to": "permanently_eliminated"}], state) == ["9.5.1.1"]
    state = set_up(**status, control={"Warsaw": "cp"})
    after = run(module, tmp_path, [CP_ROUND, {"card": "CP-59", "use": "event"}], state).state
    assert all(after.units[u].box == "reserve" for u in ("GE-POL-CORPS-01", "GE-POL-CORPS-02", "GE-POL-CORPS-03"))
    assert after.status["vp"] == 9


def test_the_entrench_event_places_a_level_1_trench(module, tmp_path):
    play = [*CP_PASSES[:-1], {"phase": "action", "round": 1, "side": "ap"}, {"card": "AP-12", "use": "event"}]
    result = run(module, tmp_path, [*play, {"special": "entrench", "units": ["FR-9-ARMY"], "at": "Bar le Duc"}])
    assert [v.rule for v in result.violations if v.severity != "warning"] == []
    assert result.state.status["trenches"]["Bar le Duc"] == {"level": 1, "owner": "ap"}
    assert rules(module, tmp_path, [*play, {"special": "entrench", "units": ["FR-CORPS-10"], "at": "Grenoble"}]) == ["9.5.1.1"]


def test_haig_entrenched_germans_may_stay_against_british_attacks(module, tmp_path):
    """Haig: this turn, entrenched GE units in France, Belgium or Germany may ignore retreats against BR attacks.
    The BEF (CF 5, roll 6: 4 on the trench-shifted column) against the reduced GE 2nd Army entrenched in Cambrai: the
    army is eliminated, GE Corps #1 replaces it and takes the fourth loss; the BEF won, yet the corps stays."""
    status = {"commitment": {"cp": "total_war", "ap": "total_war"}, "trenches": {"Cambrai": {"level": 1, "owner": "cp"}},
              "control": {"Cambrai": "cp"}}
    state = place(set_up(**status), GE_2_ARMY=("Cambrai", 1), BR_BEF_ARMY="Amiens")
    attack = {"attack": ["BR-BEF-ARMY"], "target": "Cambrai", "roll": 6, "defender_roll": 1, "result": "2/4",
              "losses": {"defender": ["GE-2-ARMY", "GE-CORPS-01"]}, "replacements": {"GE-2-ARMY": "GE-CORPS-01"}}
    ap_attacks = [CP_ROUND, {"card": "CP-61", "use": "event"}, AP_ROUND, {"card": None, "use": "automatic"},
                  {"activate": {"Amiens": "attack"}, "cost": 1}, attack]
    found = run(module, tmp_path, ap_attacks, state, turn=12)
    assert [v for v in found.violations if v.severity != "warning"] == []
    without = [CP_ROUND, {"card": "CP-05", "use": "rp"}, *ap_attacks[2:]]
    assert rules(module, tmp_path, without, state, turn=12) == ["12.5.1"]


def test_17_1_8_after_over_there_allied_rp_cards_give_a_us_rp(module, tmp_path):
    # LR2022 17.1.8: after Over There every Allied RP card also gives one US RP.
    status = {"commitment": {"cp": "total_war", "ap": "total_war"}, "neutral_nations": ["BU", "GR", "IT", "RO"]}
    state = place(set_up(**status, events_played=["AP-54", "AP-55"]), US_1_ARMY=("Nancy", 1))
    turn = [*CP_PASSES, {"card": "AP-01", "use": "rp"}, {"phase": "replacement"}, {"replace": "US-1-ARMY"}]
    assert rules(module, tmp_path, turn, state, turn=14) == []
    state["status"]["events_played"] = ["AP-54"]
    assert rules(module, tmp_path, turn, state, turn=14) == ["17.1.1"]


def test_influenza_bars_rp_plays_for_the_rest_of_the_turn(module, tmp_path):
    status = {"commitment": {"cp": "total_war", "ap": "total_war"}, "combined_war_status": 30}
    influenza = [CP_ROUND, {"card": "CP-05", "use": "ops"}, AP_ROUND, {"card": "AP-65", "use": "event"}]
    later = [{"phase": "action", "round": 2, "side": "cp"}, {"card": "CP-06", "use": "rp"}]
    assert rules(module, tmp_path, [*influenza, *later], set_up(**status), turn=14) == ["9.5.1.1"]
    assert rules(module, tmp_path, [*influenza, *later[:1], {"card": "CP-06", "use": "sr"}], set_up(**status), turn=14) == []


def test_treaty_of_brest_litovsk_ends_attacks_on_and_by_russians(module, tmp_path):
    status = {"commitment": {"cp": "total_war", "ap": "total_war"}}
    attack = {"attack": ["GE-8-ARMY"], "target": "Kovno", "roll": 1, "defender_roll": 1, "result": "1/1", "losses": {}}
    turn = [CP_ROUND, {"card": None, "use": "automatic"}, {"activate": {"Insterberg": "attack"}, "cost": 1}, attack]
    state = place(set_up(**status), GE_CORPS_10="reserve")
    assert "9.5.1.1" not in rules(module, tmp_path, turn, state, turn=16)
    state["status"]["events_played"] = ["CP-45"]
    assert "9.5.1.1" in rules(module, tmp_path, turn, state, turn=16)


def test_war_status_phase_vp_of_blockade_and_french_mutiny(module, tmp_path):
    # Blockade: -1 VP in each Winter turn's War Status phase; French Mutiny (7.1.8): a French offensive not made costs
    # nothing.
    state = set_up(events_played=["AP-02", "CP-47"], mandated_offensive={"cp": "none", "ap": "FR"})
    after = run(module, tmp_path, [{"phase": "war_status"}], state, turn=4).state  # Winter 1915
    assert after.status["vp"] == 9
    state["status"]["events_played"] = []
    after = run(module, tmp_path, [{"phase": "war_status"}], state, turn=4).state
    assert after.status["vp"] == 11  # the French offensive not made: +1 (7.1.3)


def test_12_2_6_combat_cards_that_modify_a_roll_are_applied(module, tmp_path):
    # Chlorine Gas: "a GE attack adds +1 drm" (12.2.6): 10 CF on the 9-11 column, roll 3+1 gives 5, not 4.
    state = set_up(commitment={"cp": "limited_war", "ap": "total_war"})
    attack = {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 3, "defender_roll": 3, "result": "2/5", "cards": ["CP-15"],
              "losses": {"defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Cambrai", "Chateau Thierry"]}}
    turn = [CP_ROUND, {"card": None, "use": "automatic"}, {"activate": {"Koblenz": "attack"}, "cost": 1}]
    assert rules(module, tmp_path, [*turn, attack], state, turn=5) == []
    assert rules(module, tmp_path, [*turn, {**attack, "result": "2/4"}], state, turn=5) == ["12.2.8"]
    # Von Francois is for a German attack on Russians: against the French it modifies nothing, and the attack is
    # left unjudged (a warning) rather than judged with or without it.
    francois = run(module, tmp_path, [*turn, {**attack, "result": "2/4", "cards": ["CP-03"]}], state, turn=5)
    assert [v.rule for v in francois.violations] == ["9.5.4"]
    # They Shall Not Pass cancels a retreat: not modelled here, so the attack is not judged (a warning says so).
    not_pass = run(module, tmp_path, [*turn, {**attack, "result": "2/4", "cards": ["AP-39"]}], state, turn=5)
    assert [v.rule for v in not_pass.violations] == ["9.5.4"]
    # Withdrawal changes losses and retreats: its fire is not judged (a warning says so); its negated step and
    # one-space retreat are (advance.py, LR2022 12.6.3-12.6.6): a two-space retreat breaks 12.6.4.
    one_space = {**attack, "result": "2/4", "cards": ["AP-06"], "negated": ["FR-5-ARMY"], "retreats": {"FR-5-ARMY": ["Cambrai"]}}
    withdrawal = run(module, tmp_path, [*turn, one_space], state, turn=5)
    assert [v.rule for v in withdrawal.violations] == ["9.5.4"]
    withdrawal = run(module, tmp_path, [*turn, {**attack, "result": "2/4", "cards": ["AP-06"]}], state, turn=5)
    assert [v.rule for v in withdrawal.violations] == ["9.5.4", "12.6.4"]
