"""A VASSAL log (or a save against the previous position) as a pbem turn, through the module's ``vassal.json``.

A log starts with the whole game as it stood: that is the turn's start state.  Its steps become actions:
a unit's moves in one action round are one move along the places it went through; a card put on a play
area is a card play that opens an action round; the spaces units leave after an OPS play are activated for
movement; dice reports are rolls with the purpose the mapping gives their button; a unit turned to its
reduced face is a loss, back to full a replacement; a unit put in a box is removed there, one taken from a
box onto the map arrives there.  Undone steps are left out, and a die rolled again after an undo is
reported with both results.  Every action remembers its step, so a violation names it.
"""

from __future__ import annotations

import json
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from pbem.formats.vassal.commands import MovePiece
from pbem.formats.vassal.logevents import LogReader, read_events
from pbem.formats.vassal.to_state import OpenedGame, PieceNamer, open_game, save_to_state
from pbem.model import schemas
from pbem.model.errors import PbemError, Source
from pbem.model.jsonsource import JsonDocument, parse_json
from pbem.model.module import Module
from pbem.model.violation import WARNING, Violation

REROLL_RULE = "undo"
# A turn's bounds (schemas/turn.schema.json), enforced while the log is read so that a hostile log is refused
# at the step that crosses them rather than after all of it has been turned into actions.
MAX_ACTIONS = 10_000
MAX_PATH = 1_000


@dataclass
class VassalTurnDocument:
    """A turn read from a VASSAL file, shaped like a JSON turn document, each action pointing at its step."""

    file: str
    data: dict[str, Any]
    steps: dict[str, int] = field(default_factory=dict)  # JSON pointer of an action -> VASSAL step
    start_document: JsonDocument | None = None
    notices: list[Violation] = field(default_factory=list)
    origin: str | None = None  # which VASSAL module version the file is from, and how its pieces were read

    def source(self, pointer: str) -> Source:
        while pointer and pointer not in self.steps:
            pointer = pointer.rsplit("/", 1)[0]
        step = self.steps.get(pointer)
        return Source(self.file, pointer=f"step {step}" if step is not None else (pointer or "/"))

    def error(self, pointer: str, message: str) -> PbemError:
        return PbemError(message, self.source(pointer))


class _TurnReader(LogReader):
    """The log reader, telling which pieces each move carries (a stack's pieces, or the piece)."""

    def _move(self, command: MovePiece, step) -> dict:
        stack = self.stacks.get(command.id)
        carried = list(stack.children) if stack is not None else [command.id]
        images = {pid: self.pieces[pid].piece for pid in carried if pid in self.pieces}
        event = super()._move(command, step)
        event["pieces"] = carried
        event["_pieces"] = images
        return event


def read_vassal_turn(path: str, module: Module | None = None, previous: str | None = None) -> VassalTurnDocument:
    """The turn a ``.vlog`` shows, or the turn between ``previous`` and a ``.vsav``."""
    opened = open_game(path, module)
    if opened.game.kind == "log":
        return _log_turn(opened)
    if previous is None:
        raise PbemError.at(path, "a save is a position, not a turn: give --state PREVIOUS (the previous save or a state file) to check the moves between them")
    return _save_turn(opened, previous)


def state_document_of_save(path: str, module: Module) -> JsonDocument:
    """A save's position as a checked state document."""
    opened = open_game(path, module)
    state, _ = save_to_state(opened.game, opened.mapping, opened.pieces, opened.namer)
    return _state_document(state, path)


def _state_document(state: dict[str, Any], file: str) -> JsonDocument:
    document = parse_json(json.dumps(state, ensure_ascii=False), file)
    schemas.check(document, "state")
    return document


def _header(opened: OpenedGame, state: dict[str, Any], side: str | None) -> dict[str, Any]:
    return {"module": opened.module.id, "scenario": state.get("scenario") or "", "turn": state["turn"],
            "side": side or state.get("side") or opened.module.sides[0],
            "start": {"scenario": state.get("scenario") or ""}, "actions": []}


