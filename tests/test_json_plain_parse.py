"""The plain parse (dicts made by the parser, duplicate keys found by counting colons) gives what the careful
parse gives, value or refusal, whatever the text: a key written twice is never let through."""

from __future__ import annotations

import json
import random

import pytest

from pbem.model import jsonsource
from pbem.model.errors import PbemError
from pbem.model.jsonsource import parse_json


def _outcome(parse, text: str):
    try:
        return ("ok", parse(text, "t.json").data)
    except PbemError as error:
        return ("refused", str(error))


def _careful(text: str, file: str):
    return jsonsource._parse_careful(text, file)


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1, "a": 2}',
        '{"a": 1, "a": "x:y"}',  # the colon in a string makes up for the lost pair's
        '{"a": 1, "a": 2, "b": "\\u003a"}',  # an escaped colon in a value makes up for the lost pair's
        '{"a": 1, "a": 2, "\\u003A": 3, "c": "::"}',
        '{"x": {"k": [1, {"k": 1, "k": 1}]}, "n": ":"}',
        '{"a": "::", "a": ":"}',
    ],
)
def test_a_key_written_twice_is_refused_whatever_the_colons(text):
    with pytest.raises(PbemError, match="appears twice in one object"):
        parse_json(text, "t.json")
    assert jsonsource._parse_plain(text) is jsonsource._UNSURE
    assert _outcome(parse_json, text) == _outcome(_careful, text)


@pytest.mark.parametrize(
    "text",
    ['{"note": "turn 1: go", "a": [1, {"odds": "3:1"}]}', '{"a": "\\u003a"}', '{}', '[]', '"a:b"', "3",
     '{"a" : {"b": {}}}', '{\n "a"\t:\r\n ["x"]}'],
)
def test_a_text_without_duplicates_is_parsed_plainly(text):
    assert jsonsource._parse_plain(text) == json.loads(text)
    assert _outcome(parse_json, text) == _outcome(_careful, text) == ("ok", json.loads(text))


def test_a_string_ending_a_colon_after_a_quote_is_parsed_carefully():
    text = '{"a": "x\\":"}'  # the quote and colon inside the string look like the end of a key
    assert jsonsource._parse_plain(text) is jsonsource._UNSURE
    assert _outcome(parse_json, text) == ("ok", {"a": 'x":'})


def _random_text(rng: random.Random, depth: int = 0) -> str:
    """A JSON-like text with keys drawn from few names (so some repeat), colons in strings, escapes, and now and
    then a fault (a bad number, NaN, deep nesting, a lone surrogate, a syntax error)."""
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        return rng.choice(['"a"', '":"', '"x:y"', '"\\u003a"', '"\\u003A:"', "1", "2.5", "null", "true", "9007199254740993",
                           "NaN", '"\\ud800"', "[" * 70 + "]" * 70, "1e400", '"ok"', "-0", "{,}"])
    if roll < 0.65:
        members = []
        for _ in range(rng.randint(0, 4)):
            key = rng.choice(['"a"', '"b"', '"c:d"', '"\\u003a"', '":"', '"a"'])
            members.append(f"{key}: {_random_text(rng, depth + 1)}")
        return "{" + ", ".join(members) + "}"
    return "[" + ", ".join(_random_text(rng, depth + 1) for _ in range(rng.randint(0, 4))) + "]"


def test_the_plain_parse_agrees_with_the_careful_one_on_random_texts():
    rng = random.Random(31)
    refused = duplicates = 0
    for _ in range(4000):
        text = _random_text(rng)
        outcome = _outcome(parse_json, text)
        assert outcome == _outcome(_careful, text), text
        refused += outcome[0] == "refused"
        duplicates += "appears twice" in str(outcome[1])
    assert refused > 500 and duplicates > 200  # the texts did put the refusals to the test


def test_as_many_keys_as_colons_is_told_in_one_count(monkeypatch):
    """A text whose every colon is a key's (a state file) needs no finer count; one with a colon in a string does."""
    asked: list[str] = []
    real = jsonsource._pairs_written_at_most
    monkeypatch.setattr(jsonsource, "_pairs_written_at_most", lambda text, colons: asked.append(text) or real(text, colons))
    state = '{"units": [{"id": "A-1", "at": "Paris"}, {"id": "B-2", "at": "Metz"}], "status": {"vp": 10}}'
    assert jsonsource._parse_plain(state) == json.loads(state) and asked == []
    turn = '{"note": "turn 1: go", "actions": [{"move": "A-1", "path": ["Paris", "Metz"]}]}'
    assert jsonsource._parse_plain(turn) == json.loads(turn) and asked == [turn]
    twice = '{"note": "x", "note": "turn 1: go"}'  # as many colons as pairs written, one key lost
    assert jsonsource._parse_plain(twice) is jsonsource._UNSURE and asked == [turn, twice]
