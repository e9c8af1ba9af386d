"""Hostile numbers in real VASSAL files: absurd grid attributes, boards at row 10**12, coordinates and dice of
thousands of digits.  Each ends in one line and exit 2, or in a report, never in a traceback or a hang.

The files are made at test time from the real zxvt module and log in ../shared/data.
"""

from __future__ import annotations

import json
import re
import time
import zipfile
from pathlib import Path

import pytest

from pbem.formats.vassal.commands import encode_tree
from pbem.formats.vassal.obfuscation import obfuscate
from pbem.formats.vassal.savefile import read_saved_game

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "data" / "vassal-samples"
MODULE = SAMPLES / "zxvt-buildFile.xml"
LOG = SAMPLES / "zxvt-5x5_startup.vlog"
HEX_MODULE = SAMPLES / "tld-buildFile.xml"

pytestmark = pytest.mark.skipif(not MODULE.is_file() or not LOG.is_file() or not HEX_MODULE.is_file(),
                                reason=f"VASSAL samples not found at {SAMPLES}")


def set_attribute(xml: str, element: str, attribute: str, value: str) -> str:
    """``xml`` with ``attribute`` of the first ``element`` (short class name) set to ``value``."""
    pattern = re.compile(r'(<[\w.]*\b' + re.escape(element) + r'\b[^>]*?\s' + re.escape(attribute) + r'=")[^"]*(")')
    changed, count = pattern.subn(lambda m: m.group(1) + value + m.group(2), xml, count=1)
    assert count == 1, f"no {element} {attribute} in the module"
    return changed


def write_log(tokens: list, path: Path) -> Path:
    game = read_saved_game(LOG.read_bytes(), LOG)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("savedGame", obfuscate(encode_tree(tokens).encode("utf-8"), game.obfuscation))
    return path


BAD_VALUES = ["0", "0.0", "-50", "NaN", "Infinity", "-Infinity", "1e300", "1" * 5000]
SQUARE_ATTRIBUTES = [("SquareGrid", "dx"), ("SquareGrid", "dy"), ("SquareGrid", "x0"), ("SquareGrid", "y0"),
                     ("SquareGridNumbering", "hOff"), ("SquareGridNumbering", "vOff"),
                     ("SquareGridNumbering", "hLeading"), ("SquareGridNumbering", "vLeading"),
                     ("Board", "width"), ("Board", "height")]
HEX_ATTRIBUTES = [("HexGrid", "dx"), ("HexGrid", "dy"), ("HexGrid", "x0"), ("HexGridNumbering", "hOff"),
                  ("Zone", "path")]


def sane(element: str, attribute: str, value: str) -> bool:
    """Values a module may really hold for that attribute (only spacings must be positive)."""
    if value in ("0", "0.0"):
        return attribute not in ("dx", "dy")
    if value == "-50":
        return attribute not in ("dx", "dy", "width", "height")
    return False


@pytest.mark.parametrize("value", BAD_VALUES, ids=lambda v: v[:12])
@pytest.mark.parametrize("element, attribute", SQUARE_ATTRIBUTES, ids=lambda a: a)
def test_square_grid_attribute(pbem, tmp_path, element, attribute, value):
    module = tmp_path / "buildFile.xml"
    module.write_text(set_attribute(MODULE.read_text(), element, attribute, value))
    for args in (["vassal", "info", str(module)], ["vassal", "log", str(LOG), "--vassal-module", str(module)]):
        result = pbem(*args)
        if sane(element, attribute, value):
            assert result.code == 0, result.err
            continue
        assert result.code == 2, (result.code, result.err[-300:])
        assert result.out == "" and result.err.count("\n") == 1 and "Traceback" not in result.err
        assert f"{attribute}=" in result.err and "buildFile.xml:" in result.err


@pytest.mark.parametrize("value", ["0", "NaN", "Infinity", "1e300", "1" * 5000], ids=lambda v: v[:12])
@pytest.mark.parametrize("element, attribute", HEX_ATTRIBUTES, ids=lambda a: a)
def test_hex_and_zone_attribute(pbem, tmp_path, element, attribute, value):
    xml = HEX_MODULE.read_text()
    if attribute == "path":
        value = f"0,0;{value},0;0,100"
    module = tmp_path / "buildFile"
    module.write_text(set_attribute(xml, element, attribute, value))
    result = pbem("vassal", "info", str(module))
    if value == "0,0;0,0;0,100" or value == "0" and attribute in ("x0", "hOff"):
        assert result.code == 0, result.err
        return
    if attribute == "path" and not value.split(";")[1].split(",")[0].isdigit():
        assert result.code == 0  # "NaN" or "1e300" is no integer: not a point of the path, as for VASSAL
        return
    assert result.code == 2 and result.err.count("\n") == 1 and "Traceback" not in result.err, result.err[-300:]


def test_board_at_row_ten_to_the_twelve(pbem, tmp_path):
    # The real log with its BoardPicker command moved to row 10**12, and one move there.
    game = read_saved_game(LOG.read_bytes(), LOG)
    tokens = list(game.tokens)
    tokens.insert(2, "Main MapBoardPicker\t5x5\t3\t1000000000000")
    tokens.append("LOG\tM/1571600961012/Main Map/" + "9" * 4000 + "/-" + "9" * 13 + "/null/Main Map/36/236/null/x")
    path = write_log(tokens, tmp_path / "far.vlog")
    start = time.process_time()
    for fmt in ("text", "json"):
        result = pbem("vassal", "log", str(path), "--vassal-module", str(MODULE), "--format", fmt)
        assert result.code == 0, result.err
    assert time.process_time() - start < 10
    assert "offboard" in result.out or '"x": null' in result.out


def test_points_far_from_the_grid_are_offboard(tmp_path, pbem):
    # A board of unknown size reaches everything right of and below it; 10**12 px away is still no name.
    module = tmp_path / "buildFile.xml"
    xml = MODULE.read_text()
    module.write_text(xml)
    game = read_saved_game(LOG.read_bytes(), LOG)
    tokens = list(game.tokens) + ["LOG\tM/1571600961012/Main Map/1000000000000/1000000000000/null/Main Map/36/236/null/x"]
    path = write_log(tokens, tmp_path / "far.vlog")
    result = pbem("vassal", "log", str(path), "--vassal-module", str(module))
    assert result.code == 0 and "-> Main Map 1000000000000,1000000000000" in result.out


def test_dice_report_with_a_huge_number(pbem, tmp_path):
    game = read_saved_game(LOG.read_bytes(), LOG)
    huge = "9" * 5000
    tokens = list(game.tokens) + [f"LOG\tCHAT*** 2d6 = {huge},3 *** &lt;hurufu&gt;",
                                  "LOG\tCHAT*** 2d6 = 4,3 *** &lt;hurufu&gt;",
                                  f"LOG\tMutableProperty\t2d6_result\t1\t{huge}\tModule"]
    path = write_log(tokens, tmp_path / "dice.vlog")
    for fmt in ("text", "json"):
        result = pbem("vassal", "log", str(path), "--format", fmt)
        assert result.code == 0, result.err[-300:]
    steps = json.loads(result.out)["steps"]
    assert steps[6]["events"][0]["type"] == "chat"  # no die shows 5,000 digits: the report stays chat
    assert steps[7]["events"][0]["values"] == [4, 3]
