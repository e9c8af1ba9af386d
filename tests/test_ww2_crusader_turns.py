"""Crusader: a game as a chain of turns (W-§1, 游戏流程): the turn a file plays, the scenario's last turn (C107) and a
street fight left unresolved at a turn's end (C127, W-Street/6)."""

from __future__ import annotations

import json

from ww2_crusader_support import MODULE, SRC, H, attack, declare, illegal, move, phase, state

from pbem.engine.replay import replay
from pbem.model.actions import Special, Turn, TurnHeader
from pbem.model.jsonsource import JsonDocument
from pbem.model.module import load_module
from pbem.model.state import State, written_state_text


def play(start: State, turn: int, actions: list, side: str = "axis", module=None):
    """Replay ``actions`` as the file of ``turn`` from ``start``; the violations as (rule, severity, message)."""
    for n, action in enumerate(actions):
        action.index, action.source = n, SRC
    result = replay(module or MODULE, start, Turn("test.json", TurnHeader((module or MODULE).id, None, turn, side, None), actions))
    return [(v.rule, v.severity, v.message) for v in result.violations]


def rules(found) -> set[str]:
    return {rule for rule, severity, _ in found if severity != "warning"}


def between(start: State) -> State:
    """The state file written after one file, as the next file reads it."""
    text = written_state_text(MODULE, start.to_json())
    return State.from_json(MODULE, JsonDocument("state.json", json.loads(text), text))


# --- the turn a file plays -----------------------------------------------------------------------------------------
def attacked_in_turn_2() -> State:
    """PZ-1 attacked GB-INF-1 in turn 2's first attack segment (a D: both stay)."""
    start = state({"PZ-1": "0403", "GB-INF-1": "0404"})
    found = play(start, 2, [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 4, "D")])
    assert rules(found) == set(), found
    return between(start)


def test_a_unit_that_attacked_last_turn_attacks_again_in_the_next_turns_file():
    start = attacked_in_turn_2()
    found = play(start, 3, [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 4, "D")])
    assert "W-Round/3" not in rules(found)
    assert start.turn == 3 and start.status["this_turn"]["turn"] == 3


def test_in_the_same_turns_next_file_it_may_not_attack_again():
    start = attacked_in_turn_2()
    found = play(start, 2, [phase("attack_2"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 4, "D")])
    assert "W-Round/3" in rules(found) or "W-Round/1" in rules(found)


def test_a_file_never_plays_an_earlier_turn_than_its_start_state():
    """A later one is not judged: states written before pbem moved the turn on stayed at the game's first turn."""
    for played, verdict in ((2, set()), (3, set()), (4, set()), (1, {"W-§1"})):
        found = play(state({"PZ-1": "0403"}), played, [phase("move_1")])
        assert rules(found) == verdict, (played, found)


# --- C107: the scenario's last turn ---------------------------------------------------------------------------------
def crusader_at(turn: int) -> State:
    """The Crusader scenario's set-up, as a state of game-turn ``turn``."""
    from pbem.model.jsonsource import load_json

    document = load_json(MODULE_REAL.scenarios["crusader"])
    data = dict(document.data, turn=turn)
    return State.from_json(MODULE_REAL, JsonDocument("crusader.json", data, json.dumps(data)))


MODULE_REAL = load_module("ww2-crusader")


def test_c107_crusader_ends_after_turn_15():
    assert MODULE_REAL.last_turn("crusader") == 15
    found = play(crusader_at(15), 16, [phase("resource")], module=MODULE_REAL)
    assert ("W-§1", "illegal", "scenario crusader ends after game-turn 15: there is no game-turn 16") in found


def test_c107_turn_15_is_played():
    found = play(crusader_at(14), 15, [phase("resource")], module=MODULE_REAL)
    assert not any("ends after game-turn" in message for _, _, message in found)


def test_c107_a_game_from_no_scenario_has_no_limit():
    """Free play (C107(d)): a start state that names no scenario is played as long as the players like."""
    found = play(state({"PZ-1": "0403"}, turn=30), 31, [phase("move_1")])
    assert rules(found) == set()


