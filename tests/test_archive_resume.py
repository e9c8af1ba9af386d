"""archive revalidate's checkpoint: a stopped run (Ctrl-C, kill -9) goes on where it stopped, re-checking no game
twice and skipping none; a changed archive or module starts afresh; any number of processes gives the same verdicts."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from archive_support import archive_bench, run

from pbem.archive import revalidate as revalidation
from pbem.archive.store import open_archive

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def archived(capsys, tmp_path) -> Path:
    """Five games, four of them with a 6.22 violation, whose stored verdicts were lost (as after a module fix)."""
    paths = archive_bench().sample_game(tmp_path / "game")
    db_path = tmp_path / "archive.sqlite"
    for game in (paths, paths[:1], paths, paths, paths):
        assert run(capsys, "archive", "--db", db_path, "add", *game)[0] == 0
    db = sqlite3.connect(db_path)
    db.execute("DELETE FROM violations")
    db.execute("UPDATE games SET ok = 1, violations = 0")
    db.commit()
    db.close()
    return db_path


def checked_games(monkeypatch) -> list[int]:
    """The games the one-process worker replays from now on."""
    seen: list[int] = []
    check = revalidation.Worker.check
    monkeypatch.setattr(revalidation.Worker, "check", lambda self, job: seen.append(job[0]) or check(self, job))
    return seen


def stop_after(batches: int):
    def stored(games: int) -> None:
        if games >= batches:
            raise KeyboardInterrupt

    return stored


def whole(report: revalidation.Report) -> dict:
    found = report.as_json()
    del found["seconds"], found["resumed"]
    return found


def test_a_stopped_run_resumes_where_it_stopped(archived, monkeypatch):
    monkeypatch.setattr(revalidation, "BATCH_GAMES", 2)
    seen = checked_games(monkeypatch)
    with open_archive(archived) as archive, pytest.raises(KeyboardInterrupt):
        revalidation.revalidate(archive, jobs=1, on_stored=stop_after(2))
    assert seen == [1, 2]
    with open_archive(archived) as archive:
        assert archive.db.execute("SELECT game_id FROM revalidated ORDER BY game_id").fetchall() == [(1,), (2,)]
        report = revalidation.revalidate(archive, jobs=1)
        # Nothing checked twice, nothing skipped; the report is the whole run's, game 1's change included.
        assert seen == [1, 2, 3, 4, 5] and report.resumed == 2 and report.games == 5
        assert report.actions == archive.db.execute("SELECT sum(actions) FROM games").fetchone()[0]
        assert [c.game for c in report.changed] == [1, 3, 4, 5]
        assert "resumed: 2 of the games" in report.lines()[-1]
        # A finished run leaves no checkpoint: the next run re-checks everything, and finds all stored already.
        assert archive.db.execute("SELECT count(*) FROM revalidated").fetchone() == (0,)
        assert archive.db.execute("SELECT count(*) FROM revalidation").fetchone() == (0,)
        again = revalidation.revalidate(archive, jobs=1)
        assert seen[5:] == [1, 2, 3, 4, 5] and again.resumed == 0 and not again.changed


def test_the_resumed_report_is_that_of_an_unbroken_run(archived, tmp_path, monkeypatch):
    unbroken = tmp_path / "unbroken.sqlite"
    shutil.copy(archived, unbroken)
    with open_archive(unbroken) as archive:
        expected = whole(revalidation.revalidate(archive, jobs=1))
    monkeypatch.setattr(revalidation, "BATCH_GAMES", 1)
    with open_archive(archived) as archive:
        with pytest.raises(KeyboardInterrupt):
            revalidation.revalidate(archive, jobs=2, on_stored=stop_after(3))
        resumed = revalidation.revalidate(archive, jobs=2)
    assert resumed.resumed >= 3 and whole(resumed) | {"jobs": 1} == expected
    for table in ("games", "violations", "turns"):
        columns = "*" if table != "games" else "id, ok, violations, actions, checked_version"
        query = f"SELECT {columns} FROM {table} ORDER BY 1, 2"
        assert sqlite3.connect(archived).execute(query).fetchall() == sqlite3.connect(unbroken).execute(query).fetchall()


def test_a_changed_archive_starts_afresh(archived, capsys, monkeypatch):
    monkeypatch.setattr(revalidation, "BATCH_GAMES", 2)
    with open_archive(archived) as archive, pytest.raises(KeyboardInterrupt):
        revalidation.revalidate(archive, jobs=1, on_stored=stop_after(2))
    assert run(capsys, "archive", "--db", archived, "add", *sorted((archived.parent / "game").glob("*.json")))[0] == 0
    seen = checked_games(monkeypatch)
    with open_archive(archived) as archive:
        report = revalidation.revalidate(archive, jobs=1)
    assert seen == [1, 2, 3, 4, 5, 6] and report.resumed == 0


def test_a_changed_module_starts_afresh_and_other_games_chosen_too(archived, tmp_path, monkeypatch):
    module = tmp_path / "china-war-1980"
    shutil.copytree(ROOT / "modules" / "china-war-1980", module, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(revalidation, "BATCH_GAMES", 2)
    with open_archive(archived) as archive, pytest.raises(KeyboardInterrupt):
        revalidation.revalidate(archive, module=str(module), jobs=1, on_stored=stop_after(2))
    seen = checked_games(monkeypatch)
    with open_archive(archived) as archive:
        with pytest.raises(KeyboardInterrupt):  # the same module: resumed (games 3 and 4 this time)
            revalidation.revalidate(archive, module=str(module), jobs=1, on_stored=stop_after(4))
        assert seen == [3, 4]
        rules = module / "rules" / "__init__.py"
        rules.write_text(rules.read_text() + "\n# corrected\n")
        report = revalidation.revalidate(archive, module=str(module), jobs=1)
        assert seen[2:] == [1, 2, 3, 4, 5] and report.resumed == 0
        with pytest.raises(KeyboardInterrupt):
            revalidation.revalidate(archive, jobs=1, on_stored=stop_after(2))
        report = revalidation.revalidate(archive, games=[2, 3, 4], jobs=1)  # other games chosen
        assert seen[-3:] == [2, 3, 4] and report.resumed == 0


def test_dry_run_keeps_no_checkpoint_and_leaves_one_alone(archived, monkeypatch):
    monkeypatch.setattr(revalidation, "BATCH_GAMES", 2)
    with open_archive(archived) as archive:
        with pytest.raises(KeyboardInterrupt):
            revalidation.revalidate(archive, jobs=1, on_stored=stop_after(2))
        before = archive.db.execute("SELECT * FROM revalidated").fetchall()
        report = revalidation.revalidate(archive, jobs=1, store=False)
        assert report.games == 5 and report.resumed == 0 and [c.game for c in report.changed] == [3, 4, 5]
        assert archive.db.execute("SELECT * FROM revalidated").fetchall() == before


CHILD = """
import sys, time
from pathlib import Path
from pbem.archive import revalidate as target
marker, flush = Path(sys.argv[1]), target._Batch.flush
target.BATCH_GAMES = 1
def flushed(self, *args, **kwargs):
    flush(self, *args, **kwargs)
    if self.report.games == 2:
        marker.write_text("two games stored")
        time.sleep(60)
