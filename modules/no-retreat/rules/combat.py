"""Combat by each side's CRT, as printed on the map with its explanation of results.

An attack is read on the CRT of the attacking side. Checked: attacks in the combat phase by the phasing
side (4.0); the claimed column is a printed one; the roll is a die (1-6); the result is the CRT's for the
column and roll (``CRT``, a mismatch otherwise); what the result then does (the printed explanation):
DR, DS and DD retreat every defending unit 2 hexes (DS units then go to the Shattered box), DD also costs
every defending unit a step, EX one step each side and no retreat or advance, '-', CA and CB no loss and
no retreat; a Fort unit in the target hex turns DR into no effect and DS into EX and cancels DD's retreat;
attackers advance only if the target hex is vacated, and only attacking units advance; the non-phasing side
attacks only as the counterattack a CA result allows or as a counterblow (``counterblows``); the claimed odds
and column lie in the range any reading of rounding and the printed shifts allows (``odds``: a claim outside it
is a mismatch).
Not checked (rule 10 is not in the sources): the exact odds, rounding and column shifts, adjacency, retreat
paths' hexes, advance distance.
"""

from __future__ import annotations

from pbem.model.actions import Combat
from pbem.rules.combat import CombatOdds
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal, mismatch

from .counterblows import CB_DUE, CB_RESULTS, RESOLVED, CounterblowRules
from .odds import odds_claim, reach, rounding, strengths

RETREAT_HEXES = 2
# An unsupplied defender retreats 2 hexes more (no-retreat-game.com's FAQ, "retreating 2 additional hexes when
# defeated"; rule 10 is not in the sources): both lengths are accepted for it.
UNSUPPLIED_EXTRA = 2