# --- C127: a street fight is resolved at the end of every turn it lasts ------------------------------------------
def street(record: dict | None) -> State:
    """PZ-1 and GB-INF-1 in a street fight in the town 0303, at the end of turn 2, with this turn record."""
    start = state({"PZ-1": "0303", "GB-INF-1": "0303"})
    start.status["street_fights"] = ["0303"]
    if record is not None:
        start.status["this_turn"] = {"segment": {"name": "turn_end"}} | dict(record, turn=2)
    return start


def test_c127_a_fight_left_unresolved_at_the_turns_end_is_illegal():
    found = play(street({}), 3, [phase("resource")])
    assert rules(found) == {"W-Street/6"}
    assert any("not resolved in turn 2's turn-end phase" in message for _, _, message in found)


def test_c127_a_file_that_says_it_starts_at_the_new_turns_resource_segment_is_judged_too():
    """A header ``from`` the resource segment puts the start state in the new turn before the rules see it: the record
    of turn 2 still tells that its fight was left unresolved."""
    for record, verdict in (({}, {"W-Street/6"}), ({"street_resolved": ["0303"]}, set())):
        start = street(record)
        start.first_side = "axis"
        actions = [phase("resource")]
        for n, action in enumerate(actions):
            action.index, action.source = n, SRC
        header = TurnHeader(MODULE.id, None, 3, "axis", start_at={"phase": "resource"})
        found = replay(MODULE, start, Turn("test.json", header, actions)).violations
        assert {v.rule for v in found if v.severity != "warning"} == verdict, record


def test_c127_a_fight_resolved_and_going_on_is_legal():
    assert rules(play(street({"street_resolved": ["0303"]}), 3, [phase("resource")])) == set()


def test_c127_resolved_in_the_last_file_and_carried_in_the_state():
    """Turn 2's turn-end: 4 against 5 (1:1), both take De and stay, so the fight goes on into turn 3."""
    start = street(None)
    resolution = Special(index=0, source=SRC, order="street_resolution", units=(), at=H("0303"))
    assert rules(play(start, 2, [phase("turn_end"), resolution])) == set()
    start = between(start)
    assert start.status["street_fights"] == ["0303"] and start.status["this_turn"]["street_resolved"] == ["0303"]
    assert rules(play(start, 3, [phase("resource")])) == set()


def test_c127_a_start_state_with_no_record_of_its_turn_is_not_judged():
    assert rules(play(street(None), 3, [phase("resource")])) == set()
    start = street({})
    del start.status["this_turn"]["segment"]  # a record written by a pbem that kept no resolutions
    assert rules(play(start, 3, [phase("resource")])) == set()


def test_c127_a_fight_one_side_moved_out_of_is_over():
    """The British unit leaves the town in its move segment (也可以在己方移动节将巷战中的单位移出): no fight is left to
    resolve, and the next turn's file has nothing to say."""
    start = state({"PZ-1": "0303", "GB-INF-1": "0303"}, first="axis")
    start.status["street_fights"] = ["0303"]
    found = play(start, 2, [phase("move_1", "allied"), move("GB-INF-1", "0403")], side="allied")
    assert rules(found) == set() and start.status["street_fights"] == [] and start.status["held"]["0303"] == "axis"
    assert rules(play(between(start), 3, [phase("resource")])) == set()


def test_c127_the_same_turns_next_file_is_not_judged_yet():
    assert rules(play(street({}), 2, [phase("turn_end")])) == set()


