"""China War rules, one legal and one illegal case per rule, and the rulebook's own worked examples."""

from __future__ import annotations

from china_war_support import MAP, MODULE, RULES, SRC, H, attack, move, phase, run, scenario_state, to_combat
from hypothesis import given
from hypothesis import strategies as st

from pbem.model.actions import Combat, Move, Phase, Turn, TurnHeader
from pbem.model.state import State, UnitState
from pbem.model.units import CounterType, Step, UnitDef
from pbem.rules.combat import round_odds


def cost(unit_class: str, a: str, b: str) -> int:
    return RULES.entry[unit_class][H(a)][H(b)]


# --- movement costs: the rulebook's own examples (10.21, 10.22, 10.71) ----------------------------------
def test_mechanized_into_forest_river_costs_four():
    assert MAP.terrain[H("3404")] == "forest" and RULES.river_hex[H("3404")]
    assert not MAP.has_road(H("3405"), H("3404"))
    assert cost("mechanized", "3405", "3404") == 4  # 3 forest + 1 river (10.71)


def test_non_mechanized_into_forest_river_costs_one():
    assert cost("non_mechanized", "3405", "3404") == 1


def test_road_and_populated_hexes_cost_one_but_mountain_keeps_its_cost():
    assert cost("mechanized", "3403", "3404") == 1  # forest+river along the road (10.21, 10.71)
    assert MAP.population[H("3303")] == 100 and MAP.terrain[H("3303")] == "forest"
    assert cost("mechanized", "3302", "3303") == 1  # forest pop-100 counts as a road hex (10.22)
    assert MAP.population[H("2509")] == 100 and MAP.terrain[H("2509")] == "mountain"
    assert cost("mechanized", "2609", "2509") == 3  # mountain pop-100 still 3 for mechanized (10.22)
    assert cost("non_mechanized", "2609", "2509") == 1


# --- movement rules --------------------------------------------------------------------------------------
def test_6_12_movement_allowance():
    assert run("soviet", [phase("movement"), move("SOV-TK-XX-1-02", "2604", "2605", "2606")]) == []
    assert run("soviet", [phase("movement"), move("SOV-TK-XX-1-02", "2604", "2605", "2606", "2607")]) == [("6.12", "illegal")]


def test_6_12_allowance_spans_several_moves_of_one_unit():
    legs = [move("SOV-TK-XX-1-02", "2604", "2605", "2606"), move("SOV-TK-XX-1-02", "2606", "2607")]
    assert run("soviet", [phase("movement"), *legs]) == [("6.12", "illegal")]


def test_6_14_minimum_move():
    state = scenario_state()
    # An unsupplied 1-3-2 has 1 MP; the mountain costs 2; a unit that has not moved may still enter one hex.
    assert run("chinese", [phase("movement"), move("PLA-INF-XX-2-01", "2708", "2608")], state) == []
    assert run("chinese", [phase("movement"), move("PLA-INF-XX-2-01", "2708", "2608", "2508")]) == [("6.23", "illegal")]


def test_6_23_out_of_supply_half_allowance():
    assert run("soviet", [phase("movement"), move("SOV-MR-XX-1-03", "3603", "3703", "3803", "3903", "4003")]) == []
    assert run("soviet", [phase("movement"), move("SOV-MR-XX-1-03", "3603", "3703", "3803", "3903", "4003", "4103")]) == [("6.23", "illegal")]


def test_6_22_no_entry_into_enemy_hex():
    assert run("soviet", [phase("movement"), move("SOV-MR-XX-1-02", "3104", "3204")]) == []
    assert run("soviet", [phase("movement"), move("SOV-MR-XX-1-02", "3104", "3105")]) == [("6.22", "illegal")]


def test_6_22_friendly_units_do_not_hinder():
    assert run("soviet", [phase("movement"), move("SOV-MR-XX-1-02", "3104", "3004", "2904")]) == []


def test_6_0_path_must_be_connected_and_start_at_the_unit():
    assert run("soviet", [phase("movement"), move("SOV-MR-XX-2-04", "2701", "2703")]) == [("6.0", "illegal")]
    assert run("soviet", [phase("movement"), move("SOV-MR-XX-2-04", "2702", "2703")]) == [("6.1", "illegal")]


