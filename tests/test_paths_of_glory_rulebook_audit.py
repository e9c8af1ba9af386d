"""An independent rulebook audit of the Paths of Glory rules (issue 24).

Each case is written from the English 2022 living rules (`../shared/rules/en/paths-of-glory-deluxe-2022.txt`) alone,
by a reviewer who did not read the module's rules code: a small position (the August 1914 set-up with the map
cleared, then only the units a case needs), and a legal and an illegal variant of the same few actions. The
expected verdict is the rulebook's, written before pbem was run: legal, or illegal citing the rule given.
A case where pbem disagreed when the audit was written carries an ``xfail`` mark with the reason (see
/work/helpers/pog-audit-findings.md); the mark goes when pbem is fixed.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pbem.cli import main

MODULE = "paths-of-glory"
# the English 2022 living rules are the audit's source, so every case is played under that edition
EDITION = "lr2022"


def _run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        try:
            main([str(a) for a in args])
            code = 0
        except SystemExit as stop:
            code = stop.code or 0
    return code, out.getvalue()


_BASE: dict[str, dict] = {}


def base_state(scenario: str, folder: Path) -> dict:
    """The scenario's start state as pbem writes it (built once per scenario)."""
    if scenario not in _BASE:
        turn = folder / f"empty-{scenario}.json"
        turn.write_text(json.dumps({"module": MODULE, "scenario": scenario, "turn": 1, "side": "cp",
                                    "start": {"scenario": scenario}, "actions": []}))
        out = folder / f"base-{scenario}.json"
        code, _ = _run("check", turn, "--write-state", out)
        assert code == 0
        _BASE[scenario] = json.loads(out.read_text())
    return copy.deepcopy(_BASE[scenario])


@dataclass
class Case:
    """One rule, a legal and an illegal variant. ``units``: unit id -> space (or (space, step)); every other unit
    on the map is taken off (to the reinforcements box), boxes are kept."""

    id: str
    rule: str  # the rule the illegal variant breaks (any of several separated by "|")
    legal: list
    illegal: list
    units: dict = field(default_factory=dict)
    status: dict = field(default_factory=dict)
    turn: int = 3
    scenario: str = "1914"
    keep_map: bool = False
    piles: bool = False  # keep the card piles (else the state has none: unknown counts)
    illegal_status: dict | None = None  # a different position for the illegal variant
    illegal_units: dict | None = None
    illegal_turn: int | None = None
    illegal_scenario: str | None = None
    ambiguous: str = ""  # why the rulebook does not decide (such cases are not counted)
    xfail_legal: str = ""
    xfail_illegal: str = ""


BOXES = {"reserve", "eliminated", "permanently_eliminated", "reinforcements"}


def turn_and_scenario(case: Case, variant: str) -> tuple[int, str]:
    if variant == "illegal":
        return case.illegal_turn or case.turn, case.illegal_scenario or case.scenario
    return case.turn, case.scenario


def build_state(case: Case, folder: Path, variant: str) -> dict:
    turn, scenario = turn_and_scenario(case, variant)
    state = base_state(scenario, folder)
    units = case.illegal_units if variant == "illegal" and case.illegal_units is not None else case.units
    status = case.illegal_status if variant == "illegal" and case.illegal_status is not None else case.status
    for unit in state["units"]:
        if not case.keep_map and unit["at"] not in BOXES:
            unit["at"] = "reinforcements"
            unit.pop("step", None)
        if unit["id"] in units:
            where = units[unit["id"]]
            if isinstance(where, tuple):
                unit["at"], unit["step"] = where
            else:
                unit["at"] = where
                unit.pop("step", None)
    unknown = set(units) - {u["id"] for u in state["units"]}
    assert not unknown, unknown
    state["turn"] = turn
    for key, value in status.items():
        state["status"][key] = value
    if not case.piles:
        state.pop("cards", None)
    return state


def check(case: Case, folder: Path, variant: str) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    state = build_state(case, folder, variant)
    (folder / f"{case.id}-{variant}-state.json").write_text(json.dumps(state))
    number, scenario = turn_and_scenario(case, variant)
    turn = {"module": MODULE, "scenario": scenario, "turn": number, "side": "cp", "options": {"edition": EDITION},
            "start": {"state": f"{case.id}-{variant}-state.json"},
            "actions": case.legal if variant == "legal" else case.illegal}
    path = folder / f"{case.id}-{variant}.json"
    path.write_text(json.dumps(turn))
    code, out = _run("check", path, "--format", "json")
    assert code in (0, 1), out
    return json.loads(out)


def errors(report: dict) -> list[dict]:
    return [v for v in report["violations"] if v.get("severity") != "warning"]


def cited(report: dict) -> set[str]:
    rules = set()
    for v in errors(report):
        rules.add(v["rule"])
        rules.update(re.findall(r"\b(\d+(?:\.\d+)+)\b", v.get("message", "")))
    return rules


# ---------------------------------------------------------------------------------------------------------------
# small builders
def rnd(side: str, n: int = 1) -> dict:
    return {"phase": "action", "round": n, "side": side}


def card(cid, use="ops") -> dict:
    return {"card": cid, "use": use}


def act(cost: int | None = None, **spaces) -> dict:
    a = {"activate": {k.replace("_", " "): v for k, v in spaces.items()}}
    if cost is not None:
        a["cost"] = cost
    return a


def activate(spaces: dict, cost: int) -> dict:
    return {"activate": spaces, "cost": cost}


def mv(unit, *path, by=None) -> dict:
    a = {"move": unit, "path": list(path)}
    if by:
        a["by"] = by
    return a


def attack(units, target, roll, droll, result, **more) -> dict:
    a = {"attack": list(units), "target": target, "roll": roll, "defender_roll": droll, "result": result}
    a.update(more)
    return a


AUTO = {"card": None, "use": "automatic"}
CP1 = rnd("cp", 1)
AP1 = rnd("ap", 1)
# a CP first round that does nothing (8.1.1: the CP act first), for Allied cases: an automatic operation with no
# activation
CP_PASS = [CP1, AUTO]

CASES: list[Case] = []


def case(*args, **kwargs) -> None:
    CASES.append(Case(*args, **kwargs))


# ---------------------------------------------------------------------------------------------------------------
# 9.x Activation and OPS
case("9.2.1-budget", "9.2.1|9.2.3",
     units={"GE-CORPS-01": "Aachen", "GE-CORPS-02": "Frankfurt", "GE-CORPS-03": "Essen", "GE-4-ARMY": "Metz"},
     legal=[CP1, card("CP-07"), activate({"Aachen": "move", "Frankfurt": "move", "Essen": "move"}, 3)],
     illegal=[CP1, card("CP-07"), activate({"Aachen": "move", "Frankfurt": "move", "Essen": "move", "Metz": "move"}, 4)])
case("9.2.3-two-nationalities-cost-two", "9.2.3|9.2.1",
     units={"GE-2-ARMY": "Koblenz", "AH-CORPS-01": "Koblenz", "GE-CORPS-01": "Aachen"},
     legal=[CP1, card("CP-11"), activate({"Koblenz": "move"}, 2)],
     illegal=[CP1, card("CP-11"), activate({"Koblenz": "move", "Aachen": "move"}, 2)])
case("9.2.3-british-and-australians-one-nationality", "9.2.3|9.2.1",
     units={"BR-CORPS-01": "Cambrai", "BR-AUS-CORPS": "Cambrai"},
     illegal_units={"BR-CORPS-01": "Cambrai", "FR-CORPS-01": "Cambrai"},
     legal=CP_PASS + [AP1, AUTO, activate({"Cambrai": "move"}, 1)],
     illegal=CP_PASS + [AP1, AUTO, activate({"Cambrai": "move"}, 1)])
case("9.2.3-belgians-as-british-in-antwerp-only", "9.2.3|9.2.1",
     units={"BE-CORPS": "Antwerp", "BR-CORPS-01": "Antwerp"},
     illegal_units={"BE-CORPS": "Brussels", "BR-CORPS-01": "Brussels"},
     legal=CP_PASS + [AP1, AUTO, activate({"Antwerp": "move"}, 1)],
     illegal=CP_PASS + [AP1, AUTO, activate({"Brussels": "move"}, 1)])
case("9.2.3-french-and-americans-in-france-only", "9.2.3|9.2.1",
     status={"neutral_nations": ["BU", "GR", "IT", "RO", "TU"]},
     units={"FR-CORPS-01": "Chateau Thierry", "US-CORPS-01": "Chateau Thierry"},
     illegal_units={"FR-CORPS-01": "Brussels", "US-CORPS-01": "Brussels"},
     legal=CP_PASS + [AP1, AUTO, activate({"Chateau Thierry": "move"}, 1)],
     illegal=CP_PASS + [AP1, AUTO, activate({"Brussels": "move"}, 1)], turn=12)
case("9.2.6-only-occupied-spaces", "9.2.6",
     units={"GE-2-ARMY": "Koblenz"},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1)],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "move", "Frankfurt": "move"}, 2)])
SEDAN_ATTACK = attack(["GE-2-ARMY"], "Sedan", 4, 3, "2/4", losses={"defender": ["FR-5-ARMY"]},
                      retreats={"FR-5-ARMY": ["Chateau Thierry", "Melun"]})
case("9.2.5-attack-only-from-an-attack-space", "9.2.5|12.1.1",
     units={"GE-2-ARMY": "Koblenz", "FR-5-ARMY": "Sedan"},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "attack"}, 1), SEDAN_ATTACK],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), SEDAN_ATTACK])
case("9.2.5-move-only-from-a-move-space", "9.2.5",
     units={"GE-2-ARMY": "Koblenz"},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-2-ARMY", "Koblenz", "Aachen")],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "attack"}, 1), mv("GE-2-ARMY", "Koblenz", "Aachen")])
case("8.1.3-automatic-operation-is-one-ops", "9.2.1|8.1.3",
     units={"GE-2-ARMY": "Koblenz", "GE-CORPS-01": "Aachen"},
     legal=[CP1, AUTO, activate({"Koblenz": "move"}, 1)],
     illegal=[CP1, AUTO, activate({"Koblenz": "move", "Aachen": "move"}, 2)])

# 10.x Stacking, 11.x Movement
case("10.1.1-three-units-at-the-end-of-movement", "10.1.1",
     units={"GE-2-ARMY": "Koblenz", "GE-3-ARMY": "Koblenz", "GE-4-ARMY": "Koblenz", "GE-CORPS-01": "Frankfurt"},
     legal=[CP1, card("CP-07"), activate({"Frankfurt": "move"}, 1), mv("GE-CORPS-01", "Frankfurt", "Koblenz", "Aachen")],
     illegal=[CP1, card("CP-07"), activate({"Frankfurt": "move"}, 1), mv("GE-CORPS-01", "Frankfurt", "Koblenz")])
case("11.1.5-movement-factor", "11.1.5",
     units={"GE-2-ARMY": "Koblenz"},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-2-ARMY", "Koblenz", "Frankfurt", "Kassel", "Essen")],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1),
              mv("GE-2-ARMY", "Koblenz", "Frankfurt", "Kassel", "Essen", "Aachen")])
case("11.1.3-connected-spaces-only", "11.1.3",
     units={"GE-2-ARMY": "Koblenz"},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-2-ARMY", "Koblenz", "Aachen", "Essen")],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-2-ARMY", "Koblenz", "Essen")])
