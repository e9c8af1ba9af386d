"""Special orders (``{"special": ORDER, "units": [...], "at": HEX, "roll": n, "result": "..."}``), the
Reset-Phase replacements and the map events:

- ``dig_in`` (DI-1 ... DI-3, GMT 14.0), ``bonfire`` (BF-1, GMT 16.2), ``recovery`` (RC-1 ... RC-3: 1d6 + DRMs,
  result ``recovered`` or ``failed``), ``night_raid`` (NR-1 ... NR-6: the FNRT die, result ``no_attack``,
  ``1L``, ``0``, ``1R`` ... ``5R``; then an ``attack`` with ``"declare": ["night_raid"]``), ``x28`` (EV-1:
  the Finnish unit in X28 is sacrificed, with the 76 mm gun unit the Finn removes);
- ``replace`` in the Reset Phase spends 1 Replacement Point on an in-supply reduced company (RE-7).
"""

from __future__ import annotations

from pbem.model.actions import Replace, Roll, Special
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext
from pbem.rules.supply import cheapest, reach

from .base import ACTION, FINNISH, RESET, SOVIET, illegal, mismatch

RAID_RESULTS = {"no_attack": None, "none": None, "1L": -1, "0": 0, "normal": 0, **{f"{n}R": n for n in range(1, 6)}}