def test_6_21_only_the_phasing_side_moves():
    assert run("soviet", [phase("movement"), move("PLA-INF-XX-1-01", "3005", "3006")]) == [("6.21", "illegal")]
    assert run("chinese", [phase("movement"), move("PLA-INF-XX-1-01", "3005", "3006")]) == []


def test_4_2_no_movement_in_the_combat_phase():
    assert run("soviet", [*to_combat(), move("SOV-MR-XX-1-02", "3104", "3204")]) == [("4.2", "illegal")]


def test_10_24_militia_blocks_entry_into_empty_enemy_city():
    assert run("soviet", [phase("movement"), move("SOV-MR-XX-2-03", "3604", "3605", "3606")]) == []
    assert run("soviet", [phase("movement"), move("SOV-MR-XX-2-03", "3604", "3605", "3606", "3607")]) == [("10.24", "illegal")]
    state = scenario_state()
    state.status["pacified"] = ["3607"]  # a pacified hex has no active militia (10.25)
    assert run("soviet", [phase("movement"), move("SOV-MR-XX-2-03", "3604", "3605", "3606", "3607")], state) == []


def test_reaction_limits():
    base = [phase("movement"), phase("reaction")]
    assert run("soviet", base + [move("PLA-INF-XX-1-02", "3107", "3108")]) == []  # 1st line, 1 MP
    assert run("soviet", base + [move("PLA-INF-XXX-2-01", "3105", "3205")]) == [("2.0", "illegal")]  # 2nd line
    assert run("soviet", base + [move("PLA-INF-XX-1-02", "3107", "3108", "3109")]) == [("2.0", "illegal")]  # 2 MP
    assert run("chinese", base + [move("SOV-MR-XX-1-02", "3104", "3204")]) == []  # mechanized, 2 MP
    assert run("chinese", base + [move("SOV-MR-XX-1-02", "3104", "3204", "3304")]) == [("2.0", "illegal")]


# --- stacking --------------------------------------------------------------------------------------------
def test_8_0_stacking_limits_by_terrain_and_corps_count_three():
    assert run("chinese", [phase("movement"), move("PLA-INF-XX-1-02", "3107", "3106"), phase("reaction")]) == [("8.0", "illegal")]
    assert run("chinese", [phase("movement"), move("PLA-INF-XX-1-02", "3107", "3108"), phase("reaction")]) == []


def test_8_0_passing_through_a_full_hex_is_legal():
    assert run("chinese", [phase("movement"), move("PLA-INF-XX-1-02", "3107", "3106", "3206"), phase("reaction")]) == []


def test_8_0_eliminating_the_excess_makes_it_legal():
    from pbem.model.actions import Eliminate

    cure = Eliminate(index=0, source=SRC, units=("PLA-INF-XX-1-02",), reason="stacking")
    assert run("chinese", [phase("movement"), move("PLA-INF-XX-1-02", "3107", "3106"), cure, phase("reaction")]) == []


def test_8_0_populated_hex_limit():
    assert RULES.stack_limit[H("3318")] == 20 and RULES.stack_limit[H("3010")] == 15
    assert RULES.stack_limit[H("3106")] == 3 and RULES.stack_limit[H("1515")] == 10


# --- odds and shifts ------------------------------------------------------------------------------------
@given(st.integers(1, 500), st.integers(1, 500))
def test_odds_always_rounded_for_the_defender(a, d):
    x, y = round_odds(a, d)
    assert 1 in (x, y)
    assert x / y <= a / d  # never better than the real ratio for the attacker


def test_odds_examples_from_the_rulebook():
    assert round_odds(29, 10) == (2, 1) and round_odds(10, 29) == (1, 3)


