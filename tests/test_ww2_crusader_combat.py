"""Crusader combat items of issue 29 not in the independent cases' first pass: one unit against several hexes
(W-Cbt/5 以一对多, case C36's resolution) and the rest of street fighting (W-Street/6)."""

from __future__ import annotations

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


def disordered(*after):
    """PZ-1 (defence 4, stamina 2) against GB-INF-1 (defence 5): 1:1, every unit De and −2 stamina: PZ-1 is
    disordered and takes De at once (巷战中陷入混乱的单位立即承受De战果)."""
    start = state({"PZ-1": "0303", "GB-INF-1": "0303"}, status={"stamina": {"PZ-1": 2}})
    start.status["street_fights"] = ["0303"]
    found = run("axis", [phase("turn_end"), special("street_resolution", [], "0303"), *after], start)
    return illegal(found), start


def test_a_unit_disordered_in_a_street_fight_takes_de_and_may_retreat_two_hexes():
    found, start = disordered()
    assert found == set() and start.units["PZ-1"].step == 2 and start.units["PZ-1"].at == start.module.map.index("0303")  # may, not must
    found, start = disordered(special("street_retreat", ["PZ-1"], "0203"), special("street_retreat", ["PZ-1"], "0103"))
    assert found == set() and start.units["PZ-1"].at == start.module.map.index("0103") and start.status["street_fights"] == []


def test_a_unit_not_disordered_may_not_retreat_at_below_8_to_1():
    assert disordered(special("street_retreat", ["GB-INF-1"], "0403"))[0] == {"W-Street/6"}
