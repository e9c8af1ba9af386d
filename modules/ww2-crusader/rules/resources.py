"""WWII Campaign / Crusader: CP and RP (W-CP/2, 资源点/指挥点 never negative, no credit), recruiting into the
waiting zones (W-Reinf/1, 增援声明节), placement (W-Reinf/2, 增援入场节) and replenishment (W-Repl/1, 补员).

RP and CP are the status's ``rp`` and ``cp`` (side -> points). What a unit costs is on its card (the tables'
``unit_values``); a cost no table gives leaves the spend "not checked". Whether a hex is a reinforcement area
needs the supply net (a later step): not checked yet, said as a warning.
"""

from __future__ import annotations

from pbem.model.actions import Reinforce, Replace, Special
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal

from .base import STAMINA
from .supply import SupplyRules

ZONE_1, ZONE_2 = "waiting_zone_1", "waiting_zone_2"


class ResourceRules(SupplyRules):
    """Recruiting, placement and replenishment, each paid without credit (card play: ``cards``)."""

    def zone_for(self, unit) -> str:
        """W-Reinf/1: mechanised, cavalry and artillery units wait in zone 2; all others in zone 1."""
        kind = unit.unit.type
        printed = kind.attributes.get("waiting_zone")
        if printed in (1, 2):
            return ZONE_1 if printed == 1 else ZONE_2
        return ZONE_2 if kind.mechanized or kind.arm in self.module.options.get("zone_2_arms", ("armour", "cavalry", "artillery")) else ZONE_1

    def spend(self, state: State, side: str, kind: str, amount: int | None, what: str, rule: str, action, ctx) -> list[Violation]:
        """Pay ``amount`` of ``kind`` (rp or cp) now (W-CP/2: deducted when spent, never below 0)."""
        if amount is None:
            return self.not_checked(rule, f"the {kind.upper()} cost of {what}", action, ctx)
        pool = state.status.get(kind, {})
        have = pool.get(side)
        if have is None:
            return self.not_checked("W-CP/2", f"{side}'s {kind.upper()} (the state records none)", action, ctx)
        if amount > have:
            return [illegal("W-CP/2", f"{what} costs {amount} {kind.upper()} but {side} has {have}: no credit, never below 0 (不能透支)", action)]
        return []

    @staticmethod
    def pay(state: State, side: str, kind: str, amount: int | None) -> None:
        """Deduct a spend once it is made (never below 0: an overspend was reported by :meth:`spend`)."""
        pool = state.status.get(kind, {})
        if amount is not None and side in pool:
            pool[side] = max(0, pool[side] - amount)

    def deploying(self, state: State) -> bool:
        """Turn 1's initial deployment in place of the reinforcement phase (``deployment``); here: no."""
        return False

    def check_phase(self, action, state: State, ctx: TurnContext) -> list[Violation]:
        """Leaving the entry segment: every unit of the player's waiting zone 1 was placed (所有单位, case C75e)."""
        found: list[Violation] = []
        leaving = ctx.extra.get("segment") == "reinforcement_entry" and action.name != "reinforcement_entry"
        if leaving:
            left = sorted(u.id for u in state.units.values() if u.box == ZONE_1 and u.side == ctx.active_side)
            if left and self.sources(state, ctx.active_side) and not self.deploying(state):  # with nowhere to place them, they wait (not judged)
                found.append(illegal("W-Reinf/1", f"waiting zone 1 is placed whole in the entry segment (将等待一区的所有单位放置); still waiting: {', '.join(left[:5])}", action))
        ctx.extra["left_entry"] = leaving
        return found + super().check_phase(action, state, ctx)

    def after_phase(self, action, state: State, ctx: TurnContext) -> list[Violation]:
        """After the entry segment, waiting zone 2 moves to waiting zone 1 (等待二区中的单位移入等待一区), once a turn."""
        if ctx.extra.pop("left_entry", False) and not self.record(state).get("zones_moved"):
            self.record(state)["zones_moved"] = [str(state.turn)]
            for unit in state.units.values():
                if unit.box == ZONE_2:
                    unit.box = ZONE_1
        parent = getattr(super(), "after_phase", None)
        return parent(action, state, ctx) if parent is not None else []

    def check_recruit(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase != "reinforcement_declaration":
            return [illegal("W-§1", f"units are recruited in the reinforcement declaration segment, not in {ctx.phase or 'no segment'}", action)]
        found: list[Violation] = []
        owed: dict[str, int] = {}  # what this order has spent so far, by side
        for unit_id in action.units:
            unit = state.units.get(unit_id)
            if unit is None or unit.on_map or unit.box in (ZONE_1, ZONE_2):
                found.append(illegal("W-Reinf/1", f"{unit_id} is not a unit that can be recruited (on the map or already waiting)", action))
                continue
            if unit.box == "removed":  # C141(b): a unit reorganised away has left the game (直接移出游戏)
                found.append(illegal("W-Reorg/1", f"{self.name(unit_id)} was reorganised into another unit and has left the game (移出游戏): it cannot be recruited", action))
                continue
            twin = self.same_formation_in_play(state, unit)
            if twin is not None:
                found.append(illegal("W-Unit/1", f"{self.name(unit_id)} may not be recruited while {self.name(twin)} is in play: the same designation, or one formation through reorganisations (同名单位)", action))
                continue
            cost = self.values(unit).get("recruit_rp")
            total = None if cost is None else owed.get(unit.side, 0) + cost
            found += self.spend(state, unit.side, "rp", total, f"recruiting {self.name(unit_id)}" + (" with the units before it" if owed.get(unit.side) else ""), "W-Reinf/1", action, ctx)
            if cost is not None:
                owed[unit.side] = total
        return found

    def after_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if action.order == "reorganise":
            where = self._after_reorganise(action, state)
            return self.touch(ctx, where, state, action) if where is not None else []  # placement never overstacks (C142)
        if action.order in ("street_fight", "street_resolution"):
            getattr(self, f"after_{action.order}")(action, state, ctx)
            return self.check_stacking(state, (action.at,), ctx, action) if action.order == "street_fight" and action.at is not None else []
        if action.order == "street_retreat":
            return self.after_street_retreat(action, state, ctx)
        if action.order != "recruit":
            parent = getattr(super(), "after_special", None)  # dig-ins, formations, facings
            return parent(action, state, ctx) if parent is not None else []
        for unit_id in action.units:
            unit = state.units.get(unit_id)
            if unit is None or unit.on_map or unit.box in (ZONE_1, ZONE_2):
                continue
            self.pay(state, unit.side, "rp", self.values(unit).get("recruit_rp"))
            state.remove(unit_id, self.zone_for(unit))
        return []

    def formation(self, type_id: str) -> frozenset[str]:
        """W-Unit/1: every counter type linked to ``type_id`` by a chain of reorganisations (card ``reorganise.into``),
        either way: one formation."""
        chains = self.__dict__.get("_chains")
        if chains is None:
            links: dict[str, set[str]] = {t: {t} for t in self.module.counter_types}
            for type_id_, kind in self.module.counter_types.items():
                into = (kind.attributes.get("reorganise") or {}).get("into")
                if into in links:
                    links[type_id_].add(into)
                    links[into].add(type_id_)
            chains = {}
            for start in links:
                seen, todo = {start}, [start]
                while todo:
                    for near in links[todo.pop()]:
                        if near not in seen:
                            seen.add(near)
                            todo.append(near)
                chains[start] = frozenset(seen)
            self.__dict__["_chains"] = chains
        return chains.get(type_id, frozenset({type_id}))

    def same_formation_in_play(self, state: State, unit) -> str | None:
        """Another unit in play (on the map or waiting) of the same side and designation, or of one formation."""
        kind = unit.unit.type
        designation = kind.attributes.get("designation")
        chain = self.formation(kind.id)
        for other in state.units.values():
            if other.id == unit.id or other.side != unit.side or not (other.on_map or other.box in (ZONE_1, ZONE_2)):
                continue
            other_kind = other.unit.type
            if other_kind.id in chain or (designation is not None and other_kind.attributes.get("designation") == designation):
                return other.id
        return None

    def check_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase != "reinforcement_entry":
            return [illegal("W-§1", f"waiting units are placed in the reinforcement entry segment, not in {ctx.phase or 'no segment'}", action)]
        found: list[Violation] = []
        for unit_id in action.units:
            unit = state.units.get(unit_id)
            if unit is None or unit.box != ZONE_1:
                where = "waiting zone 2: it comes a turn later" if unit is not None and unit.box == ZONE_2 else "not in waiting zone 1"
                found.append(illegal("W-Reinf/1", f"{unit_id} is {where} (only waiting zone 1 is placed, 等待一区)", action, at=action.at))
        side = self.placing_side(action, state, ctx)
        if not self.reinforcement_area(state, side, action.at):
            found.append(illegal("W-Reinf/3", f"{self.where(action.at)} is not a {side} reinforcement area: a supply source, or a town linked to one by a railway the enemy has not cut (增援区域)", action, at=action.at))
        return found

    @staticmethod
    def placing_side(action: Reinforce, state: State, ctx: TurnContext) -> str | None:
        """The side whose reinforcement areas a placement is judged by: its units' side (the reinforcement phase is
        both players', so a file may record the other side's placement, C102); else the segment's or file's side."""
        sides = {state.units[u].side for u in action.units if u in state.units}
        return next(iter(sides)) if len(sides) == 1 else ctx.phase_side or ctx.active_side

    def after_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        for unit_id in action.units:
            unit = state.units.get(unit_id)
            if unit is not None:
                unit.step = max(0, len(unit.unit.type.steps) - 2)  # W-Reinf/2: placed at state ② (编制等级默认为②)
            self.mark(state, "second_round_only", unit_id)  # W-Reinf/2
            self.mark(state, "placed", unit_id)
            if unit is not None:
                self.enter_town(state, unit)  # C110
        return self.touch(ctx, action.at, state, action)

    def check_replace(self, action: Replace, state: State, ctx: TurnContext) -> list[Violation]:
        """Replenishment (补员): +1 state for the card's replenish RP, once a turn, not with reorganisation."""
        if ctx.phase != "reinforcement_entry":
            return [illegal("W-§1", f"replenishment is in the reinforcement entry segment, not in {ctx.phase or 'no segment'}", action)]
        unit = state.units.get(action.unit)
        if unit is None or not unit.on_map or action.at is not None or action.box is not None:
            return [illegal("W-Repl/1", f"{action.unit} is not a unit on the map to replenish", action)]
        name = self.name(unit.id)
        if self.marked(state, "placed", unit.id):
            return [illegal("W-Repl/1", f"{name} was placed this turn: replenishment comes first in the entry segment (双方先进行补员), before placement", action)]
        if self.marked(state, "replenished", unit.id):
            return [illegal("W-Repl/1", f"{name} was already replenished this turn: once a unit a turn", action)]
        if self.marked(state, "reorganised", unit.id):
            return [illegal("W-Reorg/1", f"{name} was reorganised this turn: a unit may not both reorganise and replenish", action)]
        if unit.step == 0:
            return [illegal("W-Repl/1", f"{name} is already at its highest state", action)]
        found = self.spend(state, unit.side, "rp", self.values(unit).get("replenish_rp"), f"replenishing {name}", "W-Repl/1", action, ctx)
        return found + self._replenish_place(unit, state, action)

    def _replenish_place(self, unit, state: State, action) -> list[Violation]:
        """W-Repl/1: on a friendly reinforcement area, unless the scenario says where (option ``replenish_at``:
        Crusader: the British only in Tobruk and Mersa Matruh, the Axis anywhere not out of supply)."""
        rule = self.module.options.get("replenish_at", {}).get(unit.side)
        name = self.name(unit.id)
        if rule == "supplied":
            if self.out_of_supply(state, unit):
                return [illegal("W-Repl/1", f"{name} is out of supply: the {unit.side} side replenishes anywhere but out of supply", action)]
            return []
        if isinstance(rule, list):
            if self.where(unit.at) not in rule:
                return [illegal("W-Repl/1", f"{name} is in {self.where(unit.at)}: the {unit.side} side replenishes only in {', '.join(rule)}", action)]
            return []
        if not self.reinforcement_area(state, unit.side, unit.at):
            return [illegal("W-Repl/1", f"{name} is not on a friendly reinforcement area (增援区域)", action)]
        return []

    def check_reorganise(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        """W-Reorg/1 (整编): ``{"special": "reorganise", "units": [old], "result": new unit id}``: only as the old unit's
        card says (``reorganise.into``, ``cost`` RP), once a turn, not with a replenishment, where it may replenish
        (the Crusader relaxation read as covering this 特殊补员: case C81, reading 1)."""
        if ctx.phase != "reinforcement_entry":
            return [illegal("W-§1", f"reorganisation is in the reinforcement entry segment, not in {ctx.phase or 'no segment'}", action)]
        unit = state.units.get(action.units[0]) if len(action.units) == 1 else None
        if unit is None or not unit.on_map or unit.side != (ctx.phase_side or ctx.active_side):
            return [illegal("W-Reorg/1", "a reorganisation names one of the player's units on the map", action)]
        name = self.name(unit.id)
        rule = self.values(unit).get("reorganise") or {}
        new = state.units.get((action.result or "").strip())
        if not rule.get("into"):
            return [illegal("W-Reorg/1", f"{name}'s card lists no reorganisation (只有单位卡上标有整编的单位)", action)]
        if new is None or new.unit.type.id != rule["into"]:
            wanted = [u for u, d in self.module.units.items() if d.type.id == rule["into"]]
            return [illegal("W-Reorg/1", f"{name} reorganises into {', '.join(wanted) or rule['into']}, not {action.result!r}", action)]
        if new.on_map or new.box in (ZONE_1, ZONE_2):
            return [illegal("W-Unit/1", f"{self.name(new.id)} is already in play", action)]
        if self.marked(state, "reorganised", unit.id):
            return [illegal("W-Reorg/1", f"{name} was already reorganised this turn", action)]
        if self.marked(state, "replenished", unit.id):
            return [illegal("W-Reorg/1", f"{name} was replenished this turn: a unit may not both reorganise and replenish (进行了整编就不能进行补员)", action)]
        designation = new.unit.type.attributes.get("designation")  # none (a group's or the test counters): no twin by name
        twin = None if designation is None else next((o.id for o in state.units.values() if o.id not in (unit.id, new.id) and o.side == new.side
                                                     and (o.on_map or o.box in (ZONE_1, ZONE_2)) and o.unit.type.attributes.get("designation") == designation), None)
        if twin is not None:
            return [illegal("W-Unit/1", f"{self.name(new.id)} may not come in while {self.name(twin)} is in play (同名单位)", action)]
        found = self.spend(state, unit.side, "rp", rule.get("cost"), f"reorganising {name}", "W-Reorg/1", action, ctx)
        if self.module.options.get("reorganise_at", "as_replenish") == "reinforcement_area":  # C81 reading 2
            if not self.reinforcement_area(state, unit.side, unit.at):
                found.append(illegal("W-Reorg/1", f"{name} is not on a friendly reinforcement area (进行整编的单位必须位于己方的增援区域上; option reorganise_at)", action))
            return found
        return found + self._replenish_place(unit, state, action)

    def _after_reorganise(self, action: Special, state: State) -> int | None:
        """Put the new unit in the old one's hex at its state; the hex (None when nothing was placed)."""
        unit = state.units.get(action.units[0]) if len(action.units) == 1 else None
        new = state.units.get((action.result or "").strip())
        rule = (self.values(unit).get("reorganise") or {}) if unit is not None else {}
        if unit is None or new is None or not unit.on_map or new.on_map or new.unit.type.id != rule.get("into"):
            return None
        self.pay(state, unit.side, "rp", rule.get("cost"))
        where, level, stamina = unit.at, self.establishment(unit), self.stamina(state, unit)
        state.remove(unit.id, "removed")  # the old unit and its card leave the game (移出游戏)
        new.step = min(max(0, len(new.unit.type.steps) - level), len(new.unit.type.steps) - 1)  # the same state
        if self.module.options.get("reorganised_stamina", "printed") == "kept" and stamina is not None:
            # [AMBIG] C143 reading 2: the new unit keeps the old one's stamina (a disordered unit does not come back
            # fresh), at most its own printed value; ``printed`` (the default): it comes on as a new counter does
            printed = self.values(new).get(STAMINA)
            new.tallies[STAMINA] = min(stamina, printed) if isinstance(printed, int) else stamina
        state.place(new.id, where)
        for unit_id in (unit.id, new.id):
            self.mark(state, "reorganised", unit_id)
        self.mark(state, "second_round_only", new.id)
        return where

    def after_replace(self, action: Replace, state: State, ctx: TurnContext) -> list[Violation]:
        unit = state.units.get(action.unit)
        if unit is not None:
            self.pay(state, unit.side, "rp", self.values(unit).get("replenish_rp"))
        self.mark(state, "replenished", action.unit)
        self.mark(state, "second_round_only", action.unit)
        return []


class ResourcePhaseRules(ResourceRules):
    """The resource supply phase (W-§1 双方资源补给阶段): each side's RP roll, once a turn, and +2 CP with it.

    A roll is ``{"roll": {"purpose": "rp", "side": "axis", "value": [5, 2], "result": "2"}}``. A side named in the
    option ``rp_lower_of_two`` (Crusader: the Axis, 以数值较小的一个的数值) rolls two dice and gains the lower; any
    other side rolls one die. The CP cap is not in the source: not applied unless a tables file gives it.
    """

    def check_roll(self, action, state: State, ctx: TurnContext) -> list[Violation]:
        if action.purpose != "rp":
            return [illegal("W-§1", f"no roll for {action.purpose!r} in this game (rolls: rp)", action)]
        if ctx.phase != "resource":
            return [illegal("W-§1", f"RP are rolled in the resource phase, not in {ctx.phase or 'no segment'}", action)]
        side = action.side or ctx.active_side
        if side not in self.module.sides:
            return [illegal("W-§1", f"an RP roll names the side it is for ({', '.join(self.module.sides)})", action)]
        if side in ctx.extra.setdefault("rp_rolled", set()):
            return [illegal("W-§1", f"{side} rolls for RP once a turn", action)]
        lower = side in self.module.options.get("rp_lower_of_two", ())
        dice = 2 if lower else 1
        if len(action.values) != dice or not all(1 <= v <= 6 for v in action.values):
            how = "two dice, taking the lower (十字军沙漠)" if lower else "one die"
            return [illegal("W-§1", f"{side} rolls {how} for RP, not {list(action.values)}", action)]
        gained = min(action.values)
        if action.result is not None and action.result.strip() != str(gained):
            return [illegal("W-§1", f"{side} gains {gained} RP from {list(action.values)}, not {action.result}", action)]
        return []

    def after_roll(self, action, state: State, ctx: TurnContext) -> list[Violation]:
        side = action.side or ctx.active_side
        rolled = ctx.extra.setdefault("rp_rolled", set())
        if action.purpose != "rp" or side not in self.module.sides or side in rolled:
            return []  # a second roll was reported and gains nothing
        rolled.add(side)
        values = [v for v in action.values if 1 <= v <= 6]
        if not values:
            return []
        gained = min(values)
        rp, cp = state.status.setdefault("rp", {}), state.status.setdefault("cp", {})
        rp[side] = rp.get(side, 0) + gained
        cap = self.tables.value("resources", "cp_cap")
        total = cp.get(side, 0) + (self.tables.value("resources", "cp_per_turn") or 0)
        cp[side] = min(total, cap) if cap is not None else total
        return []
