"""Issue 24 class 3: what a Paths of Glory player does that could not be written before, each form with a legal and
an illegal turn and its rule: control flips in the Attrition phase (14.3.6), control changed during the turn seen by a
later SR (13.1.6), rebuilt units (17.1.3-17.1.7), advances beyond the attacked space (12.6.2-12.6.6), Withdrawal's
negated step (LR2022 12.6.3-12.6.6), one entrenchment a space (11.2.2), the retreat declined or taken (12.5.3)."""

import dataclasses
import json
from pathlib import Path

import pytest

from pbem.engine.replay import replay
from pbem.engine.rulesets import module_ruleset
from pbem.formats.notation import parse_notation
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.module import load_module

REPO = Path(__file__).resolve().parents[1]
SCENARIO = REPO / "modules" / "paths-of-glory" / "scenarios" / "1914.json"


@pytest.fixture(scope="module")
def module():
    return load_module(REPO / "modules" / "paths-of-glory")


def start(moves=None, steps=None, **status) -> dict:
    """The 1914 set-up as a state document, units moved (id -> space or box) and the status changed."""
    scenario = json.loads(SCENARIO.read_text())
    data = {k: v for k, v in scenario.items() if k not in ("$schema", "id", "last_turn", "note", "source", "title")}
    for unit in data["units"]:
        if moves and unit["id"] in moves:
            unit["at"] = moves[unit["id"]]
        if steps and unit["id"] in steps:
            unit["step"] = steps[unit["id"]]
    data["status"].update(status)
    return data


def play(module, tmp_path, actions, state=None, edition="seed", turn=1):
    """The replay of a CP turn of ``actions`` from ``state`` (a document, or the 1914 set-up)."""
    (tmp_path / "state.json").write_text(json.dumps(state or start()))
    path = tmp_path / "turn.json"
    path.write_text(json.dumps({"module": "paths-of-glory", "turn": turn, "side": "cp", "start": {"state": "state.json"}, "actions": actions}))
    parsed, _ = load_turn(path, module)
    edited = dataclasses.replace(module, options={**module.options, "edition": edition})
    return replay(edited, load_start_state(parsed, module), parsed)


def broken(module, tmp_path, actions, state=None, **kw) -> list[str]:
    """The rule numbers of the illegal verdicts (mismatches and warnings left out: claimed results are not the point)."""
    return sorted({v.rule for v in play(module, tmp_path, actions, state, **kw).violations if v.severity == "illegal"})


CP1 = [{"phase": "action", "round": 1, "side": "cp"}]


# --- 14.3.6: control flips in the Attrition phase -----------------------------------------------------------
CUT_OFF = dict(moves={"GE-3-ARMY": "Cambrai", "FR-3-ARMY": "Sedan", "FR-5-ARMY": "eliminated"}, control={"Cambrai": "cp", "Sedan": "ap"})
ATTRITION = [{"phase": "attrition"}, {"remove": "GE-3-ARMY", "to": "permanently_eliminated"}]


def test_14_3_6_a_space_that_cannot_trace_supply_passes_to_the_enemy(module, tmp_path):
    state = start(**CUT_OFF)
    state["status"]["trenches"]["Cambrai"] = {"level": 2, "owner": "cp"}
    result = play(module, tmp_path, [*ATTRITION, {"control": {"Cambrai": "ap", "Libya": "ap"}}, {"phase": "siege"}], state)
    assert [v for v in result.violations if v.severity == "illegal"] == []
    rules = module_ruleset(module)
    assert rules.controller(result.state, module.map.index("Cambrai")) == "ap"
    assert result.state.status["trenches"]["Cambrai"] == {"level": 1, "owner": "ap"}  # LR2022 11.2.7


def test_14_3_6_a_flip_left_out_or_a_supplied_space_flipped_is_illegal(module, tmp_path):
    assert broken(module, tmp_path, [*ATTRITION, {"control": {"Libya": "ap"}}, {"phase": "siege"}], start(**CUT_OFF)) == ["14.3.6"]
    flipped_koblenz = [*ATTRITION, {"control": {"Cambrai": "ap", "Libya": "ap", "Koblenz": "ap"}}]
    assert broken(module, tmp_path, flipped_koblenz, start(**CUT_OFF)) == ["14.3.6"]


