"""WWII Campaign / Crusader: street fighting (W-Street/1-6, 特殊战斗:巷战).

When a town is attacked the defender may choose a street fight; the attacker then moves any of the attacking
units into the town: ``{"special": "street_fight", "units": [attackers moving in], "at": town}`` in place of the
attack's resolution (an attack not resolved is cancelled). The hex is then in ``status.street_fights``: both
sides stack there separately (W-Stack/5), it cannot be attacked and its units cannot attack (W-Street/3), moving
in stops a unit and retreats may not enter it (W-Street/4), units leave only into supply (W-Street/2), and only
the larger side's supply passes, at 5:1 or more (W-Street/5, in ``supply``). At turn end it is resolved without a
die: ``{"special": "street_resolution", "at": town, "units": [the larger side's units taking the result]}``.
At 8:1 or more the smaller side's survivors retreat one or two hexes, and a unit with no retreat is destroyed
(如果战力比大于等于8:1 … 额外撤退至少一格,至多两格,如果无路可退则全部承受DE战果); a unit disordered in the fight takes De
at once and may retreat up to two hexes (巷战中陷入混乱的单位立即承受De战果,然后可以主动撤退至多两格); a unit already
disordered before the resolution takes no second De (C123). [AMBIG] C123(i): a unit taking D or De may retreat up to
two hexes too (但是战果描述一样: D and De carry 可以主动撤退至多两格), option ``street_result_retreat``: ``allowed``
(default) or ``disordered_only``. A retreat is
``{"special": "street_retreat", "units": [unit], "at": hex}``, one hex an order, right after the resolution.
"""

from __future__ import annotations

from pbem.model.actions import Special
from pbem.model.errors import Source
from pbem.model.state import State
from pbem.model.violation import ILLEGAL, Violation
from pbem.rules.ruleset import TurnContext, illegal

from .base import ATTACK_SEGMENTS, NONE, STRONG, WEAK
from .supply import SupplyRules

STREET_RETREAT_MAX = 2
FORCED_RETREAT_RATIO = 8


