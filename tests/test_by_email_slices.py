"""Issue 25, part 1: a China War game by email as six files a game-turn, each a slice of the sequence of play
written by whoever acts in it (the reaction phase by the non-phasing player)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from archive_support import run

from pbem.model.module import load_module
from pbem.model.sequence import Place, slice_of

GAME = Path(__file__).resolve().parents[1] / "samples" / "china-war-1980" / "by-email"
PLAY_ORDER = ["t01-soviet-movement", "t01-chinese-reaction", "t01-soviet-combat", "t01-chinese-movement", "t01-soviet-reaction",
              "t01-chinese-combat"]  # fmt: skip


@pytest.fixture
def folder(tmp_path) -> Path:
    copy = tmp_path / "game"
    shutil.copytree(GAME, copy)
    return copy


def test_the_sample_folder_holds_six_files_whose_names_do_not_give_the_play_order():
    names = sorted(p.stem for p in GAME.glob("*.pbem"))
    assert sorted(PLAY_ORDER) == names and names != PLAY_ORDER


# --- the model ---------------------------------------------------------------------------------------------
def test_the_china_war_sequence_of_play_comes_from_module_json():
    sequence = load_module("china-war-1980").sequence("soviet")
    assert [(s.phase, s.actor, s.owner) for s in sequence.steps] == [
        ("political", "both", None),
        ("reinforcement", "soviet", "soviet"), ("movement", "soviet", "soviet"), ("reaction", "chinese", "soviet"), ("combat", "soviet", "soviet"),
        ("reinforcement", "chinese", "chinese"), ("movement", "chinese", "chinese"), ("reaction", "soviet", "chinese"), ("combat", "chinese", "chinese"),
    ]  # fmt: skip
    assert sequence.rule == "4.2"


def test_a_slice_is_read_from_the_header_or_from_the_phase_markers():
    sequence = load_module("china-war-1980").sequence("soviet")
    reaction = slice_of(sequence, {"turn": 1, "side": "soviet", "from": {"phase": "reaction"}, "writer": "chinese"}, [])
    assert (reaction.start, reaction.end, reaction.writer) == (Place(1, 3), Place(1, 3), "chinese")
    # An older file: a whole Chinese player-turn, its writer worked out as the side acting in most of it.
    old = slice_of(sequence, {"turn": 2, "side": "chinese"}, [{"phase": "movement"}, {"phase": "reaction"}, {"phase": "combat"}])
    assert (old.start, old.end, old.writer, old.declared) == (Place(2, 6), Place(2, 8), "chinese", False)


def test_a_file_naming_a_phase_the_sequence_lacks_is_an_input_error(folder, capsys):
    path = folder / "t01-chinese-reaction.pbem"
    path.write_text(path.read_text().replace("Starts: reaction (chinese)", "Starts: counterblow"))
    code, out, err = run(capsys, "check", path, "--state", _state_after(folder, capsys, "t01-soviet-movement"))
    assert code == 2 and out == ""
    assert "t01-chinese-reaction.pbem" in err and "no 'counterblow' phase" in err


# --- pbem check: each slice judged from where it starts --------------------------------------------------------
def _state_after(folder: Path, capsys, *names: str) -> Path:
    """Check ``names`` in order, each from the state the one before wrote; the last state's path."""
    state = None
    for name in names:
        out_state = folder / f"after-{name}.json"
        args = ["check", folder / f"{name}.pbem", "--write-state", out_state] + (["--state", state] if state else [])
        code, out, err = run(capsys, *args)
        assert code == 0, out + err
        state = out_state
    return state


def test_each_of_the_six_files_checks_legal_from_the_state_the_one_before_wrote(folder, capsys):
    # The header's Start: names the state the receiving player's own check wrote (README's workflow).
    for name in PLAY_ORDER:
        code, out, err = run(capsys, "check", folder / f"{name}.pbem", "--write-state", folder / f"after-{name}.json")
        assert code == 0 and "all legal" in out, (name, out, err)
    state = json.loads((folder / "after-t01-chinese-combat.json").read_text())
    assert (state["turn"], state["phase"], state["side"]) == (1, "combat", "chinese")


def test_the_reaction_file_moves_in_the_reaction_phase_of_the_soviet_player_turn(folder, capsys):
    state = _state_after(folder, capsys, "t01-soviet-movement")
    code, out, _ = run(capsys, "check", folder / "t01-chinese-reaction.pbem", "--state", state, "--format", "json")
    assert code == 0 and json.loads(out)["ok"]
    # The same Chinese move written as a file that starts in the Soviet combat phase is not a reaction: a
    # non-phasing unit cannot move there, and the reaction phase it skipped is named.
    path = folder / "t01-chinese-reaction.pbem"
    path.write_text(path.read_text().replace("Starts: reaction (chinese)\nEnds: reaction (chinese)\n\n== Reaction (chinese) ==", "Starts: combat (soviet)\nEnds: combat (soviet)\n"))
    code, out, _ = run(capsys, "check", path, "--state", state)
    assert code == 1 and "rule 4.2 [illegal] missing between the state this file starts from (game-turn 1, soviet movement phase)" in out


def test_a_combat_file_after_a_skipped_reaction_names_the_missing_phase(folder, capsys):
    state = _state_after(folder, capsys, "t01-soviet-movement")
    code, out, _ = run(capsys, "check", folder / "t01-soviet-combat.pbem", "--state", state)
    assert code == 1
    assert "rule 4.2 [illegal]" in out and "game-turn 1, chinese reaction phase (soviet player-turn)" in out