case("11.1.6-not-ending-on-an-attack-marker", "11.1.6",
     units={"GE-2-ARMY": "Koblenz", "GE-CORPS-01": "Frankfurt"},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "attack", "Frankfurt": "move"}, 2),
            mv("GE-CORPS-01", "Frankfurt", "Koblenz", "Aachen")],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "attack", "Frankfurt": "move"}, 2),
              mv("GE-CORPS-01", "Frankfurt", "Koblenz")])
case("11.1.7-never-into-enemy-units", "11.1.7",
     units={"GE-CORPS-01": "Koblenz"},
     illegal_units={"GE-CORPS-01": "Koblenz", "FR-CORPS-01": "Sedan"},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-CORPS-01", "Koblenz", "Sedan")],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-CORPS-01", "Koblenz", "Sedan")])
case("15.1.1-an-unbesieged-fort-ends-the-move", "15.1.1|11.1.8",
     units={"GE-2-ARMY": "Koblenz"},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-2-ARMY", "Koblenz", "Liege")],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-2-ARMY", "Koblenz", "Liege", "Brussels")])
case("11.1.8-corps-besiege-only-as-many-as-the-lf", "11.1.8|15.2.1",
     units={"GE-CORPS-01": "Koblenz", "GE-CORPS-02": "Koblenz", "GE-CORPS-03": "Koblenz"},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-CORPS-01", "Koblenz", "Liege"),
            mv("GE-CORPS-02", "Koblenz", "Liege"), mv("GE-CORPS-03", "Koblenz", "Liege")],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-CORPS-01", "Koblenz", "Liege")])
CAMBRAI_CP = {"control": {"Cambrai": "cp", "Sedan": "cp"}}
case("11.1.9-cp-may-pass-but-not-stop-in-amiens", "11.1.9",
     units={"GE-CORPS-01": "Cambrai"}, status=CAMBRAI_CP,
     legal=[CP1, card("CP-07"), activate({"Cambrai": "move"}, 1), mv("GE-CORPS-01", "Cambrai", "Amiens", "Rouen")],
     illegal=[CP1, card("CP-07"), activate({"Cambrai": "move"}, 1), mv("GE-CORPS-01", "Cambrai", "Amiens")])
case("11.1.9-race-to-the-sea-opens-amiens", "11.1.9",
     units={"GE-CORPS-01": "Cambrai"}, status={**CAMBRAI_CP, "events_played": ["CP-08"], "removed_cards": ["CP-08"]},
     illegal_status=CAMBRAI_CP,
     legal=[CP1, card("CP-07"), activate({"Cambrai": "move"}, 1), mv("GE-CORPS-01", "Cambrai", "Amiens")],
     illegal=[CP1, card("CP-07"), activate({"Cambrai": "move"}, 1), mv("GE-CORPS-01", "Cambrai", "Amiens")])
case("11.1.9-cp-war-status-4-opens-amiens", "11.1.9",
     units={"GE-CORPS-01": "Cambrai"}, status={**CAMBRAI_CP, "war_status": {"cp": 4, "ap": 0}},
     illegal_status={**CAMBRAI_CP, "war_status": {"cp": 3, "ap": 0}},
     legal=[CP1, card("CP-07"), activate({"Cambrai": "move"}, 1), mv("GE-CORPS-01", "Cambrai", "Amiens")],
     illegal=[CP1, card("CP-07"), activate({"Cambrai": "move"}, 1), mv("GE-CORPS-01", "Cambrai", "Amiens")])
case("11.1.11-albania-open-greece-neutral", "11.1.11",
     units={"AH-CORPS-05": "Cetinje"}, status={"control": {"Cetinje": "cp"}},
     legal=[CP1, card("CP-07"), activate({"Cetinje": "move"}, 1), mv("AH-CORPS-05", "Cetinje", "Tirana", "Valona")],
     illegal=[CP1, card("CP-07"), activate({"Cetinje": "move"}, 1),
              mv("AH-CORPS-05", "Cetinje", "Tirana", "Valona", "Florina")])
case("11.1.4-london-calais-british-only", "11.1.4|11.1.3",
     units={"BR-CORPS-01": "London"}, illegal_units={"FR-CORPS-01": "London"},
     legal=CP_PASS + [AP1, card("AP-10"), activate({"London": "move"}, 1), mv("BR-CORPS-01", "London", "Calais")],
     illegal=CP_PASS + [AP1, card("AP-10"), activate({"London": "move"}, 1), mv("FR-CORPS-01", "London", "Calais")])
# pbem numbers this rule as the seed edition does (15.1.11), the README says so: not a disagreement
case("15.1.12-no-russian-into-a-german-fort-in-august-1914", "15.1.12|15.1.11",
     units={"RU-1-ARMY": "Insterberg"}, status={"control": {"Insterberg": "ap"}}, turn=1,
     illegal_status={"control": {"Insterberg": "ap"}},
     legal=CP_PASS + [AP1, card("AP-10"), activate({"Insterberg": "move"}, 1), mv("RU-1-ARMY", "Insterberg", "Tannenberg")],
     illegal=CP_PASS + [AP1, card("AP-10"), activate({"Insterberg": "move"}, 1), mv("RU-1-ARMY", "Insterberg", "Konigsberg")])

# 11.2 Entrenching
ENTRENCHED = {"events_played": ["CP-06"], "removed_cards": ["CP-06"]}
case("11.2.1-entrench-needs-the-event", "11.2.1",
     units={"GE-2-ARMY": "Koblenz"}, status=ENTRENCHED, illegal_status={},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1),
            {"special": "entrench", "units": ["GE-2-ARMY"], "at": "Koblenz", "roll": 2}],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1),
              {"special": "entrench", "units": ["GE-2-ARMY"], "at": "Koblenz", "roll": 2}])
case("11.2.1-either-players-entrench-event", "11.2.1",
     units={"FR-5-ARMY": "Chateau Thierry"}, status=ENTRENCHED, illegal_status={},
     legal=CP_PASS + [AP1, card("AP-10"), activate({"Chateau Thierry": "move"}, 1),
                      {"special": "entrench", "units": ["FR-5-ARMY"], "at": "Chateau Thierry", "roll": 1}],
     illegal=CP_PASS + [AP1, card("AP-10"), activate({"Chateau Thierry": "move"}, 1),
                        {"special": "entrench", "units": ["FR-5-ARMY"], "at": "Chateau Thierry", "roll": 1}])
case("11.2.2-only-an-army-entrenches", "11.2.2|11.2.1",
     units={"GE-2-ARMY": "Koblenz", "GE-CORPS-01": "Aachen"}, status=ENTRENCHED,
     legal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1),
            {"special": "entrench", "units": ["GE-2-ARMY"], "at": "Koblenz", "roll": 2}],
     illegal=[CP1, card("CP-07"), activate({"Aachen": "move"}, 1),
              {"special": "entrench", "units": ["GE-CORPS-01"], "at": "Aachen", "roll": 1}])
case("11.2.2-roll-at-most-the-lf", "11.2.2",
     units={"GE-2-ARMY": "Koblenz"}, status=ENTRENCHED,
     legal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1),
            {"special": "entrench", "units": ["GE-2-ARMY"], "at": "Koblenz", "roll": 3, "result": "success"}],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1),
              {"special": "entrench", "units": ["GE-2-ARMY"], "at": "Koblenz", "roll": 4, "result": "success"}])
case("11.2.1-entrench-only-in-a-move-space", "11.2.1",
     units={"GE-2-ARMY": "Koblenz"}, status=ENTRENCHED,
     legal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1),
            {"special": "entrench", "units": ["GE-2-ARMY"], "at": "Koblenz", "roll": 2}],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "attack"}, 1),
              {"special": "entrench", "units": ["GE-2-ARMY"], "at": "Koblenz", "roll": 2}])
case("11.2.1-the-entrenching-army-does-not-move", "11.2.1",
     units={"GE-2-ARMY": "Koblenz", "GE-3-ARMY": "Koblenz"}, status=ENTRENCHED,
     legal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-3-ARMY", "Koblenz", "Aachen"),
            {"special": "entrench", "units": ["GE-2-ARMY"], "at": "Koblenz", "roll": 2}],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-2-ARMY", "Koblenz", "Aachen"),
              {"special": "entrench", "units": ["GE-2-ARMY"], "at": "Aachen", "roll": 2}])

# 12.x Combat (fire tables: the module's tables.json, the rulebook's Combat Example 2 checks the trench shift)
KOBLENZ_ARMIES = {"GE-2-ARMY": "Koblenz", "GE-3-ARMY": "Koblenz", "FR-5-ARMY": "Sedan"}
ATTACK_KOBLENZ = [CP1, card("CP-07"), activate({"Koblenz": "attack"}, 1)]
# 10 CF on the Army table (9-11), roll 4: 5; FR 3 CF (3), roll 3: 2; forest: no shift
case("12.2.8-army-fire-table", "12.2.8|12.2.9|12.4.1",
     units=KOBLENZ_ARMIES,
     legal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Sedan", 4, 3, "2/5", losses={"defender": ["FR-5-ARMY"]},
                                    retreats={"FR-5-ARMY": ["Chateau Thierry", "Melun"]})],
     illegal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Sedan", 4, 3, "2/4", losses={"defender": ["FR-5-ARMY"]},
                                      retreats={"FR-5-ARMY": ["Chateau Thierry", "Melun"]})])
# 4 CF of corps on the Corps table, roll 3: 1; one FR corps (1), roll 5: 1; tie, no retreat
case("12.2.8-corps-fire-table", "12.2.8|12.2.9|12.4.1",
     units={"GE-CORPS-01": "Koblenz", "GE-CORPS-02": "Koblenz", "FR-CORPS-01": "Sedan"},
     legal=ATTACK_KOBLENZ + [attack(["GE-CORPS-01", "GE-CORPS-02"], "Sedan", 3, 5, "1/1",
                                    losses={"attacker": ["GE-CORPS-01"], "defender": ["FR-CORPS-01"]})],
     illegal=ATTACK_KOBLENZ + [attack(["GE-CORPS-01", "GE-CORPS-02"], "Sedan", 3, 5, "2/1",
                                      losses={"attacker": ["GE-CORPS-01"], "defender": ["FR-CORPS-01"]})])
# level 2 trench (Combat Example 2): attacker 2 left (9-11 -> 5), roll 4: 4; defender 1 right (3 -> 4), roll 3: 3
SEDAN_CP = {"control": {"Sedan": "cp", "Cambrai": "ap"}}
case("12.2.8-level-2-trench-shifts", "12.2.8|12.2.9|12.4.1",
     units={"GE-2-ARMY": "Sedan", "GE-3-ARMY": "Sedan", "FR-5-ARMY": "Cambrai"},
     status={**SEDAN_CP, "trenches": {"Cambrai": {"level": 2, "owner": "ap"}}},
     legal=[CP1, card("CP-07"), activate({"Sedan": "attack"}, 1),
            attack(["GE-2-ARMY", "GE-3-ARMY"], "Cambrai", 4, 3, "3/4", losses={"attacker": ["GE-2-ARMY"], "defender": ["FR-5-ARMY"]},
                   retreats={"FR-5-ARMY": ["Amiens"]})],
     illegal=[CP1, card("CP-07"), activate({"Sedan": "attack"}, 1),
              attack(["GE-2-ARMY", "GE-3-ARMY"], "Cambrai", 4, 3, "2/5", losses={"defender": ["FR-5-ARMY"]},
                     retreats={"FR-5-ARMY": ["Amiens", "Rouen"]})])
