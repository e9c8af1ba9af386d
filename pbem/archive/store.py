"""The archive database: one SQLite file (WAL, foreign keys), its schema version and the migrations to it.

``PRAGMA application_id`` marks the file as a pbem archive and ``PRAGMA user_version`` is the schema
version; opening an older archive migrates it step by step, each step in one transaction. A file that is
not SQLite, or is somebody else's SQLite database, is refused with a :class:`PbemError` (exit 2), and
nothing is written to it.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from pbem.model.errors import PbemError

APPLICATION_ID = 0x5042454D  # "PBEM"
ENV_VARIABLE = "PBEM_ARCHIVE"

# Migration n takes the schema from version n to n + 1. Never edit a released step: append a new one.
MIGRATIONS: tuple[str, ...] = (
    # 0 -> 1: games, players, turns (bytes as received, hash chain, state after), violations.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        module TEXT NOT NULL,
        module_version TEXT NOT NULL,
        scenario TEXT,
        title TEXT,
        started TEXT,
        finished TEXT,
        result TEXT,
        added TEXT NOT NULL,
        start_scenario TEXT,
        start_name TEXT,
        start_data BLOB,
        head TEXT NOT NULL,
        turn_count INTEGER NOT NULL,
        actions INTEGER NOT NULL,
        violations INTEGER NOT NULL,
        ok INTEGER NOT NULL
    );
    CREATE TABLE players (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        side TEXT NOT NULL,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL,
        PRIMARY KEY (game_id, side, name_key)
    );
    CREATE TABLE turns (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        name TEXT NOT NULL,
        turn INTEGER NOT NULL,
        side TEXT NOT NULL,
        data BLOB NOT NULL,
        file_hash TEXT NOT NULL,
        link TEXT NOT NULL,
        actions INTEGER NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE violations (
        game_id INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        n INTEGER NOT NULL,
        action INTEGER,
        rule TEXT NOT NULL,
        severity TEXT NOT NULL,
        message TEXT NOT NULL,
        line INTEGER,
        column_ INTEGER,
        PRIMARY KEY (game_id, seq, n),
        FOREIGN KEY (game_id, seq) REFERENCES turns(game_id, seq) ON DELETE CASCADE
    );
    """,
    # 1 -> 2: what each search looks up, and when and against which module version a game was last checked.
    """
    CREATE INDEX players_by_name ON players(name_key, game_id);
    CREATE INDEX violations_by_rule ON violations(rule, game_id);
    CREATE INDEX games_by_module ON games(module, scenario);
    CREATE INDEX games_by_scenario ON games(scenario);
    CREATE INDEX games_by_finished ON games(finished);
    CREATE INDEX games_by_result ON games(result COLLATE NOCASE);
    ALTER TABLE games ADD COLUMN checked TEXT;
    ALTER TABLE games ADD COLUMN checked_version TEXT;
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def default_path() -> Path:
    """``$PBEM_ARCHIVE``, else ``$XDG_DATA_HOME/pbem/archive.sqlite`` (``~/.local/share`` by default)."""
    if os.environ.get(ENV_VARIABLE):
        return Path(os.environ[ENV_VARIABLE])
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "pbem" / "archive.sqlite"


class Archive:
    """An open archive. Use :func:`open_archive`; ``with archive.transaction():`` groups writes."""

    def __init__(self, path: Path, connection: sqlite3.Connection):
        self.path = path
        self.db = connection

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All the writes inside happen, or none (also when the process is killed half-way)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Archive":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_archive(path: str | Path | None = None, *, create: bool = True) -> Archive:
    """Open (creating or migrating if needed) the archive at ``path``; refuse anything else."""
    path = Path(path) if path is not None else default_path()
    exists = path.exists()
    if path.is_dir():
        raise PbemError.at(path, "is a folder, not an archive file")
    if not exists:
        if not create:
            raise PbemError.at(path, "no such archive (add a game first)")
        path.parent.mkdir(parents=True, exist_ok=True)
    elif path.stat().st_size and not _looks_like_sqlite(path):
        raise PbemError.at(path, "not a pbem archive: the file is not an SQLite database")
    try:
        # Autocommit mode: transactions are explicit (BEGIN IMMEDIATE … COMMIT), never implicit.
        connection = sqlite3.connect(path, isolation_level=None, timeout=30)
    except sqlite3.Error as error:
        raise PbemError.at(path, f"cannot open the archive: {error}") from None
    try:
        _prepare(path, connection)
    except sqlite3.DatabaseError as error:
        connection.close()
        raise PbemError.at(path, f"not a usable pbem archive: {error}") from None
    except BaseException:
        connection.close()
        raise
    return Archive(path, connection)


def _looks_like_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(16) == b"SQLite format 3\x00"
    except OSError as error:
        raise PbemError.at(path, f"cannot read: {error.strerror or error}") from None


def _prepare(path: Path, db: sqlite3.Connection) -> None:
    application_id = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = db.execute("SELECT count(*) FROM sqlite_schema").fetchone()[0]
    if application_id != APPLICATION_ID and (tables or version):
        raise PbemError.at(path, "not a pbem archive: an SQLite database of another program")
    if version > SCHEMA_VERSION:
        raise PbemError.at(path, f"archive schema {version} is newer than this pbem understands ({SCHEMA_VERSION}); upgrade pbem")
    db.execute("PRAGMA foreign_keys = ON")
    if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        db.execute("PRAGMA journal_mode = WAL")
    # In WAL mode NORMAL loses no committed transaction when the process dies, only on power loss.
    db.execute("PRAGMA synchronous = NORMAL")
    for step in range(version, SCHEMA_VERSION):
        _migrate(db, step)


def _migrate(db: sqlite3.Connection, step: int) -> None:
    """Run migration ``step`` and bump the version in the same transaction."""
    db.execute("BEGIN IMMEDIATE")
    try:
        # Re-read inside the lock: another process may have migrated meanwhile.
        if db.execute("PRAGMA user_version").fetchone()[0] != step:
            db.execute("ROLLBACK")
            return
        for statement in MIGRATIONS[step].split(";"):
            if statement.strip():
                db.execute(statement)
        db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute(f"PRAGMA user_version = {step + 1}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