# --- logs ---------------------------------------------------------------------------------------------

def _log_turn(opened: OpenedGame) -> VassalTurnDocument:
    state, namer = save_to_state(opened.game, opened.mapping, opened.pieces, opened.namer)
    vassal_module = namer.vassal_module
    reader = _TurnReader(opened.game, vassal_module, opened.restore, (opened.pieces, opened.stacks))
    reader.layouts = namer.layouts
    report = read_events(opened.game, vassal_module, reader)
    builder = _Builder(opened, namer, state)
    for step in report["steps"]:
        events = step["events"]
        if step.get("undone_by") is not None or (events and events[0]["type"] == "undo"):
            continue  # taken back, or the taking back itself
        for event in events:
            builder.event(step["index"], event)
    builder.close_round()
    data = _header(opened, state, builder.first_side)
    data["actions"] = [action for action, _ in builder.actions]
    steps = {f"/actions/{n}": step for n, (_, step) in enumerate(builder.actions)}
    notices = [_reroll(opened.game.source, reroll, opened) for reroll in report["summary"]["rerolls"]]
    return VassalTurnDocument(opened.game.source, data, steps, _state_document(state, opened.game.source), notices,
                              opened.mapping.version_read)


def _reroll(file: str, reroll: dict[str, Any], opened: OpenedGame) -> Violation:
    button = reroll["button"] or "a die"
    before = ",".join(map(str, reroll["before"]))
    after = ",".join(map(str, reroll["after"]))
    who = f" by {reroll['player']}" if reroll.get("player") else ""
    return Violation(REROLL_RULE, WARNING,
                     f"{button} rolled again{who} after an undo: {before} at step {reroll['undone_step']} (undone), "
                     f"then {after} at step {reroll['step']}",
                     None, Source(file, pointer=f"step {reroll['step']}"))