# mountain: attacker 1 left (3 -> 2), roll 4: 2; SB 2 CF (2), roll 2: 1
case("12.2.8-mountain-shift", "12.2.8|12.2.9|12.4.1",
     units={"AH-6-ARMY": "Sarajevo", "SB-2-ARMY": "Valjevo"},
     legal=[CP1, card("CP-07"), activate({"Sarajevo": "attack"}, 1),
            attack(["AH-6-ARMY"], "Valjevo", 4, 2, "1/2", losses={"defender": ["SB-2-ARMY"]}, retreats={"SB-2-ARMY": ["Nis"]})],
     illegal=[CP1, card("CP-07"), activate({"Sarajevo": "attack"}, 1),
              attack(["AH-6-ARMY"], "Valjevo", 4, 2, "1/3", losses={"defender": ["SB-2-ARMY"]}, retreats={"SB-2-ARMY": ["Nis"]})])
case("12.1.4-attack-an-adjacent-space", "12.1.4|12.1.3",
     units={"GE-2-ARMY": "Koblenz", "GE-3-ARMY": "Frankfurt", "FR-5-ARMY": "Sedan"},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "attack"}, 1), SEDAN_ATTACK],
     illegal=[CP1, card("CP-07"), activate({"Frankfurt": "attack"}, 1),
              attack(["GE-3-ARMY"], "Sedan", 4, 3, "2/4", losses={"defender": ["FR-5-ARMY"]},
                     retreats={"FR-5-ARMY": ["Chateau Thierry", "Melun"]})])
# GE 5 CF vs BE 2 + fort 3 = 5 CF, both roll 1: 2/2, nothing can be taken (LF 3), a tie
LIEGE_TIE = attack(["GE-3-ARMY"], "Liege", 1, 1, "2/2")
# pbem cites the seed's number (12.1.5) for this sentence of LR2022 12.1.6: a numbering difference
case("12.1.6-a-unit-attacks-once-an-action", "12.1.6|12.1.5",
     units={**KOBLENZ_ARMIES, "BE-1-ARMY": "Liege"},
     legal=ATTACK_KOBLENZ + [SEDAN_ATTACK, LIEGE_TIE],
     illegal=ATTACK_KOBLENZ + [SEDAN_ATTACK, attack(["GE-2-ARMY"], "Liege", 1, 1, "2/2")])
# GE 5 CF roll 1: 2; FR 3 CF roll 3: 2: a tie; the same space again from Metz
case("12.1.6-a-space-is-attacked-once-an-action", "12.1.6",
     units={"GE-2-ARMY": "Koblenz", "GE-4-ARMY": "Metz", "FR-5-ARMY": "Sedan"},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "attack", "Metz": "attack"}, 2),
            attack(["GE-2-ARMY", "GE-4-ARMY"], "Sedan", 1, 3, "2/3", losses={"defender": ["FR-5-ARMY"]},
                   retreats={"FR-5-ARMY": ["Chateau Thierry"]})],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "attack", "Metz": "attack"}, 2),
              attack(["GE-2-ARMY"], "Sedan", 1, 3, "2/2"), attack(["GE-4-ARMY"], "Sedan", 1, 3, "2/2")])
# flank: pin Sedan, Brussels free (+1): roll 3 -> 4 succeeds; GE fire first: 10 CF roll 4: 5, FR-5 loses a step;
# FR fires with 2 CF, roll 6: 3 (3 CF would give 4)
FLANK_UNITS = {"GE-2-ARMY": "Sedan", "GE-3-ARMY": "Brussels", "FR-5-ARMY": "Cambrai"}
FLANK_STATUS = {"control": {"Sedan": "cp", "Brussels": "cp"}}
FLANK_ACT = [CP1, card("CP-07"), activate({"Sedan": "attack", "Brussels": "attack"}, 2)]
def flank_attack(result, roll=3):
    return attack(["GE-2-ARMY", "GE-3-ARMY"], "Cambrai", 4, 6, result, flank={"pin": "Sedan", "roll": roll},
                  losses={"attacker": ["GE-2-ARMY"], "defender": ["FR-5-ARMY"]}, retreats={"FR-5-ARMY": ["Amiens", "Rouen"]})
case("12.3.3-a-successful-flank-attack-fires-first", "12.3.3|12.2.8|12.2.9|12.4.1",
     units=FLANK_UNITS, status=FLANK_STATUS,
     legal=FLANK_ACT + [flank_attack("3/5")], illegal=FLANK_ACT + [flank_attack("4/5")])
case("12.3.1-no-flank-attack-into-a-trench", "12.3.1",
     units=FLANK_UNITS, status=FLANK_STATUS,
     illegal_status={**FLANK_STATUS, "trenches": {"Cambrai": {"level": 1, "owner": "ap"}}},
     legal=FLANK_ACT + [flank_attack("3/5")], illegal=FLANK_ACT + [flank_attack("3/5")])
case("12.3.1-a-flank-attack-needs-an-army", "12.3.1",
     units=FLANK_UNITS, status=FLANK_STATUS,
     illegal_units={"GE-CORPS-01": "Sedan", "GE-CORPS-02": "Brussels", "FR-5-ARMY": "Cambrai"},
     legal=FLANK_ACT + [flank_attack("3/5")],
     illegal=FLANK_ACT + [attack(["GE-CORPS-01", "GE-CORPS-02"], "Cambrai", 4, 6, "3/1", flank={"pin": "Sedan", "roll": 3})])
case("12.4.3-never-more-than-the-loss-number", "12.4.3",
     units=KOBLENZ_ARMIES,
     legal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Sedan", 4, 3, "2/5", losses={"defender": ["FR-5-ARMY"]},
                                    retreats={"FR-5-ARMY": ["Chateau Thierry", "Melun"]})],
     illegal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Sedan", 4, 3, "2/5",
                                      losses={"defender": ["FR-5-ARMY", "FR-5-ARMY"]})])
# GE 5 CF roll 1: 2; two FR corps (2 CF, Corps table) roll 1: 0; both corps must lose a step
case("12.4.3-as-much-of-the-loss-number-as-possible", "12.4.3",
     units={"GE-2-ARMY": "Koblenz", "FR-CORPS-01": "Sedan", "FR-CORPS-02": "Sedan"},
     legal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY"], "Sedan", 1, 1, "0/2", losses={"defender": ["FR-CORPS-01", "FR-CORPS-02"]},
                                    retreats={"FR-CORPS-01": ["Chateau Thierry", "Melun"], "FR-CORPS-02": ["Chateau Thierry", "Melun"]})],
     illegal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY"], "Sedan", 1, 1, "0/2", losses={"defender": ["FR-CORPS-01"]},
                                      retreats={"FR-CORPS-01": ["Chateau Thierry", "Melun"], "FR-CORPS-02": ["Chateau Thierry", "Melun"]})])
# the rulebook's 12.4.3 example: a full and a reduced French army (3 + 2 CF) suffer 5: the reduced army goes, a corps
# replaces it and loses both steps. GE 10 CF roll 4: 5; FR 5 CF roll 3: 3.
CT_ATTACK = [CP1, card("CP-07"), activate({"Sedan": "attack"}, 1)]
case("12.4.3-the-rulebook-example", "12.4.3",
     units={"GE-2-ARMY": "Sedan", "GE-3-ARMY": "Sedan", "FR-3-ARMY": "Chateau Thierry", "FR-4-ARMY": ("Chateau Thierry", 1)},
     status={"control": {"Sedan": "cp"}},
     legal=CT_ATTACK + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Chateau Thierry", 4, 3, "3/5",
                               losses={"attacker": ["GE-2-ARMY"], "defender": ["FR-4-ARMY", "FR-CORPS-01", "FR-CORPS-01"]},
                               replacements={"FR-4-ARMY": "FR-CORPS-01"}, retreats={"FR-3-ARMY": ["Melun", "Orleans"]})],
     illegal=CT_ATTACK + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Chateau Thierry", 4, 3, "3/5",
                                 losses={"attacker": ["GE-2-ARMY"], "defender": ["FR-4-ARMY"]},
                                 replacements={"FR-4-ARMY": "FR-CORPS-01"},
                                 retreats={"FR-3-ARMY": ["Melun", "Orleans"], "FR-CORPS-01": ["Melun", "Orleans"]})])
# a reduced FR army (2 CF) alone: GE 5 CF roll 4: 4 = the army (3) + one step of its replacing corps (1); FR roll 3: 2
case("12.4.4-a-full-strength-corps-replaces-first", "12.4.4",
     units={"GE-2-ARMY": "Sedan", "FR-4-ARMY": ("Chateau Thierry", 1), "FR-CORPS-02": ("reserve", 1)},
     status={"control": {"Sedan": "cp"}},
     legal=CT_ATTACK + [attack(["GE-2-ARMY"], "Chateau Thierry", 4, 3, "2/4",
                               losses={"defender": ["FR-4-ARMY", "FR-CORPS-01"]}, replacements={"FR-4-ARMY": "FR-CORPS-01"},
                               retreats={"FR-CORPS-01": ["Melun", "Orleans"]})],
     illegal=CT_ATTACK + [attack(["GE-2-ARMY"], "Chateau Thierry", 4, 3, "2/4",
                                 losses={"defender": ["FR-4-ARMY", "FR-CORPS-02"]}, replacements={"FR-4-ARMY": "FR-CORPS-02"})])
# BR 9 CF (Army table 9-11) roll 2: 4; GE 5 CF roll 5: 4; a tie. The BEF takes the first loss (12.4.5).
BR_ATTACK = CP_PASS + [AP1, card("AP-10"), activate({"Amiens": "attack"}, 1)]
case("12.4.5-the-bef-takes-the-first-loss", "12.4.5",
     units={"BR-BEF-ARMY": "Amiens", "BR-1-ARMY": "Amiens", "GE-2-ARMY": "Cambrai"}, status={"control": {"Cambrai": "cp", "Sedan": "cp"}},
     legal=BR_ATTACK + [attack(["BR-BEF-ARMY", "BR-1-ARMY"], "Cambrai", 2, 5, "4/4",
                               losses={"attacker": ["BR-BEF-ARMY"], "defender": ["GE-2-ARMY"]})],
     illegal=BR_ATTACK + [attack(["BR-BEF-ARMY", "BR-1-ARMY"], "Cambrai", 2, 5, "4/4",
                                 losses={"attacker": ["BR-1-ARMY"], "defender": ["GE-2-ARMY"]})])
SEDAN_TIE = attack(["GE-2-ARMY"], "Sedan", 1, 3, "2/2")
case("12.5.2-no-retreat-on-a-tie", "12.5.2|12.5.1",
     units={"GE-2-ARMY": "Koblenz", "FR-5-ARMY": "Sedan"},
     legal=ATTACK_KOBLENZ + [SEDAN_TIE],
     illegal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY"], "Sedan", 1, 3, "2/2", retreats={"FR-5-ARMY": ["Chateau Thierry"]})])
case("12.5.1-the-loser-must-retreat", "12.5.1",
     units={"GE-2-ARMY": "Koblenz", "FR-5-ARMY": "Sedan"},
     legal=ATTACK_KOBLENZ + [SEDAN_ATTACK],
     illegal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY"], "Sedan", 4, 3, "2/4", losses={"defender": ["FR-5-ARMY"]})])
# a reduced GE army (3 CF) roll 5: 3; FR 3 CF roll 1: 1. The attacker wins without a full-strength unit: no retreat.
case("12.5.1-no-retreat-without-a-full-strength-attacker", "12.5.1",
     units={"GE-2-ARMY": ("Koblenz", 1), "FR-5-ARMY": "Sedan"},
     legal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY"], "Sedan", 5, 1, "1/3", losses={"defender": ["FR-5-ARMY"]})],
     illegal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY"], "Sedan", 5, 1, "1/3", losses={"defender": ["FR-5-ARMY"]},
                                      retreats={"FR-5-ARMY": ["Chateau Thierry"]})])
