"""Build ``counters.json`` (armies, corps, markers) and ``cards.json`` (strategy cards, facts only).

Run from the repo root: ``python modules/paths-of-glory/tools/build_counters.py [SHARED]``. Facts come from
Rally the Troops' ``pieces.csv`` (nation, type, CF-LF-MF of both faces, not-replaceable and Near East flags,
replacement-point pool) and ``cards.csv`` (side, commitment level, OPS, SR, RP by nation, combat card,
removal, war status, reinforcements). Card texts (the CSV's ``effect`` column) are never copied.
Generic corps get stable instance ids in CSV order: ``GE-CORPS-07`` is the seventh German corps row.
"""

from __future__ import annotations

import csv
import json
import re
import sys
from collections import Counter
from pathlib import Path

SOURCE = "data/paths-of-glory/rtt/pieces.csv (Rally the Troops), not checked against the printed counters"

# A corps row's name -> (id stem, counter-type stem, contingent): contingents are British-family corps that
# rules and dashed connections name on their own (ANA, AUS, CND, PT) and the BEF.
CORPS = {
    "GE Corps": ("GE-CORPS", "ge_corps", None),
    "POL Corps": ("GE-POL-CORPS", "ge_pol_corps", "POL"),
    "A-H Corps": ("AH-CORPS", "ah_corps", None),
    "TU Corps": ("TU-CORPS", "tu_corps", None),
    "BU Corps": ("BU-CORPS", "bu_corps", None),
    "SN Corps": ("TU-SN-CORPS", "sn_corps", "SN"),
    "IT Corps": ("IT-CORPS", "it_corps", None),
    "US Corps": ("US-CORPS", "us_corps", None),
    "MN Corps": ("MN-CORPS", "mn_corps", None),
    "BE Corps": ("BE-CORPS", "be_corps", None),
    "RU Corps": ("RU-CORPS", "ru_corps", None),
    "RU Cavalry Corps": ("RU-CAV-CORPS", "ru_cavalry_corps", None),
    "RU Czech Legion": ("RU-CZECH-LEGION", "ru_czech_legion", "CZECH"),
    "FR Corps": ("FR-CORPS", "fr_corps", None),
    "BR Corps": ("BR-CORPS", "br_corps", None),
    "ANA Corps": ("BR-ANA-CORPS", "br_ana_corps", "ANA"),
    "PT Corps": ("BR-PT-CORPS", "br_pt_corps", "PT"),
    "AUS Corps": ("BR-AUS-CORPS", "br_aus_corps", "AUS"),
    "CND Corps": ("BR-CND-CORPS", "br_cnd_corps", "CND"),
    "BEF Corps": ("BR-BEF-CORPS", "br_bef_corps", "BEF"),
    "SB Corps": ("SB-CORPS", "sb_corps", None),
    "RO Corps": ("RO-CORPS", "ro_corps", None),
    "GR Corps": ("GR-CORPS", "gr_corps", None),
}
NAMED_ARMIES = {"BEF", "NE", "MEF", "CAU", "Orient", "YLD", "AoI"}
NATION_NAMES = {
    "GE": "German", "AH": "Austro-Hungarian", "TU": "Turkish", "BU": "Bulgarian", "IT": "Italian",
    "US": "American", "MN": "Montenegrin", "BE": "Belgian", "RU": "Russian", "FR": "French", "BR": "British",
    "SB": "Serbian", "RO": "Romanian", "GR": "Greek", "SN": "Senussi",
}  # fmt: skip
ORDINAL = {1: "st", 2: "nd", 3: "rd"}

MARKERS = {
    "trench": {"name": "Trench", "placed_on": "space", "values": [1, 2], "owner": True, "source": "11.2"},
    "control": {"name": "Control", "placed_on": "space", "owner": True, "source": "11.1.13"},
    "out_of_supply": {"name": "Out of supply", "placed_on": "unit", "source": "14.3"},
    "fort_besieged": {"name": "Fort besieged", "placed_on": "space", "source": "15.2"},
    "fort_destroyed": {"name": "Fort destroyed", "placed_on": "space", "source": "15.1.8"},
    "activation": {"name": "Activation", "placed_on": "space", "values": ["move", "attack"], "source": "9.2.5"},
    "war_status": {"name": "War status", "placed_on": "track", "owner": True, "values": list(range(0, 41)), "source": "9.5.1.3, 16.1"},
    "combined_war_status": {"name": "Combined war status", "placed_on": "track", "values": list(range(0, 81)), "source": "16.1, 16.2"},
    "vp": {"name": "Victory points", "placed_on": "track", "values": list(range(-10, 31)), "source": "5.1, 5.2"},
    "mandated_offensive": {"name": "Mandated offensive", "placed_on": "track", "owner": True, "source": "7.0"},
    "replacement_points": {"name": "Replacement points", "placed_on": "track", "owner": True, "source": "9.4, 17"},
    "action_round": {"name": "Action round", "placed_on": "track", "owner": True, "values": [1, 2, 3, 4, 5, 6], "source": "8.1"},
    "mef_beachhead": {"name": "MEF beach-head", "placed_on": "space", "source": "9.2.7.1, 11.1.10"},
    "entrench_failed": {"name": "Entrenchment failed (optional 11.2.9)", "placed_on": "space", "source": "11.2.9"},
}  # fmt: skip


