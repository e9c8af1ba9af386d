"""WWII Campaign / Crusader: who moves first (W-Init/1, 先后手判定节), case C83 of the independent checker.

获得资源点更少的一方先手,若一样则获得指挥点更多的一方先手,若还是一样则单位数量更少的一方先手,如果依旧一样则剩余指挥点
更多的一方先手; Crusader: 双方的先后手由轴心国一方的玩家决定 (option ``initiative: axis_chooses``)."""

from __future__ import annotations

import json

from pbem.model.actions import Roll
from pbem.model.state import written_state_text

from ww2_crusader_support import MODULE, SRC, illegal, phase, run, state


def rp(side: str, *values: int) -> Roll:
    return Roll(index=0, source=SRC, purpose="rp", dice=f"{len(values)}d6", values=tuple(values), side=side, result=str(min(values)))


def turn(axis_dice, allied_dice, first: str, start):
    """The resource rolls, the initiative segment, then ``first``'s first move segment."""
    return run(first, [phase("resource"), rp("axis", *axis_dice), rp("allied", *allied_dice), phase("initiative"), phase("move_1", first)], start)


def test_c83_fewer_rp_gained_goes_first():
    """The Axis gains 3 RP (two dice, the lower), the British 5: the Axis first."""
    start = state({}, status={"rp": {"axis": 0, "allied": 0}, "cp": {"axis": 0, "allied": 0}})
    assert illegal(turn((3, 6), (5,), "axis", start)) == set()
    assert start.first_side == "axis"
    assert start.status["this_turn"]["gained"] == {"axis": {"rp": 3, "cp": 2}, "allied": {"rp": 5, "cp": 2}}
    written_state_text(MODULE, start.to_json())  # the record is in the status schema: the state reads back


def test_c83_the_side_that_gained_more_rp_going_first_is_illegal():
    start = state({}, status={"rp": {"axis": 0, "allied": 0}, "cp": {"axis": 0, "allied": 0}})
    assert illegal(turn((3, 6), (5,), "allied", start)) == {"W-Init/1"}


def test_c83_a_tie_on_rp_and_cp_goes_to_the_side_with_fewer_units():
    """Both gain 4 RP and 2 CP; the Axis has 1 unit, the British 2: the Axis first, not the British."""
    units = {"IT-INF-1": "0101", "GB-INF-1": "0706", "GB-INF-2": "0705"}
    status = {"rp": {"axis": 0, "allied": 0}, "cp": {"axis": 1, "allied": 1}}
    assert illegal(turn((4, 4), (4,), "axis", state(units, status=status))) == set()
    assert illegal(turn((4, 4), (4,), "allied", state(units, status=status))) == {"W-Init/1"}


def test_then_more_cp_left_and_a_full_tie_is_free():
    units = {"IT-INF-1": "0101", "GB-INF-1": "0706"}
    more_left = {"rp": {"axis": 0, "allied": 0}, "cp": {"axis": 0, "allied": 3}}
    assert illegal(turn((4, 4), (4,), "axis", state(units, status=more_left))) == {"W-Init/1"}
    even = {"rp": {"axis": 0, "allied": 0}, "cp": {"axis": 1, "allied": 1}}
    assert illegal(turn((4, 4), (4,), "allied", state(units, status=even))) == set()  # a coin decides


def test_c83_crusader_the_axis_chooses():
    """Crusader: the Axis gains 5, the British 1; the Axis going first is legal (the general rule is replaced)."""
    start = state({}, status={"rp": {"axis": 0, "allied": 0}, "cp": {"axis": 0, "allied": 0}})
    start.options = {"initiative": "axis_chooses"}
    assert illegal(turn((5, 6), (1,), "axis", start)) == set()


def test_without_the_rolls_the_order_is_not_checked():
    start = state({}, status={"cp": {"axis": 0, "allied": 0}})
    found = run("allied", [phase("initiative"), phase("move_1", "allied")], start)
    assert illegal(found) == set() and ("W-Init/1", "warning") in found


def test_c83_the_initiative_segment_ending_one_file_is_judged_by_the_next_files_first_segment():
    """File 1 ends with the initiative segment (the Axis gained fewer RP); the state written between the files
    carries it, so the British opening file 2 with their move segment is illegal, and the Axis doing so legal."""
    from pbem.model.jsonsource import JsonDocument
    from pbem.model.state import State

    def between(start):  # the state file written after file 1, as the next file reads it
        text = written_state_text(MODULE, start.to_json())
        return State.from_json(MODULE, JsonDocument("state.json", json.loads(text), text))

    for first, verdict in (("allied", {"W-Init/1"}), ("axis", set())):
        start = state({}, status={"rp": {"axis": 0, "allied": 0}, "cp": {"axis": 0, "allied": 0}})
        assert illegal(run("axis", [phase("resource"), rp("axis", 3, 6), rp("allied", 5), phase("initiative")], start)) == set()
        assert illegal(run(first, [phase("move_1", first)], between(start))) == verdict
