"""China War verdicts from the rulebook's words (issue 12): for each rule, a legal and an illegal case.

Every situation starts from the bundled (illustrative) scenario; units are moved into place where a case needs
them. Rolls and results are the CRT's for the situation, so only the rule under test can make a case illegal.
"""

from __future__ import annotations

import json

import pytest
from china_war_support import MAP, MODULE, RULES, SRC, H, attack, move, phase, run, scenario_state, to_combat

from pbem.model.actions import Loss, Reinforce, Remove, Turn, TurnHeader
from pbem.model.state import UnitState

MASS = frozenset({"mass_attack"})


def illegal(found: list[tuple[str, str]]) -> list[str]:
    """The rules a replay found broken, each once (mismatches and warnings left out)."""
    return sorted({rule for rule, severity in found if severity == "illegal"})


def verdict(found: list[tuple[str, str]]) -> list[str]:
    """Every rule reported except warnings: illegal actions and claims that do not match the tables."""
    return [rule for rule, severity in found if severity != "warning"]


def air(units, start: str, landing: str):
    action = move(units, start, landing)
    action.by = "air"
    return action


def rail(units, *path: str):
    action = move(units, *path)
    action.by = "rail"
    return action


def overrun(attackers, target: str, roll: int, result: str, **fields):
    from pbem.model.actions import Overrun

    combat = attack(attackers, target, roll, result, **fields)
    return Overrun(**{name: getattr(combat, name) for name in combat.__dataclass_fields__})


def chinese_phases() -> list:
    from pbem.model.actions import Phase

    return [Phase(index=0, source=SRC, name="movement", side="chinese")]