def test_14_3_6_forts_and_serbian_spaces_keep_their_side(module, tmp_path):
    # Belgrade's space is Serbian: it changes only when CP units enter it. Liege holds a Belgian fort.
    assert broken(module, tmp_path, [*ATTRITION, {"control": {"Cambrai": "ap", "Libya": "ap", "Liege": "cp"}}], start(**CUT_OFF)) == ["14.3.6"]
    isolated = start(control={"Nis": "cp", "Skopje": "cp", "Kragujevac": "cp"})
    result = play(module, tmp_path, [{"phase": "attrition"}, {"control": {"Libya": "ap"}}], isolated)
    assert "Belgrade" not in [m for v in result.violations for m in [v.message] if "Belgrade" in m]


def test_a_control_change_outside_the_attrition_phase_is_recorded_with_a_warning(module, tmp_path):
    result = play(module, tmp_path, [*CP1, {"control": {"Cambrai": "cp"}}])
    assert [v.severity for v in result.violations] == ["warning"]
    assert module_ruleset(module).controller(result.state, module.map.index("Cambrai")) == "cp"


# --- control changed during the turn is seen by later checks (13.1.6) ------------------------------------------
SEDAN_TAKEN = [
    *CP1, {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
    {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 4, "defender_roll": 3, "result": "2/5",
     "losses": {"defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Cambrai", "Chateau Thierry"]}, "advance": ["GE-2-ARMY"]},
    {"phase": "action", "round": 1, "side": "ap"}, {"card": None, "use": "automatic"},
    {"phase": "action", "round": 2, "side": "cp"}, {"card": "CP-05", "use": "sr"},
]


def test_13_1_6_sr_through_a_space_taken_earlier_in_the_turn(module, tmp_path):
    through_sedan = {"move": "GE-CORPS-01", "path": ["Liege", "Sedan"], "by": "strategic"}
    state = start(moves={"GE-CORPS-01": "Liege"}, control={"Liege": "cp"})
    assert broken(module, tmp_path, [*SEDAN_TAKEN, through_sedan], state) == []
    no_advance = [{**a, "advance": []} if "attack" in a else a for a in SEDAN_TAKEN]
    assert broken(module, tmp_path, [*no_advance, through_sedan], state) == ["13.1.6"]


def test_12_5_5_a_retreat_takes_the_space_it_ends_in(module, tmp_path):
    # Cambrai and Chateau Thierry are CP-held and empty; the French retreat through Cambrai ends in Chateau Thierry:
    # that space is Allied again, Cambrai (passed through) is not. (Whether the retreat had to seek friendly spaces
    # first is 12.5.5's other clause, not this test's.)
    state = start(control={"Cambrai": "cp", "Chateau Thierry": "cp"})
    result = play(module, tmp_path, SEDAN_TAKEN[:4], state)
    assert module_ruleset(module).controller(result.state, module.map.index("Chateau Thierry")) == "ap"
    assert module_ruleset(module).controller(result.state, module.map.index("Cambrai")) == "cp"


# --- 17.1.3-17.1.7: rebuilding eliminated units --------------------------------------------------------------
ELIMINATED = dict(moves={"GE-8-ARMY": "eliminated", "GE-CORPS-07": "eliminated", "BE-1-ARMY": "eliminated", "SB-1-ARMY": "eliminated",
                         "GE-1-ARMY": "permanently_eliminated"}, replacement_points={"GE": 2, "A": 2})
REPLACEMENT = [{"phase": "replacement"}]


def test_17_1_5_an_eliminated_army_is_rebuilt_reduced_where_a_reinforcement_enters(module, tmp_path):
    actions = [*REPLACEMENT, {"replace": "GE-8-ARMY", "at": "Berlin"}, {"replace": "GE-CORPS-07", "at": "reserve"}]
    result = play(module, tmp_path, actions, start(**ELIMINATED))
    assert [v for v in result.violations if v.severity == "illegal"] == []
    army, corps = result.state.units["GE-8-ARMY"], result.state.units["GE-CORPS-07"]
    assert (module.map.label(army.at), army.step) == ("Berlin", 1)
    assert (corps.box, corps.step) == ("reserve", 1)
    assert result.state.status["replacement_points"]["GE"] == 0.5  # army 1, corps 0.5 (supplied costs)


