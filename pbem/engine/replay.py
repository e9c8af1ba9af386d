"""Replay a turn on a state: the module's rules judge each action, then the action is applied as written."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pbem.engine.rulesets import module_ruleset
from pbem.model.actions import Action, Turn
from pbem.model.errors import PbemError
from pbem.model.module import Module
from pbem.model.state import State
from pbem.model.violation import WARNING, Violation
from pbem.rules.combat import CombatOdds


@dataclass
class Replay:
    """The outcome of a replay: the state after the turn and every violation, in log order."""

    turn: Turn
    state: State
    violations: list[Violation]
    actions: int
    odds: list[tuple[Action, CombatOdds]] = field(default_factory=list)  # with ``explain``: each combat's working

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
    context = rules.begin(state, turn)
    violations: list[Violation] = list(turn.notices)
    done = 0
    worked: list[tuple[Action, CombatOdds]] = []
    for action in turn.actions:
        if explain:
            odds = rules.odds(action, state, context)
            if odds is not None:
                worked.append((action, odds))
        found = rules.check(action, state, context)
        state.apply(action)
        found += rules.after(action, state, context)
        done += 1
        if found:
            violations.extend(_placed(found, action))
            if stop_at_first and any(v.severity != WARNING for v in found):
                return Replay(turn, state, violations, done, worked)
    violations.extend(rules.finish(state, context))
    return Replay(turn, state, violations, done, worked)


def _units_in_play(state: State, turn: Turn) -> None:
    """Every unit the turn names is a counter of this game (off the map or on it): the rules may rely on it."""
    for action in turn.actions:
        for unit_id in action.named_units():
            if unit_id not in state.units:
                where = "this scenario" if state.scenario else "the start state"
                raise PbemError(f"unit {unit_id!r} is not in {where}: the state the turn starts from has no such counter", action.source)


def _placed(found: list[Violation], action: Action) -> list[Violation]:
    """Violations that name no action are about this one."""
    return [v if v.source is not None else replace(v, index=action.index, source=action.source) for v in found]