def test_a_file_that_starts_where_its_state_already_is_overlaps(folder, capsys):
    state = _state_after(folder, capsys, "t01-soviet-movement", "t01-chinese-reaction", "t01-soviet-combat")
    code, out, _ = run(capsys, "check", folder / "t01-soviet-combat.pbem", "--state", state)
    assert code == 1 and "already reached game-turn 1, soviet combat phase" in out


def test_a_file_that_ends_elsewhere_than_its_header_says_is_illegal(folder, capsys):
    state = _state_after(folder, capsys, "t01-soviet-movement")
    path = folder / "t01-chinese-reaction.pbem"
    path.write_text(path.read_text().replace("Ends: reaction (chinese)", "Ends: combat (soviet)"))
    code, out, _ = run(capsys, "check", path, "--state", state)
    assert code == 1 and "says it ends at game-turn 1, soviet combat phase, but it ends at game-turn 1, chinese reaction phase" in out


# --- the archive and the replay order by place ---------------------------------------------------------------
def test_archive_add_orders_the_six_files_by_their_place_and_show_names_each_slice(folder, capsys, tmp_path):
    db = tmp_path / "a.sqlite"
    code, out, err = run(capsys, "archive", "--db", db, "add", folder)
    assert code == 0 and "6 turns, 18 actions, all legal" in out, out + err
    shown = json.loads(run(capsys, "archive", "--db", db, "show", "1", "--format", "json")[1])
    assert [t["name"] for t in shown["turns"]] == [f"{n}.pbem" for n in PLAY_ORDER]
    assert [t["writer"] for t in shown["turns"]] == ["soviet", "chinese", "soviet", "chinese", "soviet", "chinese"]
    assert shown["turns"][1]["place"] == "game-turn 1, chinese reaction phase (soviet player-turn)"
    assert shown["players"] == {"soviet": ["Alice"], "chinese": ["Bob"]}
    text = run(capsys, "archive", "--db", db, "show", "1")[1]
    assert "game-turn 1, soviet reaction phase (chinese player-turn), written by soviet" in text


def test_a_missing_reaction_file_is_refused_naming_both_files_and_the_phase(folder, capsys, tmp_path):
    (folder / "t01-chinese-reaction.pbem").unlink()
    db = tmp_path / "a.sqlite"
    code, out, err = run(capsys, "archive", "--db", db, "add", folder)
    assert code == 2 and out == "" and not db.exists()
    (line,) = err.strip().splitlines()
    assert "t01-soviet-combat.pbem" in line and "does not follow on from t01-soviet-movement.pbem" in line
    assert "missing between them: game-turn 1, chinese reaction phase (soviet player-turn)" in line


def test_two_files_for_one_slice_are_refused_naming_both(folder, capsys, tmp_path):
    shutil.copy(folder / "t01-chinese-reaction.pbem", folder / "reaction-sent-again.pbem")
    code, out, err = run(capsys, "archive", "--db", tmp_path / "a.sqlite", "add", folder)
    assert code == 2 and out == ""
    assert "reaction-sent-again.pbem" in err and "t01-chinese-reaction.pbem" in err and "same slice of play" in err


def test_an_overlapping_file_is_refused(folder, capsys, tmp_path):
    path = folder / "t01-soviet-combat.pbem"
    path.write_text(path.read_text().replace("Starts: combat (soviet)", "Starts: reaction (chinese)"))
    code, out, err = run(capsys, "archive", "--db", tmp_path / "a.sqlite", "add", folder)
    assert code == 2 and "overlaps" in err and "t01-soviet-combat.pbem" in err and "t01-chinese-reaction.pbem" in err


def test_game_json_order_is_played_as_listed_and_checked_to_follow(folder, capsys, tmp_path):
    manifest = json.loads((folder / "game.json").read_text())
    wrong = [PLAY_ORDER[0], PLAY_ORDER[2], PLAY_ORDER[1], *PLAY_ORDER[3:]]
    (folder / "game.json").write_text(json.dumps({**manifest, "turns": [f"{n}.pbem" for n in wrong]}))
    code, _, err = run(capsys, "archive", "--db", tmp_path / "a.sqlite", "add", folder)
    assert code == 2 and "t01-soviet-combat.pbem" in err and "put them in play order where you list them" in err
    (folder / "game.json").write_text(json.dumps({**manifest, "turns": [f"{n}.pbem" for n in PLAY_ORDER]}))
    code, out, err = run(capsys, "archive", "--db", tmp_path / "a.sqlite", "add", folder)
    assert code == 0 and "all legal" in out, err


def test_a_state_file_in_the_folder_is_never_the_start_unless_game_json_says_so(folder, capsys, tmp_path):
    # The players' own state files sit in the folder: they are ignored, the game starts from the scenario.
    _state_after(folder, capsys, "t01-soviet-movement", "t01-chinese-reaction")
    db = tmp_path / "a.sqlite"
    code, out, _ = run(capsys, "archive", "--db", db, "add", folder)
    assert code == 0 and "6 turns" in out
    # A game whose first file starts from a state file is refused unless game.json records it as the start.
    first = folder / "t01-soviet-movement.pbem"
    first.write_text(first.read_text().replace("Scenario: border-war", "Start: after-t01-chinese-reaction.json"))
    code, out, err = run(capsys, "archive", "--db", tmp_path / "b.sqlite", "add", folder)
    assert code == 2 and "never takes a state file from a game folder as its start" in err and "start_state" in err


def test_replay_plays_the_folder_in_place_order(folder, capsys, tmp_path):
    page = tmp_path / "game.html"
    code, out, err = run(capsys, "replay", folder, "--out", page)
    assert code == 0 and "6 turns, 18 actions, 0 violation(s)" in out, err
    text = page.read_text()
    positions = [text.index(f"{n}.pbem") for n in PLAY_ORDER]
    assert positions == sorted(positions)
