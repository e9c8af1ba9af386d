"""The archive file: WAL, foreign keys, schema version and migrations; foreign or corrupt files refused."""

from __future__ import annotations

import sqlite3

import pytest
from archive_support import run

from pbem.archive.store import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, open_archive
from pbem.model.errors import PbemError


def test_new_archive_is_versioned_wal_with_foreign_keys(tmp_path):
    with open_archive(tmp_path / "a.sqlite", create=True) as archive:
        db = archive.db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        with pytest.raises(sqlite3.IntegrityError):
            db.execute("INSERT INTO players (game_id, side, name, name_key) VALUES (99, 's', 'n', 'n')")


def test_an_old_archive_is_migrated_keeping_its_games(tmp_path):
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0])
    db.execute(
        "INSERT INTO games (module, module_version, added, head, turn_count, actions, violations, ok) VALUES ('m', '1', 'now', 'h', 0, 0, 0, 1)"
    )
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with open_archive(path) as archive:
        assert archive.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert archive.db.execute("SELECT module, checked FROM games").fetchall() == [("m", None)]
        indexes = {r[0] for r in archive.db.execute("SELECT name FROM sqlite_schema WHERE type = 'index'")}
        assert {"players_by_name", "violations_by_rule"} <= indexes
        # Version 4 counts game numbers from the highest game there.
        assert archive.db.execute("SELECT id, last FROM game_numbers").fetchall() == [(1, 1)]


def test_version_3_archive_gets_a_game_counter_and_never_reuses_numbers(tmp_path):
    from pbem.archive.games import _next_game_number

    path = tmp_path / "v3.sqlite"
    db = sqlite3.connect(path)
    for step in range(3):
        db.executescript(MIGRATIONS[step])
    for gid in (2, 7):
        db.execute(
            "INSERT INTO games (id, module, module_version, added, head, turn_count, actions, violations, ok) VALUES (?, 'm', '1', 'now', 'h', 0, 0, 0, 1)",
            (gid,),
        )
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 3")
    db.commit()
    db.close()
    with open_archive(path) as archive:
        assert archive.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 6
        assert archive.db.execute("SELECT last FROM game_numbers").fetchall() == [(7,)]
        with archive.transaction():
            assert _next_game_number(archive) == 8
        archive.db.execute("DELETE FROM games WHERE id = 7")
        with archive.transaction():
            assert _next_game_number(archive) == 9
        # A counter someone lowered or spoiled never hands out a number a game still has.
        archive.db.execute("UPDATE game_numbers SET last = 'x'")
        with archive.transaction():
            assert _next_game_number(archive) == 3
        archive.db.execute("UPDATE game_numbers SET last = ?", (10**18 - 1,))
        with pytest.raises(PbemError, match="no game number left"):
            with archive.transaction():
                _next_game_number(archive)


def test_a_newer_archive_is_refused(tmp_path):
    path = tmp_path / "new.sqlite"
    open_archive(path, create=True).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(PbemError, match="newer than this pbem"):
        open_archive(path)


@pytest.mark.parametrize("kind", ["garbage", "foreign", "truncated"])
def test_corrupt_or_foreign_files_are_refused_in_one_line(capsys, tmp_path, kind):
    path = tmp_path / "archive.sqlite"
    if kind == "garbage":
        path.write_bytes(b"this is not a database\n" * 100)
    elif kind == "foreign":
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, data BLOB)")
        db.commit()
        db.close()
    else:
        open_archive(path, create=True).close()
        data = path.read_bytes()
        path.write_bytes(data[:16] + b"\xff" * 84 + data[100:200])
    before = path.read_bytes()
    for verb in (["list"], ["search", "--player", "x"], ["verify"]):
        code, out, err = run(capsys, "archive", "--db", path, *verb)
        assert code == 2, (verb, out, err)
        assert err.startswith("error: ") and err.count("\n") == 1 and "archive" in err
    assert path.read_bytes() == before
    assert not (tmp_path / "archive.sqlite-wal").exists() or kind == "truncated"


def test_missing_archive_for_reading(capsys, tmp_path):
    code, _, err = run(capsys, "archive", "--db", tmp_path / "none.sqlite", "list")
    assert code == 2 and "no such archive" in err
    assert not (tmp_path / "none.sqlite").exists()
