"""Paths of Glory rules in isolation (activation cost, control), and the card-driven turn vocabulary's input errors."""

import json
from pathlib import Path

import pytest

from pbem.art.style import face_values
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


def cost(pog, state, space, unit_ids):
    rules = pog.ruleset
    location = pog.map.index(space)
    for unit_id in unit_ids:
        state.place(unit_id, location)
    return len(rules.activation_groups([state.units[u] for u in unit_ids], location))


@pytest.mark.parametrize(
    "space, units, expected",
    [
        ("Antwerp", ["BE-1-ARMY", "BR-BEF-ARMY"], 1),  # 9.2.3 (a): Belgians count as British in Antwerp
        ("Amiens", ["BE-CORPS", "BR-1-ARMY"], 1),
        ("Brussels", ["BE-1-ARMY", "BR-BEF-ARMY"], 2),  # ... but not in Brussels
        ("Amiens", ["BR-BEF-ARMY", "FR-5-ARMY"], 2),  # digest 6.1.1: France is not on the FR/US list for the British
        ("Nancy", ["FR-1-ARMY", "US-1-ARMY"], 1),  # 9.2.3 (c): French and US in France
        ("Metz", ["FR-1-ARMY", "US-1-ARMY"], 1),  # ... and in Germany
        ("Brussels", ["FR-1-ARMY", "US-1-ARMY"], 2),  # ... not in Belgium
        ("Cairo", ["BR-CORPS-01", "BR-AUS-CORPS", "BR-ANA-CORPS"], 1),  # 9.2.3 (b): the British family
        ("Verdun", ["FR-3-ARMY", "FR-4-ARMY", "FR-CORPS-01"], 1),
    ],
)
def test_activation_cost_per_space(pog, state, space, units, expected):
    assert cost(pog, state, space, units) == expected


def test_senussi_count_as_turks_only_in_the_2022_edition(pog, state):
    import dataclasses

    location = pog.map.index("Libya")
    units = [state.units["TU-SN-CORPS"], state.units["TU-CORPS-01"]]
    assert units[0].unit.type.nationality == "SN"
    assert len(pog.ruleset.activation_groups(units, location)) == 2  # the seed's 9.2.3 has no such clause
    lr2022 = type(pog.ruleset)(dataclasses.replace(pog, options={"edition": "lr2022"}))
    assert len(lr2022.activation_groups(units, location)) == 1  # LR2022 9.2.3: SN counts as TU


def test_control_neutrals_and_forts(pog, state):
    rules = pog.ruleset
    m = pog.map
    assert rules.controller(state, m.index("Sedan")) == "ap" and rules.controller(state, m.index("Metz")) == "cp"
    assert rules.controller(state, m.index("Turin")) is None  # Italy is neutral in 1914
    state.status["neutral_nations"].remove("IT")
    assert rules.controller(state, m.index("Turin")) == "ap"
    assert rules.fort(state, m.index("Liege")) == 3
    state.status["forts"]["Liege"] = "destroyed"
    assert rules.fort(state, m.index("Liege")) == 0


def test_entering_a_vp_space_moves_the_vp_and_takes_trenches(pog, state):
    rules = pog.ruleset
    m = pog.map
    rules.enter(state, m.index("Sedan"), "cp")
    assert state.status["vp"] == 11 and state.status["control"]["Sedan"] == "cp"
    rules.enter(state, m.index("Belfort"), "cp")  # an intact enemy fort keeps its space (15.1.9); the trench falls
    assert "Belfort" not in state.status["control"] and "Belfort" not in state.status["trenches"]
    state.status["trenches"]["Verdun"] = {"level": 2, "owner": "ap"}
    rules.enter(state, m.index("Verdun"), "cp")  # 11.2.6: a level 2 trench becomes an enemy level 1
    assert state.status["trenches"]["Verdun"] == {"level": 1, "owner": "cp"}


def _turn(tmp_path, actions, module="paths-of-glory", start=None, side="cp"):
    data = {"module": module, "turn": 1, "side": side, "start": start or {"scenario": "1914"}, "actions": actions}
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    "actions, message",
    [
        ([{"card": "CP-99", "use": "ops"}], "unknown card 'CP-99'"),
        ([{"activate": {"Koblenz": "attack", "koblenz": "move"}}], "activated twice"),
        ([{"activate": {"Atlantis": "move"}}], "unknown space 'Atlantis'"),
        ([{"attack": ["GE-2-ARMY"], "target": "Sedan", "roll": 3, "result": "1/2", "cards": ["XX-1"]}], "unknown card 'XX-1'"),
        ([{"move": "GE-1-ARMY", "path": ["Aachen", "Liege"], "by": "train"}], "by"),
    ],
)
def test_bad_turn_files_are_input_errors(pbem, tmp_path, actions, message):
    result = pbem("check", _turn(tmp_path, actions))
    assert result.code == 2 and message in result.err, result.err


def test_a_unit_of_the_module_that_is_not_in_play_is_an_input_error(pbem, tmp_path):
    # Any module: a unit the start state does not list was a crash (KeyError) before.
    path = _turn(tmp_path, [{"phase": "movement"}, {"move": "SOV-TK-XX-1-04", "path": ["3004", "3005"]}],
                 module="china-war-1980", start={"scenario": "border-war"}, side="soviet")
    result = pbem("check", path)
    assert result.code == 2 and "SOV-TK-XX-1-04 is not in play" in result.err


def test_counters_print_the_loss_factor():
    assert face_values("{attack}-{loss}-{move}", 5, 5, 3, 3) == "5-3-3"
    assert face_values("{attack}-{loss}-{move}", 6, 6, 9) == "6--9"
