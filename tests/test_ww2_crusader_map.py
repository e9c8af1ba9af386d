"""The Crusader map and units (issue 29): real places on the right hexes, checked a second, independent way.

The builder (modules/ww2-crusader/tools/build_map.py) finds a place's hex by searching every hex centre for the
nearest one; this test recomputes each hex with Red Blob Games' pixel-to-hex formula (fractional axial
coordinates, cube rounding, odd-q offset) from the projection the map file states, and compares the labels.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.model import schemas
from pbem.model.jsonsource import parse_json
from pbem.model.maps import check_routes_adjacent, load_map

MODULE = Path(__file__).resolve().parents[1] / "modules" / "ww2-crusader"

# Typed again here from the cited sources (tools/README.md), so that a slip in the builder's table shows.
KNOWN = {
    "Tobruk": (32.07611, 23.96139),  # Wikipedia, Tobruk: 32°4'34"N 23°57'41"E
    "Sollum": (31.55, 25.16),  # Wikipedia, Sallum: 31°33'00"N 25°09'36"E
    "Sidi Barrani": (31.61083, 25.92556),  # Wikipedia, Sidi Barrani: 31°36'39"N 25°55'32"E
    "Mersa Matruh": (31.35, 27.233),  # Wikipedia, Mersa Matruh: 31°21'N 27°14'E
    "Gazala": (32.14528, 23.3575),  # Wikipedia, Gazala: 32°08'43"N 23°21'27"E
    "Fort Capuzzo": (31.575167, 25.063333),  # it.wikipedia, Forte Capuzzo: 31°34.51'N 25°03.8'E
    "Bardia": (31.767, 25.100),  # Wikipedia, Bardia, Libya: 31°46'N 25°06'E
    "Bir Hakeim": (31.59389, 23.48),  # Wikipedia, Bir Hakeim: 31°35'38"N 23°28'48"E
}
COAST_PLACES = ["Tobruk", "Bardia", "Sollum", "Sidi Barrani", "Mersa Matruh", "Gazala", "Buq Buq"]
REQUIRED = [
    "Tobruk", "Bardia", "Sollum", "Fort Capuzzo", "Sidi Barrani", "Mersa Matruh", "Gazala", "El Adem",
    "Sidi Rezegh", "Gambut", "Bir el Gubi", "Sidi Omar",
]  # fmt: skip


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads((MODULE / "map.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def game_map(data):
    document = parse_json((MODULE / "map.json").read_text(encoding="utf-8"), "map.json")
    schemas.check(document, "map")
    loaded = load_map(document)
    check_routes_adjacent(document, loaded)
    return loaded


def named(data: dict) -> dict[str, str]:
    return {entry["name"]: label for label, entry in data["hexes"].items() if "name" in entry}


def independent_hex(lat: float, lon: float, projection: dict) -> str:
    """Red Blob Games' flat-topped pixel-to-hex: axial (q, r) from x, y; cube rounding; odd-q offset to CCRR."""
    km_lat = projection["km_per_deg_lat"]
    km_lon = km_lat * math.cos(math.radians(projection["mid_lat"]))
    x = (lon - projection["west_lon"]) * km_lon
    y = (projection["north_lat"] - lat) * km_lat
    size = projection["hex_across_km"] / math.sqrt(3)  # centre to corner
    q = (2 / 3 * x) / size
    r = (-1 / 3 * x + math.sqrt(3) / 3 * y) / size
    cq, cr, cs = q, r, -q - r
    rq, rr, rs = round(cq), round(cr), round(cs)
    dq, dr, ds = abs(rq - cq), abs(rr - cr), abs(rs - cs)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    column = rq
    row = rr + (rq - (rq & 1)) // 2  # odd-q: odd (0-based) columns shoved down = even printed columns
    return f"{column + 1:02d}{row + 1:02d}"


def test_map_is_valid_and_the_size_the_source_scale_gives(game_map, data):
    assert data["grid"]["label"] == "CCRR" and data["grid"]["orientation"] == "flat"
    assert data["projection"]["hex_across_km"] == 15.0
    # Gazala (west) to east of Mersa Matruh: about 420 km of coast at 13 km a column.
    assert data["grid"]["columns"] * 13 > 420
    assert len(game_map) == data["grid"]["columns"] * data["grid"]["rows"]


