"""Reading notation into the JSON turn shape, every problem collected with its line and column."""


from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from lark import Token, Tree

from pbem.formats.notation.cleanup import (
    LINE_COST,
    MAX_ERRORS,
    MAX_FILE,
    MAX_LINE,
    MAX_READ,
    Line,
    _email_body,
    clean_lines,
    turn_lines,
)
from pbem.formats.notation.grammar import _CLAUSE_START, _Failure, _parse
from pbem.formats.notation.located import At
from pbem.formats.notation.names import MAX_SUGGESTIONS, Names, _find_module
from pbem.model.actions import counter_kind
from pbem.model.errors import PbemError, Source
from pbem.model.files import read_text
from pbem.model.jsonsource import JsonDocument, escape_pointer_token
from pbem.model.module import Module, other_modules


@dataclass
class Problem:
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.line}:{self.column}: {self.message}"


class NotationError(PbemError):
    """Every problem found in a notation file; the first one's place is the error's place."""

    def __init__(self, file: str, problems: list[Problem]):
        self.problems = sorted(problems, key=lambda p: (p.line, p.column))
        first = self.problems[0]
        if len(self.problems) == 1:
            message = first.message
        else:
            rest = "; ".join(str(p) for p in self.problems[1:MAX_ERRORS])
            more = f"; and {len(self.problems) - MAX_ERRORS} more" if len(self.problems) > MAX_ERRORS else ""
            message = f"{first.message}; {len(self.problems) - 1} more: {rest}{more}"
        super().__init__(message, Source(file, first.line, first.column))
        self.file = file

    def lines(self) -> list[str]:
        """One ``file:line:col: message`` per problem, for a command that prints them one per line."""
        return [f"{self.file}:{p}" for p in self.problems]


@dataclass
class NotationDocument(JsonDocument):
    """A notation turn file with the interface of a JSON document: ``data``, ``source``, ``error``."""

    positions: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)

    def position(self, pointer: str) -> tuple[int, int] | None:
        while pointer not in self.positions and pointer:
            pointer = pointer.rsplit("/", 1)[0]
        return self.positions.get(pointer)


MAX_CLOSING = 3  # lines of a closing remark after the last action
HEADER_FIELDS = {
    "game": "module", "module": "module", "version": "module_version", "scenario": "scenario", "turn": "turn",
    "side": "side", "start": "start", "player": "player", "note": "note", "starts": "from", "ends": "to", "writer": "writer", "options": "options",
    "dice": "dice",
}  # fmt: skip
COMBAT_ORDER = (
    "defenders", "support", "declare", "flank", "cards", "odds", "shifts", "column", "roll", "defender_roll", "result", "losses",
    "negated", "replacements", "eliminated", "retreats", "advance", "defender_advance",
)  # fmt: skip
# The order of keys in the JSON of the actions that take clauses, as the turn schema lists them.
KEY_ORDER = {
    "attack": ("attack", "target", *COMBAT_ORDER),
    "overrun": ("overrun", "target", *COMBAT_ORDER),
    "fire": ("fire", "target", "spotter", "declare", "roll", "result", "losses", "eliminated"),
    "special": ("special", "units", "at", "roll", "result"),
}
# What each clause is called in a message, and which clauses each action with clauses takes.
_CLAUSE_NAMES = {
    "odds": "odds", "column": "final column", "shifts": "column shifts", "no_shifts": "column shifts", "die": "roll",
    "result": "result", "defenders": "defenders", "support": "support", "declare": "declarations",
    "attacker_losses": "losses", "defender_losses": "losses", "no_losses": "losses", "eliminated": "eliminated units",
    "retreat": "retreats", "no_retreats": "retreats", "advance": "advance", "defender_advance": "defender advance",
    "spotter": "spotter",
    "defender_roll": "defender's roll", "flank": "flank attempt", "cards": "combat cards", "replacement": "replacing unit",
    "advance_path": "advance", "negated": "negated losses",
}  # fmt: skip
_CLAUSES = {
    "attack": frozenset(_CLAUSE_NAMES) - {"spotter"},
    "overrun": frozenset(_CLAUSE_NAMES) - {"spotter"},
    "fire": frozenset({"spotter", "declare", "die", "result", "attacker_losses", "defender_losses", "no_losses", "eliminated"}),
    "special": frozenset({"die", "result"}),
}
_NOUNS = {"attack": "an attack", "overrun": "an attack", "fire": "a fire", "special": "a special order"}
_TAKES = {
    "attack": "a spotter goes with fire: UNITS fire at HEX (spotter UNIT)",
    "overrun": "a spotter goes with fire: UNITS fire at HEX (spotter UNIT)",
    "fire": "a fire takes a spotter, declarations, roll, result, losses and eliminated units",
    "special": "a special order takes its units, 'at HEX', a roll and a result",
}
# Action words a special order written without 'Special' must not be mistaken for (a typo of 'Eliminate'...).
_VERBS = (
    "eliminate", "remove", "loss", "reduce", "flip", "reinforce", "reinforcement", "enter", "arrive", "replace", "rebuild",
    "restore", "roll", "card", "play", "move", "attack", "overrun", "assault", "fire", "special", "phase", "activate",
    "control", "sr", "redeploy",
)  # fmt: skip
_SPECIAL_NAME = re.compile(r"[a-z][a-z0-9_]*")
_CONTROL_LINE = re.compile(r"\s*control\b", re.IGNORECASE)


