"""`pbem check` given a turn for another game, or a file that is no turn at all, says so in one line."""

from __future__ import annotations

import zipfile

import pytest

from test_cli_errors import check_fails


@pytest.mark.parametrize("name", ["illegal-6.12-mp-overrun.json", "illegal-6.12-mp-overrun.pbem"])
def test_a_turn_for_another_game(pbem, samples, tmp_path, name):
    out = tmp_path / "next.json"
    result = pbem("check", samples / name, "--module", "red-winter", "--write-state", out)
    assert result.code == 2 and not out.exists()
    (line,) = result.err.strip().splitlines()
    assert "this turn is for china-war-1980, not red-winter" in line and name in line
    assert "unknown unit" not in line


def test_the_same_module_given_explicitly_is_fine(pbem, samples):
    assert pbem("check", samples / "illegal-6.12-mp-overrun.json", "--module", "china-war-1980").code == 1


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [
        ("turn.json", b"\x89PNG\r\n\x1a\n" + b"\0" * 32, "a PNG picture, not a turn"),
        ("map.jpg", b"\xff\xd8\xff\xe0" + b"\0" * 32, "a JPEG picture, not a turn"),
        ("sheet.pdf", b"%PDF-1.7\n", "a PDF document"),
        ("game.db", b"SQLite format 3\x00" + b"\0" * 84, "pbem archive list"),
        ("turn.json", b"!VCSK" + b"\0" * 8, "savedGame: obfuscated data"),  # read as VASSAL's, whatever its name
        ("game.vmod", b"PK\x03\x04" + b"\0" * 26, "pbem vassal info"),
    ],
)
def test_a_file_that_is_no_turn(pbem, tmp_path, name, content, expected):
    path = tmp_path / name
    path.write_bytes(content)
    check_fails(pbem, tmp_path, path, expected)


def test_a_zip_without_a_saved_game_is_pointed_at_vassal_info(pbem, tmp_path):
    # A save or log is known by its savedGame member whatever its name; a zip without one is no turn.
    path = tmp_path / "game.json"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("savedata", "!VCSK")
    check_fails(pbem, tmp_path, path, "not a VASSAL save or log", "pbem vassal info")