@pytest.mark.parametrize("action, rule", [
    ({"replace": "GE-8-ARMY", "at": "Koblenz"}, "17.1.5"),  # neither a capital nor a supply source
    ({"replace": "GE-8-ARMY", "at": "reserve"}, "17.1.5"),  # armies go onto the map
    ({"replace": "GE-CORPS-07", "at": "Berlin"}, "17.1.5"),  # corps into the Reserve Box
    ({"replace": "GE-2-ARMY", "at": "Berlin"}, "17.1.5"),  # on the map, not eliminated
    ({"replace": "GE-1-ARMY", "at": "Berlin"}, "17.1.5"),  # permanently eliminated
    ({"replace": "BE-1-ARMY", "at": "Calais"}, "17.1.5"),  # Brussels, Antwerp or Ostend are open: Calais is not yet
    ({"replace": "SB-1-ARMY", "at": "Salonika"}, "17.1.5"),  # Salonika only after the Salonika or Greek entry event
])
def test_17_1_5_where_a_rebuilt_unit_goes(module, tmp_path, action, rule):
    assert broken(module, tmp_path, [*REPLACEMENT, action], start(**ELIMINATED)) == [rule]


def test_17_1_5_the_belgian_army_comes_back_in_belgium(module, tmp_path):
    assert broken(module, tmp_path, [*REPLACEMENT, {"replace": "BE-1-ARMY", "at": "Brussels"}], start(**ELIMINATED)) == []


def test_17_1_1_17_1_2_17_1_7_rebuilding_costs_rp_in_the_replacement_phase(module, tmp_path):
    poor = start(**{**ELIMINATED, "replacement_points": {"GE": 0.5}})
    assert broken(module, tmp_path, [*REPLACEMENT, {"replace": "GE-8-ARMY", "at": "Berlin"}], poor) == ["17.1.1"]
    assert broken(module, tmp_path, [*CP1, {"replace": "GE-8-ARMY", "at": "Berlin"}], start(**ELIMINATED)) == ["17.1.2"]
    bef = start(moves={"BR-BEF-ARMY": "eliminated"}, replacement_points={"BR": 2})
    assert broken(module, tmp_path, [*REPLACEMENT, {"replace": "BR-BEF-ARMY", "at": "London"}], bef) == ["17.1.7"]


def test_a_rebuild_reads_from_the_notation(module):
    text = "Game: paths-of-glory\nScenario: 1914\nTurn: 1\nSide: cp\n== Replacement ==\nRebuild GE 8th Army at Berlin\nRebuild GE Corps 7 to reserve\nReplace GE 2nd Army\n"
    actions = parse_notation(text, "t.pbem").data["actions"]
    assert actions[1:] == [{"replace": "GE-8-ARMY", "at": "Berlin"}, {"replace": "GE-CORPS-07", "at": "reserve"}, {"replace": "GE-2-ARMY"}]


# --- 12.6.2-12.6.6: advances beyond the attacked space -----------------------------------------------------
BEFORE_CAMBRAI = dict(moves={"GE-2-ARMY": "Sedan", "GE-3-ARMY": "Sedan", "FR-5-ARMY": "Cambrai"}, control={"Sedan": "cp"})


def on_cambrai(retreat, advance, result="2/5", losses=("FR-5-ARMY",), **more):
    attack = {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Cambrai", "roll": 4, "defender_roll": 3, "result": result,
              "losses": {"defender": list(losses)}, "advance": advance, **more}
    if retreat is not None:
        attack["retreats"] = {"FR-5-ARMY": retreat}
    return [*CP1, {"card": "CP-04", "use": "ops"}, {"activate": {"Sedan": "attack"}, "cost": 1}, attack]


def test_12_6_3_after_a_two_space_retreat_the_attackers_follow_it(module, tmp_path):
    actions = on_cambrai(["Chateau Thierry", "Melun"], {"GE-2-ARMY": ["Cambrai", "Chateau Thierry"], "GE-3-ARMY": ["Cambrai"]})
    result = play(module, tmp_path, actions, start(**BEFORE_CAMBRAI))
    assert [v for v in result.violations if v.severity == "illegal"] == []
    assert module.map.label(result.state.units["GE-2-ARMY"].at) == "Chateau Thierry"
    assert module_ruleset(module).controller(result.state, module.map.index("Chateau Thierry")) == "cp"  # 12.6.9


