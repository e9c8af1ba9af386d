"""A club's archive on a real PostgreSQL server: every verb as on SQLite, the same heads and verdicts,
migrations, many processes at once, kill -9, a database that is not pbem's, and no password ever shown.

The server is the session's throwaway cluster (``pg_server`` in conftest.py) or ``$PBEM_TEST_POSTGRES``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pg_support
import pytest
from archive_support import archive_bench, run

psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed (pip install '.[test]')")

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> list[Path]:
    return archive_bench().sample_game(tmp_path_factory.mktemp("pg-game") / "game")


def without_times(info: dict) -> dict:
    return {k: v for k, v in info.items() if k not in ("added", "checked")}


def test_every_verb_gives_what_it_gives_on_sqlite(capsys, game, pg_url, tmp_path):
    sqlite = tmp_path / "archive.sqlite"
    outputs = {}
    for db in (sqlite, pg_url):
        seen = outputs[str(db)] = {}
        for extra in (["--result", "Soviet"], ["--title", "50% off; it's a 'quote' ?", "--player", "chinese=Ölgür"]):
            code, out, err = run(capsys, "archive", "--db", db, "add", *game, "--finished", "2024-03-01", *extra)
            assert code == 0, err
        seen["head"] = out.splitlines()[1]
        for verb in (["list", "--format", "json"], ["search", "--player", "ölgür", "--format", "json"],
                     ["search", "--result", "soviet", "--format", "json"], ["search", "--rule", "6.22", "--severity", "illegal", "--format", "json"],
                     ["search", "--since", "2024-03-01", "--legal", "--format", "json"], ["verify"]):  # fmt: skip
            code, out, err = run(capsys, "archive", "--db", db, *verb)
            assert code == 0, (verb, err)
            seen[" ".join(verb)] = out
        code, out, _ = run(capsys, "archive", "show", "2", "--format", "json", "--db", db)
        seen["show"] = without_times(json.loads(out))
        head = json.loads(out)["head"]
        assert run(capsys, "archive", "--db", db, "verify", "2", "--head", head)[0] == 0
        code, out, _ = run(capsys, "archive", "--db", db, "show", "1")
        assert code == 0 and "rule 6.22 [illegal]" in out
        out_dir = tmp_path / f"export-{len(outputs)}"
        assert run(capsys, "archive", "--db", db, "export", "2", out_dir)[0] == 0
        seen["export"] = {p.name: p.read_bytes() for p in out_dir.iterdir()}
        code, out, _ = run(capsys, "archive", "--db", db, "revalidate", "--jobs", "1", "--format", "json")
        assert code == 0 and json.loads(out)["changed"] == [] and json.loads(out)["games"] == 2
        assert run(capsys, "archive", "--db", db, "remove", "1", "--yes")[0] == 0
        assert run(capsys, "archive", "--db", db, "add", out_dir)[0] == 0  # the export comes back, as game 3
        code, out, _ = run(capsys, "archive", "--db", db, "list", "--format", "json")
        seen["after"] = [(g["id"], g["title"]) for g in json.loads(out)]
        code, out, err = run(capsys, "archive", "--db", db, "show", "1")
        assert code == 2 and "no game '1'" in err
    sq, pg = outputs.values()
    assert pg == sq  # the same heads, verdicts, players in their order, searches and files
    assert pg["after"] == [(2, "50% off; it's a 'quote' ?"), (3, "50% off; it's a 'quote' ?")]
    assert json.loads(pg["search --result soviet --format json"])[0]["id"] == 1  # NOCASE, as SQLite's


def test_db_from_the_environment_and_replay(capsys, game, pg_url, tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_ARCHIVE", pg_url)
    assert run(capsys, "archive", "add", *game)[0] == 0
    code, out, _ = run(capsys, "archive", "list")
    assert code == 0 and out.startswith("#1 ")
    assert run(capsys, "replay", "1", "--out", tmp_path / "g.html", "--db", pg_url)[0] == 0
    assert run(capsys, "dice", "stats", "1", "--db", pg_url)[0] == 0


def test_an_older_archive_is_migrated_and_a_newer_refused(capsys, pg_url):
    from pbem.archive import games, postgres
    from pbem.archive.store import APPLICATION_ID, SCHEMA_VERSION, open_archive

    with psycopg.connect(pg_url, autocommit=True) as db:
        for step in range(3):
            for statement in postgres.MIGRATIONS[step].split(";"):
                if statement.strip():
                    db.execute(statement)
        db.execute("INSERT INTO pbem_archive VALUES (1, %s, 3)", (APPLICATION_ID,))
        for gid in (2, 7):
            db.execute("INSERT INTO games (id, module, module_version, added, head, turn_count, actions, violations, ok)"
                       " VALUES (%s, 'm', '1', 'now', 'h', 0, 0, 0, 1)", (gid,))  # fmt: skip
    with open_archive(pg_url) as archive:
        assert archive.db.execute("SELECT version FROM pbem_archive").fetchone() == (SCHEMA_VERSION,)
        assert archive.db.execute("SELECT last FROM game_numbers").fetchall() == [(7,)]
        with archive.transaction():
            assert games._next_game_number(archive) == 8
        archive.db.execute("DELETE FROM games WHERE id = 7")
        with archive.transaction():
            assert games._next_game_number(archive) == 9
        archive.db.execute("UPDATE pbem_archive SET version = ?", (SCHEMA_VERSION + 1,))
    code, _, err = run(capsys, "archive", "--db", pg_url, "list")
    assert code == 2 and "newer than this pbem" in err


@pytest.mark.parametrize("start", [0, 3])
def test_connections_making_or_migrating_the_archive_at_once_do_it_once(pg_url, start):
    from concurrent.futures import ThreadPoolExecutor

    from pbem.archive import postgres
    from pbem.archive.store import APPLICATION_ID, SCHEMA_VERSION, open_archive

    if start:  # an archive of schema 3 holding a game
        with psycopg.connect(pg_url, autocommit=True) as db:
            for step in range(start):
                for statement in postgres.MIGRATIONS[step].split(";"):
                    if statement.strip():
                        db.execute(statement)
            db.execute("INSERT INTO pbem_archive VALUES (1, %s, %s)", (APPLICATION_ID, start))
            db.execute("INSERT INTO games (id, module, module_version, added, head, turn_count, actions, violations, ok)"
                       " VALUES (5, 'm', '1', 'now', 'h', 0, 0, 0, 1)")  # fmt: skip

    def make(_: int) -> int:
        with open_archive(pg_url, create=True) as archive:
            return archive.db.execute("SELECT version FROM pbem_archive").fetchone()[0]

    with ThreadPoolExecutor(6) as pool:  # six connections, each migrating from nothing under the writers' lock
        assert list(pool.map(make, range(6))) == [SCHEMA_VERSION] * 6
    with psycopg.connect(pg_url, autocommit=True) as db:
        assert db.execute("SELECT count(*) FROM pbem_archive").fetchone() == (1,)
        assert db.execute("SELECT id, last FROM game_numbers").fetchall() == [(1, 5 if start else 0)]


@pytest.mark.parametrize("spoil", [
    "CREATE TABLE games (id INTEGER)",  # another program's table of the same name
    "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END';"
    " CREATE TRIGGER forge BEFORE INSERT ON violations FOR EACH ROW EXECUTE FUNCTION f()",
    "CREATE RULE forge AS ON INSERT TO violations DO INSTEAD NOTHING",
    "ALTER TABLE games ADD COLUMN extra TEXT",
])
def test_a_database_that_is_not_pbems_is_refused_unchanged(capsys, game, pg_url, spoil):
    if not spoil.startswith("CREATE TABLE"):
        assert run(capsys, "archive", "--db", pg_url, "add", *game)[0] == 0
    with psycopg.connect(pg_url, autocommit=True) as db:
        db.execute(spoil)
        before = db.execute("SELECT count(*) FROM pg_class").fetchone()
    for verb in (["list"], ["add", *game], ["verify"]):
        code, out, err = run(capsys, "archive", "--db", pg_url, *verb)
        assert code == 2 and err.count("\n") == 1 and "not a pbem archive" in err, (verb, err)
    with psycopg.connect(pg_url, autocommit=True) as db:
        assert db.execute("SELECT count(*) FROM pg_class").fetchone() == before


# --- credentials and failures --------------------------------------------------------------------------
def pbem_process(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=60)


def test_a_password_never_shows_and_failures_are_one_line(capsys, pg_server, pg_url, game, monkeypatch):
    if pg_server.socket is None:
        pytest.skip("the password role exists only on the tests' own cluster")
    database = psycopg.conninfo.conninfo_to_dict(pg_url)["dbname"]
    secret = pg_support.PASSWORD
    wrong = pg_server.url(database, user=pg_support.PASSWORD_USER, password="Wr0ng-" + secret[::-1])
    no_password = pg_server.url(database, user=pg_support.PASSWORD_USER)
    # A whole process with --debug (which would print a traceback): still one line, no password.
    done = pbem_process("--debug", "archive", "--db", wrong, "add", str(game[0]))
    assert done.returncode == 3 and done.stderr.count("\n") == 1, done.stderr
    assert "Wr0ng" not in done.stdout + done.stderr and secret[::-1] not in done.stderr
    for db, password in ((wrong, None), (no_password, "Wr0ng-" + secret)):
        if password:
            monkeypatch.setenv("PGPASSWORD", password)
        code, out, err = run(capsys, "archive", "--db", db, "list")
        assert code == 3 and err.count("\n") == 1 and "cannot connect to the archive server at the local socket" in err, err
        assert "password authentication failed" in err
        assert "Wr0ng" not in out + err and secret not in out + err and secret[::-1] not in out + err
    assert f"{pg_support.PASSWORD_USER}:***@" in done.stderr
    # The right password, in the URL or in PGPASSWORD, works; it is never printed.
    monkeypatch.delenv("PGPASSWORD")
    right = pg_server.url(database, user=pg_support.PASSWORD_USER, password=secret)
    code, out, err = run(capsys, "archive", "--db", right, "add", *game)
    assert code == 0 and secret not in out + err
    monkeypatch.setenv("PGPASSWORD", secret)
    code, out, err = run(capsys, "archive", "--db", no_password, "show", "1")
    assert code == 0 and secret not in out + err
    # A game that is not there: the error names the archive, without the password.
    code, out, err = run(capsys, "archive", "--db", right, "show", "9")
    assert code == 2 and secret not in err and f"{pg_support.PASSWORD_USER}:***@" in err


def test_no_server_is_exit_3_and_a_bad_url_exit_2(capsys, tmp_path):
    secret = "Pa55-" + os.urandom(6).hex()
    code, out, err = run(capsys, "archive", "--db", f"postgresql://club:{secret}@/games?host={tmp_path}&connect_timeout=3", "list")
    assert code == 3 and err.count("\n") == 1, err
    assert secret not in out + err and "club:***@" in err and f"local socket in {tmp_path}" in err
    code, out, err = run(capsys, "archive", "--db", f"postgresql://club:{secret}@db.invalid:5432/games?connect_timeout=3", "list")
    assert code == 3 and "at host db.invalid:5432" in err and secret not in err
    for url in (f"postgresql://club:{secret}@/games?nonsense={secret}", f"postgresql://club:{secret}@host:notaport/x"):
        code, out, err = run(capsys, "archive", "--db", url, "list")
        assert code == 2 and err.count("\n") == 1 and "not a valid PostgreSQL URL" in err, err
        assert secret not in out + err
    code, out, err = run(capsys, "archive", "--db", "mysql://club@host/games", "list")
    assert code == 2 and "not supported" in err


# --- many processes at once, and kill -9 ---------------------------------------------------------------
ADDER = """
import json, sys
from pathlib import Path
from pbem.archive import games
from pbem.archive.gamefiles import read_game
from pbem.archive.store import adding_to
url, count, tag, paths = sys.argv[1], int(sys.argv[2]), sys.argv[3], [Path(p) for p in sys.argv[4:]]
found = read_game(paths)
module = games.resolve_module(found, None)
new = games.prepare_game(found, module, {"title": tag})
ids = []
with adding_to(url) as archive:  # one connection; each game its own transaction, as each 'archive add' is
    for k in range(count):
        ids.append(games.store_game(archive, new)["id"])