def _step(cf: str, lf: str, mf: str) -> dict:
    return {"attack": int(cf), "defence": int(cf), "move": int(mf), "loss": int(lf)}


def counters(shared: Path) -> dict:
    rows = list(csv.DictReader((shared / "data/paths-of-glory/rtt/pieces.csv").open(encoding="utf-8")))
    types: dict[str, dict] = {}
    units: list[dict] = []
    serial: Counter[str] = Counter()
    totals = Counter(row["name"] for row in rows if row["type"] == "corps")
    for row in rows:
        nation = row["nation"].upper()
        side = row["faction"]
        steps = [_step(row["cf"], row["lf"], row["mf"]), _step(row["rcf"], row["rlf"], row["rmf"])]
        attributes = {
            "replaceable": not row["notreplaceable"],
            "near_east": bool(row["neareast"]),
            "rp_pool": {"allied": "A", "": None}.get(row["rptype"], row["rptype"].upper()),
        }
        if row["type"] == "army":
            word = row["name"].removesuffix(" Army")
            named = word in NAMED_ARMIES
            type_id = f"{nation.lower()}_{word.lower()}_army" if named else f"{nation.lower()}_army"
            uid = f"{nation}-{word.upper()}-ARMY"
            if named:
                display = f"{nation} {word} Army"
                aliases = [f"{nation} {word} Army", f"{word} Army"]
            else:
                n = int(word)
                suffix = "th" if 10 <= n % 100 <= 20 else ORDINAL.get(n % 10, "th")
                display = f"{nation} {n}{suffix} Army"
                aliases = [f"{nation} {n} Army", f"{nation} {n}{suffix} Army"]
            size, arm = "XXXX", "infantry"
            contingent = word if word in ("BEF", "MEF") else None
        else:
            stem, type_id, contingent = CORPS[row["name"]]
            serial[stem] += 1
            many = totals[row["name"]] > 1
            uid = f"{stem}-{serial[stem]:02d}" if many else stem
            display = f"{row['name']} #{serial[stem]}" if many else row["name"]
            # "GE Corps 7" too: '#' starts a comment in the notation.
            aliases = [display, uid.replace("-", " ")] + ([f"{row['name']} {serial[stem]}"] if many else [])
            size, arm = "XXX", "cavalry" if "Cavalry" in row["name"] else "infantry"
        if contingent:
            attributes["contingent"] = contingent
        entry = {
            "name": f"{NATION_NAMES[nation]} {row['type']}" + (f" ({contingent})" if contingent else ""),
            "side": side,
            "nationality": nation,
            "arm": arm,
            "size": size,
            "quality": None,
            "mechanized": False,
            "steps": steps,
            "retreats": True,
            "source": SOURCE,
            "note": "Faces: full (front) then reduced; attack = defence = CF, loss = LF, move = MF.",
            "attributes": attributes,
        }
        if row["type"] == "army" and word in NAMED_ARMIES:
            entry["name"] = f"{NATION_NAMES[nation]} {word} army"
        previous = types.setdefault(type_id, entry)
        if previous != entry:
            raise SystemExit(f"counter type {type_id}: rows disagree ({row})")
        units.append({"id": uid, "type": type_id, "name": display, "aliases": sorted(set(aliases) | {display})})
    return {
        "note": (
            "Every army and corps of both sides with both faces (CF-LF-MF; in pbem's terms attack and defence "
            "are the CF, loss the LF, move the MF). Corps are generic counters: each has a stable instance id "
            "(GE-CORPS-07) that a log names. Attribute rp_pool: the replacement points that rebuild the unit "
            "(A = the Allied minor-nation pool, 17.1.1.1; none for units that are never replaced). Markers are "
            "the marker kinds a state may carry. Built by tools/build_counters.py."
        ),
        "counter_types": types,
        "units": units,
        "nationalities": NATIONALITIES,
        "markers": MARKERS,
    }


# What players write for a nation in a unit's name besides the code pbem's names use (GE 1st Army is also
# German 1st Army): the nation's name and adjective in English (supplied: common usage, not a rulebook table).
NATIONALITIES = {
    "AH": ["Austro-Hungarian", "Austria-Hungary", "Austrian"], "BE": ["Belgian", "Belgium"], "BR": ["British", "Britain"],
    "BU": ["Bulgarian", "Bulgaria"], "FR": ["French", "France"], "GE": ["German", "Germany"], "GR": ["Greek", "Greece"],
    "IT": ["Italian", "Italy"], "MN": ["Montenegrin", "Montenegro"], "RO": ["Romanian", "Romania"],
    "RU": ["Russian", "Russia"], "SB": ["Serbian", "Serbia"], "TU": ["Turkish", "Turkey", "Ottoman"],
    "US": ["American", "USA"],
}  # fmt: skip