def test_every_required_place_is_on_the_map(data):
    places = named(data)
    missing = [p for p in REQUIRED if p not in places]
    assert not missing
    assert sum(1 for name in places if name.startswith("Halfaya Pass")) == 2


def test_each_place_is_on_the_hex_an_independent_formula_gives(data):
    projection = data["projection"]
    checked = 0
    for label, entry in data["hexes"].items():
        if "lat" not in entry or entry["name"].startswith("Halfaya"):
            continue
        assert independent_hex(entry["lat"], entry["lon"], projection) == label, entry["name"]
        checked += 1
    assert checked >= 14


def test_the_coordinates_match_the_cited_sources(data):
    places = named(data)
    for name, (lat, lon) in KNOWN.items():
        entry = data["hexes"][places[name]]
        assert abs(entry["lat"] - lat) < 0.01 and abs(entry["lon"] - lon) < 0.01, name
        assert independent_hex(lat, lon, data["projection"]) == places[name], name


def test_distances_between_places_are_real(data, game_map):
    """Tobruk-Bardia is about 110 km and Sollum-Mersa Matruh about 200 km: 7-9 and 14-16 hexes of 15 km."""
    places = named(data)

    def hexes(a, b):
        return game_map.distance(game_map.index(places[a]), game_map.index(places[b]))

    assert 7 <= hexes("Tobruk", "Bardia") <= 9
    assert 14 <= hexes("Sollum", "Mersa Matruh") <= 16
    assert hexes("Tobruk", "El Adem") == 1
    assert hexes("Bardia", "Fort Capuzzo") == 1


def test_the_frontier_runs_between_capuzzo_and_sollum(data):
    """Fort Capuzzo, Bardia and Sidi Omar are in Libya; Sollum, Halfaya and Sidi Barrani in Egypt."""
    places = named(data)
    rows = data["layers"]["country"]["rows"]
    legend = data["layers"]["country"]["legend"]

    def country(name):
        label = places[name]
        return legend[rows[int(label[2:]) - 1][int(label[:2]) - 1]]

    assert {country(n) for n in ("Fort Capuzzo", "Bardia", "Sidi Omar", "Tobruk")} == {"Libya"}
    assert {country(n) for n in ("Sollum", "Halfaya Pass (1/2)", "Halfaya Pass (2/2)", "Sidi Barrani", "Mersa Matruh")} == {"Egypt"}


def test_coast_towns_are_land_next_to_sea(data, game_map):
    places = named(data)
    for name in COAST_PLACES:
        i = game_map.index(places[name])
        assert game_map.terrain[i] != "sea", name
        assert any(game_map.terrain[n] == "sea" for n in game_map.neighbours[i]), name
    inland = ["El Adem", "Bir el Gubi", "Sidi Omar", "Sidi Azeiz", "Bir Hakeim"]
    for name in inland:
        i = game_map.index(places[name])
        assert not any(game_map.terrain[n] == "sea" for n in game_map.neighbours[i]), name


def test_the_sea_is_north_of_the_desert(data):
    rows = data["layers"]["terrain"]["rows"]
    assert rows[-1].count("~") == 0  # the southern row is all desert
    assert rows[0].count("~") > len(rows[0]) * 0.9  # the northern row is nearly all sea
    towns = {label for label, e in data["hexes"].items() if e.get("name") in ("Tobruk", "Bardia", "Sollum", "Sidi Barrani", "Mersa Matruh")}
    for label in towns:
        column, row = int(label[:2]), int(label[2:])
        assert rows[row - 1][column - 1] == "T"


def test_halfaya_is_two_mountain_hexes_beside_sollum(data, game_map):
    places = named(data)
    sollum = game_map.index(places["Sollum"])
    pass_hexes = [game_map.index(places[f"Halfaya Pass ({n}/2)"]) for n in (1, 2)]
    assert all(game_map.terrain[h] == "mountain" for h in pass_hexes)
    assert game_map.is_adjacent(*pass_hexes)
    assert all(game_map.is_adjacent(sollum, h) for h in pass_hexes)
    # The pass itself (31.50 N 25.18 E) falls in Sollum's hex or next to it: 6 km apart.
    real = game_map.index(independent_hex(31.500, 25.183, data["projection"]))
    assert real == sollum or game_map.is_adjacent(real, sollum)


