"""A state pbem writes always reads back (issue 24, class 5): after every sample turn of every bundled module,
the state the check leaves is written as ``--write-state`` writes it and read again as the next turn would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.errors import OwnOutputError
from pbem.model.jsonsource import parse_json
from pbem.model.module import load_module
from pbem.model.resources import data_dir
from pbem.model.schemas import check
from pbem.model.state import State, written_state_text

SAMPLES = data_dir("samples")
TURN_SUFFIXES = (".json", ".pbem")


def _sample_turns() -> list[Path]:
    found = []
    for path in sorted(SAMPLES.rglob("*")):
        if path.suffix not in TURN_SUFFIXES or path.name == "expected.json":
            continue
        if path.suffix == ".json" and '"actions"' not in path.read_text(encoding="utf-8")[:4000]:
            continue  # a start state or an audit's record, not a turn
        if (path.parent / "game.json").is_file():
            continue  # a game played as a chain of files: test_every_state_of_a_sample_game_reads_back
        found.append(path)
    return found


GAMES = sorted(p.parent for p in SAMPLES.rglob("game.json"))


TURNS = _sample_turns()


def test_the_samples_are_found():
    modules = {p.relative_to(SAMPLES).parts[0] for p in TURNS}
    assert modules == {"china-war-1980", "no-retreat", "paths-of-glory", "red-winter", "ww2-crusader"}
    assert len(TURNS) > 300


@pytest.mark.parametrize("name", [str(p.relative_to(SAMPLES)) for p in TURNS])
def test_the_state_after_every_sample_turn_reads_back(name):
    path = SAMPLES / name
    turn, module = load_turn(path)
    state = load_start_state(turn, module)
    result = replay(module, state, turn)
    text = result.state.written_json()
    document = parse_json(text, "after.json")
    check(document, "state")
    again = State.from_json(module, document)
    assert again.to_json() == json.loads(text)  # and writing it again gives the same file


@pytest.mark.parametrize("name", [str(p.relative_to(SAMPLES)) for p in GAMES])
def test_every_state_of_a_sample_game_reads_back(name):
    """A game folder's files start from the states the files before them leave: each of those reads back."""
    from pbem.archive.gamefiles import read_game
    from pbem.archive.games import play_input

    game = read_game([SAMPLES / name])
    module = load_turn(SAMPLES / name / game.turns[0].name)[1]
    played, _, _ = play_input(game, module)
    assert len(played.turns) == len(game.turns) > 1
    for turn in played.turns:
        text = written_state_text(module, turn.state)
        assert State.from_json(module, parse_json(text, "after.json")).to_json() == json.loads(text)


def test_a_reinforcement_event_leaves_a_state_that_reads_back(tmp_path, pbem):
    """The case that was refused: ``entries.reinforced`` as {nation: turn} after a reinforcement event."""
    sample = SAMPLES / "paths-of-glory" / "legal-15-german-reinforcements.json"
    out = tmp_path / "after.json"
    result = pbem("check", sample, "--write-state", out)
    assert result.code == 0, result.out + result.err
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["status"]["entries"]["reinforced"] == {"GE": written["turn"]}
    # The written state starts the next check without complaint.
    again = pbem("check", sample, "--state", out, "--format", "json")
    assert again.code in (0, 1), again.err


def test_a_state_pbem_would_refuse_is_never_written(tmp_path, pbem, monkeypatch):
    """pbem's own fault (exit 3), naming the key, and no file: as if a rule wrote a list where a turn belongs."""
    sample = SAMPLES / "paths-of-glory" / "legal-15-german-reinforcements.json"
    original = State.to_json

    def broken(self):
        data = original(self)
        data["status"]["entries"] = {"reinforced": ["GE"]}
        return data

    monkeypatch.setattr(State, "to_json", broken)
    out = tmp_path / "after.json"
    result = pbem("check", sample, "--write-state", out)
    assert result.code == 3
    assert "/status/entries/reinforced" in result.err and "internal error" in result.err
    assert not out.exists()


def test_written_state_text_names_the_key():
    module = load_module("paths-of-glory")
    with pytest.raises(OwnOutputError) as error:
        written_state_text(module, {"module": module.id, "turn": 1, "units": [], "status": {"vp": "ten"}})
    assert error.value.pointer == "/status/vp"
