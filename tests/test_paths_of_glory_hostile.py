"""Hostile Paths of Glory turns: samples with units, spaces, cards, uses and numbers swapped at random are judged
(exit 0 or 1) or refused as input (a PbemError, exit 2), never a crash."""

import json
import shutil

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.errors import PbemError
from pbem.model.module import load_module
from pbem.model.resources import data_dir

SAMPLES = data_dir("samples") / "paths-of-glory"
TURNS = sorted(p for p in SAMPLES.glob("*.json") if p.name != "expected.json" and not p.name.startswith("state-"))
MODULE = load_module("paths-of-glory")
UNITS, SPACES, CARDS = sorted(MODULE.units), list(MODULE.map.labels), sorted(MODULE.cards)
USES = ["ops", "sr", "rp", "event", "automatic", "peace_terms", "combat", "discard"]


def _mutate(value, draw, key=None):
    if isinstance(value, dict):
        return {k: _mutate(v, draw, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_mutate(v, draw, key) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return draw(st.integers(1, 9)) if draw(st.booleans()) else value
    if isinstance(value, str) and draw(st.integers(0, 3)) == 0:
        if value in MODULE.units:
            return draw(st.sampled_from(UNITS))
        if value in MODULE.map.labels:
            return draw(st.sampled_from(SPACES))
        if value in MODULE.cards:
            return draw(st.sampled_from(CARDS))
        if key == "use":
            return draw(st.sampled_from(USES))
        if key == "result":
            return draw(st.sampled_from(["0/0", "3/5", "7/7", "x", "2/"]))
    return value


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_samples_never_crash(tmp_path, data):
    source = data.draw(st.sampled_from(TURNS))
    turn = json.loads(source.read_text())
    turn["actions"] = _mutate(turn["actions"], data.draw)
    state = turn["start"].get("state")
    if state:
        shutil.copy(SAMPLES / state, tmp_path / state)
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(turn))
    try:
        parsed, module = load_turn(path)
        result = replay(module, load_start_state(parsed, module), parsed)
    except PbemError:
        return
    assert all(v.severity in ("illegal", "mismatch", "warning") for v in result.violations)
