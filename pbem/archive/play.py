"""Replay a whole game from its start and its turn files' bytes, each turn from the previous turn's final state.

The state files players mail each other are never trusted: turn 2 starts where the replay of turn 1
ended, whatever its header names. The turn loader reads files, so the stored bytes are written into a
private temporary folder (in memory where the system allows) under their plain names (the suffix picks
JSON or notation) and violations are reported against those names.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Callable

from pbem.archive.gamefiles import natural_key, plain_name
from pbem.archive.safetext import check_text
from pbem.engine.dicecheck import DrawLedger
from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.actions import Phase, Turn
from pbem.model.errors import PbemError, Source
from pbem.model.event import Event
from pbem.model.module import Module
from pbem.model.sequence import Sequence, SequenceError, Slice, slice_of
from pbem.model.state import State, written_state_text
from pbem.model.violation import WARNING, Violation

MAX_GAME_ACTIONS = 100_000  # with the bound on bytes, what keeps a whole game's replay within seconds


@dataclass
class PlayedTurn:
    name: str
    turn: Turn
    violations: list[Violation]
    state: dict[str, Any]  # the state after the turn, as ``State.to_json`` (or as play_game's ``keep`` gives it)
    actions: int
    player: str | None = None
    events: list[Event] = field(default_factory=list)  # every random event of the turn, with what it did

    @property
    def ok(self) -> bool:
        return not any(v.severity != WARNING for v in self.violations)


@dataclass
class PlayedGame:
    module: Module
    load_start: Callable[[], State] = field(repr=False)  # reads the start again (the replay changes its own)
    turns: list[PlayedTurn] = field(default_factory=list)
    chain: list[Any] = field(default_factory=list, repr=False)  # a game of VASSAL logs: each file's ChainFile (positions, dice)

    def dice(self):
        """The game's dice on record (:class:`pbem.engine.dice.DiceRecord`), in play order."""
        from pbem.engine.dice import DiceRecord, turn_rolls, vassal_rolls

        record = DiceRecord()
        logs = {f.name: f for f in self.chain}
        for turn in self.turns:
            if turn.name in logs:
                record.rolls.extend(vassal_rolls(logs[turn.name].rolls))
                record.rerolls.extend(logs[turn.name].rerolls)
            else:
                record.rolls.extend(turn_rolls(turn.turn, self.module))
        return record

    @cached_property
    def start(self) -> State:
        """A fresh copy of the start, read when first asked for (re-validation never asks)."""
        return self.load_start()

    @property
    def ok(self) -> bool:
        return all(t.ok for t in self.turns)

    @property
    def actions(self) -> int:
        return sum(t.actions for t in self.turns)

    @property
    def violations(self) -> int:
        return sum(len(t.violations) for t in self.turns)


# Where the private folders go: in memory where the system has a memory file system. Each file costs one
# write and one read; on a busy disk that was 0.5-1 ms a file and 2-3 ms a folder, more than replaying it.
_MEMORY_FOLDER = Path("/dev/shm")
_MEMORY_FOLDER_FREE = 256 * 1024 * 1024  # room for a few turn files at their size limit in every process


def scratch_parent() -> str | None:
    """The folder to make private temporary folders in: the one the user chose (``TMPDIR``, ``TEMP``,
    ``TMP``), else the memory file system if it is usable, else the system's temporary folder (``None``)."""
    if any(os.environ.get(name) for name in ("TMPDIR", "TEMP", "TMP")):
        return None
    try:
        if _MEMORY_FOLDER.is_dir() and os.access(_MEMORY_FOLDER, os.W_OK | os.X_OK):
            found = os.statvfs(_MEMORY_FOLDER)
            if found.f_bavail * found.f_frsize >= _MEMORY_FOLDER_FREE:
                return str(_MEMORY_FOLDER)
    except OSError:
        pass
    return None


MAX_KEPT_HEADERS = 4096
_HEADERS: dict[tuple[str, bytes], dict[str, Any]] = {}  # see TurnLoader.header


