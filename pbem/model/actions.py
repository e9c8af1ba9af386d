"""Actions: one thing a player did, as plain data, each remembering where in the log it came from.

Unit ids are strings; locations are map indices (resolved when the turn is loaded, so an unknown hex is an
input error, not a rules violation). Odds, results and rolls are what the player *claims*.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from typing import Any

from pbem.model.errors import Source


# Every action shares the one ``__eq__`` and ``__repr__`` that Action defines, instead of a pair generated for
# each kind: compiling those pairs cost ~4% of a ``pbem check`` (measured in instructions).
action = dataclass(slots=True, kw_only=True, eq=False, repr=False)


@action
class Action:
    """One thing a player did: its place in the turn (``index``), where it was written, and the player's note."""

    index: int
    source: Source
    note: str | None = None

    kind = "action"

    def __eq__(self, other: object) -> bool:
        """Equal: the same kind of action with equal fields (what a generated ``__eq__`` compares)."""
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _field_names(type(self)))

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value: unhashable, as a dataclass with eq is

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in _field_names(type(self)))
        return f"{type(self).__qualname__}({values})"

    def named_units(self) -> list[str]:
        """Every unit id this action names, in any role (a replacement names both the old and the new unit)."""
        names = _UNIT_FIELDS_OF.get(type(self))
        if names is None:
            names = _UNIT_FIELDS_OF[type(self)] = tuple(spec.name for spec in fields(self) if spec.name in _UNIT_FIELDS)
        found: list[str] = []
        for name in names:
            value = getattr(self, name)
            if not value:
                continue
            if isinstance(value, str):
                found.append(value)
            elif name == "replacements":
                for old, new in value.items():
                    found += [old, new]
            else:
                found.extend(value)
        return found


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS_OF.get(cls)
    if names is None:
        names = _FIELDS_OF[cls] = tuple(spec.name for spec in fields(cls))
    return names


_KIND = re.compile(r"(?:an?|any)\s+(\S.*)", re.IGNORECASE)


def counter_kind(text: str) -> str | None:
    """The kind in ``a FR corps`` (``FR corps``): a counter named by its kind, which the module picks as a player
    picks a counter; None for a counter's own name.

    >>> counter_kind("a FR corps"), counter_kind("An AH Corps"), counter_kind("FR-CORPS-01")
    ('FR corps', 'AH Corps', None)
    """
    found = _KIND.fullmatch(text.strip())
    return " ".join(found.group(1).split()) if found else None


_FIELDS_OF: dict[type, tuple[str, ...]] = {}
_UNIT_FIELDS_OF: dict[type, tuple[str, ...]] = {}
_UNIT_FIELDS = frozenset({
    "units", "unit", "attackers", "defenders", "losses_attacker", "losses_defender", "eliminated", "advance",
    "retreats", "spotter", "replacements", "defender_advance", "negated",
})  # fmt: skip


@action
class Phase(Action):
    """Start of a phase, e.g. ``movement``; ``side`` defaults from the turn."""

    name: str
    side: str | None = None
    round: int | None = None  # action round inside the phase (card-driven games)
    kind = "phase"


@action
class Move(Action):
    """Units moving together along ``path`` (which starts where they stand)."""

    units: tuple[str, ...]
    path: tuple[int, ...]
    by: str = "land"  # land | rail | air | sea | strategic
    declared: frozenset[str] = frozenset()  # e.g. {"double"}: named by the module
    kind = "move"

    def named_units(self) -> list[str]:
        # The commonest action, asked of every move before a replay: its one field of units, directly.
        return [self.units] if isinstance(self.units, str) else list(self.units)


@action
class Combat(Action):
    """An attack in a combat phase, or an overrun/assault during movement, and what came of it."""

    attackers: tuple[str, ...]
    target: int
    roll: int
    result: str | None = None  # None: not written; the tables' result for the roll is taken (engine.replay)
    odds: str | None = None  # claimed odds before column shifts
    column: str | None = None  # claimed final column after shifts
    defenders: tuple[str, ...] | None = None  # if the player lists them
    losses_attacker: tuple[str, ...] = ()  # one entry per step lost
    losses_defender: tuple[str, ...] = ()
    eliminated: tuple[str, ...] = ()  # units removed whole (an E result)
    retreats: dict[str, tuple[int, ...]] = field(default_factory=dict)
    advance: tuple[str, ...] = ()
    defender_advance: dict[str, tuple[int, ...]] = field(default_factory=dict)  # defending units moving after combat
    declared: frozenset[str] = frozenset()  # optional declarations, e.g. {"mass_attack"}
    support: dict[str, int] = field(default_factory=dict)  # e.g. {"air": 15, "nuclear": 25}
    shifts: dict[str, int] | None = None  # claimed column shifts by id, + toward the attacker
    defender_roll: int | None = None  # where both sides roll (fire tables)
    flank_pin: int | None = None  # a flank attempt: the pinning location and its roll
    flank_roll: int | None = None
    flank_drm: int | None = None  # the modifier the player claims for the flank roll
    cards: tuple[str, ...] = ()  # cards played into the combat, in play order
    replacements: dict[str, str] = field(default_factory=dict)  # eliminated unit -> unit taking its place
    # eliminated unit -> the kind of counter taking its place ("FR corps"), for the module to pick (Ruleset.resolve)
    replacement_kinds: dict[str, str] = field(default_factory=dict)
    # Advancing units that go beyond the target: unit -> the spaces entered, the target first (its keys are also
    # in ``advance``; a unit advancing only into the target needs no entry).
    advance_paths: dict[str, tuple[int, ...]] = field(default_factory=dict)
    negated: tuple[str, ...] = ()  # step losses listed in the losses and then cancelled (a card's effect), one a step
    kind = "attack"


