"""Die rolls outside combat: the mandated offensive (7.1), sieges (15.2-15.3) and entrenchment (11.2).

``{"roll": {"purpose": "mandated_offensive", "side": "cp", "value": 4, "result": "GE"}}``;
``{"special": "siege", "at": "Liege", "roll": 5, "result": "destroyed"}`` (or ``holds``);
``{"special": "entrench", "units": ["GE-8-ARMY"], "at": "Insterberg", "roll": 3, "result": "success"}`` (or ``failure``).
"""

from __future__ import annotations

from pbem.model.state import State
from pbem.rules.ruleset import TurnContext, illegal, mismatch, warning

from .base import PathsOfGloryBase, pog

MO_NATIONS = {"AH": "AH", "AH_IT": "AH", "TU": "TU", "GE": "GE", "FR": "FR", "BR": "BR", "IT": "IT", "RU": "RU"}


class RollRules(PathsOfGloryBase):
    # --- mandated offensive -------------------------------------------------------------------------
    def check_roll(self, action, state: State, ctx: TurnContext) -> list:
        if action.purpose != "mandated_offensive":
            return [warning("-", f"{action.purpose} rolls are not checked by the paths-of-glory module", action)]
        side = action.side
        if side not in ("cp", "ap"):
            return [illegal("7.1", "a mandated offensive roll names its side (cp or ap)", action)]
        table = self.module.tables["mandated_offensive"][side]
        hoffmann = 1 if side == "cp" and not action.modifiers and self.played(state, "hoffmann") else 0  # 7.1.9
        roll = max(1, min(6, action.values[0] + sum(action.modifiers.values()) + hoffmann))
        result = table[str(roll)]
        if result == "GE" and self.played(state, "h_l_take_command") or result == "RU" and self.played(state, "bolshevik_revolution"):
            result = "none"  # LR2022 7.1.10 (seed 7.1.5, 7.1.10), 7.1.11: the GE or RU result is ignored
        if result == "BR" and state.turn == 1 and (state.scenario == "1914-historical" or state.status.get("vp_map") == "historical"):
            result = "FR"  # LR2022 5.7.4.5: a British MO becomes a French one on turn 1 of the historical scenario
        nation = MO_NATIONS.get(result)
        if result == "AH_IT" and self.neutral(state, "IT"):
            result = "AH"  # 7.1.6: with Italy neutral the AH (IT) result is an AH offensive
        if nation is not None and self.neutral(state, nation):
            result = "none"  # 7.1.2: a neutral nation has no offensive
        if result == "BR" and side == "ap" and state.turn == 1 and state.scenario == "1914-historical":
            result = "FR"  # LR2022 5.7.4.5: in the historical scenario a British MO becomes a French one on turn 1
        state.status.setdefault("mandated_offensive", {})[side] = result
        offensive = "no mandated offensive" if result == "none" else f"the {result.replace('_', ' (')}{')' if '_' in result else ''} must attack this turn"
        ctx.outcome(action, offensive, result=result, rule="7.1")
        claimed = (action.result or "").strip().upper().replace(" ", "_").replace("(", "").replace(")", "")
        if claimed and claimed != result.upper():
            return [mismatch("7.1", f"the {side.upper()} mandated offensive roll {roll} gives {result}, not {action.result}", action)]
        return []

    # --- sieges and entrenchment ----------------------------------------------------------------------
    def check_special(self, action, state: State, ctx: TurnContext) -> list:
        if action.order == "siege":
            return self._siege(action, state, ctx)
        if action.order == "entrench":
            return self._entrench(action, state, ctx)
        return [illegal("-", f"unknown special order {action.order!r} (paths-of-glory knows siege and entrench)", action)]

    def _siege(self, action, state: State, ctx: TurnContext) -> list:
        if action.at is None or not action.rolls:
            return [illegal("15.3", "a siege roll names the fort's space (at) and the roll", action)]
        label = self.where(action.at)
        fort = self.fort(state, action.at)
        holder = self.controller(state, action.at)
        besiegers = [u for u in state.units_at(action.at) if u.side != holder]
        if not fort or not besiegers:
            return [illegal("15.2.1", f"there is no besieged fort in {label}", action)]
        drm = self.module.tables["siege"]["drm_by_turn"].get(str(state.turn), 0)
        roll = action.rolls[0] + drm
        result = "destroyed" if roll > fort else "holds"
        ctx.outcome(action, f"the fort of {label} (LF {fort}) {'is destroyed' if result == 'destroyed' else 'holds'} ({action.rolls[0]}{drm:+d} = {roll})", result=result, rule="15.3")
        if action.result and action.result.strip().lower() != result:
            return [mismatch("15.3", f"siege roll {action.rolls[0]}{drm:+d} against the fort of {label} (LF {fort}): it {result}, not {action.result} (LR2022 15.3)", action)]
        return []

    def after_special(self, action, state: State, ctx: TurnContext) -> list:
        if action.order == "siege" and action.at is not None and (action.result or "").strip().lower() == "destroyed":
            label = self.where(action.at)
            holder = self.controller(state, action.at)
            state.status.setdefault("forts", {})[label] = "destroyed"
            besiegers = [u for u in state.units_at(action.at) if u.side != holder]
            if besiegers:
                self.enter(state, action.at, besiegers[0].side)  # type: ignore[attr-defined]
        if action.order == "entrench" and action.at is not None and (action.result or "").strip().lower() == "success":
            trenches = state.status.setdefault("trenches", {})
            label = self.where(action.at)
            side = state.units[action.units[0]].side if action.units else None
            level = trenches.get(label, {}).get("level", 0)
            trenches[label] = {"level": min(2, level + 1), "owner": side}
        return []

    def _entrench(self, action, state: State, ctx: TurnContext) -> list:
        if action.at is None or len(action.units) != 1 or not action.rolls:
            return [illegal("11.2.2", "an entrenchment names one army, its space (at) and the roll", action)]
        unit = state.units[action.units[0]]
        name = self.name(unit.id)
        side = unit.side
        found = []
        if not (self.played(state, "cp_entrench") or self.played(state, "ap_entrench")):
            # 11.2.1: once either player has played an Entrench event, both sides may entrench.
            found.append(illegal("11.2.1", "neither player has played an Entrench event: no entrenchment yet", action))
        if not self.is_army(unit):
            found.append(illegal("11.2.2", f"only an army digs trenches; {name} is a corps", action))
        if unit.at != action.at:
            found.append(illegal("11.2.2", f"{name} is not in {self.where(action.at)}", action))
        play = self.current_play(ctx)
        # 11.2.1 (both editions): an army in a space activated for movement entrenches instead of moving.
        if play is None or play.activated.get(unit.at) != "move":
            how = "not activated" if play is None or unit.at not in play.activated else f"activated for {play.activated[unit.at]}"
            found.append(illegal("11.2.1", f"{name} digs only in a space activated for movement; {self.where(unit.at)} is {how}", action))
        elif unit.id in play.moved:
            found.append(illegal("11.2.1", f"{name} moved this round: an army entrenches instead of moving", action))
        # 11.2.1: one army a space entrenches in a round (EntrenchRules refuses the same army rolling twice).
        current = pog(ctx).get("round")
        if current is not None:
            digging = pog(ctx).setdefault("entrenching", {})
            key = (state.turn, current.number, current.side, action.at)
            if digging.get(key, unit.id) != unit.id:
                found.append(illegal("11.2.1", f"one army a space entrenches in a round; {self.name(digging[key])} already tries in {self.where(action.at)}", action))
            digging.setdefault(key, unit.id)
        if self.out_of_supply(state, unit):
            found.append(illegal("14.3.3", f"{name} is out of supply and may not entrench", action))
        trench = self.trench(state, action.at)
        if trench and trench["level"] >= self.module.tables["entrenchment"]["max_level"]:
            found.append(illegal("11.2.3", f"{self.where(action.at)} already holds a level 2 trench", action))
        if found:
            return found
        lf = unit.face.loss or 0
        drm = self.entrench_drm(state, unit, ctx)
        result = "success" if action.rolls[0] + drm <= lf else "failure"
        shown = f"{action.rolls[0]}{drm:+d}" if drm else f"{action.rolls[0]}"
        ctx.outcome(action, f"{name} {'digs a trench' if result == 'success' else 'fails to entrench'} in {self.where(action.at)} (roll {shown} against LF {lf})", result=result, rule="11.2.2")
        if action.result and action.result.strip().lower() != result:
            return [mismatch("11.2.2", f"entrenchment roll {shown} against {name}'s LF {lf}: {result}, not {action.result}", action)]
        return []

    def entrench_drm(self, state: State, unit, ctx: TurnContext) -> int:
        """The entrenchment roll's modifier (EntrenchRules: the optional 11.2.10 failure marker)."""
        return 0
