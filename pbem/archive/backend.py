"""What differs between the databases an archive can live in: one small interface, one class per database.

The archive's queries are written once, in SQLite's dialect with ``?`` placeholders, and run on
``archive.db`` whatever the database: for a server, ``archive.db`` is :class:`pbem.archive.postgres.Connection`,
which turns them into PostgreSQL's (placeholders, ``BYTEA``, ``BIGINT``, ``NOCASE``). Each database's module
connects and runs its own migrations (``store.MIGRATIONS`` / ``postgres.MIGRATIONS``, step for step the same
tables); its backend object groups writes in a transaction that locks out other writers, gives game numbers
and says what its integrity check found. ``store.SqliteBackend`` is the default (one file);
``postgres.PostgresBackend`` is a club's server.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Protocol

SERVER_SCHEMES = ("postgresql://", "postgres://")


def is_server(location: object) -> bool:
    """Does ``location`` (a ``--db`` value) name a database server rather than a file?"""
    return isinstance(location, str) and location.lower().startswith(SERVER_SCHEMES)


def location_of(value: str | Path | None) -> str | Path | None:
    """A ``--db`` value or ``$PBEM_ARCHIVE`` as the archive's location: a server URL stays text, else a path.

    Anything else with a ``scheme://`` is refused rather than taken for a file name.
    """
    if value is None or isinstance(value, Path):
        return value
    if is_server(value):
        return value
    if "://" in value:
        from pbem.model.errors import PbemError

        scheme = value.split("://", 1)[0]
        raise PbemError(f"--db: {scheme!r} databases are not supported (a file, or postgresql://USER@HOST/DATABASE)")
    return Path(value)


class Backend(Protocol):
    """One database's side of the archive."""

    name: str

    def transaction(self, db: Any) -> AbstractContextManager[Any]:
        """All the writes inside happen, or none (also when the process is killed); one writer at a time."""

    def next_game_number(self, db: Any) -> tuple[int, int]:
        """Inside a transaction: (the highest number given so far or held by a game, the number now taken)."""

    def integrity_problems(self, db: Any) -> list[str]:
        """What the database's own integrity check found (nothing: an empty list)."""
