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