def test_the_coast_road_crosses_the_map_through_the_towns_in_order(data, game_map):
    road = data["roads"][0]["hexes"]
    assert road[0].startswith("01") and road[-1].startswith(f"{data['grid']['columns']:02d}")
    places = named(data)
    order = [road.index(places[n]) for n in ("Gazala", "Tobruk", "Bardia", "Fort Capuzzo", "Sollum", "Sidi Barrani", "Mersa Matruh")]
    assert order == sorted(order)
    assert all(game_map.terrain[game_map.index(h)] != "sea" for h in road)
    west, east = data["hexes"][road[0]], data["hexes"][road[-1]]
    assert west["supply"] == "axis" and "supply_source" in west["features"]
    assert east["supply"] == "allied" and "supply_source" in east["features"]


def test_the_railway_runs_from_the_east_edge_to_matruh(data, game_map):
    rail = data["rails"][0]["hexes"]
    places = named(data)
    assert rail[0].startswith(f"{data['grid']['columns']:02d}") and rail[-1] == places["Mersa Matruh"]
    assert all(int(h[:2]) >= int(places["Mersa Matruh"][:2]) for h in rail)
    assert all(game_map.terrain[game_map.index(h)] != "sea" for h in rail)


def test_escarpment_hexsides_join_land_hexes(data, game_map):
    sides = [s for s in data["hexsides"] if "escarpment" in s["features"]]
    assert sides
    for side in sides:
        a, b = (game_map.index(h) for h in side["hexes"])
        assert game_map.terrain[a] != "sea" and game_map.terrain[b] != "sea"


# --- units ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def counters() -> dict:
    document = parse_json((MODULE / "counters.json").read_text(encoding="utf-8"), "counters.json")
    schemas.check(document, "counters")
    return document.data


def test_counters_json_is_what_the_build_tool_makes():
    done = subprocess.run([sys.executable, str(MODULE / "tools" / "build_counters.py"), "--check"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_crusader_set_up_units_exist_in_their_own_language(counters):
    names = {u["id"]: counters["counter_types"][u["type"]]["name"] for u in counters["units"]}
    assert names["IT-132-ARIETE"].startswith("132ª Divisione corazzata")
    assert "Brescia" in names["IT-27-BRESCIA"] and names["IT-27-BRESCIA"].startswith("27ª Divisione di fanteria")
    assert names["DE-5LEI-1941"] == "5. leichte Division"
    assert names["AUS-9-DIV"] == "9th Australian Division" and names["AUS-7-DIV"] == "7th Australian Division"
    assert names["UK-3-ARMD-BDE"] == "3rd Armoured Brigade"
    sides = {u["id"]: counters["counter_types"][u["type"]]["side"] for u in counters["units"]}
    assert {sides[i] for i in ("IT-132-ARIETE", "IT-27-BRESCIA", "DE-5LEI-1941")} == {"axis"}
    assert {sides[i] for i in ("AUS-9-DIV", "AUS-7-DIV", "UK-3-ARMD-BDE")} == {"allied"}


def test_fifth_light_reorganises_into_21st_panzer_of_1941(counters):
    types = counters["counter_types"]
    chain = types["de_5lei_1941"]["attributes"]["reorganise"]
    assert chain["into"] == "de_21pz_1941"
    assert types["de_21pz_1941"]["attributes"]["year"] == 1941
    assert types["de_21pz_1944"]["attributes"]["designation"] == types["de_21pz_1941"]["attributes"]["designation"]


def test_states_rows_and_bars(counters):
    for tid, t in counters["counter_types"].items():
        a = t["attributes"]
        rows = len(t["steps"])
        assert rows == (2 if t["size"] == "X" else 3), tid
        assert a["states"] == ["3", "2", "1"][:rows] and a["bars"] == ["none", "black", "white"][:rows]
        assert a["small"] == (rows == 2)
        attacks = [s["attack"] for s in t["steps"]]
        assert attacks == sorted(attacks, reverse=True), tid  # a weaker state never hits harder
        assert a["waiting_zone"] == (2 if t["mechanized"] else 1)


def test_every_value_is_marked_supplied(counters):
    assert "values" in counters["supplied"]
    assert all("supplied" in t["note"] for t in counters["counter_types"].values())
