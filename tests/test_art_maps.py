"""Map pictures: hex geometry, drawn features, the Red Winter calibration, Paths of Glory spaces, bounds."""

from __future__ import annotations

import io
import math
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageColor

from pbem.art.images import check_canvas, open_image
from pbem.art.layout import HexLayout, calibration_from_json, load_calibration
from pbem.art.maps import RAIL, RIVER, ROAD, grid_picture, map_picture, render_map
from pbem.art.pointcsv import point_map_from_csv
from pbem.art.style import load_style
from pbem.model.errors import PbemError
from pbem.model.hexgrid import HexGridSpec
from pbem.model.jsonsource import parse_json
from pbem.model.maps import load_map
from pbem.model.module import load_module

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
RED_WINTER = SHARED / "red-winter" / "Red_Winter_Map-150.jpg"
POG = SHARED / "paths-of-glory" / "rtt"


def png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


@pytest.fixture(scope="module")
def china():
    module = load_module("china-war-1980")
    return module, load_style(module.path)


# --- geometry --------------------------------------------------------------------------------------

specs = st.builds(
    HexGridSpec,
    label=st.just("CCRR"),
    first_column=st.integers(0, 5),
    columns=st.integers(3, 9),
    first_row=st.integers(0, 5),
    rows=st.integers(3, 9),
    orientation=st.sampled_from(["flat", "pointy"]),
    shifted=st.sampled_from(["odd", "even"]),
)


@settings(max_examples=60, deadline=None)
@given(spec=specs, size=st.floats(5, 60))
def test_neighbours_are_one_hex_apart_and_share_a_side(spec, size):
    layout = HexLayout.regular(spec, size)
    hexes = set(spec.hexes())
    x0, y0, x1, y1 = layout.extent()
    assert x0 >= -1e-6 and y0 >= -1e-6
    for h in hexes:
        for n in h.neighbours():
            if n in hexes:
                assert math.dist(layout.center(h), layout.center(n)) == pytest.approx(math.sqrt(3) * size)
                a, b = layout.side(h, n)
                corners_n = layout.corners(n)
                assert min(math.dist(a, c) for c in corners_n) < 1e-6
                assert min(math.dist(b, c) for c in corners_n) < 1e-6


def test_map_picture_is_deterministic_and_draws_features(china):
    module, style = china
    game_map = module.map
    picture = map_picture(game_map, style, hex_size=30)
    assert png(picture.image) == png(render_map(game_map, style, hex_size=30))
    image, layout = picture.image, picture.layout
    assert layout is not None

    def near(point, colour, radius=2):
        target = ImageColor.getrgb(colour)[:3]
        x, y = point
        return any(
            image.getpixel((round(x) + dx, round(y) + dy)) == target for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)
        )

    river = next((e for e, f in sorted(game_map.side_features.items()) if "river" in f), None)
    assert river is not None
    a, b = layout.side(game_map.hexes[river[0]], game_map.hexes[river[1]])
    assert near(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), RIVER)
    road = next(e for e in sorted(game_map.roads) if e not in game_map.rails)
    c0, c1 = picture.centers[road[0]], picture.centers[road[1]]
    assert near(((c0[0] + c1[0]) / 2 + 0.5, (c0[1] + c1[1]) / 2 + 0.5), ROAD, 3)
    # Single track: one line through the middle; double track: two lines either side of it, none on it.
    kinds = {kind: next(e for e, k in sorted(game_map.rails.items()) if k == kind) for kind in ("single", "double")}
    for kind, (i, j) in kinds.items():
        (ax, ay), (bx, by) = picture.centers[i], picture.centers[j]
        length = math.dist((ax, ay), (bx, by))
        nx, ny = -(by - ay) / length, (bx - ax) / length
        offset = 30 * 0.07 * math.sqrt(3)  # maps._rail: double lines 0.07 hex apart from the centre line
        ts = [0.2 + k * 0.02 for k in range(31)]
        hits = sum(
            near((ax + (bx - ax) * t + nx * offset * side, ay + (by - ay) * t + ny * offset * side), RAIL, 1)
            for t in ts
            for side in (-1, 1)
        )
        on_side = hits > len(ts) * 2 * 0.8  # single track: only its cross-ties reach that far
        assert on_side == (kind == "double"), kind


def test_labels_in_the_modules_format(china):
    module, style = china
    small = render_map(module.map, style, hex_size=30, labels=False)
    labelled = render_map(module.map, style, hex_size=30)
    assert png(small) != png(labelled)
    assert module.map.labels[0] == "1001"


def test_three_thousand_hex_map_renders():
    document = parse_json(
        '{"id": "big", "kind": "hex", "grid": {"label": "CCRR", "columns": 60, "rows": 50, "orientation": "pointy", "shifted": "odd"}}',
        "big.json",
    )
    game_map = load_map(document)
    assert len(game_map) == 3000
    image = render_map(game_map, hex_size=12)
    assert image.width > 60 * 12 * math.sqrt(3)


# --- calibration over the Red Winter map image ----------------------------------------------------

CALIBRATION = REPO / "modules" / "red-winter" / "calibration.json"


def test_red_winter_calibration_hits_the_printed_hexes():
    calibration = load_calibration(CALIBRATION)
    layout = calibration.layout
    assert (layout.spec.columns, layout.spec.rows, layout.spec.label) == (24, 31, "letter-number")
    for label in ("A13", "M16", "X28"):
        x, y = layout.label_center(label)
        ex, ey = calibration.checks[label]
        assert math.dist((x, y), (ex, ey)) < min(layout.pitch) / 10, label


