"""Movement: on land (6.1, 6.2, 10.x), in reaction (2.0, 6.43), by rail (6.3) and by air (6.4); pacification
(10.25) and the Trans-Siberian garrison (10.8)."""

from __future__ import annotations

from pbem.model.actions import Loss, Move, Reinforce, Remove
from pbem.model.state import OFF_MAP, State, UnitState
from pbem.model.violation import Violation
from pbem.rules.movement import walk_table
from pbem.rules.ruleset import TurnContext, illegal, warning

from .base import CHINESE, MINOR_POWERS, MOVEMENT, REACTION, REINFORCEMENT, SOVIET, ChinaWarBase


_CHECK_BY = {"land": "_check_land", "rail": "_check_rail", "air": "_check_air"}  # a move's ``by``: its check


class MovementRules(ChinaWarBase):
    def check_move(self, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase not in (MOVEMENT, REACTION):
            return [illegal("4.2", f"units move only in a movement or reaction phase, not in the {ctx.phase or 'no'} phase", action)]
        method = _CHECK_BY.get(action.by)
        if method is None:
            return [illegal("6.0", f"there is no movement by {action.by} in this game", action)]
        check = getattr(self, method)
        found: list[Violation] = []
        units = state.units
        for unit_id in action.units:
            unit = units[unit_id]
            if unit.at == OFF_MAP:
                found.append(illegal("6.1", f"{self.name(unit_id)} is not on the map ({unit.box})", action))
            elif ctx.phase == REACTION and unit.side == ctx.active_side:
                found.extend(self._check_follow_up(unit, action, state, ctx))
            elif unit.side != ctx.phase_side:
                rule = "5.13" if unit.side == "neutral" else "6.21"
                found.append(illegal(rule, f"{self.name(unit_id)} is a {unit.side} unit and may not move in the {self.side_name(ctx.phase_side or '')} {ctx.phase} phase", action))
            elif "garrison_returned" in state.status and self.back_from_garrison(unit_id, state):  # asked only after a return
                found.append(illegal("10.8", f"{self.name(unit_id)} came back from garrisoning the Trans-Siberian this game-turn and may not move again until the next one (it may attack)", action))
            else:
                problems = check(unit, action, state, ctx)
                if problems:
                    found += problems
        return found

    # --- on land --------------------------------------------------------------------------------------
    def _check_land(self, unit: UnitState, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        # The unit's name is looked up only for a message: most moves need none.
        found: list[Violation] = []
        unit_id = unit.unit.id
        extra = ctx.extra
        if unit_id in extra["railed"] or unit_id in extra["flown"]:
            how = "rail" if unit_id in extra["railed"] else "air"
            return [illegal("6.32" if how == "rail" else self.airlift_rule(unit), f"{self.name(unit_id)} moved by {how} this phase and may not move again", action)]
        stopped = extra["stopped"].get(unit_id)
        if stopped:
            return [illegal(stopped[0], f"{self.name(unit_id)} {stopped[1]} and may not move again this phase", action)]
        path = action.path
        if path[0] != unit.at:
            found.append(illegal("6.1", f"{self.name(unit_id)} is in {self.where(unit.at)}, but its path starts in {self.where(path[0])}", action))
        result = walk_table(path, self.entry["mechanized" if unit.unit.type.mechanized else "non_mechanized"])
        if result.broken_at is not None:
            k = result.broken_at
            return found + [illegal("6.0", f"{self.name(unit_id)} jumps from {self.where(path[k - 1])} to {self.where(path[k])}, which are not adjacent", action)]
        # Only a hex held by another side, guarded (militia of another side, the Trans-Siberian) or in a
        # minor power can bar entry: the others, most hexes, skip the asking.
        stacks, units, side = state.stacks, state.units, unit.side
        may_bar = self.may_bar.get(side) or self.barring(side)
        for hex_ in path[1:]:
            ids = stacks.get(hex_)
            if (ids and units[ids[0]].side != side) or may_bar[hex_]:
                problem = self._entry_problem(unit, hex_, state, ctx)
                if problem:
                    return found + [illegal(problem[0], problem[1], action)]
        allowance, limit_rule, printed = self._allowance(unit, ctx)
        if isinstance(allowance, Violation):
            return found + [allowance]
        spent = ctx.mp_spent.get(unit_id, 0)
        total = spent + result.total
        if total > allowance and not (spent == 0 and len(path) == 2 and (ctx.phase == MOVEMENT or self.options.get("reaction_minimum_move"))):
            steps = ", ".join(f"{self.describe(path[k], path[k + 1])} {c}" for k, c in enumerate(result.costs))
            earlier = f" after {spent} MP earlier this phase" if spent else ""
            reason = self._allowance_reason(limit_rule, allowance, printed)
            found.append(illegal(limit_rule, f"{self.name(unit_id)} spends {result.total} MP ({steps}){earlier} but has {reason}", action))
        ctx.mp_spent[unit_id] = total
        return found

    def _allowance(self, unit: UnitState, ctx: TurnContext) -> tuple[int | Violation, str, int]:
        """(MP allowed this phase, rule that limits it, the MPA) — or (a Violation, "", 0) if it may not move.
        :meth:`_allowance_reason` says it in words (only a move over its allowance needs them)."""
        printed = self.mpa(unit)
        allowance, rule = printed, "6.12"
        if printed != unit.face.move:
            rule = "6.43"
        if not unit.supplied:  # supply as it stood at the start of the phase (2.0, 6.23)
            allowance //= 2
            rule = "6.23"
        if ctx.phase == REACTION:
            kind = unit.unit.type
            if kind.arm == "airborne":
                return illegal("6.43", f"{self.name(unit.id)} is airborne and may not move in a reaction phase"), "", 0
            if not (kind.mechanized or kind.quality == 1):
                return illegal("2.0", f"{self.name(unit.id)} may not react: only mechanized and 1st-line non-mechanized units move in a reaction phase"), "", 0
            cap = 2 if kind.mechanized else 1
            if cap < allowance:
                allowance, rule = cap, "2.0"
        return allowance, rule, printed

    @staticmethod
    def _allowance_reason(rule: str, allowance: int, printed: int) -> str:
        """What :meth:`_allowance` found, as a move over the allowance says it (``an MPA of 6``)."""
        if rule == "6.43":
            return f"an MPA of {printed} (6.43: a Soviet airborne division has {printed} MP without the optional rule 16.0)"
        if rule == "6.23":
            return f"{allowance} MP (half of {printed}: out of supply)"
        if rule == "2.0":
            return f"{allowance} MP in a reaction phase"
        return f"an MPA of {printed}"

    def _entry_problem(self, unit: UnitState, location: int, state: State, ctx: TurnContext) -> tuple[str, str] | None:
        """Why ``unit`` may not enter ``location`` by movement, if it may not (checked for every hex entered)."""
        holder = state.side_at(location)
        if holder is not None and holder != unit.side:
            return "6.22", f"{self.name(unit.id)} enters {self.where(location)}, occupied by {holder} units"
        guard = self.guard(location, unit.side, state, ctx)
        if guard:
            return guard, f"{self.name(unit.id)} enters {self.where(location)}, {self.guard_name(location)}: only an overrun or an advance after combat may enter it"
        country = self.map.country[location]
        if country in MINOR_POWERS and unit.unit.type.nationality != country:
            stance = self.stance(state, country)
            if stance == "ambiguous":
                return "5.13", f"{self.name(unit.id)} enters {self.where(location)} in {country}, which has not yet declared itself"
            if stance == "neutral":
                return "5.14", f"{self.name(unit.id)} enters {self.where(location)} in {country}, which has declared its neutrality"
        return None

    # --- reaction follow-up (2.0) -----------------------------------------------------------------------
    def _check_follow_up(self, unit: UnitState, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        """After the reaction moves, the phasing player may move units into hexes the reaction vacated."""
        vacated = ctx.extra.get("vacated", set())
        record = state.status.get("vacated") or {}
        if (record.get("turn"), record.get("side")) == (state.turn, ctx.active_side):
            vacated = vacated | {i for i in map(self.map.find, record.get("hexes", ())) if i is not None}
        path = action.path
        name = self.name(unit.id)
        if len(path) != 2 or path[0] != unit.at or not self.map.is_adjacent(path[0], path[1]):
            return [illegal("2.0", f"{name} may only step into an adjacent hex vacated by the reaction, not move freely in the reaction phase", action)]
        if path[1] not in vacated:
            return [illegal("2.0", f"{name} moves into {self.where(path[1])}, which no reacting unit vacated", action)]
        if any(u.side != unit.side for u in state.units_at(path[1])):
            return [illegal("6.22", f"{name} moves into {self.where(path[1])}, which enemy units hold again", action)]
        guard = self.guard(path[1], unit.side, state, ctx)
        if guard:  # several units may follow one another in, each as its own move (2.0)
            return [illegal(guard, f"{name} moves into {self.where(path[1])}, {self.guard_name(path[1])}: only an overrun or an advance after combat may enter it", action)]
        ctx.extra["follow_up"].add(unit.id)
        # kept in the state too: the combat phase may be in the next file (the reaction is the other player's)
        record = state.status.setdefault("followed_up", {"turn": state.turn, "units": []})
        if record.get("turn") != state.turn:
            record.update(turn=state.turn, units=[])
        if unit.id not in record["units"]:
            record["units"].append(unit.id)
        return []

    # --- rail (6.3) ------------------------------------------------------------------------------------------
    def _friendly_rail(self, location: int, side: str, state: State, ctx: TurnContext) -> bool:
        """6.35: Chinese rail for the PLA, Soviet rail for the Soviets; North Korean rail too if allied with China."""
        country = self.map.country[location]
        holder = state.side_at(location)
        if holder is not None and holder != side:
            return False
        if self.map.label(location) in ctx.extra["pacified"]:
            return False
        own = {SOVIET: {"USSR"}, CHINESE: {"China"}}.get(side, set())
        if side == CHINESE and self.stance(state, "North Korea") == "allied_prc":
            own = own | {"North Korea"}
        return country in own

    def _check_rail(self, unit: UnitState, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        name, path = self.name(unit.id), action.path
        if ctx.phase == REACTION:
            return [illegal("6.33", f"{name} may not move by rail in a reaction phase", action)]
        if ctx.mp_spent.get(unit.id):
            return [illegal("6.31", f"{name} already moved by land this phase: a unit moved by rail begins the movement phase on the railway and never leaves it", action)]
        if unit.id in ctx.extra["railed"]:
            return [illegal("6.32", f"{name} already moved by rail this phase", action)]
        if path[0] != unit.at:
            return [illegal("6.1", f"{name} is in {self.where(unit.at)}, but its rail path starts in {self.where(path[0])}", action)]
        single = False
        for a, b in zip(path, path[1:]):
            track = self.map.rail(a, b)
            if track is None:
                return [illegal("6.31", f"{name} leaves the railway between {self.where(a)} and {self.where(b)}", action)]
            single = single or track == "single"
        for location in path:
            if not self._friendly_rail(location, unit.side, state, ctx):
                return [illegal("6.35", f"{name} uses {self.where(location)}, which is not friendly rail for the {self.side_name(unit.side)} player", action)]
        found: list[Violation] = []
        distance = len(path) - 1
        limit = self.options.get("rail_single_track_limit", 20)
        if single and distance > limit:
            found.append(illegal("6.36", f"{name} rails {distance} hexes over a route with single track (limit {limit})", action))
        use = state.status.setdefault("rail_use", {"turn": state.turn, "hexes": {}})
        if use["turn"] != state.turn:
            use.update(turn=state.turn, hexes={})
        weight = self.weight(unit) if self.options.get("rail_corps_counts", 1) == 3 else 1
        first = 0 if self.options.get("rail_capacity_counts", "all") == "all" else 1
        for k in range(first, len(path)):
            location = path[k]
            label = self.where(location)
            # The track this unit runs on through the hex decides its capacity: a double-track line through a
            # junction with a single-track branch is still double track for the units that stay on it.
            tracks = [self.map.rail(path[j], path[j + 1]) for j in (k - 1, k) if 0 <= j < len(path) - 1]
            capacity = 2 if tracks and all(t == "double" for t in tracks) else 1
            used = use["hexes"].get(label, 0) + weight
            use["hexes"][label] = used
            if used > capacity and not found:
                found.append(illegal("6.36", f"{label} carries {used} divisions by rail this game-turn; a {'double' if capacity == 2 else 'single'}-track hex takes {capacity}", action))
        ctx.extra["railed"].add(unit.id)
        return found

    # --- air (6.4) ----------------------------------------------------------------------------------------------
    def _check_air(self, unit: UnitState, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        name, path, kind = self.name(unit.id), action.path, unit.unit.type
        if kind.arm != "airborne":
            return [illegal("6.4", f"{name} is not an airborne division and cannot be flown", action)]
        if ctx.phase != MOVEMENT:
            return [illegal("6.43", f"{name} may not be flown in a {ctx.phase} phase", action)]
        if len(path) != 2 or path[0] != unit.at:
            return [illegal("6.4", f"an air move goes from where {name} stands ({self.where(unit.at)}) straight to its landing hex", action)]
        if ctx.mp_spent.get(unit.id) or unit.id in ctx.extra["flown"]:
            return [illegal(self.airlift_rule(unit), f"{name} already moved this phase: only a unit that has not moved may be flown", action)]
        start, landing = path
        holder = state.side_at(landing)
        if kind.nationality == "PLA":  # 6.41
            if not (self.map.city[start] and self.map.country[start] == "China"):
                return [illegal("6.41", f"{name} must start in a Chinese city to fly; {self.where(start)} is not one", action)]
            if not (self.map.city[landing] and self.map.country[landing] == "China"):
                return [illegal("6.41", f"{name} may only land in another Chinese city; {self.where(landing)} is not one", action)]
            if (holder is not None and holder != unit.side) or self.where(landing) in ctx.extra["pacified"]:
                return [illegal("6.41", f"{self.where(landing)} is enemy-occupied or pacified", action)]
        else:  # 6.42
            if "airfield" not in self.map.features[start]:
                return [illegal("6.42", f"{name} must start on an airfield to be flown; {self.where(start)} has none", action)]
            if self.map.terrain[landing] not in ("clear", "desert"):
                return [illegal("6.42", f"{name} may land only in clear or desert; {self.where(landing)} is {self.map.terrain[landing]}", action)]
            distance = self.map.distance(start, landing)
            if distance > 6:
                return [illegal("6.42", f"{self.where(landing)} is {distance} hexes from the airfield; the limit is 6", action)]
            if any(u.unit.type.nationality != "USSR" for u in state.units_at(landing)):
                return [illegal("6.42", f"{self.where(landing)} is occupied by non-Soviet units", action)]
            flown = state.status.setdefault("airlift", {"turn": state.turn, "units": []})
            if flown["turn"] != state.turn:
                flown.update(turn=state.turn, units=[])
            flown["units"].append(unit.id)
            if len(flown["units"]) > 2:
                return [illegal("6.42", f"{name} is the {len(flown['units'])}rd airborne division flown this turn; the limit is 2", action)]
            if state.status.get("air_supply_turn") == state.turn:
                return [illegal("6.44", "no airlift in a turn when air supply was used", action)]
        ctx.extra["flown"].add(unit.id)
        return []

    def after_move(self, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        destination = action.path[-1]
        ctx.touched.add(destination)
        ctx.last_entry[destination] = action
        ctx.moved.update(action.units)
        if ctx.phase == REACTION and action.path[0] != destination and not state.units_at(action.path[0]):
            ctx.extra.setdefault("vacated", set()).add(action.path[0])
            # kept in the state too: the phasing player's follow-up may come in the next file (the reaction file is
            # the other player's), in the same reaction phase of the same player-turn
            record = state.status.get("vacated")
            if not isinstance(record, dict) or (record.get("turn"), record.get("side")) != (state.turn, ctx.active_side):
                record = state.status["vacated"] = {"turn": state.turn, "side": ctx.active_side, "hexes": []}
            label = self.where(action.path[0])
            if label not in record["hexes"]:
                record["hexes"].append(label)
        if action.by == "air" and state.units[action.units[0]].unit.type.nationality == "USSR":
            for unit_id in action.units:
                state.units[unit_id].supplied = True  # 6.42: always supplied on the drop turn
        return []

    # --- pacification (10.25) and the Trans-Siberian garrison (10.8) ----------------------------------------------
    def check_loss(self, action: Loss, state: State, ctx: TurnContext) -> list[Violation]:
        unit = state.units[action.unit]
        name = self.name(action.unit)
        if action.reason != "pacification":
            return [warning("-", f"a step loss for {action.reason or 'no stated reason'} is not checked by this module", action)]
        if ctx.phase != MOVEMENT or unit.side != ctx.active_side:
            return [illegal("10.25", "pacification is done by the phasing player in his movement phase", action)]
        if not unit.on_map or self.militia_owner(unit.at) in (None, unit.side):
            return [illegal("10.25", f"{name} is not in an enemy pop-100 or pop-200 hex", action)]
        if unit.unit.type.size != "XX":
            return [illegal("10.25", f"{name} is not a division: pacifying a hex costs a division's step loss", action)]
        if self.where(unit.at) in ctx.extra["pacified"]:
            return [illegal("10.25", f"{self.where(unit.at)} is already pacified", action)]
        ctx.extra["pacify_at"] = self.where(unit.at)
        return []

    def after_loss(self, action: Loss, state: State, ctx: TurnContext) -> list[Violation]:
        label = ctx.extra.pop("pacify_at", None)  # where the unit stood, even if the step eliminated it
        if label:
            ctx.extra["pacified"].add(label)
        return []

    def check_remove(self, action: Remove, state: State, ctx: TurnContext) -> list[Violation]:
        if action.to != "garrison":
            return [warning("-", f"removal to {action.to!r} is not checked by this module", action)]
        found = []
        for unit_id in action.units:
            unit, name = state.units[unit_id], self.name(unit_id)
            if unit.side != SOVIET or ctx.phase != MOVEMENT or ctx.active_side != SOVIET:
                found.append(illegal("10.8", "only the Soviet player garrisons the Trans-Siberian, in his movement phase", action))
            elif not unit.unit.type.mechanized:
                found.append(illegal("10.8", f"{name} is not mechanized: only mechanized units garrison the railway", action))
            elif not unit.on_map or unit.at not in self.trans_siberian:
                found.append(illegal("10.8", f"{name} is not on the Trans-Siberian railway (hexes {min(map(self.where, self.trans_siberian), default='?')}-{max(map(self.where, self.trans_siberian), default='?')})", action))
        return found

    def check_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        found = []
        ctx.extra["from_garrison"] = [u for u in action.units if state.units[u].box == "garrison"]
        for unit_id in action.units:
            unit, name = state.units[unit_id], self.name(unit_id)
            if unit.on_map:
                found.append(illegal("12.0", f"{name} is already on the map", action))
            elif unit.side != ctx.active_side or ctx.phase not in (REINFORCEMENT, MOVEMENT):
                found.append(illegal("4.2", f"{name} may enter only in its own reinforcement (or movement) phase", action))
            elif unit.box == "garrison":
                if action.at not in self.trans_siberian:
                    found.append(illegal("10.8", f"a garrison unit comes back onto a Trans-Siberian hex, not {self.where(action.at)}", action))
            elif unit.box == "eliminated":
                found.append(illegal("12.0", f"{name} was eliminated and cannot return as a reinforcement", action))
            elif unit.side == SOVIET and self.stance(state, "NATO") == "allied_prc" and not self._nato_war_reinforcement(unit, action, state):
                found.append(illegal("5.12", f"with NATO at war the Soviet player receives only one 4-4-9 division, on turn 6, at 2701 or 1301; not {name} at {self.where(action.at)} on turn {state.turn}", action))
            elif "reinforcements" not in ctx.unchecked:
                ctx.unchecked.add("reinforcements")
                found.append(warning("12.0", "arrival schedules and entry hexes (12.0, 17.3) are missing from the source and not checked", action))
        return found

    def _nato_war_reinforcement(self, unit: UnitState, action: Reinforce, state: State) -> bool:
        """5.12: once NATO joins the war, one 4-4-9 on turn 6 at 2701 or 1301 is all that comes."""
        face = unit.unit.type.steps[0]
        entry = {self.map.find(label) for label in self.options.get("nato_war_reinforcement_hexes", ("2701", "1301"))}
        already = state.status.get("nato_war_reinforcement")
        if (face.attack, face.defence, face.move) != (4, 4, 9) or state.turn != 6 or action.at not in entry or already:
            return False
        state.status["nato_war_reinforcement"] = unit.id
        return True

    def after_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        returned = ctx.extra.pop("from_garrison", ())
        if returned:  # 10.8: no movement for the rest of the game-turn, in this file or the next
            record = state.status.setdefault("garrison_returned", {"turn": state.turn, "units": []})
            if record["turn"] != state.turn:
                record.update(turn=state.turn, units=[])
            record["units"] = sorted(set(record["units"]) | set(returned))
        ctx.touched.add(action.at)
        ctx.last_entry[action.at] = action
        return []
