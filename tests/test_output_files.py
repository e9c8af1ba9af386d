"""Files pbem writes get the permissions the user's umask gives (not a temporary file's 0600), keep those of a
file they replace, and never follow or replace a symbolic link, a folder or a device."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pbem.model.files import umask, write_atomic
from pbem.model.resources import data_dir

SAMPLE = data_dir("samples") / "china-war-1980" / "illegal-6.12-mp-overrun.json"
LEGAL = data_dir("samples") / "china-war-1980" / "legal-04-full-game-turn.pbem"


@pytest.fixture
def user_umask():
    """The test runs under umask 027 (group may read, others nothing), restored after."""
    old = os.umask(0o027)
    try:
        yield 0o027
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_umask_is_read_without_changing_it(user_umask):
    assert umask() == 0o027
    assert umask() == 0o027


def test_every_file_pbem_writes_gets_the_umask_permissions(pbem, tmp_path, user_umask):
    expected = 0o666 & ~user_umask  # 0640
    written = {
        "state": (["check", SAMPLE, "--write-state", tmp_path / "after.json"], 1),
        "png": (["art", "turn", SAMPLE, "--out", tmp_path / "turn.png", "--hex-size", "10"], 1),
        "map": (["art", "map", "china-war-1980", "--out", tmp_path / "map.png", "--hex-size", "6"], 0),
        "pdf": (["art", "sheet", "china-war-1980", "--out", tmp_path / "sheet.pdf"], 0),
        "vmod": (["module", "export", "china-war-1980", "--out", tmp_path / "game.vmod"], 0),
        "html": (["replay", tmp_path / "game", "--out", tmp_path / "game.html"], 0),
        "notation": (["convert", SAMPLE, "--to", "pbem", "--out", tmp_path / "turn.pbem"], 0),
    }
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "t01.pbem").write_bytes(LEGAL.read_bytes())
    for name, (args, code) in written.items():
        result = pbem(*args)
        assert result.code == code, (name, result.err)
        option = "--out" if "--out" in args else "--write-state"
        out = Path(args[args.index(option) + 1])
        assert mode(out) == expected, (name, oct(mode(out)))
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # no temporary file left behind


def test_a_replaced_file_keeps_its_permissions(tmp_path, user_umask):
    target = tmp_path / "after.json"
    target.write_text("{}")
    target.chmod(0o600)  # the player keeps this one private
    write_atomic(target, "{\"a\": 1}")
    assert mode(target) == 0o600 and target.read_text() == "{\"a\": 1}"


def test_a_link_a_folder_or_a_device_is_never_written_through_or_replaced(pbem, tmp_path):
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("keep me")
    link = tmp_path / "after.json"
    link.symlink_to(elsewhere)
    result = pbem("check", SAMPLE, "--write-state", link)
    assert result.code == 2 and "symbolic link" in result.err and result.out == ""
    assert link.is_symlink() and elsewhere.read_text() == "keep me"
    folder = tmp_path / "folder"
    folder.mkdir()
    result = pbem("check", SAMPLE, "--write-state", folder)
    assert result.code == 2 and folder.is_dir() and result.out == ""
    result = pbem("check", SAMPLE, "--write-state", "/dev/null")
    assert result.code == 2 and "not a regular file" in result.err and result.out == ""
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    result = pbem("convert", SAMPLE, "--to", "pbem", "--out", link)
    assert result.code == 2 and elsewhere.read_text() == "keep me"
