"""No Retreat! tables: both CRTs, the TEC and the turn track, cell by cell.

Two checks per CRT cell: against a second transcription typed here column by column (the module's was
typed row by row), and against the map image itself when it is beside the repository: each cell's ink is
classified by its nearest neighbour among the other cells of the same table, which must carry the same
code (a misread cell is the odd one out). Weather on the turn track is checked by colour against the
printed legend.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.model.module import load_module

REPO = Path(__file__).resolve().parents[1]
MODULE = REPO / "modules" / "no-retreat"
IMAGE = REPO.parent / "shared" / "data" / "no-retreat" / "Map.jpg"
needs_image = pytest.mark.skipif(not IMAGE.is_file(), reason="../shared/data/no-retreat/Map.jpg is not beside the repository")

# Second transcription, one string per printed odds column, die roll 1 to 6 top to bottom.
AXIS_BY_COLUMN = {
    "1/3": "CA CA CA - CB DR", "1/2": "CA CA - CB DR DR", "1/1": "CA - CB EX DR DR", "3/2": "- - CB EX DR DR",
    "2/1": "- CB EX DR DR DS", "3/1": "CB EX DR DR DS DD", "4/1": "EX DR DR DS DS DD", "5/1": "DR DR DS DS DD DD",
    "6/1": "DR DS DS DD DD DD",
}
SOVIET_BY_COLUMN = {
    "1/3": "CA CA CA CA - CB", "1/2": "CA CA CA - CB DR", "1/1": "CA CA - CB EX DR", "3/2": "CA - CB EX EX DR",
    "2/1": "- CB EX EX DR DR", "3/1": "CB EX EX DR DR DS", "4/1": "EX EX DR DR DS DS", "5/1": "EX EX DR DR DS DD",
    "6/1": "EX DR DR DS DD DD",
}
CELLS = [(side, column, roll) for side, table in (("axis", AXIS_BY_COLUMN), ("soviet", SOVIET_BY_COLUMN))
         for column in table for roll in range(1, 7)]


@pytest.fixture(scope="module")
def tables():
    return load_module(MODULE).tables


@pytest.mark.parametrize("side,column,roll", CELLS)
def test_crt_cell(tables, side, column, roll):
    crt = tables["crts"][side]
    expected = (AXIS_BY_COLUMN if side == "axis" else SOVIET_BY_COLUMN)[column].split()[roll - 1]
    assert crt["rows"][crt["die_rows"]["1d6"][str(roll)]][crt["columns"].index(column)] == expected


def test_crts_differ_and_share_codes(tables):
    axis, soviet = tables["crts"]["axis"], tables["crts"]["soviet"]
    assert axis["columns"] == soviet["columns"] == ["1/3", "1/2", "1/1", "3/2", "2/1", "3/1", "4/1", "5/1", "6/1"]
    assert axis["rows"] != soviet["rows"]
    used = {code for crt in (axis, soviet) for row in crt["rows"].values() for code in row}
    assert used == set(axis["results"]) == {"-", "CB", "CA", "DR", "DS", "DD", "EX"}
    assert axis["results"]["DS"]["fort_in_target_hex"] == "EX" and axis["results"]["DR"]["fort_in_target_hex"] == "-"
    assert axis["results"]["EX"] == {"name": "Exchange", "attacker_steps_lost": 1, "defender_steps_lost": 1, "retreat": False, "advance": False}


# Terrain effects chart as printed: MP mechanized, MP others, mechanized "1->?", defence shift, stops advance.
TEC_PRINTED = {
    "open": "1 1 YES 0 NO", "city": "1 1 NO ←1 NO", "forest": "2 1 NO ←1 YES", "marsh": "4 2 NO ←1 YES",
    "mountain": "3 2 NO ←2 YES", "kerch_strait": "3 2 NO ←2 YES", "river_hexside": "N/E N/E YES ←1 NO",
    "objective_hexside": "N/E N/E NO ←1 YES", "area": "3 2 NO 0 YES", "unsupplied": "max3 max3 NO 2→ YES",
    "enemy_zoc": "+1exit +1exit N/E N/E NO", "mud": "max3 max3 NO 0 YES", "snow": "max4 max4 YES ←1 NO",
    "long_winter": "max4 max4 NO ←1 YES",
}
TEC_CELLS = [(row, n) for row in TEC_PRINTED for n in range(5)]


def _printed(value) -> str:
    if value is True or value is False:
        return "YES" if value else "NO"
    if isinstance(value, int):
        return f"←{-value}" if value < 0 else (f"{value}→" if value > 0 else "0")
    return value.replace("max ", "max").replace("+1 to exit", "+1exit")


@pytest.mark.parametrize("row,n", TEC_CELLS)
def test_tec_cell(tables, row, n):
    tec = tables["terrain_effects"]
    column = tec["columns"][n]
    value = tec["rows"][row][column]
    printed = TEC_PRINTED[row].split()[n]
    if column in ("mp_mechanized", "mp_other") and isinstance(value, int):
        assert str(value) == printed
    else:
        assert _printed(value) == printed


def test_tec_conditions_and_lake(tables):
    tec = tables["terrain_effects"]
    assert tec["rows"]["snow"]["conditions"]["defence_shift"] == "against Soviets only"
    assert tec["rows"]["river_hexside"]["conditions"]["defence_shift"] == "not in snow"
    assert tec["lake_hexside"] == {"enter": "prohibited", "blocks_supply_path": False, "ezoc_across": False}
    assert tec["inset_differences"]["clear"]["defence_shift"] == 0


def test_turn_track(tables):
    turns = tables["turn_track"]["turns"]
    assert [t["turn"] for t in turns] == list(range(1, 29))
    assert [t["turn"] for t in turns if t["sudden_death"]] == [3, 6, 9, 12, 15, 18, 21, 24, 27]
    assert [t["turn"] for t in turns if t["game_event"]] == [4, 7, 10, 14, 19, 22, 25, 27]
    blitz = {1: 3, 2: 3, 3: 2, 6: 1, 7: 2, 8: 2, 9: 2, 10: 1, 13: 1, 14: 1, 15: 1}
    shock = {4: 3, 5: 3, 10: 2, 11: 2, 13: 1, 14: 1, 15: 1, 16: 1, 17: 2, 18: 2, 19: 2, 20: 2, 21: 2, 22: 1, 23: 1,
             24: 1, 25: 2, 26: 2, 27: 2, 28: 2}
    assert {t["turn"]: t["blitz"] for t in turns if t["blitz"]} == blitz
    assert {t["turn"]: t["shock"] for t in turns if t["shock"]} == shock
    assert {t["year"] for t in turns if t["turn"] >= 23} == {1945}


# --- against the image -------------------------------------------------------------------------------

def _crops():
    return json.loads((MODULE / "tools" / "crops.json").read_text(encoding="utf-8"))


def _glyphs(image, box):
    from PIL import Image

    xs, ys = box["x_lines"], box["y_lines"]
    glyphs = {}
    for r in range(len(ys) - 1):
        for c in range(len(xs) - 1):
            cell = image.crop((xs[c] + 4, ys[r] + 4, xs[c + 1] - 4, ys[r + 1] - 4)).point(lambda v: 255 if v < 90 else 0)
            bbox = cell.getbbox()
            assert bbox is not None, f"empty cell {r + 1},{c + 1}"
            glyphs[(r, c)] = cell.crop(bbox).resize((48, 24), Image.Resampling.BILINEAR)
    return glyphs


@needs_image
@pytest.mark.parametrize("side", ["axis", "soviet"])
def test_crt_cells_against_the_image(tables, side):
    from PIL import Image, ImageChops, ImageStat

    with Image.open(IMAGE) as opened:
        image = opened.convert("L")
    crt = tables["crts"][side]
    glyphs = _glyphs(image, _crops()[f"crt_{side}"])
    codes = {(r, c): crt["rows"][str(r + 1)][c] for (r, c) in glyphs}
    wrong = []
    for key, glyph in glyphs.items():
        distance, nearest = min(
            (ImageStat.Stat(ImageChops.difference(glyph, other)).mean[0], codes[k]) for k, other in glyphs.items() if k != key
        )
        if nearest != codes[key]:
            wrong.append(f"roll {key[0] + 1} {crt['columns'][key[1]]}: {codes[key]} looks like {nearest}")
    assert not wrong


@needs_image
def test_turn_weather_against_the_legend_colours(tables):
    from PIL import Image, ImageStat

    with Image.open(IMAGE) as opened:
        image = opened.convert("RGB")
    crops = _crops()["turn_track"]

    def colour(point, half_w, half_h):
        x, y = point
        return ImageStat.Stat(image.crop((x - half_w, y - half_h, x + half_w + 1, y + half_h + 1))).mean

    legend = {name: colour(p, 1, 1) for name, p in crops["weather_legend_points"].items()}
    for turn in tables["turn_track"]["turns"]:
        seen = colour(crops["turn_colour_points"][str(turn["turn"])], 5, 3)
        nearest = min(legend, key=lambda name: sum((a - b) ** 2 for a, b in zip(legend[name], seen)))
        assert nearest == turn["weather"], turn["turn"]


# The rows of the TEC whose cells are one value each (the rows below them print spanning text).
TEC_IMAGE_ROWS = ("open", "city", "forest", "marsh", "mountain", "kerch_strait", "river_hexside", "objective_hexside", "area")


@needs_image
def test_tec_cells_against_the_image(tables):
    """Cells of one kind (MP, yes/no, shifts) are classified by their nearest neighbour among the others;
    a value printed once (marsh's 4 MP) must look unlike every other cell."""
    from PIL import Image, ImageChops, ImageStat

    with Image.open(IMAGE) as opened:
        image = opened.convert("L")
    box = _crops()["terrain_effects"]
    xs = box["x_lines"]
    wrong = []
    for columns in ((0, 1), (2, 4), (3,)):
        cells = {}
        for row in TEC_IMAGE_ROWS:
            top, bottom = box["rows"][row]
            for c in columns:
                if row == "river_hexside" and c == 3:
                    bottom = top + (bottom - top) // 2
                cell = image.crop((xs[c] + 4, top + 4, xs[c + 1] - 4, bottom - 4)).point(lambda v: 255 if v < 90 else 0)
                value = tables["terrain_effects"]["rows"][row][tables["terrain_effects"]["columns"][c]]
                cells[(row, c)] = (cell.crop(cell.getbbox()).resize((48, 24), Image.Resampling.BILINEAR), _printed(value) if not isinstance(value, int) or c > 1 else str(value))
        for key, (glyph, code) in cells.items():
            distance, nearest = min(
                (ImageStat.Stat(ImageChops.difference(glyph, other)).mean[0], other_code) for k, (other, other_code) in cells.items() if k != key
            )
            alone = sum(1 for k, (_, other_code) in cells.items() if other_code == code) == 1
            if (alone and distance < 40) or (not alone and nearest != code):
                wrong.append(f"{key[0]} {tables['terrain_effects']['columns'][key[1]]}: {code} looks like {nearest}")
    assert not wrong


def test_vp_track_sudden_death_boxes_match_the_skull_turns(tables):
    vp = tables["vp_track"]
    turns = {s["turn"] for s in vp["sudden_death"]}
    assert turns == {t["turn"] for t in tables["turn_track"]["turns"] if t["sudden_death"]}
    by_turn = {}
    for s in vp["sudden_death"]:
        by_turn.setdefault(s["turn"], []).append((s["box"], s["icon"]))
    assert by_turn[12] == [(16, "soviet"), (27, "axis")]  # the one turn with both sides' boxes
    assert by_turn[3] == [(20, "axis")] and by_turn[24] == [(8, "soviet")]
    assert vp["labels"]["34"] == "Soviet Total Victory!"
