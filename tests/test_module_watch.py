"""A module is built once in a process and built again when a file it is built from is edited.

A bundled module watches only the files its Module is built from (module.json, the data files and scenarios it
names): its rules code is loaded once a process anyway, and its tools and docs reach no verdict. A module folder
of the user's is watched whole, as its rules code is loaded again with each Module.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from pbem.model import module as modules
from pbem.model.resources import data_dir

# Every file Paths of Glory's Module is built from (module.json names each).
POG_INPUTS = ("module.json", "map.json", "counters.json", "tables.json", "cards.json", "status.schema.json",
              "scenarios/1914.json", "scenarios/1914-historical.json")  # fmt: skip
POG_ELSEWHERE = ("tools/build_map.py", "rules/movement.py", "README.md", "vassal.json", "art.json", "docs/counters.png")


@pytest.fixture
def bundled(tmp_path, monkeypatch):
    """``bundled(name)``: a copy of a bundled module in a modules folder pbem takes for its own, and no module
    remembered in this process."""
    folder = tmp_path / "modules"
    real = modules.data_dir
    monkeypatch.setattr(modules, "data_dir", lambda name: folder if name == "modules" else real(name))
    monkeypatch.setattr(modules, "_CACHE", {})

    def copy(name: str) -> Path:
        shutil.copytree(data_dir("modules") / name, folder / name, ignore=shutil.ignore_patterns("__pycache__"))
        return folder / name

    return copy


def built_from_files(monkeypatch) -> list[Path]:
    """Records each module built (from its files or pbem's cache on disk) from now on."""
    built: list[Path] = []
    real = modules._load_or_reuse
    monkeypatch.setattr(modules, "_load_or_reuse", lambda path, reuse: built.append(path) or real(path, reuse))
    return built


def edit(file: Path) -> None:
    """The file as an editor leaves it: another size, a later modification time."""
    before = file.stat()
    with open(file, "ab") as handle:
        handle.write(b"\n")
    os.utime(file, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))


def test_the_files_a_bundled_module_watches_are_those_it_is_built_from(bundled):
    folder = bundled("paths-of-glory")
    module = modules.load_module_by_id("paths-of-glory")
    assert module.bundled
    assert modules._CACHE[folder.resolve()][0] == tuple(str(folder.resolve() / name) for name in POG_INPUTS)


@pytest.mark.parametrize("name", POG_INPUTS)
def test_an_edited_input_of_a_bundled_module_builds_it_again(name, bundled, monkeypatch):
    folder = bundled("paths-of-glory")
    first = modules.load_module_by_id("paths-of-glory")
    assert modules.load_module_by_id("paths-of-glory") is first
    built = built_from_files(monkeypatch)
    edit(folder / name)
    again = modules.load_module_by_id("paths-of-glory")
    assert again is not first and built == [folder.resolve()]
    assert modules.load_module_by_id("paths-of-glory") is again and len(built) == 1


def test_a_changed_scenario_is_read_again(bundled):
    """A Module keeps what it read of a scenario (its last turn): an edited scenario is a new Module."""
    folder = bundled("paths-of-glory")
    assert modules.load_module_by_id("paths-of-glory").last_turn("1914") == 20
    scenario = json.loads((folder / "scenarios/1914.json").read_text(encoding="utf-8"))
    scenario["last_turn"] = 7
    (folder / "scenarios/1914.json").write_text(json.dumps(scenario), encoding="utf-8")
    assert modules.load_module_by_id("paths-of-glory").last_turn("1914") == 7


def test_a_scenario_file_made_later_builds_it_again(bundled, monkeypatch):
    folder = bundled("paths-of-glory")
    moved = folder / "scenarios/1914-historical.json"
    moved.rename(folder / "kept.json")
    first = modules.load_module_by_id("paths-of-glory")
    (folder / "kept.json").rename(moved)
    assert modules.load_module_by_id("paths-of-glory") is not first


