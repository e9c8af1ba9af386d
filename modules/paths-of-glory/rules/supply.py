"""Supply (14) and the Attrition phase (14.3.5).

A unit is in supply if a path of friendly-controlled spaces, without enemy units and along connections its
nationality may use, joins its space to a friendly supply source it may use (14.1.2-14.1.3, 14.2); a besieged
enemy fort's space may be passed, a besieged friendly fort's may not. One sea leg between two friendly ports
of the side's kind may join two land stretches (14.1.4: at most two ports); Russian, Serbian and Romanian units
never trace by sea (14.2.2). Some units are always in supply (14.1.5-14.1.8).

In the Attrition phase every unit out of supply is eliminated, and only those (14.3.5): corps with ``eliminate``
(to the Eliminated box), armies with ``remove`` to ``permanently_eliminated``. Forts are not units and are
always in supply (14.1.7).
"""

from __future__ import annotations

import os
import weakref
from dataclasses import dataclass, field
from typing import Any

from pbem.model.jsonsource import copy_json
from pbem.model.state import State, UnitState
from pbem.rules.ruleset import TurnContext, illegal
from pbem.rules.supply import components, grow, spread

from .base import PathsOfGloryBase, pog

RUSSIAN_FAMILY = ("RU", "RO", "SB")


@dataclass
class _Network:
    sources: set[int]
    reached: set[int]
    lines: list[tuple[int, ...]]  # each space's neighbours this kind of unit may trace to (dashed lines it may use)
    ports: set[int]
    landings: list[int]
    open_: list[bool]
    _shared: dict  # what every network of one situation and the same lines shares (the spaces joined to a port)
    symmetric: bool = False  # whether each of ``lines``' connections runs both ways (``_symmetric``)

    answers: dict[int, bool] = field(default_factory=dict)  # each space asked about: whether a unit there is in supply

    def supplies(self, here: int, by_sea: bool) -> bool:
        """Whether a unit of this network's kind in ``here`` is in supply (``by_sea``: it may trace by sea, 14.2.2)."""
        if here in self.sources:
            return True
        reached = self.reached
        lines = self.lines
        if any(n in reached for n in lines[here]):
            return True
        if not by_sea or not self.landings:
            return False  # 14.2.2: no sea supply for them; or no friendly port joins a source
        # 14.1.4: a friendly port on the unit's own land stretch, a sea leg to a port joined to a source.
        if here in self.ports:
            return True
        if self.symmetric:
            sea = self.sea()
            return any(n in sea for n in lines[here])
        component, port_components = self.stretches()
        return any(component[n] in port_components for n in lines[here])

    def sea(self) -> set[int]:
        """The passable spaces joined to a friendly port by passable spaces (the ports themselves if passable): for
        symmetric lines, the spaces whose ``stretches`` hold a friendly port, without labelling the whole map."""
        found = self._shared.get("sea")
        if found is None:
            open_ = self.open_
            found = self._shared["sea"] = spread(self.lines, [p for p in self.ports if open_[p]], open_)
        return found

    def stretches(self) -> tuple[list[int], set[int]]:
        """Each space's stretch (joined by passable spaces; -1 if not passable), and the stretches holding a
        friendly port."""
        found = self._shared.get("stretches")
        if found is None:
            component = components(self.lines, self.open_)
            found = self._shared["stretches"] = (component, {component[p] for p in self.ports} - {-1})
        return found


def _regrown(found: set[int], starts: set[int], lines: list[tuple[int, ...]], changed: list[int],
             open_: list[bool]) -> set[int] | None:
    """``spread(lines, [s for s in starts if open_[s]], open_)`` again after the spaces ``changed`` opened or closed
    (``open_`` as it is now), from ``found``, what it gave before with the same ``starts``: ``found`` itself if none
    opened as a start or beside it; grown from those that did; None (to be traced again) if one closed inside it.
    What ``spread`` finds is the least set holding the open starts and closed under open neighbours: a space it never
    entered may close, and it grows only by tracing on from the opened spaces it touches. (Beside means along
    ``lines`` from the opened space: the lines must be symmetric, ``_symmetric``.)"""
    seeds = []
    for location in changed:
        if open_[location]:
            if location in starts or any(n in found for n in lines[location]):
                seeds.append(location)
        elif location in found:
            return None
    return grow(lines, found, seeds, open_) if seeds else found


