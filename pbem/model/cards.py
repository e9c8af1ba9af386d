"""Card piles: what public information shows of each side's cards in a card-driven game.

Per side: how many cards are in the hand and in the draw pile (which ones is secret), the discard pile and the
cards removed from the game (face up, known), the cards in play (played and kept face up until they leave, such
as combat cards a player won with), the cards played this turn (which, how), and the decks shuffled in so far.
A game's own deck rules (its module) say when cards move: deals, draws, reshuffles, new decks.

A card can be in the hand only if it is in a deck shuffled in, and neither discarded (since the last reshuffle),
removed, in play, nor played this turn: :meth:`Piles.whereabouts` says where a card is known to be instead.

When a state does not say how many cards each pile holds (``known`` false: a state written by hand or by another
program), the counts are not judged and every draw is taken to have reshuffled the discards: the piles then never
call a card out of reach that could be in the hand.

Kept in a state's ``cards`` (``schemas/state.schema.json#/$defs/piles``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

DISCARD, REMOVED, IN_PLAY = "discard", "removed", "in_play"
# What a state's piles may hold (state.schema.json): a written state always reads back, whatever a hostile turn did.
MAX_COUNT = 100_000
MAX_PLAYED = 20_000


@dataclass
class Piles:
    """One side's cards as both players see them."""

    hand: int = 0  # cards in the hand: how many (their faces are secret)
    draw: int = 0  # cards in the draw pile: how many (order and faces secret)
    decks: list[str] = field(default_factory=list)  # the decks shuffled in so far, in order
    discard: list[str] = field(default_factory=list)  # face up, oldest first
    removed: list[str] = field(default_factory=list)  # out of the game
    in_play: list[dict[str, Any]] = field(default_factory=list)  # {"card", "round"?: the last action round it was used in}
    played: list[dict[str, Any]] = field(default_factory=list)  # this turn: {"card", "use", "round"?}
    known: bool = True  # False: the counts are unknown (see the module docstring)
    shuffle: bool = False  # a deck joined the draw pile: draw and discard piles are shuffled together at the next draw
    drawn: int = 0  # the last game-turn whose draw has been made

    # --- where a card is ---------------------------------------------------------------------------
    def in_play_entry(self, card: str) -> dict[str, Any] | None:
        return next((entry for entry in self.in_play if entry["card"] == card), None)

    def played_entry(self, card: str) -> dict[str, Any] | None:
        return next((entry for entry in reversed(self.played) if entry["card"] == card), None)

    def whereabouts(self, card: str) -> str | None:
        """Where ``card`` is known to be instead of the hand or the draw pile: ``removed``, ``in_play``,
        ``discard``; None when it may be in the hand."""
        if card in self.removed:
            return REMOVED
        if self.in_play_entry(card) is not None:
            return IN_PLAY
        if card in self.discard:
            return DISCARD
        return None

    def unseen(self, deck: Iterable[str]) -> list[str]:
        """The cards of ``deck`` (every card of the decks shuffled in) that may be in the hand or the draw pile."""
        return [card for card in deck if self.whereabouts(card) is None]

    # --- moves -------------------------------------------------------------------------------------
    def play(self, card: str, use: str, to: str, **record: Any) -> None:
        """``card`` leaves the hand (played as ``use``) for the discard pile, the removed cards or play."""
        self.hand = max(0, self.hand - 1)
        self.played.append({"card": card, "use": use, **record})
        self.put(card, to, **record)

    def put(self, card: str, to: str, **record: Any) -> None:
        """``card`` goes to a pile (out of any other face-up pile it was in)."""
        self.take(card)
        if to == DISCARD:
            self.discard.append(card)
        elif to == REMOVED:
            if card not in self.removed:
                self.removed.append(card)
        elif to == IN_PLAY:
            self.in_play.append({"card": card, **({"round": record["round"]} if "round" in record else {})})
        else:
            raise ValueError(to)

    def take(self, card: str) -> None:
        """``card`` out of every face-up pile."""
        if card in self.discard:
            self.discard.remove(card)
        self.in_play = [entry for entry in self.in_play if entry["card"] != card]

    def leave_play(self, card: str, to: str = DISCARD) -> None:
        if self.in_play_entry(card) is not None:
            self.put(card, to)

    def add_deck(self, name: str, size: int) -> None:
        """A deck of ``size`` cards joins the draw pile; the piles are shuffled together at the next draw."""
        self.decks.append(name)
        self.draw += size
        self.shuffle = True

    def reshuffle(self) -> None:
        """The discard pile shuffled into the draw pile."""
        self.draw += len(self.discard)
        self.discard.clear()
        self.shuffle = False

    def draw_to(self, size: int) -> tuple[int, bool]:
        """Draw until the hand holds ``size`` cards, reshuffling the discards when the draw pile runs out (and
        first, if a deck joined). Returns (cards drawn, whether the discards were reshuffled)."""
        reshuffled = False
        if self.shuffle or not self.known:
            self.reshuffle()  # unknown counts: the discards may have come back, so they are taken to have
            reshuffled = True
        need = max(0, size - self.hand)
        drawn = min(need, self.draw)
        if drawn < need and self.discard:
            self.reshuffle()
            reshuffled = True
            drawn = min(need, self.draw)
        self.draw -= drawn
        self.hand += drawn
        return drawn, reshuffled

    # --- JSON --------------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hand": min(self.hand, MAX_COUNT), "draw": min(self.draw, MAX_COUNT), "decks": list(self.decks),
                               "discard": list(self.discard), "removed": list(self.removed), "in_play": [dict(e) for e in self.in_play],
                               "played": [dict(e) for e in self.played[-MAX_PLAYED:]]}  # the last ones, should a turn hold more
        if not self.known:
            out["known"] = False
        if self.shuffle:
            out["shuffle"] = True
        if self.drawn:
            out["drawn"] = self.drawn
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Piles":
        return cls(
            hand=data.get("hand", 0), draw=data.get("draw", 0), decks=list(data.get("decks", ())),
            discard=list(data.get("discard", ())), removed=list(data.get("removed", ())),
            in_play=[dict(e) for e in data.get("in_play", ())], played=[dict(e) for e in data.get("played", ())],
            known=data.get("known", True), shuffle=data.get("shuffle", False), drawn=data.get("drawn", 0),
        )


def piles_to_json(piles: dict[str, Piles]) -> dict[str, Any]:
    return {side: side_piles.to_json() for side, side_piles in piles.items()}


def piles_from_json(data: dict[str, Any]) -> dict[str, Piles]:
    return {side: Piles.from_json(entry) for side, entry in data.items()}


def piles_lines(side: str, piles: dict[str, Any]) -> list[str]:
    """A side's card piles as a player reads them: the counts, then the face-up piles by card."""
    def cards(ids: list[str]) -> str:
        return ", ".join(ids) if ids else "none"

    counts = "counts unknown" if piles.get("known") is False else f"hand {piles['hand']}, draw pile {piles['draw']}"
    lines = [f"[cards {side}] {counts}; decks {', '.join(piles.get('decks', ())) or 'none'}"]
    played = [f"{p['card']} as {p['use']}" + (f" (round {p['round']})" if "round" in p else "") for p in piles.get("played", ())]
    lines.append(f"  played this turn: {', '.join(played) or 'none'}")
    lines.append(f"  in play: {cards([e['card'] for e in piles.get('in_play', ())])}")
    lines.append(f"  discard: {cards(piles.get('discard', []))}")
    lines.append(f"  removed: {cards(piles.get('removed', []))}")
    return lines
