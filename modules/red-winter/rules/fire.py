"""Fire at a distance: ranged attacks (direct and indirect, RA-1 ... RA-8, GMT 10.0) and anti-tank fire
(AT-1 ... AT-4, GMT 11.0), both as ``fire`` actions.

- a ranged attack: ``{"fire": [UNIT], "target": HEX, "roll": 2d6 sum (or [d, d]), "result": "none" |
  "suppressed" | "suppressed+1" | "suppressed+2", "spotter": UNIT?, "losses": {"defender": [...]}}``; one firer
  per action (RA-3); the spotter is found when not named;
- anti-tank fire: the same with ``"declare": ["anti_tank"]``, one 1d6 per AT step of the firers in ``roll``
  (in the firers' order) and the armoured units that lose a step in ``losses.defender``.
- RA-6: when Soviet armour makes a ranged attack on a hex holding a Finnish AT gun, that gun's defensive AT
  fire is the action right before the armour's ``fire``; AT fire at that armour after it has fired is out of
  order. (The Finn may let the gun hold its fire.)
"""

from __future__ import annotations

from pbem.model.actions import Action, Combat, Fire
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext
from pbem.rules.sight import blocked_by

from .base import ACTION, COMBAT, FINNISH, SOVIET, illegal, mismatch

RESULT_STEPS = {"none": 0, "suppressed": 0, "suppressed+1": 1, "suppressed+2": 2}


