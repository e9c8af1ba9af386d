"""No Retreat! counters: every counter's two faces against UnitCounters.xml, read here with ElementTree."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pbem.model.module import load_module

REPO = Path(__file__).resolve().parents[1]
DATA = REPO.parent / "shared" / "data" / "no-retreat" / "UnitCounters.xml"


@pytest.fixture(scope="module")
def module():
    return load_module(REPO / "modules" / "no-retreat")


def test_counter_mix_counts(module):
    sides = [u.type.side for u in module.units.values()]
    assert sides.count("axis") == 18 and sides.count("soviet") == 20
    assert all(len(u.type.steps) == 2 for u in module.units.values())


def test_sample_counters_by_hand(module):
    panzer = module.unit("GE-1PANZER").type
    assert [(s.attack, s.move) for s in panzer.steps] == [(7, 6), (5, 6)] and panzer.mechanized
    front = module.unit("SU-1BYELORUSSIAN").type
    faces = front.attributes["faces"]
    assert [(f["name"], f["arm"], f["strength"], f["move"]) for f in faces] == [
        ("1Byelorussian", "shock", 8, 2), ("Southwest", "infantry", 5, 3)]
    moscow = module.unit("SU-MOSCOW").type
    assert [f["zoc"] for f in moscow.attributes["faces"]] == [False, True]
    assert module.unit("GE-FINNISH").type.nationality == "Finland"


@pytest.mark.skipif(not DATA.is_file(), reason="../shared/data/no-retreat is not beside the repository")
def test_every_face_matches_the_xml(module):
    by_xml_id = {u.type.attributes["xml_id"]: u.type for u in module.units.values()}
    root = ET.parse(DATA).getroot()
    units = root.findall("Unit")
    assert len(units) == len(by_xml_id)
    for unit in units:
        counter = by_xml_id[int(unit.get("id"))]
        assert counter.side == {"Germany": "axis", "USSR": "soviet"}[unit.get("country")]
        faces = unit.findall("Side")
        assert len(faces) == len(counter.steps) == 2
        for face, step, recorded in zip(faces, counter.steps, counter.attributes["faces"]):
            strength = int(face.find("Strength").text)
            move = int(face.find("Movement").text)
            assert (step.attack, step.defence, step.move) == (strength, strength, move)
            assert recorded["name"] == face.get("name")
            assert recorded["zoc"] == (face.find("Strength").get("type") != "NoZOC")
            assert recorded["mechanized"] == ("Tank" in face.get("type") or "Mechanized" in face.get("type"))