# --- C129: a British recruit placed in Tobruk while a street fight goes on there ---------------------------------
def tobruk_contested(held: str | None) -> State:
    """Tobruk (0703) in a street fight: the 9th Australian Division against Brescia; the 70th Division waits in zone
    1. ``held``: who status.held says holds the town (the scenario: the British)."""
    start = State(MODULE_REAL, scenario=None, turn=3, side="axis", phase=None)
    from pbem.model.state import UnitState

    for unit_id, unit_def in MODULE_REAL.units.items():
        start.units[unit_id] = UnitState(unit=unit_def, side=unit_def.type.side, box="pool")
    for unit_id in ("AUS-9-DIV", "IT-27-BRESCIA"):
        start.place(unit_id, MODULE_REAL.map.index("0703"))
    start.units["UK-70-DIV"].box = "waiting_zone_1"
    start.status = {"rp": {"axis": 0, "allied": 0}, "street_fights": ["0703"]} | ({"held": {"0703": held}} if held else {})
    return start


def place_70th(start: State, where: str):
    from pbem.model.actions import Reinforce

    order = Reinforce(index=0, source=SRC, units=("UK-70-DIV",), at=MODULE_REAL.map.index(where))
    return rules(play(start, 3, [phase("reinforcement_entry"), order], side="allied", module=MODULE_REAL))


def test_c129b_a_recruit_placed_in_tobruk_during_the_fight_is_legal():
    """[AMBIG] reading 1 (the case's preferred one): Tobruk is still British-held, so still a reinforcement area, as
    it is still a replenishment place (C129(a))."""
    start = tobruk_contested("allied")
    assert place_70th(start, "0703") == set()
    assert start.units["UK-70-DIV"].at == MODULE_REAL.map.index("0703")


def test_c129b_not_once_the_axis_holds_it_nor_next_to_it():
    assert place_70th(tobruk_contested("axis"), "0703") == {"W-Reinf/3"}
    assert place_70th(tobruk_contested("allied"), "0704") == {"W-Reinf/3"}  # the clear part: not next to Tobruk


def test_c129b_a_state_that_does_not_say_who_held_the_town_gives_the_benefit_of_the_doubt():
    assert place_70th(tobruk_contested(None), "0703") == set()


def test_c127_c110_the_side_left_in_the_town_holds_it_when_the_fight_ends():
    """8:1 or more: the smaller side's survivor retreats out, the fight is over, the larger side holds the town."""
    start = state({"PZ-1": "0303", "PZ-2": "0303", "GB-HQ-1": "0303"}, status={"held": {"0303": "allied"}})
    start.status["street_fights"] = ["0303"]
    resolution = Special(index=0, source=SRC, order="street_resolution", units=(), at=H("0303"))
    assert rules(play(start, 2, [phase("turn_end"), resolution])) == set()
    assert start.status["street_fights"] == [] and start.status["held"]["0303"] == "axis"


# --- W-§1 across files: a later file of the same turn goes on from where the last one stopped -----------------------
def after_axis_attack_2(first_side: str | None) -> State:
    start = state({"PZ-1": "0403"})
    start.first_side = first_side
    assert rules(play(start, 2, [phase("move_1"), phase("attack_1"), phase("recovery"), phase("move_2"), phase("attack_2")])) == set()
    return between(start)


def test_a_later_file_of_the_turn_may_not_go_back_to_an_earlier_segment():
    found = play(after_axis_attack_2("axis"), 2, [phase("move_1")])
    assert rules(found) == {"W-§1"}


def test_the_second_players_file_goes_on_even_when_the_state_does_not_name_the_first_player():
    for first in ("axis", None):
        assert rules(play(after_axis_attack_2(first), 2, [phase("move_1", "allied")], side="allied")) == set(), first


def test_the_first_player_may_change_from_one_turn_to_the_next_across_files():
    """Turn 3's state says the Axis went first; in turn 4 the British go first, with no initiative marker written: the
    British file, then the Axis file, each legal."""
    start = state({"PZ-1": "0403"}, turn=3)
    start.first_side = "axis"
    start.status["this_turn"] = {"turn": 3, "segment": {"name": "turn_end"}}
    assert rules(play(start, 4, [phase("resource"), phase("reinforcement_entry")])) == set()
    start = between(start)
    british = [phase("move_1", "allied"), phase("attack_1", "allied"), phase("recovery", "allied"), phase("move_2", "allied"), phase("attack_2", "allied")]
    assert rules(play(start, 4, british, side="allied")) == set()
    start = between(start)
    assert rules(play(start, 4, [phase("move_1", "axis")])) == set()
    assert rules(play(between(start), 4, [phase("move_1", "allied")], side="allied")) == {"W-§1"}