@pytest.mark.parametrize("retreat, advance, rule", [
    (["Chateau Thierry", "Melun"], {"GE-2-ARMY": ["Cambrai", "Brussels"]}, "12.6.3"),  # no retreating unit left by Brussels
    (["Chateau Thierry", "Melun"], {"GE-2-ARMY": ["Cambrai", "Chateau Thierry", "Melun"]}, "12.6.3"),  # two spaces at most
    (["Chateau Thierry", "Melun"], {"GE-2-ARMY": ["Sedan", "Cambrai"]}, "12.6.1"),  # an advance starts in the attacked space
    (["Amiens", "Paris"], {"GE-2-ARMY": ["Cambrai", "Amiens"]}, "12.6.6"),  # a channel port before Race to the Sea
])
def test_12_6_advances_beyond_the_attacked_space_that_break_a_rule(module, tmp_path, retreat, advance, rule):
    assert rule in broken(module, tmp_path, on_cambrai(retreat, advance), start(**BEFORE_CAMBRAI))


def test_12_6_2_with_every_defender_eliminated_the_advance_stops_in_the_attacked_space(module, tmp_path):
    lone_corps = start(moves={"GE-2-ARMY": "Sedan", "GE-3-ARMY": "Sedan", "FR-CORPS-01": "Cambrai"}, steps={"FR-CORPS-01": 1}, control={"Sedan": "cp"})
    beyond = on_cambrai(None, {"GE-2-ARMY": ["Cambrai", "Chateau Thierry"]}, losses=("FR-CORPS-01",))
    assert broken(module, tmp_path, beyond, lone_corps) == ["12.6.2"]
    assert broken(module, tmp_path, on_cambrai(None, {"GE-2-ARMY": ["Cambrai"]}, losses=("FR-CORPS-01",)), lone_corps) == []


def test_12_6_3_an_advance_stops_in_a_forest(module, tmp_path):
    # Sedan is a forest: after the French retreat the Germans may enter Sedan, not go on to Cambrai.
    actions = [*CP1, {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1},
               {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 4, "defender_roll": 3, "result": "2/5",
                "losses": {"defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Cambrai", "Chateau Thierry"]},
                "advance": {"GE-2-ARMY": ["Sedan", "Cambrai"]}}]
    assert broken(module, tmp_path, actions) == ["12.6.3"]
    actions[-1]["advance"] = {"GE-2-ARMY": ["Sedan"]}
    assert broken(module, tmp_path, actions) == []


def test_an_advance_beyond_reads_from_the_notation(module):
    text = ("Game: paths-of-glory\nScenario: 1914\nTurn: 1\nSide: cp\n== Action round 1 (cp) ==\n"
            "GE 2nd Army + GE 3rd Army attack Cambrai, defender roll 3, roll 4 = 2/5\n    defender loses FR 5th Army\n"
            "    retreat FR 5th Army to Chateau Thierry - Melun\n    advance GE 2nd Army to Cambrai - Chateau Thierry\n    advance GE 3rd Army\n")
    attack = parse_notation(text, "t.pbem").data["actions"][1]
    assert attack["advance"] == {"GE-2-ARMY": ["Cambrai", "Chateau Thierry"], "GE-3-ARMY": ["Cambrai"]}


# --- LR2022 12.6: Withdrawal negates a step loss ------------------------------------------------------------
WITH_CORPS = dict(moves={**BEFORE_CAMBRAI["moves"], "FR-CORPS-01": "Cambrai"}, control={"Sedan": "cp"})


def withdrawal(negated, retreats, cards=("AP-06",), losses=("FR-CORPS-01", "FR-5-ARMY")):
    attack = {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Cambrai", "cards": list(cards), "roll": 4, "defender_roll": 3, "result": "2/4",
              "losses": {"defender": list(losses)}, "negated": list(negated), "retreats": retreats, "advance": ["GE-2-ARMY"]}
    return [*CP1, {"card": "CP-04", "use": "ops"}, {"activate": {"Sedan": "attack"}, "cost": 1}, attack]


ONE_SPACE = {"FR-5-ARMY": ["Chateau Thierry"], "FR-CORPS-01": ["Chateau Thierry"]}


def test_lr2022_12_6_3_withdrawal_negates_a_corps_step_and_the_defenders_fall_back_one_space(module, tmp_path):
    result = play(module, tmp_path, withdrawal(["FR-CORPS-01"], ONE_SPACE), start(**WITH_CORPS))
    assert [v for v in result.violations if v.severity == "illegal"] == []
    assert result.state.units["FR-CORPS-01"].step == 0 and result.state.units["FR-5-ARMY"].step == 1


