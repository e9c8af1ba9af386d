"""Build ``scenarios/1914.json``: the August 1914 set-up of LR2022 4.1-4.2 and its Unit Setup pages.

Run from the repo root: ``python modules/paths-of-glory/tools/build_setup.py``. The set-up below is transcribed
from the 2022 rules' Unit Setup (facts: unit, space, reduced or not, trench); generic corps take the lowest free
instance ids of their nation in the order written. Neutral nations' units wait in the 'reinforcements' box and
their set-up on entry is kept in ``status.neutral_setup`` (Bulgaria's and Romania's "any other 4 spaces" are the
player's choice and are left open). The Classic VASSAL save is cross-checked in the tests.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

MODULE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(MODULE.parents[1]))

# (nation, space or box, units, trench level): a unit is "army N", "corps", or a named id; "(...)" = reduced.
CP = [
    ("AH", "reserve", ["corps"] * 4, 0),
    ("AH", "Cracow", ["corps"], 1), ("AH", "Tarnow", ["army 1"], 0), ("AH", "Przemysl", ["army 4"], 0),
    ("AH", "Tarnopol", ["army 3"], 0), ("AH", "Czernowitz", ["corps"], 0), ("AH", "Stanislau", ["corps"], 0),
    ("AH", "Munkacs", ["(army 2)"], 0), ("AH", "Timisvar", ["corps"], 0), ("AH", "Novi Sad", ["army 5"], 0),
    ("AH", "Sarajevo", ["army 6"], 0), ("AH", "Trent", [], 1), ("AH", "Villach", ["corps"], 1), ("AH", "Trieste", [], 1),
    ("GE", "reserve", ["corps"] * 8, 0),
    ("GE", "Bremen", ["(corps)"], 0), ("GE", "Aachen", ["army 1"], 0), ("GE", "Koblenz", ["army 2", "army 3"], 0),
    ("GE", "Metz", ["army 4", "army 5"], 1), ("GE", "Strasbourg", ["army 6"], 0), ("GE", "Mulhouse", ["(army 7)"], 1),
    ("GE", "Konigsberg", [], 1), ("GE", "Insterberg", ["army 8", "corps"], 0), ("GE", "Oppeln", ["(corps)"], 0),
]  # fmt: skip
AP = [
    ("BE", "Antwerp", ["army 1"], 0), ("BE", "reserve", ["corps"], 0),
    ("BR", "reserve", ["corps", "BR-BEF-CORPS"], 0), ("BR", "Brussels", ["BR-BEF-ARMY"], 1),
    ("BR", "Port Said", ["(corps)"], 1), ("BR", "Cairo", ["(corps)"], 1), ("BR", "Basra", ["(corps)"], 1),
    ("FR", "reserve", ["corps"] * 7, 0), ("FR", "Sedan", ["army 5"], 0), ("FR", "Verdun", ["army 3", "army 4"], 1),
    ("FR", "Nancy", ["army 1", "army 2"], 1), ("FR", "Belfort", ["corps", "corps"], 1), ("FR", "Bar le Duc", ["(army 9)"], 0),
    ("FR", "Paris", ["(army 6)"], 1), ("FR", "Grenoble", ["corps"], 0),
    ("MN", "Cetinje", ["MN-CORPS"], 0),
    ("RU", "reserve", ["corps"] * 5, 0), ("RU", "Riga", ["corps"], 1), ("RU", "Szawli", ["corps"], 0),
    ("RU", "Kovno", ["army 1"], 0), ("RU", "Grodno", ["corps"], 0), ("RU", "Lomza", ["army 2"], 0),
    ("RU", "Ivangorod", ["army 4"], 0), ("RU", "Lublin", ["army 5"], 0), ("RU", "Dubno", ["army 3"], 0),
    ("RU", "Kamenets-Podolski", ["army 8"], 0), ("RU", "Lutsk", ["corps"], 0), ("RU", "Odessa", ["corps"], 1),
    ("RU", "Batum", ["corps"], 0), ("RU", "Kars", ["corps"], 0), ("RU", "Erivan", ["corps"], 0),
    ("SB", "reserve", ["corps", "corps"], 0), ("SB", "Belgrade", ["army 1"], 0), ("SB", "Valjevo", ["army 2"], 0),
]  # fmt: skip
NEUTRAL = [
    ("BU", "Sofia", ["corps", "corps"], 0),
    ("GR", "Florina", ["corps"], 0), ("GR", "Larisa", ["corps"], 0), ("GR", "Athens", ["corps"], 0),
    ("IT", "reserve", ["corps"] * 4, 0), ("IT", "Turin", ["corps"], 0), ("IT", "Verona", ["(army 1)"], 0),
    ("IT", "Asiago", ["(army 4)"], 0), ("IT", "Maggiore", ["(army 3)"], 0), ("IT", "Udine", ["(army 2)"], 0),
    ("IT", "Rome", ["corps"], 0), ("IT", "Taranto", ["corps"], 0),
    ("RO", "Bucharest", ["corps", "corps"], 0),
    ("TU", "Adrianople", ["corps"], 0), ("TU", "Gallipoli", ["corps"], 0), ("TU", "Constantinople", ["corps"], 0),
    ("TU", "Balikesir", ["corps"], 0), ("TU", "Ankara", ["corps"], 0), ("TU", "Adana", ["corps"], 0),
    ("TU", "Rize", ["corps"], 0), ("TU", "Erzerum", ["corps"], 0), ("TU", "Giresun", [], 1), ("TU", "Van", ["corps"], 0),
    ("TU", "Mosul", ["corps"], 0), ("TU", "Baghdad", ["corps"], 1), ("TU", "Damascus", ["corps"], 0),
    ("TU", "Gaza", ["corps"], 1), ("TU", "Medina", ["corps"], 0),
]  # fmt: skip
# "Any other 4 spaces" of Bulgaria and Romania: one corps each, placed by the player on entry.
OPEN_CHOICES = {"BU": 4, "RO": 4}
CORPS_STEM = {"AH": "AH-CORPS", "GE": "GE-CORPS", "BE": "BE-CORPS", "BR": "BR-CORPS", "FR": "FR-CORPS", "RU": "RU-CORPS",
              "SB": "SB-CORPS", "BU": "BU-CORPS", "GR": "GR-CORPS", "IT": "IT-CORPS", "RO": "RO-CORPS", "TU": "TU-CORPS"}  # fmt: skip


def build() -> dict:
    from pbem.model.module import load_module

    module = load_module(MODULE)
    taken: set[str] = set()

    def unit_id(nation: str, written: str) -> tuple[str, int]:
        reduced = written.startswith("(")
        word = written.strip("()")
        if word.startswith("army "):
            uid = f"{nation}-{word.split()[1]}-ARMY"
        elif word == "corps":
            stem = CORPS_STEM[nation]
            free = [u for u in module.units if (u == stem or u.startswith(stem + "-") and u[len(stem) + 1 :].isdigit()) and u not in taken]
            if not free:
                raise SystemExit(f"{nation} {written}: no corps left")
            uid = free[0]
        else:
            uid = word
        if uid not in module.units or uid in taken:
            raise SystemExit(f"{nation} {written}: no such unit, or used twice ({uid})")
        taken.add(uid)
        return uid, int(reduced)

    units, trenches, neutral = [], {}, {}
    for side, rows in (("cp", CP), ("ap", AP)):
        for nation, where, written, trench in rows:
            for w in written:
                uid, step = unit_id(nation, w)
                units.append({"id": uid, "at": where} | ({"step": step} if step else {}))
            if trench:
                trenches[where] = {"level": trench, "owner": side}
    for nation, where, written, trench in NEUTRAL:
        placed = neutral.setdefault(nation, {})
        for w in written:
            uid, step = unit_id(nation, w)
            units.append({"id": uid, "at": "reinforcements"} | ({"step": step} if step else {}))  # enters on that face
            placed.setdefault(where, []).append(uid + (" (reduced)" if step else ""))
        if trench:
            placed.setdefault(where, [])
            neutral.setdefault("trenches", {})[where] = {"level": trench, "nation": nation}
    # Every other counter waits off the map: reinforcements, later entries, replacement pool.
    units += [{"id": uid, "at": "reinforcements"} for uid in module.units if uid not in taken]
    return {
        "$schema": "../../../schemas/scenario.schema.json",
        "id": "1914",
        "title": "August 1914 (the set-up of all three scenarios)",
        "module": "paths-of-glory",
        "source": "LR2022 4.0-4.2 and the Unit Setup pages of the 2022 rules; cross-checked with the VASSAL Classic save (tests, README).",
        "note": "Units not set up (neutral nations' units, reinforcements) wait in the reinforcements box; status.neutral_setup lists where each goes when its nation enters (Bulgaria and Romania also put one corps in each of 4 other spaces of their choice). Trenches are level 1 and belong to the side of the space's units.",
        "turn": 1,
        "last_turn": 20,
        "first_side": "cp",
        "side": "cp",
        "units": units,
        "status": {
            "vp": 10,
            "war_status": {"cp": 0, "ap": 0},
            "combined_war_status": 0,
            "commitment": {"cp": "mobilization", "ap": "mobilization"},
            "replacement_points": {},
            "current_cp_russian_vp": 0,
            "us_entry": "neutral",
            "vp_map": "classic",
            "russian_capitulation": "god_save_the_tsar",
            "trenches": trenches,
            "control": {},
            "forts": {},
            "events_played": [],
            "removed_cards": [],
            "neutral_nations": ["BU", "GR", "IT", "RO", "TU", "US"],
            "neutral_setup": neutral,
            "neutral_open_choices": OPEN_CHOICES,
        },
    }


def historical(standard: dict) -> dict:
    """The historical scenario (LR2022 5.7): the same set-up with 5.7.1's trench changes and 5.7.2's VP spaces."""
    data = json.loads(json.dumps(standard))
    status = data["status"]
    status["vp_map"] = "historical"
    status["trenches"]["Strasbourg"] = {"level": 1, "owner": "cp"}  # 5.7.1.1
    del status["trenches"]["Brussels"]  # 5.7.1.2
    for space in ("Verona", "Asiago", "Maggiore", "Udine"):  # 5.7.1.3: when Italy enters
        status["neutral_setup"]["trenches"][space] = {"level": 1, "nation": "IT"}
    data.update(
        id="1914-historical",
        title="August 1914, historical scenario (LR2022 5.7)",
        source="LR2022 5.7.1-5.7.2 applied to the 1914 set-up.",
        note=data["note"] + " Historical scenario: the historical map's VP spaces (5.7.2.2-5.7.2.3), a CP trench in "
        "Strasbourg and none in Brussels, Italian trenches on entry (5.7.1). Checked: 5.7.2.1 (no peace terms), 5.7.3 "
        "(the German RP), 5.7.4.1-5.7.4.7 (eight-card hands, trench rolls, Guns of August first, no Entrench on turn 1, "
        "the British MO on turn 1, armies in Italy, events that double as OPS); not yet: 5.7.4.8-5.7.4.9 (the "
        "end-of-game VP).",
    )
    data["options"] = {"hand_size": 8}  # 5.7.4.1: the optional eight-card hands (9.1.4)
    return data


def main() -> None:
    folder = MODULE / "scenarios"
    folder.mkdir(exist_ok=True)
    standard = build()
    for name, data in (("1914.json", standard), ("1914-historical.json", historical(standard))):
        (folder / name).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {folder / name}")


if __name__ == "__main__":
    main()
