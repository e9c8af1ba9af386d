"""Red Winter data: map anchors and geometry, counters, tables cell by cell, the campaign set-up; kernel ZOC and LOS."""

import json
import re
import sys
from pathlib import Path

import pytest

from pbem.model.module import load_module
from pbem.model.state import State
from pbem.model.jsonsource import load_json
from pbem.rules.combat import CombatResultsTable
from pbem.rules.sight import between, clear
from pbem.rules.zoc import in_zoc, zoc_locations

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
MODULE = REPO / "modules" / "red-winter"


@pytest.fixture(scope="module")
def rw():
    return load_module(MODULE)


def lab(m, i):
    return m.map.label(i)


def test_grid_adjacency_and_distance_follow_the_digest(rw):
    m = rw.map
    assert len(m) == 24 * 31 - 12
    assert sorted(lab(rw, n) for n in m.neighbours[m.index("B13")]) == ["A12", "A13", "B12", "B14", "C12", "C13"]
    assert m.is_adjacent(m.index("A13"), m.index("B14"))
    assert m.distance(m.index("A13"), m.index("X28")) == 23 + 3


def test_anchor_hexes(rw):
    m = rw.map
    assert m.supply[m.index("A13")] == "finnish" and m.supply[m.index("X28")] == "soviet"
    assert "reinforcement_entry" in m.features[m.index("X1")]
    assert "hotel" in m.features[m.index("M16")]
    assert "bridge" in m.hexside(m.index("J16"), m.index("K15"))
    assert m.has_road(m.index("A13"), m.index("B13")) and m.has_road(m.index("W27"), m.index("X28"))
    # Row 31 exists only in the high columns (B, D, ... X).
    assert m.find("A31") is None and m.find("W31") is None and m.find("B31") is not None
    assert len(m.labels) == 24 * 31 - 12 and "off_map" not in m.terrain


@pytest.mark.parametrize("label, terrain", [("B3", "frozen_lake"), ("B1", "suo"), ("A1", "forest"), ("G4", "frozen_lake"),
                                            ("E13", "village"), ("I17", "village"), ("H7", "frozen_lake"), ("A13", "suo")])
def test_terrain_spot_checks_judged_on_the_image(rw, label, terrain):
    assert rw.map.terrain[rw.map.index(label)] == terrain


def test_main_road_joins_the_two_supply_sources(rw):
    m = rw.map
    seen, todo = {m.index("A13")}, [m.index("A13")]
    while todo:
        here = todo.pop()
        for n in m.neighbours[here]:
            if n not in seen and m.has_road(here, n) and "trail" not in m.hexside(here, n):
                seen.add(n)
                todo.append(n)
    assert m.index("X28") in seen and m.index("M16") in seen


def test_counters_read_from_the_images(rw):
    units = rw.units
    assert len(units) == 110
    rifle = units["SOV-1-1-609"].type
    assert [(s.attack, s.move) for s in rifle.steps] == [(5, 5), (3, 5)]
    assert [(s.attack, s.move) for s in units["FIN-1-1-JR16"].type.steps] == [(5, 6), (3, 6)]
    assert [(s.attack, s.move) for s in units["SOV-T26M33"].type.steps] == [(7, 8), (4, 8)]
    values = {t.id: t.attributes for t in rw.counter_types.values()}
    assert values["sov_rifle_company"]["ras"] == [4, 4] and values["sov_rifle_company"]["range"] == [2, 2]
    assert values["sov_mg_company"]["boxed"] and values["sov_mortar"]["indirect"] and values["sov_mortar"]["defence_only"]
    assert values["sov_artillery_122"]["range"] == ["inf"]
    assert "counter_values" not in rw.tables  # the printed extras live in each type's attributes now
    sizes = {uid: u.type.size for uid, u in units.items()}
    assert sizes["FIN-PLT-JR16-A"] == "•••" and sizes["FIN-SEC-ERP"] == "••" and sizes["FIN-PAJARI"] == "none"
    assert sizes["SOV-1-1-609"] == "I" and sizes["FIN-ART-5-KTR12"] == "I"


