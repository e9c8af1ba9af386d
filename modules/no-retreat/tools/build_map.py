"""Build map.json of No Retreat! from the map data Hexes.xml (facts only; the XML is never copied).

Hexes.xml gives each hex as (row, column) in axial coordinates of a pointy-topped grid: a hex's pixel
centre on Map.jpg is about ``x = 160 * column + 80 * row``, ``y = 137 * row`` (see calibration.json).
Rivers and blocked hexsides are listed per hex as a direction ``drow,dcolumn``.

The map prints no hex numbers, so the module numbers hexes by a documented convention (README):
printed rows 1-22 top to bottom (``R = row + 11``), columns 1-24 left to right by the hex's horizontal
position (``C = (2 * column + row + 25) // 2``), labels ``CCRR``; odd rows sit half a hex to the right.

Run: ``python modules/no-retreat/tools/build_map.py [path/to/Hexes.xml]`` (default ../shared/data/...).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from lxml import etree

HERE = Path(__file__).resolve().parent
MODULE = HERE.parent
DEFAULT_SOURCE = MODULE.parents[2] / "shared" / "data" / "no-retreat" / "Hexes.xml"

ROWS, COLUMNS = 22, 24

TERRAIN = {"Open": "open", "Forest": "forest", "Mountain": "mountain", "Marsh": "marsh", "Area": "area", "KerchStrait": "kerch_strait"}
LEGEND = {".": None, "o": "open", "f": "forest", "m": "mountain", "w": "marsh", "c": "city", "a": "area", "k": "kerch_strait"}

# City hexes: the XML's Russian type name -> the name the map prints (read off Map.jpg).
CITIES = {
    "Ленинград": "Leningrad", "Берлин": "Berlin", "Рига": "Riga", "Познань": "Posen", "Кёнигсберг": "Königsberg",
    "Прага": "Prague", "Бреслау": "Breslau", "Варшава": "Warsaw", "Калинин": "Kalinin", "Минск": "Minsk",
    "Ярославль": "Yaroslavl", "Смоленск": "Smolensk", "Москва": "Moscow", "Вена": "Vienna", "Тула": "Tula",
    "Люблин": "Lublin", "Горький": "Gorki", "Киев": "Kiev", "Будапешт": "Budapest", "Воронеж": "Voronezh",
    "Харьков": "Kharkov", "Белград": "Belgrade", "Саратов": "Saratov", "Одесса": "Odessa",
    "Днепропетровск": "Dnepropetrovsk", "Сталино": "Stalino", "Бухарест": "Bucharest", "Ростов": "Rostov",
    "Сталинград": "Stalingrad", "Севастополь": "Sevastopol", "Новороссийск": "Novorossiysk", "Астрахань": "Astrakhan",
}

# The three "Area" hexes, named by the label the map prints in them (checked by eye, tools/eye_checks.json).
AREAS = {"1901": "Finland", "0214": "West Balkans", "0416": "South Balkans"}

# Map edges: the XML's mapEdge value -> the side whose friendly map edge it is (6.1: Axis west, Soviet east/south).
EDGE_SIDE = {"Germany": "axis", "USSR": "soviet"}

SEAS = {"Baltic": "baltic", "Black": "black", "Adriatic": "adriatic", "Caspian": "caspian"}

# Hexes the XML does not mark, read off Map.jpg by eye (crops listed in tools/eye_checks.json).
# Outlines: the TEC's objective icon is a city hex outlined in red; the map outlines 4 hexes in red and 5 in
# dark green (what green means is not in the sources). Oil fields: the two "Oil Fields" hexes of 5.2.
BY_EYE: dict[str, dict] = {
    "0503": {"features": ["outline_red"]},
    "1104": {"features": ["outline_red"]},
    "0406": {"features": ["outline_red"]},
    "0309": {"features": ["outline_red"]},
    "2008": {"features": ["outline_green"]},
    "1902": {"features": ["outline_green"]},
    "2117": {"features": ["outline_green"]},
    "1318": {"features": ["outline_green"]},
    "2022": {"features": ["outline_green", "oil_field"], "name": "Caucasus oil fields"},
    "0816": {"features": ["oil_field"], "name": "Romanian oil fields"},
}

# Hexsides the XML lists from one hex only: the verdict read off Map.jpg (tools/eye_checks.json).
ONE_SIDED = {
    ("0505", "0605", "river"): True,  # the Oder runs along it
    ("0605", "0606", "river"): True,  # the Oder runs along it
    ("0904", "1004", "river"): False,  # Baltic coast, no river drawn
    ("2115", "2215", "river"): False,  # no river drawn; the Volga runs further east
}

# Blocked hexsides that lie on a lake (the TEC's lake hexside); the other blocked ones cross sea water
# between two coastal hexes (Dnieper estuary, Sea of Azov), which the TEC does not list.
LAKES = {("1503", "1603"), ("1602", "1603"), ("2103", "2203"), ("2106", "2206"), ("2107", "2206"), ("0410", "0411")}


def label(column: int, row: int) -> str:
    """Printed label of the XML's (column, row)."""
    return f"{(2 * column + row + 25) // 2:02d}{row + 11:02d}"


