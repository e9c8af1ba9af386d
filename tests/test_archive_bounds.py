"""A game at the archive's bounds is refused in one line (exit 2) and leaves no archive behind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from archive_support import archive_bench, run

import pbem.archive.gamefiles as gamefiles
import pbem.archive.play as play


@pytest.fixture
def game(tmp_path) -> list[Path]:
    return archive_bench().sample_game(tmp_path / "game")


def actions_in(paths: list[Path]) -> int:
    return sum(len(json.loads(p.read_text(encoding="utf-8"))["actions"]) for p in paths if p.name.startswith("turn"))


def test_the_sample_game_fits_and_is_stored(capsys, tmp_path, game):
    code, out, err = run(capsys, "archive", "add", *game, "--db", tmp_path / "a.sqlite")
    assert code == 0, err


def test_too_many_actions(capsys, monkeypatch, tmp_path, game):
    monkeypatch.setattr(play, "MAX_GAME_ACTIONS", actions_in(game) - 1)
    db = tmp_path / "a.sqlite"
    code, out, err = run(capsys, "archive", "add", *game, "--db", db)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "actions" in err
    assert not db.exists()


def test_too_many_bytes(capsys, monkeypatch, tmp_path, game):
    monkeypatch.setattr(gamefiles, "MAX_GAME_BYTES", sum(p.stat().st_size for p in game if p.name.startswith("turn")) - 1)
    code, out, err = run(capsys, "archive", "add", game[0].parent, "--db", tmp_path / "a.sqlite")
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "MiB together" in err


def test_too_many_turn_files(capsys, monkeypatch, tmp_path, game):
    turns = [p for p in game if p.name.startswith("turn")]
    monkeypatch.setattr(gamefiles, "MAX_TURNS", len(turns) - 1)
    code, out, err = run(capsys, "replay", game[0].parent, "--out", tmp_path / "game.html")
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "turn files" in err
    assert not (tmp_path / "game.html").exists()
