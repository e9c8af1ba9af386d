"""Supply determination (6.1-6.4): are the Unsupplied markers where the rules put them? And 6.5.6: units
still unsupplied in the Removal Phase are destroyed.

Log form: in the supply phase the phasing player marks units ``{"special": "unsupplied", "units": [...]}``
and lifts markers ``{"special": "resupplied", "units": [...]}``; when the phase ends, every unit on the map is
judged. City control comes from the state's ``status.cities`` (label -> side; a city not listed is
controlled by no one); without it supply is not judged (a warning says so).

Where the sources are ambiguous the module computes every reading and judges a unit only when all readings
agree: the direction rule of city supply (6.1: every step W/NW/SW for the Axis, E/NE/SE for the Soviet, or
only "a path to the friendly edge"), and whether the blocked hexsides across sea water block a supply path
(6.3 names only lake hexsides, which do not). Not modelled: the order of determination between the sides
(6.0: the first side's markers can change the second side's supply), Yugoslav units (none in the counter mix).
"""

from __future__ import annotations

from collections import deque
from itertools import product

from pbem.model.actions import Action, Special
from pbem.model.errors import PbemError
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal, warning

from .base import NoRetreatBase

REGULAR_PATH = 4  # 6.1: at most 4 hexes (no more than 3 between)
AREAS = {"Finland", "West Balkans", "South Balkans"}
LENINGRAD = "1902"
SEAS = {"caspian": {"soviet"}, "baltic": {"axis", "soviet"}}  # 6.2; Black Sea and Sea of Azov: neither side


