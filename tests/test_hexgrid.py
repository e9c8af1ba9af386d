"""Hex geometry: labels round-trip, neighbours are at distance 1, printed offsets match the picture."""

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.model import hexgrid
from pbem.model.hexgrid import DIRECTIONS, Hex, HexGridSpec, column_letters, column_number, line, opposite

hexes = st.builds(Hex, st.integers(-50, 50), st.integers(-50, 50))
specs = st.builds(
    HexGridSpec,
    label=st.sampled_from(["CCRR", "CCCRRR", "letter-number"]),
    first_column=st.integers(1, 5),
    columns=st.integers(1, 30),
    first_row=st.integers(1, 5),
    rows=st.integers(1, 30),
    orientation=st.sampled_from(["flat", "pointy"]),
    shifted=st.sampled_from(["odd", "even"]),
)


def test_doctests():
    assert doctest.testmod(hexgrid).failed == 0


@given(specs, st.data())
def test_labels_round_trip(spec, data):
    column = data.draw(st.integers(spec.first_column, spec.first_column + spec.columns - 1))
    row = data.draw(st.integers(spec.first_row, spec.first_row + spec.rows - 1))
    h = spec.to_hex(column, row)
    assert spec.to_offset(h) == (column, row)
    assert spec.parse(spec.label_of(h)) == h
    assert spec.contains(h)


@given(hexes, hexes)
def test_distance_is_a_metric(a, b):
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)


@given(hexes)
def test_neighbours_are_adjacent_and_opposites_cancel(h):
    for index, n in enumerate(h.neighbours()):
        assert h.distance(n) == 1
        assert n.direction_to(h) == opposite(index)
    assert len(set(h.neighbours())) == 6


@given(hexes, hexes)
def test_line_is_connected_and_as_long_as_the_distance(a, b):
    hexes_on_line = line(a, b)
    assert hexes_on_line[0] == a and hexes_on_line[-1] == b
    assert len(hexes_on_line) == a.distance(b) + 1
    assert all(p.distance(q) == 1 for p, q in zip(hexes_on_line, hexes_on_line[1:]))


def test_flat_even_columns_shifted_down_as_printed():
    # On an SPI-style map with even columns half a hex lower, 0202 touches 0101, 0102, 0301, 0302, 0201, 0203.
    spec = HexGridSpec(label="CCRR", columns=10, rows=10, shifted="even")
    around = {spec.label_of(n) for n in spec.parse("0202").neighbours()}
    assert around == {"0201", "0203", "0102", "0103", "0302", "0303"}
    around_odd = {spec.label_of(n) for n in spec.parse("0303").neighbours()}
    assert around_odd == {"0302", "0304", "0202", "0203", "0402", "0403"}


def test_flat_odd_columns_shifted_down():
    spec = HexGridSpec(label="CCRR", columns=10, rows=10, shifted="odd")
    around = {spec.label_of(n) for n in spec.parse("0303").neighbours()}
    assert around == {"0302", "0304", "0203", "0204", "0403", "0404"}


def test_letter_number_labels():
    spec = HexGridSpec(label="letter-number", columns=24, rows=31, shifted="odd")
    assert spec.label_of(spec.parse("X28")) == "X28"
    assert spec.unformat("a13") == (1, 13)
    assert column_letters(27) == "AA" and column_number("AA") == 27
    with pytest.raises(ValueError):
        spec.unformat("13A")


def test_numeric_label_rejects_wrong_length():
    spec = HexGridSpec(label="CCRR", columns=10, rows=10)
    with pytest.raises(ValueError):
        spec.unformat("101")


def test_directions_are_the_six_unit_vectors():
    assert len(DIRECTIONS) == 6 and all(Hex(0, 0).distance(d) == 1 for d in DIRECTIONS)
