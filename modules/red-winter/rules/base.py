"""Red Winter (GMT 2012): the game's rules on pbem's kernel — the base: unit facts, zones of control,
terrain, phases, movement, reinforcements, combat, assault, losses, retreat and advance.

Rule numbers: the source has no case numbers, but the digest cites GMT rule numbers for many checklist items;
``RULE_NUMBERS`` maps each checklist id to the GMT number the digest gives for it (its own case, else the
chapter of its section). A violation reports that number as its rule and keeps the checklist id at the end of
its message (``rule 5.3 ... (MV-4)``); items the digest gives no GMT number for keep their checklist id.
Every number comes from ``tables.json``; every choice the digest leaves open is an option in ``module.json``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pbem.model.actions import Action, Combat, Move, Phase, Reinforce
from pbem.model.errors import PbemError
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules import ruleset as _base
from pbem.rules.combat import CombatOdds, CombatResultsTable, ratio_text, round_odds
from pbem.rules.ruleset import Ruleset, TurnContext
from pbem.rules.zoc import in_zoc

SOVIET, FINNISH = "soviet", "finnish"
RESET, ACTION, COMBAT, SUB_ZERO, VICTORY = "reset", "action", "combat", "sub_zero", "victory"
PHASES = (RESET, ACTION, COMBAT, SUB_ZERO, VICTORY)
ASSAULT_ARMS = {"infantry", "mg", "engineer", "armour"}
NEVER_ADVANCE = {"mortar", "at_gun", "infantry_gun", "artillery"}
SUPPLY_SOURCE = {FINNISH: "A13", SOVIET: "X28"}
# Choices where the sources are silent (README); the first is the default.
OPTION_CHOICES = {
    "finnish_stance_lasts": ("declared_turn", "rest_of_game"),
    "soviet_morale_collapse": ("full_infantry_and_mg_below_12", "claimed"),
}

# Checklist id (digest section 3) -> the GMT rule number the digest cites for it: the item's own case where it
# gives one (MV-4 road rate 5.3, MV-5 extended movement 4.3, MV-6 ski bonus 4.4, SH-* modifiers 8.3, LS-4 the
# Hotel 5.2.5), else the chapter its section heading cites (stacking 6.0, movement 4.0, ZOC 7.0, assault 9.0,
# bonfire 16.2, dig-in 14.0, reinforcements 13.0, combat 8.0, ranged attacks 10.0, anti-tank fire 11.0,
# supply 15.0, sequence of play 3.0). Sections with no GMT number in the digest (events EV, recovery RC, odds
# OD, losses LS, retreat RT, advance AV, victory VC) and those it only infers (night raids "16.3.x", sub-zero
# "16.x") keep their checklist ids.
_CHAPTER = {"SK": "6.0", "MV": "4.0", "ZC": "7.0", "AS": "9.0", "BF": "16.2", "DI": "14.0", "RE": "13.0",
            "CB": "8.0", "SH": "8.3", "RA": "10.0", "AT": "11.0", "SP": "15.0", "SEQ": "3.0"}  # fmt: skip
_CASE = {"MV-4": "5.3", "MV-5": "4.3", "MV-6": "4.4", "LS-4": "5.2.5"}
RULE_NUMBERS = {f"{prefix}-{n}": _CASE.get(f"{prefix}-{n}", chapter) for prefix, chapter in _CHAPTER.items() for n in range(1, 14)}
RULE_NUMBERS.update(_CASE)


def rule_number(checklist_id: str) -> str:
    """The GMT number reported for a checklist id, or the id itself when the digest cites none."""
    return RULE_NUMBERS.get(checklist_id, checklist_id)


def _tagged(checklist_id: str, message: str) -> tuple[str, str]:
    number = rule_number(checklist_id)
    return number, (message if number == checklist_id else f"{message} ({checklist_id})")


def illegal(checklist_id: str, message: str, action: Action | None = None) -> Violation:
    return _base.illegal(*_tagged(checklist_id, message), action)


def mismatch(checklist_id: str, message: str, action: Action | None = None) -> Violation:
    return _base.mismatch(*_tagged(checklist_id, message), action)


def warning(checklist_id: str, message: str, action: Action | None = None) -> Violation:
    return _base.warning(*_tagged(checklist_id, message), action)



@dataclass
class Assessment:
    attack: int
    defence: int
    odds: tuple[int, int] | None
    shifts: list[tuple[str, int]] = field(default_factory=list)
    column: str = ""

    @property
    def net(self) -> int:
        return sum(n for _, n in self.shifts)

    def explain(self) -> str:
        return ", ".join(f"{name.replace('_', ' ')} {n:+d}" for name, n in self.shifts) or "no shifts"


class RedWinterBase(Ruleset):
    unchecked_ok = frozenset({"comment", "eliminate", "loss", "remove"})

    def __init__(self, module):
        super().__init__(module)
        t = module.tables
        self.options = module.options
        self.crt = CombatResultsTable.from_table(t["crt"])
        self.scale = self.crt.scale
        self.terrain = t["terrain"]
        self.turns = {e["turn"]: e for e in t["turn_track"]["turns"]}
        self.track = t["turn_track"]
        self.codes = t["setup_codes"]["units"]
        self.stacking = t["stacking_rules"]
        self.ranged = t["ranged_attack"]
        self.shift_cols = {e["id"]: e["columns"] for e in t["resolution_modifiers"]["entries"]}
        self.map = module.map
        for name, allowed in OPTION_CHOICES.items():
            if self.options.get(name, allowed[0]) not in allowed:
                raise PbemError(f"module.json options.{name}: {self.options[name]!r} is not one of {', '.join(allowed)}")

    @staticmethod
    def rule_number_of(checklist_id: str) -> str:
        return rule_number(checklist_id)

    # --- unit facts ---------------------------------------------------------------------------------
    def attrs(self, unit: UnitState) -> dict:
        """The printed values the kernel's fields do not hold (ras, range, boxed, indirect, at_strength ...)."""
        return unit.unit.type.attributes

    def arm(self, unit: UnitState) -> str:
        return unit.unit.type.arm

    def is_company(self, unit: UnitState) -> bool:
        return bool(self.attrs(unit).get("infantry_company"))

    def is_armour(self, unit: UnitState) -> bool:
        return self.arm(unit) == "armour"

    def other(self, side: str) -> str:
        return FINNISH if side == SOVIET else SOVIET

    def period(self, state: State) -> str:
        return self.turns.get(state.turn, {}).get("period", "day")

    def night(self, state: State) -> bool:
        return self.period(state) == "night"

    def los_range(self, state: State) -> int:
        return self.turns.get(state.turn, {}).get("los", 5)

    # --- zones of control (ZC-1: the six adjacent hexes; leaders exert none, SU-3) ----------------------
    def exerts(self, unit: UnitState) -> bool:
        return unit.on_map and self.arm(unit) not in ("leader", "artillery")

    def in_ezoc(self, state: State, location: int, unit: UnitState) -> bool:
        enemy = self.other(unit.side)
        if self.is_armour(unit):  # MV-11: armour heeds only the ZOC of Finnish AT units
            return in_zoc(state, self.map, location, enemy, lambda u: self.exerts(u) and self.arm(u) == "at_gun")
        return in_zoc(state, self.map, location, enemy, self.exerts)

    def enemy_distance(self, state: State, location: int, side: str) -> int:
        enemies = [u.at for u in state.units.values() if u.on_map and u.side == self.other(side)]
        return min((self.map.distance(location, e) for e in enemies), default=99)

    # --- terrain ------------------------------------------------------------------------------------
    def terrain_cost(self, unit: UnitState, b: int) -> float | None:
        terrain = self.map.terrain[b]
        if terrain == "frozen_lake" and unit.side == FINNISH and self.arm(unit) != "at_gun":  # MV-6 ski bonus
            return self.terrain["ski_cost"]["frozen_lake"]
        return self.terrain["cost"][terrain]

    def road_cost(self, unit: UnitState, a: int, b: int) -> float | None:
        """Cost of moving a -> b along a road or trail, or None when there is none."""
        if not self.map.has_road(a, b):
            return None
        if "trail" in self.map.hexside(a, b) and self.is_armour(unit):
            kind = self.attrs(unit).get("armour")
            return self.terrain["trail_armoured_car"] if kind == "armoured_car" else self.terrain["trail_tank"]
        return self.terrain["road"]

    # --- phases ---------------------------------------------------------------------------------------
    def begin(self, state: State, turn) -> TurnContext:
        ctx = super().begin(state, turn)
        state.turn = turn.header.turn  # the turn being played gives the time of day, LOS and night
        ctx.extra.update(acted=set(), rp_spent=0, last_roll=None, start_ezoc=None, assaulted=set(), assault_made=set(), moved=set())
        return ctx

    def check_phase(self, action: Phase, state: State, ctx: TurnContext) -> list[Violation]:
        found = self._end_of_phase(state, ctx)
        if action.name not in PHASES:
            found.append(illegal("SEQ-1", f"there is no {action.name!r} phase (phases: {', '.join(PHASES)})", action))
        if action.name == SUB_ZERO and state.turn not in self.track["night_turns"]:
            found.append(illegal("SZ-1", f"turn {state.turn} is not a night turn: no Sub-Zero Loss Phase", action))
        ctx.new_phase(action.name, action.side or ctx.active_side)
        if action.name == ACTION:
            ctx.extra["acted"] = set()
            ctx.extra["assaulted"], ctx.extra["assault_made"], ctx.extra["moved"] = set(), set(), set()  # AS-1, AS-5: per Action Phase
            # MV-13: double movement at night only for units not in an enemy ZOC when the phase starts.
            ctx.extra["start_ezoc"] = {u.id for u in state.units.values() if u.on_map and self.in_ezoc(state, u.at, u)}
            ctx.extra["phase_start_at"] = {u.id: u.at for u in state.units.values() if u.on_map}  # NR-3
        ctx.extra["at_fired"], ctx.extra["ranged_fired"], ctx.extra["advancing"], ctx.extra["armour_fired_at"] = set(), set(), {}, {}
        return found

    def after_phase(self, action: Phase, state: State, ctx: TurnContext) -> list[Violation]:
        """Markers that phases clear: the Reset Phase flips the phasing side's fired units back (RA-8) and
        ends suppression (it lasts the combat phase it was placed in, RA-7); the phase after the Sub-Zero Loss
        Phase starts without Bonfire and Skull markers (SZ-2)."""
        side = action.side or ctx.active_side
        if side == SOVIET and not ctx.extra.get("collapse_checked"):
            # 17.0.4 is checked in the Soviet Reset Phase; a file that starts later (no reset marker) passed it
            # with the units as they stand when its first Soviet phase begins.
            ctx.extra["collapse_checked"] = True
            self.check_morale_collapse(state)
        if action.name == RESET:
            for unit in state.units.values():
                if unit.side == side:
                    unit.markers.discard("fired")
                unit.markers.discard("suppressed")
        if action.name == VICTORY:
            for unit in state.units.values():
                unit.markers.difference_update({"bonfire", "skull"})
        return []

    def morale_side(self, state: State) -> str | None:
        """SH-7: the side whose morale bonus applies this turn (Soviets 8 Dec, Finns 11-12 Dec)."""
        lo, hi = self.track["soviet_morale_turns"]
        flo, fhi = self.track["finnish_morale_turns"]
        return SOVIET if lo <= state.turn <= hi else FINNISH if flo <= state.turn <= fhi else None

    def events_after_entry(self, state: State) -> None:
        """EV-2: a Soviet unit in A13 sends every Finnish artillery unit out of the game."""
        events = state.status.setdefault("events", {}) if state.side_at(self.map.index("A13")) == SOVIET else None
        if events is not None and not events.get("A13"):
            events["A13"] = state.turn
            for unit in state.units.values():
                if unit.side == FINNISH and self.arm(unit) == "artillery":
                    state.remove(unit.id, "eliminated")

    def finish(self, state: State, ctx: TurnContext) -> list[Violation]:
        return self._end_of_phase(state, ctx)

    def _end_of_phase(self, state: State, ctx: TurnContext) -> list[Violation]:
        """SK-1: hexes entered by reinforcements, retreats and advances are judged when the phase ends."""
        found = []
        for location in sorted(ctx.touched):
            found += self.over_stacked(state, location, ctx.last_entry.get(location), "")
        ctx.touched.clear()
        return found

    def over_stacked(self, state: State, location: int, culprit: Action | None, when: str) -> list[Violation]:
        """SK-1/SK-2: at most 5 units in a hex (leaders free), of which at most 3 infantry companies."""
        units = [u for u in state.units_at(location) if self.arm(u) != "leader"]
        companies = [u for u in units if self.is_company(u)]
        if len(units) > self.stacking["max_units"]:
            return [illegal("SK-1", f"{self.where(location)} holds {len(units)} units{when}, limit {self.stacking['max_units']} (leaders excluded); the excess must be destroyed", culprit)]
        if len(companies) > self.stacking["max_infantry_companies"]:
            return [illegal("SK-1", f"{self.where(location)} holds {len(companies)} infantry companies{when}, limit {self.stacking['max_infantry_companies']}; the excess must be destroyed", culprit)]
        return []

    # --- movement ---------------------------------------------------------------------------------------
    def allowance(self, unit: UnitState, state: State, ctx: TurnContext) -> tuple[float, str]:
        mp = unit.face.move
        if self.night(state) and unit.id not in (ctx.extra.get("start_ezoc") or set()):
            return 2 * mp, f"{2 * mp} MP (double movement at night)"
        return mp, f"an MP allowance of {mp}"

    def check_move(self, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        if "advance" in action.declared:
            return self._check_advance_move(action, state, ctx)
        if ctx.phase != ACTION:
            return [illegal("SEQ-1", f"units move only in their Action Phase, not in the {ctx.phase or 'no'} phase", action)]
        found: list[Violation] = []
        unknown = action.declared - {"double", "extended"}
        if unknown:
            return [illegal("MV-1", f"unknown move declaration(s) {', '.join(sorted(unknown))} (double, extended, advance)", action)]
        if "double" in action.declared:
            if not self.night(state):
                return [illegal("MV-13", f"double movement is a night-turn action; turn {state.turn} is {self.period(state)}", action)]
            bound = [u for u in action.units if u in (ctx.extra.get("start_ezoc") or set())]
            if bound:
                return [illegal("MV-13", f"{self.name(bound[0])} was in an enemy ZOC at the start of the Action Phase: no double movement", action)]
        for unit_id in action.units:
            found += self._check_unit_move(unit_id, action.path, state, ctx, action)
            if found:
                break
        return found

    def _check_advance_move(self, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        """AV-3: after a combat whose defender retreated N hexes, advancing units (already in the vacated hex)
        may go on up to N hexes in all, stopping on entering an enemy ZOC."""
        advancing = ctx.extra.get("advancing") or {}
        for unit_id in action.units:
            name = self.name(unit_id)
            if unit_id not in advancing:
                return [illegal("AV-3", f"{name} did not advance after the last combat", action)]
            allowed, _ = advancing[unit_id]
            unit = state.units[unit_id]
            if action.path[0] != unit.at:
                return [illegal("AV-3", f"{name} is in {self.where(unit.at)}, but its advance starts in {self.where(action.path[0])}", action)]
            if len(action.path) - 1 > allowed:
                return [illegal("AV-3", f"{name} advances {len(action.path)} hexes in all, but the defender retreated {allowed + 1}: the advance may be as long as the retreat", action)]
            for k in range(1, len(action.path)):
                a, b = action.path[k - 1], action.path[k]
                if not self.map.is_adjacent(a, b):
                    return [illegal("AV-3", f"{name} jumps from {self.where(a)} to {self.where(b)}", action)]
                if state.side_at(b) not in (None, unit.side):
                    return [illegal("AV-3", f"{name} advances into {self.where(b)}, held by the enemy", action)]
                if self.in_ezoc(state, a, unit):  # the vacated hex counts: entering it may already end the advance
                    return [illegal("AV-3", f"{name} entered {self.where(a)}, in an enemy ZOC, and must stop there", action)]
        return []

    def _walk(self, unit: UnitState, path: tuple[int, ...], state: State, ctx: TurnContext, action, *, into_enemy_last: bool = False) -> tuple[float, list[Violation], bool]:
        """MP spent along ``path`` and what it broke; the flag says whether every step was by road."""
        name = self.name(unit.id)
        total = 0.0
        all_road = True
        for k in range(1, len(path)):
            a, b = path[k - 1], path[k]
            if not self.map.is_adjacent(a, b):
                return total, [illegal("MV-1", f"{name} jumps from {self.where(a)} to {self.where(b)}, which are not adjacent", action)], False
            holder = state.side_at(b)
            last = k == len(path) - 1
            if holder is not None and holder != unit.side and not (into_enemy_last and last):
                if not all(self.arm(u) == "leader" for u in state.units_at(b)):
                    return total, [illegal("MV-2", f"{name} enters {self.where(b)}, held by {holder} units", action)], False
            if k > 1 and self.in_ezoc(state, a, unit) and not (into_enemy_last and last):
                return total, [illegal("MV-3", f"{name} entered {self.where(a)}, in an enemy ZOC, and must stop there", action)], False
            terrain = self.terrain_cost(unit, b)
            if terrain is None:
                return total, [illegal("MV-1", f"{self.where(b)} is off the map", action)], False
            road = self.road_cost(unit, a, b)
            enters_ezoc = self.in_ezoc(state, b, unit)
            if self.is_armour(unit) and road is None and self.map.terrain[b] != "village":
                return total, [illegal("MV-11", f"{name} is armour and may leave the road only to enter a village; {self.where(a)}-{self.where(b)} has no road and {self.where(b)} is {self.map.terrain[b].replace('_', ' ')}", action)], False
            if road is not None and not enters_ezoc:
                cost = road
            else:
                cost = terrain  # MV-4: no road rate into an enemy ZOC
                all_road = all_road and road is not None and False
            if road is None:
                all_road = False
            if self.in_ezoc(state, a, unit) and k == 1:
                cost += 1  # MV-3: +1 MP to leave an enemy ZOC
            total += cost
        return total, [], all_road

    def _check_unit_move(self, unit_id: str, path: tuple[int, ...], state: State, ctx: TurnContext, action) -> list[Violation]:
        unit, name = state.units[unit_id], self.name(unit_id)
        if not unit.on_map:
            return [illegal("MV-1", f"{name} is not on the map ({unit.box})", action)]
        if unit.side != ctx.phase_side:
            return [illegal("SEQ-1", f"{name} is a {unit.side} unit and may not move in the {ctx.phase_side} Action Phase", action)]
        if path[0] != unit.at:
            return [illegal("MV-1", f"{name} is in {self.where(unit.at)}, but its path starts in {self.where(path[0])}", action)]
        if unit_id in ctx.extra["acted"] and unit_id not in ctx.extra["assaulted"]:
            return [illegal("SEQ-1", f"{name} has already taken its action this phase", action)]
        total, found, all_road = self._walk(unit, path, state, ctx, action)
        if found:
            return found
        limit, reason = self.allowance(unit, state, ctx)
        spent = ctx.mp_spent.get(unit_id, 0)
        # MV-5 extended movement: +2 MP for a move wholly by road staying 4+ hexes from every enemy unit.
        extended = all_road and all(self.enemy_distance(state, h, unit.side) >= self.terrain["extended_distance"] for h in path)
        if extended:
            limit += self.terrain["extended_movement"]
            reason += " +2 extended movement"
        elif "extended" in action.declared:
            why = "is not wholly along a road" if not all_road else f"comes within {self.terrain['extended_distance'] - 1} hexes of an enemy unit"
            return [illegal("MV-5", f"{name} claims extended movement, but its move {why}", action)]
        minimum = spent == 0 and len(path) == 2  # MV-7
        if spent + total > limit and not minimum:
            by_road = self._road_total(unit, path)
            if by_road is not None and spent + by_road <= limit:
                return [illegal("MV-4", f"{name} spends {_mp(spent + total)} MP along {'-'.join(self.where(h) for h in path)} with {reason}: the road rate does not apply to a hex in an enemy ZOC, which costs its terrain", action)]
            return [illegal("MV-1", f"{name} spends {_mp(spent + total)} MP along {'-'.join(self.where(h) for h in path)} but has {reason}", action)]
        ctx.mp_spent[unit_id] = spent + total
        return []

    def _road_total(self, unit: UnitState, path: tuple[int, ...]) -> float | None:
        costs = [self.road_cost(unit, a, b) for a, b in zip(path, path[1:])]
        return None if None in costs else sum(costs)  # type: ignore[arg-type]

    def after_move(self, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        for unit_id in action.units:  # MV-10/RT-4: a unit that leaves loses its dig-in marker
            if len(action.path) > 1:
                state.units[unit_id].markers.difference_update({"dug_in", "digging_in"})
            (ctx.extra.get("advancing") or {}).pop(unit_id, None)
        self.events_after_entry(state)
        destination = action.path[-1]
        ctx.extra["acted"].update(action.units)
        ctx.extra["moved"].update(action.units)
        # SK-2: stacking is judged at the end of every unit's move, so a hex thinned out later is no excuse.
        found = self.over_stacked(state, destination, action, " at the end of this move")
        if found:
            ctx.touched.discard(destination)
        return found

    # --- reinforcements ---------------------------------------------------------------------------------
    def check_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        found = []
        if ctx.phase != ACTION:
            found.append(illegal("RE-1", f"reinforcements enter in the owner's Action Phase, not the {ctx.phase or 'no'} phase", action))
        for unit_id in action.units:
            unit, name = state.units[unit_id], self.name(unit_id)
            code = self.codes.get(unit_id, "").split(" ")[0]
            entry = self.entry_hex(unit, state)
            if unit.on_map:
                found.append(illegal("RE-1", f"{name} is already on the map", action))
                continue
            if self.is_armour(unit) and state.turn < self.track["armour_from_turn"]:
                found.append(illegal("RE-5", f"Soviet armour may be committed from turn {self.track['armour_from_turn']} on, not turn {state.turn}", action))
            elif code.isdigit() and state.turn < int(code):
                found.append(illegal("RE-1", f"{name} arrives on turn {code}, not turn {state.turn}", action))
            if self.where(action.at) != entry:
                found.append(illegal("RE-4" if entry == "X1" else "RE-1", f"{name} must enter at {entry}, not {self.where(action.at)}", action))
            elif state.side_at(action.at) not in (None, unit.side):
                found.append(illegal("RE-2", f"{entry} is held by the enemy: {name} enters next turn within 3 hexes of it", action))
        return found

    def entry_hex(self, unit: UnitState, state: State) -> str:
        """RE-1/RE-4: the hex the turn track prints for the turn the counter is coded for ("Sov 4 (at hex X1)" on
        turns 11 and 13, "Sov 8 (at hex X1)" on 14: the 718th and the two 139th AT sections coded 14), else the
        supply source. A company back from the turn track (rebuilt, RE-7) enters at the supply source."""
        code = self.codes.get(unit.id, "").split(" ")[0]
        if code.isdigit() and unit.id not in (state.status.get("turn_track") or {}):
            printed = self.turns.get(int(code), {}).get("reinforcement_entry", {}).get(unit.side)
            if printed:
                return printed
        return SUPPLY_SOURCE[unit.side]

    def after_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        for unit_id in action.units:
            cost = self.terrain_cost(state.units[unit_id], action.at) or 0
            ctx.mp_spent[unit_id] = ctx.mp_spent.get(unit_id, 0) + cost  # MV-12
            if self.where(action.at) == "A13" and state.turn == 4:
                ctx.mp_spent[unit_id] += 2  # RE-3
        self.events_after_entry(state)
        ctx.touched.add(action.at)
        ctx.last_entry[action.at] = action
        return []

    # --- combat -------------------------------------------------------------------------------------------
    def assess(self, action: Combat, state: State, ctx: TurnContext, assault: bool, raid: bool = False) -> Assessment:
        attackers = [state.units[u] for u in action.attackers if state.units[u].on_map]
        target = action.target
        defenders = state.units_at(target)
        attack_side = attackers[0].side if attackers else ctx.active_side
        night = self.night(state)
        armour = sum(u.face.attack for u in attackers if self.is_armour(u))
        others = sum(u.face.attack for u in attackers if not self.is_armour(u))
        attack = others + (armour // 2 if night else armour)  # case 2: armour halved at night, rounded down
        all_lake = all(self.map.terrain[u.at] == "frozen_lake" for u in attackers + defenders)
        halved = any(
            self.map.terrain[u.at] == "frozen_lake" or "bridge" in self.map.hexside(u.at, target) for u in attackers
        )
        if halved and not all_lake:  # case 1, OD-2: the whole attacking total, rounded up
            attack = math.ceil(attack / 2)
        defence = 0
        fresh = [u for u in defenders if u.id not in ctx.retreated]
        counted = fresh or defenders
        for u in counted:
            cs = u.face.defence * (2 if self.attrs(u).get("boxed") else 1)  # OD-5
            defence += (cs // 2 if night else cs) if self.is_armour(u) else cs
        if not fresh and defenders:
            defence = math.ceil(defence / 2)  # OD-4: only retreated units defend
        odds = round_odds(attack, defence) if defence > 0 else None
        if raid:  # NR-5: only cases 1 and 2 (strengths) apply; the Night Raid Table gives the shift
            shifts = [("night_raid", (ctx.extra.get("raid") or {}).get("shift") or 0)]
        else:
            shifts = self._shifts(action, attackers, defenders, attack_side, state, assault, all_lake)
        position = self.scale.position(odds) if odds else len(self.scale.columns) - 1
        if self.options.get("odds_clamp", "before_shifts") == "before_shifts":
            position = self.scale.clamp(position)
        return Assessment(attack, defence, odds, shifts, self.scale.column(position + sum(n for _, n in shifts)))

    def _shifts(self, action, attackers, defenders, attack_side, state, assault, all_lake) -> list[tuple[str, int]]:
        shifts: list[tuple[str, int]] = []
        cols = self.shift_cols

        def toward(side: str) -> int:
            return 1 if side == attack_side else -1

        target = action.target
        if not assault:  # case 3: suppression, net at most 3 either way
            net = action.support.get("offensive", 0) - action.support.get("defensive", 0)
            if net:
                shifts.append(("suppression", max(-3, min(3, net))))
            # case 4, SH-3: the concentric attack's geometry is not in the sources; a claimed 1R is taken as given.
            if (action.shifts or {}).get("concentric"):
                shifts.append(("concentric", cols.get("concentric", 1)))
        if self.map.terrain[target] == "frozen_lake":
            if all_lake:
                shifts.append(("all_on_lake", toward(FINNISH) * cols["all_on_lake"]))
            elif attack_side == FINNISH:
                shifts.append(("frozen_lake_defender", cols["frozen_lake_defender_finns"]))
            else:
                shifts.append(("frozen_lake_defender", cols["frozen_lake_defender"]))
        if any(self.arm(u) == "leader" for u in attackers + defenders):
            shifts.append(("pajari", toward(FINNISH) * cols["pajari"]))
        if any("dug_in" in u.markers for u in defenders):
            shifts.append(("dug_in", -cols["dug_in"]))
        morale_side = self.morale_side(state)
        if morale_side:
            shifts.append(("morale", toward(morale_side) * (cols["morale_assault"] if assault else cols["morale"])))
        if any(self.is_armour(u) and u.side == SOVIET for u in attackers + defenders):
            shifts.append(("soviet_armour", toward(SOVIET) * cols["soviet_armour"]))
        if self.stance_applies(action, state):  # case 10, in the Finns' favour whoever attacks
            shifts.append(("finnish_stance", toward(FINNISH) * cols["finnish_stance"]))
        if any("bonfire" in u.markers for u in defenders):  # case 11: the target hex holds a Bonfire marker
            shifts.append(("bonfire", cols["bonfire"]))
        if attack_side == FINNISH and self.collapse_applies(action, state):  # case 12
            shifts.append(("soviet_morale_collapse", cols["soviet_morale_collapse"]))
        if assault and self.map.terrain[target] in ("forest", "suo", "village"):
            if any(u.side == FINNISH for u in attackers + defenders):
                shifts.append(("smg", toward(FINNISH) * cols["smg"]))
        return shifts

    # --- cases 10 and 12: turn markers --------------------------------------------------------------------
    # The rules behind them (17.1 special rule #1, 17.0.4) are not in the sources; the turn track gives only
    # when they start (day 4, turn 20). How they are read here, and the module options, are in the README.
    def stance_applies(self, action: Combat, state: State) -> bool:
        """Case 10: the Finnish player changes operational stance once, on a turn of his choice from turn 20 on;
        the first combat that claims the shift on an eligible turn is taken as the change (kept in
        ``status.finnish_stance``). It counts on that turn only, or on every later turn too with the module
        option ``finnish_stance_lasts: rest_of_game``."""
        turn = state.status.get("finnish_stance")
        if turn is None:
            return state.turn >= self.track["finnish_stance_from_turn"] and bool((action.shifts or {}).get("finnish_stance"))
        lasts = self.options.get("finnish_stance_lasts", "declared_turn")
        return state.turn == turn or (lasts == "rest_of_game" and state.turn >= turn)

    def collapse_applies(self, action: Combat, state: State) -> bool:
        """Case 12: from the turn the Soviet morale collapsed (``status.soviet_morale_collapse``, set in a Soviet
        Reset Phase from turn 20 on), or, with the option ``soviet_morale_collapse: claimed``, from the first
        Finnish combat on turn 20 or later that claims it."""
        turn = state.status.get("soviet_morale_collapse")
        if turn is not None:
            return state.turn >= turn
        claimed = self.options.get("soviet_morale_collapse", "full_infantry_and_mg_below_12") == "claimed"
        return claimed and state.turn >= self.track["soviet_morale_collapse_from_turn"] and bool((action.shifts or {}).get("soviet_morale_collapse"))

    def note_claimed_shifts(self, action: Combat, state: State) -> None:
        """Keep the turn of a stance change or a morale collapse first shown by a combat's claim."""
        if "finnish_stance" not in state.status and self.stance_applies(action, state):
            state.status["finnish_stance"] = state.turn
        attackers = [state.units[u] for u in action.attackers if u in state.units]
        finnish = bool(attackers) and attackers[0].side == FINNISH
        if "soviet_morale_collapse" not in state.status and finnish and self.collapse_applies(action, state):
            state.status["soviet_morale_collapse"] = state.turn

    def check_morale_collapse(self, state: State) -> None:
        """17.0.4, checked in each Soviet Reset Phase from turn 20 (turn track; ``after_phase``). The trigger is not in the
        sources; the default reading (a player's combat calculator's, marked third-party in the digest): fewer
        than 12 full-strength Soviet infantry companies and MG units on the map. Once collapsed, for good."""
        if "soviet_morale_collapse" in state.status or state.turn < self.track["soviet_morale_collapse_from_turn"]:
            return
        if self.options.get("soviet_morale_collapse", "full_infantry_and_mg_below_12") != "full_infantry_and_mg_below_12":
            return
        full = [u for u in state.units.values() if u.on_map and u.side == SOVIET and u.step == 0 and (self.is_company(u) or self.arm(u) == "mg")]
        if len(full) < 12:
            state.status["soviet_morale_collapse"] = state.turn

    def check_overrun(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        found: list[Violation] = []
        if ctx.phase != ACTION:
            return [illegal("AS-1", f"assaults are made during the Action Phase, not the {ctx.phase or 'no'} phase", action)]
        if action.support or "support" in action.declared:
            found.append(illegal("AS-4", "no ranged support in an assault", action))
        for unit_id in action.attackers:
            unit, name = state.units[unit_id], self.name(unit_id)
            if self.arm(unit) not in ASSAULT_ARMS:
                found.append(illegal("AS-1", f"{name} ({self.arm(unit).replace('_', ' ')}) may not assault: only infantry, MG, engineer and armoured units", action))
                continue
            if unit_id in ctx.extra["assault_made"] and unit_id not in ctx.extra["assaulted"]:
                found.append(illegal("AS-1", f"{name} has already assaulted in this Action Phase: an assault is the last part of a unit's move; only a victorious armoured unit that advanced may go on and assault again (AS-5)", action))
                continue
            if unit_id in ctx.extra["acted"] and unit_id not in ctx.extra["moved"] | ctx.extra["assault_made"]:
                found.append(illegal("SEQ-1", f"{name} has already taken its action this phase (dig-in, bonfire, recovery or night raid); an assault is part of a move", action))
                continue
            if not unit.on_map or not self.map.is_adjacent(unit.at, action.target):
                found.append(illegal("AS-1", f"{name} is not adjacent to {self.where(action.target)}", action))
                continue
            spent = ctx.mp_spent.get(unit_id, 0)
            road = self.road_cost(unit, unit.at, action.target) if self.is_armour(unit) else None
            terrain = self.terrain_cost(unit, action.target) or 0
            cost = (road if road is not None else terrain) + self.terrain["assault_extra"]
            if self.in_ezoc(state, unit.at, unit) and spent > 0:
                cost += 0  # leaving cost is not paid: the assaulting unit does not leave before combat
            limit, reason = self.allowance(unit, state, ctx)
            if spent + cost > limit and spent > 0:  # MV-7: an unmoved unit may always assault
                found.append(illegal("AS-2", f"{name} has {_mp(limit - spent)} MP left but assaulting {self.where(action.target)} ({self.map.terrain[action.target].replace('_', ' ')}) costs {_mp(cost)} ({_mp(cost - 2)} + 2)", action))
            ctx.mp_spent[unit_id] = spent + cost
        # SK-2: stacking is judged again at the start of every assault (a stack that entered as reinforcements,
        # whose move is not over yet, may assault straight away).
        for location in sorted({state.units[u].at for u in action.attackers if state.units[u].on_map}):
            found += self.over_stacked(state, location, action, " at the start of this assault")
        if found:
            return found
        return self._resolve(action, state, ctx, assault=True)

    def odds_attack(self, action: Combat, state: State, ctx: TurnContext) -> CombatOdds | None:
        """The working of a combat for ``pbem check --explain``: the same assessment the check uses."""
        defenders = state.units_at(action.target)
        if not defenders or not any(state.units[u].on_map for u in action.attackers):
            return None
        raid = "night_raid" in action.declared
        if raid and not ctx.extra.get("raid"):
            return None
        a = self.assess(action, state, ctx, assault=action.kind == "overrun", raid=raid)
        return CombatOdds(
            target=self.where(action.target), attack=a.attack, defence=a.defence,
            odds=ratio_text(a.odds) if a.odds else None, shifts=tuple((name, n, "") for name, n in a.shifts),
            column=a.column, die_row=None,
            results=tuple((roll, self.crt.result(a.column, roll, "2d6")) for roll in self.crt.dice("2d6")),
        )  # fmt: skip

    odds_overrun = odds_attack

    def check_attack(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        if "night_raid" in action.declared:
            return self._check_raid_attack(action, state, ctx)
        found: list[Violation] = []
        if ctx.phase != COMBAT:
            return [illegal("CB-1", f"attacks are made in the phasing player's Combat Phase, not the {ctx.phase or 'no'} phase", action)]
        for unit_id in action.attackers:
            unit, name = state.units[unit_id], self.name(unit_id)
            if unit.side != ctx.active_side:
                found.append(illegal("CB-1", f"{name} is not a unit of the phasing player", action))
            elif not unit.on_map or not self.map.is_adjacent(unit.at, action.target):
                found.append(illegal("CB-1", f"{name} is not adjacent to {self.where(action.target)}", action))
            if self.attrs(unit).get("defence_only") or self.arm(unit) in ("infantry_gun", "artillery"):
                found.append(illegal("CB-4", f"{name} ({self.arm(unit).replace('_', ' ')}) never attacks in normal combat", action))
            if unit_id in ctx.attacked_with:
                found.append(illegal("CB-2", f"{name} has already attacked in this Combat Phase", action))
            if "bonfire" in unit.markers:
                found.append(illegal("CB-5", f"{name} is under a Bonfire marker and may not attack", action))
        if found:
            return found
        return self._resolve(action, state, ctx, assault=False)

    def _check_raid_attack(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        """NR-5: the raid's combat follows its Night Raid roll, by the declared raiders, on the declared hex."""
        raid = ctx.extra.get("raid")
        if raid is None or raid.get("attacked"):
            return [illegal("NR-5", "a night-raid attack follows a night_raid order (and its roll)", action)]
        if raid["shift"] is None:
            return [illegal("NR-5", "the Night Raid roll said no attack: the raiders got lost", action)]
        if action.target != raid["target"] or not set(action.attackers) <= raid["raiders"]:
            return [illegal("NR-5", f"the raid attacks {self.where(raid['target'])} with the declared raiders only", action)]
        if action.support:
            return [illegal("NR-5", "no ranged support in a night raid", action)]
        raid["attacked"] = True
        return self._resolve(action, state, ctx, assault=False, raid=True)

    def _resolve(self, action: Combat, state: State, ctx: TurnContext, assault: bool, raid: bool = False) -> list[Violation]:
        found: list[Violation] = []
        defenders = state.units_at(action.target)
        if not defenders or any(u.side == ctx.active_side for u in defenders):
            return [illegal("CB-1" if not assault else "AS-1", f"{self.where(action.target)} holds no enemy unit to attack", action)]
        a = self.assess(action, state, ctx, assault, raid)
        if "concentric" in dict(a.shifts):
            found.append(warning("SH-3", "concentric attack: the sources do not define its geometry, so the claimed 1R is taken as given", action))
        raw = ratio_text(a.odds) if a.odds else "beyond 6/1"
        if action.odds is not None and a.odds is not None and action.odds != raw:
            found.append(mismatch("OD-1", f"odds are {a.attack} to {a.defence} = {raw} (rounded in the defender's favour), not {action.odds}", action))
        if action.shifts is not None:
            actual = dict(a.shifts)
            for sid in sorted(set(actual) | set(action.shifts)):
                if action.shifts.get(sid, 0) != actual.get(sid, 0):
                    found.append(mismatch("SH-1", f"column shift {sid.replace('_', ' ')}: {actual.get(sid, 0):+d} here, not {action.shifts.get(sid, 0):+d}", action))
        if action.column is not None and action.column != a.column:
            found.append(mismatch("OD-6", f"the final column is {a.column}, not {action.column} ({a.explain()})", action))
        if not 2 <= action.roll <= 12:
            return found + [mismatch("LS-1", f"a roll of {action.roll} is impossible with 2d6", action)]
        expected = self.crt.result(a.column, action.roll, "2d6")
        if action.result != expected:
            found.append(mismatch("LS-1", f"a 2d6 roll of {action.roll} at {a.column} gives {expected}, not {action.result} ({a.explain()})", action))
        found += self._check_losses(action, state, ctx, defenders, expected, assault, raid)
        ctx.extra["defenders"] = [u.id for u in defenders]
        return found

    def _check_losses(self, action: Combat, state: State, ctx: TurnContext, defenders: list[UnitState], result: str, assault: bool, raid: bool = False) -> list[Violation]:
        found: list[Violation] = []
        a_loss, d_loss = (int(x) for x in result.split("/"))
        attackers = [state.units[u] for u in action.attackers]
        defending = {u.id for u in defenders}
        retreating = set(action.retreats)
        # LS-4: the Hotel held by infantry or MG ignores the defender's first loss.
        if "hotel" in self.map.features[action.target] and any(self.arm(u) in ("infantry", "mg") for u in defenders):
            d_loss = max(0, d_loss - 1)
        # LS-5: armour may ignore losses outside assaults (and night raids, AT fire).
        armour_only = defenders and all(self.is_armour(u) for u in defenders)
        steps_d = len(action.losses_defender) + sum(len(u.unit.type.steps) - u.step for u in defenders if u.id in action.eliminated)
        retreat_len = max((len(p) for u, p in action.retreats.items() if u in defending), default=0)
        everyone_gone = all(
            u.id in action.eliminated or u.step + action.losses_defender.count(u.id) >= len(u.unit.type.steps) for u in defenders
        )
        if raid:  # NR-5, LS-3: in a night raid both sides take every loss as a step; raiders never move
            if action.retreats:
                found.append(illegal("LS-3", "in a night raid both sides take all losses as steps: no retreat", action))
            if steps_d < d_loss and not everyone_gone:
                found.append(illegal("LS-3", f"{result}: in a night raid the defender takes all {d_loss} loss(es) as steps, not {steps_d}", action))
            a_steps = len(action.losses_attacker) + sum(len(u.unit.type.steps) - u.step for u in attackers if u.id in action.eliminated)
            if a_steps < a_loss and not all(u.id in action.eliminated or u.step + action.losses_attacker.count(u.id) >= len(u.unit.type.steps) for u in attackers):
                found.append(illegal("LS-3", f"{result}: in a night raid the raiders take all {a_loss} loss(es) as steps, not {a_steps}", action))
            if action.advance:
                found.append(illegal("NR-6", "raiders never move: they return to their start hexes, even if the target hex is emptied", action))
            return found
        # RT-3: a retreating stack (units with the same path) that enters an enemy ZOC loses a step there.
        groups: dict[tuple[int, ...], list[str]] = {}
        for unit_id, path in action.retreats.items():
            if unit_id in defending:
                groups.setdefault(tuple(path), []).append(unit_id)
        zoc_groups = [(path, ids) for path, ids in groups.items() if any(self.in_ezoc(state, h, state.units[ids[0]]) for h in path)]
        missing = 0
        for path, ids in zoc_groups:
            if not any(u in action.losses_defender or u in action.eliminated for u in ids):
                missing += 1
                hexes = [self.where(h) for h in path if self.in_ezoc(state, h, state.units[ids[0]])]
                found.append(illegal("RT-3", f"{', '.join(self.name(u) for u in ids)} retreat(s) into an enemy ZOC ({', '.join(hexes)}) and must lose a step there", action))
        if steps_d + retreat_len < d_loss + len(zoc_groups) - missing and not everyone_gone and not (armour_only and not assault):
            found.append(illegal("LS-2", f"{result}: the defender owes {d_loss} loss(es) (steps or retreat hexes){f' + {len(zoc_groups)} for retreating into an enemy ZOC' if zoc_groups else ''} but takes {steps_d} step(s) and retreats {retreat_len} hex(es)", action))
        for unit_id, path in action.retreats.items():
            if unit_id not in defending:
                if unit_id in action.attackers:
                    rule = "AS-4" if assault else "LS-3"
                    found.append(illegal(rule, f"{self.name(unit_id)} retreats, but the attacker takes {'all losses as steps in an assault' if assault else 'its first loss as a step'}", action))
                continue
            found += self._check_retreat(state.units[unit_id], path, action, state, attackers, groups.get(tuple(path), [unit_id]))
        # Attacker losses (LS-3): in an assault all are steps; in a combat the first must be a step.
        a_steps = len(action.losses_attacker) + sum(len(u.unit.type.steps) - u.step for u in attackers if u.id in action.eliminated)
        attacker_retreat = any(u in action.attackers for u in action.retreats)
        if a_loss and not attacker_retreat:
            if assault and a_steps < a_loss:
                found.append(illegal("LS-3", f"{result}: in an assault the attacker takes all {a_loss} loss(es) as steps, not {a_steps}", action))
            elif not assault and a_steps < 1:
                found.append(illegal("LS-3", f"{result}: the attacker's first loss must be a step reduction", action))
        elif a_loss and attacker_retreat and not assault and a_steps < 1:
            found.append(illegal("LS-3", f"{result}: the attacker's first loss must be a step reduction, not a retreat", action))
        # Advance (AV-1, AV-2, AS-5).
        vacated = all(u.id in retreating or u.id in action.eliminated or u.step + action.losses_defender.count(u.id) >= len(u.unit.type.steps) for u in defenders)
        for unit_id in action.advance:
            unit = state.units[unit_id]
            if not vacated:
                found.append(illegal("AV-1", f"{self.where(action.target)} was not vacated: {self.name(unit_id)} may not advance", action))
                break
            if self.arm(unit) in NEVER_ADVANCE:
                found.append(illegal("AV-2", f"{self.name(unit_id)} ({self.arm(unit).replace('_', ' ')}) never advances", action))
        if assault and vacated and defenders:
            survivors = [u for u in attackers if u.id not in action.eliminated and u.step + action.losses_attacker.count(u.id) < len(u.unit.type.steps)]
            if survivors and not action.advance:
                found.append(illegal("AS-5", f"{self.where(action.target)} was emptied: the assaulting force must advance into it", action))
        return found

    def _check_retreat(self, unit: UnitState, path: tuple[int, ...], action: Combat, state: State, attackers: list[UnitState], group: list[str]) -> list[Violation]:
        name = self.name(unit.id)
        limit = unit.face.move - 2  # RT-2
        if limit <= 0:
            return [illegal("RT-2", f"{name} has {unit.face.move} MP and cannot retreat: it must take steps", action)]
        if len(path) > limit:
            return [illegal("RT-2", f"{name} retreats {len(path)} hexes; its limit is {limit} (MP {unit.face.move} - 2)", action)]
        here = action.target
        sources = [a.at for a in attackers if a.on_map]
        for step in path:
            if not self.map.is_adjacent(here, step):
                return [illegal("RT-1", f"{name} retreats from {self.where(here)} to {self.where(step)}, which are not adjacent", action)]
            holder = state.side_at(step)
            if holder is not None and holder != unit.side:
                return [illegal("RT-1", f"{name} retreats into {self.where(step)}, held by the enemy", action)]
            if any(self.map.distance(step, s) < self.map.distance(here, s) for s in sources):
                return [illegal("RT-1", f"{name} retreats to {self.where(step)}, closer to an attacking unit", action)]
            better = self._better_retreat(unit, here, step, sources, state, group)
            if better:
                return [illegal("RT-1", f"{name} retreats from {self.where(here)} to {self.where(step)}, {better}", action)]
            here = step
        return []

    def _retreat_rank(self, unit: UnitState, here: int, there: int, sources: list[int], state: State, group: list[str]) -> tuple[bool, bool, bool]:
        """RT-1's priorities for one retreat hex, as a sort key (False is better): no over-stacking, not into an
        enemy ZOC, farther from every attacking unit."""
        arriving = [state.units[u] for u in group] + [u for u in state.units_at(there) if u.id not in group]
        counted = [u for u in arriving if self.arm(u) != "leader"]
        over = len(counted) > self.stacking["max_units"] or sum(1 for u in counted if self.is_company(u)) > self.stacking["max_infantry_companies"]
        farther = all(self.map.distance(there, s) > self.map.distance(here, s) for s in sources)
        return over, self.in_ezoc(state, there, unit), not farther

    def _better_retreat(self, unit: UnitState, here: int, step: int, sources: list[int], state: State, group: list[str]) -> str:
        """Why ``step`` breaks RT-1's priority order, naming an open hex that ranks higher, or ''."""
        open_hexes = [
            h for h in self.map.neighbours[here]
            if state.side_at(h) in (None, unit.side)
            and not any(self.map.distance(h, s) < self.map.distance(here, s) for s in sources)
        ]  # fmt: skip
        chosen = self._retreat_rank(unit, here, step, sources, state, group)
        ranked = sorted(open_hexes, key=lambda h: (self._retreat_rank(unit, here, h, sources, state, group), h))
        if not ranked:
            return ""
        best = self._retreat_rank(unit, here, ranked[0], sources, state, group)
        if best >= chosen:
            return ""
        reasons = ("over-stacks it", "enters an enemy ZOC", "is not farther from every attacking unit")
        k = next(i for i in range(3) if best[i] != chosen[i])
        return f"which {reasons[k]}, while {self.where(ranked[0])} was open (retreat priorities)"

    def after_attack(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        self.note_claimed_shifts(action, state)
        ctx.attacked_with.update(action.attackers)
        ctx.attacked.update(ctx.extra.pop("defenders", ()))
        ctx.record_combat(action)  # retreat and advance hexes are judged for stacking; retreated units noted
        retreat = max((len(path) for unit_id, path in action.retreats.items() if unit_id not in action.attackers), default=0)
        # AV-3: advancing units may go on as far as the defender retreated (the vacated hex is the first).
        ctx.extra["advancing"] = {u: (max(0, retreat - 1), action.target) for u in action.advance}
        self.events_after_entry(state)
        return []

    def after_overrun(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        ctx.extra["acted"].update(action.attackers)
        ctx.extra["assault_made"].update(action.attackers)
        ctx.extra["assaulted"].difference_update(action.attackers)  # each further assault must be won again
        if action.advance:  # AS-5: a victorious armoured unit may go on moving
            ctx.extra["assaulted"].update(u for u in action.advance if self.is_armour(state.units[u]))
        self.note_claimed_shifts(action, state)
        ctx.extra.pop("defenders", None)
        ctx.record_combat(action)
        self.events_after_entry(state)
        return []


def _mp(value: float) -> str:
    return f"{value:g}"


def _signed(modifiers: dict[str, int]) -> str:
    return "".join(f" {v:+d}" for v in modifiers.values())
