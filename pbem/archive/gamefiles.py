"""A game as the players have it: a folder, a zip or a list of turn files, plus an optional ``game.json``.

``game.json`` (all keys optional) carries what turn files do not::

    {"title": "Amur 1980", "players": {"soviet": "Alice", "chinese": ["Bob", "Chen"]},
     "started": "2024-01-05", "finished": "2024-03-01", "result": "soviet",
     "turns": ["t01.json", "t02.json"], "start_state": "start.json"}

``turns`` fixes the order (otherwise the turns' headers decide: game-turn, then the order of the sides); ``start_state``
overrides the first turn's ``start``. A folder's JSON files without ``actions`` (state files written by
``pbem check``) are not turns: the archive recomputes every state by replaying. Nothing here trusts the
input: names are plain file names, zip members are bounded, every problem is a :class:`PbemError`.
"""

from __future__ import annotations

import datetime
import io
import json
import re
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.archive.safetext import check_text, has_surrogate, printable
from pbem.formats.turnfile import NOTATION_SUFFIXES
from pbem.model.errors import PbemError
from pbem.model.files import MAX_INPUT_BYTES, inside, read_bytes
from pbem.model.jsonsource import JsonDocument, parse_json

MANIFEST = "game.json"
TURN_SUFFIXES = (".json", *NOTATION_SUFFIXES, ".vlog")
DICE_SUFFIX = ".dice"  # a game's dice record (docs/dice.md), kept beside its turn files
MAX_DICE_RECORDS = 16
MAX_TURNS = 2_000  # a long campaign played action round by action round stays far below
MAX_GAME_BYTES = 64 * 1024 * 1024  # all turn files of a game together: time and memory stay bounded
MAX_ZIP_MEMBERS = 20_000
MAX_ZIP_TOTAL = 512 * 1024 * 1024
MAX_ZIP_RATIO = 200
MAX_ZIP_VERSION = 45  # zip 4.5 (ZIP64): what Python's zipfile reads
_PLAIN_NAME = re.compile(r"^[^/\\\x00-\x1f:]{1,200}$")


@dataclass
class TurnFile:
    name: str  # a plain file name, unique in the game
    data: bytes  # exactly as received


@dataclass
class GameInput:
    """What ``archive add`` and ``replay`` read: turn files in order, where the game starts, its metadata."""

    origin: str
    turns: list[TurnFile]
    start_name: str | None = None  # a start state file (plain name) and its bytes, when the game starts from one
    start_data: bytes | None = None
    folder: Path | None = None  # where relative names in the first header resolve (None for a zip)
    metadata: dict[str, Any] = field(default_factory=dict)
    members: dict[str, bytes] = field(default_factory=dict, repr=False)  # other files of a zip, by name
    dice: dict[str, bytes] = field(default_factory=dict, repr=False)  # the game's dice records, by plain name
    ordered: bool = False  # the player gave the order (files listed, or game.json's "turns"); else headers decide
    whole: bool = False  # a game folder or zip (not turn files named one by one): its state files are never a start

    def fetch(self, relative: str, pointer_file: str) -> tuple[str, bytes]:
        """A file named in the first turn's header (its start state): its plain name and bytes."""
        if self.folder is not None:
            path = inside(self.folder / relative, self.folder)
            return path.name, read_bytes(path)
        name = relative.rsplit("/", 1)[-1]
        if relative != name or name not in self.members:
            raise PbemError.at(pointer_file, f"the start state {relative!r} is not in {self.origin}", pointer="/start/state")
        return name, self.members[name]


def plain_name(name: str, where: str) -> str:
    """``name`` if it is a plain file name (no folder, no control characters), else a PbemError."""
    if not _PLAIN_NAME.match(name) or name in (".", "..") or name.startswith(" ") or name.endswith(" ") or has_surrogate(name):
        raise PbemError.at(where, f"{printable(name)!r} is not a plain file name")
    return name


def natural_key(name: str) -> list:
    return [int(part) if part.isdigit() else part.casefold() for part in re.split(r"(\d+)", name)]


def read_game(paths: list[Path]) -> GameInput:
    """The game in ``paths``: one folder, one zip, or turn files in play order (``game.json`` may be among them)."""
    if not paths:
        raise PbemError("give a game folder, a zip, or turn files")
    if len(paths) == 1 and paths[0].is_dir():
        return _read_folder(paths[0])
    if len(paths) == 1 and paths[0].suffix.lower() == ".zip":
        return _read_zip(paths[0])
    manifest = None
    turns: list[TurnFile] = []
    dice: dict[str, bytes] = {}
    seen: set[str] = set()
    for path in paths:
        if path.is_dir():
            raise PbemError.at(path, "is a folder: give either one game folder or turn files")
        data = read_bytes(path)
        if path.suffix.lower() == DICE_SUFFIX:
            dice[plain_name(path.name, str(path))] = data
            continue
        if path.name == MANIFEST:
            manifest = _manifest(data, str(path))
            continue
        name = plain_name(path.name, str(path))
        if name in seen:
            raise PbemError.at(path, f"two turn files are named {name!r}; the archive keeps file names")
        seen.add(name)
        turns.append(TurnFile(name, data))
    game = GameInput(origin=str(paths[0]), turns=turns, folder=paths[0].parent, dice=dice, ordered=True)
    if manifest is not None:
        _apply_manifest(game, manifest, {t.name: t.data for t in turns}, reorder=True)
    return _checked(game)


