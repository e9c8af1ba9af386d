"""Build ``tables.json``: the digest's tables (rules/red-winter.md §4, transcribed from GMT's player aids)."""

from __future__ import annotations

import json
from pathlib import Path

COLUMNS = ["1/4", "1/3", "1/2", "1/1", "2/1", "3/1", "4/1", "5/1", "6/1"]
CRT_ROWS = {  # 2d6 -> results under COLUMNS (attacker loss / defender loss), digest §4.1
    2: "5/0 4/0 4/0 3/0 3/0 2/0 2/0 2/1 1/0",
    3: "4/0 4/0 3/0 3/0 2/0 2/0 2/1 1/0 1/1",
    4: "4/0 3/0 3/0 2/0 1/0 2/1 1/0 1/1 0/1",
    5: "3/0 3/0 2/0 2/0 2/1 1/0 1/1 0/1 0/2",
    6: "3/0 2/0 2/0 2/1 1/0 1/1 0/1 0/2 0/3",
    7: "2/0 2/0 2/1 1/0 1/1 0/1 0/2 0/3 0/4",
    8: "2/0 2/1 1/0 1/1 0/1 0/2 0/3 0/4 0/4",
    9: "2/1 1/0 1/1 0/1 1/2 0/3 0/4 0/4 0/5",
    10: "1/0 1/1 0/1 1/2 0/2 0/4 0/4 0/5 0/6",
    11: "1/1 0/1 1/2 0/2 0/3 0/4 0/5 0/6 0/7",
    12: "0/1 1/2 0/2 0/3 0/4 0/5 0/6 0/7 0/8",
}
SHIFTS = [  # id, case, applies to, condition, columns, direction
    ("suppression", 3, ["combat"], "Suppression from ranged support: 1 per marker, net max 3 either way", 1, "per_marker"),
    ("concentric", 4, ["combat"], "Concentric attack bonus", 1, "attacker"),
    ("frozen_lake_defender", 5, ["combat", "assault"], "Defender in frozen lake: 3R (4R if Finns attack Soviets)", 3, "attacker"),
    ("frozen_lake_defender_finns", 5, ["combat", "assault"], "Defender in frozen lake, Finns attacking Soviets", 4, "attacker"),
    ("all_on_lake", 5, ["combat", "assault"], "All attackers and defenders on frozen lake: 1 toward the Finns instead of cases 1 and 5", 1, "finnish"),
    ("pajari", 6, ["combat", "assault"], "Pajari stacked with the Finnish side", 1, "finnish"),
    ("dug_in", 7, ["combat", "assault"], "Defender in a Dug-In hex", 1, "defender"),
    ("morale", 8, ["combat", "assault"], "Morale bonus (Soviets turns 1-5, Finns turns 20-32): 1 column, 2 in assaults", 1, "morale_side"),
    ("morale_assault", 8, ["assault"], "Morale bonus in an assault", 2, "morale_side"),
    ("soviet_armour", 9, ["combat", "assault"], "Soviet armour participating", 1, "soviet"),
    ("finnish_stance", 10, ["combat", "assault"], "Change of Finnish Operational Stance", 1, "finnish"),
    ("bonfire", 11, ["combat", "assault"], "Bonfire bonus", 2, "attacker"),
    ("soviet_morale_collapse", 12, ["combat", "assault"], "Soviet morale collapse, Finnish attack", 1, "finnish"),
    ("coordination", 13, ["optional"], "Soviet coordination penalty (20.10)", 1, "finnish"),
    ("field_kitchen", 14, ["optional"], "Soviets in an eliminated Finnish field-kitchen hex (20.8), Finnish attack", 3, "finnish"),
    ("smg", 15, ["assault"], "Finnish submachine-gun bonus: Finns assaulting into, or defending in, woods, suo or village", 1, "finnish"),
]
TURNS = [  # turn, date, time, LOS, ammo, reinforcements, RPs, armour VP cost, night
    (1, "8 Dec", "10:30", 4, {"soviet": 10, "finnish": 3}, {"soviet": 6, "finnish": 5}, None, None),
    (2, "8 Dec", "12:00", 5, None, {"soviet": 6}, None, None),
    (3, "8 Dec", "13:30", 5, None, {"soviet": 10, "finnish": 1}, None, None),
    (4, "8 Dec", "15:00", 2, {"finnish": 2}, {"soviet": 4, "finnish": 2}, None, None),
    (5, "8 Dec", "16:30", 1, None, {"soviet": 1, "finnish": 2}, None, None),
    (6, "9 Dec", "07:30", 2, {"soviet": 6, "finnish": 4}, {"finnish": 2}, None, 10),
    (7, "9 Dec", "09:00", 3, None, None, {"soviet": 4, "finnish": 2}, 10),
    (8, "9 Dec", "10:30", 4, {"soviet": 10}, {"soviet": 3, "finnish": 3}, None, 10),
    (9, "9 Dec", "12:00", 5, None, None, None, 9),
    (10, "9 Dec", "13:30", 5, None, None, None, 9),
    (11, "9 Dec", "15:00", 2, None, {"soviet": 4}, None, 9),
    (12, "9 Dec", "16:30", 1, None, None, None, 8),
    (13, "10 Dec", "07:30", 2, {"soviet": 10, "finnish": 4}, {"soviet": 4}, None, 8),
    (14, "10 Dec", "09:00", 3, None, {"soviet": 8}, {"soviet": 3, "finnish": 3}, 8),
    (15, "10 Dec", "10:30", 4, {"finnish": 4}, {"finnish": 3}, None, 7),
    (16, "10 Dec", "12:00", 5, None, None, None, 7),
    (17, "10 Dec", "13:30", 5, None, None, None, 7),
    (18, "10 Dec", "15:00", 2, None, None, None, 6),
    (19, "10 Dec", "16:30", 1, None, None, None, 6),
    (20, "11 Dec", "07:30", 2, {"soviet": 6, "finnish": 6}, None, None, 6),
    (21, "11 Dec", "09:00", 3, None, None, {"soviet": 0, "finnish": 4}, 5),
    (22, "11 Dec", "10:30", 4, None, {"finnish": 2}, None, 5),
    (23, "11 Dec", "12:00", 5, None, None, None, 5),
    (24, "11 Dec", "13:30", 5, None, None, None, 4),
    (25, "11 Dec", "15:00", 2, None, {"finnish": 5}, None, 4),
    (26, "11 Dec", "16:30", 1, None, None, None, 4),
    (27, "12 Dec", "07:30", 2, {"soviet": 4, "finnish": 6}, None, None, 3),
    (28, "12 Dec", "09:00", 3, None, {"finnish": 1}, {"soviet": 0, "finnish": 4}, 3),
    (29, "12 Dec", "10:30", 4, None, None, None, 3),
    (30, "12 Dec", "12:00", 5, None, None, None, 2),
    (31, "12 Dec", "13:30", 5, None, None, None, 2),
    (32, "12 Dec", "15:00", 2, None, None, None, 1),
]
# The turn track prints "Reinf: Sov 4 (at hex X1)" on turns 11 and 13 and "Sov 8 (at hex X1)" on turn 14: every
# Soviet unit coded for those turns enters at X1 -- the 718th and, on turn 14, the two 139th AT sections coded 14.
ENTRY = {11: {"soviet": "X1"}, 13: {"soviet": "X1"}, 14: {"soviet": "X1"}}
TIME_OF_DAY = {"07:30": "dawn", "09:00": "fog", "10:30": "fog", "12:00": "day", "13:30": "day", "15:00": "dusk", "16:30": "night"}