def test_9_0_worked_example():
    """45 attack + 25 nuclear points against a PLA 6-10-3 in a mountain hex with a river: 7-1, then 5-1."""
    state = State(MODULE, scenario=None, turn=1, side="soviet", phase="combat")
    example = CounterType("pla-6-10-3", "PLA 1st-line unit of the 9.0 example", "chinese", "PLA", "infantry", "XXX", 1, False, (Step(6, 10, 3),))
    tank = MODULE.counter_types["sov_tank_xx_1"]
    target = H("2908")
    assert MAP.terrain[target] == "mountain" and RULES.river_hex[target]
    units = [UnitState(UnitDef("PLA-EXAMPLE", example), side="chinese")]
    units += [UnitState(UnitDef(f"SOV-T{n}", tank), side="soviet") for n in range(8)]
    units[-1].step = 1  # seven 6-6-9 and one 3-3-9: 45 attack strength
    for unit in units:
        state.units[unit.id] = unit
    state.place("PLA-EXAMPLE", target)
    for unit in units[1:]:
        state.place(unit.id, H("2907"))
    combat = attack([u.id for u in units[1:]], "2908", 1, "-/-", support={"nuclear": 25})
    ctx = RULES.begin(state, Turn("t", TurnHeader(MODULE.id, None, 1, "soviet"), []))
    result = RULES.assess(combat, state, ctx)
    assert (result.attack, result.defence, result.odds) == (70, 10, (7, 1))
    right = sorted(n for n, k in result.shifts if k > 0)
    left = sorted(n for n, k in result.shifts if k < 0)
    assert right == ["chemical_vs_pla_first_line", "electronic_warfare", "soviet_first_line"]
    assert left == ["mountain_non_mech", "pla_first_line", "river"]
    assert result.net == -2 and result.column == "5/1"
    assert result.die_row == "C"  # mountain


def test_9_55_flank_attack_cancels_the_river_shift():
    state = scenario_state()
    combat = attack(["SOV-TK-XX-1-03", "SOV-MR-XX-2-01"], "3305", 5, "-/1")
    ctx = RULES.begin(state, Turn("t", TurnHeader(MODULE.id, None, 1, "soviet"), []))
    shifts = dict(RULES.assess(combat, state, ctx).shifts)
    assert shifts["flank_attack"] == 1 and "river" not in shifts
    one_side = RULES.assess(attack(["SOV-TK-XX-1-03"], "3305", 5, "-/1"), state, ctx)
    assert dict(one_side.shifts)["river"] == -2 and "flank_attack" not in dict(one_side.shifts)


def test_9_4_only_the_largest_quality_shift_per_side():
    state = scenario_state()
    state.place("PLA-INF-XXX-2-02", H("3204"))
    ctx = RULES.begin(state, Turn("t", TurnHeader(MODULE.id, None, 1, "chinese"), []))
    shifts = dict(RULES.assess(attack(["PLA-INF-XX-1-03", "PLA-INF-XXX-2-02"], "3304", 4, "1/-"), state, ctx).shifts)
    assert shifts["pla_first_line"] == 2 and "pla_second_line" not in shifts


def test_9_3_armour_reads_column_a_whatever_the_terrain():
    state = scenario_state()
    assert RULES._die_row(H("3106"), state.units_at(H("3106"))) == "B"  # infantry in forest
    assert RULES._die_row(H("3106"), state.units_at(H("3304"))) == "A"  # a tank division


# --- combat ----------------------------------------------------------------------------------------------
GOOD_ATTACK = dict(odds="2/1", column="1/1", losses_attacker=("SOV-MR-XX-1-01",), losses_defender=("PLA-INF-XX-1-01",))


def test_9_11_attacks_only_in_combat_and_adjacent():
    legal = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 4, "1/1", **GOOD_ATTACK)
    assert run("soviet", [*to_combat(), legal]) == []
    early = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 4, "1/1", **GOOD_ATTACK)
    assert run("soviet", [phase("movement"), early]) == [("6.24", "illegal")]  # no combat in the movement phase
    far = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-2-04"], "3005", 4, "1/1", odds="2/1", column="1/1",
                 losses_attacker=("SOV-MR-XX-2-04",), losses_defender=("PLA-INF-XX-1-01",))  # fmt: skip
    assert run("soviet", [*to_combat(), far]) == [("9.11", "illegal")]


def test_9_14_each_unit_attacks_and_is_attacked_once():
    first = attack("SOV-TK-XX-1-01", "3005", 6, "1/1", losses_attacker=("SOV-TK-XX-1-01",), losses_defender=("PLA-INF-XX-1-01",))
    again = attack("SOV-MR-XX-1-01", "3005", 5, "1/1", losses_attacker=("SOV-MR-XX-1-01",), losses_defender=("PLA-INF-XX-1-01",))
    assert run("soviet", [*to_combat(), first, again]) == [("9.14", "illegal")]
    other = attack("SOV-MR-XX-1-02", "3105", 6, "1/1", losses_attacker=("SOV-MR-XX-1-02",), losses_defender=("PLA-INF-XXX-2-01",))
    assert run("soviet", [*to_combat(), first, other]) == []


