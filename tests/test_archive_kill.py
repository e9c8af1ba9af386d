"""kill -9 in the middle of ``add`` or ``revalidate`` leaves the archive consistent.

The child process is a real ``pbem archive`` run whose store step is wrapped to announce that it is
inside the transaction (a marker file) and then wait; the test kills it there with SIGKILL.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from archive_support import archive_bench

from pbem.archive import games

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import sys, time
from pathlib import Path
import {module} as target
marker, calls, original = Path(sys.argv[1]), [], target.{function}
def wrapped(*args, **kwargs):
    result = original(*args, **kwargs)
    calls.append(1)
    if len(calls) == 2:
        marker.write_text("inside")
        time.sleep(60)
    return result
target.{function} = wrapped
from pbem.cli import main
main(sys.argv[2:])
"""

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")


@pytest.fixture
def paths(tmp_path) -> list[Path]:
    bench = archive_bench()
    return bench.sample_game(tmp_path / "game")


def kill_inside(tmp_path: Path, module: str, function: str, args: list[str]) -> None:
    marker = tmp_path / "inside.marker"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(module=module, function=function), str(marker), *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
        env={**os.environ, "TMPDIR": str(tmp_path)},  # what the killed child leaves behind goes with the test's folder
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while not marker.exists():
        if child.poll() is not None:
            raise AssertionError(f"child ended early: {child.communicate()}")
        assert time.monotonic() < deadline, "child never reached the transaction"
        time.sleep(0.02)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(10)
    assert child.returncode == -signal.SIGKILL


def consistent(db_path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(db_path)
    assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    for gid, turn_count, violations in db.execute("SELECT id, turn_count, violations FROM games"):
        assert db.execute("SELECT count(*) FROM turns WHERE game_id = ?", (gid,)).fetchone()[0] == turn_count
        assert db.execute("SELECT count(*) FROM violations WHERE game_id = ?", (gid,)).fetchone()[0] == violations
    return db


def test_kill_during_add(tmp_path, paths):
    db_path = tmp_path / "archive.sqlite"
    subprocess.run([sys.executable, "-m", "pbem", "archive", "--db", str(db_path), "add", str(paths[0])], check=True, capture_output=True)
    kill_inside(tmp_path, "pbem.archive.games", "insert_turn", ["archive", "--db", str(db_path), "add", *map(str, paths)])
    db = consistent(db_path)
    assert db.execute("SELECT count(*) FROM games").fetchone() == (1,)  # the killed add left nothing behind
    db.close()
    from pbem.archive.store import open_archive

    with open_archive(db_path) as archive:
        assert games.verify(archive) == (1, [])


def test_kill_during_revalidate(tmp_path, paths):
    db_path = tmp_path / "archive.sqlite"
    for game in (paths, paths[:1]):
        subprocess.run([sys.executable, "-m", "pbem", "archive", "--db", str(db_path), "add", *map(str, game)], check=True, capture_output=True)
    db = sqlite3.connect(db_path)
    db.execute("DELETE FROM violations")
    db.execute("UPDATE games SET ok = 1, violations = 0")
    db.commit()
    db.close()
    kill_inside(tmp_path, "pbem.archive.revalidate", "store_violations", ["archive", "--db", str(db_path), "revalidate", "--jobs", "1"])
    db = consistent(db_path)
    assert db.execute("SELECT ok, violations, checked_version FROM games WHERE id = 1").fetchone()[:2] == (1, 0)
    db.close()
    done = subprocess.run([sys.executable, "-m", "pbem", "archive", "--db", str(db_path), "revalidate", "--jobs", "1", "--format", "json"],
                          capture_output=True, text=True)  # fmt: skip
    assert done.returncode == 1 and [c["game"] for c in json.loads(done.stdout)["changed"]] == [1]
    consistent(db_path).close()