def closing_candidate(lines: list[Line]) -> list[int]:
    """The line numbers of the last paragraph when it may be a closing remark, else [].

    It follows a blank line (so it is not the whole turn), has at most ``MAX_CLOSING`` lines and no digit: every action
    names a hex or a unit, which a mistyped one still does, and those names hold digits.
    """
    block: list[Line] = []
    for line in reversed(lines):
        if block and line.number != block[-1].number - 1:
            break
        block.append(line)
    if len(block) == len(lines) or len(block) > MAX_CLOSING or any(ch.isdigit() for line in block for ch in line.text):
        return []
    return [line.number for line in reversed(block)]


def action_kind(action: dict[str, Any]) -> str:
    """The kind of an action that takes clauses (attack, overrun, fire, special), or ''."""
    return next((kind for kind in KEY_ORDER if kind in action), "")


class _Reader:
    """Turns the lines of one file into JSON turn data, collecting every problem on the way."""

    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []
        self.header: dict[str, At] = {}
        self.actions: list[dict[str, Any]] = []
        self.action_at: list[tuple[int, int]] = []
        self.combat: tuple[dict[str, Any], int] | None = None  # the attack that continuation lines extend
        self.first_line: tuple[int, int] = (1, 1)
        self.failed_indent: int | None = None  # indentation of the last line that could not be read
        self.closing: list[int] = []  # the lines that may be a closing remark (see forgive_closing)
        self.unread: set[int] = set()  # lines that could not be read as notation
        self.actions_per_line: dict[int, int] = {}
        self.action_line_kinds: dict[tuple[int, int], str] = {}  # (line, n-th action on it) -> 'bare special' or ''

    def problem(self, line: int, column: int, message: str) -> None:
        self.problems.append(Problem(line, column, message))

    # --- lines ----------------------------------------------------------------------------------------
    def read(self, lines: list[Line]) -> None:
        if lines:
            self.first_line = (lines[0].number, lines[0].indent + 1)
        read = 0
        for line in lines:
            read += len(line.text) + LINE_COST
            if read > MAX_READ:
                self.problem(line.number, 1, f"the turn is longer than pbem reads ({MAX_READ:,} characters, each line counting {LINE_COST} more; a turn is a few thousand): not read further")
                break
            if len(line.text) > MAX_LINE:
                self.problem(line.number, MAX_LINE, f"line longer than {MAX_LINE} characters")
                continue
            if len(self.problems) >= MAX_ERRORS:
                break
            self.read_line(line)
        self.closing = closing_candidate(lines)
        self.unread = {p.line for p in self.problems}

    def forgive_closing(self, named: dict[int, tuple[int, int]]) -> None:
        """Drop a closing remark ("Cheers, Ivan", "Your turn.", "Good luck."): a short last paragraph of prose.

        The paragraph is the candidate :func:`closing_candidate` finds, and each of its lines is prose: it cannot be
        read as notation, or it reads only as a special order written without ``Special`` (the form that takes any
        leading words for an order's name, so "Your turn." is the order "your" of a unit "turn.") and no name it gives
        is one of the game's units, locations, boxes or sides. ``named`` counts, per line, the names found and not
        found in the game. A paragraph with an action word, or naming anything of the game, is the turn, and reported.
        """
        if not self.closing:
            return
        for number in self.closing:
            if number in self.unread:
                continue
            kinds = [self.action_line_kinds.get((number, k)) for k in range(self.actions_per_line.get(number, 0))]
            found, missing = named.get(number, (0, 0))
            if not kinds or any(kind != "bare special" for kind in kinds) or found or not missing:
                return
        numbers = set(self.closing)
        self.problems = [p for p in self.problems if p.line not in numbers]
        kept = [(a, at) for a, at in zip(self.actions, self.action_at) if at[0] not in numbers]
        self.actions = [a for a, _ in kept]
        self.action_at = [at for _, at in kept]

    def read_line(self, line: Line) -> None:
        clause_like = bool(_CLAUSE_START.match(line.text))
        continuation = self.combat is not None and (line.indent > self.combat[1] or clause_like)
        order = ("continuation", "line") if continuation else ("line", "continuation")
        failures: dict[str, _Failure] = {}
        orphan = False
        for start in order:
            tree = _parse(line.text, start)
            if isinstance(tree, _Failure):
                failures[start] = tree
            elif start == "line":
                self.failed_indent = None
                self.line(tree, line)
                return
            elif self.combat is not None:
                self.failed_indent = None
                self.extend_combat(tree, line)
                return
            else:
                orphan = True
                failures[start] = _Failure(line.indent + 1, "this reads like part of an attack, but no attack comes before it")
        if orphan and self.failed_indent is not None and line.indent > self.failed_indent:
            return  # a continuation of a line already reported as unreadable: one report is enough
        # Report what the player most likely meant: a clause of the attack above, or a line of its own.
        best = failures["continuation"] if clause_like or continuation else failures["line"]
        message = best.message
        if not continuation and _CONTROL_LINE.match(line.text) and "Control SPACE" not in message:
            message = message.replace(" (a move is written UNITS: HEX-HEX-…)", "") + " (a control change is written Control SPACE (side), SPACE (side))"
        self.problem(line.number, best.column, message)
        if not continuation:  # an unreadable action: what follows can no longer extend the attack before it
            self.failed_indent = line.indent
            self.combat = None

    def line(self, tree: Tree, line: Line) -> None:
        children = tree.children
        comment = _note(children[-1]) if children and _is(children[-1], "COMMENT") else None
        body = children[0] if children and isinstance(children[0], Tree) else None
        if body is None:
            if comment is not None:  # a comment line
                if self.combat is not None and line.indent > self.combat[1]:
                    action = self.combat[0]
                    action["note"] = f"{action['note']} {comment}" if "note" in action else comment
                else:
                    self.add({"comment": comment}, line, line.indent + 1, keep_combat=True)
            return
        if body.data in ("header", "text_header"):
            self.read_header(body, line)
            return
        action = getattr(self, "a_" + body.data)(body, line)
        if action is None:
            return
        if comment:
            action["note"] = comment
        bare = body.data == "special" and _child(body, "order") is None and not _tokens(body, "SPECIAL")
        self.add(action, line, line.indent + 1, kind="bare special" if bare else "")
        if body.data in KEY_ORDER:  # lines below may add clauses to it
            self.combat = (action, line.indent)

    def add(self, action: dict[str, Any], line: Line, column: int, keep_combat: bool = False, kind: str = "") -> None:
        self.actions.append(action)
        self.action_at.append((line.number, column))
        count = self.actions_per_line.get(line.number, 0)
        self.action_line_kinds[(line.number, count)] = kind
        self.actions_per_line[line.number] = count + 1
        if not keep_combat:
            self.combat = None

    def read_header(self, tree: Tree, line: Line) -> None:
        key_token = tree.children[0]
        key = HEADER_FIELDS[str(key_token).strip().lower()]
        values = [c for c in tree.children[1:] if isinstance(c, Token) and c.type in ("STRING", "VALUE", "TEXT")]
        if not values:
            self.problem(line.number, key_token.end_column or 1, f"{str(key_token).strip()}: needs a value")
            return
        token = values[0]
        text = self.string(token, line) if token.type == "STRING" else str(token).strip()
        if text is None:
            return
        if key in self.header:
            first = self.header[key]
            self.problem(line.number, key_token.column, f"a second {str(key_token).strip()}: line (the first is on line {first.line})")
            return
        self.header[key] = At(text, line.number, token.column)

    # --- actions --------------------------------------------------------------------------------------
    def a_phase(self, tree: Tree, line: Line) -> dict[str, Any]:
        name = _child(tree, "phase_name")
        action: dict[str, Any] = {"phase": self.words(name, line).lower()}
        side = _child(tree, "side_tag")
        if side is not None:
            token = side.children[0]
            action["side"] = At(str(token), line.number, token.column, "side")
        round_tag = _child(tree, "round_tag")
        if round_tag is not None:
            action["round"] = int(_tokens(round_tag, "INT")[0])
        return action

    def a_move(self, tree: Tree, line: Line) -> dict[str, Any] | None:
        units = self.units(_child(tree, "units"), line)
        action: dict[str, Any] = {"move": units[0] if len(units) == 1 else units, "path": self.path(_child(tree, "path"), line)}
        modes = [m for m in tree.children if isinstance(m, Tree) and m.data == "mode"]
        if len(modes) > 1:
            self.problem(line.number, _column(modes[1]), "the move says 'by …' twice")
        if modes:
            action["by"] = str(_tokens(modes[0], "MODE")[0]).lower()
        for declared in (c for c in tree.children if isinstance(c, Tree) and c.data == "move_declare"):
            action.setdefault("declare", []).extend(self.name_or_string(item, line) for item in declared.children if isinstance(item, Tree))
        return action

    def a_sr(self, tree: Tree, line: Line) -> dict[str, Any]:
        """Strategic redeployment in one form: a path over the map or by sea, or into or out of a box (the Reserve Box)."""
        units = self.units(_child(tree, "units"), line)
        path = [At(self.words(child, line), line.number, _column(child), "place") for child in _child(tree, "path").children if isinstance(child, Tree)]
        action: dict[str, Any] = {"sr": units[0] if len(units) == 1 else units, "path": path}
        mode = _child(tree, "mode")
        if mode is not None:
            action["by"] = str(_tokens(mode, "MODE")[0]).lower()
        return action

    def a_attack(self, tree: Tree, line: Line, kind: str = "attack") -> dict[str, Any]:
        units = self.units(_child(tree, "units"), line)
        action: dict[str, Any] = {kind: units, "target": self.location(_child(tree, "loc"), line)}
        self.clauses(action, _child(tree, "clauses"), line)
        return action

    def a_overrun(self, tree: Tree, line: Line) -> dict[str, Any]:
        return self.a_attack(tree, line, "overrun")

    def a_fire(self, tree: Tree, line: Line) -> dict[str, Any]:
        return self.a_attack(tree, line, "fire")

    def a_special(self, tree: Tree, line: Line) -> dict[str, Any]:
        named = _child(tree, "order")
        token = named.children[0] if named is not None else _tokens(tree, "ORDER")[0]
        written = (self.string(token, line) or "") if token.type == "STRING" else str(token)
        order = re.sub(r"[\s-]+", "_", written.strip().casefold())
        if not _SPECIAL_NAME.fullmatch(order):
            self.problem(line.number, token.column, f"a special order is named in letters, digits and '_' (such as dig_in), not {written!r}")
        if named is None:  # written without 'Special': make sure it is not a misspelt action word
            first = order.split("_")[0]
            close = difflib.get_close_matches(first, _VERBS, n=1, cutoff=0.8)
            if close:
                self.problem(
                    line.number, token.column,
                    f"cannot read {written.split()[0]!r}: did you mean {close[0].capitalize()}? (a special order of the module "
                    f"with this name is written Special {written}: …)",
                )  # fmt: skip
        action: dict[str, Any] = {"special": order}
        units = _child(tree, "units")
        if units is not None:
            action["units"] = self.units(units, line)
        place = _child(tree, "place")
        if place is not None:
            action["at"] = self.location(_child(place, "loc"), line)
        self.clauses(action, _child(tree, "clauses"), line)
        return action

    def a_eliminate(self, tree: Tree, line: Line) -> dict[str, Any]:
        units = self.units(_child(tree, "units"), line)
        action: dict[str, Any] = {"eliminate": units[0] if len(units) == 1 else units}
        return self.reason(action, tree, line)

    def a_remove(self, tree: Tree, line: Line) -> dict[str, Any]:
        units = self.units(_child(tree, "units"), line)
        box = _child(tree, "name_or_string")
        return {"remove": units[0] if len(units) == 1 else units, "to": At(self.name_or_string(box, line), line.number, _column(box), "box")}

    def a_loss(self, tree: Tree, line: Line) -> dict[str, Any]:
        return self.reason({"loss": self.unit(_child(tree, "unit"), line)}, tree, line)

    def reason(self, action: dict[str, Any], tree: Tree, line: Line) -> dict[str, Any]:
        reason = _child(tree, "reason")
        if reason is not None:
            text = self.text_value(reason.children[-1], line)
            if text is not None:
                action["reason"] = text
        return action

    def a_reinforce(self, tree: Tree, line: Line) -> dict[str, Any]:
        units = self.units(_child(tree, "units"), line)
        return {"reinforce": units[0] if len(units) == 1 else units, "at": self.location(_child(tree, "loc"), line)}

    def a_replace(self, tree: Tree, line: Line) -> dict[str, Any]:
        action: dict[str, Any] = {"replace": self.unit(_child(tree, "unit"), line)}
        place = _child(tree, "loc")
        if place is not None:  # a rebuilt unit: a location or a box, told apart when names are resolved
            action["at"] = At(self.words(place, line), line.number, _column(place), "place")
        return action

    def a_control(self, tree: Tree, line: Line) -> dict[str, Any]:
        spaces: list[tuple[At, At]] = []
        for item in (c for c in tree.children if isinstance(c, Tree) and c.data == "ctl_item"):
            side = _tokens(item, "WORD")[0]
            spaces.append((self.location(_child(item, "loc"), line), At(str(side), line.number, side.column, "side")))
        return {"control": spaces}

    def a_roll(self, tree: Tree, line: Line) -> dict[str, Any]:
        roll: dict[str, Any] = {"purpose": self.words(_child(tree, "purpose"), line)}
        dice = _tokens(tree, "DICE")
        if dice:
            roll["dice"] = str(dice[0]).lower()
        side = _tokens(tree, "WORD")
        if side:
            roll["side"] = At(str(side[0]), line.number, side[0].column, "side")
        values = [int(t) for t in _tokens(_child(tree, "roll_values"), "INT")]
        roll["value"] = values[0] if len(values) == 1 else values
        modifiers = _child(tree, "modifiers")
        if modifiers is not None:
            roll["modifiers"] = self.signed_map(modifiers, line, "modifier")
        results = [c for c in tree.children if isinstance(c, Token) and c.type in ("STRING", "VALUE")]
        if results:
            text = self.text_value(results[-1], line)
            if text is not None:
                roll["result"] = text
        return {"roll": roll}

    def a_card(self, tree: Tree, line: Line) -> dict[str, Any]:
        written = _child(tree, "card_name")
        name = self.words(written, line)
        use = self.text_value([c for c in tree.children if isinstance(c, Token) and c.type in ("STRING", "VALUE")][-1], line)
        quoted = any(isinstance(c, Token) and c.type == "STRING" for c in written.children)  # "none" in quotes is a card's name
        no_card = name.casefold() == "none" and not quoted
        return {"card": None if no_card else At(name, line.number, _column(written), "card"), "use": use or ""}

    def a_activate(self, tree: Tree, line: Line) -> dict[str, Any]:
        spaces: list[tuple[At, str]] = []
        for item in (c for c in tree.children if isinstance(c, Tree) and c.data == "act_item"):
            spaces.append((self.location(_child(item, "loc"), line), str(_tokens(item, "PWORD")[0]).lower()))
        action: dict[str, Any] = {"activate": spaces}
        cost = [t for t in tree.children if isinstance(t, Token) and t.type == "INT"]
        if cost:
            action["cost"] = int(cost[0])
        return action

    # --- combat clauses -------------------------------------------------------------------------------
    def extend_combat(self, tree: Tree, line: Line) -> None:
        assert self.combat is not None
        action = self.combat[0]
        self.clauses(action, tree.children[0], line)
        if len(tree.children) > 1:
            comment = _note(tree.children[1])
            if comment:
                action["note"] = f"{action['note']} {comment}" if "note" in action else comment

    def clauses(self, action: dict[str, Any], tree: Tree, line: Line) -> None:
        kind = action_kind(action)
        for clause in tree.children:
            if not isinstance(clause, Tree):
                continue
            if clause.data not in _CLAUSES[kind]:
                self.problem(line.number, _column(clause), f"{_NOUNS[kind]} has no {_CLAUSE_NAMES[clause.data]} ({_TAKES[kind]})")
                continue
            getattr(self, "c_" + clause.data)(action, clause, line)

    def once(self, action: dict[str, Any], key: str, value: Any, clause: Tree, line: Line) -> None:
        if key in action:
            noun = _NOUNS[action_kind(action)].split(" ", 1)[1]
            self.problem(line.number, _column(clause), f"this {noun} already has its {key.replace('_', ' ')}")
        else:
            action[key] = value

    def c_odds(self, action, clause, line):
        self.once(action, "odds", self.ratio(clause, line), clause, line)

    def c_column(self, action, clause, line):
        self.once(action, "column", self.ratio(clause, line), clause, line)

    def c_shifts(self, action, clause, line):
        self.once(action, "shifts", self.signed_map(_child(clause, "shift_list"), line, "shift"), clause, line)

    def c_no_shifts(self, action, clause, line):
        self.once(action, "shifts", {}, clause, line)

    def c_die(self, action, clause, line):
        tokens = _tokens(clause, "INT")
        if len(tokens) > 1 and action_kind(action) in ("attack", "overrun"):
            self.problem(line.number, tokens[1].column, "the roll of an attack is one number: write the total")
            return
        value = int(tokens[0]) if len(tokens) == 1 else [int(t) for t in tokens]  # one die is a number, like a roll's value
        self.once(action, "roll", At(value, line.number, tokens[0].column), clause, line)

    def c_spotter(self, action, clause, line):
        self.once(action, "spotter", self.unit(_child(clause, "unit"), line), clause, line)

    def c_result(self, action, clause, line):
        token = clause.children[-1]
        text = self.string(token, line) if token.type == "STRING" else str(token)
        if text is not None:
            self.once(action, "result", At(text, line.number, token.column), clause, line)

    def c_defenders(self, action, clause, line):
        self.once(action, "defenders", self.units(_child(clause, "units"), line), clause, line)

    def c_support(self, action, clause, line):
        support = action.setdefault("support", {})
        for amount in clause.children:
            if isinstance(amount, Tree):
                name = self.name_or_string(amount.children[0], line)
                if name in support:
                    self.problem(line.number, _column(amount), f"support {name!r} is given twice")
                support[name] = int(amount.children[1])

    def c_declare(self, action, clause, line):
        declared = action.setdefault("declare", [])
        for item in clause.children:
            if isinstance(item, Tree):
                declared.append(self.name_or_string(item, line))

    def c_defender_roll(self, action, clause, line):
        self.once(action, "defender_roll", int(_tokens(clause, "INT")[0]), clause, line)

    def c_flank(self, action, clause, line):
        flank = {"pin": self.location(_child(clause, "loc"), line), "roll": int(_tokens(clause, "INT")[0])}
        if drm := _tokens(clause, "DRM"):
            flank["drm"] = int(drm[0])
        self.once(action, "flank", flank, clause, line)

    def c_cards(self, action, clause, line):
        cards = action.setdefault("cards", [])
        cards.extend(At(self.name_or_string(item, line), line.number, _column(item), "card")
                     for item in clause.children if isinstance(item, Tree))

    def c_replacement(self, action, clause, line):
        old, new = (c for c in clause.children if isinstance(c, Tree) and c.data == "unit")
        replacing = self.unit(new, line)
        if counter_kind(str(replacing.value)) is not None:  # "by a FR corps": pbem picks the counter
            replacing.kind = "text"
        action.setdefault("replacements", []).append((self.unit(old, line), replacing))

    def c_attacker_losses(self, action, clause, line):
        self.losses(action, "attacker", clause, line)

    def c_defender_losses(self, action, clause, line):
        self.losses(action, "defender", clause, line)

    def losses(self, action, side, clause, line):
        losses = action.setdefault("losses", {})
        losses.setdefault(side, []).extend(self.units_or_none(_child(clause, "units_or_none"), line))

    def c_no_losses(self, action, clause, line):
        action.setdefault("losses", {})

    def c_eliminated(self, action, clause, line):
        action.setdefault("eliminated", []).extend(self.units_or_none(_child(clause, "units_or_none"), line))

    def c_advance(self, action, clause, line):
        action.setdefault("advance", []).extend(self.units_or_none(_child(clause, "units_or_none"), line))

    def c_advance_path(self, action, clause, line):
        # "advance A to Sedan - Chateau Thierry": the spaces entered, the attacked space first; with one such
        # clause the whole advance is written as a dict of paths (a plain "advance B" then enters the target only).
        unit = self.unit(_child(clause, "unit"), line)
        action.setdefault("advance", []).append((unit, self.path(_child(clause, "rpath"), line)))

    def c_negated(self, action, clause, line):
        action.setdefault("negated", []).extend(self.units(_child(clause, "units"), line))

    def c_retreat(self, action, clause, line):
        unit = self.unit(_child(clause, "unit"), line)
        path = self.path(_child(clause, "rpath"), line)
        retreats = action.setdefault("retreats", [])
        retreats.append((unit, path))

    def c_defender_advance(self, action, clause, line):
        unit = self.unit(_child(clause, "unit"), line)
        path = self.path(_child(clause, "rpath"), line)
        action.setdefault("defender_advance", []).append((unit, path))

    def c_no_retreats(self, action, clause, line):
        action.setdefault("retreats", [])

    # --- values ---------------------------------------------------------------------------------------
    def string(self, token: Token, line: Line) -> str | None:
        try:
            value = json.loads(str(token))
        except ValueError:
            self.problem(line.number, token.column, "this quoted text has a bad escape")
            return None
        return value if isinstance(value, str) else None

    def text_value(self, token: Token, line: Line) -> str | None:
        return self.string(token, line) if token.type == "STRING" else str(token).strip()

    def words(self, tree: Tree, line: Line) -> str:
        tokens = [t for t in tree.children if isinstance(t, Token)]
        if len(tokens) == 1 and tokens[0].type == "STRING":
            return self.string(tokens[0], line) or ""
        return " ".join(str(t) for t in tokens)

    def name_or_string(self, tree: Tree | Token, line: Line) -> str:
        token = tree.children[0] if isinstance(tree, Tree) else tree
        return (self.string(token, line) or "") if token.type == "STRING" else str(token)

    def unit(self, tree: Tree, line: Line) -> At:
        return At(self.words(tree, line), line.number, _column(tree), "unit")

    def units(self, tree: Tree, line: Line) -> list[At]:
        return [self.unit(child, line) for child in tree.children if isinstance(child, Tree)]

    def units_or_none(self, tree: Tree, line: Line) -> list[At]:
        inner = _child(tree, "units")
        return [] if inner is None else self.units(inner, line)

    def location(self, tree: Tree, line: Line) -> At:
        return At(self.words(tree, line), line.number, _column(tree), "location")

    def path(self, tree: Tree, line: Line) -> list[At]:
        return [self.location(child, line) for child in tree.children if isinstance(child, Tree)]

    def ratio(self, clause: Tree, line: Line) -> At:
        token = _tokens(clause, "RATIO")[0]
        numbers = re.findall(r"\d+", str(token))
        return At(f"{int(numbers[0])}/{int(numbers[1])}", line.number, token.column)

    def signed_map(self, tree: Tree, line: Line, rule: str) -> dict[str, int]:
        result: dict[str, int] = {}
        for item in tree.children:
            if isinstance(item, Tree) and item.data == rule:
                name = self.name_or_string(item.children[0], line)
                if name in result:
                    self.problem(line.number, _column(item), f"{name!r} is given twice")
                result[name] = int(item.children[1])
        return result


