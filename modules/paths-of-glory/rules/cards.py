"""Paths of Glory's card piles (the generic piles are ``pbem.model.cards``; the deck rules are here).

- 4.3: each side starts with its Mobilization deck shuffled and a hand dealt (seven cards, eight with 9.1.4).
- 6.0 G: in the Draw phase each side draws to its hand size; the discards are reshuffled when the draw pile runs
  out ("after dealing all other available cards"); 9.5.4.6: before drawing, a side may discard combat cards (and,
  under 9.5.2.5's lock, the Italy and Romania entry cards): ``{"card": ID, "use": "discard"}`` in the draw phase.
- 16.1.3-16.1.4: a side's Limited War or Total War deck joins its draw pile when its commitment rises; at the start
  of the next Draw step, after the combat cards are discarded, the draw and discard piles are shuffled together.
- 9.1.3: a card played goes to the discard pile; 9.5.1.2: a starred card played as an event is removed.
- 9.5.4.2-9.5.4.5: a combat card played in a combat stays face up with the side that won (reusable once an action
  round, 9.5.4.4) until that side loses a combat using it, or the Draw step begins (all played combat cards are
  discarded then, 9.5.4.5 with 16.1.3's "after Combat Event Cards are discarded"); the loser discards its cards
  at once (12.2.11, a tie both); starred ones and those "used in one Combat per turn" leave at once; They Shall
  Not Pass is discarded only when the Allies lose.
- Options: ``optional_cards`` (cards #56-65: none, all, or selected — a secret choice, so no deck's contents are
  then public) and ``hand_size`` (7, or 8 by 9.1.4).

A card that cannot be in the player's hand is illegal with its rule: not in this game's decks (2.3, optional cards),
not yet in the deck (16.1), removed (9.5.1.2), in play (9.5.4.2), played earlier this turn (9.1.3), or in the
discard pile from an earlier turn and not reshuffled since (6.0).
"""

from __future__ import annotations

from pbem.model.cards import DISCARD, IN_PLAY, REMOVED, Piles
from pbem.model.state import State
from pbem.rules.ruleset import TurnContext, illegal, warning

from .base import COMMITMENT, PathsOfGloryBase, pog

# The cards whose texts say "May only be used in one Combat per turn" (the effect column of Rally the Troops'
# cards.csv): discarded at once after their combat, even when won (9.5.4.2).
ONE_COMBAT_A_TURN = frozenset({"AP-36", "AP-48", "CP-31"})  # Mine Attack, Royal Tank Corps, Kemal
THEY_SHALL_NOT_PASS = "AP-39"
ENTRY_CARDS_UNDER_THE_LOCK = ("AP-16", "AP-17")  # Italy, Romania (9.5.2.5)


