"""Counters a player names by their kind, picked as a player picks a counter: ``replace FR-5-ARMY by a FR corps``
(12.4.4) takes a corps of that nation from the Reserve Box that may replace the army (12.4.4.3), a full-strength one
first, the lowest id among equals. A retreat or an advance the turn writes for the replaced army is the corps'."""

from __future__ import annotations

import dataclasses
import re

from pbem.model.state import State
from pbem.rules.ruleset import TurnContext, illegal

from .base import PathsOfGloryBase


class PickRules(PathsOfGloryBase):
    resolved_kinds = frozenset({"attack", "overrun"})  # the combats: only they name counters by kind (replacement_kinds)

    def resolve(self, action, state: State, ctx: TurnContext):
        kinds = getattr(action, "replacement_kinds", None)
        if not kinds:
            return action
        replacements = dict(action.replacements)
        left = {}
        used = set(replacements.values())
        for old, kind in kinds.items():
            picked = self._pick_corps(state, old, kind, used)
            if picked is None:
                left[old] = kind
            else:
                replacements[old] = picked
                used.add(picked)
        # The picked corps keeps the army's place: a retreat or an advance written for the army is the corps'.
        picked = {old: replacements[old] for old in kinds if old not in left}
        retreats = {picked.get(unit, unit): path for unit, path in action.retreats.items()}
        advance = tuple(picked.get(unit, unit) for unit in action.advance)
        paths = {picked.get(unit, unit): path for unit, path in action.advance_paths.items()}
        return dataclasses.replace(action, replacements=replacements, replacement_kinds=left, retreats=retreats, advance=advance, advance_paths=paths)

    def _pick_corps(self, state: State, army_id: str, kind: str, used: set[str]) -> str | None:
        army = state.units.get(army_id)
        nation = self._nation(kind)
        if army is None or nation is False:
            return None
        able = [u for u in self._replacing_corps(state, army, used) if nation is None or u.unit.type.nationality == nation]  # type: ignore[attr-defined]
        able.sort(key=lambda u: (u.step, u.id))
        return able[0].id if able else None

    def _nation(self, kind: str) -> str | None | bool:
        """The nationality code a kind names (``FR corps``, ``French corps``, ``A-H corps``), None for any corps
        (``a corps``), False for a kind that is not a corps of a nation."""
        words = kind.split()
        if not words or words[-1].casefold() != "corps":
            return False
        written = re.sub(r"[^a-z]", "", "".join(words[:-1]).casefold())
        if not written:
            return None
        for code, names in self.module.nationalities.items():
            if written in {re.sub(r"[^a-z]", "", n.casefold()) for n in (code, *names)}:
                return code
        return False

    def check_attack(self, action, state: State, ctx: TurnContext) -> list:
        found = super().check_attack(action, state, ctx)  # type: ignore[misc]
        for old, kind in getattr(action, "replacement_kinds", {}).items():
            why = "not a corps of a nation" if self._nation(kind) is False else "none of that kind in the Reserve Box may replace it"
            found.append(illegal("12.4.4", f"{self.name(old)} is to be replaced by a {kind}: {why} (12.4.4, 12.4.4.3)", action))
        return found
