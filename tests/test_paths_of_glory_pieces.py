"""Paths of Glory counters and cards: the digest's unit and card tables, stable ids, files rebuilt from the data."""

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

from pbem.model.errors import PbemError
from pbem.model.module import load_module

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
MODULE = REPO / "modules" / "paths-of-glory"
needs_data = pytest.mark.skipif(not (SHARED / "data" / "paths-of-glory").is_dir(), reason="../shared/data/paths-of-glory is absent")


@pytest.fixture(scope="module")
def pog():
    return load_module(MODULE)


def faces(unit):
    return [f"{s.attack}-{s.loss}-{s.move}" for s in unit.type.steps]


@pytest.mark.parametrize(
    "unit_id, side, nation, full, reduced",
    [
        ("GE-8-ARMY", "cp", "GE", "5-3-3", "3-3-3"),
        ("AH-4-ARMY", "cp", "AH", "3-2-3", "1-2-3"),
        ("TU-YLD-ARMY", "cp", "TU", "1-2-3", "1-2-2"),
        ("FR-ORIENT-ARMY", "ap", "FR", "3-3-3", "2-3-3"),
        ("BR-BEF-ARMY", "ap", "BR", "5-3-3", "4-3-3"),
        ("BR-MEF-ARMY", "ap", "BR", "1-2-3", "1-2-3"),
        ("US-1-ARMY", "ap", "US", "5-3-3", "3-3-3"),
        ("RU-CAU-ARMY", "ap", "RU", "3-2-3", "2-2-3"),
        ("BE-1-ARMY", "ap", "BE", "2-3-3", "1-3-3"),
        ("GE-CORPS-07", "cp", "GE", "2-1-4", "1-1-4"),
        ("TU-SN-CORPS", "cp", "SN", "1-1-1", "0-1-1"),
        ("MN-CORPS", "ap", "MN", "1-1-0", "0-1-0"),
        ("FR-CORPS-03", "ap", "FR", "1-1-4", "1-1-4"),
        ("BR-BEF-CORPS", "ap", "BR", "2-2-4", "2-1-4"),
        ("BU-CORPS-06", "cp", "BU", "2-1-3", "0-1-3"),
        ("RU-CZECH-LEGION", "ap", "RU", "2-1-4", "1-1-4"),
    ],
)
def test_units_follow_the_digest_table(pog, unit_id, side, nation, full, reduced):
    unit = pog.units[unit_id]
    assert (unit.side, unit.type.nationality, faces(unit)) == (side, nation, [full, reduced])


def test_order_of_battle_counts(pog):
    by_kind = Counter((u.type.nationality, u.type.size) for u in pog.units.values())
    assert by_kind[("GE", "XXXX")] == 15 and by_kind[("AH", "XXXX")] == 9 and by_kind[("RU", "XXXX")] == 13
    assert by_kind[("GE", "XXX")] == 22 and by_kind[("RU", "XXX")] == 21 and by_kind[("TU", "XXX")] == 14 and by_kind[("SN", "XXX")] == 1
    assert Counter(u.side for u in pog.units.values()) == {"cp": 80, "ap": 111}  # digest 4.9: 15+9+2+22+11+14+1+6 CP units
    assert pog.units["BR-ANA-CORPS"].type.attributes["contingent"] == "ANA"
    assert pog.units["BR-AUS-CORPS"].type.attributes["rp_pool"] == "A"
    assert not pog.units["BR-BEF-ARMY"].type.attributes["replaceable"]
    assert pog.units["TU-AOI-ARMY"].type.attributes["near_east"]


def test_markers_the_issue_lists(pog):
    assert {"trench", "control", "out_of_supply", "fort_besieged", "fort_destroyed", "activation", "war_status", "vp",
            "mandated_offensive", "replacement_points"} <= set(pog.markers)  # fmt: skip
    assert pog.markers["trench"]["values"] == [1, 2] and pog.markers["trench"]["owner"]


@pytest.mark.parametrize(
    "card_id, name, commitment, ops, sr, rp, cc, removed, ws",
    [
        ("AP-01", "British Reinforcements", "mobilization", 4, 4, {"A": 1, "BR": 2, "FR": 2, "IT": 1, "RU": 3}, False, True, 1),
        ("AP-17", "Italy", "limited_war", 5, 5, {"A": 1, "BR": 3, "FR": 3, "RU": 4}, False, True, 2),
        ("AP-39", "They Shall Not Pass", "total_war", 2, 2, {"BR": 1, "FR": 1, "RU": 1}, True, False, None),
        ("CP-01", "Guns of August", "mobilization", 3, 4, {"AH": 1, "GE": 2, "TU": 1}, False, True, 2),
        ("CP-18", "Fortified Machine Guns", "limited_war", 2, 2, {"GE": 1}, True, False, None),
        ("CP-34", "Bulgaria", "limited_war", 5, 5, {"AH": 3, "GE": 4, "TU": 2}, False, True, 1),
        ("CP-58", "Stavka Timidity", "limited_war", 2, 2, {"GE": 1}, False, False, None),
        ("CP-65", "Prince Max", "total_war", 4, 4, {"AH": 2, "BU": 1, "GE": 3, "TU": 1}, False, True, 3),
    ],
)
def test_cards_follow_the_digest_table(pog, card_id, name, commitment, ops, sr, rp, cc, removed, ws):
    card = pog.cards[card_id]
    assert (card["name"], card["commitment"], card["ops"], card["sr"], card["rp"]) == (name, commitment, ops, sr, rp)
    assert (card["combat_card"], card["removed_after_event"], card.get("war_status")) == (cc, removed, ws)


def test_decks_by_commitment(pog):
    for side in ("ap", "cp"):
        core = Counter(c["commitment"] for c in pog.cards.values() if c["side"] == side and not c["optional"])
        assert core == {"mobilization": 14, "limited_war": 20, "total_war": 21}
        assert sum(1 for c in pog.cards.values() if c["side"] == side and c["optional"]) == 10


def test_reinforcements_and_prerequisites_name_real_pieces(pog):
    assert pog.cards["CP-12"]["reinforcements"] == {"nation": "GE", "units": [{"unit": "GE-10-ARMY"}, {"corps": "ge_corps"}, {"corps": "ge_corps"}]}
    assert pog.cards["AP-31"]["reinforcements"]["units"] == [{"unit": "BR-MEF-ARMY"}]
    assert pog.cards["AP-54"]["prerequisites"] == [{"combined_war_status_at_least": 30, "rule": "16.3.2"}]
    assert pog.cards["CP-45"]["prerequisites"][0]["card_played"] == "CP-53"


def test_a_card_naming_an_unknown_unit_is_refused(tmp_path):
    import shutil

    copy = tmp_path / "pog"
    shutil.copytree(MODULE, copy, ignore=shutil.ignore_patterns("tools", "__pycache__"))
    data = json.loads((copy / "cards.json").read_text(encoding="utf-8"))
    data["cards"]["AP-01"]["reinforcements"]["units"][0] = {"unit": "BR-9-ARMY"}
    (copy / "cards.json").write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(PbemError, match="BR-9-ARMY"):
        load_module(copy)


@needs_data
def test_counters_and_cards_are_what_the_tool_builds_from_the_data():
    spec = importlib.util.spec_from_file_location("build_counters", MODULE / "tools" / "build_counters.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert json.loads((MODULE / "counters.json").read_text(encoding="utf-8")) == tool.counters(SHARED)
    assert json.loads((MODULE / "cards.json").read_text(encoding="utf-8")) == tool.cards(SHARED, {})
