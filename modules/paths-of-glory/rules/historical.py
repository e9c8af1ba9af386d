"""The historical scenario's special rules that bar a play (LR2022 5.7.2.1, 5.7.4.3, 5.7.4.4, 5.7.4.6).

5.7.2.1 no peace terms; 5.7.4.3 the CP open the game with Guns of August as an event; 5.7.4.4 no Entrench event on
turn 1; 5.7.4.6 until the Allies are at Total War only Austro-Hungarian and Italian armies operate in Italy (move,
attack, SR or advance into or through a space in Italy), and no German army ends a move or SR in Trent, Villach or
Trieste. The scenario's other rules live where they act (5.7.3 and 5.7.4.7 in events, 5.7.4.2 in entrench, 5.7.4.5
in rolls).
"""

from __future__ import annotations

from pbem.model.state import State, UnitState
from pbem.rules.ruleset import TurnContext, illegal

from .base import PathsOfGloryBase, pog

ENTRENCH_EVENTS = ("ap_entrench", "cp_entrench")
ITALIAN_BORDER = ("Trent", "Villach", "Trieste")
ARMIES_IN_ITALY = ("AH", "IT")


class HistoricalRules(PathsOfGloryBase):
    def historical_rules(self, state: State) -> bool:
        """Whether the game is played under the historical scenario's rules (LR2022 5.7)."""
        return state.scenario == "1914-historical" or state.status.get("vp_map") == "historical"

    def check_card(self, action, state: State, ctx: TurnContext) -> list:
        found = super().check_card(action, state, ctx)  # type: ignore[misc]
        if not self.historical_rules(state):
            return found
        current = pog(ctx).get("round")
        side = action.side or (current.side if current is not None else None)
        if action.card is None and action.use == "peace_terms":
            found.append(illegal("5.7.2.1", "peace terms are not allowed in the historical scenario (LR2022 5.7.2.1)", action))
        if state.turn == 1 and current is not None and current.number == 1 and side == "cp":
            if action.card is None or action.use != "event" or self.module.cards[action.card].get("event") != "guns_of_august":
                found.append(illegal("5.7.4.3", "in the historical scenario the CP open with Guns of August as an event (LR2022 5.7.4.3)", action))
        if state.turn == 1 and action.card is not None and action.use == "event" and self.module.cards[action.card].get("event") in ENTRENCH_EVENTS:
            found.append(illegal("5.7.4.4", "Entrench may not be played as an event on turn 1 of the historical scenario (LR2022 5.7.4.4)", action))
        return found

    # --- 5.7.4.6 --------------------------------------------------------------------------------------------
    def italy_closed(self, state: State) -> bool:
        return self.historical_rules(state) and state.status.get("commitment", {}).get("ap") != "total_war"

    def _foreign_army(self, unit: UnitState) -> bool:
        return self.is_army(unit) and unit.unit.type.nationality not in ARMIES_IN_ITALY

    def _italy(self, location: int) -> bool:
        return self.module.map.country[location] == "IT"

    def check_move(self, action, state: State, ctx: TurnContext) -> list:
        found = super().check_move(action, state, ctx)  # type: ignore[misc]
        if not self.italy_closed(state) or not action.path:
            return found
        units = [state.units[u] for u in action.units if u in state.units]
        how = "SR" if action.by in ("strategic", "sea") else "move"
        foreign = [u for u in units if self._foreign_army(u)]
        entered = next((loc for loc in action.path[1:] if self._italy(loc)), None) if foreign else None
        if entered is not None:
            found.append(illegal("5.7.4.6", f"until the Allies are at Total War only Austro-Hungarian and Italian armies {how} into {self.where(entered)} or anywhere in Italy ({self.name(foreign[0].id)}; LR2022 5.7.4.6)", action))
        end = self.where(action.path[-1])
        german = [u for u in units if self.is_army(u) and u.unit.type.nationality == "GE"]
        if german and end in ITALIAN_BORDER:
            found.append(illegal("5.7.4.6", f"until the Allies are at Total War no German army ends its {how} in {end} ({self.name(german[0].id)}; LR2022 5.7.4.6)", action))
        return found

    def check_attack(self, action, state: State, ctx: TurnContext) -> list:
        found = super().check_attack(action, state, ctx)  # type: ignore[misc]
        if not self.italy_closed(state):
            return found
        attackers = [state.units[u] for u in action.attackers if u in state.units]
        foreign = [u for u in attackers if self._foreign_army(u)]
        if foreign and self._italy(action.target):
            found.append(illegal("5.7.4.6", f"until the Allies are at Total War only Austro-Hungarian and Italian armies attack into Italy ({self.name(foreign[0].id)} against {self.where(action.target)}; LR2022 5.7.4.6)", action))
        for unit_id, path in action.advance_paths.items():
            unit = state.units.get(unit_id)
            if unit is not None and self._foreign_army(unit) and any(self._italy(loc) for loc in path):
                found.append(illegal("5.7.4.6", f"until the Allies are at Total War only Austro-Hungarian and Italian armies advance into Italy ({self.name(unit_id)}; LR2022 5.7.4.6)", action))
        return found