class SupplyRules(NoRetreatBase):
    def check_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if action.order not in ("unsupplied", "resupplied"):
            return super().check_special(action, state, ctx)  # type: ignore[misc]
        if ctx.phase != "supply":
            return [illegal("6.4", f"Unsupplied markers are placed and lifted in the Supply Phase, not the {ctx.phase or 'no'} phase", action)]
        return []

    def after_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if action.order == "unsupplied":
            for unit_id in action.units:
                state.units[unit_id].markers.add("unsupplied")
            return []
        if action.order == "resupplied":
            for unit_id in action.units:
                state.units[unit_id].markers.discard("unsupplied")
            return []
        return super().after_special(action, state, ctx)  # type: ignore[misc]

    def check_phase(self, action, state: State, ctx: TurnContext) -> list[Violation]:
        return self._phase_end(state, ctx, action) + super().check_phase(action, state, ctx)

    def finish(self, state: State, ctx: TurnContext) -> list[Violation]:
        return self._phase_end(state, ctx, None) + super().finish(state, ctx)

    def _phase_end(self, state: State, ctx: TurnContext, at: Action | None) -> list[Violation]:
        if ctx.phase == "supply":
            return self._judge_supply(state, ctx, at)
        if ctx.phase == "removal":
            return self._removal(state, ctx, at)
        return []

    def check_remove(self, action, state: State, ctx: TurnContext) -> list[Violation]:
        """Units leave the map in the Removal Phase (6.5.6) or as a combat result goes (shattered, destroyed,
        surrendered boxes); anywhere else the sources do not say, so it is not judged."""
        if ctx.phase in ("removal", "combat"):
            return []
        return [warning("4.0", f"units taken off the map in the {ctx.phase or 'no'} phase are not checked", action)]

    def _removal(self, state: State, ctx: TurnContext, at: Action | None) -> list[Violation]:
        """6.5.6: a unit still unsupplied in the Removal Phase is destroyed. Judged for the phasing side's units
        only: whether the phase also removes the other side's marked units is not clear from the source."""
        return [
            illegal("6.5.6", f"{self.name(u.id)} in {self.where(u.at)} is still unsupplied at the end of the Removal Phase and is destroyed", at)
            for u in state.units.values()
            if u.on_map and u.side == ctx.phase_side and "unsupplied" in u.markers
        ]

    # --- the judgement ------------------------------------------------------------------------------------
    def _judge_supply(self, state: State, ctx: TurnContext, at: Action | None) -> list[Violation]:
        control = state.status.get("cities")
        if not isinstance(control, dict):
            return [warning("6.1", "the state gives no city control (status.cities), so supply is not judged", at)]
        try:
            cities = self.city_control(control)
        except PbemError as error:
            raise PbemError(f"the start state's {error.message}", at.source if at is not None else None) from None
        found = []
        readings = [self._supplied_units(state, cities, strict, sea_blocks) for strict, sea_blocks in product((True, False), repeat=2)]
        for unit in state.units.values():
            if not unit.on_map:
                continue
            verdicts = {r[unit.id] for r in readings}
            if len(verdicts) != 1:
                continue  # the readings of 6.1/6.3 disagree: not judged
            supplied = verdicts.pop()
            marked = "unsupplied" in unit.markers
            where = self.where(unit.at)
            if supplied and marked:
                found.append(illegal("6.4", f"{self.name(unit.id)} in {where} has supply (6.1, 6.2) yet carries an Unsupplied marker", at))
            elif not supplied and not marked:
                found.append(illegal("6.4", f"{self.name(unit.id)} in {where} has no supply path (6.1-6.3) and needs an Unsupplied marker", at))
        return found

    def city_control(self, control: dict) -> dict[str, str]:
        """The city hexes of ``status.cities`` (other hexes there, such as oil fields, neither supply nor block)."""
        game_map = self.module.map
        for label, side in control.items():
            where = game_map.find(label)
            if where is None or side not in self.module.sides:
                raise PbemError(f"status.cities: {label!r}: {side!r} is not a hex of the map controlled by one of {', '.join(self.module.sides)}")
        return {label: side for label, side in control.items() if game_map.terrain[game_map.index(label)] == "city"}

    def _supplied_units(self, state: State, cities: dict, strict: bool, sea_blocks: bool) -> dict[str, bool]:
        game_map = self.module.map
        blocked_for = {side: self._blocked(state, cities, side) for side in self.module.sides}
        supplied_cities = {
            side: {c for c, owner in cities.items() if owner == side and self._city_supplied(game_map.index(c), side, blocked_for[side], strict, sea_blocks)}
            for side in self.module.sides
        }
        regular: dict[str, bool] = {}
        for unit in state.units.values():
            if unit.on_map:
                regular[unit.id] = self._regular(unit, supplied_cities[unit.side], blocked_for[unit.side], sea_blocks)
        result = {}
        for unit in state.units.values():
            if not unit.on_map:
                continue
            result[unit.id] = regular[unit.id] or self._alternate(unit, state, cities, supplied_cities, regular)
        return result

    def _blocked(self, state: State, cities: dict, side: str) -> set[int]:
        """6.3: enemy units, enemy ZOCs (unless a friendly unit is there), the areas, enemy-controlled cities."""
        game_map = self.module.map
        blocked = set()
        for i in range(len(game_map)):
            units = state.units_at(i)
            if any(u.side != side for u in units):
                blocked.add(i)
            elif not any(u.side == side for u in units) and self.in_enemy_zoc(state, i, side):
                blocked.add(i)
            elif game_map.names[i] in AREAS:
                blocked.add(i)
            elif cities.get(game_map.label(i), side) != side:
                blocked.add(i)
        return blocked

    def _crossable(self, a: int, b: int, sea_blocks: bool) -> bool:
        features = self.module.map.hexside(a, b)
        return "blocked" not in features or "lake" in features or not sea_blocks

    def _regular(self, unit: UnitState, supplied_cities: set[str], blocked: set[int], sea_blocks: bool) -> bool:
        game_map = self.module.map
        seen = {unit.at: 0}
        queue = deque([unit.at])
        while queue:
            here = queue.popleft()
            if game_map.supply[here] == unit.side or game_map.label(here) in supplied_cities:
                return True
            if seen[here] == REGULAR_PATH:
                continue
            for nxt in game_map.neighbours[here]:
                if nxt not in seen and nxt not in blocked and self._crossable(here, nxt, sea_blocks):
                    seen[nxt] = seen[here] + 1
                    queue.append(nxt)
        return False

    def _city_supplied(self, city: int, side: str, blocked: set[int], strict: bool, sea_blocks: bool) -> bool:
        """6.1: a path of any length to the side's map edge, westward (Axis) or eastward (Soviet)."""
        game_map = self.module.map
        west = side == "axis"
        seen = {city}
        queue = deque([city])
        while queue:
            here = queue.popleft()
            if game_map.supply[here] == side:
                return True
            x = 2 * game_map.hexes[here].q + game_map.hexes[here].r  # twice the column position
            for nxt in game_map.neighbours[here]:
                if nxt in seen or nxt in blocked or not self._crossable(here, nxt, sea_blocks):
                    continue
                step = 2 * game_map.hexes[nxt].q + game_map.hexes[nxt].r - x
                if strict and (step >= 0 if west else step <= 0):
                    continue
                seen.add(nxt)
                queue.append(nxt)
        return False

    def _alternate(self, unit: UnitState, state: State, cities: dict, supplied_cities: dict, regular: dict) -> bool:
        """6.2: the sea from a coastal hex, an adjacent friendly regularly supplied unit, Finns in Finland."""
        game_map = self.module.map
        sea = game_map.extra[unit.at].get("sea")
        if sea in SEAS and unit.side in SEAS[sea]:
            # The Soviet uses the Baltic only while Leningrad (1902) is Soviet-controlled and supplied.
            if sea != "baltic" or unit.side == "axis" or LENINGRAD in supplied_cities["soviet"]:
                return True
        if unit.unit.type.nationality == "Finland" and game_map.names[unit.at] == "Finland":
            return True
        return any(
            regular.get(other.id) for near in game_map.neighbours[unit.at] for other in state.units_at(near) if other.side == unit.side
        )
