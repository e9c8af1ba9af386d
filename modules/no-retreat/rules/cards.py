"""Card plays (5.0-5.5): which half each side may play, the Initiative icons, timing, once per player turn,
the 1945 deck.

A card play is ``{"card": "26", "use": USE}``. USE is ``[PLAYER:]KIND[/HALF]``: PLAYER is ``axis`` or
``soviet`` (default: the phasing side), KIND is ``event`` or another use of 5.4 (``replacement``,
``rail``, ``reorganize``, ``counterblow``), ``improve`` (7.1) or ``garrison`` (7.5), HALF names the half played as an event
(default: the player's own half).
"""

from __future__ import annotations

from pbem.model.actions import CardPlay, Special
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal, warning

from .base import YEAR_STARTS, NoRetreatBase

USES = {"event", "replacement", "rail", "reorganize", "counterblow", "improve", "garrison"}

# Timing codes (tools/cards_read.py) -> the phase they fall in; combat steps are parts of the combat phase.
TIMING_PHASE = {
    "card_phase": "card", "supply_phase_end": "supply", "organization_phase": "organization",
    "organization_phase_start": "organization", "organization_step": "organization", "movement_phase": "movement",
    "movement_phase_end": "movement", "commitment_step": "combat", "counterblow_step": "combat",
    "apply_results_step": "combat", "combat_phase_end": "combat", "after_attack_roll": "combat",
    "after_ex_result": "combat", "removal_phase": "removal", "victory_phase": "victory",
}
# Not tied to a phase the log shows: played when drawn, or at a moment the log does not mark.
UNTIMED = {"anytime", "immediately", "on_draw", "any_phase_end", "discarded_for_replacement"}
DRAW = 4  # 5.2
MOSCOW, CAUCASUS_OIL, ROMANIAN_OIL = "2008", "2022", "0816"
EXTRA_CARD_TURNS = {8: "axis", 9: "axis", 21: "soviet"}  # turn-track events "+1 card" (13.x: how is not given)
WEATHER_CONDITIONS = {"clear weather only": {"clear"}, "clear or snow weather only": {"clear", "snow"}}


def parse_use(use: str, phasing: str) -> tuple[str, str, str | None]:
    """``"soviet:event/axis"`` -> (player, kind, half)."""
    player, _, rest = use.rpartition(":")
    kind, _, half = rest.partition("/")
    return player or phasing, kind, half or None


