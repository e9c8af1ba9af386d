"""Rules of particular places: besieging a fort (15.2.1), London (12.1.10), the Caucasus link (11.3.2) and the
Near East redeployment quotas (13.2.2-13.2.3).

A fort is besieged by the units that enter its space in one action round: one army, or as many corps as its LF.
That is judged when the round ends (the next phase or round, or the end of the file); a siege that holds is
written into ``status.forts``.
"""

from __future__ import annotations

from pbem.model.state import State
from pbem.rules.ruleset import TurnContext, illegal

from .base import PathsOfGloryBase, pog

CAUCASUS_LINKS = {"Grozny", "Poti"}


class FrontRules(PathsOfGloryBase):
    # --- sieges -------------------------------------------------------------------------------------
    def after_move(self, action, state: State, ctx: TurnContext) -> list:
        found = super().after_move(action, state, ctx)  # type: ignore[misc]
        play = self.current_play(ctx)
        if play is None or action.by != "land":
            return found
        last = action.path[-1]
        if self.fort(state, last) and self.controller(state, last) != play.side and not self.besieged(state, last):
            pending = pog(ctx).setdefault("sieges", {})
            pending.setdefault(last, (play.side, action))
        return found

    def after_attack(self, action, state: State, ctx: TurnContext) -> list:
        found = super().after_attack(action, state, ctx)  # type: ignore[misc]
        play = self.current_play(ctx)
        target = action.target
        # 12.6.5: advancing into an enemy fort's space needs a force that can besiege it.
        if play is not None and action.advance and self.fort(state, target) and self.controller(state, target) != play.side and not self.besieged(state, target):
            pog(ctx).setdefault("sieges", {}).setdefault(target, (play.side, action))
        return found

    def _judge_sieges(self, state: State, ctx: TurnContext) -> list:
        sieges = pog(ctx).pop("sieges", None)
        if not sieges:
            return []
        found = []
        for location, (side, action) in sieges.items():
            units = [u for u in state.units_at(location) if u.side == side]
            armies = sum(1 for u in units if self.is_army(u))
            corps = len(units) - armies
            lf = self.fort(state, location)
            label = self.where(location)
            if armies >= 1 or corps >= lf:
                state.status.setdefault("forts", {})[label] = "besieged"
            elif units:
                found.append(illegal("15.2.1", f"{label}'s fort (LF {lf}) is besieged by one army or {lf} corps entering in one round; {corps} corps entered", action))
        return found

    def check_phase(self, action, state: State, ctx: TurnContext) -> list:
        return self.judge_stacking(state, ctx) + self._judge_sieges(state, ctx) + super().check_phase(action, state, ctx)  # type: ignore[attr-defined]

    def finish(self, state: State, ctx: TurnContext) -> list:
        return self.judge_stacking(state, ctx) + self._judge_sieges(state, ctx) + super().finish(state, ctx)  # type: ignore[attr-defined]

    # --- London, the Caucasus link --------------------------------------------------------------------
    def check_attack(self, action, state: State, ctx: TurnContext) -> list:
        # Movement is over once combat begins (9.2.8-9.2.9): judge the stacks it left.
        found = self.judge_stacking(state, ctx) + super().check_attack(action, state, ctx)  # type: ignore[misc,attr-defined]
        attackers = [state.units[u] for u in action.attackers if state.units[u].on_map]
        game_map = self.module.map
        if any(game_map.label(u.at) == "London" for u in attackers):
            if not any(game_map.country[u.at] in ("BE", "FR") for u in attackers):
                found.append(illegal("12.1.10", "units in London attack only together with friendly units in Belgium or France", action))
        found += self._caucasus(action, state, ctx, [(u, u.at, action.target) for u in attackers], "attack")
        return found

    def check_move(self, action, state: State, ctx: TurnContext) -> list:
        found = super().check_move(action, state, ctx)  # type: ignore[misc]
        if action.by == "land":
            # Only a step into or out of the Caucasus space can cross the link: the others are not listed.
            caucasus = self._caucasus_spaces()
            path = action.path
            steps = [(state.units[u], a, b) for u in action.units for a, b in zip(path, path[1:])] if not caucasus.isdisjoint(path) else []
            found += self._caucasus(action, state, ctx, steps, "move")
        elif action.by == "strategic":
            found += self._near_east_quota(action, state)
        return found

    def _caucasus_spaces(self) -> frozenset[int]:
        """The spaces labelled Caucasus (one on the map), found once per ruleset."""
        found = self.__dict__.get("_caucasus_at")
        if found is None:
            found = self.__dict__["_caucasus_at"] = frozenset(i for i, label in enumerate(self.module.map.labels) if label == "Caucasus")
        return found

    def _caucasus(self, action, state: State, ctx: TurnContext, steps, what: str) -> list:
        """11.3.2: one RU corps a turn between the Caucasus space and the Near East (Grozny, Poti); no RU army."""
        found = []
        used = state.status.setdefault("caucasus_link", {})
        for unit, here, there in steps:
            ends = {self.where(here), self.where(there)}
            if "Caucasus" not in ends or not ends & CAUCASUS_LINKS or unit.unit.type.nationality != "RU":
                continue
            if self.is_army(unit):
                found.append(illegal("11.3.2", f"Russian armies never {what} between the Caucasus and the Near East ({self.name(unit.id)})", action))
            elif used.get("turn") == state.turn and used.get("unit") != unit.id:
                found.append(illegal("11.3.2", f"only one Russian corps a turn crosses between the Caucasus and the Near East; {self.name(used['unit'])} already did", action))
            else:
                state.status["caucasus_link"] = {"turn": state.turn, "unit": unit.id}
        return found

    def _near_east_quota(self, action, state: State) -> list:
        """13.2.2-13.2.3: one RU corps (never an army) and one non-Turkish CP corps a turn redeploy into or out
        of the Near East."""
        game_map = self.module.map
        start, end = action.path[0], action.path[-1]
        if ("near_east" in game_map.features[start]) == ("near_east" in game_map.features[end]):
            return []
        found = []
        quotas = state.status.setdefault("near_east_sr", {})
        for unit_id in action.units:
            unit = state.units[unit_id]
            nation = unit.unit.type.nationality
            key = "RU" if nation == "RU" else ("CP" if unit.side == "cp" and nation != "TU" else None)
            if key is None:
                continue
            rule = "13.2.2" if key == "RU" else "13.2.3"
            if key == "RU" and self.is_army(unit):
                found.append(illegal(rule, f"Russian armies never redeploy into or out of the Near East ({self.name(unit_id)})", action))
            elif quotas.get(key, {}).get("turn") == state.turn:
                found.append(illegal(rule, f"one {'Russian' if key == 'RU' else 'non-Turkish CP'} corps a turn redeploys into or out of the Near East; {self.name(quotas[key]['unit'])} already did", action))
            else:
                quotas[key] = {"turn": state.turn, "unit": unit_id}
        return found
