"""Hostile JSON: numbers no reader agrees on, lone surrogates, files that are not files; one line, exit 2."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.model.errors import PbemError
from pbem.model.jsonsource import parse_json

TURN = {"module": "china-war-1980", "turn": 1, "side": "soviet", "start": {"scenario": "border-war"},
        "actions": [{"phase": "movement"}, {"move": "SOV-TK-XX-1-02", "path": ["2604", "2605"], "note": "fine"}]}  # fmt: skip


def one_line_exit_2(result, *expected):
    lines = result.err.strip().splitlines()
    assert result.code == 2 and len(lines) == 1, result.err
    assert "Traceback" not in result.err
    for text in expected:
        assert text in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("number", ["9" * 4301, "-" + "1" * 10000, "9007199254740993", "1e999", "-1e400", "1e300", "NaN", "Infinity", "-Infinity"])
def test_numbers_out_of_range_are_refused_where_they_stand(pbem, tmp_path, number):
    text = json.dumps(TURN, indent=1).replace('"turn": 1', f'"turn": {number}')
    turn = tmp_path / "turn.json"
    turn.write_text(text)
    line = one_line_exit_2(pbem("check", turn), str(turn) + ":3:", "out of range")
    assert len(line) < 300  # a 10,000-digit number is not echoed whole


@pytest.mark.parametrize("turn", [1000, 2**31])
def test_a_turn_number_past_any_game_is_refused_before_anything_is_written(pbem, tmp_path, turn):
    """A turn number the written state could not hold (the modules' records of turns go to 1000) is the file's
    fault, at /turn, not pbem's when it writes the state (the fuzz harness found exit 3 for 2**31). A file may end
    in the next turn, so a file's turn stops at 999."""
    data = dict(TURN, turn=turn)
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(data))
    one_line_exit_2(pbem("check", path, "--write-state", tmp_path / "out.json"), "(/turn)", "999")
    assert not (tmp_path / "out.json").exists()


def test_a_state_past_any_game_is_refused(pbem, tmp_path, samples):
    state = json.loads((samples / "state-after-legal-01.json").read_text())
    state["turn"] = 2**31
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    one_line_exit_2(pbem("check", samples / "legal-02-chinese-reply.json", "--state", path), str(path), "(/turn)", "1000")


def test_largest_safe_integer_still_reads():
    assert parse_json('{"n": 9007199254740991, "f": -1.5e3}', "f.json").data == {"n": 2**53 - 1, "f": -1500.0}


@pytest.mark.parametrize("where", ["note", "key", "module"])
def test_lone_surrogates_are_refused_at_read_time(pbem, tmp_path, where):
    text = json.dumps(TURN, indent=1)
    if where == "note":
        text = text.replace('"fine"', '"fine \\ud800"')
    elif where == "key":
        text = text.replace('"note"', '"\\udc00note"')
    else:
        text = text.replace('"china-war-1980"', '"china\\ud83d"')
    turn = tmp_path / "turn.json"
    turn.write_text(text)
    for args in (["check", turn], ["convert", turn, "--to", "pbem"], ["convert", turn, "--to", "json", "--out", tmp_path / "o.json"]):
        one_line_exit_2(pbem(*args), str(turn), "lone UTF-16 surrogate")
    assert not (tmp_path / "o.json").exists()


def test_surrogate_pairs_and_escaped_backslashes_are_fine():
    data = parse_json('{"a": "\\ud83d\\ude00", "b": "\\\\ud800"}', "f.json").data
    assert data == {"a": "\U0001F600", "b": "\\ud800"}


def test_lone_surrogate_in_a_state(pbem, tmp_path, samples):
    state = json.loads((samples / "state-after-legal-01.json").read_text())
    state["scenario"] = state.get("scenario", "") + "\udc80"
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))  # json.dumps writes the lone surrogate as \udc80
    one_line_exit_2(pbem("check", samples / "legal-02-chinese-reply.json", "--state", path), str(path), "surrogate")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting_for_a_writer(pbem, tmp_path):
    fifo = tmp_path / "turn.json"
    os.mkfifo(fifo)
    one_line_exit_2(pbem("check", fifo), str(fifo), "not a regular file")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_an_endless_device_is_refused(pbem):
    one_line_exit_2(pbem("check", "/dev/zero"), "/dev/zero", "not a regular file")


def test_messages_carry_no_terminal_escapes(pbem, tmp_path):
    data = json.loads(json.dumps(TURN))
    data["actions"][1]["move"] = "\x1b[2J\x1b]0;owned\x07"
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps(data, ensure_ascii=False))
    line = one_line_exit_2(pbem("check", turn), "unknown unit")
    assert "\x1b" not in line and "\x07" not in line


def test_parse_errors_are_pbem_errors():
    with pytest.raises(PbemError):
        parse_json('{"a": ' + "1" * 5000 + "}", "f.json")


def test_command_line_text_that_is_not_utf8_is_refused(pbem, tmp_path, samples):
    name = b"Al\xffce".decode("utf-8", "surrogateescape")  # what Python makes of such bytes in argv
    result = pbem("archive", "--db", tmp_path / "a.db", "add", samples / "legal-01-amur-crossing.json", "--player", f"soviet={name}")
    assert one_line_exit_2(result, "not UTF-8 text", "\\udcff")
    assert not (tmp_path / "a.db").exists()


