"""--background: map pictures, turn pictures and the replay drawn over the user's own map image, placed by the
module's calibration; hostile or wrong images are refused with one line and nothing written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from archive_support import run
from PIL import Image

from pbem.art.background import hex_radius, load_background
from pbem.art.layout import load_calibration
from pbem.model.errors import PbemError
from pbem.model.module import load_module

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples" / "red-winter"
CALIBRATION = ROOT / "modules" / "red-winter" / "calibration.json"
REAL_MAP = ROOT.parent / "shared" / "data" / "red-winter" / "Red_Winter_Map-150.jpg"
GREY = (123, 130, 140)
SOVIET = (0xB5, 0x8D, 0x4B)


@pytest.fixture(scope="module")
def board(tmp_path_factory) -> Path:
    """A plain image of the calibrated size: a stand-in for the user's scan (the real one is never shipped)."""
    path = tmp_path_factory.mktemp("board") / "board.png"
    Image.new("RGB", (1650, 2550), GREY).save(path)
    return path


def centre(label: str, factor: float = 1.0) -> tuple[int, int]:
    x, y = load_calibration(CALIBRATION).layout.label_center(label)
    return round(x * factor), round(y * factor)


def test_map_over_the_board_places_counters_by_the_calibration(capsys, tmp_path, board):
    out = tmp_path / "map.png"
    code, text, _ = run(capsys, "art", "map", "red-winter", "--state", ROOT / "modules/red-winter/scenarios/campaign.json", "--background", board, "--out", out)
    assert code == 0 and "written" in text
    image = Image.open(out).convert("RGB")
    assert image.size == (1650, 2550)
    # The board is left alone (no terrain, grid or names drawn over it) away from the units...
    assert image.getpixel(centre("A1")) == GREY and image.getpixel(centre("X30")) == GREY
    # ...and a Soviet counter (tan) sits on Q25, where the campaign set-up puts the 609th.
    x, y = centre("Q25")
    assert sum(abs(a - b) for a, b in zip(image.getpixel((x - 10, y + 2)), SOVIET)) < 30


def test_a_scan_at_another_resolution_gets_the_grid_scaled(tmp_path):
    half = tmp_path / "half.png"
    Image.new("RGB", (825, 1275), GREY).save(half)
    module = load_module("red-winter")
    image, layout = load_background(half, module.path, module.map, module.id)
    assert image.size == (825, 1275)
    full = load_calibration(CALIBRATION).layout
    assert layout.label_center("M16") == pytest.approx(tuple(v / 2 for v in full.label_center("M16")))
    _, bigger = load_background(half, module.path, module.map, module.id, hex_size=60)
    assert hex_radius(bigger) == pytest.approx(60, rel=0.01)


def test_hex_size_enlarges_the_board(capsys, tmp_path, board):
    out = tmp_path / "big.png"
    code, _, _ = run(capsys, "art", "map", "red-winter", "--background", board, "--hex-size", "60", "--out", out)
    assert code == 0
    width = Image.open(out).width
    assert width == round(1650 * 60 / hex_radius(load_calibration(CALIBRATION).layout))


def hostile_images(tmp: Path) -> dict[str, tuple[Path, str]]:
    square = tmp / "square.png"
    Image.new("RGB", (1650, 1650), GREY).save(square)
    huge = tmp / "huge.png"
    Image.new("1", (8000, 6000)).save(huge)  # 48 Mpx, a few kB on disk
    text = tmp / "notes.png"
    text.write_text("not an image")
    truncated = tmp / "cut.png"
    Image.new("RGB", (1650, 2550), GREY).save(tmp / "whole.png")
    truncated.write_bytes((tmp / "whole.png").read_bytes()[:2000])
    return {
        "proportions": (square, "proportions of the calibrated map image"),
        "pixels": (huge, "pixels"),
        "not an image": (text, "not a readable image"),
        "truncated": (truncated, "not a readable image"),
    }


