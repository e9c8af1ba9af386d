"""The game state: where every unit is, its step, supply and markers, plus whatever the game tracks.

A state is plain data in and out (``schemas/state.schema.json``). ``state.apply(action)`` carries out an
action as written, in place, whether or not it was legal: later actions are judged in the situation the
player actually created.
"""

from __future__ import annotations

import itertools
import json
import json.encoder
from dataclasses import dataclass, field
from typing import Any

from pbem.model import actions as act
from pbem.model import schemas
from pbem.model.cards import Piles, piles_from_json, piles_to_json
from pbem.model.jsonsource import JsonDocument, copy_json, load_json
from pbem.model.module import Module
from pbem.model.units import Step, UnitDef

OFF_MAP = -1
ELIMINATED = "eliminated"

_QUOTED: dict[str, str] = {}  # unit ids and places as JSON strings (see ``State.compact_json``)
_encode_string = json.encoder.encode_basestring  # what json.dumps(ensure_ascii=False) writes a string as
_OPENINGS: dict[str, str] = {}  # unit id -> ``{"id":"…","at":`` (see ``State.compact_json``)
_ENDS: dict[int, tuple[list[str], list[str]]] = {}  # id of a map's labels -> (the labels, each as ``"…"}``)
# ``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``: the same encoder, made once instead of per call
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))

_LAYOUTS = itertools.count(1)  # every state's layout number is new in the process (see ``State.layout``)
_JOURNAL = 256  # the changes of layout a state remembers (see ``State.changed_since``)


@dataclass(slots=True)
class UnitState:
    unit: UnitDef
    at: int = OFF_MAP  # map location, or OFF_MAP with ``box`` naming where the counter is
    box: str | None = None
    step: int = 0  # 0 = full strength (front face)
    supplied: bool = True
    side: str = ""
    markers: set[str] = field(default_factory=set)
    # A unit's own running numbers the module names (stamina, fatigue...): what the counter or a track beside it shows.
    tallies: dict[str, int] = field(default_factory=dict)
    facing: int | None = None  # the hexside a facing unit's front points to (0-5, as the map's directions); None: none

    @property
    def id(self) -> str:
        return self.unit.id

    @property
    def on_map(self) -> bool:
        return self.at != OFF_MAP

    @property
    def face(self) -> Step:
        steps = self.unit.type.steps
        step = self.step
        # ``steps[min(step, len(steps) - 1)]`` without the call to min (asked for every move checked)
        return steps[step] if step < len(steps) else steps[-1]


