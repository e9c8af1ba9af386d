"""Red Winter (GMT 2012): the game's rules on pbem's kernel.

Rule ids in violations are the checklist ids of the digest ``rules/red-winter.md`` (MV-3, AS-2, OD-1 ...),
since the source has no GMT case numbers. Every number comes from ``tables.json``; every choice the digest
leaves open is an option in ``module.json``.

How a turn file expresses what the turn-file format has no kind for (see README):
- an assault during movement is an ``overrun``;
- a ranged attack is an ``attack`` by one firer with ``"declare": ["ranged"]``; the roll is the 2d6 sum and the
  result one of ``none``, ``suppressed``, ``suppressed+1``, ``suppressed+2``;
- suppression markers from ranged support in a combat are ``"support": {"offensive": n, "defensive": m}``;
- digging in is ``{"card": "dig-in", "use": UNIT}``, a bonfire ``{"card": "bonfire", "use": HEX}``;
- a recovery is a ``roll`` with purpose ``recovery`` followed by ``replace``; in the Reset Phase ``replace``
  spends 1 Replacement Point.

Phases: ``reset``, ``action``, ``combat``, ``sub_zero``, ``victory``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from pbem.model.actions import CardPlay, Combat, Move, Phase, Reinforce, Replace, Roll
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules.combat import CombatResultsTable, ratio_text, round_odds
from pbem.rules.ruleset import Ruleset, TurnContext, illegal, mismatch
from pbem.rules.sight import blocked_by
from pbem.rules.zoc import in_zoc

SOVIET, FINNISH = "soviet", "finnish"
RESET, ACTION, COMBAT, SUB_ZERO, VICTORY = "reset", "action", "combat", "sub_zero", "victory"
PHASES = (RESET, ACTION, COMBAT, SUB_ZERO, VICTORY)
ASSAULT_ARMS = {"infantry", "mg", "engineer", "armour"}
NEVER_ADVANCE = {"mortar", "at_gun", "infantry_gun", "artillery"}
SUPPLY_SOURCE = {FINNISH: "A13", SOVIET: "X28"}


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


class RedWinterRules(Ruleset):
    unchecked_ok = frozenset({"comment", "eliminate", "loss"})

    def __init__(self, module):
        super().__init__(module)
        t = module.tables
        self.options = module.options
        self.crt = CombatResultsTable.from_table(t["combat_results_2d6"])
        self.scale = self.crt.scale
        self.terrain = t["terrain"]
        self.turns = {e["turn"]: e for e in t["turn_track"]["turns"]}
        self.track = t["turn_track"]
        self.values = t["counter_values"]["types"]
        self.codes = t["setup_codes"]["units"]
        self.stacking = t["stacking_rules"]
        self.ranged = t["ranged_attack"]
        self.shift_cols = {e["id"]: e["columns"] for e in t["resolution_modifiers"]["entries"]}
        self.map = module.map

    # --- unit facts ---------------------------------------------------------------------------------
    def attrs(self, unit: UnitState) -> dict:
        return self.values[unit.unit.type.id]

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
        if terrain == "off_map":
            return None
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
        ctx.extra.update(acted=set(), rp_spent=0, last_roll=None, start_ezoc=None, assaulted=set())
        return ctx

    def check_phase(self, action: Phase, state: State, ctx: TurnContext) -> list[Violation]:
        found = self._end_of_phase(state, ctx)
        if action.name not in PHASES:
            found.append(illegal("2", f"there is no {action.name!r} phase (phases: {', '.join(PHASES)})", action))
        if action.name == SUB_ZERO and state.turn not in self.track["night_turns"]:
            found.append(illegal("SZ-1", f"turn {state.turn} is not a night turn: no Sub-Zero Loss Phase", action))
        ctx.new_phase(action.name, action.side or ctx.active_side)
        if action.name == ACTION:
            ctx.extra["acted"] = set()
            # MV-13: double movement at night only for units not in an enemy ZOC when the phase starts.
            ctx.extra["start_ezoc"] = {u.id for u in state.units.values() if u.on_map and self.in_ezoc(state, u.at, u)}
        return found

    def finish(self, state: State, ctx: TurnContext) -> list[Violation]:
        return self._end_of_phase(state, ctx)

    def _end_of_phase(self, state: State, ctx: TurnContext) -> list[Violation]:
        """SK-1/SK-2: at most 5 units (leaders free), of which at most 3 infantry companies."""
        found = []
        for location in sorted(ctx.touched):
            units = [u for u in state.units_at(location) if self.arm(u) != "leader"]
            companies = [u for u in units if self.is_company(u)]
            culprit = ctx.last_entry.get(location)
            if len(units) > self.stacking["max_units"]:
                found.append(illegal("SK-1", f"{self.where(location)} holds {len(units)} units, limit {self.stacking['max_units']} (leaders excluded); the excess must be destroyed", culprit))
            elif len(companies) > self.stacking["max_infantry_companies"]:
                found.append(illegal("SK-1", f"{self.where(location)} holds {len(companies)} infantry companies, limit {self.stacking['max_infantry_companies']}; the excess must be destroyed", culprit))
        ctx.touched.clear()
        return found

    # --- movement ---------------------------------------------------------------------------------------
    def allowance(self, unit: UnitState, state: State, ctx: TurnContext) -> tuple[float, str]:
        mp = unit.face.move
        if self.night(state) and unit.id not in (ctx.extra.get("start_ezoc") or set()):
            return 2 * mp, f"{2 * mp} MP (double movement at night)"
        return mp, f"an MP allowance of {mp}"

    def check_move(self, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase != ACTION:
            return [illegal("2", f"units move only in their Action Phase, not in the {ctx.phase or 'no'} phase", action)]
        found: list[Violation] = []
        for unit_id in action.units:
            found += self._check_unit_move(unit_id, action.path, state, ctx, action)
            if found:
                break
        return found

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
            return [illegal("2", f"{name} is a {unit.side} unit and may not move in the {ctx.phase_side} Action Phase", action)]
        if path[0] != unit.at:
            return [illegal("MV-1", f"{name} is in {self.where(unit.at)}, but its path starts in {self.where(path[0])}", action)]
        if unit_id in ctx.extra["acted"] and unit_id not in ctx.extra["assaulted"]:
            return [illegal("2", f"{name} has already taken its action this phase", action)]
        total, found, all_road = self._walk(unit, path, state, ctx, action)
        if found:
            return found
        limit, reason = self.allowance(unit, state, ctx)
        spent = ctx.mp_spent.get(unit_id, 0)
        # MV-5 extended movement: +2 MP for a move wholly by road staying 4+ hexes from every enemy unit.
        if all_road and all(self.enemy_distance(state, h, unit.side) >= self.terrain["extended_distance"] for h in path):
            limit += self.terrain["extended_movement"]
            reason += " +2 extended movement"
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
        destination = action.path[-1]
        ctx.touched.add(destination)
        ctx.last_entry[destination] = action
        ctx.extra["acted"].update(action.units)
        return []

    # --- reinforcements ---------------------------------------------------------------------------------
    def check_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        found = []
        if ctx.phase != ACTION:
            found.append(illegal("RE-1", f"reinforcements enter in the owner's Action Phase, not the {ctx.phase or 'no'} phase", action))
        for unit_id in action.units:
            unit, name = state.units[unit_id], self.name(unit_id)
            code = self.codes.get(unit_id, "").split(" ")[0]
            entry = "X1" if unit_id.endswith("-718") else SUPPLY_SOURCE[unit.side]
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

    def after_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        for unit_id in action.units:
            cost = self.terrain_cost(state.units[unit_id], action.at) or 0
            ctx.mp_spent[unit_id] = ctx.mp_spent.get(unit_id, 0) + cost  # MV-12
            if self.where(action.at) == "A13" and state.turn == 4:
                ctx.mp_spent[unit_id] += 2  # RE-3
        ctx.touched.add(action.at)
        ctx.last_entry[action.at] = action
        return []

    # --- combat -------------------------------------------------------------------------------------------
    def assess(self, action: Combat, state: State, ctx: TurnContext, assault: bool) -> Assessment:
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
        defender_side = self.other(attack_side)
        if not assault:  # case 3: suppression, net at most 3 either way
            net = action.support.get("offensive", 0) - action.support.get("defensive", 0)
            if net:
                shifts.append(("suppression", max(-3, min(3, net))))
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
        lo, hi = self.track["soviet_morale_turns"]
        flo, fhi = self.track["finnish_morale_turns"]
        morale_side = SOVIET if lo <= state.turn <= hi else FINNISH if flo <= state.turn <= fhi else None
        if morale_side:
            shifts.append(("morale", toward(morale_side) * (cols["morale_assault"] if assault else cols["morale"])))
        if any(self.is_armour(u) and u.side == SOVIET for u in attackers + defenders):
            shifts.append(("soviet_armour", toward(SOVIET) * cols["soviet_armour"]))
        if assault and self.map.terrain[target] in ("forest", "suo", "village"):
            if any(u.side == FINNISH for u in attackers + defenders):
                shifts.append(("smg", toward(FINNISH) * cols["smg"]))
        return shifts

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
        if found:
            return found
        return self._resolve(action, state, ctx, assault=True)

    def check_attack(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        if "ranged" in action.declared:
            return self._check_ranged(action, state, ctx)
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

    def _resolve(self, action: Combat, state: State, ctx: TurnContext, assault: bool) -> list[Violation]:
        found: list[Violation] = []
        defenders = state.units_at(action.target)
        if not defenders or any(u.side == ctx.active_side for u in defenders):
            return [illegal("CB-1" if not assault else "AS-1", f"{self.where(action.target)} holds no enemy unit to attack", action)]
        a = self.assess(action, state, ctx, assault)
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
        found += self._check_losses(action, state, ctx, defenders, expected, assault)
        ctx.extra["defenders"] = [u.id for u in defenders]
        return found

    def _check_losses(self, action: Combat, state: State, ctx: TurnContext, defenders: list[UnitState], result: str, assault: bool) -> list[Violation]:
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
        if steps_d + retreat_len < d_loss and not everyone_gone and not (armour_only and not assault):
            found.append(illegal("LS-2", f"{result}: the defender owes {d_loss} loss(es) (steps or retreat hexes) but takes {steps_d} step(s) and retreats {retreat_len} hex(es)", action))
        for unit_id, path in action.retreats.items():
            if unit_id not in defending:
                if unit_id in action.attackers:
                    rule = "AS-4" if assault else "LS-3"
                    found.append(illegal(rule, f"{self.name(unit_id)} retreats, but the attacker takes {'all losses as steps in an assault' if assault else 'its first loss as a step'}", action))
                continue
            found += self._check_retreat(state.units[unit_id], path, action, state, attackers)
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

    def _check_retreat(self, unit: UnitState, path: tuple[int, ...], action: Combat, state: State, attackers: list[UnitState]) -> list[Violation]:
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
            here = step
        return []

    def after_attack(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        if "ranged" in action.declared:
            return self._after_ranged(action, state, ctx)
        ctx.attacked_with.update(action.attackers)
        ctx.attacked.update(ctx.extra.pop("defenders", ()))
        for unit_id, path in action.retreats.items():
            ctx.retreated[unit_id] = path[-1]
            ctx.touched.add(path[-1])
            ctx.last_entry[path[-1]] = action
        if action.advance:
            ctx.touched.add(action.target)
            ctx.last_entry[action.target] = action
        return []

    def after_overrun(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        ctx.extra["acted"].update(action.attackers)
        if action.advance:  # AS-5: a victorious armoured unit may go on moving
            ctx.extra["assaulted"].update(u for u in action.advance if self.is_armour(state.units[u]))
        ctx.extra.pop("defenders", None)
        for unit_id, path in action.retreats.items():
            ctx.touched.add(path[-1])
            ctx.last_entry[path[-1]] = action
        ctx.touched.add(action.target)
        ctx.last_entry[action.target] = action
        return []

    # --- ranged attacks (RA-1 ... RA-8) ---------------------------------------------------------------------
    def _check_ranged(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase != COMBAT:
            return [illegal("RA-1", f"ranged attacks are made in the Combat Phase, not the {ctx.phase or 'no'} phase", action)]
        if len(action.attackers) != 1:
            return [illegal("RA-3", "each ranged attack is one firing unit's roll; do not combine firers", action)]
        unit = state.units[action.attackers[0]]
        name = self.name(unit.id)
        attrs = self.attrs(unit)
        ras = attrs["ras"][min(unit.step, len(attrs["ras"]) - 1)]
        reach = attrs["range"][min(unit.step, len(attrs["range"]) - 1)]
        off_map = bool(attrs.get("off_map"))
        indirect = bool(attrs.get("indirect"))
        if not ras:
            return [illegal("RA-1", f"{name} has no ranged attack strength", action)]
        if "fired" in unit.markers:
            return [illegal("RA-8", f"{name} has fired and is unusable until its owner's next Reset Phase", action)]
        if off_map:
            if unit.on_map or unit.box != "off_map":
                return [illegal("RA-8", f"{name} is {unit.box or 'on the map'}, not available off-map", action)]
            if state.status.get("ammo", {}).get(unit.side, 0) <= 0:
                return [illegal("RA-8", f"the {unit.side} player has no artillery ammunition left", action)]
        else:
            if not unit.on_map:
                return [illegal("RA-1", f"{name} is not on the map", action)]
            if "suppressed" in unit.markers:
                return [illegal("RA-1", f"{name} is under a Suppression marker and may not fire", action)]
            if unit.id in ctx.retreated:
                return [illegal("RA-1", f"{name} retreated this phase and may not fire", action)]
            if self.in_ezoc(state, unit.at, unit):
                return [illegal("RA-1", f"{name} is in an enemy ZOC and may not fire", action)]
            distance = self.map.distance(unit.at, action.target)
            if distance > reach:
                return [illegal("RA-4", f"{self.where(action.target)} is {distance} hexes from {name}, beyond its range {reach}", action)]
            if distance == 1:
                return [illegal("RA-2", f"{name} fires at the adjacent {self.where(action.target)}: adjacent targets only as defensive support against attackers on a frozen lake", action)]
            if not indirect:
                if self.night(state):
                    return [illegal("RA-4", "no direct fire at night", action)]
                if distance > self.los_range(state):
                    return [illegal("RA-4", f"direct fire at {distance} hexes, but line of sight reaches {self.los_range(state)} on turn {state.turn} ({self.period(state)})", action)]
                block = blocked_by(self.map, unit.at, action.target, lambda i: self._blocks(i, state, units_block=True))
                if block is not None:
                    return [illegal("RA-4", f"no line of sight from {self.where(unit.at)} to {self.where(action.target)}: {self.where(block)} ({self._why_blocked(block, state)}) is in the way", action)]
        spotter = None
        if indirect:
            spotter = self._spotter(unit, action.target, state, off_map)
            if spotter is None:
                return [illegal("RA-5", f"{name} fires indirect at {self.where(action.target)} with no spotter adjacent to it or seeing it", action)]
        targets = state.units_at(action.target)
        if not targets or all(u.side == unit.side for u in targets):
            return [illegal("RA-3", f"{self.where(action.target)} holds no enemy unit", action)]
        return self._check_rat(action, unit, ras, targets, state, indirect, spotter)

    def _blocks(self, location: int, state: State, units_block: bool) -> bool:
        return self.map.terrain[location] in self.terrain["blocks_los"] or (units_block and bool(state.units_at(location)))

    def _why_blocked(self, location: int, state: State) -> str:
        terrain = self.map.terrain[location]
        return terrain.replace("_", " ") if terrain in self.terrain["blocks_los"] else "units"

    def _spotter(self, firer: UnitState, target: int, state: State, off_map: bool) -> str | None:
        """RA-5: a friendly unit adjacent to the target, or seeing it within the turn's LOS range."""
        los = self.los_range(state)
        candidates = [u for u in state.units.values() if u.on_map and u.side == firer.side]
        for u in candidates:
            if self.map.is_adjacent(u.at, target):
                return "adjacent"
        for u in candidates:
            if off_map is False and u.id != firer.id:
                pass
            d = self.map.distance(u.at, target)
            if 1 < d <= los and blocked_by(self.map, u.at, target, lambda i: self._blocks(i, state, units_block=False)) is None:
                return "self" if u.id == firer.id else "sight"
        return None

    def _check_rat(self, action, unit, ras, targets, state, indirect, spotter) -> list[Violation]:
        drm = self.ranged["drm"]
        total = action.roll + ras
        total += drm["per_infantry_company"] * sum(1 for u in targets if self.is_company(u))
        if self.map.terrain[action.target] == "frozen_lake":
            total += drm["target_frozen_lake_soviet"] if targets[0].side == SOVIET else drm["target_frozen_lake"]
        if spotter == "self":
            total += drm["self_spotting_infantry_gun"] if self.arm(unit) == "infantry_gun" else drm["self_spotting_mortar"]
        elif spotter == "sight":
            total += drm["spotter_not_adjacent"]
        if any("dug_in" in u.markers for u in targets):
            total += drm["dug_in_indirect"] if indirect else drm["dug_in_direct"]
        period = self.period(state)
        if period in ("dawn", "fog", "dusk"):
            total += drm["dawn_fog_dusk"]
        elif period == "night":
            total += drm["night"]
        if unit.on_map and self.map.distance(unit.at, action.target) >= 3:
            if self.arm(unit) == "mg":
                total += drm["mg_range_3_plus"]
            elif self.is_armour(unit):
                total += drm["armour_range_3_plus"]
        expected = next(r["result"] for r in self.ranged["results"] if r.get("min", -99) <= total <= r.get("max", 99))
        found = []
        if not 2 <= action.roll <= 12:
            return [mismatch("RA-3", f"a roll of {action.roll} is impossible with 2d6", action)]
        if action.result.lower() != expected:
            found.append(mismatch("RA-3", f"ranged attack: 2d6 {action.roll} + RAS {ras} + DRMs = {total} gives {expected}, not {action.result.lower()}", action))
        steps = {"suppressed+1": 1, "suppressed+2": 2}.get(expected, 0)
        taken = len([u for u in action.losses_defender if not self.is_armour(state.units[u])])
        if taken != min(steps, sum(len(u.unit.type.steps) - u.step for u in targets if not self.is_armour(u))):
            found.append(illegal("RA-7", f"{expected}: the target hex loses {steps} step(s), not {taken} (armour never takes steps from ranged fire)", action))
        if action.retreats:
            found.append(illegal("RA-7", "ranged-attack step losses cannot be converted to retreats", action))
        return found

    def _after_ranged(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        unit = state.units[action.attackers[0]]
        attrs = self.attrs(unit)
        if attrs.get("indirect"):
            unit.markers.add("fired")
        if attrs.get("off_map"):
            ammo = state.status.setdefault("ammo", {})
            ammo[unit.side] = max(0, ammo.get(unit.side, 0) - 1)
        if action.result.lower().startswith("suppressed"):
            for u in state.units_at(action.target):
                u.markers.add("suppressed")
        ctx.attacked_with.add(unit.id)
        return []

    # --- recovery and replacements (RC, RE-7) ------------------------------------------------------------
    def check_roll(self, action: Roll, state: State, ctx: TurnContext) -> list[Violation]:
        ctx.extra["last_roll"] = action
        faces = int(action.dice.split("d")[1])
        count = int(action.dice.split("d")[0] or 1)
        if len(action.values) == 1 and not count <= action.values[0] <= count * faces:
            return [mismatch("RC-1", f"a roll of {action.values[0]} is impossible with {action.dice}", action)]
        return []

    def check_replace(self, action: Replace, state: State, ctx: TurnContext) -> list[Violation]:
        unit, name = state.units[action.unit], self.name(action.unit)
        if unit.step == 0:
            return [illegal("RC-1", f"{name} is at full strength", action)]
        if not self.is_company(unit):
            return [illegal("RC-1", f"{name} is not an infantry company: only reduced infantry companies recover or take replacements", action)]
        if ctx.phase == RESET:  # RE-7: 1 RP flips a reduced in-supply company, even in an enemy ZOC
            points = self.turns.get(state.turn, {}).get("replacement_points", {}).get(unit.side, 0)
            if ctx.extra["rp_spent"] + 1 > points:
                return [illegal("RE-7", f"the {unit.side} player has {points - ctx.extra['rp_spent']} Replacement Point(s) left on turn {state.turn}", action)]
            if not unit.supplied:
                return [illegal("RE-7", f"{name} is out of supply: 1 RP flips only an in-supply company", action)]
            ctx.extra["rp_spent"] += 1
            return []
        if ctx.phase != ACTION:
            return [illegal("RC-1", f"recovery is an Action Phase action, not a {ctx.phase or 'no'} phase one", action)]
        if action.unit in ctx.extra["acted"] and not (self.night(state) and unit.side == SOVIET):
            return [illegal("2", f"{name} has already taken its action this phase", action)]
        if self.in_ezoc(state, unit.at, unit):
            return [illegal("RC-2", f"{name} is in an enemy ZOC and may not attempt recovery", action)]
        roll = ctx.extra.get("last_roll")
        if roll is None or roll.purpose != "recovery":
            return [illegal("RC-1", f"{name} recovers without a recovery roll", action)]
        total = roll.values[0] + sum(roll.modifiers.values())
        if total < self.module.tables["recovery"]["success"]:
            return [illegal("RC-1", f"recovery roll {roll.values[0]}{_signed(roll.modifiers)} = {total}: 6 or more is needed", action)]
        return []

    def after_replace(self, action: Replace, state: State, ctx: TurnContext) -> list[Violation]:
        ctx.extra["acted"].add(action.unit)
        ctx.extra["last_roll"] = None
        return []

    # --- dig-in and bonfires (DI, BF) -------------------------------------------------------------------
    def check_card(self, action: CardPlay, state: State, ctx: TurnContext) -> list[Violation]:
        if action.card == "dig-in":
            return self._check_dig_in(action, state, ctx)
        if action.card == "bonfire":
            return self._check_bonfire(action, state, ctx)
        return [illegal("2", f"unknown declaration {action.card!r} (dig-in, bonfire)", action)]

    def _check_dig_in(self, action: CardPlay, state: State, ctx: TurnContext) -> list[Violation]:
        unit = state.units.get(action.use)
        if unit is None:
            return [illegal("DI-1", f"unknown unit {action.use!r}", action)]
        name = self.name(unit.id)
        if ctx.phase != ACTION:
            return [illegal("DI-2", "digging in is an Action Phase action", action)]
        if not (self.is_company(unit) or self.arm(unit) in ("engineer", "mg")):
            return [illegal("DI-1", f"{name} may not dig in: only infantry companies, engineers and MGs", action)]
        if unit.id in ctx.extra["acted"]:
            return [illegal("2", f"{name} has already taken its action this phase", action)]
        if self.map.terrain[unit.at] == "frozen_lake":
            return [illegal("DI-3", f"{name} may not dig in on a frozen lake", action)]
        if self.in_ezoc(state, unit.at, unit) and not self.night(state):
            stack = state.units_at(unit.at)
            if not (any(self.arm(u) == "engineer" for u in stack) and len(stack) > 1):
                return [illegal("DI-3", f"{name} is in an enemy ZOC on a day turn with no engineer stacked with it", action)]
        return []

    def _check_bonfire(self, action: CardPlay, state: State, ctx: TurnContext) -> list[Violation]:
        location = self.map.find(action.use)
        if location is None:
            return [illegal("BF-1", f"unknown hex {action.use!r}", action)]
        if ctx.active_side != SOVIET:
            return [illegal("BF-1", "only the Soviet player builds bonfires", action)]
        if not self.night(state):
            return [illegal("BF-1", f"bonfires are built on night turns only, not turn {state.turn}", action)]
        if self.map.terrain[location] == "frozen_lake":
            return [illegal("BF-1", f"no bonfire on a frozen lake ({action.use})", action)]
        distance = self.enemy_distance(state, location, SOVIET)
        if distance < 4:
            return [illegal("BF-1", f"{action.use} is {distance} hexes from a Finnish unit; a bonfire needs 4 or more", action)]
        return []

    def after_card(self, action: CardPlay, state: State, ctx: TurnContext) -> list[Violation]:
        if action.card == "dig-in" and action.use in state.units:
            unit = state.units[action.use]
            one_phase = self.arm(unit) == "engineer" or self.night(state)
            unit.markers.add("dug_in" if one_phase or "digging_in" in unit.markers else "digging_in")
            ctx.extra["acted"].add(action.use)
        elif action.card == "bonfire":
            location = self.map.find(action.use)
            if location is not None:
                for unit in state.units_at(location):
                    unit.markers.add("bonfire")
                    ctx.extra["acted"].add(unit.id)
        return []


def _mp(value: float) -> str:
    return f"{value:g}"


def _signed(modifiers: dict[str, int]) -> str:
    return "".join(f" {v:+d}" for v in modifiers.values())


def build_ruleset(module) -> RedWinterRules:
    return RedWinterRules(module)
