"""A state's units read the quick way (``_read_valid_units``, for files with no fault) build what the checking
read (``_read_units``) builds, field for field and in the same order; a file with a fault goes to the
checking read and gets its message and pointer, as before the quick read existed."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from pbem.formats.turnfile import load_start_state
from pbem.model import schemas
from pbem.model import state as state_module
from pbem.model.errors import PbemError
from pbem.model.jsonsource import load_json, parse_json
from pbem.model.module import load_module
from pbem.model.state import State

ROOT = Path(__file__).resolve().parents[1]
MODULES = ROOT / "modules"
MODULE_IDS = sorted(m.name for m in MODULES.iterdir() if (m / "module.json").is_file())


def _documents(module_id: str) -> list[Path]:
    """Every state or scenario file bundled for the module: its scenarios and its samples."""
    found = sorted((MODULES / module_id / "scenarios").glob("*.json")) + sorted((ROOT / "samples" / module_id).rglob("*.json"))
    kept = []
    for path in found:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get("units"), list):
            kept.append(path)
    return kept


def _slow(module, document, **options) -> State:
    """``State.from_json`` with the quick read refused, so that the checking read reads every unit."""
    quick = state_module._read_valid_units
    state_module._read_valid_units = lambda *args: False
    try:
        return State.from_json(module, document, **options)
    finally:
        state_module._read_valid_units = quick


def _quick(module, document, **options) -> State:
    """``State.from_json``, failing the test unless the quick read read the units."""
    taken = []
    quick = state_module._read_valid_units

    def watched(*args):
        taken.append(quick(*args))
        return taken[-1]

    state_module._read_valid_units = watched
    try:
        state = State.from_json(module, document, **options)
    finally:
        state_module._read_valid_units = quick
    assert taken == [True], "the quick read refused a valid file"
    return state


FIELDS = [f.name for f in dataclasses.fields(state_module.UnitState)]


def _same(quick: State, slow: State) -> None:
    """Every part of the two states equal, the containers of the same types and in the same order."""
    assert list(quick.units) == list(slow.units)
    for unit_id, unit in quick.units.items():
        other = slow.units[unit_id]
        for name in FIELDS:
            mine, theirs = getattr(unit, name), getattr(other, name)
            assert mine == theirs and type(mine) is type(theirs), (unit_id, name, mine, theirs)
        assert unit.unit is other.unit
        assert unit.markers is not other.markers and unit.tallies is not other.tallies
    assert list(quick.stacks.items()) == list(slow.stacks.items())
    for name in ("scenario", "turn", "side", "phase", "first_side", "control", "status", "options", "cards"):
        assert getattr(quick, name) == getattr(slow, name), name
    assert quick.to_json() == slow.to_json()
    assert quick.compact_json() == slow.compact_json()
    assert quick.layout != slow.layout


@pytest.mark.parametrize("module_id", MODULE_IDS)
def test_bundled_states_read_the_same_both_ways(module_id):
    module = load_module(MODULES / module_id)
    read = 0
    for path in _documents(module_id):
        document = load_json(path)
        data = document.data
        if data.get("module", module_id) != module_id:
            continue
        try:
            schemas.check(document, "scenario" if "id" in data and "actions" not in data else "state")
            slow = _slow(module, document)
        except PbemError:
            continue  # a sample of a bad state: the tests below hold faults
        _same(_quick(module, load_json(path)), slow)
        read += 1
    assert read, f"no state read for {module_id}"


CHINA = MODULES / "china-war-1980"


def _china() -> tuple[Any, dict]:
    module = load_module(CHINA)
    data = json.loads((CHINA / "scenarios" / "border-war.json").read_text(encoding="utf-8"))
    return module, data


def _document(data: dict) -> Any:
    document = parse_json(json.dumps(data, indent=1), "state.json")
    schemas.check(document, "scenario" if "id" in data else "state")
    return document


POG = MODULES / "paths-of-glory"


def _pog() -> tuple[Any, dict]:
    module = load_module(POG)
    data = json.loads((POG / "scenarios" / "1914.json").read_text(encoding="utf-8"))
    return module, data


def _every_field(module, data: dict) -> tuple[dict, list[int]]:
    """``data`` with units that have each optional field, in boxes, under a controlled nationality, and a place
    spelt otherwise than printed; and the entries changed, in that order."""
    data = copy.deepcopy(data)
    units = data["units"]
    other = {side: [s for s in module.sides if s != side][0] for side in module.sides}
    kinds = [module.units[e["id"]].type for e in units]
    on_map = [n for n, e in enumerate(units) if e["at"] not in module.boxes and len(kinds[n].steps) > 1 and "step" not in e]
    n = on_map[:14]
    units[n[0]]["step"] = 1
    units[n[1]]["side"] = other[kinds[n[1]].side]
    units[n[2]]["supplied"] = False
    units[n[3]]["markers"] = ["disrupted", "dug_in"]
    units[n[4]]["tallies"] = {"stamina": 2, "fatigue": 0}
    units[n[5]]["facing"] = 3
    units[n[6]] |= {"step": 0, "supplied": True, "markers": [], "tallies": {}, "side": "", "facing": 0}
    units[n[7]]["at"] = module.boxes[0]
    units[n[8]] |= {"at": module.boxes[-1], "step": len(kinds[n[8]].steps) - 1}
    units[n[9]]["at"] = units[n[10]]["at"].lower()  # found as GameMap.index finds it
    controlled = next(m for m in n[11:] if kinds[m].nationality != kinds[n[1]].nationality)
    data["control"] = {kinds[controlled].nationality: other[kinds[controlled].side], "nobody": ""}
    return data, [*n[:11], controlled]


def test_every_optional_field_reads_the_same_both_ways():
    module, data = _pog()
    data, n = _every_field(module, data)
    assert data["units"][n[9]]["at"] != data["units"][n[10]]["at"]
    quick, slow = _quick(module, _document(data)), _slow(module, _document(data))
    _same(quick, slow)
    units = list(quick.units.values())
    assert units[n[0]].step == 1 and units[n[1]].side != units[n[1]].unit.type.side and units[n[2]].supplied is False
    assert units[n[3]].markers == {"disrupted", "dug_in"} and units[n[4]].tallies == {"stamina": 2, "fatigue": 0} and units[n[5]].facing == 3
    assert units[n[7]].box == module.boxes[0] and units[n[8]].box == module.boxes[-1] and units[n[8]].step > 0
    assert units[n[9]].at == units[n[10]].at != -1
    assert units[n[11]].side != units[n[11]].unit.type.side  # the control of its nationality


def test_a_box_that_is_also_a_label_is_the_box():
    module, data = _pog()
    label = module.map.labels[0]
    module = dataclasses.replace(module, boxes=(*module.boxes, label))
    data["units"][0]["at"] = label
    quick, slow = _quick(module, _document(data)), _slow(module, _document(data))
    _same(quick, slow)
    assert quick.units[data["units"][0]["id"]].box == label


def _faults(module, data: dict) -> dict[str, dict]:
    """One file per fault of a unit entry the reader itself refuses (the schema lets them through)."""
    kinds = {e["id"]: module.units[e["id"]].type for e in data["units"]}
    first, second = data["units"][0]["id"], data["units"][1]["id"]
    faults: dict[str, dict] = {}

    def fault(name: str, change) -> None:
        changed = copy.deepcopy(data)
        change(changed["units"])
        faults[name] = changed

    fault("unknown", lambda units: units[3].update(id="NO-SUCH-UNIT"))
    fault("misspelt", lambda units: units[3].update(id=units[3]["id"] + "x"))
    fault("twice", lambda units: units.append({"id": second, "at": units[0]["at"]}))
    fault("side", lambda units: units[2].update(side="martians"))
    fault("step", lambda units: units[4].update(step=len(kinds[units[4]["id"]].steps)))
    fault("place", lambda units: units[5].update(at="Atlantis"))
    fault("late", lambda units: units[-1].update(at="Atlantis"))  # the quick read has read every other entry
    fault("first", lambda units: units[0].update(step=99, at="Atlantis"))  # two faults: the step's is named
    control = copy.deepcopy(data)
    control["control"] = {kinds[first].nationality: "martians"}
    for entry in control["units"]:  # plain entries only, so that nothing but the control is at fault
        if kinds[entry["id"]].nationality == kinds[first].nationality:
            entry.pop("supplied", None), entry.pop("step", None), entry.pop("side", None)
    faults["control"] = control
    unused = copy.deepcopy(data)
    unused["control"] = {"nobody": "martians"}  # no unit of that nationality: not a fault
    faults["unused control"] = unused
    return faults


EXPECTED = {  # message, pointer: as the reader gave them before the quick read (081714e)
    "unknown": ("unknown unit 'NO-SUCH-UNIT'", "/units/3/id"),
    "twice": ("is placed twice (first at /units/1)", None),
    "side": ("is on side 'martians', which is not one of", "/units/2/side"),
    "step": ("step(s)", "/units/4/step"),
    "place": ("'Atlantis' is neither a location on the map nor a box (eliminated", "/units/5/at"),
    "first": ("step(s)", "/units/0/step"),
    "control": ("is on side 'martians', which is not one of", "/control"),
}


@pytest.mark.parametrize("fault", ["unknown", "misspelt", "twice", "side", "step", "place", "late", "first", "control", "unused control"])
def test_a_fault_gets_the_checking_reads_message_and_pointer(fault):
    module, data = _china()
    data = _faults(module, data)[fault]
    errors = []
    for read in (State.from_json, _slow):
        try:
            read(module, _document(data))
        except PbemError as error:
            errors.append((error.message, error.source.pointer, str(error)))
        else:
            errors.append(None)
    assert errors[0] == errors[1]
    if fault == "unused control":
        assert errors[0] is None
        return
    message, pointer, _ = errors[0]
    if fault in EXPECTED:
        part, expected = EXPECTED[fault]
        assert part in message
        assert pointer == (expected or f"/units/{len(data['units']) - 1}/id")
    if fault == "late":
        assert pointer == f"/units/{len(data['units']) - 1}/at"


def test_entries_the_schema_would_refuse_fail_as_before():
    """A document read without the schema check (a caller that trusts its file): the quick read gives it to the
    checking read, which fails as it did."""
    module, data = _china()
    for change in (
        lambda units: units[3].pop("at"),
        lambda units: units[3].update(id=["not", "a", "name"]),
        lambda units: units.insert(2, "not an object"),
        lambda units: units[4].update(step="1"),
        lambda units: (units[1].update(id="NO-SUCH-UNIT"), units[3].update(id=["not", "a", "name"])),  # the fault first
        lambda units: (units[1].update(at="Atlantis"), units[3].update(at=["not", "a", "place"])),
        lambda units: units[3].update(at=5, step=99),  # the step is named first
    ):
        changed = copy.deepcopy(data)
        change(changed["units"])
        document = parse_json(json.dumps(changed), "state.json")
        failures = []
        for read in (State.from_json, _slow):
            with pytest.raises(Exception) as caught:
                read(module, document)
            failures.append((type(caught.value), str(caught.value)))
        assert failures[0] == failures[1]


def test_status_is_copied_unless_the_document_is_the_states_own(tmp_path):
    module, data = _china()
    data["status"] = {"pacified": ["a", "b"], "vp": {"soviet": 1}}
    document = _document(data)
    kept = State.from_json(module, document)
    assert kept.status == data["status"] and kept.status is not document.data["status"]
    assert kept.status["pacified"] is not document.data["status"]["pacified"]
    owned = State.from_json(module, document, owned=True)
    assert owned.status is document.data["status"]


def test_a_start_document_the_turn_carries_is_not_shared_with_the_state(tmp_path):
    """A turn whose header holds its start state (a VASSAL log's opening position) keeps it as it was, whatever
    the rules do to the state read from it; a state file read for the turn is the state's own."""
    from pbem.formats.turnfile import load_turn

    module, data = _china()
    data = {"module": module.id, "turn": 1, "units": data["units"], "status": {"marks": ["x"]}}
    (tmp_path / "start.json").write_text(json.dumps(data), encoding="utf-8")
    turn = {"module": module.id, "turn": 1, "side": module.sides[0], "start": {"state": "start.json"}, "actions": []}
    (tmp_path / "turn.json").write_text(json.dumps(turn), encoding="utf-8")
    read, game = load_turn(tmp_path / "turn.json")
    from_file = load_start_state(read, game)
    assert from_file.status == {"marks": ["x"]}
    carried = _document(data)
    header = dataclasses.replace(read.header, start_document=carried, start_state=None)
    state = load_start_state(dataclasses.replace(read, header=header), game)
    state.status["marks"].append("y")
    assert carried.data["status"] == {"marks": ["x"]}
