"""Crusader combat items of issue 29 not in the independent cases' first pass: one unit against several hexes
(W-Cbt/5 以一对多, case C36's resolution) and the rest of street fighting (W-Street/6)."""

from __future__ import annotations

import pytest
from ww2_crusader_support import attack, declare, illegal, phase, run, state

# PZ-1 (attack 6) in 0403 is next to 0404 and 0503, both plain; GB-INF at step 1 (②) defends 4.
TWO = {"PZ-1": "0403", "GB-INF-1": ("0404", 1), "GB-INF-2": ("0503", 1)}


def one_against_two(*actions):
    return run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), declare(["PZ-1"], "0503"), *actions], state(TWO))


# --- W-Cbt/5 以一对多: 进行战果裁定时,需将这几个格的防御力加总 ---------------------------------------------------
def test_one_against_two_hexes_sums_both_defences():
    # 6 against 4 + 4 = 8: 1:1 (one hex alone would be 6:4 = 2:1)
    assert illegal(one_against_two(attack(["PZ-1"], "0404", 1, "D1", odds="1/1", retreats={"GB-INF-1": ["0405"], "GB-INF-2": ["0603"]}))) == set()
    assert illegal(one_against_two(attack(["PZ-1"], "0404", 1, "D1", odds="2/1", retreats={"GB-INF-1": ["0405"], "GB-INF-2": ["0603"]}))) == {"W-Res/2"}


def test_the_one_result_applies_to_every_defender_of_every_hex():
    # 1:1, die 4: DeX. Both defenders lose a state, in their two hexes, and the attacker too
    both = attack(["PZ-1"], "0404", 4, "DeX", losses_defender=("GB-INF-1", "GB-INF-2"), losses_attacker=("PZ-1",))
    assert illegal(one_against_two(both)) == set()
    one = attack(["PZ-1"], "0404", 4, "DeX", losses_defender=("GB-INF-1",), losses_attacker=("PZ-1",))
    assert illegal(one_against_two(one)) == {"W-CRT/1"}  # GB-INF-2 in 0503 takes the De as well


def test_d1_makes_each_defender_retreat_from_its_own_hex():
    # a retreat starts in the defender's own hex: 0503 -> 0603 is one hex, not two
    ok = attack(["PZ-1"], "0404", 1, "D1", retreats={"GB-INF-1": ["0405"], "GB-INF-2": ["0603"]})
    assert illegal(one_against_two(ok)) == set()
    stays = attack(["PZ-1"], "0404", 1, "D1", retreats={"GB-INF-1": ["0405"]})
    assert illegal(one_against_two(stays)) == {"W-CRT/1"}  # GB-INF-2 can retreat one hex and must


def test_one_resolution_settles_every_hex_of_the_attack():
    first = attack(["PZ-1"], "0404", 1, "D1", retreats={"GB-INF-1": ["0405"], "GB-INF-2": ["0603"]})
    assert illegal(one_against_two(first, attack(["PZ-1"], "0503", 1, "D1"))) >= {"W-Res/1"}


def test_c36_two_units_against_two_hexes_is_no_one_against_many():
    # 一个单位可以进攻多格内的守军 gives one unit several hexes; two units in one combat against two hexes is not it
    start = state(TWO | {"PZ-2": "0403"})  # stacked with PZ-1, next to both hexes
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), declare(["PZ-1", "PZ-2"], "0503")], start)
    assert illegal(found) == {"W-Round/3"}



def test_c36_many_against_many_as_an_option():
    # option many_against_many: allowed: the same two units against both hexes make one combat, 12 against 8: 2:1
    start = state(TWO | {"PZ-2": "0403"})
    start.options = {"many_against_many": "allowed"}
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), declare(["PZ-1", "PZ-2"], "0503"),
                         attack(["PZ-1", "PZ-2"], "0404", 6, "AD", odds="2/1")], start)
    assert illegal(found) == set()
    start = state(TWO | {"PZ-2": "0403", "PZ-3": "0402"})  # still no one else attacks those hexes
    start.options = {"many_against_many": "allowed"}
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), declare(["PZ-1", "PZ-2"], "0503"), declare(["PZ-3"], "0503")], start)
    assert illegal(found) == {"W-Cbt/5"}


# --- W-Street/6 巷战结算: 8:1 and more; a unit disordered in the fight ---------------------------------------------
def special(order, units, at):
    from ww2_crusader_support import SRC, H

    from pbem.model.actions import Special

    return Special(index=0, source=SRC, order=order, units=tuple(units), at=H(at))


