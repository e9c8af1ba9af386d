"""Write the reviewer's audit turns into samples/no-retreat/audit/ with expected.json.

Each verdict below was decided from the printed tables (my_transcription.json) and the rulebook
(rules/zh/no-retreat.txt, digest rules/no-retreat.md) BEFORE pbem was run on the files.
Start states are copies of samples/no-retreat/state-1941.json with only the turn changed (weather from the
turn track: 2 clear, 3 mud, 4 snow).
"""
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[4]
OUT = REPO / "samples" / "no-retreat" / "audit"
BASE = json.loads((REPO / "samples" / "no-retreat" / "state-1941.json").read_text())


def state(turn: int, cities: dict | None = None, tag: str = "") -> str:
    name = f"state-turn{turn}{tag}.json"
    s = json.loads(json.dumps(BASE))
    s["turn"] = turn
    if cities:
        s["status"]["cities"].update(cities)
    s["$schema"] = "../../../schemas/state.schema.json"
    (OUT / name).write_text(json.dumps(s, indent=1) + "\n")
    return name


def turn(side: str, t: int, actions: list, start: str) -> dict:
    return {"$schema": "../../../schemas/turn.schema.json", "module": "no-retreat", "scenario": "illustrative",
            "turn": t, "side": side, "start": {"state": start}, "actions": actions}


MOVE = {"phase": "movement"}
COMBAT = {"phase": "combat"}
TO_MINSK = {"move": "GE-9ARMY", "path": ["1107", "1207"], "note": "open, 1 MP; next to Minsk"}


def axis_attack(column: str, roll: int, result: str, **extra) -> list:
    a = {"attack": ["GE-9ARMY"], "target": "1307", "column": column, "roll": roll, "result": result}
    a.update(extra)
    return [MOVE, TO_MINSK, COMBAT, a]


def soviet_attack(column: str, roll: int, result: str, **extra) -> list:
    a = {"attack": ["SU-3BYELORUSSIAN"], "target": "1306", "column": column, "roll": roll, "result": result}
    a.update(extra)
    return [COMBAT, a]


