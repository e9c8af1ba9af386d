"""JSON turn files: read, schema-check, and resolve every unit and location against the module.

An unknown unit or location is an input error (exit 2) naming the file, the JSON pointer and the line;
rules are judged later, by the engine.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path
from typing import Any, Callable

from pbem.model import actions as act
from pbem.model import schemas
from pbem.model.actions import counter_kind
from pbem.model.errors import PbemError, Source
from pbem.model.files import MAX_INPUT_BYTES, decode_text, inside, read_bytes
from pbem.model.jsonsource import JsonDocument, load_json, parse_json
from pbem.model.lookup import ambiguous, find_card, find_units
from pbem.model.module import Module, load_module_by_id
from pbem.model.names import nearest
from pbem.model.state import load_state_document

ACTION_KINDS = (
    "phase", "move", "attack", "overrun", "fire", "eliminate", "remove", "loss", "reinforce", "replace", "roll",
    "card", "activate", "special", "control", "comment", "sr",
)  # fmt: skip

_RATIO = re.compile(r"^\s*(\d+)\s*[/:-]\s*(\d+)\s*$")


_KIND_KEYS = frozenset(ACTION_KINDS)


def action_kinds(action: dict[str, Any]) -> list[str]:
    """The kind keys an action carries (an attack's ``roll`` number is a field, a ``roll`` object an action)."""
    found = _KIND_KEYS.intersection(action)  # the action's few keys, at C speed
    if len(found) == 1:
        [kind] = found
        if kind != "roll" or isinstance(action["roll"], dict):
            return [kind]  # the common case
    return [k for k in ACTION_KINDS if k in action and (k != "roll" or isinstance(action[k], dict))]


NOTATION_SUFFIXES = (".pbem", ".txt", ".eml")
VASSAL_SUFFIXES = (".vlog", ".vsav")
MAX_TURN_VALUES = 100_000  # 10,000 two-hex moves hold 50,000; a real turn, a few thousand


# What a file that is not a turn is, by its first bytes, and the command that reads it.
_OTHER_KINDS = (
    (b"PK\x03\x04", "a zip file, not a VASSAL save or log: read a VASSAL module with 'pbem vassal info'"),
    (b"\x89PNG", "a PNG picture, not a turn"),
    (b"\xff\xd8\xff", "a JPEG picture, not a turn"),
    (b"GIF8", "a GIF picture, not a turn"),
    (b"%PDF", "a PDF document, not a turn"),
    (b"SQLite format 3\x00", "a pbem archive or another database: read it with 'pbem archive list'"),
)
_OTHER_SUFFIXES = {
    ".vmod": "a VASSAL module: read it with 'pbem vassal info'",
    ".vext": "a VASSAL extension: read it with 'pbem vassal info'",
}


# How a VASSAL save or log begins: obfuscated, or plain text; a VASSAL 3.7 save or log is a zip holding savedGame.
_VASSAL_GAME_STARTS = (b"!VCSK", b"begin_save")
_SAVED_GAME_ENTRY = "savedGame"
_MAX_SAVE_MEMBERS = 64  # a save holds three (savedGame, savedata, moduledata); a zip with many more is something else


def _head(path: str | Path) -> bytes:
    """The first bytes of a regular file (a FIFO or device is never opened: it would block), or b''."""
    if not Path(path).is_file():
        return b""
    try:
        with open(path, "rb") as handle:
            return handle.read(16)
    except OSError:
        return b""  # the reader reports it in its own words


def _regular_bytes(path: str | Path) -> bytes | None:
    """The bytes of ``path`` if it is a regular file within ``MAX_INPUT_BYTES`` that reads without fault, else None:
    whoever reads it next says what is wrong in their own words. A FIFO or device is never opened."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
        return read_bytes(path)
    except (PbemError, OSError, ValueError):
        return None


def is_vassal_game(path: str | Path, head: bytes | None = None, suffix: str | None = None) -> bool:
    """Whether ``path`` is a VASSAL save or log: named ``.vlog``/``.vsav``, or so by its content whatever its name
    (VASSAL writes ``.log`` too, and a mail client may rename an attachment). ``head`` and ``suffix``: the file's
    first bytes and its suffix in lower case, when the caller has them."""
    if (Path(path).suffix.lower() if suffix is None else suffix) in VASSAL_SUFFIXES:
        return True
    head = _head(path) if head is None else head[:16]
    if head.startswith(_VASSAL_GAME_STARTS):
        return True
    return head.startswith(b"PK\x03\x04") and _zip_holds_saved_game(path)


def _zip_holds_saved_game(path: str | Path) -> bool:
    """A zip whose few members include VASSAL's ``savedGame``; only its directory is read, and only when small."""
    import zipfile

    try:
        with open(path, "rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - 65_557))  # the end record and the longest comment a zip may have
            tail = handle.read()
        end = tail.rfind(b"PK\x05\x06")
        if end < 0 or len(tail) - end < 22 or int.from_bytes(tail[end + 10 : end + 12], "little") > _MAX_SAVE_MEMBERS:
            return False
        with zipfile.ZipFile(path) as archive:
            return _SAVED_GAME_ENTRY in archive.namelist()
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, NotImplementedError):
        return False


def _refuse_other_kinds(path: str | Path, vassal: bool | None = None, head: bytes | None = None, suffix: str | None = None) -> None:
    """A file that is plainly not a turn (a VASSAL module, a picture) is refused with the command that reads it
    (``vassal``: ``is_vassal_game(path)``, and ``head`` and ``suffix`` as it takes them, when the caller has them)."""
    if is_vassal_game(path, head, suffix) if vassal is None else vassal:
        return  # a VASSAL log or save is a turn: its own reader says what is wrong with it
    head = _head(path) if head is None else head[:16]
    for magic, what in _OTHER_KINDS:
        if head.startswith(magic):
            raise PbemError.at(str(path), f"this is {what}", line=1)
    what = _OTHER_SUFFIXES.get(Path(path).suffix.lower() if suffix is None else suffix)
    if what is not None:
        raise PbemError.at(str(path), f"this is {what}", line=1)


def read_turn_document(path: str | Path, module: Module | None = None, previous: str | Path | None = None, *, data: bytes | None = None) -> JsonDocument:
    """The turn file (JSON, or PBEM notation by its suffix), parsed and checked against ``turn.schema.json``;
    ``data``: its bytes, when the caller has them (a JSON turn is then not read again).

    A notation reader returns the same kind of document as the JSON reader: ``data`` shaped like a JSON
    turn file, and ``source(pointer)`` / ``error(pointer, message)`` that point into the text the player
    wrote, so everything after this is the same for both.
    """
    return _read_turn(path, module, previous, data)[0]


def _read_turn(path: str | Path, module: Module | None, previous: str | Path | None, data: bytes | None = None) -> tuple[JsonDocument, list[str]]:
    """:func:`read_turn_document`, and the kind of each action. ``data``: the bytes of ``path`` when the caller
    has them (then it is not read again).

    A JSON turn is read once: its first bytes tell a VASSAL file or a picture, the rest is its text.
    """
    suffix = Path(path).suffix.lower()
    if data is not None and (type(data) is not bytes or len(data) > MAX_INPUT_BYTES):
        data = None  # read from the file, which says what is wrong
    elif data is None and suffix not in VASSAL_SUFFIXES and suffix not in NOTATION_SUFFIXES:
        data = _regular_bytes(path)  # a VASSAL or notation turn is read by its own reader
    head = None if data is None else data[:16]
    vassal = is_vassal_game(path, head, suffix)
    _refuse_other_kinds(path, vassal, head, suffix)
    if vassal:
        from pbem.formats.vassal.to_turn import read_vassal_turn

        document = read_vassal_turn(str(path), module, None if previous is None else str(previous))
        _dice_beside(path, document)
    elif suffix in NOTATION_SUFFIXES:
        from pbem.formats.notation import read_notation  # type: ignore[import-not-found]

        document = read_notation(path, previous)
    elif data is not None:
        document = parse_json(decode_text(data, path), path)
    else:
        document = load_json(path)
    actions = document.data.get("actions") if isinstance(document.data, dict) else None
    # Each JSON value starts at a character of its own, so a JSON text no longer than the bound holds no
    # more values than that; only a notation or VASSAL turn, or a long JSON one, needs them counted.
    if not (type(document) is JsonDocument and len(document.text) <= MAX_TURN_VALUES):
        _bounded(document, actions if isinstance(actions, list) else [])
    kinds = _kinds(document, actions if isinstance(actions, list) else [])
    if schemas.fast_validator("turn").is_valid(document.data):
        return document, kinds
    # To explain the fault: the same verdict as the whole turn schema, but each action meets only its own
    # kind's definition, so the message is about the kind the player wrote.
    schemas.check_value(document, schemas.shallow_validator("turn", "actions"), document.data, "")
    for n, action in enumerate(document.data["actions"]):
        kind = action_kinds(action)[0]
        schemas.check_value(document, schemas.fragment_validator("turn", f"/$defs/{kind}"), action, f"/actions/{n}")
    return document, kinds


def _kinds(document: JsonDocument, actions: list) -> list[str]:
    """The kind of each action; an action with none or with two is refused."""
    found = [action_kinds(action) if isinstance(action, dict) else ["?"] for action in actions]
    try:
        return [kind for (kind,) in found]
    except ValueError:  # the first action with none or two
        n, kinds = next((n, kinds) for n, kinds in enumerate(found) if len(kinds) != 1)
        named = f"both {kinds[0]!r} and {kinds[1]!r}" if kinds else "none"
        raise document.error(f"/actions/{n}", f"an action needs exactly one of {', '.join(ACTION_KINDS)} (found {named})") from None


def _bounded(document: JsonDocument, actions: list) -> None:
    """Refuse a turn whose actions hold more than ``MAX_TURN_VALUES`` values in all (units, locations, numbers):
    checking costs time per value, and a real turn holds a few thousand."""
    count = 0
    for n, action in enumerate(actions):
        stack = [action]
        while stack:
            value = stack.pop()
            count += 1
            if isinstance(value, dict):
                stack.extend(value.values())
            elif isinstance(value, list):
                stack.extend(value)
        if count > MAX_TURN_VALUES:
            raise document.error(f"/actions/{n}", f"the actions hold more than {MAX_TURN_VALUES:,} values in all (units, locations, numbers); a turn holds a few thousand")


def load_turn(path: str | Path, module: Module | None = None, previous: str | Path | None = None, *, data: bytes | None = None) -> tuple[act.Turn, Module]:
    """Read a turn file and build its actions; the module comes from the header unless given.

    ``previous`` is the position a VASSAL save is compared with (a state file or the previous save). ``data``: the
    file's bytes, when the caller has them (a JSON turn is then not read again; the file beside which its dice record
    and start state are looked for is ``path`` all the same).
    """
    document, kinds = _read_turn(path, module, previous, data)
    data = document.data
    if module is None:
        try:
            module = load_module_by_id(data["module"])
        except PbemError as error:
            if error.source is not None:
                raise
            raise document.error("/module", error.message) from None
    elif data["module"] != module.id:
        raise document.error(
            "/module", f"this turn is for {data['module']}, not {module.id}: drop --module, or give a module for {data['module']}"
        )
    try:
        if data["side"] not in module.sides:
            raise document.error("/side", f"side {data['side']!r} is not one of {', '.join(module.sides)}")
        _check_places(document, module)
        start = data["start"]
        builder = _ActionBuilder(document, module, lambda: start_units(path, start, module, previous))
        actions = [builder.build(n, entry, kind) for n, (entry, kind) in enumerate(zip(data["actions"], kinds))]
    except PbemError:
        other = another_game(data, module)
        if other is None:
            raise
        raise document.error("/module", f"this is a turn of {other.name} ({other.id}), not of {module.id} as its module says: "
                             f"its side and most of its units and places are {other.id}'s; fix its \"module\"") from None
    header = act.TurnHeader(
        module=module.id,
        scenario=data.get("scenario") or start.get("scenario"),
        turn=data["turn"],
        side=data["side"],
        start_scenario=start.get("scenario"),
        start_state=start.get("state"),
        start_document=getattr(document, "start_document", None),
        start_at=data.get("from"),
        end_at=data.get("to"),
        writer=data.get("writer"),
        options=module.check_option_choices(data["options"], document, "/options") if "options" in data else {},
        dice=_dice_claim(path, data["dice"], document) if "dice" in data else None,
    )
    return act.Turn(str(path), header, actions, list(getattr(document, "notices", ())), getattr(document, "origin", None)), module


def _dice_beside(path: str | Path, document: JsonDocument) -> None:
    """A VASSAL log names no dice record: the one record (``*.dice``) beside it, if there is exactly one, is its."""
    data = document.data
    if not isinstance(data, dict) or "dice" in data:
        return
    try:
        found = sorted(p.name for p in Path(path).parent.iterdir() if p.suffix.lower() == ".dice" and p.is_file())
    except OSError:
        return
    if len(found) == 1:
        data["dice"] = found[0]


def _dice_claim(path: str | Path, value: Any, document: JsonDocument) -> act.DiceClaim:
    """The dice record the header names, read from beside the turn file (every message checked)."""
    from pbem.formats.dicerecord import load_record

    name = value if isinstance(value, str) else value["record"]
    draws = None
    if isinstance(value, dict):
        draws = [(int(seq), int(roll) if roll else None) for seq, _, roll in (d.partition(".") for d in value["draws"])]
    record_path = inside(Path(path).parent / name, Path(path).parent)
    if not record_path.is_file():
        raise document.error("/dice" if isinstance(value, str) else "/dice/record", f"the dice record {name} is not beside the turn file")
    record, problems = load_record(record_path, strict=False)
    return act.DiceClaim(name, record, problems, draws)


def _check_places(document: JsonDocument, module: Module) -> None:
    """The header's ``writer``, ``from`` and ``to`` name sides and places the module's sequence of play has."""
    data = document.data
    if "writer" in data and data["writer"] not in module.sides:
        raise document.error("/writer", f"writer {data['writer']!r} is not one of {', '.join(module.sides)}")
    for key in ("from", "to"):
        if key not in data:
            continue
        if "side" in data[key] and data[key]["side"] not in module.sides:
            raise document.error(f"/{key}/side", f"side {data[key]['side']!r} is not one of {', '.join(module.sides)}")
        sequence = module.sequence()
        if sequence is None:
            raise document.error(f"/{key}", f"module {module.id} declares no sequence of play, so a file cannot say where in it it {'starts' if key == 'from' else 'ends'}")
        from pbem.model.sequence import SequenceError

        try:
            sequence.resolve(data[key], turn=data["turn"], owner=data["side"])
        except SequenceError as error:
            raise document.error(f"/{key}", str(error)) from None


def normalize_ratio(text: str) -> str:
    match = _RATIO.match(text)
    assert match, text
    return f"{int(match.group(1))}/{int(match.group(2))}"


def start_units(file: str | Path, start: Any, module: Module, override: str | Path | None = None) -> dict[str, str]:
    """The units on the map where a turn starts, id -> location, read without checking (for suggestions only):
    from ``override`` (a state or scenario file), else the header's state file beside the turn or its scenario.
    Anything unreadable gives none: a suggestion never fails a check."""
    try:
        if override is not None:
            if is_vassal_game(override):
                return {}
            data = load_json(override).data
        elif isinstance(start, dict) and isinstance(start.get("state"), str):
            written = Path(start["state"])
            if written.is_absolute() or ".." in written.parts or "\x00" in start["state"]:
                return {}
            data = load_json(inside(Path(file).parent / written, Path(file).parent)).data
        elif isinstance(start, dict) and start.get("scenario") in module.scenarios:
            data = load_json(module.scenarios[start["scenario"]]).data
        else:
            return {}
    except (PbemError, OSError, ValueError):
        return {}
    units = data.get("units") if isinstance(data, dict) else None
    found: dict[str, str] = {}
    for entry in units if isinstance(units, list) else ():
        if isinstance(entry, dict) and isinstance(entry.get("id"), str) and isinstance(entry.get("at"), str):
            if entry["id"] in module.units and module.map.find(entry["at"]) is not None:
                found[entry["id"]] = entry["at"]
    return found


def another_game(data: dict[str, Any], module: Module) -> Module | None:
    """The other module pbem knows whose side, units and places a turn's names are, when ``module`` knows few of them
    (a turn of one game under another's id); ``None`` when ``module`` knows most of them or no other module does."""
    from pbem.model.module import other_modules

    written = [data.get("side")] + list(_strings(data.get("actions"), 5_000))  # enough to tell a game

    def known(game: Module) -> int:
        names = _unit_names(game)
        return sum(
            isinstance(value, str) and (value in game.sides or " ".join(value.split()).casefold() in names or game.map.find(value) is not None)
            for value in written
        )

    here = known(module)
    best, best_count = None, here
    for other in other_modules(module.id):
        count = known(other)
        if count > best_count:
            best, best_count = other, count
    return best if best is not None and best_count >= 3 and best_count >= 3 * here else None


def _strings(value: Any, limit: int) -> Any:
    """The strings inside a JSON value (keys left out), at most ``limit`` of them."""
    stack = [value]
    while stack and limit > 0:
        item = stack.pop()
        if isinstance(item, str):
            limit -= 1
            yield item
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def unit_suggestion(written: str, module: Module, in_play: dict[str, str]) -> str:
    """`` (did you mean PLA-TK-XX-1-02 at 3913?)``: the units nearest in spelling to ``written``, those on the map
    where the turn starts first (with where they stand), or '' when none is near."""
    names = [(key, unit.id) for unit in module.units.values() for key in (unit.id, unit.name, *unit.aliases) if key]
    close = nearest(written, names, in_play)
    if not close:
        return ""
    return " (did you mean " + ", ".join(f"{u} at {in_play[u]}" if u in in_play else u for u in close) + "?)"


_NONE_DECLARED: frozenset[str] = frozenset()  # shared: most actions declare nothing
_POINTERS: list[str] = []  # "/actions/0", "/actions/1"...: the first thousand made once in a process, not per turn


def _action_pointer(n: int) -> str:
    """The pointer of action ``n``, kept for the next turn when it is one of the first thousand."""
    pointer = f"/actions/{n}"
    if n == len(_POINTERS) and n < 1_000:
        _POINTERS.append(pointer)
    return pointer
_NAMES: dict[int, tuple[Module, dict[str, str]]] = {}  # by id(module); the module is kept so its id stays its own


def _unit_names(module: Module) -> dict[str, str]:
    """Each unit by its id, the name pbem prints (``1/1/JR16``) and its aliases, any case; ambiguous names left out.

    Worked out once per module object in a process (a tenth of reading a turn file otherwise).
    """
    known = _NAMES.get(id(module))
    if known is not None and known[0] is module and len(known[1]) >= len(module.units):
        return known[1]
    if len(_NAMES) >= 16:
        _NAMES.clear()
    names = _work_out_unit_names(module)
    _NAMES[id(module)] = (module, names)
    return names


def _work_out_unit_names(module: Module) -> dict[str, str]:
    found: dict[str, set[str]] = {}
    for unit in module.units.values():
        for key in (unit.id, unit.name, *unit.aliases):
            if key:
                found.setdefault(" ".join(key.split()).casefold(), set()).add(unit.id)
    names = {key: next(iter(ids)) for key, ids in found.items() if len(ids) == 1}
    names.update({unit_id.casefold(): unit_id for unit_id in module.units})  # an id always means its unit
    return names


class _ActionBuilder:
    """Builds each action of one turn document. It holds no bound methods of its own, so it is freed the moment
    the turn is built and the parsed document with it (a table of bound methods made a reference cycle that
    left every turn's parsed JSON to the cyclic garbage collector, about a tenth of the time of reading it)."""

    def __init__(self, document: JsonDocument, module: Module, in_play: Callable[[], dict[str, str]] | None = None):
        self.document = document
        self.module = module
        self.units = module.units
        self.lower = _unit_names(module)
        self.in_play = in_play  # the units on the map at the start, read only to suggest a mistyped unit
        self.find_all = module.map.find_all
        # Each action's source, made here as the document's own ``source`` makes it (a VASSAL turn's is its own).
        self.file = document.file
        self.locate = document.locator() if type(document).source is JsonDocument.source else None

    def build(self, n: int, entry: dict[str, Any], kind: str | None = None) -> act.Action:
        """Action ``n`` of the turn (``kind``: its kind, when the caller has it)."""
        kind = action_kinds(entry)[0] if kind is None else kind
        pointer = _POINTERS[n] if n < len(_POINTERS) else _action_pointer(n)
        source = self.document.source(pointer) if self.locate is None else Source.found_later(self.file, pointer, self.locate)
        if kind == "move":  # the commonest action, made without a table of its fields
            units, path, by, declared = self._move(entry, pointer)
            return act.Move(index=n, source=source, note=entry.get("note"), units=units, path=path, by=by, declared=declared)
        if kind == "sr":
            cls, fields = self._sr(entry, pointer)
        else:
            builder, cls = _BUILDERS[kind]
            fields = builder(self, entry, pointer)
        return cls(index=n, source=source, note=entry.get("note"), **fields)

    def _sr(self, entry: dict[str, Any], pointer: str) -> tuple[type[act.Action], dict[str, Any]]:
        """Strategic redeployment, one form: ``{"sr": UNITS, "path": [...], "by": "sea"}``. A path from one of the
        module's boxes to a location is a move out of the box (a ``reinforce`` in an SR round), one ending in a box a
        move into it (``remove ... to`` the box); any other path a move ``by`` strategic (or sea)."""
        units = self._units(entry["sr"], f"{pointer}/sr")
        path = entry["path"]
        boxes = {box.casefold(): box for box in self.module.boxes}
        first, last = boxes.get(path[0].casefold()), boxes.get(path[-1].casefold())
        for k, place in enumerate(path[1:-1], start=1):
            if place.casefold() in boxes:
                raise self.document.error(f"{pointer}/path/{k}", f"{place!r} is a box: an SR path names a box first or last only (into or out of it)")
        if first is not None or last is not None:
            if len(path) != 2 or (first is not None and last is not None):
                raise self.document.error(f"{pointer}/path", "an SR into or out of a box names the box and one location: [space, box] or [box, space]")
            if entry.get("by", "strategic") != "strategic":
                raise self.document.error(f"{pointer}/by", "an SR into or out of a box is not by sea")
            if first is not None:
                return act.Reinforce, {"units": units, "at": self._location(path[1], f"{pointer}/path/1")}
            return act.Remove, {"units": units, "to": last, "origin": self._location(path[0], f"{pointer}/path/0")}
        declared = _NONE_DECLARED
        return act.Move, {"units": units, "path": self._path(path, f"{pointer}/path"), "by": entry.get("by", "strategic"), "declared": declared}

    # --- the kinds without clauses ---------------------------------------------------------------------
    def _phase(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        side = entry.get("side")
        if side is not None and side not in self.module.sides:  # the side acting in the phase is one of the game's
            raise self.document.error(f"{pointer}/side", f"side {side!r} is not one of {', '.join(self.module.sides)}")
        return {"name": entry["phase"], "side": side, "round": entry.get("round")}

    def _eliminate(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        return {"units": self._units(entry["eliminate"], f"{pointer}/eliminate"), "reason": entry.get("reason", "")}

    def _loss(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        return {"unit": self._unit(entry["loss"], f"{pointer}/loss"), "reason": entry.get("reason", "")}

    def _reinforce(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        return {"units": self._units(entry["reinforce"], f"{pointer}/reinforce"), "at": self._location(entry["at"], f"{pointer}/at")}

    def _replace(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        fields: dict[str, Any] = {"unit": self._unit(entry["replace"], f"{pointer}/replace")}
        if "at" in entry:  # a rebuilt unit: a map location, or one of the module's boxes
            place = entry["at"]
            box = next((b for b in self.module.boxes if b.casefold() == place.strip().casefold()), None)
            if self.module.map.find(place) is None and box is not None:
                fields["box"] = box
            elif self.module.map.find(place) is None:
                kind = "hex" if self.module.map.kind == "hex" else "space"
                raise self.document.error(f"{pointer}/at", f"unknown {kind} or box {place!r}: not on the {self.module.id} map nor one of its boxes ({', '.join(self.module.boxes)})")
            else:
                fields["at"] = self._location(place, f"{pointer}/at")
        return fields

    def _control(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        spaces: dict[int, str] = {}
        for label, side in entry["control"].items():
            where = f"{pointer}/control/{label}"
            location = self._location(label, where)
            if location in spaces:
                raise self.document.error(where, f"{label!r} is named twice")
            if side not in self.module.sides:
                raise self.document.error(where, f"side {side!r} is not one of {', '.join(self.module.sides)}")
            spaces[location] = side
        return {"spaces": spaces}

    def _comment(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        return {"text": entry["comment"]}

    # --- names ----------------------------------------------------------------------------------------
    def _unit(self, name: str, pointer: str) -> str:
        if name in self.units:
            return name
        found = self.lower.get(" ".join(name.split()).casefold())
        if found is not None:
            return found
        # As players write it: punctuation optional, a nationality by its name, an unambiguous beginning.
        candidates = find_units(self.module, name)
        if len(candidates) == 1:
            return next(iter(candidates))
        if candidates:
            raise self.document.error(pointer, ambiguous("unit", name, candidates))
        in_play = self.in_play() if self.in_play is not None else {}
        raise self.document.error(pointer, f"unknown unit {name!r}{unit_suggestion(name, self.module, in_play)}")

    def _units(self, names: str | list[str], pointer: str) -> tuple[str, ...]:
        if isinstance(names, str):
            return (self._unit(names, pointer),)
        if all(name in self.units for name in names) and len(set(names)) == len(names):
            return tuple(names)  # the common case, without a pointer made for each name
        result = tuple(self._unit(name, f"{pointer}/{k}") for k, name in enumerate(names))
        if len(set(result)) != len(result):
            raise self.document.error(pointer, "a unit is listed twice")
        return result

    def _location(self, label: str, pointer: str) -> int:
        found = self.module.map.find(label)
        if found is None:
            kind = "hex" if self.module.map.kind == "hex" else "space"
            raise self.document.error(pointer, f"unknown {kind} {label!r}: not on the {self.module.id} map")
        return found

    def _path(self, labels: list[str], pointer: str) -> tuple[int, ...]:
        path = self.module.map.find_all(labels)
        if None in path:  # name the first unknown place
            return tuple(self._location(label, f"{pointer}/{k}") for k, label in enumerate(labels))
        return path  # type: ignore[return-value]

    # --- kinds ----------------------------------------------------------------------------------------
    def _move(self, entry: dict[str, Any], pointer: str) -> tuple[tuple[str, ...], tuple[int, ...], str, frozenset[str]]:
        """A move's units, path, ``by`` and declarations."""
        # The commonest action: one unit by its id along printed labels, with no pointer made unless needed.
        units = entry["move"]
        if type(units) is str and units in self.units:
            units = (units,)
        else:
            units = self._units(units, f"{pointer}/move")
        path = self.find_all(entry["path"])
        if None in path:
            path = self._path(entry["path"], f"{pointer}/path")
        declared = entry.get("declare")
        return units, path, entry.get("by", "land"), frozenset(declared) if declared else _NONE_DECLARED  # type: ignore[return-value]

    def _result(self, written: str) -> str:
        """A combat result as written, upper-cased unless the module's result codes differ by case alone (its
        option ``result_case`` is ``sensitive``: De, a lost state, is not DE, destroyed)."""
        text = written.strip().replace("−", "-").replace("–", "-")
        return text if self.module.options.get("result_case") == "sensitive" else text.upper()

    def _combat(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        kind = "attack" if "attack" in entry else "overrun"
        losses = entry.get("losses", {})
        fields: dict[str, Any] = {
            "attackers": self._units(entry[kind], f"{pointer}/{kind}"),
            "target": self._location(entry["target"], f"{pointer}/target"),
            "roll": entry["roll"],
            "result": self._result(entry["result"]) if "result" in entry else None,
            "odds": normalize_ratio(entry["odds"]) if "odds" in entry else None,
            "column": normalize_ratio(entry["column"]) if "column" in entry else None,
            "losses_attacker": self._steps(losses.get("attacker", []), f"{pointer}/losses/attacker"),
            "losses_defender": self._steps(losses.get("defender", []), f"{pointer}/losses/defender"),
            "eliminated": self._units(entry.get("eliminated", []), f"{pointer}/eliminated"),
            "advance": self._units(list(entry.get("advance", [])), f"{pointer}/advance"),
            "declared": frozenset(entry["declare"]) if entry.get("declare") else _NONE_DECLARED,
            "support": dict(entry.get("support", {})),
            "shifts": dict(entry["shifts"]) if "shifts" in entry else None,
            "defender_roll": entry.get("defender_roll"),
            "flank_pin": self._location(entry["flank"]["pin"], f"{pointer}/flank/pin") if "flank" in entry else None,
            "flank_roll": entry["flank"]["roll"] if "flank" in entry else None,
            "flank_drm": entry["flank"].get("drm") if "flank" in entry else None,
            "cards": tuple(self._card_id(c, f"{pointer}/cards/{k}") for k, c in enumerate(entry.get("cards", []))),
            "replacements": {
                self._unit(old, f"{pointer}/replacements"): self._unit(new, f"{pointer}/replacements/{old}")
                for old, new in entry.get("replacements", {}).items() if counter_kind(new) is None
            },
            "replacement_kinds": {
                self._unit(old, f"{pointer}/replacements"): counter_kind(new)
                for old, new in entry.get("replacements", {}).items() if counter_kind(new) is not None
            },
            "retreats": {
                self._unit(name, f"{pointer}/retreats/{name}"): tuple(
                    self._location(label, f"{pointer}/retreats/{name}/{k}") for k, label in enumerate(path)
                )
                for name, path in entry.get("retreats", {}).items()
            },
            "defender_advance": {
                self._unit(name, f"{pointer}/defender_advance/{name}"): tuple(
                    self._location(label, f"{pointer}/defender_advance/{name}/{k}") for k, label in enumerate(path)
                )
                for name, path in entry.get("defender_advance", {}).items()
            },
        }
        if isinstance(entry.get("advance"), dict):  # units advancing beyond the target, each with its path
            fields["advance_paths"] = {
                self._unit(name, f"{pointer}/advance/{name}"): self._path_from(path, f"{pointer}/advance/{name}")
                for name, path in entry["advance"].items()
            }
        if "negated" in entry:
            fields["negated"] = self._steps(entry["negated"], f"{pointer}/negated")
        if "defenders" in entry:
            fields["defenders"] = self._units(entry["defenders"], f"{pointer}/defenders")
        return fields

    def _path_from(self, labels: list[str], pointer: str) -> tuple[int, ...]:
        return tuple(self._location(label, f"{pointer}/{k}") for k, label in enumerate(labels))

    def _fire(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        losses = entry.get("losses", {})
        roll = entry["roll"]
        return {
            "units": self._units(entry["fire"], f"{pointer}/fire"),
            "target": self._location(entry["target"], f"{pointer}/target"),
            "rolls": tuple(roll) if isinstance(roll, list) else (roll,),
            "result": entry.get("result"),
            "spotter": self._unit(entry["spotter"], f"{pointer}/spotter") if "spotter" in entry else None,
            "losses_attacker": self._steps(losses.get("attacker", []), f"{pointer}/losses/attacker"),
            "losses_defender": self._steps(losses.get("defender", []), f"{pointer}/losses/defender"),
            "eliminated": self._units(entry.get("eliminated", []), f"{pointer}/eliminated"),
            "declared": frozenset(entry["declare"]) if entry.get("declare") else _NONE_DECLARED,
        }

    def _special(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        roll = entry.get("roll", [])
        return {
            "order": entry["special"],
            "units": self._units(entry.get("units", []), f"{pointer}/units"),
            "at": self._location(entry["at"], f"{pointer}/at") if "at" in entry else None,
            "rolls": tuple(roll) if isinstance(roll, list) else (roll,),
            "result": entry.get("result"),
        }

    def _card_id(self, card: str, pointer: str) -> str:
        cards = self.module.cards
        if not cards or card in cards:
            return card
        found, refusal = find_card(self.module, card)
        if found is None:
            raise self.document.error(pointer, refusal)
        return found

    def _card(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        card = entry["card"]
        return {
            "card": None if card is None else self._card_id(card, f"{pointer}/card"),
            "use": entry["use"],
            "side": entry.get("side"),
        }

    def _activate(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        spaces = {}
        for label, purpose in entry["activate"].items():
            location = self._location(label, f"{pointer}/activate/{label}")
            if location in spaces:
                raise self.document.error(f"{pointer}/activate/{label}", f"{label!r} is activated twice")
            spaces[location] = purpose
        return {"spaces": spaces, "cost": entry.get("cost")}

    def _remove(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        if entry["to"] not in self.module.boxes:
            raise self.document.error(f"{pointer}/to", f"{entry['to']!r} is not a box of {self.module.id} ({', '.join(self.module.boxes)})")
        return {"units": self._units(entry["remove"], f"{pointer}/remove"), "to": entry["to"]}

    def _steps(self, names: list[str], pointer: str) -> tuple[str, ...]:
        # A unit may appear more than once: one entry per step lost.
        return tuple(self._unit(name, f"{pointer}/{k}") for k, name in enumerate(names))

    def _roll(self, entry: dict[str, Any], pointer: str) -> dict[str, Any]:
        roll = entry["roll"]
        values = tuple(roll["value"]) if isinstance(roll["value"], list) else (roll["value"],)
        return {
            "purpose": roll["purpose"],
            # Unsaid, the dice are one six-sided die per value given: "1+4" is two dice, 2d6.
            "dice": roll.get("dice", f"{len(values)}d6"),
            "values": values,
            "side": roll.get("side"),
            "result": roll.get("result"),
            "modifiers": dict(roll.get("modifiers", {})),
        }


# Each kind but ``move`` and ``sr``: the builder of its fields and its class.
_BUILDERS: dict[str, tuple[Callable[[_ActionBuilder, dict[str, Any], str], dict[str, Any]], type[act.Action]]] = {
    "phase": (_ActionBuilder._phase, act.Phase),
    "attack": (_ActionBuilder._combat, act.Combat),
    "overrun": (_ActionBuilder._combat, act.Overrun),
    "fire": (_ActionBuilder._fire, act.Fire),
    "special": (_ActionBuilder._special, act.Special),
    "eliminate": (_ActionBuilder._eliminate, act.Eliminate),
    "remove": (_ActionBuilder._remove, act.Remove),
    "loss": (_ActionBuilder._loss, act.Loss),
    "reinforce": (_ActionBuilder._reinforce, act.Reinforce),
    "replace": (_ActionBuilder._replace, act.Replace),
    "roll": (_ActionBuilder._roll, act.Roll),
    "card": (_ActionBuilder._card, act.CardPlay),
    "activate": (_ActionBuilder._activate, act.Activate),
    "control": (_ActionBuilder._control, act.Control),
    "comment": (_ActionBuilder._comment, act.Comment),
}


def load_start_state(turn: act.Turn, module: Module, override: str | Path | None = None):
    """The state a turn starts from: ``override`` (a state or scenario file, or a VASSAL save), else the header's
    state file or scenario."""
    from pbem.model.state import State

    owned = True  # a document read here for this state alone: the state may keep its parts (see State.from_json)
    if override is not None and is_vassal_game(override):
        from pbem.formats.vassal.to_turn import state_document_of_save

        document = state_document_of_save(str(override), module)
        owned = False
    elif override is not None:
        document = load_state_document(override)  # a state, or a scenario file
    elif turn.header.start_document is not None:
        document = turn.header.start_document  # the turn's own: it keeps it
        owned = False
    elif turn.header.start_state is not None:
        written = Path(turn.header.start_state)
        if "\x00" in turn.header.start_state:
            raise PbemError.at(turn.file, "start state: a file name cannot hold a NUL character", pointer="/start/state")
        if written.is_absolute() or ".." in written.parts:
            raise PbemError.at(turn.file, f"start state {turn.header.start_state!r}: name a file beside the turn (no absolute path, no ..), or give --state", pointer="/start/state")
        path = inside(Path(turn.file).parent / written, Path(turn.file).parent)
        try:
            found = path.is_file()
        except OSError:  # a name too long for the file system, say: no such file either
            found = False
        if not found:
            name = turn.header.start_state if len(turn.header.start_state) <= 100 else turn.header.start_state[:60] + "…"
            target = path if len(str(path)) <= 200 else "FILE"
            raise PbemError.at(
                turn.file,
                f"start state {name!r}: no such file beside the turn; write it with "
                f"'pbem check PREVIOUS-TURN --write-state {target}' (the turn before this one), or give --state FILE",
                pointer="/start/state",
            )
        document = load_json(path)
        schemas.check(document, "state")
    else:
        scenario = turn.header.start_scenario
        if scenario not in module.scenarios:
            known = ", ".join(sorted(module.scenarios)) or "none"
            raise PbemError.at(turn.file, f"module {module.id} has no scenario {scenario!r} (it has: {known})", pointer="/start/scenario")
        document = load_json(module.scenarios[scenario])
        schemas.check(document, "scenario")
    if document.data.get("module", module.id) not in (module.id, str(module.path)):
        raise document.error("/module", f"this state is for module {document.data['module']!r}, the turn is for {module.id!r}")
    return State.from_json(module, document, owned=owned)
