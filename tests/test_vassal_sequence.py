"""SequenceEncoder escaping, trait chains and command trees: properties against VASSAL's literal reading."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.formats.vassal.commands import AddPiece, Other, _decode_literal, decode_tree, encode_tree, parse_command
from pbem.formats.vassal.sequence import ESC, TAB, _split_chain_slow, join, join_chain, split, split_chain

# Text built from the characters that matter: delimiters, backslashes and quotes.
ALPHABET = st.sampled_from(["a", "b", ";", "/", "\\", "'", TAB, ESC, "x"])
TEXT = st.lists(ALPHABET, max_size=12).map("".join)


def test_split_examples():
    assert split("", ";") == [""]
    assert split("a;", ";") == ["a", ""]
    assert split("a\\;b;c", ";") == ["a;b", "c"]
    assert split("'\\x';y", ";") == ["\\x", "y"]
    assert join(["\\x", "y"], ";") == "'\\x';y"
    assert join([None, "", "z"], ";") == ";;z"


@given(st.lists(TEXT.filter(lambda item: not item.endswith("\\")), min_size=1, max_size=6))
def test_join_then_split_gives_the_items(items):
    # VASSAL cannot carry an item ending in a backslash before a delimiter; everything else survives.
    assert split(join(items, ";"), ";") == items


@given(st.lists(TEXT, min_size=1, max_size=6))
def test_split_then_join_is_stable(items):
    encoded = join(items, ";")
    assert join(split(encoded, ";"), ";") == join(split(join(split(encoded, ";"), ";"), ";"), ";")


@settings(max_examples=150)
@given(st.lists(TEXT, min_size=1, max_size=8))
def test_chain_fast_path_agrees_with_literal_reading(links):
    encoded = join_chain(links)
    assert split_chain(encoded) == _split_chain_slow(encoded, TAB, 10_000)


@given(TEXT)
def test_chain_of_any_text_agrees_with_literal_reading(text):
    assert split_chain(text) == _split_chain_slow(text, TAB, 10_000)


TREES = st.recursive(TEXT.filter(lambda t: ESC not in t), lambda children: st.lists(children, min_size=2, max_size=4),
                     max_leaves=12)


@settings(max_examples=150)
@given(TREES)
def test_tree_reading_agrees_with_literal_reading(tree):
    text = encode_tree(tree)
    assert decode_tree(text) == _decode_literal(text)
    assert encode_tree(decode_tree(text)) == text or "'" in text


@given(st.lists(ALPHABET, max_size=20).map("".join))
def test_any_text_reads_as_vassal_reads_it(text):
    assert decode_tree(text) == _decode_literal(text)



@settings(max_examples=150)
@given(st.lists(TEXT.filter(lambda item: TAB not in item), min_size=1, max_size=30))
def test_chain_of_one_piece_links_agrees_with_literal_reading(links):
    # No link holds the delimiter: the shape of a real piece's state, read on its own fast path.
    encoded = join_chain(links)
    assert split_chain(encoded) == _split_chain_slow(encoded, TAB, 10_000)


def test_chain_of_one_piece_links_keeps_the_link_limit():
    encoded = join_chain(["x"] * 6)
    assert split_chain(encoded, TAB, 5) == ["x"] * 6
    with pytest.raises(ValueError, match="more than 4 links"):
        split_chain(encoded, TAB, 4)


ADD_TEXT = st.lists(st.sampled_from(["a", "/", "\\", "'", "\\/", "x"]), max_size=16).map("".join)


@settings(max_examples=300)
@given(ADD_TEXT)
def test_an_add_command_reads_its_first_three_fields_as_split_does(rest):
    fields = split(rest, "/")
    command = parse_command("+/" + rest)
    if len(fields) >= 3:
        assert command == AddPiece(None if fields[0] == "null" else fields[0], fields[1], fields[2])
    else:
        assert command == Other("+/" + rest)
