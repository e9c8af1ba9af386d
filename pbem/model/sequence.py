"""The sequence of play as data: a game-turn's phases, player-turns and rounds, and who acts in each.

A module declares it in ``module.json`` under ``sequence``::

    {"rule": "4.2", "game_turn": [
        {"phase": "political", "by": "both"},
        {"player_turns": [{"phase": "movement", "by": "phasing"}, {"phase": "reaction", "by": "other"}]}]}

``player_turns`` repeats its phases once for each side, in the order of play (the scenario's first side
first); ``by`` is ``phasing`` (the side whose player-turn it is), ``other`` (the opponent, as in a reaction
phase) or ``both``. A phase with ``rounds`` and ``"by": "each"`` is that many rounds, each side acting once
per round in the order of play (action rounds of a card-driven game).

A file is a *slice* of the sequence: it starts at one :class:`Place` and ends at a later one, and it names
its writer. The place of a file is known from its header (``from``, ``to``, ``writer``), or worked out from
its phase markers; it is never guessed from a file name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

BOTH = "both"


@dataclass(frozen=True)
class Step:
    """One step of a game-turn: a phase (or one round of it), whose player-turn it is and who acts in it."""

    phase: str
    actor: str  # a side, or "both"
    owner: str | None  # the side whose player-turn it is; None for a phase of the whole game-turn
    round: int | None = None

    def describe(self) -> str:
        who = "both sides'" if self.actor == BOTH else f"{self.actor}"
        name = f"{who} {self.phase.replace('_', ' ')} phase"
        if self.round is not None:
            name = f"{self.actor} {self.phase.replace('_', ' ')} round {self.round}"
        if self.owner is not None and self.owner != self.actor:
            name += f" ({self.owner} player-turn)"
        return name


@dataclass(frozen=True, order=True)
class Place:
    """A place in the game: the game-turn and the step's index in it (comparable: earlier < later)."""

    turn: int
    index: int


@dataclass(frozen=True)
class Slice:
    """Where a file starts and ends in the sequence of play, and who wrote it (``None``: not said)."""

    start: Place
    end: Place
    writer: str | None
    declared: bool  # the header gave ``from``; else worked out from the file's phase markers


class SequenceError(ValueError):
    """A position a file names that the sequence of play does not have."""


