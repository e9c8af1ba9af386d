"""pbem's cache of built modules: used when the files are the ones it was built from, and never otherwise.

A hit must give the very module a fresh load gives; an edited file, another pbem or a damaged entry must
lead to a fresh load; a cache folder that cannot be written must never be an error.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

import pbem
from pbem.model import cache
from pbem.model import module as modules
from pbem.model.errors import PbemError
from pbem.model.resources import data_dir

BUNDLED = ("china-war-1980", "red-winter", "paths-of-glory", "no-retreat")


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    """A cache of this test's own, and no module remembered in this process."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_DIR_ENV, str(folder))
    monkeypatch.delenv(cache.NO_CACHE_ENV, raising=False)
    monkeypatch.setattr(modules, "_CACHE", {})
    return folder


@pytest.fixture
def module_copy(tmp_path):
    """``module_copy(name)``: a copy of a bundled module in a folder of the user's."""

    def copy(name: str) -> Path:
        folder = tmp_path / "mine" / name
        shutil.copytree(data_dir("modules") / name, folder, ignore=shutil.ignore_patterns("__pycache__"))
        return folder

    return copy


def forget() -> None:
    """A new process, as far as modules go: only the cache on disk remembers them."""
    modules._CACHE.clear()


def entries(folder: Path) -> list[Path]:
    return sorted((folder / "modules").glob("*.pickle")) if (folder / "modules").is_dir() else []


def built_from_files(monkeypatch) -> list[Path]:
    """Records each module built from its files (a miss) from now on."""
    built: list[Path] = []
    real = modules._load

    def recording(path: Path):
        built.append(path)
        return real(path)

    monkeypatch.setattr(modules, "_load", recording)
    return built


def same_module(a: modules.Module, b: modules.Module) -> None:
    assert replace(a, status_checker=None) == replace(b, status_checker=None)
    assert getattr(a.map, "hexes", None) == getattr(b.map, "hexes", None)
    assert getattr(a.map, "spec", None) == getattr(b.map, "spec", None)
    assert getattr(a.map, "positions", None) == getattr(b.map, "positions", None)
    assert getattr(a.status_checker, "schema", None) == getattr(b.status_checker, "schema", None)


@pytest.mark.parametrize("name", BUNDLED)
def test_a_hit_gives_the_module_a_fresh_load_gives(name, cache_dir, monkeypatch):
    fresh = modules.load_module(name)
    assert len(entries(cache_dir)) == 1
    forget()
    built = built_from_files(monkeypatch)
    again = modules.load_module(name)
    assert built == [] and again is not fresh
    same_module(again, fresh)
    # The rules build on it (each load runs the rules code again, so the classes are equal by name only).
    from pbem.engine.rulesets import module_ruleset

    assert type(module_ruleset(again)).__qualname__ == type(module_ruleset(fresh)).__qualname__
    if fresh.status_checker is not None:
        assert again.status_checker is not None


def test_each_bundled_sample_gets_the_same_verdict_cold_warm_and_without_cache(cache_dir, monkeypatch, pbem):
    samples = [sorted((data_dir("samples") / name).glob("*.json")) for name in BUNDLED]
    turns = [next(p for p in found if "actions" in json.loads(p.read_text(encoding="utf-8"))) for found in samples]
    for turn in turns:
        cold = pbem("check", turn, "--format", "json")
        forget()
        warm = pbem("check", turn, "--format", "json")
        forget()
        monkeypatch.setenv(cache.NO_CACHE_ENV, "1")
        off = pbem("check", turn, "--format", "json")
        monkeypatch.delenv(cache.NO_CACHE_ENV)
        assert cold.code in (0, 1), cold.err
        assert (cold.code, cold.out, cold.err) == (warm.code, warm.out, warm.err) == (off.code, off.out, off.err)
    assert len(entries(cache_dir)) == len(BUNDLED)


def test_a_module_folder_of_the_users_is_cached_too(cache_dir, module_copy, monkeypatch, pbem):
    folder = module_copy("china-war-1980")
    turn = data_dir("samples") / "china-war-1980" / "legal-04-full-game-turn.json"
    first = pbem("check", turn, "--module", folder)
    assert first.code == 0, first.err
    assert len(entries(cache_dir)) == 1
    forget()
    built = built_from_files(monkeypatch)
    second = pbem("check", turn, "--module", folder)
    assert built == [] and (second.code, second.out) == (first.code, first.out)


@pytest.mark.parametrize("part", ["tables.json", "map.json", "counters.json", "module.json", "status.schema.json"])
def test_an_edited_file_is_read_again(part, cache_dir, module_copy, monkeypatch):
    folder = module_copy("china-war-1980")
    modules.load_module(folder)
    # The same data written another way: the key is the files' bytes, not what pbem makes of them.
    data = json.loads((folder / part).read_text(encoding="utf-8"))
    (folder / part).write_text(json.dumps(data, indent=3), encoding="utf-8")
    forget()
    built = built_from_files(monkeypatch)
    modules.load_module(folder)
    assert built == [folder.resolve()]


def test_a_changed_value_is_seen(cache_dir, module_copy):
    folder = module_copy("china-war-1980")
    assert modules.load_module(folder).tables["militia"]["pop100"] == 1
    tables = json.loads((folder / "tables.json").read_text(encoding="utf-8"))
    tables["militia"]["pop100"] = 7
    (folder / "tables.json").write_text(json.dumps(tables), encoding="utf-8")
    forget()
    assert modules.load_module(folder).tables["militia"]["pop100"] == 7


