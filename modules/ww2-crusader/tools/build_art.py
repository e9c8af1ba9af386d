"""Build ``modules/ww2-crusader/art.json`` (counter and map style) from ``counters.json``.

Run from the repo root after ``build_counters.py``: ``python modules/ww2-crusader/tools/build_art.py``
(``--check``: exit 1 when the file differs from a rebuild).

The source asks for German-style recognition symbols for the Axis and NATO symbols for the Allies (digest §5), and
for the establishment bar on the counter: ③ none, ② black, ① white (W-State/1). Axis counter types get German-style
icons (pbem.art.symbols: the Panzerraute, the flag on a staff, wheels for motorised troops) through ``types``;
Allied types keep NATO's from their arm. Colours are supplied (the source prints no counter): field grey for
Germans, Italian grey-green, desert khaki for the British and shades of it for the Commonwealth.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

MODULE = Path(__file__).resolve().parents[1]

GERMAN_STYLE = {
    "armour": ["de_panzer"],
    "infantry": ["de_infantry"],
    "motorized_infantry": ["de_infantry", "de_motorized"],
}
LIGHT_DIVISION = ["de_infantry", "de_motorized", "de_light"]  # 5. leichte: a tank regiment with motorised troops

NATIONALITIES = {
    "DE": {"background": "#a3aa96", "text": "#1b1b1b", "symbol": "#c9cebd", "line": "#1b1b1b"},
    "IT": {"background": "#9fb27e", "text": "#1b1b1b", "symbol": "#c8d4b0", "line": "#1b1b1b"},
    "UK": {"background": "#dcc48e", "text": "#1b1b1b", "symbol": "#f1e3bd", "line": "#1b1b1b"},
    "AUS": {"background": "#c9a76a", "text": "#1b1b1b", "symbol": "#ead6ad", "line": "#1b1b1b"},
    "IND": {"background": "#e3b07a", "text": "#1b1b1b", "symbol": "#f4d7b5", "line": "#1b1b1b"},
    "NZ": {"background": "#bfc39a", "text": "#1b1b1b", "symbol": "#e0e2c6", "line": "#1b1b1b"},
    "SA": {"background": "#d4b780", "text": "#1b1b1b", "symbol": "#eedcb6", "line": "#1b1b1b"},
    "PL": {"background": "#c3c2d6", "text": "#1b1b1b", "symbol": "#e3e2ee", "line": "#1b1b1b"},
}


def build() -> dict:
    counters = json.loads((MODULE / "counters.json").read_text(encoding="utf-8"))
    types = {}
    for tid, t in counters["counter_types"].items():
        if t["side"] != "axis":
            continue
        icons = LIGHT_DIVISION if tid.startswith("de_5lei") else GERMAN_STYLE[t["arm"]]
        types[tid] = {"icons": icons}
    return {
        "note": (
            "WWII Campaign Edition, Crusader (supplied style: the source prints no counter). Axis units carry "
            "German-style signs after the Wehrmacht's taktische Zeichen (Panzerraute for armour, flag on a staff for "
            "infantry, wheels for motorised troops, a small Raute in the flag for a light division), without the NATO "
            "frame; Allied units carry NATO symbols. The bar across the top is the establishment state (W-State/1): "
            "none on ③ (front), black on ②, white on ①. Values are attack-defence-base MP of the state. The map: "
            "desert sand, the Mediterranean blue, towns, the Halfaya mountain hexes, escarpments hachured brown, the "
            "Egypt-Libya border dashed."
        ),
        "values": "{attack}-{defence}-{move}",
        "designation": "^[A-Z]+-([0-9A-Z]+)",
        "export_designations": True,  # the VASSAL export prints each unit's number: many counters differ by it alone
        "bars": {"attribute": "bars", "colours": {"black": "#111111", "white": "#ffffff"}},
        "nationalities": NATIONALITIES,
        "types": types,
        "terrain": {"plain": "#ecd9a4", "sea": "#8cbce8", "town": "#cfae96", "mountain": "#a88152"},
        "sides": {"axis": "Axis", "allied": "Allied"},
    }


def main(argv: list[str]) -> int:
    text = json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
    target = MODULE / "art.json"
    if "--check" in argv:
        same = target.exists() and target.read_text(encoding="utf-8") == text
        print("art.json is up to date" if same else "art.json differs from a rebuild")
        return 0 if same else 1
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