target._Batch.flush = flushed
from pbem.cli import main
main(sys.argv[2:])
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
def test_kill_9_then_run_again(archived, tmp_path):
    marker = tmp_path / "marker"
    command = ["archive", "--db", str(archived), "revalidate", "--jobs", "2", "--format", "json"]
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    # In a session of its own, so that the kill takes its worker processes too (as a terminal's would).
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(marker), *command], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env=env, start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + 30
    while not marker.exists():
        assert child.poll() is None, "the child ended early"
        assert time.monotonic() < deadline, "the child never stored two games"
        time.sleep(0.02)
    os.killpg(child.pid, signal.SIGKILL)
    child.wait(10)
    assert sqlite3.connect(archived).execute("SELECT game_id FROM revalidated ORDER BY 1").fetchall() == [(1,), (2,)]
    done = subprocess.run([sys.executable, "-m", "pbem", *command], capture_output=True, text=True, env=env)
    report = json.loads(done.stdout)
    assert done.returncode == 1 and report["resumed"] == 2 and report["games"] == 5
    assert [c["game"] for c in report["changed"]] == [1, 3, 4, 5]


def test_progress_is_plain_text_on_stderr_when_it_is_not_a_terminal(archived, capsys, monkeypatch):
    monkeypatch.setattr(revalidation, "PLAIN_EVERY", 0.0)
    code, out, err = run(capsys, "archive", "--db", archived, "revalidate", "--jobs", "1")
    assert code == 1 and "re-checked 1 of 5 games, about" in err and "re-checked 4 of 5 games" in err
    assert "\x1b" not in err and "games, about" not in out


