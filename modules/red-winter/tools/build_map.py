"""Build ``map.json`` from the terrain proposal and the eye-judged corrections below.

Run from the repo root: ``python modules/red-winter/tools/build_map.py [PROPOSAL.json]``, where PROPOSAL is
the terrain proposal (colour sampling of the 150 dpi map image, see README); without it the terrain rows of
the current map.json are kept and only the hexes, roads and hexsides are rewritten. Every hex the sampler
flagged as doubtful was looked at on a crop of the image; ``BY_EYE`` holds the verdicts that differ from the
sampler's proposal.

Roads: the main and the Hirvasvaara (primary, grey) roads were traced by eye. The secondary (brown) roads,
``TRAILS``, were proposed by ``propose_roads.py`` -- every hexside of the grid is sampled on a mask of the
map's road-brown pixels, and a hexside the brown line crosses joins its two hexes -- and every proposed and
every missing crossing was then judged by eye on enlarged crops of the scan with the grid drawn over it
(``pbem art grid``); ``REJECTED`` and ``ADDED`` record where the eye overruled the proposal. Bridges were read
by eye.
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
    "H24": "l", "I7": "s", "K1": "s", "L2": "s", "N7": "s", "O19": "s", "Q18": "s", "R8": "s",
    "R20": "l", "S7": "s", "X1": "s",
}  # fmt: skip
# Issue 13's audit (a player checking every hex against the scan), confirmed on the contact sheets of
# contact_sheets.py: the sampler read roads, trails and printed names over olive bog as forest ...
AUDIT_SUO = "B14 B21 B22 C9 C13 D10 D14 D20 D21 E19 F9 F23 G12 J1 J14 K12 L1 L7 M7 N1 N2 O6 P18 P19 Q5 Q26 R18 T28 U27 V5 W4 X12"
# ... and took hexes whose centre is frozen lake (lake names, island edges) for forest. I19 carries the
# "Tolvajärvi" name over the ice shore and no roof: frozen lake, not village.
AUDIT_LAKE = "P5 U29 V29 A16 K11 K16 L23 I24 I19"
# Disagreements found on the contact sheets (second method, see tools/README.md), judged on the crops.
BY_SHEET = {"O18": "s", "V31": "l"}  # O18: olive bog round the road junction; V31: the centre is on the ice
BY_EYE.update({label: "s" for label in AUDIT_SUO.split()})
BY_EYE.update({label: "l" for label in AUDIT_LAKE.split()})
BY_EYE.update(BY_SHEET)

MAIN_ROAD = "A13 B13 C13 D13 E13 F14 F15 F16 F17 F18 G18 H19 I18 I17 I16 J16 K15 L16 M16 N17 N18 O18 O19 O20 O21 O22 O23 P24 P25 Q25 Q26 R27 S27 T28 U27 V28 W27 X28"
# The only other grey (primary) road on the map: the key distinguishes main (grey, black edges), primary (dark
# grey) and secondary roads (brown); all cost 0.5 MP, but armour pays the trail rate on secondary roads (MV-11).
PRIMARY_ROADS = [
    ("Hirvasvaara road", "O18 P18 P17 Q16 R16 S15 T15 T14 T13 T12 S11"),
]
# Every brown (secondary) road, as routes of hexes whose shared hexsides the road crosses. Proposed by
# tools/propose_roads.py (brown-pixel mask sampled along every hexside), then checked hexside by hexside on
# enlarged crops of the scan with the grid drawn over it: see REJECTED and ADDED below and the README.
TRAILS = [
    # north: the road along row 1 from H2 to S1, then down to W2; X1 (the 718th's entry) joins it at W1-W2
    "H2 I1 J1 K1 L1 M1 N1 O1 P1 Q1 R1 S1 T2 U2 V2 W2",
    "X1 W1 W2",
    "J1 J2 K2 K3 L4 L5 L6 L7 M7",
    "O1 P2 P3",
    "M7 N7 O6 P6 Q5 Q4 P4 P3",
    "P3 Q2 R3 S3 S4 S5 T6 T7 T8 T9 T10 S10 S11",
    "W2 W3 W4 V5 V6 V7 V8 V9 V10 V11 V12",
    "T12 U12 V12 W12 X12",
    # west and centre
    "C5 D6 E6 E7 E8 F9 G9 G10 G11 G12 F13 F14",
    "A7 B8 C8 C9 D10 D11 D12 D13",
    "F14 G14 H15 I15 J16",
    "I15 I14 I13 J13 K12 L12 M11",
    "M7 M8 M9 M10 M11",
    "M11 N12 N13 N14 N15 N16 M16",
    # Tolvajärvi village and Varisvaara (south-west)
    "G18 G19",
    "H19 H20 H21 G21 F21",
    "G19 H20",
    "G19 F19 E19 D20 C20 B21 A21",
    "C20 D21 E20 F21",
    "G19 F20 F21 F22 F23 F24 F25 E25 E26 F27 F28 G28 G29 G30 H31",
    "F22 G22 F23",
    "A20 A21 A22 A23",
    # Saarela island (a dead end on the ice)
    "K20 K21 K22 K23",
    # south of the main road: from O19 east round Taivaljärvi by Taipaleenvaara back to the main road at P24
    "O19 P19 Q18 R18 S18 S19 T20 T21 T22 T23 S23 R24 Q23 P24",
]
# The proposal's hexsides that are not roads (brown map lettering, roofs, the 718th's circled route numbers,
# brownish bog texture, a road running along a hexside or through a vertex), and the crossings it missed.
REJECTED = (
    "N2-O1 R12-S11 T22-U22 A21-B22 I19-J19 J20-K20 D14-E13 "  # place names printed in brown
    "V4-W3 H18-I17 G19-H19 "  # a circled route number, village roofs
    "X8-X9 U14-V15 U15-V15 O18-P18 P18-Q17 Q17-R17 R17-R18 N25-N26 D10-E10 E11-F11 B15-C15 "  # bog texture, specks
    "G20-H20 G20-H21 F19-G18 I16-I17"  # along a hexside / through a vertex / the grey main road's edge
).split()
ADDED = ["H20-H21", "F23-F24"]  # the brown line is faint or crosses at a vertex; the route plainly continues
BRIDGES = [("J16", "K15", "Hevossalmi bridge"), ("O21", "O22", "Kivisalmi bridge")]


def main(proposal_path: str | None) -> None:
    """Write map.json; without a terrain proposal the terrain rows of the current map.json are kept."""
    target = Path(__file__).resolve().parents[1] / "map.json"
    if proposal_path is None:
        old_rows = json.loads(target.read_text(encoding="utf-8"))["layers"]["terrain"]["rows"]
        proposal = {f"{letter}{r}": old_rows[r - 1][c] for r in range(1, 32) for c, letter in enumerate(LETTERS)}
    else:
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
    traced = {frozenset(pair) for route in TRAILS for pair in zip(route.split(), route.split()[1:])}
    assert not traced & {frozenset(p.split("-")) for p in REJECTED}, "a rejected hexside is traced"
    assert {frozenset(p.split("-")) for p in ADDED} <= traced, "an added hexside is not traced"
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
            "terrain proposed by colour sampling and checked by eye, then every hex checked again on contact sheets (see README and tools/README.md), roads and trails traced by eye. "
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
            "O22": {"name": "Kivisalmi (bridge)"},  # the bridge is the O21-O22 hexside; the name is printed on N22/O22
            "S11": {"name": "Hirvasvaara"},
            "O1": {"name": "Tuninenselkä"},
        },
        "hexsides": hexsides,
        "roads": [{"name": "main road A13-X28", "hexes": MAIN_ROAD.split()}]
        + [{"name": name, "hexes": route.split()} for name, route in PRIMARY_ROADS]
        + [{"name": f"trail {n + 1}", "hexes": route.split()} for n, route in enumerate(TRAILS)],
    }
    text = json.dumps(data, ensure_ascii=False, indent=1)
    target.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
