"""The independent checker's cases (/work/helpers/crusader-cases.md, written from the Chinese text by someone who
has not seen this code), encoded where the rules built so far reach. Each test names its case (C01...) and the
Chinese heading; where the case is AMBIG the module's option and the other reading are both tested."""

from __future__ import annotations

import sys

import pytest
from ww2_crusader_support import MODULE, H, attack, build_module, declare, illegal, move, phase, recruit, reinforce, replenish, run, state

from pbem.engine.rulesets import module_ruleset


def odds(a: int, d: int) -> tuple[int, int]:
    module_ruleset(MODULE)
    return sys.modules["pbem_module_ww2_crusader.combat"].crusader_odds(a, d)


# --- A. sequence, CP/RP -------------------------------------------------------------------------------------
def test_c01_no_return_to_the_first_move_segment():
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "GB-INF-1": "0404", "IT-INF-1": "0102"})
    found = run("axis", [phase("move_1"), phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 4, "D"),
                         phase("move_1"), move("IT-INF-1", "0202", "0302")], start)
    assert "W-§1" in illegal(found)


def test_c02_an_unmoved_unit_moves_in_the_second_move_with_one_mp_less():
    start = state({"IT-INF-1": "0102"})
    assert illegal(run("axis", [phase("move_1"), phase("attack_1"), phase("recovery"), phase("move_2"), move("IT-INF-1", "0202", "0302")], start)) == set()


@pytest.mark.parametrize("rp, ok", [(3, False), (4, True), (40, True)])
def test_c08_recruiting_within_the_rp(rp, ok):
    start = state({}, status={"rp": {"axis": rp}})
    assert (illegal(run("axis", [phase("reinforcement_declaration"), recruit("IT-INF-1")], start)) == set()) is ok
    if ok:
        assert start.status["rp"]["axis"] == rp - 4


# --- B. stacking --------------------------------------------------------------------------------------------
def test_c11_town_limits_without_road_bonus():
    five = state({f"IT-INF-{n}": "0303" for n in (1, 2, 3, 4)} | {"IT-INF-5": "0203"})
    assert illegal(run("axis", [phase("move_1"), move("IT-INF-5", "0303")], five)) == {"W-Stack/1"}
    two_armoured = state({"IT-INF-1": "0303", "PZ-1": "0303", "PZ-2": "0203"})
    assert illegal(run("axis", [phase("move_1"), move("PZ-2", "0303")], two_armoured)) == {"W-Stack/1"}
    four = state({"IT-INF-1": "0303", "IT-INF-2": "0303", "PZ-1": "0303", "IT-INF-3": "0203"})
    assert illegal(run("axis", [phase("move_1"), move("IT-INF-3", "0303")], four)) == set()


def test_c12_mountain_with_a_road_holds_three_with_two_armoured():
    start = state({"PZ-1": "0305", "IT-INF-1": "0305", "PZ-2": "0306"})
    assert illegal(run("axis", [phase("move_1"), move("PZ-2", "0305")], start)) == set()
    forest = state({"PZ-1": "0204", "IT-INF-1": "0204", "PZ-2": "0203"})  # same limits (2, 1 armoured), no road
    assert illegal(run("axis", [phase("move_1"), move("PZ-2", "0204")], forest)) == {"W-Stack/1"}


def test_c13_passing_through_a_full_hex_is_legal_stopping_there_is_not():
    full = {"IT-INF-1": "0505", "IT-INF-2": "0505", "IT-INF-3": "0505"}
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0504", "0505", "0506")], state(full | {"PZ-1": "0403"}))) == set()
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0504", "0505")], state(full | {"PZ-1": "0403"}))) == {"W-Stack/1"}


def test_c14_overstack_cleared_later_in_the_segment_both_readings():
    full = {"IT-INF-1": "0505", "IT-INF-2": "0505", "IT-INF-3": "0505", "PZ-1": "0504"}
    actions = lambda: [phase("move_1"), move("PZ-1", "0505"), move("IT-INF-1", "0506"), phase("attack_1")]
    assert illegal(run("axis", actions(), state(full))) == {"W-Stack/1"}  # default: each move ends within the limit
    lenient = state(full)
    lenient.options = {"stacking_checked": "end_of_segment"}
    assert illegal(run("axis", actions(), lenient)) == set()


# --- C. stamina, disorder, rounds, extra MP -----------------------------------------------------------------
def test_c17_a_first_round_mover_may_not_attack_in_the_second_attack():
    start = state({"PZ-1": "0503", "GB-INF-1": "0404"})
    found = run("axis", [phase("move_1"), move("PZ-1", "0403"), phase("attack_1"), phase("recovery"), phase("move_2"), phase("attack_2"),
                         declare(["PZ-1"], "0404")], start)
    assert illegal(found) == {"W-Round/1"}
    start = state({"PZ-1": "0503", "GB-INF-1": "0404"})
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0403"), phase("attack_1"), declare(["PZ-1"], "0404")], start)) == set()


@pytest.mark.parametrize("hexes, extra, ok", [(3, False, False), (2, False, True), (3, True, True)])
def test_c18_second_move_penalty(hexes, extra, ok):
    path = ("0202", "0302", "0402")[:hexes]
    start = state({"IT-INF-1": "0102"})  # base MP 3, extra MP 1 (assumed)
    found = run("axis", [phase("move_2"), move("IT-INF-1", *path, declare=["extra_mp"] if extra else [])], start)
    assert (illegal(found) == set()) is ok


def test_c19_a_finished_unit_may_not_move_again_in_the_segment():
    start = state({"PZ-1": "0102", "PZ-2": "0103"})
    found = run("axis", [phase("move_1"), move("PZ-1", "0202"), move("PZ-2", "0203"), move("PZ-1", "0302")], start)
    assert illegal(found) == {"W-Move/1"}


@pytest.mark.parametrize("enemies, friend, ok", [
    ({"GB-INF-1": ("0404", 1)}, False, True),                           # (a) one ② unit: weak ZOC
    ({"GB-INF-1": ("0404", 1), "GB-INF-2": ("0204", 1)}, False, False),  # (b) two ② units: strong ZOC
    ({"GB-INF-1": ("0404", 2)}, False, True),                           # (d) a ① unit projects none
    ({"GB-INF-1": "0404"}, True, True),                                 # (e) strong ZOC with a friendly unit in it
])
def test_c22_extra_mp_into_weak_and_overlapped_weak_zoc(enemies, friend, ok):
    units = {"PZ-1": "0303"} | enemies | ({"IT-INF-1": "0304"} if friend else {})
    found = run("axis", [phase("move_1"), move("PZ-1", "0304", declare=["extra_mp"])], state(units))
    assert (illegal(found) == set()) is ok


def test_c22c_a_disordered_enemy_projects_no_zoc():
    start = state({"PZ-1": "0303", "GB-INF-1": ("0404", 1), "GB-INF-2": ("0204", 1)}, status={"stamina": {"GB-INF-2": 0}})
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0304", declare=["extra_mp"])], start)) == set()


