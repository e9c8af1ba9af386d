"""Crusader: the fixes from the audit of the independent checker's second pass of cases (C87–C147, issue 29).

Each case gets a legal and an illegal test; units and hexes are the tiny map's (ww2_crusader_support)."""

from __future__ import annotations

from ww2_crusader_support import SRC, H, attack, card, declare, illegal, move, phase, run, state

from pbem.model.actions import Special
from pbem.model.state import written_state_text


def special(order, units, at=None):
    return Special(index=0, source=SRC, order=order, units=tuple(units), at=H(at) if at else None)


def warnings(found) -> set[str]:
    return {rule for rule, severity in found if severity == "warning"}


# --- C118 and the combat memory: one segment's resolutions do not outlive it -------------------------------------
# PZ-1 in 0403 is next to 0404 and 0503; PZ-2 in 0304 is next to 0404 only.
TWO = {"PZ-1": "0403", "GB-INF-1": ("0404", 1), "GB-INF-2": ("0503", 1)}
SECOND_ROUND = [phase("recovery"), phase("move_2"), phase("attack_2"), declare(["PZ-2"], "0404"), attack(["PZ-2"], "0404", 6, "AD")]


def test_c118_a_hex_resolved_in_attack_1_may_be_attacked_again_in_attack_2():
    # a one-on-one attack whose defender stays (AD) does not protect the hex: only a unit attacks once (只能攻击1次)
    start = state({"IT-INF-1": "0403", "GB-INF-1": ("0404", 2), "PZ-2": "0304"})
    first = [phase("attack_1"), declare(["IT-INF-1"], "0404"), attack(["IT-INF-1"], "0404", 6, "AD")]
    assert illegal(run("axis", first + SECOND_ROUND, start)) == set()


def test_c118_one_vs_many_defenders_stay_protected_for_the_players_action_phase():
    # [AMBIG] C118 reading 1 (再 = any more, for the rest of that player's action phase), in one file or two
    first = [phase("attack_1"), declare(["PZ-1"], "0404"), declare(["PZ-1"], "0503"), attack(["PZ-1"], "0404", 6, "AD", odds="1/1")]
    assert illegal(run("axis", first + SECOND_ROUND, state(TWO | {"PZ-2": "0304"}))) == {"W-Cbt/5"}
    start = state(TWO | {"PZ-2": "0304"})
    assert illegal(run("axis", first, start)) == set()
    written_state_text(start.module, start.to_json())  # the protection is in the state and reads back
    assert illegal(run("axis", SECOND_ROUND, start)) == {"W-Cbt/5"}


def test_c118_the_protection_ends_with_the_turn():
    start = state(TWO | {"PZ-2": "0304"})
    first = [phase("attack_1"), declare(["PZ-1"], "0404"), declare(["PZ-1"], "0503"), attack(["PZ-1"], "0404", 6, "AD", odds="1/1")]
    assert illegal(run("axis", first, start)) == set()
    start.turn += 1
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-2"], "0404"), attack(["PZ-2"], "0404", 6, "AD")], start)) == set()


# --- C93, C94: card effects are not built, so a combat after a card is not called a mismatch ---------------------
# PZ-1 (6) against GB-ARM-1 at ② (defence 3): 2:1 on the printed values; die 5 gives DeX there, D/AE at 3:1.
BUFFED = [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 5, "D/AE", odds="3/1", eliminated=("PZ-1",))]


def buffed_start():
    return state({"PZ-1": "0403", "GB-ARM-1": ("0404", 1)}, status={"cp": {"axis": 3, "allied": 0}})


def test_c93_a_combat_after_a_played_card_is_not_checked_for_strength():
    found = run("axis", [phase("turn_start"), card("example-turn-start", "axis")] + BUFFED, start := buffed_start())
    assert illegal(found) == set()
    assert {"W-Res/2", "W-CRT/1"} <= warnings(found)  # said as "not checked", not passed over in silence
    assert not start.units["PZ-1"].on_map  # the player's result is carried out
    assert "example-turn-start" in written_state_text(start.module, start.to_json())  # recorded, and reads back


def test_c93_the_same_combat_with_no_card_is_a_mismatch():
    assert {"W-Res/2", "W-CRT/1"} <= illegal(run("axis", BUFFED, buffed_start()))