def test_the_progress_bar_starts_at_the_games_done_already():
    shown = revalidation._progress("bar", 5, 2)
    with shown as advance:
        advance()
        [task] = shown.bar.tasks
        assert (task.completed, task.total) == (3, 5)
    assert not shown.bar.live.is_started


def test_a_checkpoint_not_signed_with_the_users_key_is_not_resumed(archived, monkeypatch, tmp_path):
    """A received archive's checkpoint (made with its sender's key) cannot make this user's run skip games."""
    monkeypatch.setattr(revalidation, "BATCH_GAMES", 2)
    with open_archive(archived) as archive, pytest.raises(KeyboardInterrupt):
        revalidation.revalidate(archive, jobs=1, on_stored=stop_after(2))
    monkeypatch.setenv("PBEM_CACHE_DIR", str(tmp_path / "another-user"))
    seen = checked_games(monkeypatch)
    with open_archive(archived) as archive:
        assert revalidation.revalidate(archive, jobs=1).resumed == 0
    assert seen == [1, 2, 3, 4, 5]


def test_a_damaged_checkpoint_starts_afresh(archived, monkeypatch):
    monkeypatch.setattr(revalidation, "BATCH_GAMES", 2)
    with open_archive(archived) as archive, pytest.raises(KeyboardInterrupt):
        revalidation.revalidate(archive, jobs=1, on_stored=stop_after(2))
    db = sqlite3.connect(archived)
    db.execute("UPDATE revalidated SET outcome = '{\"was_ok\": 1' WHERE game_id = 1")
    db.commit()
    db.close()
    seen = checked_games(monkeypatch)
    with open_archive(archived) as archive:
        report = revalidation.revalidate(archive, jobs=1)
    assert seen == [1, 2, 3, 4, 5] and report.resumed == 0 and report.games == 5


def test_a_run_started_meanwhile_takes_the_checkpoint_over_and_gets_none_of_the_first_runs_games(archived, monkeypatch):
    """Two re-validations at once (other games chosen): the second replaces the archive's one checkpoint, and the
    first keeps none from then on, so a restart of the second skips no game it did not check itself."""
    monkeypatch.setattr(revalidation, "BATCH_GAMES", 1)
    seen = checked_games(monkeypatch)

    def first_run_stored(games: int) -> None:
        if games == 1:  # another member starts a run on games 1-3, stopped after its first game
            with open_archive(archived) as other, pytest.raises(KeyboardInterrupt):
                revalidation.revalidate(other, jobs=1, games=[1, 2, 3], on_stored=stop_after(1))
        if games == 3:
            raise KeyboardInterrupt

    with open_archive(archived) as archive, pytest.raises(KeyboardInterrupt):
        revalidation.revalidate(archive, jobs=1, on_stored=first_run_stored)
    assert seen == [1, 1, 2, 3]  # the first run's 1, the other's 1, then the first run's 2 and 3
    with open_archive(archived) as archive:
        assert archive.db.execute("SELECT game_id FROM revalidated").fetchall() == [(1,)]
        report = revalidation.revalidate(archive, jobs=1, games=[1, 2, 3])
    assert report.resumed == 1 and seen[4:] == [2, 3] and report.games == 3