def test_c24_extra_mp_with_stamina_one_leaves_the_unit_disordered():
    start = state({"PZ-1": "0102", "GB-INF-1": "0404"}, status={"stamina": {"PZ-1": 1}})
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0202", declare=["extra_mp"])], start)) == set()
    assert start.units["PZ-1"].tallies["stamina"] == 0 and module_ruleset(MODULE).disordered(start, start.units["PZ-1"])


def test_c25_a_replenished_unit_attacks_only_in_the_second_round():
    def attack_in(segment):
        start = state({"PZ-1": ("0403", 1), "GB-INF-1": "0404"}, status={"rp": {"axis": 5}})
        return illegal(run("axis", [phase("reinforcement_entry"), replenish("PZ-1"), phase(segment), declare(["PZ-1"], "0404")], start))
    assert attack_in("attack_1") == {"W-Round/4"}
    assert attack_in("attack_2") == set()


def test_c26_a_unit_placed_this_turn_moves_only_in_the_second_round():
    def move_in(segment):
        start = state({})
        start.units["IT-INF-1"].box = "waiting_zone_1"
        return illegal(run("axis", [phase("reinforcement_entry"), reinforce(["IT-INF-1"], "0103"), phase(segment), move("IT-INF-1", "0203")], start))
    assert move_in("move_1") == {"W-Round/4"}
    assert move_in("move_2") == set()


# --- E. declaration ----------------------------------------------------------------------------------------
def test_c33_resolution_in_any_order_after_one_allocation():
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "GB-INF-1": "0404", "PZ-3": "0102", "GB-INF-2": ("0202", 2)})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), declare(["PZ-3"], "0202"),
                         attack(["PZ-3"], "0202", 6, "AD"), attack(["PZ-1", "PZ-2"], "0404", 4, "D")], start)
    assert illegal(found) == set()


def test_c34_one_unit_against_two_hexes_is_not_refused():
    start = state({"PZ-1": "0403", "GB-INF-1": "0404", "GB-INF-2": "0503"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), declare(["PZ-1"], "0503")], start)
    assert illegal(found) == set() and ("W-Cbt/5", "warning") not in found  # one-vs-many (以一对多): checked, see test_ww2_crusader_combat.py


def test_c35_the_pin_must_be_in_the_same_allocation():
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "GB-INF-1": "0404", "GB-INF-2": "0503", "IT-INF-1": "0603"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 4, "D"),
                         phase("recovery"), phase("move_2"), phase("attack_2"), declare(["IT-INF-1"], "0503")], start)
    assert "W-Cbt/4" in illegal(found)


def test_c38_a_disordered_unit_may_not_join_an_attack():
    start = state({"PZ-1": "0403", "PZ-2": "0403", "GB-INF-1": "0404"}, status={"stamina": {"PZ-2": 0}})
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404")], start)) == {"W-Cbt/2"}


def test_c39_the_whole_hex_defends():
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404", "GB-ARM-1": ("0404", 1)})  # 12 against 5 + 3
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 4, "D", odds="3/1")], start)
    assert illegal(found) == {"W-Res/2"}  # 12:8 is 2:1, not the 3:1 of the infantry alone


def test_c86_a_unit_attacks_once_however_many_targets():
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404", "GB-INF-2": "0503"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), declare(["PZ-1"], "0503")], start)
    assert "W-Round/3" in illegal(found)


# --- F. odds -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("a, d, expected", [(8, 5, (2, 1)), (7, 2, (4, 1)), (5, 8, (1, 1)), (4, 9, (1, 2)), (10, 10, (1, 1)),
                                            (2, 13, (1, 5)), (3, 16, (1, 5)), (1, 40, (1, 5))])
def test_c41_c42_odds(a, d, expected):
    assert odds(a, d) == expected


# --- G. shifts ---------------------------------------------------------------------------------------------
def test_c44_any_disordered_defender_shifts_right():
    units = {"PZ-1": "0403", "GB-INF-1": ("0404", 2), "GB-ARM-1": ("0404", 2)}  # 6 against 3 + 2: 2:1
    found = run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 4, "D", column="3/1")], state(units, status={"stamina": {"GB-ARM-1": 0}}))
    assert illegal(found) == set()
    found = run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 4, "D", column="2/1")], state(units))
    assert illegal(found) == set()
    found = run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 4, "D", column="2/1")], state(units, status={"stamina": {"GB-ARM-1": 0}}))
    assert illegal(found) == {"W-Mod/1"}


@pytest.mark.parametrize("oos, column, result", [(("GB-ARM-1",), "2/1", "D"), (("PZ-1",), "1/2", "AD"), (("PZ-1", "GB-ARM-1"), "1/1", "D"), ((), "1/1", "D")])
def test_c45_supply_shift_against_the_cut_off_side(oos, column, result):
    start = state({"PZ-1": ("0403", 1), "GB-ARM-1": "0404"})  # 4 against 4
    for unit_id in oos:
        start.units[unit_id].supplied = False
    found = run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 3, result, column=column)], start)
    assert illegal(found) == set()


@pytest.mark.parametrize("roll, column, result, retreat", [(2, "3/1", "D1", ["0505"]), (5, "1/1", "AD", [])])
def test_c50_assault_moves_the_column_with_the_die(roll, column, result, retreat):
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "GB-INF-1": "0404"})  # 8 against 5: 2:1
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", roll, result, column=column, declared=["assault"], retreats={"GB-INF-1": retreat})], start)
    assert illegal(found) == set()


def test_c51_halfaya_pass_adds_one_to_each_defending_unit():
    # 在这两格中的部队防御力+1: each unit. 13 against ① 3+1 and 2+1 = 7 is 2:1; a +1 for the hex (13:6) would be 3:1
    units = {"PZ-1": "0404", "PZ-2": "0304", "IT-INF-1": ("0306", 2), "GB-INF-1": ("0305", 2), "GB-ARM-1": ("0305", 2)}
    attackers = ["PZ-1", "PZ-2", "IT-INF-1"]
    found = run("axis", [phase("attack_1"), declare(attackers, "0305"), attack(attackers, "0305", 2, "D", odds="2/1", column="1/2")], state(units))
    assert illegal(found) == set()  # 2:1, two columns left for the mountain (supplied): 1:2
    found = run("axis", [phase("attack_1"), declare(attackers, "0305"), attack(attackers, "0305", 2, "D", odds="3/1", column="1/1")], state(units))
    assert illegal(found) == {"W-Res/2", "W-Mod/1"}  # the per-hex reading's figures are refused


# --- H. results ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("roll, result, attacker_after, defender_after", [(5, "AD", 0, 2), (2, "D", 2, 0)])
def test_c52_stamina_after_ad_and_d(roll, result, attacker_after, defender_after):
    start = state({"IT-INF-1": "0403", "GB-INF-1": ("0404", 2)})  # 3 against 3: 1:1; stamina 3 and 3
    found = run("axis", [phase("attack_1"), declare(["IT-INF-1"], "0404"), attack(["IT-INF-1"], "0404", roll, result)], start)
    assert illegal(found) == set()
    assert (start.units["IT-INF-1"].tallies["stamina"], start.units["GB-INF-1"].tallies["stamina"]) == (attacker_after, defender_after)