class State:
    """Units and game status of one moment of a game."""

    def __init__(self, module: Module, *, scenario: str | None, turn: int, side: str | None, phase: str | None):
        self.module = module
        self.scenario = scenario
        self.turn = turn
        self.side = side
        self.phase = phase
        self.first_side: str | None = None  # who moves first in each game-turn
        self.units: dict[str, UnitState] = {}
        self.stacks: dict[int, list[str]] = {}
        self.control: dict[str, str] = {}  # nationality -> side that controls its units
        self.status: dict[str, Any] = {}  # game-specific: political status, VP, pacified hexes…
        self.options: dict[str, Any] = {}  # the module options this game chose (module.json option_choices)
        self.cards: dict[str, Piles] = {}  # each side's card piles, as far as public information shows them
        # A number no other layout in this process has, renewed whenever a unit comes onto the map, leaves it or
        # moves on it: rules may keep what they derive from where units stand (whose units hold which spaces) under
        # it. Only ``place``/``remove`` change where units stand; a copy of a state shares the number until one moves.
        self.layout = next(_LAYOUTS)
        # The last changes of layout: (the layout number before, the locations whose stacks changed: one or two).
        self._journal: list[tuple[int, int, int]] = []

    # --- queries ------------------------------------------------------------------------------------
    def units_at(self, location: int) -> list[UnitState]:
        return [self.units[u] for u in self.stacks.get(location, ())]

    def side_at(self, location: int) -> str | None:
        ids = self.stacks.get(location)
        return self.units[ids[0]].side if ids else None

    def changed_since(self, layout: int) -> set[int] | None:
        """The locations whose stacks changed since this state had the layout number ``layout``, so that what a rule
        derived from where units stood then can be brought up to date; None when the state does not remember
        (another state's number, or too long ago). As ``layout``, it follows where units stand, not their sides."""
        if layout == self.layout:
            return set()
        found: set[int] = set()
        for before, location, other in reversed(self._journal):
            found.add(location)
            if other != OFF_MAP:
                found.add(other)
            if before == layout:
                return found
        return None

    def _changed(self, location: int, other: int = OFF_MAP) -> None:
        """A new layout number, and in the journal the locations (one or two) whose stacks changed."""
        journal = self._journal
        if len(journal) >= 2 * _JOURNAL:
            del journal[:-_JOURNAL]
        journal.append((self.layout, location, other))
        self.layout = next(_LAYOUTS)

    # --- changes ------------------------------------------------------------------------------------
    def place(self, unit_id: str, location: int) -> None:
        unit = self.units[unit_id]
        at = unit.at
        if at == location:
            return
        if at != OFF_MAP:  # as _lift, inline: a move places each of its units
            stack = self.stacks[at]
            stack.remove(unit_id)
            if not stack:
                del self.stacks[at]
        unit.at, unit.box = location, None
        stack = self.stacks.get(location)
        if stack is None:
            self.stacks[location] = [unit_id]
        else:
            stack.append(unit_id)
        self._changed(location, at)

    def remove(self, unit_id: str, box: str = ELIMINATED) -> None:
        unit = self.units[unit_id]
        self._lift(unit)
        unit.at, unit.box = OFF_MAP, box

    def lose_step(self, unit_id: str) -> None:
        unit = self.units[unit_id]
        steps = len(unit.unit.type.steps)
        unit.step += 1
        if unit.step >= steps:
            unit.step = steps - 1  # the counter leaves play on its last face
            self.remove(unit_id)

    def _lift(self, unit: UnitState) -> None:
        if unit.at != OFF_MAP:
            stack = self.stacks[unit.at]
            stack.remove(unit.id)
            if not stack:
                del self.stacks[unit.at]
            self._changed(unit.at)

    def apply(self, action: act.Action) -> None:
        """Carry out ``action`` as written."""
        kind = action.kind
        if kind == "move":
            destination = action.path[-1]  # type: ignore[attr-defined]
            for unit_id in action.units:  # type: ignore[attr-defined]
                self.place(unit_id, destination)
        elif kind in ("attack", "overrun", "fire"):
            self._apply_combat(action)  # type: ignore[arg-type]
        elif kind == "phase":
            self.phase = action.name  # type: ignore[attr-defined]
        elif kind == "eliminate":
            for unit_id in action.units:  # type: ignore[attr-defined]
                self.remove(unit_id)
        elif kind == "remove":
            for unit_id in action.units:  # type: ignore[attr-defined]
                self.remove(unit_id, action.to)  # type: ignore[attr-defined]
        elif kind == "loss":
            if self.units[action.unit].on_map:  # type: ignore[attr-defined]
                self.lose_step(action.unit)  # type: ignore[attr-defined]
        elif kind == "reinforce":
            for unit_id in action.units:  # type: ignore[attr-defined]
                self.place(unit_id, action.at)  # type: ignore[attr-defined]  (on the face it had off the map)
        elif kind == "replace":
            unit = self.units[action.unit]  # type: ignore[attr-defined]
            if action.at is not None or action.box is not None:  # type: ignore[attr-defined]
                self._rebuild(unit, action.at, action.box)  # type: ignore[attr-defined]
            else:
                unit.step = max(0, unit.step - 1)

    def _rebuild(self, unit: UnitState, at: int | None, box: str | None) -> None:
        """An eliminated unit comes back on its weakest face, on the map or into a box."""
        unit.step = len(unit.unit.type.steps) - 1
        if at is not None:
            self.place(unit.id, at)
        else:
            self.remove(unit.id, box or ELIMINATED)

    def _apply_combat(self, combat: act.Combat) -> None:
        replacements = getattr(combat, "replacements", {})
        for unit_id in combat.eliminated:
            if self.units[unit_id].on_map:
                where = self.units[unit_id].at
                self.remove(unit_id)
                if unit_id in replacements:
                    self.place(replacements[unit_id], where)
        losses = combat.losses_defender + combat.losses_attacker
        for unit_id in getattr(combat, "negated", ()):  # a step listed as lost, then cancelled: the last listing
            if unit_id in losses:
                last = len(losses) - 1 - losses[::-1].index(unit_id)
                losses = losses[:last] + losses[last + 1 :]
        for unit_id in losses:
            unit = self.units[unit_id]
            if unit.on_map:
                where = unit.at
                self.lose_step(unit_id)
                if not unit.on_map and unit_id in replacements:
                    self.place(replacements[unit_id], where)
        for unit_id, path in getattr(combat, "retreats", {}).items():
            if self.units[unit_id].on_map and path:
                self.place(unit_id, path[-1])
        paths = getattr(combat, "advance_paths", {})
        for unit_id in getattr(combat, "advance", ()):
            if self.units[unit_id].on_map:
                path = paths.get(unit_id)
                self.place(unit_id, path[-1] if path else combat.target)
        for unit_id, path in getattr(combat, "defender_advance", {}).items():
            if self.units[unit_id].on_map and path:
                self.place(unit_id, path[-1])

    # --- JSON ---------------------------------------------------------------------------------------
    def written_json(self) -> str:
        """The state as the text of a state file, proved to read back (see :func:`written_state_text`)."""
        return written_state_text(self.module, self.to_json())

    def to_json(self) -> dict[str, Any]:
        game_map = self.module.map
        units = []
        for unit in self.units.values():
            entry: dict[str, Any] = {"id": unit.id, "at": game_map.label(unit.at) if unit.on_map else unit.box}
            if unit.step:
                entry["step"] = unit.step
            if not unit.supplied:
                entry["supplied"] = False
            if unit.side != unit.unit.type.side:
                entry["side"] = unit.side
            if unit.markers:
                entry["markers"] = sorted(unit.markers)
            if unit.tallies:
                entry["tallies"] = dict(sorted(unit.tallies.items()))
            if unit.facing is not None:
                entry["facing"] = unit.facing
            units.append(entry)
        out: dict[str, Any] = {
            "module": self.module.id,
            "module_version": self.module.version,
            "scenario": self.scenario,
            "turn": self.turn,
        }
        if self.first_side is not None:
            out["first_side"] = self.first_side
        if self.side is not None:
            out["side"] = self.side
        if self.phase is not None:
            out["phase"] = self.phase
        if self.control:
            out["control"] = dict(sorted(self.control.items()))
        out["units"] = units
        if self.status:
            out["status"] = self.status
        if self.cards:
            out["cards"] = piles_to_json(self.cards)
        if self.module.option_choices:  # always, so a state never falls back to its scenario's choices
            out["options"] = dict(sorted(self.options.items()))
        return out

    def compact_json(self) -> str:
        """``json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False)``, byte for byte, in a fraction
        of the time: each unit's object is written as text, not built as a dict and then encoded (re-validation
        writes every turn's state of every game). Keep it in step with :meth:`to_json` (a test compares them)."""
        labels = self.module.map.labels
        ends = _label_ends(labels)
        units: list[str] = []
        append = units.append
        for unit in self.units.values():
            definition = unit.unit
            at = unit.at
            if at == OFF_MAP or unit.step or not unit.supplied or unit.markers or unit.tallies or unit.facing is not None or unit.side != definition.type.side:
                append(_unit_text(unit, labels))
                continue
            # The commonest unit (on the map at full strength, supplied, its own side's, nothing more to say):
            # its id and where it stands, from texts made once.
            opening = _OPENINGS.get(definition.id)
            if opening is None:
                opening = _opening(definition.id)
            append(opening + ends[at])
        data = self.to_json_without_units()
        tail = {key: data.pop(key) for key in ("status", "cards", "options") if key in data}
        head = _COMPACT.encode(data)
        text = head[:-1] + ("," if data else "") + '"units":[' + ",".join(units) + "]"
        return text + ("," + _COMPACT.encode(tail)[1:] if tail else "}")

    def to_json_without_units(self) -> dict[str, Any]:
        """What :meth:`to_json` gives, but for ``units``."""
        out: dict[str, Any] = {
            "module": self.module.id,
            "module_version": self.module.version,
            "scenario": self.scenario,
            "turn": self.turn,
        }
        if self.first_side is not None:
            out["first_side"] = self.first_side
        if self.side is not None:
            out["side"] = self.side
        if self.phase is not None:
            out["phase"] = self.phase
        if self.control:
            out["control"] = dict(sorted(self.control.items()))
        if self.status:
            out["status"] = self.status
        if self.cards:
            out["cards"] = piles_to_json(self.cards)
        if self.module.option_choices:  # always, so a state never falls back to its scenario's choices
            out["options"] = dict(sorted(self.options.items()))
        return out

    @classmethod
    def from_json(cls, module: Module, document: JsonDocument, *, owned: bool = False) -> "State":
        """A state from a document checked against ``state.schema.json`` (a scenario or a saved state).

        ``owned``: the caller parsed the document for this read alone and drops it after, so the state takes its
        ``status`` as it stands instead of a copy (a document a turn header holds, or any other kept one, is copied).
        """
        data = document.data
        state = cls(
            module,
            scenario=data.get("scenario") or data.get("id"),
            turn=data.get("turn", 1),
            side=data.get("side"),
            phase=data.get("phase"),
        )
        state.first_side = data.get("first_side")
        state.control = dict(data.get("control", {}))
        for key, value in (("first_side", state.first_side), ("side", state.side)):
            if value is not None and value not in module.sides:
                raise document.error(f"/{key}", f"{value!r} is not one of the sides {', '.join(module.sides)}")
        if module.status_checker is not None:  # what the rules code will read there has the shape it expects
            schemas.check_value(document, module.status_checker, data.get("status", {}), "/status")
        state.status = data.get("status", {}) if owned else copy_json(data.get("status", {}))
        state.options = _options(module, document, state.scenario)
        if "cards" in data:
            state.cards = _piles(module, document)
        sides = set(module.sides) | {t.side for t in module.counter_types.values()}  # the players' and e.g. neutrals'
        if not _read_valid_units(module, state, data["units"], sides):
            _read_units(module, state, document, sides)
        state.layout = next(_LAYOUTS)
        return state


