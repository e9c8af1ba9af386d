"""Event effects that change what later checks see (9.5.1.1): operations and SR that an event grants, activation
costs (Sud Army, 11th Army, Moltke, Fall of the Tsar, Everyone Into Battle), replacement points from events and the
historical scenario (5.7.3), the mandated offensive (7.1.9-7.1.11), VP and war status, units an event places or
removes, and the fixed set-up of Guns of August. The module README lists every event and what is modelled.

Effects with no choice are applied when the card is played; an effect with a choice is written as the actions that
carry it out in the event's round: ``reinforce`` (the Russian Cavalry corps), ``replace`` (Landwehr, Paris Taxis),
``remove`` to ``permanently_eliminated`` (Czech Legion's AH corps, War in Africa's BR corps), ``move`` by
``strategic`` or ``reinforce`` out of the Reserve Box (Salonika).
"""

from __future__ import annotations

from pbem.model.state import State, UnitState
from pbem.rules.ruleset import TurnContext, illegal

from .base import PathsOfGloryBase, pog

# Events whose card also conducts Operations with its OPS value (card text: "conducts Operations using this card").
EVENT_OPS = frozenset({"cloak_and_dagger", "mata_hari", "yanks_and_tanks", "kerensky_offensive", "brusilov_offensive"})
# LR2022 5.7.4.7: in the historical scenario these events double as OPS (event first, then operations).
HISTORICAL_EVENT_OPS = frozenset({"landships", "zimmermann_telegram", "over_there", "tsar_takes_command", "fall_of_the_tsar", "bolshevik_revolution"})
# Salonika: SR of up to 3 BR/FR corps to Salonika; the card counts as an SR play (9.3.3).
SALONIKA_SR = 3
# VP changes on the play of an event (card text; + favours the CP); High Seas Fleet's is undone by Grand Fleet.
EVENT_VP = {"rape_of_belgium": -1, "reichstag_truce": 1, "lusitania": -1, "fourteen_points": -1, "convoy": -1,
            "zimmermann_telegram": -1, "polish_restoration": -1, "high_seas_fleet": 1}
# RP an event gives to spend at once on reduced units (card text): extra RP, who may receive them.
IMMEDIATE_RP = {"landwehr": 2, "paris_taxis": 1}
# Combat cards whose whole effect is a DRM to the roll of the side that plays them (card text), by card.
ROLL_CARDS = {"AP-04": 1, "AP-05": 1, "AP-07": 2, "AP-18": 1, "AP-19": 1, "AP-21": 1, "AP-36": 1, "AP-58": 1, "AP-59": 1,
              "CP-03": 1, "CP-04": 2, "CP-15": 1, "CP-16": 1, "CP-18": 1, "CP-19": 1, "CP-30": 1, "CP-35": 1, "CP-40": 1,
              "CP-57": 1, "CP-62": 1}
RUSSIAN_CAVALRY = ("RU-CAV-CORPS-01", "RU-CAV-CORPS-02")
POLISH_CORPS = ("GE-POL-CORPS-01", "GE-POL-CORPS-02", "GE-POL-CORPS-03")