MOUNTAIN = dict(units={"AH-6-ARMY": "Sarajevo", "SB-2-ARMY": "Valjevo"})
case("12.5.2-one-space-for-a-difference-of-one", "12.5.2",
     **MOUNTAIN,
     legal=[CP1, card("CP-07"), activate({"Sarajevo": "attack"}, 1),
            attack(["AH-6-ARMY"], "Valjevo", 4, 2, "1/2", losses={"defender": ["SB-2-ARMY"]}, retreats={"SB-2-ARMY": ["Nis"]})],
     illegal=[CP1, card("CP-07"), activate({"Sarajevo": "attack"}, 1),
              attack(["AH-6-ARMY"], "Valjevo", 4, 2, "1/2", losses={"defender": ["SB-2-ARMY"]},
                     retreats={"SB-2-ARMY": ["Nis", "Skopje"]})])
# GE 10 CF roll 2: 4; FR army + corps (4 CF) roll 3: 3. Difference 1: the defender may cancel in a forest (Sedan) by
# a further step, not in clear terrain (Chateau Thierry).
CANCEL = attack(["GE-2-ARMY", "GE-3-ARMY"], "Sedan", 2, 3, "3/4",
                losses={"attacker": ["GE-2-ARMY"], "defender": ["FR-5-ARMY", "FR-CORPS-01", "FR-CORPS-01"]},
                declare=["cancel_retreat"])
CANCEL_CT = dict(CANCEL, target="Chateau Thierry")
case("12.5.3-cancel-a-retreat-only-in-rough-terrain-or-a-trench", "12.5.3",
     units={"GE-2-ARMY": "Koblenz", "GE-3-ARMY": "Koblenz", "FR-5-ARMY": "Sedan", "FR-CORPS-01": "Sedan"},
     illegal_units={"GE-2-ARMY": "Sedan", "GE-3-ARMY": "Sedan", "FR-5-ARMY": "Chateau Thierry", "FR-CORPS-01": "Chateau Thierry"},
     illegal_status={"control": {"Sedan": "cp"}},
     legal=ATTACK_KOBLENZ + [CANCEL], illegal=CT_ATTACK + [CANCEL_CT])
case("12.5.5-no-retreat-into-enemy-units", "12.5.5",
     units={"GE-2-ARMY": "Koblenz", "FR-5-ARMY": "Sedan", "GE-CORPS-01": "Bar le Duc"}, status={"control": {"Bar le Duc": "cp"}},
     legal=ATTACK_KOBLENZ + [SEDAN_ATTACK],
     illegal=ATTACK_KOBLENZ + [dict(SEDAN_ATTACK, retreats={"FR-5-ARMY": ["Chateau Thierry", "Bar le Duc"]})])
case("12.5.5-not-back-into-the-defended-space", "12.5.5",
     units={"GE-2-ARMY": "Koblenz", "FR-5-ARMY": "Sedan"},
     legal=ATTACK_KOBLENZ + [SEDAN_ATTACK],
     illegal=ATTACK_KOBLENZ + [dict(SEDAN_ATTACK, retreats={"FR-5-ARMY": ["Chateau Thierry", "Sedan"]})])
# GE 10 CF roll 2: 4 on Chateau Thierry (clear); FR 4 CF roll 3: 3; GE-2 reduced, GE-3 full; retreat one space
CT_RETREAT = attack(["GE-2-ARMY", "GE-3-ARMY"], "Chateau Thierry", 2, 3, "3/4",
                    losses={"attacker": ["GE-2-ARMY"], "defender": ["FR-5-ARMY", "FR-CORPS-01"]},
                    retreats={"FR-5-ARMY": ["Melun"], "FR-CORPS-01": ["Melun"]})
case("12.7.1-only-full-strength-units-advance", "12.7.1|12.6.1",
     units={"GE-2-ARMY": "Sedan", "GE-3-ARMY": "Sedan", "FR-5-ARMY": "Chateau Thierry", "FR-CORPS-01": "Chateau Thierry"},
     status={"control": {"Sedan": "cp"}},
     legal=CT_ATTACK + [dict(CT_RETREAT, advance=["GE-3-ARMY"])],
     illegal=CT_ATTACK + [dict(CT_RETREAT, advance=["GE-2-ARMY"])])
# 10 CF roll 4: 5; FR 3 CF roll 3: 2: a two-space retreat; the advance stops in a forest (Sedan), not in clear terrain
case("12.7.3-an-advance-stops-in-a-forest", "12.7.3|12.6.3",
     units={"GE-2-ARMY": "Sedan", "GE-3-ARMY": "Sedan", "FR-5-ARMY": "Chateau Thierry"}, status={"control": {"Sedan": "cp"}},
     illegal_units=KOBLENZ_ARMIES, illegal_status={},
     legal=CT_ATTACK + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Chateau Thierry", 4, 3, "2/5", losses={"defender": ["FR-5-ARMY"]},
                               retreats={"FR-5-ARMY": ["Melun", "Orleans"]}, advance={"GE-3-ARMY": ["Chateau Thierry", "Melun"]})],
     illegal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Sedan", 4, 3, "2/5", losses={"defender": ["FR-5-ARMY"]},
                                      retreats={"FR-5-ARMY": ["Chateau Thierry", "Melun"]},
                                      advance={"GE-3-ARMY": ["Sedan", "Chateau Thierry"]})])
# BR army (4) + BR corps (2) = 6 CF into swamp (1 left: 5), roll 4: 4; GE corps 2 CF roll 3: 1.
LONDON = {"BR-1-ARMY": "London", "BR-CORPS-01": "Amiens", "GE-CORPS-01": "Calais"}
CALAIS_CP = {"control": {"Calais": "cp", "Cambrai": "cp", "Sedan": "cp"}}
case("12.1.10-london-attacks-with-units-in-france", "12.1.10",
     units=LONDON, status=CALAIS_CP,
     legal=CP_PASS + [AP1, card("AP-10"), activate({"London": "attack", "Amiens": "attack"}, 2),
                      attack(["BR-1-ARMY", "BR-CORPS-01"], "Calais", 4, 3, "1/4",
                             losses={"attacker": ["BR-CORPS-01"], "defender": ["GE-CORPS-01", "GE-CORPS-01"]})],
     illegal=CP_PASS + [AP1, card("AP-10"), activate({"London": "attack"}, 1),
                        attack(["BR-1-ARMY"], "Calais", 4, 3, "1/3", losses={"defender": ["GE-CORPS-01", "GE-CORPS-01"]})])
# BR + FR from two spaces: Amiens must hold both nations (12.1.11.1). 8 CF roll 3: 4; GE 5 CF roll 3: 3
case("12.1.11.1-a-common-space-for-a-multinational-attack", "12.1.11.1|12.1.9.1|12.1.11",
     units={"BR-1-ARMY": "Amiens", "FR-CORPS-01": "Amiens", "FR-5-ARMY": "Chateau Thierry", "GE-2-ARMY": "Cambrai"},
     illegal_units={"BR-1-ARMY": "Amiens", "FR-5-ARMY": "Chateau Thierry", "FR-CORPS-01": "Chateau Thierry", "GE-2-ARMY": "Cambrai"},
     status={"control": {"Cambrai": "cp", "Sedan": "cp"}},
     legal=CP_PASS + [AP1, card("AP-10"), activate({"Amiens": "attack", "Chateau Thierry": "attack"}, 3),
                      attack(["BR-1-ARMY", "FR-CORPS-01", "FR-5-ARMY"], "Cambrai", 3, 3, "3/4",
                             losses={"attacker": ["FR-5-ARMY"], "defender": ["GE-2-ARMY"]}, retreats={"GE-2-ARMY": ["Sedan"]})],
     illegal=CP_PASS + [AP1, card("AP-10"), activate({"Amiens": "attack", "Chateau Thierry": "attack"}, 3),
                        attack(["BR-1-ARMY", "FR-CORPS-01", "FR-5-ARMY"], "Cambrai", 3, 3, "3/4",
                               losses={"attacker": ["FR-5-ARMY"], "defender": ["GE-2-ARMY"]}, retreats={"GE-2-ARMY": ["Sedan"]})])
# AH 3 CF roll 4: 3; RU 3 + fort 1 = 4 CF roll 1: 2. AH may attack a Russian fort; Germans not before OberOst or WS 4.
case("15.1.11-germans-and-russian-forts", "15.1.11|15.1.10",
     units={"AH-1-ARMY": "Tannenberg", "RU-2-ARMY": "Lomza"},
     illegal_units={"GE-8-ARMY": "Tannenberg", "RU-2-ARMY": "Lomza"},
     legal=[CP1, card("CP-07"), activate({"Tannenberg": "attack"}, 1),
            attack(["AH-1-ARMY"], "Lomza", 4, 1, "2/3", losses={"attacker": ["AH-1-ARMY"], "defender": ["RU-2-ARMY"]})],
     illegal=[CP1, card("CP-07"), activate({"Tannenberg": "attack"}, 1),
              attack(["GE-8-ARMY"], "Lomza", 4, 1, "2/4", losses={"defender": ["RU-2-ARMY", "RU-2-ARMY"]})])
case("15.1.11-oberost-lets-germans-attack-russian-forts", "15.1.11|15.1.10",
     units={"GE-8-ARMY": "Tannenberg", "RU-2-ARMY": "Lomza"}, status={"events_played": ["CP-11"], "removed_cards": ["CP-11"]},
     illegal_status={},
     legal=[CP1, card("CP-07"), activate({"Tannenberg": "attack"}, 1),
            attack(["GE-8-ARMY"], "Lomza", 2, 1, "2/3", losses={"defender": ["RU-2-ARMY"]}, retreats={"RU-2-ARMY": ["Bialystok"]})],
     illegal=[CP1, card("CP-07"), activate({"Tannenberg": "attack"}, 1),
              attack(["GE-8-ARMY"], "Lomza", 4, 1, "2/4", losses={"defender": ["RU-2-ARMY"]})])

# 13.x Strategic redeployment
case("13.1.2-an-army-costs-4-sr-points", "13.1.2",
     units={"GE-2-ARMY": "Koblenz", "GE-CORPS-01": "Koblenz"},
     legal=[CP1, card("CP-07", "sr"), mv("GE-2-ARMY", "Koblenz", "Aachen", "Essen", by="strategic")],
     illegal=[CP1, card("CP-07", "sr"), mv("GE-2-ARMY", "Koblenz", "Aachen", "Essen", by="strategic"),
              mv("GE-CORPS-01", "Koblenz", "Frankfurt", by="strategic")])
