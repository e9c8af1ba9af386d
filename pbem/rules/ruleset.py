"""The ruleset interface the engine drives, and the bookkeeping a turn's checks share.

A game's ``rules.py`` subclasses :class:`Ruleset` and defines ``check_<kind>`` methods (``check_move``,
``check_attack`` …) that return :class:`Violation` s for an action *before* it is applied; ``after_<kind>``
methods update bookkeeping after it is applied; ``end_phase`` and ``finish`` check what is judged at a
phase's end or the turn's end (stacking, say). An action kind the ruleset has no check for is reported
once per turn as a warning, so nothing passes silently as "legal".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from pbem.model.actions import Action, Turn
from pbem.model.violation import ILLEGAL, MISMATCH, WARNING, Violation

if TYPE_CHECKING:
    from pbem.rules.combat import CombatOdds
    from pbem.model.module import Module
    from pbem.model.state import State


@dataclass
class TurnContext:
    """What the checks of one turn remember between actions. Phase-scoped sets are cleared per phase."""

    turn: Turn
    active_side: str
    phase: str | None = None
    phase_side: str | None = None
    mp_spent: dict[str, int] = field(default_factory=dict)
    moved: set[str] = field(default_factory=set)
    attacked_with: set[str] = field(default_factory=set)  # units that attacked this combat phase
    attacked: set[str] = field(default_factory=set)  # enemy units attacked this combat phase
    advanced: set[str] = field(default_factory=set)
    retreated: dict[str, int] = field(default_factory=dict)  # unit -> location it retreated into
    last_entry: dict[int, Action] = field(default_factory=dict)  # location -> last action that entered it
    touched: set[int] = field(default_factory=set)  # locations whose stacks changed since the last check
    unchecked: set[str] = field(default_factory=set)
    extra: dict[str, Any] = field(default_factory=dict)
    # what ``begin`` found wrong with where the file starts (reported before its first action)
    start_problems: list[Violation] = field(default_factory=list)
    # action index -> (result, what it did, rule): a random event's outcome in the module's words (see ``outcome``)
    outcomes: dict[int, tuple[str | None, str, str]] = field(default_factory=dict)

    def outcome(self, action: Action, text: str, *, result: str | None = None, rule: str = "") -> None:
        """Say what the dice of ``action`` did (``"NATO declares neutrality"``), with the ``result`` the tables give
        (shown instead of the one the player wrote) and the rule: every report, picture and the viewer show it."""
        self.outcomes[action.index] = (result, text, rule)

    def record_combat(self, combat: Action) -> None:
        """Remember where a combat's retreats and advance went: those hexes are judged for stacking, and
        units that retreated are known for the rest of the phase."""
        for unit_id, path in getattr(combat, "retreats", {}).items():
            self.retreated[unit_id] = path[-1]
            self.touched.add(path[-1])
            self.last_entry[path[-1]] = combat
        for path in getattr(combat, "defender_advance", {}).values():
            self.touched.add(path[-1])
            self.last_entry[path[-1]] = combat
        if getattr(combat, "advance", ()):
            target = combat.target  # type: ignore[attr-defined]
            self.touched.add(target)
            self.last_entry[target] = combat

    def new_phase(self, name: str, side: str) -> None:
        self.phase, self.phase_side = name, side
        self.mp_spent.clear()
        self.moved.clear()
        self.attacked_with.clear()
        self.attacked.clear()
        self.advanced.clear()
        self.retreated.clear()


def illegal(rule: str, message: str, action: Action | None = None, *, at: int | None = None) -> Violation:
    """A rule broken by ``action``; ``at`` names the map location where it happened, if not the action's own."""
    return Violation(rule, ILLEGAL, message, *(_where(action)), at=at)


def mismatch(rule: str, message: str, action: Action | None = None, *, at: int | None = None) -> Violation:
    return Violation(rule, MISMATCH, message, *(_where(action)), at=at)


