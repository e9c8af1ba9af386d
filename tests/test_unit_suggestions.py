"""A mistyped unit suggests the unit on the map nearest in spelling first; a turn of another game is one line."""

from __future__ import annotations

import json

from pbem.model.names import nearest
from pbem.model.resources import data_dir

SAMPLES = data_dir("samples")
HEADER = "Game: china-war-1980\nScenario: border-war\nTurn: 1\nSide: chinese\n\n== Movement ==\n"
TURN = {"module": "china-war-1980", "scenario": "border-war", "turn": 1, "side": "chinese", "start": {"scenario": "border-war"},
        "actions": [{"phase": "movement"}, {"move": "PLA-TK-XX-1-20", "path": ["3913", "3914"]}]}  # fmt: skip


def test_nearest_counts_a_swap_as_one_edit_and_prefers_units_in_play():
    ids = [(f"PLA-TK-XX-1-{n:02}", f"PLA-TK-XX-1-{n:02}") for n in range(1, 11)]
    assert nearest("PLA-TK-XX-1-20", ids) == ["PLA-TK-XX-1-02", "PLA-TK-XX-1-10"]  # one swap, one change
    assert nearest("PLA-TK-XX-1-20", ids, {"PLA-TK-XX-1-02"}) == ["PLA-TK-XX-1-02"]
    # A name in play that is further than one out of play still comes first; the nearer one follows it.
    assert nearest("PLA-TK-XX-1-20", ids, {"PLA-TK-XX-1-03"}) == ["PLA-TK-XX-1-03", "PLA-TK-XX-1-02", "PLA-TK-XX-1-10"]
    assert nearest("nothing like it", ids) == []


def test_a_typo_in_a_notation_turn_suggests_the_unit_on_the_map(pbem, tmp_path):
    turn = tmp_path / "t.pbem"
    turn.write_text(HEADER + "PLA-TK-XX-1-20: 3913-3914\n")
    result = pbem("check", turn)
    assert result.code == 2
    assert result.err.strip() == f"error: {turn}:7:1: unknown unit 'PLA-TK-XX-1-20' (did you mean PLA-TK-XX-1-02 at 3913?)"


def test_a_typo_in_a_json_turn_suggests_the_unit_on_the_map(pbem, tmp_path):
    turn = tmp_path / "t.json"
    turn.write_text(json.dumps(TURN))
    result = pbem("check", turn)
    assert result.code == 2 and "(did you mean PLA-TK-XX-1-02 at 3913?)" in result.err


def test_the_units_in_play_come_from_the_state_the_turn_starts_from(pbem, tmp_path):
    # With --state, the units on the map there: here PLA-TK-XX-1-10 stands at 3913 instead.
    scenario = json.loads((data_dir("modules") / "china-war-1980" / "scenarios" / "border-war.json").read_text())
    state = {"module": "china-war-1980", "scenario": "border-war", "turn": 1,
             "units": [{"id": "PLA-TK-XX-1-10", "at": "3913"}] + [u for u in scenario["units"] if u["id"] != "PLA-TK-XX-1-02"]}  # fmt: skip
    (tmp_path / "state.json").write_text(json.dumps(state))
    turn = tmp_path / "t.pbem"
    turn.write_text(HEADER + "PLA-TK-XX-1-20: 3913-3914\n")
    result = pbem("check", turn, "--state", tmp_path / "state.json")
    assert "(did you mean PLA-TK-XX-1-10 at 3913?)" in result.err
    # and from the header's own state file
    turn.write_text(HEADER.replace("Scenario: border-war\n", "Start: state.json\n") + "PLA-TK-XX-1-20: 3913-3914\n")
    assert "(did you mean PLA-TK-XX-1-10 at 3913?)" in pbem("check", turn).err


def test_a_turn_of_another_game_is_one_line_naming_that_game(pbem, tmp_path):
    pog = (SAMPLES / "paths-of-glory" / "legal-01-guns-of-august-opening.pbem").read_text()
    turn = tmp_path / "t.pbem"
    turn.write_text(pog.replace("Game: Paths of Glory", "Game: china-war-1980"))
    result = pbem("check", turn)
    assert result.code == 2
    assert result.err.count("\n") == 1
    assert result.err.startswith(f"error: {turn}:1:7: this is a turn of Paths of Glory (paths-of-glory), not of china-war-1980")
    assert "fix the Game: line" in result.err


def test_a_few_typos_are_still_each_reported(pbem, tmp_path):
    turn = tmp_path / "t.pbem"
    turn.write_text(HEADER + "PLA-TK-XX-1-20: 3913-3914\nPLA-TK-XX-1-30: 3913-3914\nPLA-TK-XX-1-03: 3913-3914\nPLA-TK-XX-1-01: 2609-2610\n")
    result = pbem("check", turn)
    assert result.code == 2 and "1 more" in result.err and "another game" not in result.err


def test_names_that_no_game_knows_are_one_line_too(pbem, tmp_path):
    turn = tmp_path / "t.pbem"
    turn.write_text(HEADER + "Hans: Xanadu-Shangri\nFritz: Atlantis-Lemuria\n")
    result = pbem("check", turn)
    assert result.code == 2 and result.err.count("\n") == 1
    assert "this does not look like a turn of china-war-1980" in result.err and "6 of its 7 names" in result.err


def test_a_json_turn_of_another_game_names_that_game(pbem, tmp_path):
    data = json.loads((SAMPLES / "paths-of-glory" / "legal-01-guns-of-august-opening.json").read_text())
    data.update(module="china-war-1980", scenario="border-war", start={"scenario": "border-war"})
    turn = tmp_path / "t.json"
    turn.write_text(json.dumps(data))
    result = pbem("check", turn)
    assert result.code == 2 and result.err.count("\n") == 1
    assert "(/module): this is a turn of Paths of Glory (paths-of-glory), not of china-war-1980" in result.err
    # A China War turn with one bad unit is not mistaken for another game's.
    turn.write_text(json.dumps(TURN))
    assert "this is a turn of" not in pbem("check", turn).err