def test_c53_d2_retreating_one_hex_when_two_are_open_is_illegal():
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404"})  # 12 against 5: 3:1, a 1 is D2
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 1, "D2", retreats={"GB-INF-1": ["0505"]})], start)
    assert illegal(found) == {"W-CRT/1"}
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 1, "D2", retreats={"GB-INF-1": ["0505", "0506"]})], start)
    assert illegal(found) == set()


def surrounded():
    # attackers in 0403, 0304 and 0505: 0504, 0305 and 0405 touch them, 0505 is theirs: no retreat
    return state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "IT-INF-1": "0505", "GB-INF-1": "0404"})  # 11 against 5: 3:1, cut off: 4:1


def test_c54_no_retreat_d1_becomes_d_and_stays():
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2", "IT-INF-1"], "0404"), attack(["PZ-1", "PZ-2", "IT-INF-1"], "0404", 4, "D1")], surrounded())
    assert illegal(found) == set()


def test_c54_no_retreat_d2_becomes_de():
    acts = lambda **kw: [phase("attack_1"), declare(["PZ-1", "PZ-2", "IT-INF-1"], "0404"), attack(["PZ-1", "PZ-2", "IT-INF-1"], "0404", 2, "D2", **kw)]
    assert illegal(run("axis", acts(), surrounded())) == {"W-CRT/2"}
    assert illegal(run("axis", acts(losses_defender=("GB-INF-1",)), surrounded())) == set()


# --- I. retreats ---------------------------------------------------------------------------------------------
def test_c59_not_into_a_friendly_hex_next_to_an_attacker():
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "GB-INF-1": "0404", "GB-INF-2": "0504", "IT-INF-1": "0503"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), declare(["IT-INF-1"], "0504"),
                         attack(["IT-INF-1"], "0504", 6, "AD"), attack(["PZ-1", "PZ-2"], "0404", 1, "D1", retreats={"GB-INF-1": ["0504"]})], start)
    assert illegal(found) == {"W-Retreat/1"}


def c60(option=None):
    start = state({"PZ-1": "0403", "PZ-2": "0403", "GB-INF-1": "0404", "GB-INF-2": "0504", "IT-INF-1": "0503"})
    if option:
        start.options = {"retreat_adjacent": option}
    return run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), declare(["IT-INF-1"], "0504"),
                        attack(["IT-INF-1"], "0504", 6, "AD"),  # 3 against 5: 1:1, a 6 is AD: 0504 holds
                        attack(["PZ-1", "PZ-2"], "0404", 1, "D2", retreats={"GB-INF-1": ["0504", "0604"]})], start)


def test_c60_passing_a_hex_next_to_an_attacker_both_readings():
    assert illegal(c60()) == set()  # reading 1 (不能撤退到: the end hex), the module's default
    assert illegal(c60("every_hex")) == {"W-Retreat/1"}


def test_c61_not_through_an_empty_enemy_zoc():
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404", "IT-INF-1": ("0606", 1)})  # ② Italians: weak ZOC in 0505...
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 1, "D2", retreats={"GB-INF-1": ["0505", "0506"]})], start)
    assert illegal(found) == {"W-Retreat/1"}
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404", "IT-INF-1": ("0606", 1), "GB-INF-2": "0505"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 1, "D2", retreats={"GB-INF-1": ["0505", "0405"]})], start)
    assert illegal(found) == set()


def test_c62_not_through_a_declared_unresolved_battle_hex():
    start = state({"PZ-1": "0403", "PZ-2": "0403", "GB-INF-1": "0404", "GB-INF-2": "0504", "IT-INF-1": "0503"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), declare(["IT-INF-1"], "0504"),
                         attack(["PZ-1", "PZ-2"], "0404", 1, "D2", retreats={"GB-INF-1": ["0504", "0604"]})], start)
    assert "W-Retreat/1" in illegal(found)


def test_c63_an_overstacking_retreat_is_no_retreat():
    full = {f"GB-INF-{n}": "0505" for n in (2, 3, 4)} | {f"GB-ARM-{n}": "0405" for n in (1, 2)} | {"GB-INF-5": "0405"}
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "GB-INF-1": "0404"} | full)
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 1, "D1")], start)
    assert illegal(found) == set()


# --- L. replenishment -----------------------------------------------------------------------------------------
def test_c77_replenishment_limits():
    start = state({"IT-INF-1": ("0103", 2)}, status={"rp": {"axis": 10}})
    assert illegal(run("axis", [phase("reinforcement_entry"), replenish("IT-INF-1")], start)) == set()
    start = state({"IT-INF-1": ("0103", 2)}, status={"rp": {"axis": 10}})
    assert illegal(run("axis", [phase("reinforcement_entry"), replenish("IT-INF-1"), replenish("IT-INF-1")], start)) == {"W-Repl/1"}
    start = state({}, status={"rp": {"axis": 10}})
    start.units["IT-INF-2"].box, start.units["IT-INF-2"].step = "waiting_zone_1", 1
    assert illegal(run("axis", [phase("reinforcement_entry"), reinforce(["IT-INF-2"], "0103"), replenish("IT-INF-2")], start)) == {"W-Repl/1"}


# --- A. resource phase (C07, C85) --------------------------------------------------------------------------------
def rp_roll(side, values, result):
    from ww2_crusader_support import SRC

    from pbem.model.actions import Roll

    return Roll(index=0, source=SRC, purpose="rp", dice=f"{len(values)}d6", values=tuple(values), side=side, result=result)


@pytest.mark.parametrize("side, values, result, ok", [
    ("axis", (5, 2), "2", True), ("axis", (5, 2), "5", False), ("axis", (5,), "5", False),   # Crusader Axis: lower of 2d6
    ("allied", (5,), "5", True), ("allied", (5, 2), "2", False),                              # the British roll normally
])
def test_c07_crusader_rp_rolls(side, values, result, ok):
    start = state({}, status={"rp": {"axis": 0, "allied": 0}, "cp": {"axis": 4, "allied": 4}})
    assert (illegal(run(side, [phase("resource"), rp_roll(side, values, result)], start)) == set()) is ok
    if ok:
        assert start.status["rp"][side] == int(result) and start.status["cp"][side] == 6  # C85: +2 CP


def test_rp_is_rolled_once_a_turn_and_only_in_the_resource_phase():
    start = state({}, status={"rp": {"axis": 0}})
    assert illegal(run("axis", [phase("resource"), rp_roll("allied", (3,), "3"), rp_roll("allied", (6,), "6")], start)) == {"W-§1"}
    assert start.status["rp"]["allied"] == 3
    assert illegal(run("axis", [phase("move_1"), rp_roll("allied", (3,), "3")], state({}))) == {"W-§1"}


# --- D. supply (C27-C32) and recovery (C16) --------------------------------------------------------------------
def supply_of(start, unit_id):
    return module_ruleset(MODULE).supply(start, start.units[unit_id])


def test_c29_a_line_of_any_length_along_a_clean_road_is_full_supply():
    assert supply_of(state({"PZ-1": "0503"}), "PZ-1") == "full"


def test_c30_a_unit_off_the_road_is_in_limited_supply():
    assert supply_of(state({"IT-INF-1": "0402"}), "IT-INF-1") == "limited"  # reading 1: 始终沿着交通线, from its own hex


