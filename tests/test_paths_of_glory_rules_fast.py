"""Paths of Glory's per-ruleset shortcuts give what the map and the status say, after every kind of change.

The rules keep the map's columns once per ruleset (``spaces``), the events of the cards played with a copy of the
list they were read from (``played``), and the Attrition phase's unjudged spaces per beach-head: each is compared
here with the same question worked out from scratch, so a shortcut that stops following its source fails.
"""

from pathlib import Path

import pytest

from pbem.engine.rulesets import module_ruleset
from pbem.model.jsonsource import load_json
from pbem.model.module import load_module
from pbem.model.state import State

MODULE = Path(__file__).resolve().parents[1] / "modules" / "paths-of-glory"


@pytest.fixture(scope="module")
def pog():
    return load_module(MODULE)


@pytest.fixture
def state(pog):
    return State.from_json(pog, load_json(MODULE / "scenarios" / "1914.json"))


def _controller(pog, rules, state, location):
    """The controller as the map and the status give it, read the long way."""
    marked = state.status.get("control", {}).get(pog.map.label(location))
    if marked:
        return marked
    if pog.map.country[location] in state.status.get("neutral_nations", ()) and not rules.greek_open(state, location):
        return None
    return pog.map.extra[location].get("side")


def _fort(pog, state, location):
    if state.status.get("forts", {}).get(pog.map.label(location)) == "destroyed":
        return 0
    return int(pog.map.extra[location].get("fort", 0))


def _every_space(pog, rules, state):
    for location in range(len(pog.map)):
        assert rules.controller(state, location) == _controller(pog, rules, state, location), pog.map.label(location)
        assert rules.fort(state, location) == _fort(pog, state, location), pog.map.label(location)
        assert rules.enemy_units(state, location, "cp") == [u for u in state.units_at(location) if u.side != "cp"]


def test_control_forts_and_enemies_follow_the_status(pog, state):
    rules = module_ruleset(pog)
    _every_space(pog, rules, state)
    state.status.setdefault("control", {}).update({"Liege": "cp", "Paris": "cp", "Warsaw": "cp"})
    state.status.setdefault("forts", {}).update({"Liege": "destroyed", "Verdun": "besieged"})
    state.status["neutral_nations"] = [n for n in state.status.get("neutral_nations", []) if n != "IT"]
    _every_space(pog, rules, state)
    state.status["neutral_nations"] = ["IT", "GR", "TU"]
    state.status.pop("control")
    _every_space(pog, rules, state)
    assert rules.controller(state, pog.map.index("Rome")) is None
    assert rules.fort(state, pog.map.index("Liege")) == 0
    assert rules.fort(state, pog.map.index("Verdun")) > 0


def test_events_played_follow_the_list_changed_in_place(pog, state):
    rules = module_ruleset(pog)
    played = state.status.setdefault("events_played", [])
    assert not rules.played(state, "guns_of_august")
    played.append("CP-01")  # the same list, one card longer
    assert rules.played(state, "guns_of_august")
    played[0] = "CP-09"  # the same list and length, another card
    assert not rules.played(state, "guns_of_august")
    assert rules.played(state, pog.cards["CP-09"]["event"])
    other = State.from_json(pog, load_json(MODULE / "scenarios" / "1914.json"))
    assert not rules.played(other, pog.cards["CP-09"]["event"])  # another state's list is its own
    assert rules.played(state, pog.cards["CP-09"]["event"])


def test_unjudged_spaces_follow_the_beachhead(pog, state):
    rules = module_ruleset(pog)
    landings = [loc for loc in range(len(pog.map)) if "mef_landing" in pog.map.features[loc]]
    assert len(landings) > 1
    arabia = pog.map.index("Arabia")
    assert rules._unjudged(state) == {arabia, *landings}
    state.status["mef_beachhead"] = pog.map.label(landings[0])
    assert rules._unjudged(state) == {arabia, *landings[1:]}
    del state.status["mef_beachhead"]
    assert rules._unjudged(state) == {arabia, *landings}


def test_attrition_supply_reaches_what_every_friendly_port_reaches(pog, state):
    """``supplied_spaces`` spreads only from the ports its land stretches do not hold: the spaces are those of a spread
    from the sources and from every friendly port."""
    from pbem.rules.supply import spread

    rules = module_ruleset(pog)
    for side in ("cp", "ap"):
        found = rules.supplied_spaces(state, side)
        lines = rules._side_lines(side, state.status.get("mef_beachhead"))
        open_ = rules._open_spaces(state, side)
        ports = set(rules._port_spaces(state, side))
        by_sea = spread(lines, ports, open_)
        assert by_sea <= found
    assert pog.map.index("London") in by_sea
