"""Write the pictures of the module README into ``modules/paths-of-glory/docs/``: a counter-sheet excerpt, a map
excerpt (the Western Front with the August 1914 set-up) and a turn picture (the French retake Sedan).

Run from the repo root: ``python modules/paths-of-glory/tools/build_pictures.py``. The same ``pbem art`` drawing as
the commands (``pbem art sheet``, ``pbem art map --state``, ``pbem art turn``), cut to an excerpt and stored with a
reduced palette so that the three stay small.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from pbem.art.counters import render_counter
from pbem.art.maps import map_picture
from pbem.art.overlay import overlay, turn_marks
from pbem.art.style import load_style
from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.module import load_module
from pbem.model.state import State, load_state_document

REPO = Path(__file__).resolve().parents[3]
OUT = REPO / "modules" / "paths-of-glory" / "docs"
COUNTERS = (
    "GE-1-ARMY", "GE-8-ARMY", "GE-CORPS-01", "AH-4-ARMY", "AH-CORPS-01", "TU-YLD-ARMY", "TU-CORPS-01", "BU-CORPS-01",
    "FR-5-ARMY", "FR-CORPS-01", "BR-BEF-ARMY", "BR-BEF-CORPS", "BR-CND-CORPS", "BR-ANA-CORPS", "RU-1-ARMY", "RU-CAU-ARMY",
    "RU-CAV-CORPS-01", "IT-2-ARMY", "US-1-ARMY", "BE-1-ARMY", "SB-1-ARMY", "RO-CORPS-01", "GR-CORPS-01", "MN-CORPS",
)  # fmt: skip


def small(image: Image.Image, path: Path) -> None:
    image.convert("RGB").quantize(colors=96, dither=Image.Dither.NONE).save(path, optimize=True)
    print(f"{path.relative_to(REPO)}: {image.width} x {image.height}, {path.stat().st_size // 1024} KB")


def counters(module, style) -> Image.Image:
    """Fronts above backs, armies at 5/8" and corps at 1/2" as printed (2.2.1)."""
    cell = 64
    columns = 12
    rows = (len(COUNTERS) + columns - 1) // columns
    sheet = Image.new("RGB", (columns * (cell + 14) + 8, rows * 2 * (cell + 10) + 8), "white")
    for k, unit_id in enumerate(COUNTERS):
        unit = module.units[unit_id]
        px = round(cell * style.scale_of(unit.type) / 1.25)
        for face in (0, 1):
            image = render_counter(unit.type, face, style, px, designation=style.designation_of(unit_id))
            row, column = divmod(k, columns)
            x = 8 + column * (cell + 14) + (cell - px) // 2
            y = 8 + (row * 2 + face) * (cell + 10) + (cell - px)
            sheet.paste(image, (x, y))
    return sheet


def main() -> None:
    OUT.mkdir(exist_ok=True)
    module = load_module("paths-of-glory")
    style = load_style(module.path)
    small(counters(module, style), OUT / "counters.png")
    picture = map_picture(module.map, style)
    state = State.from_json(module, load_state_document(module.path / "scenarios" / "1914.json"))
    x0, y0 = picture.centers[module.map.index("Ostend")]
    x1, y1 = picture.centers[module.map.index("Nancy")]
    unit = picture.radius * 2
    west = overlay(picture, state, [], style).crop((round(x0 - unit), round(y0 - unit * 1.7), round(x1 + unit * 3), round(y1 + unit * 1.2)))
    small(west, OUT / "map-west-1914.png")
    turn, module = load_turn(REPO / "samples" / "paths-of-glory" / "legal-25-french-retake-sedan.json", module)
    result = replay(module, load_start_state(turn, module), turn)
    marks = turn_marks(turn, load_start_state(turn, module), result.violations, module.sides, style, result.events)
    small(overlay(picture, result.state, marks, style, crop=True), OUT / "turn-sedan.png")


if __name__ == "__main__":
    main()
