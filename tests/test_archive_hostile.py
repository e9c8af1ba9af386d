"""A received archive or game is data, never trusted: small hostile files made at test time.

Each class of attack ends in one line naming the file and place with exit 2 (or, for what is already
stored, in safe display), writes nothing outside its output and leaves every input byte-identical.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import zipfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from archive_support import archive_bench, run

from pbem.archive.store import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION


@pytest.fixture
def game(tmp_path) -> list[Path]:
    return archive_bench().sample_game(tmp_path / "game")


@pytest.fixture
def archived(capsys, game, tmp_path) -> Path:
    db = tmp_path / "archive.sqlite"
    assert run(capsys, "archive", "--db", db, "add", *game, "--result", "draw")[0] == 0
    return db


def one_line_refusal(code: int, err: str, *words: str) -> None:
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, (word, err)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def edit_turn(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


# --- item 1: lone surrogates ---------------------------------------------------------------------------
def test_lone_surrogate_on_the_command_line_is_refused_and_no_archive_is_made(capsys, game, tmp_path):
    db = tmp_path / "new" / "archive.sqlite"
    for option in (["--title", "x\ud800"], ["--result", "\udcff"], ["--player", "soviet=Al\ud800"]):
        code, _, err = run(capsys, "archive", "--db", db, "add", *game, *option)
        one_line_refusal(code, err)  # the CLI refuses any argument that is not UTF-8 text, before the archive sees it
        assert "not UTF-8 text" in err or "lone surrogate" in err, err
    assert not (tmp_path / "new").exists()
    run(capsys, "archive", "--db", tmp_path / "a.sqlite", "add", *game)
    for option in ("--player", "--module", "--scenario", "--result", "--rule"):
        code, _, err = run(capsys, "archive", "--db", tmp_path / "a.sqlite", "search", option, "\udcff")
        one_line_refusal(code, err)
        assert "not UTF-8 text" in err or "lone surrogate" in err, err
    code, _, err = run(capsys, "replay", game[0].parent, "--title", "\ud800", "-o", tmp_path / "g.html")
    one_line_refusal(code, err)
    assert not (tmp_path / "g.html").exists()


@pytest.mark.parametrize("where", ["title", "result", "players", "player"])
def test_lone_surrogate_in_a_game_file_is_refused_with_its_place(capsys, game, tmp_path, where):
    folder = game[0].parent
    if where == "player":
        edit_turn(game[1], lambda d: d.update(player="Bob\ud800"))
        expected = [game[1].name, "/player"]
    else:
        value = {"soviet": ["\ud800"]} if where == "players" else "\ud800"
        (folder / "game.json").write_text(json.dumps({where: value}))
        expected = ["game.json", f"/{where}"]
    before = snapshot(folder)
    code, _, err = run(capsys, "archive", "--db", tmp_path / "a.sqlite", "add", folder)
    one_line_refusal(code, err, "surrogate", *expected)
    assert not (tmp_path / "a.sqlite").exists()
    assert snapshot(folder) == before


def test_lone_surrogate_in_a_note_is_refused_at_read_time(capsys, game, tmp_path):
    # A lone surrogate is not text: every JSON input refuses it where it stands, so it never reaches an archive.
    edit_turn(game[0], lambda d: d["actions"][1].update(note="\ud800 __JS__"))
    db = tmp_path / "a.sqlite"
    code, _, err = run(capsys, "archive", "--db", db, "add", *game)
    one_line_refusal(code, err, "surrogate", game[0].name, "/actions/1/note")
    assert not db.exists()
    code, _, err = run(capsys, "replay", game[0].parent, "-o", tmp_path / "h.html")
    one_line_refusal(code, err, "surrogate")
    assert not (tmp_path / "h.html").exists()


def test_text_stored_as_invalid_utf8_is_shown_not_crashed_on(capsys, archived):
    db = sqlite3.connect(archived)
    # What a hostile archive can hold and Python never writes: a UTF-8-encoded surrogate and a stray byte.
    db.execute("UPDATE games SET title = CAST(X'41eda080' AS TEXT), result = CAST(X'ff' AS TEXT)")
    db.execute("UPDATE players SET name = CAST(X'426fedb080' AS TEXT) WHERE side = 'chinese'")
    db.commit()
    db.close()
    for verb in (["list"], ["list", "--format", "json"], ["show", "1"], ["show", "1", "--format", "json"], ["search", "--player", "alice"]):
        code, out, err = run(capsys, "archive", "--db", archived, *verb)
        assert code == 0, (verb, err)
        assert "\ufffd" in out or "\\ufffd" in out
    assert run(capsys, "replay", "1", "--db", archived, "-o", archived.parent / "g.html")[0] == 0


def test_violation_rows_of_the_wrong_types_are_a_changed_verdict_not_a_crash(capsys, archived):
    db = sqlite3.connect(archived)
    # SQLite keeps any value in any column: a received archive's violation with a blob for its turn and text for its action.
    db.execute("INSERT INTO violations (game_id, seq, n, action, rule, severity, message) VALUES (1, X'00', 0, 'x', 7, X'ff', 'm')")
    db.commit()
    db.close()
    code, out, err = run(capsys, "archive", "--db", archived, "revalidate", "--dry-run")
    assert code in (0, 1) and "internal error" not in err, err
    assert "game #1: " in out and "- turn 1, action 0: rule 7" in out


@pytest.mark.parametrize("module_id", [None, 7, b"china-war-1980"])
def test_a_module_id_read_from_a_damaged_archive_is_an_input_error(module_id):
    # A damaged SQLite page can give NULL (or another type) for a NOT NULL text column: the fuzz harness found it.
    from pbem.model.errors import PbemError
    from pbem.model.module import load_module_by_id

    with pytest.raises(PbemError, match="names its module by id"):
        load_module_by_id(module_id)


# --- item 1 and 6: pbem's application id, another schema ------------------------------------------------
HOSTILE_SCHEMA = {
    "trigger": "CREATE TRIGGER forge AFTER INSERT ON games BEGIN UPDATE games SET ok = 1, violations = 0; END",
    "view": "CREATE VIEW everything AS SELECT * FROM games",
    "table": "CREATE TABLE extra (x)",
    "index": "CREATE INDEX extra_index ON turns(name)",
    "dropped index": "DROP INDEX players_by_name",
    "dropped game counter": "DROP TABLE game_numbers",
    "changed table": "DROP TABLE violations; CREATE TABLE violations (game_id INTEGER, seq INTEGER, n INTEGER, action INTEGER,"
    " rule TEXT, severity TEXT, message TEXT, line INTEGER, column_ INTEGER)",
}


@pytest.mark.parametrize("kind", HOSTILE_SCHEMA)
def test_pbem_id_with_another_schema_is_refused_unchanged(capsys, archived, game, kind):
    db = sqlite3.connect(archived)
    db.executescript(HOSTILE_SCHEMA[kind])
    db.close()
    before = snapshot(archived.parent)
    for verb in (["list"], ["verify"], ["add", *game], ["show", "1"], ["export", "1", archived.parent / "out"], ["revalidate"]):
        code, out, err = run(capsys, "archive", "--db", archived, *verb)
        one_line_refusal(code, err, str(archived), "not pbem's schema")
        assert "intact" not in out
    assert run(capsys, "replay", "1", "--db", archived, "-o", archived.parent / "g.html")[0] == 2
    assert snapshot(archived.parent) == before


def test_schema_check_reads_the_wal_of_a_file_in_use(capsys, archived):
    """A trigger committed only to the -wal (the main file still looks right) is seen, and nothing is touched."""
    holder = sqlite3.connect(archived, isolation_level=None)
    holder.execute("PRAGMA wal_autocheckpoint = 0")
    holder.execute(HOSTILE_SCHEMA["trigger"])
    try:
        assert (archived.parent / "archive.sqlite-wal").stat().st_size > 0
        before = snapshot(archived.parent)
        code, _, err = run(capsys, "archive", "--db", archived, "list")
        one_line_refusal(code, err, "trigger 'forge'")
        assert snapshot(archived.parent) == before
        holder.execute("DROP TRIGGER forge")
        code, out, _ = run(capsys, "archive", "--db", archived, "list")  # in use, but ours again: read normally
        assert code == 0 and out.startswith("#1")
    finally:
        holder.close()


# --- item 6: empty and foreign files ---------------------------------------------------------------------
def foreign_wal_database(folder: Path, application_id: int, statements: str) -> Path:
    """A database left as a crashed program leaves it: its last changes only in its -wal (and -shm)."""
    live = folder / "live"
    live.mkdir()
    db = sqlite3.connect(live / "x.sqlite", isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA wal_autocheckpoint = 0")
    db.execute(f"PRAGMA application_id = {application_id}")
    db.executescript(statements)
    for name in ("x.sqlite", "x.sqlite-wal", "x.sqlite-shm"):
        shutil.copyfile(live / name, folder / name)
    db.close()
    return folder / "x.sqlite"


@pytest.mark.parametrize("application_id", [0, 0x12345678, APPLICATION_ID])
def test_a_foreign_wal_database_is_left_byte_identical(capsys, tmp_path, game, application_id):
    path = foreign_wal_database(tmp_path, application_id, "CREATE TABLE photos (id INTEGER PRIMARY KEY); INSERT INTO photos VALUES (1);")
    before = {name: (tmp_path / name).read_bytes() for name in ("x.sqlite", "x.sqlite-wal", "x.sqlite-shm")}
    for verb in (["list"], ["verify"], ["add", *game]):
        code, _, err = run(capsys, "archive", "--db", path, *verb)
        one_line_refusal(code, err, str(path), "not a pbem archive")
    assert {name: (tmp_path / name).read_bytes() for name in before} == before


@pytest.mark.parametrize("kind", ["empty file", "empty database"])
def test_empty_files_never_become_archives(capsys, tmp_path, game, kind):
    path = tmp_path / "archive.sqlite"
    if kind == "empty file":
        path.touch()
    else:
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE t (x)")
        db.execute("DROP TABLE t")
        db.commit()
        db.close()
        assert path.stat().st_size > 0
    before = snapshot(tmp_path)
    for verb in (["list"], ["verify"], ["add", *game]):
        code, _, err = run(capsys, "archive", "--db", path, *verb)
        one_line_refusal(code, err, str(path), {"empty file": "an empty file", "empty database": "an empty SQLite database"}[kind])
    assert snapshot(tmp_path) == before


def test_a_bad_game_added_to_a_new_path_leaves_nothing(capsys, game, tmp_path):
    edit_turn(game[2], lambda d: d["actions"][1].update(move="XXX-NOBODY"))
    for db in (tmp_path / "a.sqlite", tmp_path / "deep" / "er" / "a.sqlite"):
        code, _, err = run(capsys, "archive", "--db", db, "add", *game)
        one_line_refusal(code, err, game[2].name)
    # A refusal found only while storing (a side the module does not have) leaves nothing either.
    code, _, err = run(capsys, "archive", "--db", tmp_path / "a.sqlite", "add", game[0], "--player", "martians=Zork")
    one_line_refusal(code, err, "martians")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game"]


# --- item 6: stored names and text ---------------------------------------------------------------------
@pytest.mark.parametrize("name", ["../../escaped.json", "ABSOLUTE", "sub/t.json", "..", "t\x1b[2J.json", "a\\..\\b.json"])
def test_a_hostile_stored_file_name_writes_nothing_anywhere(capsys, archived, tmp_path, name):
    name = str(tmp_path / "absolute.json") if name == "ABSOLUTE" else name
    db = sqlite3.connect(archived)
    db.execute("UPDATE turns SET name = ? WHERE seq = 1", (name,))
    db.commit()
    db.close()
    out = tmp_path / "work" / "out"
    out.parent.mkdir()
    for target in (out, out.with_suffix(".zip")):
        code, _, err = run(capsys, "archive", "--db", archived, "export", "1", target)
        one_line_refusal(code, err, str(archived), "game 1, turn 2", "not a plain file name")
        assert "\x1b" not in err
    code, out, err = run(capsys, "archive", "--db", archived, "revalidate", "1", "--jobs", "1")
    assert code == 1 and "not a plain file name" in out and "\x1b" not in out + err
    code, _, err = run(capsys, "replay", "1", "--db", archived, "-o", tmp_path / "work" / "g.html")
    one_line_refusal(code, err, "not a plain file name")
    assert list((tmp_path / "work").iterdir()) == []
    assert not (tmp_path / "escaped.json").exists() and not (tmp_path / "absolute.json").exists()


def test_names_differing_only_in_case_are_not_exported_over_each_other(capsys, archived, tmp_path):
    db = sqlite3.connect(archived)
    db.execute("UPDATE turns SET name = 'T1-SOVIET.json' WHERE seq = 2")
    db.commit()
    db.close()
    code, _, err = run(capsys, "archive", "--db", archived, "export", "1", tmp_path / "out")
    one_line_refusal(code, err, "game 1, turn 3")
    assert not (tmp_path / "out").exists()


ESCAPES = "\x1b]0;owned\x07\x1b[31mred\x9b2J\x7f\u202eevil\u2028!"


def test_escape_sequences_never_reach_the_terminal(capsys, game, tmp_path):
    folder = game[0].parent
    (folder / "game.json").write_text(json.dumps({"title": "T" + ESCAPES, "result": "R" + ESCAPES, "players": {"soviet": "S" + ESCAPES}}))
    db = tmp_path / "a.sqlite"
    code, _, err = run(capsys, "archive", "--db", db, "add", folder)
    assert code == 0, err
    for verb in (["list"], ["search", "--player", "s" + ESCAPES], ["show", "1"], ["list", "--format", "json"], ["show", "1", "--format", "json"]):
        code, out, err = run(capsys, "archive", "--db", db, *verb)
        assert code == 0 and ("#1" in out or '"id": 1' in out), (verb, out)
        for raw in ("\x1b", "\x07", "\x9b", "\x7f", "\u202e", "\u2028"):
            assert raw not in out + err, (verb, repr(raw))
        if "json" in verb:
            parsed = json.loads(out)
            assert (parsed[0] if isinstance(parsed, list) else parsed)["title"] == "T" + ESCAPES  # the same string once parsed
        else:
            assert "\\x1b]0;owned\\x07\\x1b[31mred\\x9b2J\\x7f\\u202eevil\\u2028!" in out
    info = json.loads(run(capsys, "archive", "--db", db, "show", "1", "--format", "json")[1])
    assert info["title"] == "T" + ESCAPES and "S" + ESCAPES in info["players"]["soviet"]


# --- item 7: heads players keep --------------------------------------------------------------------------
def head_of(capsys, db: Path, game: int = 1) -> str:
    return json.loads(run(capsys, "archive", "--db", db, "show", str(game), "--format", "json")[1])["head"]


def test_add_and_show_print_the_head_to_keep(capsys, game, tmp_path):
    db = tmp_path / "a.sqlite"
    code, out, _ = run(capsys, "archive", "--db", db, "add", *game)
    head = head_of(capsys, db)
    assert code == 0 and f"\nhead {head}\n" in out and "verify 1 --head" in out
    assert f"  head     {head}\n" in run(capsys, "archive", "--db", db, "show", "1")[1]


def rechain(db: sqlite3.Connection, game: int = 1) -> None:
    """What an editor with write access does after changing a game: recompute every link and the head."""
    from pbem.archive import chain

    scenario, start_scenario, module, version, result = db.execute(
        "SELECT scenario, start_scenario, module, module_version, result FROM games WHERE id = ?", (game,)
    ).fetchone()
    players: dict[str, list[str]] = {}
    for side, name in db.execute("SELECT side, name FROM players WHERE game_id = ? ORDER BY rowid", (game,)):
        players.setdefault(side, []).append(name)
    record = chain.Record(2, start_scenario, None, module, version, scenario, players, result)
    turns = db.execute("SELECT seq, name, data FROM turns WHERE game_id = ? ORDER BY seq", (game,)).fetchall()
    links = chain.chain(record, [(name, bytes(data)) for _, name, data in turns])
    for (seq, _, data), link in zip(turns, links):
        db.execute("UPDATE turns SET link = ?, file_hash = ? WHERE game_id = ? AND seq = ?", (link, chain.file_hash(bytes(data)), game, seq))
    db.execute("UPDATE games SET head = ?, turn_count = ? WHERE id = ?", (links[-1], len(turns), game))
    db.commit()


@pytest.mark.parametrize(
    "forgery",
    ["drop the last turn", "edit a turn", "change the result", "swap the players", "change the module version", "change the scenario"],
)
def test_a_rechained_forgery_passes_verify_but_not_the_kept_head(capsys, archived, forgery):
    kept = head_of(capsys, archived)
    code, out, _ = run(capsys, "archive", "--db", archived, "verify", "1", "--head", kept.upper())
    assert code == 0 and "ends at the head you kept" in out
    db = sqlite3.connect(archived)
    db.execute("PRAGMA foreign_keys = ON")
    if forgery == "drop the last turn":
        db.execute("DELETE FROM turns WHERE seq = 2")
    elif forgery == "edit a turn":
        db.execute("UPDATE turns SET data = CAST(REPLACE(CAST(data AS TEXT), 'Bob', 'Rob') AS BLOB) WHERE seq = 1")
    elif forgery == "change the result":
        db.execute("UPDATE games SET result = 'soviet'")
    elif forgery == "swap the players":
        db.execute("UPDATE players SET side = CASE side WHEN 'soviet' THEN 'chinese' ELSE 'soviet' END")
    elif forgery == "change the module version":
        db.execute("UPDATE games SET module_version = '0.0'")
    else:
        db.execute("UPDATE games SET scenario = 'other'")
    db.commit()
    rechain(db)
    db.close()
    code, out, _ = run(capsys, "archive", "--db", archived, "verify")
    assert code == 0 and "all chains intact" in out  # the forgery is consistent on its own...
    code, out, _ = run(capsys, "archive", "--db", archived, "verify", "1", "--head", kept)
    assert code == 1 and "does not end at the head you kept" in out  # ...but not with the head a player kept


def test_a_kept_head_of_fewer_turns_is_recognised(capsys, game, tmp_path):
    db = tmp_path / "a.sqlite"
    run(capsys, "archive", "--db", db, "add", *game[:2])
    kept = head_of(capsys, db)
    run(capsys, "archive", "--db", db, "add", *game)
    code, out, _ = run(capsys, "archive", "--db", db, "verify", "2", "--head", kept)
    assert code == 1 and "link 2 of 3: turns 3-3 were added after it" in out


@pytest.mark.parametrize("args", [["1", "--head", "abc"], ["--head", "0" * 64], ["1", "1", "--head", "0" * 64]])
def test_a_malformed_head_request_is_a_usage_error(capsys, archived, args):
    code, _, err = run(capsys, "archive", "--db", archived, "verify", *args)
    one_line_refusal(code, err, "--head")


def test_games_stored_before_scheme_2_keep_their_heads(capsys, archived, tmp_path):
    """Migrating a version-2 archive keeps each game's scheme-1 head, which still verifies and is labelled."""
    from pbem.archive import chain

    old = tmp_path / "old.sqlite"
    db = sqlite3.connect(old)
    for step in range(2):
        db.executescript(MIGRATIONS[step])
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute("PRAGMA user_version = 2")
    db.execute("ATTACH ? AS new", (str(archived),))
    columns = [r[1] for r in db.execute("PRAGMA main.table_info(games)")]
    db.execute(f"INSERT INTO games SELECT {', '.join(columns)} FROM new.games")
    for table in ("players", "turns", "violations"):
        db.execute(f"INSERT INTO {table} SELECT * FROM new.{table}")
    db.commit()
    db.execute("DETACH new")
    turns = [(name, bytes(data)) for name, data in db.execute("SELECT name, data FROM turns ORDER BY seq")]
    links = chain.chain(chain.Record(1, "border-war", None), turns)
    for seq, link in enumerate(links):
        db.execute("UPDATE turns SET link = ? WHERE seq = ?", (link, seq))
    db.execute("UPDATE games SET head = ?", (links[-1],))
    db.commit()
    db.close()
    assert run(capsys, "archive", "--db", old, "verify")[:2] == (0, "1 game(s) checked, all chains intact\n")
    assert sqlite3.connect(old).execute("SELECT chain FROM games").fetchall() == [(1,)]
    assert sqlite3.connect(old).execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    code, out, _ = run(capsys, "archive", "--db", old, "verify", "1", "--head", links[-1])
    assert code == 0 and "start and turn files only" in out
    assert "start and turn files only" in run(capsys, "archive", "--db", old, "show", "1")[1]
    # Its export carries the old head and scheme, and is taken back (the new copy gets a scheme-2 head).
    run(capsys, "archive", "--db", old, "export", "1", tmp_path / "out")
    assert json.loads((tmp_path / "out" / "game.json").read_text())["chain"] == 1
    code, out, err = run(capsys, "archive", "--db", old, "add", tmp_path / "out")
    assert code == 0, err
    assert head_of(capsys, old, 2) not in (links[-1],) and run(capsys, "archive", "--db", old, "verify")[0] == 0