class EventRules(PathsOfGloryBase):  # EntrenchEventRules joins it in rules/__init__.py
    def event_in_effect(self, state: State, event: str, this_turn: bool = False) -> bool:
        """Whether an event was played (and, with ``this_turn``, played this turn)."""
        if not self.played(state, event):
            return False
        if not this_turn:
            return True
        turns = state.status.get("event_turns", {})
        return any(self.module.cards[c].get("event") == event and turns.get(c) == state.turn for c in state.status.get("events_played", ()))

    def historical(self, state: State) -> bool:
        return state.scenario == "1914-historical" or state.status.get("vp_map") == "historical"

    # --- what the play grants --------------------------------------------------------------------------
    def check_card(self, action, state: State, ctx: TurnContext) -> list:
        found = super().check_card(action, state, ctx)  # type: ignore[misc]
        if action.use == "rp" and self.event_in_effect(state, "influenza", this_turn=True):
            found.append(illegal("9.5.1.1", "Influenza was played this turn: neither side plays a card for RP for the rest of it", action))
        play = self.current_play(ctx)
        if play is None or play.card != action.card or action.use != "event" or action.card is None:
            return found
        card = self.module.cards[action.card]
        event = card.get("event")
        if event in EVENT_OPS or (event in HISTORICAL_EVENT_OPS and self.historical(state)):
            play.ops = card["ops"]
            play.grants = frozenset({"ops"})
        elif event == "salonika":
            play.sr = SALONIKA_SR
            play.grants = frozenset({"sr"})
        elif event == "guns_of_august":
            play.grants = frozenset({"ops"})  # the armies are activated for combat; no OPS to spend (ops = 0)
        elif event in IMMEDIATE_RP:
            pog(ctx)["event_rp"] = IMMEDIATE_RP[event]
        return found

    # --- effects applied when the card is played ------------------------------------------------------------
    def after_card(self, action, state: State, ctx: TurnContext) -> list:
        found = super().after_card(action, state, ctx)  # type: ignore[misc]
        play = self.current_play(ctx)
        if play is None or play.card != action.card:
            return found
        if action.use == "rp" and action.card is not None:
            self._extra_rp(action, state, play.side)
        if action.use != "event" or action.card is None:
            return found
        status = state.status
        event = self.module.cards[action.card].get("event")
        vp = EVENT_VP.get(event or "", 0)
        if event == "fall_of_the_tsar":
            vp = 1 + (2 if self.neutral(state, "RO") else 0)
        if event == "grand_fleet" and self._answers_high_seas_fleet(state):
            vp = -1
        status["vp"] = status.get("vp", 10) + vp
        if event == "zimmermann_telegram":  # the US joins the Allies (16.3)
            status["neutral_nations"] = [n for n in status.get("neutral_nations", []) if n != "US"]
            status["us_entry"] = "zimmermann_telegram"
        if event == "h_l_take_command" and status.get("mandated_offensive", {}).get("cp") == "GE":
            status["mandated_offensive"]["cp"] = "none"  # LR2022 7.1.10: a German offensive in effect is ignored
        if event == "french_mutiny" and status.get("mandated_offensive", {}).get("ap") == "FR" and status.get("mandated_offensive_done", {}).get("ap"):
            status["mandated_offensive"]["ap"] = "none"  # 7.1.8: played after the French MO was made: no effect this turn
        if event == "bolshevik_revolution" and status.get("mandated_offensive", {}).get("ap") == "RU":
            status["mandated_offensive"]["ap"] = "none"  # LR2022 7.1.11
        if event == "guns_of_august":
            self._guns_of_august(state, play)
        if event == "polish_restoration":
            for unit_id in POLISH_CORPS:
                if unit_id in state.units and state.units[unit_id].box == "reinforcements":
                    state.remove(unit_id, "reserve")
        if event == "czech_legion" and "RU-CZECH-LEGION" in state.units and state.units["RU-CZECH-LEGION"].box == "reinforcements":
            state.remove("RU-CZECH-LEGION", "reserve")
        return found

    def _extra_rp(self, action, state: State, side: str) -> None:
        """17.1.8: after Over There every Allied RP card also gives one US RP."""
        if action.use == "rp" and side == "ap" and self.played(state, "over_there"):
            points = state.status.setdefault("replacement_points", {})
            points["US"] = points.get("US", 0) + 1

    def _answers_high_seas_fleet(self, state: State) -> bool:
        """Grand Fleet played in the Allied round right after High Seas Fleet cancels its VP."""
        played = state.status.get("events_played", [])
        before = played[-2] if len(played) >= 2 else None
        last_cp = state.status.get("last_play", {}).get("cp", {})
        return (before is not None and self.module.cards[before].get("event") == "high_seas_fleet"
                and state.status.get("event_turns", {}).get(before) == state.turn
                and last_cp.get("round") == state.status.get("round", {}).get("number") and last_cp.get("use") == "event")

    def _guns_of_august(self, state: State, play) -> None:
        """Guns of August: the Liege fort is destroyed, the GE 1st and 2nd Armies placed in Liege, and the spaces of
        the GE 1st, 2nd and 3rd Armies activated for combat."""
        game_map = self.module.map
        liege = game_map.index("Liege")
        state.status.setdefault("forts", {})["Liege"] = "destroyed"
        state.status.setdefault("control", {})["Liege"] = "cp"
        for unit_id in ("GE-1-ARMY", "GE-2-ARMY"):
            if unit_id in state.units:
                state.place(unit_id, liege)
        for unit_id in ("GE-1-ARMY", "GE-2-ARMY", "GE-3-ARMY"):
            unit = state.units.get(unit_id)
            if unit is not None and unit.on_map:
                play.activated[unit.at] = "attack"

    # --- activation costs ------------------------------------------------------------------------------------
    def _space_cost(self, state: State, own: list, location: int, purpose: str = "move", play=None) -> int:
        cost = super()._space_cost(state, own, location, purpose, play)  # type: ignore[misc]
        side = own[0].side if own else ""
        nations = [u.unit.type.nationality for u in own]
        country = self.module.map.country[location]
        if side == "cp" and self.played(state, "sud_army") and self._sud_army_stack(own):
            chosen = pog_round(play)
            if chosen.get("sud_army") in (None, location):
                chosen["sud_army"] = location
                # Sud Army: one AH unit with up to 2 GE corps activates as one nationality; others pay their own.
                rest = [u for u in own if u.unit.type.nationality not in ("AH", "GE")]
                cost = 1 + (len(self.activation_groups(rest, location)) if rest else 0)
        if side == "cp" and self.played(state, "eleventh_army") and "GE-11-ARMY" in {u.id for u in own} and sum(self.is_army(u) for u in own) == 1:
            cost = 1  # 11th Army: stacked with any CP corps, activated as one unit
        if side == "ap" and self.event_in_effect(state, "everyone_into_battle", this_turn=True) and country in ("IT", "FR", "BE"):
            cost = min(cost, 1)  # Everyone Into Battle: Allied units there are one nationality this turn
        if side == "cp" and self.played(state, "moltke") and not self.played(state, "falkenhayn") and country in ("BE", "FR"):
            cost = len(own)  # Moltke: 1 OPS a unit, not a space, until Falkenhayn
        russians = nations.count("RU")
        if side == "ap" and purpose == "attack" and russians and self.played(state, "fall_of_the_tsar"):
            others = len(self.activation_groups([u for u in own if u.unit.type.nationality != "RU"], location)) if russians < len(own) else 0
            cost = russians + others  # Fall of the Tsar: RU combat activation costs 1 OPS a unit
        return cost

    # --- combat ------------------------------------------------------------------------------------------------
    def card_drms(self, action, state: State, side: str) -> tuple[int, int] | None:
        """12.2.6: the DRM of the combat cards that only modify the roll of the side playing them, when the card's
        condition holds (card text); None when any card does more (trench effects, retreats, losses, fire order) or
        its condition does not hold: then the attack is not judged."""
        attackers = [state.units[u] for u in action.attackers]
        defenders = [u for u in state.units_at(action.target) if u.side != side]
        attacker = defender = 0
        for card_id in action.cards:
            drm = ROLL_CARDS.get(card_id)
            attacking = self.module.cards[card_id]["side"] == side
            if drm is None or not self._card_applies(card_id, state, action, attackers if attacking else defenders, attacking, defenders):
                return None
            if attacking:
                attacker += drm
            else:
                defender += drm
        return attacker, defender

    def _card_applies(self, card_id: str, state: State, action, own: list[UnitState], attacking: bool, defenders: list[UnitState]) -> bool:
        nations = {u.unit.type.nationality for u in own}
        target = action.target
        terrain = self.module.map.terrain[target]
        season = self.module.tables["turns"]["names"].get(str(state.turn), "").split()[0]
        trench = self.trench(state, target) or {}
        entrenched = bool(trench) and bool(defenders) and trench.get("owner") == defenders[0].side
        ge_attack = attacking and "GE" in nations
        rule = {
            "AP-04": "RU" in nations, "AP-05": "SB" in nations and state.turn <= 7,
            "AP-07": not attacking and (terrain == "mountain" and season in ("Fall", "Winter") or terrain == "swamp" and season in ("Spring", "Fall")),
            "CP-04": not attacking and (terrain == "mountain" and season in ("Fall", "Winter") or terrain == "swamp" and season in ("Spring", "Fall")),
            "AP-18": attacking and "BR" in nations, "AP-19": attacking and bool(nations & {"BR", "FR"}), "AP-21": attacking and "FR" in nations,
            "AP-36": attacking and "BR" in nations and entrenched, "AP-58": attacking and "RU" in nations, "AP-59": attacking and nations == {"IT"},
            "CP-03": ge_attack and any(u.unit.type.nationality == "RU" for u in defenders), "CP-15": ge_attack, "CP-19": ge_attack,
            "CP-35": ge_attack, "CP-40": ge_attack, "CP-16": "TU" in nations, "CP-57": "AH" in nations,
            "CP-18": not attacking and "GE" in nations and entrenched, "CP-62": ge_attack and terrain == "clear",
            "CP-30": ge_attack and (terrain == "mountain" or any(self.module.map.terrain[u.at] == "mountain" for u in own)),
        }
        return bool(rule.get(card_id))

    def check_attack(self, action, state: State, ctx: TurnContext) -> list:
        found = super().check_attack(action, state, ctx)  # type: ignore[misc]
        attackers = [state.units[u] for u in action.attackers]
        if not attackers:
            return found
        side = attackers[0].side
        nations = {u.unit.type.nationality for u in attackers}
        defenders = [u for u in state.units_at(action.target) if u.side != side]
        defending = {u.unit.type.nationality for u in defenders}
        label = self.where(action.target)
        if self.played(state, "treaty_of_brest_litovsk"):
            if "RU" in nations:
                found.append(illegal("9.5.1.1", "after the Treaty of Brest Litovsk Russian units may not attack", action))
            near_east_turks = nations == {"TU"} and "near_east" in self.module.map.features[action.target]
            if side == "cp" and "RU" in defending and not near_east_turks:
                found.append(illegal("9.5.1.1", f"after the Treaty of Brest Litovsk the CP attack no Russian units (but Turks on the Near East map); {label} holds some", action))
        cancelled = any(self.played(state, e) for e in ("michael", "blucher", "peace_offensive"))
        trench = self.trench(state, action.target) or {}
        entrenched_ge = bool(defenders) and trench.get("owner") != side and bool(trench) and defending <= {"GE"}
        if side == "ap" and "BR" in nations and self.event_in_effect(state, "lloyd_george", this_turn=True) and not cancelled:
            if entrenched_ge and trench.get("level") == 2:
                found.append(illegal("9.5.1.1", f"Lloyd George: no British attack on Germans in a level 2 trench this turn ({label})", action))
        if side == "ap" and "RU" in nations and self.event_in_effect(state, "stavka_timidity", this_turn=True) and entrenched_ge:
            found.append(illegal("9.5.1.1", f"Stavka Timidity: no Russian attack on entrenched German units this turn ({label})", action))
        return found

    def retreat_waived(self, action, state: State, attackers: list[UnitState]) -> bool:
        """Haig: this turn entrenched GE units in France, Belgium or Germany may ignore retreats against attacks with
        BR units (not after Michael, Blucher or Peace Offensive)."""
        if not self.event_in_effect(state, "haig", this_turn=True):
            return False
        if any(self.played(state, e) for e in ("michael", "blucher", "peace_offensive")):
            return False
        trench = self.trench(state, action.target)
        defenders = [u for u in state.units_at(action.target) if u.side == "cp"]
        return (bool(trench) and trench.get("owner") == "cp" and self.module.map.country[action.target] in ("FR", "BE", "GE")
                and any(u.unit.type.nationality == "BR" for u in attackers) and bool(defenders)
                and all(u.unit.type.nationality == "GE" for u in defenders))

    @staticmethod
    def _sud_army_stack(own: list[UnitState]) -> bool:
        ah = [u for u in own if u.unit.type.nationality == "AH"]
        ge_corps = [u for u in own if u.unit.type.nationality == "GE" and u.unit.type.size != "XXXX"]
        ge_armies = [u for u in own if u.unit.type.nationality == "GE" and u.unit.type.size == "XXXX"]
        return len(ah) == 1 and 1 <= len(ge_corps) <= 2 and not ge_armies

    # --- replacement points ----------------------------------------------------------------------------------
    def after_phase(self, action, state: State, ctx: TurnContext) -> list:
        if action.name == "war_status":
            self._war_status_vp(state)  # E.1's VP changes come before the automatic victory check (E.2)
        found = super().after_phase(action, state, ctx)  # type: ignore[misc]
        if action.name == "replacement":
            self._replacement_phase_points(state)
        return found

    def _war_status_vp(self, state: State) -> None:
        """VP that events change in the War Status phase: Blockade (-1 each Winter turn), Italy unplayed once the
        Allies are at Total War (+1 a turn, 9.5.2.5.1), French Mutiny reversing the French offensive (7.1.8)."""
        status = state.status
        name = self.module.tables["turns"]["names"].get(str(state.turn), "")
        if self.played(state, "blockade") and name.startswith("Winter"):
            status["vp"] = status.get("vp", 10) - 1
        italy_out = "AP-17" not in status.get("events_played", ()) and "AP-17" not in status.get("removed_cards", ())
        if italy_out and status.get("commitment", {}).get("ap") == "total_war" and self.neutral(state, "IT"):
            status["vp"] = status.get("vp", 10) + 1
        offensive = status.get("mandated_offensive", {})
        if self.played(state, "french_mutiny") and offensive.get("ap") == "FR":
            if status.get("mandated_offensive_done", {}).get("ap"):
                status["vp"] = status.get("vp", 10) + 1  # 7.1.8: the French attacked: the penalty is reversed
            offensive["ap"] = "none"  # and not attacking costs nothing

    def _replacement_phase_points(self, state: State) -> None:
        """RP that events and the historical scenario add or take in the Replacement phase."""
        points = state.status.setdefault("replacement_points", {})
        if self.played(state, "walter_rathenau") and not self.played(state, "independent_air_force"):
            points["GE"] = points.get("GE", 0) + 1  # Walter Rathenau: +1 GE RP every turn
        if self.historical(state) and state.status.get("commitment", {}).get("cp") == "total_war" and self._sedan_and_two(state):
            points["GE"] = points.get("GE", 0) + 1  # LR2022 5.7.3
        if self.event_in_effect(state, "zeppelin_raids", this_turn=True):
            points["BR"] = max(0, points.get("BR", 0) - 4)
        if self.played(state, "uboats_unleashed") and not self.played(state, "convoy"):
            points["BR"] = max(0, points.get("BR", 0) - 1)

    def _sedan_and_two(self, state: State) -> bool:
        """LR2022 5.7.3: the CP controls Sedan and two more French or Belgian spaces."""
        game_map = self.module.map
        if self.controller(state, game_map.index("Sedan")) != "cp":
            return False
        others = self.__dict__.get("_sedan_others")  # the map's French and Belgian spaces but Sedan, found once
        if others is None:
            others = self.__dict__["_sedan_others"] = [loc for loc in range(len(game_map)) if game_map.country[loc] in ("FR", "BE") and game_map.label(loc) != "Sedan"]
        return sum(1 for loc in others if self.controller(state, loc) == "cp") >= 2

    def check_replace(self, action, state: State, ctx: TurnContext) -> list:
        budget = pog(ctx).get("event_rp")
        play = self.current_play(ctx)
        if budget is None or play is None or play.use != "event" or pog(ctx).get("phase") != "action":
            found = super().check_replace(action, state, ctx)  # type: ignore[misc]
            unit = state.units[action.unit]
            if not found and unit.unit.type.nationality == "RU" and self.played(state, "bolshevik_revolution"):
                spent = pog(ctx).get("russian_rp", 0) + self.module.tables["replacement_costs"]["army" if self.is_army(unit) else "corps"]["reduced_to_full"]
                pog(ctx)["russian_rp"] = spent
                if spent > 1:
                    found.append(illegal("9.5.1.1", f"after Bolshevik Revolution at most 1 RU RP is spent a turn; {self.name(unit.id)} makes it {spent:g}", action))
            return found
        unit = state.units[action.unit]
        name = self.name(action.unit)
        event = self.module.cards[play.card].get("event") if play.card else None
        found = []
        if unit.side != play.side or not unit.on_map or unit.step == 0:
            found.append(illegal("9.5.1.1", f"the event's RP flip a reduced {play.side.upper()} unit on the map to full strength; not {name}", action))
        if event == "paris_taxis":
            paris = self.module.map.index("Paris")
            near = unit.at == paris or self.module.map.is_adjacent(unit.at, paris) if unit.on_map else False
            if unit.unit.type.nationality != "FR" or not self.is_army(unit) or not near:
                found.append(illegal("9.5.1.1", f"Paris Taxis flips a reduced French army in or next to Paris; not {name}", action))
        cost = self.module.tables["replacement_costs"]["army" if self.is_army(unit) else "corps"]["reduced_to_full"]
        if cost > budget:
            found.append(illegal("9.5.1.1", f"the event's RP are spent: {name} costs {cost}, {budget} left", action))
        pog(ctx)["event_rp"] = budget - cost
        return found

    # --- units an event places or removes ---------------------------------------------------------------------
    def check_reinforce(self, action, state: State, ctx: TurnContext) -> list:
        play = self.current_play(ctx)
        event = self.module.cards[play.card].get("event") if play is not None and play.card and play.use == "event" else None
        if event == "russian_cavalry":
            return self._russian_cavalry(action, state)
        if event == "salonika" and not any(state.units[u].unit.type.nationality == "GR" for u in action.units):
            return self._to_salonika(action, state, play, "reserve")  # Greek units set up as 9.5.2.4 says
        return super().check_reinforce(action, state, ctx)  # type: ignore[misc]

    def _russian_cavalry(self, action, state: State) -> list:
        """Russian Cavalry: both cavalry corps in one space in Russia holding a supplied Russian army, within stacking."""
        found = []
        location = action.at
        label = self.where(location)
        for unit_id in action.units:
            if unit_id not in RUSSIAN_CAVALRY or state.units[unit_id].box != "reinforcements":
                found.append(illegal("9.5.1.1", f"Russian Cavalry places the two Russian cavalry corps, not {self.name(unit_id)}", action))
        armies = [u for u in state.units_at(location) if u.unit.type.nationality == "RU" and self.is_army(u)]
        if self.module.map.country[location] != "RU" or not any(self.in_supply(state, u) for u in armies):  # type: ignore[attr-defined]
            found.append(illegal("9.5.1.1", f"the cavalry corps enter a space in Russia with a supplied Russian army; {label} has none", action))
        staying = [u for u in state.units_at(location) if u.id not in set(action.units)]
        if len(staying) + len(action.units) > self.module.tables["movement"]["stacking_limit"]:
            found.append(illegal("10.1.1", f"{label} would hold {len(staying) + len(action.units)} units; the limit is 3", action))
        return found

    def check_move(self, action, state: State, ctx: TurnContext) -> list:
        play = self.current_play(ctx)
        if play is not None and play.use == "event" and play.card and self.module.cards[play.card].get("event") == "salonika" and action.by in ("strategic", "sea"):
            return self._to_salonika(action, state, play, "map")
        return super().check_move(action, state, ctx)  # type: ignore[misc]

    def _to_salonika(self, action, state: State, play, source: str) -> list:
        """Salonika: up to 3 BR or FR corps, from the map or the Reserve Box, SR to Salonika."""
        found = []
        target = action.at if source == "reserve" else action.path[-1]
        if self.where(target) != "Salonika":
            found.append(illegal("9.5.1.1", f"the Salonika event redeploys corps to Salonika, not to {self.where(target)}", action))
        for unit_id in action.units:
            unit = state.units[unit_id]
            if unit.unit.type.nationality not in ("BR", "FR") or self.is_army(unit) or unit.side != play.side:
                found.append(illegal("9.5.1.1", f"the Salonika event redeploys BR or FR corps; not {self.name(unit_id)}", action))
            if source == "reserve" and unit.box != "reserve":
                found.append(illegal("13.1.8", f"{self.name(unit_id)} is not in the Reserve Box", action))
            play.spent_sr += 1
            play.redeployed.add(unit_id)
        if play.spent_sr > play.sr:
            found.append(illegal("9.5.1.1", f"the Salonika event redeploys at most {SALONIKA_SR} corps; this is corps {play.spent_sr}", action))
        staying = [u for u in state.units_at(target) if u.id not in set(action.units)]
        if len(staying) + len(action.units) > self.module.tables["movement"]["stacking_limit"]:
            found.append(illegal("10.1.1", f"{self.where(target)} would hold {len(staying) + len(action.units)} units; the limit is 3", action))
        return found

    def check_remove(self, action, state: State, ctx: TurnContext) -> list:
        play = self.current_play(ctx)
        event = self.module.cards[play.card].get("event") if play is not None and play.card and play.use == "event" else None
        placed = {"czech_legion": ("RU-CZECH-LEGION",), "polish_restoration": POLISH_CORPS}.get(event or "", ())
        if action.to == "reserve" and placed and set(action.units) <= set(placed):
            # The event put them into the Reserve Box when it was played; writing it out is allowed.
            return [illegal("9.5.1.1", f"{self.name(u)} is not this event's unit to add to the Reserve Box", action)
                    for u in action.units if state.units[u].box not in ("reserve", "reinforcements")]
        if action.to == "permanently_eliminated" and event in ("czech_legion", "war_in_africa"):
            found = []
            for unit_id in action.units:
                unit = state.units[unit_id]
                if event == "czech_legion" and not (unit.unit.type.nationality == "AH" and not self.is_army(unit) and unit.box == "eliminated"):
                    found.append(illegal("9.5.1.1", f"Czech Legion removes an AH corps from the CP Eliminated box; not {self.name(unit_id)}", action))
                if event == "war_in_africa" and not (unit.unit.type.nationality == "BR" and not self.is_army(unit)):
                    found.append(illegal("9.5.1.1", f"War in Africa removes a BR corps; not {self.name(unit_id)}", action))
            return found
        return super().check_remove(action, state, ctx)  # type: ignore[misc]


