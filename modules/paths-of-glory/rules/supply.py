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

from dataclasses import dataclass, field
from typing import Any

from pbem.model.jsonsource import copy_json
from pbem.model.state import OFF_MAP, State, UnitState
from pbem.rules.ruleset import TurnContext, illegal
from pbem.rules.supply import components, spread

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
    _shared: dict  # what every network of one situation and the same lines shares (their stretches)

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
        component, port_components = self.stretches()
        return any(component[n] in port_components for n in lines[here])

    def stretches(self) -> tuple[list[int], set[int]]:
        """Each space's stretch (joined by passable spaces; -1 if not passable), and the stretches holding a
        friendly port."""
        found = self._shared.get("stretches")
        if found is None:
            component = components(self.lines, self.open_)
            found = self._shared["stretches"] = (component, {component[p] for p in self.ports} - {-1})
        return found


def _status_print(status: dict) -> tuple:
    """What a side's supply lines depend on in the status: control, forts, the beach-head and neutral nations."""
    forts = status.get("forts")
    return (
        tuple(status.get("control", {}).items()),
        tuple(forts.items()) if forts else (),
        status.get("mef_beachhead"),
        tuple(status.get("neutral_nations", ())),
    )


def _fingerprint(state: State, status_print: tuple, enemy: frozenset[int], salonika: bool) -> tuple:
    """What a side's supply lines depend on: where the enemy's units stand (``enemy``), the status's part
    (``_status_print``: control, forts, the beach-head, neutral nations), whether a besieged fort's space still
    holds besiegers, and whether the Salonika event opened Greece (9.5.2.4, ``salonika``)."""
    return (
        enemy,  # 10.1.3: one side a space
        status_print,
        # a siege lasts while besiegers stand in the fort's space (``besieged``): the besieger's own units count
        tuple(bool(state.stacks.get(loc)) for loc in _besieged_spaces(state)) if status_print[1] else (),
        salonika,
    )


