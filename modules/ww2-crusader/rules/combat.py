"""WWII Campaign / Crusader: combat declaration (W-Cbt/1-4, 战斗分配 and 牵制攻击), odds (W-Res/2-3, 战力比 and
最低战力), the column shifts the source names (W-Res/4 猛攻, W-Mod/1-4), results (W-CRT/1-2, 战斗结果解释 and
无路可退) and retreats (W-Retreat/1).

A declaration is ``{"special": "declare", "units": [attackers], "at": target}``; every attack of a segment is
declared before the first is resolved. The combat results table, terrain shifts and the size of the river
shift are not in the source: they come from the tables in force, and a combat whose column or result needs
a value none gives is reported as not checked.
"""

from __future__ import annotations

import math
from collections import Counter

from pbem.model.actions import Combat, Special
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal, mismatch, warning

from .base import ADVANCE_IN_ENEMY_TERRITORY, ATTACK_SEGMENTS, COURAGE, WAR_WEARY
from .formations import DUG_IN, FORMATIONS, FormationRules
from .street import StreetRules

HALFAYA = "halfaya_pass"  # the map's feature for the two Halfaya Pass hexes
ASSAULT = "assault"  # 猛攻, declared on the attack
RETREAT_MAX = 2
RETREAT_MIN = {"D1": 1, "D2": 2}
MAY_RETREAT = {"D", "D1", "D2", "De", "DeX", "De/AE", "D/AE"}  # the defender's part of the result


