"""Replay a turn on a state: the module's rules judge each action, then the action is applied as written."""

from __future__ import annotations

from dataclasses import dataclass, replace

from pbem.model.actions import Action, Turn, named_units
from pbem.model.errors import PbemError
from pbem.model.module import Module
from pbem.model.state import State
from pbem.model.violation import WARNING, Violation


@dataclass
class Replay:
    """The outcome of a replay: the state after the turn and every violation, in log order."""

    turn: Turn
    state: State
    violations: list[Violation]
    actions: int

    @property
    def ok(self) -> bool:
        """No rule broken and no claim contradicted (warnings do not count)."""
        return not any(v.severity != WARNING for v in self.violations)


def replay(module: Module, state: State, turn: Turn, *, stop_at_first: bool = False) -> Replay:
    """Replay ``turn`` on ``state`` (changed in place) and collect every violation.

    Later actions are judged in the situation the player actually created, so one mistake is reported
    once, not again for everything after it. ``stop_at_first`` ends the replay at the first violation that
    is not a warning.
    """
    rules = module.ruleset
    context = rules.begin(state, turn)
    violations: list[Violation] = []
    done = 0
    for action in turn.actions:
        for unit_id in named_units(action):
            if unit_id not in state.units:
                raise PbemError(f"unit {unit_id} is not in play: the start state does not list it (not even in a box)", action.source)
        found = rules.check(action, state, context)
        state.apply(action)
        found += rules.after(action, state, context)
        done += 1
        if found:
            violations.extend(_placed(found, action))
            if stop_at_first and any(v.severity != WARNING for v in found):
                return Replay(turn, state, violations, done)
    violations.extend(rules.finish(state, context))
    return Replay(turn, state, violations, done)


def _placed(found: list[Violation], action: Action) -> list[Violation]:
    """Violations that name no action are about this one."""
    return [v if v.source is not None else replace(v, index=action.index, source=action.source) for v in found]