def _read_units(module: Module, state: State, document: JsonDocument, sides: set[str]) -> None:
    """The units of ``document`` into ``state``, each checked: the entry at fault is named (see
    :func:`_read_valid_units` for the files that have none)."""
    data = document.data
    seen: dict[str, int] = {}
    known, boxes, find = module.units, set(module.boxes), module.map.find
    control, units, stacks = state.control, state.units, state.stacks
    for n, entry in enumerate(data["units"]):
        unit_id = entry["id"]
        definition = known.get(unit_id)
        if definition is None:
            raise document.error(f"/units/{n}/id", f"unknown unit {unit_id!r}{suggest(unit_id, known)}")
        if unit_id in seen:
            raise document.error(
                f"/units/{n}/id", f"unit {unit_id!r} is placed twice (first at /units/{seen[unit_id]})"
            )
        seen[unit_id] = n
        kind = definition.type
        side = entry.get("side") or control.get(kind.nationality) or kind.side
        if side not in sides:
            pointer = f"/units/{n}/side" if entry.get("side") else "/control"
            raise document.error(pointer, f"{unit_id} is on side {side!r}, which is not one of {', '.join(sorted(sides))}")
        step = entry.get("step", 0)
        if step >= len(kind.steps):
            raise document.error(f"/units/{n}/step", f"{unit_id} has only {len(kind.steps)} step(s)")
        markers = entry.get("markers")
        # By position (unit, at, box, step, supplied, side, markers): keywords took twice as long, per unit of every state read.
        unit = UnitState(definition, OFF_MAP, None, step, entry.get("supplied", True), side, set(markers) if markers else set())
        units[unit_id] = unit
        if "tallies" in entry:
            unit.tallies = dict(entry["tallies"])
        if "facing" in entry:
            unit.facing = entry["facing"]
        where = entry["at"]
        if where in boxes:
            unit.box = where
            continue
        location = find(where)
        if location is None:
            raise document.error(f"/units/{n}/at", f"{where!r} is neither a location on the map nor a box ({', '.join(module.boxes)})")
        # As ``place`` does, for a unit not yet on the map (each unit comes once: a second entry is refused above).
        unit.at = location
        stack = stacks.get(location)
        if stack is None:
            stacks[location] = [unit_id]
        else:
            stack.append(unit_id)


