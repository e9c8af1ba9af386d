"""Write the start states of the Red Winter samples that need pieces where the campaign set-up has none.

Each state is the campaign set-up (``scenarios/campaign.json``) with a few pieces moved, as listed below, so a
sample can show anti-tank fire, a retreat or a cut-off company. Run from the repository root:

    .venv/bin/python modules/red-winter/tools/build_sample_states.py
"""

from __future__ import annotations

import json
from pathlib import Path

from pbem.model.jsonsource import load_json
from pbem.model.module import load_module
from pbem.model.state import State

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "samples" / "red-winter"

STATES = {
    # Turn 9 (12:00, day): a T-26 on the main road in O21 next to the Finnish AT gun in O20.
    "state-armour.json": {"turn": 9, "place": {"SOV-T26M33": "O21", "SOV-1-1-609": "O21", "FIN-AT-JR16": "O20"}},
    # Turn 9: three Soviet companies in O21 next to the two Finnish companies in O20; a Soviet company in N19
    # puts O19 and N20 (two of O20's three retreat hexes) in its ZOC.
    "state-retreat.json": {"turn": 9, "place": {"SOV-1-1-609": "O21", "SOV-2-1-609": "O21", "SOV-3-1-609": "O21", "SOV-4-2-609": "N19"}},
    # The same with a Soviet company in Q20 as well: P20, the third retreat hex, is in a Soviet ZOC too.
    "state-boxed.json": {"turn": 9, "place": {"SOV-1-1-609": "O21", "SOV-2-1-609": "O21", "SOV-3-1-609": "O21", "SOV-4-2-609": "N19", "SOV-5-2-609": "Q20"}},
    # Turn 7 (09:00, Finnish RPs): a reduced PPP7 company in the corner X31, both its neighbours Soviet-held.
    "state-cutoff.json": {"turn": 7, "place": {"FIN-1-PPP7": "X31", "SOV-7-3-609": "X30", "SOV-8-3-609": "W30"}},
    # Turn 5 (night): two full JR16 companies far in the south-west, A29 (23.5 MP from Q25 at best).
    "state-raid-far.json": {"turn": 5, "place": {"FIN-1-1-JR16": "A29", "FIN-2-1-JR16": "A29"}},
    # Turn 2: a Finnish company has reached X28, the Soviet supply source (EV-1).
    "state-x28.json": {"turn": 2, "place": {"FIN-3-1-JR16": "X28"}},
    # Turn 9: the T-26 alone in O21 next to the AT gun in O20, a Soviet company in O22 two hexes from it.
    "state-armour-support.json": {"turn": 9, "place": {"SOV-T26M33": "O21", "SOV-1-1-609": "O22", "FIN-AT-JR16": "O20"}},
}


def build() -> dict[str, dict]:
    module = load_module("red-winter")
    out = {}
    for name, spec in STATES.items():
        state = State.from_json(module, load_json(module.scenarios["campaign"]))
        state.turn = spec["turn"]
        for unit_id, label in spec["place"].items():
            state.units[unit_id].step = state.units[unit_id].step if state.units[unit_id].on_map else 0
            state.place(unit_id, module.map.index(label))
        out[name] = state.to_json()
    return out


if __name__ == "__main__":
    for name, data in build().items():
        (OUT / name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print("wrote", OUT / name)
