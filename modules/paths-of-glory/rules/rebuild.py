"""Rebuilding eliminated units with replacement points (LR2022 17.1.3-17.1.6).

``{"replace": "GE-8-ARMY", "at": "Berlin"}`` brings an army back from its side's Eliminated box on its reduced
face, placed as a reinforcement is (9.5.3.3; 17.1.5 adds Salonika for the Serbs and Brussels, Antwerp, Ostend or
else Calais for the Belgians); ``{"replace": "GE-CORPS-07", "at": "reserve"}`` rebuilds a corps into the Reserve Box
(the ANA corps into Arabia, 17.1.6). ``{"replace": UNIT}`` alone is a reduced unit regaining a step
(``ReserveRules.check_replace``). Costs are the module's ``replacement_costs`` (supplied).
"""

from __future__ import annotations

import dataclasses

from pbem.model.state import State, UnitState
from pbem.rules.ruleset import TurnContext, illegal

from .base import pog
from .reserve import ReserveRules

ANA = "BR-ANA-CORPS"
BELGIAN_SPACES = ("Brussels", "Antwerp", "Ostend")


class RebuildRules(ReserveRules):
    def check_replace(self, action, state: State, ctx: TurnContext) -> list:
        if action.at is None and action.box is None:
            return super().check_replace(action, state, ctx)
        if pog(ctx).get("phase") != "replacement":
            return [illegal("17.1.2", "replacement points are spent only in the replacement phase", action)]
        unit = state.units[action.unit]
        name = self.name(action.unit)
        if unit.box != "eliminated":
            where = f"in {self.where(unit.at)}" if unit.on_map else f"in the {str(unit.box).replace('_', ' ')} box"
            return [illegal("17.1.5", f"only a unit in the Eliminated box is rebuilt; {name} is {where}", action)]
        if not unit.unit.type.attributes.get("replaceable", True):
            return [illegal("17.1.7", f"{name} is never replaced", action)]
        nation = unit.unit.type.nationality
        capital = self._capital_lost(state, nation, unit.side)
        if capital and nation not in ("BE", "SB"):
            return [illegal("17.1.3", f"the enemy controls or besieges {capital}: no {nation} RP may be spent", action)]
        found = self._rebuilt_where(action, state, unit)
        pool = unit.unit.type.attributes.get("rp_pool") or nation
        cost = self.module.tables["replacement_costs"]["army" if self.is_army(unit) else "corps"]["eliminated_to_reduced"]
        points = state.status.setdefault("replacement_points", {})
        if points.get(pool, 0) < cost:
            return found + [illegal("17.1.1", f"rebuilding {name} costs {cost} {pool} RP; {points.get(pool, 0)} are recorded", action)]
        points[pool] = points.get(pool, 0) - cost
        return found

    def _rebuilt_where(self, action, state: State, unit: UnitState) -> list:
        name = self.name(unit.id)
        if unit.id == ANA:  # 17.1.6
            if action.at is None or self.where(action.at) != "Arabia":
                return [illegal("17.1.6", f"{name} is rebuilt in Arabia", action)]
            return []
        if not self.is_army(unit):
            if action.box != "reserve":
                return [illegal("17.1.5", f"a rebuilt corps goes into the Reserve Box (at: reserve), not {self._place(action)}", action)]
            return []
        if action.at is None:
            return [illegal("17.1.5", f"a rebuilt army is placed on the map as a reinforcement is (9.5.3.3), not into the {action.box} box", action)]
        location = action.at
        label = self.where(location)
        game_map = self.module.map
        nation = unit.unit.type.nationality
        friendly = self.controller(state, location) == unit.side
        placed = dataclasses.replace(unit, at=location, box=None)
        supplied = self.in_supply(state, placed)  # type: ignore[attr-defined]
        if nation == "BE":
            open_spaces = [s for s in BELGIAN_SPACES if self._belgian_open(state, unit, game_map.index(s))]
            allowed = open_spaces or (["Calais"] if self._belgian_open(state, unit, game_map.index("Calais")) else [])
            if label not in allowed:
                where = ", ".join(allowed) if allowed else "nowhere now"
                return [illegal("17.1.5", f"the Belgian army is rebuilt in Brussels, Antwerp or Ostend (friendly, in supply), else Calais: {where}; not {label}", action)]
            return self._room(action, state, location)
        extra = game_map.extra[location]
        home = extra.get("capital_of") == nation or (bool(game_map.supply[location]) and game_map.country[location] == nation)
        if nation == "US":
            allowed, where = "port" in game_map.features[location] and game_map.country[location] == "FR", "a friendly port in France"
        elif nation == "SB" and label == "Salonika":
            allowed = self.played(state, "salonika") or self.played(state, "greece_entry")
            where = "Salonika only once Salonika or Greece's entry has been played"
        elif nation == "SB" and label == "Belgrade" and self.controller(state, game_map.index("Nis")) == "cp":
            allowed, where = False, "Belgrade only while Nis is not CP-controlled (17.1.5)"
        elif nation == "FR" and label == "Orleans":
            paris = game_map.index("Paris")
            allowed = len(state.units_at(paris)) >= self.module.tables["movement"]["stacking_limit"]
            allowed = allowed and self.controller(state, paris) == "ap" and not self.besieged(state, paris)
            where = "Orleans only while Paris is full (and neither besieged nor enemy-held)"
        else:
            allowed, where = home, f"its capital or a supply source of {nation}"
        if not allowed or not friendly:
            return [illegal("17.1.5", f"{name} is rebuilt as a reinforcement enters (9.5.3.3): at {where}, friendly-controlled; not {label}", action)]
        if self.besieged(state, location):
            return [illegal("17.1.5", f"{name} may not be rebuilt in {label}, whose fort is besieged (9.5.3.3)", action)]
        if not supplied:
            return [illegal("17.1.5", f"{name} must be in supply where it is rebuilt (9.5.3.3); {label} is not", action)]
        return self._room(action, state, location)

    def _belgian_open(self, state: State, unit: UnitState, location: int) -> bool:
        limit = self.module.tables["movement"]["stacking_limit"]
        placed = dataclasses.replace(unit, at=location, box=None)
        return (self.controller(state, location) == "ap" and self.in_supply(state, placed)  # type: ignore[attr-defined]
                and len(state.units_at(location)) < limit)

    def _room(self, action, state: State, location: int) -> list:
        limit = self.module.tables["movement"]["stacking_limit"]
        there = len(state.units_at(location))
        if there + 1 > limit:
            return [illegal("10.1.1", f"{self.where(location)} would hold {there + 1} units; the limit is {limit}", action)]
        return []

    def _place(self, action) -> str:
        return self.where(action.at) if action.at is not None else f"the {action.box} box"