def test_a_file_made_invalid_is_refused_as_before(cache_dir, module_copy):
    folder = module_copy("china-war-1980")
    modules.load_module(folder)
    map_data = json.loads((folder / "map.json").read_text(encoding="utf-8"))
    map_data["grid"]["rows"] = "many"
    (folder / "map.json").write_text(json.dumps(map_data), encoding="utf-8")
    forget()
    with pytest.raises(PbemError, match="map.json"):
        modules.load_module(folder)


def test_another_pbem_version_builds_again(cache_dir, monkeypatch):
    modules.load_module("red-winter")
    forget()
    monkeypatch.setattr(pbem, "__version__", "999.0")
    built = built_from_files(monkeypatch)
    modules.load_module("red-winter")
    assert len(built) == 1
    assert len(entries(cache_dir)) == 1  # the entry was replaced, not added to


def test_a_moved_rules_package_is_reported_as_before(cache_dir, module_copy):
    folder = module_copy("no-retreat")
    modules.load_module(folder)
    shutil.rmtree(folder / "rules")
    forget()
    with pytest.raises(PbemError, match="no such file or package"):
        modules.load_module(folder)


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"not a pickle at all",
        pickle.dumps(("wrong key", None)),
        pickle.dumps({"a": "dict"}),
        b"\x80\x05\x95",  # a truncated pickle
    ],
)
def test_a_damaged_entry_is_ignored_and_rebuilt(damage, cache_dir, monkeypatch):
    modules.load_module("no-retreat")
    [entry] = entries(cache_dir)
    entry.write_bytes(damage)
    forget()
    built = built_from_files(monkeypatch)
    loaded = modules.load_module("no-retreat")
    assert len(built) == 1 and loaded.id == "no-retreat"
    # ... and written again whole: the next run hits.
    forget()
    modules.load_module("no-retreat")
    assert len(built) == 1


def test_a_planted_entry_cannot_call_anything(cache_dir, monkeypatch, tmp_path):
    modules.load_module("no-retreat")
    [entry] = entries(cache_dir)
    witness = tmp_path / "ran"

    class Planted:
        def __reduce__(self):
            return (os.mkdir, (str(witness),))

    path = modules.module_path("no-retreat").resolve()
    found = modules._inputs(path)
    assert found is not None
    entry.write_bytes(pickle.dumps((cache.key(found[0]), Planted())))
    forget()
    assert modules.load_module("no-retreat").id == "no-retreat"
    assert not witness.exists()


def test_a_cache_folder_that_cannot_be_made_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(cache.CACHE_DIR_ENV, str(blocker / "cache"))
    monkeypatch.setattr(modules, "_CACHE", {})
    assert modules.load_module("china-war-1980").id == "china-war-1980"
    assert blocker.read_text() == "not a folder"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_cache_folder_is_no_error(cache_dir):
    (cache_dir / "modules").mkdir(parents=True)
    os.chmod(cache_dir / "modules", 0o500)
    try:
        assert modules.load_module("china-war-1980").id == "china-war-1980"
        assert entries(cache_dir) == []
    finally:
        os.chmod(cache_dir / "modules", 0o700)


def test_a_failed_write_leaves_no_temporary_file(cache_dir, monkeypatch):
    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    assert modules.load_module("china-war-1980").id == "china-war-1980"
    assert list((cache_dir / "modules").iterdir()) == []


def test_no_cache_writes_nothing(cache_dir, monkeypatch):
    monkeypatch.setenv(cache.NO_CACHE_ENV, "1")
    modules.load_module("paths-of-glory")
    assert not cache_dir.exists()


def test_validate_checks_the_files_whatever_the_cache_holds(cache_dir, monkeypatch, pbem):
    modules.load_module("red-winter")
    built = built_from_files(monkeypatch)
    result = pbem("module", "validate", "red-winter")
    assert result.code == 0, result.err
    assert len(built) == 1


def test_the_key_covers_pbem_python_and_each_input():
    parts = [("module.json", b"{}"), ("map:map.json", b"[]")]
    assert cache.key(parts) == cache.key(list(parts))
    assert cache.key(parts) != cache.key([("module.json", b"{}"), ("map:map.json", b"[ ]")])
    # Names and contents cannot run into each other.
    assert cache.key([("ab", b"c")]) != cache.key([("a", b"bc")])


def test_where_the_cache_lives(monkeypatch, tmp_path):
    monkeypatch.delenv(cache.CACHE_DIR_ENV, raising=False)
    monkeypatch.delenv(cache.NO_CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / "pbem"
    monkeypatch.setenv("XDG_CACHE_HOME", "not/absolute")  # ignored, as the XDG specification says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "pbem"
    monkeypatch.setenv("HOME", "not/absolute")  # never a cache in whatever folder pbem runs in
    assert cache.cache_dir() is None
    monkeypatch.setenv(cache.CACHE_DIR_ENV, str(tmp_path / "mine"))
    assert cache.cache_dir() == tmp_path / "mine"
    monkeypatch.setenv(cache.NO_CACHE_ENV, "0")
    assert cache.cache_dir() == tmp_path / "mine"
    monkeypatch.setenv(cache.NO_CACHE_ENV, "1")
    assert cache.cache_dir() is None
