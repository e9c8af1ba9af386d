"""Replay a turn on a state: the module's rules judge each action, then the action is applied as written."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from pbem.model.actions import Action, Turn, named_units
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

    Later actions are judged in the situation the player actually created, so one mistake is reported
    once, not again for everything after it. ``stop_at_first`` ends the replay at the first violation that
    is not a warning. ``explain`` keeps, for every combat the module can work out, what the tables give
    (odds, shifts, column, the result for every roll) in the situation before it.
    """
    rules = module.ruleset
    context = rules.begin(state, turn)
    violations: list[Violation] = list(turn.notices)
    done = 0
    worked: list[tuple[Action, CombatOdds]] = []
    for action in turn.actions:
        _check_units_known(action, state)
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


def _check_units_known(action: Action, state: State) -> None:
    """A unit of the module that the start state does not list cannot act: an input error, not a crash."""
    missing = sorted({u for u in named_units(action) if u not in state.units})
    if missing:
        raise PbemError(f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not in the start state (a state lists every unit in play)", action.source)


def _placed(found: list[Violation], action: Action) -> list[Violation]:
    """Violations that name no action are about this one."""
    return [v if v.source is not None else replace(v, index=action.index, source=action.source) for v in found]
