"""Combat (9.0-9.9, 10.12, 10.33, 10.41, 10.42, 10.5, 10.72): who may attack whom, odds and every column shift,
the die-row column, the claimed roll and result against the CRT, and the losses, retreats and advances it requires."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.model.actions import Combat
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules.combat import CombatOdds, ratio_text, round_odds, split_result
from pbem.rules.ruleset import TurnContext, illegal, mismatch

from .base import CHINESE, COMBAT, MOVEMENT, SOVIET, ChinaWarBase

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
    base: int = 0  # the odds' position on the CRT's scale, before the shifts
    parts: dict[str, int] = field(default_factory=dict)  # what the strengths are made of, by the rule that adds it

    @property
    def net(self) -> int:
        return sum(n for _, n in self.shifts)

    def explain(self) -> str:
        items = ", ".join(f"{name.replace('_', ' ')} {n:+d}" for name, n in self.shifts) or "none"
        return f"shifts: {items}; net {self.net:+d}"


class CombatRules(ChinaWarBase):
    # --- the situation ----------------------------------------------------------------------------------
    def assess(self, combat: Combat, state: State, ctx: TurnContext) -> Assessment:
        """Strengths, odds, column shifts and die-row column of ``combat`` in the current situation."""
        attackers = [state.units[u] for u in combat.attackers if state.units[u].on_map]
        target = combat.target
        defenders = state.units_at(target)
        attack_side = attackers[0].side if attackers else ctx.active_side
        attack = sum(u.face.attack for u in attackers) + sum(combat.support.values())
        counted = [u for u in defenders if u.id not in ctx.retreated]  # 9.85
        parts = {
            "10.23": self.militia_strength(target, attack_side, state, ctx),
            "10.8": self.garrison_strength(target, state, attack_side),
            "9.85": sum(u.face.defence for u in defenders if u.id in ctx.retreated),
        }
        defence = sum(u.face.defence for u in counted) + parts["10.23"] + parts["10.8"]
        odds = round_odds(attack, defence) if defence > 0 else None
        shifts = self._shifts(combat, attackers, defenders, attack_side)
        net = sum(n for _, n in shifts)
        clamp_first = self.options.get("odds_clamp", "after_shifts") == "before_shifts"
        position = self.scale.position(odds) if odds else len(self.scale.columns) + 100
        if clamp_first:
            position = self.scale.clamp(position)
        column = self.scale.column(position + net)
        return Assessment(attack, defence, odds, shifts, column, self._die_row(target, defenders), position, parts)

    def _shifts(self, combat: Combat, attackers: list[UnitState], defenders: list[UnitState], attack_side: str) -> list[tuple[str, int]]:
        table = self.shift_table
        shifts: list[tuple[str, int]] = []

        def toward(side: str) -> int:
            return 1 if side == attack_side else -1

        def add(shift_id: str, side: str) -> None:
            shifts.append((shift_id, toward(side) * table[shift_id]["columns"]))

        everyone = attackers + defenders
        best: dict[str, str] = {}  # 9.4: each side uses only its largest quality shift
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
            # 10.41: armour favours its owner, mechanized infantry the defender, and each player benefits
            # from only one of these two modifiers in a combat (the larger); each counts once per combat.
            desert: dict[str, str] = {}
            mech_entry = table["mech_infantry_desert"]
            for side, group in ((attack_side, attackers), (defender_side, defenders)):
                arms = {u.unit.type.arm for u in group}
                if "armour" in arms:
                    desert[side] = "armour_desert"
                if "mechanized_infantry" in arms:
                    beneficiary = defender_side if mech_entry["direction"] == "defender" else side
                    desert.setdefault(beneficiary, "mech_infantry_desert")
            for side, shift_id in sorted(desert.items()):
                add(shift_id, side)
            if any(u.unit.type.nationality == "Mongolia" for u in everyone):
                add("mongolian_desert", SOVIET)
        mode_all = self.options.get("supply_shift", "any") == "all"  # 9.51
        for side, group in ((attack_side, attackers), (defender_side, defenders)):
            unsupplied = [u for u in group if not u.supplied]
            if unsupplied and (not mode_all or len(unsupplied) == len(group)):
                add("out_of_supply", self.other(side))
        if "prepared_position" in self.map.features[target] and any(
            self.home.get(u.unit.type.nationality) == self.map.country[target] for u in defenders
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
        if self._flanked(target, attackers):
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

    # --- what the tables give ------------------------------------------------------------------------------
    def odds_attack(self, action: Combat, state: State, ctx: TurnContext) -> CombatOdds | None:
        """The working of an attack (or an overrun) for ``pbem check --explain``: the same assessment the check uses."""
        if not any(state.units[u].on_map for u in action.attackers):
            return None
        a = self.assess(action, state, ctx)
        labels = {"10.23": "militia", "10.8": "garrison", "9.85": "retreated units, not counted"}
        parts = tuple(f"{labels[rule]} {'+' if rule != '9.85' else ''}{n} ({rule})" for rule, n in a.parts.items() if n)
        support = tuple(f"{kind} support +{n}" for kind, n in action.support.items() if n)
        return CombatOdds(
            target=self.where(action.target), attack=a.attack, defence=a.defence,
            odds=ratio_text(a.odds) if a.odds else None, parts=support + parts,
            shifts=tuple((name, n, SHIFT_RULES.get(name, "")) for name, n in a.shifts),
            column=a.column, die_row=a.die_row,
            results=tuple((roll, self.crt.result(a.column, roll, a.die_row)) for roll in self.crt.dice(a.die_row)),
        )  # fmt: skip

    odds_overrun = odds_attack

    # --- the attack --------------------------------------------------------------------------------------
    def check_attack(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        found: list[Violation] = []
        if ctx.phase != COMBAT:
            if ctx.phase == MOVEMENT:
                found.append(illegal("6.24", "no combat in the movement phase, only overruns (7.0); attacks come in the combat phase (9.11)", action))
            else:
                found.append(illegal("9.11", f"attacks are made only in the attacker's combat phase, not in the {ctx.phase or 'no'} phase", action))
        target = action.target
        defenders = state.units_at(target)
        for unit_id in action.attackers:
            unit, name = state.units[unit_id], self.name(unit_id)
            if not unit.on_map:
                found.append(illegal("9.11", f"{name} is not on the map ({unit.box})", action))
            elif unit.side != ctx.active_side:
                found.append(illegal("9.11", f"{name} is a {unit.side} unit; only the {self.side_name(ctx.active_side)} player attacks now", action))
            elif not self.map.is_adjacent(unit.at, target):
                found.append(illegal("9.11", f"{name} in {self.where(unit.at)} is not adjacent to {self.where(target)}", action))
            if unit_id in ctx.attacked_with:
                found.append(illegal("9.14", f"{name} has already attacked in this combat phase", action))
            if unit_id in ctx.advanced:
                found.append(illegal("9.92", f"{name} advanced after combat in this phase and may not attack again", action))
            followed = state.status.get("followed_up") or {}
            if unit_id in ctx.extra["follow_up"] or followed.get("turn") == state.turn and unit_id in followed.get("units", ()):
                found.append(illegal("2.0", f"{name} moved into a hex vacated in the reaction phase and may not attack this turn", action))
        found.extend(self._target_problems(action, state, ctx, defenders, "9.11"))
        for unit in defenders:
            if unit.id in ctx.attacked and unit.id not in ctx.retreated:  # 9.85's returners are not "attacked again"
                found.append(illegal("9.14", f"{self.name(unit.id)} in {self.where(target)} has already been attacked in this combat phase", action))
        ctx.extra["defenders"] = [u.id for u in defenders]
        if any(v.rule in ("9.11", "5.13") and "no enemy" in v.message for v in found) or not any(state.units[u].on_map for u in action.attackers):
            return found
        found.extend(self._support_problems(action, state, ctx))
        found.extend(self._check_claims(action, state, ctx, defenders))
        return found

    def _target_problems(self, action: Combat, state: State, ctx: TurnContext, defenders: list[UnitState], rule: str) -> list[Violation]:
        found: list[Violation] = []
        target = action.target
        attack_side = ctx.active_side
        if not defenders and self.guard(target, attack_side, state, ctx) is None:
            return [illegal(rule, f"there is no enemy unit (nor active militia or Trans-Siberian garrison) in {self.where(target)} to attack", action)]
        if any(u.side == attack_side for u in defenders):
            return [illegal(rule, f"{self.where(target)} holds {attack_side} units: you cannot attack your own hex", action)]
        for unit in defenders:
            if unit.side == "neutral":
                found.append(illegal("5.13", f"{self.name(unit.id)} belongs to a nation that has not entered the war and may not be attacked", action))
        if action.defenders is not None:
            missing = [u.id for u in defenders if u.id not in action.defenders]
            if missing:
                found.append(illegal("9.21", f"every unit in {self.where(target)} defends together; {', '.join(map(self.name, missing))} must defend too", action))
        if "mass_attack" in action.declared:
            others = [u for u in action.attackers if state.units[u].unit.type.nationality != "PLA"]
            if others:
                found.append(illegal("9.54", f"a mass attack needs PLA units only; {', '.join(map(self.name, others))} take part", action))
        return found

    def _support_problems(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        """5.11: the Soviet tactical air points of a game-turn; nuclear points are counted for 5.2."""
        found: list[Violation] = []
        air, nuclear = action.support.get("air", 0), action.support.get("nuclear", 0)
        if (air or nuclear) and ctx.active_side != SOVIET:
            return [illegal("13.0", "tactical air and nuclear points are the Soviet player's", action)]
        if air:
            used = state.status.setdefault("air_points", {"turn": state.turn, "used": 0})
            if used["turn"] != state.turn:
                used.update(turn=state.turn, used=0)
            used["used"] += air
            available = self.tac_points(state)
            if used["used"] > available:
                found.append(illegal("5.11", f"{used['used']} tactical air points used this game-turn; the Soviet player has {available}", action))
        if nuclear:
            state.status["nuclear_used"] = state.status.get("nuclear_used", 0) + nuclear
        return found

    def tac_points(self, state: State) -> int:
        """5.11, 5.15: 15 a turn while NATO is undecided or at war, 30 once it is neutral (from turn 3 at the
        earliest), plus Taiwan's 4 when Taiwan is a Soviet ally."""
        points = 15
        neutral_from = state.status.get("nato_neutral_turn")
        if self.stance(state, "NATO") == "neutral" and neutral_from is not None and state.turn >= max(neutral_from, 3):
            points = 30
        if self.stance(state, "Taiwan") == "allied_ussr":
            points += 4
        return points

    # --- the claims --------------------------------------------------------------------------------------
    def _check_claims(self, action: Combat, state: State, ctx: TurnContext, defenders: list[UnitState]) -> list[Violation]:
        found: list[Violation] = []
        assessment = self.assess(action, state, ctx)
        raw = ratio_text(assessment.odds) if assessment.odds else "beyond the table"
        odds_wrong = action.odds is not None and assessment.odds is not None and action.odds != raw
        if odds_wrong:
            rule, why = self._odds_cause(action, assessment, state)
            found.append(mismatch(rule, f"odds are {assessment.attack} to {assessment.defence} = {raw} (rounded in the defender's favour), not {action.odds}{why}", action))
        # The column the player's own claims lead to: a later figure that follows from an earlier wrong one is
        # the same mistake, named once, at its cause.
        players_column = action.column
        if players_column is None and odds_wrong:
            players_column = self._column_from_odds(action.odds, assessment)
        if action.shifts is not None:
            found.extend(self._check_shift_claims(action, assessment, state))
        elif action.column is not None and action.column != assessment.column:
            follows = odds_wrong and action.column == self._column_from_odds(action.odds, assessment)
            if not follows:
                rule, why = self._shift_cause(action.column, assessment)
                found.append(mismatch(rule, f"the final column is {assessment.column}, not {action.column} ({assessment.explain()}){why}", action))
        if action.roll not in self.crt.dice(assessment.die_row):
            return found + [mismatch("9.6", f"a roll of {action.roll} is impossible with one die", action)]
        expected = self.crt.result(assessment.column, action.roll, assessment.die_row)
        known = {r for row in self.crt.rows.values() for r in row}
        if action.result != expected:
            told = f"a roll of {action.roll} at {assessment.column} on die-row column {assessment.die_row} gives {expected}, not {action.result}"
            wrong_column = players_column is not None and players_column != assessment.column
            if found and wrong_column and self.crt.result(players_column, action.roll, assessment.die_row) == action.result:  # type: ignore[arg-type]
                last = found.pop()
                found.append(mismatch(last.rule, f"{last.message}; so {told}", action))
            else:
                found.append(mismatch("9.6", told, action))
        judged = action.result if action.result in known else expected
        found.extend(self._check_losses(action, state, ctx, defenders, judged))
        return found

    def _column_from_odds(self, odds: str | None, assessment: Assessment) -> str | None:
        """The final column that claimed ``odds`` give with the situation's shifts."""
        try:
            a, d = (int(x) for x in (odds or "").split("/"))
        except ValueError:
            return None
        if a <= 0 or d <= 0:
            return None
        position = self.scale.position((a, d))
        if self.options.get("odds_clamp", "after_shifts") == "before_shifts":
            position = self.scale.clamp(position)
        return self.scale.column(position + assessment.net)

    def _odds_cause(self, action: Combat, assessment: Assessment, state: State) -> tuple[str, str]:
        """(rule, explanation) for claimed odds that one left-out or added strength explains; else 9.0."""
        attack, defence, parts = assessment.attack, assessment.defence, assessment.parts
        tries = [
            ("10.23", attack, defence - parts["10.23"], "the militia's defence (10.23) was left out"),
            ("10.8", attack, defence - parts["10.8"], "the Trans-Siberian garrison's defence (10.8) was left out"),
            ("9.85", attack, defence + parts["9.85"], "a unit that retreated into the hex this phase adds nothing (9.85)"),
        ]
        if action.defenders is not None:
            for unit in state.units_at(action.target):
                if unit.id not in action.defenders:
                    tries.append(("9.21", attack, defence - unit.face.defence, f"{self.name(unit.id)} defends too (9.21)"))
        found = [(rule, why) for rule, a, d, why in tries if d > 0 and d != defence and ratio_text(round_odds(a, d)) == action.odds]
        if len({rule for rule, _ in found}) == 1:
            return found[0][0], f": {found[0][1]}"
        return "9.0", ""

    def _shift_cause(self, claimed: str, assessment: Assessment) -> tuple[str, str]:
        """(rule, explanation) when one mistake in one rule's shifts gives the claimed column; else 9.0.

        Mistakes with the shifts that apply (left out, counted the wrong way, the wrong one of a pair such as the
        two chemical shifts, a flank attack claimed instead of the river) are tried first, then a shift added that
        does not apply; an explanation is given only when exactly one rule accounts for the claim."""
        actual: dict[str, int] = {}
        for shift_id, columns in assessment.shifts:
            actual[shift_id] = actual.get(shift_id, 0) + columns
        net, table = assessment.net, self.shift_table

        def rule_of(shift_id: str) -> str:
            return SHIFT_RULES[shift_id]

        def gives(delta: int) -> bool:
            return self.scale.column(assessment.base + net + delta) == claimed

        present: list[tuple[str, int]] = []  # (rule, change of the net shift)
        for shift_id, n in actual.items():
            if n == 0:
                continue
            present += [(rule_of(shift_id), -n), (rule_of(shift_id), -2 * n)]
            for other in table:
                if other != shift_id and rule_of(other) == rule_of(shift_id) and other not in actual:
                    present.append((rule_of(shift_id), -n + (1 if n > 0 else -1) * table[other]["columns"]))
        if actual.get("river"):
            present.append(("9.55", -actual["river"] + table["flank_attack"]["columns"]))
        if actual.get("flank_attack"):
            present.append(("9.55", -actual["flank_attack"] - table["river"]["columns"]))
        absent = [(rule_of(i), sign * table[i]["columns"]) for i in table if i not in actual and i not in QUALITY_IDS for sign in (1, -1)]
        for tries in (present, absent):
            causes = sorted({rule for rule, delta in tries if delta and gives(delta)})
            if len(causes) == 1:
                what = " or ".join(sorted({table[i]["condition"] for i in table if rule_of(i) == causes[0]}))
                return causes[0], f"; the claim differs in the {causes[0]} shift ({what})"
            if causes:
                break
        return "9.0", ""

    def _check_shift_claims(self, action: Combat, assessment: Assessment, state: State) -> list[Violation]:
        """Compare an itemised shift claim with the shifts the situation gives, one rule at a time."""
        found = []
        actual: dict[str, int] = {}
        for shift_id, columns in assessment.shifts:  # a shift both sides earn (armour in desert) nets out
            actual[shift_id] = actual.get(shift_id, 0) + columns
        candidates = {i for i, _ in self._quality_of([state.units[u] for u in action.attackers] + state.units_at(action.target))}
        for shift_id in sorted(set(actual) | set(action.shifts or {})):
            claimed, real = (action.shifts or {}).get(shift_id, 0), actual.get(shift_id, 0)
            if shift_id not in self.shift_table:
                found.append(mismatch("9.0", f"there is no column shift {shift_id!r} (shifts: {', '.join(self.shift_table)})", action))
            elif claimed != real:
                outranked = shift_id in QUALITY_IDS and real == 0 and shift_id in candidates
                rule = "9.4" if outranked else SHIFT_RULES[shift_id]
                why = " (each side uses only its largest quality shift)" if outranked else ""
                label = self.shift_table[shift_id]["condition"]
                found.append(mismatch(rule, f"{label}: {real:+d} column(s) here, not {claimed:+d}{why}", action))
        if not found and action.column is not None and action.column != assessment.column:
            found.append(mismatch("9.0", f"the final column is {assessment.column}, not {action.column} ({assessment.explain()})", action))
        return found

    # --- losses, retreats, advances -------------------------------------------------------------------------
    def _check_losses(self, action: Combat, state: State, ctx: TurnContext, defenders: list[UnitState], result: str) -> list[Violation]:
        """9.7-9.9: the losses, retreats and advances written must be what ``result`` requires."""
        found: list[Violation] = []
        attacker_part, defender_part = split_result(result)
        attackers = set(action.attackers)
        returning = {u.id for u in defenders if u.id in ctx.retreated and action.kind == "attack"}  # 9.85
        defending = {u.id for u in defenders} - returning
        eliminated = set(action.eliminated)
        lost_a, lost_d = list(action.losses_attacker), list(action.losses_defender)
        retreating = set(action.retreats)
        mass = "mass_attack" in action.declared
        for unit_id in lost_a:
            if unit_id not in attackers:
                found.append(illegal("9.75", f"{self.name(unit_id)} did not attack in this combat and cannot take its loss", action))
        for unit_id in lost_d:
            if unit_id not in defending | returning:
                found.append(illegal("9.77", f"{self.name(unit_id)} did not defend in this combat and cannot take its loss", action))
        for unit_id in eliminated - attackers - defending - returning:
            found.append(illegal("9.74", f"{self.name(unit_id)} took no part in this combat and cannot be eliminated by it", action))
        if returning and defender_part in ("1", "E") and returning - eliminated:
            found.append(illegal("9.85", f"{', '.join(map(self.name, sorted(returning - eliminated)))} retreated into {self.where(action.target)} earlier this phase and is eliminated by any adverse result", action))
        # The defender's result comes first (9.78).
        if defender_part == "E":
            missing = defending - eliminated
            if missing:
                found.append(illegal("9.74", f"{result}: every defending unit is eliminated; {', '.join(map(self.name, sorted(missing)))} not removed", action))
            if retreating & defending:
                found.append(illegal("9.74", f"{result}: eliminated units cannot retreat", action))
        elif defender_part == "1":
            if retreating & defending:
                cannot = [u for u in sorted(defending) if not state.units[u].unit.type.retreats]
                if cannot:
                    found.append(illegal("9.8", f"{', '.join(map(self.name, cannot))} may not retreat, so the stack must take the loss instead", action))
                if defending - retreating - eliminated:
                    found.append(illegal("9.76", f"all defending units retreat or none do; {', '.join(map(self.name, sorted(defending - retreating)))} stayed", action))
                required = int(self.options.get("mass_attack_retreat_losses", 1)) if mass else 0
                if len([u for u in lost_d if u in defending]) != required:
                    found.append(illegal("9.54" if mass else "9.76", f"{result}: a defender who retreats loses {required} step(s), not {len(lost_d)}", action))
            elif defending:
                # 9.54: a mass attack triples the loss, but no stack loses more steps than it has.
                required = min(3 if mass else 1, self._steps_in(defending, state))
                taken = len([u for u in lost_d if u in defending]) + self._steps_in(eliminated & defending, state)
                can_retreat = all(state.units[u].unit.type.retreats for u in defending)
                if taken < required:
                    steps = f"{required} step{'s' if required > 1 else ''}"
                    choice = f"lose {steps} or retreat every unit one hex" if can_retreat else f"lose {steps} (it may not retreat, 9.8)"
                    found.append(illegal("9.54" if mass else "9.76", f"{result}: the defender must {choice}", action))
                elif len(lost_d) > required:
                    found.append(illegal("9.77", f"{result}: the defender loses {required} step(s), not {len(lost_d)}", action))
        elif lost_d or (retreating & defending) or (eliminated & defending):
            found.append(illegal("9.73", f"{result}: the defender suffers nothing", action))
        survivors = [u for u in defending if u not in eliminated and u not in retreating and state.units[u].step + lost_d.count(u) < len(state.units[u].unit.type.steps)]
        vacated = not survivors and defender_part != "-"  # 10.24: militia that suffers "no effect" still holds
        # The attacker's result, and the mass attack's price (9.54).
        crt_steps = {"E": None, "1": 1, "-": 0}.get(attacker_part, 0)
        taken_hex = vacated and bool(action.advance)
        mass_penalty = mass and (attacker_part != "-" or not taken_hex)
        if attacker_part == "E":
            missing = attackers - eliminated
            if missing:
                found.append(illegal("9.74", f"{result}: every attacking unit is eliminated; {', '.join(map(self.name, sorted(missing)))} not removed", action))
        else:
            expected = (crt_steps or 0) + (len(attackers) if mass_penalty else 0)
            steps = len(lost_a) + self._steps_in(eliminated & attackers, state)
            if mass_penalty and any(u not in lost_a and u not in eliminated for u in attackers):
                found.append(illegal("9.54", f"the mass attack {'took losses' if attacker_part != '-' else 'did not take the hex'}: every PLA unit in it loses a step", action))
            elif steps != expected and not (mass_penalty and steps >= expected):
                rule = "9.75" if attacker_part == "1" else "9.73"
                what = "loses exactly one step" if attacker_part == "1" else "suffers nothing"
                found.append(illegal(rule, f"{result}: the attacking force {what}, not {steps} step(s)", action))
        if retreating & attackers:
            found.append(illegal("9.75", "the attacker never retreats; it takes losses instead", action))
        found.extend(self._check_retreats(action, state, ctx, defending, eliminated))
        found.extend(self._check_advance(action, state, ctx, survivors, lost_a, eliminated, defender_part))
        if action.defender_advance:
            rule = "7.25" if action.kind == "overrun" else "9.78"
            found.append(illegal(rule, f"the defender never advances after combat, not even into a hex the attackers vacated ({', '.join(map(self.name, action.defender_advance))})", action))
        return found

    def _retreat_options(self, action: Combat, state: State, ctx: TurnContext, unit: UnitState) -> list[int]:
        """Hexes a unit of the defending stack may retreat into (9.8, 9.81, 10.24): adjacent, no enemy units,
        no enemy militia or garrison, away from the battle (not next to an attacker) and, with option
        ``retreat_away`` = ``from_enemy``, not next to an enemy unit that was not already next to the defender."""
        attack_hexes = {state.units[u].at for u in action.attackers if state.units[u].on_map}
        target = action.target
        enemy_hexes: set[int] = set()
        if self.options.get("retreat_away", "from_enemy") == "from_enemy":
            enemy = self.other(unit.side)
            # "no nearer to the enemy": an enemy unit two hexes off may not end up next to the retreating unit
            enemy_hexes = {u.at for u in state.units.values() if u.on_map and u.side == enemy and self.map.distance(u.at, target) == 2}
        options = []
        for hex_ in self.map.neighbours[target]:
            holder = state.side_at(hex_)
            if holder is not None and holder != unit.side:
                continue
            if hex_ in attack_hexes or any(self.map.is_adjacent(hex_, a) for a in attack_hexes):
                continue
            if any(self.map.is_adjacent(hex_, e) for e in enemy_hexes):
                continue
            if holder is None and self.guard(hex_, unit.side, state, ctx):
                continue
            options.append(hex_)
        return options

    def _toward(self, action: Combat, state: State, unit: UnitState, hex_: int) -> str:
        """Why ``hex_`` is not away from the battle and the enemy, in a player's words."""
        attack_hexes = sorted({state.units[u].at for u in action.attackers if state.units[u].on_map})
        near = [a for a in attack_hexes if a == hex_ or self.map.is_adjacent(hex_, a)]
        if near:
            return f"next to the attackers in {', '.join(map(self.where, near))}"
        enemy = sorted({u.at for u in state.units.values() if u.on_map and u.side == self.other(unit.side) and self.map.is_adjacent(hex_, u.at)})
        return f"next to enemy units in {', '.join(map(self.where, enemy))}, which were two hexes from {self.where(action.target)}"

    def _check_retreats(self, action: Combat, state: State, ctx: TurnContext, defending: set[str], eliminated: set[str]) -> list[Violation]:
        found: list[Violation] = []
        arriving: dict[int, int] = {}
        for unit_id, path in action.retreats.items():
            if unit_id not in defending:
                continue
            unit, name = state.units[unit_id], self.name(unit_id)
            if len(path) != 1:
                found.append(illegal("9.76", f"{name} retreats {len(path)} hexes; a retreat is one hex (9.76, 9.8)", action))
                continue
            hex_ = path[0]
            holder = state.side_at(hex_)
            if not self.map.is_adjacent(action.target, hex_):
                found.append(illegal("9.8", f"{name} retreats to {self.where(hex_)}, not adjacent to {self.where(action.target)}", action))
                continue
            if holder is not None and holder != unit.side:
                found.append(illegal("9.81", f"{name} retreats into {self.where(hex_)}, occupied by enemy units", action))
                continue
            if not unit.unit.type.retreats:
                continue  # reported once for the stack (9.8)
            options = self._retreat_options(action, state, ctx, unit)
            if hex_ not in options:
                guard = self.guard(hex_, unit.side, state, ctx) if holder is None else None
                if guard:
                    found.append(illegal(guard, f"{name} retreats into {self.where(hex_)}, {self.guard_name(hex_)}: only an overrun or an advance after combat may enter it", action))
                else:
                    found.append(illegal("9.8", f"{name} retreats to {self.where(hex_)}, {self._toward(action, state, unit, hex_)}: a retreat goes one hex away from the battle and from the enemy", action))
                continue
            counts_empty = holder is None or self.pop[hex_] is not None
            if not counts_empty and any(state.side_at(o) is None or self.pop[o] for o in options):
                free = [self.where(o) for o in options if state.side_at(o) is None or self.pop[o]]
                found.append(illegal("9.83", f"{name} retreats into occupied {self.where(hex_)} although an empty hex ({', '.join(free)}) is open", action, at=hex_))
            if unit_id not in eliminated:
                arriving[hex_] = arriving.get(hex_, 0) + self.weight(unit)
        for hex_, weight in arriving.items():
            total = weight + sum(self.weight(u) for u in state.units_at(hex_))
            if total > self.stack_limit[hex_]:
                found.append(illegal("9.83", f"retreating units overfill {self.where(hex_)} ({total} divisions, limit {self.stack_limit[hex_]}); the excess retreating units are eliminated", action, at=hex_))
        return found

    def _check_advance(self, action: Combat, state: State, ctx: TurnContext, survivors: list[str], lost_a: list[str], eliminated: set[str], defender_part: str) -> list[Violation]:
        found: list[Violation] = []
        if not action.advance:
            return found
        attackers = set(action.attackers)
        if survivors:
            found.append(illegal("9.91", f"{self.where(action.target)} was not vacated ({', '.join(map(self.name, survivors))} still there): no advance", action))
            return found
        if defender_part == "-":
            guard = self.guard(action.target, state.units[action.attackers[0]].side, state, ctx)
            if guard:
                return [illegal(guard, f"{self.where(action.target)} is {self.guard_name(action.target)}: a result with no effect on the defender does not defeat it, so no advance", action)]
            return [illegal("9.91", f"{self.where(action.target)} was not vacated: no advance", action)]
        weight = 0
        for unit_id in action.advance:
            unit = state.units[unit_id]
            if unit_id not in attackers:
                found.append(illegal("9.91", f"{self.name(unit_id)} did not take part in this combat and may not advance", action))
            elif unit_id in eliminated or unit.step + lost_a.count(unit_id) >= len(unit.unit.type.steps):
                found.append(illegal("9.91", f"{self.name(unit_id)} was eliminated and cannot advance", action))
            else:
                weight += self.weight(unit)
        if weight > self.stack_limit[action.target]:
            found.append(illegal("9.91", f"advancing units overfill {self.where(action.target)} ({weight} divisions, limit {self.stack_limit[action.target]})", action))
        return found

    def _steps_in(self, units: set[str], state: State) -> int:
        return sum(len(state.units[u].unit.type.steps) - state.units[u].step for u in units)

    def after_attack(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        ctx.attacked_with.update(action.attackers)
        ctx.attacked.update(ctx.extra.pop("defenders", ()))
        ctx.advanced.update(action.advance)
        ctx.record_combat(action)
        return []
