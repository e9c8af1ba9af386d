"""The archive database: one SQLite file (WAL, foreign keys), its schema version and the migrations to it.

(A club's archive may instead live on a PostgreSQL server, ``--db postgresql://...``: :mod:`pbem.archive.postgres`.
What differs between the two is behind :class:`pbem.archive.backend.Backend`; this module is the SQLite one
and opens either.)

``PRAGMA application_id`` marks the file as a pbem archive and ``PRAGMA user_version`` is the schema
version; opening an older archive migrates it step by step, each step in one transaction.

An archive may come from someone else, so a file is pbem's only once it is shown to be: its header
carries pbem's application id and a known version, and its schema objects are exactly the ones pbem's
migrations make (an extra trigger or view would run inside pbem's own transactions). Until then it is
only read, in a way that cannot change a byte of it or of its ``-wal``/``-shm`` files: the header is
read as plain bytes, and the schema through an ``immutable`` read-only connection, or, when a ``-wal``
file holds recent changes, through a private copy of the two files. Anything else is refused with a
:class:`PbemError` (exit 2). An empty file or an empty SQLite database is not an archive either: a new
archive is only made where no file exists, built in a private file beside it and moved into place
whole, so a failed ``add`` leaves nothing behind.
"""

from __future__ import annotations

import functools
import os
import re
import secrets
import shutil
import sqlite3
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from pbem.archive.backend import Backend, is_server, location_of
from pbem.model.errors import PbemError

