"""pbem archive add/list/search/show/export/remove: a short China War game in, out byte for byte, found."""

from __future__ import annotations

import hashlib
import io
import json
import re
import sqlite3
import zipfile
from pathlib import Path

import pytest
from archive_support import archive_bench, run

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def game(tmp_path) -> list[Path]:
    return archive_bench().sample_game(tmp_path / "game")


@pytest.fixture
def db(tmp_path) -> Path:
    return tmp_path / "archive.sqlite"


def digest(paths) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def test_add_replays_and_stores_every_turn(capsys, game, db):
    before = digest(game)
    code, out, _ = run(capsys, "archive", "--db", db, "add", *game, "--result", "soviet", "--finished", "2024-03-01")
    assert code == 0, out
    assert "added game #1: china-war-1980/border-war, 3 turns" in out
    assert "1 violation(s)" in out
    assert digest(game) == before  # inputs are never modified
    code, out, _ = run(capsys, "archive", "--db", db, "show", "1", "--format", "json")
    info = json.loads(out)
    assert [t["name"] for t in info["turns"]] == [p.name for p in game]
    assert info["players"] == {"soviet": ["Alice"], "chinese": ["Bob"]}
    assert info["result"] == "soviet" and info["finished"] == "2024-03-01"
    rules = [v["rule"] for t in info["turns"] for v in t["violations"]]
    assert rules == ["6.22"]
    assert info["turns"][2]["violations"][0]["line"] is not None
    # The attack of turn 1 was applied: the Soviet infantry lost a step in the stored state.
    connection = sqlite3.connect(db)
    state = json.loads(connection.execute("SELECT state FROM turns WHERE seq = 0").fetchone()[0])
    assert {"id": "SOV-MR-XX-1-01", "at": "3004", "step": 1} in state["units"]


def test_written_state_files_are_not_trusted(capsys, game, db):
    # Turn 2's header names after-1.json: a forged one (every unit elsewhere) must change nothing.
    (game[0].parent / "after-1.json").write_text(json.dumps({"module": "china-war-1980", "scenario": "border-war", "units": []}))
    assert run(capsys, "archive", "--db", db, "add", game[0].parent)[0] == 0
    code, out, _ = run(capsys, "archive", "--db", db, "show", "1", "--format", "json")
    info = json.loads(out)
    assert info["turn_count"] == 3  # the state file was not taken for a turn
    assert [v["rule"] for t in info["turns"] for v in t["violations"]] == ["6.22"]


def test_search_by_each_filter(capsys, game, db):
    run(capsys, "archive", "--db", db, "add", *game, "--result", "soviet", "--finished", "2024-03-01")
    run(capsys, "archive", "--db", db, "add", game[0], "--player", "chinese=Chen", "--result", "draw", "--finished", "2023-05-02")

    def ids(*filters: str) -> list[int]:
        code, out, _ = run(capsys, "archive", "--db", db, "search", *filters, "--format", "json")
        assert code == 0
        return [row["id"] for row in json.loads(out)]

    assert ids() == [1, 2]
    assert ids("--player", "alice") == [1, 2]
    assert ids("--player", "CHEN") == [2]
    assert ids("--player", "nobody") == []
    assert ids("--module", "china-war-1980", "--scenario", "border-war") == [1, 2]
    assert ids("--scenario", "other") == []
    assert ids("--since", "2024-01-01") == [1]
    assert ids("--until", "2023-12-31") == [2]
    assert ids("--result", "DRAW") == [2]
    assert ids("--rule", "6.22") == [1]
    assert ids("--rule", "6.22", "--severity", "warning") == []
    assert ids("--rule", "9.14") == []
    assert ids("--legal") == [2]
    code, out, err = run(capsys, "archive", "--db", db, "search", "--since", "March 1st")
    assert code == 2 and err.count("\n") == 1 and "--since" in err


def test_export_is_byte_identical_and_add_takes_it_back(capsys, game, db, tmp_path):
    run(capsys, "archive", "--db", db, "add", *game, "--title", "Amur")
    out_dir = tmp_path / "exported"
    assert run(capsys, "archive", "--db", db, "export", "1", out_dir)[0] == 0
    for path in game:
        assert (out_dir / path.name).read_bytes() == path.read_bytes()
    manifest = json.loads((out_dir / "game.json").read_text())
    assert manifest["turns"] == [p.name for p in game]
    code, out, _ = run(capsys, "archive", "--db", db, "add", out_dir)
    assert code == 0
    heads = [json.loads(run(capsys, "archive", "--db", db, "show", str(n), "--format", "json")[1]) for n in (1, 2)]
    assert heads[0]["head"] == heads[1]["head"] and heads[1]["title"] == "Amur"
    # A zip round trip, too.
    zipped = tmp_path / "game.zip"
    assert run(capsys, "archive", "--db", db, "export", "2", zipped)[0] == 0
    with zipfile.ZipFile(zipped) as archive_zip:
        assert archive_zip.read(f"game/{game[1].name}") == game[1].read_bytes()
    assert run(capsys, "archive", "--db", db, "add", zipped)[0] == 0
    # Exporting over existing files is refused, nothing written.
    code, _, err = run(capsys, "archive", "--db", db, "export", "1", out_dir)
    assert code == 2 and "overwrite" in err


