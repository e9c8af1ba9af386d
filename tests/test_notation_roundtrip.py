"""Notation round trips: JSON turn data → notation → the same data, on generated turns and on every sample."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.formats.notation import parse_notation, write_notation
from pbem.model.jsonsource import JsonDocument
from pbem.model.module import load_module
from pbem.model.resources import data_dir
from pbem.model.schemas import check, validator

SAMPLES = data_dir("samples") / "china-war-1980"
MODULE = load_module("china-war-1980")
UNITS = sorted(MODULE.units)
HEXES = list(MODULE.map.labels)

# Free text a player may type in a note, a reason or a card; typographic dashes and arrows are left out
# because the reader deliberately turns them into '-' and '>' (docs/notation.md).
_ALPHABET = st.characters(
    codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp", "Zs"), exclude_characters="\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2192\u21d2\u2794\u27a1\u27f6\u21e8\u2b95\u200b\ufeff\u00a0"
)
text = st.lists(st.text(_ALPHABET, min_size=1, max_size=8), min_size=1, max_size=4).map(" ".join)
ident = st.from_regex(r"[a-z][a-z_]{0,12}", fullmatch=True)
# Names of shifts, modifiers, support and declarations: usually identifiers, sometimes words with spaces or keywords.
label = ident | st.from_regex(r"[a-z][a-z ]{0,10}[a-z]", fullmatch=True) | st.sampled_from(["by", "at", "roll", "double", "extended"])
unit = st.sampled_from(UNITS)
hexes = st.sampled_from(HEXES)
units = st.lists(unit, min_size=1, max_size=3, unique=True)
ratio = st.tuples(st.integers(1, 9), st.integers(1, 9)).map(lambda r: f"{r[0]}/{r[1]}")
notes = st.none() | text


def _with_note(action: dict, note: str | None) -> dict:
    return action | ({"note": note} if note is not None else {})


@st.composite
def combat(draw: st.DrawFn) -> dict:
    kind = draw(st.sampled_from(["attack", "overrun"]))
    action: dict = {kind: draw(units), "target": draw(hexes), "roll": draw(st.integers(1, 12)),
                    "result": draw(st.from_regex(r"[0-9A-Z/*-]{1,5}", fullmatch=True))}  # fmt: skip
    optional = {
        "defenders": units, "odds": ratio, "column": ratio, "eliminated": st.lists(unit, max_size=2),
        # An advance is a list of units, or (beyond the target) each unit with the spaces it enters.
        "advance": st.lists(unit, max_size=2) | st.dictionaries(unit, st.lists(hexes, min_size=1, max_size=3), min_size=1, max_size=2),
        "negated": st.lists(unit, min_size=1, max_size=2),
        "declare": st.lists(label, min_size=1, max_size=2), "support": st.dictionaries(label, st.integers(0, 40), min_size=1, max_size=2),
        "shifts": st.dictionaries(label, st.integers(-4, 4), max_size=3),
        "losses": st.fixed_dictionaries({}, optional={"attacker": st.lists(unit, max_size=3), "defender": st.lists(unit, max_size=3)}),
        "retreats": st.dictionaries(unit, st.lists(hexes, min_size=1, max_size=3), max_size=2),
    }  # fmt: skip
    for key in draw(st.sets(st.sampled_from(sorted(optional)))):
        action[key] = draw(optional[key])
    return _with_note(action, draw(notes))


def _one_or_many(values: list[str]) -> str | list[str]:
    return values[0] if len(values) == 1 else values


# One die is a number, several a list (the notation writes both as "roll 3" and "roll 3+4").
roll_value = st.integers(1, 6) | st.lists(st.integers(1, 6), min_size=2, max_size=3)
free_result = st.from_regex(r"[0-9A-Za-z/*-]{1,6}", fullmatch=True) | text


@st.composite
def fire(draw: st.DrawFn) -> dict:
    action: dict = {"fire": draw(units), "target": draw(hexes), "roll": draw(roll_value)}
    optional = {
        "spotter": unit, "result": free_result, "declare": st.lists(label, min_size=1, max_size=2),
        "losses": st.fixed_dictionaries({}, optional={"attacker": st.lists(unit, max_size=3), "defender": st.lists(unit, max_size=3)}),
        "eliminated": st.lists(unit, max_size=2),
    }  # fmt: skip
    for key in draw(st.sets(st.sampled_from(sorted(optional)))):
        action[key] = draw(optional[key])
    return _with_note(action, draw(notes))


# Real orders, and names that collide with keywords or read badly as words, so the writer must fall back to 'Special'.
order = st.sampled_from(["dig_in", "bonfire", "recovery", "night_raid", "move_up", "roll_call", "at", "x1", "a__b", "elimnate"]) | st.from_regex(
    r"[a-z][a-z0-9_]{0,14}", fullmatch=True
)


@st.composite
def special(draw: st.DrawFn) -> dict:
    action: dict = {"special": draw(order)}
    optional = {"units": st.lists(unit, min_size=1, max_size=3), "at": hexes, "roll": roll_value, "result": free_result}
    for key in draw(st.sets(st.sampled_from(sorted(optional)))):
        action[key] = draw(optional[key])
    return _with_note(action, draw(notes))


def _move(moved: list[str], path: list[str], by: str | None, declare: list[str], note: str | None) -> dict:
    return _with_note({"move": _one_or_many(moved), "path": path} | ({"by": by} if by else {}) | ({"declare": declare} if declare else {}), note)

action = st.one_of(
    st.builds(lambda p, s, n: _with_note({"phase": p} | ({"side": s} if s else {}), n), st.sampled_from(["movement", "reaction", "combat", "strategic movement"]), st.sampled_from([None, *MODULE.sides]), notes),
    st.builds(_move, units, st.lists(hexes, min_size=2, max_size=5), st.sampled_from([None, "land", "rail", "air", "sea"]), st.lists(label, max_size=2), notes),
    combat(),
    fire(),
    special(),
    st.builds(lambda u, r, n: _with_note({"eliminate": _one_or_many(u)} | ({"reason": r} if r else {}), n), units, notes, notes),
    *([st.builds(lambda u, b, n: _with_note({"remove": _one_or_many(u), "to": b}, n), units, st.sampled_from(MODULE.boxes), notes)] if "remove" in validator("turn").schema["$defs"] else []),
    st.builds(lambda u, r, n: _with_note({"loss": u} | ({"reason": r} if r else {}), n), unit, notes, notes),
    st.builds(lambda u, h, n: _with_note({"reinforce": _one_or_many(u), "at": h}, n), units, hexes, notes),
    st.builds(lambda u, n: _with_note({"replace": u}, n), unit, notes),
    st.builds(lambda u, a, n: _with_note({"replace": u, "at": a}, n), unit, hexes | st.sampled_from(MODULE.boxes), notes),
    st.builds(lambda c, n: _with_note({"control": c}, n), st.dictionaries(hexes, st.sampled_from(MODULE.sides), min_size=1, max_size=3), notes),
    st.builds(
        lambda p, d, s, v, r, m, n: _with_note({"roll": {"purpose": p, "value": v} | ({"dice": d} if d else {}) | ({"side": s} if s else {}) | ({"result": r} if r else {}) | ({"modifiers": m} if m else {})}, n),
        text.filter(lambda t: not t.startswith('"')), st.sampled_from([None, "1d6", "2d6", "d10"]), st.sampled_from([None, *MODULE.sides]), roll_value, notes, st.dictionaries(ident, st.integers(-3, 3), max_size=2), notes,
    ),
    st.builds(lambda c, u, n: _with_note({"card": c, "use": u}, n), text, text, notes),
    st.builds(lambda c: {"comment": c}, text),
)  # fmt: skip


@st.composite
def turns(draw: st.DrawFn) -> dict:
    data: dict = {"module": "china-war-1980", "turn": draw(st.integers(1, 40)), "side": draw(st.sampled_from(MODULE.sides))}
    start = draw(st.sampled_from(["scenario", "state", "both"]))
    if start in ("scenario", "both"):
        data["scenario"] = "border-war"
    data["start"] = {"state": "turn-2-after.json"} if start == "state" else {"scenario": "border-war"}
    for key in ("player", "note"):
        if draw(st.booleans()):
            data[key] = draw(text)
    data["actions"] = draw(st.lists(action, max_size=8))
    return data


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(turns())
def test_json_to_notation_to_json_is_stable(data):
    check(JsonDocument("generated.json", data, ""), "turn")
    written = write_notation(data)
    document = parse_notation(written, "generated.pbem")
    assert document.data == data, written
    assert write_notation(document.data) == written


SAMPLE_FILES = sorted(
    p for folder in (SAMPLES, SAMPLES.parent / "red-winter") for p in folder.glob("*.json") if p.name != "expected.json" and not p.name.startswith("state-")
)


def _canonical(data: dict) -> dict:
    """The documented canonical forms: the units of an attack, overrun or fire are a list."""
    actions = [a | {k: [a[k]] for k in ("attack", "overrun", "fire") if isinstance(a.get(k), str)} for a in data["actions"]]
    return data | {"actions": actions}


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_sample_round_trips(path):
    data = {k: v for k, v in json.loads(path.read_text()).items() if k != "$schema"}
    written = write_notation(data)
    again = parse_notation(written, path.with_suffix(".pbem")).data
    assert again == _canonical(data), written
    assert write_notation(again) == written


def test_canonical_forms():
    """What the notation cannot tell apart comes back in one canonical form (documented)."""
    data = {"module": "china-war-1980", "turn": 1, "side": "soviet", "start": {"scenario": "border-war"}, "actions": [
        {"phase": "Movement"}, {"move": ["SOV-TK-XX-1-01"], "path": ["3004", "3104"]},
        {"attack": "SOV-TK-XX-1-01", "target": "3005", "odds": "2:1", "roll": 3, "result": "1/1"},
    ]}  # fmt: skip
    again = parse_notation(write_notation(data), "t.pbem").data
    assert again["actions"] == [
        {"phase": "movement"}, {"move": "SOV-TK-XX-1-01", "path": ["3004", "3104"]},
        {"attack": ["SOV-TK-XX-1-01"], "target": "3005", "odds": "2/1", "roll": 3, "result": "1/1"},
    ]  # fmt: skip


def test_a_reason_that_looks_like_a_path_round_trips():
    # Found by the property test: "Eliminate X: 0-0" read back as a move along a path.
    data = {"module": "china-war-1980", "turn": 1, "side": "soviet", "scenario": "border-war", "start": {"scenario": "border-war"},
            "actions": [{"eliminate": "LA-INF-XX-01", "reason": "0-0"}, {"loss": "PLA-INF-XX-1-01", "reason": "2604-2605"}]}  # fmt: skip
    assert parse_notation(write_notation(data), "reason.pbem").data == data