APPLICATION_ID = 0x5042454D  # "PBEM"
ENV_VARIABLE = "PBEM_ARCHIVE"
SQLITE_MAGIC = b"SQLite format 3\x00"

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
    # 2 -> 3: which hash-chain scheme a game's head follows (games stored before are scheme 1; see chain.py).
    """
    ALTER TABLE games ADD COLUMN chain INTEGER NOT NULL DEFAULT 1;
    """,
    # 3 -> 4: the highest game number ever given, so a removed game's number is never given again
    # (games.id alone would hand out max(id) + 1 again after the last game is removed). An archive
    # migrated after such a removal starts counting from its highest game still there.
    """
    CREATE TABLE game_numbers (id INTEGER PRIMARY KEY CHECK (id = 1), last INTEGER NOT NULL);
    INSERT INTO game_numbers (id, last) SELECT 1, COALESCE(MAX(id), 0) FROM games;
    """,
    # 4 -> 5: a game's dice records (docs/dice.md), as received; the genesis of the game's chain binds their hashes.
    """
    CREATE TABLE dice_records (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        data BLOB NOT NULL,
        file_hash TEXT NOT NULL,
        PRIMARY KEY (game_id, name)
    );
    """,
    # 5 -> 6: the checkpoint of a re-validation (pbem/archive/revalidate.py): what the run depends on (``key``),
    # and each game it has re-checked, written in the same transaction as that game's new verdicts, so a run
    # stopped at any moment resumes where it stopped. ``outcome`` is the change or error found (JSON), NULL if none.
    """
    CREATE TABLE revalidation (id INTEGER PRIMARY KEY CHECK (id = 1), key TEXT NOT NULL, seconds REAL NOT NULL);
    CREATE TABLE revalidated (game_id INTEGER PRIMARY KEY, actions INTEGER NOT NULL, outcome TEXT);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def default_path() -> Path:
    """``$PBEM_ARCHIVE``, else ``$XDG_DATA_HOME/pbem/archive.sqlite`` (``~/.local/share`` by default)."""
    location = default_location()
    return location if isinstance(location, Path) else Path(location)


def default_location() -> str | Path:
    """As :func:`default_path`, but ``$PBEM_ARCHIVE`` may also be a server URL (``postgresql://...``)."""
    if os.environ.get(ENV_VARIABLE):
        return location_of(os.environ[ENV_VARIABLE])  # type: ignore[return-value]
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "pbem" / "archive.sqlite"


def shown_location(location: str | Path | None) -> str | Path:
    """The archive's location as it may be printed (a server URL without its password)."""
    location = location_of(location) if location is not None else default_location()
    if is_server(location):
        from pbem.archive.postgres import shown

        return shown(str(location))
    return location  # type: ignore[return-value]


class SqliteBackend:
    """The SQLite side of the archive (see :class:`pbem.archive.backend.Backend`): one file, one writer."""

    name = "sqlite"

    @contextmanager
    def transaction(self, db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
        db.execute("BEGIN IMMEDIATE")  # the write lock at once: another writer waits (timeout 30 s)
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def next_game_number(self, db: sqlite3.Connection) -> tuple[int, int]:
        # A received archive may hold any type in the counter: a spoiled one counts from the games there.
        counted = db.execute("SELECT CAST(last AS INTEGER) FROM game_numbers WHERE id = 1").fetchone()
        highest = db.execute("SELECT COALESCE(MAX(id), 0) FROM games").fetchone()[0]
        highest = max(counted[0] if counted and isinstance(counted[0], int) else 0, highest)
        return highest, highest + 1

    def integrity_problems(self, db: sqlite3.Connection) -> list[str]:
        check = db.execute("PRAGMA quick_check").fetchall()
        return [] if check == [("ok",)] else [str(r[0]) for r in check[:3]]


SQLITE = SqliteBackend()


class Archive:
    """An open archive. Use :func:`open_archive`; ``with archive.transaction():`` groups writes.

    ``path`` is the file, or for a server the URL as it may be shown (no password); ``db`` takes the
    archive's queries (SQLite's dialect, ``?`` placeholders) whatever the database; ``backend`` is what differs.
    """

    def __init__(self, path: Path | str, connection: Any, backend: Backend = SQLITE):
        self.path = path
        self.db = connection
        self.backend = backend

    @contextmanager
    def transaction(self) -> Iterator[Any]:
        """All the writes inside happen, or none (also when the process is killed half-way)."""
        with self.backend.transaction(self.db) as db:
            yield db

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Archive":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_archive(path: str | Path | None = None, *, create: bool = False) -> Archive:
    """Open (migrating if needed) the archive at ``path``; refuse anything that is not one.

    With ``create``, a path where no file exists gets a new, empty archive. ``path`` may be a
    ``postgresql://`` URL: the archive on a club's server (with ``create``, made in a database without one).
    """
    location = location_of(path) if path is not None else default_location()
    if is_server(location):
        return _open_server(str(location), create)
    path = Path(location)
    if not os.path.lexists(path):
        if not create:
            raise PbemError.at(path, "no such archive (add a game first)")
        with new_archive(path):
            pass
    else:
        inspect(path)
    return _connect(path, path)


def _open_server(url: str, create: bool) -> Archive:
    from pbem.archive import postgres

    db, _ = postgres.open_archive(url, create=create)
    return Archive(postgres.shown(url), db, postgres.PostgresBackend())


def check_target(path: str | Path | None = None) -> None:
    """Refuse, before any long work, an existing file at ``path`` that is not a pbem archive (or a server
    that cannot be reached, or whose database holds something else)."""
    location = location_of(path) if path is not None else default_location()
    if is_server(location):
        from pbem.archive import postgres

        postgres.open_archive(str(location), create=None)
        return
    path = Path(location)
    if os.path.lexists(path):
        inspect(path)


@contextmanager
def adding_to(path: str | Path | None = None) -> Iterator[Archive]:
    """The archive to add games to. Where no file exists yet, the new archive is built in a private file
    beside it and appears at ``path`` only if the block succeeds: a failed add leaves no file behind.
    On a server, the archive is made in the database if it has none (an empty archive stays if the add fails)."""
    location = location_of(path) if path is not None else default_location()
    if is_server(location):
        with _open_server(str(location), create=True) as archive:
            yield archive
        return
    path = Path(location)
    if os.path.lexists(path):
        with open_archive(path) as archive:
            yield archive
    else:
        with new_archive(path) as archive:
            yield archive


@contextmanager
def new_archive(path: Path) -> Iterator[Archive]:
    """A new archive, moved to ``path`` (which must not exist) when the block succeeds."""
    made = _make_folders(path.parent)
    staged = path.parent / f".{path.name}.{secrets.token_hex(6)}.new"
    archive = None
    try:
        archive = _connect(staged, path, fresh=True)
        yield archive
        archive.close()  # the last connection: SQLite folds the WAL into the file and deletes it
        _publish(staged, path)
    finally:
        if archive is not None:
            archive.close()
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{staged}{suffix}").unlink(missing_ok=True)
        if not os.path.lexists(path):
            for folder in reversed(made):
                try:
                    folder.rmdir()
                except OSError:
                    break


def _make_folders(folder: Path) -> list[Path]:
    """Create ``folder`` and its missing parents; return the ones created (outermost first)."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        try:
            made.mkdir()
        except FileExistsError:
            pass
        except OSError as error:
            raise PbemError.at(made, f"cannot create the folder: {error.strerror or error}") from None
    return list(reversed(missing))


def _publish(staged: Path, path: Path) -> None:
    """Move the finished new archive into place, never over a file that appeared meanwhile."""
    try:
        os.link(staged, path)
    except FileExistsError:
        raise PbemError.at(path, "a file appeared there while the archive was being made; nothing was added") from None
    except OSError:
        # A file system without hard links: check, then rename (a race here is only with another writer).
        if os.path.lexists(path):
            raise PbemError.at(path, "a file appeared there while the archive was being made; nothing was added") from None
        try:
            os.replace(staged, path)
        except OSError as error:
            raise PbemError.at(path, f"cannot write the archive: {error.strerror or error}") from None


# --- is it ours? -----------------------------------------------------------------------------------------
def inspect(path: Path) -> None:
    """Refuse ``path`` unless it is a pbem archive of a version this pbem knows, with exactly pbem's schema.

    Writes nothing: not to the file, not to its ``-wal`` or ``-shm``.
    """
    try:
        if path.is_dir():
            raise PbemError.at(path, "is a folder, not an archive file")
        if path.exists() and not path.is_file():
            raise PbemError.at(path, "is not a regular file (a FIFO or a device?), not an archive file")
        with path.open("rb") as handle:
            head = handle.read(108)
    except OSError as error:
        raise PbemError.at(path, f"cannot read: {error.strerror or error}") from None
    if not head:
        raise PbemError.at(path, "an empty file, not a pbem archive (a new archive is only made where no file exists)")
    if len(head) < 108 or not head.startswith(SQLITE_MAGIC):
        raise PbemError.at(path, "not a pbem archive: the file is not an SQLite database")
    # The database header: user_version at byte 60, application_id at 68; page 1's b-tree header at 100
    # (its cell count at 103) is sqlite_schema, empty in an empty database.
    version = int.from_bytes(head[60:64], "big")
    application_id = int.from_bytes(head[68:72], "big")
    if application_id != APPLICATION_ID:
        if head[100] == 0x0D and int.from_bytes(head[103:105], "big") == 0 and not _wal_has_data(path):
            raise PbemError.at(path, "an empty SQLite database, not a pbem archive (a new archive is only made where no file exists)")
        raise PbemError.at(path, "not a pbem archive: an SQLite database of another program")
    if version > SCHEMA_VERSION:
        raise PbemError.at(path, f"archive schema {version} is newer than this pbem understands ({SCHEMA_VERSION}); upgrade pbem")
    if version < 1:
        raise PbemError.at(path, "not a pbem archive: pbem's application id but no schema version")
    journal = Path(f"{path}-journal")
    if journal.exists() and journal.stat().st_size:
        raise PbemError.at(journal, "a rollback journal beside the archive: pbem never writes one (not a pbem archive, or tampered with)")
    with _read_only(path) as db:
        check_schema(path, db)


def _wal_has_data(path: Path) -> bool:
    wal = Path(f"{path}-wal")
    try:
        return wal.stat().st_size > 0
    except OSError:
        return False


@contextmanager
def _read_only(path: Path) -> Iterator[sqlite3.Connection]:
    """A connection that sees ``path`` (and the changes in its ``-wal``) and cannot alter either.

    Without a ``-wal`` no program has the database open in WAL mode, so it is read as an immutable file
    (no locks, no ``-shm``). With one, even a read-only connection would write to the ``-shm`` (its read
    marks), so the database and its WAL are copied to a private folder and the copy is read.
    """
    try:
        with tempfile.TemporaryDirectory(prefix="pbem-inspect-") as folder:
            if _wal_has_data(path):
                copy = Path(folder) / "archive.sqlite"
                shutil.copyfile(f"{path}-wal", f"{copy}-wal")  # the WAL first: its frames stay valid while the file catches up
                shutil.copyfile(path, copy)
                db = sqlite3.connect(copy, isolation_level=None)
            else:
                db = sqlite3.connect(f"{path.absolute().as_uri()}?mode=ro&immutable=1", uri=True, isolation_level=None)
            try:
                db.execute("PRAGMA trusted_schema = OFF")
                yield db
            finally:
                db.close()
    except OSError as error:
        raise PbemError.at(path, f"cannot read: {error.strerror or error}") from None
    except sqlite3.DatabaseError as error:
        raise PbemError.at(path, f"not a usable pbem archive: {error}") from None


@functools.lru_cache(maxsize=None)
def expected_schema(version: int) -> tuple[tuple[str, str, str, str], ...]:
    """The schema objects (type, name, table, SQL with spaces normalised) of a pbem archive of ``version``."""
    db = sqlite3.connect(":memory:")
    try:
        for step in range(version):
            db.executescript(MIGRATIONS[step])
        return _schema(db)
    finally:
        db.close()


@functools.lru_cache(maxsize=None)
def expected_tables(version: int) -> dict[str, tuple[str, ...]]:
    """Each table's column names in a pbem archive of ``version`` (what a server's archive is checked against)."""
    db = sqlite3.connect(":memory:")
    try:
        for step in range(version):
            db.executescript(MIGRATIONS[step])
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")]
        return {name: tuple(sorted(r[1] for r in db.execute(f"PRAGMA table_info({name})"))) for name in names}
    finally:
        db.close()


def _schema(db: sqlite3.Connection) -> tuple[tuple[str, str, str, str], ...]:
    try:
        rows = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema").fetchall()
    except UnicodeDecodeError:  # schema text that is not UTF-8: not something pbem wrote
        return (("?", "a schema entry that is not UTF-8 text", "?", "?"),)
    return tuple(sorted((str(t), str(n), str(tbl), re.sub(r"\s+", " ", str(sql or "")).strip()) for t, n, tbl, sql in rows))


def check_schema(where: Path, db: sqlite3.Connection) -> int:
    """The archive's version, if its schema objects are exactly pbem's for that version; else a PbemError."""
    application_id = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if application_id != APPLICATION_ID or not 1 <= version <= SCHEMA_VERSION:
        raise PbemError.at(where, "not a pbem archive: not pbem's application id and a known schema version")
    actual, expected = _schema(db), expected_schema(version)
    if actual != expected:
        extra = sorted(set(actual) - set(expected))
        missing = sorted(set(expected) - set(actual))
        if extra and missing and (extra[0][0], extra[0][1]) == (missing[0][0], missing[0][1]):
            what = f"{extra[0][0]} {extra[0][1]!r} is defined differently"
        elif extra:
            what = f"unexpected {extra[0][0]} {extra[0][1]!r}"
        else:
            what = f"{missing[0][0]} {missing[0][1]!r} is missing"
        raise PbemError.at(where, f"not a pbem archive: pbem's application id, but not pbem's schema ({what}); refused unchanged")
    return version


# --- the working connection ------------------------------------------------------------------------------
def _connect(file: Path, shown: Path, *, fresh: bool = False) -> Archive:
    try:
        # Autocommit mode: transactions are explicit (BEGIN IMMEDIATE … COMMIT), never implicit.
        connection = sqlite3.connect(file, isolation_level=None, timeout=30)
    except sqlite3.Error as error:
        raise PbemError.at(shown, f"cannot open the archive: {error}") from None
    # Text a hostile file stored as invalid UTF-8 is shown with U+FFFD instead of failing the query.
    connection.text_factory = lambda data: data.decode("utf-8", "replace")
    try:
        _prepare(shown, connection, fresh)
    except sqlite3.DatabaseError as error:
        connection.close()
        raise PbemError.at(shown, f"not a usable pbem archive: {error}") from None
    except BaseException:
        connection.close()
        raise
    return Archive(shown, connection)


def _prepare(path: Path, db: sqlite3.Connection, fresh: bool) -> None:
    db.execute("PRAGMA trusted_schema = OFF")
    if fresh:
        version = 0
    else:
        # Checked again on this connection, before anything runs: the file may have changed since inspect().
        version = check_schema(path, db)
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
