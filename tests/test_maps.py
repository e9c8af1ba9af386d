"""Hex and point-to-point maps behind one interface; map files are schema-checked and cross-checked."""

import json

import pytest

from pbem.model import schemas
from pbem.model.errors import PbemError
from pbem.model.jsonsource import parse_json
from pbem.model.maps import HexMap, PointMap, check_routes_adjacent, load_map
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.rules.movement import cheapest_path, walk, walk_table

# A few spaces of the Western Front, in the style of Paths of Glory: one connection only the British may use.
POINTS = {
    "id": "test-western-front",
    "kind": "points",
    "spaces": {
        "Calais": {"terrain": "clear", "country": "France", "xy": [100, 100]},
        "Ostend": {"terrain": "clear", "country": "Belgium", "xy": [160, 80]},
        "Amiens": {"terrain": "clear", "country": "France", "xy": [110, 180]},
        "Cambrai": {"terrain": "clear", "country": "France", "xy": [180, 170]},
        "London": {"terrain": "clear", "country": "Britain", "xy": [40, 40], "features": ["edge"]},
        "Paris": {"terrain": "clear", "country": "France", "population": 200, "city": "Paris", "xy": [120, 260]},
    },
    "connections": [
        {"between": ["Calais", "Ostend"]},
        {"between": ["Calais", "Amiens"]},
        {"between": ["Amiens", "Cambrai"]},
        {"between": ["Ostend", "Cambrai"]},
        {"between": ["Amiens", "Paris"]},
        {"between": ["London", "Calais"], "nationalities": ["BR"], "features": ["strait"]},
    ],
}


def load(data):
    document = parse_json(json.dumps(data, indent=1), "map.json")
    schemas.check(document, "map")
    game_map = load_map(document)
    check_routes_adjacent(document, game_map)
    return game_map


def test_point_map_behind_the_same_interface():
    m = load(POINTS)
    assert isinstance(m, PointMap) and m.kind == "points"
    calais, amiens, paris, london = (m.index(n) for n in ("Calais", "Amiens", "Paris", "London"))
    assert m.is_adjacent(calais, amiens) and not m.is_adjacent(calais, paris)
    assert m.distance(calais, paris) == 2 and m.distance(london, paris) == 3
    assert m.population[paris] == 200 and m.city[paris] == "Paris"
    assert m.hexside(london, calais) == {"strait"}
    assert m.on_edge(london) and not m.on_edge(paris)
    assert m.index("calais") == calais  # labels are case-insensitive


def test_restricted_connection():
    m = load(POINTS)
    london, calais, amiens = (m.index(n) for n in ("London", "Calais", "Amiens"))
    assert m.may_cross(london, calais, "BR") and not m.may_cross(london, calais, "FR")
    assert m.may_cross(calais, amiens, "FR") and not m.may_cross(london, calais, None)


def test_kernel_movement_works_on_both_kinds():
    m = load(POINTS)
    path = tuple(m.index(n) for n in ("Calais", "Amiens", "Paris"))
    assert walk(m, path, lambda a, b: 1).total == 2
    assert walk(m, (path[0], path[2]), lambda a, b: 1).broken_at == 1
    found = cheapest_path(m, m.index("Ostend"), m.index("Paris"), 5, lambda a, b: 1)
    assert [m.label(i) for i in found] in (["Ostend", "Calais", "Amiens", "Paris"], ["Ostend", "Cambrai", "Amiens", "Paris"])
    assert cheapest_path(m, m.index("Ostend"), m.index("Paris"), 2, lambda a, b: 1) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["Calais", "Ostend", "Amiens", "Cambrai", "London", "Paris"]), min_size=1, max_size=6))
def test_walk_on_a_cost_table_is_walk(names):
    """The table form gives what ``walk`` gives: costs, total, where a path jumps or meets a space it may not enter."""
    m = load(POINTS)
    closed = m.index("Paris")
    table = [{b: (None if b == closed else 1 + (a + b) % 3) for b in m.neighbours[a]} for a in range(len(m))]
    path = tuple(m.index(n) for n in names)
    assert walk_table(path, table) == walk(m, path, lambda a, b: table[a][b])


def small_hex(**extra):
    data = {
        "id": "test-hex", "kind": "hex",
        "grid": {"label": "letter-number", "columns": 4, "rows": 3, "shifted": "odd"},
        "layers": {"terrain": {"legend": {".": "clear", "w": "woods"}, "rows": ["..w.", ".ww.", "...."]}},
    }  # fmt: skip
    data.update(extra)
    return data


def test_letter_number_hex_map_with_layers_roads_and_rivers():
    m = load(small_hex(hexsides=[{"hexes": ["B1", "B2"], "features": ["river"]}], roads=[{"hexes": ["A1", "B1", "C1"]}], rails=[{"track": "single", "hexes": ["A3", "B3"]}]))
    assert isinstance(m, HexMap) and len(m) == 12
    assert m.terrain[m.index("C1")] == "woods" and m.terrain[m.index("A1")] == "clear"
    assert m.hexside(m.index("B1"), m.index("B2")) == {"river"}
    assert m.has_road(m.index("B1"), m.index("A1")) and m.rail(m.index("A3"), m.index("B3")) == "single"
    assert m.on_edge(m.index("A1"))


@pytest.mark.parametrize(
    "extra, message, pointer",
    [
        ({"hexsides": [{"hexes": ["A1", "C3"], "features": ["river"]}]}, "not adjacent", "/hexsides/0/hexes"),
        ({"roads": [{"hexes": ["A1", "Z9"]}]}, "not on this map", "/roads/0/hexes/1"),
        ({"layers": {"terrain": {"legend": {".": "clear"}, "rows": ["....", "....", "...x"]}}}, "not in the legend", "/layers/terrain/rows/2"),
        ({"layers": {"terrain": {"legend": {".": "clear"}, "rows": ["....", "...."]}}}, "2 rows", "/layers/terrain/rows"),
    ],
)
def test_map_errors_name_the_place(extra, message, pointer):
    with pytest.raises(PbemError) as error:
        load(small_hex(**extra))
    assert message in error.value.message and error.value.source.pointer == pointer


def test_bundled_china_war_map_is_illustrative_and_names_the_rulebook_hexes():
    from pbem.model.module import load_module

    m = load_module("china-war-1980").map
    assert m.illustrative and "ILLUSTRATIVE" in m.note
    for label in ("2701", "1301", "4711"):
        assert m.find(label) is not None
    assert {m.terrain[i] for i in range(len(m))} == {"clear", "forest", "mountain", "desert"}
    assert {m.population[i] for i in range(len(m))} == {0, 100, 200}
    assert set(m.rails.values()) == {"single", "double"} and m.roads
    assert any("river" in f for f in m.side_features.values())
    assert len({m.country[i] for i in range(len(m))}) >= 3
    spec = m.spec
    assert spec.columns >= 20 and spec.rows >= 15


def test_absent_hexes_make_a_ragged_edge():
    m = load(small_hex(absent=["A3", "C3"]))
    assert len(m) == 10 and m.find("A3") is None and m.find("B3") is not None
    assert all(m.label(n) not in ("A3", "C3") for i in range(len(m)) for n in m.neighbours[i])
    with pytest.raises(PbemError) as error:
        load(small_hex(absent=["3A"]))
    assert error.value.source.pointer == "/absent/0"
