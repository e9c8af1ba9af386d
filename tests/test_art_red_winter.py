"""Red Winter as its players see it: sides' colours, every terrain, every counter's symbol and printed values,
whole place names, fire / special-order / loss marks, and phase names from the module's art.json."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageColor, ImageDraw

from pbem.art.counters import counter_layout, counter_svg, render_counter
from pbem.art.fonts import font
from pbem.art.maps import map_picture
from pbem.art.overlay import FireMark, OrderMark, overlay, turn_marks
from pbem.art.style import load_style, printed_values
from pbem.art.symbols import FRAME, SYMBOL_BOX
from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.module import load_module

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples" / "red-winter"


@pytest.fixture(scope="module")
def module():
    return load_module("red-winter")


@pytest.fixture(scope="module")
def style(module):
    return load_style(module.path)


def rgb(colour: str) -> tuple[int, int, int]:
    return ImageColor.getrgb(colour)[:3]


def distance(a, b) -> int:
    return sum(abs(x - y) for x, y in zip(a, b))


def test_finnish_and_soviet_counters_differ_as_on_the_real_counters(module, style):
    # Sampled from data/red-winter/counters: Soviet tan #b58d4b, Finnish pale blue #e9f6fa.
    soviet = render_counter(module.counter_types["sov_rifle_company"], 0, style, 80)
    finnish = render_counter(module.counter_types["fin_jr16_company"], 0, style, 80)
    assert soviet.getpixel((3, 40)) == rgb("#b58d4b")
    assert finnish.getpixel((3, 40)) == rgb("#e9f6fa")
    assert distance(soviet.getpixel((3, 40)), finnish.getpixel((3, 40))) > 150
    # Soviet armour and the 354th's guns are red, the Finnish battery dark blue, as printed.
    for type_id, colour in (("sov_t26m31", "#c1301c"), ("sov_artillery_152", "#c1301c"), ("fin_artillery_76", "#07407c"), ("fin_bicycle_company", "#7db9cc")):
        assert render_counter(module.counter_types[type_id], 0, style, 80).getpixel((3, 40)) == rgb(colour), type_id


def show(parts) -> str:
    """Printed values in a compact form: [4] boxed, 5^6 raised range, *yellow / !red / +orange fills."""
    marks = {"#f6d32d": "*", "#d42a1e": "!", "#edb226": "+", "#000000": "[]"}
    out = []
    for p in parts:
        text = p.text + (f"^{p.sup}" if p.sup else "")
        mark = marks.get(p.fill or "", "")
        out.append(f"[{text}]" if mark == "[]" else mark + text)
    return " ".join(out)


# Front faces as printed on the counter images (data/red-winter/counters), one per counter type.
PRINTED_FRONTS = {
    "sov_rifle_company": "5 4^2 5",
    "sov_mg_company": "[4] 5^3 4",
    "sov_mortar": "(1) *5^6 2",
    "sov_infantry_gun": "2 *3^10 2",
    "sov_at_gun": "[1] 1^3 3",
    "sov_artillery_122": "– *7^∞ –",
    "sov_artillery_152": "– *8^∞ –",
    "sov_artillery_76": "– *5^∞ –",
    "sov_t26m31": "10 8^3 +8",
    "sov_t26m33": "7 6^3 +8",
    "sov_t37": "5 5^3 +9",
    "sov_ba10": "8 6^3 +12",
    "fin_jr16_company": "5 2^2 6",
    "fin_jr37_company": "5 2^2 6",
    "fin_erp_company": "5 1^2 6",
    "fin_ktpr_company": "4 1^2 6",
    "fin_bicycle_company": "4 1^2 6",
    "fin_prov_company": "3 1^2 6",
    "fin_mg_company": "[3] 4^3 4",
    "fin_mg_erp112": "[1] 2^3 4",
    "fin_mortar": "(1) *4^6 3",
    "fin_at_jr16": "2 2^4 !2 2",
    "fin_at_obuhov": "1 1^2 !2 2",
    "fin_engineer": "2 6",
    "fin_artillery_76": "– *2^∞ –",
    "fin_leader": "1L/1R 7",
    "fin_platoon": "1 1^2 6",
    "fin_platoon_weak": "1 0^2 6",
    "fin_section": "1 6",
    "fin_field_kitchen": "(1) 2",
}
PRINTED_BACKS = {"sov_rifle_company": "3 4^2 5", "sov_mg_company": "[2] 4^3 4", "sov_t26m31": "6 6^3 +8", "fin_jr16_company": "3 2^2 6", "fin_at_jr16": "1 1^4 !2 2"}


def test_every_counter_type_prints_its_values(module, style):
    assert set(PRINTED_FRONTS) == set(module.counter_types)
    got = {t: show(printed_values(style, ct, 0)) for t, ct in module.counter_types.items()}
    assert got == PRINTED_FRONTS
    assert {t: show(printed_values(style, module.counter_types[t], 1)) for t in PRINTED_BACKS} == PRINTED_BACKS


def test_a_plain_template_still_prints_attack_defence_move():
    china = load_module("china-war-1980")
    assert show(printed_values(load_style(china.path), china.counter_types["sov_tank_xx_1"], 0)) == "6-6-9"


def frame_ink(image: Image.Image, size: int) -> int:
    """Dark pixels inside the symbol frame (its border excluded): 0 for an empty frame."""
    layout = counter_layout(size)
    x0, y0, x1, y1 = layout.symbol
    scale = (x1 - x0) / (SYMBOL_BOX[2] - SYMBOL_BOX[0])
    fx0, fy0 = x0 + (FRAME[0] - SYMBOL_BOX[0]) * scale, y0 + (FRAME[1] - SYMBOL_BOX[1]) * scale
    fx1, fy1 = x0 + (FRAME[2] - SYMBOL_BOX[0]) * scale, y0 + (FRAME[3] - SYMBOL_BOX[1]) * scale
    inner = image.crop((round(fx0 + 4), round(fy0 + 4), round(fx1 - 4), round(fy1 - 4))).convert("L")
    return sum(1 for v in inner.tobytes() if v < 90)


@pytest.mark.parametrize("type_id", ["sov_at_gun", "fin_at_jr16", "fin_at_obuhov", "fin_field_kitchen", "sov_infantry_gun", "fin_leader",
                                     "fin_engineer", "sov_mortar", "sov_mg_company", "sov_artillery_122", "fin_artillery_76", "sov_ba10"])  # fmt: skip
def test_no_counter_has_an_empty_frame(module, style, type_id):
    assert frame_ink(render_counter(module.counter_types[type_id], 0, style, 120), 120) > 40


def test_bicycle_troops_are_not_plain_infantry(module, style):
    bicycle = render_counter(module.counter_types["fin_bicycle_company"], 0, style, 120)
    company = render_counter(module.counter_types["fin_jr16_company"], 0, style, 120)
    x0, y0, x1, y1 = counter_layout(120).symbol
    # Same frame, same cross: the bicycle's wheels in the lower part of the frame make the difference.
    lower = (x0, (y0 + y1) // 2, x1, y1)
    a = bicycle.crop(lower).convert("L")
    b = company.crop(lower).convert("L")
    assert sum(1 for v in ImageChops.difference(a, b).tobytes() if v > 60) > 30


def test_svg_counters_carry_the_same_values(module, style):
    svg = counter_svg(module.counter_types["fin_at_jr16"], 0, style, 75)
    assert 'fill="#d42a1e"' in svg and ">2<" in svg
    assert "∞" in counter_svg(module.counter_types["sov_artillery_122"], 0, style, 75)
    assert "T-26 m31" in counter_svg(module.counter_types["sov_t26m31"], 0, style, 75)


def test_finnish_letters_are_drawn_not_replaced_by_boxes():
    def drawn(text: str) -> bytes:
        image = Image.new("L", (200, 40), 0)
        ImageDraw.Draw(image).text((4, 4), text, font=font(24), fill=255)
        return image.tobytes()

    assert drawn("Tolvajärvi") != drawn("Tolvaj\U0010fff0rvi")  # a missing glyph would look like any other
    assert drawn("ä") != drawn("a") != drawn("\U0010fff0")


def test_every_terrain_has_its_own_colour_on_the_map(module, style):
    picture = map_picture(module.map, style, hex_size=20)
    seen = {}
    for i, terrain in enumerate(module.map.terrain):
        if terrain in seen or module.map.names[i]:
            continue
        x, y = picture.centers[i]
        seen[terrain] = picture.image.getpixel((round(x - 8), round(y + 2)))
    assert set(seen) == {"forest", "suo", "frozen_lake", "village"}
    for terrain, pixel in seen.items():
        assert pixel == rgb(style.terrain[terrain]), terrain
    colours = list(seen.values())
    assert min(distance(a, b) for k, a in enumerate(colours) for b in colours[k + 1:]) > 60


def test_place_names_are_whole_and_inside_the_picture(module, style):
    picture = map_picture(module.map, style, hex_size=18)
    named = [n for n in module.map.names if n]
    assert len(picture.names) == len(named)
    width, height = picture.image.size
    for x0, y0, x1, y1 in picture.names:
        assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height
    # The longest name is wider than its hex: it must still be drawn whole (bigger than a hex's width).
    widths = [b[2] - b[0] for b in picture.names]
    assert max(widths) > picture.radius * 2


def marks_of(sample: str, style):
    module = load_module("red-winter")
    turn, module = load_turn(SAMPLES / sample)
    result = replay(module, load_start_state(turn, module), turn)
    return module, result, turn_marks(turn, load_start_state(turn, module), result.violations, module.sides, style)


def test_turn_marks_name_fire_orders_and_losses(style):
    module, _, marks = marks_of("legal-05-anti-tank-fire.json", style)
    fire = [m for m in marks if isinstance(m, FireMark)]
    assert len(fire) == 1 and module.map.label(fire[0].target) == "O21"
    assert fire[0].label == "Anti-tank fire 4, 2: 1 step lost"
    assert [module.map.label(s) for s in fire[0].sources] == ["O20"]
    module, _, marks = marks_of("legal-06-night-raid-and-sub-zero.json", style)
    orders = [m for m in marks if isinstance(m, OrderMark)]
    raid = orders[0]
    assert raid.label == "Night raid 2: 2R" and module.map.label(raid.location) == "Q25"
    assert sorted(module.map.label(s) for s in raid.sources) == ["O20", "P20"]
    assert [m.label for m in orders if m.loss] == ["-1 step (sub-zero)", "-1 step (sub-zero)"]
    assert [m.label for m in orders if not m.loss][1:] == ["Sub-zero roll 2: step", "Sub-zero roll 4: none", "Sub-zero roll 4: none", "Sub-zero roll 1: step"]


def test_turn_picture_draws_fire_and_orders(style):
    module, result, marks = marks_of("legal-06-night-raid-and-sub-zero.json", style)
    picture = map_picture(module.map, style, hex_size=30)
    plain = overlay(picture, result.state, [], style)
    marked = overlay(picture, result.state, marks, style)
    raid = next(m for m in marks if isinstance(m, OrderMark))
    x, y = picture.centers[raid.location]
    box = (round(x - 80), round(y), round(x + 80), round(y + 60))
    data = marked.crop(box).tobytes()
    violet = [k for k in range(0, len(data), 3) if distance(data[k:k + 3], (90, 40, 140)) < 40]
    assert len(violet) > 50 and ImageChops.difference(plain, marked).getbbox() is not None


def test_phase_and_order_names_come_from_the_module(style):
    assert style.phase_name("sub_zero") == "Sub-Zero Loss Phase"
    assert style.phase_name("action") == "Action Phase"
    assert style.order_name("dig_in") == "Dig in"
    for path in (ROOT / "pbem").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "Sub-Zero" not in text and "Night raid" not in text and "Tolvaj" not in text, path


@pytest.mark.parametrize(("data", "pointer"), [
    ({"values": [{"field": "attack", "colour": "red"}]}, "/values/0"),
    ({"values": [{"sup": "range"}]}, "/values/0"),
    ({"values": [{"field": "attack; drop"}]}, "/values/0/field"),
    ({"values": [{"field": "ras", "fill": "not-a-colour"}]}, "/values/0/fill"),
    ({"values": []}, "/values"),
    ({"values": [{"field": "move"}] * 13}, "/values"),
    ({"types": {"x": {"background": "#zzzzzz"}}}, "/types/x/background"),
    ({"types": {"x": {"icons": ["no_such_icon"]}}}, "/types/x/icons/0"),
    ({"types": {"x": {"caption": "a caption far too long to print"}}}, "/types/x/caption"),
    ({"types": {"x": {"shape": "round"}}}, "/types/x"),
    ({"types": []}, "/types"),
    ({"phases": {"sub_zero": 5}}, "/phases/sub_zero"),
    ({"orders": {"dig_in": ""}}, "/orders/dig_in"),
])  # fmt: skip
def test_a_bad_style_is_refused_naming_the_place(tmp_path, data, pointer):
    import json

    from pbem.art.style import load_style
    from pbem.model.errors import PbemError

    (tmp_path / "art.json").write_text(json.dumps(data))
    with pytest.raises(PbemError) as error:
        load_style(tmp_path)
    message = str(error.value)
    assert "art.json" in message and pointer in message and "\n" not in message


def test_labels_on_one_hex_do_not_overlap_and_stay_inside():
    from pbem.art.overlay import Labels

    image = Image.new("RGBA", (300, 200))
    draw = ImageDraw.Draw(image)
    counter = (130, 80, 170, 120)
    labels = Labels(image.size, [counter])
    for k in range(6):
        labels.place(draw, (150, 100), 30, f"Sub-zero roll {k}: step", font(12), fill=(90, 40, 140))
    labels.place(draw, (295, 195), 30, "a label at the very corner", font(12), fill=(90, 40, 140))
    boxes = labels.boxes
    for k, a in enumerate(boxes):
        assert 0 <= a[0] and a[2] <= 300 and 0 <= a[1] and a[3] <= 200
        assert not (a[0] < counter[2] and counter[0] < a[2] and a[1] < counter[3] and counter[1] < a[3])
        for b in boxes[k + 1:6]:
            assert not (a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def test_values_stay_on_the_counter_at_any_size(module, style):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    # From 28 px up (the smallest counter any picture draws is larger); below that, antialiased glyphs may touch
    # the frame by a pixel.
    @settings(max_examples=40, deadline=None)
    @given(size=st.integers(min_value=28, max_value=240), type_id=st.sampled_from(sorted(PRINTED_FRONTS)))
    def check(size, type_id):
        counter_type = module.counter_types[type_id]
        image = render_counter(counter_type, 0, style, size)
        background = rgb(style.colours(counter_type).background)
        layout = counter_layout(size)
        x0, y0, x1, y1 = layout.values
        # Nothing is drawn in the margins around the values: left, right and under them.
        for box in ((0, y0, max(1, x0 - 1), y1), (min(size - 1, x1 + 1), y0, size, y1), (0, min(size - 1, y1 + 1), size, size)):
            data = image.crop(box).tobytes()
            assert all(sum(abs(a - b) for a, b in zip(data[k:k + 3], background)) < 60 for k in range(0, len(data), 3)), (box, type_id)

    check()