print(json.dumps(ids))
"""

REMOVER = """
import sys, time
from pbem.archive import games
from pbem.archive.store import open_archive
for gid in sys.argv[2:]:
    with open_archive(sys.argv[1]) as archive:
        games.remove(archive, gid)
    time.sleep(0.1)
"""


def test_processes_adding_revalidating_and_removing_at_once(capsys, game, pg_url):
    from pbem.archive import games
    from pbem.archive.store import open_archive

    for _ in range(4):
        assert run(capsys, "archive", "--db", pg_url, "add", *game)[0] == 0
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    adders = [subprocess.Popen([sys.executable, "-c", ADDER, pg_url, "10", f"p{k}", *map(str, game)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=env) for k in range(4)]  # fmt: skip
    others = [
        subprocess.Popen([sys.executable, "-m", "pbem", "archive", "--db", pg_url, "revalidate", "--jobs", "2", "--format", "json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env),
        subprocess.Popen([sys.executable, "-c", REMOVER, pg_url, "2", "3", "4"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env),
    ]  # fmt: skip
    added: list[int] = []
    for child in adders:
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
        added += json.loads(out)
    for child in others:
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0, err
    assert len(added) == len(set(added)) == 40  # no game number given twice
    assert set(added).isdisjoint({1, 2, 3, 4})  # nor a removed one
    with open_archive(pg_url) as archive:
        stored = [r[0] for r in archive.db.execute("SELECT id FROM games ORDER BY id")]
        assert stored == sorted([1, *added])  # nothing lost, the removed ones gone
        assert games.verify(archive) == (41, [])
        for (title, count) in archive.db.execute("SELECT title, count(*) FROM games WHERE title IS NOT NULL GROUP BY title"):
            assert count == 10, title
        assert archive.db.execute("SELECT last FROM game_numbers").fetchone() == (44,)


KILLED = """
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