class TurnLoader:
    """Loads turn files from bytes through a private temporary folder (``with TurnLoader() as loader``),
    made in ``parent`` if given, else in :func:`scratch_parent`."""

    def __init__(self, parent: str | None = None, beside: dict[str, bytes] | None = None):
        self.parent = parent
        self.beside = beside or {}  # files every turn may name beside it: the game's dice records

    def __enter__(self) -> "TurnLoader":
        self._tmp = tempfile.TemporaryDirectory(prefix="pbem-archive-", dir=self.parent or scratch_parent())
        self.folder = Path(self._tmp.name)
        for name, data in self.beside.items():
            self.write(name, data)
        return self

    def __exit__(self, *exc: object) -> None:
        self._tmp.cleanup()

    def write(self, name: str, data: bytes) -> Path:
        path = self.folder / plain_name(name, name)
        path.write_bytes(data)
        return path

    def load(self, name: str, data: bytes, module: Module) -> Turn:
        # Written all the same: a turn's header may name files beside it, and a VASSAL or notation turn is read
        # from its file.
        path = self.write(name, data)
        try:
            turn, _ = load_turn(path, module, data=data)
        except PbemError as error:
            raise _renamed(error, str(path), name) from None
        finally:
            path.unlink(missing_ok=True)
        turn.file = name
        return turn

    def _document(self, name: str, data: bytes):
        """A turn file's document, read (schema-checked) from the private folder under its own name."""
        from pbem.formats.turnfile import read_turn_document

        path = self.write(name, data)
        try:
            return read_turn_document(path, data=data)
        except PbemError as error:
            raise _renamed(error, str(path), name) from None
        finally:
            path.unlink(missing_ok=True)

    def outline(self, name: str, data: bytes) -> dict[str, Any]:
        """A turn file's header with its phase markers (``phases``), to place it in the game without replaying it."""
        from pbem.formats.turnfile import VASSAL_SUFFIXES

        if name.lower().endswith(VASSAL_SUFFIXES):
            return {"vassal": True}
        document = self._document(name, data)
        outline = {k: v for k, v in document.data.items() if k != "actions"}
        outline["phases"] = [{k: a[k2] for k, k2 in (("phase", "phase"), ("side", "side"), ("round", "round")) if k2 in a}
                             for a in document.data["actions"] if isinstance(a.get("phase"), str)]
        return outline

    def header(self, name: str, data: bytes) -> dict[str, Any]:
        """The raw header of a turn file (schema-checked), for what the Turn does not keep.

        A file read alone in a private folder gives the same header for the same name and bytes, so each is
        read once per process (a VASSAL log of 50,000 commands takes seconds to read; a game asks its first
        turn's header two or three times).
        """
        import hashlib

        key = (name, hashlib.blake2b(data, digest_size=32).digest())
        known = _HEADERS.get(key)
        if known is not None:
            return dict(known)
        document = self._document(name, data)
        header = {k: v for k, v in document.data.items() if k != "actions"}
        if len(_HEADERS) >= MAX_KEPT_HEADERS:
            _HEADERS.clear()
        _HEADERS[key] = header
        return dict(header)


def _renamed(error: PbemError, tmp: str, name: str) -> PbemError:
    if error.source is not None and error.source.file == tmp:
        return PbemError(error.message, replace(error.source, file=name))
    return error


def start_state(loader: TurnLoader, module: Module, first: Turn, start_name: str | None, start_data: bytes | None) -> State:
    """The state the first turn starts from: the stored start state file, else the header's scenario."""
    if start_data is None:
        if first.header.start_state is not None:
            raise PbemError.at(first.file, "the first turn starts from a state file that the game does not include", pointer="/start/state")
        return load_start_state(first, module)
    path = loader.write(start_name or "start.json", start_data)
    try:
        return load_start_state(first, module, path)
    except PbemError as error:
        raise _renamed(error, str(path), start_name or "start.json") from None


def _start_again(module: Module, first: Turn, start_name: str | None, start_data: bytes | None) -> State:
    with TurnLoader() as loader:
        return start_state(loader, module, first, start_name, start_data)