def test_c31_an_enemy_held_town_blocks_the_line_and_a_friendly_held_one_does_not():
    # 敌军单位、城镇或据点所在格: the road 0103-0503 runs through the town 0303, held here with no unit in it
    assert supply_of(state({"PZ-1": "0503"}, status={"held": {"0303": "axis"}}), "PZ-1") == "full"
    assert supply_of(state({"PZ-1": "0503"}, status={"held": {"0303": "allied"}}), "PZ-1") == "limited"  # round it, off the road


def test_c28_a_friendly_held_strong_zoc_passes_supply_but_cuts_the_road():
    start = state({"PZ-1": "0503", "IT-INF-1": "0303", "GB-INF-1": "0302"})  # ③: strong ZOC on the town 0303
    assert supply_of(start, "PZ-1") == "limited"
    start = state({"PZ-1": "0503", "IT-INF-1": "0303", "GB-INF-1": ("0302", 1)})  # ②: weak, and a friend holds it
    assert supply_of(start, "PZ-1") == "full"


def test_a_surrounded_unit_is_out_of_supply():
    assert supply_of(surrounded(), "GB-INF-1") == "none"


def test_c32_an_out_of_supply_defender_loses_one_more_stamina():
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "IT-INF-1": "0505", "GB-ARM-1": "0404"})  # 11 against 4: 3:1, cut off: 4:1
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2", "IT-INF-1"], "0404"), attack(["PZ-1", "PZ-2", "IT-INF-1"], "0404", 4, "D1")], start)
    assert illegal(found) == set()
    assert start.units["GB-ARM-1"].tallies["stamina"] == 0  # 4 − 2 (D) − 1 (combat) − 1 (out of supply): disordered


@pytest.mark.parametrize("where, supplied, ok", [("0103", True, True), ("0402", True, True), ("0103", False, False)])
def test_c16_recovery_then_the_second_move(where, supplied, ok):
    start = state({"IT-INF-1": where}, status={"stamina": {"IT-INF-1": 0}})
    start.units["IT-INF-1"].supplied = supplied
    found = run("axis", [phase("move_1"), phase("attack_1"), phase("recovery"), phase("move_2"), move("IT-INF-1", "0202" if where == "0103" else "0502")], start)
    assert (illegal(found) == set()) is ok
    assert start.units["IT-INF-1"].tallies["stamina"] == ({"0103": 2, "0402": 1}[where] if supplied else 0)  # full +2, limited +1


def test_recovery_never_goes_past_the_cards_stamina():
    start = state({"IT-INF-1": "0103"}, status={"stamina": {"IT-INF-1": 2}})
    run("axis", [phase("recovery")], start)
    assert start.units["IT-INF-1"].tallies["stamina"] == 3  # the card's 3 (assumed) is the most


# --- L. duplicate identity (C78), on the real counters ---------------------------------------------------------------


def real_state(on_map: dict[str, str]):
    from pbem.model.module import load_module
    from pbem.model.state import State, UnitState

    module = load_module("ww2-crusader")
    start = State(module, scenario=None, turn=2, side="axis", phase=None)
    for unit_id, unit_def in module.units.items():
        start.units[unit_id] = UnitState(unit=unit_def, side=unit_def.type.side, box="pool")
    for unit_id, where in on_map.items():
        start.place(unit_id, module.map.index(where))
    start.status = {"rp": {"axis": 50, "allied": 50}}
    return module, start


@pytest.mark.parametrize("on_map, recruit_id, ok", [
    ("DE-21PZ-1941", "DE-5LEI-1941", False),   # one formation through the reorganisation chain
    ("DE-21PZ-1941", "DE-21PZ-1944", False),   # the same designation and side
    ("DE-5LEI-1941", "DE-21PZ-1944", True),    # different formations
])
def test_c78_duplicate_identity(on_map, recruit_id, ok):
    module, start = real_state({on_map: "0102"})
    found = run("axis", [phase("reinforcement_declaration"), recruit(recruit_id)], start, module=module)
    assert (illegal(found) == set()) is ok
    if not ok:
        assert illegal(found) == {"W-Unit/1"}


# --- L. placement (C76) and the Crusader replenishment places (C81) ------------------------------------------------
def place(where, extra_units=None):
    start = state(extra_units or {})
    start.units["IT-INF-1"].box = "waiting_zone_1"
    found = run("axis", [phase("reinforcement_entry"), reinforce(["IT-INF-1"], where)], start)
    return illegal(found), start


def test_c76_placement_on_a_reinforcement_area_at_state_two():
    found, start = place("0303")  # a town linked to the source 0103 by the railway
    assert found == set() and start.units["IT-INF-1"].step == 1  # ② of three rows
    assert place("0103")[0] == set()  # the supply source itself
    assert place("0203")[0] == {"W-Reinf/3"}  # neither a source nor a town


def test_c76_a_railway_cut_by_an_empty_weak_zoc_closes_the_town():
    assert place("0303", {"GB-INF-1": ("0204", 1)})[0] == {"W-Reinf/3"}  # ② British in 0204: weak ZOC on the rail hex 0203
    assert place("0303", {"GB-INF-1": ("0204", 1), "IT-INF-2": "0203"})[0] == set()  # a friendly unit there: not cut


@pytest.mark.parametrize("unit_id, where, ok", [("UK-70-DIV", "1505", False), ("UK-70-DIV", "0703", True), ("IT-27-BRESCIA", "0503", True)])
def test_c81_crusader_replenishment_places(unit_id, where, ok):
    module, start = real_state({unit_id: where})
    start.units[unit_id].step = 1
    side = start.units[unit_id].side
    found = run(side, [phase("reinforcement_entry"), replenish(unit_id)], start, module=module)
    assert (illegal(found) == set()) is ok


def test_c81_the_axis_does_not_replenish_out_of_supply():
    module, start = real_state({"IT-27-BRESCIA": "0503"})
    start.units["IT-27-BRESCIA"].step, start.units["IT-27-BRESCIA"].supplied = 1, False
    assert illegal(run("axis", [phase("reinforcement_entry"), replenish("IT-27-BRESCIA")], start, module=module)) == {"W-Repl/1"}


# --- J. tactical and second advance (C65-C68) ------------------------------------------------------------------------
def advance_case(advance: dict, retreat=("0505", "0506"), result="D2", roll=1, units=None, attackers=None):
    start = state(units or {"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404"})  # 12 against 5: 3:1, a 1 is D2
    attackers = attackers or [u for u in (units or {"PZ-1": 0, "PZ-2": 0}) if not u.startswith("GB")]
    fields = {"retreats": {"GB-INF-1": list(retreat)}} if retreat else {}
    combat = attack(attackers, "0404", roll, result, **fields)
    combat.advance = tuple(advance)
    combat.advance_paths = {u: tuple(H(h) for h in path) for u, path in advance.items()}
    return illegal(run("axis", [phase("attack_1"), declare(attackers, "0404"), combat], start))


def test_c65_advance_only_when_the_hex_is_cleared():
    assert advance_case({"PZ-1": ["0404"]}) == set()
    assert advance_case({"PZ-1": ["0404"]}, retreat=(), result="D", roll=4) == {"W-Adv/1"}