class _Builder:
    """Turns the kept steps' events into actions, round by round."""

    def __init__(self, opened: OpenedGame, namer: PieceNamer, state: dict[str, Any]):
        self.opened = opened
        self.module = opened.module
        self.mapping = opened.mapping
        self.namer = namer
        self.at = {u["id"]: u["at"] for u in state["units"]}
        # How many units of each side stand on each map location (by index): what a jump's path must avoid,
        # kept as units move rather than worked out from every unit at each jump.
        self.occupied: dict[str, Counter[int]] = {}
        for unit, where in self.at.items():
            self._count(unit, where, 1)
        self.step_of = {u["id"]: u.get("step", 0) for u in state["units"]}
        self.actions: list[tuple[dict[str, Any], int]] = []
        self.rounds: dict[str, int] = {}
        self.round: dict[str, Any] | None = None  # side, use, where its card play stands, origins
        self.open_moves: dict[str, int] = {}  # unit -> index of its move still being extended
        self.first_side: str | None = None
        self.combat: dict[str, Any] | None = None  # the attack being read: its action, units, target
        self.phase = self.mapping.data.get("turn", {}).get("phase", "action")
        self.activate_purpose = self.mapping.data.get("turn", {}).get("activate_moves")

    def add(self, action: dict[str, Any], step: int) -> int:
        if len(self.actions) >= MAX_ACTIONS:  # refused here, not after reading the rest of a hostile log
            raise self.error(step, f"the log makes more than {MAX_ACTIONS:,} actions, more than a turn holds")
        self.actions.append((action, step))
        return len(self.actions) - 1

    def _count(self, unit: str, where: str, change: int) -> None:
        index = self.module.map.find(where)
        if index is not None:
            side = self.module.units[unit].type.side
            self.occupied.setdefault(side, Counter())[index] += change

    def _place(self, unit: str, where: str) -> None:
        self._count(unit, self.at[unit], -1)
        self.at[unit] = where
        self._count(unit, where, 1)

    def _grown(self, step: int, unit: str, path: list[str], more: int) -> None:
        if len(path) + more > MAX_PATH:
            raise self.error(step, f"unit {unit}'s move goes through more than {MAX_PATH:,} locations, more than a turn's path holds")

    def error(self, step: int, message: str) -> PbemError:
        return PbemError(message, Source(self.opened.game.source, pointer=f"step {step}"))

    # --- events -----------------------------------------------------------------------------------
    def event(self, step: int, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "move":
            self.move(step, event)
        elif kind == "change":
            self.change(step, event)
        elif kind == "roll":
            self.roll(step, event)
        elif kind == "chat" and event.get("player") and not event.get("auto"):
            if not self.declaration(step, event["text"]):
                self.add({"comment": f"{event['player']}: {event['text']}"}, step)

    # --- attacks ----------------------------------------------------------------------------------
    def declaration(self, step: int, text: str) -> bool:
        """A typed attack declaration (the mapping's pattern) opens an attack; False if the chat is not one."""
        import re

        from pbem.model.patterns import match

        pattern = self.mapping.data.get("turn", {}).get("attack_chat")
        # A declaration is a short line: longer chat is not matched at all. RE2 runs the module's pattern in
        # time linear in the line, whatever the pattern (a backtracking engine took 52 s on 20 lines).
        found = match(pattern, text.strip()) if pattern and len(text) <= 300 else None
        if found is None:
            return False
        self.close_combat()
        groups = found.groupdict()
        game_map = self.module.map
        target = game_map.find(groups["target"].strip())
        if target is None:
            raise self.error(step, f"attack declared on {groups['target'].strip()!r}, not a space of the {self.module.id} map")
        side = self.round["side"] if self.round else None
        if groups.get("from"):
            spaces = []
            for name in re.split(r"\s*(?:,|\band\b|&)\s*", groups["from"].strip()):
                where = game_map.find(name)
                if where is None:
                    raise self.error(step, f"attack from {name!r}, not a space of the {self.module.id} map")
                spaces.append(game_map.label(where))
        else:
            spaces = [game_map.label(n) for n in game_map.neighbours[target]]
        attackers = [u for u, at in self.at.items() if at in spaces and (side is None or self.module.units[u].type.side == side)]
        defenders = [u for u, at in self.at.items() if at == game_map.label(target) and u not in attackers]
        if not attackers:
            raise self.error(step, f"attack on {game_map.label(target)} declared, but no unit of the side playing stands in {', '.join(spaces)}")
        if self.round is not None:
            for space in {self.at[u] for u in attackers}:
                self.round["origins"][space] = "attack"
                self.round["last"] = step
        action: dict[str, Any] = {"attack": attackers, "target": game_map.label(target)}
        if groups.get("result"):
            action["result"] = groups["result"]
        self.combat = {"action": action, "step": step, "attackers": set(attackers), "defenders": set(defenders),
                       "losses": {"attacker": [], "defender": []}, "retreats": {}, "advance": []}
        self.add(action, step)
        self.open_moves.clear()
        return True

    def in_combat(self, unit: str) -> str | None:
        if self.combat is None:
            return None
        if unit in self.combat["attackers"]:
            return "attacker"
        if unit in self.combat["defenders"]:
            return "defender"
        return None

    def close_combat(self) -> None:
        combat, self.combat = self.combat, None
        if combat is None:
            return
        action = combat["action"]
        if "roll" not in action:
            raise self.error(combat["step"], f"the attack on {action['target']} has no die roll: roll before the next action")
        if "result" not in action:
            raise self.error(combat["step"], f"the attack on {action['target']}: write the result in the declaration (attacker's/defender's loss numbers, e.g. 2/5)")
        losses = {who: steps for who, steps in combat["losses"].items() if steps}
        if losses:
            action["losses"] = losses
        if combat["retreats"]:
            action["retreats"] = combat["retreats"]
        if combat["advance"]:
            action["advance"] = combat["advance"]

    def move(self, step: int, event: dict[str, Any]) -> None:
        to = event["to"]
        place_name = self.namer.place_name(to["map"], to["x"], to["y"])
        destination = self.mapping.location(to["map"], place_name)
        for piece_id in event.get("pieces", ()):
            unit = self.namer.units.get(piece_id)
            if unit is not None:
                if destination is None:
                    raise self.error(step, f"unit {unit} was moved to {to['map']} / {place_name or 'offboard'} ({to['x']},{to['y']}), a place the {self.module.id} VASSAL mapping lacks")
                self.unit_move(step, unit, destination)
                continue
            piece = event.get("_pieces", {}).get(piece_id)
            card = self.mapping.card_of(piece) if piece is not None else None
            use = self.mapping.card_use(place_name) if to["map"] == self.mapping.data["locations"]["map"] else None
            if card is not None and use is not None:
                self.card(step, card, use)

    def unit_move(self, step: int, unit: str, destination: tuple[str, str]) -> None:
        source = self.at[unit]
        kind, where = destination
        if where == source:
            return
        role = self.in_combat(unit)
        if role is not None and self.combat_move(step, unit, role, source, kind, where):
            self._place(unit, where)
            return
        self.close_combat()
        on_map = self.module.map.find
        if kind == "box":
            self.add({"remove": unit, "to": where}, step)
            self.open_moves.pop(unit, None)
        elif source in self.module.boxes:
            self.add({"reinforce": unit, "at": where}, step)
            self.open_moves.pop(unit, None)
        else:
            path = self.path(source, where, unit)
            open_move = self.open_moves.get(unit)
            if open_move is not None:
                action = self.actions[open_move][0]
                self._grown(step, unit, action["path"], len(path) - 1)
                action["path"] += path[1:]
            else:
                action = {"move": unit, "path": path}
                if self.round and self.round["use"] == "sr":
                    action["by"] = "strategic"
                self.open_moves[unit] = self.add(action, step)
                if self.round is not None and on_map(source) is not None:
                    if source not in self.round["origins"]:
                        self.round["origins"][source] = self.activate_purpose
                        self.round["last"] = step
        self._place(unit, where)

    def combat_move(self, step: int, unit: str, role: str, source: str, kind: str, where: str) -> bool:
        """A retreat, an advance or an elimination inside the attack being read; False if it is none of these."""
        combat = self.combat
        target = combat["action"]["target"]
        if kind == "box":
            left = len(self.module.units[unit].type.steps) - self.step_of.get(unit, 0)
            combat["losses"][role] += [unit] * max(left, 1)  # eliminated: every step it had left
            self.step_of[unit] = len(self.module.units[unit].type.steps)
            return True
        if role == "defender" and (source == target or unit in combat["retreats"]):
            retreat = combat["retreats"].setdefault(unit, [])
            more = self.path(source, where, unit)[1:]
            self._grown(step, unit, retreat, len(more))
            retreat += more
            return True
        if role == "attacker" and where == target:
            combat["advance"].append(unit)
            return True
        return False

    def path(self, source: str, destination: str, unit: str) -> list[str]:
        """[source, destination], or the shortest way between them through spaces no other side holds when
        the log shows a jump (VASSAL records a drag's ends only)."""
        game_map = self.module.map
        a, b = game_map.find(source), game_map.find(destination)
        if a is None or b is None or game_map.is_adjacent(a, b):
            return [source, destination]
        side = self.module.units[unit].type.side
        others = [counts for other, counts in self.occupied.items() if other != side]
        previous = {a: a}
        queue = deque([a])
        while queue:
            here = queue.popleft()
            if here == b:
                break
            for nxt in game_map.neighbours[here]:
                if nxt not in previous and (nxt == b or not any(counts[nxt] for counts in others)):
                    previous[nxt] = here
                    queue.append(nxt)
        if b not in previous:
            return [source, destination]
        out = [b]
        while out[-1] != a:
            out.append(previous[out[-1]])
        return [game_map.label(i) for i in reversed(out)]

    def change(self, step: int, event: dict[str, Any]) -> None:
        unit = self.namer.units.get(event.get("id", ""))
        if unit is None or "name_after" not in event:
            return
        _, new_step = self.mapping.face(event["name_after"])
        old_step = self.step_of.get(unit, 0)
        role = self.in_combat(unit)
        if role is not None and new_step > old_step:
            self.combat["losses"][role].append(unit)
            self.step_of[unit] = new_step
            return
        self.close_combat()
        if new_step > old_step:
            self.add({"loss": unit}, step)
        elif new_step < old_step:
            self.add({"replace": unit}, step)
        self.step_of[unit] = new_step
        self.open_moves.clear()

    def roll(self, step: int, event: dict[str, Any]) -> None:
        button = event.get("button")
        known = self.mapping.dice(button)
        purpose = known["purpose"] if known else f"vassal:{button or 'dice'}"
        values = [v for v in event.get("values", []) if isinstance(v, int) and v >= 1]
        if not values:
            return
        if self.combat is not None and len(values) == 1:
            field = (known or {}).get("attack_field")
            if field and field not in self.combat["action"]:
                self.combat["action"][field] = values[0]
                return
        self.close_combat()
        roll: dict[str, Any] = {"purpose": purpose, "value": values[0] if len(values) == 1 else values}
        dice = (known or {}).get("dice") or event.get("dice")
        if dice:
            roll["dice"] = dice
        self.add({"roll": roll}, step)
        self.open_moves.clear()

    def card(self, step: int, card: str, use: str) -> None:
        side = self.module.cards[card].get("side")
        self.close_combat()
        self.close_round()
        if self.first_side is None:
            self.first_side = side
        self.rounds[side] = self.rounds.get(side, 0) + 1
        # No round number: a log does not say which action round it opens in (the next one, to the rules).
        self.add({"phase": self.phase, "side": side}, step)
        at = self.add({"card": card, "use": use}, step)
        self.round = {"side": side, "use": use, "at": at, "step": step, "origins": {}}
        self.open_moves.clear()

    def close_round(self) -> None:
        """Activate, for movement, the spaces units left in an OPS round (VASSAL has no activation markers)."""
        self.close_combat()
        current, self.round = self.round, None
        self.open_moves.clear()
        if current is None or current["use"] != "ops" or not current["origins"]:
            return
        spaces = {space: purpose for space, purpose in current["origins"].items() if purpose}
        if not spaces:
            return
        activation = {"activate": spaces}
        # It stands after the card play, but names the step where the last space was drawn in: where an
        # over-spent budget shows.
        self.actions.insert(current["at"] + 1, (activation, current.get("last", current["step"])))
        # Indices after the insertion point moved by one; open moves were cleared above.


# --- saves --------------------------------------------------------------------------------------------

def _save_turn(opened: OpenedGame, previous: str) -> VassalTurnDocument:
    state, namer = save_to_state(opened.game, opened.mapping, opened.pieces, opened.namer)
    from pbem.formats.turnfile import is_vassal_game

    if is_vassal_game(previous):
        before = state_document_of_save(previous, opened.module)
    else:
        from pbem.model.state import load_state_document

        before = load_state_document(previous)  # a state or a scenario file, as every --state takes
    was = {u["id"]: u for u in before.data["units"]}
    builder = _Builder(opened, namer, before.data)
    for unit in state["units"]:
        old = was.get(unit["id"])
        if old is None:
            continue
        builder.step_of[unit["id"]] = old.get("step", 0)
        if unit["at"] != old["at"]:
            kind = "box" if unit["at"] in opened.module.boxes else "space"
            builder.unit_move(0, unit["id"], (kind, unit["at"]))
            builder.open_moves.clear()
        new_step, old_step = unit.get("step", 0), old.get("step", 0)
        if new_step != old_step:
            builder.add({"loss": unit["id"]} if new_step > old_step else {"replace": unit["id"]}, 0)
    data = _header(opened, before.data, before.data.get("side"))
    data["turn"] = before.data["turn"]
    data["actions"] = [action for action, _ in builder.actions]
    document = VassalTurnDocument(opened.game.source, data, {}, before, origin=opened.mapping.version_read)
    return document
