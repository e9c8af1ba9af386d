"""Crusader art (issue 29): German-style signs for the Axis, NATO for the Allies, the establishment bar per state,
and a map picture that shows the real coast and places."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.art.counters import bar_box, counter_svg, counter_layout, render_counter
from pbem.art.maps import ESCARPMENT, map_picture
from pbem.art.style import load_style, style_from_json
from pbem.art.symbols import FRAME, SYMBOL_BOX, has_frame, symbol_image, symbol_svg
from pbem.model.errors import PbemError
from pbem.model.jsonsource import parse_json
from pbem.model.maps import load_map
from pbem.model.units import CounterType, Step

MODULE = Path(__file__).resolve().parents[1] / "modules" / "ww2-crusader"


@pytest.fixture(scope="module")
def style():
    return load_style(MODULE)


@pytest.fixture(scope="module")
def types() -> dict[str, CounterType]:
    data = json.loads((MODULE / "counters.json").read_text(encoding="utf-8"))
    out = {}
    for tid, t in data["counter_types"].items():
        steps = tuple(Step(s["attack"], s["defence"], s["move"]) for s in t["steps"])
        out[tid] = CounterType(tid, t["name"], t["side"], t["nationality"], t["arm"], t["size"], t["quality"], t["mechanized"], steps, t["retreats"], t["attributes"])
    return out


def rgb(image, x, y):
    return image.getpixel((round(x), round(y)))[:3]


def test_art_json_is_what_the_build_tool_makes():
    done = subprocess.run([sys.executable, str(MODULE / "tools" / "build_art.py"), "--check"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_axis_types_get_german_signs_and_allied_types_nato(style, types):
    for tid, t in types.items():
        own = style.types.get(tid)
        if t.side == "axis":
            assert own is not None and own.icons and not has_frame(own.icons), tid
        else:
            assert own is None or own.icons is None, tid  # NATO from the arm


def test_a_german_sign_has_no_frame_and_a_nato_symbol_has_one():
    scale = 2
    width, height = round((SYMBOL_BOX[2] - SYMBOL_BOX[0]) * scale), round((SYMBOL_BOX[3] - SYMBOL_BOX[1]) * scale)
    corner = ((FRAME[2] - 6 - SYMBOL_BOX[0]) * scale, (FRAME[3] - 6 - SYMBOL_BOX[1]) * scale)  # inside the frame's corner
    german = symbol_image(("de_panzer",), "XX", width, height, "#c9cebd", "#000000")
    nato = symbol_image(("armour",), "XX", width, height, "#c9cebd", "#000000")
    assert german.getpixel(corner)[3] == 0  # transparent: no frame fill
    assert nato.getpixel(corner)[3] == 255
    assert "<rect" not in symbol_svg(("de_infantry", "de_motorized"), "XX", fill="#ffffff")
    assert "<rect" in symbol_svg(("infantry",), "XX", fill="#ffffff")


def test_the_establishment_bar_none_black_white(style, types):
    division = types["de_21pz_1941"]
    size = 90
    x0, y0, x1, y1 = bar_box(counter_layout(size))
    middle = ((x0 + x1) / 2, (y0 + y1) / 2)
    faces = [render_counter(division, face, style, size) for face in range(3)]
    background = style.colours(division).background
    assert rgb(faces[0], *middle) == tuple(int(background[i : i + 2], 16) for i in (1, 3, 5))  # ③: no bar
    assert rgb(faces[1], *middle) == (0x11, 0x11, 0x11)  # ②: black bar
    assert rgb(faces[2], *middle) == (255, 255, 255)  # ①: white bar
    assert 'fill="#ffffff"' in counter_svg(division, 2, style, size)


def test_faces_follow_the_number_of_states(style, types):
    assert style.faces(types["aus_9_div"]) == 3 and style.faces(types["uk_3_armd_bde"]) == 2
    with pytest.raises(PbemError):
        render_counter(types["uk_3_armd_bde"], 2, style, 60)  # a small unit has two rows
    with pytest.raises(PbemError):
        render_counter(types["aus_9_div"], 3, style, 60)


def test_bars_are_checked():
    with pytest.raises(PbemError, match="/bars"):
        style_from_json({"bars": {"attribute": "bars"}})
    with pytest.raises(PbemError, match="/bars/colours/black"):
        style_from_json({"bars": {"attribute": "bars", "colours": {"black": "not a colour"}}})
    plain = style_from_json({})
    assert plain.bars is None and plain.faces(CounterType("x", "x", "a", "N", "infantry", "XX", None, False, (Step(1, 1, 1),) * 3)) == 2


def test_the_map_picture_shows_sea_coast_towns_and_the_escarpment(style):
    document = parse_json((MODULE / "map.json").read_text(encoding="utf-8"), "map.json")
    game_map = load_map(document)
    picture = map_picture(game_map, style, hex_size=24)
    image = picture.image

    def fill_at(label):
        x, y = picture.centers[game_map.index(label)]
        return rgb(image, x - 10, y + 4)  # off the centre's marks and the number above it

    names = {e["name"]: label for label, e in document.data["hexes"].items() if "name" in e}
    sea_hex = next(label for label in ("0702", "2004", "3005") if game_map.terrain[game_map.index(label)] == "sea")
    assert fill_at(sea_hex) == (0x8C, 0xBC, 0xE8)
    assert fill_at(names["Bir el Gubi"]) == (0xEC, 0xD9, 0xA4)
    assert fill_at(names["Mersa Matruh"]) == (0xCF, 0xAE, 0x96)
    named_hexes = set(names.values())  # (a name's white outline may cross a hexside next to it)
    side = next(s["hexes"] for s in document.data["hexsides"] if "escarpment" in s["features"] and not named_hexes & set(s["hexes"]))
    a, b = (game_map.hexes[game_map.index(h)] for h in side)
    (ax, ay), (bx, by) = picture.layout.side(a, b)
    brown = tuple(int(ESCARPMENT[i : i + 2], 16) for i in (1, 3, 5))
    mx, my = (ax + bx) / 2, (ay + by) / 2
    assert any(rgb(image, mx + dx, my + dy) == brown for dx in range(-2, 3) for dy in range(-2, 3))


def test_a_turn_picture_shows_each_units_establishment_bar(tmp_path, style):
    """Three units on the map at steps 0, 1 and 2 (③, ②, ①): their counters carry no bar, a black and a white bar."""
    from pbem.art.overlay import overlay
    from pbem.model.module import load_module
    from pbem.model.state import State, load_state_document

    module = load_module("ww2-crusader")
    units = [{"id": "AUS-9-DIV", "at": "0704", "step": 0}, {"id": "AUS-7-DIV", "at": "1104", "step": 1}, {"id": "NZ-2-DIV", "at": "1405", "step": 2}]
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"module": "ww2-crusader", "turn": 1, "units": units}), encoding="utf-8")
    state = State.from_json(module, load_state_document(path))
    picture = map_picture(module.map, style, hex_size=60)
    image = overlay(picture, state, [], style, legend=False).convert("RGB")

    def top_band(label):
        x, y = picture.centers[module.map.index(label)]
        rows = range(round(y - picture.radius), round(y))
        return [rgb(image, x, yy) for yy in rows]

    assert (0x11, 0x11, 0x11) in top_band("1104")
    assert (255, 255, 255) in top_band("1405")
    assert (0x11, 0x11, 0x11) not in top_band("0704") and (255, 255, 255) not in top_band("0704")
