"""The China War (SPI 1979): the game's rules on pbem's kernel.

Every number comes from ``tables.json``; every choice the rulebook leaves open is an option in
``module.json`` (named in the notes below). Rule numbers in violations are the rulebook's "cases".

Checked here: movement (4.2, 6.1, 6.2, 10.1-10.4, 10.7, reaction limits of 2.0/6.43), stacking (8.0),
combat (9.1-9.9, 10.12, 10.33, 10.41, 10.42, 10.5, 10.72). Overrun, rail and air movement, political
events and supply tracing are reported as "not checked yet" until they are built.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.model.actions import Combat, Eliminate, Move, Phase
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules.combat import CombatResultsTable, ratio_text, round_odds, split_result
from pbem.rules.movement import walk
from pbem.rules.ruleset import Ruleset, TurnContext, illegal, mismatch, warning
from pbem.rules.stacking import over_limit

MOVEMENT, REACTION, COMBAT = "movement", "reaction", "combat"
PHASES = ("political", "reinforcement", "movement", "reaction", "combat")
SOVIET, CHINESE = "soviet", "chinese"

# Quality shifts (9.4): counter nationality and quality -> shift id in the summary table.
QUALITY_SHIFTS = {
    ("USSR", 1): "soviet_first_line",
    ("PLA", 1): "pla_first_line",
    ("PLA", 2): "pla_second_line",
}
NATIONAL_SHIFTS = {"Taiwan": "taiwanese", "North Korea": "north_korean", "Vietnam": "vietnamese"}
QUALITY_IDS = frozenset(QUALITY_SHIFTS.values()) | frozenset(NATIONAL_SHIFTS.values())
SHIFT_RULES = {
    "soviet_first_line": "9.41", "pla_first_line": "9.42", "pla_second_line": "9.41", "taiwanese": "9.41",
    "north_korean": "9.41", "vietnamese": "9.43", "out_of_supply": "9.51", "chemical_vs_pla_first_line": "9.52",
    "chemical_vs_other_pla": "9.52", "electronic_warfare": "9.53", "pla_mass_attack": "9.54", "flank_attack": "9.55",
    "river": "10.12", "mountain_non_mech": "10.33", "armour_desert": "10.41", "mech_infantry_desert": "10.41",
    "mongolian_desert": "10.42", "prepared_position": "10.5",
}  # fmt: skip


@dataclass
class Assessment:
    """A combat worked out from the situation: strengths, odds, every column shift, the die-row column."""

    attack: int
    defence: int
    odds: tuple[int, int] | None
    shifts: list[tuple[str, int]] = field(default_factory=list)  # (shift id, signed columns; + = right)
    column: str = ""
    die_row: str = "A"

    @property
    def net(self) -> int:
        return sum(n for _, n in self.shifts)

    def explain(self) -> str:
        items = ", ".join(f"{name.replace('_', ' ')} {n:+d}" for name, n in self.shifts) or "none"
        return f"shifts: {items}; net {self.net:+d}"


class ChinaWarRules(Ruleset):
    unchecked_ok = frozenset({"comment", "eliminate"})

    def __init__(self, module):
        super().__init__(module)
        tables, options = module.tables, module.options
        self.options = options
        self.crt = CombatResultsTable.from_table(tables["crt"])
        self.scale = self.crt.scale
        self.shift_table = {entry["id"]: entry for entry in tables["column_shifts"]["entries"]}
        self.terrain_rows = tables["crt_terrain_rows"]
        self.militia = tables["militia"]
        stacking = tables["stacking"]
        self.unit_weight = stacking["unit_weight"]
        game_map = module.map
        self.map = game_map
        n = len(game_map)
        self.river_hex = [
            "river" in game_map.features[i] or any("river" in game_map.hexside(i, j) for j in game_map.neighbours[i])
            for i in range(n)
        ]
        self.pop = ["pop200" if p >= 200 else "pop100" if p >= 100 else None for p in game_map.population]
        limits = stacking["limits"]
        populated_wins = options.get("stacking_mixed_terrain", "populated") == "populated"
        self.stack_limit = [
            limits[self.pop[i]] if (self.pop[i] and populated_wins) else limits[game_map.terrain[i]] for i in range(n)
        ]
        costs = tables["movement_costs"]
        self.costs = costs
        # entry[class][a] maps each neighbour b of a to the MP cost of entering b from a (None: impassable).
        self.entry = {
            cls: [{b: self._entry_cost(a, b, cls) for b in game_map.neighbours[a]} for a in range(n)]
            for cls in ("mechanized", "non_mechanized")
        }

    # --- terrain ------------------------------------------------------------------------------------------
    def _entry_cost(self, a: int, b: int, cls: str) -> int | None:
        terrain = self.map.terrain[b]
        costs = self.costs
        if terrain in costs["impassable"]:
            return None
        by_road = self.map.has_road(a, b) or self.map.rail(a, b) is not None or self.pop[b] is not None
        if by_road:  # 6.34, 10.21, 10.22, 10.71
            if terrain in costs["road"].get("not_reduced", {}).get(cls, ()):
                return costs["terrain"][terrain][cls]
            return costs["road"][cls]
        return costs["terrain"][terrain][cls] + (costs["river_extra"][cls] if self.river_hex[b] else 0)

    def describe(self, a: int, b: int) -> str:
        """``2703 forest+river`` / ``2704 mountain by road``: what a step paid for."""
        parts = [self.map.terrain[b]]
        if self.pop[b]:
            parts.append(self.pop[b].replace("pop", "pop-"))
        if self.river_hex[b]:
            parts.append("river")
        road = self.map.has_road(a, b) or self.map.rail(a, b) is not None
        return f"{self.where(b)} {'+'.join(parts)}{' by road' if road else ''}"

    # --- phases -------------------------------------------------------------------------------------------
    def begin(self, state: State, turn) -> TurnContext:
        ctx = super().begin(state, turn)
        ctx.extra["pacified"] = set(state.status.get("pacified", ()))
        return ctx

    def other(self, side: str) -> str:
        return CHINESE if side == SOVIET else SOVIET

    def check_phase(self, action: Phase, state: State, ctx: TurnContext) -> list[Violation]:
        found = self._end_of_phase(state, ctx)
        if action.name not in PHASES:
            found.append(illegal("4.2", f"there is no {action.name!r} phase (phases: {', '.join(PHASES)})", action))
        side = action.side or (self.other(ctx.active_side) if action.name == REACTION else ctx.active_side)
        ctx.new_phase(action.name, side)
        return found

    def finish(self, state: State, ctx: TurnContext) -> list[Violation]:
        return self._end_of_phase(state, ctx)

    def _end_of_phase(self, state: State, ctx: TurnContext) -> list[Violation]:
        """Stacking (8.0) is judged at the end of movement and reaction phases and through combat."""
        if ctx.phase not in (MOVEMENT, REACTION, COMBAT) or not ctx.touched:
            ctx.touched.clear()
            return []
        found = []
        for location, weight, limit in over_limit(state, ctx.touched, self.weight, self.stack_limit.__getitem__):
            culprit = ctx.last_entry.get(location)
            terrain = self.pop[location] or self.map.terrain[location]
            found.append(
                illegal(
                    "8.0",
                    f"{self.where(location)} ({terrain}) holds {weight} divisions at the end of the {ctx.phase} phase, "
                    f"limit {limit}; the excess must be eliminated",
                    culprit,
                )
            )
        ctx.touched.clear()
        return found

    def weight(self, unit: UnitState) -> int:
        return self.unit_weight[unit.unit.type.size]

    # --- movement -----------------------------------------------------------------------------------------
    def check_move(self, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        found: list[Violation] = []
        if ctx.phase not in (MOVEMENT, REACTION):
            return [illegal("4.2", f"units move only in a movement or reaction phase, not in the {ctx.phase or 'no'} phase", action)]
        if action.by != "land":
            if f"move-{action.by}" not in ctx.unchecked:
                ctx.unchecked.add(f"move-{action.by}")
                found.append(warning("6.3" if action.by == "rail" else "6.4", f"{action.by} movement is not checked yet", action))
            return found
        for unit_id in action.units:
            found.extend(self._check_unit_move(unit_id, action, state, ctx))
        return found

    def _check_unit_move(self, unit_id: str, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        unit = state.units[unit_id]
        name = self.name(unit_id)
        if not unit.on_map:
            return [illegal("6.1", f"{name} is not on the map ({unit.box})", action)]
        found: list[Violation] = []
        if unit.side != ctx.phase_side:
            rule = "5.13" if unit.side == "neutral" else "6.21"
            found.append(illegal(rule, f"{name} is a {unit.side} unit and may not move in the {ctx.phase_side} {ctx.phase} phase", action))
            return found
        path = action.path
        if path[0] != unit.at:
            found.append(illegal("6.1", f"{name} is in {self.where(unit.at)}, but its path starts in {self.where(path[0])}", action))
        mechanized = unit.unit.type.mechanized
        table = self.entry["mechanized" if mechanized else "non_mechanized"]
        result = walk(self.map, path, lambda a, b: table[a][b])
        if result.broken_at is not None:
            k = result.broken_at
            found.append(illegal("6.0", f"{name} jumps from {self.where(path[k - 1])} to {self.where(path[k])}, which are not adjacent", action))
            return found
        for k in range(1, len(path)):
            hex_ = path[k]
            holder = state.side_at(hex_)
            if holder is not None and holder != unit.side:
                found.append(illegal("6.22", f"{name} enters {self.where(hex_)}, occupied by {holder} units", action))
                return found
            if self._militia_blocks(hex_, unit.side, state, ctx):
                found.append(illegal("10.24", f"{name} enters {self.where(hex_)}, an enemy {self.pop[hex_].replace('pop', 'pop-')} hex with active militia: only an overrun or an advance after combat may enter it", action))  # type: ignore[union-attr]
                return found
        face = unit.face
        allowance = face.move
        limit_rule, reason = "6.12", f"an MPA of {face.move}"
        if not unit.supplied:
            allowance //= 2
            limit_rule, reason = "6.23", f"{allowance} MP (half of {face.move}: out of supply)"
        if ctx.phase == REACTION:
            eligible = mechanized or (unit.unit.type.quality == 1 and unit.unit.type.arm not in ("airborne",))
            if unit.unit.type.arm == "airborne":
                return found + [illegal("6.43", f"{name} is airborne and may not move in a reaction phase", action)]
            if not eligible:
                return found + [illegal("2.0", f"{name} may not react: only mechanized and 1st-line non-mechanized units move in a reaction phase", action)]
            cap = 2 if mechanized else 1
            if cap < allowance:
                allowance, limit_rule, reason = cap, "2.0", f"{cap} MP in a reaction phase"
        spent = ctx.mp_spent.get(unit_id, 0)
        total = spent + result.total
        minimum_move = spent == 0 and len(path) == 2 and (ctx.phase == MOVEMENT or self.options.get("reaction_minimum_move"))
        if total > allowance and not minimum_move:
            steps = ", ".join(f"{self.describe(path[k], path[k + 1])} {c}" for k, c in enumerate(result.costs))
            earlier = f" after {spent} MP earlier this phase" if spent else ""
            found.append(illegal(limit_rule, f"{name} spends {result.total} MP ({steps}){earlier} but has {reason}", action))
        ctx.mp_spent[unit_id] = total
        return found

    def after_move(self, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        destination = action.path[-1]
        ctx.touched.add(destination)
        ctx.last_entry[destination] = action
        ctx.moved.update(action.units)
        return []

    def _militia_blocks(self, location: int, side: str, state: State, ctx: TurnContext) -> bool:
        """10.23/10.24: an enemy populated hex with no unit of ``side`` in it and not pacified."""
        if self.pop[location] is None:
            return False
        owner = self.options.get("militia_owner", {}).get(self.map.country[location])
        if owner is None or owner == side or self.map.country[location] not in self.militia["nationalities"]:
            return False
        return state.side_at(location) != side and self.map.label(location) not in ctx.extra["pacified"]

    def militia_strength(self, location: int, attacker_side: str, state: State, ctx: TurnContext) -> int:
        if state.side_at(location) is not None or not self._militia_blocks(location, attacker_side, state, ctx):
            return 0
        return self.militia[self.pop[location]]  # type: ignore[index]

    # --- combat -------------------------------------------------------------------------------------------
    def assess(self, combat: Combat, state: State, ctx: TurnContext) -> Assessment:
        """Strengths, odds, column shifts and die-row column of ``combat`` in the current situation."""
        attackers = [state.units[u] for u in combat.attackers if state.units[u].on_map]
        target = combat.target
        defenders = state.units_at(target)
        attack_side = attackers[0].side if attackers else ctx.active_side
        attack = sum(u.face.attack for u in attackers) + sum(combat.support.values())
        counted = [u for u in defenders if u.id not in ctx.retreated]  # 9.85
        defence = sum(u.face.defence for u in counted) + self.militia_strength(target, attack_side, state, ctx)
        odds = round_odds(attack, defence) if defence > 0 else None
        shifts = self._shifts(combat, attackers, defenders, attack_side, state)
        net = sum(n for _, n in shifts)
        clamp_first = self.options.get("odds_clamp", "after_shifts") == "before_shifts"
        position = self.scale.position(odds) if odds else len(self.scale.columns) + 100
        if clamp_first:
            position = self.scale.clamp(position)
        column = self.scale.column(position + net)
        return Assessment(attack, defence, odds, shifts, column, self._die_row(target, defenders))

    def _shifts(self, combat: Combat, attackers: list[UnitState], defenders: list[UnitState], attack_side: str, state: State) -> list[tuple[str, int]]:
        table = self.shift_table
        shifts: list[tuple[str, int]] = []

        def toward(side: str) -> int:
            return 1 if side == attack_side else -1

        def add(shift_id: str, side: str) -> None:
            shifts.append((shift_id, toward(side) * table[shift_id]["columns"]))

        everyone = attackers + defenders
        # 9.4: each side uses only its largest quality shift.
        best: dict[str, str] = {}
        for shift_id, beneficiary in self._quality_of(everyone):
            if beneficiary not in best or table[shift_id]["columns"] > table[best[beneficiary]]["columns"]:
                best[beneficiary] = shift_id
        for side, shift_id in sorted(best.items()):
            add(shift_id, side)
        target = combat.target
        terrain = self.map.terrain[target]
        defender_side = self.other(attack_side)
        if terrain == "mountain":  # 10.33
            for side, group in ((attack_side, attackers), (defender_side, defenders)):
                if any(u.unit.type.nationality in ("PLA", "North Korea") and not u.unit.type.mechanized for u in group):
                    add("mountain_non_mech", side)
        if terrain == "desert":  # 10.41, 10.42, 10.72: only when the defender's hex is desert
            for side, group in ((attack_side, attackers), (defender_side, defenders)):
                arms = {u.unit.type.arm for u in group}
                if "armour" in arms:
                    add("armour_desert", side)
                elif "mechanized_infantry" in arms:
                    entry = table["mech_infantry_desert"]
                    beneficiary = defender_side if entry["direction"] == "defender" else side
                    shifts.append(("mech_infantry_desert", toward(beneficiary) * entry["columns"]))
                if any(u.unit.type.nationality == "Mongolia" for u in group):
                    add("mongolian_desert", SOVIET)
        # 9.51: an unsupplied participant gives the other side three columns.
        mode_all = self.options.get("supply_shift", "any") == "all"
        for side, group in ((attack_side, attackers), (defender_side, defenders)):
            unsupplied = [u for u in group if not u.supplied]
            if unsupplied and (not mode_all or len(unsupplied) == len(group)):
                add("out_of_supply", self.other(side))
        home = self.options.get("home_country", {})
        if "prepared_position" in self.map.features[target] and any(
            home.get(u.unit.type.nationality) == self.map.country[target] for u in defenders
        ):
            add("prepared_position", defender_side)  # 10.5
        if "mass_attack" in combat.declared and all(u.unit.type.nationality == "PLA" for u in attackers):
            add("pla_mass_attack", attack_side)  # 9.54
        if any(u.unit.type.nationality == "USSR" for u in attackers):  # 9.52 chemical weapons
            if any(u.unit.type.nationality == "PLA" and u.unit.type.quality == 1 for u in defenders):
                add("chemical_vs_pla_first_line", attack_side)
            elif self.options.get("chemical_without_pla_first_line", 2) == 2:
                add("chemical_vs_other_pla", attack_side)
        if any(u.unit.type.nationality == "USSR" for u in everyone):  # 9.53
            add("electronic_warfare", SOVIET)
        flanked = self._flanked(target, attackers)
        if flanked:
            add("flank_attack", attack_side)  # 9.55
        elif self.river_hex[target]:
            add("river", defender_side)  # 10.12: cancelled by a flank attack
        return shifts

    def _quality_of(self, units: list[UnitState]) -> list[tuple[str, str]]:
        """(quality shift id, side it favours) for each unit that carries one (9.41-9.43)."""
        found = []
        for unit in units:
            kind = unit.unit.type
            shift_id = QUALITY_SHIFTS.get((kind.nationality, kind.quality)) or NATIONAL_SHIFTS.get(kind.nationality)
            if shift_id is not None:
                direction = self.shift_table[shift_id]["direction"]
                found.append((shift_id, SOVIET if direction == "soviet" else CHINESE if direction == "chinese" else unit.side))
        return found

    def _quality_candidates(self, action: Combat, state: State) -> list[tuple[str, str]]:
        units = [state.units[u] for u in action.attackers] + state.units_at(action.target)
        return self._quality_of(units)

    def _flanked(self, target: int, attackers: list[UnitState]) -> bool:
        """9.55: attackers stand in two hexes directly opposite each other across the defender."""
        places = {u.at for u in attackers}
        opposite = getattr(self.map, "opposite", None)
        return opposite is not None and any(opposite(target, here) in places for here in places)

    def _die_row(self, target: int, defenders: list[UnitState]) -> str:
        """9.3, 10.72: the die-row column of the terrain most favourable to the defender."""
        rows = self.terrain_rows
        if defenders and all(u.unit.type.arm == "armour" for u in defenders):
            return rows["armour"]
        if defenders and any(u.unit.type.arm == "armour" for u in defenders) and self.options.get("mixed_armour_die_row") == "armour":
            return rows["armour"]
        candidates = [rows["terrain"][self.map.terrain[target]]]
        if self.pop[target]:
            candidates.append(rows["terrain"][self.pop[target]])
        return min(candidates, key=rows["preference"].index)

    def check_attack(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        found: list[Violation] = []
        if ctx.phase != COMBAT:
            found.append(illegal("9.11", f"attacks are made only in the attacker's combat phase, not in the {ctx.phase or 'no'} phase", action))
        target = action.target
        defenders = state.units_at(target)
        for unit_id in action.attackers:
            unit, name = state.units[unit_id], self.name(unit_id)
            if not unit.on_map:
                found.append(illegal("9.11", f"{name} is not on the map ({unit.box})", action))
            elif unit.side != ctx.active_side:
                found.append(illegal("9.11", f"{name} is a {unit.side} unit; only the {ctx.active_side} player attacks now", action))
            elif not self.map.is_adjacent(unit.at, target):
                found.append(illegal("9.11", f"{name} in {self.where(unit.at)} is not adjacent to {self.where(target)}", action))
            if unit_id in ctx.attacked_with:
                found.append(illegal("9.14", f"{name} has already attacked in this combat phase", action))
            if unit_id in ctx.advanced:
                found.append(illegal("9.92", f"{name} advanced after combat in this phase and may not attack again", action))
        attack_side = ctx.active_side
        if not defenders and not self.militia_strength(target, attack_side, state, ctx):
            found.append(illegal("9.11", f"there is no enemy unit (or active militia) in {self.where(target)} to attack", action))
            return found
        if any(u.side == attack_side for u in defenders):
            found.append(illegal("9.11", f"{self.where(target)} holds {attack_side} units: you cannot attack your own hex", action))
            return found
        for unit in defenders:
            if unit.side == "neutral":
                found.append(illegal("5.13", f"{self.name(unit.id)} belongs to a nation that has not entered the war and may not be attacked", action))
            if unit.id in ctx.attacked:
                found.append(illegal("9.14", f"{self.name(unit.id)} in {self.where(target)} has already been attacked in this combat phase", action))
        if action.defenders is not None:
            missing = [u.id for u in defenders if u.id not in action.defenders]
            if missing:
                found.append(illegal("9.21", f"every unit in {self.where(target)} defends together; {', '.join(map(self.name, missing))} must defend too", action))
        if "mass_attack" in action.declared:
            others = [u for u in action.attackers if state.units[u].unit.type.nationality != "PLA"]
            if others:
                found.append(illegal("9.54", f"a mass attack needs PLA units only; {', '.join(map(self.name, others))} take part", action))
        ctx.extra["defenders"] = [u.id for u in defenders]
        if not any(state.units[u].on_map for u in action.attackers):
            return found
        found.extend(self._check_claims(action, state, ctx, defenders))
        return found

    def _check_claims(self, action: Combat, state: State, ctx: TurnContext, defenders: list[UnitState]) -> list[Violation]:
        found: list[Violation] = []
        assessment = self.assess(action, state, ctx)
        raw = ratio_text(assessment.odds) if assessment.odds else "beyond the table"
        if action.odds is not None and assessment.odds is not None and action.odds != raw:
            found.append(mismatch("9.0", f"odds are {assessment.attack} to {assessment.defence} = {raw} (rounded in the defender's favour), not {action.odds}", action))
        if action.shifts is not None:
            found.extend(self._check_shift_claims(action, assessment, state))
        elif action.column is not None and action.column != assessment.column:
            found.append(mismatch("9.0", f"the final column is {assessment.column}, not {action.column} ({assessment.explain()})", action))
        die_range = self.crt.dice(assessment.die_row)
        if action.roll not in die_range:
            found.append(mismatch("9.6", f"a roll of {action.roll} is impossible with one die", action))
            return found
        expected = self.crt.result(assessment.column, action.roll, assessment.die_row)
        claimed = action.result
        known = {r for row in self.crt.rows.values() for r in row}
        if claimed != expected:
            found.append(mismatch("9.6", f"a roll of {action.roll} at {assessment.column} on die-row column {assessment.die_row} gives {expected}, not {claimed}", action))
        judged = claimed if claimed in known else expected
        found.extend(self._check_losses(action, state, ctx, defenders, judged))
        return found

    def _check_shift_claims(self, action: Combat, assessment: Assessment, state: State) -> list[Violation]:
        """Compare an itemised shift claim with the shifts the situation gives, one rule at a time."""
        found = []
        actual = dict(assessment.shifts)
        for shift_id in sorted(set(actual) | set(action.shifts or {})):
            claimed, real = (action.shifts or {}).get(shift_id, 0), actual.get(shift_id, 0)
            if shift_id not in self.shift_table:
                found.append(mismatch("9.0", f"there is no column shift {shift_id!r} (shifts: {', '.join(self.shift_table)})", action))
            elif claimed != real:
                label = self.shift_table[shift_id]["condition"]
                outranked = shift_id in QUALITY_IDS and real == 0 and shift_id in {i for i, _ in self._quality_candidates(action, state)}
                rule = "9.4" if outranked else SHIFT_RULES[shift_id]
                why = " (each side uses only its largest quality shift)" if outranked else ""
                found.append(mismatch(rule, f"{label}: {real:+d} column(s) here, not {claimed:+d}{why}", action))
        if not found and action.column is not None and action.column != assessment.column:
            found.append(mismatch("9.0", f"the final column is {assessment.column}, not {action.column} ({assessment.explain()})", action))
        return found

    def _check_losses(self, action: Combat, state: State, ctx: TurnContext, defenders: list[UnitState], result: str) -> list[Violation]:
        """9.7-9.9: the losses, retreats and advances written must be what ``result`` requires."""
        found: list[Violation] = []
        attacker_part, defender_part = split_result(result)
        attackers = set(action.attackers)
        defending = {u.id for u in defenders}
        eliminated = set(action.eliminated)
        lost_a, lost_d = list(action.losses_attacker), list(action.losses_defender)
        for unit_id in lost_a:
            if unit_id not in attackers:
                found.append(illegal("9.75", f"{self.name(unit_id)} did not attack in this combat and cannot take its loss", action))
        for unit_id in lost_d:
            if unit_id not in defending:
                found.append(illegal("9.77", f"{self.name(unit_id)} did not defend in this combat and cannot take its loss", action))
        for unit_id in eliminated - attackers - defending:
            found.append(illegal("9.74", f"{self.name(unit_id)} took no part in this combat and cannot be eliminated by it", action))
        retreating = set(action.retreats)
        # Defender's result first (9.78).
        if defender_part == "E":
            missing = defending - eliminated
            if missing:
                found.append(illegal("9.74", f"{result}: every defending unit is eliminated; {', '.join(map(self.name, sorted(missing)))} not removed", action))
            if retreating & defending:
                found.append(illegal("9.74", f"{result}: eliminated units cannot retreat", action))
        elif defender_part == "1":
            mass = "mass_attack" in action.declared
            if retreating & defending:
                cannot = [u for u in sorted(defending) if not state.units[u].unit.type.retreats]
                if cannot:
                    found.append(illegal("9.8", f"{', '.join(map(self.name, cannot))} may not retreat, so the stack must take the loss instead", action))
                if defending - retreating:
                    found.append(illegal("9.76", f"all defending units retreat or none do; {', '.join(map(self.name, sorted(defending - retreating)))} stayed", action))
                required = int(self.options.get("mass_attack_retreat_losses", 1)) if mass else 0
                if len(lost_d) != required:
                    found.append(illegal("9.76", f"{result}: a defender who retreats loses {required} step(s), not {len(lost_d)}", action))
            else:
                required = 3 if mass else 1
                if len(lost_d) + self._steps_in(eliminated & defending, state) < required:
                    found.append(illegal("9.76", f"{result}: the defender must lose {required} step{'s' if required > 1 else ''} or retreat every unit one hex", action))
                elif len(lost_d) > required:
                    found.append(illegal("9.77", f"{result}: the defender loses {required} step(s), not {len(lost_d)}", action))
        elif lost_d or (retreating & defending) or (eliminated & defending):
            found.append(illegal("9.73", f"{result}: the defender suffers nothing", action))
        # Attacker's result.
        if attacker_part == "E":
            missing = attackers - eliminated
            if missing:
                found.append(illegal("9.74", f"{result}: every attacking unit is eliminated; {', '.join(map(self.name, sorted(missing)))} not removed", action))
        elif attacker_part == "1":
            if len(lost_a) + self._steps_in(eliminated & attackers, state) != 1:
                found.append(illegal("9.75", f"{result}: the attacking force loses exactly one step, not {len(lost_a)}", action))
        elif lost_a or (eliminated & attackers):
            found.append(illegal("9.73", f"{result}: the attacker suffers nothing", action))
        if retreating & attackers:
            found.append(illegal("9.75", "the attacker never retreats; it takes losses instead", action))
        for unit_id, path in action.retreats.items():
            if unit_id not in defending:
                continue
            if len(path) != 1:
                found.append(illegal("9.8", f"{self.name(unit_id)} retreats {len(path)} hexes; a retreat is one hex", action))
            first = path[0]
            if not self.map.is_adjacent(action.target, first):
                found.append(illegal("9.8", f"{self.name(unit_id)} retreats to {self.where(first)}, not adjacent to {self.where(action.target)}", action))
            holder = state.side_at(first)
            if holder is not None and holder != state.units[unit_id].side:
                found.append(illegal("9.81", f"{self.name(unit_id)} retreats into {self.where(first)}, occupied by enemy units", action))
        if action.advance:
            survivors = [u for u in defending if u not in eliminated and u not in retreating and state.units[u].step + lost_d.count(u) < len(state.units[u].unit.type.steps)]
            if survivors:
                found.append(illegal("9.91", f"{self.where(action.target)} was not vacated ({', '.join(map(self.name, survivors))} still there): no advance", action))
            for unit_id in action.advance:
                if unit_id not in attackers:
                    found.append(illegal("9.91", f"{self.name(unit_id)} did not take part in this combat and may not advance", action))
                elif unit_id in eliminated or state.units[unit_id].step + lost_a.count(unit_id) >= len(state.units[unit_id].unit.type.steps):
                    found.append(illegal("9.91", f"{self.name(unit_id)} was eliminated and cannot advance", action))
        return found

    def _steps_in(self, units: set[str], state: State) -> int:
        return sum(len(state.units[u].unit.type.steps) - state.units[u].step for u in units)

    def after_attack(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        ctx.attacked_with.update(action.attackers)
        ctx.attacked.update(ctx.extra.pop("defenders", ()))
        ctx.advanced.update(action.advance)
        for unit_id, path in action.retreats.items():
            ctx.retreated[unit_id] = path[-1]
            ctx.touched.add(path[-1])
            ctx.last_entry[path[-1]] = action
        if action.advance:
            ctx.touched.add(action.target)
            ctx.last_entry[action.target] = action
        return []


def build_ruleset(module) -> ChinaWarRules:
    return ChinaWarRules(module)