class CardPileRules(PathsOfGloryBase):
    """Each side's draw pile, hand, discard, removed cards and combat cards in play."""

    # --- the decks ----------------------------------------------------------------------------------
    def deck(self, side: str, level: str) -> list[str]:
        """The cards that may be in ``side``'s ``level`` deck in this game: the optional ones only if the game
        uses them (all of them with ``selected``, whose choice is secret)."""
        optional = self.module.options.get("optional_cards", "none") != "none"
        return [card_id for card_id, card in self.module.cards.items()
                if card["side"] == side and card["commitment"] == level and (optional or not card.get("optional"))]

    def deck_size(self, side: str, level: str) -> int:
        """How many cards ``side``'s ``level`` deck holds: with ``selected`` optional cards, each one chosen
        replaces a matching card of the same deck ("Adding More Paths to Your Deck", way 2), so as many as without.
        Counted once per ruleset: a ruleset's module (its cards and options) never changes."""
        sizes = self.__dict__.setdefault("_deck_sizes", {})
        found = sizes.get((side, level))
        if found is None:
            if self.module.options.get("optional_cards", "none") == "selected":
                found = sum(1 for c in self.module.cards.values() if c["side"] == side and c["commitment"] == level and not c.get("optional"))
            else:
                found = len(self.deck(side, level))
            sizes[(side, level)] = found
        return found

    def hand_size(self) -> int:
        return int(self.module.options.get("hand_size", 7))

    def _deal(self, state: State) -> None:
        """4.3: the Mobilization decks shuffled, a hand dealt to each side."""
        for side in self.module.sides:
            size = self.deck_size(side, COMMITMENT[0])
            hand = min(self.hand_size(), size)
            state.cards[side] = Piles(hand=hand, draw=size - hand, decks=[COMMITMENT[0]])

    def _unknown(self, state: State) -> None:
        """Piles for a state that kept none: the decks its commitment levels give, its removed cards, no counts."""
        removed = state.status.get("removed_cards", ())
        for side in self.module.sides:
            level = state.status.get("commitment", {}).get(side, COMMITMENT[0])
            decks = list(COMMITMENT[: COMMITMENT.index(level) + 1]) if level in COMMITMENT else [COMMITMENT[0]]
            mine = [c for c in removed if self.module.cards.get(c, {}).get("side") == side]
            state.cards[side] = Piles(decks=decks, removed=mine, known=False)

    @staticmethod
    def _game_start(state: State) -> bool:
        status = state.status
        return state.turn == 1 and not any(status.get(key) for key in ("round", "last_play", "events_played", "removed_cards"))

    # --- the sequence of play -----------------------------------------------------------------------
    def begin(self, state: State, turn) -> TurnContext:
        if not state.cards:
            if self._game_start(state) and turn.header.turn == 1:
                self._deal(state)
            else:
                self._unknown(state)
        ended = state.turn
        if turn.header.turn > ended:  # the turn the state stopped in is over: its draw, if not made yet
            for side in self.module.sides:
                if side in state.cards and state.cards[side].drawn < ended:
                    self._discard_combat_cards(state.cards[side])
                    self._draw(state, side, ended)
        return super().begin(state, turn)  # type: ignore[misc]

    def check_phase(self, action, state: State, ctx: TurnContext) -> list:
        before = pog(ctx).get("phase")
        found = super().check_phase(action, state, ctx)  # type: ignore[misc]
        if action.name == "draw" and before != "draw":
            for piles in state.cards.values():  # 16.1.3: the played combat cards are discarded first
                self._discard_combat_cards(piles)
        elif before == "draw" and action.name != "draw":
            self._draw_all(state)
        return found

    def finish(self, state: State, ctx: TurnContext) -> list:
        found = super().finish(state, ctx)  # type: ignore[misc]
        if pog(ctx).get("phase") == "draw":  # the file ends with the Draw phase: the draw is made
            self._draw_all(state)
        return found

    def _draw_all(self, state: State) -> None:
        for side, piles in state.cards.items():
            if piles.drawn < state.turn:
                self._draw(state, side, state.turn)

    @staticmethod
    def _discard_combat_cards(piles: Piles) -> None:
        for entry in list(piles.in_play):
            piles.leave_play(entry["card"])

    def _draw(self, state: State, side: str, turn: int) -> None:
        """6.0 G: new decks join (16.1), then the side draws to its hand size, reshuffling as needed."""
        piles = state.cards[side]
        level = state.status.get("commitment", {}).get(side, COMMITMENT[0])
        for deck in COMMITMENT[: COMMITMENT.index(level) + 1] if level in COMMITMENT else ():
            if deck not in piles.decks:
                piles.add_deck(deck, self.deck_size(side, deck))
        piles.draw_to(self.hand_size())
        piles.played.clear()
        piles.drawn = turn

    # --- a card out of reach ------------------------------------------------------------------------
    def out_of_reach(self, card_id: str, side: str, state: State, action, reported: list) -> list:
        """Why ``card_id`` cannot be in ``side``'s hand, with the rule (none if it may be there); a rule already
        in ``reported`` for this action is not given again."""
        piles = state.cards.get(side)
        card = self.module.cards[card_id]
        if piles is None or card["side"] != side:
            return []
        name = f"{card_id} {card['name']}"
        if card.get("optional") and self.module.options.get("optional_cards", "none") == "none":
            if "optional_cards" not in state.options:  # the module's default, not the game's own choice: a reminder
                return [warning("2.3", f"{name} is one of the optional cards (#56-65), not part of the basic game (LR2022 2.3): say in the game's files whether it uses them (options optional_cards all or selected); by default it does not", action)]
            return [illegal("2.3", f"{name} is one of the optional cards (#56-65), which this game does not use (options: optional_cards none; LR2022 2.3)", action)]
        if card["commitment"] not in piles.decks:
            if any(v.rule == "16.1" for v in reported):
                return []
            return [illegal("16.1", f"{name} is a {card['commitment'].replace('_', ' ')} card, not yet in the {side.upper()}'s deck: it joins the draw pile when the commitment rises and is drawn from the next Draw phase (16.1.3-16.1.4)", action)]
        where = piles.whereabouts(card_id)
        if where == REMOVED:
            return [] if any(v.rule == "9.5.1.2" for v in reported) else [illegal("9.5.1.2", f"{name} was removed from the game", action)]
        if where == IN_PLAY:
            return [illegal("9.5.4.2", f"{name} lies face up in play (kept after a won combat), not in the {side.upper()}'s hand", action)]
        if where == DISCARD:
            played = piles.played_entry(card_id)
            if played is not None:
                when = f"round {played['round']}, " if "round" in played else ""
                return [illegal("9.1.3", f"{name} was already played this turn ({when}as {played['use']}) and lies in the discard pile; a card is played once, then discarded", action)]
            return [illegal("6.0", f"{name} is in the {side.upper()}'s discard pile; discards return only when the draw pile runs out in a Draw phase (6.0 G), and it has not since it was played", action)]
        if piles.known and piles.hand <= 0:
            return [warning("6.0", f"the {side.upper()}'s hand should hold no card by the piles' count ({name} is played)", action)]
        return []

    # --- card plays ---------------------------------------------------------------------------------
    def check_card(self, action, state: State, ctx: TurnContext) -> list:
        if action.use == "discard":
            return self._check_discard(action, state, ctx)
        found = super().check_card(action, state, ctx)  # type: ignore[misc]
        if action.card is None:
            return found
        return found + self.out_of_reach(action.card, self._player(action, ctx), state, action, found)

    def _player(self, action, ctx: TurnContext) -> str:
        current = pog(ctx).get("round")
        return action.side or (current.side if current is not None else ctx.active_side)

    def _check_discard(self, action, state: State, ctx: TurnContext) -> list:
        """9.5.4.6: combat cards (and, under 9.5.2.5's lock, Italy and Romania) discarded before the draw."""
        if action.card is None:
            return [illegal("9.5.4.6", "a discard names the card", action)]
        card = self.module.cards[action.card]
        side = action.side or card["side"]  # only its owner holds a card
        name = f"{action.card} {card['name']}"
        found = []
        if pog(ctx).get("phase") != "draw":
            found.append(illegal("9.5.4.6", f"cards are discarded from the hand only in the Draw phase, before drawing ({name})", action))
        locked = action.card in ENTRY_CARDS_UNDER_THE_LOCK and self._italy_romania_lock(state)  # type: ignore[attr-defined]
        if not card.get("combat_card") and not locked:
            found.append(illegal("9.5.4.6", f"{name} is not a combat card: only combat cards may be discarded (and Italy and Romania under 9.5.2.5)", action))
        if card["side"] != side:
            found.append(illegal("9.1.2", f"{name} is a {card['side'].upper()} card; the {side.upper()} cannot discard it", action))
        return found + self.out_of_reach(action.card, side, state, action, found)

    def after_card(self, action, state: State, ctx: TurnContext) -> list:
        found = super().after_card(action, state, ctx)  # type: ignore[misc]
        if action.card is None:
            return found
        card = self.module.cards[action.card]
        piles = state.cards.get(card["side"])
        if piles is None:
            return found
        current = pog(ctx).get("round")
        record = {"round": current.number} if current is not None and action.use != "discard" else {}
        removed = action.use == "event" and card.get("removed_after_event")
        piles.play(action.card, action.use, REMOVED if removed else DISCARD, **record)
        return found

    # --- combat cards -------------------------------------------------------------------------------
    def check_attack(self, action, state: State, ctx: TurnContext) -> list:
        found = super().check_attack(action, state, ctx)  # type: ignore[misc]
        current = pog(ctx).get("round")
        number = current.number if current is not None else None
        for card_id in action.cards:
            card = self.module.cards.get(card_id)
            piles = state.cards.get(card["side"]) if card else None
            if piles is None:
                continue
            kept = piles.in_play_entry(card_id)
            if kept is None:
                found += self.out_of_reach(card_id, card["side"], state, action, found)
            elif number is not None and kept.get("round") == number:
                found.append(illegal("9.5.4.4", f"{card_id} {card['name']} was already used in a combat of action round {number}; a combat card is used at most once an action round", action))
        return found

    def after_attack(self, action, state: State, ctx: TurnContext) -> list:
        found = super().after_attack(action, state, ctx)  # type: ignore[misc]
        if not action.cards:
            return found
        current = pog(ctx).get("round")
        record = {"round": current.number} if current is not None else {}
        attacker = state.units[action.attackers[0]].side if action.attackers else (current.side if current else ctx.active_side)
        losses = action.result.split("/")
        suffered = (int(losses[0]), int(losses[1])) if len(losses) == 2 and all(x.isdigit() for x in losses) else (0, 0)
        for card_id in action.cards:
            card = self.module.cards.get(card_id)
            piles = state.cards.get(card["side"]) if card else None
            if piles is None:
                continue
            mine, theirs = suffered if card["side"] == attacker else suffered[::-1]  # loss numbers suffered, inflicted
            if piles.in_play_entry(card_id) is None:  # from the hand
                piles.hand = max(0, piles.hand - 1)
                piles.played.append({"card": card_id, "use": "combat", **record})
                if card.get("war_status"):  # 9.5.1.3: a combat card is an event; played, it adds its war status
                    status = state.status
                    status.setdefault("war_status", {})[card["side"]] = status.get("war_status", {}).get(card["side"], 0) + card["war_status"]
                    status["combined_war_status"] = status.get("combined_war_status", 0) + card["war_status"]
            if card.get("removed_after_event"):
                piles.put(card_id, REMOVED)
            elif card_id in ONE_COMBAT_A_TURN:
                piles.put(card_id, DISCARD)
            elif card_id == THEY_SHALL_NOT_PASS:  # 12.2.11's exception: discarded only when the Allies lose
                piles.put(card_id, DISCARD if theirs < mine else IN_PLAY, **record)
            else:  # 12.2.11: the winner keeps its cards, the loser discards them (a tie is lost by both)
                piles.put(card_id, IN_PLAY if theirs > mine else DISCARD, **record)
        return found
