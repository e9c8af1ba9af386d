"""Optional rule 11.2.10, which the historical scenario uses (LR2022 5.7.4.2): a German, British, French or Italian
unit that fails an entrench roll rolls with -1 on an attempt in its side's next action round (the next round of the
following turn after a sixth round); a success or a round without an attempt ends the reminder.

The player writes the die as rolled; the reminders live in ``status.failed_entrench`` (unit -> turn and round).
"""

from __future__ import annotations

import dataclasses

from pbem.model.state import State
from pbem.rules.ruleset import TurnContext

from .base import ROUNDS, PathsOfGloryBase, pog

REMINDED = ("GE", "BR", "FR", "IT")


class TrenchRollRules(PathsOfGloryBase):
    def _trench_drm_applies(self, state: State) -> bool:
        return state.scenario == "1914-historical" or bool(self.module.options.get("trench_roll_drm"))

    def _reminded(self, action, state: State, ctx: TurnContext) -> bool:
        if action.order != "entrench" or not action.units or not action.rolls or not self._trench_drm_applies(state):
            return False
        failed = state.status.get("failed_entrench", {}).get(action.units[0])
        current = pog(ctx).get("round")
        if failed is None or current is None:
            return False
        following = (failed["turn"], failed["round"] + 1) if failed["round"] < ROUNDS else (failed["turn"] + 1, 1)
        return (state.turn, current.number) == following

    def check_special(self, action, state: State, ctx: TurnContext) -> list:
        if self._reminded(action, state, ctx):
            action = dataclasses.replace(action, rolls=(action.rolls[0] - 1, *action.rolls[1:]))
        return super().check_special(action, state, ctx)  # type: ignore[misc]

    def after_special(self, action, state: State, ctx: TurnContext) -> list:
        reminded = self._reminded(action, state, ctx)
        judged = dataclasses.replace(action, rolls=(action.rolls[0] - 1, *action.rolls[1:])) if reminded else action
        found = super().after_special(judged, state, ctx)  # type: ignore[misc]
        if action.order == "entrench" and action.units and self._trench_drm_applies(state):
            unit = state.units[action.units[0]]
            failed = state.status.setdefault("failed_entrench", {})
            result = (action.result or "").strip().lower()
            current = pog(ctx).get("round")
            if result == "failure" and unit.unit.type.nationality in REMINDED and current is not None:
                failed[unit.id] = {"turn": state.turn, "round": current.number}
            else:
                failed.pop(unit.id, None)
        return found
