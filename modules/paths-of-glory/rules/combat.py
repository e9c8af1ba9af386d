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

# 12.4.5: the order in which attacking British units (and the RU CAU Army) take the first loss.
LOSS_PRIORITY = {"BR-BEF-ARMY": 0, "BR-BEF-CORPS": 1, "BR-MEF-ARMY": 2, "RU-CAU-ARMY": 2, "BR-AUS-CORPS": 3, "BR-CND-CORPS": 3}


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
        if self._desert_summer(state, target):  # type: ignore[attr-defined]
            found.append(illegal("15.2.5", f"{label} is a desert space: it is not attacked in summer (LR2022 15.2.5)", action))
        if target in play.attacked_spaces:
            found.append(illegal("12.1.6", f"{label} was already attacked in this action; no space is attacked twice in one action (LR2022 12.1.6)", action))
        retreated = play.retreated_into.get(target, set())
        if defenders and all(u.id in retreated for u in defenders):
            found.append(illegal("12.1.1", f"{label} holds only units that retreated there this round: it may not be attacked", action))
        found += self._combat_cards(action, state, side)
        spaces = sorted({u.at for u in attackers})
        nations = set()
        for unit in attackers:
            name = self.name(unit.id)
            if unit.side != side:
                return found + [illegal("8.1.1", f"{name} is not a {side.upper()} unit", action)]
            if not unit.on_map:
                return found + [illegal("12.1.1", f"{name} is not on the map (it is in the {unit.box} box)", action)]
            if play.activated.get(unit.at) != "attack":
                found.append(illegal("9.2.5", f"{name} is in {self.where(unit.at)}, which is not activated for attack this round", action))
            if unit.id in play.attacked_with:
                found.append(illegal("12.1.5", f"{name} already attacked this round", action))
            besieging = unit.at == target
            if not besieging and fort and self.besieged(state, target):
                found.append(illegal("15.1.3", f"{label} is besieged: only units in its space may attack its fort ({name} is in {self.where(unit.at)})", action))
            elif not besieging and not game_map.is_adjacent(unit.at, target):
                found.append(illegal("12.1.3", f"{name} in {self.where(unit.at)} is not adjacent to {label}", action))
            elif not besieging and not self.may_use(state, unit.at, target, unit):
                found.append(illegal("12.1.8", f"{name} may not attack across the dashed connection {self.where(unit.at)}-{label}", action))
            if self.out_of_supply(state, unit):
                found.append(illegal("14.3.1", f"{name} is out of supply and may not attack", action))
            nations.add(_combat_nation(unit))
        if len(nations) > 3:
            found.append(illegal("12.1.9", f"{len(nations)} nationalities attack together; at most 3", action))
        elif len(nations) > 1:
            # 12.1.9.1: from several spaces, one space holds attacking units of every nationality in the attack.
            by_space: dict[int, set[str]] = {}
            for unit in attackers:
                by_space.setdefault(unit.at, set()).add(_combat_nation(unit))
            if not any(present == nations for present in by_space.values()):
                found.append(illegal("12.1.9.1", f"a multinational attack ({', '.join(sorted(nations))}) needs one attacking space with units of every nationality in it", action))
        found += self._siege_kept(action, state, play, attackers)
        russian_fort = self.module.map.country[target] == "RU" and self.module.map.extra[target].get("fort") and self.fort(state, target)
        if russian_fort and any(u.unit.type.nationality == "GE" for u in attackers):
            if not self.played(state, "oberost") and state.status.get("war_status", {}).get("cp", 0) < 4:
                found.append(illegal("15.1.10", f"German units may not attack {label}, a Russian fort space, before OberOst or CP war status 4", action))
        german_fort = self.module.map.country[target] == "GE" and self.fort(state, target)
        if german_fort and state.turn == 1 and any(u.unit.type.nationality == "RU" for u in attackers):
            found.append(illegal("15.1.11", f"Russian units may not attack the German fort in {label} in August 1914", action))
        # 12.5.6: units that retreated into the space this round add nothing to its defence, and any loss
        # eliminates them without using up the loss number.
        strays = [u for u in defenders if u.id in retreated]
        if strays and len(strays) < len(defenders):
            found += self._strays(action, strays)
            defenders = [u for u in defenders if u.id not in retreated]
        found += self._flank_and_fire(action, state, attackers, defenders, fort, spaces)
        return found

    def _combat_cards(self, action, state: State, side: str) -> list:
        """9.5.4: only combat cards, the attacker's before the defender's, none removed from the game."""
        found = []
        defender_played = False
        for card_id in action.cards:
            card = self.module.cards[card_id]
            name = f"{card_id} {card['name']}"
            if not card.get("combat_card"):
                found.append(illegal("9.5.4", f"{name} is not a combat card", action))
            if card_id in state.status.get("removed_cards", ()):
                found.append(illegal("9.5.1.2", f"{name} was removed from the game", action))
            if card["side"] == side and defender_played:
                found.append(illegal("9.5.4.1", f"the attacker plays {name} after the defender's combat cards; the attacker plays first", action))
            defender_played = defender_played or card["side"] != side
        return found

    def _flank_and_fire(self, action, state: State, attackers: list[UnitState], defenders: list[UnitState], fort: int, spaces: list[int]) -> list:
        found = []
        target = action.target
        label = self.where(target)
        flanked = failed = False
        if action.flank_pin is not None:
            why = self.flank_refused(state, target, attackers, defenders, spaces)
            if why:
                found.append(illegal("12.3.1", f"no flank attack on {label}: {'; '.join(why)}", action))
            elif action.flank_pin not in spaces:
                found.append(illegal("12.3.2", f"the pinning space {self.where(action.flank_pin)} is not one of the attacking spaces", action))
            else:
                drm = sum(1 for s in spaces if s != action.flank_pin and self._free_flank(state, s, target, attackers[0].side))
                flanked = action.flank_roll + drm >= self.module.tables["flank_attack"]["success_at_least"]
                failed = not flanked
        card_drm = self.card_drms(action, state, attackers[0].side) if action.cards else (0, 0)
        if card_drm is None:
            found.append(warning("9.5.4", f"combat cards {', '.join(action.cards)} are played: their effects are not all modelled, so the fire results are not checked", action))
            return found
        attacker_shift, defender_shift = self.shifts(state, target, fort_only=not defenders)
        drm = self.module.tables["fire"]["sinai_drm"] if all(self.where(u.at) == "Sinai" for u in attackers) else 0
        drm += card_drm[0]
        claimed = action.result.split("/")
        if len(claimed) != 2 or not all(c.isdigit() for c in claimed):
            return found + [illegal("12.2.8", f"an attack's result is two loss numbers, attacker's/defender's (e.g. 2/5), not {action.result!r}", action)]
        suffered_by_attacker, suffered_by_defender = int(claimed[0]), int(claimed[1])
        shooting = attackers
        if failed:  # 12.3.3: a failed flank attack: the defender fires first, the attacker with what that fire left
            shooting = self._after(state, attackers, action.losses_attacker, action.replacements)[0]
        defender_loss, column = self.fire(shooting, 0, attacker_shift, action.roll + drm)
        drm_text = f"{drm:+d}" if drm else ""
        if defender_loss != suffered_by_defender:
            found.append(mismatch("12.2.8", f"the attacker's fire ({sum(u.face.attack for u in shooting)} CF on the {column} column, roll {action.roll}{drm_text}{', after the defender fired first: the flank attack failed' if failed else ''}) inflicts {defender_loss}, not {suffered_by_defender}", action))
        if action.defender_roll is None:
            found.append(illegal("12.2.8", "both sides roll: the defender's die roll (defender_roll) is missing", action))
        else:
            firing = defenders
            if flanked:  # 12.3.3: the defender fires with what the attacker's fire left (replacing corps included)
                # not the extra step that cancels a retreat (12.5.3): it is taken after both fires
                fired_at = action.losses_defender[:-1] if "cancel_retreat" in action.declared and action.losses_defender else action.losses_defender
                firing = self._after(state, defenders, fired_at, action.replacements)[0]
            defender_fort = 0 if flanked and _fort_lost(action) else fort
            attacker_loss, column = self.fire(firing, defender_fort, defender_shift, action.defender_roll + card_drm[1])
            if attacker_loss != suffered_by_attacker:
                text = f"{card_drm[1]:+d}" if card_drm[1] else ""
                found.append(mismatch("12.2.8", f"the defender's fire ({sum(u.face.attack for u in firing) + defender_fort} CF on the {column} column, roll {action.defender_roll}{text}) inflicts {attacker_loss}, not {suffered_by_attacker}", action))
        cancel = "cancel_retreat" in action.declared
        counted = action.losses_defender[:-1] if cancel and action.losses_defender else action.losses_defender
        found += self._losses(action, state, defenders, suffered_by_defender, "defender", counted)
        if cancel:
            found += self._cancel_retreat(action, state, defenders, attackers, suffered_by_attacker, suffered_by_defender)
        found += self._losses(action, state, attackers, suffered_by_attacker, "attacker", action.losses_attacker)
        found += self._loss_priority(action, attackers, suffered_by_attacker)
        found += self._fort_losses(action, state, defenders, fort, suffered_by_defender)
        found += self._retreat_and_advance(action, state, attackers, defenders, suffered_by_attacker, suffered_by_defender)
        return found

    def flank_refused(self, state: State, target: int, attackers: list[UnitState], defenders: list[UnitState], spaces: list[int]) -> list[str]:
        """12.3.1: why no flank attack may be made on ``target`` by ``attackers`` from ``spaces`` (empty: it may)."""
        label = self.where(target)
        terrain = self.module.tables["terrain_effects"]["terrain"].get(self.module.map.terrain[target], {})
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
        return why

    def card_drms(self, action, state: State, side: str) -> tuple[int, int] | None:
        """The die roll modifiers (attacker's, defender's) of the combat cards played, or None where a card's effect
        is not modelled (events.py models the ones that only modify a roll)."""
        return None

    def retreat_waived(self, action, state: State, attackers: list[UnitState]) -> bool:
        """Whether an event lets the defenders ignore the retreat (events.py: Haig)."""
        return False

    def _strays(self, action, strays: list[UnitState]) -> list:
        claimed = action.result.split("/")
        suffered = int(claimed[1]) if len(claimed) == 2 and claimed[1].isdigit() else 0
        kept = [u for u in strays if u.id not in action.eliminated]
        listed = [u for u in strays if u.id in action.losses_defender]
        found = []
        if listed:
            found.append(illegal("12.5.6", f"{', '.join(self.name(u.id) for u in listed)} retreated here this round: eliminate them (eliminated), they absorb no loss", action))
        elif suffered >= 1 and kept:
            found.append(illegal("12.5.6", f"{', '.join(self.name(u.id) for u in kept)} retreated here this round and are eliminated by any loss", action))
        return found

    def _fort_losses(self, action, state: State, defenders: list[UnitState], fort: int, number: int) -> list:
        """12.4.6: a defending fort is destroyed when no defending unit is left standing (none retreated either)
        and what remains of the loss number is at least its LF; otherwise it ignores the losses."""
        declared = _fort_lost(action)
        if not fort:
            return [illegal("12.4.6", f"{self.where(action.target)} has no intact defending fort to destroy", action)] if declared else []
        standing, taken, _ = self._after(state, defenders, action.losses_defender, action.replacements)
        survivors = [u for u in standing if u.id not in action.eliminated] or list(action.retreats)
        destroyed = not survivors and number - taken >= fort
        if destroyed and not declared:
            return [illegal("12.4.6", f"the fort of {self.where(action.target)} (LF {fort}) is destroyed by the {number - taken} left of the loss number: declare fort_destroyed", action)]
        if declared and not destroyed:
            why = "defending units remain" if survivors else f"only {number - taken} of the loss number is left for its LF {fort}"
            return [illegal("12.4.6", f"the fort of {self.where(action.target)} is not destroyed: {why}", action)]
        return []

    def _loss_priority(self, action, attackers: list[UnitState], number: int) -> list:
        """12.4.5: attacking with British units (or the RU CAU Army), the first loss falls on the first unit of
        BEF Army, BEF Corps, MEF Army (or the CAU Army), AUS or CND Corps that can take it within the loss number."""
        ranks = LOSS_PRIORITY
        if not action.losses_attacker:
            return []
        able = [(ranks[u.id], u.id) for u in attackers if u.id in ranks and 0 < (u.face.loss or 0) <= number]
        if not able:
            return []
        first = min(rank for rank, _ in able)
        allowed = {unit_id for rank, unit_id in able if rank == first}
        if action.losses_attacker[0] not in allowed:
            names = " or ".join(self.name(u) for u in sorted(allowed))
            return [illegal("12.4.5", f"the attacker's first loss falls on {names} (loss priority), not {self.name(action.losses_attacker[0])}", action)]
        return []

    def _cancel_retreat(self, action, state: State, defenders, attackers, suffered_by_attacker: int, suffered_by_defender: int) -> list:
        """12.5.3: in a trench, forest, desert, mountain or swamp the defender may take one more step instead of
        retreating, if a defending step remains."""
        effects = self.module.tables["terrain_effects"]
        label = self.where(action.target)
        terrain = effects["terrain"].get(self.module.map.terrain[action.target], {})
        if not (terrain.get("cancel_retreat") or self.trench(state, action.target)):
            return [illegal("12.5.3", f"{label} is {self.module.map.terrain[action.target]} without a trench: its defenders cannot cancel a retreat", action)]
        if not action.losses_defender:
            return [illegal("12.5.3", "cancelling a retreat costs one more step, and none is listed", action)]
        standing = self._after(state, defenders, action.losses_defender, action.replacements)[0]
        if not standing:
            extra = state.units.get(action.losses_defender[-1])
            if extra is not None and self.is_army(extra) and extra.id not in action.replacements and self._reserve_corps(state, extra):
                return [illegal("12.4.4", f"the extra step eliminates {self.name(extra.id)}: a {extra.unit.type.nationality} corps from the Reserve Box replaces it at once and keeps the space (name it in replacements)", action)]
            return [illegal("12.5.3", "a retreat is cancelled only if a defending step remains after the extra step", action)]
        if action.retreats:
            return [illegal("12.5.3", "the defenders cancelled their retreat; they do not also retreat", action)]
        return []

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
            elif not self._may_replace(unit, corps):
                found.append(illegal("12.4.4.3", f"{self.name(new)} cannot replace {self.name(old)}: the BEF Army only by the BEF Corps, other British armies by BR corps (not AUS, CND, PT, ANA or BEF)", action))
            elif corps.step and any(u.step == 0 for u in self._replacing_corps(state, unit, set())):
                found.append(illegal("12.4.4", f"{self.name(new)} is reduced: a full-strength corps of the Reserve Box replaces {self.name(old)} when there is one", action))
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
        else:
            # 12.4.3's own example: the loss number may be met only by eliminating a reduced army and letting the
            # corps that replaces it (12.4.4) take steps too. 12.4.5's British priority comes first for an attacker.
            prioritised = who == "attacker" and any(u.id in LOSS_PRIORITY for u in units)
            most = taken if remaining <= 0 or prioritised else self._most_loss(state, units, number)
            if taken < most:
                found.append(illegal("12.4.3", f"the {who} takes {taken} of a loss number of {number}; {most} can be taken (an eliminated army's replacing corps from the Reserve Box takes steps too, 12.4.4)", action))
        return found

    def _may_replace(self, army: UnitState, corps: UnitState) -> bool:
        """12.4.4.3: the BEF Army only by the BEF Corps, the BEF Corps replaces nothing else; the AUS, CND, PT and
        ANA Corps replace no British army."""
        army_bef = army.unit.type.attributes.get("contingent") == "BEF"
        contingent = corps.unit.type.attributes.get("contingent")
        if army.unit.type.nationality != "BR":
            return True
        return contingent == "BEF" if army_bef else contingent is None

    def _replacing_corps(self, state: State, army: UnitState, used: set[str]) -> list[UnitState]:
        """The corps of the Reserve Box that may replace ``army`` (12.4.4, 12.4.4.3), ``used`` ones left out."""
        nation = army.unit.type.nationality
        return [u for u in state.units.values() if u.box == "reserve" and u.side == army.side and u.unit.type.nationality == nation
                and not self.is_army(u) and u.id not in used and self._may_replace(army, u)]

    def _reserve_corps(self, state: State, army: UnitState) -> bool:
        return bool(self._replacing_corps(state, army, set()))

    def _most_loss(self, state: State, units: list[UnitState], number: int) -> int:
        """The most of ``number`` that steps of ``units`` can absorb without exceeding it (12.4.3), an eliminated
        army being replaced at once by a corps of the Reserve Box, full-strength if there is one (12.4.4)."""
        memo: dict = {}

        def best(stack: tuple[tuple[str, int], ...], used: frozenset[str], remaining: int) -> int:
            key = (tuple(sorted(stack)), used, remaining)
            if key in memo:
                return memo[key]
            result = 0
            for n, (unit_id, step) in enumerate(stack):
                unit = state.units[unit_id]
                steps = unit.unit.type.steps
                if step >= len(steps):
                    continue
                loss = steps[step].loss or 0
                if loss <= 0 or loss > remaining:
                    continue
                rest = stack[:n] + ((unit_id, step + 1),) + stack[n + 1:]
                options: list[tuple[tuple[str, int], ...]] = [()]
                if step + 1 == len(steps) and self.is_army(unit):
                    corps = self._replacing_corps(state, unit, set(used))
                    full = [c for c in corps if c.step == 0] or corps
                    kinds = {(c.unit.type.id, c.step): c for c in full}
                    options = [((c.id, c.step),) for c in kinds.values()] or [()]
                for extra in options:
                    taken = loss + best(rest + extra, used | {e[0] for e in extra}, remaining - loss)
                    result = max(result, taken)
                if result == remaining:
                    break
            memo[key] = result
            return result

        return best(tuple((u.id, u.step) for u in units), frozenset(), number)

    def _retreat_and_advance(self, action, state: State, attackers, defenders, suffered_by_attacker: int, suffered_by_defender: int) -> list:
        found = []
        label = self.where(action.target)
        lost = list(action.losses_attacker)
        # 12.4.4 with 12.5.1 and 12.6.1: a corps that replaced an eliminated attacking army is one of the attackers.
        ids = {u.id for u in attackers}
        attackers = attackers + [state.units[new] for old, new in action.replacements.items() if old in ids and new in state.units]
        full_attacker = [u for u in attackers if u.step == 0 and u.id not in lost]
        attacker_won = suffered_by_defender > suffered_by_attacker
        difference = suffered_by_defender - suffered_by_attacker
        length = self.module.tables["retreat"]["by_difference"].get(str(difference), self.module.tables["retreat"]["otherwise"])
        if action.retreats and not (attacker_won and full_attacker):
            why = "the result is a tie" if difference == 0 else ("the defender won" if not attacker_won else "no attacking unit is at full strength")
            found.append(illegal("12.5.1", f"the defenders in {label} may not retreat: {why}", action))
        if attacker_won and full_attacker and "cancel_retreat" not in action.declared and not self.retreat_waived(action, state, attackers):
            standing = self._after(state, defenders, action.losses_defender, action.replacements)[0]
            staying = [u for u in standing if u.id not in action.retreats and u.id not in action.eliminated]
            if staying:
                found.append(illegal("12.5.1", f"the attacker won with a full-strength unit: {', '.join(self.name(u.id) for u in staying[:3])} must retreat {length} space(s), or cancel it where 12.5.3 allows", action))
        defending_ids = {u.id for u in defenders} | set(action.replacements.values())
        for unit_id, path in action.retreats.items():
            if unit_id not in defending_ids:
                found.append(illegal("12.5.1", f"{self.name(unit_id)} is not a defender in {label} and does not retreat", action))
                continue
            if not path:
                continue
            # 12.5.2: exactly the length; a shorter retreat only for a unit eliminated where it stops (12.5.4).
            if attacker_won and full_attacker and (len(path) > length or (len(path) < length and unit_id not in action.eliminated)):
                found.append(illegal("12.5.2", f"{self.name(unit_id)} retreats {len(path)} space(s); loss numbers {suffered_by_attacker}/{suffered_by_defender} call for {length}", action))
            here = action.target
            for step in path:
                if not self.module.map.is_adjacent(here, step):
                    found.append(illegal("12.5.5", f"the retreat of {self.name(unit_id)} jumps from {self.where(here)} to {self.where(step)}", action))
                    break
                own_side = defenders[0].side if defenders else ""
                if self.enemy_units(state, step, own_side):
                    found.append(illegal("12.5.5", f"{self.name(unit_id)} may not retreat into enemy units in {self.where(step)}", action))
                    break
                if self.fort(state, step) and self.controller(state, step) != own_side and not self.besieged(state, step):
                    found.append(illegal("12.5.5", f"{self.name(unit_id)} may not retreat into the enemy fort of {self.where(step)}", action))
                    break
                last = step == path[-1] and len(path) == length
                if self.controller(state, step) != own_side and self._friendly_retreat(state, action, unit_id, here, last):
                    found.append(illegal("12.5.5", f"{self.name(unit_id)} retreats into {self.where(step)}, not friendly-controlled, while a friendly-controlled space is open from {self.where(here)}", action))
                    break
                here = step
            if path[-1] == action.target:
                found.append(illegal("12.5.5", f"{self.name(unit_id)} may not end its retreat in the space it left", action))
        ends: dict[int, int] = {}
        for unit_id, path in action.retreats.items():
            if path and unit_id in defending_ids:
                ends[path[-1]] = ends.get(path[-1], 0) + 1
        limit = self.module.tables["movement"]["stacking_limit"]
        for end, arriving in ends.items():
            there = len([u for u in state.units_at(end) if u.id not in action.retreats])
            if there + arriving > limit:
                found.append(illegal("12.5.5", f"a retreat may not end overstacked: {self.where(end)} would hold {there + arriving} units", action))
        for unit_id in action.advance:
            unit = state.units[unit_id]
            if unit.id not in {u.id for u in attackers}:
                found.append(illegal("12.6.1", f"{self.name(unit_id)} did not attack (nor replace an attacking army) and may not advance", action))
            elif unit.step or unit_id in lost:
                found.append(illegal("12.6.1", f"only full-strength attackers advance; {self.name(unit_id)} is reduced", action))
        if action.advance and not defenders and self.fort(state, action.target) and "fort_destroyed" not in action.declared:
            # LR2022 12.7.1's exception: against a lone enemy fort the attacker advances only when it is destroyed
            found.append(illegal("12.6.1", f"the fort of {label} was attacked without defending units and is not destroyed: no advance (LR2022 12.7.1)", action))
        if action.advance:
            standing = self._after(state, defenders, action.losses_defender, action.replacements)[0]
            survivors = [u for u in standing if u.id not in action.retreats and u.id not in action.eliminated]
            if survivors:
                found.append(illegal("12.6.1", f"attackers advance only when every defender retreated or was eliminated ({', '.join(self.name(u.id) for u in survivors[:3])} stay)", action))
        return found

    def _siege_kept(self, action, state: State, play, attackers: list[UnitState]) -> list:
        """15.2.3: from a besieged enemy fort's space only the units beyond those the siege needs (15.2.1: an army,
        or as many corps as the fort's LF) attack an adjacent space; all of them may attack the fort."""
        found = []
        for space in sorted({u.at for u in attackers if u.at != action.target}):
            lf = self.fort(state, space)
            if not lf or self.controller(state, space) == play.side or not self.besieged(state, space):
                continue
            leaving = play.attacked_out | {u.id for u in attackers if u.at == space}
            staying = [u for u in state.units_at(space) if u.side == play.side and u.id not in leaving]
            if not any(self.is_army(u) for u in staying) and len(staying) < lf:
                found.append(illegal("15.2.3", f"the siege of {self.where(space)} needs an army or {lf} corps left behind; only units beyond them attack {self.where(action.target)}", action))
        return found

    def _friendly_retreat(self, state: State, action, unit_id: str, here: int, last: bool) -> bool:
        """12.5.5: whether the retreat could go on from ``here`` into a friendly-controlled space instead: one the
        unit may enter, not the space it left, that leaves a next space open (or, at the end, room to stack)."""
        game_map = self.module.map
        unit = state.units[unit_id]
        side = unit.side
        limit = self.module.tables["movement"]["stacking_limit"]

        def open_to(a: int, b: int) -> bool:
            enemy_fort = self.fort(state, b) and self.controller(state, b) != side and not self.besieged(state, b)
            return (b != action.target and self.may_use(state, a, b, unit) and not self.enemy_units(state, b, side)
                    and not enemy_fort and ("near_east" in game_map.features[b]) == ("near_east" in game_map.features[a]))

        for alt in game_map.neighbours[here]:
            if self.controller(state, alt) != side or not open_to(here, alt):
                continue
            if last:
                if len([u for u in state.units_at(alt) if u.id not in action.retreats]) < limit:
                    return True
            elif any(open_to(alt, onward) for onward in game_map.neighbours[alt]):
                return True
        return False

    def after_attack(self, action, state: State, ctx: TurnContext) -> list:
        play = self.current_play(ctx)
        if play is None:
            return []
        if _fort_lost(action):
            state.status.setdefault("forts", {})[self.where(action.target)] = "destroyed"
        play.attacked_with.update(action.attackers)
        play.attacked_spaces.add(action.target)
        play.attacked_out.update(u for u in action.attackers if state.units[u].at != action.target)
        for unit_id, path in action.retreats.items():
            if path:
                play.retreated_into.setdefault(path[-1], set()).add(unit_id)
        for unit_id in action.advance:
            self.enter(state, action.target, play.side)  # type: ignore[attr-defined]
        return []


def _combat_nation(unit: UnitState) -> str:
    """The nationality a unit counts as in a multinational attack (LR2022 12.1.11.2: SN Turkish, MN Serbian)."""
    nation = unit.unit.type.nationality
    return {"SN": "TU", "MN": "SB"}.get(nation, nation)


def _fort_lost(action) -> bool:
    return "fort_destroyed" in action.declared


def _edge(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)