def play_game(
    module: Module,
    turns: list[tuple[str, bytes]],
    start_name: str | None = None,
    start_data: bytes | None = None,
    *,
    players: bool = False,
    check: bool = False,
    listed: bool = False,
    scratch: str | None = None,
    chain: list[Any] | None = None,
    dice: dict[str, bytes] | None = None,
    read_back: bool = True,
    keep: Callable[[State], Any] = State.to_json,
) -> PlayedGame:
    """Replay every turn in order; an unreadable turn file is a PbemError naming it.

    ``dice``: the game's dice records by name, beside every turn as in the game's folder (a turn whose header
    names one has its rolls checked against it).

    ``check`` refuses a turn that does not follow on from the one before (a stored game is played as stored).
    ``scratch`` is the folder to make the private folder in (see :class:`TurnLoader`).
    A game of VASSAL logs gets each log's continuity with the one before (``chain``: the files read by
    :func:`pbem.archive.logchain.read_chain`, if the caller has them already).
    ``read_back=False`` leaves proving that the final state reads back (:func:`written_state_text`) to the
    caller, who may know it already (re-validation: the same text is stored). ``keep`` is what each turn's
    ``state`` holds (re-validation keeps :meth:`State.compact_json`, the text it stores; it must then pass
    ``read_back=False``).
    """
    if not turns:
        raise PbemError("the game has no turn files")
    with TurnLoader(scratch, dice) as loader:
        parsed = []
        total = 0
        for name, data in turns:
            parsed.append(loader.load(name, data, module))
            total += len(parsed[-1].actions)
            if total > MAX_GAME_ACTIONS:
                raise PbemError.at(name, f"the game holds more than {MAX_GAME_ACTIONS:,} actions by this turn file")
        state = start_state(loader, module, parsed[0], start_name, start_data)
        first = parsed[0]
        game = PlayedGame(module, lambda: _start_again(module, first, start_name, start_data))
        slices = _slices(module, state.first_side or state.side, [outline_of(t) for t in parsed]) if check else None
        if slices is not None:
            check_slices(slices[0], [(name, piece) for (name, _), piece in zip(turns, slices[1])], listed)
        vassal = any(name.lower().endswith((".vlog", ".vsav")) for name, _ in turns)
        # A chain of VASSAL logs follows on by its positions (rule continuity), not by headers it does not have.
        sequence = TurnSequence(module, state.first_side or state.side) if check and slices is None and not vassal else None
        previous: tuple[str, Turn] | None = None
        ledger = DrawLedger()
        for (name, data), turn in zip(turns, parsed):
            if sequence is not None and previous is not None:
                sequence.check_follows(previous, (name, turn), state)
            previous = (name, turn)
            result = replay(module, state, turn)
            violations = [_named(v, name) for v in result.violations + ledger.take(name, turn, module)]
            player = _player(loader, name, data) if players else None
            game.turns.append(PlayedTurn(name, turn, violations, keep(state), result.actions, player, events=result.events))
        if chain is not None or any(name.lower().endswith((".vlog", ".vsav")) for name, _ in turns):
            _add_continuity(module, turns, game, loader, chain)
        if read_back:
            written_state_text(module, game.turns[-1].state)  # what the archive keeps reads back (exit 3 naming the key if not)
    return game


def _add_continuity(module: Module, turns: list[tuple[str, bytes]], game: PlayedGame, loader: TurnLoader, chain: list[Any] | None) -> None:
    """A chain of VASSAL logs: each log's opening compared with the end of the one before (rule ``continuity``)."""
    from pbem.archive.logchain import chain_continuity, read_chain

    game.chain = chain if chain is not None else read_chain(module, turns, loader)
    found = chain_continuity(game.chain)
    for played in game.turns:
        played.violations = played.violations + found.get(played.name, [])


class TurnSequence:
    """Where a turn file falls in the game: game-turn, then the side's place in the order of play."""

    def __init__(self, module: Module, first: str | None):
        sides = list(module.sides)
        self.sides = sides[sides.index(first) :] + sides[: sides.index(first)] if first in sides else sides

    def index(self, turn: Turn | tuple[int, str | None]) -> int:
        number, side = (turn.header.turn, turn.header.side) if isinstance(turn, Turn) else turn
        rank = self.sides.index(side) if side in self.sides else 0
        return (number - 1) * len(self.sides) + rank

    def name(self, index: int) -> str:
        return f"game-turn {index // len(self.sides) + 1}, {self.sides[index % len(self.sides)]}"

    def check_follows(self, previous: tuple[str, Turn], current: tuple[str, Turn], state: State) -> None:
        """Refuse ``current`` unless it continues ``previous``, or comes next, or follows where the replay ended."""
        before = self.index(previous[1])
        here = self.index(current[1])
        reached = self.index((state.turn, state.side)) if state.side in self.sides else before
        if here in (before, before + 1) or (reached > before and here in (reached, reached + 1)):
            return
        what = "comes before" if here < before else "does not follow on from"
        missing = "" if here < before else f" ({self.name(max(before, reached) + 1)} is missing)"
        raise PbemError.at(
            current[0],
            f"this turn ({self.name(here)}) {what} {previous[0]} ({self.name(before)}){missing}: "
            "add the missing turn, or list the turn files in play order in game.json",
            pointer="/turn",
        )


def order_by_headers(module: Module, headers: list[dict[str, Any]], names: list[str] | None = None) -> list[int]:
    """The order to play turn files in: by their place in the module's sequence of play (where each starts, then
    where it ends), else by game-turn, then by the side's place (its scenario's ``first_side``). VASSAL files
    carry no header: a game of them is played in the order of their names."""
    names = names or [str(k) for k in range(len(headers))]
    if any(h.get("vassal") for h in headers):
        return sorted(range(len(headers)), key=lambda k: natural_key(names[k]))
    first = first_side(module, headers)
    slices = _slices(module, first, headers)
    if slices is not None:
        return sorted(range(len(headers)), key=lambda k: (slices[1][k].start, slices[1][k].end, natural_key(names[k])))
    sequence = TurnSequence(module, first)
    return sorted(range(len(headers)), key=lambda k: (sequence.index((headers[k]["turn"], headers[k]["side"])), natural_key(names[k])))


