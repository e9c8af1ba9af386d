"""Write the start states of the Red Winter samples that need pieces where the campaign set-up has none.

Each state is the campaign set-up (``scenarios/campaign.json``) with a few pieces moved, as listed below, so a
sample can show anti-tank fire, a retreat or a cut-off company; ``box`` puts pieces in a box (the dead pool, off
map), ``status`` adds to the state's status (the turn track, the Prov/TF-P trigger) and ``markers`` gives pieces
markers (a bonfire). Run from the repository root:

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

# The 364th regiment's companies and MGs (coded for turns 2 and 3) placed well behind the front.
DAY_4 = {"SOV-1-1-364": "T27", "SOV-2-1-364": "T27", "SOV-3-1-364": "T27", "SOV-4-2-364": "U27", "SOV-5-2-364": "U27",
         "SOV-6-2-364": "U27", "SOV-7-3-364": "V28", "SOV-8-3-364": "V28", "SOV-MG-1-364": "T27", "SOV-MG-2-364": "U27"}  # fmt: skip
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
    # Turn 9: a T-26 in the village I18 on the main road, two hexes from the Finnish AT gun on the ice of K19, with
    # the frozen lake J19 between (RA-6). (I19, where it stood before, is frozen lake since issue 13: off the road.)
    "state-tank-lake.json": {"turn": 9, "place": {"SOV-T26M33": "I18", "FIN-AT-JR16": "K19"}},
    # Turn 9: 1/354 off-map and ready; 2/354 fired earlier and rolled its return for turn 11 (RA-8); a Soviet
    # company in O21 spots the Finns in O20.
    "state-354.json": {"turn": 9, "place": {"SOV-1-1-609": "O21"}, "box": {"SOV-ART-1-354": "off_map"},
                       "status": {"turn_track": {"SOV-ART-2-354": {"turn": 11}}}},
    # Turn 7 (09:00, Finnish RPs 2): 4/2/JR16 died in supply (dead pool), 5/2/JR16 died cut off (eliminated).
    "state-dead-pool.json": {"turn": 7, "place": {}, "box": {"FIN-4-2-JR16": "dead_pool", "FIN-5-2-JR16": "eliminated"}},
    # Turn 6 (9 Dec): a Soviet company reached column W on turn 1 (RE-6's trigger, read literally); Pajari
    # in F13, next to Lutikkamökki (E13).
    "state-prov.json": {"turn": 6, "place": {"SOV-7-3-609": "W27", "FIN-PAJARI": "F13"}, "status": {"prov_trigger": 1}},
    # Turn 5 (night): the Soviets in Q25 lit a bonfire in their Action Phase (BF-1: 4+ hexes from the Finns in
    # O20 and P20); the Finnish player is to move (case 11, the Bonfire bonus).
    "state-bonfire.json": {"turn": 5, "place": {}, "markers": {u: ["bonfire"] for u in ("SOV-1-1-609", "SOV-2-1-609", "SOV-3-1-609", "SOV-MG-1-609")}},
    # Turn 20 (11 Dec, day 4): three Soviet companies in O21 next to the two JR16 companies in O20; the 364th
    # regiment on the map too, so 17 full-strength Soviet infantry companies and MGs stand on it (cases 10, 12).
    "state-day-4.json": {"turn": 20, "place": {**DAY_4, "SOV-1-1-609": "O21", "SOV-2-1-609": "O21", "SOV-3-1-609": "O21"}},
    # The same after the Soviet morale collapsed in the Soviet Reset Phase of turn 20 (17.0.4, case 12).
    "state-day-4-collapse.json": {"turn": 20, "place": {**DAY_4, "SOV-1-1-609": "O21", "SOV-2-1-609": "O21", "SOV-3-1-609": "O21"},
                                  "status": {"soviet_morale_collapse": 20}},
    # Turn 1: a Soviet MG alone on the frozen lake N21, next to the two JR16 companies in O20 (one assault each).
    "state-mg-on-ice.json": {"turn": 1, "place": {"SOV-MG-1-609": "N21"}},
    # Turn 5 (night): a JR16 company in X27 next to X28, where the 364th's companies coded 3 may still enter.
    "state-x27.json": {"turn": 5, "place": {"FIN-7-3-JR16": "X27"}},
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
        for unit_id, box in spec.get("box", {}).items():
            state.remove(unit_id, box)
        for unit_id, names in spec.get("markers", {}).items():
            state.units[unit_id].markers.update(names)
        state.status.update(spec.get("status", {}))
        out[name] = state.to_json()
    return out


if __name__ == "__main__":
    for name, data in build().items():
        (OUT / name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print("wrote", OUT / name)
