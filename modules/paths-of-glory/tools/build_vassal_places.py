"""Write the ``places`` of ``vassal.json``: every named place of the VASSAL module's Classic Map (and of its Deluxe
Historical Map, under ``boards``), in map pixels.

Run from the repo root with the module's buildFile: ``python modules/paths-of-glory/tools/build_vassal_places.py
../shared/data/paths-of-glory/vassal/buildFile.xml``. Each region origin of the board's zones is named as VASSAL
names that point (so a piece standing there is read back to the same name), and each deck by its position.
With these facts in the module, saves and logs are read without the VASSAL module at hand.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

MODULE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(MODULE.parents[1]))
BOARD = "Classic Map"
MAP = "Map"
# The module's other board for the game map, and the scenario a game on it starts from (its VP spaces).
OTHER_BOARDS = {"Deluxe Historical Map": "1914-historical"}


def _regions(map_def, board_name: str) -> list[list]:
    """Every region origin of the board's zones, in map pixels, named as VASSAL names that point."""
    from pbem.formats.vassal.commands import BoardLayout as Layout
    from pbem.formats.vassal.layout import map_layout

    layout = map_layout(map_def, Layout(MAP, ((board_name, False, 0, 0),)))
    board = layout.boards[0]
    assert board.board.name == board_name, board_name
    out: list[list] = []
    for zone in board.board.grid.zones:
        grid = zone.grid
        for region in getattr(grid, "regions", ()):
            x, y = board.x + region.x, board.y + region.y
            name = layout.location_name(x, y)
            if [name, x, y] not in out:
                out.append([name, x, y])
    return out


def places(build_file: Path) -> dict:
    from pbem.formats.vassal.modulefile import open_module

    module = open_module(build_file).module
    map_def = module.map(MAP)
    decks = {name: [x + map_def.edge_width, y + map_def.edge_height] for name, x, y, _ in map_def.decks}
    dice = {d.name: d.report_format for d in module.dice}
    boards = {name: {"regions": _regions(map_def, name), "status_from": scenario} for name, scenario in OTHER_BOARDS.items()}
    return {"map": MAP, "board": BOARD, "regions": _regions(map_def, BOARD), "decks": decks, "dice_reports": dice, "boards": boards}


def main() -> None:
    path = MODULE / "vassal.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["places"] = places(Path(sys.argv[1]))
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {path}: {len(data['places']['regions'])} regions, {len(data['places']['decks'])} decks")


if __name__ == "__main__":
    main()