def kill_inside(tmp_path: Path, url: str, module: str, function: str, args: list[str]) -> None:
    """Run ``pbem ARGS`` until the second call of ``module.function`` (inside a transaction), then SIGKILL it
    and wait until the server has dropped its connection (and so rolled its transaction back)."""
    marker = tmp_path / "inside"
    child = subprocess.Popen([sys.executable, "-c", KILLED.format(module=module, function=function), str(marker), *args],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    deadline = time.monotonic() + 30
    while not marker.exists():
        assert child.poll() is None, child.communicate()
        assert time.monotonic() < deadline, "the child never reached the transaction"
        time.sleep(0.02)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(10)
    with psycopg.connect(url, autocommit=True) as db:
        deadline = time.monotonic() + 10
        while db.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pbem' AND pid != pg_backend_pid()").fetchone()[0]:
            assert time.monotonic() < deadline
            time.sleep(0.05)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
def test_kill_during_add_leaves_nothing(capsys, game, pg_url, tmp_path):
    from pbem.archive import games
    from pbem.archive.store import open_archive

    assert run(capsys, "archive", "--db", pg_url, "add", game[0])[0] == 0
    kill_inside(tmp_path, pg_url, "pbem.archive.games", "insert_turn", ["archive", "--db", pg_url, "add", *map(str, game)])
    with open_archive(pg_url) as archive:
        assert archive.db.execute("SELECT count(*) FROM games").fetchone() == (1,)
        assert archive.db.execute("SELECT count(*) FROM turns").fetchone() == (1,)
        assert games.verify(archive) == (1, [])
    # The number the killed add took was never committed: the next game is #2.
    code, out, _ = run(capsys, "archive", "--db", pg_url, "add", *game)
    assert code == 0 and "added game #2" in out


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")
def test_kill_during_revalidate_leaves_each_game_as_it_was(capsys, game, pg_url, tmp_path):
    for files in (game, game[:1]):
        assert run(capsys, "archive", "--db", pg_url, "add", *files)[0] == 0
    with psycopg.connect(pg_url, autocommit=True) as db:  # verdicts as an older module gave them
        db.execute("DELETE FROM violations")
        db.execute("UPDATE games SET ok = 1, violations = 0")
    kill_inside(tmp_path, pg_url, "pbem.archive.revalidate", "store_violations", ["archive", "--db", pg_url, "revalidate", "--jobs", "1"])
    with psycopg.connect(pg_url, autocommit=True) as db:
        assert db.execute("SELECT count(*) FROM violations").fetchone() == (0,)
        assert db.execute("SELECT id, ok, violations FROM games ORDER BY id").fetchall() == [(1, 1, 0), (2, 1, 0)]
    code, out, _ = run(capsys, "archive", "--db", pg_url, "revalidate", "--jobs", "1", "--format", "json")
    assert code == 1 and [c["game"] for c in json.loads(out)["changed"]] == [1]
    code, out, _ = run(capsys, "archive", "--db", pg_url, "verify")
    assert code == 0 and "2 game(s) checked, all chains intact" in out


def test_a_refused_game_leaves_an_empty_database_as_it_was(capsys, game, pg_url, tmp_path):
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "t1.json").write_text(game[1].read_text())  # a Chinese reply with no game before it
    (bad / "t2.json").write_text("{not json")
    code, _, err = run(capsys, "archive", "--db", pg_url, "add", bad)
    assert code == 2 and err.count("\n") == 1
    with psycopg.connect(pg_url, autocommit=True) as db:
        assert db.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone() == (0,)
    code, _, err = run(capsys, "archive", "--db", pg_url, "list")
    assert code == 2 and "no pbem archive in this database" in err
    # Text PostgreSQL cannot hold (a NUL in a title): one line, exit 2, no game stored.
    nul = tmp_path / "nul"
    nul.mkdir()
    for path in game:
        (nul / path.name).write_bytes(path.read_bytes())
    (nul / "game.json").write_text(json.dumps({"title": "a\u0000b", "turns": [p.name for p in game]}))
    code, _, err = run(capsys, "archive", "--db", pg_url, "add", nul)
    assert code == 2 and err.count("\n") == 1 and "NUL" in err, err
    with psycopg.connect(pg_url, autocommit=True) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (0,)
