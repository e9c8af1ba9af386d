"""Red Winter validators: legal cases the samples do not hold (each rule's illegal case is a sample)."""

import json
import re

from pbem.engine.rulesets import module_ruleset
from pbem.model.module import load_module
from pbem.model.resources import data_dir

SAMPLES = data_dir("samples") / "red-winter"
RULES = module_ruleset(load_module("red-winter"))


def checklist_ids(violations):
    """The digest checklist id of each violation (the rule field holds the GMT number where the digest has one)."""
    found = set()
    for v in violations:
        if v["severity"] == "warning":
            continue
        tagged = re.search(r"\(([A-Z]+-\d+)\)$", v["message"])
        cid = tagged.group(1) if tagged and RULES.rule_number_of(tagged.group(1)) == v["rule"] else v["rule"]
        assert RULES.rule_number_of(cid) == v["rule"], v
        found.add(cid)
    return sorted(found)


def run(pbem, tmp_path, side, turn, actions, start=None):
    doc = {"module": "red-winter", "scenario": "campaign", "turn": turn, "side": side,
           "start": {"scenario": "campaign"} if start is None else {"state": str(SAMPLES / start)}, "actions": actions}
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(doc))
    report = json.loads(pbem("check", path, "--format", "json").out)
    return checklist_ids(report["violations"])


SOV = ["SOV-1-1-609", "SOV-2-1-609", "SOV-3-1-609", "SOV-MG-1-609"]
ROAD = ["Q25", "P25", "P24", "O23", "O22", "O21"]
ASSAULT = {"overrun": SOV, "target": "O20", "odds": "1/1", "column": "2/1", "roll": 12, "result": "0/4",
           "losses": {"defender": ["FIN-1-1-JR16", "FIN-1-1-JR16", "FIN-2-1-JR16", "FIN-2-1-JR16"]}}


def test_night_double_move_then_assault_that_advances_is_legal(pbem, tmp_path):
    actions = [{"phase": "action"}, {"move": SOV, "path": ROAD, "declare": ["double"]}, dict(ASSAULT, advance=SOV)]
    assert run(pbem, tmp_path, "soviet", 5, actions) == []


def test_the_same_move_and_assault_by_day_runs_out_of_mp(pbem, tmp_path):
    actions = [{"phase": "action"}, {"move": SOV, "path": ROAD}, dict(ASSAULT, advance=SOV)]
    assert run(pbem, tmp_path, "soviet", 2, actions) == ["AS-2"]


def test_ski_bonus_finns_cross_the_lake_at_1_mp_soviets_at_1_5(pbem, tmp_path):
    lake = ["P20", "P21", "P22", "P23"]
    assert run(pbem, tmp_path, "finnish", 2, [{"phase": "action"}, {"move": "FIN-MG-1-JR16", "path": lake}]) == []
    soviet = [{"phase": "action"}, {"move": "SOV-MG-1-609", "path": ["Q25", "Q24", "P23", "P22"]}]
    assert run(pbem, tmp_path, "soviet", 2, soviet) == ["MV-1"]  # forest 2 + lake 1.5 + 1.5 = 5 > 4


def test_minimum_move_one_hex_whatever_the_cost(pbem, tmp_path):
    # MG/1/609 has 4 MP; Q24 is forest (2): fine anyway; a 5-MP company into suo after moving is not.
    assert run(pbem, tmp_path, "soviet", 2, [{"phase": "action"}, {"move": "SOV-MG-1-609", "path": ["Q25", "Q24"]}]) == []
    assert run(pbem, tmp_path, "finnish", 2, [{"phase": "action"}, {"move": "FIN-MTR-JR16-O19", "path": ["M20", "M19"]}]) == []


def test_one_action_per_unit(pbem, tmp_path):
    actions = [{"phase": "action"}, {"move": "SOV-MG-1-609", "path": ["Q25", "P25"]}, {"move": "SOV-MG-1-609", "path": ["P25", "P24"]}]
    assert run(pbem, tmp_path, "soviet", 2, actions) == ["SEQ-1"]


def test_hotel_and_armour_rules_are_reachable(pbem, tmp_path):
    # Armour on the main road passes hexes next to Finnish infantry without stopping (MV-11: only AT ZOC binds).
    actions = [{"phase": "action"}, {"reinforce": "SOV-BA10", "at": "X28"},
               {"move": "SOV-BA10", "path": ["X28", "W27", "V28", "U27", "T28", "S27", "R27"]}]
    assert run(pbem, tmp_path, "soviet", 6, actions) == []


def test_bonfire_legal_far_from_the_finns_at_night(pbem, tmp_path):
    assert run(pbem, tmp_path, "soviet", 5, [{"phase": "action"}, {"special": "bonfire", "at": "R27"}]) == []
    assert run(pbem, tmp_path, "finnish", 5, [{"phase": "action"}, {"special": "bonfire", "at": "P20"}]) == ["BF-1"]
