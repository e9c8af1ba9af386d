"""pbem replay: one self-contained HTML file; headless Chromium steps through the game and sees every action."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from archive_support import archive_bench, run

from pbem.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def viewer(tmp_path_factory) -> tuple[Path, dict]:
    tmp = tmp_path_factory.mktemp("viewer")
    bench = archive_bench()
    paths = bench.sample_game(tmp / "game")
    db = tmp / "archive.sqlite"
    out = tmp / "game.html"
    with pytest.raises(SystemExit):
        main(["archive", "--db", str(db), "add", *map(str, paths), "--title", "Amur test"])
    with pytest.raises(SystemExit) as exit_:
        main(["replay", "1", "--db", str(db), "--out", str(out)])
    assert exit_.value.code == 0
    text = out.read_text()
    data = json.loads(re.search(r'<script type="application/json" id="game">(.*?)</script>', text, re.S).group(1))
    return out, data


def test_one_self_contained_file(viewer):
    out, data = viewer
    text = out.read_text()
    # No fetch of anything: no external script, style, image or font; the policy forbids them anyway.
    assert not re.search(r'(src|href)\s*=\s*["\'](https?:|//)', text)
    assert "@import" not in text and "url(http" not in text
    assert "default-src 'none'" in text
    assert data["title"] == "Amur test"
    assert [f["text"] for f in data["frames"]][:3] == [
        "Movement phase",
        "SOV-MR-XX-1-04 moves 3202 → 3203 → 3303 → 3403 → 3404",
        "SOV-TK-XX-1-02 moves 2604 → 2605 → 2606",
    ]
    assert sum(len(f["violations"]) for f in data["frames"]) == 1
    assert len(data["frames"]) == sum(t["actions"] for t in data["turns"])


def test_replay_straight_from_turn_files(capsys, tmp_path):
    bench = archive_bench()
    paths = bench.sample_game(tmp_path / "game")
    code, out, _ = run(capsys, "replay", paths[0].parent, "-o", tmp_path / "g.html")
    assert code == 0 and "3 turns" in out and (tmp_path / "g.html").stat().st_size > 10_000
    code, _, err = run(capsys, "replay", "7", "--db", tmp_path / "none.sqlite", "-o", tmp_path / "h.html")
    assert code == 2 and not (tmp_path / "h.html").exists()


@pytest.fixture(scope="module")
def page(viewer, browser):
    out, _ = viewer
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    errors: list[str] = []
    requests: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("request", lambda request: requests.append(request.url))
    page.goto(out.as_uri())
    page.errors, page.requests = errors, requests
    yield page
    page.close()


def test_browser_steps_through_every_action_in_order(page, viewer):
    _, data = viewer
    frames = data["frames"]
    page.keyboard.press("Home")
    assert page.is_disabled("#step-first") and page.is_disabled("#step-prev")
    assert page.inner_text("#position").startswith("Start of the game")
    assert page.get_attribute('[data-unit="SOV-MR-XX-1-04"]', "data-at") == "3202"
    shown = []
    for k, frame in enumerate(frames, start=1):
        page.click("#step-next")
        assert page.get_attribute("body", "data-frame") == str(k)
        shown.append(page.inner_text("#action-text"))
        violations = page.locator("#violations li").all_inner_texts()
        assert violations == [f"rule {v['rule']} [{v['severity']}] {v['message']}" for v in frame["violations"]]
        if frame["kind"] == "move":
            assert page.locator("#overlay polyline.arrow").count() == 1
        if frame["kind"] == "attack":
            assert page.get_attribute("#overlay g.attack", "data-target") == "3005"
        if k == 2:  # the first move has been carried out on the map
            assert page.get_attribute('[data-unit="SOV-MR-XX-1-04"]', "data-at") == "3404"
    assert shown == [f["text"] for f in frames]
    assert page.is_disabled("#step-next")
    assert any("6.22" in li for li in page.locator("#actions li.bad").all_inner_texts()) or page.locator("#actions li.bad").count() == 1
    page.click("#step-prev")
    assert page.get_attribute("body", "data-frame") == str(len(frames) - 1)
    assert page.errors == [] and all(url.startswith(("file:", "data:", "about:")) for url in page.requests)


def test_browser_jumps_to_turn_and_phase_and_plays(page, viewer):
    _, data = viewer
    page.select_option("#turn-select", "1")
    first = data["turns"][1]["first"]
    assert page.get_attribute("body", "data-frame") == str(first)
    assert "chinese" in page.inner_text("#position")
    page.select_option("#turn-select", "0")
    combat = next(k for k, f in enumerate(data["frames"], start=1) if f["turn"] == 0 and f["text"] == "Combat phase")
    page.select_option("#phase-select", str(combat))
    assert page.get_attribute("body", "data-frame") == str(combat)
    assert page.get_attribute('[data-unit="SOV-MR-XX-1-01"]', "data-at") == "3004"
    page.select_option("#speed", "250")
    page.click("#play")
    # Polled from Python: the page's security policy forbids the eval that wait_for_function uses.
    for _ in range(100):
        if int(page.get_attribute("body", "data-frame")) >= combat + 2:
            break
        page.wait_for_timeout(50)
    assert int(page.get_attribute("body", "data-frame")) >= combat + 2
    page.click("#play")  # pause
    stopped = page.get_attribute("body", "data-frame")
    page.wait_for_timeout(600)
    assert page.get_attribute("body", "data-frame") == stopped
    page.keyboard.press("Home")
    assert page.get_attribute("body", "data-frame") == "0"
    page.keyboard.press("ArrowRight")
    assert page.get_attribute("body", "data-frame") == "1"
    assert page.errors == []


# --- issue 18, item 9: what a new player reads and sees first ---------------------------------------------
SAMPLES = ROOT / "samples" / "china-war-1980"


def frames_of(path: Path) -> list[dict]:
    text = path.read_text()
    return json.loads(re.search(r'<script type="application/json" id="game">(.*?)</script>', text, re.S).group(1))["frames"]


@pytest.mark.parametrize("suffix", [".json", ".pbem"])
def test_a_roll_of_two_values_without_dice_is_two_dice(capsys, tmp_path, suffix):
    """The political roll is written "1+4" (Soviet die, Chinese die): two dice, not "1d6"."""
    code, out, _ = run(capsys, "replay", SAMPLES / f"legal-04-full-game-turn{suffix}", "-o", tmp_path / "g.html")
    assert code == 0
    assert "Roll 2d6 for political: 1+4 → G" in [f["text"] for f in frames_of(tmp_path / "g.html")]


def test_a_roll_keeps_the_dice_it_names(tmp_path):
    from pbem.formats.turnfile import load_turn

    turn = json.loads((SAMPLES / "legal-04-full-game-turn.json").read_text())
    turn["actions"][1]["roll"]["dice"] = "1d6"
    turn["actions"].insert(2, {"roll": {"purpose": "weather", "value": 5}})
    turn["actions"].insert(3, {"roll": {"purpose": "weather", "dice": "2d10", "value": [3, 9]}})
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(turn))
    rolls = [a for a in load_turn(path)[0].actions if a.kind == "roll"]
    assert [(r.dice, r.values) for r in rolls] == [("1d6", (1, 4)), ("1d6", (5,)), ("2d10", (3, 9))]


def test_one_turn_is_one_turn_not_one_turns(capsys, tmp_path):
    code, out, _ = run(capsys, "replay", SAMPLES / "legal-04-full-game-turn.json", "-o", tmp_path / "g.html")
    assert code == 0 and ": 1 turn, 19 actions," in out
    code, out, _ = run(capsys, "archive", "--db", tmp_path / "a.sqlite", "add", SAMPLES / "legal-04-full-game-turn.json")
    assert code == 0 and "border-war, 1 turn, 19 actions, all legal" in out
    code, out, _ = run(capsys, "archive", "--db", tmp_path / "a.sqlite", "list")
    assert "  1 turn, 19 actions, legal" in out
    code, out, _ = run(capsys, "archive", "--db", tmp_path / "a.sqlite", "show", "1")
    assert "verdict  1 turn, 19 actions, all legal" in out


def east_turn(tmp_path: Path) -> Path:
    """A turn whose first action is far from the map's west edge: paratroops at 3802 move one hex."""
    turn = {"module": "china-war-1980", "scenario": "border-war", "turn": 1, "side": "soviet", "start": {"scenario": "border-war"},
            "actions": [{"phase": "political"}, {"comment": "no roll drawn"}, {"phase": "movement", "side": "soviet"},
                        {"move": "SOV-AB-XX-1-02", "path": ["3802", "3803"]}]}  # fmt: skip
    path = tmp_path / "east.json"
    path.write_text(json.dumps(turn))
    return path