def _read_valid_units(module: Module, state: State, entries: list[Any], sides: set[str]) -> bool:
    """The units of a state file into ``state``, as :func:`_read_units` reads them, when every entry is
    valid; False, with ``state`` left as it was, when one may not be, so that :func:`_read_units` reads them again
    and names the first fault with the message and pointer it always gave.

    Most of a state's entries are ``{"id", "at"}``: a counter on its own side's, at full strength. Their ids are
    proved known and placed once for all the entries at a time, the sides that ``control`` gives once, and each
    entry then costs its object and its place. It relies on the shape ``state.schema.json`` gives the entries; a
    document read without that check that breaks it (an entry that is not an object, an id or a place that is not
    a name) raises ``KeyError``/``TypeError`` here, or is refused, and goes to ``_read_units`` too.
    """
    known = module.units
    control = state.control
    places = _places(module)
    find = module.map.find
    units: dict[str, UnitState] = {}
    stacks: dict[int, list[str]] = {}
    try:
        ids = [entry["id"] for entry in entries]
        named = set(ids)
        if len(named) != len(ids) or not named <= known.keys():
            return False  # an unknown unit, or one placed twice
        if any(side and side not in sides for side in control.values()):
            return False  # a side that control gives some nationality may be refused (a type's own side is one)
        for entry, unit_id in zip(entries, ids):
            where = entry["at"]
            place = places.get(where)
            if place is None:
                if type(where) is not str:
                    return False  # not a name (a document not checked against the schema): find would fail
                place = find(where)  # a label spelt otherwise (see GameMap.index)
                if place is None:
                    return False
            definition = known[unit_id]
            kind = definition.type
            if len(entry) == 2:  # {"id", "at"}: both are required
                side = (control.get(kind.nationality) or kind.side) if control else kind.side
                if type(place) is str:
                    units[unit_id] = UnitState(definition, OFF_MAP, place, 0, True, side, set())
                    continue
                units[unit_id] = UnitState(definition, place, None, 0, True, side, set())
            else:  # as _read_units
                side = entry.get("side") or control.get(kind.nationality) or kind.side
                if side not in sides:
                    return False
                step = entry.get("step", 0)
                if step >= len(kind.steps):
                    return False
                markers = entry.get("markers")
                unit = units[unit_id] = UnitState(definition, OFF_MAP, None, step, entry.get("supplied", True), side, set(markers) if markers else set())
                if "tallies" in entry:
                    unit.tallies = dict(entry["tallies"])
                if "facing" in entry:
                    unit.facing = entry["facing"]
                if type(place) is str:
                    unit.box = place
                    continue
                unit.at = place
            stack = stacks.get(place)
            if stack is None:
                stacks[place] = [unit_id]
            else:
                stack.append(unit_id)
    except (KeyError, TypeError):
        return False
    state.units, state.stacks = units, stacks
    return True


