"""A game module: map, counters, tables and scenarios as data, plus where the game's rules code is.

A module is a folder with ``module.json`` naming its parts; pbem bundles some in ``modules/`` and a user
may point at a folder of their own (its ``rules.py`` is code the user chose to run, like a plugin).
Every file is checked against its schema and cross-checked before use. The module only names its rules
(``rules_file`` and the factory in it, ``rules_factory``); :mod:`pbem.engine.rulesets` builds them.
"""

from __future__ import annotations

import errno
import gc
import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.model import cache, schemas
from pbem.model.errors import PbemError
from pbem.model.files import read_bytes
from pbem.model.hexgrid import Hex, HexGridSpec
from pbem.model.jsonsource import JsonDocument, load_json
from pbem.model.maps import GameMap, HexMap, PointMap, check_routes_adjacent, load_map
from pbem.model.resources import data_dir
from pbem.model.units import CounterType, Step, UnitDef

RULES_FACTORY = "build_ruleset"  # the function of a module's rules code that builds its ruleset from the module

if TYPE_CHECKING:
    from pbem.model.sequence import Sequence


@dataclass
class Module:
    """A game module as built from its folder: map, counters, tables, cards, scenarios and where its rules are."""

    id: str
    name: str
    version: str
    path: Path
    sides: tuple[str, ...]
    map: GameMap
    counter_types: dict[str, CounterType]
    units: dict[str, UnitDef]
    tables: dict[str, Any]
    scenarios: dict[str, Path]
    boxes: tuple[str, ...] = ("eliminated",)
    cards: dict[str, dict[str, Any]] = field(default_factory=dict)
    markers: dict[str, dict[str, Any]] = field(default_factory=dict)
    nationalities: dict[str, tuple[str, ...]] = field(default_factory=dict)  # other names of a nationality code in unit names
    options: dict[str, Any] = field(default_factory=dict)
    option_choices: dict[str, list[Any]] = field(default_factory=dict)  # options a game may choose, and their values
    metadata: dict[str, Any] = field(default_factory=dict)
    rules_file: Path | None = None  # the game's rules code (a file or a package); None: the kernel's empty ruleset
    rules_factory: str = RULES_FACTORY  # the function in ``rules_file`` that builds the ruleset (called by the engine)
    status_checker: Any = field(default=None, repr=False)  # a validator of a state's ``status``, if the module gives one
    sequence_data: dict[str, Any] | None = None  # ``module.json``'s ``sequence``: the sequence of play as data

    def sequence(self, first: str | None = None) -> "Sequence | None":
        """The module's sequence of play with ``first`` acting first (None if the module declares none)."""
        from pbem.model.sequence import Sequence

        return None if self.sequence_data is None else Sequence(self.sequence_data, self.sides, first)

    def last_turn(self, scenario: str | None) -> int | None:
        """The last game-turn ``scenario`` is played to (its ``last_turn``); None when it gives none, or the module
        has no such scenario. Read once per module."""
        if scenario is None or scenario not in self.scenarios:
            return None
        known = self.__dict__.setdefault("_last_turns", {})
        if scenario not in known:
            from pbem.model.jsonsource import load_json

            value = load_json(self.scenarios[scenario]).data.get("last_turn")
            known[scenario] = value if isinstance(value, int) and not isinstance(value, bool) else None
        return known[scenario]

    def with_options(self, choices: dict[str, Any]) -> "Module":
        """This module with a game's own option choices over its defaults (the same object when they change
        nothing); the engine builds its ruleset once per set of choices."""
        options = self.options | choices
        if options == self.options:
            return self
        key = json.dumps(options, sort_keys=True)
        variants = self.__dict__.setdefault("_variants", {})
        variant = variants.get(key)
        if variant is None:
            variant = replace(self, options=options)
            variants[key] = variant
        return variant

    def check_option_choices(self, choices: Any, document: JsonDocument, pointer: str) -> dict[str, Any]:
        """``choices`` (a game's ``options`` at ``pointer`` of ``document``) as a dict, each a declared option
        of the module (``option_choices`` in module.json) with one of its values; else an input error there."""
        if not isinstance(choices, dict):
            raise document.error(pointer, "options are an object: option name -> the value chosen")
        for name, value in choices.items():
            allowed = self.option_choices.get(name)
            if allowed is None:
                known = ", ".join(sorted(self.option_choices)) or "none"
                raise document.error(f"{pointer}/{name}", f"{self.id} has no option {name!r} a game may choose (it has: {known})")
            if value not in allowed:
                raise document.error(f"{pointer}/{name}", f"option {name!r} is one of {', '.join(map(json.dumps, allowed))}, not {json.dumps(value)[:40]}")
        return dict(choices)

    def failure(self, error: Exception, what: str) -> PbemError:
        """An exception in the rules code of a module folder the user chose, as an input error naming the module
        (and the line of its own code) rather than a crash of pbem."""
        import traceback

        frames = [f for f in traceback.extract_tb(error.__traceback__) if self.path.resolve() in Path(f.filename).resolve().parents]
        where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
        message = str(error).replace("\n", " ")[:120]
        return PbemError.at(self.path, f"{what}: {type(error).__name__} {message}{where}")

    @property
    def bundled(self) -> bool:
        """One of the modules that come with pbem."""
        try:
            return self.path.resolve().parent == data_dir("modules").resolve()
        except PbemError:
            return False

    def unit(self, unit_id: str) -> UnitDef:
        return self.units[unit_id]