def test_9_21_all_units_in_the_hex_defend_together():
    state = scenario_state()
    state.place("PLA-INF-XX-1-02", H("3005"))
    partial = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 4, "-/-", defenders=("PLA-INF-XX-1-01",))
    found = run("soviet", [*to_combat(), partial], state)
    assert ("9.21", "illegal") in found


def test_9_0_wrong_odds_is_a_mismatch():
    wrong = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 4, "1/1", **{**GOOD_ATTACK, "odds": "3/1"})
    assert run("soviet", [*to_combat(), wrong]) == [("9.0", "mismatch")]


def test_9_6_wrong_result_and_impossible_roll_are_mismatches():
    wrong = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 4, "-/1", odds="2/1", losses_defender=("PLA-INF-XX-1-01",))
    assert run("soviet", [*to_combat(), wrong]) == [("9.6", "mismatch")]
    seven = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 7, "1/1", **GOOD_ATTACK)
    assert run("soviet", [*to_combat(), seven]) == [("9.6", "mismatch")]


def test_9_74_to_9_77_losses_follow_the_result():
    no_attacker_loss = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 4, "1/1", odds="2/1", losses_defender=("PLA-INF-XX-1-01",))
    assert run("soviet", [*to_combat(), no_attacker_loss]) == [("9.75", "illegal")]
    no_defender_loss = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 4, "1/1", odds="2/1", losses_attacker=("SOV-MR-XX-1-01",))
    assert run("soviet", [*to_combat(), no_defender_loss]) == [("9.76", "illegal")]
    retreat_instead = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 4, "1/1", odds="2/1", losses_attacker=("SOV-MR-XX-1-01",), retreats={"PLA-INF-XX-1-01": ["3006"]})
    assert run("soviet", [*to_combat(), retreat_instead]) == []
    wrong_unit = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 4, "1/1", odds="2/1", losses_attacker=("SOV-MR-XX-1-02",), losses_defender=("PLA-INF-XX-1-01",))
    assert ("9.75", "illegal") in run("soviet", [*to_combat(), wrong_unit])


def test_9_74_e_result_eliminates_everyone():
    state = scenario_state()
    state.units["PLA-INF-XX-1-01"].step = 1  # a reduced 1-2-2 in clear: 11 to 2 = 5/1, net -1 = 4/1
    combat = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 6, "-/E", odds="5/1", eliminated=("PLA-INF-XX-1-01",), advance=("SOV-TK-XX-1-01",))
    assert run("soviet", [*to_combat(), combat], state) == []
    state = scenario_state()
    state.units["PLA-INF-XX-1-01"].step = 1
    kept = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 6, "-/E", odds="5/1")
    assert run("soviet", [*to_combat(), kept], state) == [("9.74", "illegal")]


def test_9_8_units_that_may_not_retreat():
    base = dict(odds="2/1", support={"nuclear": 10})
    loss = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01", "SOV-MR-XX-1-02"], "3105", 4, "-/1", losses_defender=("PLA-INF-XXX-2-01",), **base)
    assert run("soviet", [*to_combat(), loss]) == []
    retreat = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01", "SOV-MR-XX-1-02"], "3105", 4, "-/1", retreats={"PLA-INF-XXX-2-01": ["3205"]}, **base)
    assert run("soviet", [*to_combat(), retreat]) == [("9.8", "illegal")]


def test_9_81_no_retreat_into_enemy_units():
    bad = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 4, "1/1", odds="2/1", losses_attacker=("SOV-MR-XX-1-01",), retreats={"PLA-INF-XX-1-01": ["3004"]})
    assert ("9.81", "illegal") in run("soviet", [*to_combat(), bad])


def test_9_91_advance_only_into_a_vacated_hex_and_9_92_no_second_attack():
    stays = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 4, "1/1", **GOOD_ATTACK, advance=("SOV-TK-XX-1-01",))
    assert run("soviet", [*to_combat(), stays]) == [("9.91", "illegal")]
    vacated = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 4, "1/1", odds="2/1", losses_attacker=("SOV-MR-XX-1-01",),
                     retreats={"PLA-INF-XX-1-01": ["3006"]}, advance=("SOV-TK-XX-1-01",))  # fmt: skip
    assert run("soviet", [*to_combat(), vacated]) == []
    again = attack("SOV-TK-XX-1-01", "3105", 6, "-/1", losses_defender=("PLA-INF-XXX-2-01",))
    assert ("9.92", "illegal") in run("soviet", [*to_combat(), vacated, again])