def test_a_file_goes_on_with_the_segment_the_last_one_stopped_in_without_writing_its_marker():
    start = state({"PZ-1": "0403"})
    assert rules(play(start, 2, [phase("move_1")])) == set()
    found = play(between(start), 2, [move("PZ-1", "0503")])
    assert rules(found) == set(), found


def test_a_shared_segment_goes_on_in_the_other_players_file():
    start = state({"PZ-1": "0403"})
    assert rules(play(start, 2, [phase("resource"), phase("reinforcement_declaration")])) == set()
    assert rules(play(between(start), 2, [phase("reinforcement_declaration"), phase("reinforcement_entry")], side="allied")) == set()
    start = state({"PZ-1": "0403"})
    assert rules(play(start, 2, [phase("resource"), phase("reinforcement_entry")])) == set()
    assert rules(play(between(start), 2, [phase("reinforcement_declaration")], side="allied")) == {"W-§1"}


# --- a segment goes on in the other player's file: declarations, the defender's choice, owed street retreats --------
def test_the_defenders_choice_of_a_street_fight_may_come_in_the_next_file():
    """The Axis declares on the town 0303 and sends the file; the file that goes on with the attack segment starts the
    street fight the defender chose (守方可以选择进行正常的防御或巷战)."""
    start = state({"PZ-1": "0403", "GB-INF-1": "0303"})
    assert rules(play(start, 2, [phase("attack_1"), declare(["PZ-1"], "0303")])) == set()
    start = between(start)
    fight = Special(index=0, source=SRC, order="street_fight", units=("PZ-1",), at=H("0303"))
    assert rules(play(start, 2, [phase("attack_1"), fight])) == set()
    assert start.status["street_fights"] == ["0303"]


def test_a_declaration_after_a_resolution_in_the_last_file_is_still_late():
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404"})
    found = play(start, 2, [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 4, "D")])
    assert rules(found) == set(), found
    assert rules(play(between(start), 2, [declare(["PZ-2"], "0404")])) == {"W-Cbt/3"}


def forced_retreat_owed(side: str):
    """Town 0303: GB-ARM-1 at ② (defence 3) against six Axis units of 4 (24): 8:1, so it takes De and must retreat; the file
    of ``side`` resolves it and stops."""
    axis = {unit: "0303" for unit in ("PZ-1", "PZ-2", "PZ-3", "PZ-4", "PZ-5", "IT-INF-1")}
    start = state(axis | {"GB-ARM-1": ("0303", 1)})
    start.status["street_fights"] = ["0303"]
    resolution = Special(index=0, source=SRC, order="street_resolution", units=("PZ-1",), at=H("0303"))
    return start, play(start, 2, [phase("turn_end"), resolution], side=side)


def test_a_forced_street_retreat_left_to_the_retreating_players_file_is_kept_for_it():
    start, found = forced_retreat_owed("axis")
    assert rules(found) == set() and "GB-ARM-1" in start.status["this_turn"]["open"]["street_retreat"]
    start = between(start)
    retreat = Special(index=0, source=SRC, order="street_retreat", units=("GB-ARM-1",), at=H("0304"))
    assert rules(play(start, 2, [retreat], side="allied")) == set()
    assert start.units["GB-ARM-1"].at == H("0304")


def test_a_forced_street_retreat_its_own_player_leaves_unmade_is_illegal():
    assert rules(forced_retreat_owed("allied")[1]) == {"W-Street/6"}
    start, _ = forced_retreat_owed("axis")
    assert rules(play(between(start), 2, [phase("turn_end")], side="allied")) == {"W-Street/6"}
    start, _ = forced_retreat_owed("axis")
    found = play(between(start), 3, [phase("resource")])
    assert rules(found) == {"W-Street/6"} and any("had to retreat" in message for _, _, message in found)


