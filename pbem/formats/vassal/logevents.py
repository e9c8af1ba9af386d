"""A log as readable events, step by step, and what happened around undos: who rolled what, which rolls were
taken back, and which were rolled again.

Undo works as in ``BasicLogger``: an undo takes back the most recent undoable step, and each further undo
the one before it.  VASSAL 3.6.7+ marks undo steps with ``UNDO⇥true``; older logs only hold the inverse
commands (a chat shows as ``* UNDO: …``), so an undo step is recognised by matching the inverse of the
step it would take back.
"""

from __future__ import annotations

import html
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from pbem.formats.vassal.buildfile import Module
from pbem.formats.vassal.commands import (AddPiece, BoardLayout, ChangePiece, Chat, MovePiece, Other, Player,
                                          RemovePiece, SetProperty, UndoMarker, parse_command)
from pbem.formats.vassal.dice import DiceReader, Roll
from pbem.formats.vassal.layout import OFFBOARD, MapLayout, layouts_for, map_layout
from pbem.formats.vassal.savefile import SavedGame, collect_pieces, step_commands
from pbem.formats.vassal.sequence import TAB, join, split, split_chain
from pbem.formats.vassal.traits import (NAME_TRAITS, Piece, PieceError, Stack, Trait, apply_basic_state, piece_name,
                                        public_state, trait_kind, type_links)
from pbem.model.errors import PbemError

_TYPED_CHAT = re.compile(r"^(?:&lt;|<)(?P<player>.*?)(?:&gt;|>) - (?P<text>.*)$", re.S)
UNDO_CHAT = "* UNDO: "
UNNAMED = "(unnamed)"  # a piece whose name is empty, as many markers' are


@dataclass(slots=True)
class _Tracked:
    type: str
    state: str
    piece: Piece
    _types: tuple[str, ...] | None = None
    _name_links: frozenset[int] | None = None

    @property
    def types(self) -> tuple[str, ...]:
        """The type chain's links, split once however often the piece changes."""
        if self._types is None:
            try:
                self._types = type_links(self.type)
            except ValueError as error:  # a chain too long to read
                raise PieceError(str(error)) from None
        return self._types

    @property
    def name_links(self) -> frozenset[int]:
        """Where the traits that change the name are in the chain."""
        if self._name_links is None:
            self._name_links = frozenset(index for index, link in enumerate(self.types[:-1])
                                         if trait_kind(link) in NAME_TRAITS)
        return self._name_links


# Work (trait states compared, name traits applied) one log may ask for; a real log needs a few million at
# most (Paths of Glory: 6,000 pieces of ~150 traits).  Past it the log is refused, not read for minutes.
MAX_TRAIT_WORK = 20_000_000
NAME_WORK = 100  # applying a name trait (fields, formats) costs about as much as 100 state comparisons


@dataclass(slots=True)
class _Step:
    index: int
    commands: list[str]
    events: list[dict] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)
    player: str | None = None
    player_inferred: bool = False
    undo_of: int | None = None
    undo_inferred: bool = False
    undone_by: int | None = None


