"""A unit's tallies (its own running numbers: stamina...) and facing are kept in states and read back."""

import json

import pytest

from pbem.model.errors import PbemError
from pbem.model.jsonsource import parse_json
from pbem.model.module import load_module
from pbem.model.schemas import check
from pbem.model.state import State

MODULE = load_module("china-war-1980")


def written(tallies=None, facing=None) -> dict:
    unit_id = next(iter(MODULE.units))
    data = {"module": MODULE.id, "turn": 1, "units": [{"id": unit_id, "at": "3004"}]}
    if tallies is not None:
        data["units"][0]["tallies"] = tallies
    if facing is not None:
        data["units"][0]["facing"] = facing
    return data


def read(data) -> State:
    document = parse_json(json.dumps(data), "state.json")
    check(document, "state")
    return State.from_json(MODULE, document)


def test_tallies_and_facing_read_back():
    state = read(written({"stamina": 2}, 4))
    unit = next(iter(state.units.values()))
    assert unit.tallies == {"stamina": 2} and unit.facing == 4
    out = state.to_json()
    assert out["units"][0]["tallies"] == {"stamina": 2} and out["units"][0]["facing"] == 4
    assert read(out).to_json() == out


def test_a_state_without_them_writes_none():
    out = read(written()).to_json()
    assert "tallies" not in out["units"][0] and "facing" not in out["units"][0]


@pytest.mark.parametrize("tallies, facing", [({"stamina": "two"}, None), ({"Stamina!": 1}, None), (None, 6), (None, -1)])
def test_bad_tallies_or_facing_are_refused_where_they_are(tallies, facing):
    with pytest.raises(PbemError, match="state.json"):
        read(written(tallies, facing))


def test_a_hex_map_gives_the_hexside_between_neighbours():
    game_map = MODULE.map
    a = game_map.index("3004")
    sides = sorted(game_map.direction(a, n) for n in game_map.neighbours[a])
    assert sides == [0, 1, 2, 3, 4, 5]
    for n in game_map.neighbours[a]:
        assert game_map.direction(n, a) == (game_map.direction(a, n) + 3) % 6  # opposite sides 3 apart
    assert game_map.direction(a, a) is None