case("13.1.7-armies-never-by-sea", "13.1.7",
     units={"FR-CORPS-01": "Calais", "FR-5-ARMY": "Calais"},
     legal=CP_PASS + [AP1, card("AP-10", "sr"), mv("FR-CORPS-01", "Calais", "Le Havre", by="sea")],
     illegal=CP_PASS + [AP1, card("AP-10", "sr"), mv("FR-5-ARMY", "Calais", "Le Havre", by="sea")])
# pbem cites the seed's number (13.1.6) for LR2022 13.1.5's route: a numbering difference
case("13.1.5-sr-only-through-friendly-spaces", "13.1.5|13.1.6",
     units={"FR-CORPS-01": "Chateau Thierry"}, status={"control": {"Sedan": "cp"}},
     legal=CP_PASS + [AP1, card("AP-10", "sr"), mv("FR-CORPS-01", "Chateau Thierry", "Bar le Duc", "Verdun", by="strategic")],
     illegal=CP_PASS + [AP1, card("AP-10", "sr"), mv("FR-CORPS-01", "Chateau Thierry", "Sedan", "Verdun", by="strategic")])
case("13.1.8-out-of-the-reserve-box-onto-a-unit-of-the-nation", "13.1.8",
     units={"FR-5-ARMY": "Chateau Thierry"},
     legal=CP_PASS + [AP1, card("AP-10", "sr"), {"reinforce": ["FR-CORPS-01"], "at": "Chateau Thierry"}],
     illegal=CP_PASS + [AP1, card("AP-10", "sr"), {"reinforce": ["FR-CORPS-01"], "at": "Melun"}])
case("13.1.8-us-corps-to-any-allied-port-in-france", "13.1.8",
     units={"US-CORPS-01": "reserve"}, status={"neutral_nations": ["BU", "GR", "IT", "RO", "TU"], "us_entry": "entered"},
     turn=14,
     legal=CP_PASS + [AP1, card("AP-10", "sr"), {"reinforce": ["US-CORPS-01"], "at": "Le Havre"}],
     illegal=CP_PASS + [AP1, card("AP-10", "sr"), {"reinforce": ["US-CORPS-01"], "at": "Melun"}])
case("13.1.3-a-unit-redeploys-once-a-round", "13.1.3",
     units={"FR-CORPS-01": "Chateau Thierry"},
     legal=CP_PASS + [AP1, card("AP-10", "sr"), mv("FR-CORPS-01", "Chateau Thierry", "Bar le Duc", "Dijon", by="strategic")],
     illegal=CP_PASS + [AP1, card("AP-10", "sr"), mv("FR-CORPS-01", "Chateau Thierry", "Bar le Duc", by="strategic"),
                        mv("FR-CORPS-01", "Bar le Duc", "Dijon", by="strategic")])
AP_PASS = [AP1, AUTO]
case("9.3.3-no-sr-card-in-consecutive-rounds", "9.3.3",
     units={"GE-CORPS-01": "Koblenz"},
     legal=[CP1, card("CP-07", "sr"), mv("GE-CORPS-01", "Koblenz", "Aachen", by="strategic")] + AP_PASS
     + [rnd("cp", 2), AUTO, rnd("ap", 2), AUTO, rnd("cp", 3), card("CP-12", "sr"), mv("GE-CORPS-01", "Aachen", "Koblenz", by="strategic")],
     illegal=[CP1, card("CP-07", "sr"), mv("GE-CORPS-01", "Koblenz", "Aachen", by="strategic")] + AP_PASS
     + [rnd("cp", 2), card("CP-12", "sr"), mv("GE-CORPS-01", "Aachen", "Koblenz", by="strategic")])
case("13.1.11-no-reserve-box-sr-while-the-enemy-holds-the-capital", "13.1.11|13.1.10",
     units={"FR-5-ARMY": "Chateau Thierry"}, illegal_status={"control": {"Paris": "cp"}},
     legal=CP_PASS + [AP1, card("AP-10", "sr"), {"reinforce": ["FR-CORPS-01"], "at": "Chateau Thierry"}],
     illegal=CP_PASS + [AP1, card("AP-10", "sr"), {"reinforce": ["FR-CORPS-01"], "at": "Chateau Thierry"}])

# 14.x Supply and attrition
CUT_OFF = {"control": {"Melun": "cp"}}
SUPPLIED = {"control": {"Melun": "cp", "Chateau Thierry": "cp", "Sedan": "cp"}}
# 14.3.6: Libya (CP at start, joined only to Alexandria) cannot trace CP supply and passes to the Allies (11.1.16)
case("14.3.1-out-of-supply-units-do-not-move", "14.3.1",
     units={"GE-CORPS-01": "Melun"}, status=SUPPLIED, illegal_status=CUT_OFF,
     legal=[CP1, card("CP-07"), activate({"Melun": "move"}, 1), mv("GE-CORPS-01", "Melun", "Orleans")],
     illegal=[CP1, card("CP-07"), activate({"Melun": "move"}, 1), mv("GE-CORPS-01", "Melun", "Orleans")])
case("14.3.5-out-of-supply-units-are-eliminated-in-attrition", "14.3.5",
     units={"GE-CORPS-01": "Melun"}, status=CUT_OFF,
     legal=[{"phase": "attrition"}, {"eliminate": "GE-CORPS-01"}, {"control": {"Melun": "ap", "Libya": "ap"}}],
     illegal=[{"phase": "attrition"}, {"control": {"Melun": "ap", "Libya": "ap"}}])
case("14.3.5-supplied-units-are-not-eliminated-in-attrition", "14.3.5",
     units={"GE-CORPS-01": "Melun"}, status=SUPPLIED,
     legal=[{"phase": "attrition"}, {"control": {"Libya": "ap"}}],
     illegal=[{"phase": "attrition"}, {"eliminate": "GE-CORPS-01"}, {"control": {"Libya": "ap"}}])

# 17.x Replacements
case("17.1.1-replacements-need-the-nations-rp", "17.1.1",
     units={"GE-2-ARMY": ("Koblenz", 1)}, status={"replacement_points": {"GE": 1}}, illegal_status={"replacement_points": {"AH": 1}},
     legal=[{"phase": "replacement"}, {"replace": "GE-2-ARMY"}],
     illegal=[{"phase": "replacement"}, {"replace": "GE-2-ARMY"}])
case("17.1.3-no-replacements-while-the-enemy-holds-the-capital", "17.1.3",
     units={"FR-5-ARMY": ("Chateau Thierry", 1)}, status={"replacement_points": {"FR": 1}},
     illegal_status={"replacement_points": {"FR": 1}, "control": {"Paris": "cp"}},
     legal=[{"phase": "replacement"}, {"replace": "FR-5-ARMY"}],
     illegal=[{"phase": "replacement"}, {"replace": "FR-5-ARMY"}])
case("17.1.7-the-bef-army-is-never-replaced", "17.1.7",
     units={"BR-1-ARMY": ("Amiens", 1), "BR-BEF-ARMY": ("Amiens", 1)}, status={"replacement_points": {"BR": 1}},
     legal=[{"phase": "replacement"}, {"replace": "BR-1-ARMY"}],
     illegal=[{"phase": "replacement"}, {"replace": "BR-BEF-ARMY"}])
case("17.1.1.1-allied-minors-use-the-a-points", "17.1.1.1|17.1.1",
     units={"BE-1-ARMY": ("Antwerp", 1)}, status={"replacement_points": {"A": 1}}, illegal_status={"replacement_points": {"BR": 1}},
     legal=[{"phase": "replacement"}, {"replace": "BE-1-ARMY"}],
     illegal=[{"phase": "replacement"}, {"replace": "BE-1-ARMY"}])
case("9.4.3-no-rp-card-in-consecutive-rounds", "9.4.3",
     legal=[CP1, card("CP-07", "rp")] + AP_PASS + [rnd("cp", 2), AUTO, rnd("ap", 2), AUTO, rnd("cp", 3), card("CP-12", "rp")],
     illegal=[CP1, card("CP-07", "rp")] + AP_PASS + [rnd("cp", 2), card("CP-12", "rp")])
case("17.1.2-replacements-only-in-the-replacement-phase", "17.1.2",
     units={"GE-2-ARMY": ("Koblenz", 1)}, status={"replacement_points": {"GE": 1}},
     legal=[{"phase": "replacement"}, {"replace": "GE-2-ARMY"}],
     illegal=[CP1, AUTO, {"replace": "GE-2-ARMY"}])

# 8.1, 9.1, 9.5 card play
case("9.1.3-a-card-is-played-once", "9.1.3", piles=True, turn=2,
     legal=[CP1, card("CP-07")] + AP_PASS + [rnd("cp", 2), card("CP-12")],
     illegal=[CP1, card("CP-07")] + AP_PASS + [rnd("cp", 2), card("CP-07", "rp")])
case("9.1.2-only-ones-own-cards", "9.1.2",
     legal=[CP1, card("CP-07", "rp")], illegal=[CP1, card("AP-10", "rp")])
case("9.5.1.2-a-removed-card-is-not-played-again", "9.5.1.2",
     status={"events_played": ["CP-07"], "removed_cards": ["CP-07"]},
     legal=[CP1, card("CP-12", "rp")], illegal=[CP1, card("CP-07", "rp")])
case("16.1-limited-war-cards-after-limited-war", "16.1|9.1.2",
     status={"commitment": {"cp": "limited_war", "ap": "mobilization"}, "war_status": {"cp": 4, "ap": 0}},
     illegal_status={},
     legal=[CP1, card("CP-21", "rp")], illegal=[CP1, card("CP-21", "rp")])
case("9.5.3.1-no-reinforcements-in-august-1914", "9.5.3.1", turn=2, illegal_turn=1,
     legal=[CP1, card("CP-07", "event"), {"reinforce": ["GE-9-ARMY"], "at": "Berlin"}],
     illegal=[CP1, card("CP-07", "event"), {"reinforce": ["GE-9-ARMY"], "at": "Berlin"}])
case("9.5.3.3-reinforcing-armies-at-the-capital-or-a-supply-source", "9.5.3.3",
     legal=[CP1, card("CP-07", "event"), {"reinforce": ["GE-9-ARMY"], "at": "Essen"}],
     illegal=[CP1, card("CP-07", "event"), {"reinforce": ["GE-9-ARMY"], "at": "Frankfurt"}])
case("8.1.2-the-central-powers-act-first", "8.1.2|8.1.1",
     legal=[CP1, card("CP-07", "rp"), AP1, card("AP-10", "rp")],
     illegal=[AP1, card("AP-10", "rp"), CP1, card("CP-07", "rp")])
case("9.5.4-only-combat-cards-in-a-combat", "9.5.4|9.5.4.1",
     units={"GE-2-ARMY": "Koblenz", "FR-5-ARMY": "Sedan"},
     legal=ATTACK_KOBLENZ + [SEDAN_ATTACK],
     illegal=ATTACK_KOBLENZ + [dict(SEDAN_ATTACK, cards=["CP-12"])])
case("9.5.2.2-one-neutral-entry-a-turn", "9.5.2.2", turn=6,
     status={"commitment": {"cp": "limited_war", "ap": "limited_war"}, "war_status": {"cp": 5, "ap": 5}},
     legal=[CP1, card("CP-34", "event")] + AP_PASS,
     illegal=[CP1, card("CP-34", "event"), AP1, card("AP-17", "event")])