def test_a_path_that_is_not_utf8_still_works(pbem, tmp_path, samples):
    folder = tmp_path / b"odd\xff".decode("utf-8", "surrogateescape")
    folder.mkdir()
    turn = folder / "t.json"
    turn.write_text((samples / "legal-01-amur-crossing.json").read_text())
    assert pbem("check", turn).code == 0


def test_error_lines_escape_controls_and_bidirectional_overrides():
    from pbem.cli import one_line

    line = one_line("a\nb\x1b[2J \x9b31m \u202eevil \ud800 é")
    assert line == "a b\\x1b[2J \\u009b31m \\u202eevil \\ud800 é"  # a C1 control in JSON's own escape


def test_a_claim_quoted_in_a_violation_carries_no_terminal_escape(pbem, tmp_path, samples):
    turn = json.loads((samples / "mismatch-9.6-wrong-result.json").read_text())
    for action in turn["actions"]:
        if "attack" in action:
            action["result"] = "1/1\x1b[2J"
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(turn))
    for name in ("state-after-legal-01.json",):
        (tmp_path / name).write_text((samples / name).read_text())
    result = pbem("check", path)
    assert result.code == 1 and "\x1b" not in result.out and "\\x1b[2J" in result.out


@pytest.mark.parametrize("field", ["title", "players"])
def test_a_game_manifest_with_a_lone_surrogate_is_refused(pbem, tmp_path, samples, field):
    game = tmp_path / "game"
    game.mkdir()
    (game / "t1.json").write_text((samples / "legal-01-amur-crossing.json").read_text())
    manifest = '{"title": "Amur \\ud800"}' if field == "title" else '{"players": {"soviet": "Al\\udfffce"}}'
    (game / "game.json").write_text(manifest)
    for args in (["archive", "--db", tmp_path / "a.db", "add", game], ["replay", game, "--out", tmp_path / "g.html"]):
        one_line_exit_2(pbem(*args), "game.json", "surrogate")
    assert not (tmp_path / "g.html").exists()


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.floats(-1e15, 1e15, allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=6), children, max_size=5),
    max_leaves=30,
)


def _pointers(value, pointer=""):
    from pbem.model.jsonsource import escape_pointer_token

    yield pointer, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _pointers(item, f"{pointer}/{escape_pointer_token(key)}")
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _pointers(item, f"{pointer}/{n}")


@settings(max_examples=150, deadline=None)
@given(value=_JSON, indent=st.sampled_from([None, 0, 2]), ascii_only=st.booleans())
def test_every_value_is_found_where_it_stands(value, indent, ascii_only):
    text = json.dumps({"doc": value}, indent=indent, ensure_ascii=ascii_only)
    document = parse_json(text, "f.json")
    decoder = json.JSONDecoder()
    for pointer, expected in _pointers(document.data):
        offset = document.offset(pointer)
        assert decoder.raw_decode(text, offset)[0] == expected, pointer


def _depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


_BRACKETY = st.text(alphabet='[]{}"\\ab', max_size=6)
_NESTED = st.recursive(
    st.none() | st.integers() | _BRACKETY,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_BRACKETY, inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(_NESTED, st.integers(0, 6), st.booleans())
def test_nesting_depth_is_counted_as_parsed(value, limit, indent):
    from pbem.model.jsonsource import _depth_exceeds

    text = json.dumps(value, indent=1 if indent else None)
    assert _depth_exceeds(json.loads(text), limit) == (_depth(value) > limit)


@pytest.mark.parametrize("opening", ["[", '{"a": '])
def test_sixty_four_levels_read_and_sixty_five_are_refused(opening):
    closing = "]" if opening == "[" else "}"
    assert parse_json(opening * 64 + "1" + closing * 64, "f.json").data is not None
    with pytest.raises(PbemError, match="nested deeper than 64 levels"):
        parse_json(opening * 65 + "1" + closing * 65, "f.json")
    text = json.dumps({"s": "[" * 100, "n": [[["{" * 80]]]})  # brackets in strings are text, not nesting
    assert parse_json(text, "f.json").data["s"] == "[" * 100


def test_the_first_key_that_comes_twice_is_named_where_it_comes_again():
    text = '{"a": 1,\n "b": {"x": 1, "y": 2,\n  "y": 3, "x": 4}}'
    with pytest.raises(PbemError) as error:
        parse_json(text, "f.json")
    assert str(error.value) == "f.json:3:3: key 'y' appears twice in one object"


def test_a_state_may_be_one_turn_past_the_last_turn_a_file_may_have(samples):
    """A file of turn 999 may end in turn 1000: the state written then is valid, and a turn further is not."""
    from pbem.model import schemas

    state = json.loads((samples / "state-after-legal-01.json").read_text())
    valid = schemas.fast_validator("state").is_valid
    assert valid(dict(state, turn=1000)) and not valid(dict(state, turn=1001))
    assert schemas.fast_validator("turn").is_valid(dict(TURN, turn=999)) and not schemas.fast_validator("turn").is_valid(dict(TURN, turn=1000))
