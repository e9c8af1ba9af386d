"""Tamper evidence: any one-byte edit, dropped, inserted or reordered turn breaks the chain at that link."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from archive_support import archive_bench, run
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.archive import chain

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def archived(capsys, tmp_path) -> Path:
    bench = archive_bench()
    paths = bench.sample_game(tmp_path / "game")
    db = tmp_path / "archive.sqlite"
    assert run(capsys, "archive", "--db", db, "add", *paths)[0] == 0
    return db


@pytest.mark.parametrize("seq", [0, 1, 2])
def test_one_byte_edit_to_any_stored_turn_is_named(capsys, archived, seq):
    assert run(capsys, "archive", "--db", archived, "verify")[:2] == (0, "1 game(s) checked, all chains intact\n")
    db = sqlite3.connect(archived)
    name, data = db.execute("SELECT name, data FROM turns WHERE seq = ?", (seq,)).fetchone()
    edited = bytearray(data)
    edited[len(edited) // 2] ^= 0x01
    db.execute("UPDATE turns SET data = ? WHERE seq = ?", (bytes(edited), seq))
    db.commit()
    code, out, _ = run(capsys, "archive", "--db", archived, "verify")
    assert code == 1
    assert f"game #1: link {seq + 1} ({name}): the turn file's bytes do not match" in out


def test_edit_with_recomputed_file_hash_still_breaks_the_link(capsys, archived):
    db = sqlite3.connect(archived)
    data = db.execute("SELECT data FROM turns WHERE seq = 1").fetchone()[0] + b" "
    db.execute("UPDATE turns SET data = ?, file_hash = ? WHERE seq = 1", (data, chain.file_hash(data)))
    db.commit()
    code, out, _ = run(capsys, "archive", "--db", archived, "verify", "1")
    assert code == 1 and "link 2 (t2-chinese.json): does not follow from link 1" in out


def test_dropped_and_reordered_turns_are_detected(capsys, archived):
    db = sqlite3.connect(archived)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("DELETE FROM turns WHERE seq = 2")
    db.commit()
    code, out, _ = run(capsys, "archive", "--db", archived, "verify")
    assert code == 1 and "link 3: the game had 3 turns, 2 are stored" in out
    db.execute("UPDATE games SET turn_count = 2")
    db.commit()
    code, out, _ = run(capsys, "archive", "--db", archived, "verify")
    assert code == 1 and "head" in out
    # Swap the two remaining turns' contents and names.
    rows = db.execute("SELECT seq, name, data, file_hash, link FROM turns ORDER BY seq").fetchall()
    for (seq, *_), (_, name, data, file_hash, link) in zip(rows, reversed(rows)):
        db.execute("UPDATE turns SET name = ?, data = ?, file_hash = ?, link = ? WHERE seq = ?", (name, data, file_hash, link, seq))
    db.commit()
    code, out, _ = run(capsys, "archive", "--db", archived, "verify")
    assert code == 1 and "link 1 (t2-chinese.json): does not follow from the game's start" in out


turn_lists = st.lists(st.tuples(st.text(min_size=1, max_size=8), st.binary(min_size=1, max_size=40)), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None)
@given(turns=turn_lists, which=st.integers(min_value=0), offset=st.integers(min_value=0), bit=st.integers(0, 7))
def test_first_break_is_the_edited_link(turns, which, offset, bit):
    record = chain.Record(2, "border-war", None, "china-war-1980", "1", "border-war", {"soviet": ["Alice"]}, "draw")
    links = chain.chain(record, turns)
    stored = [chain.StoredLink(k, n, d, chain.file_hash(d), link) for k, ((n, d), link) in enumerate(zip(turns, links))]
    assert chain.first_break(record, stored, links[-1], len(turns)) is None
    k = which % len(turns)
    data = bytearray(stored[k].data)
    data[offset % len(data)] ^= 1 << bit
    stored[k] = chain.StoredLink(k, stored[k].name, bytes(data), stored[k].file_hash, stored[k].link)
    assert chain.first_break(record, stored, links[-1], len(turns)).startswith(f"link {k + 1} ")


def test_the_start_is_part_of_the_chain():
    turns = [("t1.json", b"{}")]
    for scheme in (1, 2):
        assert chain.chain(chain.Record(scheme, "border-war", None), turns) != chain.chain(chain.Record(scheme, "other", None), turns)
        assert chain.chain(chain.Record(scheme, None, b"state"), turns) != chain.chain(chain.Record(scheme, None, b"state!"), turns)


def test_scheme_1_links_are_unchanged():
    # Heads players kept before scheme 2 must still verify: the scheme-1 formula, computed by hand.
    import hashlib

    genesis = hashlib.sha256(b"pbem-archive-chain-v1\x00scenario:border-war").digest()
    digest = hashlib.sha256(genesis + (0).to_bytes(4, "big") + hashlib.sha256(b"t1.json").digest() + hashlib.sha256(b"{}").digest())
    assert chain.chain(chain.Record(1, "border-war", None), [("t1.json", b"{}")]) == [digest.hexdigest()]


@pytest.mark.parametrize(
    "change",
    [{"module": "other"}, {"module_version": "2"}, {"scenario": "x"}, {"start_scenario": "x"}, {"start_data": b"{}"},
     {"players": {"soviet": ["Alice"], "chinese": ["Bob", "Eve"]}}, {"players": {"soviet": ["Bob"], "chinese": ["Alice"]}},
     {"result": "soviet"}, {"result": None}],
)  # fmt: skip
def test_scheme_2_head_covers_the_record(change):
    base = dict(scheme=2, start_scenario="border-war", start_data=None, module="china-war-1980", module_version="1",
                scenario="border-war", players={"soviet": ["Alice"], "chinese": ["Bob"]}, result="draw")  # fmt: skip
    turns = [("t1.json", b"{}")]
    assert chain.chain(chain.Record(**base), turns) != chain.chain(chain.Record(**{**base, **change}), turns)
    # The order players were named in does not matter; who played which side does.
    same = {**base, "players": {"chinese": ["Bob"], "soviet": ["Alice"]}}
    assert chain.chain(chain.Record(**base), turns) == chain.chain(chain.Record(**same), turns)