def test_c66_second_hex_for_mechanised_units_leaving_enough_behind():
    assert advance_case({"PZ-1": ["0404"], "PZ-2": ["0404", "0505"]}) == set()  # 6 left against the 5 defence
    assert advance_case({"PZ-1": ["0404", "0504"], "PZ-2": ["0404", "0505"]}) == {"W-Adv/2"}  # nothing left behind


def test_c67_no_second_hex_across_a_river_or_into_rough_terrain():
    assert advance_case({"PZ-1": ["0404"], "PZ-2": ["0404", "0405"]}) == {"W-Adv/2"}  # the river 0404-0405
    assert advance_case({"PZ-1": ["0404"], "PZ-2": ["0404", "0305"]}) == {"W-Adv/2"}  # mountain


def test_c68_infantry_never_advances_a_second_hex():
    units = {"PZ-1": "0403", "IT-INF-1": "0304", "PZ-2": "0304", "GB-INF-1": "0404"}  # 15 against 5: 3:1
    assert advance_case({"PZ-1": ["0404"], "IT-INF-1": ["0404", "0505"]}, units=units) == {"W-Adv/2"}


def test_a_second_hex_after_a_one_hex_retreat_is_illegal():
    assert advance_case({"PZ-1": ["0404"], "PZ-2": ["0404", "0504"]}, retreat=("0505",), result="D1", roll=2) == {"W-Adv/2"}


# --- K. dig-ins and formations with facings (C40, C47, C48, C79, C80) --------------------------------------------------
def special(order, units, at):
    from ww2_crusader_support import SRC

    from pbem.model.actions import Special

    return Special(index=0, source=SRC, order=order, units=tuple(units), at=H(at))


@pytest.mark.parametrize("units, stamina, ok", [
    ({"GB-INF-1": "0404"}, {}, True),                                   # (a) ③ alone
    ({"GB-INF-1": ("0404", 1)}, {}, False),                             # (b) ② alone
    ({"GB-INF-1": ("0404", 1), "GB-INF-2": ("0404", 2)}, {}, True),     # (c) ② and ①: the ② forms a ZOC
    ({"GB-INF-1": ("0404", 2), "GB-INF-2": ("0404", 2)}, {}, False),    # (d) two ①
    ({"GB-INF-1": "0404"}, {"GB-INF-1": 0}, False),                     # (f) disordered
    ({"GB-ARM-1": "0404"}, {}, False),                                  # not infantry
])
def test_c79_dig_in_eligibility(units, stamina, ok):
    start = state(units, status={"stamina": stamina})
    found = run("allied", [phase("turn_start"), special("dig_in", list(units), "0403")], start)
    assert (illegal(found) == set()) is ok
    if ok:
        assert all("dug_in" in start.units[u].markers and start.units[u].facing is not None for u in units)


def test_c79g_dig_in_only_at_turn_start():
    assert illegal(run("allied", [phase("move_2"), special("dig_in", ["GB-INF-1"], "0403")], state({"GB-INF-1": "0404"}))) == {"W-Dig/1"}


def dug_in_defender(attackers: dict):
    start = state(attackers | {"GB-INF-1": "0404"})  # dig in facing 0403: front 0403 and its two neighbours, rear the rest
    run("allied", [phase("turn_start"), special("dig_in", ["GB-INF-1"], "0403")], start)
    return start


@pytest.mark.parametrize("attackers, column", [
    ({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1)}, "1/1"),   # (a) all through front faces: one column to the defender
    ({"PZ-1": ("0403", 1), "PZ-2": ("0505", 1)}, "3/1"),   # (b) front and rear: the rear, best for the attacker
])
def test_c47_dig_in_facing_shift(attackers, column):
    rules = module_ruleset(MODULE)
    start = dug_in_defender(attackers)
    assert rules.face_of(start.units["GB-INF-1"], H("0304")) == "front" and rules.face_of(start.units["GB-INF-1"], H("0505")) == "rear"
    found = run("axis", [phase("attack_1"), declare(list(attackers), "0404"), attack(list(attackers), "0404", 4, {"1/1": "DeX", "3/1": "D"}[column], column=column,
                **({"losses_attacker": tuple(attackers), "losses_defender": ("GB-INF-1",)} if column == "1/1" else {}))], start)
    assert illegal(found) == set()


def test_a_dug_in_unit_that_attacks_loses_its_position():
    start = state({"GB-INF-1": "0404", "PZ-1": ("0403", 2)})
    found = run("allied", [phase("turn_start"), special("dig_in", ["GB-INF-1"], "0403"), phase("move_1", "allied"), phase("attack_1", "allied"),
                           declare(["GB-INF-1"], "0403"), attack(["GB-INF-1"], "0403", 6, "AD")], start)
    assert illegal(found) == set() and "dug_in" not in start.units["GB-INF-1"].markers


@pytest.mark.parametrize("unit, where, ok, option", [
    ("PZ-1", "0404", True, None), ("PZ-1", "0303", False, None), ("IT-INF-1", "0404", False, None),
    ("PZ-1", ("0404", 1), True, None),  # ② : 一般是编制等级为③ says which units generally have it, not a condition
    ("PZ-1", ("0404", 1), False, "3"),  # the strict reading, as an option
])
def test_c80_formation_eligibility(unit, where, ok, option):
    start = state({unit: where})
    if option:
        start.options = {"formation_state": option}
    found = run("axis", [phase("turn_start"), special("formation", [unit], "0405")], start) if where != "0303" else \
        run("axis", [phase("turn_start"), special("formation", [unit], "0403")], start)
    assert (illegal(found) == set()) is ok


def test_c80d_a_formation_dissolves_entering_a_town():
    start = state({"PZ-1": "0403"})
    run("axis", [phase("turn_start"), special("formation", ["PZ-1"], "0404"), phase("move_1"), move("PZ-1", "0303")], start)
    assert "panzerkeil" not in start.units["PZ-1"].markers


def test_c80f_a_formation_turns_only_as_it_moves():
    start = state({"PZ-1": "0403"})
    assert illegal(run("axis", [phase("turn_start"), special("formation", ["PZ-1"], "0404"), phase("move_1"), special("face", ["PZ-1"], "0503")], start)) == {"W-Form/3"}
    start = state({"PZ-1": "0403"})
    assert illegal(run("axis", [phase("turn_start"), special("formation", ["PZ-1"], "0404"), phase("move_1"), move("PZ-1", "0504"), special("face", ["PZ-1"], "0505")], start)) == set()


def test_c40_a_formation_attacks_only_toward_its_spearhead():
    def attack_from(front):
        start = state({"PZ-1": "0403", "GB-INF-1": "0404"})
        return illegal(run("axis", [phase("turn_start"), special("formation", ["PZ-1"], front), phase("move_1"), phase("attack_1"), declare(["PZ-1"], "0404")], start))
    assert attack_from("0404") == set()
    assert attack_from("0303") == {"W-Form/3"}  # facing 0303, 0404 is not on its front