def eight_to_one(*after, option=None):
    """Town 0303: the British 4 + 5 + 5 + 5 = 19 against ART-1 (②, defence 2): 9:1."""
    start = state({"GB-ARM-1": "0303", "GB-INF-1": "0303", "GB-INF-2": "0303", "GB-INF-3": "0303", "ART-1": "0303"})
    start.status["street_fights"] = ["0303"]
    if option:
        start.options = {"street_retreat_zoc": option}
    found = run("axis", [phase("turn_end"), special("street_resolution", ["GB-INF-1"], "0303"), *after], start)
    return illegal(found), start


def test_at_8_to_1_the_smaller_side_retreats_one_or_two_hexes():
    # 如果战力比大于等于8:1,数值较小的一方除了执行战果之外还需要额外撤退至少一格,至多两格
    found, start = eight_to_one(special("street_retreat", ["ART-1"], "0203"))
    assert found == set() and start.units["ART-1"].at == start.module.map.index("0203") and start.status["street_fights"] == []
    assert start.units["ART-1"].step == 1  # and it took the De first (除了执行战果之外)
    found, _ = eight_to_one(special("street_retreat", ["ART-1"], "0203"), special("street_retreat", ["ART-1"], "0103"))
    assert found == set()


def test_at_8_to_1_the_smaller_side_may_not_stay_nor_go_three_hexes():
    assert eight_to_one()[0] == {"W-Street/6"}  # 至少一格
    three = [special("street_retreat", ["ART-1"], h) for h in ("0203", "0103", "0102")]
    assert eight_to_one(*three)[0] == {"W-Street/6"}  # 至多两格
    assert eight_to_one(special("street_retreat", ["GB-INF-2"], "0403"))[0] >= {"W-Street/6"}  # the larger side does not retreat


def test_at_8_to_1_with_no_retreat_the_smaller_side_is_destroyed_both_readings():
    # 如果无路可退则全部承受DE战果. [AMBIG] whether the ZOC of the British in the town itself bars the way out:
    found, start = eight_to_one(option="counts")  # read so, every hex next to the town is in their strong ZOC
    assert found == set() and not start.units["ART-1"].on_map
    found, start = eight_to_one(special("street_retreat", ["ART-1"], "0203"), option="counts")
    assert found == {"W-Street/6"}  # it is gone: nothing to retreat
    found, start = eight_to_one(special("street_retreat", ["ART-1"], "0203"))  # default: the town's own ZOC ignored
    assert found == set() and start.units["ART-1"].on_map


def disordered(*after, **options):
    """PZ-1 (defence 4, stamina 2) against GB-INF-1 (defence 5): 1:1, every unit De and −2 stamina: PZ-1 is
    disordered and takes De at once (巷战中陷入混乱的单位立即承受De战果)."""
    start = state({"PZ-1": "0303", "GB-INF-1": "0303"}, status={"stamina": {"PZ-1": 2}})
    start.options = dict(options)
    start.status["street_fights"] = ["0303"]
    found = run("axis", [phase("turn_end"), special("street_resolution", [], "0303"), *after], start)
    return illegal(found), start


def test_a_unit_disordered_in_a_street_fight_takes_de_and_may_retreat_two_hexes():
    found, start = disordered()
    assert found == set() and start.units["PZ-1"].step == 2 and start.units["PZ-1"].at == start.module.map.index("0303")  # may, not must
    found, start = disordered(special("street_retreat", ["PZ-1"], "0203"), special("street_retreat", ["PZ-1"], "0103"))
    assert found == set() and start.units["PZ-1"].at == start.module.map.index("0103") and start.status["street_fights"] == []


@pytest.mark.parametrize("option, verdict", [("allowed", set()), ("disordered_only", {"W-Street/6"})])
def test_a_unit_not_disordered_retreats_at_below_8_to_1_only_as_its_de_allows(option, verdict):
    # [AMBIG] C123(i): GB-INF-1 takes De (可以主动撤退至多两格) without falling into disorder; option street_result_retreat
    assert disordered(special("street_retreat", ["GB-INF-1"], "0403"), street_result_retreat=option)[0] == verdict


# --- the AMBIG readings of the independent cases, each with its option (README's table) ---------------------------
def with_option(start, **options):
    start.options = dict(options)
    return start


