"""WWII Campaign / Crusader: supply lines (W-Supply/1-4, 补给 and 交通线的切断) and the unit recovery segment
(W-Stam/3, 单位恢复节).

A unit is supplied when a line of any length runs from its hex to a friendly supply source through hexes
without enemy units, without enemy-held towns, and without enemy ZOC unless a friendly unit is there
(W-Supply/3). It is in **full** supply when such a line runs wholly along roads and railways from its own hex
(the literal reading of 始终沿着交通线, case C30) without a cut hex: one in an enemy strong ZOC, or in an enemy
weak ZOC with no friendly unit (W-Supply/4); otherwise in **limited** supply. A unit the state marks
``"supplied": false`` is out of supply whatever the trace finds (a ruling the players recorded).

Sources: the map's ``supply`` hexes of the side (the road entries), and for a side named in the option
``coastal_town_sources`` (Crusader: the British) every coastal town it holds. Who holds a town is the state's
``status.held`` (hex -> side), else the side whose units stand in it.
"""

from __future__ import annotations

from collections import deque

from pbem.model.actions import Phase
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext

from .base import GUARDS, STAMINA, STRONG, WEAK, CrusaderBase

FULL, LIMITED, NONE = "full", "limited", "none"
RECOVERY = {FULL: 2, LIMITED: 1, NONE: 0}