# --- 2.0: the phasing player follows a reaction into the vacated hex ---------------------------------------
def test_2_0_several_units_may_follow_up_as_separate_moves():
    react = [phase("movement"), phase("reaction"), move("PLA-INF-XX-1-01", "3005", "3006")]
    two_moves = [move("SOV-TK-XX-1-01", "3004", "3005"), move("SOV-MR-XX-1-01", "3004", "3005")]
    assert verdict(run("soviet", react + two_moves)) == []
    assert verdict(run("soviet", react + [move(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3004", "3005")])) == []
    assert illegal(run("soviet", react + [move("SOV-TK-XX-1-01", "3004", "2905")])) == ["2.0"]  # not vacated


def test_10_24_no_follow_up_into_a_hex_whose_militia_is_active_again():
    def situation():
        state = scenario_state()
        state.place("PLA-INF-XX-1-02", H("3607"))  # a division in the city reacts out of it
        state.place("SOV-MR-XX-2-03", H("3606"))
        return state

    steps = [phase("movement"), phase("reaction"), move("PLA-INF-XX-1-02", "3607", "3708"), move("SOV-MR-XX-2-03", "3606", "3607")]
    assert illegal(run("soviet", steps, situation())) == ["10.24"]
    pacified = situation()
    pacified.status["pacified"] = ["3607"]
    steps = [phase("movement"), phase("reaction"), move("PLA-INF-XX-1-02", "3607", "3708"), move("SOV-MR-XX-2-03", "3606", "3607")]
    assert verdict(run("soviet", steps, pacified)) == []


# --- 9.54: the mass attack's tripled loss is capped by what the defender has -----------------------------
def marines_under_mass_attack():
    state = scenario_state()
    state.place("PLA-INF-XXX-1-01", H("2505"))
    return state


def test_9_54_a_two_step_unit_that_may_not_retreat_loses_both_steps():
    # 10 against the marines' 2 (5/1), net +3: 7/1; a roll of 1 reads -/1 on column A.
    whole = attack(["PLA-INF-XXX-1-01", "PLA-BDR-XX-3-02"], "2504", 1, "-/1", declared=MASS, odds="5/1", column="7/1",
                   losses_defender=("SOV-MAR-XX-1-01", "SOV-MAR-XX-1-01"), advance=("PLA-INF-XXX-1-01",))  # fmt: skip
    assert verdict(run("chinese", [*to_combat(), whole], marines_under_mass_attack())) == []
    removed = attack(["PLA-INF-XXX-1-01", "PLA-BDR-XX-3-02"], "2504", 1, "-/1", declared=MASS,
                     eliminated=("SOV-MAR-XX-1-01",), advance=("PLA-INF-XXX-1-01",))  # fmt: skip
    assert verdict(run("chinese", [*to_combat(), removed], marines_under_mass_attack())) == []
    one_step = attack(["PLA-INF-XXX-1-01", "PLA-BDR-XX-3-02"], "2504", 1, "-/1", declared=MASS, losses_defender=("SOV-MAR-XX-1-01",),
                      losses_attacker=("PLA-INF-XXX-1-01", "PLA-BDR-XX-3-02"))  # fmt: skip
    assert illegal(run("chinese", [*to_combat(), one_step], marines_under_mass_attack())) == ["9.54"]


# --- 10.41: one desert shift per player, each counted once --------------------------------------------------
def desert_combat(attackers: dict[str, str], defenders: list[str], side: str):
    state = scenario_state()
    for unit_id, hex_ in attackers.items():
        state.place(unit_id, H(hex_))
    for unit_id in defenders:
        if unit_id not in state.units:  # North Korean mechanized infantry, North Korea allied with China (5.15)
            state.units[unit_id] = UnitState(MODULE.units[unit_id], side="chinese")
        state.place(unit_id, H("1208"))
    ctx = RULES.begin(state, Turn("t", TurnHeader(MODULE.id, None, 1, side), []))
    combat = attack(list(attackers), "1208", 1, "-/-")
    shifts = RULES.assess(combat, state, ctx).shifts
    return [(name, n) for name, n in shifts if name in ("armour_desert", "mech_infantry_desert")]


def test_10_41_the_defender_benefits_from_one_desert_shift_only():
    assert MAP.terrain[H("1208")] == "desert"
    # Soviet armour and mechanized infantry defend against a PLA tank: armour 2 each way, no extra mech shift.
    shifts = desert_combat({"PLA-TK-XX-1-02": "1207"}, ["SOV-TK-XX-1-02", "SOV-MR-XX-2-03"], "chinese")
    assert sorted(shifts) == [("armour_desert", -2), ("armour_desert", 2)]
    # Mechanized infantry attacking armour: the defender takes the armour's two columns, not three.
    shifts = desert_combat({"SOV-MR-XX-2-03": "1207"}, ["PLA-TK-XX-1-02"], "soviet")
    assert shifts == [("armour_desert", -2)]
    # Mechanized infantry on both sides: the defender's one column, counted once.
    shifts = desert_combat({"SOV-MR-XX-2-03": "1207", "SOV-MR-XX-2-04": "1108"}, ["NK-MECH-XXX-01"], "soviet")
    assert shifts == [("mech_infantry_desert", -1)]
    # Armour attacking mechanized infantry: two columns to the attacker, one to the defender.
    shifts = desert_combat({"SOV-TK-XX-1-02": "1207"}, ["NK-MECH-XXX-01"], "soviet")
    assert sorted(shifts) == [("armour_desert", 2), ("mech_infantry_desert", -1)]


def test_10_41_itemised_claims_agree_with_the_column():
    state = scenario_state()
    state.place("PLA-TK-XX-1-02", H("1207"))
    state.place("SOV-TK-XX-1-02", H("1208"))
    state.place("SOV-MR-XX-2-03", H("1208"))
    ctx = RULES.begin(state, Turn("t", TurnHeader(MODULE.id, None, 1, "chinese"), []))
    combat = attack("PLA-TK-XX-1-02", "1208", 1, "-/-")
    assessment = RULES.assess(combat, state, ctx)
    claims = {}
    for name, n in assessment.shifts:
        claims[name] = claims.get(name, 0) + n
    assert claims["armour_desert"] == 0  # both sides' armour: two columns each way
    good = attack("PLA-TK-XX-1-02", "1208", 1, RULES.crt.result(assessment.column, 1, assessment.die_row),
                  shifts=claims, column=assessment.column)  # fmt: skip
    found = RULES._check_shift_claims(good, assessment, state)
    assert found == []
    bad = attack("PLA-TK-XX-1-02", "1208", 1, "-/-", shifts={**claims, "mech_infantry_desert": -1})
    assert [v.rule for v in RULES._check_shift_claims(bad, assessment, state)] == ["10.41"]


# --- 10.8: the Trans-Siberian garrison defends like militia ---------------------------------------------------
def garrisoned() -> object:
    state = scenario_state()
    state.remove("SOV-MR-XX-2-04", "garrison")
    state.place("PLA-INF-XX-1-02", H("3103"))
    return state


def test_10_8_an_empty_garrisoned_rail_hex_may_be_attacked_and_taken():
    # 2 against the garrison's 1: 2/1, PLA 1st line +2 = 4/1; a roll of 3 is -/1.
    taken = attack("PLA-INF-XX-1-02", "3102", 3, "-/1", odds="2/1", column="4/1", advance=("PLA-INF-XX-1-02",))
    assert verdict(run("chinese", [*to_combat(), taken], garrisoned())) == []
    ungarrisoned = scenario_state()
    ungarrisoned.place("PLA-INF-XX-1-02", H("3103"))
    assert illegal(run("chinese", [*to_combat(), attack("PLA-INF-XX-1-02", "3102", 3, "-/1")], ungarrisoned)) == ["9.11"]


def test_10_8_a_unit_may_not_simply_move_into_a_garrisoned_rail_hex():
    assert illegal(run("chinese", [phase("movement"), move("PLA-INF-XX-1-02", "3103", "3102")], garrisoned())) == ["10.8"]
    assert verdict(run("chinese", [phase("movement"), move("PLA-INF-XX-1-02", "3103", "3203")], garrisoned())) == []


def test_10_8_a_returned_garrison_unit_does_not_move_again_that_game_turn():
    state = scenario_state()
    leave = Remove(index=0, source=SRC, units=("SOV-MR-XX-2-04",), to="garrison")
    back = Reinforce(index=0, source=SRC, units=("SOV-MR-XX-2-04",), at=H("3001"))
    soviet_turn = [phase("movement"), leave, back, phase("reaction"), phase("combat")]
    assert verdict(run("soviet", soviet_turn, state)) == []
    # Later in the same game-turn, in the Soviet reaction to the Chinese movement: still frozen.
    later = [*chinese_phases(), phase("reaction"), move("SOV-MR-XX-2-04", "3001", "3102")]
    assert illegal(run("chinese", later, state)) == ["10.8"]
    # It may move in the next game-turn.
    state.turn, state.phase = 2, None
    from pbem.model.actions import Phase

    next_turn = [Phase(index=0, source=SRC, name="movement"), move("SOV-MR-XX-2-04", "3102", "3001")]
    assert verdict(run_turn("soviet", 2, next_turn, state)) == []


def run_turn(side: str, turn: int, actions: list, state) -> list[tuple[str, str]]:
    from pbem.engine.replay import replay

    for n, action in enumerate(actions):
        action.index, action.source = n, SRC
    result = replay(MODULE, state, Turn("test.json", TurnHeader(MODULE.id, "border-war", turn, side, "border-war"), actions))
    return [(v.rule, v.severity) for v in result.violations]


# --- 10.24: militia: no retreat into it, no advance after "no effect" ---------------------------------------
def soviet_beside_the_city(supplied: bool = True):
    state = scenario_state()
    state.place("SOV-MR-XX-2-03", H("3606"))
    state.units["SOV-MR-XX-2-03"].supplied = supplied
    state.place("PLA-INF-XX-1-02", H("3605"))
    return state


def test_10_24_a_defender_may_not_retreat_into_an_empty_hex_with_active_militia():
    # PLA 2 against 4 in forest (1/2), +2 -1: 1/1 on column B; a roll of 5 is 1/1.
    into_city = attack("PLA-INF-XX-1-02", "3606", 5, "1/1", losses_attacker=("PLA-INF-XX-1-02",), retreats={"SOV-MR-XX-2-03": ["3607"]})
    assert illegal(run("chinese", [*to_combat(), into_city], soviet_beside_the_city())) == ["10.24"]
    away = attack("PLA-INF-XX-1-02", "3606", 5, "1/1", losses_attacker=("PLA-INF-XX-1-02",), retreats={"SOV-MR-XX-2-03": ["3707"]})
    assert verdict(run("chinese", [*to_combat(), away], soviet_beside_the_city())) == []


def test_10_24_no_advance_after_a_result_that_leaves_the_militia_unharmed():
    # An unsupplied 4-4-9 against the empty city's militia (1): 4/1, -3 +2 +1 = 4/1 on column C.
    state = soviet_beside_the_city(supplied=False)
    state.remove("PLA-INF-XX-1-02", "reinforcements")
    held = attack("SOV-MR-XX-2-03", "3607", 1, "1/-", losses_attacker=("SOV-MR-XX-2-03",), advance=("SOV-MR-XX-2-03",))
    assert illegal(run("soviet", [*to_combat(), held], state)) == ["10.24"]
    state = soviet_beside_the_city(supplied=False)
    state.remove("PLA-INF-XX-1-02", "reinforcements")
    beaten = attack("SOV-MR-XX-2-03", "3607", 5, "-/1", advance=("SOV-MR-XX-2-03",))
    assert verdict(run("soviet", [*to_combat(), beaten], state)) == []


# --- 6.43: Soviet airborne divisions have 2 MP without the optional rule 16.0 --------------------------------
def test_6_43_soviet_airborne_moves_two_without_optional_rule_16():
    assert verdict(run("soviet", [phase("movement"), move("SOV-AB-XX-1-02", "3802", "3803", "3804")])) == []
    assert illegal(run("soviet", [phase("movement"), move("SOV-AB-XX-1-02", "3802", "3803", "3804", "3805")])) == ["6.43"]


def test_6_43_the_allowance_is_an_option(monkeypatch):
    monkeypatch.setitem(RULES.options, "soviet_airborne_mpa", 3)
    assert verdict(run("soviet", [phase("movement"), move("SOV-AB-XX-1-02", "3802", "3803", "3804", "3805")])) == []


# --- 6.42 citation -------------------------------------------------------------------------------------------
def test_6_42_an_airdropped_soviet_division_may_not_move_again():
    assert verdict(run("soviet", [phase("movement"), air("SOV-AB-XX-1-02", "3802", "3703")])) == []
    moved_on = [phase("movement"), air("SOV-AB-XX-1-02", "3802", "3703"), move("SOV-AB-XX-1-02", "3703", "3704")]
    assert illegal(run("soviet", moved_on)) == ["6.42"]


# --- 9.8: a retreat goes away from the battle and from the enemy ------------------------------------------------
def test_9_8_a_retreat_may_not_go_nearer_to_an_enemy_unit_that_did_not_attack():
    def situation():
        state = scenario_state()
        state.place("SOV-MR-XX-1-02", H("3007"))  # two hexes from the defender, next to 3006
        return state

    # Soviet 11 against 4 in clear with a river: 2/1; net -1 gives 1/1 on column A; a roll of 6 is -/1.
    nearer = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 6, "-/1", retreats={"PLA-INF-XX-1-01": ["3006"]})
    assert MAP.distance(H("3006"), H("3007")) == 1 and MAP.distance(H("3005"), H("3007")) == 2
    assert illegal(run("soviet", [*to_combat(), nearer], situation())) == ["9.8"]
    away = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 6, "-/1", retreats={"PLA-INF-XX-1-01": ["3006"]})
    assert verdict(run("soviet", [*to_combat(), away])) == []


# --- 10.25: pacification costs a division's step --------------------------------------------------------------
def test_10_25_pacification_needs_a_division():
    def occupied(unit: str):
        state = scenario_state()
        state.place(unit, H("3607"))
        return state

    by_division = Loss(index=0, source=SRC, unit="SOV-MR-XX-2-03", reason="pacification")
    assert verdict(run("soviet", [phase("movement"), by_division], occupied("SOV-MR-XX-2-03"))) == []
    state = occupied("PLA-INF-XXX-1-01")
    state.units["PLA-INF-XXX-1-01"].side = "soviet"  # a corps on the pacifying side (a North Korean ally's, say)
    by_corps = Loss(index=0, source=SRC, unit="PLA-INF-XXX-1-01", reason="pacification")
    found = illegal(run("soviet", [phase("movement"), by_corps], state))
    assert found == ["10.25"]


# --- 7.25 / 9.78: the defender never advances ---------------------------------------------------------------
def test_7_25_the_defender_of_an_overrun_does_not_advance():
    # The overrun of 3005 at 1/1 on column A: a roll of 1 is 1/-, the defender holds.
    held = overrun(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 1, "1/-", losses_attacker=("SOV-MR-XX-1-01",))
    assert verdict(run("soviet", [phase("movement"), held])) == []
    held.defender_advance = {"PLA-INF-XX-1-01": (H("3004"),)}
    assert "7.25" in illegal(run("soviet", [phase("movement"), held]))


def test_9_78_the_defender_never_advances_after_combat():
    held = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 1, "1/-", losses_attacker=("SOV-MR-XX-1-01",))
    held.defender_advance = {"PLA-INF-XX-1-01": (H("2905"),)}
    assert illegal(run("soviet", [*to_combat(), held])) == ["9.78"]


def test_defender_advance_round_trips_through_json_and_notation(tmp_path, pbem):
    turn = {
        "module": "china-war-1980", "scenario": "border-war", "turn": 1, "side": "soviet", "start": {"scenario": "border-war"},
        "actions": [{"phase": "movement"},
                    {"overrun": ["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "target": "3005", "roll": 1, "result": "1/-",
                     "losses": {"attacker": ["SOV-MR-XX-1-01"]}, "defender_advance": {"PLA-INF-XX-1-01": ["3004"]}}],
    }  # fmt: skip
    path = tmp_path / "t.json"
    path.write_text(json.dumps(turn))
    result = pbem("check", path, "--format", "json")
    assert result.code == 1 and [v["rule"] for v in json.loads(result.out)["violations"]] == ["7.25"]
    notation = pbem("convert", path, "--to", "pbem")
    assert "defender advances PLA-INF-XX-1-01 to 3004" in notation.out
    (tmp_path / "t.pbem").write_text(notation.out)
    back = pbem("convert", tmp_path / "t.pbem", "--to", "json")
    assert json.loads(back.out)["actions"][1]["defender_advance"] == {"PLA-INF-XX-1-01": ["3004"]}


# --- 5.2: the political +1 as an option -----------------------------------------------------------------------
def test_5_2_the_chinese_plus_one_follows_the_soviet_vp_unless_chosen_otherwise(monkeypatch):
    state = scenario_state()
    state.status["vp"] = {"soviet": 40, "chinese": 120}
    assert RULES.modifiers(state)["chinese"] == 1  # 5.2's list: Soviet VP below 100
    monkeypatch.setitem(RULES.options, "political_vp_below_100", "chinese")
    assert RULES.modifiers(state)["chinese"] == 0  # 5.0's example: the Chinese player's own VP
    state.status["vp"] = {"soviet": 140, "chinese": 20}
    assert RULES.modifiers(state)["chinese"] == 1


# --- 6.36: rail capacity follows the track each unit uses --------------------------------------------------
def rail_yard():
    state = scenario_state()
    for unit_id in ("PLA-INF-XX-1-02", "PLA-TK-XX-1-02", "PLA-TK-XX-1-03", "PLA-INF-XXX-1-01"):
        state.place(unit_id, H("3112"))
    return state


def test_6_36_double_track_through_a_junction_carries_two_divisions():
    assert MAP.rail(H("3010"), H("2910")) == "single" and MAP.rail(H("3011"), H("3010")) == "double"
    two = [phase("movement"), rail("PLA-INF-XX-1-02", "3112", "3011", "3010"), rail("PLA-TK-XX-1-02", "3112", "3011", "3010")]
    assert verdict(run("chinese", two, rail_yard())) == []
    three = two + [rail("PLA-TK-XX-1-03", "3112", "3011", "3010")]
    assert illegal(run("chinese", three, rail_yard())) == ["6.36"]


def test_6_36_single_track_through_the_junction_carries_one():
    first = rail("PLA-INF-XX-1-02", "3112", "3011", "3010")
    branch = rail("PLA-TK-XX-1-02", "3011", "3010", "2910")
    state = rail_yard()
    state.place("PLA-TK-XX-1-02", H("3011"))
    assert illegal(run("chinese", [phase("movement"), first, branch], state)) == ["6.36"]
    state = rail_yard()
    state.place("PLA-TK-XX-1-02", H("3011"))
    assert verdict(run("chinese", [phase("movement"), branch], state)) == []


def test_6_36_a_corps_moves_by_rail():
    assert verdict(run("chinese", [phase("movement"), rail("PLA-INF-XXX-1-01", "3112", "3011", "3010")], rail_yard())) == []


# --- the die roll of 0 ----------------------------------------------------------------------------------------------
def test_a_roll_of_0_is_named_in_a_players_words(tmp_path, pbem):
    turn = {
        "module": "china-war-1980", "scenario": "border-war", "turn": 1, "side": "soviet", "start": {"scenario": "border-war"},
        "actions": [{"phase": "movement"}, {"phase": "reaction"}, {"phase": "combat"},
                    {"attack": ["SOV-TK-XX-1-01"], "target": "3005", "roll": 0, "result": "1/-"}],
    }  # fmt: skip
    path = tmp_path / "zero.json"
    path.write_text(json.dumps(turn))
    result = pbem("check", path)
    assert result.code == 2
    assert "a roll of 0 is impossible" in result.err and "unevaluated" not in result.err.lower()


# --- a legal and an illegal case for rules no test asserted before ---------------------------------------------
def pla_rail_move(*path: str):
    return [phase("movement"), rail("PLA-INF-XX-1-02", *path)]


def test_6_31_rail_movement_stays_on_the_railway():
    assert verdict(run("chinese", pla_rail_move("3112", "3011", "3010"), rail_yard())) == []
    assert illegal(run("chinese", pla_rail_move("3112", "3012", "3011"), rail_yard())) == ["6.31"]


def test_6_35_only_friendly_rail():
    state = rail_yard()
    state.place("SOV-MR-XX-2-03", H("3010"))  # an enemy unit in the junction
    assert illegal(run("chinese", pla_rail_move("3112", "3011", "3010"), state)) == ["6.35"]
    soviet_rail = scenario_state()
    soviet_rail.place("PLA-INF-XX-1-02", H("3001"))
    assert illegal(run("chinese", [phase("movement"), rail("PLA-INF-XX-1-02", "3001", "3102")], soviet_rail)) == ["6.35"]
    assert verdict(run("soviet", [phase("movement"), rail("SOV-MR-XX-2-04", "2701", "2801", "2901")])) == []


def test_6_41_pla_airborne_flies_between_chinese_cities():
    assert MAP.city[H("3318")] and MAP.city[H("3010")] and not MAP.city[H("3011")]
    assert verdict(run("chinese", [phase("movement"), air("PLA-AB-XX-1-01", "3318", "3010")])) == []
    assert illegal(run("chinese", [phase("movement"), air("PLA-AB-XX-1-01", "3318", "3011")])) == ["6.41"]


def test_6_44_no_airlift_in_a_turn_of_air_supply():
    assert verdict(run("soviet", [phase("movement"), air("SOV-AB-XX-1-02", "3802", "3703")])) == []
    state = scenario_state()
    state.status["air_supply_turn"] = 1
    assert illegal(run("soviet", [phase("movement"), air("SOV-AB-XX-1-02", "3802", "3703")], state)) == ["6.44"]


STACK = ["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"]


def test_7_0_an_overrun_costs_a_mechanized_unit_5_mp():
    held = overrun(STACK, "3005", 2, "-/-")
    assert verdict(run("soviet", [phase("movement"), held])) == []
    tired = [phase("movement"), move(STACK, "3004", "3003", "3004", "3003", "3004"), overrun(STACK, "3005", 2, "-/-")]
    assert illegal(run("soviet", tired)) == ["7.0"]


def test_7_11_overruns_only_in_the_movement_phase():
    assert verdict(run("soviet", [phase("movement"), overrun(STACK, "3005", 2, "-/-")])) == []
    assert illegal(run("soviet", [*to_combat(), overrun(STACK, "3005", 2, "-/-")])) == ["7.11"]


def test_7_14_an_overrun_enters_one_adjacent_hex():
    assert verdict(run("soviet", [phase("movement"), overrun(STACK, "3005", 2, "-/-")])) == []
    assert illegal(run("soviet", [phase("movement"), overrun(STACK, "3006", 2, "-/-")])) == ["7.14"]


def test_7_23_units_that_lost_steps_in_an_overrun_stop():
    # A roll of 4 is 1/1: the defender retreats, the overrunning stack loses a step and stays.
    bloody = overrun(STACK, "3005", 4, "1/1", losses_attacker=("SOV-MR-XX-1-01",), retreats={"PLA-INF-XX-1-01": ["3006"]})
    assert verdict(run("soviet", [phase("movement"), bloody])) == []
    bloody = overrun(STACK, "3005", 4, "1/1", losses_attacker=("SOV-MR-XX-1-01",), retreats={"PLA-INF-XX-1-01": ["3006"]})
    assert illegal(run("soviet", [phase("movement"), bloody, move("SOV-TK-XX-1-01", "3004", "3003")])) == ["7.23"]


def test_9_73_a_dash_means_the_side_suffers_nothing():
    assert verdict(run("soviet", [*to_combat(), attack(STACK, "3005", 2, "-/-")])) == []
    lost = attack(STACK, "3005", 2, "-/-", losses_defender=("PLA-INF-XX-1-01",))
    assert illegal(run("soviet", [*to_combat(), lost])) == ["9.73"]


def test_9_77_the_owner_picks_any_defending_unit_for_the_loss():
    def situation():
        state = scenario_state()
        for unit_id in ("SOV-MR-XX-2-03", "SOV-AB-XX-1-02"):
            state.place(unit_id, H("3606"))
        state.place("PLA-INF-XXX-1-01", H("3605"))
        state.place("PLA-INF-XX-1-02", H("3706"))
        return state

    # 12 against 7 in forest: 1/1, +2 -1 -1: 1/1 on column B; a roll of 5 is 1/1.
    attackers = ["PLA-INF-XXX-1-01", "PLA-INF-XX-1-02"]
    either = attack(attackers, "3606", 5, "1/1", losses_attacker=("PLA-INF-XX-1-02",), losses_defender=("SOV-AB-XX-1-02",))
    assert verdict(run("chinese", [*to_combat(), either], situation())) == []
    elsewhere = attack(attackers, "3606", 5, "1/1", losses_attacker=("PLA-INF-XX-1-02",), losses_defender=("SOV-MR-XX-1-02",))
    assert "9.77" in illegal(run("chinese", [*to_combat(), elsewhere], situation()))


def test_12_0_reinforcements_come_from_off_the_map():
    arrives = Reinforce(index=0, source=SRC, units=("SOV-AB-XX-1-01",), at=H("2701"))
    found = run("soviet", [phase("reinforcement"), arrives])
    assert verdict(found) == [] and ("12.0", "warning") in found  # schedules are not in the source: said, not judged
    twice = Reinforce(index=0, source=SRC, units=("SOV-TK-XX-1-02",), at=H("2701"))
    assert illegal(run("soviet", [phase("reinforcement"), twice])) == ["12.0"]


def test_13_0_tactical_air_and_nuclear_points_are_the_soviet_players():
    supported = attack(STACK, "3005", 2, "-/-", support={"air": 5})
    assert illegal(run("soviet", [*to_combat(), supported])) == []
    chinese = attack("PLA-INF-XX-1-01", "3004", 5, "1/-", support={"air": 5}, losses_attacker=("PLA-INF-XX-1-01",))
    assert illegal(run("chinese", [*to_combat(), chinese])) == ["13.0"]


@pytest.mark.parametrize("rule", ["6.31", "6.35", "6.41", "6.44", "7.0", "7.11", "7.14", "7.23", "9.73", "9.77", "12.0", "13.0"])
def test_every_rule_the_issue_named_has_its_test(rule):
    names = [name for name in globals() if name.startswith("test_" + rule.replace(".", "_") + "_")]
    assert names, rule


# --- a wrong claim is one mismatch, named at its cause -------------------------------------------------------------
def test_odds_that_leave_out_the_militia_are_one_mismatch_under_10_23():
    state = scenario_state()
    state.place("PLA-INF-XX-1-02", H("3607"))  # 4 defence + the city's militia 1 = 5
    state.place("SOV-MR-XX-2-03", H("3606"))
    ctx = RULES.begin(state, Turn("t", TurnHeader(MODULE.id, None, 1, "soviet"), []))
    truth = RULES.assess(attack("SOV-MR-XX-2-03", "3607", 1, "-/-"), state, ctx)
    assert (truth.attack, truth.defence, truth.odds) == (4, 5, (1, 2))
    wrong_column = RULES._column_from_odds("1/1", truth)
    claimed = RULES.crt.result(wrong_column, 6, truth.die_row)  # what the player read from the wrong column
    assert claimed != RULES.crt.result(truth.column, 6, truth.die_row)
    combat = attack("SOV-MR-XX-2-03", "3607", 6, claimed, odds="1/1")
    found = [(v.rule, v.severity) for v in RULES._check_claims(combat, state, ctx, state.units_at(H("3607"))) if v.severity != "illegal"]
    assert found == [("10.23", "mismatch")]
    combat = attack("SOV-MR-XX-2-03", "3607", 6, claimed, odds="3/1")  # no single cause: the general rule
    found = [(v.rule, v.severity) for v in RULES._check_claims(combat, state, ctx, state.units_at(H("3607"))) if v.severity != "illegal"]
    assert found[0] == ("9.0", "mismatch")