def src(section: str, note: str = "", status: str = "transcribed") -> dict:
    return {"section": section, "status": status, "note": note}


def main() -> None:
    here = Path(__file__).resolve().parents[1]
    extra = json.loads((here / "tools" / "counter_values.json").read_text())
    tables = {
        "crt": {
            "source": src("digest 4.1 (GMT PAC, CRT; 8.0)", "Results are attacker loss / defender loss (steps or retreat hexes). Odds worse than 1:4 read 1:4, better than 6:1 read 6:1 (OD-6). One die-row column, '2d6': each 2d6 total reads its own row."),
            "supplied": {},
            "columns": COLUMNS,
            "rows": {f"R{roll}": CRT_ROWS[roll].split() for roll in range(2, 13)},
            "die_rows": {"2d6": {str(roll): f"R{roll}" for roll in range(2, 13)}},
        },
        "resolution_modifiers": {
            "source": src("digest 4.2 (GMT PAC, Combat/Assault/Finnish-Night-Raid Resolution Modifiers; 8.3)", "Cases 1 (frozen lake/bridge: attacker CS halved, total rounded up) and 2 (armour at night: armour CS halved, rounded down) change strengths, not columns. Cases 3-15 never apply to night raids."),
            "strength_cases": {"1": "frozen lake or bridge: attacker CS halved, total rounded up", "2": "armour on a night turn: armoured units' CS halved, rounded down"},
            "entries": [{"id": i, "case": c, "applies": a, "condition": t, "columns": n, "direction": d} for i, c, a, t, n, d in SHIFTS],
            "suppression_max": 3,
        },
        "ranged_attack": {
            "source": src("digest 4.3 (GMT PAC, Ranged Attack Table; 10.0)", "2d6 + firer's RAS + DRMs, one roll per firing unit against a hex."),
            "results": [{"max": 13, "result": "none"}, {"min": 14, "max": 16, "result": "suppressed"}, {"min": 17, "max": 18, "result": "suppressed+1"}, {"min": 19, "result": "suppressed+2"}],
            "drm": {"per_infantry_company": 1, "target_frozen_lake": 1, "target_frozen_lake_soviet": 2, "self_spotting_mortar": 1, "self_spotting_infantry_gun": 2, "spotter_not_adjacent": -1, "dug_in_indirect": -1, "dug_in_direct": -2, "dawn_fog_dusk": -1, "night": -2, "mg_range_3_plus": -1, "armour_range_3_plus": -2, "field_kitchen_optional": 2},
        },
        "anti_tank_fire": {
            "source": src("digest 4.4 (GMT PAC, Anti-Tank Fire Table; 11.0)", "1d6 per AT step; max range 2; Soviet armour only."),
            "results": [{"max": 4, "result": "none"}, {"min": 5, "result": "step"}],
            "drm": {"target_assaulting_firer": 2, "target_adjacent": 1, "target_ba10": 1, "target_t37": 2, "obuhov_firing": -4},
            "max_range": 2,
        },
        "night_raid": {
            "source": src("digest 4.5 (GMT PAC, Finnish Night Raid Table; 16.3)", "1d6 + DRMs; the result shifts the normal odds."),
            "results": [{"max": 2, "result": "no_attack"}, {"min": 3, "max": 3, "result": -1}, {"min": 4, "max": 4, "result": 0}, {"min": 5, "max": 5, "result": 1}, {"min": 6, "max": 6, "result": 2}, {"min": 7, "max": 7, "result": 3}, {"min": 8, "max": 8, "result": 4}, {"min": 9, "result": 5}],
            "drm": {"first_raid": 2, "pajari": 2, "bonfire": 2, "route_7_mp": 1, "route_road_lake_village": 1},
            "max_raiders": 3, "min_distance": 4, "max_route_mp": 18,
        },
        "recovery": {
            "source": src("digest 4.6 (GMT PAC, Recovery Table; 13.0)", "1d6 per reduced infantry company; success on 6 or more."),
            "success": 6,
            "drm": {"morale": 1, "four_hexes_from_enemy": 1, "pajari": 1, "night": 1, "out_of_supply": -1, "soviet_late": -1, "field_kitchen_optional": 1},
        },
        "sub_zero_loss": {
            "source": src("digest 4.7 (GMT PAC, Sub-Zero Loss Table; 16.x)", "1d6 per qualifying stack."),
            "results": [{"max": 3, "result": "step"}, {"min": 4, "result": "none"}],
            "drm": {"frozen_lake": -1, "finnish": 1},
        },
        "terrain": {
            "source": src("digest 4.8 (map key; GMT 4.4, 5.3)", "MP to enter. Roads: 0.5 MP per connected road hex (not into an enemy ZOC). Tanks pay 1 and the BA-10 2 per trail hex. Bridges +0."),
            "cost": {"forest": 2, "suo": 3, "village": 1, "frozen_lake": 1.5},
            "ski_cost": {"frozen_lake": 1},
            "road": 0.5, "trail_tank": 1, "trail_armoured_car": 2, "bridge": 0,
            "blocks_los": ["forest", "suo", "village"],
            "assault_extra": 2, "extended_movement": 2, "extended_distance": 4,
        },
        "turn_track": {
            "source": src("digest 2 and 4.9 (GMT turn-track card)", "LOS in hexes; ammo additions; reinforcement counts and the entry hex where the track prints one (otherwise the supply source); replacement points; Finnish VPs per Soviet armour unit committed."),
            "turns": [
                {"turn": t, "date": d, "time": tm, "period": TIME_OF_DAY[tm], "los": los, **({"ammo": a} if a else {}), **({"reinforcements": r} if r else {}), **({"reinforcement_entry": ENTRY[t]} if t in ENTRY else {}), **({"replacement_points": rp} if rp else {}), **({"armour_vp": vp} if vp else {})}
                for t, d, tm, los, a, r, rp, vp in TURNS
            ],
            "night_turns": [5, 12, 19, 26],
            "soviet_morale_turns": [1, 5], "finnish_morale_turns": [20, 32], "armour_from_turn": 6,
            # Day 4 notes of the turn track: "Begin eligibility for Finnish Change of Operational Stance (17.1,
            # Special Rule #1)" and, on days 4 and 5, "check for Soviet Morale Collapse (17.0.4) during each Soviet
            # Reset Phase".
            "finnish_stance_from_turn": 20, "soviet_morale_collapse_from_turn": 20,
        },
        "replacement_costs": {
            "source": src("digest 3.10 RE-7 and 4.10 (source text)", "Replacement Points, spent in the owner's Reset Phase; unused RPs are lost."),
            "flip_in_supply_company": 1, "return_reduced": 2, "return_full": 3,
        },
        "stacking_rules": {
            "source": src("digest 3.2 SK-1 (GMT 6.0)", "Leaders do not count."),
            "max_units": 5, "max_infantry_companies": 3,
        },
        "setup_codes": {
            "source": src("2", "Top-right print of each counter: a hex, a turn of arrival, '*' (optional or special) or 'variable' (Soviet armour)."),
            "units": extra["setup_codes"],
        },
    }
    (here / "tables.json").write_text(json.dumps(tables, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