@pytest.mark.parametrize("negated, retreats, cards, rule", [
    (["FR-5-ARMY"], ONE_SPACE, ("AP-06",), "12.6.6"),  # a corps step was lost: that is the one negated
    (["FR-CORPS-01"], ONE_SPACE, (), "12.6.3"),  # no Withdrawal card in the combat
    (["FR-CORPS-01", "FR-5-ARMY"], ONE_SPACE, ("AP-06",), "12.6.3"),  # one step only
    (["FR-CORPS-01"], {"FR-5-ARMY": ["Chateau Thierry", "Melun"], "FR-CORPS-01": ["Chateau Thierry", "Melun"]}, ("AP-06",), "12.6.4"),
])
def test_lr2022_12_6_withdrawal_that_breaks_a_rule(module, tmp_path, negated, retreats, cards, rule):
    assert rule in broken(module, tmp_path, withdrawal(negated, retreats, cards), start(**WITH_CORPS))


def test_negated_reads_from_the_notation(module):
    text = ("Game: paths-of-glory\nScenario: 1914\nTurn: 1\nSide: cp\n== Action round 1 (cp) ==\n"
            "GE 2nd Army + GE 3rd Army attack Cambrai, cards AP-06, defender roll 3, roll 4 = 2/4\n"
            "    defender loses FR Corps 1, FR 5th Army\n    negated FR Corps 1\n")
    attack = parse_notation(text, "t.pbem").data["actions"][1]
    assert attack["negated"] == ["FR-CORPS-01"] and attack["losses"]["defender"] == ["FR-CORPS-01", "FR-5-ARMY"]


# --- seed 11.2.1 / LR2022 11.2.2: which army entrenches when several share a space -------------------------------
TWO_ARMIES = dict(moves={"GE-9-ARMY": "Insterberg"}, events_played=["CP-06"])


def entrench(*attempts):
    return [*CP1, {"card": "CP-04", "use": "ops"}, {"activate": {"Insterberg": "move"}, "cost": 1},
            *({"special": "entrench", "units": [army], "at": "Insterberg", "roll": roll} for army, roll in attempts)]


def test_11_2_the_entrenchment_names_the_army_whose_lf_it_rolls_against(module, tmp_path):
    state = start(**TWO_ARMIES)
    reduced = {u["id"]: u for u in state["units"]}
    reduced["GE-9-ARMY"]["step"] = 1  # a reduced army: still LF 3 (the player names either army)
    result = play(module, tmp_path, entrench(("GE-9-ARMY", 3)), state, turn=2)
    assert [v for v in result.violations if v.severity != "warning"] == []
    assert result.state.status["trenches"]["Insterberg"] == {"level": 1, "owner": "cp"}


def test_11_2_one_entrenchment_attempt_a_space(module, tmp_path):
    assert broken(module, tmp_path, entrench(("GE-8-ARMY", 5), ("GE-9-ARMY", 3)), start(**TWO_ARMIES), turn=2) == ["11.2.1"]
    assert broken(module, tmp_path, entrench(("GE-8-ARMY", 5)), start(**TWO_ARMIES), turn=2) == []


# --- 12.5.3: the retreat declined (cancelled with one more step) or taken ------------------------------------------
SEDAN = {"attack": ["GE-2-ARMY", "GE-3-ARMY"], "target": "Sedan", "roll": 4, "defender_roll": 3, "result": "2/5"}
ON_SEDAN = [*CP1, {"card": "CP-04", "use": "ops"}, {"activate": {"Koblenz": "attack"}, "cost": 1}]


def test_12_5_3_the_defender_declines_the_retreat_in_a_forest_or_takes_it(module, tmp_path):
    declined = {**SEDAN, "declare": ["cancel_retreat"], "losses": {"defender": ["FR-5-ARMY", "FR-5-ARMY"]},
                "replacements": {"FR-5-ARMY": "FR-CORPS-01"}}
    assert broken(module, tmp_path, [*ON_SEDAN, declined]) == []
    taken = {**SEDAN, "losses": {"defender": ["FR-5-ARMY"]}, "retreats": {"FR-5-ARMY": ["Cambrai", "Chateau Thierry"]}}
    assert broken(module, tmp_path, [*ON_SEDAN, taken]) == []
    neither = {**SEDAN, "losses": {"defender": ["FR-5-ARMY"]}}
    assert broken(module, tmp_path, [*ON_SEDAN, neither]) == ["12.5.1"]