@pytest.mark.parametrize("option, shift", [(None, 1), ("none", 0)])
def test_c49_an_attacking_formation_gets_its_front_column_both_readings(option, shift):
    # PZ-1 in Panzerkeil at 0403 facing 0404 attacks 0404 through its front: one column its way by default
    start = state({"PZ-1": "0403", "GB-INF-1": "0404"})
    if option:
        start.options = {"attacking_formation": option}
    run("axis", [phase("turn_start"), special("formation", ["PZ-1"], "0404")], start)
    rules = module_ruleset(MODULE.with_options(start.options or {}))  # the game's choices, as replay takes them
    assert rules.facing_shift([start.units["PZ-1"]], [start.units["GB-INF-1"]]) == shift
    start.units["GB-INF-1"].at = H("0402")  # behind it: no shift (and W-Form/3 bars the attack)
    assert rules.facing_shift([start.units["PZ-1"]], [start.units["GB-INF-1"]]) == 0


@pytest.mark.parametrize("attacker_at, face", [("0505", "flank"), ("0405", "rear"), ("0403", "front")])
def test_c48_royal_tank_corps_faces(attacker_at, face):
    # GB-ARM-1 in 0404 faces 0403: one front face (0403), the opposite side (0405) rear, the four others flanks
    start = state({"GB-ARM-1": "0404", "PZ-1": (attacker_at, 1)})
    run("allied", [phase("turn_start"), special("formation", ["GB-ARM-1"], "0403")], start)
    rules = module_ruleset(MODULE)
    assert rules.face_of(start.units["GB-ARM-1"], H(attacker_at)) == face
    assert rules.facing_shift([start.units["PZ-1"]], [start.units["GB-ARM-1"]]) == {"rear": 1, "flank": 0, "front": -1}[face]


# --- L. reorganisation (C78) on the real counters -----------------------------------------------------------------------
def reorganise(old, new):
    from ww2_crusader_support import SRC

    from pbem.model.actions import Special

    return Special(index=0, source=SRC, order="reorganise", units=(old,), result=new)


def test_c78_the_5th_light_reorganises_into_the_21st_panzer_at_the_same_state():
    module, start = real_state({"DE-5LEI-1941": "0503"})
    start.units["DE-5LEI-1941"].step = 1  # ②
    found = run("axis", [phase("reinforcement_entry"), reorganise("DE-5LEI-1941", "DE-21PZ-1941")], start, module=module)
    assert illegal(found) == set()
    new = start.units["DE-21PZ-1941"]
    assert new.on_map and module.map.label(new.at) == "0503" and new.step == 1 and start.units["DE-5LEI-1941"].box == "removed"
    assert start.status["rp"]["axis"] == 46  # 4 RP (supplied card value)


@pytest.mark.parametrize("actions, rule", [
    (lambda: [reorganise("IT-27-BRESCIA", "DE-21PZ-1941")], "W-Reorg/1"),                     # no reorganisation on its card
    (lambda: [reorganise("DE-5LEI-1941", "DE-15PZ-1941")], "W-Reorg/1"),                      # not what the card says
    (lambda: [replenish("DE-5LEI-1941"), reorganise("DE-5LEI-1941", "DE-21PZ-1941")], "W-Reorg/1"),  # both in one turn
])
def test_c77c_c78_reorganisation_limits(actions, rule):
    module, start = real_state({"DE-5LEI-1941": "0503", "IT-27-BRESCIA": "0504"})
    start.units["DE-5LEI-1941"].step = 1
    assert illegal(run("axis", [phase("reinforcement_entry"), *actions()], start, module=module)) == {rule}


def test_a_reorganised_unit_acts_only_in_the_second_round():
    module, start = real_state({"DE-5LEI-1941": "0503"})
    found = run("axis", [phase("reinforcement_entry"), reorganise("DE-5LEI-1941", "DE-21PZ-1941"), phase("move_1"), move_real(module, "DE-21PZ-1941", "0503", "0603")], start, module=module)
    assert illegal(found) == {"W-Round/4"}


def move_real(module, unit, *path):
    from ww2_crusader_support import SRC

    from pbem.model.actions import Move

    return Move(index=0, source=SRC, units=(unit,), path=tuple(module.map.index(p) for p in path))


# --- H. the attack bonus (C57) ----------------------------------------------------------------------------------------
def bonus_turn(first_roll=2, first_result="De", bonus_units=("PZ-1",), formation=True, second_advance=False):
    # PZ-1 in Panzerkeil at 0403 facing 0404; with PZ-2 it wipes out the ① infantry there (12 against 3: 4:1, one column
    # for the formation attacking through its front (C49): 5:1, a 2 is De)
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": ("0404", 2), "GB-INF-2": "0405"})
    first = attack(["PZ-1", "PZ-2"], "0404", first_roll, first_result, **({"losses_defender": ("GB-INF-1",)} if first_result == "De" else {"retreats": {"GB-INF-1": ["0505", "0506"]}}))
    first.advance, first.advance_paths = ("PZ-1",), {"PZ-1": (H("0404"),)}
    bonus = attack(list(bonus_units), "0405", 3, "D", retreats={"GB-INF-2": ["0406"]})  # 6 against 5, across the river: 1:1, +1 front: 2:1, a 3 is D
    if second_advance:
        bonus.advance, bonus.advance_paths = ("PZ-1",), {"PZ-1": (H("0405"), H("0406"))}
    from ww2_crusader_support import SRC

    from pbem.model.actions import Special

    actions = [phase("turn_start")] + ([Special(index=0, source=SRC, order="formation", units=("PZ-1",), at=H("0404"))] if formation else []) + [
        phase("move_1"), phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), first,
        Special(index=0, source=SRC, order="bonus", units=tuple(bonus_units), at=H("0405")), bonus]
    return illegal(run("axis", actions, start)), start


def test_c57_a_formation_attacks_again_after_a_wipe_out_for_no_stamina():
    found, start = bonus_turn()
    assert found == set()
    assert start.units["PZ-1"].tallies["stamina"] == 3  # −1 for the first combat only
    assert start.units["GB-INF-2"].tallies["stamina"] == 0  # 3 − 2 (D) − 1


@pytest.mark.parametrize("kwargs", [
    {"first_roll": 3, "first_result": "D2"},   # (a) the defenders retreated: no bonus
    {"bonus_units": ("PZ-2",)},               # (e) PZ-2 is in no formation
    {"formation": False},                     # no formation at all
    {"second_advance": True},                 # (d) no second hex after the bonus
])
def test_c57_when_there_is_no_bonus(kwargs):
    assert bonus_turn(**kwargs)[0] & {"W-Bonus/1"}


def test_c36_defenders_attacked_one_against_many_are_attacked_by_no_one_else():
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404", "GB-INF-2": "0503"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), declare(["PZ-1"], "0503"), declare(["PZ-2"], "0404")], start)
    assert illegal(found) == {"W-Cbt/5"}
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404", "GB-INF-2": "0503"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), declare(["PZ-1"], "0503"), attack(["PZ-1"], "0404", 3, "D")], start)
    assert illegal(found) == set()  # 6 against 5+5: 1:1, die 3: D for both hexes (resolution: test_ww2_crusader_combat.py)