# 9.5.2.4 Limited Greek entry
GREEK_UNITS = {"GR-CORPS-01": "Florina", "GR-CORPS-02": "Larisa", "GR-CORPS-03": "Athens", "FR-CORPS-01": "Salonika"}
SALONIKA_PLAYED = {"events_played": ["AP-30"], "removed_cards": ["AP-30"], "commitment": {"cp": "mobilization", "ap": "limited_war"}}
case("9.5.2.4-greek-spaces-without-greek-units-are-open", "9.5.2.4|11.1.11",
     units=GREEK_UNITS, status=SALONIKA_PLAYED, turn=6,
     legal=CP_PASS + [AP1, card("AP-10"), activate({"Salonika": "move"}, 1), mv("FR-CORPS-01", "Salonika", "Kavala")],
     illegal=CP_PASS + [AP1, card("AP-10"), activate({"Salonika": "move"}, 1), mv("FR-CORPS-01", "Salonika", "Florina")])
case("9.5.2.4-greece-closed-before-salonika", "11.1.11|9.5.2.4",
     units=GREEK_UNITS, status=SALONIKA_PLAYED, illegal_status={"commitment": {"cp": "mobilization", "ap": "limited_war"}}, turn=6,
     legal=CP_PASS + [AP1, card("AP-10"), activate({"Salonika": "move"}, 1), mv("FR-CORPS-01", "Salonika", "Kavala")],
     illegal=CP_PASS + [AP1, card("AP-10"), activate({"Salonika": "move"}, 1), mv("FR-CORPS-01", "Salonika", "Kavala")])

# 5.7 The historical scenario's rules
H = "1914-historical"
case("5.7.4.3-the-cp-open-with-guns-of-august", "5.7.4.3", scenario=H, turn=1, keep_map=True,
     legal=[CP1, card("CP-01", "event")], illegal=[CP1, card("CP-07", "rp")])
case("5.7.4.4-no-entrench-event-on-turn-1", "5.7.4.4", scenario=H, turn=2, illegal_turn=1, keep_map=True,
     legal=[CP1, card("CP-06", "event")],
     illegal=[CP1, card("CP-01", "event"), AP1, AUTO, rnd("cp", 2), card("CP-06", "event")])
case("5.7.4.6-no-german-army-ends-in-trent-before-allied-total-war", "5.7.4.6", scenario=H,
     units={"GE-4-ARMY": "Innsbruck", "GE-CORPS-01": "Innsbruck"},
     legal=[CP1, card("CP-07"), activate({"Innsbruck": "move"}, 1), mv("GE-CORPS-01", "Innsbruck", "Trent")],
     illegal=[CP1, card("CP-07"), activate({"Innsbruck": "move"}, 1), mv("GE-4-ARMY", "Innsbruck", "Trent")])
case("5.7.2.1-no-peace-terms-in-the-historical-scenario", "5.7.2.1|16.5", illegal_scenario=H,
     status={"vp": 12},
     legal=[CP1, {"card": None, "use": "peace_terms"}], illegal=[CP1, {"card": None, "use": "peace_terms"}])
case("5.7.4.7-yellow-stripe-events-double-as-ops-in-the-historical-scenario", "5.7.4.7|9.1.3|9.2.1", scenario=H,
     illegal_scenario="1914", turn=6,
     units={"FR-5-ARMY": "Chateau Thierry"}, status={"commitment": {"cp": "mobilization", "ap": "limited_war"}},
     legal=CP_PASS + [AP1, card("AP-28", "event"), activate({"Chateau Thierry": "move"}, 1),
                      mv("FR-5-ARMY", "Chateau Thierry", "Melun")],
     illegal=CP_PASS + [AP1, card("AP-28", "event"), activate({"Chateau Thierry": "move"}, 1),
                        mv("FR-5-ARMY", "Chateau Thierry", "Melun")])
case("13.1.8-serbian-corps-to-salonika", "13.1.8",
     units={"FR-CORPS-01": "Salonika", "SB-CORPS-01": "reserve"}, status=SALONIKA_PLAYED, turn=6,
     legal=CP_PASS + [AP1, card("AP-10", "sr"), {"reinforce": ["SB-CORPS-01"], "at": "Salonika"}],
     illegal=CP_PASS + [AP1, card("AP-10", "sr"), {"reinforce": ["SB-CORPS-01"], "at": "Nis"}])
case("12.5.5-friendly-controlled-spaces-first", "12.5.5",
     units={"GE-2-ARMY": "Koblenz", "FR-5-ARMY": "Sedan"}, status={"control": {"Cambrai": "cp"}},
     legal=ATTACK_KOBLENZ + [SEDAN_ATTACK],
     illegal=ATTACK_KOBLENZ + [dict(SEDAN_ATTACK, retreats={"FR-5-ARMY": ["Cambrai", "Amiens"]})])
# GE 10 CF roll 4: 5 eliminates the lone FR corps (2 steps); its 1 CF (Corps table) roll 3: 0
case("12.7.2-after-eliminating-every-defender-only-into-its-space", "12.7.2|12.6.2",
     units={"GE-2-ARMY": "Sedan", "GE-3-ARMY": "Sedan", "FR-CORPS-01": "Chateau Thierry"}, status={"control": {"Sedan": "cp"}},
     legal=CT_ATTACK + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Chateau Thierry", 4, 3, "0/5",
                               losses={"defender": ["FR-CORPS-01", "FR-CORPS-01"]}, advance={"GE-3-ARMY": ["Chateau Thierry"]})],
     illegal=CT_ATTACK + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Chateau Thierry", 4, 3, "0/5",
                                 losses={"defender": ["FR-CORPS-01", "FR-CORPS-01"]},
                                 advance={"GE-3-ARMY": ["Chateau Thierry", "Melun"]})])


# --- second batch: events' state effects, the Near East, forts, sieges, rebuilding
# 16.1.5 Note: an event's war status counts at once (Race to the Sea / OberOst restrictions lift mid-turn)
case("9.5.1.3-an-events-war-status-counts-at-once", "11.1.9",
     units={"GE-CORPS-01": "Cambrai"}, status={**CAMBRAI_CP, "war_status": {"cp": 3, "ap": 0}, "combined_war_status": 3},
     legal=[CP1, card("CP-09", "event")] + AP_PASS + [rnd("cp", 2), card("CP-07"), activate({"Cambrai": "move"}, 1),
                                                      mv("GE-CORPS-01", "Cambrai", "Amiens")],
     illegal=[CP1, card("CP-12", "rp")] + AP_PASS + [rnd("cp", 2), card("CP-07"), activate({"Cambrai": "move"}, 1),
                                                     mv("GE-CORPS-01", "Cambrai", "Amiens")])
TURKEY_IN = {"neutral_nations": ["BU", "GR", "IT", "RO", "US"], "commitment": {"cp": "limited_war", "ap": "limited_war"},
             "war_status": {"cp": 5, "ap": 5}, "combined_war_status": 10}
case("11.3.1-only-near-east-armies-enter-the-near-east", "11.3.1",
     units={"GE-2-ARMY": "Adrianople", "GE-CORPS-01": "Adrianople"}, status=TURKEY_IN, turn=7,
     legal=[CP1, card("CP-07"), activate({"Adrianople": "move"}, 1), mv("GE-CORPS-01", "Adrianople", "Constantinople")],
     illegal=[CP1, card("CP-07"), activate({"Adrianople": "move"}, 1), mv("GE-2-ARMY", "Adrianople", "Constantinople")])
case("11.3.2-one-russian-corps-a-turn-between-the-caucasus-and-the-near-east", "11.3.2",
     units={"RU-CORPS-01": "Caucasus", "RU-CORPS-02": "Caucasus"}, status=TURKEY_IN, turn=7,
     legal=CP_PASS + [AP1, card("AP-10"), activate({"Caucasus": "move"}, 1), mv("RU-CORPS-01", "Caucasus", "Grozny")],
     illegal=CP_PASS + [AP1, card("AP-10"), activate({"Caucasus": "move"}, 1), mv("RU-CORPS-01", "Caucasus", "Grozny"),
                        mv("RU-CORPS-02", "Caucasus", "Grozny")])
case("9.2.7-one-allied-combat-activation-on-the-near-east-map", "9.2.7",
     units={"BR-CORPS-04": "Basra", "BR-CORPS-02": "Port Said", "TU-CORPS-11": "Qurna"}, status=TURKEY_IN, turn=7,
     legal=CP_PASS + [AP1, card("AP-10"), activate({"Basra": "attack", "Port Said": "move"}, 2)],
     illegal=CP_PASS + [AP1, card("AP-10"), activate({"Basra": "attack", "Port Said": "attack"}, 2)])
case("13.2.2-one-russian-corps-a-turn-redeploys-to-the-near-east", "13.2.2",
     units={"RU-CORPS-01": "Caucasus", "RU-CORPS-02": "Caucasus"}, status=TURKEY_IN, turn=7,
     legal=CP_PASS + [AP1, card("AP-10", "sr"), mv("RU-CORPS-01", "Caucasus", "Grozny", by="strategic")],
     illegal=CP_PASS + [AP1, card("AP-10", "sr"), mv("RU-CORPS-01", "Caucasus", "Grozny", by="strategic"),
                        mv("RU-CORPS-02", "Caucasus", "Grozny", by="strategic")])
case("13.1.6-russians-redeploy-only-inside-russia", "13.1.6",
     units={"RU-CORPS-01": "Dubno"}, status={"control": {"Tarnopol": "ap"}},
     legal=CP_PASS + [AP1, card("AP-10", "sr"), mv("RU-CORPS-01", "Dubno", "Lutsk", by="strategic")],
     illegal=CP_PASS + [AP1, card("AP-10", "sr"), mv("RU-CORPS-01", "Dubno", "Tarnopol", by="strategic")])
# BR NE Army (4 CF, Army table) from the Sinai alone: -3 (12.2.7); roll 6 -> 3: 3. TU corps 1 + fort 2 = 3 CF on the
# Corps table, roll 1: 1. The corps loses both steps; the 1 left is below the fort's LF (2).
SINAI = dict(units={"BR-NE-ARMY": "Sinai", "TU-CORPS-13": "Gaza"}, status={**TURKEY_IN, "control": {"Sinai": "ap"}})
SINAI_ACT = CP_PASS + [AP1, card("AP-10"), activate({"Sinai": "attack"}, 1)]
case("12.2.7-minus-3-from-the-sinai", "12.2.7|12.2.8|12.2.9", turn=7, **SINAI,
     legal=SINAI_ACT + [attack(["BR-NE-ARMY"], "Gaza", 6, 1, "1/3", losses={"defender": ["TU-CORPS-13", "TU-CORPS-13"]})],
     illegal=SINAI_ACT + [attack(["BR-NE-ARMY"], "Gaza", 6, 1, "1/4", losses={"defender": ["TU-CORPS-13", "TU-CORPS-13"]})])
case("15.2.5-no-attack-on-a-desert-space-in-summer", "15.2.5", turn=7, illegal_turn=6, **SINAI,
     legal=SINAI_ACT + [attack(["BR-NE-ARMY"], "Gaza", 6, 1, "1/3", losses={"defender": ["TU-CORPS-13", "TU-CORPS-13"]})],
     illegal=SINAI_ACT + [attack(["BR-NE-ARMY"], "Gaza", 6, 1, "1/3", losses={"defender": ["TU-CORPS-13", "TU-CORPS-13"]})])
