"""Paths of Glory's card piles (issue 24): the deal (4.3), the draw and its reshuffle (6.0 G), new decks (16.1),
starred events removed (9.5.1.2), combat cards kept or discarded (9.5.4.x, 12.2.11), discards before the draw
(9.5.4.6), optional cards (2.3, 9.1.4); a card that cannot be in the hand is illegal with its rule. Each rule
with a legal and an illegal case; the generic piles (pbem.model.cards) on their own at the end."""

from __future__ import annotations

import json

import pytest

from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.cards import Piles
from pbem.model.module import load_module
from pbem.model.resources import data_dir

MODULE = data_dir("modules") / "paths-of-glory"
SCENARIO = json.loads((MODULE / "scenarios" / "1914.json").read_text(encoding="utf-8"))
SEDAN = {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 4, "defender_roll": 3, "result": "2/5",
         "losses": {"defender": ["FR-5-ARMY"]}}
LIEGE = {"attack": ["GE-1-ARMY"], "target": "Liege", "roll": 1, "defender_roll": 1, "result": "0/0"}


def cp_round(n: int) -> dict:
    return {"phase": "action", "round": n, "side": "cp"}


def ap_round(n: int) -> dict:
    return {"phase": "action", "round": n, "side": "ap"}


AP_PASSES = [ap_round(1), {"card": None, "use": "automatic"}]


@pytest.fixture(scope="module")
def module():
    return load_module("paths-of-glory")


def state_doc(turn: int = 1, cards: dict | None = None, **status) -> dict:
    data = {k: v for k, v in SCENARIO.items() if k not in ("$schema", "id", "last_turn", "note", "source", "title")}
    data = json.loads(json.dumps(data)) | {"scenario": "1914", "turn": turn}
    data["status"].update(status)
    if cards is not None:
        data["cards"] = cards
    return data


def run(module, tmp_path, actions, state: dict | None = None, turn: int = 1, options: dict | None = None):
    """(illegal rules, warning rules, the state after) of a turn of ``actions``."""
    (tmp_path / "start.json").write_text(json.dumps(state or state_doc()), encoding="utf-8")
    data = {"module": "paths-of-glory", "turn": turn, "side": "cp", "start": {"state": "start.json"}, "actions": actions}
    if options:
        data["options"] = options
    (tmp_path / "turn.json").write_text(json.dumps(data), encoding="utf-8")
    parsed, _ = load_turn(tmp_path / "turn.json", module)
    start = load_start_state(parsed, module)
    result = replay(module, start, parsed)
    illegal = sorted({v.rule for v in result.violations if v.severity != "warning"})
    warned = sorted({v.rule for v in result.violations if v.severity == "warning"})
    return illegal, warned, result.state


def piles(hand=7, draw=7, discard=(), removed=(), in_play=(), played=(), decks=("mobilization",), drawn=0) -> dict:
    return {"hand": hand, "draw": draw, "decks": list(decks), "discard": list(discard), "removed": list(removed),
            "in_play": list(in_play), "played": list(played), "drawn": drawn}


# --- 4.3 the deal, 9.1.4 eight-card hands ----------------------------------------------------------------------
@pytest.mark.parametrize(("options", "hand", "draw"), [(None, 7, 7), ({"hand_size": 8}, 8, 6), ({"optional_cards": "all"}, 7, 9)])
def test_4_3_each_side_is_dealt_its_hand_from_the_mobilization_deck(module, tmp_path, options, hand, draw):
    _, _, after = run(module, tmp_path, [cp_round(1), {"card": None, "use": "automatic"}], options=options)
    for side in ("cp", "ap"):
        assert (after.cards[side].hand, after.cards[side].draw, after.cards[side].decks) == (hand, draw, ["mobilization"])


# --- 9.1.3 a card played twice in a turn ------------------------------------------------------------------------
def test_9_1_3_a_card_played_twice_in_one_turn(module, tmp_path):
    first = [cp_round(1), {"card": "CP-10", "use": "ops"}, *AP_PASSES, cp_round(2)]
    assert run(module, tmp_path, [*first, {"card": "CP-12", "use": "sr"}])[0] == []
    illegal, _, after = run(module, tmp_path, [*first, {"card": "CP-10", "use": "sr"}])
    assert illegal == ["9.1.3"]
    assert after.cards["cp"].played[0] == {"card": "CP-10", "use": "ops", "round": 1}
    assert after.cards["cp"].hand == 5  # dealt 7, two plays