def test_c75_zone_2_moves_to_zone_1_after_the_entry_segment_and_zone_1_is_placed_whole():
    start = state({}, status={"rp": {"axis": 30}})
    found = run("axis", [phase("reinforcement_declaration"), recruit("PZ-1", "IT-INF-1"), phase("reinforcement_entry"),
                         reinforce(["IT-INF-1"], "0103"), phase("initiative")], start)
    assert illegal(found) == set() and start.units["PZ-1"].box == "waiting_zone_1"  # (d) placed next turn
    start = state({}, status={"rp": {"axis": 30}})
    found = run("axis", [phase("reinforcement_declaration"), recruit("IT-INF-1"), phase("reinforcement_entry"), phase("initiative")], start)
    assert illegal(found) == {"W-Reinf/1"}  # (e) a zone-1 unit kept back


def test_every_state_the_rules_leave_fits_the_status_schema():
    from pbem.model.jsonsource import parse_json
    from pbem.model.schemas import check

    _, start = bonus_turn()
    start.status["this_turn"]["zones_moved"] = ["2"]
    text = start.written_json()
    check(parse_json(text, "after.json"), "state")


def test_c56_royal_tank_corps_turns_d_into_d1():
    from ww2_crusader_support import SRC

    from pbem.model.actions import Special

    def turn(**fields):
        # GB-ARM-1 (③ 5-4-6) in Royal Tank Corps formation in 0404, attacked by two ② panzers: 8 against 4, 2:1, a 4 is D
        start = state({"GB-ARM-1": "0404", "PZ-1": ("0403", 1), "PZ-2": ("0304", 1)})
        run("allied", [phase("turn_start"), Special(index=0, source=SRC, order="formation", units=("GB-ARM-1",), at=H("0403"))], start)
        start.status.pop("this_turn", None)
        return illegal(run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 4, **fields)], start))
    assert turn(result="D1", retreats={"GB-ARM-1": ["0505"]}) == set()
    assert turn(result="D", retreats={"GB-ARM-1": ["0505"]}) == set()  # the table's D, converted
    assert turn(result="D") == {"W-CRT/1"}  # a retreat exists: D1 must retreat


# --- K. street fighting (C70-C74) ----------------------------------------------------------------------------------------
def street(order, units, at):
    from ww2_crusader_support import SRC

    from pbem.model.actions import Special

    return Special(index=0, source=SRC, order=order, units=tuple(units), at=H(at))


def test_c70_the_defender_chooses_a_street_fight_and_the_attacker_moves_in():
    start = state({"PZ-1": "0403", "PZ-2": "0203", "GB-INF-1": "0303"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0303"), street("street_fight", ["PZ-1"], "0303")], start)
    assert illegal(found) == set() and start.status["street_fights"] == ["0303"]
    assert {u.id for u in start.units_at(H("0303"))} == {"PZ-1", "GB-INF-1"}
    start = state({"PZ-1": "0403", "GB-INF-1": "0404"})
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), street("street_fight", ["PZ-1"], "0404")], start)) == {"W-Street/1"}


def in_street_fight(extra=None, status=None):
    start = state({"PZ-1": "0303", "GB-INF-1": "0303"} | (extra or {}), status=status)
    start.status["street_fights"] = ["0303"]
    return start


def test_c70_a_street_fight_hex_is_isolated():
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-2"], "0303")], in_street_fight({"PZ-2": "0203"}))) == {"W-Street/3"}
    assert illegal(run("allied", [phase("attack_1", "allied"), declare(["GB-INF-1"], "0203")], in_street_fight({"PZ-2": "0203"}))) == {"W-Street/3"}


def test_c71_moving_in_stops_and_joins():
    assert illegal(run("axis", [phase("move_1"), move("IT-INF-1", "0303")], in_street_fight({"IT-INF-1": "0203"}))) == set()
    assert illegal(run("axis", [phase("move_1"), move("IT-INF-1", "0303", "0403")], in_street_fight({"IT-INF-1": "0203"}))) == {"W-Move/4"}


@pytest.mark.parametrize("supplied, ok", [(True, True), (False, False)])
def test_c72_leaving_only_into_supply(supplied, ok):
    start = in_street_fight()
    start.units["PZ-1"].supplied = supplied
    assert (illegal(run("axis", [phase("move_1"), move("PZ-1", "0203")], start)) == set()) is ok


@pytest.mark.parametrize("chosen, ok", [(["PZ-1"], True), ([], False)])
def test_c73_resolution_larger_side_units_totalling_at_least_the_smaller(chosen, ok):
    start = in_street_fight({"PZ-2": "0303", "IT-INF-1": "0303", "GB-INF-1": ("0303", 2)})  # 12 against 3: 4:1
    found = run("axis", [phase("turn_end"), street("street_resolution", chosen, "0303")], start)
    assert (illegal(found) == set()) is ok
    if ok:
        assert not start.units["GB-INF-1"].on_map and start.status["street_fights"] == []  # De on a ① unit: gone; the fight ends
        assert start.units["PZ-2"].tallies["stamina"] == 2 and start.units["PZ-1"].step == 1  # −2 each; the chosen took De


@pytest.mark.parametrize("defender, passes", [(("GB-ARM-1", 2), True), (("GB-INF-1", 2), False)])
def test_c74_supply_through_a_street_fight_only_for_the_larger_side_at_5_to_1(defender, passes):
    # the Axis 4 + 4 + 4 = 12 against a ① armoured brigade (2): 6:1, passes; against ① infantry (3): 4:1, does not
    start = state({"PZ-1": "0303", "PZ-2": "0303", "IT-INF-1": "0303", defender[0]: ("0303", defender[1])})
    start.status["street_fights"] = ["0303"]
    rules = module_ruleset(MODULE)
    assert rules.street_passes(start, H("0303"), "axis") is passes
    assert rules.street_passes(start, H("0303"), "allied") is False


# --- F/H. zero defence (C43) and war-weary (C54 pair) ---------------------------------------------------------------------
def test_c43_zero_total_defence_is_de():
    start = state({"PZ-1": "0403", "GB-HQ-1": "0404"})
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 3, "DE", eliminated=("GB-HQ-1",))], start)) == set()
    start = state({"PZ-1": "0403", "GB-HQ-1": "0404"})
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 3, "D")], start)) == {"W-Res/3"}
    start = state({"PZ-1": "0403", "GB-HQ-1": "0404", "GB-INF-1": ("0404", 2)})  # with a defence-3 unit: rolled (6:3, 2:1, a 3 is D)
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 3, "D")], start)) == set()


def test_c54_a_war_weary_unit_without_retreat_is_destroyed():
    # GB-INF-1 and the war-weary GB-HQ-1 surrounded (see surrounded()): 11 against 5 + 0, cut off: 4:1, a 4 is D1
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "IT-INF-1": "0505", "GB-INF-1": "0404", "GB-HQ-1": "0404"})
    acts = lambda **kw: [phase("attack_1"), declare(["PZ-1", "PZ-2", "IT-INF-1"], "0404"), attack(["PZ-1", "PZ-2", "IT-INF-1"], "0404", 4, "D1", **kw)]
    assert illegal(run("axis", acts(), start)) == {"W-CRT/2"}
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "IT-INF-1": "0505", "GB-INF-1": "0404", "GB-HQ-1": "0404"})
    assert illegal(run("axis", acts(eliminated=("GB-HQ-1",)), start)) == set()