def read(source: Path) -> dict:
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    root = etree.parse(str(source), parser).getroot()
    hexes: dict[str, dict] = {}
    listed: dict[tuple[str, str, str], set[str]] = {}
    positions: dict[str, tuple[int, int]] = {}
    for row_element in root.iter("row"):
        row = int(row_element.get("value"))
        for hex_element in row_element.iter("hex"):
            column = int(hex_element.get("column"))
            here = label(column, row)
            positions[here] = (column, row)
            kind = hex_element.get("type")
            entry: dict = {}
            if kind in CITIES:
                entry["terrain"], entry["name"], entry["city"], entry["features"] = "city", CITIES[kind], CITIES[kind], ["city"]
            else:
                entry["terrain"] = TERRAIN[kind]
            if here in AREAS:
                entry["name"] = AREAS[here]
            if hex_element.get("sea"):
                entry["sea"] = SEAS[hex_element.get("sea")]
            if hex_element.get("mapEdge"):
                entry["supply"] = EDGE_SIDE[hex_element.get("mapEdge")]
                entry["features"] = entry.get("features", []) + ["map_edge"]
            hexes[here] = entry
            for tag in ("river", "blocked"):
                for item in hex_element.iter(tag):
                    drow, dcolumn = (int(v) for v in item.text.split(","))
                    other = label(column + dcolumn, row + drow)
                    listed.setdefault((*sorted((here, other)), tag), set()).add(here)
    sides: dict[tuple[str, str], set[str]] = {}
    for (a, b, tag), by in listed.items():
        if len(by) == 1 and a in hexes and b in hexes and not ONE_SIDED[(a, b, tag)]:
            continue
        features = sides.setdefault((a, b), set())
        features.add(tag)
        if tag == "blocked" and (a, b) in LAKES:
            features.add("lake")
    return {"hexes": hexes, "sides": sides, "positions": positions}


def build(source: Path) -> dict:
    data = read(source)
    hexes, sides = data["hexes"], data["sides"]
    for here, extra in BY_EYE.items():
        entry = hexes[here]
        entry["features"] = sorted(set(entry.get("features", [])) | set(extra.get("features", [])))
        for key, value in extra.items():
            if key != "features":
                entry[key] = value
    code = {v: k for k, v in LEGEND.items() if v}
    rows, absent = [], []
    for r in range(1, ROWS + 1):
        text = ""
        for c in range(1, COLUMNS + 1):
            here = f"{c:02d}{r:02d}"
            if here in hexes:
                text += code[hexes[here]["terrain"]]
            else:
                text += "."
                absent.append(here)
        rows.append(text)
    locations = {}
    for here in sorted(hexes):
        entry = {k: v for k, v in hexes[here].items() if k != "terrain"}
        if entry:
            locations[here] = entry
    hexsides = [
        {"hexes": list(pair), "features": sorted(features)}
        for pair, features in sorted(sides.items())
        if pair[0] in hexes and pair[1] in hexes
    ]
    return {
        "$schema": "../../schemas/map.schema.json",
        "id": "no-retreat",
        "kind": "hex",
        "note": (
            "No Retreat! The Russian Front (GMT 2011) map, built by tools/build_map.py from the map data Hexes.xml "
            "(terrain, cities, rivers, blocked hexsides, seas, map edges). The map prints no hex numbers: labels are "
            "this module's convention CCRR, rows 01-22 top to bottom, columns 01-24 left to right, odd rows half a "
            "hex to the right (README). Hexside features: 'river', 'blocked' (the XML's blocked hexsides: no crossing), "
            "'lake' (a blocked hexside on a lake, the TEC's lake hexside; the other blocked ones cross sea water). "
            "'sea' names the sea a coastal hex touches; 'supply' with feature 'map_edge' marks a side's friendly map "
            "edge hex (Axis west, Soviet east and south). Read by eye on Map.jpg (tools/eye_checks.json): 'oil_field' (the "
            "two Oil Fields hexes of 5.2), 'outline_red' (the TEC's objective hex outline) and 'outline_green' (a dark "
            "green outline the sources do not explain)."
        ),
        "default_terrain": "open",
        "grid": {
            "label": "CCRR",
            "orientation": "pointy",
            "shifted": "odd",
            "first_column": 1,
            "columns": COLUMNS,
            "first_row": 1,
            "rows": ROWS,
        },
        "absent": absent,
        "layers": {"terrain": {"legend": LEGEND, "rows": rows}},
        "hexes": locations,
        "hexsides": hexsides,
    }


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    result = build(source)
    (MODULE / "map.json").write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"map.json: {sum(len(r) - r.count('.') for r in result['layers']['terrain']['rows'])} hexes, "
          f"{len(result['hexsides'])} hexsides")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