def _is(node: Any, kind: str) -> bool:
    return isinstance(node, Token) and node.type == kind


def _note(token: Token) -> str | None:
    return str(token)[1:].strip()


def _child(tree: Tree, name: str) -> Tree | None:
    for child in tree.children:
        if isinstance(child, Tree) and child.data == name:
            return child
    return None


def _tokens(tree: Tree | None, kind: str) -> list[Token]:
    return [] if tree is None else [c for c in tree.children if isinstance(c, Token) and c.type == kind]


def _column(tree: Tree | Token) -> int:
    for token in _leaves(tree):
        if token.column is not None:
            return token.column
    return 1


def _leaves(node: Tree | Token) -> Iterator[Token]:
    if isinstance(node, Token):
        yield node
    else:
        for child in node.children:
            yield from _leaves(child)


# --- putting it together -----------------------------------------------------------------------------


class _Finisher:
    """Resolves every name against the module and records the place of every JSON pointer."""

    def __init__(self, reader: _Reader, names: Names | None):
        self.reader = reader
        self.names = names
        self.positions: dict[str, tuple[int, int]] = {}
        self.named: dict[int, tuple[int, int]] = {}  # line -> (names found in the game, names not found)
        self.missing: list[At] = []  # every name not found, in the order read

    def value(self, value: Any, pointer: str) -> Any:
        if isinstance(value, At):
            self.positions[pointer] = (value.line, value.column)
            return self.resolve(value)
        if isinstance(value, dict):
            return {key: self.value(item, f"{pointer}/{escape_pointer_token(key)}") for key, item in value.items()}
        if isinstance(value, list):
            return [self.value(item, f"{pointer}/{n}") for n, item in enumerate(value)]
        return value

    def resolve(self, at: At) -> Any:
        if at.kind == "text" or self.names is None:
            return at.value
        found, refusal = getattr(self.names, at.kind)(at.value)
        have, lack = self.named.get(at.line, (0, 0))
        self.named[at.line] = (have, lack + 1) if found is None else (have + 1, lack)
        if found is None:
            self.missing.append(at)
            self.reader.problem(at.line, at.column, refusal)
            return at.value
        return found

    def action(self, action: dict[str, Any], pointer: str) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, item in action.items():
            if key == "control":
                sides: dict[str, str] = {}
                for at, side in item:
                    name = self.resolve(at)
                    if name in sides:
                        self.reader.problem(at.line, at.column, f"{name} is named twice")
                        continue
                    where = f"{pointer}/control/{escape_pointer_token(name)}"
                    self.positions[where] = (at.line, at.column)
                    sides[name] = self.value(side, where)
                result[key] = sides
            elif key == "advance" and any(isinstance(entry, tuple) for entry in item):
                target = result.get("target")
                advancing: dict[str, list[str]] = {}
                for entry in item:
                    unit, path = entry if isinstance(entry, tuple) else (entry, None)
                    name = self.resolve(unit)
                    if name in advancing:
                        self.reader.problem(unit.line, unit.column, f"{name} already advances in this attack")
                        continue
                    where = f"{pointer}/advance/{escape_pointer_token(name)}"
                    self.positions[where] = (unit.line, unit.column)
                    advancing[name] = [target] if path is None else [self.value(step, f"{where}/{k}") for k, step in enumerate(path)]
                result[key] = advancing
            elif key == "activate":
                spaces: dict[str, str] = {}
                for at, purpose in item:
                    name = self.resolve(at)
                    if name in spaces:
                        self.reader.problem(at.line, at.column, f"{name} is activated twice")
                        continue
                    self.positions[f"{pointer}/activate/{escape_pointer_token(name)}"] = (at.line, at.column)
                    spaces[name] = purpose
                result[key] = spaces
            elif key == "replacements":
                replacing: dict[str, str] = {}
                for old, new in item:
                    name = self.resolve(old)
                    self.positions[f"{pointer}/replacements/{escape_pointer_token(name)}"] = (old.line, old.column)
                    replacing[name] = self.resolve(new)
                result[key] = replacing
            elif key in ("retreats", "defender_advance"):
                paths: dict[str, list[str]] = {}
                for unit, path in item:
                    name = self.resolve(unit)
                    if name in paths:
                        what = "a retreat" if key == "retreats" else "an advance"
                        self.reader.problem(unit.line, unit.column, f"{name} already has {what} in this attack")
                        continue
                    where = f"{pointer}/{key}/{escape_pointer_token(name)}"
                    self.positions[where] = (unit.line, unit.column)
                    self.positions.setdefault(f"{pointer}/{key}", (unit.line, unit.column))
                    paths[name] = [self.value(step, f"{where}/{k}") for k, step in enumerate(path)]
                result[key] = paths
            else:
                result[key] = self.value(item, f"{pointer}/{key}")
        kind = action_kind(result)
        if kind:
            ordered = {k: result[k] for k in KEY_ORDER[kind] if k in result}
            ordered.update({k: v for k, v in result.items() if k not in ordered})
            result = ordered
        return result


