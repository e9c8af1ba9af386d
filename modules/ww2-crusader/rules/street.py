"""WWII Campaign / Crusader: street fighting (W-Street/1-6, 特殊战斗:巷战).

When a town is attacked the defender may choose a street fight; the attacker then moves any of the attacking
units into the town: ``{"special": "street_fight", "units": [attackers moving in], "at": town}`` in place of the
attack's resolution (an attack not resolved is cancelled). The hex is then in ``status.street_fights``: both
sides stack there separately (W-Stack/5), it cannot be attacked and its units cannot attack (W-Street/3), moving
in stops a unit and retreats may not enter it (W-Street/4), units leave only into supply (W-Street/2), and only
the larger side's supply passes, at 5:1 or more (W-Street/5, in ``supply``). At turn end it is resolved without a
die: ``{"special": "street_resolution", "at": town, "units": [the larger side's units taking the result]}``.
"""

from __future__ import annotations

from pbem.model.actions import Special
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal

from .base import ATTACK_SEGMENTS
from .supply import SupplyRules


class StreetRules(SupplyRules):
    """check_street_fight / check_street_resolution and their effects."""

    def check_street_fight(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase not in ATTACK_SEGMENTS or action.at is None:
            return [illegal("W-Street/1", "a street fight starts in an attack segment, on an attacked town", action)]
        target = action.at
        if self.main_terrain(target) != "town":
            return [illegal("W-Street/1", f"{self.where(target)} is not a town: no street fight (当城镇格被攻击时)", action)]
        declared = {u for t, units in ctx.extra.get("declared", []) if t == target for u in units}
        if not declared or target in ctx.extra.get("resolved_hexes", set()):
            return [illegal("W-Street/1", f"{self.where(target)} is not a declared attack still to resolve", action)]
        if not action.units or not set(action.units) <= declared:
            return [illegal("W-Street/1", "the units moving in are attackers of this combat (攻方…将任意数量的进攻单位移入城镇格)", action)]
        return []

    def after_street_fight(self, action: Special, state: State, ctx: TurnContext) -> None:
        target = action.at
        fights = state.status.setdefault("street_fights", [])
        if self.where(target) not in fights:
            fights.append(self.where(target))
        ctx.extra.setdefault("resolved_hexes", set()).add(target)
        ctx.extra["resolved"] = ctx.extra.get("resolved", 0) + 1
        for unit_id in action.units:
            if unit_id in state.units and state.units[unit_id].on_map:
                state.place(unit_id, target)
                self.mark(state, "attacked", unit_id)

    def street_bands(self, big: int, small: int) -> int:
        """The ratio, larger first, rounded down, at least 1:1 (向下取整,最小为1:1)."""
        return max(1, big // small) if small else 0

    def check_street_resolution(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase != "turn_end":
            return [illegal("W-Street/6", f"street fights are resolved in the turn-end phase, not in {ctx.phase or 'no segment'}", action)]
        if action.at is None or action.at not in self.street_hexes(state):
            return [illegal("W-Street/6", "no street fight is in progress there", action)]
        totals = self.street_totals(state, action.at)
        if len(totals) < 2:
            return []
        (big_side, big), (small_side, small) = sorted(totals.items(), key=lambda kv: -kv[1])[:2]
        ratio = self.street_bands(big, small)
        chosen = [state.units[u] for u in action.units if u in state.units]
        if any(u.side != big_side or u.at != action.at for u in chosen):
            return [illegal("W-Street/6", f"the units taking the larger side's result are {big_side}'s units in the hex", action)]
        if 3 <= ratio or small == 0:
            if small and sum(u.face.defence for u in chosen) < small:
                return [illegal("W-Street/6", f"{ratio}:1: the larger side's units taking the result must total at least the smaller side's {small} (至少等于)", action)]
        return []

    def after_street_resolution(self, action: Special, state: State, ctx: TurnContext) -> None:
        if action.at is None or action.at not in self.street_hexes(state):
            return
        units = list(state.units_at(action.at))
        totals = self.street_totals(state, action.at)
        if len(totals) < 2:
            return
        (big_side, big), (small_side, small) = sorted(totals.items(), key=lambda kv: -kv[1])[:2]
        ratio = self.street_bands(big, small)
        chosen = {u for u in action.units}
        for unit in units:
            self.set_stamina(state, unit, -2)  # every participant −2 instead of 1
        for unit in units:
            if small == 0:
                if unit.side == small_side:
                    state.remove(unit.id)
                continue
            smaller = unit.side == small_side
            if smaller or ratio <= 2 or (ratio <= 5 and unit.id in chosen):
                if unit.on_map:
                    state.lose_step(unit.id)  # De
            elif ratio >= 6 and unit.id in chosen:
                self.set_stamina(state, unit, -2)  # D
        for unit in list(state.units_at(action.at)):
            if self.disordered(state, unit) and unit.on_map:
                state.lose_step(unit.id)  # a unit disordered in the street fight takes De at once
        if len({u.side for u in state.units_at(action.at)}) < 2:
            state.status["street_fights"] = [h for h in state.status.get("street_fights", []) if h != self.where(action.at)]
