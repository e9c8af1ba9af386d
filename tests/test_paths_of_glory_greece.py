"""Issue 24 (pog-diff's classes): Greece's limited entry (9.5.2.4) and the Salonika event, neutral units and
attrition, generic corps in a Setup Chart, the historical scenario's turn-1 British MO (LR2022 5.7.4.5)."""

import json
from pathlib import Path

import pytest

from pbem.engine.rulesets import module_ruleset
from pbem.model.jsonsource import load_json
from pbem.model.module import load_module
from pbem.model.state import State

REPO = Path(__file__).resolve().parents[1]
MODULE = REPO / "modules" / "paths-of-glory"


@pytest.fixture(scope="module")
def pog():
    return load_module(MODULE)


@pytest.fixture
def state(pog):
    return State.from_json(pog, load_json(MODULE / "scenarios" / "1914.json"))


def _salonika_played(state, pog):
    state.status["events_played"].append("AP-30")
    for unit, space in (("GR-CORPS-01", "Florina"), ("GR-CORPS-02", "Larisa"), ("GR-CORPS-03", "Athens")):
        state.place(unit, pog.map.index(space))


def test_limited_greek_entry_opens_the_spaces_without_greek_units(pog, state):
    rules, m = module_ruleset(pog), pog.map
    assert rules.controller(state, m.index("Salonika")) is None  # neutral Greece, before the Salonika event
    _salonika_played(state, pog)
    assert rules.controller(state, m.index("Salonika")) == "ap"  # 9.5.2.4: open, Allied-controlled at start
    assert rules.controller(state, m.index("Kavala")) == "ap"
    assert rules.controller(state, m.index("Florina")) is None  # a Greek unit there: closed to both
    state.status["control"]["Salonika"] = "cp"
    assert rules.controller(state, m.index("Salonika")) == "cp"


def test_neutral_units_trace_no_supply(pog, state):
    rules = module_ruleset(pog)
    _salonika_played(state, pog)
    greek = state.units["GR-CORPS-01"]
    assert rules.in_supply(state, greek)  # still neutral: no supply line, no attrition
    state.status["neutral_nations"].remove("GR")
    for name in ("Monastir", "Salonika", "Larisa", "Tirana"):
        state.status["control"][name] = "cp"
    assert not rules.in_supply(state, greek)  # at war, cut off: out of supply


def _turn(tmp_path, actions, start, turn=1):
    (tmp_path / "start.json").write_text(json.dumps(start))
    data = {"module": "paths-of-glory", "turn": turn, "side": "cp", "start": {"state": "start.json"}, "actions": actions}
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(data))
    return path


def _start(**status):
    scenario = json.loads((MODULE / "scenarios" / "1914.json").read_text())
    scenario["status"].update(status)
    start = {k: v for k, v in scenario.items() if k in ("module", "turn", "first_side", "units", "status")}
    start["scenario"] = "1914"
    return start


ROUND_1 = [{"phase": "action", "round": 1, "side": "cp"}, {"card": None, "use": "automatic"}, {"phase": "action", "round": 1, "side": "ap"}]


def test_salonika_sets_greece_up_and_redeploys_to_salonika(pbem, tmp_path):
    start = _start(commitment={"cp": "limited_war", "ap": "limited_war"})
    start["turn"] = 5  # past the deal: the Limited War deck is in (16.1)
    for unit in start["units"]:
        if unit["id"] in ("FR-CORPS-01", "FR-CORPS-02"):
            unit["at"] = "reserve"
    setup = [{"reinforce": "GR-CORPS-02", "at": "Florina"}, {"reinforce": "GR-CORPS-01", "at": "Larisa"}, {"reinforce": "GR-CORPS-03", "at": "Athens"}]
    legal = ROUND_1 + [{"card": "AP-30", "use": "event"}] + setup + [
        {"reinforce": "FR-CORPS-01", "at": "Salonika"}, {"reinforce": "FR-CORPS-02", "at": "Salonika"},
        {"move": "BR-CORPS-04", "path": ["Basra", "Salonika"], "by": "sea"}]
    result = pbem("check", _turn(tmp_path, legal, start, turn=5), "--format", "json")
    report = json.loads(result.out)
    assert [v for v in report["violations"] if v["severity"] != "warning"] == [], report
    illegal = ROUND_1 + [{"card": "AP-30", "use": "event"}] + setup + [{"reinforce": "FR-CORPS-01", "at": "Florina"}]
    report = json.loads(pbem("check", _turn(tmp_path, illegal, start, turn=5), "--format", "json").out)
    assert {v["rule"] for v in report["violations"] if v["severity"] != "warning"} == {"9.5.1.1"}, report


