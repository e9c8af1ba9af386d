"""The replay viewer on WWII Campaign: Crusader (issue 29): the page is written for Crusader turns, and in a browser it
draws the desert map with its places, every unit on its hex on the face of its establishment state (③ ② ①), and
steps through moves, declarations, attacks with their retreats, losses and a replenishment."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser_support import open_page

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples" / "ww2-crusader"
NAMES = ("legal-01-axis-advance-on-tobruk", "legal-03-d1-retreat", "legal-06-replenish-then-second-move", "legal-14-de-and-ae-together")


def page_data(path: Path) -> dict:
    text = path.read_text()
    return json.loads(re.search(r'<script type="application/json" id="game">(.*?)</script>', text, re.S).group(1))


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, tuple[Path, dict]]:
    from pbem.cli import main

    tmp = tmp_path_factory.mktemp("crusader-viewer")
    out = {}
    for name in NAMES:
        path = tmp / f"{name}.html"
        with pytest.raises(SystemExit) as exit_:
            main(["replay", str(SAMPLES / f"{name}.json"), "-o", str(path)])
        assert exit_.value.code == 0
        out[name] = (path, page_data(path))
    return out


def label(data: dict, index: int) -> str:
    return data["locations"][index][2]


def test_the_page_knows_the_desert_and_every_state(pages):
    _, data = pages["legal-01-axis-advance-on-tobruk"]
    names = {loc[4] for loc in data["locations"] if loc[4]}
    assert {"Tobruk", "Bardia", "Sollum", "Gazala", "El Adem", "Sidi Rezegh", "Bir el Gubi", "Sidi Omar"} <= names
    assert len(data["locations"]) >= 300
    ariete = data["units"]["IT-132-ARIETE"]
    assert len(data["counters"][ariete["type"]]) == 3  # a picture per establishment state
    frames = data["frames"]
    assert [f["kind"] for f in frames].count("move") == 3
    assert [label(data, i) for i in frames[1]["arrows"][-1]] == ["0102", "0202", "0302", "0402", "0503", "0603"]  # the Via Balbia


def test_attack_retreat_loss_and_replenishment_are_recorded(pages):
    _, data = pages["legal-03-d1-retreat"]
    attack = next(f for f in data["frames"] if f["kind"] == "attack")
    assert label(data, attack["attack"]["target"]) == "0704" and "D1" in attack["text"]
    assert label(data, attack["changes"]["UK-7-ARMD-DIV"][0]) == "0804"
    _, data = pages["legal-06-replenish-then-second-move"]
    assert data["start"]["IT-132-ARIETE"][1] == 1
    replace = next(f for f in data["frames"] if "IT-132-ARIETE" in f["changes"])
    assert replace["changes"]["IT-132-ARIETE"][1] == 0  # replenished: back to ③
    _, data = pages["legal-14-de-and-ae-together"]
    last = data["frames"][-1]["changes"]
    assert last["UK-7-ARMD-DIV"][1] == data["start"]["UK-7-ARMD-DIV"][1] + 1  # one state lost
    assert last["DE-21PZ-1941"][0] < 0  # eliminated: off the map


def shown(page, unit: str) -> tuple[str | None, str | None, str | None]:
    """Where the page draws ``unit`` (its hex), which face (its step), and the picture it shows."""
    node = page.locator(f'#counters [data-unit="{unit}"]')
    return node.get_attribute("data-at"), node.get_attribute("data-step"), node.locator("image").get_attribute("href")


def test_browser_draws_the_map_and_steps_through_every_action(browser, pages):
    path, data = pages["legal-01-axis-advance-on-tobruk"]
    page = open_page(browser, path)
    assert page.locator("#terrain [data-loc]").count() == len(data["locations"])
    names = page.locator("#terrain .names text")
    assert "Tobruk" in {names.nth(k).text_content() for k in range(names.count())}
    on_map = [u for u, (at, *_) in data["start"].items() if at >= 0]
    assert on_map and all(shown(page, u)[0] == label(data, data["start"][u][0]) for u in on_map)
    page.keyboard.press("Home")
    for k, frame in enumerate(data["frames"], start=1):
        page.keyboard.press("ArrowRight")
        assert page.get_attribute("body", "data-frame") == str(k)
        assert frame["text"] in page.inner_text("#action-text")
        for unit, (at, _step, _) in frame["changes"].items():
            assert shown(page, unit)[0] == label(data, at)
        if frame["kind"] == "move":
            assert page.locator("#overlay polyline.arrow").count() == 1
    assert shown(page, "DE-5LEI-1941")[0] == "0603" and page.errors == []
    # Tobruk's garrison does not hide its name: the name stands above the stack; an empty town's under its centre.
    tobruk = next(i for i, loc in enumerate(data["locations"]) if loc[2] == "0703")
    assert float(page.get_attribute('#terrain .names text[data-name="0703"]', "y")) < data["locations"][tobruk][1]
    gazala = next(i for i, loc in enumerate(data["locations"]) if loc[4] == "Gazala")
    assert float(page.get_attribute(f'#terrain .names text[data-name="{data["locations"][gazala][2]}"]', "y")) > data["locations"][gazala][1]


def test_browser_shows_each_establishment_state_face(browser, pages):
    path, data = pages["legal-06-replenish-then-second-move"]
    page = open_page(browser, path)
    pictures = data["counters"][data["units"]["IT-132-ARIETE"]["type"]]
    page.keyboard.press("Home")
    assert shown(page, "IT-132-ARIETE")[1:] == ("1", pictures[1])  # ② on the map at the start
    page.keyboard.press("End")
    assert shown(page, "IT-132-ARIETE") == ("0505", "0", pictures[0])  # replenished to ③, then moved
    path, data = pages["legal-14-de-and-ae-together"]
    page14 = open_page(browser, path)
    page14.keyboard.press("End")
    british = data["counters"][data["units"]["UK-7-ARMD-DIV"]["type"]]
    step = data["frames"][-1]["changes"]["UK-7-ARMD-DIV"][1]
    assert shown(page14, "UK-7-ARMD-DIV")[1:] == (str(step), british[step])
    assert page14.locator('#counters [data-unit="DE-21PZ-1941"]').is_hidden()
    assert page.errors == [] and page14.errors == []
