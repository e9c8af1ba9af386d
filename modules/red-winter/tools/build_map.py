"""Build ``map.json`` from the terrain proposal and the eye-judged corrections below.

Run from the repo root: ``python modules/red-winter/tools/build_map.py PROPOSAL.json``, where PROPOSAL is
the output of ``propose_terrain.py`` (colour sampling of the 150 dpi map image, see README). Every hex the
sampler flagged as doubtful was looked at on a crop of the image; ``BY_EYE`` holds the verdicts that differ
from the sampler's proposal. Roads, trails and bridges were traced by eye on crops of the image.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWX"
CODES = {"f": "forest", "s": "suo", "l": "frozen_lake", "v": "village"}

# Verdicts by eye where the sampler's proposal was wrong (labels, roads or small lakes confused it).
BY_EYE = {
    "A6": "s", "A7": "s", "B7": "s", "A13": "s", "B4": "l", "C4": "l", "H7": "l", "H18": "v", "H23": "l",
    "H24": "l", "I7": "s", "I19": "v", "K1": "s", "L2": "s", "N7": "s", "O19": "s", "Q18": "s", "R8": "s",
    "R20": "l", "S7": "s", "X1": "s",
}  # fmt: skip

MAIN_ROAD = "A13 B13 C13 D13 E13 F14 F15 F16 F17 F18 G18 H19 I18 I17 I16 J16 K15 L16 M16 N17 N18 O18 O19 O20 O21 O22 O23 P24 P25 Q25 Q26 R27 S27 T28 U27 V28 W27 X28"
PRIMARY_ROADS = [
    ("north road to the 718th entry hex", "I1 J1 K1 L1 M1 N1 O1 P1 Q1 R1 S1 T1 U1 V1 W1 X1"),
    ("Hirvasvaara road", "O18 P18 P17 Q16 R16 S15 T15 T14 T13 T12 S11"),
]
TRAILS = [
    "C5 D6 E6 E7 E8 F9 G9 G10 G11 G12 F13 F14",
    "A7 B8 C8 C9 D10 D11 D12 D13",
    "F14 G14 H15 I15 J16",
    "I15 I14 I13 J13 K12 L12 M11 M10 M9 M8 M7",
    "M11 N12 N13 N14 N15 N16 M16",
    "J1 J2 K2 K3 L4 L5 L6 L7 M7",
    "H2 I1 J1",
]
BRIDGES = [("J16", "K15", "Hevossalmi bridge"), ("O21", "O22", "Kivisalmi bridge")]


def main(proposal_path: str) -> None:
    proposal = json.loads(Path(proposal_path).read_text())["terrain"]
    rows = []
    for r in range(1, 32):
        line = ""
        for c, letter in enumerate(LETTERS, start=1):
            label = f"{letter}{r}"
            if r == 31 and c % 2 == 1:
                line += "f"  # low columns (A, C, ...) have no row 31: listed in "absent", the cell is skipped
                continue
            line += BY_EYE.get(label, proposal[label])
        rows.append(line)
    hexsides = []
    for route in TRAILS:
        labels = route.split()
        hexsides += [{"hexes": [a, b], "features": ["trail"]} for a, b in zip(labels, labels[1:])]
    hexsides += [{"hexes": [a, b], "features": ["bridge"]} for a, b, _ in BRIDGES]
    data = {
        "$schema": "../../schemas/map.schema.json",
        "id": "red-winter",
        "kind": "hex",
        "note": (
            "The Red Winter map (GMT 2012) at hex resolution, read from the 150 dpi scan Red_Winter_Map-150.jpg: "
            "terrain proposed by colour sampling and checked by eye (see README), roads and trails traced by eye. "
            "Low columns (A, C, ... W) have no row 31: those positions are listed in 'absent' (not hexes). Trails are roads "
            "whose hexside also carries the feature 'trail' (secondary roads); bridges are hexside features."
        ),
        "default_terrain": "forest",
        "grid": {"label": "letter-number", "orientation": "flat", "shifted": "odd", "first_column": 1, "columns": 24, "first_row": 1, "rows": 31},
        "absent": [f"{LETTERS[c]}31" for c in range(0, 24, 2)],
        "layers": {"terrain": {"legend": CODES, "rows": rows}},
        "hexes": {
            "A13": {"supply": "finnish", "features": ["supply_source"], "name": "Finnish supply source"},
            "X28": {"supply": "soviet", "features": ["supply_source"], "name": "Soviet supply source"},
            "X1": {"features": ["reinforcement_entry"], "name": "718th Regiment entry hex"},
            "M16": {"features": ["hotel"], "name": "Hotel"},
            "E13": {"name": "Lutikkamökki"},
            "H20": {"name": "Tolvajärvi"},
            "J16": {"name": "Hevossalmi (bridge)"},
            "N22": {"name": "Kivisalmi (bridge)"},
            "S11": {"name": "Hirvasvaara"},
            "O1": {"name": "Tuninenselkä"},
        },
        "hexsides": hexsides,
        "roads": [{"name": "main road A13-X28", "hexes": MAIN_ROAD.split()}]
        + [{"name": name, "hexes": route.split()} for name, route in PRIMARY_ROADS]
        + [{"name": f"trail {n + 1}", "hexes": route.split()} for n, route in enumerate(TRAILS)],
    }
    text = json.dumps(data, ensure_ascii=False, indent=1)
    Path(__file__).resolve().parents[1].joinpath("map.json").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1])
