"""Bookkeeping of the War Status phase: mandated offensives carried out or not (7.1.3-7.1.7), commitment levels
rising (16.1), Turkey entering with the CP's Limited War (16.1.3), automatic victory (5.2).

Nothing here is a violation: failing a mandated offensive costs VP, it is not illegal. The state written after
the phase carries the new VP, commitment levels and neutral nations, so the next turn is judged on them.
"""

from __future__ import annotations

from pbem.model.state import State
from pbem.rules.ruleset import TurnContext

from .base import COMMITMENT, PathsOfGloryBase

WESTERN = ("FR", "BE", "GE")


class WarStatusRules(PathsOfGloryBase):
    def after_roll(self, action, state: State, ctx: TurnContext) -> list:
        if action.purpose == "mandated_offensive" and action.side in ("cp", "ap"):
            state.status.setdefault("mandated_offensive_done", {})[action.side] = False
        return []

    def after_attack(self, action, state: State, ctx: TurnContext) -> list:
        found = super().after_attack(action, state, ctx)  # type: ignore[misc]
        play = self.current_play(ctx)
        if play is None:
            return found
        side = play.side
        nation = state.status.get("mandated_offensive", {}).get(side)
        if nation and nation != "none" and self._fulfils(action, state, nation, ctx):
            state.status.setdefault("mandated_offensive_done", {})[side] = True
        return found

    def _fulfils(self, action, state: State, nation: str, ctx: TurnContext) -> bool:
        """Whether an attack carries out the mandated offensive of ``nation`` (7.1.4-7.1.7)."""
        attackers = {state.units[u].unit.type.nationality for u in action.attackers}
        defenders = set(ctx.extra.get("pog_defenders", {}).get(action.index, ()))
        country = self.module.map.country[action.target]
        if nation == "GE":  # 7.1.5
            return "GE" in attackers and bool(defenders & {"US", "BR", "BE", "FR"}) and country in WESTERN
        if nation == "FR" and self.played(state, "french_mutiny"):
            # 7.1.8 (and the card): under French Mutiny a French attack in France, Belgium or Germany is penalised
            # (the flag then means the VP penalty), unless every French attacker is stacked with US units
            return country in WESTERN and any(self._french_alone(state, u) for u in action.attackers)
        if nation in ("FR", "BR"):  # 7.1.4
            return nation in attackers and "GE" in defenders and country in WESTERN
        if nation == "AH_IT":  # 7.1.6
            return "AH" in attackers and ("IT" in defenders or country == "IT")
        return nation in attackers and bool(defenders)  # 7.1.7: AH, and TU, IT, RU against enemy units

    def _french_alone(self, state: State, unit_id: str) -> bool:
        unit = state.units[unit_id]
        if unit.unit.type.nationality != "FR":
            return False
        return not any(u.unit.type.nationality == "US" for u in state.units_at(unit.at))

    def check_attack(self, action, state: State, ctx: TurnContext) -> list:
        # Who defends is known before the attack is applied; remember it for the offensive's test.
        side = state.units[action.attackers[0]].side if action.attackers else ""
        defenders = {u.unit.type.nationality for u in state.units_at(action.target) if u.side != side}
        ctx.extra.setdefault("pog_defenders", {})[action.index] = defenders
        return super().check_attack(action, state, ctx)  # type: ignore[misc]

    def after_phase(self, action, state: State, ctx: TurnContext) -> list:
        if action.name != "war_status":
            return []
        status = state.status
        # 7.1.3: an offensive not carried out moves the VP one towards the enemy.
        penalty = self.module.tables["mandated_offensive"]["failure_vp"]
        for side in ("cp", "ap"):
            nation = status.get("mandated_offensive", {}).get(side)
            if nation and nation != "none" and not status.get("mandated_offensive_done", {}).get(side):
                status["vp"] = status.get("vp", 10) + penalty[side]
        status.pop("mandated_offensive", None)
        status.pop("mandated_offensive_done", None)
        # 16.1: commitment rises with war status, from turn 2 on, and never falls.
        table = self.module.tables["war_status"]
        if state.turn >= table["first_check_turn"]:
            for side in ("cp", "ap"):
                ws = status.get("war_status", {}).get(side, 0)
                level = "total_war" if ws >= table["total_war_at"] else "limited_war" if ws >= table["limited_war_at"] else "mobilization"
                current = status.setdefault("commitment", {}).get(side, "mobilization")
                if COMMITMENT.index(level) > COMMITMENT.index(current):
                    status["commitment"][side] = level
                    if side == "cp" and current == "mobilization" and self.neutral(state, "TU"):  # 16.1.3: Turkey enters
                        self.enter_war(state, "TU", "cp")  # type: ignore[attr-defined]
                        status.setdefault("entries", {})["turkey"] = state.turn
        # 16.2: an armistice ends the game at combined war status 40.
        if status.get("combined_war_status", 0) >= self.module.tables["war_status"]["armistice_combined_at"]:
            status["result"] = "armistice (16.2): victory by VP"
        # 5.2: automatic victory.
        victory = self.module.tables["victory"]
        if status.get("vp", 10) >= victory["cp_automatic_at_least"]:
            status["result"] = "cp automatic victory (5.2)"
        elif status.get("vp", 10) <= victory["ap_automatic_at_most"]:
            status["result"] = "ap automatic victory (5.2)"
        return []