MODULE_ID = re.compile(r"[a-z0-9][a-z0-9-]*")


def module_dirs() -> list[Path]:
    """Where module ids are looked up: folders the user lists in ``PBEM_MODULE_PATH``, then pbem's own."""
    extra = [Path(p) for p in os.environ.get("PBEM_MODULE_PATH", "").split(os.pathsep) if p]
    return extra + [data_dir("modules")]


def load_module_by_id(module_id: str) -> Module:
    """The module a *file* names (a turn's header, an archived game): by id only, never by path.

    A module folder holds code (its rules), so only the user chooses one by path (``--module``); a file
    from an opponent can only name a module that is bundled or on the user's ``PBEM_MODULE_PATH``.
    """
    if not isinstance(module_id, str) or not MODULE_ID.fullmatch(module_id) or len(module_id) > 100:  # a received archive may hold NULL
        raise PbemError(f"a file names its module by id (e.g. china-war-1980), not {module_id!r}; give a module folder with --module")
    for folder in module_dirs():
        found = os.path.join(folder, module_id)
        if _is_file(os.path.join(found, "module.json")):
            return _load_folder(found)
    known = ", ".join(sorted({p.name for d in module_dirs() if d.is_dir() for p in d.iterdir() if (p / "module.json").is_file()}))
    raise PbemError(f"no module {module_id!r}: known modules are {known} (add folders with PBEM_MODULE_PATH)")


def module_path(name_or_path: str | Path) -> Path:
    """The folder of a module given by a path, or by the id of a bundled module."""
    candidate = Path(name_or_path)
    if (candidate / "module.json").is_file():
        return candidate
    if candidate.name == "module.json" and candidate.is_file():
        return candidate.parent
    if MODULE_ID.fullmatch(str(name_or_path)):
        for folder in module_dirs():
            if (folder / str(name_or_path) / "module.json").is_file():
                return folder / str(name_or_path)
    known = ", ".join(sorted(p.name for p in data_dir("modules").iterdir() if (p / "module.json").is_file()))
    raise PbemError(f"no module {str(name_or_path)!r}: give a module folder, or one of: {known}")