def _read_folder(folder: Path) -> GameInput:
    files: dict[str, bytes] = {}
    for path in sorted(folder.iterdir()):
        if path.name.startswith(".") or not path.is_file():
            continue
        if path.name == MANIFEST or path.suffix.lower() in (*TURN_SUFFIXES, DICE_SUFFIX):
            files[path.name] = read_bytes(inside(path, folder))
    game = GameInput(origin=str(folder), turns=[], folder=folder, whole=True)
    _collect(game, files, str(folder))
    return _checked(game)


def _read_zip(path: Path) -> GameInput:
    data = read_bytes(path, MAX_ZIP_TOTAL)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except (zipfile.BadZipFile, ValueError, NotImplementedError, EOFError, OSError) as error:
        raise PbemError.at(path, f"not a readable zip file: {error}") from None
    if len(infos) > MAX_ZIP_MEMBERS:
        raise PbemError.at(path, f"the zip holds more than {MAX_ZIP_MEMBERS} files")
    files: dict[str, bytes] = {}
    total = 0
    for info in infos:
        if not info.filename:
            raise PbemError.at(path, "a zip member has no name")
        if info.is_dir():
            continue
        if info.flag_bits & 0x41:  # bit 0: encrypted; bit 6: strong encryption
            raise PbemError.at(path, f"zip member {info.filename!r} is encrypted: pbem reads only plain zip files")
        if info.extract_version > MAX_ZIP_VERSION:
            raise PbemError.at(path, f"zip member {info.filename!r} needs zip version {info.extract_version / 10:.1f}, more than this reader supports")
        # An exported game sits in one folder inside the zip; anything deeper or outside is refused.
        name = info.filename.rsplit("/", 1)[-1]
        folder = info.filename[: -len(name)].rstrip("/")
        if "/" in folder or folder in ("..", ".") or "\\" in info.filename:
            raise PbemError.at(path, f"zip member {info.filename!r} is not a plain file of the game")
        plain_name(name, f"{path}:{info.filename}")
        if name.startswith(".") or not (name == MANIFEST or name.lower().endswith((*TURN_SUFFIXES, DICE_SUFFIX))):
            continue
        if info.file_size > MAX_INPUT_BYTES or (info.compress_size and info.file_size / info.compress_size > MAX_ZIP_RATIO and info.file_size > 1_000_000):
            raise PbemError.at(path, f"zip member {info.filename!r} is too large or compressed suspiciously well")
        total += info.file_size
        if total > MAX_ZIP_TOTAL:
            raise PbemError.at(path, "the zip unpacks to more than 512 MiB")
        if name in files:
            raise PbemError.at(path, f"the zip holds two files named {name!r}")
        try:
            with archive.open(info) as member:
                content = member.read(MAX_INPUT_BYTES + 1)
        except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, RuntimeError, EOFError, zlib.error) as error:
            raise PbemError.at(path, f"cannot read zip member {info.filename!r}: {error}") from None
        if len(content) > MAX_INPUT_BYTES:
            raise PbemError.at(path, f"zip member {info.filename!r} is too large")
        files[name] = content
    game = GameInput(origin=str(path), turns=[], members=files, whole=True)
    _collect(game, files, str(path))
    return _checked(game)


def _collect(game: GameInput, files: dict[str, bytes], where: str) -> None:
    """Turn files among ``files``, in the manifest's order or natural order; dice records aside."""
    for name in [n for n in files if n.lower().endswith(DICE_SUFFIX)]:
        game.dice[name] = files.pop(name)
    manifest = _manifest(files[MANIFEST], f"{where}/{MANIFEST}") if MANIFEST in files else None
    if manifest is not None and "turns" in manifest.data:
        _apply_manifest(game, manifest, files, reorder=True)
        return
    for name in sorted(files, key=natural_key):
        if name != MANIFEST and _is_turn(name, files[name]):
            game.turns.append(TurnFile(name, files[name]))
    if manifest is not None:
        _apply_manifest(game, manifest, files, reorder=False)


def _is_turn(name: str, data: bytes) -> bool:
    """Notation files are turns; a JSON file is a turn if it has ``actions`` (else it is a state file)."""
    if not name.lower().endswith(".json"):
        return True
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return True  # the turn loader will say what is wrong with it
    return not isinstance(value, dict) or "actions" in value


