"""WWII Campaign / Crusader: movement (W-Move/1-3, 移动 and 额外移动力), first- and second-round units (W-Round/1-4),
disorder (W-Stam/1) and stacking at the end of a move (W-Stack/3).

Terrain costs, the road cost, the river-crossing cost and whether an enemy ZOC stops a unit are on the hint
card, which the source does not print: they come from the tables in force (the module's supplied ones or a
group's own); a cost no table gives leaves the move's MP "not checked".
"""

from __future__ import annotations

from pbem.model.actions import Move
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal

from .base import INFILTRATION, MOVE_SEGMENTS, STRONG, WEAK
from .supply import NONE
from .formations import DUG_IN, FORMATIONS, NO_FORMATION, FormationRules
from .street import StreetRules

EXTRA_MP = "extra_mp"


class MovementRules(FormationRules, StreetRules):
    """check_move / after_move."""

    def check_move(self, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        found: list[Violation] = []
        segment_round = MOVE_SEGMENTS.get(ctx.phase or "")
        if segment_round is None:
            return [illegal("W-§1", f"units move only in a move segment (move_1, move_2), not in {ctx.phase or 'no segment'}", action)]
        units = [state.units[u] for u in action.units if u in state.units]
        if len(units) != len(action.units):
            return [illegal("W-Move/1", "a move names a unit the game does not have", action)]
        pair = len(units) == 2 and units[0].at == units[1].at and all(self.kind(u) in FORMATIONS for u in units)
        if len(units) != 1 and not pair:  # a formation pair is one whole (二者视为一个整体)
            found.append(illegal("W-Move/1", "units move one at a time (逐个移动): a move names one unit, or a formation pair", action))
        for unit in units:
            found += self._may_move(unit, segment_round, action, state, ctx)
        if found:
            return found
        unit = units[0]
        ctx.extra["move_group"] = units
        return self._path(unit, segment_round, action, state, ctx)

    def _may_move(self, unit: UnitState, segment_round: int, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        name = self.name(unit.id)
        if unit.side != ctx.phase_side:
            return [illegal("W-§1", f"{name} is not the moving player's unit", action)]
        if not unit.on_map:
            return [illegal("W-Move/1", f"{name} is not on the map", action)]
        if self.disordered(state, unit):
            return [illegal("W-Stam/1", f"{name} is disordered (stamina 0) and may not move (混乱单位不能移动或进攻)", action)]
        if segment_round == 2 and self.marked(state, "first_round", unit.id):
            return [illegal("W-Round/1", f"{name} moved or attacked in the first round: a first-round unit may not move in the 2nd move segment", action)]
        if unit.id in ctx.moved:
            return [illegal("W-Move/1", f"{name} has finished its move: a unit that has moved may not move again (移动完毕的单位不能再次移动)", action)]
        if self.marked(state, "moved", unit.id):
            return [illegal("W-Round/3", f"{name} has already moved this turn: a unit moves at most once a turn", action)]
        if segment_round == 1 and self.marked(state, "second_round_only", unit.id):
            return [illegal("W-Round/4", f"{name} was reinforced, replenished or reorganised this turn: it acts only in the second round", action)]
        return []

    def allowance(self, unit: UnitState, segment_round: int, extra: bool) -> int | None:
        """Base MP (−1 in the 2nd move segment, W-Round/2) plus the card's extra MP when used (W-Move/2)."""
        base = unit.face.move - (1 if segment_round == 2 else 0)
        if not extra:
            return base
        bonus = self.values(unit).get("extra_mp")
        return None if bonus is None else base + bonus

    def step_cost(self, a: int, b: int) -> int | None:
        """MP to enter ``b`` from ``a``: the road cost along a road or railway, else the main terrain's cost plus
        the river crossing (hint card: supplied values). None when no table gives it."""
        if self.route_between(a, b):
            return self.tables.value("terrain_costs", "road")
        cost = self.tables.value("terrain_costs", "costs", self.main_terrain(b))
        if cost is None:
            return None
        if "river" in self.module.map.hexside(a, b):
            river = self.tables.value("river", "move_cost")
            return None if river is None else cost + river
        return cost

    def _path(self, unit: UnitState, segment_round: int, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        group = ctx.extra.pop("move_group", [unit])
        found: list[Violation] = []
        game_map = self.module.map
        name = self.name(unit.id)
        path = (unit.at,) + tuple(action.path) if action.path and action.path[0] != unit.at else tuple(action.path)
        extra = EXTRA_MP in action.declared
        impassable = set(self.tables.value("terrain_costs", "impassable") or ())
        stop_weak, stop_strong = self.tables.value("zoc_stop", "weak"), self.tables.value("zoc_stop", "strong")
        spent: int | None = 0
        for n, (a, b) in enumerate(zip(path, path[1:])):
            if not game_map.is_adjacent(a, b):
                return [illegal("W-Move/1", f"{name}: {self.where(b)} is not next to {self.where(a)}", action, at=b)]
            if self.main_terrain(b) in impassable:
                return [illegal("W-Move/1", f"{name} may not enter {self.where(b)} ({self.main_terrain(b)}; hint card, supplied)", action, at=b)]
            street = b in self.street_hexes(state)
            if street and n < len(path) - 2:
                return [illegal("W-Move/4", f"{name} enters the street fight in {self.where(b)} and stops there", action, at=b)]
            if not street and any(u.side != unit.side for u in state.units_at(b)):
                return [illegal("W-Stack/5", f"{name} may not enter {self.where(b)}: enemy units are there (双方的单位不能互相堆叠)", action, at=b)]
            cost = self.step_cost(a, b)
            zoc_here = self.enemy_zoc(state, b, unit.side)
            infiltrates = zoc_here == WEAK and self.has_skill(unit, INFILTRATION)
            if infiltrates and cost is not None and self.enemy_zoc(state, a, unit.side) == WEAK:
                cost *= 2  # [穿插] 可以消耗双倍移动力在敌方弱控区中连续移动: a step from a weak ZOC hex into another
            spent = None if cost is None or spent is None else spent + cost
            if extra and STRONG in (self.enemy_zoc(state, a, unit.side), zoc_here):
                for where, zoc in ((a, self.enemy_zoc(state, a, unit.side)), (b, zoc_here)):
                    if zoc == STRONG and not self.friendly_in(state, where, unit.side, besides=(unit.id,)):
                        verb = "leaves" if where == a else "enters"
                        found.append(illegal("W-Move/2", f"{name} {verb} the enemy strong ZOC in {self.where(where)}, which holds no friendly unit: it may not use extra MP on this move (额外移动力)", action, at=where))
                        extra = False  # said once
                        break
            if n < len(path) - 2 and zoc_here and not infiltrates:  # [穿插] 进入敌方弱控区时无需停止移动
                stops = stop_strong if zoc_here == STRONG else stop_weak
                if stops is None:
                    found += self.not_checked("W-Move/3", "whether an enemy ZOC stops movement (hint card)", action, ctx)
                elif stops:
                    kind = "strong" if zoc_here == STRONG else "weak"
                    found.append(illegal("W-Move/3", f"{name} enters the enemy {kind} ZOC in {self.where(b)} and must stop there ({self.tables.origin('zoc_stop')})", action, at=b))
                    break
        if unit.at in self.street_hexes(state) and len(path) > 1 and self.supply(state, unit, path[-1]) == NONE:
            found.append(illegal("W-Street/2", f"{name} leaves the street fight into {self.where(path[-1])}, where it would be out of supply (必须能得到正常的己方补给)", action))
        allowances = [self.allowance(u, segment_round, EXTRA_MP in action.declared) for u in group]
        # W-Form/1: a formation pair's base and extra MP are each the lower of the two
        allowance = None if None in allowances else min(allowances)
        if len(group) == 2 and allowance is not None:
            base = min(u.face.move for u in group) - (1 if segment_round == 2 else 0)
            extras = [self.values(u).get("extra_mp") for u in group]
            allowance = base + (min(extras) if EXTRA_MP in action.declared and None not in extras else 0)
        if spent is None or allowance is None:
            found += self.not_checked("W-Move/1", "the MP cost of a terrain or the unit's extra MP", action, ctx)
        elif spent > allowance:
            what = f"base {unit.face.move}" + (" −1 in the 2nd move segment" if segment_round == 2 else "") + (" + extra MP" if EXTRA_MP in action.declared else "")
            found.append(illegal("W-Move/1", f"{name} spends {spent} MP but has {allowance} ({what}{'; the lower of the pair' if len(group) == 2 else ''}; costs from {self.tables.origin('terrain_costs')})", action))
        return found

    def after_move(self, action: Move, state: State, ctx: TurnContext) -> list[Violation]:
        segment_round = MOVE_SEGMENTS.get(ctx.phase or "")
        for unit_id in action.units:
            unit = state.units.get(unit_id)
            if unit is None:
                continue
            self.mark(state, "moved", unit_id)
            ctx.moved.add(unit_id)
            if segment_round == 1:
                self.mark(state, "first_round", unit_id)
            if EXTRA_MP in action.declared:
                self.mark(state, "extra_mp", unit_id)
                self.set_stamina(state, unit, -1)  # W-Move/2: paid at the end of the move
            ends = DUG_IN in unit.markers or self.disordered(state, unit)  # W-Dig/3, W-Stam/1
            ends = ends or (self.kind(unit) in FORMATIONS and any(self.main_terrain(h) in NO_FORMATION for h in action.path))  # W-Form/1
            if ends:
                self.end_formations(state, [unit])
            self.enter_town(state, unit)  # a town is held by who entered it last
        found: list[Violation] = []
        for unit_id in action.units:
            unit = state.units.get(unit_id)
            if unit is not None and unit.on_map:
                found += self.touch(ctx, unit.at, state, action)
        return found
