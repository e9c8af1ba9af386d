"""Supply (SP-1 ... SP-3, GMT 15.0), traced when it matters instead of trusting the state's flag.

- SP-1 a Soviet unit traces at most 4 hexes to a road (or trail) hex that connects by road to X28;
- SP-2 a Finnish unit traces any distance, over any terrain, to A13;
- SP-3 never through enemy units or an enemy ZOC, unless a friendly unit stands in that hex. The same
  restriction is applied to the road leading to X28 (the source says "no supply trace through" them).
"""

from __future__ import annotations

from pbem.model.state import State, UnitState
from pbem.rules.supply import reach

from .base import FINNISH, SUPPLY_SOURCE

SOVIET_TRACE = 4


class SupplyRules:
    def _passable(self, state: State, side: str):
        enemy = self.other(side)

        def ok(location: int) -> bool:
            here = state.units_at(location)
            if any(u.side == enemy for u in here):
                return False
            if any(u.side == side for u in here):
                return True  # a friendly unit negates the enemy ZOC for tracing
            return not self._zoc_of(state, location, enemy)

        return ok

    def _zoc_of(self, state: State, location: int, side: str) -> bool:
        from pbem.rules.zoc import in_zoc

        return in_zoc(state, self.map, location, side, self.exerts)

    def supply_line(self, unit: UnitState, state: State) -> tuple[bool, str]:
        """Whether ``unit`` is in supply, and a sentence saying why not."""
        if not unit.on_map:
            return False, "it is not on the map"
        side = unit.side
        source = self.map.index(SUPPLY_SOURCE[side])
        passable = self._passable(state, side)
        if not passable(source) and unit.at != source:
            return False, f"the supply source {SUPPLY_SOURCE[side]} is blocked by enemy units or their ZOC"
        if side == FINNISH:
            if source in reach(self.map, [unit.at], passable):
                return True, ""
            return False, f"no line from {self.where(unit.at)} to A13 avoids Soviet units and their uncancelled ZOC"
        roads = reach(self.map, [source], passable, step=self.map.has_road)
        near = reach(self.map, [unit.at], passable, limit=SOVIET_TRACE)
        if any(h in roads for h in near):
            return True, ""
        return False, f"no road leading to X28 within {SOVIET_TRACE} hexes of {self.where(unit.at)} free of Finnish units and their uncancelled ZOC"