class CardRules(NoRetreatBase):
    def check_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if action.order != "draw":
            return super().check_special(action, state, ctx)  # type: ignore[misc]
        return self._draw(action, state, ctx)

    def _draw(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        """5.2: draw 4; the Soviet 1 fewer while the Axis controls Moscow or the Caucasus oil fields, the Axis
        1 fewer while the Soviet controls the Romanian oil fields. Logged ``{"special": "draw", "result": "N"}``."""
        if ctx.phase != "card":
            return [illegal("5.2", f"cards are drawn in the Card Phase, not the {ctx.phase or 'no'} phase", action)]
        if not (action.result or "").isdigit():
            return [illegal("5.2", f"a draw names how many cards were drawn, not {action.result!r}", action)]
        drawn = int(action.result or 0)
        side = ctx.phase_side
        control = state.status.get("cities")
        if not isinstance(control, dict):
            return [warning("5.2", "the state gives no control of Moscow and the oil fields (status.cities), so the draw is not judged", action)]
        if EXTRA_CARD_TURNS.get(state.turn) == side:
            return [warning("5.2", f"turn {state.turn}'s event gives the {side} player a card; how (13.x) is not in the sources, so the draw is not judged", action)]
        if side == "soviet":
            held = [name for hex_, name in ((MOSCOW, "Moscow"), (CAUCASUS_OIL, "the Caucasus oil fields")) if control.get(hex_) == "axis"]
            allowed = {DRAW - 1, DRAW - 2} if len(held) == 2 else {DRAW - 1} if held else {DRAW}
            why = f" (the Axis holds {' and '.join(held)})" if held else ""
        else:
            allowed = {DRAW - 1} if control.get(ROMANIAN_OIL) == "soviet" else {DRAW}
            why = " (the Soviet holds the Romanian oil fields)" if control.get(ROMANIAN_OIL) == "soviet" else ""
        if drawn in allowed:
            return []
        if len(allowed) > 1:
            return [illegal("5.2", f"the {side} player draws {drawn} cards; 5.2 allows {' or '.join(map(str, sorted(allowed)))}{why} (whether both penalties add up is not given)", action)]
        return [illegal("5.2", f"the {side} player draws {drawn} cards, not {allowed.pop()}{why}", action)]

    def check_card(self, action: CardPlay, state: State, ctx: TurnContext) -> list[Violation]:
        card = self.cards.get(action.card.lstrip("0") or action.card)
        if card is None:
            return [illegal("5.0", f"there is no card {action.card!r} (cards 1-54)", action)]
        number = action.card.lstrip("0")
        player, kind, half = parse_use(action.use, action.side or ctx.active_side)
        if player not in self.module.sides or kind not in USES or (half is not None and half not in self.module.sides):
            return [illegal("5.4", f"card use {action.use!r} is not one of [axis:|soviet:]{'|'.join(sorted(USES))}[/axis|/soviet]", action)]
        found = self._deck_1945(number, card, state, action)
        if kind != "event":
            if kind == "counterblow":
                found += self.counterblow_card(player, action, ctx)  # type: ignore[attr-defined]
            if kind == "improve":
                credits = ctx.extra.setdefault("improve_cards", {})
                credits[player] = credits.get(player, 0) + 1
            return found
        half = half or player
        event = card[half]
        title = f"card {number} {event['title']!r}"
        if half != player:
            found.append(illegal("5.3", f"{title} is the {half} half: only the {half} player may play it, not the {player} player", action))
        icon = event["initiative"]
        if icon is not None and icon != self.initiative(state):
            found.append(illegal("5.3.3", f"{title} carries the {icon} Initiative icon but the {self.initiative(state)} player holds the Initiative", action))
        played = ctx.extra.setdefault("events_played", set())
        if (number, half) in played:
            found.append(illegal("5.0", f"{title} was already played this player turn: the same event happens at most once per player turn", action))
        played.add((number, half))
        # The half's timing is written for its own side ("the opponent's card phase" on the Axis half is the Soviet one):
        # judge it for that side, so a half played by the wrong player is one 5.3 violation, not a contradictory 5.3.1 too.
        found += self._timing(title, event, half, state, ctx, action)
        return found

    def _deck_1945(self, number: str, card: dict, state: State, action: CardPlay) -> list[Violation]:
        if card["deck_1945"] == "added" and state.turn < YEAR_STARTS[1945]:
            return [illegal("5.5", f"card {number} (green 45) enters the deck only on turn 23, January 1945; this is turn {state.turn}", action)]
        if card["deck_1945"] == "removed" and state.turn >= YEAR_STARTS[1945]:
            return [illegal("5.5", f"card {number} (struck-out 45) left the game at the start of 1945 (turn 23)", action)]
        return []

    def _timing(self, title: str, event: dict, player: str, state: State, ctx: TurnContext, action: CardPlay) -> list[Violation]:
        found = []
        condition = event.get("condition", "")
        first = {"from turn 6": 6, "from 1943": YEAR_STARTS[1943], "from 1944": YEAR_STARTS[1944]}.get(condition)
        if first is not None and state.turn < first:
            found.append(illegal("5.3.1", f"{title} may be played {condition} (turn {first} on); this is turn {state.turn}", action))
        if condition in WEATHER_CONDITIONS and self.weather(state) not in WEATHER_CONDITIONS[condition]:
            found.append(illegal("5.3.1", f"{title} may be played in {condition.replace(' only', '')}; the weather is {self.weather(state).replace('_', ' ')}", action))
        if any(t.partition(":")[0] in UNTIMED for t in event["timing"]):
            return found
        if ctx.phase is None:
            return found + [warning("5.3.1", f"{title}: no phase is marked before it, so its timing is not checked", action)]
        for timing in event["timing"]:
            step, _, whose = timing.partition(":")
            if step == "own_turn":
                if ctx.phase_side == player:
                    return found
                continue
            if TIMING_PHASE.get(step) != ctx.phase:
                continue
            if whose == "any" or (whose == "own") == (ctx.phase_side == player):
                return found
        wanted = " or ".join(_describe(t) for t in event["timing"])
        found.append(illegal("5.3.1", f"{title} is played {wanted}, not in the {ctx.phase_side} {ctx.phase} phase", action))
        return found


def _describe(timing: str) -> str:
    step, _, whose = timing.partition(":")
    if step == "own_turn":
        return "in the player's own player turn"
    owner = {"own": "the player's own", "enemy": "the opponent's", "any": "any"}[whose]
    return f"in {owner} {TIMING_PHASE.get(step, step)} phase ({step.replace('_', ' ')})"