@pytest.mark.parametrize("name", POG_ELSEWHERE)
def test_an_edit_elsewhere_in_a_bundled_module_keeps_it_and_its_verdict(name, bundled, monkeypatch, pbem):
    folder = bundled("paths-of-glory")
    turn = next(p for p in sorted((data_dir("samples") / "paths-of-glory").glob("*.json")) if "actions" in json.loads(p.read_text(encoding="utf-8")))
    before = pbem("check", turn, "--format", "json")
    first = modules.load_module_by_id("paths-of-glory")
    built = built_from_files(monkeypatch)
    edit(folder / name)
    assert modules.load_module_by_id("paths-of-glory") is first and built == []
    after = pbem("check", turn, "--format", "json")
    assert before.code in (0, 1) and (after.code, after.out, after.err) == (before.code, before.out, before.err)


def test_module_json_edited_while_its_files_are_listed_is_read_again(bundled, monkeypatch):
    folder = bundled("paths-of-glory")
    real = modules._watched

    def listed_then_edited(path: Path):
        found = real(path)
        edit(folder / "module.json")
        return found

    monkeypatch.setattr(modules, "_watched", listed_then_edited)
    first = modules.load_module_by_id("paths-of-glory")
    monkeypatch.setattr(modules, "_watched", real)
    assert modules.load_module_by_id("paths-of-glory") is not first


@pytest.mark.parametrize("name", ["rules/__init__.py", "tools/build_map.py"])
def test_a_module_folder_of_the_users_is_watched_whole(name, tmp_path, monkeypatch):
    folder = tmp_path / "mine" / "paths-of-glory"
    shutil.copytree(data_dir("modules") / "paths-of-glory", folder, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(modules, "_CACHE", {})
    first = modules.load_module(folder)
    assert not first.bundled and modules._CACHE[folder.resolve()][0] is None
    assert modules.load_module(folder) is first
    edit(folder / name)
    assert modules.load_module(folder) is not first


def test_a_module_named_by_id_is_found_as_pathlib_finds_it(tmp_path, monkeypatch):
    """A folder on PBEM_MODULE_PATH comes before the bundled one; a module.json that is a folder is no module."""
    extra = tmp_path / "extra"
    (extra / "paths-of-glory" / "module.json").mkdir(parents=True)
    shutil.copytree(data_dir("modules") / "no-retreat", extra / "no-retreat", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setenv("PBEM_MODULE_PATH", str(extra))
    monkeypatch.setattr(modules, "_CACHE", {})
    assert modules.load_module_by_id("no-retreat").path == (extra / "no-retreat").resolve()
    assert modules.load_module_by_id("paths-of-glory").path == (data_dir("modules") / "paths-of-glory").resolve()
    assert modules._is_file(str(extra / "no-retreat" / "module.json"))
    assert not modules._is_file(str(extra / "paths-of-glory" / "module.json"))
    assert not modules._is_file(str(extra / "none" / "module.json")) and not modules._is_file("a\x00b")


def test_the_first_module_built_in_a_process_freezes_what_lives_once(monkeypatch):
    calls: list[str] = []

    class Collector:
        def collect(self) -> None:
            calls.append("collect")

        def freeze(self) -> None:
            calls.append("freeze")

    monkeypatch.setattr(modules, "gc", Collector())
    monkeypatch.setattr(modules, "_frozen", False)
    monkeypatch.setattr(modules, "_CACHE", {})
    modules.load_module_by_id("no-retreat")
    assert calls == ["collect", "freeze"]
    modules.load_module_by_id("no-retreat")
    modules.load_module_by_id("china-war-1980")
    assert calls == ["collect", "freeze"]


def test_a_new_process_freezes_at_its_first_module(tmp_path):
    import subprocess
    import sys

    script = ("import gc; from pbem.model.module import load_module_by_id; assert gc.get_freeze_count() == 0; "
              "m = load_module_by_id('no-retreat'); assert gc.get_freeze_count() > 0; print(m.id)")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert (done.returncode, done.stdout) == (0, "no-retreat\n"), done.stderr
