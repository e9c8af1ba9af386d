"""Advances beyond the attacked space (seed 12.6.2-12.6.6; LR2022 12.7.2-12.7.7) and Withdrawal (LR2022 12.6).

``"advance": {"GE-2-ARMY": ["Sedan", "Cambrai"], "GE-3-ARMY": ["Sedan"]}`` names the spaces each advancing unit
enters, the attacked space first; ``"advance": ["GE-3-ARMY"]`` is an advance into the attacked space only.
Beyond it only when every defender retreated two spaces (12.6.3), into a space a retreating unit vacated (or where
a unit whose two-space retreat ended after one was eliminated, LR2022 12.7.4), never after entering a forest,
mountain or swamp (desert too in LR2022), never into enemy units (12.6.4), not past an enemy fort's space (12.6.5;
LR2022 12.7.6: others may go on once enough stay to besiege it), and CP units into Amiens, Calais or Ostend only as
12.6.6 allows. The advancing units take each space they enter (12.6.9).

Withdrawal (AP-06, CP-56): ``"negated": ["FR-CORPS-01"]`` names the defender's step loss it cancels, one of the
losses listed (LR2022 12.6.3): a corps step if one was lost, else an army step (12.6.6). The defenders then retreat
exactly one space, even on a tie or a defeat (12.6.4), with no cancelling by terrain or trench (12.6.5), and the
attackers advance at most into the attacked space.
"""

from __future__ import annotations

from pbem.model.state import State, UnitState
from pbem.rules.ruleset import TurnContext, illegal

from .base import CHANNEL_PORTS
from .combat import CombatRules

WITHDRAWAL = ("ap_withdrawal", "cp_withdrawal")


