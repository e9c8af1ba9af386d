"""WWII Campaign / Crusader command cards (W-Card/1, 指令卡) and CP (W-CP/2): cases C03-C06 of the independent
checker, a legal and an illegal case each, on the module's two illustrative (supplied) cards."""

from __future__ import annotations

from pbem.model.jsonsource import parse_json
from pbem.model.state import State, written_state_text

from ww2_crusader_support import FOLDER, MODULE, build_module, card, illegal, phase, run, state

TURN_START = "example-turn-start"  # cost 3, first line 回合开始时。 (tables.json, supplied)


def test_c04_a_card_with_exactly_enough_cp_is_legal_paid_at_once_and_discarded():
    """C04: 3 CP, a 3-CP card: CP becomes 0 at once (必须立即扣减), the card goes to the discard (立即进入己方弃牌区)."""
    start = state({}, status={"cp": {"axis": 3, "allied": 0}})
    assert illegal(run("axis", [phase("turn_start"), card(TURN_START, "axis")], start)) == set()
    assert start.status["cp"]["axis"] == 0
    assert start.cards["axis"].discard == [TURN_START]


def test_c03_a_card_costing_more_cp_than_the_player_has_is_illegal():
    """C03: 2 CP, a 3-CP card: 不能预支、超支."""
    start = state({}, status={"cp": {"axis": 2, "allied": 0}})
    assert illegal(run("axis", [phase("turn_start"), card(TURN_START, "axis")], start)) == {"W-CP/2"}
    assert start.status["cp"]["axis"] == 0  # never below 0


def test_two_cards_spend_the_cp_in_turn():
    """The second card is paid from what the first left (3 CP: 3 then 1 is over)."""
    start = state({}, status={"cp": {"axis": 3}})
    found = run("axis", [phase("turn_start"), card(TURN_START, "axis"), phase("turn_end"), card("example-turn-end", "axis")], start)
    assert illegal(found) == {"W-CP/2"}


def test_c05_a_turn_start_card_in_the_reinforcement_phase_is_illegal():
    """C05: first line 回合开始时。 → only in the turn-start phase, not in 增援声明节."""
    start = state({}, status={"cp": {"axis": 5}})
    assert illegal(run("axis", [phase("reinforcement_declaration"), card(TURN_START, "axis")], start)) == {"W-Card/1"}


def test_c06_the_same_card_in_the_turn_start_phase_is_legal():
    start = state({}, status={"cp": {"axis": 5}})
    assert illegal(run("axis", [phase("turn_start"), card(TURN_START, "axis")], start)) == set()
    assert start.status["cp"]["axis"] == 2


def test_a_card_no_tables_file_describes_is_not_checked_never_guessed():
    start = state({}, status={"cp": {"axis": 0}})
    found = run("axis", [phase("move_1"), card("Rommel's gamble", "axis")], start)
    assert illegal(found) == set() and ("W-Card/1", "warning") in found
    assert start.status["cp"]["axis"] == 0 and start.cards["axis"].discard == ["Rommel's gamble"]


def test_a_groups_own_card_and_side_are_checked():
    """A group's tables give a real card: its cost, its segments and its side."""
    def change(tables):
        tables["cards"]["cards"] = {"Sandstorm": {"cost": 2, "timing": "回合结束时。", "phases": ["turn_end"], "side": "allied"}}
    module = build_module(FOLDER / "ww2-crusader-group-cards", change)
    legal = run("allied", [phase("turn_end"), card("Sandstorm", "allied")], state({}, status={"cp": {"allied": 2}}), module)
    assert illegal(legal) == set()
    wrong_side = run("axis", [phase("turn_end"), card("Sandstorm", "axis")], state({}, status={"cp": {"axis": 2}}), module)
    assert illegal(wrong_side) == {"W-Card/1"}


def test_the_discard_pile_is_written_and_reads_back():
    start = state({}, status={"cp": {"axis": 3}})
    run("axis", [phase("turn_start"), card(TURN_START, "axis")], start)
    text = written_state_text(MODULE, start.to_json())  # checked against the schemas, as pbem writes it
    again = State.from_json(MODULE, parse_json(text, "state.json"))
    assert again.cards["axis"].discard == [TURN_START]


def test_a_turn_of_many_card_plays_still_writes_a_state_that_reads_back():
    start = state({}, status={"cp": {"axis": 0}})
    run("axis", [phase("move_1")] + [card(f"unknown-{n}", "axis") for n in range(2100)], start)
    again = State.from_json(MODULE, parse_json(written_state_text(MODULE, start.to_json()), "state.json"))
    assert len(again.cards["axis"].discard) == 2000 and again.cards["axis"].discard[-1] == "unknown-2099"
