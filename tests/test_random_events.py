"""Every random event and its result is shown: check (text, JSON), state show, art turn and the replay viewer.

The China War political roll names an event by a letter in the turn file (``-> G``); what it did (NATO declares
neutrality, North Korea allies with the PRC) is worked out by the module and must reach the player everywhere.
"""

from __future__ import annotations

import json
import re

import jsonschema
import pytest

from pbem.model.resources import data_dir

SAMPLES = data_dir("samples")
FULL_TURN = SAMPLES / "china-war-1980" / "legal-04-full-game-turn.pbem"
NEUTRALITY = "political roll 1+4 = G (rule 5.2): NATO declares neutrality (Soviet 1+0 = 1, Chinese 4+1 = 5)"

ALLIANCE = """Game: china-war-1980
Scenario: border-war
Turn: 1
Side: soviet

== Political ==
Roll political = 3+2 -> B
"""


def test_check_shows_the_political_roll_and_what_it_did(pbem):
    result = pbem("check", FULL_TURN)
    assert result.code == 0
    lines = result.out.splitlines()
    assert f"{FULL_TURN}:8: [roll] {NEUTRALITY}" in lines
    # Every roll of the turn is listed, in the order of the turn, before the summary.
    rolls = [line for line in lines if "[roll]" in line]
    assert [r.split(": [roll] ")[1] for r in rolls] == [
        NEUTRALITY, "overrun on 2906, roll 3 = -/1", "attack on 3305, roll 5 = -/1", "attack on 3306, roll 6 = -/E",
    ]
    assert lines[-1].endswith("19 actions checked, all legal")


def test_an_alliance_is_shown_and_a_wrong_claim_shows_the_tables_result(pbem, tmp_path):
    turn = tmp_path / "t.pbem"
    turn.write_text(ALLIANCE)
    result = pbem("check", turn)
    assert "[roll] political roll 3+2 = B (rule 5.2): North Korea joins the war allied with the PRC" in result.out
    turn.write_text(ALLIANCE.replace("-> B", "-> J"))  # the player wrote the wrong event
    result = pbem("check", turn)
    assert result.code == 1
    assert "= B (rule 5.2): North Korea joins the war allied with the PRC" in result.out and "not J" in result.out


def test_a_second_event_for_a_settled_power_says_it_has_no_effect(tmp_path):
    from pbem.engine.replay import replay
    from pbem.formats.turnfile import load_start_state, load_turn

    turn_path = tmp_path / "t.pbem"
    turn_path.write_text(ALLIANCE)
    turn, module = load_turn(turn_path)
    start = load_start_state(turn, module)
    start.status.setdefault("political", {})["North Korea"] = "neutral"
    events = replay(module, start, turn).events
    assert events[0].outcome.endswith("North Korea is already neutral: no effect (5.0)")


def test_the_json_report_lists_every_event_and_keeps_its_schema(pbem):
    report = json.loads(pbem("check", FULL_TURN, "--format", "json").out)
    schema = json.loads((data_dir("schemas") / "report.schema.json").read_text())
    jsonschema.validate(report, schema)
    political = report["events"][0]
    assert political["kind"] == "roll" and political["values"] == [1, 4] and political["result"] == "G"
    assert political["outcome"].startswith("NATO declares neutrality") and political["rule"] == "5.2"
    assert political["source"]["line"] == 8
    assert [e["kind"] for e in report["events"]] == ["roll", "overrun", "attack", "attack"]


def test_every_bundled_modules_outcomes_are_in_the_report(pbem):
    # Paths of Glory's mandated offensive and Red Winter's recovery: the module's words, not just the claim.
    report = json.loads(pbem("check", SAMPLES / "paths-of-glory" / "legal-12-mandated-offensives.json", "--format", "json").out)
    assert [(e["result"], e["outcome"]) for e in report["events"]] == [("GE", "the GE must attack this turn"), ("none", "no mandated offensive")]
    report = json.loads(pbem("check", SAMPLES / "red-winter" / "legal-02-finnish-reply.json", "--format", "json").out)
    assert report["events"][0]["outcome"] == "1/PPP7 regains a step (6 +1 = 7)"