class StreetRules(SupplyRules):
    """check_street_fight / check_street_resolution and their effects."""

    def begin(self, state: State, turn) -> TurnContext:
        """W-Street/6 (在每回合的结束阶段中加入): a file of a new turn finds every street fight of the turn before
        resolved in its turn-end phase (``status.this_turn.street_resolved``). A start state with no record of its
        turn says nothing either way, and nothing is judged."""
        record = state.status.get("this_turn")
        ended = record.get("turn") if isinstance(record, dict) else None
        missed: list[str] = []
        owed = ((record.get("open") or {}).get("street_retreat") or {}) if isinstance(record, dict) else {}
        # the turn of the record is over; a record with no segment was written by a pbem that kept no resolutions
        over = isinstance(ended, int) and ended < turn.header.turn and "segment" in record
        if over:
            resolved = set(record.get("street_resolved", ()))
            missed = [town for town in state.status.get("street_fights", []) if town not in resolved and self.both_sides_in(state, town)]
        ctx = super().begin(state, turn)
        where = Source(turn.file, pointer="/start")
        for town in missed:
            ctx.start_problems.append(Violation(
                "W-Street/6", ILLEGAL,
                f"the street fight in {town} was not resolved in turn {ended}'s turn-end phase: it is resolved every turn "
                f"while both sides are in the town (在每回合的结束阶段中加入)", None, where))
        find = self.module.map.find
        for unit_id, entry in owed.items():
            unit = state.units.get(unit_id)
            if unit is None or not unit.on_map or find(entry.get("town", "")) is None:
                continue
            if over:
                if entry.get("must") and not entry.get("path"):
                    ctx.start_problems.append(Violation("W-Street/6", ILLEGAL, f"{self.name(unit_id)} was on the smaller side of a street fight at 8:1 or more in turn {ended} and had to retreat (额外撤退至少一格,至多两格): it did not", None, where))
            elif ctx.extra.get("carried"):  # the retreats the last file's resolution left owed, for this file to make
                path = [i for i in map(find, entry.get("path", ())) if i is not None]
                ctx.extra.setdefault("street_retreat", {})[unit_id] = {"town": find(entry["town"]), "path": path, "must": bool(entry.get("must"))}
        return ctx

    def check_street_fight(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase not in ATTACK_SEGMENTS or action.at is None:
            return [illegal("W-Street/1", "a street fight starts in an attack segment, on an attacked town", action)]
        target = action.at
        if self.main_terrain(target) != "town":
            return [illegal("W-Street/1", f"{self.where(target)} is not a town: no street fight (当城镇格被攻击时)", action)]
        declared = {u for t, units in ctx.extra.get("declared", []) if t == target for u in units}
        if not declared or target in ctx.extra.get("resolved_hexes", set()):
            return [illegal("W-Street/1", f"{self.where(target)} is not a declared attack still to resolve", action)]
        if not action.units or not set(action.units) <= declared:
            return [illegal("W-Street/1", "the units moving in are attackers of this combat (攻方…将任意数量的进攻单位移入城镇格)", action)]
        return []

    def after_street_fight(self, action: Special, state: State, ctx: TurnContext) -> None:
        target = action.at
        fights = state.status.setdefault("street_fights", [])
        if self.where(target) not in fights:
            fights.append(self.where(target))
        # [AMBIG] C119 reading 1: one against many with a street fight in one of its hexes is one attack, settled by the
        # street fight; the part against the other hexes lapses (units in a street fight attack no other hex)
        lapsed = {t for targets in ctx.extra.get("one_vs_many", {}).values() if target in targets for t in targets}
        ctx.extra.setdefault("resolved_hexes", set()).update({target} | lapsed)
        ctx.extra["resolved"] = ctx.extra.get("resolved", 0) + 1
        first = ATTACK_SEGMENTS.get(ctx.phase or "") == 1
        for unit_id in action.units:
            if unit_id in state.units and state.units[unit_id].on_map:
                state.place(unit_id, target)
                self.mark(state, "attacked", unit_id)
                if first:
                    self.mark(state, "first_round", unit_id)  # C126(e): it attacked in the first round
        if self.module.options.get("street_declared", "acted") == "acted":
            # [AMBIG] C121 reading 1: the attack went ahead as a street fight; its declared attackers that stayed outside
            # took part in it too (option street_declared: free, reading 2: they took part in no combat)
            for unit_id in {u for t, units in ctx.extra.get("declared", []) if t == target for u in units} - set(action.units):
                if unit_id in state.units and state.units[unit_id].on_map:
                    self.mark(state, "attacked", unit_id)
                    if first:
                        self.mark(state, "first_round", unit_id)

    def street_bands(self, big: int, small: int) -> int:
        """The ratio, larger first, rounded down, at least 1:1 (向下取整,最小为1:1)."""
        return max(1, big // small) if small else 0

    def check_street_resolution(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase != "turn_end":
            return [illegal("W-Street/6", f"street fights are resolved in the turn-end phase, not in {ctx.phase or 'no segment'}", action)]
        if action.at is None or action.at not in self.street_hexes(state):
            return [illegal("W-Street/6", "no street fight is in progress there", action)]
        totals = self.street_totals(state, action.at)
        if len(totals) < 2:
            return []
        (big_side, big), (small_side, small) = sorted(totals.items(), key=lambda kv: -kv[1])[:2]
        ratio = self.street_bands(big, small)
        chosen = [state.units[u] for u in action.units if u in state.units]
        if any(u.side != big_side or u.at != action.at for u in chosen):
            return [illegal("W-Street/6", f"the units taking the larger side's result are {big_side}'s units in the hex", action)]
        if 3 <= ratio or small == 0:
            if small and self.street_strength(state, chosen, action.at) < small:
                return [illegal("W-Street/6", f"{ratio}:1: the larger side's units taking the result must total at least the smaller side's {small} (至少等于)", action)]
        return []

    def after_street_resolution(self, action: Special, state: State, ctx: TurnContext) -> None:
        if action.at is None or action.at not in self.street_hexes(state):
            return
        self.mark(state, "street_resolved", self.where(action.at))
        units = list(state.units_at(action.at))
        totals = self.street_totals(state, action.at)
        if len(totals) < 2:
            self.end_street_fight(state, action.at)
            return
        (big_side, big), (small_side, small) = sorted(totals.items(), key=lambda kv: -kv[1])[:2]
        ratio = self.street_bands(big, small)
        chosen = {u for u in action.units}
        already = {u.id for u in units if self.disordered(state, u)}  # disordered before: they do not 陷入混乱 now (C123)
        for unit in units:
            self.set_stamina(state, unit, -2)  # every participant −2 instead of 1
        took: list[str] = []  # the units taking D or De (战果描述一样: each may retreat up to two hexes, C123(i))
        for unit in units:
            if small == 0:
                if totals.get(unit.side, 0) == 0:  # 若一方巷战总战力为零: each side at 0, both when both are (C124(b))
                    state.remove(unit.id)
                continue
            smaller = unit.side == small_side
            if smaller or ratio <= 2 or (ratio <= 5 and unit.id in chosen):
                if unit.on_map:
                    state.lose_step(unit.id)  # De
                    took.append(unit.id)
            elif ratio >= 6 and unit.id in chosen:
                self.set_stamina(state, unit, -2)  # D
                took.append(unit.id)
        retreating = ctx.extra.setdefault("street_retreat", {})
        if self.module.options.get("street_result_retreat", "allowed") == "allowed":
            for unit_id in took:
                if state.units[unit_id].on_map:
                    retreating[unit_id] = {"town": action.at, "path": [], "must": False}  # D, De: 可以主动撤退至多两格
        for unit in list(state.units_at(action.at)):
            if self.disordered(state, unit) and unit.on_map and unit.id not in already:
                state.lose_step(unit.id)  # a unit disordered in the street fight takes De at once
                if unit.on_map:
                    retreating[unit.id] = {"town": action.at, "path": [], "must": False}  # 然后可以主动撤退至多两格
        if small and ratio >= FORCED_RETREAT_RATIO:
            for unit in [u for u in state.units_at(action.at) if u.side == small_side]:
                if not any(self.street_step_bad(state, unit, action.at, n) is None for n in self.module.map.neighbours[action.at]):
                    state.remove(unit.id)  # 如果无路可退则全部承受DE战果
                    retreating.pop(unit.id, None)
                else:
                    retreating[unit.id] = {"town": action.at, "path": [], "must": True, "order": action}  # 额外撤退至少一格,至多两格
        self.end_street_fight(state, action.at)

    def both_sides_in(self, state: State, label: str) -> bool:
        location = self.module.map.find(label)
        return location is not None and len({u.side for u in state.units_at(location)}) > 1

    def after(self, action, state: State, ctx: TurnContext) -> list[Violation]:
        """After any action: a street fight one side has left (moved out in its move segment, 也可以在己方移动节将巷战中的
        单位移出, or gone otherwise) is over."""
        found = super().after(action, state, ctx)
        for label in state.status.get("street_fights") or ():
            if not self.both_sides_in(state, label):
                self.end_street_fight(state, self.module.map.index(label))
        return found

    def end_street_fight(self, state: State, town: int) -> None:
        """The fight is over when one side is left: [AMBIG] C127/C110, the town is then held by that side, the one
        that entered it last (status.held); when neither is left, its holder stays as it was."""
        left = {u.side for u in state.units_at(town)}
        if len(left) < 2:
            state.status["street_fights"] = [h for h in state.status.get("street_fights", []) if h != self.where(town)]
            if left:
                state.status.setdefault("held", {})[self.where(town)] = next(iter(left))

    def street_step_bad(self, state: State, unit, start: int, to: int, stacking: bool = True) -> str | None:
        """Why a street-fight retreat may not enter ``to`` from ``start``, or None. The retreat rules (撤退): no enemy unit, no enemy ZOC without a friendly unit, no street-fight hex,
        stacking after it. [AMBIG] the ZOC of the units in the street-fight hex itself: option ``street_retreat_zoc``
        (``town_ignored``, the default: otherwise every retreat out of the town would be barred by the very units
        it fights; ``counts``); "next to an attacking unit" is not applied (the larger side is in the town itself)."""
        if any(u.side != unit.side for u in state.units_at(to)):
            return f"{self.where(to)} holds the enemy"
        if to in self.street_hexes(state):
            return f"{self.where(to)} is a street fight (撤退时无法进入或经过巷战格)"
        ignore = (self.module.options.get("street_retreat_zoc", "town_ignored") == "town_ignored")
        weak = 0
        for near in self.module.map.neighbours[to]:
            if ignore and near in self.street_hexes(state):
                continue
            for other in state.units_at(near):
                if other.side != unit.side:
                    zoc = self.projects(state, other)
                    weak += 2 if zoc == STRONG else zoc == WEAK
        if weak and not self.friendly_in(state, to, unit.side, besides=(unit.id,)):
            return f"{self.where(to)} is in an enemy ZOC with no friendly unit"
        limit = self.stacking_limit(to) if stacking else None
        own = [u for u in state.units_at(to) if u.side == unit.side and u.id != unit.id]
        if limit is not None and (len(own) + 1 > limit[0] or sum(self.armoured(u) for u in own) + self.armoured(unit) > limit[1]):
            return f"{self.where(to)} would be overstacked"
        return None

    def check_street_retreat(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        """W-Street/6: one hex of a street-fight retreat, at most two a unit, each adjacent to the last."""
        owed = ctx.extra.get("street_retreat", {})
        found: list[Violation] = []
        if action.at is None or not action.units:
            return [illegal("W-Street/6", "a street retreat names its units and the hex they enter", action)]
        for unit_id in action.units:
            unit = state.units.get(unit_id)
            if unit is None or unit_id not in owed or not unit.on_map:
                found.append(illegal("W-Street/6", f"{unit_id} may not retreat from a street fight: only the smaller side at 8:1 or more, a unit disordered in it{', or one taking D or De' if self.module.options.get('street_result_retreat', 'allowed') == 'allowed' else ''}, right after its resolution", action))
                continue
            entry = owed[unit_id]
            if len(entry["path"]) >= STREET_RETREAT_MAX:
                found.append(illegal("W-Street/6", f"{self.name(unit_id)} retreats at most {STREET_RETREAT_MAX} hexes (至多两格)", action))
            elif not self.module.map.is_adjacent(unit.at, action.at):
                found.append(illegal("W-Street/6", f"{self.where(action.at)} is not next to {self.where(unit.at)}", action))
            else:
                bad = self.street_step_bad(state, unit, unit.at, action.at, stacking=False)  # stacking: where it stops
                if bad:
                    found.append(illegal("W-Street/6", f"{self.name(unit_id)}: {bad}", action))
        return found

    def after_street_retreat(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        owed = ctx.extra.get("street_retreat", {})
        for unit_id in action.units:
            if unit_id in owed and unit_id in state.units and state.units[unit_id].on_map and action.at is not None:
                state.place(unit_id, action.at)
                owed[unit_id]["path"].append(action.at)
                self.end_street_fight(state, owed[unit_id]["town"])
        return self.touch(ctx, action.at, state, action) if action.at is not None else []

    def finish(self, state: State, ctx: TurnContext) -> list[Violation]:
        """A forced retreat (8:1 or more) the retreating side's own file leaves unmade is illegal; one the other side's
        file leaves owed is kept in the state (``status.this_turn.open.street_retreat``) for the retreating player's
        file: the retreat is theirs to write."""
        found = super().finish(state, ctx)
        owed: dict[str, dict] = {}
        for unit_id, entry in ctx.extra.get("street_retreat", {}).items():
            unit = state.units.get(unit_id)
            if unit is None or not unit.on_map or len(entry["path"]) >= STREET_RETREAT_MAX:
                continue
            if entry["must"] and not entry["path"] and unit.side == ctx.active_side:
                message = f"{self.name(unit_id)} is on the smaller side of a street fight at 8:1 or more and can retreat: it must retreat at least one hex (额外撤退至少一格,至多两格)"
                order = entry.get("order")
                found.append(illegal("W-Street/6", message, order) if order is not None else
                             Violation("W-Street/6", ILLEGAL, message, None, Source(ctx.turn.file, pointer="/actions")))
                continue
            owed[unit_id] = {"town": self.where(entry["town"]), "path": [self.where(h) for h in entry["path"]], "must": bool(entry["must"])}
        if owed:
            self.record(state).setdefault("open", {})["street_retreat"] = owed
        return found