def test_9_54_mass_attack_is_for_pla_units_only():
    state = scenario_state()
    state.place("PLA-INF-XXX-2-02", H("3204"))
    ctx = RULES.begin(state, Turn("t", TurnHeader(MODULE.id, None, 1, "chinese"), []))
    mass = attack(["PLA-INF-XX-1-03", "PLA-INF-XXX-2-02"], "3304", 4, "1/-", declared=frozenset({"mass_attack"}))
    assert dict(RULES.assess(mass, state, ctx).shifts)["pla_mass_attack"] == 2


def test_5_13_units_of_an_ambiguous_nation_are_not_attacked():
    state = scenario_state()
    state.place("SOV-MR-XX-2-04", H("4415"))
    combat = attack("SOV-MR-XX-2-04", "4416", 1, "E/-", eliminated=("SOV-MR-XX-2-04",))
    assert ("5.13", "illegal") in run("soviet", [*to_combat(), combat], state)


def test_unchecked_actions_are_reported_not_passed():
    from pbem.model.actions import Roll

    roll = Roll(index=0, source=SRC, purpose="weather", dice="1d6", values=(4,))
    assert run("soviet", [phase("movement"), roll]) == [("-", "warning")]


# --- issue 3: sequence, politics, retreat details -----------------------------------------------------------------
def test_4_2_one_file_may_run_into_the_next_game_turn():
    from pbem.model.actions import Roll

    soviet = [phase("movement"), phase("reaction"), phase("combat")]
    chinese = [Phase(index=0, source=SRC, name="movement", side="chinese"), phase("reaction"), phase("combat")]
    roll = Roll(index=0, source=SRC, purpose="political", dice="2d6", values=(6, 6))
    state = scenario_state()
    assert run("soviet", soviet + chinese + [phase("political"), roll, phase("movement")], state) == []
    assert state.turn == 2
    # ... but not in the middle of one.
    assert run("soviet", soviet + [phase("political")]) == [("4.2", "illegal")]


def test_5_2_the_rulebooks_political_example():
    from pbem.model.actions import Roll

    state = scenario_state()
    roll = Roll(index=0, source=SRC, purpose="political", dice="2d6", values=(1, 4), modifiers={"soviet": 0, "chinese": 1}, result="G")
    assert run("soviet", [phase("political"), roll], state) == []
    assert state.status["political"]["NATO"] == "neutral" and state.status["nato_neutral_turn"] == 1
    assert RULES.tac_points(state) == 15  # 30 a turn only from turn 3 (5.11)
    state.turn = 3
    assert RULES.tac_points(state) == 30


def test_5_15_an_ally_takes_control_at_the_next_player_turn():
    from pbem.model.actions import Roll

    state = scenario_state()
    joins = Roll(index=0, source=SRC, purpose="political", dice="2d6", values=(5, 4), result="J")  # 5 against 4+1: North Korea joins the USSR
    soviet = [phase("political"), joins, *to_combat()]
    assert run("soviet", soviet, state) == []
    assert state.units["NK-INF-XXX-01"].side == "neutral" and state.status["pending_control"] == {"North Korea": "soviet"}
    assert run("chinese", [phase("movement")], state) == []
    assert state.units["NK-INF-XXX-01"].side == "soviet" and state.control == {"North Korea": "soviet"}


def test_5_14_a_neutral_nation_leaves_the_map():
    from pbem.model.actions import Roll

    state = scenario_state()
    neutral = Roll(index=0, source=SRC, purpose="political", dice="2d6", values=(5, 5), result="E")  # 5 against 5+1: North Korea declares neutrality
    assert run("soviet", [phase("political"), neutral], state) == []
    assert state.units["NK-INF-XXX-01"].box == "removed"
    assert run("soviet", [phase("movement"), move("SOV-MR-XX-2-05", "4512", "4513")], state) == [("5.14", "illegal")]