def crusader_odds(attack: int, defence: int) -> tuple[int, int]:
    """W-Res/2 (战力比): n:1 or 1:n, a ratio between two columns taken in the attacker's favour (8:5 = 1.6:1 → 2:1;
    5:8 → 1:1), below 1:5 taken as 1:5. Equal strengths are 1:1 (not stated; the only reading of n:1 with n = 1)."""
    if defence <= 0:
        raise ValueError("defence must be positive")
    if attack >= defence:
        return math.ceil(attack / defence), 1
    if attack <= 0:
        return 1, 5
    return 1, min(5, max(1, defence // attack))


def defender_part(result: str) -> str:
    return result.split("/")[0] if "/" in result else ("" if result.startswith("A") else result)


def attacker_part(result: str) -> str:
    return result.split("/")[1] if "/" in result else (result if result.startswith("A") else "")


class CombatRules(FormationRules, StreetRules):
    """check_special(declare) / check_attack / after_attack."""

    # --- declaration (W-Cbt/1-4) ---------------------------------------------------------------------------
    def check_declare(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase not in ATTACK_SEGMENTS:
            return [illegal("W-§1", f"attacks are declared in an attack segment (attack_1, attack_2), not in {ctx.phase or 'no segment'}", action)]
        if ctx.extra.get("resolved"):
            return [illegal("W-Cbt/3", "every attack is declared in the allocation segment before any is resolved (战斗分配节): this declaration follows a resolution", action)]
        if action.at is None or not action.units:
            return [illegal("W-Cbt/1", "a declaration names its attacking units and the hex it attacks", action)]
        found: list[Violation] = []
        target = action.at
        defenders = [u for u in state.units_at(target) if u.side != ctx.phase_side]
        if not defenders:
            return [illegal("W-Cbt/1", f"no enemy unit is in {self.where(target)}", action, at=target)]
        streets = self.street_hexes(state)
        if target in streets or any(u in state.units and state.units[u].at in streets for u in action.units):
            return [illegal("W-Street/3", "a street-fight hex cannot be attacked and its units cannot attack (巷战格不能被攻击)", action, at=target)]
        round_ = ATTACK_SEGMENTS[ctx.phase]
        group = tuple(action.units)
        # [AMBIG] C36: 一个单位可以进攻多格 gives several hexes to one unit; option many_against_many: allowed lets the same
        # group of units attack several hexes as one combat
        several = self.module.options.get("many_against_many", "refused") == "allowed"
        declared = ctx.extra.setdefault("declared", [])
        already = {u for _, units in declared for u in units}
        for unit_id in action.units:
            unit = state.units.get(unit_id)
            if unit is None or unit.side != ctx.phase_side or not unit.on_map:
                found.append(illegal("W-Cbt/1", f"{unit_id} is not an attacking player's unit on the map", action))
                continue
            name = self.name(unit_id)
            if not self.module.map.is_adjacent(unit.at, target):
                found.append(illegal("W-Cbt/1", f"{name} is not next to {self.where(target)}: only adjacent units attack", action))
            elif self.disordered(state, unit):
                found.append(illegal("W-Cbt/2", f"{name} is disordered (stamina 0) and may not attack (混乱状态的单位不能进攻)", action))
            elif self.marked(state, "extra_mp", unit_id):
                found.append(illegal("W-Cbt/2", f"{name} used extra MP this turn and may not attack (使用了额外移动力的单位不能进攻)", action))
            elif self.kind(unit) in FORMATIONS and not self.spearhead(unit, target):
                found.append(illegal("W-Form/3", f"{name} is in battle formation and attacks only toward its spearhead (只能朝“矛头”方向进攻): {self.where(target)} is on its {self.face_of(unit, target)}", action))
            elif round_ == 2 and self.marked(state, "first_round", unit_id):
                found.append(illegal("W-Round/1", f"{name} moved or attacked in the first round: a first-round unit may not attack in the 2nd attack segment", action))
            elif (unit_id in already and (len(group) == 1 or several) and all(units == group and t != target for t, units in declared if unit_id in units)):
                many = ctx.extra.setdefault("one_vs_many", {})
                many.setdefault(group, {t for t, units in declared if units == group}).add(target)  # W-Cbt/5 以一对多
            elif unit_id in already or self.marked(state, "attacked", unit_id):
                found.append(illegal("W-Round/3", f"{name} attacks at most once a turn", action))
            elif round_ == 1 and self.marked(state, "second_round_only", unit_id):
                found.append(illegal("W-Round/4", f"{name} was reinforced, replenished or reorganised this turn: it acts only in the second round", action))
        protected = set(self.record(state).get("one_vs_many", {}).get(ctx.phase_side or "", []))
        hit = [u for u in defenders if u.id in protected]
        if hit:
            # [AMBIG] C118 reading 1: 遭到这种攻击的守军,不能再被其他单位攻击 (再: for the rest of that player's action phase)
            found.append(illegal("W-Cbt/5", f"{self.name(hit[0].id)} was attacked one-against-many this action phase: no other unit may attack it (不能再被其他单位攻击)", action, at=target))
        many = {t: g for g, targets in ctx.extra.get("one_vs_many", {}).items() for t in targets}
        clash = [t for t, units in declared + [(target, group)] if t in many and units != many[t]]
        if clash:
            found.append(illegal("W-Cbt/5", f"{self.where(clash[0])} is attacked one-against-many by {', '.join(self.name(u) for u in many[clash[0]])}: no other unit may attack it (遭到这种攻击的守军,不能再被其他单位攻击)", action, at=clash[0]))
        units = [state.units[u] for u in action.units if u in state.units]
        if units and all(u.face.attack == 0 for u in units) and not any(t == target for t, _ in declared):
            found.append(illegal("W-Cbt/2", "units of attack 0 may join an attack but not make one alone (攻击力0)", action))
        if any(t == target for t, _ in declared):
            pass  # several declarations on one hex join into one attack
        declared.append((target, tuple(action.units)))
        return found

    def check_bonus(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        """W-Bonus/1 (进攻奖励): right after a combat that destroyed every defender, a battle formation among its
        attackers may attack once more, alone or with units from adjacent hexes; once a formation a turn."""
        last = ctx.extra.get("last_combat")
        if ctx.phase not in ATTACK_SEGMENTS or last is None or last["index"] != action.index - 1 or not last["wiped"]:
            return [illegal("W-Bonus/1", "an attack bonus comes immediately after a combat that destroyed every defender (当守军被全部消灭后…立即)", action)]
        if action.at is None or not action.units:
            return [illegal("W-Cbt/1", "a bonus attack names its units and the hex it attacks", action)]
        formed = [u for u in action.units if u in last["attackers"] and u in state.units and self.kind(state.units[u]) in FORMATIONS]
        if not formed:
            return [illegal("W-Bonus/1", "only a battle formation that took part in the combat earns the bonus attack", action)]
        used = [u for u in formed if self.marked(state, "bonus", u)]
        if used:
            return [illegal("W-Bonus/1", f"{self.name(used[0])} has had its attack bonus this turn (只能获得一次进攻奖励)", action)]
        found: list[Violation] = []
        for unit_id in action.units:
            unit = state.units.get(unit_id)
            if unit is None or unit.side != ctx.phase_side or not unit.on_map or not self.module.map.is_adjacent(unit.at, action.at):
                found.append(illegal("W-Cbt/1", f"{unit_id} is not an attacking unit next to {self.where(action.at)}", action))
            elif self.kind(unit) in FORMATIONS and not self.spearhead(unit, action.at):
                found.append(illegal("W-Form/3", f"{self.name(unit_id)} is in battle formation and attacks only toward its spearhead", action))
            elif unit_id not in formed and (self.marked(state, "attacked", unit_id) or self.disordered(state, unit)):
                found.append(illegal("W-Round/3", f"{self.name(unit_id)} may not join the bonus attack: it attacked already or is disordered", action))
        if not any(u.side != ctx.phase_side for u in state.units_at(action.at)):
            found.append(illegal("W-Cbt/1", f"no enemy unit is in {self.where(action.at)}", action))
        ctx.extra.setdefault("declared", []).append((action.at, tuple(action.units)))
        ctx.extra["bonus"] = {"target": action.at, "formed": set(formed)}
        return found

    def check_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        method = getattr(self, f"check_{action.order}", None) if action.order in SPECIAL_ORDERS else None
        if method is None:
            return [illegal("W-§1", f"special order {action.order!r} is not one this module knows ({', '.join(sorted(SPECIAL_ORDERS))})", action)]
        return method(action, state, ctx)

    def pinning(self, state: State, ctx: TurnContext, action) -> list[Violation]:
        """W-Cbt/4 (牵制攻击), checked once the allocation is complete (at the first resolution): every enemy hex
        next to an attacking unit is attacked by someone. Literal reading of the [AMBIG]: any attacking unit."""
        declared = ctx.extra.get("declared", [])
        targets = {t for t, _ in declared}
        found: list[Violation] = []
        for target, units in declared:
            for unit_id in units:
                unit = state.units.get(unit_id)
                if unit is None or not unit.on_map:
                    continue
                for near in self.module.map.neighbours[unit.at]:
                    street_free = self.module.options.get("street_pin", "excluded") == "excluded"  # [AMBIG] C70(c)
                    if near not in targets and not (street_free and near in self.street_hexes(state)) and any(u.side != unit.side for u in state.units_at(near)):
                        found.append(illegal("W-Cbt/4", f"{self.name(unit_id)} attacks {self.where(target)} but the enemy in {self.where(near)}, also next to it, is attacked by no one (发起进攻时,必须同时攻击与进攻单位相邻的敌军单位)", action, at=near))
                        targets.add(near)  # said once per hex
        return found

    # --- resolution ---------------------------------------------------------------------------------------
    def check_attack(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase not in ATTACK_SEGMENTS:
            return [illegal("W-§1", f"attacks are resolved in an attack segment, not in {ctx.phase or 'no segment'}", action)]
        found: list[Violation] = []
        if not ctx.extra.get("resolved"):
            found += self.pinning(state, ctx, action)
        declared = ctx.extra.get("declared", [])
        declared_here = {u for t, units in declared if t == action.target for u in units}
        if not declared_here:
            return found + [illegal("W-Cbt/3", f"the attack on {self.where(action.target)} was not declared in the allocation segment before the first resolution (战斗分配节)", action, at=action.target)]
        if set(action.attackers) != declared_here:
            found.append(illegal("W-Cbt/3", f"the attack on {self.where(action.target)} is made by other units than were declared ({', '.join(sorted(declared_here))})", action, at=action.target))
        if action.target in ctx.extra.setdefault("resolved_hexes", set()):
            found.append(illegal("W-Res/1", f"the combat on {self.where(action.target)} was already resolved", action, at=action.target))
        hexes = self.battle_hexes(action, ctx)
        ctx.extra["battle"] = hexes
        attackers = [state.units[u] for u in action.attackers if u in state.units and state.units[u].on_map]
        defenders = [u for h in hexes for u in state.units_at(h) if u.side != ctx.phase_side]
        if not attackers or not defenders:
            return found + [illegal("W-Cbt/1", "an attack needs attacking units on the map and enemies in the target hex", action)]
        ctx.extra["cut_off"] = {u.id for u in attackers + defenders if self.out_of_supply(state, u)}  # before the combat
        ctx.extra["battle_defenders"] = [u.id for u in defenders]
        found += self._odds_and_result(action, attackers, defenders, state, ctx)
        return found

    @staticmethod
    def battle_hexes(action: Combat, ctx: TurnContext) -> tuple[int, ...]:
        """The hexes one combat covers: the target, or for a one-against-many attack (W-Cbt/5 以一对多: 一个单位可以进攻
        多格内的守军) every hex its single unit declared, the target first. Their defence is summed (需将这几个格的防御力
        加总), one die is rolled, and the result applies to every defender; one resolution settles them all."""
        for targets in ctx.extra.get("one_vs_many", {}).values():
            if action.target in targets:
                return (action.target,) + tuple(sorted(targets - {action.target}))
        return (action.target,)

    def shifts(self, action: Combat, attackers: list[UnitState], defenders: list[UnitState], state: State, ctx: TurnContext) -> tuple[dict[str, int], list[str]]:
        """Column shifts the source names, + toward the attacker, and the names of shifts no table sizes."""
        shifts: dict[str, int] = {}
        missing: list[str] = []
        if any(self.disordered(state, u) for u in defenders):
            shifts["disorder"] = 1  # W-Mod/3 混乱修正
        # [AMBIG] C45: any out-of-supply participant shifts its side (default); option oos_side: all, only if all are
        side_oos = all if self.module.options.get("oos_side", "any") == "all" else any
        if side_oos(self.out_of_supply(state, u) for u in attackers):
            shifts["attacker_oos"] = -1  # W-Mod/4 断补修正
        if side_oos(self.out_of_supply(state, u) for u in defenders):
            shifts["defender_oos"] = 1
        facing = self.facing_shift(attackers, defenders)  # W-Mod/6-7
        if facing is None:
            missing.append("the facing shift of dug-in or formed defenders of one hex facing different ways (not stated)")
        elif facing:
            shifts["facing"] = facing
        hexes = ctx.extra.get("battle") or (action.target,)
        terrains = sorted({self.main_terrain(h) for h in hexes})
        values = {t: self.tables.value("terrain_shifts", "shifts", t) for t in terrains}
        if any(v is None for v in values.values()):
            missing.append(f"the terrain shift of {', '.join(t for t, v in values.items() if v is None)}")
        elif len(set(values.values())) > 1:
            # [AMBIG] one-against-many over hexes whose terrain shifts differ: the source does not say which applies.
            # Option mixed_terrain: best_for_defender takes the shift most in the defender's favour (shifts are + toward
            # the attacker), the usual convention of hex wargames.
            if self.module.options.get("mixed_terrain", "not_checked") == "best_for_defender":
                shifts["terrain"] = min(v for v in values.values() if v is not None)
            else:
                missing.append(f"the terrain shift of a one-against-many attack over {' and '.join(terrains)} (not stated)")
        elif values[terrains[0]]:
            shifts["terrain"] = values[terrains[0]]  # W-Mod/1 地形修正 (hint card)
        if len(hexes) == 1:
            across = sum(u.face.attack for u in attackers if "river" in self.module.map.hexside(u.at, action.target))
            total = sum(u.face.attack for u in attackers)
        else:  # 一攻多时,若守军有一半及一半以上的防御力来自隔岸单位
            across = sum(d.face.defence for d in defenders if any("river" in self.module.map.hexside(a.at, d.at) for a in attackers))
            total = sum(d.face.defence for d in defenders)
        if across and 2 * across >= total:  # W-Mod/2 渡河修正: half or more of the attack (defence, one against many) across the river
            river = self.tables.value("river", "shift")
            if river is None:
                missing.append("the size of the river shift")
            elif river:
                shifts["river"] = river
        return shifts, missing

    def _odds_and_result(self, action: Combat, attackers, defenders, state: State, ctx: TurnContext) -> list[Violation]:
        found: list[Violation] = []
        attack = sum(u.face.attack for u in attackers) + self.skill_bonus(attackers, defenders)
        defence = sum(u.face.defence for u in defenders) + self.skill_bonus(defenders, attackers, defending=True)
        defence += sum(HALFAYA in self.module.map.features[u.at] for u in defenders)  # Crusader: Halfaya Pass, 部队防御力+1 (each unit, C51)
        cards = self.cards_in_force(state, action)
        if defence <= 0:  # W-Res/3 防御力0: DE outright (the source's sentence ends with "?"; README)
            if action.result not in (None, "DE", "E") and cards:
                found += self.card_unchecked("W-Res/3", f"the result {action.result} against a total defence of 0", cards, action)
                ctx.extra["result"] = action.result
                return found
            ctx.extra["result"] = "DE"
            if action.result not in (None, "DE", "E"):
                return found + [mismatch("W-Res/3", f"the defenders' total defence is 0: the result is DE, not {action.result}", action)]
            return found + self._effects(action, "DE", attackers, defenders, state, ctx)  # its eliminations and advance (C111, C117(d))
        odds = crusader_odds(attack, defence)
        text = f"{odds[0]}/{odds[1]}"
        if action.odds is not None and action.odds.replace(":", "/") != text and cards:
            found += self.card_unchecked("W-Res/2", f"odds {action.odds} (printed strengths give {text})", cards, action)
        elif action.odds is not None and action.odds.replace(":", "/") != text:
            found.append(mismatch("W-Res/2", f"attack {attack} against defence {defence} is {text} (rounded in the attacker's favour, 1:5 at the lowest), not {action.odds}", action))
        shifts, missing = self.shifts(action, attackers, defenders, state, ctx)
        columns = self.tables.value("combat_results", "columns")
        if columns is None or missing:
            what = ", ".join(missing) or "the combat results table"
            ctx.extra["result"] = action.result
            return found + self.not_checked("W-CRT/1", f"the column and result of a combat ({what})", action, ctx)
        position = self._position(columns, odds)
        if position is None:
            ctx.extra["result"] = action.result
            return found + self.not_checked("W-CRT/1", f"the column of {text} (the combat results table in force has no such column)", action, ctx)
        position += sum(shifts.values())
        courage = any(self.has_skill(u, COURAGE) for u in attackers)
        assault = ASSAULT in action.declared or (courage and self.module.options.get("courage", "always") == "always")
        if assault:  # W-Res/4 猛攻: die 1-3 one column right, 4-6 one left; [勇气] 单位攻击时无论何时都取猛攻战果
            position += 1 if action.roll <= 3 else -1
        position = max(0, min(len(columns) - 1, position))  # [AMBIG] shifts past the table's edge stop at it
        column = columns[position]
        if action.column is not None and action.column.replace(":", "/") != column and cards:
            found += self.card_unchecked("W-Mod/1", f"the final column {action.column} (printed strengths give {column})", cards, action)
        elif action.column is not None and action.column.replace(":", "/") != column:
            named = ", ".join(f"{k} {v:+d}" for k, v in shifts.items()) or "none"
            found.append(mismatch("W-Mod/1", f"the final column is {column} (shifts: {named}{', assault' if assault else ''}{' ([勇气] Courage)' if assault and courage else ''}), not {action.column}", action))
        row = self.tables.value("combat_results", "rows", str(action.roll))
        if row is None or not 1 <= action.roll <= 6:
            return found + [illegal("W-Res/1", f"the attacker rolls one die (1-6), not {action.roll}", action)]
        result = row[position] if position < len(row) else None
        if result is None:
            return found + self.not_checked("W-CRT/1", f"the result in column {column}", action, ctx)
        result, armour_found = self._armour_shift(result, position, columns, action, attackers, defenders, ctx)
        found += armour_found
        converted = self._royal_tank_corps(result, attackers, defenders, action, state, ctx)
        if action.result is not None and action.result not in (result, converted) and cards:
            found += self.card_unchecked("W-CRT/1", f"the result {action.result} (printed strengths give {result} in {column})", cards, action)
            result = converted = action.result  # the player's result is carried out
        elif action.result is not None and action.result not in (result, converted):
            found.append(mismatch("W-CRT/1", f"{column} with a die of {action.roll} gives {result} ({self.tables.origin('combat_results')}), not {action.result}", action))
        if converted != result:
            ctx.outcome(action, f"{column}, die {action.roll}: {result}, D1 for the Royal Tank Corps formation", result=converted, rule="W-Form/2")
            result = converted
        else:
            ctx.outcome(action, f"{column}, die {action.roll}: {result}", result=result, rule="W-CRT/1")
        ctx.extra["result"] = result
        found += self._effects(action, result, attackers, defenders, state, ctx)
        return found

    def cards_in_force(self, state: State, action: Combat) -> list[str]:
        """The command cards that may change this combat's strengths: those played into it and every card played this
        turn (``status.this_turn.cards``, either side). Card effects are not built (no card text in the source), and
        which unit a card buffed and for how long is recorded nowhere, so any of them may apply (C93, C94)."""
        played = [str(c.get("card")) for c in self.record(state).get("cards", []) if isinstance(c, dict)]
        # a group's card facts may say a card changes no strengths ("strengths": false): combats after it stay checked
        played = [card for card in played if (self.card_facts(card) or {}).get("strengths", True) is not False]
        return list(dict.fromkeys(list(action.cards) + played))

    @staticmethod
    def card_unchecked(rule: str, what: str, cards: list[str], action: Combat) -> list[Violation]:
        """A comparison a card played this turn may change: a warning, not a mismatch (C93, C94)."""
        named = ", ".join(cards[:3]) + (" ..." if len(cards) > 3 else "")
        return [warning(rule, f"not checked: {what}: a command card played this turn ({named}) may change strengths (card effects are not built)", action)]

    def _armour_shift(self, result: str, position: int, columns: list[str], action: Combat, attackers, defenders, ctx: TurnContext) -> tuple[str, list[Violation]]:
        """W-Mod/5 (装甲单位修正): in a plain or desert hex, armour among the attackers, only infantry (cavalry included)
        defending, none dug in: an attack-favourable result ("see the CRT", which the source lacks) moves one column
        toward the attacker. Which results are favourable comes from the tables' ``favourable.codes``; when no file
        gives them, the result on either column is accepted and the shift is reported not checked."""
        if any(self.main_terrain(h) != "plain" for h in ctx.extra.get("battle") or (action.target,)) or not any(self.armoured(u) for u in attackers):
            return result, []
        if not all(self.infantry(u) for u in defenders) or any(DUG_IN in u.markers for u in defenders):
            return result, []
        row = self.tables.value("combat_results", "rows", str(action.roll)) or []
        shifted = row[min(position + 1, len(columns) - 1)] if row else result
        codes = self.tables.value("favourable", "codes")
        if codes is None:
            claimed = action.result
            warn = self.not_checked("W-Mod/5", "the armour shift (which results are attack-favourable is on the missing CRT)", action, ctx)
            return (claimed if claimed in (result, shifted) else result), warn
        return (shifted if result in codes else result), []

    def _royal_tank_corps(self, result: str, attackers, defenders, action: Combat, state: State, ctx: TurnContext) -> str:
        """W-Form/2: in a combat with a Royal Tank Corps formation, DeX and D become D1, unless the defenders have no
        retreat (无路可退), when the original result stands."""
        if result not in ("D", "DeX") or not any(self.kind(u) == "royal_tank_corps" for u in list(attackers) + list(defenders)):
            return result
        unresolved = {t for t, _ in ctx.extra.get("declared", []) if t not in (ctx.extra.get("battle") or (action.target,))} - ctx.extra.get("resolved_hexes", set())
        attacker_at = {u.at for u in attackers}
        if any(self._can_retreat(u, u.at, 1, attacker_at, unresolved, state) for u in defenders):
            return "D1"
        return result

    @staticmethod
    def _position(columns: list[str], odds: tuple[int, int]) -> int | None:
        text = f"{odds[0]}/{odds[1]}"
        if text in columns:
            return columns.index(text)
        # beyond the last column: the last column (the highest column is not given; README)
        values = [tuple(int(x) for x in c.split("/")) for c in columns]
        ratio = odds[0] / odds[1]
        if ratio > max(a / d for a, d in values):
            return max(range(len(values)), key=lambda i: values[i][0] / values[i][1])
        return None

    # --- results and retreats (W-CRT/1-2, W-Retreat/1) -----------------------------------------------------
    def _effects(self, action: Combat, result: str, attackers, defenders, state: State, ctx: TurnContext) -> list[Violation]:
        found: list[Violation] = []
        mine, theirs = attacker_part(result), defender_part(result)
        if result == "DeX":
            mine = "ADe"
        eliminated = set(action.eliminated)
        losses_d, losses_a = list(action.losses_defender), list(action.losses_attacker)
        if theirs in ("DE", "E"):
            missing = [u.id for u in defenders if u.id not in eliminated]
            if missing:
                found.append(illegal("W-CRT/1", f"{result}: every defender is destroyed; not listed: {', '.join(missing)}", action))
        elif theirs in ("De", "DeX"):
            missing = [u.id for u in defenders if u.id not in losses_d and u.id not in eliminated]
            if missing:
                found.append(illegal("W-CRT/1", f"{result}: every defender loses one state (受损); not listed: {', '.join(missing)}", action))
        if mine == "AE":
            missing = [u.id for u in attackers if u.id not in eliminated]
            if missing:
                found.append(illegal("W-CRT/1", f"{result}: every attacker is destroyed; not listed: {', '.join(missing)}", action))
        elif mine == "ADe":
            missing = [u.id for u in attackers if u.id not in losses_a and u.id not in eliminated]
            if missing:
                found.append(illegal("W-CRT/1", f"{result}: every attacker loses one state; not listed: {', '.join(missing)}", action))
        if result == "DeX":
            found += self._zero_strength(action, attackers, defenders)
        found += self._unearned(action, result, mine, theirs, attackers, defenders, state, ctx)
        found += self._retreats(action, theirs, attackers, defenders, state, ctx)
        found += self._advance(action, attackers, defenders, state, ctx)
        destroyed = set(action.eliminated) | {u.id for u in defenders if u.id in action.losses_defender and self.establishment(u) <= 1}
        ctx.extra["wiped"] = all(u.id in destroyed for u in defenders)
        bonus = ctx.extra.get("bonus")
        if bonus and bonus["target"] == action.target and any(len(action.advance_paths.get(u, ())) > 1 for u in action.advance):
            found.append(illegal("W-Bonus/1", "after a bonus attack the formation may advance but not a second hex (不能进行二次推进)", action))
        return found

    def _unearned(self, action: Combat, result: str, mine: str, theirs: str, attackers, defenders, state: State, ctx: TurnContext) -> list[Violation]:
        """W-CRT/1: units destroyed and states lost only as the result gives them (C114(b), C132). A defender is destroyed
        by DE/E; by De, DeX or D2 (which becomes De with no retreat) when at ①; by DeX at defence 0 (W-CRT/3); or,
        war-weary ([厌战]), when it has no retreat (1 hex; for D2, 2 unless option d2_short_retreat: retreat_one; C132(d)(e)
        either reading). An attacker by AE; by ADe (DeX)
        at ① or, DeX, at attack 0. A state is lost by De, DeX or D2 (defenders) and ADe or DeX (attackers), once."""
        found: list[Violation] = []
        by_defender, by_attacker = {u.id: u for u in defenders}, {u.id: u for u in attackers}
        unresolved = {t for t, _ in ctx.extra.get("declared", []) if t not in (ctx.extra.get("battle") or (action.target,))} - ctx.extra.get("resolved_hexes", set())
        attacker_at = {u.at for u in attackers}
        for unit_id in dict.fromkeys(action.eliminated):
            name = self.name(unit_id)
            if unit_id in by_defender:
                unit = by_defender[unit_id]
                war_weary = self.has_skill(unit, WAR_WEARY)
                # a D2 that cannot go 2 hexes is no retreat too (C55 reading 2, option d2_short_retreat: de)
                need = 2 if theirs == "D2" and self.module.options.get("d2_short_retreat", "de") == "de" else 1
                if theirs in ("DE", "E") or (theirs in ("De", "DeX", "D2") and self.establishment(unit) <= 1) \
                        or (result == "DeX" and unit.face.defence == 0) \
                        or (war_weary and theirs in MAY_RETREAT and not self._can_retreat(unit, unit.at, need, attacker_at, unresolved, state)):
                    continue
                found.append(illegal("W-CRT/1", f"{result}: {name} is not destroyed by it (it is listed as eliminated)", action))
            elif unit_id in by_attacker:
                unit = by_attacker[unit_id]
                if mine == "AE" or (mine == "ADe" and (self.establishment(unit) <= 1 or (result == "DeX" and unit.face.attack == 0))):
                    continue
                found.append(illegal("W-CRT/1", f"{result}: the attacker {name} is not destroyed by it (it is listed as eliminated)", action))
            else:
                found.append(illegal("W-CRT/1", f"{name} is listed as eliminated but takes no part in this combat", action))
        for losses, side, units, allowed in ((action.losses_defender, "defender", by_defender, theirs in ("De", "DeX", "D2")),
                                              (action.losses_attacker, "attacker", by_attacker, mine in ("ADe", "AE"))):
            counts = Counter(losses)
            for unit_id in counts:
                if unit_id not in units:
                    found.append(illegal("W-CRT/1", f"{self.name(unit_id)} is listed as a {side}'s loss but is no {side} of this combat", action))
                elif not allowed:
                    found.append(illegal("W-CRT/1", f"{result}: no {side} loses a state (受损); {self.name(unit_id)} is listed", action))
                elif counts[unit_id] > 1:
                    found.append(illegal("W-CRT/1", f"{result}: {self.name(unit_id)} loses one state, not {counts[unit_id]}", action))
        return found

    def _advance(self, action: Combat, attackers, defenders, state: State, ctx: TurnContext) -> list[Violation]:
        """W-Adv/1-2 (战术推进): into the battle hex only when every defender was destroyed or retreated; a second hex
        only for mechanised units, when the defenders retreated 2 hexes or were all destroyed, leaving in the battle
        hex attackers whose attack is at least the defenders' original defence, and never through forest, mountain,
        swamp, lake/sea or beach or across a river."""
        advancing = list(action.advance)
        if not advancing:
            return []
        found: list[Violation] = []
        paths = {u: tuple(action.advance_paths.get(u) or (action.target,)) for u in advancing}
        battle = ctx.extra.get("battle") or (action.target,)
        retreats = {u: tuple(p for p in action.retreats.get(u, ()) if p not in battle) for u in action.retreats}
        destroyed = set(action.eliminated) | {u.id for u in defenders if u.id in action.losses_defender and self.establishment(u) <= 1}
        cleared = all(u.id in destroyed or retreats.get(u.id) for u in defenders)
        if not cleared:
            return [illegal("W-Adv/1", f"a defender is still in {self.where(action.target)}: an advance follows only when every defender was destroyed or retreated (所有守军被击退或消灭)", action)]
        by_id = {u.id: u for u in attackers}
        far = all(u.id in destroyed or len(retreats.get(u.id, ())) >= 2 for u in defenders)
        staying = [u for u in advancing if len(paths[u]) == 1]
        left = sum(by_id[u].face.attack for u in staying if u in by_id)
        defence = sum(u.face.defence for u in defenders)
        rough = {"forest", "mountain", "swamp", "lake", "sea", "beach"}
        game_map = self.module.map
        for unit_id in advancing:
            unit, path = by_id.get(unit_id), paths[unit_id]
            if unit is None:
                follower = state.units.get(unit_id)
                leads = [by_id[u] for u in advancing if u in by_id and self.armoured(by_id[u]) and follower is not None and by_id[u].at == follower.at]
                if follower is None or not leads or not (follower.unit.type.mechanized and self.infantry(follower)) or self.marked(state, "attacked", unit_id) \
                        or any(unit_id in units for _, units in ctx.extra.get("declared", [])):
                    found.append(illegal("W-Adv/3", f"{unit_id} did not attack here: only mechanised infantry stacked with an advancing armoured attacker, with no attack of its own, follows it (跟随装甲单位进行战术推进)", action))
                    continue
                if path not in [paths[lead.id] for lead in leads]:
                    found.append(illegal("W-Adv/3", f"{self.name(unit_id)} follows the armour it is stacked with: the same path", action))
                continue
            name = self.name(unit_id)
            if path[0] not in battle or len(path) > 2 or any(not game_map.is_adjacent(a, b) for a, b in zip(path, path[1:])):
                found.append(illegal("W-Adv/2", f"{name}: an advance enters the battle hex and at most one hex more", action))
                continue
            if len(path) == 1:
                continue
            crossed = [(unit.at, path[0])] + list(zip(path, path[1:]))
            if self.has_skill(unit, ADVANCE_IN_ENEMY_TERRITORY):
                pass  # [在敌境中前进] 只要进行了战术推进就可以进行二次推进 (the terrain bar below still holds)
            elif not unit.unit.type.mechanized:
                found.append(illegal("W-Adv/2", f"{name} is not mechanised: only mechanised units advance a second hex (步兵不能进行二次推进)", action))
            elif not far:
                found.append(illegal("W-Adv/2", f"{name}: a second hex only when the defenders retreated 2 hexes or were all destroyed", action))
            elif left < defence:
                found.append(illegal("W-Adv/2", f"{name}: the units left in the battle hex attack {left}, less than the defenders' {defence} defence (留下攻击力总和不少于原守军防御力总和的单位)", action))
            if any(self.main_terrain(h) in rough for h in path) or any("river" in game_map.hexside(a, b) for a, b in crossed):
                found.append(illegal("W-Adv/2", f"{name}: no second hex through forest, mountain, swamp, lake/sea or beach, or across a river", action))
        return found

    def _zero_strength(self, action: Combat, attackers, defenders) -> list[Violation]:
        """W-CRT/3 (战力0单位): on DeX, 0-strength units (defence when defending, attack when attacking) are removed
        when no unit of strength above 0 in their hex survives the De."""
        found: list[Violation] = []
        gone = set(action.eliminated)

        def survives(unit, strength) -> bool:
            return unit.id not in gone and not (self.establishment(unit) <= 1) and strength(unit) > 0

        groups: dict[int, list] = {}
        for unit in attackers:
            groups.setdefault(unit.at, []).append((unit, lambda u: u.face.attack))
        for unit in defenders:
            groups.setdefault(-1, []).append((unit, lambda u: u.face.defence))
        for members in groups.values():
            if any(survives(u, f) for u, f in members):
                continue
            left = [u.id for u, f in members if f(u) == 0 and u.id not in gone]
            if left:
                found.append(illegal("W-CRT/3", f"DeX: no unit of strength above 0 survives beside {', '.join(left)}: they are removed (0战力单位需要被移除)", action))
        return found

    def _retreats(self, action: Combat, theirs: str, attackers, defenders, state: State, ctx: TurnContext) -> list[Violation]:
        found: list[Violation] = []
        retreats = dict(action.retreats)
        if any(retreats.values()) and theirs not in MAY_RETREAT:
            return [illegal("W-CRT/1", f"a {ctx.extra.get('result')} result lets no defender retreat", action)]
        unresolved = {t for t, _ in ctx.extra.get("declared", []) if t not in (ctx.extra.get("battle") or (action.target,))} - ctx.extra.get("resolved_hexes", set())
        attacker_at = {u.at for u in attackers}
        for unit in defenders:
            if unit.id in action.eliminated:
                continue
            path = tuple(p for p in retreats.get(unit.id, ()) if p != unit.at)  # from its own hex (one against many: several)
            name = self.name(unit.id)
            if len(path) > RETREAT_MAX:
                found.append(illegal("W-Retreat/1", f"{name} retreats {len(path)} hexes: at most {RETREAT_MAX}", action))
            bad = self._bad_retreat(unit, (unit.at,) + path, attacker_at, unresolved, state)
            if bad:
                found.append(illegal("W-Retreat/1", f"{name}: {bad}", action))
            need = RETREAT_MIN.get(theirs, 0)
            if self._disordered_by_d(state, unit, theirs, ctx):
                # option retreat_when_disordered: may_not (C64 reading 2): 混乱单位不能移动, so no retreat (无路可退)
                if path:
                    found.append(illegal("W-Retreat/1", f"{name} is disordered by the {theirs} itself and, read so (option retreat_when_disordered: may_not), cannot retreat", action))
                elif theirs == "D2" and unit.id not in action.losses_defender:
                    found.append(illegal("W-CRT/2", f"D2 and {name} cannot retreat (disordered by it): the result becomes De; the loss is not listed", action))
                continue
            if theirs == "D2" and self.module.options.get("d2_short_retreat", "de") == "retreat_one" and len(path) < 2 \
                    and not self._can_retreat(unit, unit.at, 2, attacker_at, unresolved, state) and self._can_retreat(unit, unit.at, 1, attacker_at, unresolved, state):
                # option d2_short_retreat: retreat_one (C55 reading 1): a hex to retreat into exists, so it is not 无路可退
                if not path:
                    found.append(illegal("W-CRT/1", f"D2: {name} cannot retreat 2 hexes but can 1, and, read so (option d2_short_retreat: retreat_one), retreats it", action))
                continue
            if len(path) < need:
                war_weary = self.has_skill(unit, WAR_WEARY)
                if war_weary and not self._can_retreat(unit, unit.at, 1, attacker_at, unresolved, state):
                    found.append(illegal("W-CRT/2", f"{name} is war-weary ([厌战]) and has no retreat: it is destroyed (承受任何无路可退战果时直接被消灭)", action))
                    continue
                if self._can_retreat(unit, unit.at, need, attacker_at, unresolved, state):
                    found.append(illegal("W-CRT/1", f"{theirs}: {name} must retreat at least {need} hex{'es' if need > 1 else ''} and can (D#: 至少要撤退#格); it retreated {len(path)}", action))
                elif theirs == "D2" and unit.id not in action.losses_defender:
                    # W-CRT/2 无路可退: D2 becomes De (a D2 that cannot go 2 hexes counts as no retreat: case C55, reading 2)
                    found.append(illegal("W-CRT/2", f"D2 and {name} cannot retreat 2 hexes: the result becomes De and it loses one state (所有D2战果变成De); the loss is not listed", action))
        return found

    def _disordered_by_d(self, state: State, unit: UnitState, theirs: str, ctx: TurnContext) -> bool:
        """Option retreat_when_disordered: may_not (C64 reading 2): a defender the D result's stamina loss leaves at 0."""
        if self.module.options.get("retreat_when_disordered", "may") != "may_not" or theirs not in ("D", "D1", "D2"):
            return False
        now = self.stamina(state, unit)
        return now is not None and now - 3 - (1 if unit.id in ctx.extra.get("cut_off", set()) else 0) <= 0

    def _bad_retreat(self, unit: UnitState, path: tuple[int, ...], attacker_at: set[int], unresolved: set[int], state: State) -> str | None:
        game_map = self.module.map
        for a, b in zip(path, path[1:]):
            if not game_map.is_adjacent(a, b):
                return f"{self.where(b)} is not next to {self.where(a)}"
            if any(u.side != unit.side for u in state.units_at(b)):
                return f"it may not retreat into the enemy in {self.where(b)}"
            last = b == path[-1]
            if (last or self.module.options.get("retreat_adjacent", "destination") == "every_hex") and any(game_map.is_adjacent(b, at) for at in attacker_at):
                return f"{self.where(b)} is next to an attacking unit (不能进入与进攻单位相邻的格, even if friendly units hold it)"
            if b in unresolved:
                return f"{self.where(b)} is a declared attack not yet resolved"
            if b in self.street_hexes(state):
                return f"{self.where(b)} is a street fight: retreats may not enter it (撤退的单位不能进入或经过巷战格)"
            end_free = last and self.module.options.get("retreat_end_in_zoc", "barred") == "allowed"  # [AMBIG] C61: 经过
            if not end_free and self.enemy_zoc(state, b, unit.side) and not self.friendly_in(state, b, unit.side, besides=(unit.id,)):
                return f"{self.where(b)} is in an enemy ZOC with no friendly unit"
        return None

    def _can_retreat(self, unit: UnitState, start: int, need: int, attacker_at: set[int], unresolved: set[int], state: State) -> bool:
        """Whether some retreat of ``need`` hexes is legal (W-CRT/2 无路可退 when none is). Overstacking at the end
        counts as impossible; its limit unknown counts as possible only if no table gives it (not guessed: the
        retreat minimum is then held)."""
        frontier = [(start,)]
        for _ in range(need):
            frontier = [p + (n,) for p in frontier for n in self.module.map.neighbours[p[-1]] if n not in p]
            frontier = [p for p in frontier if self._bad_retreat(unit, p, attacker_at, unresolved, state) is None]
        for path in frontier:
            limit = self.stacking_limit(path[-1])
            own = [u for u in state.units_at(path[-1]) if u.side == unit.side and u.id != unit.id]
            if limit is None or (len(own) + 1 <= limit[0] and sum(self.armoured(u) for u in own) + self.armoured(unit) <= limit[1]):
                return True
        return False

    def after_attack(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        ctx.extra["resolved"] = ctx.extra.get("resolved", 0) + 1
        battle = ctx.extra.pop("battle", None) or (action.target,)
        ctx.extra.setdefault("resolved_hexes", set()).update(battle)
        defender_ids = ctx.extra.pop("battle_defenders", [])
        if len(battle) > 1 and ctx.phase_side:  # W-Cbt/5: these defenders stay protected through the action phase (C118)
            protected = self.record(state).setdefault("one_vs_many", {}).setdefault(ctx.phase_side, [])
            protected += [u for u in defender_ids if u not in protected]
        result = ctx.extra.pop("result", None) or ""
        cut_off = ctx.extra.pop("cut_off", set())
        bonus = ctx.extra.get("bonus") if (ctx.extra.get("bonus") or {}).get("target") == action.target else None
        free = bonus["formed"] if bonus else set()  # W-Bonus/1: the formation pays no stamina for its bonus attack
        if bonus:
            for unit_id in free:
                self.mark(state, "bonus", unit_id)
            ctx.extra.pop("bonus", None)
        ctx.extra["last_combat"] = {"index": action.index, "attackers": set(action.attackers), "wiped": ctx.extra.pop("wiped", False)}
        round_ = ATTACK_SEGMENTS.get(ctx.phase or "")
        self.end_formations(state, [state.units[u] for u in action.attackers if u in state.units and DUG_IN in state.units[u].markers])  # W-Dig/3
        for unit_id in action.attackers:
            self.mark(state, "attacked", unit_id)
            if round_ == 1:
                self.mark(state, "first_round", unit_id)
        # W-Stam/2: every participant −1 after the result; AD attackers and D defenders −2 more (W-CRT/1)
        for unit_id in action.attackers:
            unit = state.units.get(unit_id)
            if unit is not None and unit.on_map and unit_id not in free:
                self.set_stamina(state, unit, -1 - (2 if attacker_part(result) == "AD" else 0) - (1 if unit.id in cut_off else 0))
        found: list[Violation] = []
        for unit_id, path in action.retreats.items():
            if path:
                found += self.touch(ctx, path[-1], state, action)
        for unit_id in action.advance:
            unit = state.units.get(unit_id)
            if unit is not None and unit.on_map:
                self.enter_town(state, unit)  # C110: an advance enters the town as a move does
                found += self.touch(ctx, unit.at, state, action)
        for unit in [u for h in battle for u in state.units_at(h)]:
            if unit.side != ctx.phase_side:
                self.set_stamina(state, unit, -1 - (2 if defender_part(result) in ("D", "D1", "D2") else 0) - (1 if unit.id in cut_off else 0))
        for unit_id in action.retreats:
            unit = state.units.get(unit_id)
            if unit is not None and unit.on_map:
                self.set_stamina(state, unit, -1 - (2 if defender_part(result) in ("D", "D1", "D2") else 0) - (1 if unit.id in cut_off else 0))
        self.end_formations(state, [u for u in state.units.values() if u.on_map and self.kind(u) and self.disordered(state, u)])  # W-Stam/1
        return found


SPECIAL_ORDERS = {"declare", "bonus", "recruit", "reorganise", "dig_in", "formation", "face", "street_fight", "street_resolution", "street_retreat"}