class LogReader:
    """Replays a log's steps over its starting pieces, naming pieces and locations as it goes."""

    def __init__(self, game: SavedGame, module: Module | None = None, restore: list | None = None,
                 collected: tuple[dict, dict] | None = None):
        # ``restore`` and ``collected`` (the parsed restore commands and their pieces) spare a caller that
        # already has them parsing and decoding the whole position again.
        self.game = game
        self.module = module
        self.dice = DiceReader(module)
        restore = restore if restore is not None else game.restore_commands()
        pieces, stacks = collected if collected is not None else collect_pieces(restore)
        self.pieces: dict[str, _Tracked] = {}
        for command in restore:
            if isinstance(command, AddPiece) and command.id in pieces:
                self.pieces[command.id] = _Tracked(command.type, command.state, pieces[command.id])
        self.stacks: dict[str, Stack] = dict(stacks)
        self.stack_of: dict[str, str] = {child: stack_id for stack_id, stack in stacks.items()
                                         for child in stack.children}
        layouts = [command for command in restore if isinstance(command, BoardLayout)]
        self.layouts: dict[str, MapLayout] = layouts_for(module, layouts) if module else {}
        self.roster = {command.secret: command.shown_name for command in restore if isinstance(command, Player)}
        self.work = 0  # see MAX_TRAIT_WORK
        self.positions = self.on_boards = 0  # map positions seen, and those named on a board

    # --- naming -------------------------------------------------------------------------------------

    def where(self, map_id: str | None, x: int | None, y: int | None) -> dict:
        place: dict = {"map": map_id, "x": x, "y": y}
        layout = self.layouts.get(map_id) if map_id else None
        if map_id is not None and x is not None and y is not None:
            self.positions += 1
        if layout is not None and x is not None and y is not None:
            place["location"] = layout.location_name(x, y)
            self.on_boards += place["location"] != OFFBOARD
        return place

    def warnings(self) -> list[str]:
        """What suggests the module given is not the log's: another name, or no position on its boards."""
        if self.module is None:
            return []
        out = []
        made_with = self.game.moduledata.name if self.game.moduledata else ""
        if made_with and self.module.name and made_with != self.module.name:
            out.append(f"the log was made with the module {made_with!r}, not {self.module.name!r}")
        if self.positions and not self.on_boards:
            out.append(f"none of the log's {self.positions} positions falls on a board of {self.module.name or 'the module'!r}"
                       " (another game's module?)")
        return out

    def name_of(self, piece_id: str) -> str:
        tracked = self.pieces.get(piece_id)
        if tracked is not None:
            return tracked.piece.name or UNNAMED
        stack = self.stacks.get(piece_id)
        if stack is not None:
            names = [self.pieces[child].piece.name or UNNAMED for child in stack.children if child in self.pieces]
            return "stack of " + ", ".join(names) if names else "empty stack"
        return f"piece {piece_id}"

    def player_of(self, player_id: str | None) -> str | None:
        # A move's player id is the mover's VASSAL secret: show the roster name, never the id itself.
        return self.roster.get(player_id) if player_id else None

    # --- events -------------------------------------------------------------------------------------

    def events_of(self, step: _Step) -> None:
        parsed = [parse_command(text) for text in step.commands]
        results = {c.key[: -len("_result")]: c.new for c in parsed
                   if isinstance(c, SetProperty) and c.key.endswith("_result")}
        used_results: set[str] = set()
        for number, command in enumerate(parsed):
            event = self._event(command, step, results, used_results)
            if event is not None:
                event["command_index"] = number
                step.events.append(event)

    def _event(self, command, step: _Step, results: dict[str, str], used: set[str]) -> dict | None:
        if isinstance(command, MovePiece):
            return self._move(command, step)
        if isinstance(command, AddPiece):
            return self._add(command)
        if isinstance(command, RemovePiece):
            return self._remove(command)
        if isinstance(command, ChangePiece):
            return self._change(command)
        if isinstance(command, Chat):
            return self._chat(command, step, results, used)
        if isinstance(command, SetProperty):
            stem = command.key[: -len("_result")] if command.key.endswith("_result") else None
            if stem in used or any(command.key == f"{name}_{suffix}" for name in used
                                   for suffix in ("total", "keep", "summary")):
                return None  # part of a roll already reported
            return {"type": "change", "property": command.key, "before": command.old, "after": command.new,
                    "container": command.container}
        if isinstance(command, UndoMarker):
            return None
        if isinstance(command, BoardLayout):
            return self._boards(command)
        if isinstance(command, Other):
            return {"type": "other", "command": command.prefix}
        return None

    def _boards(self, command: BoardLayout) -> dict:
        """A board choice mid-log: positions from here on are named on the new layout."""
        if self.module is not None:
            map_def = self.module.map(command.map_id)
            if map_def is not None:
                self.layouts[command.map_id] = map_layout(map_def, command)
        return {"type": "boards", "map": command.map_id,
                "boards": [{"name": name, "reversed": is_reversed, "column": column, "row": row}
                           for name, is_reversed, column, row in command.boards]}

    def _move(self, command: MovePiece, step: _Step) -> dict:
        player = self.player_of(command.player)
        if player and step.player is None:
            step.player = player
        name = self.name_of(command.id)
        self._relocate(command)
        return {"type": "move", "piece": name, "id": command.id,
                "from": self.where(command.old_map, command.old_x, command.old_y),
                "to": self.where(command.new_map, command.new_x, command.new_y), "player": player}

    def _relocate(self, command: MovePiece) -> None:
        """Follow a move: a stack takes its pieces along; a piece leaves its stack and joins the one under it."""
        place = (command.new_map, command.new_x, command.new_y)
        stack = self.stacks.get(command.id)
        if stack is not None:
            stack.map_id, stack.x, stack.y = place
            for child in stack.children:
                if child in self.pieces:
                    self.pieces[child].piece.map_id, self.pieces[child].piece.x, self.pieces[child].piece.y = place
            return
        tracked = self.pieces.get(command.id)
        if tracked is None:
            return
        tracked.piece.map_id, tracked.piece.x, tracked.piece.y = place
        old_stack = self.stacks.get(self.stack_of.pop(command.id, ""))
        if old_stack is not None and command.id in old_stack.children:
            old_stack.children.remove(command.id)
        under = command.new_under
        target_id = under if under in self.stacks else self.stack_of.get(under or "")
        target = self.stacks.get(target_id or "")
        if target is not None:
            at = target.children.index(under) + 1 if under in target.children else len(target.children)
            target.children.insert(at, command.id)
            self.stack_of[command.id] = target_id

    def _add(self, command: AddPiece) -> dict | None:
        from pbem.formats.vassal.traits import decode_piece

        decoded = decode_piece(command.id, command.type, command.state)
        if isinstance(decoded, Stack):
            if command.id:
                self.stacks[command.id] = decoded
                for child in decoded.children:
                    previous = self.stacks.get(self.stack_of.get(child, ""))
                    if previous is not None and previous is not decoded and child in previous.children:
                        previous.children.remove(child)
                    self.stack_of[child] = command.id
            return None  # stacks come and go with moves; their pieces are what players see
        if command.id:
            self.pieces[command.id] = _Tracked(command.type, command.state, decoded)
        return {"type": "add", "piece": decoded.name or UNNAMED, "id": command.id,
                "at": self.where(decoded.map_id, decoded.x, decoded.y)}

    def _remove(self, command: RemovePiece) -> dict | None:
        if command.id in self.stacks and command.id not in self.pieces:
            for child in self.stacks.pop(command.id).children:
                if self.stack_of.get(child) == command.id:
                    del self.stack_of[child]
            return None
        tracked = self.pieces.pop(command.id, None)
        event = {"type": "remove", "piece": (tracked.piece.name or UNNAMED) if tracked else f"piece {command.id}",
                 "id": command.id}
        if tracked is not None:
            event["at"] = self.where(tracked.piece.map_id, tracked.piece.x, tracked.piece.y)
        return event

    def _change(self, command: ChangePiece) -> dict:
        tracked = self.pieces.get(command.id)
        event: dict = {"type": "change", "piece": self.name_of(command.id), "id": command.id}
        if tracked is None:
            # Without the piece's type its state cannot be read, and it may hold an owner's secret: not shown.
            event["traits"] = []
            return event
        before_state = command.old_state if command.old_state is not None else tracked.state
        types = tracked.types
        try:
            before = split_chain(before_state, TAB) if before_state else [""]
            after = split_chain(command.new_state, TAB) if command.new_state else [""]
        except ValueError as error:
            raise PieceError(str(error)) from None
        # Links beyond both states are empty in both: only the links the two states hold are compared.
        count = min(len(types), max(len(before), len(after)))
        self._charge(len(before) + len(after))
        changed_links = [index for index in range(count)
                         if (before[index] if index < len(before) else "") != (after[index] if index < len(after) else "")]
        changed = []
        for index in changed_links:
            kind = trait_kind(types[index])
            old = Trait(kind, types[index], before[index] if index < len(before) else "")
            new = Trait(kind, types[index], after[index] if index < len(after) else "")
            changed.append({"trait": kind, "before": public_state(old, self.roster),
                            "after": public_state(new, self.roster)})
        last = len(types) - 1
        new_piece = Piece(command.id, tracked.type, command.new_state, basic_name=tracked.piece.basic_name,
                          image=tracked.piece.image)
        apply_basic_state(new_piece, after[last] if last < len(after) else "")
        if new_piece.map_id is None and tracked.piece.map_id is not None:
            # A stacked piece's own state may carry no map (VASSAL 2.9): keep where it is.
            new_piece.map_id, new_piece.x, new_piece.y = tracked.piece.map_id, tracked.piece.x, tracked.piece.y
        links = tracked.name_links
        if any(index in links for index in changed_links):
            self._charge(NAME_WORK * len(links))
            name_traits = [Trait(trait_kind(types[index]), types[index], after[index] if index < len(after) else "")
                           for index in sorted(links)]
            new_piece._name = piece_name(name_traits + [Trait("piece;", types[last], "")], new_piece.basic_name)
        else:
            new_piece._name = tracked.piece.name
        if new_piece.name != tracked.piece.name:
            event["name_after"] = new_piece.name or UNNAMED
        event["traits"] = changed
        self.pieces[command.id] = _Tracked(tracked.type, command.new_state, new_piece, types, links)
        return event

    def _charge(self, work: int) -> None:
        self.work += work
        if self.work > MAX_TRAIT_WORK:
            raise PbemError(f"the log's pieces change more than {MAX_TRAIT_WORK} trait states in all, "
                            "beyond what pbem reads (no real log comes near)")

    def _chat(self, command: Chat, step: _Step, results: dict[str, str], used: set[str]) -> dict:
        message = command.message
        if message.startswith(UNDO_CHAT):
            return {"type": "chat", "text": html.unescape(message), "player": None, "auto": True, "undo": True}
        result = None
        for name, value in results.items():
            if name not in used and name in message:
                result = (name, value)
                break
        roll = self.dice.from_chat(message, result) if message.startswith("*") else None
        if roll is not None:
            if roll.button:
                used.add(roll.button)
            step.rolls.append(roll)
            if roll.player and step.player is None:
                step.player = roll.player
            return {"type": "roll", "button": roll.button, "dice": roll.dice, "values": roll.values,
                    "total": roll.total, "player": roll.player, "report": html.unescape(message)}
        typed = _TYPED_CHAT.match(message)
        if typed:
            player = html.unescape(typed.group("player"))
            if step.player is None:
                step.player = player
            return {"type": "chat", "text": html.unescape(typed.group("text")), "player": player}
        auto = message.startswith("*")
        return {"type": "chat", "text": html.unescape(message.lstrip("* ") if auto else message).strip(),
                "player": None, "auto": auto}


