"""No Retreat! supply (6.1-6.3) on the sample state: regular paths, alternate sources, blocking."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest

from pbem.engine.rulesets import module_ruleset
from pbem.model.jsonsource import load_json
from pbem.model.module import load_module
from pbem.model.state import State

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture()
def setup():
    module = load_module(REPO / "modules" / "no-retreat")
    state = State.from_json(module, load_json(REPO / "samples" / "no-retreat" / "state-1941.json"))
    return module, state


def verdicts(module, state, unit_id):
    cities = module_ruleset(module).city_control(state.status["cities"])
    return {module_ruleset(module)._supplied_units(state, cities, strict, sea)[unit_id] for strict, sea in product((True, False), repeat=2)}


def test_five_hexes_from_the_nearest_friendly_city_is_unsupplied(setup):
    module, state = setup
    assert verdicts(module, state, "GE-18ARMY") == {False}  # Riga (Soviet) blocks; Königsberg is 5 hexes away
    assert verdicts(module, state, "GE-1PANZER") == {True}  # 3 hexes from Warsaw


def test_an_adjacent_regularly_supplied_unit_supplies(setup):
    module, state = setup
    state.place("GE-9ARMY", module.map.index("1504"))  # 4 hexes from Königsberg along row 4
    assert verdicts(module, state, "GE-9ARMY") == {True}
    assert verdicts(module, state, "GE-18ARMY") == {True}  # 6.2: next to it


def test_an_enemy_controlled_city_blocks_and_an_enemy_unit_blocks(setup):
    module, state = setup
    state.place("GE-9ARMY", module.map.index("1504"))
    state.place("SU-2BALTIC", module.map.index("1404"))  # on the path to Königsberg
    assert verdicts(module, state, "GE-9ARMY") == {False}


def test_the_axis_always_uses_the_baltic(setup):
    module, state = setup
    state.place("GE-18ARMY", module.map.index("1601"))  # a Baltic coastal hex by Leningrad
    assert module.map.extra[module.map.index("1601")]["sea"] == "baltic"
    assert verdicts(module, state, "GE-18ARMY") == {True}


def test_an_enemy_held_oil_field_neither_blocks_nor_supplies(setup):
    module, state = setup
    state.status["cities"]["0816"] = "soviet"  # the Romanian oil fields are not a city (6.3 blocks enemy cities)
    assert "0816" not in module_ruleset(module).city_control(state.status["cities"])


def test_a_bad_city_control_entry_is_an_input_error(setup):
    from pbem.model.errors import PbemError

    module, state = setup
    state.status["cities"]["9999"] = "axis"
    with pytest.raises(PbemError, match="status.cities"):
        module_ruleset(module).city_control(state.status["cities"])
