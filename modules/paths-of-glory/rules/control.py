"""Space control that changes without a unit moving in: the Attrition phase (14.3.6) and the end of a retreat (12.5.5).

``{"control": {"Warsaw": "cp"}}`` in the Attrition phase: a friendly-controlled space without an undestroyed
friendly fort that could not trace supply if it were a friendly unit becomes enemy-controlled (14.3.6, LR2022
wording; the seed's sentence says the same of the space's units). Spaces are judged together when the phase
begins, as the units are (14.3.5). The Allies' Serbian spaces change only when CP units enter them (LR2022 14.3.6,
by 14.1.6). Every such space is written, and only those; the flip moves the VP of a VP space and the trench
marker (LR2022 11.2.7: level 1 removed, level 2 becomes an enemy level 1).

Retreating units gain control of the space their retreat ends in (12.5.5; not of the spaces passed through,
and never of an enemy fort's space, 15.1.9); the Arab Northern Army alone takes no control (11.1.14).
"""

from __future__ import annotations

import dataclasses

from pbem.model.state import State, UnitState
from pbem.rules.ruleset import TurnContext, illegal, warning

from .base import pog
from .supply import SupplyRules

ANA = "BR-ANA-CORPS"
# The nationalities a space is traced for, as if it held one of their units: every supply source of the side.
TRACED_AS = {"cp": ("GE",), "ap": ("BR", "RU")}