class AdvanceRules(CombatRules):
    def check_attack(self, action, state: State, ctx: TurnContext) -> list:
        found = super().check_attack(action, state, ctx)
        play = self.current_play(ctx)
        if play is None:
            return found
        withdrawal = self._withdrawal_card(action, play.side)
        if action.negated or withdrawal:
            found += self._withdrawal(action, state, play.side, withdrawal)
        if action.advance_paths:
            found += self._advance_paths(action, state, play.side, withdrawal)
        return found

    # --- Withdrawal -----------------------------------------------------------------------------------
    def _withdrawal_card(self, action, side: str) -> str | None:
        cards = self.module.cards
        return next((c for c in action.cards if cards[c].get("event") in WITHDRAWAL and cards[c]["side"] != side), None)

    def _withdrawal(self, action, state: State, side: str, card: str | None) -> list:
        if card is None:
            return [illegal("12.6.3", "a step loss is negated only by the defender's Withdrawal combat card (LR2022 12.6.3)", action)]
        found = []
        if len(action.negated) > 1:
            found.append(illegal("12.6.3", f"Withdrawal negates one step loss, not {len(action.negated)} (LR2022 12.6.3)", action))
        for unit_id in action.negated:
            if unit_id not in action.losses_defender:
                found.append(illegal("12.6.3", f"{self.name(unit_id)} lost no step in this combat: Withdrawal negates one of the defender's listed losses (LR2022 12.6.3)", action))
            elif self.is_army(state.units[unit_id]) and any(not self.is_army(state.units[u]) for u in action.losses_defender if u in state.units):
                found.append(illegal("12.6.6", f"a corps step was lost: Withdrawal negates it, not {self.name(unit_id)}'s army step (LR2022 12.6.6)", action))
        if "cancel_retreat" in action.declared:
            found.append(illegal("12.6.5", "after Withdrawal the retreat is required: terrain or a trench does not cancel it (LR2022 12.6.5)", action))
        defending = {u.id for u in self.enemy_units(state, action.target, side)} | set(action.replacements.values())
        for unit_id, path in action.retreats.items():
            if unit_id in defending and len(path) != 1 and not (len(path) < 1 and unit_id in action.eliminated):
                found.append(illegal("12.6.4", f"{self.name(unit_id)} retreats {len(path)} spaces; after Withdrawal the defenders retreat exactly one (LR2022 12.6.4)", action))
        return found

    # --- advancing beyond the attacked space ----------------------------------------------------------
    def _advance_paths(self, action, state: State, side: str, withdrawal: str | None) -> list:
        found = []
        game_map = self.module.map
        target = action.target
        label = self.where(target)
        retreat_firsts = {path[0] for unit_id, path in action.retreats.items() if path}
        two_space = bool(action.retreats) and all(
            len(path) >= 2 or (len(path) == 1 and unit_id in action.eliminated) for unit_id, path in action.retreats.items()
        )
        survivors = self._survivors(action, state, side)
        stops = self._stops_advance(target)
        fort_here = self.fort(state, target) and self.controller(state, target) != side
        besiegers = [u for u in action.advance if len(action.advance_paths.get(u, (target,))) == 1]
        for unit_id, path in action.advance_paths.items():
            name = self.name(unit_id)
            if path[0] != target:
                found.append(illegal("12.6.1", f"an advance starts in the attacked space: {name}'s path begins at {self.where(path[0])}, not {label}", action))
                continue
            beyond = path[1:]
            if not beyond:
                continue
            if len(beyond) > 1:
                found.append(illegal("12.6.3", f"{name} advances {len(path)} spaces; an advance after a two-space retreat enters at most two (the attacked space and one it leads to)", action))
                continue
            there = beyond[0]
            where = self.where(there)
            if withdrawal is not None:
                found.append(illegal("12.6.4", f"after Withdrawal the attackers advance one space only, into {label} (LR2022 12.6.4)", action))
            elif not action.retreats or survivors:
                found.append(illegal("12.6.2", f"{name} advances beyond {label}: only after every defender retreated two spaces (otherwise into the attacked space only)", action))
            elif not two_space:
                found.append(illegal("12.6.3", f"{name} advances beyond {label}, but not every defender retreated two spaces", action))
            elif there not in retreat_firsts:
                found.append(illegal("12.6.3", f"{name} advances into {where}, which no retreating unit vacated (retreats went through {', '.join(sorted(self.where(s) for s in retreat_firsts))})", action))
            elif stops:
                found.append(illegal("12.6.3", f"{label} is {game_map.terrain[target]}: an advance stops there", action))
            elif fort_here and not self._fort_held(state, target, besiegers):
                found.append(illegal("12.6.5", f"{name} may not advance past the enemy fort of {label}" + (" unless enough advancing units stay to besiege it (LR2022 12.7.6)" if self.edition() == "lr2022" else ""), action))
            elif self._enemy_after(action, state, there, side):
                found.append(illegal("12.6.4", f"{name} may not advance into enemy units in {where}", action))
            elif side == "cp" and where in CHANNEL_PORTS and not self._channel_open(state):  # type: ignore[attr-defined]
                found.append(illegal("12.6.6", f"CP units advance into {where} only once Race to the Sea is played or at CP war status 4", action))
        found += self._advance_stacking(action, state)
        return found

    def _survivors(self, action, state: State, side: str) -> list[UnitState]:
        """Defenders left in the attacked space after the losses (a defender that neither retreated nor was eliminated)."""
        defenders = self.enemy_units(state, action.target, side)
        standing = self._after(state, defenders, action.losses_defender, action.replacements)[0]
        return [u for u in standing if u.id not in action.retreats and u.id not in action.eliminated and u.id not in action.negated]

    def _stops_advance(self, location: int) -> bool:
        terrain = self.module.tables["terrain_effects"]["terrain"].get(self.module.map.terrain[location], {})
        stops = terrain.get("stops_advance", False)
        return bool(stops.get(self.edition(), False) if isinstance(stops, dict) else stops)

    def _fort_held(self, state: State, location: int, staying: list[str]) -> bool:
        """LR2022 12.7.6: once enough advancing units besiege the fort (an army, or as many corps as its LF), the
        others may go on; the seed's 12.6.5 lets none go past."""
        if self.edition() != "lr2022":
            return False
        units = [state.units[u] for u in staying]
        return any(self.is_army(u) for u in units) or len(units) >= self.fort(state, location)

    def _enemy_after(self, action, state: State, location: int, side: str) -> bool:
        moving = set(action.retreats)
        return any(u.id not in moving for u in self.enemy_units(state, location, side))

    def _advance_stacking(self, action, state: State) -> list:
        limit = self.module.tables["movement"]["stacking_limit"]
        arriving: dict[int, int] = {}
        for unit_id in action.advance:
            end = action.advance_paths.get(unit_id, (action.target,))[-1]
            arriving[end] = arriving.get(end, 0) + 1
        found = []
        for end, count in arriving.items():
            if end == action.target:
                continue  # the attacked space: judged with the rest of the combat
            staying = [u for u in state.units_at(end) if u.id not in action.advance]
            if len(staying) + count > limit:
                found.append(illegal("10.1.1", f"an advance may not end overstacked: {self.where(end)} would hold {len(staying) + count} units", action))
        return found

    def after_attack(self, action, state: State, ctx: TurnContext) -> list:
        found = super().after_attack(action, state, ctx)
        play = self.current_play(ctx)
        if play is not None:
            for unit_id, path in action.advance_paths.items():
                if state.units[unit_id].on_map:
                    for location in path[1:]:
                        self.enter(state, location, play.side)  # type: ignore[attr-defined]
        return found