def _manifest(data: bytes, where: str) -> JsonDocument:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PbemError.at(where, "not UTF-8 text") from None
    document = parse_json(text, where)
    if not isinstance(document.data, dict):
        raise document.error("", "game.json must hold a JSON object")
    return document


def _apply_manifest(game: GameInput, document: JsonDocument, files: dict[str, bytes], *, reorder: bool) -> None:
    data = document.data
    known = {"$schema", "title", "players", "started", "finished", "result", "turns", "start_state", "module", "module_version",
             "scenario", "head", "chain", "pbem_archive"}  # fmt: skip
    for key in data:
        if key not in known:
            raise document.error(f"/{key}", f"unknown key {printable(key)!r} in game.json (known: {', '.join(sorted(known - {'$schema'}))})")
    for key in ("title", "result", "start_state", "module_version"):
        if key in data and not (isinstance(data[key], str) and data[key].strip()):
            raise document.error(f"/{key}", f"{key} must be a non-empty string")
        if key in data:
            _text(document, data[key], f"/{key}")
    if "module_version" in data:
        game.metadata["module_version"] = data["module_version"]
    if "chain" in data:
        if data["chain"] not in (1, 2) or isinstance(data["chain"], bool):
            raise document.error("/chain", "chain must be the hash-chain scheme an export wrote (1 or 2)")
        game.metadata["chain"] = data["chain"]
    for key in ("started", "finished"):
        if key in data:
            game.metadata[key] = parse_date(data[key], lambda message, k=key: document.error(f"/{k}", message))
    for key in ("title", "result"):
        if key in data:
            game.metadata[key] = data[key].strip()
    if "head" in data:
        if not (isinstance(data["head"], str) and re.fullmatch(r"[0-9a-f]{64}", data["head"])):
            raise document.error("/head", "head must be the 64-hex-digit SHA-256 link an export wrote")
        game.metadata["head"] = data["head"]
    if "players" in data:
        players = data["players"]
        if not isinstance(players, dict):
            raise document.error("/players", "players must map each side to a name or a list of names")
        parsed: dict[str, list[str]] = {}
        for side, names in players.items():
            names = [names] if isinstance(names, str) else names
            if not isinstance(names, list) or not names or not all(isinstance(n, str) and n.strip() for n in names):
                raise document.error(f"/players/{printable(side)}", "a side's players are a name or a list of names")
            for name in [side, *names]:
                _text(document, name, f"/players/{printable(side)}")
            parsed[side] = [n.strip() for n in names]
        game.metadata["players"] = parsed
    if "turns" in data and reorder:
        order = data["turns"]
        if not isinstance(order, list) or not order or not all(isinstance(n, str) for n in order):
            raise document.error("/turns", "turns must list the turn files in play order")
        if len(set(order)) != len(order):
            raise document.error("/turns", "a turn file is listed twice")
        turns = []
        for k, name in enumerate(order):
            plain_name(name, document.file)
            if name not in files:
                raise document.error(f"/turns/{k}", f"turn file {name!r} is not in the game")
            turns.append(TurnFile(name, files[name]))
        game.turns = turns
        game.ordered = True
    if "start_state" in data:
        name = plain_name(data["start_state"], document.file)
        if name not in files and game.folder is not None and (game.folder / name).is_file():
            files[name] = read_bytes(inside(game.folder / name, game.folder))
        if name not in files:
            raise document.error("/start_state", f"start state {name!r} is not in the game")
        game.start_name, game.start_data = name, files[name]


def _text(document: JsonDocument, text: str, pointer: str) -> None:
    try:
        check_text(text, document.file, pointer=pointer)
    except PbemError as error:
        raise document.error(pointer, error.message) from None


def parse_date(value: Any, error) -> str:
    """An ISO date ``YYYY-MM-DD`` (a full ISO timestamp is cut to its date)."""
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value[:10]).isoformat()
        except ValueError:
            pass
    raise error(f"{value!r} is not a date (YYYY-MM-DD)")


def _checked(game: GameInput) -> GameInput:
    if not game.turns:
        raise PbemError.at(game.origin, "no turn files found (JSON turn files have an \"actions\" list)")
    if len(game.turns) > MAX_TURNS:
        raise PbemError.at(game.origin, f"more than {MAX_TURNS} turn files")
    if len(game.dice) > MAX_DICE_RECORDS:
        raise PbemError.at(game.origin, f"more than {MAX_DICE_RECORDS} dice records")
    if sum(len(t.data) for t in game.turns) + sum(map(len, game.dice.values())) > MAX_GAME_BYTES:
        raise PbemError.at(game.origin, f"the turn files hold more than {MAX_GAME_BYTES // (1024 * 1024)} MiB together")
    return game
