"""WWII Campaign / Crusader: turn 1's initial deployment phase (W-Deploy/1, 初始部署阶段) in free play, skipped in
the Crusader scenario (跳过第一回合的初始部署阶段: option ``initial_deployment: skipped``)."""

from __future__ import annotations

from ww2_crusader_support import illegal, move, phase, recruit, reinforce, run, state


def turn_one(**options):
    start = state({}, status={"rp": {"axis": 20, "allied": 0}}, turn=1)
    start.options = dict(options)
    return start


def test_a_recruit_is_placed_at_once_at_its_highest_state_and_acts_in_round_1():
    """招募到的部队可以直接以最高编制等级的形态放置在地图上 … 可以在第一个回合内进行一轮行动: even an armoured
    (waiting zone 2) unit, placed in the declaration segment, at ③, moving in the first move segment."""
    start = turn_one()
    found = run("axis", [phase("reinforcement_declaration"), recruit("PZ-1"), reinforce(["PZ-1"], "0103"),
                         phase("move_1", "axis"), move("PZ-1", "0103", "0203")], start)
    assert illegal(found) == set()
    assert start.units["PZ-1"].step == 0 and start.status["rp"]["axis"] == 12


def test_recruits_left_waiting_in_the_deployment_are_not_refused():
    start = turn_one()
    assert illegal(run("axis", [phase("reinforcement_declaration"), recruit("IT-INF-1"), phase("reinforcement_entry"), phase("move_1", "axis")], start)) == set()


def test_placing_a_unit_not_recruited_is_illegal():
    assert illegal(run("axis", [phase("reinforcement_declaration"), reinforce(["PZ-1"], "0103")], turn_one())) == {"W-Deploy/1"}


def test_placing_off_a_reinforcement_area_is_illegal():
    """放置的规则与增援规则相同: only on a reinforcement area."""
    found = run("axis", [phase("reinforcement_declaration"), recruit("PZ-1"), reinforce(["PZ-1"], "0404")], turn_one())
    assert illegal(found) == {"W-Reinf/3"}


def test_crusader_skips_it_so_a_zone_2_recruit_waits():
    """跳过第一回合的初始部署阶段: turn 1's reinforcement phase is the ordinary one (W-Reinf/1: zone 2 waits a turn)."""
    start = turn_one(initial_deployment="skipped")
    found = run("axis", [phase("reinforcement_declaration"), recruit("PZ-1"), phase("reinforcement_entry"), reinforce(["PZ-1"], "0103")], start)
    assert illegal(found) == {"W-Reinf/1"}


def test_a_later_turn_places_at_state_two_and_in_round_2_only():
    start = state({}, status={"rp": {"axis": 20}}, turn=2)
    found = run("axis", [phase("reinforcement_declaration"), recruit("IT-INF-1"), phase("reinforcement_entry"), reinforce(["IT-INF-1"], "0103"),
                         phase("move_1", "axis"), move("IT-INF-1", "0103", "0203")], start)
    assert illegal(found) == {"W-Round/4"}  # the ordinary rule: round 2 only
    assert start.units["IT-INF-1"].step == 1
