"""Build counters.json of No Retreat! from the counter mix UnitCounters.xml (facts only).

Each XML unit has two faces (``Side``), each with a name, a unit type, one combat strength and a movement
allowance. The front face is the full-strength face (German: the face without ``_h``; Soviet: the red
face, whose name is an army or front of 1943-45, the back being the brown face with an early-war front
name). A printed strength serves both attack and defence (the model's step has both).

Run: ``python modules/no-retreat/tools/build_counters.py [path/to/UnitCounters.xml]``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from lxml import etree

HERE = Path(__file__).resolve().parent
MODULE = HERE.parent
DEFAULT_SOURCE = MODULE.parents[2] / "shared" / "data" / "no-retreat" / "UnitCounters.xml"

SIDE = {"Germany": "axis", "USSR": "soviet"}
# The XML's unit types; "mechanized" is the TEC's first movement column (units showing the box symbol).
TYPES = {
    "Tank": ("armour", True),
    "SSTank": ("ss_armour", True),
    "Mechanized": ("mechanized", True),
    "SSMechanized": ("ss_mechanized", True),
    "Infantry": ("infantry", False),
    "Shock": ("shock", False),
    "Fortified": ("fortified", False),
    "Regional": ("regional", False),
}


def unit_id(side: str, name: str) -> str:
    prefix = "GE" if side == "axis" else "SU"
    return f"{prefix}-{re.sub(r'[^A-Za-z0-9]', '', name).upper()}"


def type_id(side: str, name: str) -> str:
    prefix = "ge" if side == "axis" else "su"
    return f"{prefix}_{re.sub(r'[^a-z0-9]', '', name.lower())}"


def build(source: Path) -> dict:
    parser = etree.XMLParser(resolve_entities=False, no_network=True)
    root = etree.parse(str(source), parser).getroot()
    counter_types: dict[str, dict] = {}
    units: list[dict] = []
    for element in root.iter("Unit"):
        side = SIDE[element.get("country")]
        faces = []
        for face in element.iter("Side"):
            strength = face.find("Strength")
            arm, mechanized = TYPES[face.get("type")]
            faces.append({
                "name": face.get("name"),
                "arm": arm,
                "mechanized": mechanized,
                "strength": int(strength.text),
                "zoc": strength.get("type") != "NoZOC",
                "move": int(face.find("Movement").text),
            })
        front = faces[0]
        nationality = "Finland" if front["name"].startswith("Finnish") else element.get("country")
        key = type_id(side, front["name"])
        counter_types[key] = {
            "name": f"{front['name']} / {faces[1]['name']}" if side == "soviet" else front["name"],
            "side": side,
            "nationality": nationality,
            "arm": front["arm"],
            "size": "none" if front["arm"] == "fortified" else ("XXXXX" if side == "soviet" else "XXXX"),
            "quality": None,
            "mechanized": front["mechanized"],
            "steps": [{"attack": f["strength"], "defence": f["strength"], "move": f["move"]} for f in faces],
            "retreats": front["arm"] != "fortified",
            "source": f"UnitCounters.xml unit {element.get('id')}",
            "note": "Both faces from the counter mix; one printed strength is both attack and defence.",
            "attributes": {"faces": faces, "xml_id": int(element.get("id"))},
        }
        units.append({"id": unit_id(side, front["name"]), "type": key, "name": front["name"]})
    return {
        "note": (
            "No Retreat! counters from UnitCounters.xml: 18 Axis (17 German, 1 Finnish) and 20 Soviet counters, both faces. "
            "Soviet counters: front = red face (full), back = brown face (the side Soviet units start on, 2.3). "
            "Per-face name, arm, strength, movement and ZOC ('NoZOC' in the XML: fortified units) are in attributes.faces. "
            "Sizes are the module author's: armies XXXX, Soviet fronts XXXXX, fortified units none. Axis-allied units "
            "(Romanian, Hungarian, Italian), cadres and markers are not in the sources."
        ),
        "supplied": {
            "size": "not printed in the sources' data; armies XXXX, fronts XXXXX, fortified none (module author)",
            "retreats": "fortified units (MA 0) are taken not to retreat (module author; the retreat rules 10.x are not in the sources)",
        },
        "counter_types": counter_types,
        "units": units,
    }


def main(argv: list[str]) -> int:
    source = Path(argv[1]) if len(argv) > 1 else DEFAULT_SOURCE
    result = build(source)
    (MODULE / "counters.json").write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"counters.json: {len(result['units'])} units")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
