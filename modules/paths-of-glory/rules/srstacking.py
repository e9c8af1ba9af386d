"""Stacking after strategic redeployment out of the Reserve Box (10.1.2): judged when the SR ends, not per corps.

A corps may be redeployed from the Reserve Box into a full space while another unit redeploys out of it in the same
round (Rally the Troops' engine plays that way, and 10.1.2 limits stacking only when movement or SR ends); the
space is judged with the moves' spaces before the round's first attack and at its end (``judge_stacking``).
"""

from __future__ import annotations

from pbem.model.state import State
from pbem.rules.ruleset import TurnContext

from .base import PathsOfGloryBase, pog


class SrStackingRules(PathsOfGloryBase):
    def check_reinforce(self, action, state: State, ctx: TurnContext) -> list:
        found = super().check_reinforce(action, state, ctx)  # type: ignore[misc]
        play = self.current_play(ctx)
        if play is None or play.use != "sr":
            return found
        deferred = [v for v in found if v.rule == "10.1.1" and "would hold" in v.message]
        if deferred:
            pog(ctx).setdefault("stacking", {}).setdefault(action.at, action)
        return [v for v in found if v not in deferred]
