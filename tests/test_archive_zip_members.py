"""A game zip with an encrypted member, or one that needs a newer zip version, is refused in one line."""

from __future__ import annotations

import struct
import zipfile

from archive_support import run


def _zip_with(tmp_path, patch) -> object:
    path = tmp_path / "game.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("t1.json", '{"module": "china-war-1980"}')
    data = bytearray(path.read_bytes())
    patch(data)
    path.write_bytes(bytes(data))
    return path


def _set_central(data: bytearray, offset: int, fmt: str, value: int) -> None:
    central = data.find(b"PK\x01\x02")
    struct.pack_into(fmt, data, central + offset, value)


def test_encrypted_member(capsys, tmp_path):
    path = _zip_with(tmp_path, lambda d: _set_central(d, 8, "<H", 0x1))  # general purpose flag: encrypted
    code, out, err = run(capsys, "archive", "--db", tmp_path / "a.sqlite", "add", path)
    assert code == 2 and out == "" and "encrypted" in err and err.count("\n") == 1
    assert not (tmp_path / "a.sqlite").exists()


def test_member_needing_a_newer_zip_version(capsys, tmp_path):
    path = _zip_with(tmp_path, lambda d: _set_central(d, 6, "<H", 63))  # version needed to extract: 6.3
    code, _, err = run(capsys, "archive", "--db", tmp_path / "a.sqlite", "add", path)
    assert code == 2 and "zip version 6.3" in err