def test_12_5_3_no_retreat_is_declined_in_clear_terrain(module, tmp_path):
    declined = on_cambrai(None, ["GE-2-ARMY"], losses=("FR-5-ARMY", "FR-5-ARMY"), declare=["cancel_retreat"], replacements={"FR-5-ARMY": "FR-CORPS-01"})
    declined[-1]["advance"] = []
    assert "12.5.3" in broken(module, tmp_path, declined, start(**BEFORE_CAMBRAI))


# --- the forms in the notation's documented turn and in the replay viewer ----------------------------------------
def test_the_documented_paths_of_glory_turn_reads():
    docs = (REPO / "docs" / "notation.md").read_text(encoding="utf-8")
    header = "Game: Paths of Glory\nScenario: 1914\nTurn: 1\nSide: CP\n"
    example = docs.split("## A Paths of Glory turn", 1)[1].split("```")[3]  # the block of later phases
    actions = parse_notation(header + example, "docs.pbem").data["actions"]
    assert {"control": {"Cambrai": "ap", "Libya": "ap"}} in actions
    assert {"replace": "GE-CORPS-07", "at": "reserve"} in actions


def test_the_viewer_shows_the_new_forms(pbem, tmp_path):
    import re

    state = start(moves={**BEFORE_CAMBRAI["moves"], "GE-8-ARMY": "eliminated", "GE-CORPS-07": "eliminated"}, control={"Sedan": "cp"}, replacement_points={"GE": 2})
    (tmp_path / "state.json").write_text(json.dumps(state))
    actions = [*on_cambrai(["Chateau Thierry", "Melun"], {"GE-2-ARMY": ["Cambrai", "Chateau Thierry"], "GE-3-ARMY": ["Cambrai"]}),
               {"phase": "attrition"}, {"control": {"Libya": "ap"}}, {"phase": "replacement"}, {"replace": "GE-8-ARMY", "at": "Berlin"},
               {"replace": "GE-CORPS-07", "at": "reserve"}]
    path = tmp_path / "turn.json"
    path.write_text(json.dumps({"module": "paths-of-glory", "turn": 1, "side": "cp", "start": {"state": "state.json"}, "actions": actions}))
    result = pbem("replay", path, "-o", tmp_path / "g.html")
    assert result.code == 0, result.err
    text = (tmp_path / "g.html").read_text()
    data = json.loads(re.search(r'<script type="application/json" id="game">(.*?)</script>', text, re.S).group(1))
    frames = data["frames"]
    index = {loc[2]: i for i, loc in enumerate(data["locations"])}
    texts = [f["text"] for f in frames]
    assert any("GE 2nd Army advances to Cambrai → Chateau Thierry" in t and "GE 3rd Army advance" in t for t in texts), texts
    assert "Control: Libya to " in " ".join(texts) and "GE 8th Army rebuilt at Berlin" in texts
    assert "GE Corps #7 rebuilt into the reserve box" in texts
    by_kind = {f["kind"]: f for f in frames if f["kind"] != "replace" or "place" in f}
    assert by_kind["replace"]["place"] == index["Berlin"]
    assert by_kind["control"]["control"][0]["at"] == [index["Libya"]]
    # the advance arrows: from Sedan through Cambrai to Chateau Thierry, and from Sedan into Cambrai
    assert by_kind["attack"]["advance"] == [[index["Sedan"], index["Cambrai"], index["Chateau Thierry"]], [index["Sedan"], index["Cambrai"]]]


@pytest.mark.parametrize("action, message", [
    ({"control": {"Atlantis": "cp"}}, "unknown space 'Atlantis'"),
    ({"control": {"Cambrai": "allies"}}, "side 'allies' is not one of cp, ap"),
    ({"replace": "GE-8-ARMY", "at": "Valhalla"}, "unknown space or box 'Valhalla'"),
    ({"attack": ["GE-2-ARMY"], "target": "Sedan", "roll": 3, "result": "1/2", "advance": {"GE-2-ARMY": ["Atlantis"]}}, "unknown space 'Atlantis'"),
    ({"attack": ["GE-2-ARMY"], "target": "Sedan", "roll": 3, "result": "1/2", "negated": ["XX-9"]}, "unknown unit 'XX-9'"),
])
def test_the_new_forms_name_real_places_units_and_sides(pbem, tmp_path, action, message):
    path = tmp_path / "turn.json"
    path.write_text(json.dumps({"module": "paths-of-glory", "turn": 1, "side": "cp", "start": {"scenario": "1914"}, "actions": [action]}))
    result = pbem("check", path)
    assert result.code == 2 and message in result.err and result.err.count("\n") == 1, result.err