COMMITMENT = {"mobilization": "mobilization", "limited": "limited_war", "total": "total_war"}
RP_COLUMNS = {"rp_a": "A", "rp_br": "BR", "rp_fr": "FR", "rp_it": "IT", "rp_ru": "RU", "rp_ah": "AH", "rp_bu": "BU", "rp_ge": "GE", "rp_tu": "TU"}

# Prerequisites the rules state (LR2022 section given); a card not listed has none beyond its commitment level.
PREREQUISITES: dict[str, list[dict]] = {
    "AP-54": [{"combined_war_status_at_least": 30, "rule": "16.3.2"}],
    "AP-55": [{"card_played": "AP-54", "later_turn": True, "rule": "16.3.4"}],
    "AP-40": [{"card_played": "AP-54", "rule": "16.3.5"}],
    "AP-38": [{"card_played": "AP-55", "rule": "16.3.4"}],
    "AP-43": [{"card_played": "AP-55", "rule": "16.3.4"}],
    "AP-47": [{"card_played": "AP-55", "rule": "16.3.4"}],
    "AP-64": [{"card_played": "AP-55", "rule": "16.3.4"}],
    "CP-28": [{"russian_vp_spaces_controlled_at_least": 3, "rule": "16.4.3"}],
    "CP-52": [{"card_played": "CP-28", "rule": "16.4.4"}, {"combined_war_status_plus_russian_vp_at_least": 33, "rule": "16.4.4"}],
    "CP-53": [{"card_played": "CP-52", "later_turn": True, "rule": "16.4.6"}, {"russian_vp_above_tsar_fell_or_all_seven": True, "rule": "16.4.6"}],
    "CP-45": [{"card_played": "CP-53", "rule": "16.4.8"}],
}  # fmt: skip


# Cards whose name the CSV breaks at a hyphen ("Austria" with "Hungary Reinforcements - 7th Army" as its effect);
# the VASSAL module's card pieces (buildFile.xml: card_cp14.svg;Austria-Hungary Reinforcements/14) name them whole.
NAMES = {"CP-14": "Austria-Hungary Reinforcements", "CP-20": "Austria-Hungary Reinforcements",
         "CP-23": "Austria-Hungary Reinforcements"}


def cards(shared: Path, unit_ids: dict[str, list[str]]) -> dict:
    rows = list(csv.DictReader((shared / "data/paths-of-glory/rtt/cards.csv").open(encoding="utf-8")))
    out: dict[str, dict] = {}
    for row in rows:
        side = row["faction"]
        cid = f"{side.upper()}-{int(row['num']):02d}"
        name = NAMES.get(cid) or re.sub(r"\s+", " ", row["name"]).strip()
        card: dict = {
            "side": side,
            "number": int(row["num"]),
            "name": name,
            "commitment": COMMITMENT[row["commitment"]],
            "ops": int(row["ops"]),
            "sr": int(row["sr"]),
            "rp": {nation: int(row[col]) for col, nation in RP_COLUMNS.items() if row[col]},
            "combat_card": row["cc"] == "TRUE",
            "removed_after_event": row["remove"] == "TRUE",
            "optional": int(row["num"]) >= 56,
        }
        if row["ws"]:
            card["war_status"] = int(row["ws"])
        if row["event"]:
            card["event"] = row["event"]
        if row["reinf"]:
            nation = row["reinf_nation"].upper()
            card["reinforcements"] = {"nation": nation, "units": [_reinforcement(nation, r) for r in row["reinf"].split("|")]}
        if cid in PREREQUISITES:
            card["prerequisites"] = PREREQUISITES[cid]
        out[cid] = card
    return {
        "note": (
            "The 130 strategy cards (65 a side; #56-65 the optional ones) with their printed facts: commitment "
            "level, OPS, SR, RP by nation (A = Allied minor nations), combat card, removed after play as an "
            "event (*), war status, reinforcements (unit ids, or the counter type of a generic corps). Card texts "
            "are not reproduced. Prerequisites: only those the rules state (16.3, 16.4); other card texts' "
            "conditions are not transcribed. From Rally the Troops' cards.csv."
        ),
        "cards": out,
    }


def _reinforcement(nation: str, written: str) -> dict:
    if written.endswith("Army"):
        word = written.removesuffix(" Army")
        return {"unit": f"{nation}-{word.upper()}-ARMY"}
    stem, type_id, _ = CORPS[written]
    return {"corps": type_id}


def main() -> None:
    shared = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("../shared")
    folder = Path(__file__).resolve().parents[1]
    counter_data = counters(shared)
    (folder / "counters.json").write_text(json.dumps(counter_data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    ids: dict[str, list[str]] = {}
    card_data = cards(shared, ids)
    (folder / "cards.json").write_text(json.dumps(card_data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(counter_data['units'])} units, {len(card_data['cards'])} cards")


if __name__ == "__main__":
    main()