def test_a_move_into_a_greek_space_with_greek_units_stays_illegal(pbem, tmp_path):
    start = _start(events_played=["AP-30"])
    for unit in start["units"]:
        if unit["id"] == "GR-CORPS-01":
            unit["at"] = "Florina"
        if unit["id"] == "SB-CORPS-01":
            unit["at"] = "Monastir"
    start["status"]["control"] = {"Monastir": "ap"}
    base = [{"phase": "action", "round": 1, "side": "cp"}, {"card": None, "use": "automatic"},
            {"phase": "action", "round": 1, "side": "ap"}, {"card": None, "use": "automatic"}, {"activate": {"Monastir": "move"}}]
    report = json.loads(pbem("check", _turn(tmp_path, base + [{"move": "SB-CORPS-01", "path": ["Monastir", "Salonika"]}], start), "--format", "json").out)
    assert not [v for v in report["violations"] if v["rule"] == "11.1.11"], report  # 9.5.2.4: Salonika is open
    report = json.loads(pbem("check", _turn(tmp_path, base + [{"move": "SB-CORPS-01", "path": ["Monastir", "Florina"]}], start), "--format", "json").out)
    assert "11.1.11" in {v["rule"] for v in report["violations"]}, report


@pytest.mark.parametrize("space, ok", [("Adrianople", True), ("Van", True), ("Giresun", False)])
def test_any_turkish_corps_fills_a_corps_place_of_the_setup_chart(pog, state, space, ok):
    rules = module_ruleset(pog)
    chart = state.status["neutral_setup"]["TU"]
    unit = state.units["TU-CORPS-05"]  # the chart names TU Corps #1 at Adrianople: corps are generic counters
    assert rules._corps_slot(state, chart, unit, space) is ok


@pytest.mark.parametrize("scenario, turn, expected", [("1914-historical", 1, "FR"), ("1914-historical", 2, "BR"), ("1914", 1, "BR")])
def test_a_british_mo_is_french_on_turn_1_of_the_historical_scenario(pbem, tmp_path, scenario, turn, expected):
    data = {"module": "paths-of-glory", "turn": turn, "side": "cp", "start": {"scenario": scenario},
            "actions": [{"phase": "mandated_offensive"}, {"roll": {"purpose": "mandated_offensive", "side": "ap", "value": 3, "result": expected}}]}
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(data))
    result = pbem("check", path)
    assert result.code == 0, result.out
    other = "BR" if expected == "FR" else "FR"
    data["actions"][1]["roll"]["result"] = other
    path.write_text(json.dumps(data))
    result = pbem("check", path)
    assert result.code == 1 and "rule 7.1 [mismatch]" in result.out, result.out


def test_a_siege_ends_when_the_last_besieger_leaves(pog, state):
    # 15.2.1/15.2.4: besieged only while enemy units stand in the fort's space; then it blocks supply again (14.1.3).
    rules, m = module_ruleset(pog), pog.map
    state.status["forts"]["Lutsk"] = "besieged"
    state.place("AH-3-ARMY", m.index("Lutsk"))
    assert rules.besieged(state, m.index("Lutsk"))
    state.place("AH-3-ARMY", m.index("Sarny"))
    for name in ("Sarny", "Rovno", "Kovel"):
        state.status["control"][name] = "cp"
    assert not rules.besieged(state, m.index("Lutsk"))
    assert rules.controller(state, m.index("Lutsk")) == "ap"


def test_a_fort_an_army_entered_this_round_is_besieged_for_the_next_unit(pbem, tmp_path):
    # 15.2.1-15.2.2: GE 1st Army enters Liege and stops: it besieges the fort, so the GE 2nd Army may pass through.
    start = _start()
    base = [{"phase": "action", "round": 1, "side": "cp"}, {"card": "CP-04", "use": "ops"}, {"activate": {"Aachen": "move", "Koblenz": "move"}},
            {"move": "GE-1-ARMY", "path": ["Aachen", "Liege"]}]
    through = base + [{"move": "GE-2-ARMY", "path": ["Koblenz", "Liege", "Brussels"]}]
    report = json.loads(pbem("check", _turn(tmp_path, through, start), "--format", "json").out)
    assert "11.1.8" not in {v["rule"] for v in report["violations"]}, report
    alone = [{"phase": "action", "round": 1, "side": "cp"}, {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "move"}},
             {"move": "GE-2-ARMY", "path": ["Koblenz", "Liege", "Brussels"]}]
    report = json.loads(pbem("check", _turn(tmp_path, alone, start), "--format", "json").out)
    assert "11.1.8" in {v["rule"] for v in report["violations"]}, report