def recovered(units, unit_id, **options):
    """The unit's stamina after its side's recovery segment (+2 full, +1 limited): from 1, of at most 3."""
    start = with_option(state(units, status={"stamina": {unit_id: 1}}), **options)
    assert illegal(run("axis", [phase("recovery")], start)) == set()
    return start.units[unit_id].tallies["stamina"]


def test_c30_off_the_road_limited_or_full_supply():
    # 始终沿着交通线: read from the unit's own hex (default) the line off the road is limited
    assert recovered({"IT-INF-1": "0402"}, "IT-INF-1") == 2
    assert recovered({"IT-INF-1": "0402"}, "IT-INF-1", full_supply_from="adjacent") == 3


def test_c82_a_unit_in_its_own_source_under_an_enemy_strong_zoc():
    units = {"IT-INF-1": "0103", "GB-INF-1": "0203"}  # the Axis source 0103, the British ③ next to it: cut (被敌方切断)
    assert recovered(units, "IT-INF-1") == 3  # default: a source is full supply
    assert recovered(units, "IT-INF-1", cut_source_hex="limited") == 2


@pytest.mark.parametrize("option, column, bad", [(None, "1/1", set()), ("all", "2/1", set()), ("all", "1/1", {"W-Mod/1"}), (None, "2/1", {"W-Mod/1"})])
def test_c45_one_of_two_attackers_out_of_supply(option, column, bad):
    # 8 against 4: 2:1; PZ-1 cut off. 战力比朝断补方不利方向修正1列: the side shifts if any unit is (default) or all are
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "GB-ARM-1": "0404"})
    start.units["PZ-1"].supplied = False
    if option:
        with_option(start, oos_side=option)
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 3, "D", column=column)], start)
    assert illegal(found) == bad


@pytest.mark.parametrize("option, bad", [(None, {"W-Retreat/1"}), ("allowed", set())])
def test_c61_ending_a_retreat_in_an_empty_enemy_zoc(option, bad):
    # 不能经过己方未占领的敌控区: 0505 in the ② Italians' weak ZOC (in 0506); 10 against 5: 2:1, the British cut off
    # by it: 3:1, a 2 is D1
    start = state({"PZ-1": ("0403", 1), "PZ-2": "0304", "GB-INF-1": "0404", "IT-INF-1": ("0506", 1)})
    if option:
        with_option(start, retreat_end_in_zoc=option)
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 2, "D1", retreats={"GB-INF-1": ["0505"]})], start)
    assert illegal(found) == bad


def c55(option=None, **fields):
    # 12 against 5: 3:1, the British cut off: 4:1, a 3 is D2; the Italians in 0406 and 0705 leave GB-INF-1 one hex
    # (0505) and no second
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404", "IT-INF-1": "0406", "IT-INF-2": "0705"})
    if option:
        with_option(start, d2_short_retreat=option)
    return illegal(run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 3, "D2", **fields)], start))


def test_c55_d2_with_only_one_hex_of_retreat_both_readings():
    # default (reading 2): D2 cannot be done, 无路可退: D2 → De, the loss listed
    assert c55(losses_defender=("GB-INF-1",)) == set()
    assert c55(retreats={"GB-INF-1": ["0505"]}) == {"W-CRT/2"}
    # option retreat_one (reading 1): a hex exists, so it retreats that one, no loss
    assert c55("retreat_one", retreats={"GB-INF-1": ["0505"]}) == set()
    assert c55("retreat_one") == {"W-CRT/1"}


@pytest.mark.parametrize("option, retreat, bad", [(None, ["0505"], set()), (None, [], {"W-CRT/1"}),
                                                  ("may_not", [], set()), ("may_not", ["0505"], {"W-Retreat/1"})])
def test_c64_a_unit_disordered_by_the_d_itself(option, retreat, bad):
    # GB-INF-1 at stamina 2: D1's −1 −2 leaves it at 0 (混乱单位不能移动: may it retreat?); 10 against 5: 2:1, a 1 is D1
    start = state({"PZ-1": ("0403", 1), "PZ-2": "0304", "GB-INF-1": "0404"}, status={"stamina": {"GB-INF-1": 2}})
    if option:
        with_option(start, retreat_when_disordered=option)
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 1, "D1", retreats={"GB-INF-1": retreat})], start)
    assert illegal(found) == bad


