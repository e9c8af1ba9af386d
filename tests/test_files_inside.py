"""``inside``: a file a turn names beside it is let through, or refused, as pathlib's resolve and parents tell it.

The check is made on strings for a file within its folder (every start state is looked for so); anything else is
told by pathlib, as before. Both are compared here with pathlib's verdict on the same paths.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.model import files
from pbem.model.errors import PbemError
from pbem.model.files import inside


def _as_pathlib_tells(path: Path, folder: Path) -> Path:
    """The check as pathlib makes it (pbem's before it was made on strings)."""
    try:
        real = path.resolve(strict=False)
        base = Path(folder).resolve(strict=False)
    except (OSError, RuntimeError):
        raise PbemError.at(path, "is a symbolic link that cannot be resolved (a loop?): refused") from None
    if real != base and base not in real.parents:
        raise PbemError.at(path, f"leads outside its folder {str(folder) or '.'} (a symbolic link?): refused")
    return path


def _outcome(check, path: Path, folder: Path):
    try:
        return ("ok", check(path, folder))
    except PbemError as error:
        return ("refused", str(error))


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A turn's folder ``a`` with files and links, a sibling ``ab`` (its name begins as ``a``'s), and ``outside``."""
    (tmp_path / "a" / "sub").mkdir(parents=True)
    (tmp_path / "ab").mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "a" / "start.json").write_text("{}")
    (tmp_path / "ab" / "start.json").write_text("{}")
    (tmp_path / "outside" / "secret.json").write_text("{}")
    (tmp_path / "a" / "out.json").symlink_to(tmp_path / "outside" / "secret.json")
    (tmp_path / "a" / "sibling.json").symlink_to(tmp_path / "ab" / "start.json")
    (tmp_path / "a" / "in.json").symlink_to(tmp_path / "a" / "sub")
    (tmp_path / "a" / "loop1").symlink_to(tmp_path / "a" / "loop2")
    (tmp_path / "a" / "loop2").symlink_to(tmp_path / "a" / "loop1")
    (tmp_path / "link-to-a").symlink_to(tmp_path / "a")
    monkeypatch.chdir(tmp_path)
    return tmp_path


NAMES = ["start.json", "missing.json", "sub", "in.json", "out.json", "sibling.json", "loop1", "../ab/start.json",
         "../outside/secret.json", "sub/../start.json", "sub/../../ab/start.json", ".", ""]  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("folder", ["a", "link-to-a", "ABSOLUTE"])
def test_inside_tells_as_pathlib_does(tree, name, folder):
    base = tree / "a" if folder == "ABSOLUTE" else Path(folder)
    path = base / name
    assert _outcome(inside, path, base) == _outcome(_as_pathlib_tells, path, base)


def test_a_file_in_the_folder_is_let_through_on_the_strings(tree, monkeypatch):
    """Only a refusal or a root asks pathlib; a file within its folder does not."""
    monkeypatch.setattr(files, "Path", _NoParents)
    assert inside(tree / "a" / "start.json", tree / "a") == tree / "a" / "start.json"
    with pytest.raises(AssertionError, match="pathlib asked"):
        inside(tree / "ab" / "start.json", tree / "a")


class _NoParents(type(Path())):  # type: ignore[misc]
    @property
    def parents(self):
        raise AssertionError("pathlib asked")


def test_a_sibling_whose_name_begins_as_the_folders_is_outside(tree):
    with pytest.raises(PbemError, match="leads outside its folder"):
        inside(tree / "a" / "sibling.json", tree / "a")
    with pytest.raises(PbemError, match="leads outside its folder"):
        inside(tree / "a" / ".." / "ab" / "start.json", tree / "a")


def test_a_loop_of_links_is_refused_as_a_loop(tree):
    with pytest.raises(PbemError, match="cannot be resolved"):
        inside(tree / "a" / "loop1", tree / "a")


def test_the_root_as_folder(tree):
    root = Path(os.sep)
    assert _outcome(inside, root / "etc", root) == _outcome(_as_pathlib_tells, root / "etc", root) == ("ok", root / "etc")
    assert inside(root, root) == root
