"""Movement (11.1, 11.3, 10.1) and strategic redeployment (13.1), and what entering a space changes
(control, trenches, VP: 11.1.13, 11.2.5-11.2.6, the VP track)."""

from __future__ import annotations

from pbem.model.state import State, UnitState
from pbem.rules.ruleset import TurnContext, illegal

from .base import CHANNEL_PORTS, PathsOfGloryBase, pog

BEF_COUNTRIES = ("BR", "FR", "BE", "GE")


class MovementRules(PathsOfGloryBase):
    def check_move(self, action, state: State, ctx: TurnContext) -> list:
        if action.by in ("strategic", "sea"):
            return self._check_redeployment(action, state, ctx)
        play, found = self.need_play(action, ctx, ("ops", "automatic"), "9.2.5", "moving")
        if play is None:
            return found
        units = [state.units[u] for u in action.units]
        path = action.path
        start = path[0]
        game_map = self.module.map
        for unit in units:
            if unit.side != play.side:
                return [illegal("8.1.1", f"{self.name(unit.id)} is not a {play.side.upper()} unit", action)]
            if unit.at != start:
                return [illegal("11.1.3", f"{self.name(unit.id)} is not in {self.where(start)}, where the path starts", action)]
        if play.activated.get(start) != "move" and not all(u.id in play.moved for u in units):
            found.append(illegal("9.2.5", f"{self.where(start)} is not activated for movement this round", action))
        restricted = self.restricted_steps
        for here, there in zip(path, path[1:]):
            if not game_map.is_adjacent(here, there):
                # Reported with every other rule the move breaks (MF, supply, the spaces it enters).
                found.append(illegal("11.1.3", f"{self.where(here)} and {self.where(there)} are not connected", action))
                break
            if (here, there) not in restricted:
                continue  # a solid line: every unit may use it (``may_use``)
            for unit in units:
                if not self.may_use(state, here, there, unit):
                    allowed = ", ".join(sorted(game_map.restricted[_edge(here, there)]))
                    found.append(illegal("11.1.4", f"{self.name(unit.id)} may not use the dashed connection {self.where(here)}-{self.where(there)} (only {allowed})", action))
        for unit in units:
            mf = unit.face.move
            spent = play.moved.get(unit.id, 0) + len(path) - 1
            if mf < 1:
                found.append(illegal("11.1.1", f"{self.name(unit.id)} has no movement factor", action))
            elif spent > mf:
                found.append(illegal("11.1.5", f"{self.name(unit.id)} spends {spent} MP this round; its MF is {mf}", action))
            if self.out_of_supply(state, unit):
                found.append(illegal("14.3.1", f"{self.name(unit.id)} is out of supply and may not move", action))
        found += self._entries(action, state, units, play.side, play.activated)
        return found

    def _entries(self, action, state: State, units: list[UnitState], side: str, activated: dict[int, str]) -> list:
        """What the spaces a path enters forbid (11.1.6-11.1.11, 11.1.15, 11.3.1, 10.1.1)."""
        found = []
        path = action.path
        game_map = self.module.map
        spaces = self.spaces
        features = game_map.features
        neutral = state.status.get("neutral_nations", ())
        last = path[-1]
        # The units a space's country or the Near East may bar (11.1.15, 11.3.1), in the move's order; most moves have none.
        limited = [unit for unit in units if unit.unit.type.attributes.get("contingent") == "BEF" or self.is_army(unit)]
        stacks = state.stacks  # only spaces that hold units
        for n, location in enumerate(path[1:], start=1):
            label = spaces.labels[location]
            enemies = self.enemy_units(state, location, side) if location in stacks else ()
            if enemies:
                found.append(illegal("11.1.7", f"{label} holds enemy units ({', '.join(self.name(u.id) for u in enemies[:3])}); no unit may enter it", action))
                break
            fort = self.fort(state, location)  # tested before control, which only a fort's space needs here
            if fort and self.controller(state, location) != side and not self.besieged(state, location) and location != last and not self._besieging(state, location, side):
                found.append(illegal("11.1.8", f"entering the enemy fort in {label} ends the move there (15.1.1)", action))
            country = spaces.country[location]
            german_fort = country == "GE" and fort and self.controller(state, location) != side
            if german_fort and state.turn == 1 and any(u.unit.type.nationality == "RU" for u in units):
                # Entering an enemy fort's space is besieging it (11.1.8, 15.2.1); LR2022 15.1.12 also says "enter".
                found.append(illegal("15.1.11", f"Russian units may not besiege (LR2022: enter) the German fort space {label} in August 1914", action))
            if country in neutral and country != "AL" and not self.greek_open(state, location):
                found.append(illegal("11.1.11", f"{label} lies in neutral {country}; it may not be entered before {country} enters the war", action))
            if country == "PE" and "TU" in neutral and self.edition() == "seed":
                # Seed 11.1.12 only: LR2022 11.1.13 sets Persia's control when Turkey enters but bars no entry.
                found.append(illegal("11.1.12", f"{label} (Persia) may be entered only once Turkey is in the war (seed edition)", action))
            if "mef_landing" in features[location] and state.status.get("mef_beachhead") != label:
                found.append(illegal("11.1.10", f"{label} may be entered only while the MEF beach-head is there", action))
            for unit in limited:
                contingent = unit.unit.type.attributes.get("contingent")
                if contingent == "BEF" and country not in BEF_COUNTRIES:
                    found.append(illegal("11.1.15", f"{self.name(unit.id)} moves only in Britain, France, Belgium and Germany, not into {label}", action))
                if self.is_army(unit) and "near_east" in features[location] and not unit.unit.type.attributes.get("near_east"):
                    found.append(illegal("11.3.1", f"{self.name(unit.id)} is not one of the armies allowed on the Near East map ({label})", action))
        if activated.get(last) == "attack" and action.by == "land":
            found.append(illegal("11.1.6", f"a unit may pass through but not end in {self.where(last)}, which holds an Attack marker", action))
        if side == "cp" and self.where(last) in CHANNEL_PORTS and not self._channel_open(state):
            found.append(illegal("11.1.9", f"before Race to the Sea (or CP war status 4) CP units may pass through {self.where(last)} but not end there", action))
        return found

    def _besieging(self, state: State, location: int, side: str) -> bool:
        """15.2.1-15.2.2: friendly units that entered this round and stopped there already besiege the fort (an
        army, or as many corps as its LF), so other units may ignore it, before the marker goes on at the round's end."""
        own = [u for u in state.units_at(location) if u.side == side]
        return any(self.is_army(u) for u in own) or (bool(own) and len(own) >= self.fort(state, location))

    def judge_stacking(self, state: State, ctx: TurnContext) -> list:
        """10.1.1-10.1.2: at the end of movement (or SR) every space entered holds at most three units."""
        stacking = pog(ctx).pop("stacking", None)
        if not stacking:
            return []
        found = []
        limit = self.module.tables["movement"]["stacking_limit"]
        for location, action in stacking.items():
            count = len(state.stacks.get(location, ()))
            if count > limit:
                found.append(illegal("10.1.1", f"{self.where(location)} holds {count} units when movement ends; the limit is {limit}", action))
        return found

    def _channel_open(self, state: State) -> bool:
        return self.played(state, "race_to_the_sea") or state.status.get("war_status", {}).get("cp", 0) >= 4

    def _check_redeployment(self, action, state: State, ctx: TurnContext) -> list:
        play, found = self.need_play(action, ctx, ("sr",), "13.1.1", "strategic redeployment")
        if play is None:
            return found
        units = [state.units[u] for u in action.units]
        path = action.path
        game_map = self.module.map
        costs = self.module.tables["strategic_redeployment"]["cost"]
        for unit in units:
            if unit.side != play.side:
                return [illegal("8.1.1", f"{self.name(unit.id)} is not a {play.side.upper()} unit", action)]
            if unit.at != path[0]:
                return [illegal("13.1.6", f"{self.name(unit.id)} is not in {self.where(path[0])}, where the route starts", action)]
            if unit.id in play.redeployed:
                found.append(illegal("13.1.3", f"{self.name(unit.id)} was already redeployed this round", action))
            if self.out_of_supply(state, unit):
                found.append(illegal("13.1.5", f"{self.name(unit.id)} is out of supply and may not redeploy", action))
            play.spent_sr += costs["army" if self.is_army(unit) else "corps"]
        if play.spent_sr > play.sr:
            found.append(illegal("13.1.2", f"redeployments cost {play.spent_sr} SR points this round (1 a corps, 4 an army); {play.card} gives {play.sr}", action))
        if action.by == "sea":
            found += self._sea(action, state, units, play.side)
        else:
            restricted = self.restricted_steps
            for here, there in zip(path, path[1:]):
                if not game_map.is_adjacent(here, there):
                    return found + [illegal("13.1.6", f"{self.where(here)} and {self.where(there)} are not connected", action)]
                if (here, there) not in restricted:
                    continue  # a solid line: every unit may use it (``may_use``)
                for unit in units:
                    if not self.may_use(state, here, there, unit):
                        found.append(illegal("13.1.6", f"{self.name(unit.id)} may not use the dashed connection {self.where(here)}-{self.where(there)}", action))
            stacks = state.stacks  # only spaces that hold units
            for location in path[1:]:
                if location in stacks and self.enemy_units(state, location, play.side):
                    found.append(illegal("13.1.6", f"a redeployment may not pass through enemy units ({self.where(location)})", action))
                    break
                if self.controller(state, location) != play.side and not self.besieged(state, location):
                    found.append(illegal("13.1.6", f"a redeployment passes only through friendly-controlled spaces; {self.where(location)} is not", action))
                    break
            for unit in units:
                if unit.unit.type.nationality == "RU" and any(game_map.country[loc] != "RU" for loc in path):
                    found.append(illegal("13.1.6", f"Russian units redeploy only inside Russia ({self.name(unit.id)})", action))
        return found

    def _sea(self, action, state: State, units: list[UnitState], side: str) -> list:
        found = []
        game_map = self.module.map
        for unit in units:
            if self.is_army(unit):
                found.append(illegal("13.1.7", f"{self.name(unit.id)} is an army; only corps redeploy by sea", action))
        if len(action.path) != 2:
            return found + [illegal("13.1.7", "a sea redeployment goes from one port straight to another (path: two ports)", action)]
        for location in action.path:
            extra = game_map.extra[location]
            label = self.where(location)
            beachhead = side == "ap" and label == state.status.get("mef_beachhead")  # 9.5.3.5: an Allied port
            if not beachhead and (extra.get("port") != side or self.controller(state, location) != side):
                found.append(illegal("13.1.7", f"{label} is not a friendly {side.upper()} port", action))
        return found

    def after_move(self, action, state: State, ctx: TurnContext) -> list:
        play = self.current_play(ctx)
        if play is None:
            return []
        # 10.1.2: a space may be overstacked while units move or redeploy; the limit holds when they are done.
        pog(ctx).setdefault("stacking", {})[action.path[-1]] = action
        for unit_id in action.units:
            if action.by in ("strategic", "sea"):
                play.redeployed.add(unit_id)
            else:
                play.moved[unit_id] = play.moved.get(unit_id, 0) + len(action.path) - 1
        if action.by == "land":
            for location in action.path[1:]:
                self.enter(state, location, play.side)
        return []

    def enter(self, state: State, location: int, side: str) -> None:
        """A unit of ``side`` enters a space: trenches fall (11.2.5-11.2.6), control and VP change (11.1.13)."""
        label = self.spaces.labels[location]
        if side == "cp" and state.status.get("mef_beachhead") == label:
            del state.status["mef_beachhead"]  # 9.5.3.5: a CP unit entering the beach-head removes it
        trenches = state.status.setdefault("trenches", {})
        trench = trenches.get(label)
        if trench and trench["owner"] != side:
            if trench["level"] >= 2:
                trenches[label] = {"level": 1, "owner": side}
            else:
                del trenches[label]
        if self.controller(state, location) == side:
            return
        if self.fort(state, location):
            return  # a friendly undestroyed fort keeps control of its space (15.1.9)
        state.status.setdefault("control", {})[label] = side
        if self.vp_space(state, location):
            change = self.module.tables["victory"]["vp_space_control"]["cp_gains" if side == "cp" else "ap_gains"]
            state.status["vp"] = state.status.get("vp", 10) + change


def _edge(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)