def test_9_1_3_even_when_the_piles_counts_are_unknown(module, tmp_path):
    """A state that kept no piles (written by hand, or by another program): a card played twice is still caught."""
    state = state_doc(turn=3, commitment={"cp": "mobilization", "ap": "mobilization"}, last_play={"cp": {"turn": 2, "round": 6, "use": "ops"}})
    play_twice = [cp_round(1), {"card": "CP-10", "use": "ops"}, *AP_PASSES, cp_round(2), {"card": "CP-10", "use": "ops"}]
    illegal, _, after = run(module, tmp_path, play_twice, state, turn=3)
    assert illegal == ["9.1.3"] and after.cards["cp"].known is False


# --- 6.0 G the draw, the reshuffle when the draw pile runs out --------------------------------------------------
def test_6_0_a_card_discarded_on_an_earlier_turn_comes_back_only_with_a_reshuffle(module, tmp_path):
    play = [cp_round(1), {"card": "CP-10", "use": "ops"}]
    # Turn 2 ended with 6 cards in hand and 3 in the draw pile: one card is drawn, no reshuffle.
    kept = state_doc(turn=2, cards={"cp": piles(hand=6, draw=3, discard=["CP-10", "CP-12", "CP-13", "CP-05"]), "ap": piles(hand=7, draw=3)})
    illegal, _, after = run(module, tmp_path, play, kept, turn=3)
    assert illegal == ["6.0"]
    # ... with 2 in hand and 1 in the draw pile: the draw pile runs out, the discards are reshuffled.
    ran_out = state_doc(turn=2, cards={"cp": piles(hand=2, draw=1, discard=["CP-10", "CP-12", "CP-13", "CP-05"]), "ap": piles(hand=7, draw=3)})
    illegal, _, after = run(module, tmp_path, play, ran_out, turn=3)
    assert illegal == []
    cp = after.cards["cp"]
    assert cp.discard == ["CP-10"] and cp.hand == 6 and cp.draw == 0  # drew 5 (1 + 4 reshuffled), then played one
    assert cp.drawn == 2 and cp.played == [{"card": "CP-10", "use": "ops", "round": 1}]


def test_6_0_g_the_draw_phase_draws_to_the_hand_size(module, tmp_path):
    state = state_doc(turn=2, cards={"cp": piles(hand=1, draw=6), "ap": piles(hand=0, draw=3, discard=["AP-01", "AP-03"])}, round={"number": 6, "side": "ap"})
    _, _, after = run(module, tmp_path, [{"phase": "draw"}], state, turn=2)
    assert (after.cards["cp"].hand, after.cards["cp"].draw) == (7, 0)
    assert (after.cards["ap"].hand, after.cards["ap"].draw, after.cards["ap"].discard) == (5, 0, [])  # all there was


# --- 16.1 new decks -------------------------------------------------------------------------------------------
def test_16_1_a_new_deck_is_drawn_from_only_after_the_next_draw(module, tmp_path):
    raised = {"commitment": {"cp": "limited_war", "ap": "mobilization"}}
    before_draw = state_doc(turn=2, cards={"cp": piles(hand=7, draw=3, drawn=1), "ap": piles(hand=7, draw=3, drawn=1)}, **raised)
    play = [cp_round(1), {"card": "CP-15", "use": "ops"}]
    assert run(module, tmp_path, play, before_draw, turn=2)[0] == ["16.1"]
    illegal, _, after = run(module, tmp_path, play, before_draw, turn=3)  # turn 2's draw: the Limited War deck joins
    assert illegal == []
    cp = after.cards["cp"]
    assert cp.decks == ["mobilization", "limited_war"] and cp.hand == 6 and cp.draw == 3 + 20  # the hand was full: nothing drawn
    assert run(module, tmp_path, play, state_doc(turn=2, cards={"cp": piles(), "ap": piles()}), turn=2)[0] == ["16.1"]  # still mobilization


