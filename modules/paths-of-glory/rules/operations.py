"""Card plays (8.1, 9.1-9.5, 16.1, 16.3-16.4) and activations (9.2)."""

from __future__ import annotations

from pbem.model.state import State
from pbem.rules.ruleset import TurnContext, illegal, mismatch, warning

from .base import COMMITMENT, PathsOfGloryBase, Play, pog
from .events import MODELLED_EVENTS

USES = ("ops", "sr", "rp", "event")
NO_CARD_USES = ("automatic", "peace_terms")
# Events whose effect is on a rule this module checks (the README lists them); other events are reported as unchecked.
CHECKED_EVENTS = {"race_to_the_sea", "oberost", "italy_entry", "romania_entry", "bulgaria_entry", "greece_entry"}
NEUTRAL_ENTRIES = {"italy_entry": "IT", "romania_entry": "RO", "bulgaria_entry": "BU", "greece_entry": "GR"}


class OperationsRules(PathsOfGloryBase):
    # --- card plays ---------------------------------------------------------------------------------
    def check_card(self, action, state: State, ctx: TurnContext) -> list:
        data = pog(ctx)
        current = data.get("round")
        if current is None:
            return [illegal("8.1.1", "a card is played in an action round: begin one with a phase action (phase action, round, side)", action)]
        side = action.side or current.side
        if side != current.side:
            return [illegal("8.1.1", f"it is the {current.side.upper()}'s action round, not the {side.upper()}'s", action)]
        if current.play is not None:
            return [illegal("8.1.1", f"the {side.upper()} already took its one action in round {current.number} (8.1.1)", action)]
        use = action.use
        if action.card is None:
            if use not in NO_CARD_USES:
                return [illegal("8.1.3", f"an action without a card is an automatic operation or a peace offer, not {use!r}", action)]
            current.play = Play(side, None, use, ops=1 if use == "automatic" else 0)
            return self._peace_terms(action, state, side) if use == "peace_terms" else []
        card = self.module.cards[action.card]
        name = f"{action.card} {card['name']}"
        current.play = Play(side, action.card, use, ops=card["ops"] if use == "ops" else 0, sr=card["sr"] if use == "sr" else 0)
        found = []
        if card["side"] != side:
            found.append(illegal("9.1.2", f"{name} is a {card['side'].upper()} card; the {side.upper()} cannot play it", action))
        if use not in USES:
            return found + [illegal("9.1.3", f"a card is played as ops, sr, rp or event, not {use!r} (combat cards are named in the attack)", action)]
        level = state.status.get("commitment", {}).get(side, "mobilization")
        if COMMITMENT.index(card["commitment"]) > COMMITMENT.index(level):
            found.append(illegal("16.1", f"{name} is a {card['commitment'].replace('_', ' ')} card; the {side.upper()} is still at {level.replace('_', ' ')} (LR2022 16.1)", action))
        if action.card in state.status.get("removed_cards", ()):
            found.append(illegal("9.5.1.2", f"{name} was removed from the game when its event was played", action))
        last = state.status.get("last_play", {}).get(side)
        consecutive = last is not None and last["turn"] == state.turn and last["round"] == current.number - 1
        if use == "sr" and consecutive and last["use"] == "sr":
            found.append(illegal("9.3.3", f"the {side.upper()} played a card for SR in round {last['round']}; not again in round {current.number} of the same turn", action))
        if use == "rp" and consecutive and last["use"] == "rp":
            found.append(illegal("9.4.3", f"the {side.upper()} played a card for RP in round {last['round']}; not again in round {current.number} of the same turn", action))
        if use != "event" and action.card in ("AP-16", "AP-17") and self._italy_romania_lock(state):
            found.append(illegal("9.5.2.5", f"while the CP is at Total War and the Allies are not, {name} may only be played as an event", action))
        if use == "event":
            found += self._event(action, state, card, name, side)
        return found

    def _italy_romania_lock(self, state: State) -> bool:
        commitment = state.status.get("commitment", {})
        return commitment.get("cp") == "total_war" and commitment.get("ap") != "total_war"

    def _event(self, action, state: State, card: dict, name: str, side: str) -> list:
        found = []
        entries = state.status.get("entries", {})
        event = card.get("event")
        if event in NEUTRAL_ENTRIES and entries.get("neutral") == state.turn:
            found.append(illegal("9.5.2.2", f"a neutral nation already entered the war this turn; {name} must wait (one entry per turn for both players)", action))
        reinforcements = card.get("reinforcements")
        if reinforcements:
            nation = reinforcements["nation"]
            if state.turn == 1:
                found.append(illegal("9.5.3.1", f"no reinforcement event may be played on the August 1914 turn ({name})", action))
            elif entries.get("reinforced", {}).get(nation) == state.turn:
                found.append(illegal("9.5.3.1", f"{nation} already received reinforcements this turn; one reinforcement event per nation per turn", action))
        for need in card.get("prerequisites", ()):
            problem = self._unmet(state, need)
            if problem:
                found.append(illegal(need["rule"], f"{name} may not be played yet: {problem} (LR2022 {need['rule']})", action))
        if not found and event not in CHECKED_EVENTS and event not in MODELLED_EVENTS and not reinforcements:
            found.append(warning("9.5", f"the effect of {name} is not checked by the module (see README); only its playability and war status are", action))
        return found

    def _unmet(self, state: State, need: dict) -> str:
        status = state.status
        if "card_played" in need:
            other = need["card_played"]
            turns = status.get("event_turns", {})
            if other not in status.get("events_played", ()):
                return f"{other} {self.module.cards[other]['name']} has not been played"
            if need.get("later_turn") and turns.get(other) == state.turn:
                return f"{other} was played this turn; it needs a later turn"
        if "combined_war_status_at_least" in need and status.get("combined_war_status", 0) < need["combined_war_status_at_least"]:
            return f"combined war status is {status.get('combined_war_status', 0)}, below {need['combined_war_status_at_least']}"
        if "russian_vp_spaces_controlled_at_least" in need and status.get("current_cp_russian_vp", 0) < need["russian_vp_spaces_controlled_at_least"]:
            return f"the CP control {status.get('current_cp_russian_vp', 0)} Russian VP spaces, not {need['russian_vp_spaces_controlled_at_least']}"
        if "combined_war_status_plus_russian_vp_at_least" in need:
            total = status.get("combined_war_status", 0) + status.get("current_cp_russian_vp", 0)
            if total < need["combined_war_status_plus_russian_vp_at_least"]:
                return f"combined war status plus CP Russian VP is {total}, below {need['combined_war_status_plus_russian_vp_at_least']}"
        return ""

    def _peace_terms(self, action, state: State, side: str) -> list:
        table = self.module.tables["peace_terms"]
        vp = state.status.get("vp", 10)
        if side == "cp" and vp < table["cp_offers_at_least"] or side == "ap" and vp > table["ap_offers_at_most"]:
            return [illegal("16.5", f"the {side.upper()} may not offer peace terms at {vp} VP (LR2022 16.5)", action)]
        return []

    def after_card(self, action, state: State, ctx: TurnContext) -> list:
        current = pog(ctx).get("round")
        if current is None or current.play is None or current.play.card != action.card:
            return []
        side = current.play.side
        status = state.status
        status.setdefault("last_play", {})[side] = {"turn": state.turn, "round": current.number, "use": action.use}
        if action.card is None:
            return []
        card = self.module.cards[action.card]
        if action.use == "rp":
            pool = status.setdefault("replacement_points", {})
            for nation, points in card.get("rp", {}).items():
                if nation in ("BU", "IT", "TU") and self.neutral(state, nation):
                    continue  # 9.4.1: no RP for a neutral Bulgaria, Italy or Turkey
                pool[nation] = pool.get(nation, 0) + points
        if action.use == "event":
            if action.card not in status.setdefault("events_played", []):  # once each: a written state stays within its schema
                status["events_played"].append(action.card)
            status.setdefault("event_turns", {})[action.card] = state.turn
            if card.get("removed_after_event") and action.card not in status.setdefault("removed_cards", []):
                status["removed_cards"].append(action.card)
            if card.get("war_status"):  # 9.5.1.3: to the player's and the combined war status
                status.setdefault("war_status", {})[side] = status.get("war_status", {}).get(side, 0) + card["war_status"]
                status["combined_war_status"] = status.get("combined_war_status", 0) + card["war_status"]
            entries = status.setdefault("entries", {})
            if card.get("event") in NEUTRAL_ENTRIES:
                entries["neutral"] = state.turn
                nation = NEUTRAL_ENTRIES[card["event"]]
                self.enter_war(state, nation, side)
            if card.get("reinforcements"):
                entries.setdefault("reinforced", {})[card["reinforcements"]["nation"]] = state.turn
        return []

    def enter_war(self, state: State, nation: str, side: str) -> None:
        """A neutral nation joins ``side``: no longer neutral, its set-up trenches placed (4.2.2, 5.7.1.3)."""
        status = state.status
        status["neutral_nations"] = [n for n in status.get("neutral_nations", []) if n != nation]
        for space, trench in status.get("neutral_setup", {}).get("trenches", {}).items():
            if trench.get("nation") == nation:
                status.setdefault("trenches", {})[space] = {"level": trench["level"], "owner": side}

    # --- activation ---------------------------------------------------------------------------------
    def check_activate(self, action, state: State, ctx: TurnContext) -> list:
        play, found = self.need_play(action, ctx, ("ops", "automatic"), "9.2.1", "activating spaces")
        if play is None:
            return found
        cost = 0
        uncosted = False  # a space not costed (no units, bad purpose, twice): the claimed cost cannot be judged
        # 9.2.7 counts only the Allies' attacks: the spaces activated so far are counted for those alone.
        near_east_attacks = 0
        if play.side == "ap" and "attack" in action.spaces.values():
            near_east_attacks = sum(1 for loc, p in play.activated.items() if p == "attack" and self._near_east_limited(state, loc))
        for location, purpose in action.spaces.items():
            label = self.where(location)
            if purpose not in ("move", "attack"):
                found.append(illegal("9.2.5", f"{label} is activated for move or for attack, not {purpose!r}", action))
                uncosted = True
                continue
            if location in play.activated:
                found.append(illegal("9.2.5", f"{label} is already activated this round (for {play.activated[location]})", action))
                uncosted = True
                continue
            own = [u for u in state.units_at(location) if u.side == play.side]
            if not own:
                found.append(illegal("9.2.6", f"{label} holds no {play.side.upper()} unit to activate (a fort alone is not a unit)", action))
                uncosted = True
                continue
            if purpose == "attack" and self._desert_summer(state, location):
                found.append(illegal("15.2.5", f"{label} is a desert space: it is not activated for combat in summer (LR2022 15.2.5)", action))
            if any(self.out_of_supply(state, u) for u in own):
                found.append(illegal("14.3.1", f"units out of supply in {label} may not be activated", action))
            cost += self._space_cost(state, own, location, purpose, play)
            play.activated[location] = purpose
            if purpose == "attack" and play.side == "ap" and self._near_east_limited(state, location):
                near_east_attacks += 1
                if near_east_attacks > 1:
                    found.append(illegal("9.2.7", f"the Allies may activate only one Near East space a round for combat; {label} is the {_ordinal(near_east_attacks)}", action))
        play.spent_ops += cost
        if play.spent_ops > play.ops:
            what = "an automatic operation" if play.card is None else f"{play.card} ({play.ops} OPS)"
            found.append(illegal("9.2.1", f"activations cost {play.spent_ops} OPS this round; {what} gives {play.ops}", action))
        # Under-paying is its own violation even when the budget is exceeded too (an automatic operation's 1 OPS).
        if action.cost is not None and action.cost != cost and not uncosted:
            kind = illegal if action.cost < cost else mismatch
            how = "one a nationality in each space, 9.2.4: whether or not they act" + ("; 9.2.7.1 for units supplied through the MEF beach-head" if state.status.get("mef_beachhead") else "")
            found.append(kind("9.2.3", f"activating {', '.join(self.where(s) for s in action.spaces)} costs {cost} OPS ({how}), not {action.cost}", action))
        return found

    def _desert_summer(self, state: State, location: int) -> bool:
        name = self.module.tables["turns"]["names"].get(str(state.turn), "")
        return name.startswith("Summer") and self.module.map.terrain[location] == "desert"

    def _space_cost(self, state: State, own: list, location: int, purpose: str = "move", play=None) -> int:
        """9.2.3, and 9.2.7.1: units that trace supply through the MEF beach-head cost 3 OPS (the MEF Army) or 1
        OPS each (any other unit) on top of what the rest of the stack costs."""
        if not state.status.get("mef_beachhead"):  # no beach-head: no unit traces through it (``_through_beachhead``)
            return len(self.activation_groups(own, location)) if own else 0
        through = [u for u in own if self._through_beachhead(state, u)]
        rest = [u for u in own if u not in through]
        beach = sum(3 if u.id == "BR-MEF-ARMY" else 1 for u in through)
        return beach + (len(self.activation_groups(rest, location)) if rest else 0)

    def _through_beachhead(self, state: State, unit) -> bool:
        beachhead = state.status.get("mef_beachhead")
        if not beachhead or not unit.on_map:
            return False
        if not self.in_supply(state, unit):  # type: ignore[attr-defined]
            return False
        del state.status["mef_beachhead"]
        try:
            return not self.in_supply(state, unit)  # type: ignore[attr-defined]
        finally:
            state.status["mef_beachhead"] = beachhead

    def _near_east_limited(self, state: State, location: int) -> bool:
        """9.2.7: a Near East space (Constantinople and Bursa included) that counts against the AP's limit."""
        if "near_east" not in self.module.map.features[location]:
            return False
        exempt = {"BR-NE-ARMY"} & {u.id for u in state.units_at(location)}
        beachhead = self.module.map.label(location) == state.status.get("mef_beachhead")
        return not exempt and not beachhead


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