def fort_attack(**extra) -> list:
    a = {"attack": ["GE-16ARMY"], "target": "1902", "column": "5/1", "roll": 1, "result": "DR"}
    a.update(extra)
    return [COMBAT, a]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    s2, s3, s4 = state(2), state(3), state(4)
    files = {
        # --- TEC movement costs (mechanized / other columns) ---
        "legal-tec-forest-mech-6mp": (turn("axis", 2, [MOVE, {"move": "GE-1PANZER", "path": [
            "1206", "1106", "1007", "1108", "1208"], "note": "forest 2 + open 1 + open 1 + forest 2 = 6 of 6"}], s2),
            True, []),
        "illegal-tec-marsh-mech-10mp": (turn("axis", 2, [MOVE, {"move": "GE-1PANZER", "path": [
            "1206", "1106", "1007", "1108", "1208", "1209"], "note": "... + marsh 4 = 10 of 6"}], s2),
            False, ["TEC"]),
        "legal-tec-marsh-infantry-4mp": (turn("axis", 2, [MOVE, {"move": "GE-9ARMY", "path": [
            "1107", "1108", "1208", "1209"], "note": "open 1 + forest 1 + marsh 2 = 4 of 4"}], s2), True, []),
        "illegal-tec-marsh-infantry-6mp": (turn("axis", 2, [MOVE, {"move": "GE-9ARMY", "path": [
            "1107", "1108", "1208", "1209", "1309"], "note": "... + marsh 2 = 6 of 4"}], s2), False, ["TEC"]),
        "illegal-tec-lake-peipus": (turn("axis", 2, [MOVE, {"move": "GE-18ARMY", "path": ["1503", "1603"],
            "note": "across the Lake Peipus hexside: prohibited"}], s2), False, ["TEC"]),
        # --- weather rows of the TEC (turn track: 3 mud, 4 snow) ---
        "legal-tec-mud-3mp": (turn("axis", 3, [MOVE, {"move": "GE-1PANZER", "path": [
            "1206", "1205", "1304", "1404"], "note": "3 open hexes in mud (max 3); river N/E"}], s3), True, []),
        "illegal-tec-mud-4mp": (turn("axis", 3, [MOVE, {"move": "GE-1PANZER", "path": [
            "1206", "1205", "1304", "1404", "1405"], "note": "4 MP in mud (max 3)"}], s3), False, ["TEC"]),
        "legal-tec-snow-4mp": (turn("axis", 4, [MOVE, {"move": "GE-1PANZER", "path": [
            "1206", "1205", "1304", "1404", "1405"], "note": "4 MP in snow (max 4)"}], s4), True, []),
        "illegal-tec-snow-5mp": (turn("axis", 4, [MOVE, {"move": "GE-1PANZER", "path": [
            "1206", "1205", "1304", "1404", "1405", "1505"], "note": "5 MP in snow (max 4)"}], s4),
            False, ["TEC"]),
        # --- 6.5.2 unsupplied: 3 MP maximum ---
        "legal-6.5.2-unsupplied-3mp": (turn("axis", 2, [MOVE, {"move": "GE-18ARMY", "path": [
            "1503", "1504", "1505", "1405"], "note": "unsupplied, 3 open hexes"}], s2), True, []),
        "illegal-6.5.2-unsupplied-4mp": (turn("axis", 2, [MOVE, {"move": "GE-18ARMY", "path": [
            "1503", "1504", "1505", "1405", "1404"], "note": "unsupplied, 4 MP (MA 4, cap 3)"}], s2),
            False, ["6.5.2"]),
        # --- Axis CRT cells ---
        "legal-crt-axis-2-1-roll3-EX": (turn("axis", 2, axis_attack("2/1", 3, "EX", losses={
            "attacker": ["GE-9ARMY"], "defender": ["SU-3BYELORUSSIAN"]}), s2), True, []),
        "illegal-crt-axis-6-1-roll1-DS": (turn("axis", 2, axis_attack("6/1", 1, "DS", retreats={
            "SU-3BYELORUSSIAN": ["1308", "1309"]}), s2), False, ["CRT"]),
        "legal-crt-axis-1-3-roll5-CB": (turn("axis", 2, axis_attack("1/3", 5, "CB"), s2), True, []),
        "illegal-crt-axis-3-2-roll4-DR": (turn("axis", 2, axis_attack("3/2", 4, "DR", retreats={
            "SU-3BYELORUSSIAN": ["1308", "1309"]}), s2), False, ["CRT"]),
        "legal-crt-axis-4-1-roll2-DR": (turn("axis", 2, axis_attack("4/1", 2, "DR", retreats={
            "SU-3BYELORUSSIAN": ["1308", "1309"]}, advance=["GE-9ARMY"]), s2), True, []),
        # --- Soviet CRT cells (the Soviet attacks on its own table) ---
        "legal-crt-soviet-5-1-roll1-EX": (turn("soviet", 2, soviet_attack("5/1", 1, "EX", losses={
            "attacker": ["SU-3BYELORUSSIAN"], "defender": ["GE-4ARMY"]}), s2), True, []),
        "illegal-crt-soviet-5-1-roll1-DR": (turn("soviet", 2, soviet_attack("5/1", 1, "DR", retreats={
            "GE-4ARMY": ["1205", "1105"]}), s2), False, ["CRT"]),
        "legal-crt-soviet-1-3-roll4-CA": (turn("soviet", 2, soviet_attack("1/3", 4, "CA"), s2), True, []),
        "illegal-crt-soviet-2-1-roll6-DS": (turn("soviet", 2, soviet_attack("2/1", 6, "DS", retreats={
            "GE-4ARMY": ["1205", "1105"]}), s2), False, ["CRT"]),
        # --- Fort in the target hex (explanation of results) ---
        "legal-crt-fort-DR-no-effect": (turn("axis", 2, fort_attack(), s2), True, []),
        "illegal-crt-fort-DR-retreats": (turn("axis", 2, fort_attack(retreats={
            "SU-LENINGRAD": ["1903", "1904"]}), s2), False, ["CRT"]),
        # --- 5.5: a green-45 card before turn 23 ---
        "illegal-5.5-card-45-in-1941": (turn("axis", 2, [{"phase": "card"}, {"card": "45", "use": "event"}], s2),
            False, ["5.5"]),
    }
    # --- cards: 5.2 draw, 5.3.1 conditions, 5.3.3 Initiative icons, 5.5 no-45 cards in 1945 ---
    s2oil, s14, s26 = state(2, {"2022": "axis"}, "-axis-caucasus-oil"), state(14), state(26)
    card = {"phase": "card"}
    files.update({
        "illegal-5.2-soviet-draws-4-axis-holds-oil": (turn("soviet", 2, [card, {"special": "draw", "result": "4"}],
            s2oil), False, ["5.2"]),
        "legal-5.2-soviet-draws-3-axis-holds-oil": (turn("soviet", 2, [card, {"special": "draw", "result": "3"}],
            s2oil), True, []),
        "illegal-5.3.3-okh-after-initiative-change": (turn("axis", 14, [card, {"card": "5", "use": "event"}], s14),
            False, ["5.3.3"]),
        "legal-5.3.3-okh-axis-initiative": (turn("axis", 2, [card, {"card": "5", "use": "event"}], s2), True, []),
        "illegal-5.3.3-steam-roller-1941": (turn("soviet", 2, [card, {"card": "39", "use": "event"}], s2),
            False, ["5.3.3"]),
        "legal-5.3.3-steam-roller-1943": (turn("soviet", 14, [card, {"card": "39", "use": "event"}], s14), True, []),
        "illegal-5.3.1-summer-campaign-in-mud": (turn("axis", 3, [card, {"card": "13", "use": "event"}], s3),
            False, ["5.3.1"]),
        "legal-5.3.1-summer-campaign-clear": (turn("axis", 2, [card, {"card": "13", "use": "event"}], s2), True, []),
        "illegal-5.5-no45-card-april-1945": (turn("axis", 26, [card, {"card": "13", "use": "event"}], s26),
            False, ["5.5"]),
    })
    # --- 7.2 / 7.2.1 / 7.3.1 free Soviet upgrades (educate) ---
    org = {"phase": "organization"}
    one, two = ["SU-3BYELORUSSIAN"], ["SU-3BYELORUSSIAN", "SU-1BALTIC"]
    s5, s8, s13, s18 = state(5), state(8), state(13), state(18)
    files.update({
        "illegal-7.2-upgrade-turn-5": (turn("soviet", 5, [org, {"special": "educate", "units": one}], s5),
            False, ["7.2"]),
        "legal-7.2-one-upgrade-turn-8": (turn("soviet", 8, [org, {"special": "educate", "units": one}], s8), True, []),
        "illegal-7.2-two-upgrades-turn-8": (turn("soviet", 8, [org, {"special": "educate", "units": two}], s8),
            False, ["7.2"]),
        "legal-7.2.1-two-upgrades-turn-13": (turn("soviet", 13, [org, {"special": "educate", "units": two}], s13),
            True, []),
        "illegal-7.3.1-upgrade-turn-18": (turn("soviet", 18, [org, {"special": "educate", "units": one}], s18),
            False, ["7.3.1"]),
    })
    # --- long winter row, enemy ZOC row, 5.3 halves, 4.0 phase order ---
    files.update({
        "legal-tec-long-winter-4mp": (turn("axis", 5, [MOVE, {"move": "GE-1PANZER", "path": [
            "1206", "1205", "1304", "1404", "1405"], "note": "4 MP in long winter (max 4)"}], s5), True, []),
        "illegal-tec-long-winter-5mp": (turn("axis", 5, [MOVE, {"move": "GE-1PANZER", "path": [
            "1206", "1205", "1304", "1404", "1405", "1505"], "note": "5 MP in long winter (max 4)"}], s5),
            False, ["TEC"]),
        "legal-tec-ezoc-exit-4mp": (turn("axis", 2, [MOVE, {"move": "GE-4ARMY", "path": [
            "1306", "1305", "1304", "1404"], "note": "leaves Minsk's ZOC: 1+1, then 1, 1 = 4 of 4"}], s2), True, []),
        "illegal-tec-ezoc-exit-5mp": (turn("axis", 2, [MOVE, {"move": "GE-4ARMY", "path": [
            "1306", "1305", "1304", "1404", "1405"], "note": "1+1 exit + 3 = 5 of 4"}], s2), False, ["TEC"]),
        "illegal-5.3-soviet-plays-upper-half": (turn("soviet", 14, [card, {"card": "42", "use": "event/axis"}],
            s14), False, ["5.3"]),
        "illegal-4.0-soviet-moves-after-combat": (turn("soviet", 2, [COMBAT, MOVE, {"move": "SU-1BALTIC", "path": [
            "1407", "1507"]}], s2), False, ["4.0"]),
    })
    # --- fort and DD; ZOC of NoZOC (fortified) and unsupplied units (TEC: unsupplied loses ZOC) ---
    su_unsup = json.loads(json.dumps(BASE))
    for u in su_unsup["units"]:
        if u["id"] == "SU-3BYELORUSSIAN":
            u["markers"] = ["unsupplied"]
    su_unsup["$schema"] = "../../../schemas/state.schema.json"
    (OUT / "state-turn2-minsk-unsupplied.json").write_text(json.dumps(su_unsup, indent=1) + "\n")
    files.update({
        "legal-crt-fort-DD-step-no-retreat": (turn("axis", 2, fort_attack(column="6/1", roll=4, result="DD",
            losses={"defender": ["SU-LENINGRAD"]}), s2), True, []),
        "illegal-crt-fort-DD-no-step-lost": (turn("axis", 2, fort_attack(column="6/1", roll=4, result="DD"), s2),
            False, ["CRT"]),
        "legal-tec-leave-fort-nozoc-4mp": (turn("axis", 2, [MOVE, {"move": "GE-16ARMY", "path": [
            "1802", "1703", "1704", "1605", "1604"],
            "note": "next to the Leningrad fort (NoZOC): no +1 to exit; 1+1+1+1 = 4 of 4"}], s2), True, []),
        "legal-tec-leave-unsupplied-enemy-4mp": (turn("axis", 2, [MOVE, {"move": "GE-4ARMY", "path": [
            "1306", "1305", "1304", "1404", "1405"],
            "note": "Minsk's unit is unsupplied (loses ZOC): no +1 to exit; 4 of 4"}],
            "state-turn2-minsk-unsupplied.json"), True, []),
    })
    # --- advances the explanation of results forbids ---
    files.update({
        "illegal-crt-fort-DR-advance-into-held-hex": (turn("axis", 2, fort_attack(advance=["GE-16ARMY"]), s2),
            False, ["CRT"]),
        "illegal-crt-axis-EX-advance": (turn("axis", 2, axis_attack("2/1", 3, "EX", losses={
            "attacker": ["GE-9ARMY"], "defender": ["SU-3BYELORUSSIAN"]}, advance=["GE-9ARMY"]), s2), False, ["CRT"]),
    })
    expected = {}
    for name, (doc, ok, rules) in files.items():
        (OUT / f"{name}.json").write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
        expected[f"{name}.json"] = {"ok": ok, "rules": rules}
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")
    print(f"{len(files)} turns written to {OUT}")


if __name__ == "__main__":
    main()
