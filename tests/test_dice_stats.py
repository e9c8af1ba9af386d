"""Issue 25, part 3: a game's dice on record (``pbem dice stats``, ``archive show``, the replay viewer): rolls by
player and purpose, counts per face, the mean against the expected, a chi-square test per player and die type."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from archive_support import run
from scipy.stats import chisquare

from pbem.engine.dice import DiceRecord, DieRoll, combat_dice, turn_rolls
from pbem.engine.dicestats import MEANING, dice_stats
from pbem.formats.turnfile import load_turn
from pbem.model.module import load_module

REPO = Path(__file__).resolve().parents[1]
GAME = REPO / "samples" / "china-war-1980" / "by-email"
CHROMIUM = Path("/usr/bin/chromium")


def _rolls(player: str, faces: list[int], sides: int = 6) -> list[DieRoll]:
    return [DieRoll("t.json", f"line {k + 1}", player, "attack", 1, sides, (face,), face) for k, face in enumerate(faces)]


# --- the statistics ----------------------------------------------------------------------------------------
def test_the_chi_square_is_the_sum_over_faces_of_the_squared_difference_over_the_expected():
    faces = [1] * 3 + [2] * 7 + [3] * 10 + [4] * 12 + [5] * 8 + [6] * 20
    (group,) = dice_stats(DiceRecord(_rolls("soviet", faces))).groups
    counts = [3, 7, 10, 12, 8, 20]
    by_hand = sum((c - 10) ** 2 / 10 for c in counts)  # 60 dice: 10 expected per face
    assert group.faces == dict(zip(range(1, 7), counts)) and group.observations == 60
    assert group.chi_square == pytest.approx(by_hand, abs=1e-4) and group.degrees == 5
    assert group.p_value == pytest.approx(chisquare(counts).pvalue, abs=1e-4)
    assert group.mean == pytest.approx(sum(faces) / 60, abs=1e-4) and group.expected_mean == 3.5
    assert group.note is None  # 10 expected per face: no warning that the test is rough


def test_dice_that_always_show_six_get_a_tiny_p_value_and_even_counts_get_one():
    stats = dice_stats(DiceRecord(_rolls("cheat", [6] * 60) + _rolls("fair", [1, 2, 3, 4, 5, 6] * 10)))
    cheat, fair = (next(g for g in stats.groups if g.player == p) for p in ("cheat", "fair"))
    assert cheat.p_value < 1e-10 and cheat.mean == 6
    assert fair.chi_square == 0 and fair.p_value == 1.0


def test_totals_of_two_dice_are_tested_against_the_exact_two_dice_distribution():
    rolls = [DieRoll("t.json", "line 1", "finnish", "attack", 2, 6, None, total) for total in [7] * 36]
    (group,) = dice_stats(DiceRecord(rolls)).groups
    assert group.die == "2d6 total" and list(group.faces) == list(range(2, 13))
    assert group.expected[7] == pytest.approx(6) and group.expected[2] == pytest.approx(1)
    assert group.expected_mean == 7 and group.p_value < 1e-6


def test_rolls_taken_back_are_listed_not_counted():
    rolls = _rolls("Ted", [1, 6])
    rolls[0] = DieRoll("a.vlog", "step 3", "Ted", "combat", 1, 6, (1,), 1, undone=True)
    record = DiceRecord(rolls, [{"file": "a.vlog", "step": 5, "undone_step": 3, "button": "Grey Die", "before": [1], "after": [6], "player": "Ted"}])
    stats = dice_stats(record)
    assert [r.total for r in stats.kept] == [6] and [r.total for r in stats.undone] == [1]
    assert stats.groups[0].faces[1] == 0


# --- the rolls a file holds --------------------------------------------------------------------------------
def test_the_china_war_political_roll_is_one_die_per_side_and_an_attack_roll_the_attackers():
    module = load_module("china-war-1980")
    turn, _ = load_turn(GAME / "t01-soviet-movement.pbem", module)
    rolls = turn_rolls(turn, module)
    assert [(r.player, r.purpose, r.faces) for r in rolls] == [("soviet", "political", (1,)), ("chinese", "political", (4,)), ("soviet", "overrun", (3,))]
    turn, _ = load_turn(GAME / "t01-chinese-combat.pbem", module)
    assert [(r.player, r.purpose, r.total) for r in turn_rolls(turn, module)] == [("chinese", "attack", 6)]


def test_the_combat_dice_come_from_the_module_tables():
    assert combat_dice(load_module("china-war-1980")) == (1, 6)
    assert combat_dice(load_module("red-winter")) == (2, 6)  # its CRT's die rows are 2d6 totals


# --- the commands --------------------------------------------------------------------------------------------
def test_dice_stats_of_a_game_folder(capsys):
    code, out, err = run(capsys, "dice", "stats", GAME)
    assert code == 0, err
    assert "5 roll(s) on record: 5 kept, 0 taken back by an undo" in out
    assert "soviet (Alice): overrun 1, political 1, attack 1" not in out  # purposes are sorted
    assert "  soviet (Alice): attack 1, overrun 1, political 1" in out and "  chinese (Bob): attack 1, political 1" in out
    assert "  soviet (Alice), d6: 1:1 2:0 3:1 4:0 5:1 6:0  (3 dice)" in out
    assert "mean 3.00 (expected 3.50); chi-square 3.00 with 5 degrees of freedom, p = 0.700; rough" in out
    assert out.rstrip().endswith(MEANING)
    assert "does not prove that anyone cheated" in out and "A high p-value does not prove the dice fair" in out


def test_dice_stats_in_json_and_of_an_archived_game_and_archive_show(capsys, tmp_path):
    db = tmp_path / "a.sqlite"
    assert run(capsys, "archive", "--db", db, "add", GAME)[0] == 0
    code, out, _ = run(capsys, "dice", "stats", "1", "--db", db, "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["rolls"] == 5 and report["players"] == {"soviet": ["Alice"], "chinese": ["Bob"]}
    soviet = next(g for g in report["groups"] if g["player"] == "soviet")
    assert soviet["counts"] == {"1": 1, "2": 0, "3": 1, "4": 0, "5": 1, "6": 0} and soviet["p_value"] == 0.7
    from_folder = json.loads(run(capsys, "dice", "stats", GAME, "--format", "json")[1])
    assert from_folder["groups"] == report["groups"]
    shown = json.loads(run(capsys, "archive", "--db", db, "show", "1", "--format", "json")[1])
    assert shown["dice"]["groups"] == report["groups"]
    text = run(capsys, "archive", "--db", db, "show", "1")[1]
    assert "  dice\n    5 roll(s) on record" in text and "What the p-value means" in text


def test_an_unknown_archived_game_is_an_input_error(capsys, tmp_path):
    db = tmp_path / "a.sqlite"
    assert run(capsys, "archive", "--db", db, "add", GAME)[0] == 0
    code, out, err = run(capsys, "dice", "stats", "7", "--db", db)
    assert code == 2 and out == "" and "no game '7'" in err


def test_the_replay_viewer_carries_the_dice_and_draws_a_chart(capsys, tmp_path):
    page = tmp_path / "game.html"
    assert run(capsys, "replay", GAME, "--out", page)[0] == 0
    text = page.read_text()
    data = json.loads(text.split('<script type="application/json" id="game">')[1].split("</script>")[0])
    assert data["dice"]["rolls"] == 5 and data["dice"]["meaning"] == MEANING
    if not CHROMIUM.exists():
        pytest.skip("the chart is drawn by the page: needs Debian's chromium at /usr/bin/chromium")
    sync_api = pytest.importorskip("playwright.sync_api", reason="needs the playwright package")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            view = browser.new_page()
            errors: list[str] = []
            view.on("pageerror", lambda error: errors.append(str(error)))
            view.goto(page.as_uri())
            view.click("#dice summary")
            assert errors == []
            assert view.locator("#dice-body svg").count() == 2  # one chart per player and die type
            assert view.locator("#dice-body svg rect.bar").count() == 12
            assert "chi-square 3.00, p = 0.700" in view.locator("#dice-body").inner_text()
        finally:
            browser.close()