def first_side(module: Module, headers: list[dict[str, Any]]) -> str | None:
    """Who acts first in each game-turn: the scenario's ``first_side`` (the scenario the headers name)."""
    scenario = next((h.get("scenario") or h["start"].get("scenario") for h in headers
                     if h.get("scenario") or h.get("start", {}).get("scenario")), None)
    if scenario in module.scenarios:
        data = json.loads(Path(module.scenarios[scenario]).read_text(encoding="utf-8"))
        return data.get("first_side") or data.get("side")
    return None


def check_order(module: Module, names: list[str], headers: list[dict[str, Any]], listed: bool) -> None:
    """Refuse files that are not slices of play one after the other (for modules with a sequence of play)."""
    slices = _slices(module, first_side(module, headers), headers)
    if slices is not None:
        check_slices(slices[0], list(zip(names, slices[1])), listed)


def outline_of(turn: Turn) -> dict[str, Any]:
    """A parsed turn's header and phase markers, as :meth:`TurnLoader.outline` gives them."""
    if turn.file.lower().endswith((".vlog", ".vsav")):
        return {"vassal": True}
    header = turn.header
    outline: dict[str, Any] = {"turn": header.turn, "side": header.side}
    for key, value in (("from", header.start_at), ("to", header.end_at), ("writer", header.writer)):
        if value is not None:
            outline[key] = value
    outline["phases"] = [{k: v for k, v in (("phase", a.name), ("side", a.side), ("round", a.round)) if v is not None}
                         for a in turn.actions if isinstance(a, Phase)]
    return outline


def _slices(module: Module, first: str | None, outlines: list[dict[str, Any]]) -> tuple[Sequence, list[Slice]] | None:
    """Each file's slice of the module's sequence of play (None: the module has none, or a file is VASSAL's)."""
    sequence = module.sequence(first)
    if sequence is None or any(o.get("vassal") for o in outlines):
        return None
    try:
        return sequence, [slice_of(sequence, o, o.get("phases", [])) for o in outlines]
    except SequenceError:
        return None  # the turn loader names the file and place


def check_slices(sequence: Sequence, files: list[tuple[str, Slice]], listed: bool = False) -> None:
    """Refuse files that do not follow each other in play order: a gap, an overlap, two files for one slice.
    ``listed``: the player gave the order (game.json or the command line)."""
    advice = "put them in play order where you list them" if listed else "list the turn files in play order in game.json"
    for (before_name, before), (name, here) in zip(files, files[1:]):
        pointer = "/from" if here.declared else None
        if here.start == before.start and here.end == before.end:
            raise PbemError.at(name, f"{name} and {before_name} are two files for the same slice of play ({span(sequence, here)}): keep one")
        if here.start < before.start:
            raise PbemError.at(name, f"this file ({span(sequence, here)}) comes before {before_name} ({span(sequence, before)}): "
                                     f"{advice}", pointer=pointer)
        if here.start <= before.end:
            raise PbemError.at(name, f"this file ({span(sequence, here)}) overlaps {before_name} ({span(sequence, before)}): "
                                     "each slice of play belongs to one file", pointer=pointer)
        missing = sequence.missing_writers(before.end, here.start, here.writer)
        if missing:
            names = "; ".join(sequence.describe(p) for p in missing[:4]) + (" ..." if len(missing) > 4 else "")
            raise PbemError.at(name, f"this file ({span(sequence, here)}) does not follow on from {before_name} ({span(sequence, before)}): "
                                     f"missing between them: {names}; add the missing file, or {advice}", pointer=pointer)


def span(sequence: Sequence, piece: Slice, *, writer: bool = True) -> str:
    """A slice in words: ``game-turn 1, soviet movement phase to soviet combat phase, by soviet``."""
    text = sequence.describe(piece.start)
    if piece.end != piece.start:
        text += f" to {sequence.describe(piece.end) if piece.end.turn != piece.start.turn else sequence.step(piece.end).describe()}"
    return text + (f", by {piece.writer}" if piece.writer and writer else "")


def _player(loader: TurnLoader, name: str, data: bytes) -> str | None:
    if name.lower().endswith(".json"):
        value = json.loads(data).get("player")  # already parsed and checked once by the turn loader
    else:
        value = loader.header(name, data).get("player")
    if not isinstance(value, str):
        return None
    return check_text(value, name, pointer="/player").strip() or None


def _named(violation: Violation, name: str) -> Violation:
    source = violation.source
    if source is None:
        return replace(violation, source=Source(name))
    if source.file != name:
        return replace(violation, source=replace(source, file=name))
    return violation