@pytest.mark.parametrize("option, bad", [(None, set()), ("required", {"W-Cbt/4"})])
def test_c70c_a_street_fight_next_to_the_attacker_and_the_pin(option, bad):
    # IT-INF-1 in 0403 is next to the street fight in 0303 and to the British in 0404; it attacks 0404
    start = state({"PZ-1": "0303", "GB-INF-1": "0303", "IT-INF-1": "0403", "GB-INF-2": ("0404", 2)})
    start.status["street_fights"] = ["0303"]
    if option:
        with_option(start, street_pin=option)
    assert illegal(run("axis", [phase("attack_1"), declare(["IT-INF-1"], "0404"), attack(["IT-INF-1"], "0404", 6, "AD")], start)) == bad


@pytest.mark.parametrize("option, bad", [(None, set()), ("centre", {"W-Form/3"})])
def test_c40_a_formation_attacking_through_a_side_front_face(option, bad):
    # Panzerkeil in 0403 facing 0404: 0504 is a front face but not the middle one (矛头)
    start = state({"PZ-1": "0403", "GB-INF-1": "0504"})
    if option:
        with_option(start, spearhead=option)
    found = run("axis", [phase("turn_start"), special("formation", ["PZ-1"], "0404"), phase("move_1"), phase("attack_1"), declare(["PZ-1"], "0504")], start)
    assert illegal(found) == bad


@pytest.mark.parametrize("option, bad", [(None, set()), ("reinforcement_area", {"W-Reorg/1"})])
def test_c81_reorganising_in_the_open_desert_in_supply(option, bad):
    # 整编 is a 特殊补员: the Crusader relaxation (轴心国一方的单位只要不处于断补状态就可以进行补员) covers it by default
    from test_ww2_crusader_cases import real_state, reorganise

    module, start = real_state({"DE-5LEI-1941": "0503"})
    start.units["DE-5LEI-1941"].step = 1
    if option:
        with_option(start, reorganise_at=option)
    assert illegal(run("axis", [phase("reinforcement_entry"), reorganise("DE-5LEI-1941", "DE-21PZ-1941")], start, module=module)) == bad


def test_c27_a_supply_line_through_an_empty_enemy_weak_zoc():
    # 补给线…不能穿过…不存在友军的敌方控制区: the British ② in 0202 put a weak ZOC on 0102 and 0201, every way out of 0101
    from ww2_crusader_support import MODULE

    from pbem.engine.rulesets import module_ruleset

    rules = module_ruleset(MODULE)
    alone = state({"IT-INF-1": "0101", "GB-INF-1": ("0202", 1)})
    assert rules.supply(alone, alone.units["IT-INF-1"]) == "none"
    held = state({"IT-INF-1": "0101", "GB-INF-1": ("0202", 1), "IT-INF-2": "0102"})  # a friendly unit in the ZOC hex
    assert rules.supply(held, held.units["IT-INF-1"]) == "limited"
    assert recovered({"IT-INF-1": "0101", "GB-INF-1": ("0202", 1)}, "IT-INF-1") == 1  # out of supply: no recovery


# --- one against many over two terrains: option mixed_terrain ----------------------------------------------------
MIXED = {"PZ-1": "0304", "GB-INF-1": ("0404", 1), "GB-INF-2": ("0204", 1)}  # 0404 plain, 0204 forest (-1)


def one_against_plain_and_forest(result: str, option: str | None):
    start = state(MIXED)
    if option:
        start.options = {"mixed_terrain": option}
    # 6 against 4 + 4: 1:1; die 1 gives D1 on 1:1 and D on 1:2 (one column left, the forest's shift)
    retreats = {"retreats": {"GB-INF-1": ["0405"], "GB-INF-2": ["0104"]}} if result == "D1" else {}
    return run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), declare(["PZ-1"], "0204"),
                        attack(["PZ-1"], "0404", 1, result, **retreats)], start)


@pytest.mark.parametrize("result, option, verdict, warned", [
    ("D1", None, set(), True), ("D", None, set(), True),                      # the source is silent: either column, "not checked"
    ("D", "best_for_defender", set(), False), ("D1", "best_for_defender", {"W-CRT/1"}, False),  # the forest's -1 applies
])
def test_mixed_terrain_one_against_many(result, option, verdict, warned):
    found = one_against_plain_and_forest(result, option)
    assert illegal(found) == verdict
    assert any(severity == "warning" for _, severity in found) is warned
