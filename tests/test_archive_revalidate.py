"""pbem archive revalidate: every stored game replayed again, changed verdicts reported and stored."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from archive_support import archive_bench, run

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def archived(capsys, tmp_path) -> Path:
    bench = archive_bench()
    paths = bench.sample_game(tmp_path / "game")
    db = tmp_path / "archive.sqlite"
    assert run(capsys, "archive", "--db", db, "add", *paths)[0] == 0
    assert run(capsys, "archive", "--db", db, "add", paths[0])[0] == 0
    return db


def test_nothing_changed(capsys, archived):
    code, out, _ = run(capsys, "archive", "--db", archived, "revalidate", "--jobs", "1")
    assert code == 0
    assert "2 game(s), 24 actions re-checked" in out and "no verdict changed" in out


def forget_verdicts(db_path: Path) -> None:
    """What an archive looks like after a module correction: the stored verdicts no longer match."""
    db = sqlite3.connect(db_path)
    db.execute("DELETE FROM violations")
    db.execute("UPDATE games SET ok = 1, violations = 0")
    db.commit()
    db.close()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_changed_verdicts_are_reported_and_stored(capsys, archived, jobs):
    forget_verdicts(archived)
    code, out, _ = run(capsys, "archive", "--db", archived, "revalidate", "--jobs", jobs, "--format", "json")
    assert code == 1
    report = json.loads(out)
    assert report["games"] == 2 and report["jobs"] == int(jobs)
    [change] = report["changed"]
    assert change["game"] == 1 and change["was_ok"] and not change["now_ok"]
    assert [v[2] for v in change["added"]] == ["6.22"] and change["removed"] == []
    code, out, _ = run(capsys, "archive", "--db", archived, "search", "--rule", "6.22", "--format", "json")
    assert [row["id"] for row in json.loads(out)] == [1]
    assert run(capsys, "archive", "--db", archived, "revalidate")[0] == 0


def test_dry_run_stores_nothing(capsys, archived):
    forget_verdicts(archived)
    code, out, _ = run(capsys, "archive", "--db", archived, "revalidate", "--dry-run", "--jobs", "1")
    assert code == 1 and "game #1: legal -> violations" in out and "+ turn 3" in out and "rule 6.22" in out
    assert run(capsys, "archive", "--db", archived, "revalidate", "--dry-run", "--jobs", "1")[0] == 1


def test_against_a_module_folder(capsys, archived, tmp_path):
    copy = tmp_path / "china-war-1980"
    shutil.copytree(ROOT / "modules" / "china-war-1980", copy)
    code, out, _ = run(capsys, "archive", "--db", archived, "revalidate", "--module", copy, "--jobs", "1")
    assert code == 0 and "2 game(s)" in out
    code, out, _ = run(capsys, "archive", "--db", archived, "revalidate", "--module", "nonesuch")
    assert code == 2


def test_changes_are_listed_by_game_whichever_worker_finishes_first(capsys, archived):
    assert run(capsys, "archive", "--db", archived, "add", archived.parent / "game")[0] == 0
    forget_verdicts(archived)
    code, out, _ = run(capsys, "archive", "--db", archived, "revalidate", "--jobs", "2", "--format", "json", "--dry-run")
    assert code == 1
    assert [c["game"] for c in json.loads(out)["changed"]] == [1, 3]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_turn_files_pass_through_the_memory_folder_and_nothing_is_left(capsys, archived, tmp_path, monkeypatch, jobs):
    from pbem.archive import play

    memory = tmp_path / "memory"
    memory.mkdir()
    for name in ("TMPDIR", "TEMP", "TMP"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(play, "_MEMORY_FOLDER", memory)
    monkeypatch.setattr(play, "_MEMORY_FOLDER_FREE", 0)
    written: list[Path] = []
    write = play.TurnLoader.write
    monkeypatch.setattr(play.TurnLoader, "write", lambda self, name, data: written.append(write(self, name, data)) or written[-1])
    forget_verdicts(archived)
    code, out, _ = run(capsys, "archive", "--db", archived, "revalidate", "--jobs", jobs)
    assert code == 1 and "game #1: legal -> violations" in out
    if jobs == "1":  # a worker's writes happen in its own process
        assert written and all(memory in p.parents for p in written)
    assert list(memory.iterdir()) == []


def test_the_users_temporary_folder_or_without_a_usable_memory_folder_the_systems_is_used(tmp_path, monkeypatch):
    from pbem.archive import play

    for name in ("TMPDIR", "TEMP", "TMP"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(play, "_MEMORY_FOLDER", tmp_path / "absent")
    assert play.scratch_parent() is None
    monkeypatch.setattr(play, "_MEMORY_FOLDER", tmp_path)
    monkeypatch.setattr(play, "_MEMORY_FOLDER_FREE", 2**62)  # more room than any disk has
    assert play.scratch_parent() is None
    monkeypatch.setattr(play, "_MEMORY_FOLDER_FREE", 0)
    assert play.scratch_parent() == str(tmp_path)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "chosen"))  # the user's choice comes first
    assert play.scratch_parent() is None
