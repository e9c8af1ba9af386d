"""Build ``modules/ww2-crusader/counters.json``: the Crusader order of battle and what a 1941 campaign recruits.

Run from the repo root: ``python modules/ww2-crusader/tools/build_counters.py`` (``--check``: exit 1 when the
file differs from a rebuild).

The source names the set-up units (Ariete, Brescia, 5th Light Division; 7th and 9th Australian Divisions, 3rd
Armoured Brigade) and the 5th Light -> 21st Panzer reorganisation, and describes a unit card (recruit and
replenish RP, stamina, rows ③②① of attack-defence-base MP, AA value, extra MP, skills, reorganisation), but
prints no card. Every number below is therefore **supplied** (see ``SUPPLIED``): relative strengths follow the
units' 1941 establishments (a Panzer division's two tank battalions against an Italian armoured division's M13s,
an infantry division's three brigades against a brigade's one), so that a group without the cards can play;
a group with the real cards replaces this file. Names are in each army's language.

Steps run from the front: ③ full (no bar), ② reduced (black bar), ① understrength (white bar); small units
(brigades) have two rows, ③ and ②.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

MODULE = Path(__file__).resolve().parents[1]

# Card values by kind (supplied): rows ③②① as (attack, defence, base MP); stamina; extra MP; AA; recruit RP;
# replenish RP; waiting zone (W-Reinf/1: mechanised, cavalry and artillery recruits wait in zone 2).
KINDS = {
    "panzer_div": dict(rows=[(8, 6, 7), (6, 5, 7), (3, 3, 7)], stamina=5, extra=3, aa=2, rp=(16, 5)),
    "light_div": dict(rows=[(6, 5, 7), (4, 4, 7), (2, 2, 7)], stamina=4, extra=3, aa=2, rp=(14, 4)),
    "de_mot_div": dict(rows=[(5, 6, 5), (4, 4, 5), (2, 2, 5)], stamina=4, extra=2, aa=1, rp=(12, 4)),
    "it_armd_div": dict(rows=[(5, 4, 6), (4, 3, 6), (2, 2, 6)], stamina=4, extra=2, aa=1, rp=(12, 4)),
    "it_mot_div": dict(rows=[(4, 4, 5), (3, 3, 5), (1, 2, 5)], stamina=3, extra=2, aa=1, rp=(9, 3)),
    "it_inf_div": dict(rows=[(3, 4, 3), (2, 3, 3), (1, 2, 3)], stamina=3, extra=1, aa=0, rp=(6, 2)),
    "uk_armd_div": dict(rows=[(8, 5, 7), (6, 4, 7), (3, 2, 7)], stamina=5, extra=3, aa=1, rp=(16, 5)),
    "inf_div": dict(rows=[(4, 5, 3), (3, 4, 3), (2, 2, 3)], stamina=4, extra=1, aa=1, rp=(8, 3)),
    "strong_inf_div": dict(rows=[(5, 6, 4), (4, 4, 4), (2, 2, 4)], stamina=4, extra=1, aa=1, rp=(10, 3)),
    "armd_bde": dict(rows=[(4, 2, 7), (2, 1, 7)], stamina=3, extra=3, aa=0, rp=(6, 2)),
    "worn_armd_bde": dict(rows=[(3, 2, 7), (2, 1, 7)], stamina=3, extra=3, aa=0, rp=(5, 2)),
    "tank_bde": dict(rows=[(4, 4, 4), (3, 3, 4)], stamina=3, extra=1, aa=0, rp=(7, 2)),
    "mot_bde": dict(rows=[(2, 3, 5), (1, 2, 5)], stamina=3, extra=2, aa=0, rp=(4, 2)),
    "inf_bde": dict(rows=[(2, 3, 3), (1, 2, 3)], stamina=3, extra=1, aa=0, rp=(4, 1)),
}

# type id, unit id, name (own language), English aliases, side, nationality, arm, size, kind, year, armoured,
# mechanised, extras (formation, heavy, skills, reorganisation, note).
ORDER_OF_BATTLE = [
    ("de_5lei_1941", "DE-5LEI-1941", "5. leichte Division", ["5th Light Division", "5 lei"], "axis", "DE", "armour", "XX", "light_div", 1941, True, True,
     dict(formation="panzerkeil", reorganise={"into": "de_21pz_1941", "cost": 4, "condition": "supplied: none given (the source names the chain only)"},
          note="Crusader set-up (Axis supply source). Reorganises into 21. Panzer-Division (1941): the source's own example.")),
    ("de_21pz_1941", "DE-21PZ-1941", "21. Panzer-Division", ["21st Panzer Division", "21 Pz"], "axis", "DE", "armour", "XX", "panzer_div", 1941, True, True,
     dict(formation="panzerkeil", note="Formed from 5. leichte Division (1 August 1941); one formation with it (W-Unit/1).")),
    ("de_15pz_1941", "DE-15PZ-1941", "15. Panzer-Division", ["15th Panzer Division", "15 Pz"], "axis", "DE", "armour", "XX", "panzer_div", 1941, True, True,
     dict(formation="panzerkeil", note="Arrived in Libya April-May 1941.")),
    ("de_zbv_1941", "DE-ZBV-1941", "Division z.b.V. Afrika", ["Afrika Division", "zbV Afrika"], "axis", "DE", "motorized_infantry", "XX", "de_mot_div", 1941, False, True,
     dict(reorganise={"into": "de_90lei_1941", "cost": 3, "condition": "supplied: none given"},
          note="Formed in the summer of 1941 and renamed 90. leichte Afrika-Division in November 1941.")),
    ("de_90lei_1941", "DE-90LEI-1941", "90. leichte Afrika-Division", ["90th Light Division", "90 lei"], "axis", "DE", "motorized_infantry", "XX", "de_mot_div", 1941, False, True,
     dict(note="Reorganised from Division z.b.V. Afrika; one formation with it.")),
    ("de_21pz_1944", "DE-21PZ-1944", "21. Panzer-Division", ["21st Panzer Division (1944)"], "axis", "DE", "armour", "XX", "panzer_div", 1944, True, True,
     dict(formation="panzerkeil", note="Not a 1941 recruit: the source's example of the same name in another year (barred beside 21. Panzer-Division (1941), allowed beside 5. leichte Division).")),
    ("it_132_ariete", "IT-132-ARIETE", "132ª Divisione corazzata «Ariete»", ["Ariete", "132 Ariete"], "axis", "IT", "armour", "XX", "it_armd_div", 1941, True, True,
     dict(note="Crusader set-up (Axis supply source). Italian battle formations are not in the source.")),
    ("it_27_brescia", "IT-27-BRESCIA", "27ª Divisione di fanteria «Brescia»", ["Brescia", "27 Brescia"], "axis", "IT", "infantry", "XX", "it_inf_div", 1941, False, False,
     dict(note="Crusader set-up (Axis supply source).")),
    ("it_17_pavia", "IT-17-PAVIA", "17ª Divisione di fanteria «Pavia»", ["Pavia", "17 Pavia"], "axis", "IT", "infantry", "XX", "it_inf_div", 1941, False, False,
     dict(note="Besieged Tobruk in 1941 (XXI Corps).")),
    ("it_25_bologna", "IT-25-BOLOGNA", "25ª Divisione di fanteria «Bologna»", ["Bologna", "25 Bologna"], "axis", "IT", "infantry", "XX", "it_inf_div", 1941, False, False,
     dict(note="Besieged Tobruk in 1941 (XXI Corps).")),
    ("it_55_savona", "IT-55-SAVONA", "55ª Divisione di fanteria «Savona»", ["Savona", "55 Savona"], "axis", "IT", "infantry", "XX", "it_inf_div", 1941, False, False,
     dict(note="Held the frontier (Bardia, Sollum, Halfaya) in November 1941.")),
    ("it_102_trento", "IT-102-TRENTO", "102ª Divisione motorizzata «Trento»", ["Trento", "102 Trento"], "axis", "IT", "motorized_infantry", "XX", "it_mot_div", 1941, False, True,
     dict(note="Besieged Tobruk in 1941.")),
    ("it_101_trieste", "IT-101-TRIESTE", "101ª Divisione motorizzata «Trieste»", ["Trieste", "101 Trieste"], "axis", "IT", "motorized_infantry", "XX", "it_mot_div", 1941, False, True,
     dict(note="Arrived in Cyrenaica in the autumn of 1941 (XX Mobile Corps with Ariete).")),
    ("aus_9_div", "AUS-9-DIV", "9th Australian Division", ["9 Aus Div", "9th Australian Infantry Division"], "allied", "AUS", "infantry", "XX", "strong_inf_div", 1941, False, False,
     dict(note="Crusader set-up (in or within 1 hex of Tobruk): the 'Rats of Tobruk'.")),
    ("aus_7_div", "AUS-7-DIV", "7th Australian Division", ["7 Aus Div", "7th Australian Infantry Division"], "allied", "AUS", "infantry", "XX", "inf_div", 1941, False, False,
     dict(note="Crusader set-up (in or within 1 hex of Tobruk); its 18th Brigade held Tobruk in April 1941.")),
    ("uk_3_armd_bde", "UK-3-ARMD-BDE", "3rd Armoured Brigade", ["3 Armd Bde"], "allied", "UK", "armour", "X", "worn_armd_bde", 1941, True, True,
     dict(note="Crusader set-up (in or within 1 hex of Tobruk): the remnant of 2nd Armoured Division's tanks. A small unit (two rows).")),
    ("uk_7_armd_div", "UK-7-ARMD-DIV", "7th Armoured Division", ["7 Armd Div", "Desert Rats"], "allied", "UK", "armour", "XX", "uk_armd_div", 1941, True, True,
     dict(formation="royal_tank_corps", note="The Desert Rats (7th and 22nd Armoured Brigades and Support Group in Crusader).")),
    ("uk_1_armd_div", "UK-1-ARMD-DIV", "1st Armoured Division", ["1 Armd Div"], "allied", "UK", "armour", "XX", "uk_armd_div", 1941, True, True,
     dict(formation="royal_tank_corps", note="Arrived in Egypt in November-December 1941.")),
    ("uk_4_armd_bde", "UK-4-ARMD-BDE", "4th Armoured Brigade", ["4 Armd Bde"], "allied", "UK", "armour", "X", "armd_bde", 1941, True, True,
     dict(note="Stuart tanks in Crusader. A small unit (two rows).")),
    ("uk_1_atk_bde", "UK-1-ATK-BDE", "1st Army Tank Brigade", ["1 Army Tk Bde"], "allied", "UK", "armour", "X", "tank_bde", 1941, True, True,
     dict(heavy=True, note="Infantry tanks (Matilda, Valentine): an eligible small heavy unit for a battle formation (W-Form/1).")),
    ("uk_32_atk_bde", "UK-32-ATK-BDE", "32nd Army Tank Brigade", ["32 Army Tk Bde"], "allied", "UK", "armour", "X", "tank_bde", 1941, True, True,
     dict(heavy=True, note="Formed inside Tobruk in October 1941. Eligible small heavy unit (W-Form/1).")),
    ("uk_70_div", "UK-70-DIV", "70th Infantry Division", ["70 Div", "6th Infantry Division"], "allied", "UK", "infantry", "XX", "inf_div", 1941, False, False,
     dict(note="Relieved 9th Australian Division in Tobruk (autumn 1941).")),
    ("uk_22_gds_bde", "UK-22-GDS-BDE", "22nd Guards Brigade", ["22 Gds Bde"], "allied", "UK", "motorized_infantry", "X", "mot_bde", 1941, False, True,
     dict(skills=["Guards"], note="[Guards]: +2 stamina in recovery whenever supplied (W-Stam/3). A small unit (two rows).")),
    ("ind_4_div", "IND-4-DIV", "4th Indian Division", ["4 Ind Div", "4th Indian Infantry Division"], "allied", "IND", "infantry", "XX", "inf_div", 1941, False, False,
     dict(note="On the frontier (Sidi Omar) in Crusader.")),
    ("nz_2_div", "NZ-2-DIV", "2nd New Zealand Division", ["2 NZ Div"], "allied", "NZ", "infantry", "XX", "strong_inf_div", 1941, False, False,
     dict(note="Drove along the Trigh Capuzzo to Sidi Rezegh and Tobruk in Crusader.")),
    ("sa_1_div", "SA-1-DIV", "1st South African Infantry Division", ["1 SA Div"], "allied", "SA", "infantry", "XX", "inf_div", 1941, False, False,
     dict(note="Fought at Bir el Gubi and Sidi Rezegh in Crusader.")),
    ("pl_sbsk", "PL-SBSK", "Samodzielna Brygada Strzelców Karpackich", ["Polish Carpathian Brigade", "SBSK"], "allied", "PL", "infantry", "X", "inf_bde", 1941, False, False,
     dict(note="Relieved part of the Tobruk garrison in August-October 1941. A small unit (two rows).")),
]

NATIONALITIES = {
    "DE": ["German", "Germany", "Deutsch"],
    "IT": ["Italian", "Italy", "Italiano"],
    "UK": ["British", "United Kingdom", "GB"],
    "AUS": ["Australian", "Australia"],
    "IND": ["Indian", "India"],
    "NZ": ["New Zealand"],
    "SA": ["South African", "South Africa"],
    "PL": ["Polish", "Poland", "Polski"],
}
STATES = ["3", "2", "1"]  # the source's ③ full, ② reduced, ① understrength, front first
BARS = ["none", "black", "white"]  # the establishment bar each state shows (W-State/1)

SUPPLIED = {
    "values": "Every card value (rows ③②① attack-defence-base MP, stamina, extra MP, AA, recruit and replenish RP) is supplied: the source describes the unit card but prints none. Relative strengths follow the 1941 establishments (see tools/build_counters.py); chosen by the pbem module author, to be replaced by a group's own cards.",
    "reorganise.cost": "The RP cost of 5. leichte Division -> 21. Panzer-Division and Division z.b.V. Afrika -> 90. leichte Afrika-Division is supplied (the source gives the chain, not the card).",
    "order_of_battle": "Units beyond the set-up (15. Panzer, Div z.b.V. Afrika / 90. leichte, Pavia, Bologna, Savona, Trento, Trieste; 7th and 1st Armoured Divisions, 4th Armoured, 1st and 32nd Army Tank and 22nd Guards Brigades, 70th, 4th Indian, 2nd NZ, 1st SA Divisions, the Polish Carpathian Brigade) are what a campaign of 1941 in this area could recruit, from the Crusader order of battle; the source has no reinforcement card.",
    "small_units": "Small units (brigades) have two rows, ③ and ②; the source says small units have two rows but not which.",
    "formation": "Panzerkeil for German armoured divisions and the Royal Tank Corps formation for British armoured divisions follow W-Form/2; other nations' formations are not in the source (Italian units have none here).",
}


def build() -> dict:
    counter_types = {}
    units = []
    for tid, uid, name, aliases, side, nation, arm, size, kind, year, armoured, mech, extra in ORDER_OF_BATTLE:
        k = KINDS[kind]
        rows = k["rows"]
        attributes = {
            "designation": name,
            "year": year,
            "states": STATES[: len(rows)],
            "bars": BARS[: len(rows)],
            "stamina": k["stamina"],
            "extra_mp": k["extra"],
            "aa": k["aa"],
            "recruit_rp": k["rp"][0],
            "replenish_rp": k["rp"][1],
            "armoured": armoured,
            "small": len(rows) == 2,
            "waiting_zone": 2 if mech else 1,
        }
        for key in ("formation", "heavy", "skills", "reorganise"):
            if key in extra:
                attributes[key] = extra[key]
        counter_types[tid] = {
            "name": name,
            "side": side,
            "nationality": nation,
            "arm": arm,
            "size": size,
            "quality": None,
            "mechanized": mech,
            "steps": [{"attack": a, "defence": d, "move": m} for a, d, m in rows],
            "retreats": True,
            "source": "W-State/1 (card layout); Crusader set-up" if "set-up" in extra["note"] else "W-State/1 (card layout); supplied order of battle",
            "note": extra["note"] + " Values supplied (see 'supplied').",
            "attributes": attributes,
        }
        units.append({"id": uid, "type": tid, "name": f"{name} ({year})", "aliases": aliases})
    for t in counter_types.values():
        into = t["attributes"].get("reorganise", {}).get("into")
        if into is not None and into not in counter_types:
            raise SystemExit(f"{t['name']} reorganises into unknown type {into}")
    return {
        "note": (
            "WWII Campaign Edition 1.0, Crusader: one counter type per unit (a unit card). Steps front first: ③ full "
            "(no bar), ② reduced (black bar), ① understrength (white bar); attributes carry the rest of the card "
            "(stamina, extra MP, AA, recruit and replenish RP, formation, skills, reorganisation) and the unit's "
            "designation and year (W-Unit/1 identity). Every value is supplied: see 'supplied' and tools/build_counters.py."
        ),
        "supplied": SUPPLIED,
        "nationalities": NATIONALITIES,
        "counter_types": counter_types,
        "units": units,
    }


def main(argv: list[str]) -> int:
    text = json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
    target = MODULE / "counters.json"
    if "--check" in argv:
        same = target.exists() and target.read_text(encoding="utf-8") == text
        print("counters.json is up to date" if same else "counters.json differs from a rebuild")
        return 0 if same else 1
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target} ({len(ORDER_OF_BATTLE)} units)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
