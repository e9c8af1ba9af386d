"""Counters: geometry, colours, both faces, determinism, SVG, symbols for every arm, bad input."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree
from PIL import Image, ImageChops, ImageColor

from pbem.art.counters import counter_layout, counter_svg, render_counter
from pbem.art.style import CounterStyle, load_style, style_from_json
from pbem.art.symbols import ICONS, echelon_shapes, icons_for, symbol_image
from pbem.model.errors import PbemError
from pbem.model.module import load_module


@pytest.fixture(scope="module")
def module():
    return load_module("china-war-1980")


@pytest.fixture(scope="module")
def style(module):
    return load_style(module.path)


def rgb(colour: str) -> tuple[int, int, int]:
    return ImageColor.getrgb(colour)[:3]


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def ink(image: Image.Image, box, background) -> int:
    """Pixels in ``box`` that differ clearly from ``background``."""
    crop = image.crop(box).convert("RGB")
    plain = Image.new("RGB", crop.size, background)
    data = ImageChops.difference(crop, plain).tobytes()
    return sum(1 for k in range(0, len(data), 3) if data[k] + data[k + 1] + data[k + 2] > 60)


def test_same_input_same_bytes(module, style):
    counter_type = module.counter_types["sov_tank_xx_1"]
    assert png(render_counter(counter_type, 0, style, 75)) == png(render_counter(counter_type, 0, style, 75))
    assert counter_svg(counter_type, 1, style, 75) == counter_svg(counter_type, 1, style, 75)


def test_nationality_colours_and_parts_in_their_boxes(module, style):
    size = 120
    layout = counter_layout(size)
    for type_id in ("sov_tank_xx_1", "pla_inf_xxx_1", "vn_mech_xxx", "tw_inf_xxx"):
        counter_type = module.counter_types[type_id]
        nation = style.nation(counter_type.nationality)
        image = render_counter(counter_type, 0, style, size)
        assert image.size == (size, size) and image.mode == "RGB"
        background = rgb(nation.background)
        # The corners and the band between symbol and values are plain background.
        assert image.getpixel((size - 3, 3)) == background
        gap = (layout.values[0], layout.symbol[3] + 1, layout.values[2], layout.values[1] - 1)
        assert ink(image, gap, background) == 0
        # The symbol frame: its fill colour inside, the line colour on its edge.
        x0, y0, x1, y1 = layout.symbol
        assert ink(image, layout.symbol, background) > (x1 - x0) * (y1 - y0) * 0.4
        # The values are printed in the values box, in the nationality's text colour.
        assert ink(image, layout.values, background) > 50
        values = image.crop(layout.values)
        assert rgb(nation.text) in {c for _, c in values.getcolors(maxcolors=100000)}
        # Outside every box there is nothing but background.
        assert ink(image, (0, layout.values[3] + 1, size, size), background) == 0


def test_symbols_say_what_the_unit_is(module, style):
    size = 200
    layout = counter_layout(size)
    x0, y0, x1, y1 = layout.symbol
    frame_top = y0 + (y1 - y0) * 22 / 122  # milsymbol: frame starts 22 units under the echelon band's top
    cx, cy = (x0 + x1) // 2, round((frame_top + y1) / 2)
    line = rgb("#000000")
    infantry = render_counter(module.counter_types["pla_inf_xx_1"], 0, style, size)
    armour = render_counter(module.counter_types["sov_tank_xx_1"], 0, style, size)
    mech = render_counter(module.counter_types["sov_mech_xx_1"], 0, style, size)
    # Infantry: the cross meets in the middle; armour: an empty oval there; mechanized: both.
    assert _dark(infantry.getpixel((cx, cy)))
    assert not _dark(armour.getpixel((cx, cy)))
    assert _dark(mech.getpixel((cx, cy)))
    # The armour oval's top edge lies 20 units above the centre (milsymbol: y 80 of a 50..150 frame).
    scale = (x1 - x0) / 150
    assert any(_dark(armour.getpixel((cx, round(cy - 20 * scale) + d))) for d in range(-2, 3))
    assert line == (0, 0, 0)


def _dark(pixel) -> bool:
    return sum(pixel[:3]) < 200


def test_reduced_face_has_stripe_and_back_values(module, style):
    counter_type = module.counter_types["sov_tank_xx_1"]
    nation = style.nation("USSR")
    front = render_counter(counter_type, 0, style, 75)
    back = render_counter(counter_type, 1, style, 75)
    assert front.getpixel((37, 1)) == rgb(nation.background)
    assert back.getpixel((37, 1)) == rgb(nation.reduced)
    assert png(front) != png(back)
    assert "3-3-9" in counter_svg(counter_type, 1, style, 75)
    assert "6-6-9" in counter_svg(counter_type, 0, style, 75)


def test_one_step_counter_has_a_blank_back(module, style):
    counter_type = module.counter_types["pla_border_xx"]
    back = render_counter(counter_type, 1, style, 60)
    assert back.getcolors() == [(3600, rgb(style.nation("PLA").background))]


# Reference thumbnails (8 x 8 grey levels of the 64 px front, values in Vera Sans Bold) of three counters; a change in layout,
# symbol or colours moves them well past the tolerance, anti-aliasing noise does not.
REFERENCES = {
    "sov_tank_xx_1": [110, 99, 97, 91, 91, 97, 97, 97, 110, 108, 141, 131, 131, 141, 104, 97, 97, 117, 208, 198, 198, 208, 124, 97, 97, 117, 205, 198, 198, 205, 124, 97, 97, 103, 149, 149, 149, 149, 106, 97, 108, 139, 97, 128, 118, 97, 149, 111, 147, 189, 135, 185, 158, 140, 174, 149, 100, 126, 97, 113, 112, 97, 126, 99],
    "pla_inf_xxx_1": [174, 188, 190, 173, 173, 190, 190, 190, 175, 161, 173, 162, 162, 174, 171, 190, 190, 180, 223, 209, 209, 222, 187, 190, 190, 180, 228, 205, 206, 227, 187, 190, 190, 170, 171, 193, 193, 172, 172, 190, 188, 180, 180, 182, 182, 181, 180, 189, 188, 126, 93, 150, 95, 138, 132, 170, 190, 190, 190, 190, 190, 190, 190, 190],
    "sov_marine_xx": [110, 99, 97, 91, 91, 97, 97, 97, 110, 100, 125, 131, 131, 126, 96, 97, 97, 117, 205, 179, 192, 180, 124, 97, 97, 117, 182, 184, 172, 206, 124, 97, 97, 97, 128, 149, 149, 129, 99, 97, 106, 137, 97, 127, 129, 97, 139, 114, 97, 164, 134, 135, 140, 140, 150, 137, 106, 136, 97, 124, 120, 97, 130, 101],
}


def thumbnail(image: Image.Image) -> list[int]:
    return list(image.convert("L").resize((8, 8), Image.Resampling.BOX).tobytes())


@pytest.mark.parametrize("type_id", sorted(REFERENCES))
def test_reference_images(module, style, type_id):
    reference = REFERENCES[type_id]
    got = thumbnail(render_counter(module.counter_types[type_id], 0, style, 64))
    if reference is None:
        pytest.skip(f"no reference recorded for {type_id}: {got}")
    assert sum(abs(a - b) for a, b in zip(got, reference)) / 64 < 6


@settings(max_examples=25, deadline=None)
@given(size=st.integers(min_value=16, max_value=260), face=st.sampled_from([0, 1]))
def test_any_size_keeps_values_in_their_box(module, style, size, face):
    counter_type = module.counter_types["pla_inf_xxx_1"]  # widest values: 10-16-3
    image = render_counter(counter_type, face, style, size)
    layout = counter_layout(size)
    assert image.size == (size, size)
    background = rgb(style.nation("PLA").background)
    below = (0, layout.values[3] + 1, size, size)
    if below[1] < size:
        assert ink(image, below, background) == 0
    left_of_values = (0, layout.values[1], max(1, layout.values[0] - 1), layout.values[3])
    assert ink(image, left_of_values, background) == 0


def test_svg_is_well_formed(module, style):
    for counter_type in module.counter_types.values():
        for face in (0, 1):
            root = etree.fromstring(counter_svg(counter_type, face, style, 75).encode())
            assert root.tag.endswith("svg") and root.get("width") == "75"


ISSUE_ARMS = [
    "infantry", "armour", "mechanized_infantry", "motorized_infantry", "artillery", "cavalry", "reconnaissance",
    "airborne", "naval_infantry", "mountain_infantry", "ski_infantry", "bicycle_infantry", "engineer", "machine_gun",
    "mortar", "anti_tank", "anti_aircraft", "headquarters", "leader", "militia", "garrison", "supply",
]


@pytest.mark.parametrize("arm", ISSUE_ARMS)
def test_every_arm_of_the_seed_games_has_a_symbol(arm):
    icons = icons_for(arm)
    assert icons, arm
    image = symbol_image(icons, "XX", 150, 120, "#ffffff", "#000000")
    empty = symbol_image((), "XX", 150, 120, "#ffffff", "#000000")
    assert png(image) != png(empty)


@pytest.mark.parametrize("size,count", [("I", 1), ("II", 2), ("III", 3), ("X", 2), ("XX", 4), ("XXX", 6), ("XXXX", 8)])
def test_echelon_marks(size, count):
    assert len(echelon_shapes(size)) == count


def test_bad_sizes_faces_and_styles(module, style):
    counter_type = module.counter_types["sov_tank_xx_1"]
    with pytest.raises(PbemError):
        render_counter(counter_type, 0, style, 8)
    with pytest.raises(PbemError):
        render_counter(counter_type, 2, style, 75)
    with pytest.raises(PbemError, match="not a colour"):
        style_from_json({"nationalities": {"USSR": {"background": "reddish"}}})
    with pytest.raises(PbemError, match="unknown icon"):
        style_from_json({"arms": {"tank": ["tankette"]}})
    with pytest.raises(PbemError, match="unknown value field"):
        style_from_json({"values": "{attack}-{__class__}"})
    assert isinstance(style_from_json({}), CounterStyle)
    assert set(ICONS) >= {"infantry", "armour", "artillery"}