def test_export_records_what_the_head_covers_and_add_checks_it(capsys, archived, tmp_path):
    run(capsys, "archive", "--db", archived, "export", "1", tmp_path / "out")
    manifest = tmp_path / "out" / "game.json"
    data = json.loads(manifest.read_text())
    assert data["chain"] == 2 and data["module_version"] and data["result"] == "draw"
    manifest.write_text(json.dumps({**data, "result": "soviet"}))
    code, _, err = run(capsys, "archive", "--db", archived, "add", tmp_path / "out")
    one_line_refusal(code, err, "game.json", "/head")
    manifest.write_text(json.dumps({**data, "module_version": "0.1"}))  # exported from an older module: a different head
    code, _, err = run(capsys, "archive", "--db", archived, "add", tmp_path / "out")
    one_line_refusal(code, err, "/head")
    manifest.write_text(json.dumps(data))
    assert run(capsys, "archive", "--db", archived, "add", tmp_path / "out", "--result", "chinese")[0] == 0


# --- item 8: the viewer page ---------------------------------------------------------------------------
def game_json(page: str) -> str:
    start = page.index('<script type="application/json" id="game">') + len('<script type="application/json" id="game">')
    return page[start : page.index("</script>", start)]


HOSTILE_TEXT = ["__JS__", "__DATA__", "__TITLE__", "__CSS__", "</script><script>document.title='owned'</script>", "<!--", "</SCRIPT >",
                "a\u2028b\u2029c", "&amp; <b>bold</b>", "]]>", "${G}", "\\u003c"]  # fmt: skip