# --- undo ---------------------------------------------------------------------------------------------

def _inverse(text: str) -> str | None:
    """The command VASSAL logs to undo ``text`` (``+/id/`` alone stands for any re-add of that piece)."""
    if text.startswith("+/"):
        return "-/" + split(text[2:], "/")[0]
    if text.startswith("-/"):
        return "+/" + text[2:] + "/"
    if text.startswith("D/"):
        fields = split(text[2:], "/")
        if len(fields) < 3:
            return None
        return "D/" + join([fields[0], fields[2], fields[1]] + fields[3:], "/")
    if text.startswith("M/"):
        fields = split(text[2:], "/")
        if len(fields) < 9:
            return None
        swapped = [fields[0], *fields[5:9], *fields[1:5], *fields[9:]]
        return "M/" + join(swapped, "/")
    if text.startswith("CHAT"):
        return "CHAT" + UNDO_CHAT + text[4:]
    if text.startswith("MutableProperty\t"):
        fields = split(text, TAB)
        if len(fields) < 4:
            return None
        return join([fields[0], fields[1], fields[3], fields[2], *fields[4:]], TAB)
    return None


def _comparable(text: str) -> bool:
    return text.startswith(("+/", "-/", "M/", "CHAT", "MutableProperty\t")) or (
        text.startswith("D/") and len(split(text[2:], "/")) >= 3)