# --- 9.5.1.2 starred events removed -------------------------------------------------------------------------------
def test_9_5_1_2_a_starred_event_leaves_the_game(module, tmp_path):
    illegal, _, after = run(module, tmp_path, [cp_round(1), {"card": "CP-05", "use": "event"}, *AP_PASSES, cp_round(2), {"card": "CP-12", "use": "ops"}])
    assert "9.5.1.2" not in illegal and after.cards["cp"].removed == ["CP-05"] and "CP-05" not in after.cards["cp"].discard
    state = state_doc(cards={"cp": piles(removed=["CP-12"]), "ap": piles()})
    assert run(module, tmp_path, [cp_round(1), {"card": "CP-12", "use": "ops"}], state)[0] == ["9.5.1.2"]
    # Played for OPS, a starred card is only discarded.
    _, _, after = run(module, tmp_path, [cp_round(1), {"card": "CP-05", "use": "ops"}])
    assert after.cards["cp"].discard == ["CP-05"] and after.cards["cp"].removed == []


# --- 9.5.4 combat cards ------------------------------------------------------------------------------------------
def attack_with(cards: list[str], result: str = "2/5", also: list | None = None) -> list:
    return [cp_round(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack", "Aachen": "attack"}, "cost": 2},
            {**SEDAN, "cards": cards, "result": result}, *(also or [])]


def test_9_5_4_2_the_winner_keeps_its_combat_card_face_up(module, tmp_path):
    illegal, _, after = run(module, tmp_path, attack_with(["CP-03"]))
    assert illegal == [] and after.cards["cp"].in_play == [{"card": "CP-03", "round": 1}]
    assert after.cards["cp"].played[-1] == {"card": "CP-03", "use": "combat", "round": 1} and after.cards["cp"].hand == 5
    # Kept face up, it is not in the hand: not played as OPS...
    later = [*AP_PASSES, cp_round(2)]
    assert run(module, tmp_path, attack_with(["CP-03"], also=[*later, {"card": "CP-03", "use": "ops"}]))[0] == ["9.5.4.2"]
    # ... but used again in a combat of a later action round (the hand does not pay for it twice).
    again = [*later, {"card": None, "use": "automatic"}, {"activate": {"Aachen": "attack"}, "cost": 1}, {**LIEGE, "cards": ["CP-03"]}]
    illegal, _, after = run(module, tmp_path, attack_with(["CP-03"], also=again))
    assert "9.5.4.4" not in illegal and "9.5.4.2" not in illegal and after.cards["cp"].hand == 5


def test_9_5_4_4_a_kept_combat_card_once_an_action_round(module, tmp_path):
    twice = attack_with(["CP-03"], also=[{**LIEGE, "cards": ["CP-03"]}])
    assert "9.5.4.4" in run(module, tmp_path, twice)[0]
    assert "9.5.4.4" not in run(module, tmp_path, attack_with(["CP-03"], also=[{**LIEGE, "cards": []}]))[0]


def test_12_2_11_the_loser_discards_its_combat_cards_at_once(module, tmp_path):
    _, _, after = run(module, tmp_path, attack_with(["CP-03", "AP-07"], result="2/5"))
    assert after.cards["cp"].in_play == [{"card": "CP-03", "round": 1}]
    assert after.cards["ap"].discard == ["AP-07"] and after.cards["ap"].hand == 6  # the defender's card left its hand
    _, _, after = run(module, tmp_path, attack_with(["CP-03"], result="3/3"))  # a tie is lost by both
    assert after.cards["cp"].discard == ["CP-04", "CP-03"] and after.cards["cp"].in_play == []
    # Lost, then played again the same turn: 9.1.3.
    lost = attack_with(["CP-03"], result="5/2", also=[*AP_PASSES, cp_round(2), {"card": "CP-03", "use": "ops"}])
    assert run(module, tmp_path, lost)[0] == ["9.1.3"]


def test_9_5_4_2_starred_combat_cards_leave_the_game_even_when_won(module, tmp_path):
    _, _, after = run(module, tmp_path, attack_with(["CP-02"]))
    assert after.cards["cp"].removed == ["CP-02"] and after.cards["cp"].in_play == []


def test_they_shall_not_pass_is_kept_on_a_tie(module, tmp_path):
    total = {"commitment": {"cp": "mobilization", "ap": "total_war"}}
    every_deck = ("mobilization", "limited_war", "total_war")
    state = state_doc(cards={"cp": piles(), "ap": piles(draw=40, decks=every_deck)}, **total)
    _, _, after = run(module, tmp_path, attack_with(["AP-39"], result="3/3"), state)
    assert after.cards["ap"].in_play == [{"card": "AP-39", "round": 1}]
    _, _, after = run(module, tmp_path, attack_with(["AP-39"], result="2/5"), state)  # the Allies lose: discarded
    assert after.cards["ap"].discard == ["AP-39"]


def test_9_5_4_5_combat_cards_in_play_are_discarded_when_the_draw_begins(module, tmp_path):
    state = state_doc(turn=2, cards={"cp": piles(hand=3, draw=7, in_play=[{"card": "CP-03", "round": 4}]), "ap": piles()}, round={"number": 6, "side": "ap"})
    _, _, after = run(module, tmp_path, [{"phase": "draw"}], state, turn=2)
    assert after.cards["cp"].in_play == [] and after.cards["cp"].discard == ["CP-03"] and after.cards["cp"].hand == 7


# --- 9.5.4.6 discards before the draw ---------------------------------------------------------------------------
def test_9_5_4_6_only_combat_cards_are_discarded_before_the_draw(module, tmp_path):
    state = state_doc(turn=2, cards={"cp": piles(hand=3, draw=7), "ap": piles()}, round={"number": 6, "side": "ap"})
    illegal, _, after = run(module, tmp_path, [{"phase": "draw"}, {"card": "CP-03", "use": "discard", "side": "cp"}], state, turn=2)
    assert illegal == []
    assert after.cards["cp"].discard == ["CP-03"] and after.cards["cp"].hand == 7 and after.cards["cp"].draw == 2
    assert run(module, tmp_path, [{"phase": "draw"}, {"card": "CP-10", "use": "discard", "side": "cp"}], state, turn=2)[0] == ["9.5.4.6"]
    assert run(module, tmp_path, [cp_round(1), {"card": "CP-03", "use": "discard", "side": "cp"}])[0] == ["9.5.4.6"]


# --- 2.3 optional cards -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("options", "illegal", "warned"), [
    ({"optional_cards": "none"}, ["2.3"], []),
    (None, [], ["2.3"]),  # the module's default, not the game's choice: a reminder
    ({"optional_cards": "all"}, [], []),
    ({"optional_cards": "selected"}, [], []),
])
def test_2_3_optional_cards_only_in_a_game_that_uses_them(module, tmp_path, options, illegal, warned):
    found, warnings, _ = run(module, tmp_path, [cp_round(1), {"card": "CP-57", "use": "ops"}], options=options)
    assert found == illegal and ("2.3" in warnings) == ("2.3" in warned)