class SupplyRules(CrusaderBase):
    """supply() and the recovery segment."""

    def holder(self, state: State, location: int) -> str | None:
        held = state.status.get("held", {}).get(self.where(location))
        if held is not None:
            return held
        return state.side_at(location)

    def sources(self, state: State, side: str) -> set[int]:
        """The side's supply sources with no enemy unit in them."""
        return {i for i in self.source_hexes(state, side) if not any(u.side != side for u in state.units_at(i))}

    def source_hexes(self, state: State, side: str) -> set[int]:
        """The side's supply sources, whoever stands in them: its road entries and, for a side named in
        ``coastal_town_sources``, the coastal towns it holds."""
        game_map = self.module.map
        found = {i for i, owner in enumerate(game_map.supply) if owner == side}
        if side in self.module.options.get("coastal_town_sources", ()):
            found |= {i for i in range(len(game_map.terrain))
                      if self.main_terrain(i) == "town" and "coastal" in game_map.features[i] and self.holder(state, i) == side}
        return found

    def contested_source(self, state: State, side: str, location: int) -> bool:
        """[AMBIG] C129 reading 1: a source town in a street fight is still held by the side that held it (no capture
        is completed during the fight), so it stays its reinforcement area, as it stays its replenishment place. A
        state that does not say who held it (no ``status.held`` entry) gives the side the benefit of the doubt."""
        held = state.status.get("held", {}).get(self.where(location))
        if held not in (None, side):
            return False
        if self.module.map.supply[location] == side:
            return True
        return (side in self.module.options.get("coastal_town_sources", ()) and self.main_terrain(location) == "town"
                and "coastal" in self.module.map.features[location])

    def _passable(self, state: State, location: int, side: str) -> bool:
        """W-Supply/3: no enemy unit, no enemy-held town, no enemy ZOC without a friendly unit; no sea."""
        if self.main_terrain(location) in set(self.tables.value("terrain_costs", "impassable") or ()):
            return False
        if location in self.street_hexes(state):
            return self.street_passes(state, location, side)
        if any(u.side != side for u in state.units_at(location)):
            return False
        if self.main_terrain(location) == "town" and self.holder(state, location) not in (None, side):
            return False
        return not self.enemy_zoc(state, location, side) or self.friendly_in(state, location, side)

    def _cut(self, state: State, location: int, side: str) -> bool:
        """W-Supply/4: a transport hex in an enemy strong ZOC (friendly unit or not), or weak ZOC with no friend."""
        zoc = self.enemy_zoc(state, location, side)
        return zoc == STRONG or (zoc == WEAK and not self.friendly_in(state, location, side))

    # --- street fights (W-Street/5): whose supply passes a street-fight hex ------------------------------------------
    def street_hexes(self, state: State) -> set[int]:
        return {self.module.map.index(label) for label in state.status.get("street_fights", []) if self.module.map.find(label) is not None}

    def street_strength(self, state: State, units: list[UnitState], location: int) -> int:
        """The street strength of some of the units in a street-fight hex: their defence, with the skills that add to
        it against the enemy armour there when ``street_skills`` is ``counted`` (as ``street_totals`` counts them)."""
        total = sum(u.face.defence for u in units)
        if self.module.options.get("street_skills", "counted") == "counted" and units:
            side = units[0].side
            enemies = [u for u in state.units_at(location) if u.side != side]
            total += sum(self.skill_bonus([u], enemies, defending=True) for u in units)
        return total

    def street_totals(self, state: State, location: int) -> dict[str, int]:
        """Each side's street-fight strength in the hex: the sum of its units' defence (W-Street/6). [AMBIG] C128(d):
        with option ``street_skills: counted`` (the default) the skills that add to a defending unit's strength
        against armour ([Armoured Div], [8.8cm Flak]) count, since street strength is the defence value;
        ``not_counted``: the printed defence alone."""
        units = state.units_at(location)
        totals: dict[str, int] = {}
        for unit in units:
            totals[unit.side] = totals.get(unit.side, 0) + unit.face.defence
        if self.module.options.get("street_skills", "counted") == "counted" and len(totals) > 1:
            for side in totals:
                own = [u for u in units if u.side == side]
                totals[side] += self.skill_bonus(own, [u for u in units if u.side != side], defending=True)
        return totals

    def street_passes(self, state: State, location: int, side: str) -> bool:
        """Only the larger side's lines, and only at 5:1 or more (巷战战力比在5:1或以上时)."""
        totals = self.street_totals(state, location)
        mine = totals.get(side, 0)
        theirs = sum(v for k, v in totals.items() if k != side)
        return mine > theirs and (theirs == 0 or mine // theirs >= 5)

    def supply(self, state: State, unit: UnitState, start: int | None = None) -> str:
        """full, limited or none for a unit on the map (or as if it stood in ``start``)."""
        if not unit.supplied:
            return NONE
        side, start = unit.side, (unit.at if start is None else start)
        targets = self.sources(state, side)
        if not targets:
            return NONE
        game_map = self.module.map
        if start in targets:
            # [AMBIG] C82: a unit in its own source whose hex the enemy cuts (strong ZOC): full by default; option
            # cut_source_hex: limited reads 始终沿着交通线 … 被敌方切断 as holding there too
            if self.module.options.get("cut_source_hex", "full") == "limited" and self._cut(state, start, side):
                return LIMITED
            return FULL
        # [AMBIG] C30: the line runs along the net from the unit's own hex (default); option full_supply_from:
        # adjacent lets its first step reach the net from an off-road hex
        off_road = self.module.options.get("full_supply_from", "own_hex") == "adjacent"
        # full: along roads and railways only, no cut hex (the unit's own hex included)
        if not self._cut(state, start, side):
            seen, queue = {start}, deque([start])
            while queue:
                here = queue.popleft()
                for near in game_map.neighbours[here]:
                    if near in seen or not (self.route_between(here, near) or (off_road and here == start)):
                        continue
                    if near in targets:  # a source with no enemy unit in it ends the line (its own ZOC aside)
                        return FULL
                    if not self._passable(state, near, side) or self._cut(state, near, side):
                        continue
                    seen.add(near)
                    queue.append(near)
        seen, queue = {start}, deque([start])
        while queue:
            here = queue.popleft()
            for near in game_map.neighbours[here]:
                if near in seen:
                    continue
                if near in targets:
                    return LIMITED
                if not self._passable(state, near, side):
                    continue
                seen.add(near)
                queue.append(near)
        return NONE

    def reinforcement_area(self, state: State, side: str, location: int) -> bool:
        """W-Reinf/3 (增援区域): a friendly supply source, or a town linked to one by a railway the enemy has not cut
        (no rail hex on the way in an enemy strong ZOC, or in a weak one without a friendly unit, or enemy-held)."""
        targets = self.sources(state, side)
        if location in targets:
            return True
        if location in self.street_hexes(state) and self.contested_source(state, side, location):
            return True
        if self.main_terrain(location) != "town" or not self._passable(state, location, side) and not self.friendly_in(state, location, side):
            return False
        game_map = self.module.map
        seen, queue = {location}, deque([location])
        while queue:
            here = queue.popleft()
            for near in game_map.neighbours[here]:
                if near in seen or game_map.rail(here, near) is None:
                    continue
                if near in targets:
                    return True
                if not self._passable(state, near, side) or self._cut(state, near, side):
                    continue
                seen.add(near)
                queue.append(near)
        return False

    def out_of_supply(self, state: State, unit: UnitState) -> bool:
        return self.supply(state, unit) == NONE

    # --- W-Stam/3 the unit recovery segment --------------------------------------------------------------------
    def after_phase(self, action: Phase, state: State, ctx: TurnContext) -> list[Violation]:
        if action.name != "recovery" or ctx.extra.get("reopened"):
            return []  # (a recovery segment the last file opened has recovered its units already)
        side = ctx.phase_side
        for unit in list(state.units.values()):
            if not unit.on_map or unit.side != side:
                continue
            now = self.stamina(state, unit)
            if now is None:
                continue
            status = self.supply(state, unit)
            gain = RECOVERY[status]
            if status != NONE and self.has_skill(unit, GUARDS):
                gain = 2  # [近卫] +2 whenever supplied
            full = self.values(unit).get(STAMINA)  # [AMBIG] the card's printed stamina is the most a unit has
            unit.tallies[STAMINA] = min(now + gain, full) if full is not None else now + gain
        return []