def test_state_show_lists_the_turns_events_and_the_status_they_left(pbem, tmp_path):
    result = pbem("state", "show", FULL_TURN)
    lines = result.out.splitlines()
    assert "[random events of the turn]" in lines
    assert f"  line 8: {NEUTRALITY}" in lines
    assert "  political: NATO neutral, North Korea ambiguous, Taiwan ambiguous, Vietnam ambiguous" in lines
    shown = json.loads(pbem("state", "show", FULL_TURN, "--format", "json").out)
    assert shown["events"][0]["text"] == NEUTRALITY
    # A state written after the turn shows the stance too (the lasting result of the roll).
    after = tmp_path / "after.json"
    assert pbem("check", FULL_TURN, "--write-state", after).code == 0
    lines = pbem("state", "show", after).out.splitlines()
    assert "  political: NATO neutral, North Korea ambiguous, Taiwan ambiguous, Vietnam ambiguous" in lines
    assert "[random events of the turn]" not in lines  # a state has no turn


def test_art_turn_lists_the_political_roll_under_the_picture(tmp_path):
    from pbem.art.overlay import EventMark, overlay, turn_marks
    from pbem.art.style import load_style
    from pbem.art.maps import map_picture
    from pbem.engine.replay import replay
    from pbem.formats.turnfile import load_start_state, load_turn

    turn, module = load_turn(FULL_TURN)
    result = replay(module, load_start_state(turn, module), turn)
    style = load_style(module.path)
    marks = turn_marks(turn, load_start_state(turn, module), result.violations, module.sides, style, result.events)
    # The political roll has no place on the map: it is listed under it; combats are labelled on their arrows.
    assert [m.text for m in marks if isinstance(m, EventMark)] == [NEUTRALITY]
    picture = map_picture(module.map, style, hex_size=12)
    with_events = overlay(picture, result.state, marks, style)
    without = overlay(picture, result.state, [m for m in marks if not isinstance(m, EventMark)], style)
    assert with_events.height > without.height and with_events.width == without.width


def test_art_turn_cli_draws_the_legend(pbem, tmp_path):
    out = tmp_path / "t.png"
    assert pbem("art", "turn", FULL_TURN, "--out", out, "--hex-size", "12").code == 0
    from PIL import Image

    image = Image.open(out).convert("RGB")
    # The legend's ink (the event colour) is in the band under the map.
    bottom = image.crop((0, image.height - 30, image.width, image.height))
    assert (30, 30, 60) in {colour for _, colour in bottom.getcolors(maxcolors=100_000)}


def test_the_viewer_shows_each_actions_dice_and_outcome(pbem, tmp_path):
    game = tmp_path / "game"
    game.mkdir()
    (game / "t01.pbem").write_bytes(FULL_TURN.read_bytes())
    out = tmp_path / "game.html"
    assert pbem("replay", game, "--out", out).code == 0
    text = out.read_text()
    data = json.loads(re.search(r'<script type="application/json" id="game">(.*?)</script>', text, re.S).group(1))
    events = [f["event"] for f in data["frames"] if "event" in f]
    assert events[0] == NEUTRALITY and len(events) == 4
    assert 'id="action-event"' in text


def test_the_viewer_page_prints_the_outcome(pbem, tmp_path):
    from pathlib import Path

    chromium = Path("/usr/bin/chromium")
    if not chromium.exists():
        pytest.skip("headless browser test needs Debian's chromium at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")
    game = tmp_path / "game"
    game.mkdir()
    (game / "t01.pbem").write_bytes(FULL_TURN.read_bytes())
    out = tmp_path / "game.html"
    assert pbem("replay", game, "--out", out).code == 0
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(chromium), args=["--headless", "--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.goto(out.as_uri())
        page.keyboard.press("Home")
        page.click("#step-next")  # the phase
        page.click("#step-next")  # the political roll
        assert page.inner_text("#action-event") == f"Dice: {NEUTRALITY}"
        page.click("#step-next")
        assert page.inner_text("#action-event") == ""
        browser.close()