class Overrun(Combat):
    """An attack made during movement (an overrun or assault): a Combat's fields, its own kind (and no
    ``__init__`` compiled again for the same 24 fields)."""

    __slots__ = ()
    kind = "overrun"


@action
class Fire(Action):
    """Fire at a distance (ranged, indirect, anti-tank): firers, target hex, spotter, roll, result, losses."""

    units: tuple[str, ...]
    target: int
    rolls: tuple[int, ...]
    result: str | None = None
    spotter: str | None = None
    losses_attacker: tuple[str, ...] = ()
    losses_defender: tuple[str, ...] = ()
    eliminated: tuple[str, ...] = ()
    declared: frozenset[str] = frozenset()
    kind = "fire"


@action
class Special(Action):
    """A special order the module defines (dig in, bonfire, recovery, night raid...)."""

    order: str
    units: tuple[str, ...] = ()
    at: int | None = None
    rolls: tuple[int, ...] = ()
    result: str | None = None
    kind = "special"


@action
class Eliminate(Action):
    """Units removed from play for a reason other than a combat result (over-stacking, supply…)."""

    units: tuple[str, ...]
    reason: str = ""
    kind = "eliminate"


@action
class Remove(Action):
    """Units taken off the map into one of the module's boxes (e.g. a garrison), not eliminated. ``origin`` is the
    location an SR into the box names before it (``[space, box]``), None when the form names none."""

    units: tuple[str, ...]
    to: str
    origin: int | None = None
    kind = "remove"


@action
class Loss(Action):
    """One step lost by a unit outside a combat result (pacification, attrition…)."""

    unit: str
    reason: str = ""
    kind = "loss"


@action
class Reinforce(Action):
    """Units entering the map at a location."""

    units: tuple[str, ...]
    at: int
    kind = "reinforce"


@action
class Replace(Action):
    """A reduced unit regaining a step; or, with ``at`` or ``box``, an eliminated unit rebuilt there on its
    weakest face."""

    unit: str
    at: int | None = None  # the map location a rebuilt unit is placed in
    box: str | None = None  # or the module's box it goes into
    kind = "replace"


@action
class Control(Action):
    """Locations changing hands without a unit entering them (supply, an event), each with the side it passes to.
    Where a game keeps control is its own: the module's rules record it."""

    spaces: dict[int, str]
    kind = "control"


@action
class Roll(Action):
    """A die roll outside combat: its purpose, dice, the values rolled and the result claimed."""

    purpose: str
    dice: str
    values: tuple[int, ...]
    side: str | None = None
    result: str | None = None
    modifiers: dict[str, int] = field(default_factory=dict)
    kind = "roll"


@action
class CardPlay(Action):
    """A card played (or an action taken without one: ``card`` is None), and how it is used."""

    card: str | None
    use: str
    side: str | None = None
    kind = "card"


@action
class Activate(Action):
    """Locations activated for an operation, each for a purpose (``move``, ``attack``), and the cost claimed."""

    spaces: dict[int, str]
    cost: int | None = None
    kind = "activate"


@action
class Comment(Action):
    """Words for the opponent, kept and shown, never judged."""

    text: str
    kind = "comment"


@dataclass
class TurnHeader:
    """What a turn file says about itself: module, scenario, turn, side, and where its start state comes from."""

    module: str
    scenario: str | None
    turn: int
    side: str
    start_scenario: str | None = None
    start_state: str | None = None  # path, relative to the turn file
    start_document: Any = None  # a start state the turn file carries itself (a VASSAL log's opening position)
    start_at: dict[str, Any] | None = None  # ``from``: where in the sequence of play the file starts
    end_at: dict[str, Any] | None = None  # ``to``: where it ends
    writer: str | None = None  # the side that wrote the file, when the header says
    options: dict[str, Any] = field(default_factory=dict)  # module options the game chooses from this turn on
    dice: "DiceClaim | None" = None  # the dice record the turn's rolls come from, when the header names one


@dataclass
class DiceClaim:
    """The dice record a turn's rolls come from (``pbem.model.fairdice.Record``), and the draws it uses in order
    (``(seq, roll)``, roll None for every roll of a request), or None: the record's draws for the turn."""

    name: str  # as the header wrote it
    record: Any  # the Record read, or None when the file could not be found
    problems: list[str] = field(default_factory=list)  # messages of the record the protocol refused
    draws: list[tuple[int, int | None]] | None = None


@dataclass
class Turn:
    """A turn file: header plus actions, each action with its stable index and source."""

    file: str
    header: TurnHeader
    actions: list[Action]
    notices: list[Any] = field(default_factory=list)  # violations found reading the file (a re-roll after an undo)
    origin: str | None = None  # a VASSAL file's module version, and how its pieces were read