def _is_inverse(candidate: _Step, target: _Step) -> bool:
    """Whether ``candidate``'s commands undo ``target``'s, in reverse order (worked out one command at a time:
    most steps differ at their first command, and the rest is not looked at)."""
    actual = [text for text in candidate.commands if _comparable(text)]
    if not actual:
        return False
    matched = 0
    for text in reversed(target.commands):
        want = _inverse(text)
        if want is None:
            continue
        if matched == len(actual):
            return False
        have = actual[matched]
        if want.startswith("+/") and want.endswith("/") and want.count("/") == 2:
            if not have.startswith(want):
                return False
        elif want != have:
            return False
        matched += 1
    return matched == len(actual)


def _undoable(step: _Step) -> bool:
    return bool(step.commands)


def read_events(game: SavedGame, module: Module | None = None, reader: LogReader | None = None) -> dict:
    """The log as ``{"kind", "file", "steps": [{"index", "player", "events"}], "summary"}``.

    ``reader`` may be a :class:`LogReader` subclass instance that adds to the events.
    """
    reader = reader or LogReader(game, module)
    steps = [_Step(number + 1, step_commands(token)) for number, token in enumerate(game.steps)]
    pointer: int | None = None  # position in ``steps`` of the step the next undo takes back
    for position, step in enumerate(steps):
        marked = bool(step.commands) and step.commands[0] == "UNDO\ttrue"
        target = steps[pointer] if pointer is not None else None
        inferred = False
        if not marked and target is not None:
            if _is_inverse(step, target) or any(text.startswith("CHAT" + UNDO_CHAT) for text in step.commands):
                inferred = True
        reader.events_of(step)
        if (marked or inferred) and target is not None:
            step.undo_of, step.undo_inferred = target.index, inferred
            target.undone_by = step.index
            step.events.insert(0, {"type": "undo", "undoes": target.index, "inferred": inferred,
                                   "what": _describe(target)})
            pointer = _previous_undoable(steps, pointer)
        elif marked:
            step.events.insert(0, {"type": "undo", "undoes": None, "inferred": False, "what": []})
        elif _undoable(step):
            pointer = position
    _assign_players(steps, list(dict.fromkeys(reader.roster.values())))
    report = {"kind": game.kind, "file": game.source,
              "steps": [_step_json(step) for step in steps], "summary": _summary(steps)}
    warnings = reader.warnings()
    if warnings:
        report["warnings"] = warnings
    return report


