"""State.compact_json writes what json.dumps of State.to_json writes, byte for byte (the archive stores it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.model.jsonsource import load_json
from pbem.model.module import load_module
from pbem.model.state import ELIMINATED, State

MODULES = Path(__file__).resolve().parents[1] / "modules"
SCENARIOS = [(m.name, s.name) for m in sorted(MODULES.iterdir()) if (m / "scenarios").is_dir() for s in sorted((m / "scenarios").glob("*.json"))]


@pytest.mark.parametrize(("module", "scenario"), SCENARIOS)
def test_every_field_written_as_to_json_writes_it(module, scenario):
    game = load_module(MODULES / module)
    state = State.from_json(game, load_json(MODULES / module / "scenarios" / scenario))

    def same() -> None:
        assert state.compact_json() == json.dumps(state.to_json(), separators=(",", ":"), ensure_ascii=False)

    same()
    units = list(state.units.values())
    other = [side for side in game.sides if side != units[0].side][0]
    units[0].step, units[0].supplied, units[0].side, units[0].markers = 1, False, other, {"ü-z", 'a"\\'}
    units[-1].at, units[-1].box = -1, ELIMINATED
    units[0].tallies, units[0].facing = {"stamina": 2, "fatigue": 0}, 4  # a unit's tallies and facing too
    state.status = {**state.status, "note": "naïve \u2028 \x01"}
    state.control = {**state.control, units[1].unit.id: other}
    state.phase, state.first_side = "combat", other
    same()
    units[1].at, units[1].box = -1, None
    same()


CHINA_WAR = load_module(MODULES / "china-war-1980")
SCENARIO = MODULES / "china-war-1980" / "scenarios" / "border-war.json"


def _expected(state: State) -> str:
    return json.dumps(state.to_json(), separators=(",", ":"), ensure_ascii=False)


# Values that compare equal but are written differently (1, 1.0 and True) must never share a unit's text.
_STEPS = st.sampled_from([0, 1, 2, True, False, 1.0, 0.0])
_SUPPLIED = st.sampled_from([True, False, 0, 1])
_FACINGS = st.sampled_from([None, 0, 1, 3, True, False])
_MARKERS = st.sampled_from([set(), {"disrupted"}, {"ü-z", 'a"\\'}])
_TALLIES = st.sampled_from([{}, {"stamina": 2}, {"b": 1, "a": 0}])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 170), _STEPS, _SUPPLIED, _FACINGS, _MARKERS, _TALLIES, st.integers(-1, 5)), max_size=12), st.integers(0, 3))
def test_units_changed_in_any_way_are_written_as_to_json_writes_them(changes, rounds):
    """A unit's text made once and reused must follow every change: where it stands (on the map, in a box, in no
    box), its step, supply, facing, markers, tallies and side, between calls as in the first."""
    state = State.from_json(CHINA_WAR, load_json(SCENARIO))
    units = list(state.units.values())
    assert state.compact_json() == _expected(state)
    for n, (k, step, supplied, facing, markers, tallies, where) in enumerate(changes):
        unit = units[k % len(units)]
        unit.step, unit.supplied, unit.facing, unit.markers, unit.tallies = step, supplied, facing, set(markers), dict(tallies)
        if where == -1:
            unit.at, unit.box = -1, "eliminated" if n % 2 else None
        else:
            unit.at, unit.box = (k * 7 + where) % len(CHINA_WAR.map), None
        if n % 3 == 0:
            unit.side = "chinese" if unit.side == "soviet" else "soviet"
        if n % 4 == rounds:
            assert state.compact_json() == _expected(state)
    assert state.compact_json() == _expected(state)


def test_two_maps_with_the_same_units_keep_their_own_labels():
    """The places written are the state's own map's, whatever state was written before with the same units."""
    import copy

    relabelled_map = copy.copy(CHINA_WAR.map)
    relabelled_map.labels = [f"Ø{label}\"" for label in CHINA_WAR.map.labels]
    other = copy.copy(CHINA_WAR)
    other.map = relabelled_map
    first = State.from_json(CHINA_WAR, load_json(SCENARIO))
    second = State.from_json(CHINA_WAR, load_json(SCENARIO))
    second.module = other
    for _ in range(2):
        for state in (first, second, first):
            assert state.compact_json() == _expected(state)
    assert first.compact_json() != second.compact_json()
