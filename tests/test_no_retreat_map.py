"""No Retreat! map: map.json against Hexes.xml by a second method, the eye checks, and the calibration.

The build tool labels hexes by arithmetic on the XML's axial coordinates; this test places each XML hex
on the map picture (pixel position from the XML coordinates and one anchor, Berlin) and takes the label
of the nearest calibrated hex centre, then compares everything the XML says with the loaded module.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.art.layout import load_calibration
from pbem.model.module import load_module

REPO = Path(__file__).resolve().parents[1]
MODULE = REPO / "modules" / "no-retreat"
DATA = REPO.parent / "shared" / "data" / "no-retreat"
needs_data = pytest.mark.skipif(not (DATA / "Hexes.xml").is_file(), reason="../shared/data/no-retreat is not beside the repository")

TERRAIN = {"Open": "open", "Forest": "forest", "Mountain": "mountain", "Marsh": "marsh", "Area": "area", "KerchStrait": "kerch_strait"}
ONE_SIDED_KEPT = {frozenset({"0505", "0605"}), frozenset({"0605", "0606"})}
ONE_SIDED_DROPPED = {frozenset({"0904", "1004"}), frozenset({"2115", "2215"})}


@pytest.fixture(scope="module")
def module():
    return load_module(MODULE)


@pytest.fixture(scope="module")
def layout():
    return load_calibration(MODULE / "calibration.json").layout


def _xml_hexes() -> dict[tuple[int, int], ET.Element]:
    root = ET.parse(DATA / "Hexes.xml").getroot()
    return {(int(h.get("column")), int(row.get("value"))): h for row in root.findall("row") for h in row.findall("hex")}


def _labels_by_position(module, layout) -> dict[tuple[int, int], str]:
    """XML (column, row) -> label of the nearest calibrated centre, anchored on Berlin = 0503."""
    xml = _xml_hexes()
    berlin = next(k for k, h in xml.items() if h.get("type") == "Берлин")
    bx, by = layout.label_center("0503")
    dx, dy = layout.pitch
    centres = {module.map.label(i): layout.label_center(module.map.label(i)) for i in range(len(module.map))}
    found = {}
    for (column, row) in xml:
        x = bx + dx * ((column - berlin[0]) + (row - berlin[1]) / 2)
        y = by + dy * (row - berlin[1])
        label, (cx, cy) = min(centres.items(), key=lambda item: (item[1][0] - x) ** 2 + (item[1][1] - y) ** 2)
        assert (cx - x) ** 2 + (cy - y) ** 2 < (0.1 * dx) ** 2, f"XML hex {column},{row} lands between hexes"
        found[(column, row)] = label
    return found


_CACHE: dict = {}


def _labels(module, layout) -> dict[tuple[int, int], str]:
    """The placement above, computed once per test session."""
    if "labels" not in _CACHE:
        _CACHE["labels"] = _labels_by_position(module, layout)
    return _CACHE["labels"]


@needs_data
def test_every_xml_hex_is_one_map_hex(module, layout):
    labels = _labels(module, layout)
    assert len(set(labels.values())) == len(labels) == len(module.map) == 383


@needs_data
def test_terrain_names_seas_and_edges_match_the_xml(module, layout):
    game_map = module.map
    for key, element in _xml_hexes().items():
        i = game_map.index(_labels(module, layout)[key])
        kind = element.get("type")
        expected = TERRAIN.get(kind, "city")
        assert game_map.terrain[i] == expected, (game_map.label(i), kind)
        assert (game_map.names[i] is not None) == (expected in ("city", "area") or "oil_field" in game_map.features[i])
        sea = element.get("sea")
        assert game_map.extra[i].get("sea") == (sea.lower() if sea else None)
        edge = element.get("mapEdge")
        assert game_map.supply[i] == {"Germany": "axis", "USSR": "soviet", None: None}[edge]
        assert ("map_edge" in game_map.features[i]) == (edge is not None)



@needs_data
def test_adjacency_rivers_and_blocked_hexsides_match_the_xml(module, layout):
    game_map = module.map
    labels = _labels(module, layout)
    xml = _xml_hexes()
    listed: dict[frozenset, dict[str, set]] = {}
    for (column, row), element in xml.items():
        here = game_map.index(labels[(column, row)])
        expected_neighbours = set()
        for dcolumn, drow in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
            if (column + dcolumn, row + drow) in xml:
                expected_neighbours.add(game_map.index(labels[(column + dcolumn, row + drow)]))
        assert set(game_map.neighbours[here]) == expected_neighbours, game_map.label(here)
        for tag in ("river", "blocked"):
            for item in element.findall(tag):
                drow, dcolumn = (int(v) for v in item.text.split(","))
                other = labels[(column + dcolumn, row + drow)]
                listed.setdefault(frozenset({labels[(column, row)], other}), {}).setdefault(tag, set()).add(labels[(column, row)])
    for side, tags in listed.items():
        a, b = (game_map.index(x) for x in side)
        features = game_map.hexside(a, b)
        for tag, by in tags.items():
            if len(by) == 2 or side in ONE_SIDED_KEPT:
                assert tag in features, (sorted(side), tag)
            else:
                assert side in ONE_SIDED_DROPPED and tag not in features, (sorted(side), tag)
    on_map = {frozenset(game_map.label(x) for x in e) for e, f in game_map.side_features.items() if {"river", "blocked"} & f}
    assert on_map == set(listed) - ONE_SIDED_DROPPED


def test_map_agrees_with_the_eye_checks(module):
    checks = json.loads((MODULE / "tools" / "eye_checks.json").read_text(encoding="utf-8"))
    game_map = module.map
    for label, seen in checks["hexes"].items():
        i = game_map.index(label)
        assert game_map.terrain[i] == seen["terrain"], label
        assert game_map.names[i] == seen.get("name", game_map.names[i]), label
        if "sea" in seen:
            assert game_map.extra[i]["sea"] == seen["sea"]
        if "supply" in seen:
            assert game_map.supply[i] == seen["supply"]
        if "features" in seen:
            assert sorted(game_map.features[i]) == sorted(seen["features"]), label
    for side in checks["hexsides"]:
        a, b = (game_map.index(x) for x in side["hexes"])
        assert sorted(game_map.hexside(a, b)) == sorted(side["features"]), side


def test_labels_follow_the_documented_convention(module):
    game_map = module.map
    assert game_map.spec.orientation == "pointy" and game_map.spec.shifted == "odd"
    berlin, moscow = game_map.index("0503"), game_map.index("2008")
    assert game_map.names[berlin] == "Berlin" and game_map.names[moscow] == "Moscow"
    # Odd rows sit half a hex right: 0503's neighbours below are 0504 (left) and 0604 (right).
    assert {game_map.label(n) for n in game_map.neighbours[berlin]} == {"0403", "0603", "0502", "0602", "0504", "0604"}
    assert game_map.find("0101") is None  # outside the map's ragged edge


def test_calibration_puts_city_hexes_on_their_label(layout):
    # City centres read off the picture by eye (pixel, full resolution): Berlin, Posen, Stalingrad.
    checks = json.loads((MODULE / "calibration.json").read_text())["checks"]
    assert set(checks) == {"0503", "0704", "2117"}
    for label, (x, y) in checks.items():
        cx, cy = layout.label_center(label)
        assert abs(cx - x) < 0.1 * layout.pitch[0] and abs(cy - y) < 0.1 * layout.pitch[1], label
