"""Greece's limited entry (9.5.2.4) and the Salonika event (AP-30).

Play of the Salonika event sets the Greek units up as the Setup Chart says (4.2.2), but Greece stays neutral:
nobody moves them, nobody enters, attacks or traces supply through a space holding them, and every other space
of Greece is open to both sides (``greek_open`` in ``base``). The event also redeploys up to three French or
British corps (not the BEF's, nor the AUS, CND, PT or ANA corps) from the map or the Reserve Box to Salonika, and
counts as an SR card play (the card's text; 13.1.5: only units in supply redeploy).
"""

from __future__ import annotations

from pbem.model.state import State
from pbem.rules.ruleset import TurnContext, illegal

from .base import PathsOfGloryBase, pog

SALONIKA_SR = 3
SALONIKA_NATIONS = ("FR", "BR")


class GreeceRules(PathsOfGloryBase):
    def _salonika_play(self, ctx: TurnContext):
        play = self.current_play(ctx)
        if play is not None and play.use == "event" and play.card is not None and self.module.cards[play.card].get("event") == "salonika":
            return play
        return None

    def entering(self, state: State, ctx: TurnContext) -> str | None:
        if self._salonika_play(ctx) is not None and self.neutral(state, "GR"):
            return "GR"  # 9.5.2.4: the Greek units are placed as the Setup Chart says, still neutral
        return super().entering(state, ctx)  # type: ignore[misc]

    def check_move(self, action, state: State, ctx: TurnContext) -> list:
        if self._salonika_play(ctx) is None or action.by not in ("strategic", "sea"):
            return super().check_move(action, state, ctx)  # type: ignore[misc]
        return self._to_salonika(action, state, ctx, action.path[-1])

    def check_reinforce(self, action, state: State, ctx: TurnContext) -> list:
        if self._salonika_play(ctx) is None or all(state.units[u].unit.type.nationality == "GR" for u in action.units):
            return super().check_reinforce(action, state, ctx)  # type: ignore[misc]
        return self._to_salonika(action, state, ctx, action.at)

    def _to_salonika(self, action, state: State, ctx: TurnContext, to: int) -> list:
        found = []
        done = pog(ctx).setdefault("salonika_sr", set())
        salonika = self.module.map.index("Salonika")
        if to != salonika:
            found.append(illegal("9.5.1.1", f"the Salonika event redeploys corps to Salonika only, not to {self.where(to)}", action))
        for unit_id in action.units:
            unit = state.units[unit_id]
            name = self.name(unit_id)
            contingent = unit.unit.type.attributes.get("contingent")
            if self.is_army(unit) or unit.unit.type.nationality not in SALONIKA_NATIONS or contingent in ("BEF", "AUS", "CND", "PT", "ANA"):
                found.append(illegal("9.5.1.1", f"the Salonika event redeploys French or British corps only (not {name})", action))
            if unit.on_map and self.out_of_supply(state, unit):
                found.append(illegal("13.1.5", f"{name} is out of supply and may not redeploy", action))
            done.add(unit_id)
        if len(done) > SALONIKA_SR:
            found.append(illegal("9.5.1.1", f"the Salonika event redeploys at most {SALONIKA_SR} corps; this is the {len(done)}th", action))
        return found

    def after_card(self, action, state: State, ctx: TurnContext) -> list:
        found = super().after_card(action, state, ctx)  # type: ignore[misc]
        play = self._salonika_play(ctx)
        if play is not None and play.card == action.card:
            last = state.status.get("last_play", {}).get(play.side)
            if last is not None:
                last["use"] = "sr"  # the card counts as an SR card play (9.3.3)
        return found