def test_a_rebuild_into_a_box_is_spelled_in_any_case(module, tmp_path):
    actions = [*REPLACEMENT, {"replace": "GE-CORPS-07", "at": "Reserve"}]
    result = play(module, tmp_path, actions, start(**ELIMINATED))
    assert [v for v in result.violations if v.severity == "illegal"] == [] and result.state.units["GE-CORPS-07"].box == "reserve"


def test_a_fort_destroyed_by_its_besiegers_gives_them_the_space(module, tmp_path):
    # GE 1st Army besieges Liege and storms the fort from inside: Liege is German at once (11.1.13, 15.1.9).
    state = start(moves={"GE-1-ARMY": "Liege"}, forts={"Liege": "besieged"})
    storm = [*CP1, {"card": "CP-04", "use": "ops"}, {"activate": {"Liege": "attack"}, "cost": 1},
             {"attack": ["GE-1-ARMY"], "target": "Liege", "roll": 4, "defender_roll": 1, "result": "1/4", "declare": ["fort_destroyed"]}]
    result = play(module, tmp_path, storm, state)
    assert [v for v in result.violations if v.severity == "illegal"] == []
    assert module_ruleset(module).controller(result.state, module.map.index("Liege")) == "cp"
    held = [*storm[:-1], {**storm[-1], "result": "1/2", "declare": []}]  # the fort holds: still Belgian
    result = play(module, tmp_path, held, state)
    assert module_ruleset(module).controller(result.state, module.map.index("Liege")) == "ap"


def test_12_4_4_a_retreat_declined_with_the_army_s_last_step_names_its_replacement(module, tmp_path):
    # Sedan's FR 5th Army takes its loss and the extra step: it is eliminated, and the corps that replaces it stays.
    declined = {**SEDAN, "declare": ["cancel_retreat"], "losses": {"defender": ["FR-5-ARMY", "FR-5-ARMY"]}}
    assert broken(module, tmp_path, [*ON_SEDAN, declined]) == ["12.4.4"]
    assert broken(module, tmp_path, [*ON_SEDAN, {**declined, "replacements": {"FR-5-ARMY": "FR-CORPS-02"}}]) == []


def test_optional_11_2_10_a_failed_entrenchment_subtracts_one_from_the_next_round_s_roll(module, tmp_path):
    # Round 1: GE 8th Army rolls 4 against LF 3 and fails (marker); round 2: a 4 with the -1 succeeds.
    again = [*entrench(("GE-8-ARMY", 4)), {"phase": "action", "round": 1, "side": "ap"}, {"card": None, "use": "automatic"},
             {"phase": "action", "round": 2, "side": "cp"}, {"card": "CP-05", "use": "ops"}, {"activate": {"Insterberg": "move"}, "cost": 1},
             {"special": "entrench", "units": ["GE-8-ARMY"], "at": "Insterberg", "roll": 4, "result": "success"}]
    rules_on = dict(edition="seed")
    optional = dataclasses.replace(module, options={**module.options, "failed_entrench_drm": True})
    result = play(optional, tmp_path, again, start(**TWO_ARMIES), turn=2, **rules_on)
    assert [v for v in result.violations if v.severity != "warning"] == []
    assert result.state.status["trenches"]["Insterberg"] == {"level": 1, "owner": "cp"} and result.state.status["failed_entrench"] == {}
    # Without the optional rule the second 4 fails against LF 3: the claimed success is a mismatch.
    assert [v.rule for v in play(module, tmp_path, again, start(**TWO_ARMIES), turn=2).violations if v.severity == "mismatch"] == ["11.2.2"]