def _is_file(path: str) -> bool:
    """``Path(path).is_file()`` on a string (a turn file names its module, so this runs for every one): False for a
    missing file or folder, and an error other than those raised as pathlib raises it."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError as error:
        if error.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return False
        raise
    except ValueError:
        return False


# By the module folder's real path: the files watched for an edit (None: the whole folder), how they looked before
# the module was built from them, and the module.
_CACHE: dict[Path, tuple[tuple[str, ...] | None, Any, Module]] = {}


def _signature(path: Path) -> frozenset:
    """What a module folder's files look like on disk: each file's path inside the module, modification time and size
    (``__pycache__`` left out). Taken for a module folder of the user's, whose rules code is loaded again with each
    Module, so an edit anywhere in it may count; os.scandir with paths built as it goes (os.walk with relpath took
    ~2 ms), and a set, in whatever order the folders list their files, instead of a sorted tuple."""
    found: list[tuple[str, int, int]] = []

    def visit(folder: str, prefix: str) -> None:
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            return
        subfolders = []
        for entry in entries:
            try:
                if entry.is_dir():
                    if entry.name != "__pycache__" and not entry.is_symlink():  # as os.walk: linked folders not entered
                        subfolders.append(entry)
                    continue
                info = entry.stat()
            except OSError:
                continue
            found.append((prefix + entry.name, info.st_mtime_ns, info.st_size))
        for entry in subfolders:
            visit(entry.path, prefix + entry.name + os.sep)

    visit(str(path), "")
    return frozenset(found)


def _watched(path: Path) -> tuple[str, ...] | None:
    """The files a bundled module is built from: ``module.json`` first, then the data files and scenarios it names.
    None (watch the whole folder) for a folder of the user's, whose rules code is loaded again with each Module, or
    when module.json does not name its files plainly (loading it then says what is wrong).

    Nothing else in a bundled module's folder reaches the Module: its rules code is loaded once a process whatever
    changes (:func:`pbem.engine.rulesets._rules_code`), and its ``tools/``, ``docs/``, ``vassal.json`` and ``art.json``
    are read by whoever uses them, each time.
    """
    try:
        if path.parent != data_dir("modules").resolve():
            return None
        manifest = json.loads(read_bytes(path / "module.json"))
        named = [manifest[key] for key in _DATA_FILES if key in manifest] + list(manifest.get("scenarios", {}).values())
    except (PbemError, OSError, ValueError, TypeError, AttributeError, RecursionError):
        return None
    if not all(isinstance(relative, str) for relative in named):
        return None
    return (os.path.join(path, "module.json"), *(os.path.join(path, relative) for relative in named))


def _look(folder: str, watched: tuple[str, ...] | None) -> Any:
    """How the watched files look now: each one's modification time, size and inode (None if it cannot be read),
    or the whole ``folder``'s :func:`_signature`."""
    if watched is None:
        return _signature(Path(folder))
    found: list[tuple[int, int, int] | None] = []
    for name in watched:
        try:
            info = os.stat(name)
            found.append((info.st_mtime_ns, info.st_size, info.st_ino))
        except (OSError, ValueError):
            found.append(None)
    return tuple(found)


def load_module(name_or_path: str | Path, *, reuse: bool = True) -> Module:
    """Load and check a module; loaded once per process unless its files change.

    Between processes, the built module is kept in pbem's cache (:mod:`pbem.model.cache`) under the hash of
    the files it came from, so a start reads one file instead of parsing and checking them all again;
    ``reuse=False`` builds and checks it from its files whatever the cache holds.
    """
    return _load_folder(str(module_path(name_or_path)), reuse)


def _load_folder(folder: str, reuse: bool = True) -> Module:
    """The module in ``folder`` (a folder holding a module.json): the one built before in this process while the
    files it was built from look as they did, else built (or read from pbem's cache) again.

    The files are looked at before the module is read from them (module.json first, which names the others), so an
    edit made while it is built shows at the next load.
    """
    real = os.path.realpath(folder)
    path = Path(real)
    cached = _CACHE.get(path)
    if cached is not None and reuse and _look(real, cached[0]) == cached[1]:
        return cached[2]
    manifest = _look(real, (os.path.join(real, "module.json"),))
    watched = _watched(path)
    looks = _look(real, watched)
    if watched is not None and looks[0] != manifest[0]:
        looks = None  # module.json changed while its files were listed: looked at again next time
    module = _load_or_reuse(path, reuse)
    _CACHE[path] = (watched, looks, module)
    _freeze_once()
    return module