def test_the_viewer_opens_on_the_first_action_not_the_west_edge(capsys, browser, tmp_path):
    assert run(capsys, "replay", east_turn(tmp_path), "-o", tmp_path / "g.html")[0] in (0, 1)
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto((tmp_path / "g.html").as_uri())
    assert page.get_attribute("body", "data-frame") == "0"
    assert page.inner_text("#position") == "Start of the game (4 actions in 1 turn)"
    board = page.locator("#board").bounding_box()
    mover = page.locator('[data-unit="SOV-AB-XX-1-02"]').bounding_box()
    assert page.locator("#board").evaluate("e => e.scrollLeft") > 0
    inside = board["x"] <= mover["x"] and mover["x"] + mover["width"] <= board["x"] + board["width"]
    assert inside and board["y"] <= mover["y"] and mover["y"] + mover["height"] <= board["y"] + board["height"], (board, mover)
    # Roughly centred, not merely at the edge.
    centre = mover["x"] + mover["width"] / 2 - board["x"]
    assert board["width"] * 0.25 < centre < board["width"] * 0.75
    assert errors == []
    page.close()


def test_the_viewer_prints_each_counters_designation(viewer, page):
    _, data = viewer
    assert data["units"]["SOV-MR-XX-1-04"]["designation"][0] == "1-04"
    assert page.locator('[data-unit="SOV-MR-XX-1-04"] text.designation').text_content() == "1-04"
    shown = {page.locator(f'[data-unit="{uid}"] text.designation').text_content() for uid in data["units"] if uid.startswith("PLA-INF-XXX-1-")}
    assert len(shown) == sum(1 for uid in data["units"] if uid.startswith("PLA-INF-XXX-1-"))