def _symmetric(lines: list[tuple[int, ...]]) -> bool:
    """Whether each connection of ``lines`` runs both ways (``_regrown`` and ``_Network.sea`` need it)."""
    return all(a in lines[b] for a, ends in enumerate(lines) for b in ends)


@dataclass
class _Tracked:
    """One side's supply situation in one state with one beach-head value, kept across actions and brought up to
    date from what changed since (``SupplyRules._bring_up_to_date``) instead of traced again after every move.

    What it is worked out from, and compared at every question: where units stand (``State.layout``; then
    ``State.changed_since`` names the spaces whose stacks changed), the control markers (a copy, compared by value:
    rules change them in place), and the forts, neutral nations and events played (copies). The beach-head is its
    key. Nothing else in the state decides a supply line: ``controllers`` reads the control markers, neutral nations,
    events (Salonika) and, in Greece's limited entry, the Greek units; ``_open_spaces`` the controllers, forts and
    stacks; ``_port_spaces`` the controllers and the beach-head; ``_sources`` the controllers; ``supply_lines`` the
    unit's nationality and the beach-head."""

    state: weakref.ref
    layout: int
    control: dict
    slow: tuple  # copies of status["forts"], status["neutral_nations"], status["events_played"]
    greek: bool  # whether Greece's limited entry is on (controllers then follow the Greek units, 9.5.2.4)
    controllers: list[str | None]  # SupplyRules.controllers when last brought up to date (never changed in place)
    open_: list[bool]  # _open_spaces; a new list whenever a space opens or closes (networks keep the old one)
    ports: list[int]  # _port_spaces
    nets: dict[tuple, _Network] = field(default_factory=dict)  # by kind of line (SupplyRules._network's key)
    shared: dict = field(default_factory=dict)  # by lines: what the networks of those lines share (their stretches)


def _copy(value):
    """A copy of a status entry the situation is compared with: flat (spaces to sides, lists of names) as the status
    schema has them, else copied whole."""
    kind = type(value)
    if kind is dict and all(type(v) is str for v in value.values()):
        return dict(value)
    if kind is list and all(type(v) is str for v in value):
        return list(value)
    return copy_json(value)


def _enemy_spaces(state: State) -> dict[str, frozenset[int]]:
    """For each side with units on the map, the spaces holding a unit not of that side."""
    units = state.units
    held: dict[str, list[int]] = {}  # the spaces each side's units hold alone
    occupied = []
    for location, ids in state.stacks.items():
        if not ids:
            continue
        occupied.append(location)
        one = units[ids[0]].side
        if len(ids) > 1 and any(units[unit_id].side != one for unit_id in ids):
            continue  # units of two sides: an enemy space for every side
        found = held.get(one)
        if found is None:
            held[one] = [location]
        else:
            found.append(location)
    every = frozenset(occupied)
    return {one: every.difference(alone) for one, alone in held.items()}


ALWAYS = ("MN",)  # 14.1.5 (with the ANA and SN corps, by contingent)
_KEPT = 16  # answers kept per cache (control tables, the ports of each side and beach-head)
# PBEM_SUPPLY_ORACLE=1: every supply answer is also traced from scratch, and a difference raises (tests, and a check of
# the kept situations over many games).
ORACLE = os.environ.get("PBEM_SUPPLY_ORACLE") == "1"


