"""Movement by the terrain effects chart printed on the map (rule 8 itself is not in the sources).

Checked: who moves when (4.0), the cost of each hex by the TEC's two columns (units with the mechanized
symbol, others), lake and other blocked hexsides (prohibited), +1 MP to leave a hex in an enemy ZOC, the
MP limits of mud, snow, long winter and of unsupplied units (6.5.2, TEC), and no rail movement while
unsupplied (6.5.2). The two printed charts differ on an enemy ZOC: the main chart says only "+1 MP to exit"
(the module's default, option ``enemy_zoc=exit_cost``), the inset chart "stops movement, +1 MP to exit"
(``enemy_zoc=stops``: a unit that enters an enemy ZOC ends its move there). Not checked (not in the sources):
entering enemy-occupied hexes, stacking, rail movement itself (9).
"""

from __future__ import annotations

from pbem.model.actions import Move
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules.movement import walk
from pbem.rules.ruleset import TurnContext, illegal, warning

from .base import NoRetreatBase

WEATHER_LIMIT = {"mud": 3, "snow": 4, "long_winter": 4}  # TEC: "3 (4) MP maximum for all units"
UNSUPPLIED_LIMIT = 3  # 6.5.2 and TEC


class MovementRules(NoRetreatBase):
    def allowance(self, unit: UnitState, state: State) -> tuple[int, str, str]:
        """MP the unit may spend this phase, why it is what it is, and the rule that says so."""
        move = self.face(unit)["move"]
        why, rule = f"{move} MP printed", "TEC"
        limit = WEATHER_LIMIT.get(self.weather(state))
        if limit is not None and move > limit:
            move, why = limit, f"{limit} MP maximum in {self.weather(state).replace('_', ' ')}"
        if self.unsupplied(unit) and move > UNSUPPLIED_LIMIT:
            move, why, rule = UNSUPPLIED_LIMIT, f"{UNSUPPLIED_LIMIT} MP maximum while unsupplied", "6.5.2"
        return move, why, rule

    def check_move(self, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        found: list[Violation] = []
        by_event = ctx.extra.get("events_this_phase", 0) > 0  # 5.3.2: events override the rules
        if ctx.phase not in ("movement", "detrain") and not by_event:
            found.append(illegal("4.0", f"units move in their Movement Phase (or detrain in the Detrain Phase), not in the {ctx.phase or 'no'} phase", action))
        for unit_id in action.units:
            unit = state.units[unit_id]
            name = self.name(unit_id)
            if unit.side != ctx.phase_side and not by_event:
                found.append(illegal("4.0", f"{name} is a {unit.side} unit; only the phasing {ctx.phase_side} player moves units", action))
            if not unit.on_map:
                if not (ctx.phase == "detrain" and unit.box == "rail_movement"):
                    found.append(illegal("4.0", f"{name} is in the {unit.box} box, not on the map", action))
                continue
            if unit.at != action.path[0]:
                found.append(illegal("4.0", f"{name} stands in {self.where(unit.at)}, not in {self.where(action.path[0])} where the path starts", action))
                continue
            if action.by == "rail":
                if self.unsupplied(unit):
                    found.append(illegal("6.5.2", f"{name} is unsupplied and may not use rail movement", action))
                continue
            found += self._land_move(unit, name, action, state, ctx)
        return found

    def _land_move(self, unit: UnitState, name: str, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        game_map = self.module.map
        mechanized = self.face(unit)["mechanized"]
        column = "mp_mechanized" if mechanized else "mp_other"

        def cost(a: int, b: int) -> int | None:
            if "blocked" in game_map.hexside(a, b):
                return None
            c = self.tec[game_map.terrain[b]][column]
            if self.in_enemy_zoc(state, a, unit.side):
                c += 1  # TEC: +1 MP to exit an enemy ZOC
            return c

        result = walk(game_map, action.path, cost)
        if result.broken_at is not None:
            k = result.broken_at
            return [illegal("4.0", f"{name}'s path jumps from {self.where(action.path[k - 1])} to {self.where(action.path[k])}, which are not adjacent", action)]
        if result.blocked_at is not None:
            k = result.blocked_at
            side = game_map.hexside(action.path[k - 1], action.path[k])
            what = "a lake hexside (TEC: impassable)" if "lake" in side else "a blocked hexside of the map (sea water between coastal hexes)"
            return [illegal("TEC", f"{name} crosses {what} from {self.where(action.path[k - 1])} to {self.where(action.path[k])}", action)]
        spent = ctx.mp_spent.get(unit.id, 0) + result.total
        ctx.mp_spent[unit.id] = spent
        allowance, why, rule = self.allowance(unit, state)
        found = []
        if spent > allowance:
            kind = "mechanized" if mechanized else "non-mechanized"
            text = f"{name} ({kind}) spends {spent} MP along {'-'.join(self.where(x) for x in action.path)} but has {allowance} ({why})"
            if ctx.extra.get("events_this_phase", 0):
                found.append(warning(rule, text + "; an event was played this phase (events override rules, 5.3.2), so this is not judged", action))
            else:
                found.append(illegal(rule, text, action))
        if self.module.options.get("enemy_zoc", "exit_cost") == "stops":
            for here in action.path[1:-1]:
                if self.in_enemy_zoc(state, here, unit.side):
                    found.append(illegal("TEC", f"{name} enters an enemy ZOC at {self.where(here)} and moves on: an enemy ZOC stops movement (the inset chart, option enemy_zoc=stops)", action))
                    break
        return found
