"""A VASSAL save as a pbem state: the real Paths of Glory Classic save against the module's 1914 scenario,
and the mapping's own checks."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from pbem.formats.vassal.mapping import Mapping, check_mapping, fill, load_mapping
from pbem.model.errors import PbemError
from pbem.model.jsonsource import load_json, parse_json
from pbem.model.module import load_module

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
SAVE = SHARED / "paths-of-glory" / "vassal" / "Classic10-8.vsav"
needs_save = pytest.mark.skipif(not SAVE.is_file(), reason="../shared/data/paths-of-glory/vassal is absent")


@pytest.fixture(scope="module")
def pog():
    return load_module(REPO / "modules" / "paths-of-glory")


@pytest.fixture(scope="module")
def classic_state(pog):
    from pbem.formats.vassal.to_state import open_game, state_of

    opened = open_game(str(SAVE))
    return state_of(opened), opened


def _key(pog, unit_id: str, step: int) -> tuple:
    unit = pog.units[unit_id]
    # Generic corps are interchangeable counters: compare them by nation, armies and named units by id.
    kind = "corps" if "-CORPS-" in unit_id and unit_id.split("-CORPS-")[1].isdigit() else unit_id
    return unit.type.nationality, kind, step


def _places(pog, units) -> dict[str, Counter]:
    out: dict[str, Counter] = {}
    for entry in units:
        where = entry["at"]
        if where == "reserve":
            where = f"reserve {pog.units[entry['id']].type.nationality}"
        out.setdefault(where, Counter())[_key(pog, entry["id"], entry.get("step", 0))] += 1
    return out


@needs_save
def test_every_unit_of_the_1914_set_up_stands_on_its_space(pog, classic_state):
    state, opened = classic_state
    assert opened.module.id == "paths-of-glory"  # found from the pieces: the predefined save has no moduledata
    scenario = load_json(pog.scenarios["1914"]).data
    ours = _places(pog, [u for u in state["units"] if u["at"] != "reinforcements"])
    theirs = _places(pog, [u for u in scenario["units"] if u["at"] != "reinforcements"])
    assert ours == theirs
    on_map = [u for u in state["units"] if u["at"] not in pog.boxes]
    assert len(on_map) == 22 + 32
    by_id = {u["id"]: u for u in state["units"]}
    assert by_id["GE-1-ARMY"] == {"id": "GE-1-ARMY", "at": "Aachen"}
    assert by_id["FR-6-ARMY"] == {"id": "FR-6-ARMY", "at": "Paris", "step": 1}
    assert by_id["BR-BEF-ARMY"]["at"] == "Brussels"


@needs_save
def test_neutral_nations_wait_in_the_reinforcements_box(pog, classic_state):
    state, _ = classic_state
    scenario = load_json(pog.scenarios["1914"]).data
    waiting = {u["id"] for u in scenario["units"] if u["at"] == "reinforcements" and "-CORPS-" not in u["id"]}
    by_id = {u["id"]: u["at"] for u in state["units"]}
    assert waiting and all(by_id[uid] == "reinforcements" for uid in waiting)
    assert by_id["IT-1-ARMY"] == "reinforcements"  # the save shows it on Verona, reduced: Italy is neutral


@needs_save
def test_trenches_turn_and_vp_come_from_the_markers(pog, classic_state):
    state, _ = classic_state
    scenario = load_json(pog.scenarios["1914"]).data["status"]
    expected = set(scenario["trenches"]) | set(scenario["neutral_setup"]["trenches"])
    assert set(state["status"]["trenches"]) == expected
    assert state["status"]["trenches"]["Metz"] == {"level": 1, "owner": "cp"}
    assert state["turn"] == 1 and state["status"]["vp"] == 10


@needs_save
def test_spare_counters_are_warnings_with_their_vassal_name_and_place(classic_state):
    _, opened = classic_state
    assert opened.namer.warnings and all(w.startswith("piece 'USc' at AP Forces") for w in opened.namer.warnings)


@needs_save
def test_cli_state_writes_a_valid_state(pbem, tmp_path):
    out = tmp_path / "state.json"
    result = pbem("vassal", "state", SAVE, "--out", out)
    assert result.code == 0, result.err
    assert "191 units, 54 on the map" in result.out
    data = json.loads(out.read_text())
    assert data["module"] == "paths-of-glory" and len(data["units"]) == 191
    check = pbem("vassal", "state", SAVE, "--format", "json")
    assert json.loads(check.out)["units"] == data["units"]


def test_a_save_of_another_game_is_refused_in_one_line(pbem, tmp_path):
    sample = SHARED / "vassal-samples" / "kassala-Default_Setup.vsav"
    if not sample.is_file():
        pytest.skip("../shared/data/vassal-samples is absent")
    out = tmp_path / "state.json"
    result = pbem("vassal", "state", sample, "--out", out)
    assert result.code == 2 and not out.exists()
    assert len(result.err.strip().splitlines()) == 1 and "Kassala" in result.err
    forced = pbem("vassal", "state", sample, "--module", "paths-of-glory")
    assert forced.code == 2 and "not one that module paths-of-glory reads" in forced.err


def test_fill_templates():
    assert fill("{SIDE}-{number:02}", {"side": "cp", "number": "7"}) == "CP-07"
    assert fill("{nation}-CORPS-{n:02}", {"nation": "GE"}, 3) == "GE-CORPS-03"


def _mapping_with(pog, change) -> Mapping:
    data = json.loads((REPO / "modules" / "paths-of-glory" / "vassal.json").read_text())
    change(data)
    return Mapping(pog, parse_json(json.dumps(data), "vassal.json"))


@pytest.mark.parametrize("change, message", [
    (lambda d: d["locations"]["patterns"][0].update(box="attic"), "not a box"),
    (lambda d: d["units"]["pieces"].append({"name": "^XX$", "unit": "XX-1-ARMY"}), "unknown unit"),
    (lambda d: d["units"]["pieces"].append({"name": "^(?P<a>X)$", "unit": "{b}-ARMY"}), "not a group"),
    (lambda d: d["units"]["pieces"].append({"name": "^(X$", "unit": "X"}), "not a regular expression"),
    (lambda d: d["units"]["pieces"].append({"name": "^Zc$", "generic": "ZZ-CORPS-{n:02}"}), "no unit"),
    (lambda d: d.update(status_from="1999"), "no scenario"),
    (lambda d: d["locations"]["names"].update({"Nowhere": "Atlantis"}), "neither a location"),
])
def test_the_mapping_is_checked_against_the_module(pog, change, message):
    with pytest.raises(PbemError, match=message):
        check_mapping(_mapping_with(pog, change))


def test_the_bundled_mapping_is_valid(pog):
    assert load_mapping(pog).answers_to("Paths of Glory", "10.8")
    assert not load_mapping(pog).answers_to("Paths of Glory", "9.1")