class ControlRules(SupplyRules):
    # --- the Attrition phase ----------------------------------------------------------------------------
    def check_phase(self, action, state: State, ctx: TurnContext) -> list:
        found = self._end_flips(ctx, action)
        found += super().check_phase(action, state, ctx)
        if action.name == "attrition":
            pog(ctx)["flips"] = self.attrition_flips(state)
        return found

    def finish(self, state: State, ctx: TurnContext) -> list:
        return self._end_flips(ctx, None) + super().finish(state, ctx)

    def attrition_flips(self, state: State) -> dict[int, str]:
        """14.3.6: each space that changes hands in this Attrition phase, with the side it passes to."""
        game_map = self.module.map
        flips: dict[int, str] = {}
        decided: dict[tuple[str, int], bool] = {}
        components = self._components(state)
        unjudged = self._unjudged(state)
        sourced = {group for loc, group in components.items() if game_map.supply[loc] == self.controller(state, loc)}
        for location in range(len(game_map)):
            side = self.controller(state, location)
            if side is None or self.fort(state, location) or location in unjudged:
                continue
            if side == "ap" and game_map.country[location] == "SB":
                continue  # LR2022 14.3.6: Serbian spaces change only when CP units enter them
            group = components.get(location)
            if group in sourced:
                continue  # joined to one of its side's supply sources through its own spaces
            key = (side, -1 - location if group is None else group)
            if key not in decided:
                decided[key] = any(self.in_supply(state, unit) for unit in self._traced_units(state, side, location))
            if decided[key]:
                continue
            if any(u.side == side and self.in_supply(state, u) for u in state.units_at(location)):
                continue  # a supplied friendly unit holds it (the SN corps, 14.1.5, say)
            flips[location] = self.enemy_of(side)
        return flips

    def _unjudged(self, state: State) -> set[int]:
        """Spaces 14.3.6 leaves alone: the MEF landing spaces while the beach-head is elsewhere (they are not in
        play, 11.1.10), and Arabia, which touches the map only by the ANA's dashed lines: the friendly unit it is
        imagined as is then the ANA corps, always in supply (14.1.5). (LR2022 names Arabia among the spaces that
        flip; the reading is the module's, and Rally the Troops' too: see the README.)"""
        game_map = self.module.map
        beachhead = state.status.get("mef_beachhead")
        found = {loc for loc in range(len(game_map)) if "mef_landing" in game_map.features[loc] and game_map.label(loc) != beachhead}
        arabia = game_map.find("Arabia")
        if arabia is not None:
            found.add(arabia)
        return found

    def _traced_units(self, state: State, side: str, location: int) -> list[UnitState]:
        """A unit of each nationality whose sources the side's spaces trace to, standing in ``location``."""
        found = []
        for nation in TRACED_AS[side]:
            unit = next((u for u in state.units.values() if u.unit.type.nationality == nation), None)
            if unit is not None:
                found.append(dataclasses.replace(unit, at=location, box=None, side=side))
        return found

    def _components(self, state: State) -> dict[int, int]:
        """Spaces joined by solid connections through spaces of one controller without enemy units or a besieged fort:
        a space traces supply exactly as the others of its group (a finer grouping than the supply trace's own,
        so one trace a group is enough)."""
        game_map = self.module.map
        owner = [self.controller(state, loc) for loc in range(len(game_map))]
        open_space = [owner[loc] is not None and not (self.fort(state, loc) and self.besieged(state, loc)) and not self.enemy_units(state, loc, owner[loc])
                      for loc in range(len(game_map))]
        group: dict[int, int] = {}
        for start in range(len(game_map)):
            if not open_space[start] or start in group:
                continue
            group[start] = start
            stack = [start]
            while stack:
                here = stack.pop()
                for there in game_map.neighbours[here]:
                    edge = (here, there) if here < there else (there, here)
                    if there in group or not open_space[there] or owner[there] != owner[start] or edge in game_map.restricted:
                        continue
                    if game_map.country[there] == "SB" or game_map.country[here] == "SB":
                        continue  # Serbian units' own supply rule (14.1.6) may set these apart
                    group[there] = start
                    stack.append(there)
        return group

    def _end_flips(self, ctx: TurnContext, action) -> list:
        flips = pog(ctx).pop("flips", None)
        if not flips:
            return []
        names = ", ".join(f"{self.where(loc)} ({side.upper()})" for loc, side in sorted(flips.items(), key=lambda kv: self.where(kv[0]))[:6])
        more = f" and {len(flips) - 6} more" if len(flips) > 6 else ""
        return [illegal("14.3.6", f"spaces that cannot trace supply for their side change hands in the Attrition phase and were not written as control: {names}{more}", action)]

    def check_control(self, action, state: State, ctx: TurnContext) -> list:
        flips = pog(ctx).get("flips")
        if flips is None:
            return [warning("11.1.13", "a control change outside the Attrition phase (an event's, say) is recorded but not checked", action)]
        found = []
        for location, side in action.spaces.items():
            label = self.where(location)
            now = self.controller(state, location)
            if flips.get(location) == side:
                del flips[location]
                continue
            if now == side:
                why = f"the {side.upper()} already controls it"
            elif now is None:
                why = "it lies in a neutral nation"
            elif self.fort(state, location):
                why = f"an undestroyed {now.upper()} fort holds it (15.1.9)"
            elif now == "ap" and self.module.map.country[location] == "SB":
                why = "a Serbian space changes only when CP units enter it (LR2022 14.3.6)"
            else:
                why = f"it traces supply for the {now.upper()}"
            found.append(illegal("14.3.6", f"{label} does not pass to the {side.upper()} in the Attrition phase: {why}", action))
        return found

    def after_control(self, action, state: State, ctx: TurnContext) -> list:
        for location, side in action.spaces.items():
            self.take_control(state, location, side)
        return []

    def take_control(self, state: State, location: int, side: str) -> None:
        """A space passes to ``side`` without a unit entering it: VP of a VP space, and its trench (LR2022 11.2.7)."""
        label = self.where(location)
        before = self.controller(state, location)
        if before == side:
            return
        state.status.setdefault("control", {})[label] = side
        trenches = state.status.setdefault("trenches", {})
        trench = trenches.get(label)
        if trench and trench["owner"] != side:
            if trench["level"] >= 2:
                trenches[label] = {"level": 1, "owner": side}
            else:
                del trenches[label]
        if before is not None and self.vp_space(state, location):
            change = self.module.tables["victory"]["vp_space_control"]["cp_gains" if side == "cp" else "ap_gains"]
            state.status["vp"] = state.status.get("vp", 10) + change

    # --- the end of a retreat -------------------------------------------------------------------------
    def after_attack(self, action, state: State, ctx: TurnContext) -> list:
        found = super().after_attack(action, state, ctx)  # type: ignore[misc]
        ends: dict[int, list[str]] = {}
        for unit_id, path in action.retreats.items():
            if path and state.units[unit_id].on_map and state.units[unit_id].at == path[-1]:
                ends.setdefault(path[-1], []).append(unit_id)
        for end, units in ends.items():
            if units == [ANA]:
                continue  # 11.1.14: the Arab Northern Army takes no space
            self.enter(state, end, state.units[units[0]].side)  # type: ignore[attr-defined]
        return found