_frozen = False  # whether a module load in this process has frozen what lives on (see _freeze_once)


def _freeze_once() -> None:
    """After the first module built in a process: what lives then (the imports, the module) is moved out of the
    cyclic collector's reach, so its full collections no longer walk it (0.4% of the instructions of a Paths of
    Glory replay).

    Once a process, not at each module built, so a long-lived process (the tests, an archive revalidation) pays one
    full collection and leaves to the collector all it makes later. A frozen object is still freed when its last
    reference goes; only a reference cycle among frozen objects that later becomes garbage is never freed, which
    once a process bounds. The collector takes no part in a verdict: nothing in pbem has a ``__del__``, and the one
    weak reference (a game's supply rules telling whether a state is the one they last saw) compares identity only,
    which an object kept alive longer does not change. ``pbem.cli`` freezes the same way before a command runs.
    """
    global _frozen
    if not _frozen:
        _frozen = True
        gc.collect()
        gc.freeze()


# The entries of module.json naming a file the module's data comes from; its rules code is loaded apart.
_DATA_FILES = ("map", "counters", "tables", "cards", "status")
# What a cached module holds besides plain data.
_CACHED_CLASSES = (Module, HexMap, PointMap, HexGridSpec, Hex, CounterType, Step, UnitDef, type(Path()))


def _whole(module: Module) -> bool:
    """Whether a module from the cache has every field this pbem's Module has: an entry pickled by a process
    that ran older code while the files on disk (and so the key) were already new lacks the fields added since
    (found by the fuzz pass, exit 3 where the files give exit 1), and is no entry."""
    import dataclasses

    return all(hasattr(module, f.name) for f in dataclasses.fields(module)) and (
        not dataclasses.is_dataclass(module.map) or all(hasattr(module.map, f.name) for f in dataclasses.fields(module.map)))


def _load_or_reuse(path: Path, reuse: bool) -> Module:
    found = _inputs(path)
    if found is None:  # module.json does not name its files plainly: loading it says what is wrong
        return _load(path)
    inputs, manifest = found
    key = cache.key(inputs)
    if reuse:
        entry = cache.load("modules", str(path), key, _CACHED_CLASSES)
        if isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], Module) and _whole(entry[0]):
            module, status_schema = entry
            module.scenarios, module.rules_file = _places(path, manifest)
            if module.rules_file is None or _is_code(module.rules_file):
                module.status_checker = None if status_schema is None else _checker(status_schema)
                return module
    module = _load(path)
    # The status checker is compiled code, not data: its schema is kept and compiled again on reuse.
    status_schema = getattr(module.status_checker, "schema", None)
    cache.store("modules", str(path), key, (replace(module, status_checker=None), status_schema))
    return module


def _inputs(path: Path) -> tuple[list[tuple[str, bytes]], dict[str, Any]] | None:
    """The name and bytes of module.json and of every data file it names, and its contents; None when it
    cannot be read so (then the module is loaded without the cache, which tells what is wrong)."""
    try:
        text = read_bytes(path / "module.json")
        manifest = json.loads(text)
        inputs = [(str(path), b""), ("module.json", text)]
        for key in _DATA_FILES:
            relative = manifest.get(key)
            if relative is not None:
                inputs.append((f"{key}:{relative}", read_bytes(path / relative)))
    except (PbemError, OSError, ValueError, TypeError, AttributeError, RecursionError):
        return None
    return inputs, manifest