def parse_notation(text: str, file: str | Path, first_line: int = 1, state: str | Path | None = None) -> NotationDocument:
    """Read a turn written in the notation; every problem is reported in one :class:`NotationError`.

    ``state`` is the state the turn will start from when not its header's (``--state``): a mistyped unit is
    matched against the units on the map there first."""
    file = str(file)
    reader = _Reader(file)
    reader.read(turn_lines(clean_lines(text, first_line)))
    header = reader.header
    data: dict[str, Any] = {}
    positions: dict[str, tuple[int, int]] = {"": reader.first_line}
    names: Names | None = None
    if "module" in header:
        module, reference, refusal = _find_module(header["module"], file)
        if refusal:
            reader.problem(header["module"].line, header["module"].column, refusal)
        data["module"] = reference
        if module is not None:
            from pbem.formats.turnfile import start_units

            found_module = module
            names = Names(module, lambda: start_units(file, data.get("start"), found_module, state))
    finisher = _Finisher(reader, names)
    for key in ("module_version", "scenario", "player", "note"):
        if key in header:
            data[key] = finisher.value(header[key], f"/{key}")
    if "turn" in header:
        at = header["turn"]
        if re.fullmatch(r"\d{1,9}", at.value):
            data["turn"] = finisher.value(At(int(at.value), at.line, at.column), "/turn")
        else:
            reader.problem(at.line, at.column, f"the turn is a number, not {at.value!r}")
    if "side" in header:
        data["side"] = finisher.value(At(header["side"].value, header["side"].line, header["side"].column, "side"), "/side")
    if "writer" in header:
        data["writer"] = finisher.value(At(header["writer"].value.lower(), header["writer"].line, header["writer"].column), "/writer")
    for key in ("from", "to"):
        if key in header:
            place = _place(header[key])
            if place is None:
                reader.problem(header[key].line, header[key].column, f"{'Starts' if key == 'from' else 'Ends'}: is a phase, as in 'reaction', "
                               f"'combat (soviet)', 'turn 2 movement (chinese)' or 'action round 3 (ap)', not {header[key].value!r}")
            else:
                data[key] = finisher.value(place, f"/{key}")
    if "options" in header:
        chosen = _options(header["options"], reader)
        if chosen is not None:
            data["options"] = finisher.value(chosen, "/options")
            positions["/options"] = (header["options"].line, header["options"].column)
    if "dice" in header:
        at = header["dice"]
        record, *draws = str(at.value).split() or [""]
        value: Any = {"record": At(record, at.line, at.column), "draws": [At(d.lstrip("#"), at.line, at.column) for d in draws]} if draws else At(record, at.line, at.column)
        data["dice"] = finisher.value(value, "/dice")
        positions["/dice"] = (at.line, at.column)
    if "start" in header:
        data["start"] = finisher.value(_start(header["start"]), "/start")
        positions["/start"] = (header["start"].line, header["start"].column)
    elif "scenario" in header:
        data["start"] = {"scenario": data["scenario"]}
        positions["/start"] = (header["scenario"].line, header["scenario"].column)
    missing = [f"{label}:" for key, label in (("module", "Game"), ("turn", "Turn"), ("side", "Side")) if key not in header]
    if "start" not in data:
        missing.append("Start: (or Scenario:)")
    if missing:
        line, column = reader.first_line
        reader.problem(line, column, f"the header lacks {', '.join(missing)}")
    actions = []
    for n, (action, place) in enumerate(zip(reader.actions, reader.action_at)):
        pointer = f"/actions/{n}"
        finisher.positions[pointer] = place
        actions.append(finisher.action(action, pointer))
    data["actions"] = actions
    reader.forgive_closing(finisher.named)
    if len(reader.actions) < len(actions):  # a closing remark read as actions: they are the last ones, dropped
        data["actions"] = actions[: len(reader.actions)]
        dropped = {f"/actions/{n}" for n in range(len(reader.actions), len(actions))}
        finisher.positions = {k: v for k, v in finisher.positions.items() if "/".join(k.split("/")[:3]) not in dropped}
    positions.setdefault("/actions", reader.action_at[0] if reader.action_at else reader.first_line)
    positions.update(finisher.positions)
    if reader.problems and names is not None:
        _refuse_another_game(file, header["module"], names.module, finisher)
    if reader.problems:
        raise NotationError(file, reader.problems)
    return NotationDocument(file, data, text, positions=positions)


