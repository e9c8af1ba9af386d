"""pbem art turn on a WWII Campaign: Crusader turn (issue 29): the 21st Panzer's attack on El Adem with its D1 retreat
becomes marks on the desert map, every unit is drawn on its hex on the face of its establishment state, and a
garrison does not hide its town's name: the tag over an occupied named hex reads "0703 Tobruk"."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageColor, ImageDraw

from pbem.art.maps import map_picture
from pbem.art.overlay import AttackMark, MoveMark, OrderMark, _hex_numbers_above, overlay, turn_marks
from pbem.art.style import load_style
from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "ww2-crusader" / "legal-03-d1-retreat.json"


@pytest.fixture(scope="module")
def turn_picture():
    turn, module = load_turn(SAMPLE)
    start = load_start_state(turn, module)
    result = replay(module, start, turn)
    style = load_style(module.path)
    marks = turn_marks(turn, load_start_state(turn, module), result.violations, module.sides, style)
    picture = map_picture(module.map, style, hex_size=30)
    return module, result, marks, picture, style, overlay(picture, result.state, marks, style, legend=False)


def test_the_attack_declaration_and_retreat_are_marks(turn_picture):
    module, result, marks, *_ = turn_picture
    find = module.map.find
    assert not [v for v in result.violations if v.severity != "warning"]
    attack = next(m for m in marks if isinstance(m, AttackMark))
    assert attack.target == find("0704") and attack.sources == (find("0604"),) and "D1" in attack.label
    assert any(isinstance(m, OrderMark) and m.location == find("0704") for m in marks)  # the declaration
    retreat = next(m for m in marks if isinstance(m, MoveMark) and m.kind == "retreat")
    assert retreat.path == (find("0704"), find("0804"))


def test_every_unit_stands_on_its_hex_in_its_nations_colour(turn_picture):
    module, result, _, picture, style, image = turn_picture
    unit_px = picture.radius * 2
    for location in result.state.stacks:
        x, y = picture.centers[location]
        bottom = result.state.units_at(location)[0]  # the bottom counter's lower-left corner is never covered
        colour = ImageColor.getrgb(style.colours(bottom.unit.type).background)
        px = max(16, round(unit_px * 0.72))
        assert image.convert("RGB").getpixel((round(x - px / 2 + 2), round(y + px / 2 - 3))) == colour, module.map.labels[location]
    assert result.state.units["UK-7-ARMD-DIV"].at == module.map.find("0804")


def test_a_garrisons_tag_names_its_town(turn_picture):
    module, result, _, picture, _, _ = turn_picture
    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    tags = {text for _, _, text in _hex_numbers_above(draw, result.state, picture.centers, picture.radius * 2, 20)}
    assert "0703 Tobruk" in tags and "0604" in tags  # Tobruk's garrison; an unnamed hex keeps its number alone


def test_the_command_writes_the_picture(tmp_path, pbem):
    out = tmp_path / "turn.png"
    result = pbem("art", "turn", SAMPLE, "--out", out)
    assert result.code == 0, result.err
    with Image.open(out) as image:
        assert image.width > 300 and image.height > 300