def test_9_85_a_unit_that_retreated_into_an_attacked_hex_is_eliminated():
    def situation() -> State:
        state = scenario_state()
        state.place("PLA-INF-XX-2-01", H("3006"))  # a 2nd-line division already holds the wood behind
        state.place("PLA-BDR-XX-3-01", H("2708"))
        # and a Soviet division stands in the hills beside both hexes, as near to 3006 as to 3005 (9.8)
        state.place("SOV-MR-XX-1-02", H("2906"))
        return state

    first = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 6, "-/1", retreats={"PLA-INF-XX-1-01": ["3006"]}, advance=("SOV-TK-XX-1-01",))
    survived = attack("SOV-MR-XX-1-02", "3006", 6, "-/1", losses_defender=("PLA-INF-XX-2-01",))
    found = [rule for rule, severity in run("soviet", [*to_combat(), first, survived], situation()) if severity == "illegal"]
    assert found == ["9.85"]
    eliminated = attack("SOV-MR-XX-1-02", "3006", 6, "-/1", losses_defender=("PLA-INF-XX-2-01",), eliminated=("PLA-INF-XX-1-01",))
    assert [r for r, s in run("soviet", [*to_combat(), first, eliminated], situation()) if s == "illegal"] == []


def test_9_8_a_retreat_goes_away_from_the_attackers():
    toward = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 6, "-/1", retreats={"PLA-INF-XX-1-01": ["2905"]})
    assert ("9.8", "illegal") in run("soviet", [*to_combat(), toward])
    away = attack(["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "3005", 6, "-/1", retreats={"PLA-INF-XX-1-01": ["3006"]})
    assert run("soviet", [*to_combat(), away]) == []


def test_one_step_unit_eliminated_by_a_loss_is_written_readably(tmp_path):
    from pbem.model.jsonsource import parse_json

    state = scenario_state()
    state.lose_step("PLA-BDR-XX-3-01")
    data = state.to_json()
    again = State.from_json(MODULE, parse_json(__import__("json").dumps(data), "s.json"))
    assert again.units["PLA-BDR-XX-3-01"].box == "eliminated"


def test_10_8_garrison_defends_the_railway():
    state = scenario_state()
    state.remove("SOV-MR-XX-2-04", "garrison")
    assert RULES.garrison_strength(H("2701"), state) == 1 and RULES.garrison_strength(H("3004"), state) == 0


def test_5_12_with_nato_at_war_only_one_4_4_9_on_turn_6():
    from pbem.model.actions import Reinforce

    def arrive(unit: str, hex_: str, turn: int) -> list:
        state = scenario_state()
        state.status["political"]["NATO"] = "allied_prc"
        state.units[unit].at, state.units[unit].box = -1, "reinforcements"
        state.stacks = {k: [u for u in v if u != unit] for k, v in state.stacks.items()}
        state.stacks = {k: v for k, v in state.stacks.items() if v}
        state.turn = turn
        turn_file = Turn("t.json", TurnHeader(MODULE.id, "border-war", turn, "soviet", "border-war"), [])
        ctx = RULES.begin(state, turn_file)
        ctx.phase, ctx.phase_side = "reinforcement", "soviet"
        return [(v.rule, v.severity) for v in RULES.check(Reinforce(index=0, source=SRC, units=(unit,), at=H(hex_)), state, ctx)]

    assert ("5.12", "illegal") not in arrive("SOV-MR-XX-2-04", "2701", 6)  # a 4-4-9 on turn 6 at 2701
    assert ("5.12", "illegal") in arrive("SOV-MR-XX-2-04", "2701", 5)
    assert ("5.12", "illegal") in arrive("SOV-TK-XX-1-02", "1301", 6)  # not a 4-4-9
    assert ("5.12", "illegal") in arrive("SOV-MR-XX-2-04", "3802", 6)


def test_10_8_a_reduced_division_comes_back_from_garrison_reduced():
    from pbem.model.actions import Reinforce, Remove

    state = scenario_state()
    state.units["SOV-MR-XX-2-04"].step = 1
    leave = Remove(index=0, source=SRC, units=("SOV-MR-XX-2-04",), to="garrison")
    back = Reinforce(index=0, source=SRC, units=("SOV-MR-XX-2-04",), at=H("3001"))
    assert run("soviet", [phase("movement"), leave, back], state) == []
    assert state.units["SOV-MR-XX-2-04"].at == H("3001") and state.units["SOV-MR-XX-2-04"].step == 1