class Sequence:
    """A module's sequence of play for a given order of sides."""

    def __init__(self, data: dict[str, Any], sides: tuple[str, ...], first: str | None = None):
        self.rule: str | None = data.get("rule")
        order = list(sides)
        if first in order:
            k = order.index(first)
            order = order[k:] + order[:k]
        self.sides = tuple(order)
        self.steps: list[Step] = []
        for item in data["game_turn"]:
            if "player_turns" in item:
                for side in self.sides:
                    for phase in item["player_turns"]:
                        self.steps.append(Step(phase["phase"], self._actor(phase.get("by", "phasing"), side), side))
            elif "rounds" in item:
                for number in range(1, item["rounds"] + 1):
                    for side in self.sides:
                        self.steps.append(Step(item["phase"], side, side, number))
            else:
                self.steps.append(Step(item["phase"], BOTH if item.get("by", BOTH) == BOTH else item["by"], None))

    def _actor(self, by: str, side: str) -> str:
        if by == "phasing":
            return side
        if by == "other":
            return next(s for s in self.sides if s != side)
        return by

    # --- places ----------------------------------------------------------------------------------------
    def step(self, place: Place) -> Step:
        return self.steps[place.index]

    def next(self, place: Place) -> Place:
        if place.index + 1 < len(self.steps):
            return Place(place.turn, place.index + 1)
        return Place(place.turn + 1, 0)

    def previous(self, place: Place) -> Place:
        if place.index > 0:
            return Place(place.turn, place.index - 1)
        return Place(place.turn - 1, len(self.steps) - 1)

    def between(self, after: Place, before: Place, limit: int = 1000) -> list[Place]:
        """The places strictly between ``after`` and ``before`` (at most ``limit``)."""
        found = []
        here = self.next(after)
        while here < before and len(found) < limit:
            found.append(here)
            here = self.next(here)
        return found

    def describe(self, place: Place) -> str:
        return f"game-turn {place.turn}, {self.step(place).describe()}"

    def start_of_player_turn(self, turn: int, side: str) -> Place:
        """The first place of ``side``'s player-turn (with the game-turn's own phases before it, for the first side)."""
        if side == self.sides[0]:
            return Place(turn, 0)
        index = next((k for k, s in enumerate(self.steps) if s.owner == side), 0)
        return Place(turn, index)

    def find(self, phase: str, *, turn: int, actor: str | None = None, owner: str | None = None, round: int | None = None,
             after: Place | None = None) -> Place | None:
        """The first place of ``phase`` acted by ``actor`` (or in ``owner``'s player-turn; round ``round``) in
        game-turn ``turn``, or after ``after`` (the next game-turn's if this one has none left)."""
        begin = after if after is not None else Place(turn, -1)
        for turn_number in (begin.turn, begin.turn + 1):
            for k, step in enumerate(self.steps):
                if turn_number == begin.turn and k <= begin.index:
                    continue
                if step.phase != phase:
                    continue
                if actor is not None and actor != step.actor and step.actor != BOTH:
                    continue
                if owner is not None and step.owner is not None and owner != step.owner:
                    continue
                if round is not None and step.round != round:
                    continue
                return Place(turn_number, k)
            if after is None:
                break
        return None

    def resolve(self, position: dict[str, Any], *, turn: int, owner: str | None) -> Place:
        """A header's ``from``/``to`` object as a place. Its ``side`` is the side acting (as in a phase marker);
        without it, the phase of ``owner``'s player-turn; its game-turn defaults to ``turn``."""
        phase = position["phase"]
        number = position.get("turn", turn)
        actor = position.get("side")
        place = self.find(phase, turn=number, actor=actor, owner=None if actor else owner, round=position.get("round"))
        if place is None and actor is None:
            place = self.find(phase, turn=number, round=position.get("round"))
        if place is None:
            names = ", ".join(dict.fromkeys(s.phase for s in self.steps))
            who = f" acted by {actor}" if actor else ""
            number_text = f" round {position['round']}" if "round" in position else ""
            raise SequenceError(f"the sequence of play has no {phase!r} phase{number_text}{who} (phases: {names})")
        return place

    def missing_writers(self, after: Place, before: Place, writer: str | None) -> list[Place]:
        """Places between two files that someone other than ``writer`` acts in: a file is missing there.

        A player may leave out a phase of their own player-turn with nothing in it, in the player-turn the
        next file starts in, and a phase of both sides (the module's rules say what it must hold); a phase the other
        side acts in, or a player-turn before, cannot be left out silently: its file is missing.
        """
        own = self.step(before).owner if 0 <= before.index < len(self.steps) else None

        def may_be_left_out(p: Place) -> bool:
            step = self.step(p)
            if step.actor == BOTH:
                return True  # the module's rules judge what a phase of both sides must hold
            return step.actor == writer and step.owner == writer and p.turn == before.turn and own == writer

        return [p for p in self.between(after, before) if writer is None or not may_be_left_out(p)]


def slice_of(sequence: Sequence, header: dict[str, Any], phases: list[dict[str, Any]]) -> Slice:
    """Where a file starts and ends: its header's ``from`` and ``to``, else its phase markers.

    ``header`` is the turn file's header (``turn``, ``side``: the phasing side, optional ``from``, ``to``,
    ``writer``); ``phases`` are its phase markers in order (``{"phase", "side"?, "round"?}``, ``side`` the
    side acting). Raises :class:`SequenceError` for a place the sequence does not have.
    """
    turn, side = header["turn"], header.get("side")
    owner = side if side in sequence.sides else None
    writer = header.get("writer")
    declared = "from" in header
    opening = sequence.start_of_player_turn(turn, owner) if owner else Place(turn, 0)
    if declared:
        start = sequence.resolve(header["from"], turn=turn, owner=owner)
    elif phases:
        first = phases[0]
        start = sequence.find(first["phase"], turn=turn, actor=first.get("side"), round=first.get("round"), after=sequence.previous(opening))
        start = start or opening
    else:
        start = opening
    if "to" in header:
        to = header["to"]
        end = sequence.resolve(to, turn=to.get("turn", start.turn), owner=sequence.step(start).owner or owner)
        if end < start:
            end = sequence.find(to["phase"], turn=start.turn, actor=to.get("side"), round=to.get("round"), after=start) or end
    else:
        end = start
        markers = phases[1:] if phases and (not declared or _same(sequence, start, phases[0])) else phases
        for marker in markers:
            found = sequence.find(marker["phase"], turn=end.turn, actor=marker.get("side"), round=marker.get("round"), after=end)
            if found is not None:
                end = found
    if writer is None:
        actors = {sequence.step(p).actor for p in [start, *sequence.between(start, end), end] if p >= start}
        actors.discard(BOTH)
        writer = next(iter(actors)) if len(actors) == 1 else owner
    return Slice(start, max(start, end), writer, declared)


def _same(sequence: Sequence, place: Place, marker: dict[str, Any]) -> bool:
    step = sequence.step(place)
    return step.phase == marker["phase"] and marker.get("side") in (None, step.actor, step.owner) and marker.get("round") in (None, step.round)
