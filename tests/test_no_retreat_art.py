"""No Retreat! pictures: the map drawn from the data shows blocked hexsides; counters show each face's arm."""

from __future__ import annotations

from pathlib import Path

from PIL import ImageChops, ImageColor

from pbem.art.counters import render_counter
from pbem.art.maps import BLOCKED, RIVER, map_picture
from pbem.art.style import load_style
from pbem.model.module import load_module

MODULE = Path(__file__).resolve().parents[1] / "modules" / "no-retreat"


def _midpoint_colour(picture, game_map, a: str, b: str):
    i, j = game_map.index(a), game_map.index(b)
    p, q = picture.layout.side(game_map.hexes[i], game_map.hexes[j])
    return picture.image.getpixel((round((p[0] + q[0]) / 2), round((p[1] + q[1]) / 2)))


def test_map_draws_blocked_hexsides_and_rivers():
    module = load_module(MODULE)
    picture = map_picture(module.map, load_style(MODULE))
    assert _midpoint_colour(picture, module.map, "1503", "1603") == ImageColor.getrgb(BLOCKED)  # Lake Peipus
    assert _midpoint_colour(picture, module.map, "1617", "1618") == ImageColor.getrgb(BLOCKED)  # Sea of Azov water
    assert _midpoint_colour(picture, module.map, "0505", "0605") == ImageColor.getrgb(RIVER)  # the Oder


def test_soviet_front_shows_each_faces_arm():
    module = load_module(MODULE)
    style = load_style(MODULE)
    front_type = module.unit("SU-1BYELORUSSIAN").type  # shock army on the red face, infantry front on the brown
    plain = module.unit("SU-2BALTIC").type  # infantry on both faces
    shock_back = render_counter(front_type, 1, style)
    infantry_back = render_counter(plain, 1, style)
    assert ImageChops.difference(shock_back, infantry_back).getbbox() is not None  # values differ (5-3 vs 3-3)
    symbol = (15, 15, 60, 45)
    assert ImageChops.difference(shock_back.crop(symbol), infantry_back.crop(symbol)).getbbox() is None
    assert ImageChops.difference(render_counter(front_type, 0, style).crop(symbol), infantry_back.crop(symbol)).getbbox() is not None


def test_hex_numbers_over_a_players_own_map_image():
    """The printed map has no hex numbers: ``pbem art map --background --numbers`` prints the module's over it."""
    from PIL import Image

    from pbem.art.layout import HexLayout

    module = load_module("no-retreat")
    layout = HexLayout.regular(module.map.spec, 12.0, margin=6.0)
    x0, y0, x1, y1 = layout.extent()
    board = Image.new("RGB", (round(x1 + x0), round(y1 + y0)), "white")
    plain = map_picture(module.map, layout=layout, background=board).image
    numbered = map_picture(module.map, layout=layout, background=board, numbers=True).image
    assert ImageChops.difference(plain, board).getbbox() is None  # the board as it is
    x, y = layout.center(module.map.hexes[module.map.index("1307")])
    top = (round(x - 12), round(y - 12), round(x + 12), round(y - 1))  # the number sits in the hex's upper half
    assert ImageChops.difference(numbered.crop(top), board.crop(top)).getbbox() is not None


def test_module_show_lists_the_hexes_near_a_city(pbem):
    result = pbem("module", "show", "no-retreat", "--near", "Minsk", "--radius", "1")
    assert result.code == 0
    listed = result.out.split("locations:\n", 1)[1].split()
    assert listed[:3] == ["1307", "Minsk:", "city"] and sum(1 for w in listed if w.rstrip(":").isdigit() and len(w.rstrip(":")) == 4) == 7
    assert pbem("module", "show", "no-retreat", "--near", "Atlantis").code == 2