def _places(path: Path, manifest: dict[str, Any]) -> tuple[dict[str, Path], Path | None]:
    """The module's scenario files by id, and its rules code (a file or a package), as module.json names them."""
    scenarios = {scenario_id: _module_file(path, relative) for scenario_id, relative in manifest.get("scenarios", {}).items()}
    rules_file = _module_file(path, manifest["rules"]) if "rules" in manifest else None
    return scenarios, rules_file


def _is_code(rules_file: Path) -> bool:
    return os.path.isfile(rules_file) or os.path.isfile(rules_file / "__init__.py")


def bundled_modules() -> list[Path]:
    """Every module a file may name: the bundled ones and those on ``PBEM_MODULE_PATH``."""
    return sorted(p for d in module_dirs() if d.is_dir() for p in d.iterdir() if (p / "module.json").is_file())


def other_modules(module_id: str) -> Iterator[Module]:
    """Every module a file may name but ``module_id``, each that loads (to tell which game a stray turn is of)."""
    for folder in bundled_modules():
        if folder.name == module_id:
            continue
        try:
            yield load_module_by_id(folder.name)
        except PbemError:
            continue


def _module_file(path: Path, relative: str) -> Path:
    """The file ``module.json`` names, resolved; refused unless it is a usable name inside the module folder."""
    try:
        target = (path / relative).resolve()
        os.stat(target)
    except (FileNotFoundError, NotADirectoryError, PermissionError):
        pass  # reported where the file is read, as for any other input
    except (OSError, ValueError):  # a NUL byte, a name too long, a loop of links
        raise PbemError.at(path / "module.json", f"{relative[:80]!r} is not a file name") from None
    if path.resolve() not in target.parents:
        raise PbemError.at(path / "module.json", f"{relative[:80]!r} lies outside the module folder")
    return target


def _part(path: Path, relative: str, schema: str) -> JsonDocument:
    document = load_json(_module_file(path, relative))
    schemas.check(document, schema)
    return document


def _load(path: Path) -> Module:
    manifest = load_json(path / "module.json")
    schemas.check(manifest, "module")
    data = manifest.data
    map_doc = _part(path, data["map"], "map")
    game_map = load_map(map_doc)
    check_routes_adjacent(map_doc, game_map)
    counters_doc = _part(path, data["counters"], "counters")
    counter_types, units = _load_counters(counters_doc, tuple(data["sides"]))
    tables = _part(path, data["tables"], "tables").data if "tables" in data else {}
    cards = _cards(_part(path, data["cards"], "cards"), units, counter_types, tuple(data["sides"])) if "cards" in data else {}
    scenarios, rules_file = _places(path, data)
    status_checker = _status_checker(path, data["status"]) if "status" in data else None
    if rules_file is not None and not _is_code(rules_file):
        raise manifest.error("/rules", f"rules {data['rules']!r}: no such file or package")
    return Module(
        id=data["id"],
        name=data["name"],
        version=data["version"],
        path=path,
        sides=tuple(data["sides"]),
        map=game_map,
        counter_types=counter_types,
        units=units,
        tables=tables,
        scenarios=scenarios,
        boxes=tuple(data.get("boxes", ["eliminated"])),
        cards=cards,
        markers=dict(counters_doc.data.get("markers", {})),
        nationalities={code: tuple(names) for code, names in counters_doc.data.get("nationalities", {}).items()},
        options=data.get("options", {}),
        option_choices=_option_choices(manifest, data),
        metadata={k: v for k, v in data.items() if k in ("title", "illustrative", "notes", "sources", "publisher")},
        rules_file=rules_file,
        status_checker=status_checker,
        sequence_data=data.get("sequence"),
    )


def _option_choices(manifest: JsonDocument, data: dict[str, Any]) -> dict[str, list[Any]]:
    """The options a game may choose in its own files, each with its allowed values; the default is one of them."""
    choices = data.get("option_choices", {})
    for name, allowed in choices.items():
        if name not in data.get("options", {}):
            raise manifest.error(f"/option_choices/{name}", f"option {name!r} has no default in 'options'")
        if data["options"][name] not in allowed:
            raise manifest.error(f"/options/{name}", f"the default {data['options'][name]!r} is not one of option_choices.{name}")
    return {name: list(allowed) for name, allowed in choices.items()}


