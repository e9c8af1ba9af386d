"""WWII Campaign / Crusader: CP and RP (W-CP/2, 资源点/指挥点 never negative, no credit), recruiting into the
waiting zones (W-Reinf/1, 增援声明节), placement (W-Reinf/2, 增援入场节) and replenishment (W-Repl/1, 补员).

RP and CP are the status's ``rp`` and ``cp`` (side -> points). What a unit costs is on its card (the tables'
``unit_values``); a cost no table gives leaves the spend "not checked". Whether a hex is a reinforcement area
needs the supply net (a later step): not checked yet, said as a warning.
"""

from __future__ import annotations

from pbem.model.actions import CardPlay, Reinforce, Replace, Special
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal

from .base import CrusaderBase

ZONE_1, ZONE_2 = "waiting_zone_1", "waiting_zone_2"


class ResourceRules(CrusaderBase):
    """Recruiting, placement, replenishment and card play, each paid without credit."""

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
            cost = self.values(unit).get("recruit_rp")
            total = None if cost is None else owed.get(unit.side, 0) + cost
            found += self.spend(state, unit.side, "rp", total, f"recruiting {self.name(unit_id)}" + (" with the units before it" if owed.get(unit.side) else ""), "W-Reinf/1", action, ctx)
            if cost is not None:
                owed[unit.side] = total
        return found

    def after_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if action.order != "recruit":
            return []
        for unit_id in action.units:
            unit = state.units.get(unit_id)
            if unit is None or unit.on_map or unit.box in (ZONE_1, ZONE_2):
                continue
            self.pay(state, unit.side, "rp", self.values(unit).get("recruit_rp"))
            state.remove(unit_id, self.zone_for(unit))
        return []

    def check_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase != "reinforcement_entry":
            return [illegal("W-§1", f"waiting units are placed in the reinforcement entry segment, not in {ctx.phase or 'no segment'}", action)]
        found: list[Violation] = []
        for unit_id in action.units:
            unit = state.units.get(unit_id)
            if unit is None or unit.box != ZONE_1:
                where = "waiting zone 2: it comes a turn later" if unit is not None and unit.box == ZONE_2 else "not in waiting zone 1"
                found.append(illegal("W-Reinf/1", f"{unit_id} is {where} (only waiting zone 1 is placed, 等待一区)", action, at=action.at))
        found += self.not_checked("W-Reinf/3", "whether the hex is a friendly reinforcement area", action, ctx, why="needs the supply net, not built yet")
        return found

    def after_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        for unit_id in action.units:
            self.mark(state, "second_round_only", unit_id)  # W-Reinf/2
            self.mark(state, "placed", unit_id)
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
        return found + self.not_checked("W-Reinf/3", "whether the hex is a friendly reinforcement area", action, ctx, why="needs the supply net, not built yet")

    def after_replace(self, action: Replace, state: State, ctx: TurnContext) -> list[Violation]:
        unit = state.units.get(action.unit)
        if unit is not None:
            self.pay(state, unit.side, "rp", self.values(unit).get("replenish_rp"))
        self.mark(state, "replenished", action.unit)
        self.mark(state, "second_round_only", action.unit)
        return []

    def check_card(self, action: CardPlay, state: State, ctx: TurnContext) -> list[Violation]:
        """W-Card/1: a command card costs the CP in its corner, paid at once (W-CP/2)."""
        side = action.side or ctx.active_side
        cost = self.tables.value("cards", "costs", action.card or "")
        return self.spend(state, side, "cp", cost, f"card {action.card}", "W-Card/1", action, ctx)

    def after_card(self, action: CardPlay, state: State, ctx: TurnContext) -> list[Violation]:
        self.pay(state, action.side or ctx.active_side, "cp", self.tables.value("cards", "costs", action.card or ""))
        return []
