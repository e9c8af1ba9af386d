"""The independent checker's cases (/work/helpers/crusader-cases.md, written from the Chinese text by someone who
has not seen this code), encoded where the rules built so far reach. Each test names its case (C01...) and the
Chinese heading; where the case is AMBIG the module's option and the other reading are both tested."""

from __future__ import annotations

import sys

import pytest
from ww2_crusader_support import MODULE, attack, declare, illegal, move, phase, recruit, reinforce, replenish, run, state

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
    assert start.status["stamina"]["PZ-1"] == 0 and module_ruleset(MODULE).disordered(start, start.units["PZ-1"])


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
    assert illegal(found) == set() and ("W-Cbt/5", "warning") in found  # one-vs-many: not checked yet


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
    start = state({"PZ-1": "0404", "PZ-2": "0304", "GB-INF-1": ("0305", 2), "GB-ARM-1": ("0305", 2)})  # 12 against 3+1 + 2+1
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0305"), attack(["PZ-1", "PZ-2"], "0305", 2, "D", odds="2/1", column="1/2")], start)
    assert illegal(found) == set()  # 2:1, two columns left for the mountain (supplied): 1:2
    start = state({"PZ-1": "0404", "PZ-2": "0304", "GB-INF-1": ("0305", 2), "GB-ARM-1": ("0305", 2)})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0305"), attack(["PZ-1", "PZ-2"], "0305", 2, "D", odds="3/1", column="1/2")], start)
    assert illegal(found) == {"W-Res/2"}


# --- H. results ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("roll, result, attacker_after, defender_after", [(5, "AD", 0, 2), (2, "D", 2, 0)])
def test_c52_stamina_after_ad_and_d(roll, result, attacker_after, defender_after):
    start = state({"IT-INF-1": "0403", "GB-INF-1": ("0404", 2)})  # 3 against 3: 1:1; stamina 3 and 3
    found = run("axis", [phase("attack_1"), declare(["IT-INF-1"], "0404"), attack(["IT-INF-1"], "0404", roll, result)], start)
    assert illegal(found) == set()
    assert start.status["stamina"] == {"IT-INF-1": attacker_after, "GB-INF-1": defender_after}


def test_c53_d2_retreating_one_hex_when_two_are_open_is_illegal():
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404"})  # 12 against 5: 3:1, a 1 is D2
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 1, "D2", retreats={"GB-INF-1": ["0505"]})], start)
    assert illegal(found) == {"W-CRT/1"}
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 1, "D2", retreats={"GB-INF-1": ["0505", "0506"]})], start)
    assert illegal(found) == set()


def surrounded():
    # attackers in 0403, 0304 and 0505: 0504, 0305 and 0405 touch them, 0505 is theirs: no retreat
    return state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "IT-INF-1": "0505", "GB-INF-1": "0404"})  # 11 against 5: 3:1


def test_c54_no_retreat_d1_becomes_d_and_stays():
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2", "IT-INF-1"], "0404"), attack(["PZ-1", "PZ-2", "IT-INF-1"], "0404", 2, "D1")], surrounded())
    assert illegal(found) == set()


def test_c54_no_retreat_d2_becomes_de():
    acts = lambda **kw: [phase("attack_1"), declare(["PZ-1", "PZ-2", "IT-INF-1"], "0404"), attack(["PZ-1", "PZ-2", "IT-INF-1"], "0404", 1, "D2", **kw)]
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
