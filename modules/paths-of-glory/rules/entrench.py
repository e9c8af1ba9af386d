"""Which army entrenches when several share a space (seed 11.2.1, LR2022 11.2.2): the entrenchment names its army
(``{"special": "entrench", "units": ["GE-8-ARMY"], "at": "Insterberg", "roll": 3}``), whose LF the roll is read
against, and a space makes one attempt a round, by one army, whichever the player chooses. Without a ``result``
the roll decides whether the trench is dug.

Optional LR2022 11.2.10 (seed 11.2.9), on in the historical scenario (LR2022 5.7.4.2) and when the module option
``failed_entrench_drm`` is true (Rally the Troops always plays it): a German, British, French or Italian army that failed an entrenchment roll carries a marker
(``status.failed_entrench``: unit -> [turn, round]) and subtracts one from its roll in its side's next action round;
the marker goes with a success or when that round passes without an attempt."""

from __future__ import annotations

import dataclasses

from pbem.model.state import State
from pbem.rules.ruleset import TurnContext, illegal

from .base import ROUNDS, pog
from .rolls import RollRules

MARKED_NATIONS = ("GE", "BR", "FR", "IT")


class EntrenchRules(RollRules):
    def check_special(self, action, state: State, ctx: TurnContext) -> list:
        # RollRules refuses a second army's attempt in a space; this refuses the same army rolling twice.
        found = super().check_special(action, state, ctx)
        if action.order != "entrench" or action.at is None or not action.units:
            return found
        current = pog(ctx).get("round")
        key = (state.turn, current.number, current.side, action.units[0]) if current is not None else None
        tried = pog(ctx).setdefault("entrenched", {})
        if key is not None and tried.get(action.at) == key:
            found.append(illegal("11.2.1", f"{self.where(action.at)} already made its entrenchment attempt this round: one roll a space", action))
        if key is not None:
            tried[action.at] = key
        return found

    def failed_entrench_drm(self, state: State) -> bool:
        """Whether optional 11.2.10 is in play: the game chose it, or the historical scenario uses it (5.7.4.2)."""
        return bool(self.module.options.get("failed_entrench_drm")) or state.scenario == "1914-historical"

    def entrench_drm(self, state: State, unit, ctx: TurnContext) -> int:
        if not self.failed_entrench_drm(state):
            return 0
        marked = state.status.get("failed_entrench", {}).get(unit.id)
        current = pog(ctx).get("round")
        if not marked or current is None:
            return 0
        turn, number = state.turn, current.number
        previous = [turn, number - 1] if number > 1 else [turn - 1, ROUNDS]
        return -1 if list(marked) == previous else 0

    def after_special(self, action, state: State, ctx: TurnContext) -> list:
        if action.order == "entrench" and action.rolls and action.units and action.at is not None:
            unit = state.units[action.units[0]]
            drm = self.entrench_drm(state, unit, ctx)
            success = action.rolls[0] + drm <= (unit.face.loss or 0)
            if action.result is None and success:  # written without its result: the roll decides
                action = dataclasses.replace(action, result="success")
            claimed = (action.result or "").strip().lower() == "success"
            if self.failed_entrench_drm(state):
                marks = state.status.setdefault("failed_entrench", {})
                current = pog(ctx).get("round")
                marks.pop(unit.id, None)
                if not claimed and unit.unit.type.nationality in MARKED_NATIONS and current is not None:
                    marks[unit.id] = [state.turn, current.number]
        return super().after_special(action, state, ctx)
