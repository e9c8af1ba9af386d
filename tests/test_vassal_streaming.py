"""A save's savedGame decoded chunk by chunk gives what decoding it whole gives: the same text and encoding,
or (by reading it whole again) the same error, in the same order as the other members' errors."""

from __future__ import annotations

import io
import random
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.formats.vassal.archive import read_zip
from pbem.formats.vassal.obfuscation import HEADER, Obfuscation, deobfuscate, deobfuscate_chunks, obfuscate
from pbem.formats.vassal.savefile import decode_saved_game, read_saved_game
from pbem.model.errors import PbemError

SAVE_TEXT = "begin_save\x1b\x1bPLAYER\tsecret\tAlice\tRed\x1b+/1/stack/Map;10;20;2\x1bend_save"


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    """``data`` cut at the given offsets (sorted, duplicates and out-of-range ones dropped)."""
    points = sorted({cut for cut in cuts if 0 < cut < len(data)})
    return [data[start:end] for start, end in zip([0, *points], [*points, len(data)])]


def zipped(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(zipfile.ZipInfo(name), content, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


@settings(max_examples=200)
@given(st.binary(max_size=200), st.integers(0, 255), st.sampled_from(["lower", "upper"]),
       st.lists(st.integers(0, 500), max_size=6))
def test_an_obfuscated_stream_in_any_chunks_decodes_as_a_whole(plain, key, case, cuts):
    data = obfuscate(plain, Obfuscation("obfuscated", key, case))
    decoded = deobfuscate_chunks(chunked(data, cuts))
    assert decoded is not None
    assert (bytes(decoded[0]), decoded[1]) == deobfuscate(data)


HEXISH = st.lists(st.sampled_from([b"0", b"7", b"a", b"F", b"c", b"C", b"z", b"!", b"\xff"]), max_size=40).map(b"".join)


@settings(max_examples=300)
@given(st.one_of(HEXISH, HEXISH.map(lambda body: HEADER + body), st.binary(max_size=30)),
       st.lists(st.integers(0, 50), max_size=6))
def test_any_stream_in_any_chunks_decodes_as_a_whole_or_is_left_to_the_whole(data, cuts):
    # Mixed case, odd lengths, non-hex bytes, a missing key or header: either the same result, or None
    # (the caller then decodes the whole, for the same result or error).
    decoded = deobfuscate_chunks(chunked(data, cuts))
    if decoded is not None:
        assert (bytes(decoded[0]), decoded[1]) == deobfuscate(data)


def test_mixed_case_hex_is_told_apart_across_chunks():
    data = HEADER + b"00" + b"ab" * 10 + b"CD" * 10
    decoded = deobfuscate_chunks([data[:20], data[20:]])
    assert decoded is not None and decoded[1].hex_case == "mixed" == deobfuscate(data)[1].hex_case


def _error(action) -> str:
    with pytest.raises(PbemError) as error:
        action()
    return str(error.value)


@pytest.mark.parametrize("garble", [
    lambda data: data[:-1],  # odd number of digits
    lambda data: data[:30] + b"zz" + data[32:],  # a non-hex byte
    lambda data: b"!VCSK00" + b"ff" * 10,  # hex that is not UTF-8 once decoded
    lambda data: b"!VCSK",  # no key
    lambda data: b"begin_nothing",  # plain, but no command stream
])
def test_a_garbled_saved_game_in_a_zip_fails_as_the_bare_stream_does(garble):
    data = garble(obfuscate(SAVE_TEXT.encode(), Obfuscation("obfuscated", 0x5A, "lower")))
    whole = _error(lambda: decode_saved_game(data, "game.vsav"))
    assert _error(lambda: read_saved_game(zipped({"savedGame": data}), "game.vsav")) == whole


def test_a_garbled_saved_game_still_fails_after_an_oversized_savedata():
    # As when the member was read whole: the savedata bound is checked before the savedGame is decoded.
    data = obfuscate(SAVE_TEXT.encode(), Obfuscation("obfuscated", 0x5A, "lower"))[:-1]
    savedata = random.Random(0).randbytes(1024 * 1024 + 1)  # not compressible: no zip-bomb refusal first
    message = _error(lambda: read_saved_game(zipped({"savedGame": data, "savedata": savedata}), "game.vsav"))
    assert "savedata holds" in message


def test_a_large_save_read_in_chunks_is_the_save_read_whole():
    text = SAVE_TEXT.replace("end_save", "\x1b".join(f"+/{n}/stack/Map;{n};{n};" for n in range(20_000)) + "\x1bend_save")
    data = obfuscate(text.encode(), Obfuscation("obfuscated", 0x21, "upper"))
    game = read_saved_game(zipped({"savedGame": data}), "big.vsav")
    tree, how = decode_saved_game(data, "big.vsav")
    assert len(data) > 1 << 18  # several chunks
    assert (game.tree, game.obfuscation) == (tree, how)


@pytest.mark.parametrize("damage", ["crc", "stream"])
def test_a_damaged_saved_game_member_fails_as_when_read_whole(damage):
    data = obfuscate(SAVE_TEXT.encode() * 50, Obfuscation("obfuscated", 0x5A, "lower"))
    archive = bytearray(zipped({"savedGame": data}))
    info = zipfile.ZipFile(io.BytesIO(bytes(archive))).getinfo("savedGame")
    if damage == "crc":
        archive[info.header_offset + 14] ^= 0xFF  # the local header's CRC; the central one too below
        central = bytes(archive).rindex(b"PK\x01\x02")
        archive[central + 16] ^= 0xFF
    else:
        start = info.header_offset + 30 + len(info.filename)
        archive[start + 40:start + 60] = b"\xff" * 20  # inside the deflate stream
    whole = _error(lambda: read_zip(bytes(archive), "game.vsav").get("savedGame"))
    assert _error(lambda: read_saved_game(bytes(archive), "game.vsav")) == whole
    assert "savedGame" in whole