def test_the_viewer_tells_a_declined_retreat_and_a_negated_loss(pbem, tmp_path):
    import re

    (tmp_path / "state.json").write_text(json.dumps(start(**WITH_CORPS)))
    path = tmp_path / "turn.json"
    path.write_text(json.dumps({"module": "paths-of-glory", "turn": 1, "side": "cp", "start": {"state": "state.json"},
                                "actions": withdrawal(["FR-CORPS-01"], ONE_SPACE)}))
    assert pbem("replay", path, "-o", tmp_path / "g.html").code == 0
    data = json.loads(re.search(r'<script type="application/json" id="game">(.*?)</script>', (tmp_path / "g.html").read_text(), re.S).group(1))
    assert any("loss negated for FR Corps #1" in f["text"] for f in data["frames"])
    declined = [*ON_SEDAN, {**SEDAN, "declare": ["cancel_retreat"], "losses": {"defender": ["FR-5-ARMY", "FR-5-ARMY"]}, "replacements": {"FR-5-ARMY": "FR-CORPS-01"}}]
    path.write_text(json.dumps({"module": "paths-of-glory", "turn": 1, "side": "cp", "start": {"scenario": "1914"}, "actions": declined}))
    assert pbem("replay", path, "-o", tmp_path / "h.html").code == 0
    data = json.loads(re.search(r'<script type="application/json" id="game">(.*?)</script>', (tmp_path / "h.html").read_text(), re.S).group(1))
    assert any("declares cancel retreat" in f["text"] and "FR Corps #1 replaces FR 5th Army" in f["text"] for f in data["frames"])


def test_a_control_line_without_its_side_says_how_it_is_written():
    from pbem.formats.notation import NotationError

    with pytest.raises(NotationError) as caught:
        parse_notation("Game: paths-of-glory\nScenario: 1914\nTurn: 1\nSide: cp\nControl Warsaw\n", "t.pbem")
    assert "Control SPACE (side)" in str(caught.value)


def test_11_2_one_roll_a_space_even_by_the_same_army(module, tmp_path):
    twice = entrench(("GE-8-ARMY", 5), ("GE-8-ARMY", 3))
    result = play(module, tmp_path, twice, start(**TWO_ARMIES), turn=2)
    assert [v.rule for v in result.violations if v.severity == "illegal"] == ["11.2.1"]
    two_armies = play(module, tmp_path, entrench(("GE-8-ARMY", 5), ("GE-9-ARMY", 3)), start(**TWO_ARMIES), turn=2)
    assert [v.rule for v in two_armies.violations if v.severity == "illegal"] == ["11.2.1"]  # reported once


def test_11_1_14_the_ana_takes_no_space_so_attrition_finds_nothing_to_flip_back(module, tmp_path):
    state = start(moves={"BR-ANA-CORPS": "Arabia"}, neutral_nations=["BU", "GR", "IT", "RO", "US"])
    ride = [*CP1, {"card": None, "use": "automatic"}, {"phase": "action", "round": 1, "side": "ap"}, {"card": None, "use": "automatic"},
            {"activate": {"Arabia": "move"}, "cost": 1}, {"move": "BR-ANA-CORPS", "path": ["Arabia", "Jerusalem", "Arabia", "Amman"]}]
    result = play(module, tmp_path, ride, state, turn=5)
    rules = module_ruleset(module)
    assert [rules.controller(result.state, module.map.index(s)) for s in ("Jerusalem", "Amman")] == ["cp", "cp"]
    # Libya (cut off) passes to the Allies; Amman, "flipped back" under the ANA, changes nothing; Jerusalem is not due.
    flips = play(module, tmp_path, [*ride, {"phase": "attrition"}, {"control": {"Amman": "cp", "Libya": "ap"}}], state, turn=5)
    assert [v for v in flips.violations if v.severity == "illegal"] == []


def test_14_3_6_a_besieged_source_supplies_no_space(module, tmp_path):
    # Belgrade besieged by an AH army: Timisvar, Allied and next to it, traces to no source (the SB army there neither).
    state = start(moves={"SB-1-ARMY": "Timisvar", "AH-CORPS-08": "reserve", "AH-6-ARMY": "Belgrade", "SB-2-ARMY": "Valjevo"},
                  control={"Timisvar": "ap"}, forts={"Belgrade": "besieged"})
    flips = module_ruleset(module).attrition_flips(load_state(module, state))
    assert module.map.index("Timisvar") in flips
    state["units"] = [u for u in state["units"] if u["id"] != "AH-6-ARMY"]
    state["status"]["forts"] = {}
    assert module.map.index("Timisvar") not in module_ruleset(module).attrition_flips(load_state(module, state))


def load_state(module, document):
    from pbem.model.jsonsource import JsonDocument
    from pbem.model.state import State

    return State.from_json(module, JsonDocument("state.json", document, ""))