def test_edited_export_is_refused_by_its_head(capsys, game, db, tmp_path):
    run(capsys, "archive", "--db", db, "add", *game)
    out_dir = tmp_path / "exported"
    run(capsys, "archive", "--db", db, "export", "1", out_dir)
    turn = out_dir / game[1].name
    turn.write_bytes(turn.read_bytes().replace(b'"Bob"', b'"Rob"'))
    code, _, err = run(capsys, "archive", "--db", db, "add", out_dir)
    assert code == 2 and "head" in err


def test_add_is_all_or_nothing(capsys, game, db):
    run(capsys, "archive", "--db", db, "add", game[0])
    broken = game[2]
    broken.write_text(broken.read_text().replace('"SOV-', '"XXX-', 1))
    code, _, err = run(capsys, "archive", "--db", db, "add", *game)
    assert code == 2
    assert err.startswith("error: t3-soviet.json:") and "unknown unit" in err and err.count("\n") == 1
    connection = sqlite3.connect(db)
    assert connection.execute("SELECT count(*) FROM games").fetchone() == (1,)
    assert connection.execute("SELECT count(*) FROM turns").fetchone() == (1,)


def test_list_and_remove(capsys, game, db, monkeypatch):
    run(capsys, "archive", "--db", db, "add", *game)
    code, out, _ = run(capsys, "archive", "--db", db, "list")
    assert code == 0 and out.startswith("#1") and "Alice (soviet) vs Bob (chinese)" in out
    monkeypatch.setattr("sys.stdin", TerminalInput("n\n"))
    code, _, err = run(capsys, "archive", "--db", db, "remove", "1")
    assert code == 130 and err == "aborted\n"  # a player at a terminal answered no
    assert run(capsys, "archive", "--db", db, "remove", "1", "--yes")[0] == 0
    connection = sqlite3.connect(db)
    assert connection.execute("SELECT count(*) FROM turns").fetchone() == (0,)
    assert connection.execute("SELECT count(*) FROM violations").fetchone() == (0,)
    code, _, err = run(capsys, "archive", "--db", db, "show", "1")
    assert code == 2 and "no game" in err


class TerminalInput(io.StringIO):
    """Standard input as a terminal gives it: the answers typed."""

    def isatty(self) -> bool:
        return True


def test_remove_without_a_terminal_asks_for_yes_and_removes_nothing(capsys, game, db, monkeypatch):
    run(capsys, "archive", "--db", db, "add", *game)
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))  # a pipe, even one saying yes, is not a player answering
    code, out, err = run(capsys, "archive", "--db", db, "remove", "1")
    assert (code, out) == (2, "")
    assert err == "error: remove game #1: no terminal to ask on; pass --yes to remove it\n"
    assert sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone() == (1,)
    monkeypatch.setattr("sys.stdin", TerminalInput("y\n"))
    code, out, _ = run(capsys, "archive", "--db", db, "remove", "1")
    assert code == 0 and "? [y/N]: " in out and out.endswith("removed game #1\n")


def test_a_removed_games_number_is_never_given_again(capsys, game, db):
    for _ in range(3):
        assert run(capsys, "archive", "--db", db, "add", *game)[0] == 0
    # The last game's number is the one SQLite's rowid alone would hand out again.
    assert run(capsys, "archive", "--db", db, "remove", "3", "--yes")[0] == 0
    assert run(capsys, "archive", "--db", db, "remove", "2", "--yes")[0] == 0
    code, out, _ = run(capsys, "archive", "--db", db, "add", *game)
    assert code == 0 and "added game #4:" in out
    code, _, err = run(capsys, "archive", "--db", db, "show", "3")
    assert code == 2 and "no game '3'" in err
    assert [r["id"] for r in json.loads(run(capsys, "archive", "--db", db, "list", "--format", "json")[1])] == [1, 4]
    # Removing every game does not start the count again either.
    for number in ("1", "4"):
        run(capsys, "archive", "--db", db, "remove", number, "--yes")
    assert "added game #5:" in run(capsys, "archive", "--db", db, "add", *game)[1]