@pytest.mark.skipif(not RED_WINTER.is_file(), reason="../shared/data/red-winter is not beside the repository")
def test_red_winter_grid_lies_on_the_printed_hex_lines():
    """The printed hexsides are darker than the hex interiors: the calibrated grid must run along dark
    pixels far more than the same grid shifted by a quarter hex."""
    image = open_image(RED_WINTER).convert("L")
    calibration = load_calibration(CALIBRATION)
    assert image.size == calibration.image_size

    def darkness(layout: HexLayout) -> float:
        total, count = 0.0, 0
        for h in layout.spec.hexes():
            column, row = layout.spec.to_offset(h)
            if not (3 <= column <= 22 and 3 <= row <= 29):
                continue
            corners = layout.corners(h)
            for a, b in zip(corners, corners[1:] + corners[:1]):
                for t in (0.3, 0.5, 0.7):
                    x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
                    total += 255 - image.getpixel((round(x), round(y)))
                    count += 1
        return total / count

    good = darkness(calibration.layout)
    dx, dy = calibration.layout.pitch
    for shift in ((dx / 4, 0), (0, dy / 4), (-dx / 4, dy / 4)):
        moved = HexLayout(calibration.layout.spec, (calibration.layout.origin[0] + shift[0], calibration.layout.origin[1] + shift[1]), (dx, dy))
        assert good > darkness(moved) + 8, shift


def test_grid_picture_without_image_and_bad_calibrations():
    calibration = load_calibration(CALIBRATION)
    image = grid_picture(calibration.layout)
    assert image.width > 24 * calibration.layout.pitch[0]
    for text, message in (
        ('{"grid": {"label": "letter-number", "orientation": "flat", "shifted": "odd", "columns": 2, "rows": 2}, "origin": [1, 2]}', "pitch"),
        ('{"grid": {"label": "XYZ", "orientation": "flat", "shifted": "odd", "columns": 2, "rows": 2}, "origin": [1, 2], "pitch": [5, 5]}', "label format"),
        ('{"grid": {"label": "CCRR", "orientation": "flat", "shifted": "odd", "columns": 2, "rows": 2}, "origin": [1, 2], "pitch": [1e9, 5]}', "pitch"),
        ("[1, 2]", "object"),
    ):
        with pytest.raises(PbemError, match=message):
            calibration_from_json(parse_json(text, "calibration.json"))


# --- bounded images --------------------------------------------------------------------------------


def test_images_are_bounded(tmp_path):
    path = tmp_path / "map.png"
    Image.new("RGB", (40, 30), "white").save(path)
    assert open_image(path).size == (40, 30)
    with pytest.raises(PbemError, match="pixels"):
        open_image(path, max_pixels=1000)
    (tmp_path / "junk.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 50)
    with pytest.raises(PbemError, match="not a readable image"):
        open_image(tmp_path / "junk.png")
    # A header that claims 100000 x 100000 pixels is refused before any pixel is decoded.
    header = bytearray((tmp_path / "map.png").read_bytes())
    header[16:24] = (100000).to_bytes(4, "big") + (100000).to_bytes(4, "big")
    header[29:33] = zlib.crc32(bytes(header[12:29])).to_bytes(4, "big")
    (tmp_path / "bomb.png").write_bytes(bytes(header))
    with pytest.raises(PbemError, match="pixels"):
        open_image(tmp_path / "bomb.png")
    with pytest.raises(PbemError, match="at most"):
        check_canvas(100000, 100000)


# --- point-to-point maps ---------------------------------------------------------------------------


@pytest.mark.skipif(not POG.is_dir(), reason="../shared/data/paths-of-glory is not beside the repository")
def test_paths_of_glory_spaces_and_connections():
    game_map = point_map_from_csv(POG / "spaces.csv", POG / "edges.csv")
    rows = (POG / "spaces.csv").read_text().strip().count("\n")
    edges = (POG / "edges.csv").read_text().strip().splitlines()[1:]
    assert len(game_map) == rows
    assert sum(len(n) for n in game_map.neighbours) // 2 == len({tuple(sorted(e.split(",")[:2])) for e in edges})
    assert len(game_map.restricted) == sum(1 for e in edges if e.split(",")[2].strip())
    picture = map_picture(game_map, scale=0.5)
    background = picture.image.getpixel((2, picture.image.height - 2))
    for i, (x, y) in enumerate(picture.centers):
        # Every space is drawn: a box, whatever its label, differs from the paper around it.
        box = picture.image.crop((round(x - picture.radius + 2), round(y - picture.radius + 2), round(x + picture.radius - 2), round(y + picture.radius - 2)))
        assert background not in {c for _, c in box.getcolors(100000)} or box.getcolors(100000)[0][1] != background, game_map.labels[i]
    assert png(picture.image) == png(render_map(game_map, scale=0.5))


def test_point_csv_errors(tmp_path):
    spaces = tmp_path / "spaces.csv"
    edges = tmp_path / "edges.csv"
    spaces.write_text("id,name,x,y\n1,A,10,10\n2,B,50,10\n")
    edges.write_text("a,b,nations\n1,2,ru\n")
    game_map = point_map_from_csv(spaces, edges)
    assert game_map.restricted == {(0, 1): frozenset({"ru"})}
    edges.write_text("a,b\n1,3\n")
    with pytest.raises(PbemError, match="unknown space") as error:
        point_map_from_csv(spaces, edges)
    assert error.value.source.line == 2
    spaces.write_text("id,name,x\n1,A,10\n")
    with pytest.raises(PbemError, match="missing column"):
        point_map_from_csv(spaces, edges)
    spaces.write_text("id,name,x,y\n1,A,ten,10\n")
    with pytest.raises(PbemError, match="numbers"):
        point_map_from_csv(spaces, edges)
