"""Supply (14) and the Attrition phase (14.3.5).

A unit is in supply if a path of friendly-controlled spaces, without enemy units and along connections its
nationality may use, joins its space to a friendly supply source it may use (14.1.2-14.1.3, 14.2); a besieged
enemy fort's space may be passed, a besieged friendly fort's may not. One sea leg between two friendly ports
of the side's kind may join two land stretches (14.1.4: at most two ports); Russian, Serbian and Romanian units
never trace by sea (14.2.2). Some units are always in supply (14.1.5-14.1.8).

In the Attrition phase every unit out of supply is eliminated, and only those (14.3.5): corps with ``eliminate``
(to the Eliminated box), armies with ``remove`` to ``permanently_eliminated``. Forts are not units and are
always in supply (14.1.7).
"""

from __future__ import annotations

from pbem.model.state import State, UnitState
from pbem.rules.ruleset import TurnContext, illegal
from pbem.rules.supply import reach

from .base import PathsOfGloryBase, pog

RUSSIAN_FAMILY = ("RU", "RO", "SB")
ALWAYS = ("MN",)  # 14.1.5 (with the ANA and SN corps, by contingent)


class SupplyRules(PathsOfGloryBase):
    def in_supply(self, state: State, unit: UnitState) -> bool:
        if not unit.on_map:
            return True
        game_map = self.module.map
        nation = unit.unit.type.nationality
        contingent = unit.unit.type.attributes.get("contingent")
        here = unit.at
        if nation in ALWAYS or contingent in ("ANA",) or nation == "SN":
            return True  # 14.1.5
        if self.neutral(state, nation):
            return True  # a neutral nation's units (Greece's after the Salonika event, 9.5.2.4) are not at war: no supply, no attrition
        if nation == "SB" and game_map.country[here] == "SB":
            return True  # 14.1.6
        if nation == "TU" and game_map.label(here) == "Medina":
            return True  # 14.1.8
        side = unit.side
        sources = self._sources(state, side, nation)

        def passable(location: int) -> bool:
            if self.enemy_units(state, location, side):
                return False
            owner = self.controller(state, location)
            if owner == side:
                return not (self.fort(state, location) and self.besieged(state, location))
            return bool(self.fort(state, location)) and self.besieged(state, location)

        def step(a: int, b: int) -> bool:
            if self.may_use(state, a, b, unit):
                return True
            # 14.1.3: RU, RO and SB units trace over the dashed lines that join Russian supply sources.
            return nation in RUSSIAN_FAMILY and any("RU" in game_map.extra[x].get("supply_for", ()) for x in (a, b))

        land = reach(game_map, [here], passable, step=step)
        if sources & set(land):
            return True
        if nation in RUSSIAN_FAMILY:
            return False  # 14.2.2: no sea supply for them
        ports = [p for p in land if self._port(state, p, side)]
        if not ports:
            return False
        landings = [p for p in range(len(game_map)) if self._port(state, p, side) and p not in ports]
        beyond = reach(game_map, landings, passable, step=step)
        return bool(sources & set(beyond))

    def out_of_supply(self, state: State, unit: UnitState) -> bool:
        """14.3.1-14.3.2 by the traced supply line; off the map no line can be traced, so the state's flag decides."""
        if not unit.on_map:
            return not unit.supplied
        return not self.in_supply(state, unit)

    def _sources(self, state: State, side: str, nation: str) -> set[int]:
        game_map = self.module.map
        found = set()
        for location in range(len(game_map)):
            if game_map.supply[location] is None or self.controller(state, location) != side:
                continue
            serves = game_map.extra[location].get("supply_for", ["*"])
            if side == "cp" and game_map.supply[location] == "cp":
                found.add(location)
            elif side == "ap" and game_map.supply[location] == "ap":
                russian = "RU" in serves
                if (nation in RUSSIAN_FAMILY) == russian:
                    found.add(location)
        if nation == "SB":  # 14.2.3
            salonika = game_map.index("Salonika")
            if self.controller(state, salonika) == "ap":
                found.add(salonika)
        return found

    def _port(self, state: State, location: int, side: str) -> bool:
        extra = self.module.map.extra[location]
        if side == "ap" and self.module.map.label(location) == state.status.get("mef_beachhead"):
            return True  # 9.5.3.5: the beach-head space is an Allied port
        if extra.get("port") != side or self.controller(state, location) != side:
            return False
        if side == "ap" and self.module.map.label(location) == "Constantinople":
            return self.controller(state, self.module.map.index("Gallipoli")) == "ap"  # 14.1.4
        return True

    # --- the Attrition phase ----------------------------------------------------------------------------
    def check_phase(self, action, state: State, ctx: TurnContext) -> list:
        found = self._end_attrition(state, ctx, action)
        found += super().check_phase(action, state, ctx)  # type: ignore[misc]
        if action.name == "attrition":
            pog(ctx)["attrition"] = {u.id for u in state.units.values() if u.on_map and not self.in_supply(state, u)}
        return found

    def finish(self, state: State, ctx: TurnContext) -> list:
        return self._end_attrition(state, ctx, None) + super().finish(state, ctx)  # type: ignore[misc]

    def _end_attrition(self, state: State, ctx: TurnContext, action) -> list:
        out_of_supply = pog(ctx).pop("attrition", None)
        if out_of_supply is None:
            return []
        left = sorted(u for u in out_of_supply if state.units[u].on_map)
        if not left:
            return []
        names = ", ".join(self.name(u) for u in left[:4]) + (f" and {len(left) - 4} more" if len(left) > 4 else "")
        return [illegal("14.3.5", f"out of supply in the Attrition phase and not eliminated: {names}", action)]

    def check_eliminate(self, action, state: State, ctx: TurnContext) -> list:
        return self._attrition_loss(action, state, ctx, action.units, "eliminated")

    def check_remove(self, action, state: State, ctx: TurnContext) -> list:
        if action.to == "permanently_eliminated":
            return self._attrition_loss(action, state, ctx, action.units, "permanently_eliminated")
        return super().check_remove(action, state, ctx)  # type: ignore[misc]

    def _attrition_loss(self, action, state: State, ctx: TurnContext, units, box: str) -> list:
        out_of_supply = pog(ctx).get("attrition")
        if out_of_supply is None:
            return [illegal("14.3.5", "units leave the map this way only in the Attrition phase (combat losses go in the attack)", action)]
        found = []
        for unit_id in units:
            unit = state.units[unit_id]
            if unit_id not in out_of_supply:
                found.append(illegal("14.3.5", f"{self.name(unit_id)} is in supply: attrition does not eliminate it", action))
            elif self.is_army(unit) and box != "permanently_eliminated":
                found.append(illegal("14.3.5", f"{self.name(unit_id)} is an army: out of supply in the Attrition phase it is removed permanently (remove to permanently_eliminated)", action))
            elif not self.is_army(unit) and box != "eliminated":
                found.append(illegal("14.3.5", f"{self.name(unit_id)} is a corps: it goes to the Eliminated box (eliminate), not {box}", action))
        return found