def _places(module: Module) -> dict[str, int | str]:
    """Where a state's ``at`` puts a unit, for the module's boxes (the box's name) and its map's labels as printed
    (the location ``GameMap.find`` gives), as :func:`_read_units` decides: a box first, else the map.

    Made once per map and boxes. What it holds is ``find``'s answer, which the map fixes when it is made
    (``GameMap.__post_init__``): kept with the map and the boxes it was made for, and made again for others.
    """
    game_map, boxes = module.map, module.boxes
    kept = _PLACES.get(id(game_map))
    if kept is None or kept[0] is not game_map or kept[1] != boxes:
        if len(_PLACES) > 64:
            _PLACES.clear()
        find = game_map.find
        places: dict[str, int | str] = {label: find(label) for label in game_map.labels}  # type: ignore[misc]
        places.update((box, box) for box in boxes)
        kept = _PLACES[id(game_map)] = (game_map, boxes, places)
    return kept[2]


_PLACES: dict[int, tuple[Any, tuple[str, ...], dict[str, int | str]]] = {}  # id of a map -> (it, boxes, places)


def _unit_text(unit: UnitState, labels: list[str]) -> str:
    """One unit's object in :meth:`State.compact_json`: ``json.dumps`` of its entry in :meth:`State.to_json`."""
    definition = unit.unit
    name = _quoted(definition.id)
    at = labels[unit.at] if unit.at != OFF_MAP else unit.box
    place = _quoted(at) if at is not None else "null"
    text = f'{{"id":{name},"at":{place}'
    if unit.step:
        text += f',"step":{unit.step:d}' if type(unit.step) is int else ',"step":' + json.dumps(unit.step)
    if not unit.supplied:
        text += ',"supplied":false'
    if unit.side != definition.type.side:
        text += ',"side":' + _COMPACT.encode(unit.side)
    if unit.markers:
        text += ',"markers":' + _COMPACT.encode(sorted(unit.markers))
    if unit.tallies:
        text += ',"tallies":' + _COMPACT.encode(dict(sorted(unit.tallies.items())))
    if unit.facing is not None:
        text += ',"facing":' + json.dumps(unit.facing)
    return text + "}"


def _quoted(name: str) -> str:
    """``name`` as a JSON string, kept for the next time (unit ids and places)."""
    found = _QUOTED.get(name)
    if found is None:
        if len(_QUOTED) > 100_000:  # names from states read, not only from modules: keep it bounded
            _QUOTED.clear()
        found = _QUOTED[name] = _encode_string(name)
    return found


