"""Political events (5.0-5.2): one roll of both dice per game-turn, its modifiers, the table, and what follows."""

from __future__ import annotations

from pbem.model.actions import Roll
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal, mismatch, warning

from .base import CHINESE, POLITICAL, SOVIET, ChinaWarBase

STANCES = {"allied_prc": CHINESE, "allied_ussr": SOVIET}


class PoliticsRules(ChinaWarBase):
    def modifiers(self, state: State) -> dict[str, int]:
        """5.2's die modifiers from the state's status (resources, victory points, nuclear points used)."""
        status = state.status
        soviet_vp = status.get("vp", {}).get(SOVIET, 0)
        # 5.2's list gives the Chinese +1 for Soviet VP below 100; 5.0's worked example for the Chinese player's own.
        below_100 = status.get("vp", {}).get(self.options.get("political_vp_below_100", SOVIET), 0) < 100
        conditions = {
            "soviet_resources_30": status.get("soviet_resources", 0) >= 30,
            "soviet_vp_100": soviet_vp >= 100,
            "soviet_nuclear_used_100": status.get("nuclear_used", 0) >= 100,
            "soviet_vp_below_100": below_100,
        }
        totals = {SOVIET: 0, CHINESE: 0}
        for modifier in self.political["modifiers"]:
            if conditions[modifier["condition"]]:
                totals[modifier["die"]] += modifier["value"]
        return totals

    def check_roll(self, action: Roll, state: State, ctx: TurnContext) -> list[Violation]:
        if action.purpose != "political":
            if f"roll-{action.purpose}" in ctx.unchecked:
                return []
            ctx.unchecked.add(f"roll-{action.purpose}")
            return [warning("-", f"{action.purpose} rolls are not checked by this module", action)]
        if ctx.phase != POLITICAL:
            return [illegal("4.2", "the political roll belongs to the political events phase", action)]
        if ctx.extra.get("political_rolled") or state.status.get("political_roll_turn") == state.turn:
            return [illegal("5.0", "one political roll per game-turn: a result that changes nothing is not rolled again", action)]
        ctx.extra["political_rolled"] = True
        if len(action.values) != 2 or not all(1 <= v <= 6 for v in action.values):
            return [mismatch("5.2", "a political roll is two dice, Soviet then Chinese, each 1 to 6", action)]
        soviet, chinese = action.values
        mods = self.modifiers(state)
        found: list[Violation] = []
        for side in (SOVIET, CHINESE):
            claimed = action.modifiers.get(side)
            if claimed is not None and claimed != mods[side]:
                found.append(mismatch("5.2", f"the {self.side_name(side)} die modifier is {mods[side]:+d} here, not {claimed:+d}", action))
        column, row = soviet + mods[SOVIET], chinese + mods[CHINESE]
        event = self.political["rows"][str(row)][column - 1]
        ctx.extra["political_event"] = event
        dice = f"Soviet {soviet}{mods[SOVIET]:+d} = {column}, Chinese {chinese}{mods[CHINESE]:+d} = {row}"
        ctx.outcome(action, f"{self.political['events'][event]['text']} ({dice})", result=event, rule="5.2")
        if action.result is not None and action.result.upper() != event:
            found.append(mismatch("5.2", f"Soviet {soviet}{mods[SOVIET]:+d} = {column}, Chinese {chinese}{mods[CHINESE]:+d} = {row} gives event {event}, not {action.result}", action))
        return found

    def after_roll(self, action: Roll, state: State, ctx: TurnContext) -> list[Violation]:
        event = ctx.extra.pop("political_event", None)
        if event is None:
            return []
        state.status["political_roll_turn"] = state.turn
        entry = self.political["events"][event]
        power, outcome = entry["power"], entry["outcome"]
        stances = state.status.setdefault("political", {})
        if stances.get(power, "ambiguous") != "ambiguous":
            # 5.0: a settled power ignores later events; nothing happens this turn
            result, text, rule = ctx.outcomes.get(action.index, (event, "", "5.2"))
            settled = stances[power].replace("_", " ").replace("prc", "PRC").replace("ussr", "USSR")
            ctx.outcome(action, f"{text}; {power} is already {settled}: no effect (5.0)", result=result, rule=rule)
            return []
        stances[power] = outcome
        if power == "NATO" and outcome == "neutral":
            state.status["nato_neutral_turn"] = state.turn
        elif outcome == "neutral":  # 5.14: its units leave the map
            for unit in state.units.values():
                if unit.unit.type.nationality == power and unit.on_map:
                    state.remove(unit.id, "removed")
        elif power != "NATO":  # 5.15: the ally takes its units from the next player-turn on
            state.status.setdefault("pending_control", {})[power] = STANCES[outcome]
        return []