def _previous_undoable(steps: list[_Step], pointer: int) -> int | None:
    position = pointer - 1
    while position >= 0 and not _undoable(steps[position]):
        position -= 1
    return position if position >= 0 else None


def _describe(step: _Step) -> list[str]:
    """Short words for what a step did, for the undo event."""
    out = []
    for event in step.events:
        kind = event["type"]
        if kind == "move":
            out.append(f"move {event['piece']}")
        elif kind in ("add", "remove", "change") and "piece" in event:
            out.append(f"{kind} {event['piece']}")
        elif kind == "roll":
            out.append(f"roll {event['button'] or ''} {','.join(map(str, event['values']))}".replace("  ", " "))
        elif kind == "chat":
            out.append("chat")
        elif kind == "undo":
            out.append(f"undo of step {event['undoes']}")
        elif kind == "change":
            out.append(f"set {event.get('property')}")
    return out


def _assign_players(steps: list[_Step], roster: list[str]) -> None:
    # A log is usually one player's turn; a step with no name of its own is credited to the last named one,
    # or, before any, to the roster's only player if there is just one.
    last: str | None = roster[0] if len(roster) == 1 else None
    for step in steps:
        if step.player is None and last is not None and step.commands:
            step.player, step.player_inferred = last, True
        elif step.player is not None:
            last = step.player


def _step_json(step: _Step) -> dict:
    out: dict = {"index": step.index, "player": step.player, "events": step.events}
    if step.player_inferred:
        out["player_inferred"] = True
    if step.undone_by is not None:
        out["undone_by"] = step.undone_by
    return out


def _summary(steps: list[_Step]) -> dict:
    by_index = {step.index: step for step in steps}
    events = Counter(event["type"] for step in steps for event in step.events)
    rolls_per_player: Counter = Counter()
    steps_per_player: Counter = Counter()
    for step in steps:
        if step.commands:
            steps_per_player[step.player or "unknown"] += 1
        for roll in step.rolls:
            rolls_per_player[roll.player or step.player or "unknown"] += 1
    undone_rolls = []
    rerolls = []
    pending: dict[str | None, list[tuple[_Step, Roll]]] = defaultdict(list)
    for step in steps:
        if step.undo_of is not None:
            target = by_index[step.undo_of]
            # An undo of an undo puts the step back: its rolls count again.
            for roll in target.rolls:
                pending[roll.button].append((target, roll))
        for roll in step.rolls:
            if step.undone_by is not None:
                undone_rolls.append({"step": step.index, "undone_by": step.undone_by, "button": roll.button,
                                     "values": roll.values, "total": roll.total,
                                     "player": roll.player or step.player})
            queue = pending.get(roll.button)
            if queue:
                original_step, original = queue.pop(0)
                rerolls.append({"step": step.index, "undone_step": original_step.index, "button": roll.button,
                                "before": original.values, "after": roll.values,
                                "player": roll.player or step.player})
    return {
        "steps": len(steps),
        "events": dict(events),
        "steps_per_player": dict(steps_per_player),
        "rolls": sum(len(step.rolls) for step in steps),
        "rolls_per_player": dict(rolls_per_player),
        "undos": sum(1 for step in steps if step.undo_of is not None),
        "undone_steps": [step.index for step in steps if step.undone_by is not None],
        "undone_rolls": undone_rolls,
        "rerolls": rerolls,
    }
