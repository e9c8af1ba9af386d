"""Turn overlays and the ``pbem art`` commands: moves, attacks, violations, exit codes, same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from pbem.art.maps import map_picture
from pbem.art.overlay import VIOLATION, AttackMark, MoveMark, ViolationMark, overlay, turn_marks
from pbem.art.style import load_style
from pbem.cli import cli
from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples" / "china-war-1980"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def sample(name: str) -> Path:
    path = SAMPLES / name
    if not path.is_file():
        pytest.skip(f"sample {name} is not in the repository")
    return path


def marks_of(path: Path):
    turn, module = load_turn(path)
    result = replay(module, load_start_state(turn, module), turn)
    return module, result, turn_marks(turn, load_start_state(turn, module), result.violations, module.sides)


def test_moves_attacks_and_violations_become_marks():
    module, result, marks = marks_of(sample("illegal-9.14-attacker-attacks-twice.json"))
    violations = [m for m in marks if isinstance(m, ViolationMark)]
    assert [v.rule for v in violations] == ["9.14"]
    assert violations[0].location is not None
    attacks = [m for m in marks if isinstance(m, AttackMark)]
    assert len(attacks) >= 2 and all(a.sources for a in attacks)
    assert any("roll" in a.label for a in attacks)


def test_overlay_draws_red_ring_and_is_deterministic():
    module, result, marks = marks_of(sample("illegal-6.0-path-jumps.json"))
    style = load_style(module.path)
    picture = map_picture(module.map, style, hex_size=30)
    image = overlay(picture, result.state, marks, style, legend=False)
    again = overlay(picture, result.state, marks, style, legend=False)
    assert image.tobytes() == again.tobytes()
    violation = next(m for m in marks if isinstance(m, ViolationMark))
    x, y = picture.centers[violation.location]
    r = picture.radius * 2 * 0.6
    ring = [image.getpixel((round(x + dx), round(y))) for dx in range(round(-r) - 3, round(-r) + 4)]
    assert VIOLATION in ring
    # Without marks there is no red ring there.
    plain = overlay(picture, result.state, [], style, legend=False)
    assert VIOLATION not in [plain.getpixel((round(x + dx), round(y))) for dx in range(round(-r) - 3, round(-r) + 4)]
    # The legend lists each violation under the map.
    with_legend = overlay(picture, result.state, marks, style)
    assert with_legend.height > image.height


def test_move_arrow_follows_the_path():
    module, result, marks = marks_of(sample("legal-01-amur-crossing.json"))
    assert not [m for m in marks if isinstance(m, ViolationMark)]
    move = next(m for m in marks if isinstance(m, MoveMark) and len(m.path) >= 3)
    style = load_style(module.path)
    picture = map_picture(module.map, style, hex_size=30)
    bare = overlay(picture, result.state, [], style)
    drawn = overlay(picture, result.state, [move], style)
    (ax, ay), (bx, by) = picture.centers[move.path[0]], picture.centers[move.path[1]]
    mid = (round((ax + bx) / 2), round((ay + by) / 2))
    assert drawn.getpixel(mid) != bare.getpixel(mid)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args), standalone_mode=False, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        from pbem.model.errors import PbemError

        if isinstance(result.exception, PbemError):
            return 2, str(result.exception)
        raise result.exception
    return result.return_value, result.output


def test_cli_turn_exit_codes_and_same_bytes(tmp_path):
    bad = sample("illegal-9.11-not-adjacent.json")
    code, output = run("art", "turn", str(bad), "--out", str(tmp_path / "a.png"))
    assert code == 1 and "violation" in output
    run("art", "turn", str(bad), "--out", str(tmp_path / "b.png"))
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()
    code, _ = run("art", "turn", str(sample("legal-01-amur-crossing.json")), "--out", str(tmp_path / "c.png"))
    assert code == 0
    code, message = run("art", "turn", str(bad), "--out", str(tmp_path / "d.gif"))
    assert code == 2 and "must end in" in message and not (tmp_path / "d.gif").exists()


def test_cli_counters_sheet_and_map(tmp_path):
    code, output = run("art", "counters", "china-war-1980", "--out", str(tmp_path / "counters"))
    assert code == 0
    files = sorted(p.name for p in (tmp_path / "counters").iterdir())
    assert "sov_tank_xx_1-front.png" in files and "sov_tank_xx_1-back.png" in files
    assert Image.open(tmp_path / "counters" / "sov_tank_xx_1-front.png").size == (75, 75)
    code, _ = run("art", "sheet", "china-war-1980", "--out", str(tmp_path / "sheet.pdf"), "--dpi", "100")
    assert code == 0
    data = (tmp_path / "sheet.pdf").read_bytes()
    assert data.startswith(b"%PDF") and data.count(b"/Type /Page\n") + data.count(b"/Type /Page ") >= 2
    run("art", "sheet", "china-war-1980", "--out", str(tmp_path / "again.pdf"), "--dpi", "100")
    assert (tmp_path / "again.pdf").read_bytes() == data
    code, _ = run("art", "sheet", "china-war-1980", "--out", str(tmp_path / "sheet.png"), "--dpi", "100")
    assert code == 0
    scenario = REPO / "modules" / "china-war-1980" / "scenarios" / "border-war.json"
    code, _ = run("art", "map", "china-war-1980", "--state", str(scenario), "--out", str(tmp_path / "map.png"))
    assert code == 0 and Image.open(tmp_path / "map.png").width > 1000
    code, message = run("art", "map", "china-war-1980", "--out", str(tmp_path / "huge.png"), "--hex-size", "100000")
    assert code == 2 and not (tmp_path / "huge.png").exists()


def test_sheet_backs_are_mirrored():
    from pbem.art.sheets import SheetSpec, sheet_pages

    colours = ["#ff0000", "#00ff00", "#0000ff"]
    spec = SheetSpec(dpi=100)

    def face(n: int, side: int, px: int) -> Image.Image:
        return Image.new("RGB", (px, px), colours[n] if side == 0 else colours[n])

    front, back = sheet_pages(3, face, spec)
    columns, _ = spec.grid()
    cell = spec.px(spec.counter_mm)
    left = (front.width - columns * cell) // 2
    top = spec.px(spec.margin_mm) + spec.px(8)
    y = top + cell // 2
    assert front.getpixel((left + cell // 2, y)) == (255, 0, 0)
    assert back.getpixel((left + (columns - 1) * cell + cell // 2, y)) == (255, 0, 0)
    assert back.getpixel((left + (columns - 2) * cell + cell // 2, y)) == (0, 255, 0)
    # Cut lines run between counters.
    assert front.getpixel((left + cell, y)) != (255, 0, 0)


@pytest.mark.skipif(not (SHARED / "red-winter").is_dir(), reason="../shared/data/red-winter is not beside the repository")
def test_cli_grid_over_the_red_winter_map(tmp_path):
    code, _ = run(
        "art", "grid", str(REPO / "modules" / "red-winter" / "calibration.json"),
        "--image", str(SHARED / "red-winter" / "Red_Winter_Map-150.jpg"), "--out", str(tmp_path / "grid.png"),
    )
    assert code == 0 and Image.open(tmp_path / "grid.png").size == (1650, 2550)
    code, message = run(
        "art", "grid", str(REPO / "modules" / "red-winter" / "calibration.json"),
        "--image", str(SHARED / "red-winter" / "pac1.png"), "--out", str(tmp_path / "bad.png"),
    )
    assert code == 2 and "measured on" in message


# --- issue 18, item 8: turn pictures a new player can read ---------------------------------------------------
def test_a_violation_is_ringed_where_it_names_its_place():
    """A violation may name the hex where the rule was broken (a retreat into the wrong hex), generically."""
    import dataclasses

    module, result, _ = marks_of(sample("illegal-9.83-retreat-into-occupied-hex.json"))
    turn, _ = load_turn(sample("illegal-9.83-retreat-into-occupied-hex.json"))
    attacked, retreat = module.map.index("3005"), module.map.index("2906")
    assert [v.at for v in result.violations] == [retreat]  # the China War rules name the retreat hex (9.83)
    unplaced = [dataclasses.replace(v, at=None) for v in result.violations]
    unplaced_marks = turn_marks(turn, load_start_state(turn, module), unplaced, module.sides)
    marks = turn_marks(turn, load_start_state(turn, module), result.violations, module.sides)
    assert [m.location for m in unplaced_marks if isinstance(m, ViolationMark)] == [attacked]  # the action's own place
    assert [m.location for m in marks if isinstance(m, ViolationMark)] == [retreat]
    style = load_style(module.path)
    picture = map_picture(module.map, style, hex_size=30)
    image = overlay(picture, result.state, marks, style, legend=False)
    r = picture.radius * 2 * 0.6

    def ringed(location):
        x, y = picture.centers[location]
        return VIOLATION in [image.getpixel((round(x + dx), round(y))) for dx in range(round(-r) - 3, round(-r) + 4)]

    assert ringed(retreat) and not ringed(attacked)


def test_rules_name_a_violations_place_with_at():
    from pbem.rules.ruleset import illegal, mismatch, warning

    assert [f("9.83", "m", None, at=7).at for f in (illegal, mismatch, warning)] == [7, 7, 7]
    assert illegal("9.83", "m").at is None
    # Reports are unchanged: the place is for pictures.
    assert "at" not in illegal("9.83", "m", at=7).as_json()


def test_labels_keep_off_violation_rings_but_a_rings_own_label_may_touch_it():
    from PIL import ImageDraw

    from pbem.art.fonts import font
    from pbem.art.overlay import Labels

    image = Image.new("RGBA", (400, 300))
    draw = ImageDraw.Draw(image)
    ring = (160, 110, 240, 190)
    labels = Labels(image.size, [], rings=[ring])
    labels.place(draw, (200, 150), 30, "3:1  roll 6: -/1", font(12), fill=(200, 30, 30))
    labels.place(draw, (170, 150), -38, "1: 9.83", font(12), fill=(230, 0, 0), over_rings=True)
    attack, own = labels.boxes
    overlaps = lambda a, b: a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]  # noqa: E731
    assert not overlaps(attack, ring)
    assert overlaps(own, ring)


def test_legend_lines_are_wrapped_inside_the_picture():
    from pbem.art.fonts import font
    from pbem.art.overlay import _with_legend, wrap

    text_font = font(14)
    message = "PLA-INF-XX-1-01 retreats into occupied 2906 although an empty hex (3006) is open " * 3
    lines = wrap(f"1: 9.83 illegal: {message}", text_font, 300, indent="    ")
    assert len(lines) > 3 and all(text_font.getlength(line) <= 300 for line in lines)
    assert " ".join(line.strip() for line in lines) == f"1: 9.83 illegal: {message}".strip()
    assert all(line.startswith("    ") for line in lines[1:])
    assert wrap("x" * 200, text_font, 100) and all(text_font.getlength(line) <= 100 for line in wrap("x" * 200, text_font, 100))
    picture = Image.new("RGB", (320, 100), "white")
    marks = [ViolationMark(None, "9.83", 1, message, "illegal")]
    out = _with_legend(picture, marks, 14)
    legend = out.crop((0, 100, 320, out.height))
    assert legend.getbbox() is not None
    # Nothing red reaches the right edge: every line ends inside the picture.
    right = legend.crop((313, 0, 320, legend.height))
    assert set(right.tobytes()) == {255}


def test_hex_numbers_are_printed_above_the_counters():
    module, result, marks = marks_of(sample("illegal-9.83-retreat-into-occupied-hex.json"))
    style = load_style(module.path)
    picture = map_picture(module.map, style, hex_size=30)
    with_numbers = overlay(picture, result.state, [], style, legend=False)
    unit = picture.radius * 2
    counter_px = max(16, round(unit * 0.72))
    for location in sorted(result.state.stacks):
        x, y = picture.centers[location]
        height = len(result.state.units_at(location))
        top = y - counter_px / 2 - (height - 1) * max(2, counter_px // 8)
        band = with_numbers.crop((round(x - unit * 0.3), round(top - unit * 0.2), round(x + unit * 0.3), round(top - 2)))
        # The tag is white with the number in the map's label colour.
        data = band.convert("RGB").tobytes()
        colours = {tuple(data[k : k + 3]) for k in range(0, len(data), 3)}
        assert (255, 255, 255) in colours or any(min(c) > 235 for c in colours), module.map.labels[location]
        assert any(max(c) < 110 for c in colours), module.map.labels[location]


def test_turn_picture_counters_carry_their_designation():
    module, result, marks = marks_of(sample("illegal-9.83-retreat-into-occupied-hex.json"))
    style = load_style(module.path)
    picture = map_picture(module.map, style, hex_size=60)
    image = overlay(picture, result.state, [], style, legend=False)
    from pbem.art.counters import render_counter

    location = module.map.index("3106")
    (unit_state,) = result.state.units_at(location)
    unit = picture.radius * 2
    counter_px = max(16, round(unit * 0.72))
    x, y = picture.centers[location]
    left, top = round(x - counter_px / 2), round(y - counter_px / 2)
    drawn = image.crop((left, top, left + counter_px, top + counter_px))
    expected = render_counter(unit_state.unit.type, 0, style, counter_px, designation=style.designation_of(unit_state.id))
    plain = render_counter(unit_state.unit.type, 0, style, counter_px)
    # Compare the top-right corner (below the hex-number tag): it is the designated counter's.
    corner = (round(counter_px * 0.66), round(counter_px * 0.1), counter_px - 2, round(counter_px * 0.2))
    assert drawn.crop(corner).tobytes() == expected.crop(corner).tobytes() != plain.crop(corner).tobytes()


# --- issue 18, item 8: counter sheets in vector ------------------------------------------------------------
def pdf_streams(data: bytes) -> list[bytes]:
    """Every stream of a PDF, inflated where it is compressed."""
    import base64
    import re
    import zlib

    out = []
    for match in re.finditer(rb"<<(.*?)>>\s*stream\r?\n(.*?)endstream", data, re.S):
        header, body = match.group(1), match.group(2)
        if b"ASCII85Decode" in header:
            body = base64.a85decode(body.strip().removesuffix(b"~>"))
        out.append(zlib.decompress(body) if b"FlateDecode" in header else body)
    return out


def test_the_pdf_sheet_is_vector_shapes_and_text(tmp_path):
    code, output = run("art", "sheet", "china-war-1980", "--out", str(tmp_path / "sheet.pdf"))
    assert code == 0 and "199 counters on 2 pages" in output
    data = (tmp_path / "sheet.pdf").read_bytes()
    assert b"/Subtype /Image" not in data and b"/DCTDecode" not in data  # no picture, JPEG or otherwise
    assert b"/FontFile2" in data  # Vera embedded: the text is text
    streams = b"\n".join(pdf_streams(data))
    assert streams.count(b" re") > 400 and b" Tj" in streams  # rectangles (counters, frames) and strings
    assert len(data) < 400_000  # a picture of two letter pages at 300 dpi would be megabytes


def test_the_pdf_sheet_prints_what_the_pictures_show(tmp_path):
    """Rasterised, each counter of the vector sheet matches the picture of the same counter (and names its unit)."""
    pdfium = pytest.importorskip("pypdfium2", reason="rasterising the PDF needs pypdfium2")
    from pbem.art.counters import render_counter
    from pbem.art.sheets import SheetSpec, sheet_layout
    from pbem.model.module import load_module

    module = load_module("china-war-1980")
    style = load_style(module.path)
    units = list(module.units.values())
    assert run("art", "sheet", "china-war-1980", "--out", str(tmp_path / "sheet.pdf"), "--dpi", "150")[0] == 0
    document = pdfium.PdfDocument(str(tmp_path / "sheet.pdf"))
    layouts = sheet_layout(len(units), SheetSpec(dpi=150), module.name)
    assert len(document) == len(layouts)
    text = document[0].get_textpage().get_text_range()
    assert "1-04" in text and "10-16-3" in text
    for page_number in (0, 1):
        layout = layouts[page_number]
        page = document[page_number].render(scale=150 / 72).to_pil().convert("RGB")
        for n, x, y in layout.counters[::23]:
            cell = layout.cell
            drawn = page.crop((x + 2, y + 2, x + cell - 2, y + cell - 2)).resize((8, 8), Image.Resampling.BOX)
            unit = units[n]
            expected = render_counter(unit.type, layout.face, style, cell, designation=style.designation_of(unit.id))
            expected = expected.crop((2, 2, cell - 2, cell - 2)).resize((8, 8), Image.Resampling.BOX)
            difference = sum(abs(a - b) for a, b in zip(drawn.tobytes(), expected.tobytes())) / len(drawn.tobytes())
            assert difference < 12, (unit.id, layout.face, difference)


def test_a_red_winter_retreat_violation_is_ringed_on_the_retreat_hex():
    """RT-1 names the hex retreated into: the turn picture rings it there, not on the hex attacked."""
    path = REPO / "samples" / "red-winter" / "illegal-RT-1-retreat-into-zoc.json"
    module, result, marks = marks_of(path)
    assert [v.rule for v in result.violations] == ["RT-1", "RT-1"]  # two companies retreat O20 -> O19
    assert [module.map.labels[m.location] for m in marks if isinstance(m, ViolationMark)] == ["O19", "O19"]


def test_a_later_labels_leader_line_never_crosses_an_earlier_label():
    from PIL import ImageDraw

    from pbem.art.fonts import font
    from pbem.art.overlay import Labels

    def drawn(both: bool) -> tuple[Image.Image, tuple]:
        image = Image.new("RGBA", (300, 300))
        draw = ImageDraw.Draw(image)
        # Above and beside the point are taken: the second label goes further below, past the first.
        labels = Labels(image.size, [(0, 0, 300, 95), (0, 95, 120, 300), (180, 95, 300, 300)])
        labels.place(draw, (150, 100), 20, "first", font(12), fill=(200, 30, 30))
        if both:
            labels.place(draw, (150, 100), 20, "second", font(12), fill=(20, 60, 200))
            assert labels.boxes[1][1] > labels.boxes[0][3]  # it did land below the first
        labels.redraw(draw)
        return image, labels.boxes[0]

    alone, box = drawn(False)
    with_second, _ = drawn(True)
    area = tuple(round(v) for v in box)
    assert alone.crop(area).tobytes() == with_second.crop(area).tobytes()
