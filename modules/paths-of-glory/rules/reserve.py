"""Units entering the map or the Reserve Box: reinforcement events (9.5.3.2-9.5.3.3), strategic redeployment in
and out of the Reserve Box (13.1.8-13.1.10), and replacement points spent on reduced units (17.1).

``{"reinforce": ["GE-9-ARMY"], "at": "Berlin"}`` after a reinforcement event, or during an SR play from the Reserve
Box; ``{"remove": ["GE-CORPS-12"], "to": "reserve"}`` for a reinforcing corps (into the box) or an SR into the box;
``{"replace": "FR-6-ARMY"}`` in the replacement phase.
"""

from __future__ import annotations

import dataclasses

from pbem.model.state import State, UnitState
from pbem.rules.ruleset import TurnContext, illegal, warning

from .base import PathsOfGloryBase, pog
from .operations import NEUTRAL_ENTRIES

# Armies and corps whose placement the card itself decides (9.5.3.3): not judged here, unless they enter at
# their capital or a supply source as 9.5.3.4 allows.
PLACED_BY_CARD = {"RU-CAU-ARMY", "BR-NE-ARMY", "FR-ORIENT-ARMY", "BR-ANA-CORPS", "TU-SN-CORPS"}


class ReserveRules(PathsOfGloryBase):
    def _reinforcing(self, ctx: TurnContext) -> dict | None:
        """The reinforcements of the event card played this round, and what of them is still to place."""
        play = self.current_play(ctx)
        if play is None or play.use != "event" or play.card is None:
            return None
        card = self.module.cards[play.card]
        if "reinforcements" not in card:
            return None
        pending = pog(ctx).setdefault("pending", {})
        if pending.get("card") != play.card:
            pending.clear()
            pending["card"] = play.card
            pending["units"] = [e.get("unit") for e in card["reinforcements"]["units"] if "unit" in e]
            pending["corps"] = [e["corps"] for e in card["reinforcements"]["units"] if "corps" in e]
            pending["nation"] = card["reinforcements"]["nation"]
        return pending

    def _take(self, pending: dict, unit: UnitState) -> bool:
        if unit.id in pending["units"]:
            pending["units"].remove(unit.id)
            return True
        if unit.unit.type.id in pending["corps"]:
            pending["corps"].remove(unit.unit.type.id)
            return True
        return False

    def entering(self, state: State, ctx: TurnContext) -> str | None:
        """The neutral nation whose units are being set up now: its entry event was played this round, or
        Turkey entered in this War Status phase (16.1.3)."""
        play = self.current_play(ctx)
        if play is not None and play.use == "event" and play.card is not None:
            return NEUTRAL_ENTRIES.get(self.module.cards[play.card].get("event", ""))
        if pog(ctx).get("phase") == "war_status" and state.status.get("entries", {}).get("turkey") == state.turn:
            return "TU"
        return None

    def _set_up_entry(self, action, state: State, nation: str, to: str) -> list:
        """4.2.2: a nation entering the war sets up as the Setup Chart says (status.neutral_setup)."""
        chart = state.status.get("neutral_setup", {}).get(nation, {})
        listed = {written.split()[0]: space for space, ids in chart.items() for written in ids}
        found = []
        for unit_id in action.units:
            unit = state.units[unit_id]
            name = self.name(unit_id)
            if unit.unit.type.nationality != nation or unit.box != "reinforcements":
                found.append(illegal("4.2.2", f"{name} is not one of the {nation} units waiting to enter", action))
                continue
            if not self.is_army(unit) and self._corps_slot(state, chart, unit, to):
                continue  # corps are generic counters: any corps of the type the chart names fills its place
            if unit_id in listed:
                if listed[unit_id] != to:
                    found.append(illegal("4.2.2", f"{name} sets up in {listed[unit_id]} when {nation} enters, not {to}", action))
                continue
            location = self.module.map.find(to)
            open_choices = state.status.get("neutral_open_choices", {}).get(nation, 0)
            used = [loc for loc in chart if loc != "reserve"]
            if location is None or not open_choices or self.module.map.country[location] != nation or to in used or state.units_at(location):
                found.append(illegal("4.2.2", f"{name} sets up in an empty space of {nation} not named by the Setup Chart, one corps a space; not {to}", action))
        return found

    def _corps_slot(self, state: State, chart: dict, unit: UnitState, to: str) -> bool:
        """A place the Setup Chart gives a corps of ``unit``'s type at ``to`` that no corps of that type fills yet."""
        kind = unit.unit.type.id
        places = sum(1 for written in chart.get(to, ()) if written.split()[0] in state.units and state.units[written.split()[0]].unit.type.id == kind)
        if not places:
            return False
        if to == "reserve":
            filled = sum(1 for u in state.units.values() if u.box == "reserve" and u.unit.type.id == kind)
        else:
            location = self.module.map.find(to)
            filled = sum(1 for u in state.units_at(location) if u.unit.type.id == kind) if location is not None else places
        return filled < places

    def check_reinforce(self, action, state: State, ctx: TurnContext) -> list:
        nation = self.entering(state, ctx)
        if nation is not None:
            return self._set_up_entry(action, state, nation, self.where(action.at)) + self._stacking(action, state)
        pending = self._reinforcing(ctx)
        play = self.current_play(ctx)
        if pending is not None:
            return self._place_reinforcements(action, state, pending)
        if play is not None and play.use == "sr":
            return self._out_of_reserve(action, state, play)
        return [illegal("9.5.3.2", "units enter the map by a reinforcement event or by SR out of the Reserve Box; this round has neither", action)]

    def _place_reinforcements(self, action, state: State, pending: dict) -> list:
        found = []
        location = action.at
        label = self.where(location)
        for unit_id in action.units:
            unit = state.units[unit_id]
            name = self.name(unit_id)
            if unit.box != "reinforcements":
                found.append(illegal("9.5.3.2", f"{name} is not waiting to enter (it is {'on the map' if unit.on_map else 'in the ' + str(unit.box)})", action))
                continue
            if not self._take(pending, unit):
                found.append(illegal("9.5.3.2", f"{name} is not among the reinforcements of {pending['card']}", action))
                continue
            if not self.is_army(unit) and unit_id not in PLACED_BY_CARD:
                found.append(illegal("9.5.3.2", f"reinforcing corps go to the Reserve Box (remove to reserve), not onto the map ({name})", action))
                continue
            game_map = self.module.map
            extra = game_map.extra[location]
            nation = unit.unit.type.nationality
            friendly = self.controller(state, location) == unit.side
            home = extra.get("capital_of") == nation or (bool(game_map.supply[location]) and game_map.country[location] == nation)
            if unit_id in PLACED_BY_CARD and not (home and friendly):
                found.append(warning("9.5.3.3", f"where {name} enters is decided by its card: not checked", action))
                continue
            if nation == "US":  # 9.5.3.3: any friendly-controlled port in France
                allowed = "port" in game_map.features[location] and game_map.country[location] == "FR"
                where = "a friendly port in France"
            elif unit_id == "BR-MEF-ARMY":  # 9.5.3.3: one of the four MEF spaces (or 9.5.3.4)
                allowed = "mef_landing" in game_map.features[location] or home
                where = "one of the MEF spaces, or London"
            elif nation == "FR" and game_map.label(location) == "Orleans":  # 9.5.3.3: when Paris is full
                paris = game_map.index("Paris")
                allowed = len(state.units_at(paris)) >= self.module.tables["movement"]["stacking_limit"]
                allowed = allowed and self.controller(state, paris) == "ap" and not self.besieged(state, paris)
                where = "Orleans only while Paris is full (and neither besieged nor enemy-held); otherwise Paris or a French supply source"
            else:
                allowed = home
                where = f"its capital or a supply source of {nation}"
            if not allowed or not friendly:
                found.append(illegal("9.5.3.3", f"{name} enters at {where}, friendly-controlled; not {label}", action))
            elif self.besieged(state, location):
                found.append(illegal("9.5.3.3", f"{name} may not enter {label}, whose fort is besieged", action))
            elif unit_id == "BR-MEF-ARMY" and "mef_landing" in game_map.features[location]:
                pass  # 9.5.3.5: its beach-head lands with it, an Allied port: in supply by sea
            elif not self.in_supply(state, dataclasses.replace(unit, at=location, box=None)):  # type: ignore[attr-defined]
                found.append(illegal("9.5.3.3", f"{name} must be in supply where it enters; {label} is not", action))
        found += self._stacking(action, state)
        return found

    def after_reinforce(self, action, state: State, ctx: TurnContext) -> list:
        # 9.5.3.5: the MEF Army lands with the MEF beach-head marker, which opens its space (an Allied port).
        if "BR-MEF-ARMY" in action.units and "mef_landing" in self.module.map.features[action.at]:
            state.status["mef_beachhead"] = self.where(action.at)
        return []

    def _stacking(self, action, state: State) -> list:
        staying = [u for u in state.units_at(action.at) if u.id not in set(action.units)]
        if len(staying) + len(action.units) > self.module.tables["movement"]["stacking_limit"]:
            return [illegal("10.1.1", f"{self.where(action.at)} would hold {len(staying) + len(action.units)} units; the limit is 3", action)]
        return []

    def _out_of_reserve(self, action, state: State, play) -> list:
        found = []
        location = action.at
        label = self.where(location)
        for unit_id in action.units:
            unit = state.units[unit_id]
            name = self.name(unit_id)
            if unit.box != "reserve" or unit.side != play.side:
                found.append(illegal("13.1.8", f"{name} is not in the {play.side.upper()} Reserve Box", action))
                continue
            nation = unit.unit.type.nationality
            same = any(u.unit.type.nationality == nation for u in state.units_at(location) if u.side == play.side)
            # 13.1.6: a besieged enemy fort's space is as good as friendly for SR (its besiegers are the same-nation unit)
            friendly = self.controller(state, location) == play.side or (same and self.besieged(state, location))
            if not (same or self._reserve_destination(state, unit, location)) or not friendly:
                found.append(illegal("13.1.8", f"{name} leaves the Reserve Box for a space with a {nation} unit, or its own capital or supply source{self._reserve_extra(nation)}; not {label}", action))
            found += self._capital_and_box(action, state, unit)
            play.spent_sr += self.module.tables["strategic_redeployment"]["cost"]["corps"]
            play.redeployed.add(unit_id)
        if play.spent_sr > play.sr:
            found.append(illegal("13.1.2", f"redeployments cost {play.spent_sr} SR points this round; {play.card} gives {play.sr}", action))
        found += self._stacking(action, state)
        return found

    def _reserve_destination(self, state: State, unit: UnitState, location: int) -> bool:
        """13.1.8: a space a corps may SR into from the Reserve Box without a unit of its nation there: its own
        capital or supply source; for a US corps any Allied-controlled port in France (both editions); for a
        Serbian corps Salonika, a supply source of the Serbs (LR2022 13.1.8, 14.2.3)."""
        game_map = self.module.map
        nation = unit.unit.type.nationality
        extra = game_map.extra[location]
        if extra.get("capital_of") == nation or (bool(game_map.supply[location]) and game_map.country[location] == nation):
            return True
        if nation == "US" and "port" in game_map.features[location] and game_map.country[location] == "FR":
            return True
        return nation == "SB" and self.edition() == "lr2022" and game_map.label(location) == "Salonika"

    def _reserve_extra(self, nation: str) -> str:
        if nation == "US":
            return ", or an Allied-controlled port in France"
        if nation == "SB" and self.edition() == "lr2022":
            return ", or Salonika (LR2022)"
        return ""

    def check_remove(self, action, state: State, ctx: TurnContext) -> list:
        if action.to != "reserve":
            return [illegal("-", f"units go to the {action.to} box only as a result of combat, attrition or an event; use eliminate or the attack's losses", action)]
        nation = self.entering(state, ctx)
        if nation is not None:
            return self._set_up_entry(action, state, nation, "reserve")
        pending = self._reinforcing(ctx)
        play = self.current_play(ctx)
        found = []
        for unit_id in action.units:
            unit = state.units[unit_id]
            name = self.name(unit_id)
            if self.is_army(unit):
                found.append(illegal("13.1.9", f"only corps go into the Reserve Box ({name} is an army)", action))
                continue
            if pending is not None and unit.box == "reinforcements":
                if not self._take(pending, unit):
                    found.append(illegal("9.5.3.2", f"{name} is not among the reinforcements of {pending['card']}", action))
            elif play is not None and play.use == "sr" and action.origin is not None and unit.at != action.origin:
                # 13.1.5: a unit SRs from its own space; the space written before the box must be where it stands
                where = f"in {self.where(unit.at)}" if unit.on_map else f"in the {unit.box} box" if unit.box else "off the map"
                found.append(illegal("13.1.5", f"{name} is not in {self.where(action.origin)}, where its SR to the {action.to} box starts (it is {where})", action))
            elif play is not None and play.use == "sr" and unit.on_map:
                if unit.side != play.side:
                    found.append(illegal("8.1.1", f"{name} is not a {play.side.upper()} unit", action))
                if self.out_of_supply(state, unit):
                    found.append(illegal("13.1.5", f"{name} is out of supply and may not redeploy", action))
                found += self._capital_and_box(action, state, unit)
                play.spent_sr += self.module.tables["strategic_redeployment"]["cost"]["corps"]
                play.redeployed.add(unit_id)
                if play.spent_sr > play.sr:
                    found.append(illegal("13.1.2", f"redeployments cost {play.spent_sr} SR points this round; {play.card} gives {play.sr}", action))
            else:
                found.append(illegal("13.1.9", f"{name} enters the Reserve Box by SR or as a reinforcing corps; this round allows neither", action))
        return found

    def _capital_and_box(self, action, state: State, unit: UnitState) -> list:
        """Seed 13.1.10: no corps of a nation SRs to or from the Reserve Box while the enemy controls its capital
        (for AH Vienna or Budapest); LR2022 13.1.11 adds a besieged capital. Belgians and Serbs are exempt."""
        nation = unit.unit.type.nationality
        if nation in ("BE", "SB"):
            return []
        lr2022 = self.edition() == "lr2022"
        game_map = self.module.map
        for location in self.capitals_of(nation):
            held = self.controller(state, location) not in (unit.side, None)
            if held or (lr2022 and self.besieged(state, location)):
                rule, how = ("13.1.10", "controls") if held else ("13.1.11", "besieges (LR2022)")
                return [illegal(rule, f"the enemy {how} {game_map.label(location)}: no {nation} corps SRs to or from the Reserve Box ({self.name(unit.id)})", action)]
        return []

    # --- replacements -------------------------------------------------------------------------------
    def check_replace(self, action, state: State, ctx: TurnContext) -> list:
        if pog(ctx).get("phase") != "replacement":
            return [illegal("17.1.2", "replacement points are spent only in the replacement phase", action)]
        unit = state.units[action.unit]
        name = self.name(action.unit)
        if unit.step == 0:
            return [illegal("17.1.4", f"{name} is at full strength", action)]
        if not unit.unit.type.attributes.get("replaceable", True):
            return [illegal("17.1.7", f"{name} is never replaced", action)]
        pool = unit.unit.type.attributes.get("rp_pool") or unit.unit.type.nationality
        costs = self.module.tables["replacement_costs"]["army" if self.is_army(unit) else "corps"]
        cost = costs["reduced_to_full"]
        points = state.status.setdefault("replacement_points", {})
        found = []  # every rule the replacement breaks, not the first only
        if points.get(pool, 0) < cost:
            found.append(illegal("17.1.1", f"{name} costs {cost} {pool} RP; {points.get(pool, 0)} are recorded", action))
        capital = self._capital_lost(state, unit.unit.type.nationality, unit.side)
        if capital and unit.unit.type.nationality not in ("BE", "SB"):
            found.append(illegal("17.1.3", f"the enemy controls or besieges {capital}: no {unit.unit.type.nationality} RP may be spent", action))
        if not found:
            points[pool] = points.get(pool, 0) - cost
        return found

    def _capital_lost(self, state: State, nation: str, side: str) -> str:
        for location in self.capitals_of(nation):
            if self.controller(state, location) not in (side, None) or self.besieged(state, location):
                return self.module.map.label(location)
        return ""