def _besieged_spaces(state: State) -> list[int]:
    forts = state.status.get("forts", {})
    if not forts:
        return []
    game_map = state.module.map
    return [game_map.index(label) for label, how in forts.items() if how == "besieged"]


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
_KEPT = 16  # situations whose supply networks are kept (a check may look at the state with and without the beach-head)


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
        return found

    def _always_supplied(self, state: State, nation: str, contingent: str | None) -> bool:
        """Units of this nationality and contingent need no supply line: 14.1.5 (MN, the ANA and SN corps), and a
        neutral nation's units (Greece's after the Salonika event, 9.5.2.4) are not at war: no supply, no attrition."""
        return nation in ALWAYS or contingent in ("ANA",) or nation == "SN" or self.neutral(state, nation)

    def _supplied_at_home(self, nation: str, here: int) -> bool:
        """14.1.6: a Serbian unit in Serbia; 14.1.8: a Turkish unit in Medina."""
        game_map = self.module.map
        return (nation == "SB" and game_map.country[here] == "SB") or (nation == "TU" and game_map.label(here) == "Medina")

    def _network(self, state: State, unit: UnitState) -> "_Network":
        """The supply network of the unit's side and kind, traced once and kept while nothing it depends on
        changes (the enemy's positions, control, forts, the beach-head, neutral nations): the passable spaces
        joined to a usable source (traced back from the sources along the lines a unit traces forward), the
        ports joined to a source, and (when a unit needs the sea) the stretches of passable spaces."""
        nation = unit.unit.type.nationality
        side = unit.side
        lines = self.supply_lines(state, unit)
        # Units whose lines run over the same connections share a network (most nationalities use no dashed line).
        key = (id(lines), nation in RUSSIAN_FAMILY, nation == "SB")
        print_ = self._situation(state, side)
        cache = self.__dict__.setdefault("_supply_networks", {})
        kept = cache.get(print_)
        if kept is None:
            if len(cache) >= _KEPT:
                del cache[next(iter(cache))]  # the oldest situation
            kept = cache[print_] = ({}, self._open_spaces(state, side), self._port_spaces(state, side), {})
        net = kept[0].get(key)
        if net is None:
            net = kept[0][key] = self._trace(state, lines, side, nation, kept[1], kept[2], kept[3].setdefault(key, {}), key)
        return net

    def _situation(self, state: State, side: str) -> int:
        """A number for the ``_fingerprint`` of the side's situation (the same number for the same fingerprint),
        worked out again only when what it reads has changed: where units stand (``State.layout``) or the status
        entries it reads (compared by value with a copy, since rules change them in place). Most supply questions
        of a turn come while nothing has changed since the last one, and most changes move units only."""
        status = state.status
        control = status.get("control")
        forts = status.get("forts")
        neutral = status.get("neutral_nations")
        events = status.get("events_played")
        beachhead = status.get("mef_beachhead")
        # One memo per beach-head: a check that asks with and without it (9.2.7.1) toggles between two.
        memos = self.__dict__.get("_situation_memos")
        if memos is None:
            memos = self.__dict__["_situation_memos"] = {}
        memo = memos.get(beachhead)
        if memo is None or memo[2] != control or memo[3] != forts or memo[4] != neutral or memo[5] != events:
            if memo is None and len(memos) >= 4:
                memos.clear()
            memo = memos[beachhead] = [
                state.layout, beachhead, _copy(control), _copy(forts), _copy(neutral), _copy(events), {},
                _status_print(status)]
        elif memo[0] != state.layout:
            memo[0] = state.layout
            memo[6] = {}
        found = memo[6].get(side)
        if found is None:
            # A small number per fingerprint: hashing the fingerprint (control holds a hundred spaces) at every
            # question cost more than the answer.
            numbers = self.__dict__.setdefault("_situation_numbers", {})
            if len(numbers) >= 64:  # numbers given again from 0: nothing kept under the old ones may stay
                numbers.clear()
                self.__dict__.pop("_supply_networks", None)
                for other in memos.values():
                    other[6].clear()
            print_ = (side, _fingerprint(state, memo[7], self.enemy_spaces(state, side), self.played(state, "salonika")))
            found = memo[6][side] = numbers.setdefault(print_, len(numbers))
        return found

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
        entry opens its spaces, 9.5.2.4) where units stand."""
        status = state.status
        neutral = tuple(status.get("neutral_nations", ()))
        control = status.get("control", {})
        greek = "GR" in neutral and self.played(state, "salonika")
        units_key = state.layout if greek else None
        last = self.__dict__.get("_controllers_last")  # the last answer, and what it was read from (a copy)
        if last is not None and last[0] == control and last[1] == neutral and last[2] == units_key:
            return last[3]
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
        besieged friendly fort; or a besieged enemy fort."""
        controllers = self.controllers(state)
        open_ = [c == side for c in controllers]
        # A fort not marked besieged leaves its space as control says (fort() and besieged() read the mark).
        for label, how in state.status.get("forts", {}).items():
            location = self._label_index().get(label)
            if how != "besieged" or location is None or not self.module.map.extra[location].get("fort"):
                continue
            besieged = bool(self.fort(state, location)) and self.besieged(state, location)
            open_[location] = (not besieged) if controllers[location] == side else besieged
        for location in self.enemy_spaces(state, side):
            open_[location] = False
        return open_

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

    def _trace(self, state: State, lines: list[tuple[int, ...]], side: str, nation: str, open_: list[bool], port_spaces: list[int], shared: dict, key: tuple) -> "_Network":
        """The network traced from what it depends on alone: the lines, the sources, the spaces open to supply and the
        friendly ports. A new situation (the enemy or control changed) often leaves all of them as they were (an
        enemy unit moved between spaces closed to this side anyway): then the last network of this kind is it."""
        sources = self._sources(state, side, nation)
        last_of_kind = self.__dict__.setdefault("_last_network", {})
        last = last_of_kind.get((side, key))
        if last is not None and last[0].lines is lines and last[0].sources == sources and last[0].open_ == open_ and last[1] == port_spaces:
            return last[0]
        net = self._traced(lines, nation, sources, open_, port_spaces, shared)
        last_of_kind[(side, key)] = (net, port_spaces)
        return net

    @staticmethod
    def _traced(lines: list[tuple[int, ...]], nation: str, sources: set[int], open_: list[bool], port_spaces: list[int], shared: dict) -> "_Network":
        reached = spread(lines, [s for s in sources if open_[s]], open_)
        ports: set[int] = set()
        landings: list[int] = []
        if nation not in RUSSIAN_FAMILY:
            for location in port_spaces:
                ports.add(location)
                if location in sources or any(n in reached for n in lines[location]):
                    landings.append(location)
        return _Network(sources, reached, lines, ports, landings, open_, shared)

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

    def _sources(self, state: State, side: str, nation: str) -> set[int]:
        game_map = self.module.map
        controllers = self.controllers(state)
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
        for unit in state.units.values():
            here = unit.at
            if here == OFF_MAP:
                continue
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
            if not supplied:
                found.add(unit.id)
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