# the lone Liege fort (3 CF, Corps table) roll 3: 1. 10 CF roll 1: 3 destroys it (LF 3); 5 CF roll 1: 2 does not
case("12.4.6-a-lone-fort-falls-to-its-lf", "12.4.6|15.1.7",
     units={"GE-2-ARMY": "Koblenz", "GE-3-ARMY": "Koblenz"},
     legal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Liege", 1, 3, "1/3", declare=["fort_destroyed"],
                                    advance=["GE-2-ARMY"])],
     illegal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY"], "Liege", 1, 3, "1/2", declare=["fort_destroyed"], advance=["GE-2-ARMY"])])
case("12.7.1-no-advance-onto-a-fort-that-holds", "12.7.1|12.6.1|12.4.6",
     units={"GE-2-ARMY": "Koblenz", "GE-3-ARMY": "Koblenz"},
     legal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY"], "Liege", 1, 3, "1/2")],
     illegal=ATTACK_KOBLENZ + [attack(["GE-2-ARMY"], "Liege", 1, 3, "1/2", advance=["GE-2-ARMY"])])
case("15.1.3-a-besieged-fort-is-attacked-from-its-own-space", "15.1.3",
     units={"GE-1-ARMY": "Liege", "GE-2-ARMY": "Koblenz"}, status={"forts": {"Liege": "besieged"}},
     legal=[CP1, card("CP-07"), activate({"Liege": "attack"}, 1),
            attack(["GE-1-ARMY"], "Liege", 1, 3, "1/2")],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "attack"}, 1),
              attack(["GE-2-ARMY"], "Liege", 1, 3, "1/2")])
case("15.3.2-a-siege-roll-above-the-lf-destroys-the-fort", "15.3.2|15.3.3|15.3",
     units={"GE-1-ARMY": "Liege"}, status={"forts": {"Liege": "besieged"}}, turn=2,
     legal=[{"phase": "siege"}, {"special": "siege", "at": "Liege", "roll": 6, "result": "destroyed"}],
     illegal=[{"phase": "siege"}, {"special": "siege", "at": "Liege", "roll": 5, "result": "destroyed"}])
case("15.2.2-a-fort-besieged-this-round-is-passed", "11.1.8|15.1.1|15.2.2",
     units={"GE-2-ARMY": "Koblenz", "GE-CORPS-01": "Koblenz"},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-2-ARMY", "Koblenz", "Liege"),
            mv("GE-CORPS-01", "Koblenz", "Liege", "Brussels")],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "move"}, 1), mv("GE-CORPS-01", "Koblenz", "Liege", "Brussels"),
              mv("GE-2-ARMY", "Koblenz", "Liege")])
# 12.5.6: GE 5 CF roll 2: 3 against FR-5 (3 CF roll 3: 2): one step, one space back to Cambrai. Then GE-3 attacks
# Cambrai: FR-3 fires alone (3 CF roll 3: 2), GE 5 CF roll 2: 3: the retreated FR-5 is eliminated at once and FR-3
# loses the 3. Against Cambrai holding only the retreated FR-5 there is no attack at all (12.1.2).
RETREAT_1 = attack(["GE-2-ARMY"], "Sedan", 2, 3, "2/3", losses={"defender": ["FR-5-ARMY"]}, retreats={"FR-5-ARMY": ["Cambrai"]})
# pbem cites the seed's number (12.1.1) for LR2022 12.1.2: a numbering difference
case("12.1.2-no-attack-on-units-that-only-retreated-there", "12.1.2|12.1.1",
     units={"GE-2-ARMY": "Koblenz", "GE-3-ARMY": "Brussels", "FR-5-ARMY": "Sedan", "FR-3-ARMY": "Cambrai"},
     illegal_units={"GE-2-ARMY": "Koblenz", "GE-3-ARMY": "Brussels", "FR-5-ARMY": "Sedan"},
     status={"control": {"Brussels": "cp", "Liege": "cp"}, "forts": {"Liege": "destroyed"}},
     legal=[CP1, card("CP-07"), activate({"Koblenz": "attack", "Brussels": "attack"}, 2), RETREAT_1,
            attack(["GE-3-ARMY"], "Cambrai", 2, 3, "2/3", losses={"defender": ["FR-3-ARMY"]}, eliminated=["FR-5-ARMY"],
                   retreats={"FR-3-ARMY": ["Amiens"]})],
     illegal=[CP1, card("CP-07"), activate({"Koblenz": "attack", "Brussels": "attack"}, 2), RETREAT_1,
              attack(["GE-3-ARMY"], "Cambrai", 2, 3, "2/3", eliminated=["FR-5-ARMY"])])
# a reduced BR army (3 CF) in Amiens: GE 5 CF roll 4: 4 = the army (3) + a step of its replacing corps; BR roll 3: 2
BR_AMIENS = dict(units={"GE-2-ARMY": "Cambrai", "BR-1-ARMY": ("Amiens", 1)}, status={"control": {"Cambrai": "cp", "Sedan": "cp"}})
CAMBRAI_ACT = [CP1, card("CP-07"), activate({"Cambrai": "attack"}, 1)]
case("12.4.4.3-the-bef-corps-replaces-only-the-bef-army", "12.4.4.3|12.4.4", **BR_AMIENS,
     legal=CAMBRAI_ACT + [attack(["GE-2-ARMY"], "Amiens", 4, 3, "2/4", losses={"defender": ["BR-1-ARMY", "BR-CORPS-01"]},
                                 replacements={"BR-1-ARMY": "BR-CORPS-01"}, retreats={"BR-CORPS-01": ["Rouen", "Caen"]})],
     illegal=CAMBRAI_ACT + [attack(["GE-2-ARMY"], "Amiens", 4, 3, "2/4", losses={"defender": ["BR-1-ARMY", "BR-BEF-CORPS"]},
                                   replacements={"BR-1-ARMY": "BR-BEF-CORPS"}, retreats={"BR-BEF-CORPS": ["Rouen", "Caen"]})])
# 12.3.2: Brussels joins Antwerp (FR corps) by a solid line, so no +1: roll 3 fails, the FR fire first (3 CF roll 6:
# 4, one GE army step), GE 8 CF (6-8) roll 4: 4 back: a 4/4 tie
case("12.3.2-no-flank-drm-from-a-space-next-to-other-enemies", "12.3.2|12.3.3|12.2.8|12.2.9",
     units={**FLANK_UNITS, "FR-CORPS-01": "Antwerp"}, status=FLANK_STATUS,
     legal=FLANK_ACT + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Cambrai", 4, 6, "4/4", flank={"pin": "Sedan", "roll": 3},
                               losses={"attacker": ["GE-2-ARMY"], "defender": ["FR-5-ARMY"]})],
     illegal=FLANK_ACT + [flank_attack("3/5")])
# 12.7.7: 10 CF roll 4: 5, FR 3 CF roll 3: 2: FR-5 retreats Cambrai - Amiens - Rouen; the CP may advance into
# Cambrai (the defended space) but not on into Amiens
case("12.7.7-cp-advance-into-amiens-only-as-the-defended-space", "12.7.7|12.6.6|11.1.9",
     units={"GE-2-ARMY": "Sedan", "GE-3-ARMY": "Sedan", "FR-5-ARMY": "Cambrai"}, status=SEDAN_CP,
     legal=CT_ATTACK + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Cambrai", 4, 3, "2/5", losses={"defender": ["FR-5-ARMY"]},
                               retreats={"FR-5-ARMY": ["Amiens", "Rouen"]}, advance={"GE-3-ARMY": ["Cambrai"]})],
     illegal=CT_ATTACK + [attack(["GE-2-ARMY", "GE-3-ARMY"], "Cambrai", 4, 3, "2/5", losses={"defender": ["FR-5-ARMY"]},
                                 retreats={"FR-5-ARMY": ["Amiens", "Rouen"]}, advance={"GE-3-ARMY": ["Cambrai", "Amiens"]})])
case("14.1.5-serbs-are-in-supply-in-serbia", "14.3.1",
     units={"SB-CORPS-01": "Nis"}, status={"control": {"Belgrade": "cp", "Valjevo": "cp", "Skopje": "cp"}},
     illegal_units={"SB-CORPS-01": "Tirana"},
     illegal_status={"control": {"Belgrade": "cp", "Valjevo": "cp", "Skopje": "cp", "Cetinje": "cp", "Valona": "cp"}},
     legal=CP_PASS + [AP1, card("AP-10"), activate({"Nis": "move"}, 1), mv("SB-CORPS-01", "Nis", "Skopje")],
     illegal=CP_PASS + [AP1, card("AP-10"), activate({"Tirana": "move"}, 1), mv("SB-CORPS-01", "Tirana", "Skopje")])
case("16.5.1.1-cp-peace-terms-from-11-vp", "16.5.1.1|16.5.1|16.5", status={"vp": 11}, illegal_status={"vp": 10},
     legal=[CP1, {"card": None, "use": "peace_terms"}], illegal=[CP1, {"card": None, "use": "peace_terms"}])
TW_CP = {"commitment": {"cp": "total_war", "ap": "limited_war"}, "war_status": {"cp": 11, "ap": 6}, "combined_war_status": 17}
case("9.5.2.5-italy-only-as-an-event-under-the-total-war-lock", "9.5.2.5", turn=9,
     status={"commitment": {"cp": "limited_war", "ap": "limited_war"}, "war_status": {"cp": 6, "ap": 6}}, illegal_status=TW_CP,
     legal=CP_PASS + [AP1, card("AP-17", "rp")], illegal=CP_PASS + [AP1, card("AP-17", "rp")])
case("9.5.3.3-french-armies-at-orleans-only-while-paris-is-full", "9.5.3.3",
     legal=CP_PASS + [AP1, card("AP-10", "event"), {"reinforce": ["FR-10-ARMY"], "at": "Paris"}],
     illegal=CP_PASS + [AP1, card("AP-10", "event"), {"reinforce": ["FR-10-ARMY"], "at": "Orleans"}])
TSAR_FELL = {"events_played": ["CP-28", "CP-52"], "removed_cards": ["CP-28", "CP-52"], "russian_capitulation": "fall_of_the_tsar",
             "commitment": {"cp": "total_war", "ap": "total_war"}, "war_status": {"cp": 15, "ap": 15}, "combined_war_status": 30}
case("16.4.5-after-the-fall-of-the-tsar-russian-combat-costs-1-a-unit", "9.2.2|16.4.5|9.2.3|9.2.1", turn=14, status=TSAR_FELL,
     units={"RU-1-ARMY": "Kovno", "RU-CORPS-01": "Kovno"},
     legal=CP_PASS + [AP1, AUTO, activate({"Kovno": "move"}, 1)],
     illegal=CP_PASS + [AP1, AUTO, activate({"Kovno": "attack"}, 1)])
case("17.1.5-the-belgian-army-is-rebuilt-in-belgium-before-calais", "17.1.5",
     units={"BE-1-ARMY": "eliminated"}, status={"replacement_points": {"A": 2}},
     legal=[{"phase": "replacement"}, {"replace": "BE-1-ARMY", "at": "Antwerp"}],
     illegal=[{"phase": "replacement"}, {"replace": "BE-1-ARMY", "at": "Calais"}])
case("17.1.5-a-rebuilt-army-enters-as-a-reinforcement", "17.1.5|9.5.3.3",
     units={"GE-2-ARMY": "eliminated"}, status={"replacement_points": {"GE": 2}},
     legal=[{"phase": "replacement"}, {"replace": "GE-2-ARMY", "at": "Berlin"}],
     illegal=[{"phase": "replacement"}, {"replace": "GE-2-ARMY", "at": "Frankfurt"}])


