"""Overrun (7.0-7.26): combat during movement by a stack that began the phase together."""

from __future__ import annotations

from pbem.model.actions import Combat
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.combat import split_result
from pbem.rules.ruleset import TurnContext, illegal

from .base import MOVEMENT
from .combat import CombatRules

MECHANIZED_COST = 5


class OverrunRules(CombatRules):
    def check_overrun(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        found: list[Violation] = []
        if ctx.phase != MOVEMENT:
            return [illegal("7.11", f"an overrun happens only in the phasing player's movement phase, not in the {ctx.phase or 'no'} phase", action)]
        units = [state.units[u] for u in action.attackers]
        target = action.target
        starts = ctx.extra.setdefault("phase_start", {})
        together = ctx.extra.setdefault("moved_with", {})
        for unit in units:
            name = self.name(unit.id)
            if not unit.on_map or unit.side != ctx.active_side:
                found.append(illegal("7.11", f"{name} is not a phasing unit on the map", action))
                continue
            if not unit.supplied:
                found.append(illegal("7.12", f"{name} was out of supply at the start of the movement phase and may not overrun", action))
            if self.back_from_garrison(unit.id, state):
                found.append(illegal("10.8", f"{name} came back from garrisoning the Trans-Siberian this game-turn and may not move (an overrun is movement, 7.0)", action))
            stopped = ctx.extra["stopped"].get(unit.id)
            if stopped:
                found.append(illegal(stopped[0], f"{name} {stopped[1]} and may not move again this phase", action))
            if unit.id in ctx.extra["railed"]:
                found.append(illegal("6.32", f"{name} moved by rail this phase and may not overrun", action))
            elif unit.id in ctx.extra["flown"]:
                found.append(illegal(self.airlift_rule(unit), f"{name} was flown this phase and may not move again (an overrun is movement, 7.0)", action))
            if not self.map.is_adjacent(unit.at, target):
                found.append(illegal("7.14", f"{name} in {self.where(unit.at)} is not adjacent to {self.where(target)}", action))
            allowance = self.mpa(unit) // (1 if unit.supplied else 2)
            spent = ctx.mp_spent.get(unit.id, 0)
            need = MECHANIZED_COST if unit.unit.type.mechanized else 1
            if allowance - spent < need:
                cost = "5 MP" if unit.unit.type.mechanized else "all its remaining MP (at least 1)"
                found.append(illegal("7.0", f"{name} has {allowance - spent} MP left; an overrun costs {cost}", action))
        if len({u.at for u in units}) > 1 or len({starts.get(u.id, u.at) for u in units}) > 1 or len({together.get(u.id, 0) for u in units}) > 1:
            found.append(illegal("7.13", "units overrun together only if they began the movement phase stacked together and have not moved apart", action))
        defenders = state.units_at(target)
        if defenders and self.map.city[target]:
            found.append(illegal("7.26", f"{self.where(target)} is an enemy-occupied city and cannot be overrun", action))
        found.extend(self._target_problems(action, state, ctx, defenders, "7.14"))
        if found:
            return found
        ctx.extra["defenders"] = [u.id for u in defenders]
        found.extend(self._check_claims(action, state, ctx, defenders))
        found.extend(self._check_overrun_outcome(action, state, defenders))
        return found

    def _check_overrun_outcome(self, action: Combat, state: State, defenders) -> list[Violation]:
        """7.22-7.25: success moves the whole stack in; failure or any loss stops it."""
        attacker_part, defender_part = split_result(action.result)
        gone = all(
            u.id in action.eliminated or u.id in action.retreats or u.step + action.losses_defender.count(u.id) >= len(u.unit.type.steps)
            for u in defenders
        ) and defender_part != "-"
        survivors = [u for u in action.attackers if u not in action.eliminated and state.units[u].step + action.losses_attacker.count(u) < len(state.units[u].unit.type.steps)]
        if gone and attacker_part == "-" and set(action.advance) != set(survivors):
            missing = sorted(set(survivors) - set(action.advance))
            return [illegal("7.24", f"the overrun cleared {self.where(action.target)}: every overrunning unit must enter it ({', '.join(map(self.name, missing))} did not)", action)]
        if action.advance and (not gone or attacker_part != "-"):
            why = "the defender held" if not gone else "the overrunning units took losses"
            return [illegal("7.22" if not gone else "7.23", f"{why}: the overrunning units stay where they are", action)]
        return []

    def after_overrun(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        attacker_part, _ = split_result(action.result)
        cleared = bool(action.advance)
        for unit_id in action.attackers:
            unit = state.units[unit_id]
            allowance = self.mpa(unit) // (1 if unit.supplied else 2)
            if unit.unit.type.mechanized:
                ctx.mp_spent[unit_id] = ctx.mp_spent.get(unit_id, 0) + MECHANIZED_COST
            else:
                ctx.mp_spent[unit_id] = allowance
            if attacker_part != "-":
                ctx.extra["stopped"][unit_id] = ("7.23", "took losses in an overrun")
            elif not cleared:
                ctx.extra["stopped"][unit_id] = ("7.22", "failed an overrun")
            elif not unit.unit.type.mechanized:
                ctx.extra["stopped"][unit_id] = ("7.0", "spent all its MP on an overrun (a non-mechanized unit pays all it has)")
        ctx.extra.pop("defenders", None)
        ctx.record_combat(action)
        return []