def _cards(document: JsonDocument, units: dict[str, UnitDef], types: dict[str, CounterType], sides: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Cards by id, cross-checked: a known side, reinforcements naming known units and counter types."""
    cards = document.data["cards"]
    for card_id, card in cards.items():
        pointer = f"/cards/{card_id}"
        if card["side"] not in sides:
            raise document.error(f"{pointer}/side", f"side {card['side']!r} is not one of {', '.join(sides)}")
        for n, entry in enumerate(card.get("reinforcements", {}).get("units", [])):
            if "unit" in entry and entry["unit"] not in units:
                raise document.error(f"{pointer}/reinforcements/units/{n}", f"unknown unit {entry['unit']!r}")
            if "corps" in entry and entry["corps"] not in types:
                raise document.error(f"{pointer}/reinforcements/units/{n}", f"unknown counter type {entry['corps']!r}")
        for n, need in enumerate(card.get("prerequisites", [])):
            if "card_played" in need and need["card_played"] not in cards:
                raise document.error(f"{pointer}/prerequisites/{n}", f"unknown card {need['card_played']!r}")
    return dict(cards)


def _status_checker(path: Path, relative: str):
    """The validator of the JSON Schema that describes a state's ``status`` (what the rules code reads there)."""
    document = load_json(_module_file(path, relative))
    if isinstance(document.data, dict):
        try:
            return schemas.Checker(document.data)
        except ValueError:
            pass  # not a schema jsonschema-rs compiles: jsonschema says where it is wrong
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    try:
        Draft202012Validator.check_schema(document.data)
    except SchemaError as error:
        raise document.error("/" + "/".join(map(str, error.absolute_path)), f"not a JSON Schema: {error.message[:120]}") from None
    return Draft202012Validator(document.data)


def _checker(schema: Any):
    """The status checker of a schema already found valid (a cached module's), as :func:`_status_checker` made it."""
    if isinstance(schema, dict):
        try:
            return schemas.Checker(schema)
        except ValueError:
            pass
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema)


_TYPE_KEYS = {"name", "side", "nationality", "arm", "size", "quality", "mechanized", "steps", "retreats"}


def _load_counters(document: JsonDocument, sides: tuple[str, ...]) -> tuple[dict[str, CounterType], dict[str, UnitDef]]:
    data = document.data
    types: dict[str, CounterType] = {}
    for type_id, entry in data["counter_types"].items():
        if entry["side"] not in sides + ("neutral",):
            raise document.error(f"/counter_types/{type_id}/side", f"side {entry['side']!r} is not one of {', '.join(sides)}")
        types[type_id] = CounterType(
            id=type_id,
            name=entry.get("name", type_id),
            side=entry["side"],
            nationality=entry["nationality"],
            arm=entry["arm"],
            size=entry["size"],
            quality=entry.get("quality"),
            mechanized=entry["mechanized"],
            steps=tuple(Step(s["attack"], s["defence"], s["move"], s.get("loss")) for s in entry["steps"]),
            retreats=entry.get("retreats", True),
            attributes=dict(entry.get("attributes", {})) | {k: v for k, v in entry.items() if k not in _TYPE_KEYS | {"attributes"}},
        )
    units: dict[str, UnitDef] = {}
    for n, entry in enumerate(data["units"]):
        if entry["id"] in units:
            raise document.error(f"/units/{n}/id", f"unit id {entry['id']!r} is used twice")
        if entry["type"] not in types:
            raise document.error(f"/units/{n}/type", f"unknown counter type {entry['type']!r}")
        units[entry["id"]] = UnitDef(
            entry["id"], types[entry["type"]], entry.get("name", ""), tuple(entry.get("aliases", ()))
        )
    return types, units
