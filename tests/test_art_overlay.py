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