def test_selected_optional_cards_keep_the_decks_sizes(module, tmp_path):
    """Way 2 of 'Adding More Paths to Your Deck': each optional card chosen replaces a matching one, secretly."""
    _, _, after = run(module, tmp_path, [cp_round(1), {"card": None, "use": "automatic"}], options={"optional_cards": "selected"})
    assert after.cards["cp"].hand + after.cards["cp"].draw == 14


# --- the state ---------------------------------------------------------------------------------------------------
def test_the_piles_are_written_and_read_back(pbem, tmp_path):
    (tmp_path / "start.json").write_text(json.dumps(state_doc()), encoding="utf-8")
    turn = {"module": "paths-of-glory", "turn": 1, "side": "cp", "start": {"state": "start.json"}, "actions": attack_with(["CP-03"])}
    (tmp_path / "t1.json").write_text(json.dumps(turn), encoding="utf-8")
    assert pbem("check", tmp_path / "t1.json", "--write-state", tmp_path / "after.json").code == 0
    written = json.loads((tmp_path / "after.json").read_text(encoding="utf-8"))
    assert written["cards"]["cp"]["in_play"] == [{"card": "CP-03", "round": 1}]
    shown = pbem("state", "show", tmp_path / "after.json")
    assert "[cards cp] hand 5, draw pile 7; decks mobilization" in shown.out and "in play: CP-03" in shown.out
    assert json.loads(pbem("state", "show", tmp_path / "after.json", "--format", "json").out)["cards"]["ap"]["hand"] == 7


