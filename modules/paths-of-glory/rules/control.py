"""Space control that changes without a unit moving in: the Attrition phase (14.3.6) and the end of a retreat (12.5.5).

``{"control": {"Warsaw": "cp"}}`` in the Attrition phase: a friendly-controlled space without an undestroyed
friendly fort that could not trace supply if it were a friendly unit becomes enemy-controlled (14.3.6, LR2022
wording; the seed's sentence says the same of the space's units). Spaces are judged together when the phase
begins, as the units are (14.3.5). The Allies' Serbian spaces change only when CP units enter them (LR2022 14.3.6,
by 14.1.6); Albanian spaces may trace to Taranto even while Italy is neutral (LR2022 11.1.12). Every such space is
written, and only those; the flip moves the VP of a VP space and the trench
marker (LR2022 11.2.7: level 1 removed, level 2 becomes an enemy level 1).

Retreating units gain control of the space their retreat ends in (12.5.5; not of the spaces passed through,
and never of an enemy fort's space, 15.1.9). Besiegers that destroy the fort of their own space in combat take the
space. The Arab Northern Army alone takes no space by moving, advancing or retreating (11.1.14): a CP space it holds
counts as Allied only while it stays, so a flip of it back to the CP in the Attrition phase is accepted and changes
nothing.
"""

from __future__ import annotations

from pbem.model.state import State
from pbem.rules.ruleset import TurnContext, illegal, warning
from pbem.rules.supply import spread

from .base import pog
from .supply import SupplyRules