def digest_crt() -> dict[int, list[str]]:
    text = (SHARED / "rules" / "red-winter.md").read_text()
    section = text.split("### 4.1")[1].split("###")[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and cells[0].isdigit():
            rows[int(cells[0])] = cells[1:]
    return rows


def test_crt_matches_the_digest_cell_by_cell(rw):
    if not (SHARED / "rules" / "red-winter.md").is_file():
        pytest.skip("../shared/rules/red-winter.md is not present")
    crt = CombatResultsTable.from_table(rw.tables["crt"])  # the schema's standard crt shape
    expected = digest_crt()
    assert sorted(expected) == list(range(2, 13))
    for roll, row in expected.items():
        for column, result in zip(crt.columns, row, strict=True):
            assert crt.result(column, roll, "2d6") == result, (roll, column)
    assert crt.result("1/4", 2, "2d6") == "5/0" and crt.result("6/1", 12, "2d6") == "0/8"


def test_other_tables_as_the_digest_gives_them(rw):
    t = rw.tables
    for name, table in t.items():
        assert table["source"]["section"], name
    assert [r["result"] for r in t["ranged_attack"]["results"]] == ["none", "suppressed", "suppressed+1", "suppressed+2"]
    assert t["ranged_attack"]["results"][1] == {"min": 14, "max": 16, "result": "suppressed"}
    assert t["anti_tank_fire"]["drm"] == {"target_assaulting_firer": 2, "target_adjacent": 1, "target_ba10": 1, "target_t37": 2, "obuhov_firing": -4}
    assert [r["result"] for r in t["night_raid"]["results"]] == ["no_attack", -1, 0, 1, 2, 3, 4, 5]
    assert t["recovery"]["success"] == 6 and t["sub_zero_loss"]["results"][0] == {"max": 3, "result": "step"}
    assert t["terrain"]["cost"] == {"forest": 2, "suo": 3, "village": 1, "frozen_lake": 1.5}
    turns = {e["turn"]: e for e in t["turn_track"]["turns"]}
    assert len(turns) == 32 and [turns[n]["los"] for n in range(1, 8)] == [4, 5, 5, 2, 1, 2, 3]
    assert [n for n, e in turns.items() if e["period"] == "night"] == [5, 12, 19, 26]
    assert turns[7]["replacement_points"] == {"soviet": 4, "finnish": 2} and turns[6]["armour_vp"] == 10
    assert t["replacement_costs"]["return_full"] == 3 and t["stacking_rules"]["max_infantry_companies"] == 3
    shifts = {e["id"]: e for e in t["resolution_modifiers"]["entries"]}
    assert shifts["frozen_lake_defender_finns"]["columns"] == 4 and shifts["bonfire"]["columns"] == 2


def test_campaign_setup_puts_every_piece_on_a_valid_hex(rw):
    document = load_json(rw.scenarios["campaign"])
    state = State.from_json(rw, document)
    on_map = [u for u in state.units.values() if u.on_map]
    assert len(on_map) == 20 and len(state.units) == 110
    for unit in on_map:
        assert rw.map.terrain[unit.at] != "frozen_lake", unit.id  # SU-1
    codes = rw.tables["setup_codes"]["units"]
    for unit in on_map:  # where the counter prints a hex, the piece stands on it (or within 4 of O19, ④)
        printed = codes[unit.id].split(" ")[0]
        if re.fullmatch(r"[A-X]\d+", printed):
            assert rw.map.distance(unit.at, rw.map.index(printed)) <= (4 if printed == "O19" else 0), unit.id


def test_setup_conversion_reproduces_the_scenario():
    source = SHARED / "data" / "red-winter" / "campaign-setup.json"
    if not source.is_file() or not (MODULE / "calibration.json").is_file():
        pytest.skip("../shared/data/red-winter or calibration.json is not present")
    sys.path.insert(0, str(MODULE / "tools"))
    try:
        import build_setup
    finally:
        sys.path.pop(0)
    units, _ = build_setup.convert(json.loads(source.read_text()))
    committed = json.loads((MODULE / "scenarios" / "campaign.json").read_text())["units"]
    assert units == committed


def test_zoc_and_sight_kernel(rw):
    state = State.from_json(rw, load_json(rw.scenarios["campaign"]))
    m = rw.map
    finnish = zoc_locations(state, m, "finnish")
    assert m.index("O21") in finnish and m.index("O20") in finnish and m.index("Q25") not in finnish
    assert in_zoc(state, m, m.index("O21"), "finnish") and not in_zoc(state, m, m.index("O23"), "finnish")
    assert not in_zoc(state, m, m.index("O21"), "finnish", lambda u: u.unit.type.arm == "at_gun")
    assert [m.label(i) for i in between(m, m.index("P20"), m.index("O21"))] == ["P21"]
    lake = lambda i: m.terrain[i] != "frozen_lake"
    assert clear(m, m.index("P20"), m.index("O21"), lake)
    assert not clear(m, m.index("O19"), m.index("O21"), lake)
    assert between(m, m.index("A1"), m.index("A1")) == [] and between(m, m.index("A1"), m.index("A2")) == []
