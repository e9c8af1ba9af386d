"""A damaged archive (its pages garbled after the schema) ends in one line naming it, exit 2, for every verb."""

from __future__ import annotations

from pathlib import Path

import pytest
from archive_support import archive_bench, run


@pytest.fixture
def damaged(capsys, tmp_path) -> Path:
    db = tmp_path / "archive.sqlite"
    game = archive_bench().sample_game(tmp_path / "game")
    assert run(capsys, "archive", "--db", db, "add", *game)[0] == 0
    data = bytearray(db.read_bytes())
    page = int.from_bytes(data[16:18], "big") or 65536
    assert len(data) > 4 * page, "the sample archive is too small to damage past its schema page"
    for offset in range(2 * page, len(data), page):  # every table and index page after the first two: garbage
        data[offset : offset + 64] = b"\xff" * 64
    db.write_bytes(bytes(data))
    return db


@pytest.mark.parametrize(
    "verb", [["list"], ["search", "--player", "x"], ["show", "1"], ["verify"], ["export", "1", "{out}"], ["revalidate", "--jobs", "1"]]
)
def test_every_archive_verb(capsys, damaged, verb):
    args = [str(damaged.parent / "out") if a == "{out}" else a for a in verb]
    code, out, err = run(capsys, "archive", "--db", damaged, *args)
    assert code in (1, 2), err  # verify may find the damage itself (exit 1) or fail to read it (exit 2)
    if code == 2:
        assert err.count("\n") == 1 and "archive.sqlite" in err and "internal error" not in err


def test_replay_of_a_stored_game(capsys, damaged):
    code, _, err = run(capsys, "replay", "1", "--db", damaged, "-o", damaged.parent / "g.html")
    assert code == 2 and err.count("\n") == 1 and "internal error" not in err
    assert not (damaged.parent / "g.html").exists()


class _Disagreeing:
    """The archive's connection, as a file whose turns index disagrees with its table answers (the fuzz pass's case:
    the index finds game 1's first turn, the table row it points to holds no game)."""

    def __init__(self, db, table: str):
        self._db, self.table = db, table

    def execute(self, sql, *args):
        rows = self._db.execute(sql, *args)
        if sql.startswith(self.table):
            return [(None, *rest) if n == 0 else (gid, *rest) for n, (gid, *rest) in enumerate(rows.fetchall())]
        return rows

    def __getattr__(self, name):
        return getattr(self._db, name)


@pytest.mark.parametrize("table", ["SELECT game_id, CAST(name AS TEXT), CAST(data AS BLOB) FROM turns",
                                   "SELECT game_id, CAST(seq AS INTEGER), CAST(action AS INTEGER)"])
def test_revalidate_of_an_archive_whose_index_disagrees_with_its_table(capsys, tmp_path, monkeypatch, table):
    from pbem.archive import store

    db = tmp_path / "archive.sqlite"
    game = archive_bench().sample_game(tmp_path / "game")
    assert run(capsys, "archive", "--db", db, "add", *game)[0] == 0
    real = store.open_archive

    def disagreeing(*args, **kwargs):
        archive = real(*args, **kwargs)
        archive.db = _Disagreeing(archive.db, table)
        return archive

    monkeypatch.setattr(store, "open_archive", disagreeing)
    import pbem.cli.archive as cli_archive

    monkeypatch.setattr(cli_archive, "open_archive", disagreeing, raising=False)
    code, _, err = run(capsys, "archive", "--db", db, "revalidate")
    assert code == 2 and err.count("\n") == 1 and "the archive is damaged" in err and "internal error" not in err