@pytest.fixture(scope="module")
def hostile_page(tmp_path_factory) -> tuple[Path, dict, str]:
    from pbem.cli import main

    tmp = tmp_path_factory.mktemp("hostile-viewer")
    paths = archive_bench().sample_game(tmp / "game")
    data = json.loads(paths[0].read_text())
    data["actions"] += [{"comment": f"comment {k}", "note": text} for k, text in enumerate(HOSTILE_TEXT)]
    data["actions"].append({"comment": "__DATA__ </script> __JS__"})
    paths[0].write_text(json.dumps(data))
    title = " ".join(HOSTILE_TEXT)
    (tmp / "game" / "game.json").write_text(json.dumps({"title": title, "players": {"soviet": "__JS__ </script>"}, "result": "__DATA__"}))
    out = tmp / "game.html"
    with pytest.raises(SystemExit) as exit_:
        main(["replay", str(tmp / "game"), "-o", str(out)])
    assert exit_.value.code == 0
    return out, json.loads(game_json(out.read_text())), title


def test_hostile_text_stays_data_in_the_page(hostile_page):
    out, data, title = hostile_page
    page = out.read_text()
    # The template's slots were each filled once: one style, two scripts, the script itself intact.
    assert page.count("<script") == 2 and page.count("</script>") == 2 and page.count("<style>") == 1
    assert "const G = JSON.parse" in page and page.count("const G = JSON.parse") == 1
    assert data["title"] == title
    notes = {f["note"] for f in data["frames"]}
    assert set(HOSTILE_TEXT) <= notes
    assert "__DATA__ </script> __JS__" in {f["text"].strip("“”") for f in data["frames"]}
    assert data["metadata"]["players"] == {"soviet": ["__JS__ </script>"]} and data["metadata"]["result"] == "__DATA__"
    head = page[: page.index("<style>")]
    assert f"<title>{title.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')}" in head.replace("&#x27;", "'").replace("&quot;", '"')
    for raw in ("\u2028", "\u2029"):
        assert raw not in game_json(page)