def warning(rule: str, message: str, action: Action | None = None, *, at: int | None = None) -> Violation:
    return Violation(rule, WARNING, message, *(_where(action)), at=at)


def _where(action: Action | None) -> tuple:
    return (action.index, action.source) if action is not None else (None, None)


class Ruleset:
    """A game's rules. This base checks nothing; it only reports the kinds it does not check."""

    #: Action kinds that need no check (comments, notes).
    unchecked_ok: frozenset[str] = frozenset({"comment"})
    #: The action kinds ``resolve`` may change (None: any kind): the engine does not ask it about the others.
    resolved_kinds: frozenset[str] | None = None

    def __init__(self, module: "Module"):
        self.module = module

    def begin(self, state: "State", turn: Turn) -> TurnContext:
        return TurnContext(turn=turn, active_side=turn.header.side)

    def check(self, action: Action, state: "State", ctx: TurnContext) -> list[Violation]:
        try:
            method = self._checks[action.kind]
        except (AttributeError, KeyError):
            method = self._method("check", action.kind)
        if method is not None:
            return method(action, state, ctx)
        if action.kind not in self.unchecked_ok and action.kind not in ctx.unchecked:
            ctx.unchecked.add(action.kind)
            return [warning("-", f"{action.kind} actions are not checked by the {self.module.id} module yet", action)]
        return []

    def after(self, action: Action, state: "State", ctx: TurnContext) -> list[Violation]:
        try:
            method = self._afters[action.kind]
        except (AttributeError, KeyError):
            method = self._method("after", action.kind)
        return method(action, state, ctx) if method is not None else []

    def hooks(self, kind: str) -> tuple[Callable[..., list[Violation]], Callable[..., list[Violation]] | None]:
        """What the engine calls for an action of ``kind``: its check, and its after-hook (None: nothing to call). A
        ruleset that keeps this class's ``check`` and ``after`` gives its ``check_<kind>`` and ``after_<kind>``
        methods themselves, so that a call per action does not go through the dispatch of ``check`` and ``after``.
        Looked up once per kind, as ``check`` and ``after`` look up their methods."""
        kept = self.__dict__.setdefault("_hooks", {})
        found = kept.get(kind)
        if found is None:
            check: Callable[..., list[Violation]] = self.check
            after: Callable[..., list[Violation]] | None = self.after
            if getattr(check, "__func__", None) is Ruleset.check:
                check = self._method("check", kind) or check  # without a check of its own: ``check``'s warning
            if getattr(after, "__func__", None) is Ruleset.after:
                after = self._method("after", kind)
            found = kept[kind] = (check, after)
        return found

    def _method(self, prefix: str, kind: str):
        """``check_<kind>`` or ``after_<kind>`` (None if the ruleset has none), looked up once per kind:
        a failed ``getattr`` per action cost more than most of the checks it stood for."""
        found = self.__dict__.setdefault(f"_{prefix}s", {})
        method = found[kind] = getattr(self, f"{prefix}_{kind}", None)
        return method

    def finish(self, state: "State", ctx: TurnContext) -> list[Violation]:
        return []

    def resolve(self, action: Action, state: "State", ctx: TurnContext) -> Action:
        """``action`` with what the player left to pbem made concrete (a counter named by its kind, which the module
        picks as a player would pick it), before it is worked out, checked and applied. Changes nothing by default."""
        return action

    def odds(self, action: Action, state: "State", ctx: TurnContext) -> "CombatOdds | None":
        """What the tables give for a combat ``action`` in this situation, for a player to read; ``None`` where the
        module does not work it out. Called before the action is checked; it changes nothing."""
        method = getattr(self, f"odds_{action.kind}", None)
        return method(action, state, ctx) if method is not None else None

    # helpers for subclasses
    def name(self, unit_id: str) -> str:
        return self.module.units[unit_id].display()

    def where(self, location: int) -> str:
        return self.module.map.labels[location]
