"""State.compact_json writes what json.dumps of State.to_json writes, byte for byte (the archive stores it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.model.jsonsource import load_json
from pbem.model.module import load_module
from pbem.model.state import ELIMINATED, State

MODULES = Path(__file__).resolve().parents[1] / "modules"
SCENARIOS = [(m.name, s.name) for m in sorted(MODULES.iterdir()) if (m / "scenarios").is_dir() for s in sorted((m / "scenarios").glob("*.json"))]


@pytest.mark.parametrize(("module", "scenario"), SCENARIOS)
def test_every_field_written_as_to_json_writes_it(module, scenario):
    game = load_module(MODULES / module)
    state = State.from_json(game, load_json(MODULES / module / "scenarios" / scenario))

    def same() -> None:
        assert state.compact_json() == json.dumps(state.to_json(), separators=(",", ":"), ensure_ascii=False)

    same()
    units = list(state.units.values())
    other = [side for side in game.sides if side != units[0].side][0]
    units[0].step, units[0].supplied, units[0].side, units[0].markers = 1, False, other, {"ü-z", 'a"\\'}
    units[-1].at, units[-1].box = -1, ELIMINATED
    units[0].tallies, units[0].facing = {"stamina": 2, "fatigue": 0}, 4  # a unit's tallies and facing too
    state.status = {**state.status, "note": "naïve \u2028 \x01"}
    state.control = {**state.control, units[1].unit.id: other}
    state.phase, state.first_side = "combat", other
    same()
    units[1].at, units[1].box = -1, None
    same()