def test_a_violation_that_names_its_place_is_marked_there(browser, tmp_path):
    """The 9.83 sample's violation, given the retreat hex as its place, is marked on 2906, not on 3005."""
    import dataclasses

    from pbem.archive import games
    from pbem.archive.gamefiles import read_game
    from pbem.archive.viewer import write_viewer
    from pbem.model.module import load_module_by_id

    module = load_module_by_id("china-war-1980")
    game, _, _ = games.play_input(read_game([SAMPLES / "illegal-9.83-retreat-into-occupied-hex.json"]), module)
    retreat = module.map.index("2906")
    for turn in game.turns:
        turn.violations[:] = [dataclasses.replace(v, at=retreat) for v in turn.violations]
    write_viewer(game, tmp_path / "g.html", title="9.83")
    violations = [v for f in frames_of(tmp_path / "g.html") for v in f["violations"]]
    assert [(v["rule"], v["at"]) for v in violations] == [("9.83", retreat)]
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    page.goto((tmp_path / "g.html").as_uri())
    page.keyboard.press("End")
    frame = next(k for k, f in enumerate(frames_of(tmp_path / "g.html"), start=1) if f["violations"])
    while int(page.get_attribute("body", "data-frame")) != frame:
        page.keyboard.press("ArrowLeft")
    badhexes = page.locator("polygon.badhex")
    assert [badhexes.nth(k).get_attribute("data-at") for k in range(badhexes.count())] == ["2906"]
    page.close()


def test_a_hex_number_stays_above_its_stack(capsys, browser, tmp_path):
    assert run(capsys, "replay", SAMPLES / "legal-04-full-game-turn.json", "-o", tmp_path / "g.html")[0] == 0
    page = browser.new_page(viewport={"width": 1300, "height": 850})
    page.goto((tmp_path / "g.html").as_uri())
    stacked = page.locator('[data-unit][data-at="3004"]')
    assert stacked.count() == 2  # a stack of two at the start
    number = page.locator('[data-loc="3004"] text.hexlabel').bounding_box()
    tops = [stacked.nth(k).bounding_box()["y"] for k in range(stacked.count())]
    assert number["y"] + number["height"] <= min(tops) + 1.5, (number, tops)
    page.close()
