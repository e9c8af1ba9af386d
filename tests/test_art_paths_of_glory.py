"""Paths of Glory's pictures (issue 27 items 6-8): counters a player tells apart, the map's spaces and names, a turn
picture cropped to the turn and labelled in the game's words. Generic drawing, module data: art.json."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageColor

from pbem.art.counters import counter_layout, render_counter
from pbem.art.maps import VP_RED, map_picture
from pbem.art.overlay import AttackMark, MoveMark, overlay, turn_marks
from pbem.art.style import load_style, style_from_json
from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.errors import PbemError
from pbem.model.module import load_module
from pbem.model.state import State, load_state_document

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples" / "paths-of-glory"


@pytest.fixture(scope="module")
def module():
    return load_module("paths-of-glory")


@pytest.fixture(scope="module")
def style(module):
    return load_style(module.path)


@pytest.fixture(scope="module")
def picture(module, style):
    return map_picture(module.map, style)


def face(module, style, unit_id: str, side: int = 0, size: int = 90) -> Image.Image:
    unit = module.units[unit_id]
    return render_counter(unit.type, side, style, size, designation=style.designation_of(unit_id))


def test_each_army_prints_its_own_id_and_corps_their_contingent(module, style):
    assert [style.designation_of(u) for u in ("GE-1-ARMY", "GE-8-ARMY", "BR-BEF-ARMY", "TU-YLD-ARMY", "BR-AUS-CORPS", "RU-CAV-CORPS-02")] == [
        "1", "8", "BEF", "YLD", "AUS", "CAV",
    ]  # fmt: skip
    assert style.designation_of("GE-CORPS-07") == ""  # generic corps print no number, as the printed ones
    first, eighth = face(module, style, "GE-1-ARMY"), face(module, style, "GE-8-ARMY")
    assert first.tobytes() != eighth.tobytes()
    # The difference is large, in the id's place left of the symbol: told apart at a glance, not by a pixel.
    layout = counter_layout(90, "large_id", True)
    box = layout.designation
    differing = ImageChops.difference(first.crop(box), eighth.crop(box)).convert("L").point(lambda v: 255 if v else 0).histogram()[255]
    assert differing > (box[2] - box[0]) * (box[3] - box[1]) * 0.05


def test_the_reduced_face_is_marked_by_the_stripe_and_armies_are_larger(module, style):
    army = module.units["GE-1-ARMY"].type
    reduced = face(module, style, "GE-1-ARMY", 1)
    stripe = ImageColor.getrgb(style.colours(army).reduced)
    top = counter_layout(90, "large_id", True).stripe
    colours = reduced.crop(top).getcolors(90 * 90)
    assert max(colours)[1] == stripe  # the band across the top is the stripe's colour
    assert max(face(module, style, "GE-1-ARMY", 0).crop(top).getcolors(90 * 90))[1] != stripe
    assert style.scale_of(army) == 1.25 and style.scale_of(module.units["GE-CORPS-01"].type) == 1.0  # 5/8" and 1/2" (2.2.1)


def test_map_spaces_show_vp_capitals_and_keep_names_over_counters(module, style):
    game_map = module.map
    picture = map_picture(game_map, replace(style, map_scale=0.7))  # small: fast
    names = {label.text: label for label in picture.name_labels}
    assert len(names) == len(game_map)
    assert names["Metz"].colour == VP_RED and names["Liege"].colour != VP_RED
    assert names["Paris"].capital and not names["Sedan"].capital
    document = load_state_document(module.path / "scenarios" / "1914.json")
    document.data["units"] = [u for u in document.data["units"] if u["at"] in ("Metz", "Koblenz")]  # a small picture: fast
    image = overlay(picture, State.from_json(module, document), [], style)
    x0, y0, x1, y1 = (round(v) for v in names["Metz"].box)  # GE 5th Army stands in Metz
    red = ImageColor.getrgb(VP_RED)
    assert any(c == red for _, c in image.crop((x0, y0, x1, y1)).getcolors(100000)), "a counter hides Metz's name"


def test_style_rejects_unknown_layouts_and_bad_labels():
    with pytest.raises(PbemError, match="layout"):
        style_from_json({"layout": "fancy"})
    with pytest.raises(PbemError, match="label"):
        style_from_json({"labels": {"combat": "{roll:>99999}"}})
    with pytest.raises(PbemError, match="counter size"):
        style_from_json({"sizes": {"XXXX": 9}})


@pytest.fixture(scope="module")
def sedan(module, style, picture):
    path = SAMPLES / "legal-25-french-retake-sedan.json"
    turn, module = load_turn(path, module)
    result = replay(module, load_start_state(turn, module), turn)
    marks = turn_marks(turn, load_start_state(turn, module), result.violations, module.sides, style, result.events)
    return marks, overlay(picture, result.state, marks, style, crop=True)


def test_turn_labels_use_the_games_words(sedan):
    marks, _ = sedan
    attack = next(m for m in marks if isinstance(m, AttackMark))
    assert attack.label == "AP fire 5: loss 5, 3 steps lost · CP fire 3: loss 2, no loss"
    assert [m.kind for m in marks if isinstance(m, MoveMark)] == ["advance"]


def test_turn_picture_is_cropped_to_the_turns_spaces(module, picture, sedan):
    _, image = sedan
    whole = picture.image.size
    assert image.width < whole[0] / 4 and image.height < whole[1] / 4
    # Chateau Thierry, Verdun and Sedan fit with their margin; Berlin, far away, is not in it.
    xs = [picture.centers[module.map.index(n)][0] for n in ("Chateau Thierry", "Verdun", "Sedan")]
    ys = [picture.centers[module.map.index(n)][1] for n in ("Chateau Thierry", "Verdun", "Sedan")]
    unit = picture.radius * 2
    assert image.width >= max(xs) - min(xs) + 2 * unit and image.height >= max(ys) - min(ys) + 2 * unit
    assert image.width <= max(xs) - min(xs) + 12 * unit  # the margin and the label, no more
    data = io.BytesIO()
    image.save(data, "PNG")
    assert len(data.getvalue()) < 400_000


def test_a_sheet_prints_armies_at_five_eighths_and_corps_at_half_an_inch():
    from pbem.art.sheets import SheetSpec, sheet_layout

    scales = [1.25] * 30 + [1.0] * 50
    spec = SheetSpec(dpi=100)
    pages = sheet_layout(80, spec, "t", scales)
    fronts, backs = pages[0], pages[1]
    sizes = {n: fronts.size_of(k) for k, (n, _, _) in enumerate(fronts.counters)}
    assert sizes[0] == spec.px(12.7 * 1.25) and sizes[79] == spec.px(12.7)
    boxes = [(x, y, x + fronts.size_of(k), y + fronts.size_of(k)) for k, (_, x, y) in enumerate(fronts.counters)]
    assert not any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3] for i, a in enumerate(boxes) for b in boxes[i + 1 :])
    front_at = {n: (x, y) for n, x, y in fronts.counters}
    for k, (n, x, y) in enumerate(backs.counters):  # each back lies behind its front, the page turned over
        assert (fronts.size[0] - x - backs.size_of(k), y) == front_at[n]
    assert len(sheet_layout(80, spec, "t", [1.0] * 80)[0].sizes) == 0  # one size: the plain grid


def test_the_map_shows_the_vp_spaces_of_the_map_a_scenario_scores_on(module, style):
    small = replace(style, map_scale=0.3)
    standard = {n.text: n.colour for n in map_picture(module.map, small, status={"vp_map": "classic"}).name_labels}
    historical = {n.text: n.colour for n in map_picture(module.map, small, status={"vp_map": "historical"}).name_labels}
    assert standard["Venice"] == VP_RED and standard["Sedan"] != VP_RED  # LR2022 5.7.2.2-5.7.2.3
    assert historical["Sedan"] == VP_RED and historical["Venice"] != VP_RED
