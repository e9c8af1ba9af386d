"""Build ``map.json`` from the Rally the Troops CSVs and the VASSAL module's named regions.

Run from the repo root: ``python modules/paths-of-glory/tools/build_map.py [SHARED]`` (SHARED defaults to
``../shared``). Facts only: space names, nation, side, terrain, fort, VP, ports, capitals and supply sources
come from ``data/paths-of-glory/rtt/spaces.csv``; connections and their nation restrictions from
``edges.csv``; every space's position is the origin of the region of the same name on the VASSAL module's
*Classic Map* board (the board the Classic 1914 save uses), so pictures and VASSAL saves agree.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from lxml import etree

REGION = "VASSAL.build.module.map.boardPicker.board.Region"
BOARD = "VASSAL.build.module.map.boardPicker.Board"
CLASSIC = "Classic Map"

# Capitals by nation (LR2022 3.0). The CSV flags some; Brussels is a capital in the rules but not flagged.
CAPITALS = {
    "Vienna": "AH", "Budapest": "AH", "Brussels": "BE", "London": "BR", "Sofia": "BU", "Paris": "FR",
    "Berlin": "GE", "Athens": "GR", "Rome": "IT", "Cetinje": "MN", "Bucharest": "RO", "Belgrade": "SB",
    "Constantinople": "TU",
}  # fmt: skip

# Supply sources (14.2): which nations' units may trace to each. The CSV flags the spaces; the rules say whose.
CP_SOURCES = {"Essen", "Breslau", "Sofia", "Constantinople"}
RUSSIAN_SOURCES = {"Petrograd", "Moscow", "Kharkov", "Caucasus", "Belgrade"}

TERRAINS = {"": "clear", "forest": "forest", "mountain": "mountain", "swamp": "swamp", "desert": "desert"}


def classic_regions(build_file: Path) -> dict[str, tuple[int, int]]:
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    tree = etree.parse(str(build_file), parser)
    for board in tree.iter(BOARD):
        if board.get("name") == CLASSIC:
            return {r.get("name"): (int(r.get("originx")), int(r.get("originy"))) for r in board.iter(REGION)}
    raise SystemExit(f"{build_file}: no board named {CLASSIC!r}")


def build(shared: Path) -> dict:
    data = shared / "data" / "paths-of-glory"
    rows = list(csv.DictReader((data / "rtt" / "spaces.csv").open(encoding="utf-8")))
    regions = classic_regions(data / "vassal" / "buildFile.xml")
    by_id: dict[str, str] = {}
    spaces: dict[str, dict] = {}
    for row in rows:
        if row["map"] not in ("europe", "neareast"):
            continue  # the four boxes: module.json lists the off-map boxes
        name = row["name"]
        by_id[row["id"]] = name
        entry: dict = {"terrain": TERRAINS[row["terrain"]], "country": row["nation"].upper(), "side": row["faction"]}
        features = []
        if row["vp"]:
            features.append("vp")
        if row["fort"]:
            entry["fort"] = int(row["fort"])
            features.append("fort")
        if row["apport"]:
            features.append("port")
            entry["port"] = "ap"
        if row["cpport"]:
            features.append("port")
            entry["port"] = "cp"
        if name in CAPITALS:
            features.append("capital")
            entry["capital_of"] = CAPITALS[name]
        if row["supply"]:
            features.append("supply_source")
            entry["supply"] = "cp" if name in CP_SOURCES else "ap"
            # 14.2.2: Russian sources and Belgrade serve RU, SB and RO units; London every other Allied unit.
            entry["supply_for"] = ["RU", "RO", "SB"] if name in RUSSIAN_SOURCES else ["*"]
        if name.startswith("MEF"):
            features.append("mef_landing")
        if row["map"] == "neareast" or name in ("Constantinople", "Bursa"):
            features.append("near_east")
        entry["sheet"] = row["map"]
        if features:
            entry["features"] = sorted(set(features))
        if name in regions:
            entry["xy"] = list(regions[name])
        spaces[name] = entry
    connections = []
    for row in csv.DictReader((data / "rtt" / "edges.csv").open(encoding="utf-8")):
        connection: dict = {"between": [by_id[row["a"]], by_id[row["b"]]]}
        if row["nations"]:
            connection["nationalities"] = sorted(n.upper() for n in row["nations"].split("|"))
        connections.append(connection)
    return {
        "$schema": "../../schemas/map.schema.json",
        "id": "paths-of-glory",
        "kind": "points",
        "note": (
            "Both sheets of the Paths of Glory map (Europe and Near East) as one point-to-point map. Spaces, nation "
            "(country), starting side, terrain, forts (LF = CF), VP spaces (the Deluxe/historical set), ports "
            "(AP or CP), supply sources and connections (nation-restricted ones list their nationalities) from "
            "Rally the Troops' spaces.csv and edges.csv; capitals from LR2022 3.0; positions (xy) are the region "
            "origins of the VASSAL module 10.8 Classic Map board. Connection nationality MEF: only through an "
            "MEF beach-head (11.1.10); ANA: Arab Northern Army only. Built by tools/build_map.py."
        ),
        "default_terrain": "clear",
        "spaces": spaces,
        "connections": connections,
    }


def main() -> None:
    shared = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("../shared")
    out = Path(__file__).resolve().parents[1] / "map.json"
    out.write_text(json.dumps(build(shared), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