def _opening(unit_id: str) -> str:
    """``{"id":"…","at":``, the start of a unit's object in :meth:`State.compact_json`, kept for the next time."""
    if len(_OPENINGS) > 100_000:
        _OPENINGS.clear()
    found = _OPENINGS[unit_id] = '{"id":' + _quoted(unit_id) + ',"at":'
    return found


def _label_ends(labels: list[str]) -> list[str]:
    """Each location's label as a JSON string closing a unit's object (``"2701"}``), made once per map."""
    kept = _ENDS.get(id(labels))
    if kept is None or kept[0] is not labels or len(kept[1]) != len(labels):
        if len(_ENDS) > 64:
            _ENDS.clear()
        kept = _ENDS[id(labels)] = (labels, [_encode_string(label) + "}" for label in labels])
    return kept[1]


def load_state_document(path) -> JsonDocument:
    """A state file or a scenario file (it has an ``id``), read and checked against its own schema: both give the
    units and where they stand, so every ``--state`` option takes either."""
    document = load_json(path)
    data = document.data
    is_scenario = isinstance(data, dict) and "id" in data and "units" in data and "actions" not in data
    schemas.check(document, "scenario" if is_scenario else "state")
    return document
def _piles(module: Module, document: JsonDocument) -> dict[str, Piles]:
    """The card piles of a state: each side one of the module's, each card one of its cards (a module with no cards
    file describes its cards elsewhere, such as a group's tables: their names are not checked here)."""
    data = document.data["cards"]
    for side, piles in data.items():
        if side not in module.sides:
            raise document.error(f"/cards/{side}", f"{side!r} is not one of the sides {', '.join(module.sides)}")
        for pile in ("discard", "removed", "in_play", "played"):
            for n, entry in enumerate(piles.get(pile, ())):
                card = entry if isinstance(entry, str) else entry["card"]
                if module.cards and card not in module.cards:
                    pointer = f"/cards/{side}/{pile}/{n}" + ("" if isinstance(entry, str) else "/card")
                    raise document.error(pointer, f"unknown card {card!r}{suggest(card, module.cards)}")
    return piles_from_json(data)


def _options(module: Module, document: JsonDocument, scenario: str | None) -> dict[str, Any]:
    """The options a game chose, as its start document says: a state's own, else those of its scenario."""
    data = document.data
    if "options" in data:
        return module.check_option_choices(data["options"], document, "/options")
    if not module.option_choices or "units" in data and "id" in data or scenario not in module.scenarios:
        return {}  # a scenario itself (it has an id) with no options, or nothing to fall back on
    return _scenario_options(module, module.scenarios[scenario])  # a state written before options were kept


def _scenario_options(module: Module, path: Any) -> dict[str, Any]:
    """The options a scenario file chooses, read once per file version (states without options of their own)."""
    import os

    from pbem.model.jsonsource import load_json

    key = (str(path), os.stat(path).st_mtime_ns)
    cached = _SCENARIO_OPTIONS.get(key)
    if cached is None:
        set_up = load_json(path)
        choices = set_up.data.get("options", {}) if isinstance(set_up.data, dict) else {}
        cached = _SCENARIO_OPTIONS[key] = module.check_option_choices(choices, set_up, "/options")
    return dict(cached)


_SCENARIO_OPTIONS: dict[tuple[str, int], dict[str, Any]] = {}


def written_state_text(module: Module, data: dict[str, Any]) -> str:
    """``data`` (a state pbem made) as the text of a state file, proved to read back first: checked against
    ``state.schema.json``, the module's status schema and :meth:`State.from_json`, as the next check will.

    Raises :class:`OwnOutputError` (exit 3, naming the key) when pbem produced a state it would itself refuse:
    a file pbem writes always reads back.
    """
    import json

    from pbem.model.errors import OwnOutputError, PbemError
    from pbem.model.jsonsource import parse_json

    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    try:
        document = parse_json(text, "written state")
        schemas.check(document, "state")
        State.from_json(module, document)
    except PbemError as error:
        pointer = error.source.pointer if error.source is not None and error.source.pointer else "/"
        raise OwnOutputError("pbem made a state it cannot read back", pointer, error.message) from None
    return text


def suggest(name: str, known: dict[str, Any]) -> str:
    """`` (did you mean X?)`` for a mistyped name, or an empty string."""
    import difflib  # only for a name that is not known: it is not worth importing at every start

    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
    return f" (did you mean {', '.join(close)}?)" if close else ""
