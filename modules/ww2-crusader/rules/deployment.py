"""WWII Campaign / Crusader: the turn-1 initial deployment phase (初始部署阶段) of free play.

游戏开始后的第一个回合的增援阶段改为初始部署阶段: 双方轮流支付对应的RP招募部队,但是招募到的部队可以直接以最高编制等级的
形态放置在地图上。放置的规则与增援规则相同。在初始部署阶段放置入场的单位可以在第一个回合内进行一轮行动.

So in turn 1 (option ``initial_deployment: played``, the module's default) a recruited unit — of either waiting zone —
may be placed at once, in either segment of the reinforcement phase, on a reinforcement area (W-Reinf/3) and within
the stacking limits; it comes on at its highest state (③, or ② for a small unit) and may act in round 1. The
Crusader scenario skips it (跳过第一回合的初始部署阶段: ``initial_deployment: skipped``): its turn 1 has the ordinary
reinforcement phase.
"""

from __future__ import annotations

from pbem.model.actions import Reinforce
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal

from .initiative import InitiativeRules
from .resources import ZONE_1, ZONE_2

SEGMENTS = ("reinforcement_declaration", "reinforcement_entry")


class DeploymentRules(InitiativeRules):
    """W-Deploy/1: turn 1's reinforcement phase is the initial deployment in free play."""

    def deploying(self, state: State) -> bool:
        chosen = state.options.get("initial_deployment", self.module.options.get("initial_deployment", "played"))
        return state.turn == 1 and chosen == "played"

    def check(self, action, state: State, ctx: TurnContext) -> list[Violation]:
        """[AMBIG] C108 reading 1 (option ``initial_deployment: no_reinforcement``): turn 1's reinforcement phase
        became the initial deployment (改为), which is skipped (跳过), so nothing is done in turn 1's reinforcement
        segments (their markers alone are harmless)."""
        found = super().check(action, state, ctx)
        if ctx.phase in SEGMENTS and state.turn == 1 and action.kind not in ("phase", "comment") \
                and state.options.get("initial_deployment", self.module.options.get("initial_deployment")) == "no_reinforcement":
            found.append(illegal("W-Deploy/1", "turn 1 has no reinforcement phase: it became the initial deployment (改为初始部署阶段), "
                                               "which this scenario skips (跳过); RP are first spent in turn 2 (option initial_deployment)", action))
        return found

    def check_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        if not self.deploying(state):
            return super().check_reinforce(action, state, ctx)
        if ctx.phase not in SEGMENTS:
            return [illegal("W-Deploy/1", f"the initial deployment is turn 1's reinforcement phase (第一个回合的增援阶段改为初始部署阶段), not {ctx.phase or 'no segment'}", action)]
        found: list[Violation] = []
        for unit_id in action.units:
            unit = state.units.get(unit_id)
            if unit is None or unit.box not in (ZONE_1, ZONE_2):
                found.append(illegal("W-Deploy/1", f"{unit_id} was not recruited: the initial deployment places the units recruited for their RP (支付对应的RP招募部队)", action, at=action.at))
        side = self.placing_side(action, state, ctx)
        if not self.reinforcement_area(state, side, action.at):
            found.append(illegal("W-Reinf/3", f"{self.where(action.at)} is not a {side} reinforcement area: the initial deployment places as reinforcements do (放置的规则与增援规则相同)", action, at=action.at))
        return found

    def after_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        if not self.deploying(state):
            return super().after_reinforce(action, state, ctx)
        for unit_id in action.units:
            unit = state.units.get(unit_id)
            if unit is not None:
                unit.step = 0  # the highest state (编制等级为最高等级)
            self.mark(state, "placed", unit_id)  # may act in round 1 (可以在第一个回合内进行一轮行动)
            if unit is not None:
                self.enter_town(state, unit)  # C110
        return self.touch(ctx, action.at, state, action)