class EntrenchEventRules(PathsOfGloryBase):
    """The Entrench event places a level 1 trench in a space with a supplied friendly army:
    ``{"special": "entrench", "units": [ARMY], "at": SPACE}`` in the event's round, without a roll."""

    def _entrench_event(self, ctx: TurnContext) -> bool:
        play = self.current_play(ctx)
        return play is not None and play.use == "event" and bool(play.card) and self.module.cards[play.card].get("event") in ("cp_entrench", "ap_entrench")

    def check_special(self, action, state: State, ctx: TurnContext) -> list:
        if action.order != "entrench" or not self._entrench_event(ctx) or action.rolls:
            return super().check_special(action, state, ctx)  # type: ignore[misc]
        play = self.current_play(ctx)
        if pog(ctx).get("event_trench"):
            return [illegal("9.5.1.1", "the Entrench event places one level 1 trench", action)]
        pog(ctx)["event_trench"] = True
        armies = [state.units[u] for u in action.units if u in state.units]
        if action.at is None or not armies or not all(self.is_army(u) and u.at == action.at and u.side == play.side for u in armies):
            return [illegal("9.5.1.1", "the Entrench event's trench goes into a space holding a friendly army (name the army and its space)", action)]
        if not any(self.in_supply(state, u) for u in armies):  # type: ignore[attr-defined]
            return [illegal("9.5.1.1", f"the Entrench event's trench needs a supplied army in {self.where(action.at)}", action)]
        if self.trench(state, action.at):
            return [illegal("11.2.3", f"{self.where(action.at)} already holds a trench; the event places a level 1 trench", action)]
        return []

    def after_special(self, action, state: State, ctx: TurnContext) -> list:
        if action.order == "entrench" and self._entrench_event(ctx) and not action.rolls and action.at is not None and action.units:
            side = state.units[action.units[0]].side
            state.status.setdefault("trenches", {}).setdefault(self.where(action.at), {"level": 1, "owner": side})
            return []
        return super().after_special(action, state, ctx)  # type: ignore[misc]


def pog_round(play) -> dict:
    """Per-round notes of an event's effect (the Sud Army stack chosen this round)."""
    if play is None:
        return {}
    return play.notes


# Events whose effect on later checks this module applies or checks (the README's event table says how).
MODELLED_EVENTS = frozenset(EVENT_OPS | HISTORICAL_EVENT_OPS | set(EVENT_VP) | set(IMMEDIATE_RP) | {
    "salonika", "guns_of_august", "fall_of_the_tsar", "grand_fleet", "h_l_take_command", "bolshevik_revolution",
    "hoffmann", "polish_restoration", "czech_legion", "sud_army", "eleventh_army", "everyone_into_battle", "moltke", "falkenhayn",
    "walter_rathenau", "independent_air_force", "zeppelin_raids", "uboats_unleashed", "russian_cavalry", "war_in_africa",
    "cp_entrench", "ap_entrench", "haig", "over_there", "influenza", "treaty_of_brest_litovsk",
    "lloyd_george", "stavka_timidity", "blockade", "french_mutiny"})
