"""Which army entrenches when several share a space (seed 11.2.1, LR2022 11.2.2): the entrenchment names its army
(``{"special": "entrench", "units": ["GE-8-ARMY"], "at": "Insterberg", "roll": 3}``), whose LF the roll is read
against, and a space makes one attempt a round, by one army, whichever the player chooses. Without a ``result``
the roll decides whether the trench is dug."""

from __future__ import annotations

import dataclasses

from pbem.model.state import State
from pbem.rules.ruleset import TurnContext, illegal

from .base import pog
from .rolls import RollRules


class EntrenchRules(RollRules):
    def check_special(self, action, state: State, ctx: TurnContext) -> list:
        found = super().check_special(action, state, ctx)
        if action.order != "entrench" or action.at is None:
            return found
        current = pog(ctx).get("round")
        key = (state.turn, current.number, current.side) if current is not None else None
        tried = pog(ctx).setdefault("entrenched", {})
        if key is not None and tried.get(action.at) == key:
            found.append(illegal("11.2.1", f"{self.where(action.at)} already made its entrenchment attempt this round: one army a space tries", action))
        if key is not None:
            tried[action.at] = key
        return found

    def after_special(self, action, state: State, ctx: TurnContext) -> list:
        # An entrenchment written without its result succeeds as its roll says (at most the army's LF).
        if action.order == "entrench" and action.result is None and action.rolls and action.units and action.at is not None:
            unit = state.units[action.units[0]]
            if action.rolls[0] <= (unit.face.loss or 0):
                action = dataclasses.replace(action, result="success")
        return super().after_special(action, state, ctx)