# --- G. the armour shift (C46) ------------------------------------------------------------------------------------------
def armour_case(claim, module=None, dug_in=False, defender="GB-INF-1"):
    from ww2_crusader_support import SRC

    from pbem.model.actions import Special

    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), defender: "0404"})  # 8 against 5 (or 4): 2:1, a 1 is D1; one column right, D2
    pre = [phase("turn_start"), Special(index=0, source=SRC, order="dig_in", units=(defender,), at=H("0505")), phase("move_1", "axis")] if dug_in else []
    retreat = {"D1": ["0505"], "D2": ["0505", "0506"]}[claim]
    return run("axis", pre + [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 1, claim, retreats={defender: retreat})], start, module=module)


def test_c46_the_armour_shift_is_not_checked_without_the_crts_favourable_marks():
    for claim in ("D1", "D2"):
        found = armour_case(claim)
        assert illegal(found) == set() and ("W-Mod/5", "warning") in found


def test_c46_a_groups_favourable_marks_make_the_armour_shift_checked(tmp_path):
    def marks(tables):
        tables["favourable"]["codes"] = ["D", "D1", "D2", "De", "DE", "E"]
    grouped = build_module(tmp_path / "ww2-crusader", marks)
    assert illegal(armour_case("D2", grouped)) == set()
    assert illegal(armour_case("D1", grouped)) == {"W-CRT/1"}
    assert illegal(armour_case("D1", grouped, defender="GB-ARM-1")) == set()  # (d) an armoured defender: no shift


def test_c46a_a_dug_in_defender_cancels_the_armour_shift():
    found = armour_case("D1", dug_in=True)
    assert ("W-Mod/5", "warning") not in found


def test_c80e_a_formation_pair_moves_as_one_with_the_lower_mp():
    from ww2_crusader_support import SRC

    from pbem.model.actions import Move, Special

    def turn(hexes):
        # PZ-1 (③, 6 MP) with a second panzer as its pair; the pair is one whole; PZ-2 at ② has 6, PZ-3 at ① has 5
        start = state({"PZ-1": "0102", "PZ-3": ("0102", 2)})
        start.units["PZ-3"].markers.add("panzerkeil")
        path = ("0202", "0302", "0402", "0502", "0602", "0702")[:hexes]
        return illegal(run("axis", [phase("turn_start"), Special(index=0, source=SRC, order="formation", units=("PZ-1",), at=H("0202")), phase("move_1"),
                                    Move(index=0, source=SRC, units=("PZ-1", "PZ-3"), path=tuple(H(h) for h in path))], start))
    assert turn(5) == set()
    assert turn(6) == {"W-Move/1"}  # the pair's allowance is the lower: 5


def test_c68_mechanised_infantry_follows_its_armours_advance():
    units = {"PZ-1": "0403", "PZ-2": "0304", "PZGR-1": "0403", "IT-INF-2": "0403", "GB-INF-1": "0404"}
    both = ["PZ-1", "PZ-2"]
    assert advance_case({"PZ-1": ["0404"], "PZGR-1": ["0404"]}, units=units, attackers=both) == set()
    assert advance_case({"PZ-1": ["0404"], "IT-INF-2": ["0404"]}, units=units, attackers=both) == {"W-Adv/3"}  # not mechanised
    assert advance_case({"PZ-2": ["0404"], "PZGR-1": ["0404"]}, units=units, attackers=both) == {"W-Adv/3"}  # its armour did not advance


# --- M. the Crusader set-up (C84) and supply sources (C82) --------------------------------------------------------------
def crusader_start():
    from pbem.formats.turnfile import load_start_state
    from pbem.model.actions import Turn, TurnHeader
    from pbem.model.module import load_module

    module = load_module("ww2-crusader")
    return module, load_start_state(Turn("t.json", TurnHeader(module.id, "crusader", 1, "axis", "crusader"), []), module)


def test_c84_the_crusader_set_up():
    module, start = crusader_start()
    rules = module_ruleset(module)
    tobruk, entry = module.map.index("0703"), next(i for i, s in enumerate(module.map.supply) if s == "axis")
    for unit_id in ("AUS-7-DIV", "AUS-9-DIV", "UK-3-ARMD-BDE"):
        assert module.map.distance(start.units[unit_id].at, tobruk) <= 1  # (b) Tobruk or within 1 hex
    for unit_id in ("IT-132-ARIETE", "IT-27-BRESCIA", "DE-5LEI-1941"):
        assert start.units[unit_id].at == entry  # (c) on the Axis supply source
    from pbem.rules.ruleset import TurnContext

    ctx = TurnContext(turn=None, active_side="axis")  # type: ignore[arg-type]
    assert rules.check_stacking(start, {tobruk, entry}, ctx) == []  # both hexes within their limits
    assert (start.status["rp"], start.status["cp"]) == ({"axis": 15, "allied": 15}, {"axis": 5, "allied": 5})  # [AMBIG] granted


def test_c82_only_the_west_road_entry_supplies_the_axis_and_british_coastal_towns_the_british():
    module, start = crusader_start()
    rules = module_ruleset(module)
    axis = rules.sources(start, "axis")
    assert [module.map.label(i) for i in axis] == ["0102"]
    british = {module.map.label(i) for i in rules.sources(start, "allied")}
    assert {"0703", "3108", "3510"} <= british  # Tobruk (held, occupied), Mersa Matruh (held), the east road entry
    start.status["held"]["1505"] = "axis"  # Bardia taken by the Axis: no Axis source, no British one either
    assert "1505" not in {module.map.label(i) for i in rules.sources(start, "allied")} and rules.sources(start, "axis") == axis


def test_a_town_is_held_by_the_side_that_entered_it_last():
    start = state({"IT-INF-1": "0203"})
    run("axis", [phase("move_1"), move("IT-INF-1", "0303"), phase("attack_1"), phase("recovery"), phase("move_2")], start)
    assert start.status["held"] == {"0303": "axis"}


def test_c58_dex_removes_zero_strength_units_left_alone():
    # Italian infantry and the 0-attack artillery attack a ① British armoured unit (defence 2): 2 against 2, 1:1, a 4 is DeX
    def turn(infantry, eliminated):
        start = state(infantry | {"ART-1": "0403", "GB-ARM-1": ("0404", 2)})
        attackers = [*infantry, "ART-1"]
        return illegal(run("axis", [phase("attack_1"), declare(attackers, "0404"),
                                    attack(attackers, "0404", 4, "DeX", column="1/1", losses_attacker=tuple(attackers), losses_defender=("GB-ARM-1",), eliminated=eliminated)], start))
    assert turn({"IT-INF-1": ("0403", 1)}, ()) == set()  # the ② infantry becomes ①: it survives, the artillery stays
    two_weak = {"IT-INF-1": ("0403", 2), "IT-INF-2": ("0403", 2)}  # two ① infantry (1 + 1): both destroyed by the De
    assert turn(two_weak, ()) == {"W-CRT/3"}  # the artillery is left alone with no strength: it must go too
    assert turn(two_weak, ("ART-1",)) == set()
