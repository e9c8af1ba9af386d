"""Write the Paths of Glory sample turns and their start states into ``samples/paths-of-glory/``.

Run from the repo root: ``python modules/paths-of-glory/tools/build_samples.py``. Each sample is a situation of
1914-1915 written as a player would; an illegal one breaks exactly one rule, named in its file name, and the
verdict each should get is written here by hand from the rulebook (``EXPECTED``), never taken from pbem's output.
States are the 1914 set-up with the changes a situation needs.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
OUT = REPO / "samples" / "paths-of-glory"
SETUP = json.loads((REPO / "modules" / "paths-of-glory" / "scenarios" / "1914.json").read_text(encoding="utf-8"))


def state(name: str, *, turn: int = 1, moves: dict[str, str] | None = None, steps: dict[str, int] | None = None, **status) -> str:
    """A start state: the 1914 set-up at ``turn`` with units moved (id -> space or box) and status changed."""
    units = copy.deepcopy(SETUP["units"])
    for unit in units:
        if moves and unit["id"] in moves:
            unit["at"] = moves[unit["id"]]
        if steps and unit["id"] in steps:
            unit["step"] = steps[unit["id"]]
            if not unit["step"]:
                del unit["step"]
    data = {
        "module": "paths-of-glory",
        "scenario": "1914",
        "turn": turn,
        "first_side": "cp",
        "units": units,
        "status": copy.deepcopy(SETUP["status"]) | status,
    }
    (OUT / f"state-{name}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return f"state-{name}.json"


def turn(name: str, actions: list, *, start: str | None = None, turn_number: int = 1, note: str) -> None:
    data = {
        "module": "paths-of-glory",
        "scenario": "1914",
        "turn": turn_number,
        "side": "cp",
        "start": {"state": start} if start else {"scenario": "1914"},
        "note": note,
        "actions": actions,
    }
    (OUT / name).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def cp(n: int) -> dict:
    return {"phase": "action", "round": n, "side": "cp"}


def ap(n: int) -> dict:
    return {"phase": "action", "round": n, "side": "ap"}


CP_PASS = [cp(1), {"card": None, "use": "automatic"}]  # an automatic operation that activates nothing
EXPECTED: dict[str, dict] = {}


# 14.3.6: in the cut-off situation below, the spaces that cannot trace supply for their side in the Attrition phase.
ATTRITION_FLIPS = {"control": {"Cambrai": "ap", "Libya": "ap"}}


def legal(name: str, actions: list, **kw) -> None:
    turn(name, actions, **kw)
    EXPECTED[name] = {"ok": True, "rules": []}


def illegal(name: str, rule: str, actions: list, **kw) -> None:
    turn(name, actions, **kw)
    EXPECTED[name] = {"ok": False, "rules": [rule]}


def mismatch(name: str, rule: str, actions: list, **kw) -> None:
    illegal(name, rule, actions, **kw)


def build() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.json"):
        if old.name != "legal-01-guns-of-august-opening.json":
            old.unlink()
    EXPECTED["legal-01-guns-of-august-opening.json"] = {"ok": True, "rules": []}

    # --- states ---------------------------------------------------------------------------------------
    after_round6 = state("turn2-after-allied-sr", turn=2, last_play={"ap": {"turn": 1, "round": 6, "use": "sr"}, "cp": {"turn": 1, "round": 6, "use": "ops"}})
    antwerp = state("bef-in-antwerp", moves={"BR-BEF-ARMY": "Antwerp"})
    amiens = state("franco-british-amiens", moves={"BR-BEF-ARMY": "Amiens", "FR-5-ARMY": "Amiens"})
    yanks = state("franco-us-nancy", turn=14, moves={"US-1-ARMY": "Nancy", "FR-2-ARMY": "Verdun"}, commitment={"cp": "total_war", "ap": "total_war"}, war_status={"cp": 15, "ap": 16}, combined_war_status=31, neutral_nations=["BU", "GR", "RO"])
    west = state("ge-corps-in-brussels", turn=2, moves={"GE-CORPS-01": "Brussels", "BR-BEF-ARMY": "Paris", "FR-5-ARMY": "Chateau Thierry"}, control={"Brussels": "cp", "Liege": "cp"}, forts={"Liege": "destroyed"})
    calais = state("fr-corps-in-calais", moves={"FR-CORPS-01": "Calais", "FR-CORPS-02": "Bordeaux"})
    removed = state("guns-of-august-played", turn=2, events_played=["CP-01"], removed_cards=["CP-01"], war_status={"cp": 2, "ap": 0}, combined_war_status=2)
    limited = state("spring-1915-limited-war", turn=5, commitment={"cp": "limited_war", "ap": "limited_war"}, war_status={"cp": 5, "ap": 5}, combined_war_status=10, neutral_nations=["BU", "GR", "IT", "RO", "US"])
    total_both = state("total-war-both", turn=12, commitment={"cp": "total_war", "ap": "total_war"}, war_status={"cp": 12, "ap": 12}, combined_war_status=24, neutral_nations=["BU", "GR", "RO", "US"])
    total_cp = state("total-war-cp-only", turn=9, commitment={"cp": "total_war", "ap": "limited_war"}, war_status={"cp": 12, "ap": 9}, combined_war_status=21, neutral_nations=["BU", "GR", "IT", "RO", "US"])
    east = state("ru-1st-army-in-tannenberg", moves={"RU-1-ARMY": "Tannenberg"}, control={"Tannenberg": "ap"})
    round6 = state("turn1-round6-allied", round={"number": 6, "side": "ap"})
    sea = state("fr-corps-in-bordeaux", moves={"FR-CORPS-01": "Bordeaux", "FR-6-ARMY": "Bordeaux"})

    besieged = state("liege-besieged", turn=2, moves={"GE-1-ARMY": "Liege"}, forts={"Liege": "besieged"})
    entrench = state("cp-entrench-played", turn=2, events_played=["CP-06"], removed_cards=["CP-06"])

    after_round6_ws = state("turn2-cp-war-status-4", turn=2, war_status={"cp": 4, "ap": 1}, combined_war_status=5, events_played=["CP-01", "CP-09"], removed_cards=["CP-01", "CP-09"])
    verdun_full = state("verdun-full", moves={"FR-CORPS-01": "Verdun"})
    cut_off = state("ge-3rd-army-cut-off-in-cambrai", moves={"GE-3-ARMY": "Cambrai", "FR-3-ARMY": "Sedan", "FR-5-ARMY": "eliminated"}, control={"Cambrai": "cp", "Sedan": "ap"})
    over_there = state("over-there", turn=14, commitment={"cp": "total_war", "ap": "total_war"}, war_status={"cp": 16, "ap": 15}, combined_war_status=31,
                       neutral_nations=["BU", "GR", "RO"], events_played=["AP-54", "AP-55"], removed_cards=["AP-54", "AP-55"], event_turns={"AP-54": 12, "AP-55": 13})
    amiens_attack = state("bef-and-french-before-cambrai", turn=2, moves={"BR-BEF-ARMY": "Amiens", "FR-5-ARMY": "Amiens", "GE-3-ARMY": "Cambrai"}, control={"Cambrai": "cp"})
    sedan_retaken = state("ge-2nd-army-in-sedan", moves={"GE-2-ARMY": "Sedan", "FR-5-ARMY": "eliminated", "FR-9-ARMY": "Chateau Thierry"}, steps={"GE-2-ARMY": 1}, control={"Sedan": "cp"})
    sinai = state("summer-1915-sinai", turn=6, moves={"BR-CORPS-02": "Sinai", "TU-CORPS-13": "Gaza"}, neutral_nations=["BU", "GR", "IT", "RO", "US"])
    corps_aachen = state("ge-corps-in-aachen", moves={"GE-CORPS-01": "Aachen"})
    london = state("ge-corps-in-calais", turn=2, moves={"GE-CORPS-01": "Calais", "BR-1-ARMY": "London"}, control={"Calais": "cp"})
    caucasus = state("russian-corps-in-the-caucasus", turn=5, moves={"RU-CORPS-01": "Caucasus", "RU-CORPS-02": "Caucasus"}, neutral_nations=["BU", "GR", "IT", "RO", "US"], commitment={"cp": "limited_war", "ap": "mobilization"})
    rp_state = state("replacement-points", turn=2, replacement_points={"FR": 1, "GE": 1})

    # --- legal ----------------------------------------------------------------------------------------
    legal("legal-02-sr-across-the-turn-boundary.json", [
        cp(1), {"card": "CP-05", "use": "ops"}, {"activate": {"Bremen": "move"}, "cost": 1},
        {"move": "GE-CORPS-09", "path": ["Bremen", "Essen"]},
        ap(1), {"card": "AP-05", "use": "sr"}, {"move": "FR-CORPS-10", "path": ["Grenoble", "Lyon", "Nevers"], "by": "strategic"},
    ], start=after_round6, turn_number=2, note="9.3.3: the Allies played SR in round 6 of turn 1 and again in round 1 of turn 2 -- not the same turn.")
    legal("legal-03-belgian-and-british-cost-one.json", [
        *CP_PASS, ap(1), {"card": "AP-04", "use": "ops"}, {"activate": {"Antwerp": "move", "Belfort": "move"}, "cost": 2},
        {"move": ["BE-1-ARMY", "BR-BEF-ARMY"], "path": ["Antwerp", "Brussels"]},
    ], start=antwerp, note="9.2.3 (a): the Belgian army and the BEF in Antwerp activate for 1 OPS (Belgians count as British there).")
    legal("legal-04-french-and-americans-cost-one.json", [
        *CP_PASS, ap(1), {"card": "AP-36", "use": "ops"}, {"activate": {"Nancy": "attack"}, "cost": 1},
        {"attack": ["FR-1-ARMY", "US-1-ARMY"], "target": "Metz", "roll": 3, "defender_roll": 2, "result": "5/3",
         "losses": {"attacker": ["FR-1-ARMY"], "defender": ["GE-4-ARMY"]}, "note": "8 CF against Metz (forest, level 1 trench): the 6-8 column shifted left to 5, roll 3: 3; two GE armies and the fort (13 CF) shifted right to 15, roll 2: 5"},
    ], start=yanks, turn_number=14, note="9.2.3 (c): French and US units in France activate together for 1 OPS.")
    legal("legal-05-passing-through-amiens.json", [
        cp(1), {"card": "CP-03", "use": "ops"}, {"activate": {"Brussels": "move"}, "cost": 1},
        {"move": "GE-CORPS-01", "path": ["Brussels", "Cambrai", "Amiens", "Rouen"]},
    ], start=west, turn_number=2, note="11.1.9: before Race to the Sea a CP unit may pass through Amiens; it ends in Rouen.")
    legal("legal-06-two-space-retreat-ends-adjacent.json", [
        cp(1), {"card": "CP-13", "use": "ops"}, {"activate": {"Koblenz": "attack", "Metz": "attack"}, "cost": 2},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY", "GE-4-ARMY"], "target": "Sedan", "flank": {"pin": "Koblenz", "roll": 5},
         "roll": 2, "defender_roll": 5, "result": "3/5", "losses": {"attacker": ["GE-4-ARMY"], "defender": ["FR-5-ARMY"]},
         "retreats": {"FR-5-ARMY": ["Cambrai", "Chateau Thierry"]}, "advance": ["GE-2-ARMY"],
         "note": "Flank from Koblenz (Metz touches Verdun and Nancy: no +1), roll 5: success; 15 CF, roll 2: 5; the reduced FR army then fires 2 CF, roll 5: 3"},
    ], note="12.5.5: a 2-space retreat may end adjacent to the space it left (Sedan, Cambrai, Chateau Thierry).")
    legal("legal-07-automatic-operation.json", [
        cp(1), {"card": None, "use": "automatic"}, {"activate": {"Bremen": "move"}, "cost": 1},
        {"move": "GE-CORPS-09", "path": ["Bremen", "Hannover", "Kassel", "Frankfurt"]},
    ], note="8.1.3: an automatic operation activates one space (1 OPS) without a card; a reduced GE corps moves 4.")
    legal("legal-08-sea-redeployment.json", [
        *CP_PASS, ap(1), {"card": "AP-05", "use": "sr"},
        {"move": "FR-CORPS-01", "path": ["Bordeaux", "Marseilles"], "by": "sea"},
    ], start=sea, note="13.1.7: a corps redeploys by sea from one Allied port to another.")
    legal("legal-09-tie-no-retreat.json", [
        cp(1), {"card": "CP-05", "use": "ops"}, {"activate": {"Novi Sad": "attack"}, "cost": 1},
        {"attack": ["AH-5-ARMY"], "target": "Belgrade", "roll": 2, "defender_roll": 2, "result": "2/2",
         "losses": {"attacker": ["AH-5-ARMY"], "defender": ["SB-1-ARMY"]}, "note": "3 CF, roll 2: 2; the SB army and Belgrade's fort, 3 CF, roll 2: 2"},
    ], note="12.2.10: equal loss numbers: no retreat.")
    legal("legal-10-race-to-the-sea-then-calais.json", [
        cp(1), {"card": "CP-08", "use": "event"},
        ap(1), {"card": "AP-04", "use": "ops"}, {"activate": {"Belfort": "move"}, "cost": 1},
        cp(2), {"card": "CP-03", "use": "ops"}, {"activate": {"Brussels": "move"}, "cost": 1},
        {"move": "GE-CORPS-01", "path": ["Brussels", "Cambrai", "Calais"]},
    ], start=west, turn_number=2, note="11.1.9: once Race to the Sea is played, CP units may end in the Channel ports.")
    legal("legal-11-replacement-points.json", [
        cp(1), {"card": "CP-05", "use": "rp"},
        ap(1), {"card": "AP-07", "use": "rp"},
        cp(2), {"card": "CP-04", "use": "ops"}, {"activate": {"Bremen": "move"}, "cost": 1},
    ], note="9.4: RP plays record replacement points; the CP's next round is an OPS play.")

    legal("legal-12-mandated-offensives.json", [
        {"phase": "mandated_offensive"},
        {"roll": {"purpose": "mandated_offensive", "side": "cp", "value": 4, "result": "GE"}},
        {"roll": {"purpose": "mandated_offensive", "side": "ap", "value": 5, "result": "none"}, "note": "IT, but Italy is neutral (7.1.2)"},
        cp(1), {"card": "CP-05", "use": "rp"},
    ], note="7.1: both mandated offensive rolls of August 1914; the Allied 5 names neutral Italy, so no offensive.")
    legal("legal-13-liege-falls.json", [
        {"phase": "siege"},
        {"special": "siege", "at": "Liege", "roll": 6, "result": "destroyed", "note": "6 - 2 (turn 2) = 4 > LF 3"},
    ], start=besieged, turn_number=2, note="LR2022 15.3: the siege roll of September 1914 destroys Liege's fort.")
    legal("legal-14-entrench.json", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Insterberg": "move"}, "cost": 1},
        {"special": "entrench", "units": ["GE-8-ARMY"], "at": "Insterberg", "roll": 3, "result": "success"},
    ], start=entrench, turn_number=2, note="11.2.2: with Entrench played, the GE 8th Army digs instead of moving: 3 <= LF 3.")

    legal("legal-15-german-reinforcements.json", [
        cp(1), {"card": "CP-12", "use": "event"},
        {"reinforce": ["GE-10-ARMY"], "at": "Breslau"},
        {"remove": ["GE-CORPS-12", "GE-CORPS-13"], "to": "reserve"},
    ], start=removed, turn_number=2, note="9.5.3.2-9.5.3.3: the 10th Army enters at Breslau (a German supply source), its two corps go to the Reserve Box.")
    legal("legal-16-sr-out-of-the-reserve-box.json", [
        *CP_PASS, ap(1), {"card": "AP-05", "use": "sr"},
        {"reinforce": ["FR-CORPS-01"], "at": "Verdun"},
        {"remove": ["FR-CORPS-10"], "to": "reserve"},
    ], note="13.1.8-13.1.10: a French corps leaves the Reserve Box for Verdun (French units there) and another enters it; 2 SR points.")
    legal("legal-17-replacement-phase.json", [
        {"phase": "replacement"},
        {"replace": "FR-6-ARMY"},
        {"replace": "GE-CORPS-09"},
    ], start=rp_state, turn_number=2, note="17.1: 1 FR RP brings the reduced FR 6th Army to full strength; half a GE RP the reduced GE corps in Bremen.")

    # --- illegal: sequence and card plays -----------------------------------------------------------
    illegal("illegal-8.1.1-allies-act-first.json", "8.1.1", [
        ap(1), {"card": "AP-04", "use": "ops"},
    ], note="The Allies open the action phase: the CP acts first in each round.")
    illegal("illegal-8.1.1-two-cards-in-one-round.json", "8.1.1", [
        cp(1), {"card": "CP-05", "use": "rp"}, {"card": "CP-04", "use": "rp"},
    ], note="The CP plays two cards in its round 1.")
    illegal("illegal-8.1.1-seventh-round.json", "8.1.1", [
        cp(7), {"card": "CP-05", "use": "rp"},
    ], start=round6, note="After round 6 of the Allies, the CP play a seventh round.")
    illegal("illegal-8.1.3-no-card-for-ops.json", "8.1.3", [
        cp(1), {"card": None, "use": "ops"},
    ], note="An action without a card is only an automatic operation or a peace offer.")
    illegal("illegal-9.1.2-plays-the-enemy-card.json", "9.1.2", [
        cp(1), {"card": "AP-04", "use": "ops"},
    ], note="The CP play an Allied card.")
    illegal("illegal-16.1-limited-war-card-at-mobilization.json", "16.1", [
        cp(1), {"card": "CP-15", "use": "ops"},
    ], note="Chlorine Gas (Limited War) in August 1914, with the CP at Mobilization.")
    illegal("illegal-9.5.1.2-removed-card-played-again.json", "9.5.1.2", [
        cp(1), {"card": "CP-01", "use": "ops"},
    ], start=removed, turn_number=2, note="Guns of August was played as an event (starred) and removed; it shows up again.")
    illegal("illegal-9.1.3-card-played-twice.json", "9.1.3", [
        cp(1), {"card": "CP-10", "use": "ops"},
        ap(1), {"card": None, "use": "automatic"},
        cp(2), {"card": "CP-10", "use": "sr"},
    ], note="SUD Army, played for OPS in round 1, is in the discard pile: it cannot be played again this turn.")
    legal("legal-29-combat-card-kept-and-used-again.json", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack", "Metz": "move"}, "cost": 2},
        {"move": "GE-4-ARMY", "path": ["Metz", "Strasbourg"]},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "cards": ["CP-03"], "roll": 4, "defender_roll": 3, "result": "2/5",
         "losses": {"defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Chateau Thierry", "Cambrai"]}, "advance": ["GE-2-ARMY", "GE-3-ARMY"]},
        ap(1), {"card": None, "use": "automatic"},
        cp(2), {"card": None, "use": "automatic"}, {"activate": {"Aachen": "attack"}, "cost": 1},
        {"attack": ["GE-1-ARMY"], "target": "Liege", "cards": ["CP-03"], "roll": 1, "defender_roll": 1, "result": "0/0"},
    ], note="Von Francois won the Sedan battle: kept face up (9.5.4.2), the CP uses it again in the next action round (9.5.4.4).")
    illegal("illegal-9.3.3-sr-in-consecutive-rounds.json", "9.3.3", [
        cp(1), {"card": "CP-05", "use": "rp"},
        ap(1), {"card": "AP-05", "use": "sr"},
        cp(2), {"card": "CP-04", "use": "ops"},
        ap(2), {"card": "AP-07", "use": "sr"},
    ], note="The Allies play SR in rounds 1 and 2 of the same turn.")
    illegal("illegal-9.4.3-rp-in-consecutive-rounds.json", "9.4.3", [
        cp(1), {"card": "CP-05", "use": "rp"},
        ap(1), {"card": "AP-05", "use": "sr"},
        cp(2), {"card": "CP-04", "use": "rp"},
    ], note="The CP play RP in rounds 1 and 2 of the same turn.")
    illegal("illegal-9.5.3.1-reinforcements-in-august-1914.json", "9.5.3.1", [
        cp(1), {"card": "CP-07", "use": "event"},
    ], note="German Reinforcements as an event on the August 1914 turn.")
    illegal("illegal-9.5.3.1-two-reinforcements-one-nation.json", "9.5.3.1", [
        cp(1), {"card": "CP-07", "use": "event"},
        ap(1), {"card": "AP-05", "use": "sr"},
        cp(2), {"card": "CP-12", "use": "event"},
    ], start=removed, turn_number=2, note="Two German reinforcement events in one turn.")
    illegal("illegal-9.5.2.2-two-neutral-entries.json", "9.5.2.2", [
        cp(1), {"card": "CP-05", "use": "rp"},
        ap(1), {"card": "AP-17", "use": "event"},
        cp(2), {"card": "CP-34", "use": "event"},
    ], start=limited, turn_number=5, note="Italy enters for the Allies in Spring 1915; the CP bring Bulgaria in the same turn.")
    illegal("illegal-16.3.2-zimmermann-too-early.json", "16.3.2", [
        *CP_PASS, ap(1), {"card": "AP-54", "use": "event"},
    ], start=total_both, turn_number=12, note="Zimmermann Telegram at combined war status 24 (it needs 30).")
    illegal("illegal-9.5.2.5-italy-as-ops-under-the-lock.json", "9.5.2.5", [
        *CP_PASS, ap(1), {"card": "AP-17", "use": "ops"},
    ], start=total_cp, turn_number=9, note="CP at Total War, Allies not: Italy may only be played as an event.")
    illegal("illegal-16.5-peace-terms-at-10-vp.json", "16.5", [
        cp(1), {"card": None, "use": "peace_terms"},
    ], note="The CP offer peace terms at 10 VP (they need 11 or more).")

    mismatch("mismatch-7.1-wrong-mandated-offensive.json", "7.1", [
        {"phase": "mandated_offensive"},
        {"roll": {"purpose": "mandated_offensive", "side": "cp", "value": 3, "result": "GE"}},
    ], note="A CP roll of 3 is TU (Turkey is neutral in 1914, so no offensive), not GE.")
    mismatch("mismatch-15.3-fort-holds.json", "15.3", [
        {"phase": "siege"},
        {"special": "siege", "at": "Liege", "roll": 5, "result": "destroyed"},
    ], start=besieged, turn_number=2, note="5 - 2 = 3 is not above Liege's LF 3: the fort holds.")
    illegal("illegal-11.2.1-entrench-without-the-event.json", "11.2.1", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Insterberg": "move"}, "cost": 1},
        {"special": "entrench", "units": ["GE-8-ARMY"], "at": "Insterberg", "roll": 2, "result": "success"},
    ], turn_number=1, note="No Entrench event has been played.")
    illegal("illegal-11.2.2-corps-entrenches.json", "11.2.2", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Insterberg": "move"}, "cost": 1},
        {"special": "entrench", "units": ["GE-CORPS-10"], "at": "Insterberg", "roll": 1, "result": "success"},
    ], start=entrench, turn_number=2, note="Only armies dig trenches.")

    illegal("illegal-9.5.3.3-army-enters-away-from-capital.json", "9.5.3.3", [
        cp(1), {"card": "CP-07", "use": "event"},
        {"reinforce": ["GE-9-ARMY"], "at": "Frankfurt"},
    ], start=removed, turn_number=2, note="A reinforcing German army enters at Berlin or a German supply source, not Frankfurt.")
    illegal("illegal-9.5.3.2-corps-placed-on-the-map.json", "9.5.3.2", [
        cp(1), {"card": "CP-12", "use": "event"},
        {"reinforce": ["GE-10-ARMY", "GE-CORPS-12"], "at": "Breslau"},
    ], start=removed, turn_number=2, note="Reinforcing corps go to the Reserve Box.")
    illegal("illegal-13.1.8-reserve-corps-to-an-empty-space.json", "13.1.8", [
        *CP_PASS, ap(1), {"card": "AP-05", "use": "sr"},
        {"reinforce": ["FR-CORPS-01"], "at": "Cambrai"},
    ], note="A corps leaves the Reserve Box only for a space with a unit of its nation, or its capital or supply source.")
    illegal("illegal-17.1.1-not-enough-rp.json", "17.1.1", [
        {"phase": "replacement"},
        {"replace": "FR-6-ARMY"},
        {"replace": "FR-9-ARMY"},
    ], start=rp_state, turn_number=2, note="One FR RP restores one French army, not two.")
    illegal("illegal-17.1.2-replacement-in-the-action-phase.json", "17.1.2", [
        cp(1), {"card": "CP-05", "use": "rp"},
        {"replace": "GE-CORPS-09"},
    ], start=rp_state, turn_number=2, note="RP are spent only in the replacement phase.")

    illegal("illegal-12.5.1-defender-stays-after-losing.json", "12.5.1", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 4, "defender_roll": 3, "result": "2/5",
         "losses": {"defender": ["FR-5-ARMY"]}},
    ], note="The attackers won 5 to 2 with full-strength armies: the reduced FR 5th Army must retreat.")
    illegal("illegal-12.5.3-cancels-a-retreat-in-clear-terrain.json", "12.5.3", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Novi Sad": "attack"}, "cost": 1},
        {"attack": ["AH-5-ARMY"], "target": "Belgrade", "roll": 4, "defender_roll": 1, "result": "1/3", "declare": ["cancel_retreat"],
         "losses": {"defender": ["SB-1-ARMY", "SB-1-ARMY"]}, "replacements": {"SB-1-ARMY": "SB-CORPS-01"}},
    ], note="Belgrade is clear and has no trench: the Serbs may not take an extra step instead of retreating.")
    illegal("illegal-9.5.4-not-a-combat-card.json", "9.5.4", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "cards": ["CP-05"], "roll": 4, "defender_roll": 3, "result": "2/5",
         "losses": {"defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Chateau Thierry"]}},
    ], note="Landwehr is not a combat card.")
    illegal("illegal-9.5.4.1-defender-plays-first.json", "9.5.4.1", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "cards": ["AP-07", "CP-03"], "roll": 4, "defender_roll": 3, "result": "2/5",
         "losses": {"defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Chateau Thierry"]}},
    ], note="The Allies' Severe Weather comes before the CP's Von Francois: the attacker plays combat cards first.")
    legal("legal-18-cancel-the-retreat-in-a-forest.json", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 1, "defender_roll": 3, "result": "2/3", "declare": ["cancel_retreat"],
         "losses": {"defender": ["FR-5-ARMY", "FR-5-ARMY"]}, "replacements": {"FR-5-ARMY": "FR-CORPS-01"}},
    ], note="12.5.3: Sedan is a forest: the FR 5th Army takes the 3 it owes, then one more step (eliminated, a corps replaces it) instead of retreating; a step remains.")

    legal("legal-20-war-status-phase.json", [
        {"phase": "mandated_offensive"},
        {"roll": {"purpose": "mandated_offensive", "side": "cp", "value": 4, "result": "GE"}},
        {"roll": {"purpose": "mandated_offensive", "side": "ap", "value": 1, "result": "FR"}},
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 4, "defender_roll": 3, "result": "2/5",
         "losses": {"defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Cambrai", "Chateau Thierry"]}, "advance": ["GE-2-ARMY"]},
        ap(1), {"card": "AP-04", "use": "rp"},
        {"phase": "war_status"},
        {"reinforce": "TU-CORPS-01", "at": "Adrianople"}, {"reinforce": "TU-CORPS-03", "at": "Constantinople"},
    ], start=after_round6_ws, turn_number=2, note="7.1: the GE offensive is carried out at Sedan, the French one is not (VP +1 in the War Status phase); 16.1: CP war status 4 brings Limited War and Turkey into the war.")
    legal("legal-21-attrition.json", [
        {"phase": "attrition"},
        {"remove": "GE-3-ARMY", "to": "permanently_eliminated", "note": "cut off in Cambrai since the French took Sedan"},
        ATTRITION_FLIPS,
    ], start=cut_off, note="14.3.5: the GE 3rd Army in Cambrai traces no supply (Sedan and Brussels are Allied): attrition removes the army permanently; 14.3.6: Cambrai, and Libya (cut off while Turkey is neutral), pass to the Allies.")
    illegal("illegal-14.3.5-out-of-supply-army-survives.json", "14.3.5", [
        {"phase": "attrition"},
        ATTRITION_FLIPS,
        {"phase": "siege"},
    ], start=cut_off, note="The GE 3rd Army in Cambrai is out of supply and is not eliminated in the Attrition phase.")
    illegal("illegal-14.3.5-supplied-unit-eliminated.json", "14.3.5", [
        {"phase": "attrition"},
        {"remove": "GE-3-ARMY", "to": "permanently_eliminated"},
        {"eliminate": "GE-CORPS-09"},
        ATTRITION_FLIPS,
    ], start=cut_off, note="The GE corps in Bremen is in supply: attrition does not touch it.")
    legal("legal-22-americans-land-at-bordeaux.json", [
        *CP_PASS, ap(1), {"card": "AP-43", "use": "event"},
        {"reinforce": "US-1-ARMY", "at": "Bordeaux"},
        {"remove": ["US-CORPS-01", "US-CORPS-02"], "to": "reserve"},
    ], start=over_there, turn_number=14, note="9.5.3.3: after Over There, the US 1st Army lands at a French port; its corps go to the Reserve Box.")
    illegal("illegal-9.5.3.3-americans-enter-at-paris.json", "9.5.3.3", [
        *CP_PASS, ap(1), {"card": "AP-43", "use": "event"},
        {"reinforce": "US-1-ARMY", "at": "Paris"},
    ], start=over_there, turn_number=14, note="US armies enter at a friendly port in France, not Paris.")
    illegal("illegal-16.3.4-us-reinforcements-before-over-there.json", "16.3.4", [
        *CP_PASS, ap(1), {"card": "AP-43", "use": "event"},
    ], start=total_both, turn_number=12, note="No US reinforcement card before Over There.")
    legal("legal-23-italy-enters.json", [
        cp(1), {"card": "CP-05", "use": "rp"},
        ap(1), {"card": "AP-17", "use": "event"},
        {"reinforce": "IT-CORPS-05", "at": "Turin"}, {"reinforce": "IT-1-ARMY", "at": "Verona"},
        {"reinforce": "IT-4-ARMY", "at": "Asiago"}, {"reinforce": "IT-3-ARMY", "at": "Maggiore"},
        {"reinforce": "IT-2-ARMY", "at": "Udine"}, {"reinforce": "IT-CORPS-06", "at": "Rome"},
        {"reinforce": "IT-CORPS-07", "at": "Taranto"},
        {"remove": ["IT-CORPS-01", "IT-CORPS-02", "IT-CORPS-03", "IT-CORPS-04"], "to": "reserve"},
    ], start=limited, turn_number=5, note="9.5.2, 4.2.2: Italy enters the war in Spring 1915 and sets up as the Setup Chart says (the four armies reduced).")
    illegal("illegal-4.2.2-italian-army-set-up-elsewhere.json", "4.2.2", [
        cp(1), {"card": "CP-05", "use": "rp"},
        ap(1), {"card": "AP-17", "use": "event"},
        {"reinforce": "IT-1-ARMY", "at": "Venice"},
    ], start=limited, turn_number=5, note="The Italian 1st Army sets up in Verona.")
    legal("legal-24-bef-takes-the-first-loss.json", [
        *CP_PASS, ap(1), {"card": "AP-04", "use": "ops"}, {"activate": {"Amiens": "attack"}, "cost": 2},
        {"attack": ["BR-BEF-ARMY", "FR-5-ARMY"], "target": "Cambrai", "roll": 1, "defender_roll": 3, "result": "3/3",
         "losses": {"attacker": ["BR-BEF-ARMY"], "defender": ["GE-3-ARMY"]}},
    ], start=amiens_attack, turn_number=2, note="12.4.5: attacking with the BEF, its army takes the first loss; 8 CF, roll 1: 3; the GE 3rd Army, 5 CF, roll 3: 3; a tie.")
    illegal("illegal-12.4.5-french-army-takes-the-first-loss.json", "12.4.5", [
        *CP_PASS, ap(1), {"card": "AP-04", "use": "ops"}, {"activate": {"Amiens": "attack"}, "cost": 2},
        {"attack": ["BR-BEF-ARMY", "FR-5-ARMY"], "target": "Cambrai", "roll": 1, "defender_roll": 3, "result": "3/3",
         "losses": {"attacker": ["FR-5-ARMY"], "defender": ["GE-3-ARMY"]}},
    ], start=amiens_attack, turn_number=2, note="With the BEF Army attacking, the first loss is the BEF's (12.4.5 before 12.4.3).")
    legal("legal-25-french-retake-sedan.json", [
        *CP_PASS, ap(1), {"card": "AP-09", "use": "ops"}, {"activate": {"Chateau Thierry": "attack", "Verdun": "attack"}, "cost": 2},
        {"attack": ["FR-9-ARMY", "FR-3-ARMY", "FR-4-ARMY"], "target": "Sedan", "roll": 5, "defender_roll": 3, "result": "2/5",
         "losses": {"defender": ["GE-2-ARMY", "GE-CORPS-01", "GE-CORPS-01"]}, "replacements": {"GE-2-ARMY": "GE-CORPS-01"},
         "advance": ["FR-3-ARMY"]},
    ], start=sedan_retaken, note="LR2022 Extended Example, Allied action 2: 8 CF, roll 5 on 6-8: 5; the reduced GE 2nd Army goes, its replacing corps loses both steps; the GE fire 3 CF, roll 3: 2, below every French LF; the FR 3rd Army advances.")
    illegal("illegal-12.1.9.1-british-join-without-a-common-space.json", "12.1.9.1", [
        *CP_PASS, ap(1), {"card": "AP-09", "use": "ops"}, {"activate": {"Chateau Thierry": "attack", "Verdun": "attack", "Brussels": "attack"}, "cost": 3},
        {"attack": ["FR-9-ARMY", "FR-3-ARMY", "FR-4-ARMY", "BR-BEF-ARMY"], "target": "Sedan", "roll": 5, "defender_roll": 3, "result": "2/7",
         "losses": {"defender": ["GE-2-ARMY", "GE-CORPS-01", "GE-CORPS-01"]}, "replacements": {"GE-2-ARMY": "GE-CORPS-01"},
         "advance": ["FR-3-ARMY"]},
    ], start=sedan_retaken, note="The Extended Example: the BEF in Brussels cannot join, since no attacking space holds both French and British units.")
    two_attacks = [
        cp(1), {"card": "CP-13", "use": "ops"}, {"activate": {"Koblenz": "attack", "Metz": "attack"}, "cost": 2},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 1, "defender_roll": 3, "result": "2/3",
         "losses": {"defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Verdun"]}},
    ]
    legal("legal-26-retreated-into-the-next-target.json", [
        *two_attacks,
        {"attack": ["GE-4-ARMY", "GE-5-ARMY"], "target": "Verdun", "roll": 4, "defender_roll": 1, "result": "4/4",
         "losses": {"attacker": ["GE-4-ARMY"], "defender": ["FR-3-ARMY"]}, "eliminated": ["FR-5-ARMY"],
         "note": "the FR 5th Army, which retreated here, adds nothing (6 CF + fort 3, shifted to 12-14) and is eliminated by the loss"},
    ], note="12.5.6: a unit that retreated into a space attacked later in the round adds no CF and is eliminated by any loss.")
    illegal("illegal-12.5.6-retreated-unit-survives-the-next-attack.json", "12.5.6", [
        *two_attacks,
        {"attack": ["GE-4-ARMY", "GE-5-ARMY"], "target": "Verdun", "roll": 4, "defender_roll": 1, "result": "4/4",
         "losses": {"attacker": ["GE-4-ARMY"], "defender": ["FR-3-ARMY"]}},
    ], note="The FR 5th Army retreated into Verdun this round; the second attack's loss eliminates it.")
    legal("legal-27-overstacked-while-moving.json", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Metz": "move"}, "cost": 1},
        {"move": "GE-4-ARMY", "path": ["Metz", "Koblenz"]},
        {"move": "GE-5-ARMY", "path": ["Metz", "Koblenz"], "note": "four units in Koblenz for a moment"},
        {"move": "GE-5-ARMY", "path": ["Koblenz", "Aachen"]},
        ap(1), {"card": "AP-04", "use": "rp"},
    ], note="LR2022 10.1.2: a space may be overstacked during movement as long as the limit is met when movement ends.")
    legal("legal-28-liege-stormed.json", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Liege", "roll": 4, "defender_roll": 1, "result": "1/5",
         "declare": ["fort_destroyed"], "advance": ["GE-2-ARMY"],
         "note": "10 CF, roll 4: 5 against the lone fort (LF 3): destroyed; the fort fired 3 CF on the Corps table, roll 1: 1"},
    ], note="12.4.6: a fort alone is destroyed when the loss number reaches its LF; the attackers advance into Liege.")
    illegal("illegal-12.4.6-fort-survives-a-loss-above-its-lf.json", "12.4.6", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Liege", "roll": 4, "defender_roll": 1, "result": "1/5"},
    ], note="A loss number of 5 against Liege's lone fort (LF 3) destroys it.")
    illegal("illegal-15.2.5-attack-into-the-desert-in-summer.json", "15.2.5", [
        *CP_PASS, ap(1), {"card": "AP-04", "use": "ops"}, {"activate": {"Sinai": "attack"}, "cost": 1},
        {"attack": ["BR-CORPS-02"], "target": "Gaza", "roll": 6, "defender_roll": 1, "result": "1/0",
         "losses": {"attacker": ["BR-CORPS-02"]}, "note": "1 CF, roll 6 - 3 (Sinai): 0; the TU corps and fort, 3 CF, roll 1: 1"},
    ], start=sinai, turn_number=6, note="Summer 1915: a desert space is neither activated for combat nor attacked (LR2022 15.2.5).")
    legal("legal-19-liege-besieged.json", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Aachen": "move"}, "cost": 1},
        {"move": "GE-1-ARMY", "path": ["Aachen", "Liege"]},
        ap(1), {"card": "AP-04", "use": "rp"},
    ], note="15.2.1: one army entering Liege's space (fort LF 3) in a round besieges the fort.")
    illegal("illegal-15.2.1-one-corps-against-liege.json", "15.2.1", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Aachen": "move"}, "cost": 1},
        {"move": "GE-CORPS-01", "path": ["Aachen", "Liege"]},
        ap(1), {"card": "AP-04", "use": "rp"},
    ], start=corps_aachen, note="Liege's fort has LF 3: one corps cannot besiege it (an army or three corps).")
    illegal("illegal-12.1.10-london-attacks-alone.json", "12.1.10", [
        *CP_PASS, ap(1), {"card": "AP-04", "use": "ops"}, {"activate": {"London": "attack"}, "cost": 1},
        {"attack": ["BR-1-ARMY"], "target": "Calais", "roll": 1, "defender_roll": 1, "result": "0/1",
         "losses": {"defender": ["GE-CORPS-01"]}, "retreats": {"GE-CORPS-01": ["Ostend"]}},
    ], start=london, turn_number=2, note="Units in London attack only with friendly units in Belgium or France.")
    illegal("illegal-11.3.2-two-russian-corps-over-the-caucasus.json", "11.3.2", [
        *CP_PASS, ap(1), {"card": "AP-04", "use": "ops"}, {"activate": {"Caucasus": "move"}, "cost": 1},
        {"move": "RU-CORPS-01", "path": ["Caucasus", "Poti"]},
        {"move": "RU-CORPS-02", "path": ["Caucasus", "Grozny"]},
    ], start=caucasus, turn_number=5, note="Only one Russian corps a turn moves between the Caucasus space and the Near East.")
    illegal("illegal-13.2.2-two-russian-corps-redeploy-to-the-near-east.json", "13.2.2", [
        *CP_PASS, ap(1), {"card": "AP-05", "use": "sr"},
        {"move": "RU-CORPS-01", "path": ["Caucasus", "Poti"], "by": "strategic"},
        {"move": "RU-CORPS-02", "path": ["Caucasus", "Poti"], "by": "strategic"},
    ], start=caucasus, turn_number=5, note="One Russian corps a turn redeploys into or out of the Near East.")

    # --- illegal: activation ------------------------------------------------------------------------
    illegal("illegal-9.2.1-over-budget.json", "9.2.1", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack", "Metz": "move", "Aachen": "move"}, "cost": 3},
    ], note="A 2 OPS card activates three spaces.")
    illegal("illegal-9.2.1-automatic-operation-two-spaces.json", "9.2.1", [
        cp(1), {"card": None, "use": "automatic"}, {"activate": {"Bremen": "move", "Oppeln": "move"}, "cost": 2},
    ], note="An automatic operation is worth 1 OPS.")
    illegal("illegal-9.2.3-underpaid-franco-british-stack.json", "9.2.3", [
        *CP_PASS, ap(1), {"card": "AP-04", "use": "ops"}, {"activate": {"Amiens": "move"}, "cost": 1},
    ], start=amiens, note="A British and a French army in Amiens cost 2 OPS (France is not on the FR/US list for the British); paid 1.")
    illegal("illegal-9.2.6-activates-an-empty-space.json", "9.2.6", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Essen": "move"}, "cost": 1},
    ], note="Essen holds no unit: only occupied spaces are activated.")
    illegal("illegal-9.2.5-moves-out-of-an-attack-space.json", "9.2.5", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"move": "GE-2-ARMY", "path": ["Koblenz", "Frankfurt"]},
    ], note="Koblenz is activated for attack; its army moves instead.")

    # --- illegal: movement --------------------------------------------------------------------------
    illegal("illegal-11.1.3-path-jumps.json", "11.1.3", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Aachen": "move"}, "cost": 1},
        {"move": "GE-1-ARMY", "path": ["Aachen", "Frankfurt"]},
    ], note="Aachen and Frankfurt are not connected.")
    illegal("illegal-11.1.4-french-on-a-british-link.json", "11.1.4", [
        *CP_PASS, ap(1), {"card": "AP-04", "use": "ops"}, {"activate": {"Calais": "move"}, "cost": 1},
        {"move": "FR-CORPS-01", "path": ["Calais", "London"]},
    ], start=calais, note="London-Calais is a dashed line for British units only.")
    illegal("illegal-11.1.5-too-far.json", "11.1.5", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Aachen": "move"}, "cost": 1},
        {"move": "GE-1-ARMY", "path": ["Aachen", "Essen", "Bremen", "Hamburg"], "note": "MF 3, fine so far"},
        {"move": "GE-1-ARMY", "path": ["Hamburg", "Kiel"]},
    ], note="A GE army (MF 3) moves four spaces in two legs.")
    illegal("illegal-11.1.7-enters-enemy-units.json", "11.1.7", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "move"}, "cost": 1},
        {"move": "GE-2-ARMY", "path": ["Koblenz", "Sedan", "Cambrai"]},
    ], note="Sedan holds the FR 5th Army.")
    illegal("illegal-11.1.6-ends-on-an-attack-marker.json", "11.1.6", [
        cp(1), {"card": "CP-13", "use": "ops"}, {"activate": {"Koblenz": "attack", "Aachen": "move"}, "cost": 2},
        {"move": "GE-1-ARMY", "path": ["Aachen", "Koblenz"]},
    ], note="The GE 1st Army ends in Koblenz, which holds an Attack marker (and 3 units is fine).")
    illegal("illegal-11.1.9-cp-ends-in-amiens.json", "11.1.9", [
        cp(1), {"card": "CP-03", "use": "ops"}, {"activate": {"Brussels": "move"}, "cost": 1},
        {"move": "GE-CORPS-01", "path": ["Brussels", "Cambrai", "Amiens"]},
    ], start=west, turn_number=2, note="September 1914, no Race to the Sea, CP war status 0: a GE corps ends in Amiens.")
    illegal("illegal-11.1.8-passes-an-enemy-fort.json", "11.1.8", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Aachen": "move"}, "cost": 1},
        {"move": "GE-1-ARMY", "path": ["Aachen", "Liege", "Koblenz"]},
    ], note="Liege's fort is intact and not besieged: entering it ends the move.")
    illegal("illegal-11.1.11-enters-neutral-italy.json", "11.1.11", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Villach": "move"}, "cost": 1},
        {"move": "AH-CORPS-09", "path": ["Villach", "Maggiore"]},
    ], note="Italy is neutral in August 1914.")
    illegal("illegal-10.1.1-four-units-in-koblenz.json", "10.1.1", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Metz": "move"}, "cost": 1},
        {"move": ["GE-4-ARMY", "GE-5-ARMY"], "path": ["Metz", "Koblenz"]},
    ], note="Koblenz already holds two armies.")

    # --- illegal: strategic redeployment ------------------------------------------------------------
    illegal("illegal-13.1.2-army-on-two-sr-points.json", "13.1.2", [
        *CP_PASS, ap(1), {"card": "AP-04", "use": "sr"}, {"move": "FR-5-ARMY", "path": ["Sedan", "Chateau Thierry", "Paris"], "by": "strategic"},
    ], note="An army costs 4 SR points; Pleve gives 2.")
    illegal("illegal-13.1.7-army-by-sea.json", "13.1.7", [
        *CP_PASS, ap(1), {"card": "AP-01", "use": "sr"}, {"move": "FR-6-ARMY", "path": ["Bordeaux", "Marseilles"], "by": "sea"},
    ], start=sea, note="Only corps redeploy by sea.")
    illegal("illegal-13.1.6-sr-through-enemy-territory.json", "13.1.6", [
        *CP_PASS, ap(1), {"card": "AP-05", "use": "sr"}, {"move": "FR-CORPS-10", "path": ["Grenoble", "Turin"], "by": "strategic"},
    ], note="Turin lies in neutral Italy: not an Allied-controlled space, so no redeployment passes it.")

    # --- illegal: combat ----------------------------------------------------------------------------
    illegal("illegal-12.1.3-not-adjacent.json", "12.1.3", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Aachen": "attack"}, "cost": 1},
        {"attack": ["GE-1-ARMY"], "target": "Sedan", "roll": 3, "defender_roll": 3, "result": "2/3", "losses": {"defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Chateau Thierry"]}},
    ], note="Aachen is not adjacent to Sedan.")
    illegal("illegal-12.1.5-attacks-twice.json", "12.1.5", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"attack": ["GE-2-ARMY"], "target": "Liege", "roll": 1, "defender_roll": 1, "result": "1/2"},
        {"attack": ["GE-2-ARMY"], "target": "Sedan", "roll": 1, "defender_roll": 1, "result": "1/2", "retreats": {"FR-5-ARMY": ["Chateau Thierry"]}},
    ], note="The GE 2nd Army attacks Liege and then Sedan in one round.")
    mismatch("mismatch-12.2.8-wrong-loss-number.json", "12.2.8", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 4, "defender_roll": 3, "result": "2/7",
         "losses": {"defender": ["FR-5-ARMY", "FR-5-ARMY", "FR-CORPS-01"]}, "replacements": {"FR-5-ARMY": "FR-CORPS-01"},
         "retreats": {"FR-CORPS-01": ["Cambrai", "Amiens"]}},
    ], note="10 CF on the 9-11 column with a 4 is 5, not 7.")
    illegal("illegal-12.3.1-flank-into-a-trench.json", "12.3.1", [
        cp(1), {"card": "CP-13", "use": "ops"}, {"activate": {"Metz": "attack", "Strasbourg": "attack"}, "cost": 2},
        {"attack": ["GE-4-ARMY", "GE-5-ARMY", "GE-6-ARMY"], "target": "Nancy", "flank": {"pin": "Metz", "roll": 5},
         "roll": 6, "defender_roll": 6, "result": "7/7",
         "losses": {"attacker": ["GE-4-ARMY", "GE-4-ARMY", "GE-CORPS-01"], "defender": ["FR-1-ARMY", "FR-1-ARMY", "FR-CORPS-01"]},
         "replacements": {"GE-4-ARMY": "GE-CORPS-01", "FR-1-ARMY": "FR-CORPS-01"}},
    ], note="Nancy holds a level 1 trench: no flank attack. (Each side meets its 7 only by losing an army and a step of the corps replacing it, 12.4.3.)")
    illegal("illegal-12.4.3-loss-exceeds-the-number.json", "12.4.3", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 4, "defender_roll": 3, "result": "2/5",
         "losses": {"defender": ["FR-5-ARMY", "FR-5-ARMY"]}, "replacements": {"FR-5-ARMY": "FR-CORPS-01"},
         "retreats": {"FR-CORPS-01": ["Cambrai", "Amiens"]}},
    ], note="Loss number 5 against a full FR army (LF 3 a step): two steps are 6.")
    illegal("illegal-12.5.2-retreats-too-far.json", "12.5.2", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 1, "defender_roll": 3, "result": "2/3",
         "losses": {"defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Cambrai", "Amiens"]}},
    ], note="Loss numbers 2 and 3 differ by 1: the FR 5th Army retreats 1 space, not 2.")
    illegal("illegal-12.5.1-retreat-after-a-tie.json", "12.5.1", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 1, "defender_roll": 5, "result": "3/3",
         "losses": {"attacker": ["GE-2-ARMY"], "defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Cambrai"]}},
    ], note="Equal loss numbers: the defender does not retreat.")
    illegal("illegal-12.5.5-retreat-ends-overstacked.json", "12.5.5", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
        {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 1, "defender_roll": 3, "result": "2/3",
         "losses": {"defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Verdun"]}},
    ], start=verdun_full, note="Verdun already holds three French units: the retreat may not end there.")
    illegal("illegal-12.6.1-reduced-unit-advances.json", "12.6.1", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Mulhouse": "attack"}, "cost": 1},
        {"attack": ["GE-7-ARMY"], "target": "Belfort", "roll": 6, "defender_roll": 1, "result": "1/2",
         "losses": {"defender": ["FR-CORPS-08", "FR-CORPS-08"]}, "advance": ["GE-7-ARMY"]},
    ], note="The reduced GE 7th Army may not advance.")
    illegal("illegal-15.1.10-germans-attack-a-russian-fort.json", "15.1.10", [
        cp(1), {"card": "CP-04", "use": "ops"}, {"activate": {"Insterberg": "attack"}, "cost": 1},
        {"attack": ["GE-8-ARMY"], "target": "Kovno", "roll": 3, "defender_roll": 3, "result": "3/3",
         "losses": {"attacker": ["GE-8-ARMY"], "defender": ["RU-1-ARMY"]}},
    ], note="August 1914, no OberOst, CP war status 0: the GE 8th Army attacks Kovno (Russian fort).")
    illegal("illegal-15.1.11-russians-attack-a-german-fort.json", "15.1.11", [
        *CP_PASS, ap(1), {"card": "AP-04", "use": "ops"}, {"activate": {"Tannenberg": "attack"}, "cost": 1},
        {"attack": ["RU-1-ARMY"], "target": "Konigsberg", "roll": 6, "defender_roll": 1, "result": "1/4", "declare": ["fort_destroyed"]},
    ], start=east, note="August 1914: Russian units may not attack a German fort.")


def main() -> None:
    build()
    (OUT / "expected.json").write_text(json.dumps(dict(sorted(EXPECTED.items())), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(EXPECTED)} samples")


if __name__ == "__main__":
    main()