class FireRules:
    def check_fire(self, action: Fire, state: State, ctx: TurnContext) -> list[Violation]:
        at_fire = "anti_tank" in action.declared
        at_fired, ranged_fired = ctx.extra.setdefault("at_fired", set()), ctx.extra.setdefault("ranged_fired", set())
        for unit_id in action.units:
            name = self.name(unit_id)
            if unit_id in (ranged_fired if at_fire else at_fired):
                other = "a ranged attack" if at_fire else "anti-tank fire"
                return [illegal("AT-3", f"{name} has already made {other} this phase: a unit that AT-fires may not also make a ranged attack", action)]
            if at_fire and unit_id in at_fired:
                return [illegal("AT-2", f"{name} has already made its anti-tank fire this phase (one die per AT step, once)", action)]
            if not at_fire and unit_id in ranged_fired and not self.attrs(state.units[unit_id]).get("indirect"):
                return [illegal("CB-2", f"{name} has already made a ranged attack this phase: each unit attacks once", action)]
        if "anti_tank" in action.declared:
            return self._check_anti_tank(action, state, ctx)
        return self._check_ranged(action, state, ctx)

    def after_fire(self, action: Fire, state: State, ctx: TurnContext) -> list[Violation]:
        if "anti_tank" in action.declared:
            ctx.extra.setdefault("at_fired", set()).update(action.units)
            return []
        unit = state.units[action.units[0]]
        attrs = self.attrs(unit)
        if attrs.get("indirect"):
            unit.markers.add("fired")  # RA-8: unusable until the owner's next Reset Phase
        if attrs.get("off_map"):
            ammo = state.status.setdefault("ammo", {})
            ammo[unit.side] = max(0, ammo.get(unit.side, 0) - 1)
        if (action.result or "").lower().startswith("suppressed"):
            for u in state.units_at(action.target):
                u.markers.add("suppressed")
        ctx.extra.setdefault("ranged_fired", set()).add(unit.id)  # a fire the check refused early still counts
        if self.is_armour(unit) and any(self.attrs(u).get("at_strength") and u.side != unit.side for u in state.units_at(action.target)):
            ctx.extra.setdefault("armour_fired_at", {})[unit.id] = action.target  # RA-6: the AT gun's fire is now too late
        ctx.attacked_with.add(unit.id)
        return []

    # --- ranged attacks ---------------------------------------------------------------------------------
    def _check_ranged(self, action: Fire, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase != COMBAT:
            return [illegal("RA-1", f"ranged attacks are made in the Combat Phase, not the {ctx.phase or 'no'} phase", action)]
        if len(action.units) != 1:
            return [illegal("RA-3", "each ranged attack is one firing unit's roll; do not combine firers", action)]
        unit = state.units[action.units[0]]
        name = self.name(unit.id)
        attrs = self.attrs(unit)
        ras = attrs["ras"][min(unit.step, len(attrs["ras"]) - 1)]
        reach = attrs["range"][min(unit.step, len(attrs["range"]) - 1)]
        off_map = bool(attrs.get("off_map"))
        indirect = bool(attrs.get("indirect"))
        if unit.side != ctx.active_side:
            return [illegal("RA-1", f"{name} is not a unit of the phasing player; defensive support is declared inside a combat", action)]
        if not ras:
            return [illegal("RA-1", f"{name} has no ranged attack strength", action)]
        if off_map and unit.side == FINNISH and state.status.get("events", {}).get("A13"):
            return [illegal("EV-2", f"{name}: all Finnish artillery left the game when a Soviet unit entered A13", action)]
        if off_map and unit.side == SOVIET and state.turn <= state.status.get("events", {}).get("X28_until", 0) and unit.unit.type.id == "sov_artillery_76":
            return [illegal("EV-1", f"{name}: the 76 mm battalion is unusable until after turn {state.status['events']['X28_until']} (a Finnish unit reached X28)", action)]
        if "fired" in unit.markers:
            return [illegal("RA-8", f"{name} has fired and is unusable until its owner's next Reset Phase", action)]
        if off_map:
            if unit.on_map or unit.box != "off_map":
                return [illegal("RA-8", f"{name} is {unit.box or 'on the map'}, not available off-map", action)]
            if state.status.get("ammo", {}).get(unit.side, 0) <= 0:
                return [illegal("RA-8", f"the {unit.side} player has no artillery ammunition left", action)]
        else:
            if not unit.on_map:
                return [illegal("RA-1", f"{name} is not on the map", action)]
            if "suppressed" in unit.markers:
                return [illegal("RA-1", f"{name} is under a Suppression marker and may not fire", action)]
            if unit.id in ctx.retreated:
                return [illegal("RA-1", f"{name} retreated this phase and may not fire", action)]
            if self.in_ezoc(state, unit.at, unit):
                return [illegal("RA-1", f"{name} is in an enemy ZOC and may not fire", action)]
            distance = self.map.distance(unit.at, action.target)
            if distance > reach:
                return [illegal("RA-4", f"{self.where(action.target)} is {distance} hexes from {name}, beyond its range {reach}", action)]
            if distance == 1:
                return [illegal("RA-2", f"{name} fires at the adjacent {self.where(action.target)}: adjacent targets only as defensive support against attackers on a frozen lake", action)]
            if not indirect:
                if self.night(state):
                    return [illegal("RA-4", "no direct fire at night", action)]
                found = self._sight(unit.at, action.target, state, "direct fire", action)
                if found:
                    return found
        spotter = None
        if indirect:
            spotter, why = self._spotter(unit, action, state)
            if spotter is None:
                return [illegal("RA-5", why, action)]
        targets = state.units_at(action.target)
        if not targets or all(u.side == unit.side for u in targets):
            return [illegal("RA-3", f"{self.where(action.target)} holds no enemy unit", action)]
        return self._check_rat(action, unit, ras, targets, state, indirect, spotter)

    def _sight(self, a: int, b: int, state: State, what: str, action: Action) -> list[Violation]:
        """RA-4: within the turn's LOS range, and no blocking terrain or unit between."""
        rule = "AT-1" if what == "anti-tank fire" else "RA-4"
        distance = self.map.distance(a, b)
        if distance > self.los_range(state):
            return [illegal(rule, f"{what} at {distance} hexes, but line of sight reaches {self.los_range(state)} on turn {state.turn} ({self.period(state)})", action)]
        block = blocked_by(self.map, a, b, lambda i: self._blocks(i, state, units_block=True))
        if block is not None:
            return [illegal(rule, f"no line of sight from {self.where(a)} to {self.where(b)}: {self.where(block)} ({self._why_blocked(block, state)}) is in the way", action)]
        return []

    def _blocks(self, location: int, state: State, units_block: bool) -> bool:
        return self.map.terrain[location] in self.terrain["blocks_los"] or (units_block and bool(state.units_at(location)))

    def _why_blocked(self, location: int, state: State) -> str:
        terrain = self.map.terrain[location]
        return terrain.replace("_", " ") if terrain in self.terrain["blocks_los"] else "units"

    def _sees(self, spotter: UnitState, target: int, state: State) -> bool:
        """RA-5: clear LOS within the turn's range; friendly units do not block spotting."""
        d = self.map.distance(spotter.at, target)
        return d <= self.los_range(state) and blocked_by(self.map, spotter.at, target, lambda i: self._blocks(i, state, units_block=False)) is None

    def _spotter(self, firer: UnitState, action: Fire, state: State) -> tuple[str | None, str]:
        """RA-5: how the target is spotted ('self', 'adjacent', 'sight'), or None and why not."""
        target = action.target
        self_spotting = firer.on_map and self.arm(firer) in ("mortar", "infantry_gun")
        if action.spotter is not None:
            spotter = state.units[action.spotter]
            name = self.name(spotter.id)
            if spotter.side != firer.side or not spotter.on_map:
                return None, f"{name} cannot spot for {self.name(firer.id)}: not a friendly unit on the map"
            if spotter.id == firer.id:
                if self_spotting and self._sees(firer, target, state):
                    return "self", ""
                return None, f"{self.name(firer.id)} cannot spot for itself at {self.where(target)} (only mortars and infantry guns with a clear line of sight)"
            if self.map.is_adjacent(spotter.at, target):
                return "adjacent", ""
            if self._sees(spotter, target, state):
                return "sight", ""
            return None, f"{name} in {self.where(spotter.at)} is neither adjacent to {self.where(target)} nor sees it"
        friends = [u for u in state.units.values() if u.on_map and u.side == firer.side]
        if any(self.map.is_adjacent(u.at, target) for u in friends):
            return "adjacent", ""
        if self_spotting and self._sees(firer, target, state):
            return "self", ""
        if any(u.id != firer.id and self._sees(u, target, state) for u in friends):
            return "sight", ""
        return None, f"{self.name(firer.id)} fires indirect at {self.where(target)} with no spotter adjacent to it or seeing it"

    def _check_rat(self, action: Fire, unit, ras, targets, state, indirect, spotter) -> list[Violation]:
        drm = self.ranged["drm"]
        rolls = action.rolls
        if len(rolls) == 2 and all(1 <= r <= 6 for r in rolls):
            roll = sum(rolls)
        elif len(rolls) == 1 and 2 <= rolls[0] <= 12:
            roll = rolls[0]
        else:
            return [mismatch("RA-3", f"roll {list(rolls)} is not a 2d6 roll (one sum 2-12, or two dice)", action)]
        total = roll + ras
        total += drm["per_infantry_company"] * sum(1 for u in targets if self.is_company(u))
        if self.map.terrain[action.target] == "frozen_lake":
            total += drm["target_frozen_lake_soviet"] if targets[0].side == SOVIET else drm["target_frozen_lake"]
        if spotter == "self":
            total += drm["self_spotting_infantry_gun"] if self.arm(unit) == "infantry_gun" else drm["self_spotting_mortar"]
        elif spotter == "sight":
            total += drm["spotter_not_adjacent"]
        if any("dug_in" in u.markers for u in targets):
            total += drm["dug_in_indirect"] if indirect else drm["dug_in_direct"]
        period = self.period(state)
        if period in ("dawn", "fog", "dusk"):
            total += drm["dawn_fog_dusk"]
        elif period == "night":
            total += drm["night"]
        if unit.on_map and self.map.distance(unit.at, action.target) >= 3:
            if self.arm(unit) == "mg":
                total += drm["mg_range_3_plus"]
            elif self.is_armour(unit):
                total += drm["armour_range_3_plus"]
        expected = next(r["result"] for r in self.ranged["results"] if r.get("min", -99) <= total <= r.get("max", 99))
        found = []
        claimed = (action.result or "").lower()
        if claimed != expected:
            found.append(mismatch("RA-3", f"ranged attack: 2d6 {roll} + RAS {ras} + DRMs = {total} gives {expected}, not {claimed or 'nothing'}", action))
        steps = RESULT_STEPS[expected]
        taken = len([u for u in action.losses_defender if not self.is_armour(state.units[u])])
        taken += sum(len(state.units[u].unit.type.steps) - state.units[u].step for u in action.eliminated)
        if taken != min(steps, sum(len(u.unit.type.steps) - u.step for u in targets if not self.is_armour(u))):
            found.append(illegal("RA-7", f"{expected}: the target hex loses {steps} step(s), not {taken} (armour never takes steps from ranged fire)", action))
        return found

    # --- anti-tank fire (AT-1 ... AT-4) -----------------------------------------------------------------
    def _check_anti_tank(self, action: Fire, state: State, ctx: TurnContext) -> list[Violation]:
        atft = self.module.tables["anti_tank_fire"]
        drm = atft["drm"]
        target = action.target
        armour = [u for u in state.units_at(target) if self.is_armour(u) and u.side == SOVIET]
        if not armour:
            return [illegal("AT-1", f"{self.where(target)} holds no Soviet armoured unit: anti-tank fire targets only Soviet armour", action)]
        fired_at = ctx.extra.setdefault("armour_fired_at", {})
        late = [u for u in armour if any(state.units[f].on_map and fired_at.get(u.id) == state.units[f].at for f in action.units)]
        if late and ctx.phase == COMBAT and ctx.active_side == SOVIET:
            return [illegal("RA-6", f"{self.name(late[0].id)} has already fired at this AT gun: its defensive anti-tank fire is resolved first, before the armour's ranged attack, not after", action)]
        assaulting = self._at_timing(action, armour, state, ctx)
        if isinstance(assaulting, Violation):
            return [assaulting]
        dice: list[int] = []
        for unit_id in action.units:
            unit, name = state.units[unit_id], self.name(unit_id)
            if unit.side != FINNISH or not self.attrs(unit).get("at_strength"):
                return [illegal("AT-1", f"{name} is not a Finnish anti-tank unit", action)]
            if not unit.on_map:
                return [illegal("AT-1", f"{name} is not on the map", action)]
            distance = self.map.distance(unit.at, target)
            if not 1 <= distance <= atft["max_range"]:
                return [illegal("AT-1", f"{self.where(target)} is {distance} hexes from {name}: anti-tank fire reaches 1-{atft['max_range']} hexes", action)]
            found = self._sight(unit.at, target, state, "anti-tank fire", action)
            if found:
                return found
            modifier = drm["obuhov_firing"] if unit.unit.type.id == "fin_at_obuhov" else 0
            if assaulting == unit.at:
                modifier += drm["target_assaulting_firer"]
            elif distance == 1:
                modifier += drm["target_adjacent"]
            dice += [modifier] * (len(unit.unit.type.steps) - unit.step)  # AT-2: one die per AT step
        if len(action.rolls) != len(dice):
            return [illegal("AT-2", f"the firers have {len(dice)} AT step(s): roll one 1d6 per step, not {len(action.rolls)}", action)]
        if any(not 1 <= r <= 6 for r in action.rolls):
            return [mismatch("AT-2", f"roll {list(action.rolls)}: each die is 1-6", action)]
        target_drm = [drm["target_ba10"] if u.unit.type.id == "sov_ba10" else drm["target_t37"] if u.unit.type.id == "sov_t37" else 0 for u in armour]
        low = sum(1 for r, m in zip(action.rolls, dice) if r + m + min(target_drm) >= 5)
        high = sum(1 for r, m in zip(action.rolls, dice) if r + m + max(target_drm) >= 5)
        steps_left = sum(len(u.unit.type.steps) - u.step for u in armour)
        taken = list(action.losses_defender) + [s for u in action.eliminated for s in [u] * (len(state.units[u].unit.type.steps) - state.units[u].step)]
        if any(u not in {a.id for a in armour} for u in taken):
            return [illegal("AT-2", "anti-tank hits fall only on the Soviet armour in the target hex", action)]
        if not min(low, steps_left) <= len(taken) <= min(high, steps_left):
            hits = str(low) if low == high else f"{low}-{high}"
            targets = ", ".join(f"{self.name(u.id)} ({m:+d})" if m else self.name(u.id) for u, m in zip(armour, target_drm))
            return [illegal("AT-2", f"dice {list(action.rolls)} with firers' modifiers {dice} against {targets} score {hits} hit(s) (5 or more): {len(taken)} step(s) taken (armour cannot ignore anti-tank losses)", action)]
        return []

    def _at_timing(self, action: Fire, armour: list[UnitState], state: State, ctx: TurnContext) -> int | None | Violation:
        """AT-4: stand-alone in the Finnish Combat Phase, or defensively right before the Soviet combat or
        assault the target armour makes. Returns the hex an assault is aimed at (for the +2), if any."""
        if ctx.phase == COMBAT and ctx.active_side == FINNISH:
            return None
        following = next((a for a in ctx.turn.actions if a.index == action.index + 1), None)
        ids = {u.id for u in armour}
        if ctx.phase == ACTION and ctx.active_side == SOVIET:
            if following is not None and following.kind == "overrun" and ids & set(following.attackers):  # type: ignore[attr-defined]
                return following.target  # type: ignore[attr-defined]
            return illegal("AT-4", "in the Soviet Action Phase, anti-tank fire is only defensive fire at armour about to assault (the next action)", action)
        if ctx.phase == COMBAT and ctx.active_side == SOVIET:
            if isinstance(following, Combat) and following.kind == "attack" and ids & set(following.attackers):
                return None
            if isinstance(following, Fire) and "anti_tank" not in following.declared and ids & set(following.units):
                # RA-6: armour firing at an AT gun: that gun's defensive AT fire comes first.
                firers = {state.units[f].at for f in action.units if state.units[f].on_map}
                if firers == {following.target}:
                    return None
                return illegal("RA-6", f"before a ranged attack by armour, only an AT gun in the hex it fires at ({self.where(following.target)}) fires defensively", action)
            return illegal("AT-4", "in the Soviet Combat Phase, anti-tank fire is made inside a combat the target armour takes part in (before the next attack)", action)
        return illegal("AT-4", f"anti-tank fire is made in a Combat Phase or against assaulting armour, not in the {ctx.phase or 'no'} phase", action)
