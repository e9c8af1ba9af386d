"""A position written by hand: the changes that turn one state (or a scenario's set-up) into another, one a line.

```
# Paths of Glory, mid-1915
Turn: 5
GE 1st Army: Sedan
FR 5th Army: Paris, reduced
GE Corps 3 + GE Corps 4: reserve
RU 2nd Army: eliminated
Control Lodz: cp
Status vp = 12
Status trenches.Sedan = {"level": 1, "owner": "ap"}
```

``UNITS: WHERE`` puts units (by any name a turn may use, joined by ``+``) on a location or in one of the module's
boxes, at full strength unless ``, reduced`` (one step lost) or ``, step N`` follows; ``Control LOCATION: SIDE`` gives
a location to a side; ``Status KEY = JSON`` sets a value of the game's status (a dotted key reaches inside it);
``Turn:``, ``Side:`` and ``Phase:`` set the moment. Blank lines and lines starting with ``#`` are skipped.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from pbem.model.errors import PbemError, Source
from pbem.model.files import read_text
from pbem.model.lookup import ambiguous, find_units
from pbem.model.state import State

MAX_LINES = 5_000  # a position is at most a few hundred lines (191 counters and the status)
_UNITS = re.compile(r"(?P<units>[^:]+?)\s*:\s*(?P<where>[^,]+?)\s*(?:,\s*(?P<face>reduced|full|step\s+\d+))?\s*$", re.IGNORECASE)
_CONTROL = re.compile(r"control\s+(?P<where>[^:]+?)\s*:\s*(?P<side>\S+)\s*$", re.IGNORECASE)
_STATUS = re.compile(r"status\s+(?P<key>[A-Za-z0-9_.\- ]+?)\s*=\s*(?P<value>.+)$", re.IGNORECASE)
_MOMENT = re.compile(r"(?P<key>turn|side|phase)\s*:\s*(?P<value>\S+)\s*$", re.IGNORECASE)


def apply_position(state: State, path: Path) -> None:
    """Change ``state`` as the position file at ``path`` says; a line pbem cannot read, or a name it cannot find, is
    an input error naming the file and line (nothing of the file is kept then: the caller writes nothing)."""
    text = read_text(path)
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise PbemError.at(path, f"a position holds at most {MAX_LINES} lines")
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        _apply_line(state, line, Source(str(path), number, 1))


def _apply_line(state: State, line: str, where: Source) -> None:
    module = state.module
    if found := _MOMENT.fullmatch(line):
        key, value = found["key"].lower(), found["value"]
        if key == "turn":
            if not value.isdigit() or not 1 <= int(value) <= 10_000:
                raise PbemError(f"a turn is a whole number from 1, not {value!r}", where)
            state.turn = int(value)
        elif key == "side":
            state.side = _side(state, value, where)
        else:
            state.phase = value.lower()
        return
    if found := _CONTROL.fullmatch(line):
        location = _location(state, found["where"], where)
        side = _side(state, found["side"], where)
        state.status.setdefault("control", {})[module.map.label(location)] = side
        return
    if found := _STATUS.fullmatch(line):
        try:
            value = json.loads(found["value"])
        except ValueError:
            raise PbemError(f"the value of status {found['key']} is not JSON: {found['value'][:60]!r} (text is written in double quotes)", where) from None
        keys = found["key"].strip().split(".")
        target: dict[str, Any] = state.status
        for key in keys[:-1]:
            inner = target.setdefault(key, {})
            if not isinstance(inner, dict):
                raise PbemError(f"status {'.'.join(keys[:-1])} is not an object: {key!r} cannot be set inside it", where)
            target = inner
        target[keys[-1]] = value
        return
    if found := _UNITS.fullmatch(line):
        units = [_unit(state, name, where) for name in found["units"].split("+")]
        destination = found["where"].strip()
        box = next((b for b in module.boxes if b.casefold() == destination.casefold()), None)
        location = None if box is not None else _location(state, destination, where)
        face = (found["face"] or "full").lower()
        for unit_id in units:
            unit = state.units[unit_id]
            steps = len(unit.unit.type.steps)
            step = 0 if face == "full" else 1 if face == "reduced" else int(face.split()[1])
            if step >= steps:
                raise PbemError(f"{unit.unit.display()} has {steps} face(s): step {step} is none of them", where)
            unit.step = step
            if box is not None:
                state.remove(unit_id, box)
            else:
                state.place(unit_id, location)  # type: ignore[arg-type]
        return
    raise PbemError(
        "cannot read this line: write 'UNITS: WHERE' (', reduced' after it), 'Control LOCATION: SIDE', "
        "'Status KEY = JSON' or 'Turn: N'", where,
    )


def _unit(state: State, written: str, where: Source) -> str:
    name = written.strip()
    if name in state.units:
        return name
    found = find_units(state.module, name)
    if len(found) > 1:
        raise PbemError(ambiguous("unit", name, found), where)
    if not found or next(iter(found)) not in state.units:
        raise PbemError(f"unknown unit {name!r} (pbem module show {state.module.id} --units lists them)", where)
    return next(iter(found))


def _location(state: State, written: str, where: Source) -> int:
    found = state.module.map.find(written.strip())
    if found is None:
        boxes = ", ".join(state.module.boxes)
        raise PbemError(f"unknown location {written.strip()!r} (a location of the map, or a box: {boxes})", where)
    return found


def _side(state: State, written: str, where: Source) -> str:
    for side in state.module.sides:
        if side.casefold() == written.casefold():
            return side
    raise PbemError(f"{written!r} is not one of the sides {', '.join(state.module.sides)}", where)
