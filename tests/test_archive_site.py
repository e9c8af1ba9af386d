"""pbem archive site: a static site of the archive (index, standings with Elo, player pages, replays), built
incrementally, with hostile names; headless Chromium searches, filters and opens pages offline."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from archive_support import ROOT, archive_bench, run

from pbem.archive.standings import K_FACTOR, START_RATING, outcome, standings

# Player names, a title and a result as a hostile archive may hold them.
EVIL_SOVIET = "</script><img src=x onerror=window.pwned=1>Ivan"
EVIL_CHINESE = "\"'><b id=bold>Li\u202eRO\x07</b><!--"
EVIL_TITLE = "</script><script>window.pwned=2</script>__DATA__"
CLUB = "<i>Amur</i> \u202eclub"
SAMPLES = {  # module: (sample turn file, players, result)
    "red-winter": ("red-winter/legal-01-soviet-advance.json", ["soviet=Alice", "finnish=Bob"], "finnish"),
    "paths-of-glory": ("paths-of-glory/legal-01-guns-of-august-opening.json", ["cp=Bob", "ap=Chen"], "cp"),
    "no-retreat": ("no-retreat/legal-01-axis-turn.json", ["axis=Chen", "soviet=Alice"], None),
    "china-war-1980": ("china-war-1980/legal-01-amur-crossing.json", ["soviet=Alice", "chinese=Chen"], "Alice won"),
}


def hostile_game(folder: Path, soviet: str, chinese: str, seed: int) -> list[Path]:
    paths = archive_bench().sample_game(folder, seed=seed)
    for path in paths:
        data = json.loads(path.read_text())
        data["player"] = soviet if data["side"] == "soviet" else chinese
        data["actions"][-1]["note"] = "</script><script>window.pwned=3</script>"
        path.write_text(json.dumps(data))
    return paths


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """An archive of two hostile China War games and the bundled samples of four modules, and its site."""
    from pbem.cli import main

    tmp = tmp_path_factory.mktemp("site")
    db = tmp / "club.sqlite"

    def pbem(*args) -> None:
        with pytest.raises(SystemExit) as exit_:
            main([str(a) for a in args])
        assert exit_.value.code == 0, args

    pbem("archive", "--db", db, "add", *hostile_game(tmp / "g1", EVIL_SOVIET, EVIL_CHINESE, 7), "--title", EVIL_TITLE, "--result", "soviet")
    pbem("archive", "--db", db, "add", *hostile_game(tmp / "g2", "Alice", EVIL_CHINESE, 8), "--result", "chinese", "--finished", "2024-01-02")
    for turn, players, result in SAMPLES.values():
        pbem("archive", "--db", db, "add", ROOT / "samples" / turn, *(f"--player={p}" for p in players), *(["--result", result] if result else []))
    pbem("archive", "site", db, "--out", tmp / "site", "--title", CLUB)
    return db, tmp / "site"


def pages(site: Path) -> dict[str, str]:
    return {str(p.relative_to(site)): p.read_text() for p in sorted(site.rglob("*.html"))}


# --- standings ------------------------------------------------------------------------------------------
def test_elo_win_draw_and_team():
    players = {"soviet": ["Alice"], "chinese": ["Bob"]}
    table = standings([{"id": 1, "finished": "2024-01-01", "result": "Soviet ", "players": players}])
    assert table["alice"].rating == START_RATING + K_FACTOR / 2 and table["bob"].rating == START_RATING - K_FACTOR / 2
    assert (table["alice"].wins, table["bob"].losses) == (1, 1)
    # The higher-rated player drawing loses points; a team's rating is its players' mean.
    table = standings([{"id": 1, "finished": "2024-01-01", "result": "soviet", "players": players},
                       {"id": 2, "finished": "2024-02-01", "result": "draw", "players": players},
                       {"id": 3, "finished": "2024-03-01", "result": "chinese", "players": {"soviet": ["alice", "Chen"], "chinese": ["Dan"]}}])  # fmt: skip
    expected = 1 / (1 + 10 ** ((1484 - 1516) / 400))
    assert table["alice"].history[2][1] == pytest.approx(1516 + K_FACTOR * (0.5 - expected))
    assert table["alice"].draws == 1 and table["alice"].losses == 1 and table["chen"].losses == 1 and table["dan"].wins == 1
    team = (table["alice"].history[3][0] + START_RATING) / 2
    assert table["dan"].rating == pytest.approx(START_RATING + K_FACTOR * (1 - 1 / (1 + 10 ** ((team - START_RATING) / 400))))


def test_games_without_a_rateable_result_are_not_rated():
    two = {"soviet": ["A"], "chinese": ["B"]}
    assert outcome(None, two) == ("unrated", "no result recorded")
    assert outcome("Alice won", two)[0] == "unrated"
    assert outcome("chinese", {"soviet": ["A"], "chinese": [], "x": ["C"]})[0] == "unrated"
    assert outcome("chinese", two) == ("win", "chinese") and outcome(" DRAW", two) == ("draw", None)
    assert outcome("Central Powers", {"cp": ["A"], "ap": ["B"]}, {"cp": "Central Powers", "ap": "Allied Powers"}) == ("win", "cp")
    table = standings([{"id": 1, "result": None, "players": two}, {"id": 2, "result": "soviet", "players": {"soviet": ["A"], "chinese": ["a "]}}])
    assert table["a"].rating == START_RATING and table["a"].unrated == 2 and table["b"].unrated == 1 and not table["a"].rated


# --- the site ---------------------------------------------------------------------------------------------
def test_site_has_every_page_and_nothing_hostile_unescaped(built):
    db, site = built
    html_pages = pages(site)
    assert {"index.html", "standings.html", *(f"games/{n}.html" for n in range(1, 7))} <= set(html_pages)
    players = [name for name in html_pages if name.startswith("players/")]
    assert len(players) == 5  # Ivan, Li, Alice, Bob, Chen
    assert all(re.fullmatch(r"players/[a-z0-9-]+\.html", name) for name in players)
    for name, text in html_pages.items():
        assert "default-src 'none'" in text, name
        for raw in ("<img src=x", "<b id=bold>", "<script>window.pwned", "\u202e", "\x07"):
            assert raw not in text, (name, raw)
    index = html_pages["index.html"]
    assert '<span class="site">&lt;i&gt;Amur&lt;/i&gt; \\u202eclub</span>' in index
    assert "&lt;/script&gt;&lt;img src=x onerror=window.pwned=1&gt;Ivan" in index
    assert "Li\\u202eRO\\x07" in index  # the bidi override and the bell shown as escapes, not obeyed
    for module in ("Red Winter", "Paths of Glory", "No Retreat! The Russian Front", "The China War"):
        assert module in index
    standings_page = html_pages["standings.html"]
    assert "K = 32" in standings_page and "1500" in standings_page


def test_player_pages_hold_results_and_dice(built):
    _, site = built
    index = (site / "index.html").read_text()
    ivan = re.search(r'href="(players/[a-z0-9-]+\.html)">&lt;/script&gt;', index).group(1)
    page = (site / ivan).read_text()
    assert "<td class=\"win\">win</td><td class=\"num\">+17</td>" in page  # Li beat Alice first (finished 2024), so 1516 against 1500
    assert re.search(r'<table id="dice">.*<td>d6</td><td class="num">[1-9]', page, re.S), "the attack roll of game 1 is Ivan's"
    chen = (site / re.search(r'href="(players/[a-z0-9-]+\.html)">Chen<', index).group(1)).read_text()
    assert chen.count("href=\"../games/") == 3 and "Alice won" in chen and "(not rated)" in chen


def test_rebuild_rewrites_only_changed_games(built, capsys, tmp_path):
    db, site = built
    copy_db, copy_site = tmp_path / "club.sqlite", tmp_path / "site"
    shutil.copyfile(db, copy_db)
    shutil.copytree(site, copy_site)
    before = {p.name: p.stat() for p in (copy_site / "games").iterdir()}
    with sqlite3.connect(copy_db) as edit:  # a moderator corrects game 3's title; game 4 is removed
        edit.execute("UPDATE games SET title = 'Mannerheim line' WHERE id = 3")
    assert run(capsys, "archive", "--db", copy_db, "remove", "4", "--yes")[0] == 0
    code, out, _ = run(capsys, "archive", "site", copy_db, "--out", copy_site)
    assert code == 0 and "1 replayed, 4 unchanged, 1 removed" in out, out
    after = {p.name: p.stat() for p in (copy_site / "games").iterdir()}
    assert set(after) == set(before) - {"4.html"}
    for name in ("1.html", "2.html", "5.html", "6.html"):
        assert (after[name].st_ino, after[name].st_mtime_ns) == (before[name].st_ino, before[name].st_mtime_ns), name
    assert after["3.html"].st_ino != before["3.html"].st_ino and "Mannerheim line" in (copy_site / "games" / "3.html").read_text()
    assert "Mannerheim line" in (copy_site / "index.html").read_text()
    # A game page deleted by hand is written again; nothing else is replayed.
    (copy_site / "games" / "5.html").unlink()
    code, out, _ = run(capsys, "archive", "site", copy_db, "--out", copy_site)
    assert "1 replayed, 4 unchanged, 0 removed" in out and (copy_site / "games" / "5.html").is_file()


def test_a_folder_of_other_files_is_refused(built, capsys, tmp_path):
    db, _ = built
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "notes.txt").write_text("mine")
    code, _, err = run(capsys, "archive", "site", db, "--out", tmp_path / "home")
    assert code == 2 and "no pbem-site.json" in err and sorted(p.name for p in (tmp_path / "home").iterdir()) == ["notes.txt"]
    from pbem.archive.site import _prepare_folder

    (tmp_path / "repo" / ".git").mkdir(parents=True)  # a web host's checkout: its hidden files are not in the way
    _prepare_folder(tmp_path / "repo")
    assert sorted(p.name for p in (tmp_path / "repo").iterdir()) == [".git", "games", "players"]
    code, _, err = run(capsys, "archive", "site", tmp_path / "none.sqlite", "--out", tmp_path / "out")
    assert code == 2 and not (tmp_path / "out").exists()


def test_an_archive_damaged_past_its_list_of_games_leaves_no_folder(built, capsys, tmp_path, monkeypatch):
    db, _ = built
    from pbem.archive import games

    def damaged(archive, game_id):
        raise sqlite3.DatabaseError("database disk image is malformed")

    monkeypatch.setattr(games, "load_game", damaged)
    code, _, err = run(capsys, "archive", "site", db, "--out", tmp_path / "new")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "malformed" in err
    assert not (tmp_path / "new").exists()


def test_a_forged_manifest_deletes_nothing_outside_the_site(built, tmp_path, capsys):
    db, site = built
    copy_site = tmp_path / "site"
    shutil.copytree(site, copy_site)
    (tmp_path / "victim.html").write_text("keep")
    manifest = json.loads((copy_site / "pbem-site.json").read_text())
    manifest["files"] += ["../victim.html", "/etc/passwd", "games/../../victim.html"]
    # A summary that would put other players or a foreign link on the pages is not taken: the game is rendered again.
    manifest["games"]["3"]["summary"].update(players={"soviet": ["Mallory"]}, replay="javascript:alert(1)")
    manifest["games"]["4"]["summary"]["rolls"] = [["bob", "attack", 1, 6, ["<b>"], 4]]
    (copy_site / "pbem-site.json").write_text(json.dumps(manifest))
    code, out, _ = run(capsys, "archive", "site", db, "--out", copy_site, "--title", CLUB)
    assert code == 0 and "2 replayed, 4 unchanged" in out, out
    assert (tmp_path / "victim.html").read_text() == "keep"
    assert pages(copy_site) == pages(site)


# --- in Chromium ------------------------------------------------------------------------------------------
@pytest.fixture
def page(browser):
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    page.errors, page.requests, page.dialogs = [], [], []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.on("console", lambda message: page.errors.append(message.text) if message.type == "error" else None)
    page.on("request", lambda request: page.requests.append(request.url))
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    yield page
    assert not page.errors and not page.dialogs
    assert all(url.startswith("file://") for url in page.requests), page.requests
    page.close()


def visible_rows(page) -> list[str]:
    return page.eval_on_selector_all("#games tbody tr:not([hidden]) td:first-child", "cells => cells.map(c => c.textContent)")


def test_browser_searches_filters_and_opens_a_player_and_a_replay(built, page):
    _, site = built
    page.goto((site / "index.html").as_uri())
    assert page.text_content("#count") == "6 of 6 games"
    page.fill("#q", "paths glory")
    assert visible_rows(page) == ["4"]
    page.fill("#q", "")
    page.select_option("#f-module", label="The China War")
    assert sorted(visible_rows(page)) == ["1", "2", "6"]
    page.select_option("#f-module", "")
    page.select_option("#f-player", label=EVIL_CHINESE.replace("\u202e", "\\u202e").replace("\x07", "\\x07"))
    assert sorted(visible_rows(page)) == ["1", "2"]
    page.select_option("#f-result", "decided")
    page.select_option("#f-player", "")
    assert sorted(visible_rows(page)) == ["1", "2", "3", "4"]
    page.select_option("#f-result", "none")
    assert visible_rows(page) == ["5"]
    assert page.evaluate("() => [window.pwned, document.querySelectorAll('img, #bold').length]") == [None, 0]
    page.select_option("#f-result", "")
    page.fill("#f-until", "2024-12-31")
    assert visible_rows(page) == ["2"]
    page.fill("#f-until", "")
    page.fill("#f-since", "2024-06-01")
    assert "2" not in visible_rows(page) and len(visible_rows(page)) == 5
    page.click("#games a:text('Ivan')")
    page.wait_for_load_state()
    assert page.text_content("h1") == EVIL_SOVIET and page.is_visible("#dice")
    assert page.evaluate("() => [window.pwned, document.querySelectorAll('img, #bold, i').length]") == [None, 0]
    page.click("#player-games a[href^='../games/']")
    page.wait_for_load_state()
    page.wait_for_function("() => document.querySelectorAll('#actions li').length > 5")
    assert page.text_content("#title").startswith("</script><script>window.pwned=2</script>__DATA__")
    assert page.evaluate("() => [window.pwned, document.querySelectorAll('#bold').length]") == [None, 0]


def test_browser_opens_every_modules_replay(built, page):
    _, site = built
    page.goto((site / "standings.html").as_uri())
    assert page.eval_on_selector_all("#standings tbody tr", "rows => rows.length") == 5
    for number in range(3, 6):  # Red Winter, Paths of Glory, No Retreat! (a China War replay opens in the test above)
        page.goto((site / "games" / f"{number}.html").as_uri())
        page.wait_for_function("() => document.querySelectorAll('#actions li').length > 0")
        page.click("#step-next")
        assert page.text_content("#action-text")


def test_a_site_from_a_club_server_is_the_same_site(built, capsys, pg_url, tmp_path):
    """The site reads the archive only through its public API, so a PostgreSQL archive gives the same pages."""
    db, site = built
    copy_db = tmp_path / "one.sqlite"
    game = hostile_game(tmp_path / "g1", EVIL_SOVIET, EVIL_CHINESE, 7)
    for where in (copy_db, pg_url):
        assert run(capsys, "archive", "--db", where, "add", *game, "--title", EVIL_TITLE, "--result", "soviet", "--finished", "2024-05-01")[0] == 0
    code, out, _ = run(capsys, "archive", "site", pg_url, "--out", tmp_path / "pg")
    assert code == 0 and "1 replayed" in out
    assert run(capsys, "archive", "site", copy_db, "--out", tmp_path / "file")[0] == 0
    assert pages(tmp_path / "pg") == pages(tmp_path / "file")
    assert "&lt;/script&gt;&lt;img src=x" in (tmp_path / "pg" / "index.html").read_text()


def test_a_game_with_a_path_for_a_file_name_is_listed_not_replayed(built, capsys, tmp_path):
    db, site = built
    copy_db, copy_site = tmp_path / "club.sqlite", tmp_path / "site"
    shutil.copyfile(db, copy_db)
    shutil.copytree(site, copy_site)
    with sqlite3.connect(copy_db) as edit:
        edit.execute("UPDATE turns SET name = '../../evil.html' WHERE game_id = 3")
    code, out, _ = run(capsys, "archive", "site", copy_db, "--out", copy_site)
    assert code == 0 and "0 replayed, 5 unchanged, 1 removed, 1 not shown" in out, out
    index = (copy_site / "index.html").read_text()
    assert "not shown:" in index and 'href="games/3.html"' not in index and not (copy_site / "games" / "3.html").exists()
    assert not list(tmp_path.rglob("evil*"))


def test_standings_per_module_rate_each_game_apart(built):
    """Beside the club-wide table, one per module with a rated game: Bob's Paths of Glory win counts there only."""
    _, site = built
    page = (site / "standings.html").read_text()
    tables = dict(re.findall(r'<h2>([^<]+)</h2>\n<table class="standings-module" data-module="([^"]+)"', page))
    assert tables == {"Paths of Glory": "paths-of-glory", "Red Winter": "red-winter", "The China War": "china-war-1980"}
    pog = page.split('data-module="paths-of-glory"')[1].split("</table>")[0]
    assert re.search(r'>Bob</a></td><td class="num">1516</td><td class="num">1</td><td class="num">1</td>', pog)
    assert re.search(r'>Chen</a></td><td class="num">1484</td>', pog) and "Alice" not in pog