MIN_FOREIGN_NAMES = 3  # fewer unknown names are typos, reported one by one
MAX_FOREIGN_SAMPLE = 200  # the unknown names another module is asked about: enough to tell a game


def _refuse_another_game(file: str, game: At, module: Module, finisher: _Finisher) -> None:
    """One line, not a line per name, for a turn of another game: most of its names are not of ``module``.

    When more names are unknown than known (and at least :data:`MIN_FOREIGN_NAMES`), the other modules pbem knows
    are asked: one that knows two thirds of them is named; else the line says the names are not of this game.
    """
    missing = [at for at in finisher.missing if at.kind != "text"]
    known = sum(have for have, _ in finisher.named.values())
    if len(missing) < MIN_FOREIGN_NAMES or len(missing) <= known:
        return
    shown = ", ".join(list(dict.fromkeys(str(at.value) for at in missing))[:4])
    sample = missing[:MAX_FOREIGN_SAMPLE]
    best, best_count = None, 0
    for other in other_modules(module.id):
        names = Names(other)
        names.suggested = MAX_SUGGESTIONS  # only whether it knows the names is asked: no suggestion is worked out
        count = sum(getattr(names, at.kind)(at.value)[0] is not None for at in sample)
        if count > best_count:
            best, best_count = other, count
    unknown = f"{len(missing)} of its {len(missing) + known} names are not of {module.id} ({shown}, …)"
    if best is not None and best_count * 3 >= len(sample) * 2:
        message = f"this is a turn of {best.name} ({best.id}), not of {module.id} as its Game: line says: {unknown}; fix the Game: line"
    else:
        message = f"this does not look like a turn of {module.id}, which its Game: line names: {unknown}; is it a turn of another game?"
    raise NotationError(file, [Problem(game.line, game.column, message)])


