"""Paths of Glory 1914 set-up: the 2022 rules' Unit Setup against the VASSAL Classic save, and the state it loads into."""

import re
from collections import Counter
from pathlib import Path

import pytest

from pbem.model.jsonsource import load_json
from pbem.model.module import load_module
from pbem.model.state import State

REPO = Path(__file__).resolve().parents[1]
MODULE = REPO / "modules" / "paths-of-glory"
DATA = REPO.parent / "shared" / "data" / "paths-of-glory" / "vassal"
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="../shared/data/paths-of-glory/vassal is absent")
PIECE = re.compile(r"^(\()?(BEF|[A-Z]{2})(c|\d+)?(\))?$")
RESERVE = re.compile(r"^RB_([A-Z]+)$")


@pytest.fixture(scope="module")
def pog():
    return load_module(MODULE)


@pytest.fixture(scope="module")
def setup(pog):
    return load_json(MODULE / "scenarios" / "1914.json")


def _key(pog, unit_id, reduced):
    unit = pog.units[unit_id]
    kind = "corps" if unit.type.size == "XXX" else unit_id.split("-")[1]
    if unit_id == "BR-BEF-CORPS":
        kind = "BEF corps"
    return (unit.type.nationality, kind, bool(reduced))


def scenario_positions(pog, data):
    """(space or reserve) -> Counter of (nation, army number or 'corps', reduced), neutral set-ups included."""
    where = {}
    for entry in data["units"]:
        if entry["at"] != "reinforcements":
            where.setdefault(entry["at"] if entry["at"] != "reserve" else f"reserve {pog.units[entry['id']].type.nationality}", Counter())[
                _key(pog, entry["id"], entry.get("step"))
            ] += 1
    for nation, spaces in data["status"]["neutral_setup"].items():
        if nation == "trenches":
            continue
        for space, ids in spaces.items():
            for written in ids:
                uid = written.split()[0]
                key = space if space != "reserve" else f"reserve {nation}"
                where.setdefault(key, Counter())[_key(pog, uid, "(reduced)" in written)] += 1
    return where


def save_positions():
    from lxml import etree

    from pbem.formats.vassal.savefile import read_saved_game

    tree = etree.parse(str(DATA / "buildFile.xml"), etree.XMLParser(resolve_entities=False, no_network=True))
    board = next(b for b in tree.iter("VASSAL.build.module.map.boardPicker.Board") if b.get("name") == "Classic Map")
    regions = {r.get("name"): (int(r.get("originx")), int(r.get("originy"))) for r in board.iter("VASSAL.build.module.map.boardPicker.board.Region")}
    game = read_saved_game((DATA / "Classic10-8.vsav").read_bytes(), DATA / "Classic10-8.vsav")
    pieces, _ = game.pieces()
    units, trenches = {}, {}
    for piece in pieces.values():
        if piece.map_id != "Map" or piece.x is None:
            continue
        region = min(regions, key=lambda n: (regions[n][0] - piece.x) ** 2 + (regions[n][1] - piece.y) ** 2)
        name = piece.name
        if "Trench (1)" in name:
            trenches[region] = 1
            continue
        found = PIECE.match(name)
        if not found or found.group(2) in ("AP", "VP", "CP"):
            continue
        reduced, nation, what = bool(found.group(1)), found.group(2), found.group(3)
        if nation == "BEF":
            key = ("BR", "BEF corps" if what == "c" else "BEF", reduced)
        else:
            key = (nation, "corps" if what == "c" else what, reduced)
        reserve = RESERVE.match(region)
        place = f"reserve {'BR' if reserve and reserve.group(1) == 'BRBEF' else reserve.group(1)}" if reserve else region
        units.setdefault(place, Counter())[key] += 1
    return units, trenches


@needs_data
def test_the_classic_save_sets_up_what_the_2022_rules_list(pog, setup):
    ours = scenario_positions(pog, setup.data)
    theirs, trenches = save_positions()
    disagreements = {place: (ours.get(place), theirs.get(place)) for place in set(ours) | set(theirs) if ours.get(place) != theirs.get(place)}
    assert disagreements == {}
    ours_trenches = set(setup.data["status"]["trenches"]) | set(setup.data["status"]["neutral_setup"]["trenches"])
    assert ours_trenches == set(trenches)


def test_the_set_up_loads_as_a_state(pog, setup):
    state = State.from_json(pog, setup)
    on_map = [u for u in state.units.values() if u.on_map]
    assert len(on_map) == 22 + 32  # Unit Setup: CP 11 AH + 11 GE; AP 1 BE, 4 BR, 10 FR, 1 MN, 14 RU, 2 SB
    paris = state.units_at(pog.map.index("Paris"))
    assert [u.id for u in paris] == ["FR-6-ARMY"] and paris[0].step == 1
    assert sorted(u.id for u in state.units_at(pog.map.index("Koblenz"))) == ["GE-2-ARMY", "GE-3-ARMY"]
    assert state.turn == 1 and setup.data["status"]["vp"] == 10
    boxes = Counter((pog.units[u.id].side, u.box) for u in state.units.values() if not u.on_map)
    assert boxes[("cp", "reserve")] == 12 and boxes[("ap", "reserve")] == 17
