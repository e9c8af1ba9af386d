"""Replay a turn on a state: the module's rules judge each action, then the action is applied as written."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pbem.engine.rulesets import module_ruleset
from pbem.engine.slices import check_end, check_turn_limit, place_start
from pbem.model.actions import Action, Move, Turn
from pbem.model.errors import PbemError
from pbem.model.event import Event
from pbem.model.module import Module
from pbem.model.state import State
from pbem.model.violation import WARNING, Violation
from pbem.rules.combat import CombatOdds
from pbem.rules.ruleset import Ruleset


@dataclass
class Replay:
    """The outcome of a replay: the state after the turn and every violation, in log order."""

    turn: Turn
    state: State
    violations: list[Violation]
    actions: int
    odds: list[tuple[Action, CombatOdds]] = field(default_factory=list)  # with ``explain``: each combat's working
    # Every action that may roll dice, with what the module said it did: made into events only when asked for.
    rolled: list[tuple[Action, tuple[str | None, str, str] | None]] = field(default_factory=list, repr=False)
    module: Module | None = field(default=None, repr=False)

    @property
    def events(self) -> list[Event]:
        """Every roll of dice and what it gave, in log order."""
        found = self.__dict__.get("_events")
        if found is None:
            made = (random_event(action, self.module, outcome) for action, outcome in self.rolled) if self.module else ()
            found = self.__dict__["_events"] = [event for event in made if event is not None]
        return found

    @property
    def ok(self) -> bool:
        """No rule broken and no claim contradicted (warnings do not count)."""
        return not any(v.severity != WARNING for v in self.violations)


def replay(module: Module, state: State, turn: Turn, *, stop_at_first: bool = False, explain: bool = False) -> Replay:
    """Replay ``turn`` on ``state`` (changed in place) and collect every violation.

    The rules are the module's as this game chose its options (turn header > state > scenario > module
    default); the state keeps the choices for the next turn.

    Later actions are judged in the situation the player actually created, so one mistake is reported
    once, not again for everything after it. ``stop_at_first`` ends the replay at the first violation that
    is not a warning. ``explain`` keeps, for every combat the module can work out, what the tables give
    (odds, shifts, column, the result for every roll) in the situation before it.
    """
    _units_in_play(state, turn)
    # The game's own option choices: the turn header's over the start state's (which holds its scenario's).
    state.options.update(turn.header.options)
    module = module.with_options(state.options)
    try:
        return _replay(module, state, turn, stop_at_first, explain)
    except (PbemError, MemoryError, RecursionError):
        raise
    except Exception as error:
        if module.bundled:  # pbem's own rules on valid input: a bug, reported as one (exit 3)
            raise
        raise module.failure(error, "the module's rules failed on this turn") from None


def _replay(module: Module, state: State, turn: Turn, stop_at_first: bool, explain: bool) -> Replay:
    rules = module_ruleset(module)
    placed = place_start(module, state, turn)
    limit = check_turn_limit(module, state, turn)
    context = rules.begin(state, turn)  # a ruleset may compare the start state's turn with the file's first
    state.turn = turn.header.turn  # the file plays its header's game-turn (its rules may step into the next)
    violations: list[Violation] = list(turn.notices) + placed + limit + context.start_problems
    done = 0
    worked: list[tuple[Action, CombatOdds]] = []
    rolled: list[tuple[Action, tuple[str | None, str, str] | None]] = []
    outcomes = context.outcomes
    # Looked up once a turn, not per action; a ruleset that keeps the kernel's ``resolve`` (which changes nothing)
    # is not asked: a call per action that returns its argument was a tenth of a move's time.
    # Nor about the kinds it says it leaves alone (``resolved_kinds``).
    resolve = rules.resolve if type(rules).resolve is not Ruleset.resolve else None
    resolved = rules.resolved_kinds
    apply = state.apply
    hooks: dict[str, tuple] = {}  # kind -> the check and the after-hook of its actions (``Ruleset.hooks``)
    for action in turn.actions:
        if resolve is not None and (resolved is None or action.kind in resolved):
            action = resolve(action, state, context)  # what the player left to pbem (a counter of a kind) is chosen
        kind = action.kind
        unclaimed = (kind == "attack" or kind == "overrun") and action.result is None  # type: ignore[attr-defined]
        odds = rules.odds(action, state, context) if explain or unclaimed else None
        if odds is not None and explain:
            worked.append((action, odds))
        if unclaimed:
            # No result written ("write the attack with any roll"): the tables' result for the roll is the result.
            expected = odds.expected(action) if odds is not None else None
            if expected is None:
                violations.append(_no_result(action, odds))
                state.apply(action)
                done += 1
                continue
            action = replace(action, result=expected)
        found_hooks = hooks.get(kind)
        if found_hooks is None:
            found_hooks = hooks[kind] = rules.hooks(kind)
        check, after = found_hooks
        found = check(action, state, context)
        apply(action)
        more = after(action, state, context) if after is not None else None
        if more:
            found += more
        done += 1
        if kind in _RANDOM:
            rolled.append((action, outcomes.pop(action.index, None) if outcomes else None))
        if found:
            violations.extend(_placed(found, action))
            if stop_at_first and any(v.severity != WARNING for v in found):
                return Replay(turn, state, violations, done, worked, rolled, module)
    violations.extend(rules.finish(state, context))
    violations.extend(check_end(module, state, turn))
    if turn.header.dice is not None:
        from pbem.engine.dicecheck import check_dice

        violations.extend(check_dice(turn, module))
    return Replay(turn, state, violations, done, worked, rolled, module)


def _no_result(action: Action, odds) -> Violation:
    why = "the module does not work this combat out" if odds is None else "the result waits on the losses chosen (or a roll is missing)"
    waiting = getattr(odds, "waiting", "")  # what the module says the result waits on, when it says it
    if waiting:
        return Violation("-", WARNING, f"no result written and {waiting}: the combat is not checked", action.index, action.source)
    return Violation("-", WARNING, f"no result written and {why}: the combat is not checked; write its result", action.index, action.source)


_RANDOM = frozenset({"roll", "attack", "overrun", "fire", "special"})  # the kinds of action that may roll dice


def random_event(action: Action, module: Module, outcome: tuple[str | None, str, str] | None = None) -> Event | None:
    """The random event of ``action`` (``None`` if it rolls no dice), with the module's ``outcome`` if it gave one."""
    label = module.map.label
    if action.kind == "roll":
        what = f"{action.purpose.replace('_', ' ')} roll"  # type: ignore[attr-defined]
        if action.side:  # type: ignore[attr-defined]
            what += f" by {action.side}"  # type: ignore[attr-defined]
        values, claimed = action.values, action.result  # type: ignore[attr-defined]
    elif action.kind in ("attack", "overrun"):
        what = f"{action.kind} on {label(action.target)}"  # type: ignore[attr-defined]
        values = (action.roll,)  # type: ignore[attr-defined]
        if action.flank_roll is not None:  # type: ignore[attr-defined]
            what += f", flank roll {action.flank_roll}"  # type: ignore[attr-defined]
        if action.defender_roll is not None:  # type: ignore[attr-defined]
            what += f", defender roll {action.defender_roll}"  # type: ignore[attr-defined]
        what += ", roll"
        claimed = action.result  # type: ignore[attr-defined]
    elif action.kind == "fire":
        what, values, claimed = f"fire at {label(action.target)}, roll", action.rolls, action.result  # type: ignore[attr-defined]
    else:  # a special order, if it rolls
        if not action.rolls:  # type: ignore[attr-defined]
            return None
        what = action.order.replace("_", " ")  # type: ignore[attr-defined]
        if action.at is not None:  # type: ignore[attr-defined]
            what += f" at {label(action.at)}"  # type: ignore[attr-defined]
        what += ", roll"
        values, claimed = action.rolls, action.result  # type: ignore[attr-defined]
    result, text, rule = outcome if outcome is not None else (None, "", "")
    return Event(what, tuple(values), result or claimed, text, rule, action.index, action.source, action.kind)


def _units_in_play(state: State, turn: Turn) -> None:
    """Every unit the turn names is a counter of this game (off the map or on it): the rules may rely on it."""
    units = state.units
    for action in turn.actions:
        # A move's tuple of units is what its ``named_units`` lists: read directly, most actions need no call.
        named = action.units if action.__class__ is Move and action.units.__class__ is tuple else action.named_units()  # type: ignore[attr-defined]
        for unit_id in named:
            if unit_id not in units:
                where = "this scenario" if state.scenario else "the start state"
                raise PbemError(f"unit {unit_id!r} is not in {where}: the state the turn starts from has no such counter", action.source)


def _placed(found: list[Violation], action: Action) -> list[Violation]:
    """Violations that name no action are about this one."""
    return [v if v.source is not None else replace(v, index=action.index, source=action.source) for v in found]