_PLACE = re.compile(r"(?:turn\s+(\d{1,9})\s*,?\s+)?([a-z][a-z _-]*?)(?:\s+phase)?(?:\s+round\s+(\d{1,4}))?\s*(?:\(\s*([a-z][\w-]*)\s*\))?", re.IGNORECASE)


def _place(at: At) -> dict[str, At] | None:
    """``Starts:``/``Ends:``: ``[turn N] phase [round R] [(side acting)]`` as a header place."""
    match = _PLACE.fullmatch(str(at.value).strip())
    if match is None:
        return None
    turn, phase, number, side = match.groups()
    place: dict[str, At] = {}
    if turn:
        place["turn"] = At(int(turn), at.line, at.column)
    place["phase"] = At(re.sub(r"[ -]+", "_", phase.strip().lower()), at.line, at.column)
    if number:
        place["round"] = At(int(number), at.line, at.column)
    if side:
        place["side"] = At(side.lower(), at.line, at.column)
    return place


def _options(at: At, reader: "_Reader") -> dict[str, At] | None:
    """``Options: edition=lr2022, hand_size=8``: the module options the game chooses (true/false and whole
    numbers as such, anything else as text)."""
    chosen: dict[str, At] = {}
    for part in str(at.value).split(","):
        name, equals, value = (p.strip() for p in part.partition("="))
        if not equals or not name or not value:
            reader.problem(at.line, at.column, f"options are written name=value, separated by commas, not {part.strip()!r}")
            return None
        typed: Any = {"true": True, "false": False}.get(value.lower(), int(value) if re.fullmatch(r"-?\d{1,9}", value) else value)
        chosen[name] = At(typed, at.line, at.column)
    return chosen


def _start(at: At) -> dict[str, At]:
    text = str(at.value).strip()
    word, _, rest = text.partition(" ")
    if word.lower() in ("scenario", "state") and rest.strip():
        offset = len(text) - len(rest.lstrip())
        return {word.lower(): At(rest.strip(), at.line, at.column + offset)}
    kind = "state" if text.lower().endswith(".json") or "/" in text else "scenario"
    return {kind: At(text, at.line, at.column)}


def read_notation(path: str | Path, state: str | Path | None = None) -> NotationDocument:
    """Read a ``.pbem``/``.txt`` turn file, or the plain-text body of a saved email (``.eml``); ``state`` as in
    :func:`parse_notation`."""
    text = read_text(path, MAX_FILE)
    first_line = 1
    if Path(path).suffix.lower() == ".eml":
        text, first_line = _email_body(text, str(path))
    return parse_notation(text, path, first_line, state)
