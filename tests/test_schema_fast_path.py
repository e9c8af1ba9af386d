"""The compiled validator (jsonschema-rs) and jsonschema give the same verdict on every input we have.

jsonschema-rs decides; jsonschema explains what it refuses. A value the first accepts and the second
refuses would be a file let through unchecked, so the two are compared on every sample and module file,
against every schema, and on mutations of them that hypothesis makes.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.model import schemas
from pbem.model.jsonsource import load_json
from pbem.model.module import load_module
from pbem.model.resources import data_dir

NAMES = sorted(path.name.removesuffix(".schema.json") for path in data_dir("schemas").glob("*.schema.json"))
FILES = sorted(p for root in ("samples", "modules") for p in data_dir(root).rglob("*.json"))


_REAL_FAST = schemas.fast_validator  # taken at import: tests run with conftest's agreeing wrapper in its place


def fast(name: str):
    return _REAL_FAST(name)


def verdicts(name: str, value: object) -> tuple[bool, bool]:
    return fast(name).is_valid(value), schemas.validator(name).is_valid(value)


def test_there_is_something_to_compare():
    assert len(FILES) > 100 and {"turn", "state", "scenario", "module"} <= set(NAMES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_every_file_gets_the_same_verdict_from_both(path: Path):
    data = load_json(path).data
    for name in NAMES:
        fast_says, slow_says = verdicts(name, data)
        assert fast_says == slow_says, f"{name}: jsonschema-rs {fast_says}, jsonschema {slow_says}"


def test_the_samples_are_valid_turns_on_the_fast_path():
    turns = [p for p in FILES if p.parts[-3:-1] and "samples" in p.parts and isinstance(load_json(p).data, dict) and "actions" in load_json(p).data]
    assert len(turns) > 50
    assert sum(fast("turn").is_valid(load_json(p).data) for p in turns) == len(turns)


@pytest.mark.parametrize("game", ["china-war-1980", "red-winter"])
def test_module_status_schemas_agree(game):
    checker = load_module(game).status_checker
    assert isinstance(checker, schemas.Checker)
    samples = [load_json(p).data for p in data_dir("samples").rglob("*.json")]
    statuses = [d["status"] for d in samples if isinstance(d, dict) and "status" in d] + [{}, {"x": 1}, [], None, {"pacified": [1]}]
    for status in statuses:
        assert checker.fast.is_valid(status) == checker.slow.is_valid(status), status


# --- mutations ------------------------------------------------------------------------------------------
def _paths(value: object, here: tuple = ()) -> list[tuple]:
    """Every place in ``value`` (as a tuple of keys and indexes), the root included."""
    found = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*here, key))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            found += _paths(item, (*here, n))
    return found


SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 100), st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "soviet", "movement", "2604", "x\n", "A", "1/2", "3-1", "2d6", "SOV-TK-XX-1-02", "é"]),
    st.text(max_size=8),
)  # fmt: skip
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)
TURNS = [p for p in FILES if "samples" in p.parts and p.name != "expected.json"]


def mutate(data: object, draw) -> object:
    value = copy.deepcopy(data)
    places = _paths(value)
    for _ in range(draw(st.integers(1, 3))):
        place = draw(st.sampled_from(places))
        if not place:
            continue
        parent = value
        try:
            for key in place[:-1]:
                parent = parent[key]
            key = place[-1]
            how = draw(st.sampled_from(["replace", "delete", "add", "copy"]))
            if how == "replace":
                parent[key] = draw(VALUES)
            elif how == "delete":
                del parent[key]
            elif how == "add" and isinstance(parent, dict):
                parent[draw(st.sampled_from(["note", "extra", "side", "roll", "path", "odds", "move", "phase", "x"]))] = draw(VALUES)
            elif how == "copy":  # a value from elsewhere in the file: right shape, wrong place
                other = draw(st.sampled_from(places))
                source = value
                for k in other:
                    source = source[k]
                parent[key] = copy.deepcopy(source)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation moved this place
    return value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_samples_get_the_same_verdict_from_both(data):
    path = data.draw(st.sampled_from(TURNS))
    value = mutate(load_json(path).data, data.draw)
    for name in ("turn", "state", "scenario"):
        fast_says, slow_says = verdicts(name, value)
        assert fast_says == slow_says, f"{path.name} mutated, {name}: jsonschema-rs {fast_says}, jsonschema {slow_says}: {value!r:.400}"


def test_a_final_newline_breaks_an_anchored_pattern_for_both():
    """ECMA-262's ``$`` is the end of the text; Python's also matches before a final newline."""
    checker = schemas.Checker({"type": "string", "pattern": "^[a-z][a-z0-9_]*$"})
    assert (checker.fast.is_valid("soviet"), checker.slow.is_valid("soviet")) == (True, True)
    assert (checker.fast.is_valid("soviet\n"), checker.slow.is_valid("soviet\n")) == (False, False)
    assert "\\Z" in str(schemas.registry().contents(f"{schemas.SCHEMA_BASE}module.schema.json"))
