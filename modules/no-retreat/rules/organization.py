"""The Organization Phase (7.0-7.6): the order of its steps, improving, free Soviet upgrades, placement.

Log forms: improving a damaged unit is ``{"replace": UNIT}`` of a unit on the map, paid by card plays
``{"card": N, "use": "improve"}`` made before it in the phase; a free Soviet upgrade is
``{"special": "educate", "units": [UNIT]}``; a garrison conversion (7.5) is ``{"special": "garrison", "units":
[UNIT]}`` after a card play with use ``garrison``; placing reinforcements and replacements is ``reinforce``;
removing Disorganized markers is a card play with use ``reorganize``.
Not checked (not in the sources): the cost of improving SS (14.5, 14.6) and Shock (14.7) units, Axis
placement "inside Germany" (the map data has no country), city control, the exception for Soviet units
placed in cities (its text is cut off), whether a placed Axis unit has regular supply.
"""

from __future__ import annotations

from pbem.model.actions import Action, CardPlay, Reinforce, Replace, Special
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal

from .base import NoRetreatBase
from .cards import parse_use

IMPROVE_COST = {"axis": 2, "soviet": 1}  # 7.1: cards discarded per unit
HARDENED = 17  # 7.3: Soviet units have two steps from turn 17
STEP_OF = {"improve": "A", "educate": "A", "garrison": "A", "place": "B", "reorganize": "C"}


def free_upgrades(turn: int) -> int:
    """7.2, 7.2.1, 7.3.1: free Soviet upgrades per Organization Phase."""
    if turn < 6 or turn >= 18:
        return 0
    return 1 if turn < 13 else 2


class OrganizationRules(NoRetreatBase):
    def _order(self, step: str, action: Action, ctx: TurnContext) -> list[Violation]:
        """7.0: A (flip) before B (place) before C (reorganize)."""
        done = ctx.extra.setdefault("organization_step", "A")
        if ctx.phase == "organization" and STEP_OF[step] < done:
            return [illegal("7.0", f"{step} belongs to step {STEP_OF[step]} of the Organization Phase, which comes before step {done} already begun", action)]
        if ctx.phase == "organization":
            ctx.extra["organization_step"] = max(done, STEP_OF[step])
        return []

    def check_replace(self, action: Replace, state: State, ctx: TurnContext) -> list[Violation]:
        unit = state.units[action.unit]
        name = self.name(action.unit)
        found = self._phase_check("improve", action, ctx)
        found += self._order("improve", action, ctx)
        if not unit.on_map or unit.step == 0 or len(unit.unit.type.steps) < 2:
            found.append(illegal("7.1", f"only a damaged 2-step unit on the map may be improved; {name} is {'off the map' if not unit.on_map else 'at full strength'}", action))
        if self.unsupplied(unit):
            found.append(illegal("7.0", f"{name} is unsupplied: only regularly supplied units improve (7.0 A, 6.5.1)", action))
        arm = self.face(unit)["arm"]
        if unit.side == "soviet" and state.turn < HARDENED and arm not in ("fortified", "regional"):
            found.append(illegal("7.1", f"before turn {HARDENED} Soviet units are 1-step (7.3): {name} is not improved but upgraded (7.2)", action))
            return found
        if arm.startswith("ss_") or arm == "shock":
            return found  # their cost is in 14.5-14.7, not in the sources
        cost = IMPROVE_COST[unit.side]
        credits = ctx.extra.setdefault("improve_cards", {})
        if credits.get(unit.side, 0) < cost:
            found.append(illegal("7.1", f"improving {name} costs {cost} card(s) played for it first; {credits.get(unit.side, 0)} were", action))
        credits[unit.side] = max(0, credits.get(unit.side, 0) - cost)
        return found

    def check_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if action.order == "garrison":
            return self._garrison(action, state, ctx)
        if action.order != "educate":
            return super().check_special(action, state, ctx)  # type: ignore[misc]
        found = self._phase_check("educate", action, ctx) + self._order("educate", action, ctx)
        if ctx.phase_side != "soviet":
            found.append(illegal("7.2", "free upgrades are the Soviet player's, in his own Organization Phase", action))
        allowed = free_upgrades(state.turn)
        used = ctx.extra.get("educated", 0) + len(action.units)
        ctx.extra["educated"] = used
        if used > allowed:
            rule = "7.3.1" if state.turn >= 18 else "7.2.1" if state.turn >= 13 else "7.2"
            found.append(illegal(rule, f"turn {state.turn} allows {allowed} free Soviet upgrade(s) per Organization Phase; this is upgrade {used}", action))
        for unit_id in action.units:
            unit = state.units[unit_id]
            if unit.side != "soviet" or unit.step == 0:
                found.append(illegal("7.2", f"{self.name(unit_id)} is not a Soviet unit on its brown side", action))
            if self.unsupplied(unit):
                found.append(illegal("7.0", f"{self.name(unit_id)} is unsupplied: only regularly supplied units are upgraded (7.0 A, 6.5.1)", action))
        return found

    def _garrison(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        """7.5: the Soviet discards 1 card to flip a 1-step regional infantry unit to its garrison side,
        whatever its supply."""
        found = self._phase_check("garrison", action, ctx) + self._order("garrison", action, ctx)
        credits = ctx.extra.setdefault("garrison_cards", 0)
        for unit_id in action.units:
            unit = state.units[unit_id]
            if unit.side != "soviet" or self.face(unit)["arm"] != "regional":
                found.append(illegal("7.5", f"{self.name(unit_id)} is not a Soviet unit on its regional infantry side", action))
            if credits < 1:
                found.append(illegal("7.5", f"converting {self.name(unit_id)} to its garrison side costs 1 card played for it first; none was", action))
            credits = max(0, credits - 1)
        ctx.extra["garrison_cards"] = credits
        return found

    def after_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if action.order == "garrison":
            for unit_id in action.units:
                if self.face(state.units[unit_id])["arm"] == "regional":
                    state.units[unit_id].step = 0  # its garrison (front) side
            return []
        if action.order == "educate":
            for unit_id in action.units:
                state.units[unit_id].step = 0  # flipped to its red side
        return []

    def check_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        found = self._phase_check("place", action, ctx) + self._order("place", action, ctx)
        city = self.module.map.terrain[action.at] == "city"
        for unit_id in action.units:
            unit = state.units[unit_id]
            if unit.side == "soviet" and city:
                continue  # 7.6: Soviet units placed in cities are an exception whose text is cut off
            if self.in_enemy_zoc(state, action.at, unit.side):
                found.append(illegal("7.6", f"{self.name(unit_id)} may not be placed in {self.where(action.at)}, in an enemy ZOC", action))
        return found

    def check_card(self, action: CardPlay, state: State, ctx: TurnContext) -> list[Violation]:
        found = super().check_card(action, state, ctx)  # type: ignore[misc]
        _, kind, _ = parse_use(action.use, ctx.active_side)
        if kind == "reorganize":
            found += self._order("reorganize", action, ctx)
        if kind == "garrison":
            ctx.extra["garrison_cards"] = ctx.extra.get("garrison_cards", 0) + 1
        if kind == "event":
            ctx.extra["events_this_phase"] = ctx.extra.get("events_this_phase", 0) + 1
        return found

    def _phase_check(self, step: str, action: Action, ctx: TurnContext) -> list[Violation]:
        if ctx.phase != "organization" and ctx.extra.get("events_this_phase", 0) == 0:
            return [illegal("4.0", f"{step} happens in the Organization Phase, not the {ctx.phase or 'no'} phase", action)]
        return []