@pytest.mark.parametrize("leaves, ok", [(True, True), (False, False)])
def test_stacking_after_sr_out_of_the_reserve_box_is_judged_when_the_sr_ends(pbem, tmp_path, leaves, ok):
    # 10.1.2: a corps SRs from the Reserve Box into Metz (then 4 units) while another leaves it in the same round.
    start = _start()
    for unit in start["units"]:
        if unit["id"] == "GE-CORPS-09":
            unit["at"] = "Metz"
    actions = [{"phase": "action", "round": 1, "side": "cp"}, {"card": "CP-07", "use": "sr"}, {"reinforce": "GE-CORPS-01", "at": "Metz"}]
    if leaves:
        actions.append({"move": "GE-CORPS-09", "path": ["Metz", "Strasbourg"], "by": "strategic"})
    actions.append({"phase": "action", "round": 1, "side": "ap"})
    report = json.loads(pbem("check", _turn(tmp_path, actions, start), "--format", "json").out)
    rules = {v["rule"] for v in report["violations"] if v["severity"] != "warning"}
    assert ("10.1.1" not in rules) is ok, report
    assert rules <= {"10.1.1"}, report


@pytest.mark.parametrize("scenario, second, ok", [("1914-historical", "success", True), ("1914-historical", "failure", False), ("1914", "failure", True), ("1914", "success", False)])
def test_a_failed_entrench_roll_gives_minus_one_next_round_in_the_historical_scenario(pbem, tmp_path, scenario, second, ok):
    # Optional 11.2.10, used by the historical scenario (LR2022 5.7.4.2): GE 8th Army fails with 6, then rolls 4
    # in the CP's next round: 4-1 = 3 <= LF 3 succeeds there; without the rule it fails.
    start = _start(events_played=["CP-06"])
    start["scenario"] = scenario
    start["turn"] = 2
    dig = lambda roll, result: {"special": "entrench", "units": ["GE-8-ARMY"], "at": "Insterberg", "roll": roll, "result": result}
    actions = [{"phase": "action", "round": 1, "side": "cp"}, {"card": "CP-04", "use": "ops"}, {"activate": {"Insterberg": "move"}}, dig(6, "failure"),
               {"phase": "action", "round": 1, "side": "ap"}, {"card": None, "use": "automatic"},
               {"phase": "action", "round": 2, "side": "cp"}, {"card": "CP-05", "use": "ops"}, {"activate": {"Insterberg": "move"}}, dig(4, second)]
    report = json.loads(pbem("check", _turn(tmp_path, actions, start, turn=2), "--format", "json").out)
    verdicts = {v["rule"] for v in report["violations"] if v["severity"] != "warning"}
    assert (verdicts == set()) is ok and verdicts <= {"11.2.2"}, report


def test_a_corps_redeploys_from_the_reserve_box_to_its_besiegers_of_an_enemy_fort(pbem, tmp_path):
    # 13.1.8 with 13.1.6: a GE corps besieging Liege is a same-nation unit in a space the CP may SR into.
    start = _start(forts={"Liege": "besieged"})
    for unit in start["units"]:
        if unit["id"] == "GE-CORPS-09":
            unit["at"] = "Liege"
            unit.pop("step", None)
    base = [{"phase": "action", "round": 1, "side": "cp"}, {"card": "CP-07", "use": "sr"}]
    report = json.loads(pbem("check", _turn(tmp_path, base + [{"reinforce": "GE-CORPS-01", "at": "Liege"}], start), "--format", "json").out)
    assert "13.1.8" not in {v["rule"] for v in report["violations"]}, report
    report = json.loads(pbem("check", _turn(tmp_path, base + [{"reinforce": "GE-CORPS-01", "at": "Brussels"}], start), "--format", "json").out)
    assert "13.1.8" in {v["rule"] for v in report["violations"]}, report
