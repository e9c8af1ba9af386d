"""A source's line and column are worked out when first read: the same place, text and equality as worked out at once."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from pbem.formats.notation import read_notation  # type: ignore[import-not-found]
from pbem.model.errors import Source
from pbem.model.jsonsource import load_json, parse_json

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
TURNS = sorted(SAMPLES.glob("*/*.json"))


def eager(document, pointer: str) -> Source:
    position = document.position(pointer)
    return Source(document.file, *(position or (None, None)), pointer or "/")


@pytest.mark.parametrize("path", TURNS[:40], ids=lambda p: p.name)
def test_every_action_is_placed_as_if_worked_out_at_once(path):
    document = load_json(path)
    actions = document.data.get("actions", []) if isinstance(document.data, dict) else []
    for pointer in ["", "/module", "/nowhere/7", *(f"/actions/{n}" for n in range(len(actions)))]:
        found, expected = document.source(pointer), eager(document, pointer)
        assert str(found) == str(expected) and found == expected and hash(found) == hash(expected)
        assert repr(found) == repr(expected)


def test_notation_sources_are_placed_in_the_text_the_player_wrote():
    path = next(SAMPLES.glob("china-war-1980/*.pbem"))
    document = read_notation(path)
    for n in range(len(document.data["actions"])):
        assert document.source(f"/actions/{n}") == eager(document, f"/actions/{n}")


def test_a_source_found_later_copies_and_changes_like_any_other():
    document = parse_json(json.dumps({"actions": [{"phase": "movement"}, {"comment": "x"}]}, indent=1), "t.json")
    later = document.source("/actions/1")
    assert dataclasses.replace(later, file="u.json") == Source("u.json", 6, 3, "/actions/1")
    assert later.line == 6 and later.column == 3 and str(later) == "t.json:6:3 (/actions/1)"
    assert Source.found_later("t.json", "/x", lambda pointer: None) == Source("t.json", pointer="/x")
