"""The replay viewer on Red Winter: fire, special orders and losses drawn and labelled on the map, phase names
as the module gives them, place names whole and on top of every hex."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser_support import open_page

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples" / "red-winter"


def page_data(path: Path) -> dict:
    text = path.read_text()
    return json.loads(re.search(r'<script type="application/json" id="game">(.*?)</script>', text, re.S).group(1))


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, tuple[Path, dict]]:
    tmp = tmp_path_factory.mktemp("rw-viewer")
    out = {}
    from pbem.cli import main

    for name in ("legal-05-anti-tank-fire", "legal-06-night-raid-and-sub-zero"):
        path = tmp / f"{name}.html"
        with pytest.raises(SystemExit) as exit_:
            main(["replay", str(SAMPLES / f"{name}.json"), "-o", str(path)])
        assert exit_.value.code == 0
        out[name] = (path, page_data(path))
    return out


def label_of(data: dict, index: int) -> str:
    return data["locations"][index][2]


def test_phases_read_as_players_say_them(pages):
    _, data = pages["legal-06-night-raid-and-sub-zero"]
    phases = [f["text"] for f in data["frames"] if f["kind"] == "phase"]
    assert phases == ["Reset Phase", "Action Phase", "Combat Phase", "Sub-Zero Loss Phase", "Victory Check Phase"]
    assert {f["phase"] for f in data["frames"]} == set(phases)


def test_fire_is_drawn_from_firer_to_target_with_its_result(pages):
    _, data = pages["legal-05-anti-tank-fire"]
    fire = next(f for f in data["frames"] if f["kind"] == "fire")
    assert label_of(data, fire["fire"]["target"]) == "O21"
    assert [label_of(data, i) for i in fire["fire"]["from"]] == ["O20"]
    assert fire["fire"]["label"] == "Anti-tank fire 4, 2: 1 step lost"
    assert fire["text"] == "Anti-tank fire by AT/JR16 at O21, roll 4, 2; target loses T-26 m33"


def test_night_raid_sub_zero_and_losses_are_marked(pages):
    _, data = pages["legal-06-night-raid-and-sub-zero"]
    specials = [f for f in data["frames"] if f["kind"] == "special"]
    raid = specials[0]["order"]
    assert raid["label"] == "Night raid 2: 2R" and label_of(data, raid["at"]) == "Q25"
    assert sorted(label_of(data, i) for i in raid["from"]) == ["O20", "P20"]
    assert specials[0]["text"].startswith("Night raid by 1/1/JR16, 2/1/JR16, 3/1/JR16 at Q25")
    assert [f["order"]["label"] for f in specials[1:]] == ["Sub-zero roll 2: step", "Sub-zero roll 4: none", "Sub-zero roll 4: none", "Sub-zero roll 1: step"]
    losses = [f for f in data["frames"] if f["kind"] == "loss"]
    assert [(label_of(data, f["loss"]["at"][0]), f["loss"]["label"]) for f in losses] == [("O20", "−1 step (sub-zero)"), ("R27", "−1 step (sub-zero)")]


def step_to(page, frame: int) -> None:
    page.keyboard.press("Home")
    for _ in range(frame):
        page.keyboard.press("ArrowRight")
    assert page.get_attribute("body", "data-frame") == str(frame)


def test_browser_draws_each_action_on_the_map(browser, pages):
    path, data = pages["legal-06-night-raid-and-sub-zero"]
    page = open_page(browser, path)
    for k, frame in enumerate(data["frames"], start=1):
        step_to(page, k) if k == 1 else page.keyboard.press("ArrowRight")
        if frame["kind"] == "special":
            at = label_of(data, frame["order"]["at"])
            assert page.locator(f'#overlay g.order[data-at="{at}"] .tag text').text_content() == frame["order"]["label"]
        if frame["kind"] == "loss":
            assert page.locator("#overlay g.loss .tag text").first.text_content() == "−1 step (sub-zero)"
        if frame["kind"] == "phase":
            assert frame["phase"] in page.inner_text("#position")
            assert page.inner_text("#position").startswith("Turn 5 · Finnish · ")
    path, data = pages["legal-05-anti-tank-fire"]
    page5 = open_page(browser, path)
    step_to(page5, len(data["frames"]))
    assert page5.locator('#overlay g.fire[data-target="O21"] line').count() == 1
    assert page5.locator("#overlay g.fire .tag text").text_content() == "Anti-tank fire 4, 2: 1 step lost"
    assert page.errors == [] and page5.errors == []


def test_browser_place_names_are_whole_and_on_top(browser, pages):
    path, data = pages["legal-06-night-raid-and-sub-zero"]
    page = open_page(browser, path)
    names = {loc[2]: loc[4] for loc in data["locations"] if loc[4]}
    texts = page.locator("#terrain .names text")
    assert {texts.nth(k).get_attribute("data-name"): texts.nth(k).text_content() for k in range(texts.count())} == names
    # Nothing drawn after a name hides it: the names are the last layer of the map (below counters and marks only).
    last = page.locator("#terrain > *").last
    assert last.get_attribute("class") == "names"
    box = page.locator('#terrain .names text[data-name="J16"]').bounding_box()
    assert box["width"] > 60  # "Hevossalmi (bridge)": wider than its hex, drawn whole


@pytest.mark.parametrize(("sample", "label", "text"), [
    ("illegal-DI-3-dig-in-in-ezoc", "Dig in", "Dig in by 3/1/609"),
    ("illegal-RC-2-recovery-in-ezoc", "Recovery 6: recovered", "Recovery by 1/1/609 roll 6: recovered"),
])  # fmt: skip
def test_dig_in_and_recovery_are_marked_where_the_units_stand(tmp_path, sample, label, text):
    from pbem.cli import main

    out = tmp_path / "page.html"
    with pytest.raises(SystemExit):
        main(["replay", str(SAMPLES / f"{sample}.json"), "-o", str(out)])
    data = page_data(out)
    frame = next(f for f in data["frames"] if f["kind"] == "special")
    assert frame["order"]["label"] == label and frame["text"] == text and frame["order"]["from"] == []
    unit = next(u for u in data["units"] if data["units"][u]["name"] in text)
    assert frame["order"]["at"] == data["start"][unit][0]
    assert frame["violations"]  # the sample is illegal: its hex is outlined as well
