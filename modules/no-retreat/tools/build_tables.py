"""Build tables.json of No Retreat!: both CRTs, the terrain effects chart and the turn record track.

Every value was read off Map.jpg at full resolution (boxes in tools/crops.json); nothing here comes from
a rulebook text, which stops in 7.6. Facts only: result codes and their effects as fields, event titles.

Run: ``python modules/no-retreat/tools/build_tables.py`` (needs no source file: the transcription is here).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

MODULE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cards_read import CARDS  # noqa: E402

COLUMNS = ["1/3", "1/2", "1/1", "3/2", "2/1", "3/1", "4/1", "5/1", "6/1"]

# As printed, die roll 1 to 6 top to bottom; "-" is the printed dash (Indecisive Battle).
AXIS_CRT = [
    "CA CA CA -  -  CB EX DR DR",
    "CA CA -  -  CB EX DR DR DS",
    "CA -  CB CB EX DR DR DS DS",
    "-  CB EX EX DR DR DS DS DD",
    "CB DR DR DR DR DS DS DD DD",
    "DR DR DR DR DS DD DD DD DD",
]
SOVIET_CRT = [
    "CA CA CA CA -  CB EX EX EX",
    "CA CA CA -  CB EX EX EX DR",
    "CA CA -  CB EX EX DR DR DR",
    "CA -  CB EX EX DR DR DR DS",
    "-  CB EX EX DR DR DS DS DD",
    "CB DR DR DR DR DS DS DD DD",
]

# The explanation printed under each CRT, as fields (the two explanations say the same).
RESULTS = {
    "-": {"name": "Indecisive Battle", "effect": "none"},
    "CB": {"name": "Counterblow", "target_marker": "flipped to its Counterblow side", "marker_placed": "on the hex of one phasing attacking unit"},
    "CA": {"name": "Counterattack", "defender_may_counterattack": "immediately", "odds": "recomputed", "terrain_modifiers": False},
    "DR": {"name": "Defender Retreat", "defender_retreats_hexes": 2, "attackers_may_advance": "if the target hex is vacated", "fort_in_target_hex": "-"},
    "DS": {"name": "Defender Shattered", "defender_retreats_hexes": 2, "defender_then": "shattered box if not destroyed",
           "attackers_may_advance": "if the target hex is vacated", "fort_in_target_hex": "EX"},
    "DD": {"name": "Defender Destroyed", "defender_retreats_hexes": 2, "fort_in_target_hex": "retreat ignored",
           "defender_step_loss_each_unit": 1, "attackers_may_advance": "if the target hex is vacated"},
    "EX": {"name": "Exchange", "attacker_steps_lost": 1, "defender_steps_lost": 1, "retreat": False, "advance": False},
}


def crt(side: str, rows: list[str], box: str) -> dict:
    return {
        "source": {
            "section": f"{side.capitalize()} Combat Results Table printed on the map",
            "status": "transcribed",
            "note": f"Read cell by cell off Map.jpg (tools/crops.json {box}); columns are the printed Battle Odds, rows the die roll (one die).",
        },
        "supplied": {},
        "columns": COLUMNS,
        "rows": {str(n + 1): row.split() for n, row in enumerate(rows)},
        "die_rows": {"1d6": {str(n): str(n) for n in range(1, 7)}},
        "results": RESULTS,
        "not_given": [
            "how odds between printed columns are rounded, and odds below 1:3 or above 6:1 (rule 10, not in the sources)",
            "the order of resolving CA and CB and what a counterattack may use (rule 10)",
        ],
    }


# Terrain effects chart. Columns as printed: movement points for units with the mechanized box symbol and
# for others; the column headed by the mechanized symbol and "1->?" (yes/no: read here as whether the
# armour attack shift applies, 6.5.4 names an "armor attack bonus"); defence shifts (negative = to the
# left, the printed left arrow); "Stops Advance?". "N/E" = no effect, as printed.
TEC_COLUMNS = ["mp_mechanized", "mp_other", "armour_shift", "defence_shift", "stops_advance"]
TEC = {
    "open": [1, 1, True, 0, False],
    "city": [1, 1, False, -1, False],
    "forest": [2, 1, False, -1, True],
    "marsh": [4, 2, False, -1, True],
    "mountain": [3, 2, False, -2, True],
    "kerch_strait": [3, 2, False, -2, True],
    "river_hexside": ["N/E", "N/E", True, -1, False],
    "objective_hexside": ["N/E", "N/E", False, -1, True],
    "area": [3, 2, False, 0, True],
    "unsupplied": ["max 3", "max 3", False, 2, True],
    "enemy_zoc": ["+1 to exit", "+1 to exit", "N/E", "N/E", False],
    "mud": ["max 3", "max 3", False, 0, True],
    "snow": ["max 4", "max 4", True, -1, False],
    "long_winter": ["max 4", "max 4", False, -1, True],
}
TEC_CONDITIONS = {
    "river_hexside": {"defence_shift": "not in snow"},
    "unsupplied": {"loses_zoc": True, "mp": "if unsupplied"},
    "mud": {"mp": "all units"},
    "snow": {"mp": "all units", "defence_shift": "against Soviets only", "stops_advance": "no +1 armour advance"},
    "long_winter": {"mp": "all units", "defence_shift": "against Soviets only"},
}
LAKE_HEXSIDE = {"enter": "prohibited", "blocks_supply_path": False, "ezoc_across": False}
# The inset chart (right of the map, below the holding boxes) prints the same values, with these differences.
INSET_DIFFERENCES = {
    "river_hexside": {"defence_shift": "not in snow or long winter (inset: 'Snow/LW')"},
    "enemy_zoc": {"mp": "stops movement; +1 to exit"},
    "clear": {"mp_mechanized": "N/E", "mp_other": "N/E", "armour_shift": True, "defence_shift": 0, "stops_advance": False},
}

WEATHER = {"C": "clear", "M": "mud", "S": "snow", "W": "long_winter"}
# turn: (year, months, weather, sudden-death skull, blitz icons, shock icons, event title, red game event)
TURNS = [
    (1, 1941, "June", "C", False, 3, 0, "Limited Rail Moves", False),
    (2, 1941, "July-Aug", "C", False, 3, 0, "Limited Rail Moves", False),
    (3, 1941, "Sept-Oct", "M", True, 2, 0, "Begin Soviet Fortifying", False),
    (4, 1941, "Nov-Dec", "S", False, 0, 3, "Pearl Harbor", True),
    (5, 1942, "Jan-Feb", "W", False, 0, 3, "Begin German Repl.", False),
    (6, 1942, "Mar-Apr", "M", True, 1, 0, "Begin one Free Soviet Upgrade", False),
    (7, 1942, "May-June", "C", False, 2, 0, "Midway", True),
    (8, 1942, "July-Aug", "C", False, 2, 0, "Germans +1 Card", False),
    (9, 1942, "Sept-Oct", "C", True, 2, 0, "Germans +1 Card", False),
    (10, 1942, "Nov-Dec", "S", False, 1, 2, "El Alamein", True),
    (11, 1943, "Jan-Feb", "W", False, 0, 2, "Soviets get Tank Advance", False),
    (12, 1943, "Mar-Apr", "M", True, 0, 0, "Na Berlin! Initiative Changes", False),
    (13, 1943, "May-June", "C", False, 1, 1, "Begin two Free Soviet Upgrades", False),
    (14, 1943, "July-Aug", "C", False, 1, 1, "Italy Invaded", True),
    (15, 1943, "Sept-Oct", "C", True, 1, 1, "Remove Italian 8th", False),
    (16, 1943, "Nov-Dec", "M", False, 0, 1, "Remove 2nd Panzer", False),
    (17, 1944, "Jan-Feb", "S", False, 0, 2, "Soviet units have two steps", False),
    (18, 1944, "Mar-Apr", "W", True, 0, 2, "Stop Upgrade; Remove SS Panzer", False),
    (19, 1944, "May-June", "C", False, 0, 2, "D-Day", True),
    (20, 1944, "July-Aug", "C", False, 0, 2, "Germans only three targets", False),
    (21, 1944, "Sept-Oct", "C", True, 0, 2, "Soviets get one extra card", False),
    (22, 1944, "Nov-Dec", "M", False, 0, 1, "Battle of the Bulge", True),
    (23, 1945, "Jan", "S", False, 0, 1, "Begin Soviet Stacking", False),
    (24, 1945, "Feb", "W", True, 0, 1, "End German Improvement", False),
    (25, 1945, "Mar", "M", False, 0, 2, "Rhine Crossed", True),
    (26, 1945, "Apr", "C", False, 0, 2, "Germans only one target", False),
    (27, 1945, "May", "C", True, 0, 2, "Economic Collapse", True),
    (28, 1945, "June", "C", False, 0, 2, "Remove Berlin Garrison", False),
]
TURN_NOTES = {
    5: "a red mark '2 v. Sovs' with a small arrow beside the turn number (direction not legible at this resolution)",
    12: "'Initiative Changes' is printed in red, but not in the stamped style of the game events the legend shows",
    23: "a boxed mark 'Reset Cards +VPs'",
}


# VP track: boxes 0-34; labelled boxes; sudden-death boxes: (box, turn, icon) where the icon is the red star
# (Soviet, red box) or the Balkenkreuz (Axis, grey box); box 16 and 27 are half red, half grey.
VP_LABELS = {0: "At Start Campaign Event VPs", 6: "Max. Event Victory Points", 12: "At Start Campaign Victory Points", 34: "Soviet Total Victory!"}
SUDDEN_DEATH = [(8, 24, "star"), (15, 27, "star"), (16, 12, "star"), (19, 15, "star"), (20, 3, "cross"), (23, 6, "cross"),
                (24, 18, "star"), (26, 9, "cross"), (27, 12, "cross"), (30, 21, "star")]
# The VP award list printed beside the track, as fields.
VP_AWARDS = [
    {"turns": [1, 28], "what": "unit of the non-Initiative player sent to the Surrendered Units box", "vp": 1},
    {"turns": [1, 28], "what": "unit of the Initiative player sent to the Surrendered Units box", "vp": -1},
    {"turns": [1, 28], "what": "card played as a VP-affecting event", "vp": "+1 or -1"},
    {"turns": [1, 28], "what": "red (other theatre) game-turn event", "vp": 1, "side": "soviet"},
    {"turns": [1, 22], "what": "controlled city or oil hex on the map", "vp": 1},
    {"turns": [1, 22], "what": "controlling Finland", "vp": 1},
    {"turns": [23, 28], "what": "controlled city or oil hex in Greater Germany", "vp": 1},
]


def cards() -> dict:
    def half(side: str, entry: tuple) -> dict:
        title, timing, condition, icon = entry
        result = {"side": side, "title": title, "timing": timing.split("|"), "initiative": {"cross": "axis", "star": "soviet", None: None}[icon]}
        if condition:
            result["condition"] = condition
        return result

    return {
        "source": {"section": "5.0 strategy cards", "status": "transcribed",
                   "note": "Facts read by eye off the 54 card images (tools/cards_read.py explains every code); no card text. "
                           "initiative: the icon beside the half's title (Balkenkreuz = axis, red star = soviet), 5.3.3."},
        "supplied": {},
        "cards": {
            str(number): {"deck_1945": {None: "both", "no45": "removed", "45": "added"}[mark],
                          "axis": half("axis", axis), "soviet": half("soviet", soviet)}
            for number, (mark, axis, soviet) in CARDS.items()
        },
    }


def build() -> dict:
    tec_rows = {name: dict(zip(TEC_COLUMNS, values)) for name, values in TEC.items()}
    for name, conditions in TEC_CONDITIONS.items():
        tec_rows[name]["conditions"] = conditions
    turns = []
    for number, year, months, weather, skull, blitz, shock, event, red in TURNS:
        entry = {"turn": number, "year": year, "months": months, "weather": WEATHER[weather], "sudden_death": skull,
                 "blitz": blitz, "shock": shock, "event": event, "game_event": red}
        if number in TURN_NOTES:
            entry["note"] = TURN_NOTES[number]
        turns.append(entry)
    return {
        "crts": {"axis": crt("axis", AXIS_CRT, "crt_axis"), "soviet": crt("soviet", SOVIET_CRT, "crt_soviet")},
        "terrain_effects": {
            "source": {"section": "Terrain Effects Chart printed on the map (top left)", "status": "transcribed",
                       "note": "Read off Map.jpg (tools/crops.json terrain_effects). Strings are printed limits ('max 3': 3 MP maximum; '+1 to exit'); 'N/E' = no effect as printed."},
            "supplied": {},
            "columns": TEC_COLUMNS,
            "rows": tec_rows,
            "lake_hexside": LAKE_HEXSIDE,
            "inset_differences": INSET_DIFFERENCES,
            "not_given": [
                "what the 'armour_shift' column (mechanized symbol, '1->?') grants exactly (rule 10.6.3)",
                "whether terrain shifts of hex and hexside add up, and the cost of entering a city or area from a river hexside (rules 8, 10)",
            ],
        },
        "cards": cards(),
        "vp_track": {
            "source": {"section": "Victory Points track printed on the map", "status": "transcribed",
                       "note": "Read off Map.jpg (tools/crops.json vp_track). Which side counts VPs up, and whether a sudden-death box wins at or beyond it, are in rule 12 (not in the sources)."},
            "supplied": {},
            "boxes": 35,
            "labels": {str(k): v for k, v in VP_LABELS.items()},
            "sudden_death": [{"box": b, "turn": t, "icon": {"star": "soviet", "cross": "axis"}[i]} for b, t, i in SUDDEN_DEATH],
            "awards": VP_AWARDS,
        },
        "turn_track": {
            "source": {"section": "Turn Record Track printed on the map", "status": "transcribed",
                       "note": "Read off Map.jpg (tools/crops.json turn_track): weather by the box colour (legend: Clear, Mud, Snow, L. Win), skull = sudden-death check turn (4.0), Blitz! and Shock! icons counted, game events = titles stamped in red (legend 'Game Event')."},
            "supplied": {},
            "turns": turns,
        },
    }


def main(argv: list[str]) -> int:
    result = build()
    (MODULE / "tables.json").write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print("tables.json written")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