@pytest.mark.parametrize(("cards", "pointer"), [
    ({"cp": piles(discard=["CP-99"])}, "/cards/cp/discard/0"),
    ({"xx": piles()}, "/cards/xx"),
    ({"cp": piles(hand=-1)}, "/cards/cp/hand"),
])
def test_bad_piles_in_a_state_are_an_input_error(pbem, tmp_path, cards, pointer):
    (tmp_path / "start.json").write_text(json.dumps(state_doc(cards=cards)), encoding="utf-8")
    turn = {"module": "paths-of-glory", "turn": 1, "side": "cp", "start": {"state": "start.json"}, "actions": []}
    (tmp_path / "t1.json").write_text(json.dumps(turn), encoding="utf-8")
    result = pbem("check", tmp_path / "t1.json")
    assert result.code == 2 and pointer in result.err


# --- the generic piles ---------------------------------------------------------------------------------------------
def test_generic_piles_draw_reshuffle_and_decks():
    piles_ = Piles(hand=5, draw=1, decks=["a"], discard=["x", "y", "z"])
    assert piles_.draw_to(7) == (2, True)  # one from the draw pile, then the discards reshuffled
    assert (piles_.hand, piles_.draw, piles_.discard) == (7, 2, [])
    piles_.play("x", "ops", "discard", round=1)
    assert piles_.whereabouts("x") == "discard" and piles_.played_entry("x") == {"card": "x", "use": "ops", "round": 1}
    piles_.add_deck("b", 10)
    assert piles_.draw_to(7) == (1, True) and piles_.draw == 2 + 10 + 1 - 1 and piles_.decks == ["a", "b"]  # a new deck: shuffled in with the discards
    piles_.put("q", "in_play", round=2)
    assert piles_.whereabouts("q") == "in_play" and piles_.unseen(["q", "r"]) == ["r"]
    piles_.leave_play("q", "removed")
    assert piles_.whereabouts("q") == "removed"
    assert Piles.from_json(piles_.to_json()) == piles_


def test_generic_piles_with_unknown_counts_take_every_draw_to_reshuffle():
    piles_ = Piles(known=False, discard=["x"])
    piles_.draw_to(7)
    assert piles_.whereabouts("x") is None


def test_a_hostile_turn_still_leaves_piles_that_read_back(module, tmp_path):
    """Thousands of plays of one card, in a seventh round: every one judged, and the state still writes."""
    actions = [{"phase": "action", "round": 7, "side": "cp"}, *[{"card": "CP-10", "use": "event" if n % 2 else "x" * 300} for n in range(3000)]]
    _, _, after = run(module, tmp_path, actions)
    text = after.written_json()
    assert json.loads(text)["cards"]["cp"]["removed"] == ["CP-10"]


def test_an_absurd_round_number_is_an_input_error(pbem, tmp_path):
    turn = {"module": "paths-of-glory", "turn": 1, "side": "cp", "start": {"scenario": "1914"},
            "actions": [{"phase": "action", "round": 10**12, "side": "cp"}]}
    (tmp_path / "t1.json").write_text(json.dumps(turn), encoding="utf-8")
    result = pbem("check", tmp_path / "t1.json", "--write-state", tmp_path / "after.json")
    assert result.code == 2 and "/actions/0/round" in result.err and not (tmp_path / "after.json").exists()


def test_9_5_1_3_a_combat_card_with_a_war_status_adds_it_when_first_played(module, tmp_path):
    limited = {"commitment": {"cp": "limited_war", "ap": "mobilization"}, "war_status": {"cp": 4, "ap": 0}, "combined_war_status": 4}
    state = state_doc(cards={"cp": piles(draw=27, decks=("mobilization", "limited_war")), "ap": piles()}, **limited)
    illegal, _, after = run(module, tmp_path, attack_with(["CP-26"]), state)  # Place of Execution (1), starred
    assert illegal == [] and after.status["war_status"]["cp"] == 5 and after.status["combined_war_status"] == 5
    assert after.cards["cp"].removed == ["CP-26"]
    again = [*AP_PASSES, cp_round(2), {"card": None, "use": "automatic"}, {"activate": {"Aachen": "attack"}, "cost": 1}, {**LIEGE, "cards": ["CP-26"]}]
    assert "9.5.1.2" in run(module, tmp_path, attack_with(["CP-26"], also=again), state)[0]
    _, _, after = run(module, tmp_path, attack_with(["CP-03"]), state)
    assert after.status["war_status"]["cp"] == 4