def test_the_recovery_segment_written_again_in_the_next_file_recovers_once():
    """IT-INF-1 (stamina 1, supplied by the road to 0103) recovers +2 in the recovery segment; the file that goes on
    with it and writes its marker again recovers nothing more."""
    def recovered(split: bool) -> int:
        start = state({"IT-INF-1": "0203"}, status={"stamina": {"IT-INF-1": 0}})
        if split:
            assert rules(play(start, 2, [phase("move_1"), phase("attack_1"), phase("recovery")])) == set()
            start = between(start)
            assert rules(play(start, 2, [phase("recovery"), phase("move_2")])) == set()
        else:
            assert rules(play(start, 2, [phase("move_1"), phase("attack_1"), phase("recovery"), phase("move_2")])) == set()
        return start.units["IT-INF-1"].tallies["stamina"]

    assert recovered(split=True) == recovered(split=False) == 2


def test_the_defenders_reply_may_write_the_attackers_segment_marker_without_a_side():
    start = state({"PZ-1": "0403", "GB-INF-1": "0303"})
    assert rules(play(start, 2, [phase("attack_1"), declare(["PZ-1"], "0303")])) == set()
    fight = Special(index=0, source=SRC, order="street_fight", units=("PZ-1",), at=H("0303"))
    assert rules(play(between(start), 2, [phase("attack_1"), fight], side="allied")) == set()


def bonus_game():
    """C57: PZ-1 (in formation) and PZ-2 wipe out GB-INF-1 at ① in 0404 (De); PZ-1 has earned a bonus attack on
    GB-INF-2 in 0405."""
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": ("0404", 2), "GB-INF-2": "0405"})
    wipe = attack(["PZ-1", "PZ-2"], "0404", 2, "De", losses_defender=("GB-INF-1",))
    wipe.advance, wipe.advance_paths = ("PZ-1",), {"PZ-1": (H("0404"),)}
    formation = Special(index=0, source=SRC, order="formation", units=("PZ-1",), at=H("0404"))
    opening = [phase("turn_start"), formation, phase("move_1"), phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), wipe]
    bonus = Special(index=0, source=SRC, order="bonus", units=("PZ-1",), at=H("0405"))
    return start, opening, bonus, lambda: attack(["PZ-1"], "0405", 3, "D", retreats={"GB-INF-2": ["0406"]})


def test_the_bonus_attack_may_come_in_the_file_after_the_combat_that_earned_it():
    start, opening, bonus, bonus_attack = bonus_game()
    assert rules(play(start, 2, opening)) == set()
    start = between(start)
    assert rules(play(start, 2, [bonus, bonus_attack()])) == set()
    assert start.status["this_turn"]["bonus"] == ["PZ-1"]


def test_a_bonus_declared_in_one_file_is_resolved_as_one_in_the_next():
    """Resolved in the next file it is still the bonus attack: PZ-1 is marked as having had it, and a second hex of
    advance after it is refused as in one file."""
    start, opening, bonus, bonus_attack = bonus_game()
    assert rules(play(start, 2, opening + [bonus])) == set()
    start = between(start)
    assert rules(play(start, 2, [bonus_attack()])) == set()
    assert start.status["this_turn"]["bonus"] == ["PZ-1"]
    start, opening, bonus, bonus_attack = bonus_game()
    play(start, 2, opening + [bonus])
    second_hex = bonus_attack()
    second_hex.advance, second_hex.advance_paths = ("PZ-1",), {"PZ-1": (H("0405"), H("0406"))}
    assert "W-Bonus/1" in rules(play(between(start), 2, [second_hex]))


def test_the_bonus_is_no_longer_immediate_after_another_action_in_the_next_file():
    start, opening, bonus, bonus_attack = bonus_game()
    play(start, 2, opening)
    start = between(start)
    assert "W-Bonus/1" in rules(play(start, 2, [declare(["PZ-2"], "0405"), bonus]))