def test_hostile_text_in_the_browser(hostile_page):
    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip("headless browser test needs Debian's chromium at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")
    out, data, title = hostile_page
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(out.as_uri())
        assert page.title() == title
        assert page.inner_text("#title") == title
        seen = []
        for _ in data["frames"]:
            page.click("#step-next")
            seen.append(page.text_content("#action-note"))
        assert seen == [f["note"] for f in data["frames"]]
        assert "__JS__ </script> (soviet)" in page.text_content("#subtitle")
        browser.close()
    assert errors == []


def test_a_hostile_zip_from_export_never_carries_a_bad_name(capsys, archived, tmp_path):
    out = tmp_path / "g.zip"
    assert run(capsys, "archive", "--db", archived, "export", "1", out)[0] == 0
    with zipfile.ZipFile(out) as archive_zip:
        assert all(name.startswith("g/") and name.count("/") == 1 for name in archive_zip.namelist())


def test_an_export_made_before_scheme_2_is_taken_back(capsys, archived, tmp_path):
    from pbem.archive import chain

    run(capsys, "archive", "--db", archived, "export", "1", tmp_path / "out")
    manifest = tmp_path / "out" / "game.json"
    data = json.loads(manifest.read_text())
    turns = [(name, (tmp_path / "out" / name).read_bytes()) for name in data["turns"]]
    old_head = chain.chain(chain.Record(1, "border-war", None), turns)[-1]
    old = {k: v for k, v in data.items() if k not in ("chain", "module_version")}
    manifest.write_text(json.dumps({**old, "head": old_head}))
    assert run(capsys, "archive", "--db", archived, "add", tmp_path / "out")[0] == 0
    # A game.json that names scheme 2 must carry a scheme-2 head.
    manifest.write_text(json.dumps({**data, "head": old_head}))
    code, _, err = run(capsys, "archive", "--db", archived, "add", tmp_path / "out")
    one_line_refusal(code, err, "/head")