class SupplyRules(PathsOfGloryBase):
    def in_supply(self, state: State, unit: UnitState, moment: dict | None = None) -> bool:
        """Whether ``unit`` traces supply (14.1-14.2). ``moment``: a dict the caller passes to every call made while
        the state does not change (all the units of one Attrition phase), so what the lines depend on is read once."""
        if not unit.on_map:
            return True
        nation = unit.unit.type.nationality
        contingent = unit.unit.type.attributes.get("contingent")
        here = unit.at
        if self._always_supplied(state, nation, contingent) or self._supplied_at_home(nation, here):
            return True
        if moment is None:
            net = self._network(state, unit)
        else:  # the same network for every unit of a side, nationality and contingent while the state does not change
            kind = (unit.side, nation, contingent)
            net = moment.get(kind)
            if net is None:
                net = moment[kind] = self._network(state, unit)
        found = net.answers.get(here)
        if found is None:
            found = net.answers[here] = net.supplies(here, nation not in RUSSIAN_FAMILY)
        if ORACLE:
            self._check_answer(state, unit, found)
        return found

    def _check_answer(self, state: State, unit: UnitState, found: bool) -> None:
        """PBEM_SUPPLY_ORACLE: a kept answer must be a fresh trace's."""
        if found != self._reference_network(state, unit).supplies(unit.at, unit.unit.type.nationality not in RUSSIAN_FAMILY):
            raise AssertionError(f"kept supply answer for {unit.id} in {self.module.map.label(unit.at)} differs from a fresh trace")

    def _always_supplied(self, state: State, nation: str, contingent: str | None) -> bool:
        """Units of this nationality and contingent need no supply line: 14.1.5 (MN, the ANA and SN corps), and a
        neutral nation's units (Greece's after the Salonika event, 9.5.2.4) are not at war: no supply, no attrition."""
        return nation in ALWAYS or contingent in ("ANA",) or nation == "SN" or self.neutral(state, nation)

    def _supplied_at_home(self, nation: str, here: int) -> bool:
        """14.1.6: a Serbian unit in Serbia; 14.1.8: a Turkish unit in Medina."""
        game_map = self.module.map
        return (nation == "SB" and game_map.country[here] == "SB") or (nation == "TU" and game_map.label(here) == "Medina")

    def _network(self, state: State, unit: UnitState) -> "_Network":
        """The supply network of the unit's side and kind: the passable spaces joined to a usable source (traced back
        from the sources along the lines a unit traces forward), the ports joined to a source, and (when a unit needs
        the sea) the stretches of passable spaces. Kept in the side's ``_Tracked`` situation while the spaces it
        reaches, its sources and the side's ports stay as they were."""
        nation = unit.unit.type.nationality
        lines = self.supply_lines(state, unit)
        # Units whose lines run over the same connections share a network (most nationalities use no dashed line).
        key = (id(lines), nation in RUSSIAN_FAMILY, nation == "SB")
        tracked = self._tracked(state, unit.side)
        net = tracked.nets.get(key)
        if net is None:
            sources = self._sources(state, unit.side, nation, tracked.controllers)
            shared = tracked.shared.setdefault(key[0], {})
            net = tracked.nets[key] = self._traced(lines, nation, sources, tracked.open_, tracked.ports, shared, None,
                                                   self._symmetric(lines))
        if ORACLE:
            self._check_network(state, unit, net)
        return net

    def _tracked(self, state: State, side: str) -> _Tracked:
        """The side's situation in ``state`` with its beach-head, brought up to date (``_bring_up_to_date``). Most
        questions come while nothing changed: then one comparison of the layout and the status entries it reads."""
        status = state.status
        trackers = self.__dict__.get("_trackers")
        if trackers is None:
            trackers = self.__dict__["_trackers"] = {}
        key = (status.get("mef_beachhead"), side)
        tracked = trackers.get(key)
        slow = (status.get("forts"), status.get("neutral_nations"), status.get("events_played"))
        if tracked is None:
            if len(trackers) >= _KEPT:
                trackers.clear()
            controllers = self.controllers(state)
            tracked = trackers[key] = _Tracked(
                weakref.ref(state), state.layout, _copy(status.get("control")), tuple(_copy(value) for value in slow),
                self._greek(state), controllers, self._open_spaces_traced(state, side, controllers),
                self._port_spaces(state, side))
        elif (tracked.layout != state.layout or tracked.control != status.get("control") or tracked.slow != slow
              or tracked.state() is not state):
            self._bring_up_to_date(state, side, tracked)
        return tracked

    def _greek(self, state: State) -> bool:
        """Whether Greece's limited entry is on (9.5.2.4): its spaces' controllers then follow the Greek units."""
        return "GR" in state.status.get("neutral_nations", ()) and self.played(state, "salonika")

    def _bring_up_to_date(self, state: State, side: str, tracked: _Tracked) -> None:
        """The spaces that opened or closed to ``side`` since ``tracked`` was last brought up to date, then each of its
        networks kept (the same sources, spaces and ports), kept with new ports or stretches, grown from the spaces
        that opened beside it, or dropped (traced again when asked: a space inside it closed, or its sources
        changed).

        The spaces looked at again (``touched``): those whose stacks changed (who holds them, whether a siege
        lasts, and in Greece who controls them) and those whose control marker changed; with the same neutral
        nations and events played no other space changes hands. Forts or neutral nations changed, events that
        changed the controllers (Salonika), or another state (the next file): every space is looked at again."""
        status = state.status
        control = status.get("control")
        slow = (status.get("forts"), status.get("neutral_nations"), status.get("events_played"))
        touched = None
        if tracked.slow[:2] == slow[:2] and tracked.state() is state:
            touched = state.changed_since(tracked.layout)
        controllers = tracked.controllers
        if touched is None or tracked.control != control or tracked.slow[2] != slow[2] or tracked.greek:
            controllers = self.controllers(state)  # the same list while what it reads is the same
            if touched is not None and controllers is not tracked.controllers:
                if tracked.slow[2] != slow[2]:
                    touched = None  # an event changed the controllers
                else:
                    try:
                        flipped = (tracked.control or {}).items() ^ (control or {}).items()
                    except TypeError:  # not the flat labels to sides the schema has
                        touched = None
                    else:
                        at = self._label_index()
                        touched.update(at[label] for label, _ in flipped if label in at)
        before = tracked.open_
        if touched is None:
            open_ = self._open_spaces_traced(state, side, controllers)
            if open_ == before:  # the next file often starts where the last one ended
                open_, changed = before, []
            else:
                changed = [location for location, (was, now) in enumerate(zip(before, open_)) if was != now]
        else:
            open_ = before
            changed = []
            for location in touched:
                now = self._open_at(state, side, location, controllers)
                if now != before[location]:
                    if open_ is before:
                        open_ = list(before)  # networks hold the old list: never changed in place
                    open_[location] = now
                    changed.append(location)
        ports = tracked.ports
        new_sources = False
        if controllers is not tracked.controllers:
            # A port's or source's controller changed only if it is among the touched spaces.
            if touched is None or not touched.isdisjoint(self._port_deciders()):
                ports = self._port_spaces(state, side)
            new_sources = touched is None or not touched.isdisjoint(self._source_deciders())
        new_ports = ports != tracked.ports
        old_shared = tracked.shared
        if changed or new_ports:
            tracked.shared = {}  # the spaces joined to a port change with the open spaces and the ports
        # A network's key names its kind, not its nation: "SB", "RU" or "" stand for it below, as _sources and _traced
        # read a nation only as Serbian, of the Russian family (14.2.2, 14.2.3) or other.
        for key, net in list(tracked.nets.items()) if changed or new_ports or new_sources else ():
            if new_sources and self._sources(state, side, "SB" if key[2] else "RU" if key[1] else "", controllers) != net.sources:
                del tracked.nets[key]
                continue
            if not changed and not new_ports:
                continue  # the same sources, spaces and ports: the same network
            shared = tracked.shared.get(key[0])
            if shared is None:
                shared = tracked.shared[key[0]] = {}
                sea = old_shared.get(key[0], {}).get("sea")
                if sea is not None and not new_ports and net.symmetric:  # its starts, the ports, as they were
                    sea = _regrown(sea, set(ports), net.lines, changed, open_)
                    if sea is not None:
                        shared["sea"] = sea
            reached = net.reached
            if changed:
                reached = _regrown(reached, net.sources, net.lines, changed, open_) if net.symmetric else None
                if reached is None:
                    del tracked.nets[key]
                    continue
            tracked.nets[key] = self._traced(net.lines, "RU" if key[1] else "", net.sources, open_, ports, shared,
                                             reached, net.symmetric)
        tracked.layout = state.layout
        if tracked.control != control:
            tracked.control = _copy(control)
        if tracked.slow != slow:
            tracked.slow = tuple(_copy(value) for value in slow)
            tracked.greek = self._greek(state)
        if tracked.state() is not state:
            tracked.state = weakref.ref(state)
        tracked.controllers, tracked.open_, tracked.ports = controllers, open_, ports

    def _port_deciders(self) -> frozenset[int]:
        """The spaces whose controller decides which ports are friendly (``_port``): the ports, and Gallipoli."""
        found = self.__dict__.get("_port_decider_spaces")
        if found is None:
            game_map = self.module.map
            found = {loc for loc in range(len(game_map)) if game_map.extra[loc].get("port")}
            gallipoli = game_map.find("Gallipoli")
            found = self.__dict__["_port_decider_spaces"] = frozenset(found | ({gallipoli} if gallipoli is not None else set()))
        return found

    def _source_deciders(self) -> frozenset[int]:
        """The spaces whose controller decides the supply sources (``_sources``): the sources, and Salonika."""
        found = self.__dict__.get("_source_decider_spaces")
        if found is None:
            salonika = self.module.map.find("Salonika")
            found = self.__dict__["_source_decider_spaces"] = frozenset(set(self._supply_spaces()) | ({salonika} if salonika is not None else set()))
        return found

    def _symmetric(self, lines: list[tuple[int, ...]]) -> bool:
        """``_symmetric(lines)``, worked out once per lines (each is kept for the process: its id names it)."""
        found = self.__dict__.setdefault("_symmetric_lines", {})
        answer = found.get(id(lines))
        if answer is None:
            answer = found[id(lines)] = _symmetric(lines)
        return answer

    def _check_network(self, state: State, unit: UnitState, net: _Network) -> None:
        """PBEM_SUPPLY_ORACLE: the kept network must be the one traced from scratch."""
        fresh = self._reference_network(state, unit)
        for what in ("sources", "reached", "ports", "landings", "open_"):
            if getattr(net, what) != getattr(fresh, what):
                raise AssertionError(f"kept supply network of {unit.id}: {what} differs from a fresh trace")

    def _reference_network(self, state: State, unit: UnitState) -> _Network:
        """The unit's network traced from scratch, nothing kept read (PBEM_SUPPLY_ORACLE and tests)."""
        side, nation = unit.side, unit.unit.type.nationality
        game_map = self.module.map
        controllers = [self.controller(state, location) for location in range(len(game_map))]
        if controllers != self.controllers(state):
            raise AssertionError("kept controllers differ from each space's controller")
        enemy = _enemy_spaces(state).get(side, frozenset(loc for loc, ids in state.stacks.items() if ids))
        open_ = self._open_spaces_traced(state, side, controllers, enemy)
        ports = [loc for loc in range(len(game_map)) if game_map.extra[loc].get("port") and self._port(state, loc, side)]
        beachhead = state.status.get("mef_beachhead")
        if side == "ap" and beachhead:
            location = game_map.find(beachhead)
            if location is not None and location not in ports and self._port(state, location, side):
                ports.append(location)
        lines = self.supply_lines(state, unit)
        return self._traced(lines, nation, self._sources(state, side, nation, controllers), open_, ports, {})

    def enemy_spaces(self, state: State, side: str) -> frozenset[int]:
        """The spaces holding a unit not of ``side`` (kept per layout of the units, ``State.layout``, and brought up
        to date from the spaces whose stacks changed since the last layout asked about)."""
        layout = state.layout
        last = self.__dict__.get("_enemy_spaces")
        if last is not None and last[0] == layout and side in last[1]:
            return last[1][side]
        changed = state.changed_since(last[0]) if last is not None else None
        if changed is None or len(changed) > 32 or side not in last[1]:
            found = _enemy_spaces(state)
        else:
            found = {}
            units = state.units
            stacks = state.stacks
            for one, before in last[1].items():
                spaces = set(before)
                for location in changed:
                    ids = stacks.get(location)
                    if ids and any(units[unit_id].side != one for unit_id in ids):
                        spaces.add(location)
                    else:
                        spaces.discard(location)
                found[one] = frozenset(spaces)
        self.__dict__["_enemy_spaces"] = (layout, found)
        if side not in found:
            found[side] = frozenset(location for location, ids in state.stacks.items() if ids)
        return found[side]

    def controllers(self, state: State) -> list[str | None]:
        """``controller`` of every space at once (the same answers: change both together), kept while what it reads
        is unchanged: the control markers, the neutral nations, the events played, and (while Greece's limited
        entry opens its spaces, 9.5.2.4) where units stand. A new list whenever an answer changes (callers and the
        kept supply situations compare lists by identity): never changed in place."""
        status = state.status
        neutral = tuple(status.get("neutral_nations", ()))
        control = status.get("control", {})
        greek = "GR" in neutral and self.played(state, "salonika")
        units_key = state.layout if greek else None
        last = self.__dict__.get("_controllers_last")  # the last answer, and what it was read from (a copy)
        if last is not None and last[0] == control and last[1] == neutral and last[2] == units_key:
            return last[3]
        if last is not None and last[1] == neutral and last[2] is None and units_key is None:
            # Only control markers changed (most of the time: a space entered or taken): the last answer with the
            # spaces whose marker changed asked again.
            try:
                flipped = last[0].items() ^ control.items()
            except TypeError:  # not the flat labels to sides the schema has
                flipped = None
            if flipped is not None:
                found = list(last[3])
                at = self._label_index()
                for label, _ in flipped:
                    location = at.get(label)
                    if location is not None:
                        found[location] = self.controller(state, location)
                self.__dict__["_controllers_last"] = (dict(control), neutral, units_key, found)
                return found
        key = (tuple(control.items()), neutral, units_key)
        cache = self.__dict__.setdefault("_controllers", {})
        found = cache.get(key)
        if found is None:
            if len(cache) >= _KEPT:
                del cache[next(iter(cache))]
            found = list(self._map_sides())
            for nation in neutral:  # a neutral nation's spaces belong to neither side until it enters the war
                for location in self._spaces_of(nation):
                    if not (greek and self.greek_open(state, location)):
                        found[location] = None
            at = self._label_index()
            for label, side in control.items():
                location = at.get(label)
                if side and location is not None:
                    found[location] = side
            cache[key] = found
        self.__dict__["_controllers_last"] = (dict(control), neutral, units_key, found)
        return found

    def _label_index(self) -> dict[str, int]:
        found = self.__dict__.get("_location_of_label")
        if found is None:
            found = self.__dict__["_location_of_label"] = {label: i for i, label in enumerate(self.module.map.labels)}
        return found

    def _map_sides(self) -> list[str | None]:
        found = self.__dict__.get("_map_side_of")
        if found is None:
            found = self.__dict__["_map_side_of"] = [extra.get("side") for extra in self.module.map.extra]
        return found

    def _spaces_of(self, nation: str) -> list[int]:
        by_country = self.__dict__.get("_spaces_by_country")
        if by_country is None:
            by_country = self.__dict__["_spaces_by_country"] = {}
            for location, country in enumerate(self.module.map.country):
                by_country.setdefault(country, []).append(location)
        return by_country.get(nation, [])

    def _open_spaces(self, state: State, side: str) -> list[bool]:
        """14.1.3: the spaces a supply line of ``side`` may enter: friendly-controlled without enemy units, not a
        besieged friendly fort; or a besieged enemy fort. (The side's kept situation's: not to be changed.)"""
        return self._tracked(state, side).open_

    def _open_spaces_traced(self, state: State, side: str, controllers: list[str | None],
                            enemy: frozenset[int] | None = None) -> list[bool]:
        """``_open_spaces`` worked out for every space (``enemy``: the spaces holding enemy units, if known)."""
        open_ = [c == side for c in controllers]
        # A fort not marked besieged leaves its space as control says (fort() and besieged() read the mark).
        for label, how in state.status.get("forts", {}).items():
            location = self._label_index().get(label)
            if how != "besieged" or location is None or not self.module.map.extra[location].get("fort"):
                continue
            besieged = bool(self.fort(state, location)) and self.besieged(state, location)
            open_[location] = (not besieged) if controllers[location] == side else besieged
        for location in self.enemy_spaces(state, side) if enemy is None else enemy:
            open_[location] = False
        return open_

    def _open_at(self, state: State, side: str, location: int, controllers: list[str | None]) -> bool:
        """``_open_spaces`` of one space (the same rules: change both together)."""
        ids = state.stacks.get(location)
        if ids:
            units = state.units
            if any(units[unit_id].side != side for unit_id in ids):
                return False
        controller = controllers[location]
        if state.status.get("forts", {}).get(self.module.map.labels[location]) == "besieged" and self.module.map.extra[location].get("fort"):
            besieged = bool(self.fort(state, location)) and self.besieged(state, location)
            return (not besieged) if controller == side else besieged
        return controller == side

    def supply_lines(self, state: State, unit: UnitState) -> list[tuple[int, ...]]:
        """Each space's neighbours a supply line of ``unit`` may go on to: every connection but the dashed lines it
        may not use (``may_use``, which reads the unit's token and the beach-head; 14.1.3: RU, RO and SB units
        also trace over the dashed lines that join Russian supply sources). Worked out once per token and
        beach-head."""
        nation = unit.unit.type.nationality
        russian_lines = nation in RUSSIAN_FAMILY
        beachhead = state.status.get("mef_beachhead")
        key = (self.token(unit), russian_lines, beachhead)
        cache = self.__dict__.setdefault("_supply_lines", {})
        found = cache.get(key)
        if found is None:
            game_map = self.module.map
            restricted = game_map.restricted

            def step(a: int, b: int) -> bool:
                if (a, b) not in restricted and (b, a) not in restricted:
                    return True
                if self.may_use(state, a, b, unit):
                    return True
                return russian_lines and any("RU" in game_map.extra[x].get("supply_for", ()) for x in (a, b))

            found = [tuple(b for b in game_map.neighbours[a] if step(a, b)) for a in range(len(game_map))]
            # One list for every key with the same connections (kept for the process: its id names it).
            found = cache[key] = self.__dict__.setdefault("_supply_lines_by_content", {}).setdefault(tuple(found), found)
        return found

    @staticmethod
    def _traced(lines: list[tuple[int, ...]], nation: str, sources: set[int], open_: list[bool], port_spaces: list[int],
                shared: dict, reached: set[int] | None = None, symmetric: bool = False) -> "_Network":
        """The network of these lines, sources, open spaces and ports (``reached``: the spaces it reaches, if known;
        ``symmetric``: whether the lines are, ``_symmetric``)."""
        if reached is None:
            reached = spread(lines, [s for s in sources if open_[s]], open_)
        ports: set[int] = set()
        landings: list[int] = []
        if nation not in RUSSIAN_FAMILY:
            for location in port_spaces:
                ports.add(location)
                if location in sources or any(n in reached for n in lines[location]):
                    landings.append(location)
        return _Network(sources, reached, lines, ports, landings, open_, shared, symmetric)

    def _port_spaces(self, state: State, side: str) -> list[int]:
        game_map = self.module.map
        candidates = self.__dict__.get("_port_candidates")
        if candidates is None:
            candidates = self.__dict__["_port_candidates"] = [loc for loc in range(len(game_map)) if game_map.extra[loc].get("port")]
        controllers = self.controllers(state)
        beachhead = state.status.get("mef_beachhead")
        kept = self.__dict__.setdefault("_port_spaces_of", {})  # (side, beach-head) -> (controllers, its ports)
        last = kept.get((side, beachhead))
        if last is not None and last[0] is controllers:  # the same list: the same control (``controllers``)
            return last[1]
        found = [loc for loc in candidates if self._port(state, loc, side, controllers)]
        if side == "ap" and beachhead:
            location = game_map.find(beachhead)
            if location is not None and location not in found and self._port(state, location, side, controllers):
                found.append(location)
        if len(kept) >= _KEPT:
            kept.clear()
        kept[(side, beachhead)] = (controllers, found)
        return found

    def out_of_supply(self, state: State, unit: UnitState) -> bool:
        """14.3.1-14.3.2 by the traced supply line; off the map no line can be traced, so the state's flag decides."""
        if not unit.on_map:
            return not unit.supplied
        return not self.in_supply(state, unit)

    def _sources(self, state: State, side: str, nation: str, controllers: list[str | None]) -> set[int]:
        """The supply sources of ``side`` a unit of ``nation`` traces to (14.2; the Russian family and Serbia's own)."""
        game_map = self.module.map
        found = set()
        for location in self._supply_spaces():
            if controllers[location] != side:
                continue
            serves = game_map.extra[location].get("supply_for", ["*"])
            if side == "cp" and game_map.supply[location] == "cp":
                found.add(location)
            elif side == "ap" and game_map.supply[location] == "ap":
                russian = "RU" in serves
                if (nation in RUSSIAN_FAMILY) == russian:
                    found.add(location)
        if nation == "SB":  # 14.2.3
            salonika = game_map.index("Salonika")
            if controllers[salonika] == "ap":
                found.add(salonika)
        return found

    def _supply_spaces(self) -> list[int]:
        found = self.__dict__.get("_supply_locations")
        if found is None:
            supply = self.module.map.supply
            found = self.__dict__["_supply_locations"] = [loc for loc in range(len(supply)) if supply[loc] is not None]
        return found

    def _port(self, state: State, location: int, side: str, controllers: list[str | None] | None = None) -> bool:
        """Whether ``location`` is a friendly port of ``side`` (``controllers``: ``self.controllers(state)`` when the
        caller has it)."""
        extra = self.module.map.extra[location]
        if side == "ap" and self.module.map.label(location) == state.status.get("mef_beachhead"):
            return True  # 9.5.3.5: the beach-head space is an Allied port
        controller = self.controller if controllers is None else (lambda _, at: controllers[at])
        if extra.get("port") != side or controller(state, location) != side:
            return False
        if side == "ap" and self.module.map.label(location) == "Constantinople":
            return controller(state, self.module.map.index("Gallipoli")) == "ap"  # 14.1.4
        return True

    # --- the Attrition phase ----------------------------------------------------------------------------
    def check_phase(self, action, state: State, ctx: TurnContext) -> list:
        found = self._end_attrition(state, ctx, action)
        found += super().check_phase(action, state, ctx)  # type: ignore[misc]
        if action.name == "attrition":
            pog(ctx)["attrition"] = self.out_of_supply_on_map(state)
        return found

    def out_of_supply_on_map(self, state: State) -> set[str]:
        """The units on the map that trace no supply (``in_supply`` of each, the same answers), all judged in one
        situation: what decides for a kind of unit (side, nationality, contingent) is worked out once, and only
        where each unit stands is looked at unit by unit."""
        kinds: dict[tuple, Any] = {}  # (side, nationality, contingent) -> True (always supplied) or its network
        found: set[str] = set()
        units = state.units
        for here, ids in state.stacks.items():  # the units on the map, space by space (none of those off it)
            for unit_id in ids:
                unit = units[unit_id]
                unit_type = unit.unit.type
                nation = unit_type.nationality
                kind = (unit.side, nation, unit_type.attributes.get("contingent"))
                net = kinds.get(kind)
                if net is None:
                    net = kinds[kind] = True if self._always_supplied(state, nation, kind[2]) else self._network(state, unit)
                if net is True or ((nation == "SB" or nation == "TU") and self._supplied_at_home(nation, here)):
                    continue
                supplied = net.answers.get(here)
                if supplied is None:
                    supplied = net.answers[here] = net.supplies(here, nation not in RUSSIAN_FAMILY)
                if ORACLE:
                    self._check_answer(state, unit, supplied)
                if not supplied:
                    found.add(unit_id)
        return found

    def finish(self, state: State, ctx: TurnContext) -> list:
        return self._end_attrition(state, ctx, None) + super().finish(state, ctx)  # type: ignore[misc]

    def _end_attrition(self, state: State, ctx: TurnContext, action) -> list:
        out_of_supply = pog(ctx).pop("attrition", None)
        if out_of_supply is None:
            return []
        left = sorted(u for u in out_of_supply if state.units[u].on_map)
        if not left:
            return []
        names = ", ".join(self.name(u) for u in left[:4]) + (f" and {len(left) - 4} more" if len(left) > 4 else "")
        return [illegal("14.3.5", f"out of supply in the Attrition phase and not eliminated: {names}", action)]

    def check_eliminate(self, action, state: State, ctx: TurnContext) -> list:
        return self._attrition_loss(action, state, ctx, action.units, "eliminated")

    def check_remove(self, action, state: State, ctx: TurnContext) -> list:
        if action.to == "permanently_eliminated":
            return self._attrition_loss(action, state, ctx, action.units, "permanently_eliminated")
        return super().check_remove(action, state, ctx)  # type: ignore[misc]

    def _attrition_loss(self, action, state: State, ctx: TurnContext, units, box: str) -> list:
        out_of_supply = pog(ctx).get("attrition")
        if out_of_supply is None:
            return [illegal("14.3.5", "units leave the map this way only in the Attrition phase (combat losses go in the attack)", action)]
        found = []
        for unit_id in units:
            unit = state.units[unit_id]
            if unit_id not in out_of_supply:
                found.append(illegal("14.3.5", f"{self.name(unit_id)} is in supply: attrition does not eliminate it", action))
            elif self.is_army(unit) and box != "permanently_eliminated":
                found.append(illegal("14.3.5", f"{self.name(unit_id)} is an army: out of supply in the Attrition phase it is removed permanently (remove to permanently_eliminated)", action))
            elif not self.is_army(unit) and box != "eliminated":
                found.append(illegal("14.3.5", f"{self.name(unit_id)} is a corps: it goes to the Eliminated box (eliminate), not {box}", action))
        return found