VERBS_READING_GAME_1 = (["list"], ["show", "1"], ["search", "--player", "alice"], ["verify"], ["verify", "1"],
                        ["revalidate", "1", "--jobs", "1", "--dry-run"])  # fmt: skip


@pytest.mark.parametrize("verb", VERBS_READING_GAME_1, ids=lambda v: " ".join(v))
def test_db_is_taken_before_and_after_the_verb(capsys, game, db, tmp_path, verb):
    def untimed(result):  # revalidate says how long it took
        code, out, err = result
        return code, re.sub(r"in [0-9.]+ s \(.*?\)", "", out), err

    other = tmp_path / "other.sqlite"
    assert run(capsys, "archive", "add", "--db", db, *game)[0] == 0
    before = untimed(run(capsys, "archive", "--db", db, *verb))
    assert before[0] in (0, 1) and ("#1" in before[1] + before[2] or "1 game" in before[1] + before[2])
    assert untimed(run(capsys, "archive", *verb, "--db", db)) == before
    # Both given: the one after the verb wins (here a missing archive, so the command fails on it).
    code, _, err = run(capsys, "archive", "--db", db, *verb, "--db", other)
    assert code == 2 and "other.sqlite" in err and "no such archive" in err
    assert untimed(run(capsys, "archive", "--db", other, *verb, "--db", db)) == before


def test_db_after_the_verb_for_add_export_and_remove(capsys, game, db, tmp_path):
    code, out, _ = run(capsys, "archive", "add", *game, "--db", db)
    assert code == 0 and "added game #1" in out and db.exists()
    assert run(capsys, "archive", "export", "1", tmp_path / "out", "--db", db)[0] == 0
    assert (tmp_path / "out" / "game.json").exists()
    assert run(capsys, "archive", "remove", "1", "--yes", "--db", db)[0] == 0
    assert sqlite3.connect(db).execute("SELECT count(*) FROM games").fetchone() == (0,)


def test_every_archive_verb_takes_db_after_it():
    from pbem.cli.archive import archive

    for name, command in archive.commands.items():
        assert "--db" in [o for p in command.params for o in p.opts], name


def test_bad_game_inputs_are_one_line_errors(capsys, tmp_path, db):
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run(capsys, "archive", "--db", db, "add", empty)
    assert code == 2 and "no turn files" in err and err.count("\n") == 1
    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as archive_zip:
        archive_zip.writestr("../../escape.json", "{}")
    code, _, err = run(capsys, "archive", "--db", db, "add", evil)
    assert code == 2 and "not a plain file" in err
    folder = tmp_path / "g"
    folder.mkdir()
    (folder / "game.json").write_text('{"turns": ["t1.json"], "colour": "red"}')
    code, _, err = run(capsys, "archive", "--db", db, "add", folder)
    assert code == 2 and "unknown key 'colour'" in err and "game.json:1:" in err


@pytest.mark.parametrize("suffix", [".json", ".pbem"])
def test_the_china_war_sample_game_end_to_end(capsys, db, tmp_path, suffix):
    samples = ROOT / "samples" / "china-war-1980"
    turns = [samples / f"legal-01-amur-crossing{suffix}", samples / f"legal-02-chinese-reply{suffix}"]
    if not all(p.exists() for p in turns):
        pytest.skip("the China War sample turns are not in this checkout")
    code, out, _ = run(capsys, "archive", "--db", db, "add", *turns, "--player", "soviet=Alice", "--player", "chinese=Bob")
    assert code == 0 and "2 turns" in out and "all legal" in out
    assert [r["id"] for r in json.loads(run(capsys, "archive", "--db", db, "search", "--player", "bob", "--format", "json")[1])] == [1]
    assert run(capsys, "archive", "--db", db, "revalidate", "--jobs", "1")[0] == 0
    run(capsys, "archive", "--db", db, "export", "1", tmp_path / "out")
    for path in turns:
        assert (tmp_path / "out" / path.name).read_bytes() == path.read_bytes()
    assert run(capsys, "archive", "--db", db, "verify")[0] == 0
    connection = sqlite3.connect(db)
    connection.execute("UPDATE turns SET data = CAST(data || ' ' AS BLOB) WHERE seq = 1")
    connection.commit()
    code, out, _ = run(capsys, "archive", "--db", db, "verify")
    assert code == 1 and f"link 2 ({turns[1].name})" in out