class SpecialRules:
    def check_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        method = getattr(self, f"_check_{action.order}", None)
        if method is None:
            return [illegal("SEQ-1", f"unknown special order {action.order!r} (dig_in, bonfire, recovery, night_raid, x28, sub_zero, rebuild)", action)]
        if ctx.phase != ACTION:
            rule = {"dig_in": "DI-2", "bonfire": "BF-1", "recovery": "RC-1", "night_raid": "NR-1", "x28": "EV-1"}[action.order]
            return [illegal(rule, f"{action.order.replace('_', ' ')} is an Action Phase order, not a {ctx.phase or 'no'} phase one", action)]
        for unit_id in action.units:
            unit = state.units[unit_id]
            if unit.side != ctx.active_side and action.order != "x28":
                return [illegal("SEQ-1", f"{self.name(unit_id)} is not a unit of the phasing player", action)]
        return method(action, state, ctx)

    def after_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        method = getattr(self, f"_after_{action.order}", None)
        if method is not None:
            method(action, state, ctx)
        return []

    # --- dig-in (DI) ------------------------------------------------------------------------------------
    def _check_dig_in(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if not action.units:
            return [illegal("DI-1", "name the units that dig in", action)]
        for unit_id in action.units:
            unit, name = state.units[unit_id], self.name(unit_id)
            if not unit.on_map:
                return [illegal("DI-1", f"{name} is not on the map", action)]
            if not (self.is_company(unit) or self.arm(unit) in ("engineer", "mg")):
                return [illegal("DI-1", f"{name} may not dig in: only infantry companies, engineers and MGs", action)]
            if unit_id in ctx.extra["acted"]:
                return [illegal("SEQ-1", f"{name} has already taken its action this phase", action)]
            if self.map.terrain[unit.at] == "frozen_lake":
                return [illegal("DI-3", f"{name} may not dig in on a frozen lake", action)]
            if self.in_ezoc(state, unit.at, unit) and not self.night(state):
                stack = state.units_at(unit.at)
                if not (any(self.arm(u) == "engineer" for u in stack) and len(stack) > 1):
                    return [illegal("DI-3", f"{name} is in an enemy ZOC on a day turn with no engineer stacked with it", action)]
        return []

    def _after_dig_in(self, action: Special, state: State, ctx: TurnContext) -> None:
        for unit_id in action.units:
            unit = state.units[unit_id]
            one_phase = self.arm(unit) == "engineer" or self.night(state)  # DI-2
            unit.markers.add("dug_in" if one_phase or "digging_in" in unit.markers else "digging_in")
            ctx.extra["acted"].add(unit_id)

    # --- bonfire (BF) -----------------------------------------------------------------------------------
    def _bonfire_hex(self, action: Special, state: State) -> int | None:
        if action.at is not None:
            return action.at
        return state.units[action.units[0]].at if action.units else None

    def _check_bonfire(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        location = self._bonfire_hex(action, state)
        if location is None:
            return [illegal("BF-1", "name the hex (at) or the units of the bonfire", action)]
        where = self.where(location)
        if ctx.active_side != SOVIET:
            return [illegal("BF-1", "only the Soviet player builds bonfires", action)]
        if not self.night(state):
            return [illegal("BF-1", f"bonfires are built on night turns only, not turn {state.turn}", action)]
        if any(state.units[u].at != location for u in action.units):
            return [illegal("BF-1", f"the units of a bonfire stand in one hex ({where})", action)]
        if state.side_at(location) != SOVIET:
            return [illegal("BF-1", f"no Soviet unit in {where} to build a bonfire", action)]
        if self.map.terrain[location] == "frozen_lake":
            return [illegal("BF-1", f"no bonfire on a frozen lake ({where})", action)]
        distance = self.enemy_distance(state, location, SOVIET)
        if distance < 4:
            return [illegal("BF-1", f"{where} is {distance} hexes from a Finnish unit; a bonfire needs 4 or more", action)]
        return []

    def _after_bonfire(self, action: Special, state: State, ctx: TurnContext) -> None:
        location = self._bonfire_hex(action, state)
        for unit in state.units_at(location) if location is not None else ():
            unit.markers.add("bonfire")  # BF-2: units arriving later get no benefit
            ctx.extra["acted"].add(unit.id)

    # --- recovery (RC) ----------------------------------------------------------------------------------
    def recovery_modifiers(self, unit: UnitState, state: State) -> dict[str, int]:
        """The Recovery Table DRMs (digest 4.6) that apply to ``unit`` now."""
        drm = self.module.tables["recovery"]["drm"]
        found: dict[str, int] = {}
        if self.morale_side(state) == unit.side:
            found["morale"] = drm["morale"]
        if self.enemy_distance(state, unit.at, unit.side) >= 4:
            found["four_hexes_from_enemy"] = drm["four_hexes_from_enemy"]
        if unit.side == FINNISH and any(self.arm(u) == "leader" for u in state.units_at(unit.at)):
            found["pajari"] = drm["pajari"]
        if self.night(state):
            found["night"] = drm["night"]
        if not self.supply_line(unit, state)[0]:
            found["out_of_supply"] = drm["out_of_supply"]
        flo, fhi = self.track["finnish_morale_turns"]
        if unit.side == SOVIET and flo <= state.turn <= fhi:
            found["soviet_late"] = drm["soviet_late"]
        return found

    def _check_recovery(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if len(action.units) != 1 or len(action.rolls) != 1:
            return [illegal("RC-1", "one recovery roll (1d6) per company: one unit and one roll per recovery order", action)]
        unit, name = state.units[action.units[0]], self.name(action.units[0])
        if not unit.on_map:
            return [illegal("RC-1", f"{name} is not on the map", action)]
        if not self.is_company(unit):
            return [illegal("RC-1", f"{name} is not an infantry company: only reduced infantry companies attempt recovery", action)]
        if unit.step == 0:
            return [illegal("RC-1", f"{name} is at full strength", action)]
        if unit.id in ctx.extra["acted"] and not (self.night(state) and unit.side == SOVIET and "bonfire" in unit.markers):
            return [illegal("SEQ-1", f"{name} has already taken its action this phase", action)]
        if self.in_ezoc(state, unit.at, unit):
            return [illegal("RC-2", f"{name} is in an enemy ZOC and may not attempt recovery", action)]
        roll = action.rolls[0]
        if not 1 <= roll <= 6:
            return [mismatch("RC-1", f"a roll of {roll} is impossible with 1d6", action)]
        modifiers = self.recovery_modifiers(unit, state)
        total = roll + sum(modifiers.values())
        expected = "recovered" if total >= self.module.tables["recovery"]["success"] else "failed"
        ctx.outcome(action, f"{name} {'regains a step' if expected == 'recovered' else 'stays reduced'} ({roll}{''.join(f' {v:+d}' for v in modifiers.values())} = {total})", result=expected, rule="RC-1")
        if action.result is not None and action.result.lower() != expected:
            explained = "".join(f" {v:+d} {k.replace('_', ' ')}" for k, v in modifiers.items())
            return [mismatch("RC-1", f"recovery roll {roll}{explained} = {total}: {expected} (6 or more recovers), not {action.result}", action)]
        return []

    def _after_recovery(self, action: Special, state: State, ctx: TurnContext) -> None:
        if not action.units:  # refused by the check; nothing to carry out
            return
        unit = state.units[action.units[0]]
        total = action.rolls[0] + sum(self.recovery_modifiers(unit, state).values()) if action.rolls else 0
        if unit.on_map and total >= self.module.tables["recovery"]["success"]:
            unit.step = max(0, unit.step - 1)
        ctx.extra["acted"].add(unit.id)

    # --- night raid (NR) ----------------------------------------------------------------------------------
    def _check_night_raid(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        table = self.module.tables["night_raid"]
        target = action.at
        if ctx.active_side != FINNISH or not self.night(state):
            return [illegal("NR-1", f"night raids are Finnish actions on night turns only (turn {state.turn} is {self.period(state)}, phasing {ctx.active_side})", action)]
        if ctx.extra.get("raid") is not None:
            return [illegal("NR-1", "one night raid per night turn", action)]
        if target is None:
            return [illegal("NR-3", "name the target hex (at)", action)]
        raiders = [state.units[u] for u in action.units]
        companies = [u for u in raiders if self.arm(u) != "leader"]
        if not companies or len(companies) > table["max_raiders"]:
            return [illegal("NR-1", f"{len(companies)} raiding companies: 1 to {table['max_raiders']} (plus the leader)", action)]
        start_ezoc = ctx.extra.get("start_ezoc") or set()
        for unit in raiders:
            name = self.name(unit.id)
            if not unit.on_map:
                return [illegal("NR-1", f"{name} is not on the map", action)]
            if self.arm(unit) != "leader" and not (self.is_company(unit) and unit.step == 0):
                return [illegal("NR-1", f"{name} may not raid: only full-strength Finnish infantry companies (and the leader)", action)]
            if unit.id in start_ezoc:
                return [illegal("NR-1", f"{name} was in an enemy ZOC at the start of the Action Phase", action)]
            if unit.id in ctx.extra["acted"]:
                return [illegal("NR-1", f"{name} has already acted: the raid is a raider's only action", action)]
        if len(raiders) > 1:
            for unit in raiders:
                if not any(o is not unit and (o.at == unit.at or self.map.is_adjacent(o.at, unit.at)) for o in raiders):
                    return [illegal("NR-2", f"{self.name(unit.id)} in {self.where(unit.at)} is neither with nor next to another raider", action)]
        where = self.where(target)
        if state.side_at(target) != SOVIET:
            return [illegal("NR-3", f"{where} holds no Soviet unit to raid", action)]
        if "hotel" in self.map.features[target]:
            return [illegal("NR-3", f"{where} is the Hotel: never a night-raid target", action)]
        starts = ctx.extra.get("phase_start_at", {})
        finns = [loc for uid, loc in starts.items() if state.units[uid].side == FINNISH]
        near = min((self.map.distance(target, loc) for loc in finns), default=99)
        if near < table["min_distance"]:
            return [illegal("NR-3", f"{where} was {near} hexes from a Finnish unit at the start of the Action Phase; a raid target needs {table['min_distance']} or more", action)]
        routes = {}
        for unit in companies:
            routes[unit.id] = self._raid_route(unit, target, state)
            if routes[unit.id] > table["max_route_mp"]:
                return [illegal("NR-4", f"{self.name(unit.id)} needs {routes[unit.id]:g} MP to reach {where} (target hex and assault cost not counted): at most {table['max_route_mp']}", action)]
        if len(action.rolls) != 1 or not 1 <= action.rolls[0] <= 6:
            return [mismatch("NR-5", f"the Night Raid roll is one 1d6, not {list(action.rolls)}", action)]
        drm = table["drm"]
        modifiers: dict[str, int] = {}
        if not state.status.get("night_raids"):
            modifiers["first raid"] = drm["first_raid"]
        if any(self.arm(u) == "leader" for u in raiders):
            modifiers["Pajari"] = drm["pajari"]
        if any("bonfire" in u.markers for u in state.units_at(target)):
            modifiers["bonfire"] = drm["bonfire"]
        if all(cost <= 7 for cost in routes.values()):
            modifiers["route 7 MP or less"] = drm["route_7_mp"]
        if all(self._open_route(unit, target, state) for unit in companies):
            modifiers["road, lake or village route"] = drm["route_road_lake_village"]
        total = action.rolls[0] + sum(modifiers.values())
        shift = next(r["result"] for r in table["results"] if r.get("min", -99) <= total <= r.get("max", 99))
        expected = "no_attack" if shift == "no_attack" else "0" if shift == 0 else f"{abs(shift)}{'L' if shift < 0 else 'R'}"
        claimed = (action.result or "").strip()
        found = []
        if claimed not in RAID_RESULTS or RAID_RESULTS[claimed] != (None if shift == "no_attack" else shift):
            explained = "".join(f" {v:+d} {k}" for k, v in modifiers.items())
            found.append(mismatch("NR-5", f"Night Raid Table: {action.rolls[0]}{explained} = {total} gives {expected}, not {claimed or 'nothing'}", action))
        ctx.extra["raid"] = {"raiders": {u.id for u in raiders}, "target": target, "shift": None if shift == "no_attack" else shift, "index": action.index}
        return found

    def _raid_cost(self, unit: UnitState, target: int, state: State):
        def cost(a: int, b: int) -> float | None:
            if b != target and state.side_at(b) == SOVIET:
                return None
            if b == target:
                return 0.0  # NR-4: the target hex's cost (and the +2 assault cost) is not counted
            road = self.road_cost(unit, a, b)
            terrain = self.terrain_cost(unit, b)
            options = [c for c in (road, terrain) if c is not None]
            return min(options) if options else None

        return cost

    def _raid_route(self, unit: UnitState, target: int, state: State) -> float:
        """NR-4: the least MP from the raider's hex to the target (road rates allowed, enemy hexes avoided;
        the source's "free path" is not defined further, so enemy ZOC is not avoided)."""
        best = cheapest(self.map, unit.at, self._raid_cost(unit, target, state), goal=target)
        return best.get(target, float("inf"))

    def _open_route(self, unit: UnitState, target: int, state: State) -> bool:
        """FNRT +1: a route traceable through road, frozen-lake or village hexes only (a road hex is a hex a road
        or trail runs through; the route need not follow it)."""

        def passable(b: int) -> bool:
            if b == target:
                return True
            road_hex = any(self.map.has_road(b, n) for n in self.map.neighbours[b])
            return state.side_at(b) != SOVIET and (road_hex or self.map.terrain[b] in ("frozen_lake", "village"))

        return target in reach(self.map, [unit.at], passable)

    def _after_night_raid(self, action: Special, state: State, ctx: TurnContext) -> None:
        state.status["night_raids"] = state.status.get("night_raids", 0) + 1
        for unit_id in action.units:
            state.units[unit_id].markers.add("skull")  # NR-6: they roll for sub-zero loss
            ctx.extra["acted"].add(unit_id)

    # --- the X28 event (EV-1) -----------------------------------------------------------------------------
    def _check_x28(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        x28 = self.map.index("X28")
        if state.status.get("events", {}).get("X28"):
            return [illegal("EV-1", "the X28 event has already happened", action)]
        if not action.units:
            return [illegal("EV-1", "name the Finnish unit in X28 (and the 76 mm gun unit removed)", action)]
        finn = state.units[action.units[0]]
        if finn.side != FINNISH or finn.at != x28 or ctx.active_side != FINNISH:
            return [illegal("EV-1", f"{self.name(finn.id)} is not a Finnish unit in X28 in the Finnish Action Phase", action)]
        if "skull" in finn.markers:
            return [illegal("EV-1", "a night raid does not trigger the X28 event", action)]
        for unit_id in action.units[1:]:
            if state.units[unit_id].unit.type.id != "sov_artillery_76":
                return [illegal("EV-1", f"{self.name(unit_id)} is not an off-map 76 mm gun unit", action)]
        if len(action.units) > 2:
            return [illegal("EV-1", "one off-map 76 mm gun unit is removed", action)]
        return []

    def _after_x28(self, action: Special, state: State, ctx: TurnContext) -> None:
        if not action.units:  # refused by the check; nothing to carry out
            return
        events = state.status.setdefault("events", {})
        events["X28"] = state.turn
        events["X28_until"] = state.turn + 4
        state.remove(action.units[0], "off_map")  # removed permanently, not destroyed
        for unit_id in action.units[1:]:
            state.remove(unit_id, "eliminated")
        for unit in state.units.values():
            if unit.id.endswith("-354"):
                state.remove(unit.id, "eliminated")
        ammo = state.status.setdefault("ammo", {})
        ammo[SOVIET] = ammo.get(SOVIET, 0) // 2

    # --- Reset-Phase replacements (RE-7) and plain rolls --------------------------------------------------
    def check_replace(self, action: Replace, state: State, ctx: TurnContext) -> list[Violation]:
        unit, name = state.units[action.unit], self.name(action.unit)
        if ctx.phase != RESET:
            return [illegal("RE-7", f"Replacement Points are spent in the owner's Reset Phase, not the {ctx.phase or 'no'} phase (a recovery is a special order)", action)]
        if unit.step == 0:
            return [illegal("RE-7", f"{name} is at full strength", action)]
        if not self.is_company(unit) or not unit.on_map:
            return [illegal("RE-7", f"{name} is not a reduced infantry company on the map", action)]
        points = self.turns.get(state.turn, {}).get("replacement_points", {}).get(unit.side, 0)
        if ctx.extra["rp_spent"] + 1 > points:
            return [illegal("RE-7", f"the {unit.side} player has {points - ctx.extra['rp_spent']} Replacement Point(s) left on turn {state.turn}", action)]
        supplied, why = self.supply_line(unit, state)
        if not supplied:
            return [illegal("SP-2" if unit.side == FINNISH else "SP-1", f"{name} is out of supply: {why}; 1 RP flips only an in-supply company (RE-7)", action)]
        ctx.extra["rp_spent"] += 1
        return []

    def check_roll(self, action: Roll, state: State, ctx: TurnContext) -> list[Violation]:
        count, _, faces = action.dice.partition("d")
        low, high = int(count or 1), int(count or 1) * int(faces or 6)
        if any(not low <= v <= high for v in action.values) and len(action.values) == 1:
            return [mismatch("SEQ-1", f"a roll of {action.values[0]} is impossible with {action.dice}", action)]
        return []