class CombatRules(CounterblowRules):
    def odds_attack(self, action: Combat, state: State, ctx: TurnContext) -> CombatOdds | None:
        """The working of an attack for ``pbem check --explain``: strengths, the columns any rounding gives and the
        printed shifts can reach (rule 10 is not in the sources), and every roll's result at the claimed column."""
        units = [state.units[u] for u in action.attackers]
        if not units or not any(u.on_map for u in units):
            return None
        side = units[0].side
        crt = self.crts[side]
        columns = crt["columns"]
        attack, defence = strengths(self, action, side, state)
        claimed = action.column or action.odds
        if defence <= 0 or attack <= 0 or claimed not in columns:
            return None
        low, high = rounding(attack, defence, columns)
        first, last = reach(low, high, columns)
        rounded = columns[low] if low == high else f"{columns[low]} or {columns[high]}"
        at = columns.index(claimed)
        return CombatOdds(
            target=self.where(action.target), attack=attack, defence=defence, odds=f"{rounded} (any rounding)",
            parts=(f"the printed shifts reach {columns[first]} to {columns[last]}", f"the {side} CRT"),
            shifts=(("as claimed: the shifts are rule 10's, not in the sources", 0, ""),), column=claimed, die_row=None,
            results=tuple((roll, crt["rows"][str(roll)][at]) for roll in range(1, 7)),
        )  # fmt: skip

    def check_attack(self, action: Combat, state: State, ctx: TurnContext) -> list[Violation]:
        found: list[Violation] = []
        if ctx.phase != "combat":
            found.append(illegal("4.0", f"attacks are resolved in the Combat Phase, not the {ctx.phase or 'no'} phase", action))
        sides = {state.units[u].side for u in action.attackers}
        if len(sides) != 1:
            return found + [illegal("4.0", "the attacking units belong to both sides", action)]
        side = sides.pop()
        due = ctx.extra.get(CB_DUE)
        counterblow = self.counterblow_attack(action, side, state, ctx)
        if counterblow is not None:
            found += counterblow
        elif side != ctx.phase_side:
            if ctx.extra.get("counterattack") == side:
                ctx.extra["counterattack"] = None  # CA: the defender's immediate counterattack
            elif ctx.extra.get("events_this_phase", 0) == 0:
                found.append(illegal("4.0", f"the {side} side attacks in the {ctx.phase_side} Combat Phase without a CA result to counterattack from or a Counterblow marker on {self.where(action.target)} (5.4)", action))
        if due is not None and ctx.extra.get(CB_DUE) == due:
            found.append(illegal("4.0", f"the counterblow on the CB marker in {self.where(due)} comes next (option counterblow_resolution=immediate), before this attack", action))
            ctx.extra[CB_DUE] = None
        ctx.extra[RESOLVED] = ctx.extra.get(RESOLVED, 0) + 1
        crt = self.crts[side]
        column = action.column or action.odds
        if column not in crt["columns"]:
            return found + [illegal("CRT", f"{column!r} is not a column of the {side} CRT ({', '.join(crt['columns'])}; odds outside them are not given by the sources)", action)]
        if not 1 <= action.roll <= 6:
            return found + [illegal("CRT", f"a roll of {action.roll} is not a die roll (1-6)", action)]
        found += odds_claim(self, action, side, crt["columns"], state, ctx)
        printed = crt["rows"][str(action.roll)][crt["columns"].index(column)]
        if action.result != printed:
            found.append(mismatch("CRT", f"the {side} CRT gives {printed} at {column} for a roll of {action.roll}, not {action.result}", action))
        defenders = [u.id for u in state.units_at(action.target) if u.side != side]
        if printed == "CA":
            ctx.extra["counterattack"] = "soviet" if side == "axis" else "axis"
        if printed == "CB" and side == ctx.phase_side:
            # CRT: the Target marker, flipped, goes on the hex of one of the phasing attacking units.
            ctx.extra.setdefault(CB_RESULTS, []).append(frozenset(state.units[u].at for u in action.attackers))
        fort = any(self.face(state.units[u])["arm"] == "fortified" for u in defenders)
        found += self._effects(printed, fort, defenders, action, state)
        return found

    def _effects(self, result: str, fort: bool, defenders: list[str], action: Combat, state: State) -> list[Violation]:
        found = []
        effective = {"DR": "-", "DS": "EX"}.get(result, result) if fort else result
        note = f" ({result} with a Fort unit in the target hex)" if effective != result or (fort and result == "DD") else ""
        retreats = dict(action.retreats)
        lost_d = list(action.losses_defender) + list(action.eliminated)
        lost_a = list(action.losses_attacker)
        if effective in ("DR", "DS", "DD") and not (fort and effective == "DD"):
            for unit_id in defenders:
                gone = unit_id in action.eliminated or (effective == "DD" and len(state.units[unit_id].unit.type.steps) - state.units[unit_id].step <= 1)
                path = retreats.get(unit_id)
                if path and path[0] == action.target:
                    path = path[1:]  # the hexes entered, whether or not the log starts from the target hex
                if path is None and not gone:
                    found.append(illegal("CRT", f"{effective}: {self.name(unit_id)} must retreat {RETREAT_HEXES} hexes{note}", action))
                elif path is not None and len(path) != RETREAT_HEXES:
                    if self.unsupplied(state.units[unit_id]) and len(path) == RETREAT_HEXES + UNSUPPLIED_EXTRA:
                        continue
                    found.append(illegal("CRT", f"{effective}: {self.name(unit_id)} retreats {len(path)} hex(es), not {RETREAT_HEXES}{note}", action))
        elif retreats:
            found.append(illegal("CRT", f"{effective}{note} makes no one retreat, yet {', '.join(self.name(u) for u in retreats)} retreated", action))
        if effective == "DD":
            missing = [u for u in defenders if u not in lost_d]
            if missing:
                found.append(illegal("CRT", f"DD: every defending unit loses 1 step; {', '.join(self.name(u) for u in missing)} did not", action))
        if effective == "EX":
            if len(lost_a) != 1 or len(lost_d) != 1:
                found.append(illegal("CRT", f"EX{note}: each side loses 1 step (attacker lost {len(lost_a)}, defender {len(lost_d)})", action))
            if action.advance:
                found.append(illegal("CRT", "EX: neither side retreats or advances", action))
        elif effective in ("-", "CA", "CB"):
            if lost_a or lost_d:
                found.append(illegal("CRT", f"{effective}{note}: the result itself costs no steps", action))
        strangers = [u for u in action.advance if u not in action.attackers]
        if strangers:
            found.append(illegal("CRT", f"only attacking units may advance; {', '.join(self.name(u) for u in strangers)} did not attack", action))
        if action.advance and effective in ("DR", "DS", "DD"):
            staying = [u for u in defenders if u not in retreats and u not in action.eliminated and u not in lost_d]
            if staying:
                found.append(illegal("CRT", f"attackers advance only if the target hex is vacated; {', '.join(self.name(u) for u in staying)} stayed", action))
        elif action.advance and effective in ("-", "CA", "CB"):
            found.append(illegal("CRT", f"{effective}{note}: the target hex is not vacated, so no one advances", action))
        return found