ANA = "BR-ANA-CORPS"


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
        supplied = {side: self.supplied_spaces(state, side) for side in ("cp", "ap")}
        unjudged = self._unjudged(state)
        controllers = self.controllers(state)
        moment: dict = {}  # the state does not change while the spaces are judged
        for location in range(len(game_map)):
            side = controllers[location]
            if side is None or location in supplied[side] or self.fort(state, location) or location in unjudged:
                continue
            if side == "ap" and game_map.country[location] == "SB":
                continue  # LR2022 14.3.6: Serbian spaces change only when CP units enter them
            here = state.units_at(location)
            if any(u.side != side for u in here):
                continue  # the ANA corps in a CP space: Allied while it stays (11.1.14), CP again when it leaves
            if any(u.side == side and self.in_supply(state, u, moment) for u in here):
                continue  # a supplied friendly unit holds it (the SN corps, 14.1.5, say)
            if side == "ap" and game_map.country[location] == "AL" and self._albania_to_taranto(state, location):
                continue
            flips[location] = self.enemy_of(side)
        return flips

    def supplied_spaces(self, state: State, side: str) -> set[int]:
        """The spaces a friendly unit of ``side`` could trace supply from in the Attrition phase, judged as spaces:
        to any of the side's supply sources (Salonika for the Allies too, 14.2.3), through spaces it controls without
        enemy units (a besieged enemy fort passable, a besieged friendly one not, 14.1.2-14.1.3), along solid lines
        and every friendly dashed line (LR2022 11.1.4), with one sea leg between friendly ports (14.1.4)."""
        game_map = self.module.map
        controllers = self.controllers(state)  # type: ignore[attr-defined]
        open_ = self._open_spaces(state, side)  # type: ignore[attr-defined]  # the same spaces (14.1.3)
        lines = self._side_lines(side, state.status.get("mef_beachhead"))
        sources = [loc for loc in self._supply_spaces() if game_map.supply[loc] == side and controllers[loc] == side]  # type: ignore[attr-defined]
        if side == "ap":
            salonika = game_map.find("Salonika")
            if salonika is not None and controllers[salonika] == "ap":
                sources.append(salonika)
        sources = [loc for loc in sources if open_[loc]]  # a besieged source, or one holding enemy units, supplies nothing
        land = spread(lines, sources, open_)
        ports = set(self._port_spaces(state, side))  # type: ignore[attr-defined]
        if not ports & land:
            return land
        # ``land`` is whole stretches of open spaces: what a port in it reaches, it holds already, so only the other
        # ports are spread from (the same spaces as spreading from every port, without walking ``land`` again).
        land |= spread(lines, ports - land, open_)  # ``land`` is this call's own set
        return land

    def _side_lines(self, side: str, beachhead: str | None) -> list[tuple[int, ...]]:
        """Each space's neighbours a side's line may go on to in the Attrition phase: solid lines, every dashed line
        naming one of its nationalities, and the MEF's lines for the Allies at the beach-head (kept per beach-head)."""
        cache = self.__dict__.setdefault("_side_lines_of", {})
        found = cache.get((side, beachhead))
        if found is None:
            game_map = self.module.map
            tokens = self._side_tokens(side)

            def step(a: int, b: int) -> bool:
                allowed = game_map.restricted.get((a, b) if a < b else (b, a))
                if allowed is None or allowed & tokens:
                    return True
                return allowed == frozenset({"MEF"}) and side == "ap" and beachhead in (game_map.label(a), game_map.label(b))

            found = cache[(side, beachhead)] = [tuple(b for b in game_map.neighbours[a] if step(a, b)) for a in range(len(game_map))]
        return found

    def _side_tokens(self, side: str) -> frozenset[str]:
        """The nationalities (and contingents) a side's units are named by on dashed lines."""
        cached = self.__dict__.setdefault("_tokens_of", {})
        if side not in cached:
            found = set()
            for definition in self.module.units.values():
                if definition.type.side == side:
                    found.add(definition.type.nationality)
                    contingent = definition.type.attributes.get("contingent")
                    if contingent:
                        found.add(contingent)
            cached[side] = frozenset(found - {"MEF"})
        return cached[side]

    def _albania_to_taranto(self, state: State, location: int) -> bool:
        """LR2022 11.1.12: Albanian spaces may trace attrition supply to Taranto, even while Italy is neutral (through
        Allied Albanian spaces to the one Taranto's line reaches)."""
        game_map = self.module.map
        taranto = game_map.find("Taranto")
        if taranto is None or self.controller(state, taranto) == "cp":
            return False
        seen, stack = {location}, [location]
        while stack:
            here = stack.pop()
            if taranto in game_map.neighbours[here]:
                return True
            for there in game_map.neighbours[here]:
                if there not in seen and game_map.country[there] == "AL" and self.controller(state, there) == "ap" and not self.enemy_units(state, there, "ap"):
                    seen.add(there)
                    stack.append(there)
        return False

    def _unjudged(self, state: State) -> frozenset[int]:
        """Spaces 14.3.6 leaves alone: the MEF landing spaces while the beach-head is elsewhere (they are not in
        play, 11.1.10), and Arabia, which touches the map only by the ANA's dashed lines: the friendly unit it is
        imagined as is then the ANA corps, always in supply (14.1.5). (LR2022 names Arabia among the spaces that
        flip; the reading is the module's, and Rally the Troops' too: see the README.)"""
        beachhead = state.status.get("mef_beachhead")
        cache = self.__dict__.setdefault("_unjudged_of", {})  # by beach-head: the map's features never change
        found = cache.get(beachhead)
        if found is None:
            game_map = self.module.map
            spaces = {loc for loc in range(len(game_map)) if "mef_landing" in game_map.features[loc] and game_map.label(loc) != beachhead}
            arabia = game_map.find("Arabia")
            if arabia is not None:
                spaces.add(arabia)
            found = cache[beachhead] = frozenset(spaces)
        return found

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
            if now == side and any(u.id == ANA for u in state.units_at(location)):
                continue  # the CP space the ANA holds counts as Allied while it stays (11.1.14): it "returns" to the CP
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

    # --- the Arab Northern Army takes no space (11.1.14) ---------------------------------------------------
    def after_move(self, action, state: State, ctx: TurnContext) -> list:
        if not (action.by == "land" and ANA in action.units and set(action.units) == {ANA}):
            return super().after_move(action, state, ctx)  # type: ignore[misc]
        self.__dict__["_ana_moving"] = True
        try:
            return super().after_move(action, state, ctx)  # type: ignore[misc]
        finally:
            self.__dict__["_ana_moving"] = False

    def enter(self, state: State, location: int, side: str) -> None:
        """As a unit entering does (MovementRules.enter), except that the ANA alone leaves control and VP as they
        were (11.1.14: a CP space it occupies counts as Allied only while it stays; its trench still falls)."""
        if not self.__dict__.get("_ana_moving"):
            return super().enter(state, location, side)  # type: ignore[misc]
        label = self.where(location)
        control = state.status.setdefault("control", {})
        before, vp = control.get(label), state.status.get("vp")
        super().enter(state, location, side)  # type: ignore[misc]
        if before is None:
            control.pop(label, None)
        else:
            control[label] = before
        if vp is not None:
            state.status["vp"] = vp

    # --- the end of a retreat -------------------------------------------------------------------------
    def after_attack(self, action, state: State, ctx: TurnContext) -> list:
        self.__dict__["_ana_moving"] = set(action.advance) == {ANA}  # 11.1.14: the ANA advancing alone takes nothing
        try:
            found = super().after_attack(action, state, ctx)  # type: ignore[misc]
        finally:
            self.__dict__["_ana_moving"] = False
        ends: dict[int, list[str]] = {}
        for unit_id, path in action.retreats.items():
            if path and state.units[unit_id].on_map and state.units[unit_id].at == path[-1]:
                ends.setdefault(path[-1], []).append(unit_id)
        for end, units in ends.items():
            if units == [ANA]:
                continue  # 11.1.14: the Arab Northern Army takes no space
            self.enter(state, end, state.units[units[0]].side)  # type: ignore[attr-defined]
        # A fort destroyed by the units besieging it from its own space: they take the space (11.1.13, 15.1.9).
        besiegers = [state.units[u] for u in action.attackers if state.units[u].on_map and state.units[u].at == action.target]
        if "fort_destroyed" in action.declared and besiegers:
            self.enter(state, action.target, besiegers[0].side)  # type: ignore[attr-defined]
        return found
