"""Combat (12.1-12.6, 15.1.10-15.1.11): who may attack, the fire tables with their shifts and DRMs, flank
attacks, loss allocation, retreats and advances.

An attack's ``result`` is ``A/D``: the loss number the attacker suffers, then the defender's. ``roll`` is the
attacker's die, ``defender_roll`` the defender's; a flank attempt names its pinning space and roll.
"""

from __future__ import annotations

from pbem.model.state import State, UnitState
from pbem.rules.combat import StrengthTable
from pbem.rules.ruleset import TurnContext, illegal, mismatch, warning

from .base import PathsOfGloryBase


class CombatRules(PathsOfGloryBase):
    def _tables(self) -> tuple[StrengthTable, StrengthTable]:
        cached = getattr(self, "_fire_tables", None)
        if cached is None:
            tables = self.module.tables
            cached = self._fire_tables = (StrengthTable.from_table(tables["fire_army"]), StrengthTable.from_table(tables["fire_corps"]))
        return cached

    def fire(self, units: list[UnitState], fort: int, shift: int, roll: int) -> tuple[int, str]:
        """Loss number and column read for a side firing with ``units`` (plus a fort's CF)."""
        army, corps = self._tables()
        table = army if any(self.is_army(u) for u in units) else corps
        strength = sum(u.face.attack for u in units) + fort
        column = table.shifted(strength, shift)
        return table.result(strength, shift, roll), table.columns[column]

    def shifts(self, state: State, target: int, fort_only: bool) -> tuple[int, int]:
        """Column shifts (attacker, defender) of the defended space's terrain and trench."""
        effects = self.module.tables["terrain_effects"]
        terrain = effects["terrain"].get(self.module.map.terrain[target], effects["terrain"]["clear"])
        attacker, defender = terrain["attacker_shift"], terrain["defender_shift"]
        trench = self.trench(state, target)
        if trench and not fort_only:  # 15.1.6: an unoccupied fort gets no trench benefit
            level = effects["trench"][str(trench["level"])]
            attacker += level["attacker_shift"]
            defender += level["defender_shift"]
        return attacker, defender

    def check_attack(self, action, state: State, ctx: TurnContext) -> list:
        play, found = self.need_play(action, ctx, ("ops", "automatic"), "12.1.1", "an attack")
        if play is None:
            return found
        side = play.side
        target = action.target
        game_map = self.module.map
        attackers = [state.units[u] for u in action.attackers]
        defenders = self.enemy_units(state, target, side)
        fort = self.fort(state, target) if self.controller(state, target) != side else 0
        label = self.where(target)
        if not defenders and not fort:
            return found + [illegal("12.1.1", f"{label} holds no enemy unit or fort to attack", action)]
        spaces = sorted({u.at for u in attackers})
        nations = set()
        for unit in attackers:
            name = self.name(unit.id)
            if unit.side != side:
                return found + [illegal("8.1.1", f"{name} is not a {side.upper()} unit", action)]
            if play.activated.get(unit.at) != "attack":
                found.append(illegal("9.2.5", f"{name} is in {self.where(unit.at)}, which is not activated for attack this round", action))
            if unit.id in play.attacked_with:
                found.append(illegal("12.1.5", f"{name} already attacked this round", action))
            besieging = unit.at == target
            if not besieging and not game_map.is_adjacent(unit.at, target):
                found.append(illegal("12.1.3", f"{name} in {self.where(unit.at)} is not adjacent to {label}", action))
            elif not besieging and not game_map.may_cross(unit.at, target, self.token(unit)):
                found.append(illegal("12.1.8", f"{name} may not attack across the dashed connection {self.where(unit.at)}-{label}", action))
            if not unit.supplied:
                found.append(illegal("14.3.1", f"{name} is out of supply and may not attack", action))
            nations.add("BR" if unit.unit.type.nationality == "BR" else unit.unit.type.nationality)
        if len(nations) > 3:
            found.append(illegal("12.1.9", f"{len(nations)} nationalities attack together; at most 3", action))
        russian_fort = self.module.map.country[target] == "RU" and self.module.map.extra[target].get("fort") and self.fort(state, target)
        if russian_fort and any(u.unit.type.nationality == "GE" for u in attackers):
            if not self.played(state, "oberost") and state.status.get("war_status", {}).get("cp", 0) < 4:
                found.append(illegal("15.1.10", f"German units may not attack {label}, a Russian fort space, before OberOst or CP war status 4", action))
        german_fort = self.module.map.country[target] == "GE" and self.fort(state, target)
        if german_fort and state.turn == 1 and any(u.unit.type.nationality == "RU" for u in attackers):
            found.append(illegal("15.1.11", f"Russian units may not attack the German fort in {label} in August 1914", action))
        found += self._flank_and_fire(action, state, attackers, defenders, fort, spaces)
        return found

    def _flank_and_fire(self, action, state: State, attackers: list[UnitState], defenders: list[UnitState], fort: int, spaces: list[int]) -> list:
        found = []
        target = action.target
        label = self.where(target)
        effects = self.module.tables["terrain_effects"]
        flanked = False
        if action.flank_pin is not None:
            terrain = effects["terrain"].get(self.module.map.terrain[target], {})
            why = []
            if len(spaces) < self.module.tables["flank_attack"]["minimum_spaces"]:
                why.append("the attack comes from one space")
            if not any(self.is_army(u) for u in attackers):
                why.append("no army attacks")
            if not terrain.get("flank", True):
                why.append(f"{label} is {self.module.map.terrain[target]}")
            if self.trench(state, target):
                why.append(f"{label} holds a trench")
            if not defenders:
                why.append(f"{label} is an unoccupied fort")
            if why:
                found.append(illegal("12.3.1", f"no flank attack on {label}: {'; '.join(why)}", action))
            elif action.flank_pin not in spaces:
                found.append(illegal("12.3.2", f"the pinning space {self.where(action.flank_pin)} is not one of the attacking spaces", action))
            else:
                drm = sum(1 for s in spaces if s != action.flank_pin and self._free_flank(state, s, target, attackers[0].side))
                flanked = action.flank_roll + drm >= self.module.tables["flank_attack"]["success_at_least"]
        if action.cards:
            found.append(warning("9.5.4", f"combat cards {', '.join(action.cards)} are played: their modifiers are not checked, so the fire results are not either", action))
            return found
        attacker_shift, defender_shift = self.shifts(state, target, fort_only=not defenders)
        drm = self.module.tables["fire"]["sinai_drm"] if all(self.where(u.at) == "Sinai" for u in attackers) else 0
        claimed = action.result.split("/")
        if len(claimed) != 2 or not all(c.isdigit() for c in claimed):
            return found + [illegal("12.2.8", f"an attack's result is two loss numbers, attacker's/defender's (e.g. 2/5), not {action.result!r}", action)]
        suffered_by_attacker, suffered_by_defender = int(claimed[0]), int(claimed[1])
        defender_loss, column = self.fire(attackers, 0, attacker_shift, action.roll + drm)
        if defender_loss != suffered_by_defender:
            found.append(mismatch("12.2.8", f"the attacker's fire ({sum(u.face.attack for u in attackers)} CF on the {column} column, roll {action.roll}{drm:+d}) inflicts {defender_loss}, not {suffered_by_defender}", action))
        if action.defender_roll is None:
            found.append(illegal("12.2.8", "both sides roll: the defender's die roll (defender_roll) is missing", action))
        else:
            firing = defenders
            if flanked:  # 12.3.3: the defender fires with what the attacker's fire left (replacing corps included)
                firing = self._after(state, defenders, action.losses_defender, action.replacements)[0]
            defender_fort = 0 if flanked and _fort_lost(action) else fort
            attacker_loss, column = self.fire(firing, defender_fort, defender_shift, action.defender_roll)
            if attacker_loss != suffered_by_attacker:
                found.append(mismatch("12.2.8", f"the defender's fire ({sum(u.face.attack for u in firing) + defender_fort} CF on the {column} column, roll {action.defender_roll}) inflicts {attacker_loss}, not {suffered_by_attacker}", action))
        found += self._losses(action, state, defenders, suffered_by_defender, "defender", action.losses_defender)
        found += self._losses(action, state, attackers, suffered_by_attacker, "attacker", action.losses_attacker)
        found += self._retreat_and_advance(action, state, attackers, defenders, suffered_by_attacker, suffered_by_defender)
        return found

    def _free_flank(self, state: State, space: int, target: int, side: str) -> bool:
        """12.3.2: a non-pinning attacking space adds +1 unless joined by a solid line to another enemy-occupied space."""
        game_map = self.module.map
        for other in game_map.neighbours[space]:
            if other == target or _edge(space, other) in game_map.restricted:
                continue
            if self.enemy_units(state, other, side):
                return False
        return True

    def _after(self, state: State, units: list[UnitState], steps: tuple[str, ...], replacements: dict[str, str]) -> tuple[list[UnitState], int, str]:
        """Units as they stand after ``steps`` (one entry a step, replacing units joining when a unit goes),
        the losses absorbed (LF a step), and a problem if a step cannot be taken."""
        faces = {u.id: u.step for u in units}
        present = {u.id: u for u in units}
        taken = 0
        for unit_id in steps:
            unit = present.get(unit_id)
            if unit is None or faces[unit_id] >= len(unit.unit.type.steps):
                return [], taken, f"{self.name(unit_id)} takes a loss but is not in this combat (or has no step left)"
            taken += unit.unit.type.steps[faces[unit_id]].loss or 0
            faces[unit_id] += 1
            if faces[unit_id] >= len(unit.unit.type.steps) and unit_id in replacements:
                new = state.units[replacements[unit_id]]
                present[new.id] = new
                faces[new.id] = new.step
        standing = []
        for unit_id, unit in present.items():
            if faces[unit_id] < len(unit.unit.type.steps):
                standing.append(unit if faces[unit_id] == unit.step else UnitState(unit.unit, unit.at, unit.box, faces[unit_id], unit.supplied, unit.side, set(unit.markers)))
        return standing, taken, ""

    def _losses(self, action, state: State, units: list[UnitState], number: int, who: str, steps: tuple[str, ...]) -> list:
        """12.4.3: steps worth as much as possible of the loss number without exceeding it (LF per step);
        12.4.4: an eliminated army is replaced by a corps of its nation from the Reserve Box."""
        found = []
        ids = {u.id for u in units}
        for old, new in action.replacements.items():
            if old not in ids and old not in action.replacements.values():
                continue
            unit, corps = state.units[old], state.units[new]
            if corps.box != "reserve" or corps.side != unit.side or corps.unit.type.nationality != unit.unit.type.nationality or self.is_army(corps):
                found.append(illegal("12.4.4", f"{self.name(new)} cannot replace {self.name(old)}: a replacing corps comes from the Reserve Box, of the same nationality", action))
        standing, taken, problem = self._after(state, units, steps, action.replacements)
        if problem:
            return found + [illegal("12.4.1", problem, action)]
        if taken > number:
            return found + [illegal("12.4.3", f"the {who} takes {taken} in losses; the loss number is {number} and may not be exceeded", action)]
        gone = [u for u in units if self.is_army(u) and u.id not in {s.id for s in standing} and u.id in steps]
        for army in gone:
            if army.id not in action.replacements and self._reserve_corps(state, army):
                found.append(illegal("12.4.4", f"{self.name(army.id)} is eliminated: a {army.unit.type.nationality} corps from the Reserve Box replaces it at once (name it in replacements)", action))
        remaining = number - taken
        for unit in standing:
            loss = unit.unit.type.steps[unit.step].loss or 0
            if 0 < loss <= remaining:
                found.append(illegal("12.4.3", f"the {who} takes {taken} of a loss number of {number}; {self.name(unit.id)} could still lose a step (LF {loss})", action))
                break
        return found

    def _reserve_corps(self, state: State, army: UnitState) -> bool:
        nation = army.unit.type.nationality
        return any(u.box == "reserve" and u.side == army.side and u.unit.type.nationality == nation and not self.is_army(u) for u in state.units.values())

    def _retreat_and_advance(self, action, state: State, attackers, defenders, suffered_by_attacker: int, suffered_by_defender: int) -> list:
        found = []
        label = self.where(action.target)
        lost = list(action.losses_attacker)
        full_attacker = [u for u in attackers if u.step == 0 and u.id not in lost]
        attacker_won = suffered_by_defender > suffered_by_attacker
        difference = suffered_by_defender - suffered_by_attacker
        length = self.module.tables["retreat"]["by_difference"].get(str(difference), self.module.tables["retreat"]["otherwise"])
        if action.retreats and not (attacker_won and full_attacker):
            why = "the result is a tie" if difference == 0 else ("the defender won" if not attacker_won else "no attacking unit is at full strength")
            found.append(illegal("12.5.1", f"the defenders in {label} may not retreat: {why}", action))
        defending_ids = {u.id for u in defenders} | set(action.replacements.values())
        for unit_id, path in action.retreats.items():
            if unit_id not in defending_ids:
                found.append(illegal("12.5.1", f"{self.name(unit_id)} is not a defender in {label} and does not retreat", action))
                continue
            if not path:
                continue
            if len(path) > length:
                found.append(illegal("12.5.2", f"{self.name(unit_id)} retreats {len(path)} spaces; loss numbers {suffered_by_attacker}/{suffered_by_defender} call for {length}", action))
            here = action.target
            for step in path:
                if not self.module.map.is_adjacent(here, step):
                    found.append(illegal("12.5.5", f"the retreat of {self.name(unit_id)} jumps from {self.where(here)} to {self.where(step)}", action))
                    break
                if self.enemy_units(state, step, defenders[0].side if defenders else ""):
                    found.append(illegal("12.5.5", f"{self.name(unit_id)} may not retreat into enemy units in {self.where(step)}", action))
                    break
                here = step
            if path[-1] == action.target:
                found.append(illegal("12.5.5", f"{self.name(unit_id)} may not end its retreat in the space it left", action))
        for unit_id in action.advance:
            unit = state.units[unit_id]
            if unit.id not in {u.id for u in attackers}:
                found.append(illegal("12.6.1", f"{self.name(unit_id)} did not attack and may not advance", action))
            elif unit.step or unit_id in lost:
                found.append(illegal("12.6.1", f"only full-strength attackers advance; {self.name(unit_id)} is reduced", action))
        if action.advance:
            standing = self._after(state, defenders, action.losses_defender, action.replacements)[0]
            survivors = [u for u in standing if u.id not in action.retreats and u.id not in action.eliminated]
            if survivors:
                found.append(illegal("12.6.1", f"attackers advance only when every defender retreated or was eliminated ({', '.join(self.name(u.id) for u in survivors[:3])} stay)", action))
        return found

    def after_attack(self, action, state: State, ctx: TurnContext) -> list:
        play = self.current_play(ctx)
        if play is None:
            return []
        play.attacked_with.update(action.attackers)
        for unit_id in action.advance:
            self.enter(state, action.target, play.side)  # type: ignore[attr-defined]
        return []


def _fort_lost(action) -> bool:
    return "fort" in action.declared


def _edge(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)
