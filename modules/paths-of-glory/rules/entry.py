"""A neutral nation's set-up placed by itself (4.2.2): when the round in which it entered the war ends (or its War
Status phase, for Turkey), every unit the Setup Chart (``status.neutral_setup``) places and the player did not place
otherwise goes to its space or box, reduced where the chart says so. A corps place the player filled with another
corps of the same type counts as filled; the chart's "any other spaces" (Bulgaria, Romania) are the player's to write:
those corps wait in the reinforcements box (that they are placed is not checked yet, as the README says)."""

from __future__ import annotations

from pbem.model.state import State
from pbem.rules.ruleset import TurnContext

from .base import pog
from .reserve import ReserveRules


class EntryRules(ReserveRules):
    def check_phase(self, action, state: State, ctx: TurnContext) -> list:
        found = self._place_entry(state, ctx, action)
        return found + super().check_phase(action, state, ctx)

    def finish(self, state: State, ctx: TurnContext) -> list:
        return self._place_entry(state, ctx, None) + super().finish(state, ctx)

    def _place_entry(self, state: State, ctx: TurnContext, action) -> list:
        """The set-up of the nation whose entry ends now, where the player has not written it."""
        nation = self.entering(state, ctx)
        if nation is None or nation in pog(ctx).setdefault("entries_placed", set()):
            return []
        pog(ctx)["entries_placed"].add(nation)
        chart = state.status.get("neutral_setup", {}).get(nation, {})
        for place, written in chart.items():
            location = None if place == "reserve" else self.module.map.find(place)
            if place != "reserve" and location is None:
                continue
            wanted: dict[str, list[str]] = {}  # corps type -> the chart's corps for this place
            for entry in written:
                unit = state.units.get(entry.split()[0])
                if unit is None:
                    continue
                if self.is_army(unit):
                    if unit.box == "reinforcements":  # an army's place is its own
                        self._set_up(state, unit.id, location, "(reduced)" in entry)
                    continue
                wanted.setdefault(unit.unit.type.id, []).append(entry)
            for kind, entries in wanted.items():
                here = state.units_at(location) if location is not None else [u for u in state.units.values() if u.box == "reserve"]
                need = len(entries) - sum(1 for u in here if u.unit.type.id == kind)
                listed = [e.split()[0] for e in entries]
                # any corps of the type fills a place (4.2.2): the chart's own first, then the others still waiting
                spare = listed + sorted(u.id for u in state.units.values() if u.unit.type.id == kind and u.id not in listed)
                for unit_id in [u for u in spare if state.units[u].box == "reinforcements"][: max(need, 0)]:
                    self._set_up(state, unit_id, location, False)
        return []

    def _set_up(self, state: State, unit_id: str, location: int | None, reduced: bool) -> None:
        state.units[unit_id].step = 1 if reduced else 0
        if location is None:
            state.remove(unit_id, "reserve")
        else:
            state.place(unit_id, location)