@pytest.mark.parametrize("kind", ["proportions", "pixels", "not an image", "truncated"])
def test_bad_images_are_refused_in_one_line_and_nothing_is_written(capsys, tmp_path, kind):
    path, words = hostile_images(tmp_path)[kind]
    for command in (["art", "map", "red-winter"], ["art", "turn", SAMPLES / "legal-05-anti-tank-fire.json"], ["replay", SAMPLES / "legal-05-anti-tank-fire.json"]):
        out = tmp_path / ("out.html" if command[0] == "replay" else "out.png")
        code, _, err = run(capsys, *command, "--background", path, "--out", out)
        assert code == 2, (command, err)
        assert words in err and str(path.name) in err and len(err.strip().splitlines()) == 1
        assert not out.exists()


def test_a_module_without_calibration_says_so(capsys, tmp_path, board):
    code, _, err = run(capsys, "art", "map", "china-war-1980", "--background", board, "--out", tmp_path / "x.png")
    assert code == 2 and "no calibration.json" in err and not (tmp_path / "x.png").exists()


def test_turn_picture_over_the_board(capsys, tmp_path, board):
    plain, over = tmp_path / "plain.png", tmp_path / "over.png"
    assert run(capsys, "art", "turn", SAMPLES / "legal-05-anti-tank-fire.json", "--whole-map", "--out", plain)[0] == 0
    assert run(capsys, "art", "turn", SAMPLES / "legal-05-anti-tank-fire.json", "--whole-map", "--background", board, "--out", over)[0] == 0
    image = Image.open(over).convert("RGB")
    assert image.size == (1650, 2550) and Image.open(plain).size != image.size
    # The anti-tank fire at O21 is drawn (orange) between the gun in O20 and the tank.
    x0, y0 = centre("O20")
    x1, y1 = centre("O21")
    strip = image.crop((min(x0, x1) - 6, min(y0, y1), max(x0, x1) + 6, max(y0, y1))).convert("RGB").tobytes()
    orange = sum(1 for k in range(0, len(strip), 3) if strip[k] > 180 and 80 < strip[k + 1] < 140 and strip[k + 2] < 60)
    assert orange > 20


def test_replay_embeds_the_board_not_its_path(capsys, tmp_path, board):
    out = tmp_path / "replay.html"
    code, _, _ = run(capsys, "replay", SAMPLES / "legal-05-anti-tank-fire.json", "--background", board, "-o", out)
    assert code == 0
    text = out.read_text()
    data = json.loads(re.search(r'<script type="application/json" id="game">(.*?)</script>', text, re.S).group(1))
    assert data["map"]["background"].startswith("data:image/jpeg;base64,")
    assert (data["map"]["width"], data["map"]["height"]) == (1650, 2550)
    labels = [loc[2] for loc in data["locations"]]
    x, y = data["locations"][labels.index("M16")][:2]
    assert (x, y) == pytest.approx(centre("M16"), abs=1)
    assert str(board) not in text and board.name not in text


@pytest.mark.skipif(not REAL_MAP.exists(), reason="needs the Red Winter map image in ../shared/data/red-winter (never shipped)")
def test_turn_over_the_real_map(capsys, tmp_path):
    out = tmp_path / "real.png"
    code, _, _ = run(capsys, "art", "turn", SAMPLES / "legal-06-night-raid-and-sub-zero.json", "--whole-map", "--background", REAL_MAP, "--out", out)
    assert code == 0
    drawn = Image.open(out).convert("RGB")
    real = Image.open(REAL_MAP).convert("RGB")
    assert drawn.size == real.size
    # Far from every unit and mark the picture is the user's map, pixel for pixel.
    for label in ("A1", "X30", "C5"):
        assert drawn.getpixel(centre(label)) == real.getpixel(centre(label))
    # Where a Finnish stack stands (F21: JR37, ErP112, MG/ErP9), its pale blue counter covers the map.
    x, y = centre("F21")
    assert drawn.getpixel((x - 12, y + 8)) == (0xE9, 0xF6, 0xFA) != real.getpixel((x - 12, y + 8))


def test_pixels_are_bounded_before_decoding(tmp_path):
    huge = tmp_path / "huge.png"
    Image.new("1", (9000, 9000)).save(huge)
    module = load_module("red-winter")
    with pytest.raises(PbemError, match="40,000,000 pixels"):
        load_background(huge, module.path, module.map, module.id)