def test_a_stored_module_path_never_picks_the_code_run(capsys, archived, tmp_path):
    """A module folder holds code (rules): a received archive names modules by id, never by path."""
    evil = tmp_path / "evil-module"
    shutil.copytree(Path(__file__).resolve().parents[1] / "modules" / "china-war-1980", evil)
    marker = tmp_path / "ran"
    init = evil / "rules" / "__init__.py"
    init.write_text(f"open({str(marker)!r}, 'w').close()\n" + init.read_text())
    db = sqlite3.connect(archived)
    db.execute("UPDATE games SET module = ?", (str(evil),))
    db.commit()
    db.close()
    code, _, err = run(capsys, "replay", "1", "--db", archived, "-o", tmp_path / "g.html")
    one_line_refusal(code, err, "by id")
    code, out, _ = run(capsys, "archive", "--db", archived, "revalidate", "--jobs", "1")
    assert code == 1 and "by id" in out
    assert not marker.exists() and not (tmp_path / "g.html").exists()


@pytest.mark.parametrize(
    "sql",
    ["UPDATE games SET title = X'1b5b326a', result = 7, scenario = X'00ff'", "UPDATE turns SET data = CAST(data AS TEXT), seq = 'x' WHERE seq = 1",
     "UPDATE players SET name = 42", "UPDATE games SET start_data = 'text', head = 5, turn_count = 'many'",
     "UPDATE violations SET message = X'1b', line = 'x'"],
)  # fmt: skip
def test_columns_of_unexpected_types_are_shown_and_checked_not_crashed_on(capsys, archived, tmp_path, sql):
    db = sqlite3.connect(archived)
    db.execute(sql)
    db.commit()
    db.close()
    for verb in (["list"], ["list", "--format", "json"], ["show", "1"], ["show", "1", "--format", "json"], ["search", "--player", "42"],
                 ["verify"], ["verify", "1", "--head", "0" * 64], ["export", "1", tmp_path / "out"], ["revalidate", "--jobs", "1", "--dry-run"]):  # fmt: skip
        code, out, err = run(capsys, "archive", "--db", archived, *verb)
        assert code in (0, 1, 2) and "Traceback" not in err, (verb, err)
        assert "\x1b" not in out + err
        if code == 2:
            one_line_refusal(code, err)
    code, _, err = run(capsys, "replay", "1", "--db", archived, "-o", tmp_path / "g.html")
    assert code in (0, 2), err


@settings(max_examples=200, deadline=None)
@example(text="\ud800\x1b[2J\u202e\\\x9b\U000e0001\u2028")
@given(text=st.text(alphabet=st.characters(exclude_categories=()), max_size=40))
def test_shown_text_is_always_printable_and_json_round_trips(text):
    from pbem.archive.safetext import json_text, printable

    shown = printable(text)
    assert shown.isprintable()
    assert printable(text) == text or "\\" in shown
    out = json_text({"t": text})
    assert all(line.isprintable() for line in out.split("\n"))
    assert json.loads(out) == {"t": text}


def test_a_zip_member_with_no_name_is_refused(capsys, game, tmp_path):
    """Found by the fuzz pass: zipfile's own is_dir() fails on a member whose name is empty."""
    path = tmp_path / "game.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for turn in game:
            archive.write(turn, turn.name)
        archive.writestr(zipfile.ZipInfo(""), b"{}")
    db = tmp_path / "archive.sqlite"
    code, out, err = run(capsys, "archive", "--db", db, "add", path)
    one_line_refusal(code, err, "game.zip", "no name")
    assert not db.exists()
