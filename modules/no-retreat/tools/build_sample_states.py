"""Write the start states of the No Retreat! samples (samples/no-retreat/state-*.json).

The sources give no scenario set-up, so these states are ILLUSTRATIVE: a few counters placed by the
module author around Minsk and Lake Peipus to exercise the rules, never a published set-up. Each state
differs only in its turn (and so in weather, initiative and the free-upgrade allowance the turn gives).

Run: ``python modules/no-retreat/tools/build_sample_states.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[3] / "samples" / "no-retreat"

UNITS = [
    {"id": "GE-1PANZER", "at": "1206"},
    {"id": "GE-2PANZER", "at": "1105"},
    {"id": "GE-4ARMY", "at": "1306", "step": 1},
    {"id": "GE-9ARMY", "at": "1107"},
    {"id": "GE-18ARMY", "at": "1503", "markers": ["unsupplied"]},
    {"id": "GE-6ARMY", "at": "destroyed"},
    {"id": "SU-3BYELORUSSIAN", "at": "1307", "step": 1},
    {"id": "SU-1BALTIC", "at": "1407", "step": 1},
    {"id": "SU-3TANK", "at": "1708", "step": 1},
    {"id": "SU-5GUARDTANK", "at": "1709", "step": 1},
    {"id": "SU-2BALTIC", "at": "destroyed", "step": 1},
    {"id": "GE-16ARMY", "at": "1802"},
    {"id": "SU-LENINGRAD", "at": "1902"},
    {"id": "SU-MOSCOW", "at": "2008", "step": 1},
]

# City control (6.1) of all 32 cities, so that supply is judged for a player's first turn from these states: the
# Axis holds the cities of Germany and its allies west of the 1941 frontier, the Soviet every city east of it.
CITIES = {
    "0503": "axis", "0704": "axis", "0606": "axis", "0906": "axis", "1104": "axis", "0406": "axis", "0309": "axis",
    "0910": "axis", "0511": "axis", "0414": "axis", "0717": "axis",
    "1403": "soviet", "1902": "soviet", "1307": "soviet", "1708": "soviet", "2008": "soviet", "2006": "soviet",
    "1909": "soviet", "1211": "soviet", "2207": "soviet", "2310": "soviet", "1912": "soviet", "1613": "soviet",
    "2314": "soviet", "1115": "soviet", "1415": "soviet", "1716": "soviet", "1717": "soviet", "2117": "soviet",
    "1318": "soviet", "1519": "soviet", "2221": "soviet",
}

STATES = {"state-1941.json": 2, "state-mud.json": 3, "state-1942.json": 10, "state-1943.json": 13, "state-1944.json": 18, "state-1945.json": 23}


def state(turn: int) -> dict:
    return {
        "$schema": "../../schemas/state.schema.json",
        "module": "no-retreat",
        "scenario": "illustrative",
        "turn": turn,
        "units": UNITS,
        "status": {
            "illustrative": "positions and city control chosen by the module author for the samples; the sources give no set-up",
            "cities": CITIES,
        },
    }


def main() -> int:
    for name, turn in STATES.items():
        (SAMPLES / name).write_text(json.dumps(state(turn), indent=1) + "\n", encoding="utf-8")
    print(f"{len(STATES)} sample states written to {SAMPLES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