# --- third batch: trenches taken by movement, reinforcements, stacking after SR, the Caucasus
# 11.2.5: a GE corps entering Cambrai removes the AP level 1 trench; then FR 6 CF (6-8) roll 3: 4 unshifted, against
# GE 2 CF (Corps table) roll 3: 1
FR_AMIENS = {"FR-5-ARMY": "Amiens", "FR-3-ARMY": "Amiens", "GE-CORPS-01": "Sedan"}
INTO_CAMBRAI = [CP1, card("CP-07"), activate({"Sedan": "move"}, 1), mv("GE-CORPS-01", "Sedan", "Cambrai"),
                AP1, card("AP-10"), activate({"Amiens": "attack"}, 1)]
case("11.2.5-an-enemy-unit-entering-removes-a-level-1-trench", "12.2.8|12.2.9|11.2.5", units=FR_AMIENS,
     status={"control": {"Sedan": "cp"}, "trenches": {"Cambrai": {"level": 1, "owner": "ap"}}},
     legal=INTO_CAMBRAI + [attack(["FR-5-ARMY", "FR-3-ARMY"], "Cambrai", 3, 3, "1/4", losses={"defender": ["GE-CORPS-01", "GE-CORPS-01"]})],
     illegal=INTO_CAMBRAI + [attack(["FR-5-ARMY", "FR-3-ARMY"], "Cambrai", 3, 3, "1/3", losses={"defender": ["GE-CORPS-01", "GE-CORPS-01"]})])
# 11.2.6: a level 2 trench becomes the enemy's level 1: FR 6-8 one left (5) roll 3: 3; GE 2 one right (3) roll 3: 1
case("11.2.6-an-enemy-unit-entering-turns-a-level-2-trench", "12.2.8|12.2.9|11.2.6", units=FR_AMIENS,
     status={"control": {"Sedan": "cp"}, "trenches": {"Cambrai": {"level": 2, "owner": "ap"}}},
     legal=INTO_CAMBRAI + [attack(["FR-5-ARMY", "FR-3-ARMY"], "Cambrai", 3, 3, "1/3", losses={"defender": ["GE-CORPS-01", "GE-CORPS-01"]})],
     illegal=INTO_CAMBRAI + [attack(["FR-5-ARMY", "FR-3-ARMY"], "Cambrai", 3, 3, "1/4", losses={"defender": ["GE-CORPS-01", "GE-CORPS-01"]})])
case("9.5.3.1-one-reinforcement-card-a-nation-a-turn", "9.5.3.1",
     legal=[CP1, card("CP-07", "event"), {"reinforce": ["GE-9-ARMY"], "at": "Essen"}] + AP_PASS
     + [rnd("cp", 2), card("CP-14", "event"), {"reinforce": ["AH-7-ARMY"], "at": "Vienna"},
        {"remove": ["AH-CORPS-10", "AH-CORPS-11"], "to": "reserve"}],
     illegal=[CP1, card("CP-07", "event"), {"reinforce": ["GE-9-ARMY"], "at": "Essen"}] + AP_PASS
     + [rnd("cp", 2), card("CP-12", "event"), {"reinforce": ["GE-10-ARMY"], "at": "Berlin"},
        {"remove": ["GE-CORPS-12", "GE-CORPS-13"], "to": "reserve"}])
case("10.1.1-stacking-when-sr-ends", "10.1.1",
     units={"FR-5-ARMY": "Chateau Thierry", "FR-3-ARMY": "Chateau Thierry"},
     illegal_units={"FR-5-ARMY": "Chateau Thierry", "FR-3-ARMY": "Chateau Thierry", "FR-4-ARMY": "Chateau Thierry"},
     legal=CP_PASS + [AP1, card("AP-10", "sr"), {"reinforce": ["FR-CORPS-01"], "at": "Chateau Thierry"}],
     illegal=CP_PASS + [AP1, card("AP-10", "sr"), {"reinforce": ["FR-CORPS-01"], "at": "Chateau Thierry"}])
# RU corps 1 CF (Corps table) into the mountain (one left: 0) roll 6: 1; TU corps 1 CF roll 1: 0; one space back
case("12.1.9-no-russian-army-attacks-from-the-caucasus-into-the-near-east", "12.1.9|11.3.2",
     units={"RU-CORPS-01": "Caucasus", "RU-1-ARMY": "Caucasus", "TU-CORPS-07": "Grozny"},
     status={**TURKEY_IN, "control": {"Grozny": "cp"}}, turn=7,
     legal=CP_PASS + [AP1, card("AP-10"), activate({"Caucasus": "attack"}, 1),
                      attack(["RU-CORPS-01"], "Grozny", 6, 1, "0/1", losses={"defender": ["TU-CORPS-07"]},
                             retreats={"TU-CORPS-07": ["Petrovsk"]})],
     illegal=CP_PASS + [AP1, card("AP-10"), activate({"Caucasus": "attack"}, 1),
                        attack(["RU-1-ARMY"], "Grozny", 6, 1, "0/3", losses={"defender": ["TU-CORPS-07", "TU-CORPS-07"]})])
# 12.5.3: the last defending step cannot be eliminated to cancel a retreat. GE corps 2 CF (Corps table) roll 2: 1;
# FR corps 1 or 2 CF roll 1: 0; one FR corps step lost, the extra step eliminates that corps: legal only while the
# second corps stays
case("12.5.3-the-last-step-cannot-cancel-a-retreat", "12.5.3",
     units={"GE-CORPS-01": "Koblenz", "FR-CORPS-01": "Sedan", "FR-CORPS-02": "Sedan"},
     illegal_units={"GE-CORPS-01": "Koblenz", "FR-CORPS-01": "Sedan"},
     legal=ATTACK_KOBLENZ + [attack(["GE-CORPS-01"], "Sedan", 2, 1, "0/1", losses={"defender": ["FR-CORPS-01", "FR-CORPS-01"]},
                                    declare=["cancel_retreat"])],
     illegal=ATTACK_KOBLENZ + [attack(["GE-CORPS-01"], "Sedan", 2, 1, "0/1", losses={"defender": ["FR-CORPS-01", "FR-CORPS-01"]},
                                      declare=["cancel_retreat"])])
# 9.5.4.2/9.5.4.4: a combat card kept after a won combat influences one other combat a round, not a second one in
# the same action round (the card's own effect is not judged here: pbem may leave those attacks' numbers unjudged)
case("9.5.4.4-a-kept-combat-card-once-an-action-round", "9.5.4.4", piles=True,
     units={**KOBLENZ_ARMIES, "BE-1-ARMY": "Liege"},
     legal=ATTACK_KOBLENZ + [dict(SEDAN_ATTACK, cards=["CP-03"]), LIEGE_TIE],
     illegal=ATTACK_KOBLENZ + [dict(SEDAN_ATTACK, cards=["CP-03"]), dict(LIEGE_TIE, cards=["CP-03"])])

# (phase 2) the first half of 5.7.4.6: before Allied Total War only AH and IT armies operate in Italy
ITALY_IN = {"neutral_nations": ["BU", "GR", "RO", "US"], "commitment": {"cp": "limited_war", "ap": "limited_war"},
            "war_status": {"cp": 6, "ap": 6}, "combined_war_status": 12}
case("5.7.4.6-only-austrian-and-italian-armies-in-italy-before-allied-total-war", "5.7.4.6", scenario=H, turn=6,
     units={"AH-1-ARMY": "Trent", "GE-CORPS-01": "Innsbruck"}, illegal_units={"GE-4-ARMY": "Trent"}, status=ITALY_IN,
     legal=[CP1, card("CP-07"), activate({"Trent": "move"}, 1), mv("AH-1-ARMY", "Trent", "Verona")],
     illegal=[CP1, card("CP-07"), activate({"Trent": "move"}, 1), mv("GE-4-ARMY", "Trent", "Verona")])


# ---------------------------------------------------------------------------------------------------------------
def _params(variant: str):
    for c in CASES:
        marks = []
        if c.ambiguous:
            marks.append(pytest.mark.skip(reason=f"the rulebook is ambiguous: {c.ambiguous}"))
        reason = c.xfail_legal if variant == "legal" else c.xfail_illegal
        if reason:
            marks.append(pytest.mark.xfail(strict=True, reason=reason))
        yield pytest.param(c, id=c.id, marks=marks)


def test_the_audit_is_large_enough():
    assert len(CASES) >= 60
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("audit_case", list(_params("legal")))
def test_legal_variant(audit_case, tmp_path):
    report = check(audit_case, tmp_path, "legal")
    assert not errors(report), errors(report)


@pytest.mark.parametrize("audit_case", list(_params("illegal")))
def test_illegal_variant(audit_case, tmp_path):
    report = check(audit_case, tmp_path, "illegal")
    assert errors(report), f"{audit_case.id}: judged legal, the rulebook says {audit_case.rule}"
    wanted = set(audit_case.rule.split("|"))
    assert wanted & cited(report), (wanted, errors(report))


# --- phase 2 (after the audit): French Mutiny (7.1.8, the card CP-47), whose attack activations the differential
# tool now writes as plain attack activations: a French attack in France, Belgium or Germany on a French MO turn is
# legal and costs the Allies 1 VP, unless every attacking French unit is stacked with US units.
MUTINY = {"events_played": ["CP-47"], "removed_cards": ["CP-47"], "mandated_offensive": {"cp": "none", "ap": "FR"},
          "mandated_offensive_done": {"cp": False, "ap": False}, "neutral_nations": ["BU", "GR", "RO"],
          "commitment": {"cp": "total_war", "ap": "total_war"}, "war_status": {"cp": 15, "ap": 15}, "combined_war_status": 30,
          "control": {"Cambrai": "cp", "Sedan": "cp"}, "vp": 10}


@pytest.mark.parametrize("with_us, vp", [(False, 11), (True, 10)], ids=["french-alone-1-vp", "stacked-with-us-no-vp"])
def test_7_1_8_a_french_attack_under_french_mutiny(tmp_path, with_us, vp):
    units = {"FR-5-ARMY": "Chateau Thierry", "GE-CORPS-01": "Cambrai"}
    # FR 3 CF (or FR + US 8 CF) against a GE corps (2 CF, Corps table) in clear Cambrai: roll 4: 3 (4); GE roll 1: 0
    attack_ = attack(["FR-5-ARMY"], "Cambrai", 4, 1, "0/3", losses={"defender": ["GE-CORPS-01", "GE-CORPS-01"]})
    if with_us:
        units["US-1-ARMY"] = "Chateau Thierry"
        attack_ = attack(["FR-5-ARMY", "US-1-ARMY"], "Cambrai", 4, 1, "0/4", losses={"defender": ["GE-CORPS-01", "GE-CORPS-01"]})
    mutiny = Case("7.1.8-french-mutiny", "7.1.8", units=units, status=MUTINY, turn=14,
                  legal=CP_PASS + [AP1, card("AP-10"), activate({"Chateau Thierry": "attack"}, 1), attack_, {"phase": "war_status"}],
                  illegal=[])
    report = check(mutiny, tmp_path, "legal")
    assert not errors(report), errors(report)
    after = tmp_path / "after.json"
    code, _ = _run("check", tmp_path / "7.1.8-french-mutiny-legal.json", "--write-state", after)
    assert code == 0
    assert json.loads(after.read_text())["status"]["vp"] == vp
