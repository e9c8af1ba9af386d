"""WWII Campaign / Crusader: command cards (W-Card/1, 指令卡).

A card's cost is the number in its corner (指令卡左上角的数字代表该卡使用所需要消耗的CP), paid at once and never on
credit (W-CP/2: 必须立即扣减指挥点,不能预支、超支); its first line is when it may be played (指令卡效果描述的第一行
的那一句是指令卡使用的前提条件: "回合开始时。" → only in the turn-start phase); once played it goes to its owner's
discard pile (使用过后,指令卡立即进入己方弃牌区), kept in the state's card piles (``pbem.model.cards``).

The source prints no card: the tables' ``cards.cards`` describe each card (``cost``, ``timing`` — the first line as
printed — and ``phases``, the segments that line allows; ``null`` when the line names no phase). The module's two
are illustrative (supplied); a group's tables file gives the real ones. What no file describes is "not checked".
"""

from __future__ import annotations

from typing import Any

from pbem.model.actions import CardPlay
from pbem.model.cards import DISCARD, Piles
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal

from .resources import ResourcePhaseRules

MAX_DISCARD = 2000  # state.schema.json: a pile holds at most this many cards


class CardRules(ResourcePhaseRules):
    """Command cards: cost, precondition line, discard."""

    def card_facts(self, card: str | None) -> dict[str, Any] | None:
        """What the tables in force say of ``card`` (None: no file describes it)."""
        facts = self.tables.value("cards", "cards", card or "")
        return facts if isinstance(facts, dict) else None

    def check_card(self, action: CardPlay, state: State, ctx: TurnContext) -> list[Violation]:
        """W-Card/1: played when its first line allows, for the CP in its corner, paid at once (W-CP/2)."""
        side = action.side or ctx.active_side
        facts = self.card_facts(action.card)
        if facts is None:
            return self.not_checked("W-Card/1", f"command card {action.card!r} (its cost and first line)", action, ctx,
                                    why="no tables file in force describes it: the source prints no card; see the module README")
        if facts.get("side") not in (None, side):
            return [illegal("W-Card/1", f"card {action.card} is a {facts['side']} card, not {side}'s", action)]
        found: list[Violation] = []
        phases = facts.get("phases")
        if phases and ctx.phase not in phases:
            line = facts.get("timing") or ""
            found.append(illegal("W-Card/1", f"card {action.card}'s first line {line!r} allows it only in {', '.join(phases)}, not in {ctx.phase or 'no segment'} "
                                 "(指令卡效果描述的第一行的那一句是指令卡使用的前提条件)", action))
        elif facts.get("own") and ctx.phase_side is not None and side != ctx.phase_side:
            found.append(illegal("W-Card/1", f"card {action.card}'s first line {facts.get('timing') or ''!r} names {side}'s own segments (己方): this {ctx.phase} is {ctx.phase_side}'s", action))
        elif phases is None and facts.get("timing"):
            found += self.not_checked("W-Card/1", f"card {action.card}'s first line {facts['timing']!r} (no segments given for it)", action, ctx)
        cost = facts.get("cost")
        found += self.spend(state, side, "cp", cost, f"card {action.card} (cost {cost} CP: 必须立即扣减指挥点,不能预支、超支)", "W-Card/1", action, ctx)
        return found

    def after_card(self, action: CardPlay, state: State, ctx: TurnContext) -> list[Violation]:
        """Pay the CP and put the card on its owner's discard pile (使用过后,指令卡立即进入己方弃牌区)."""
        side = action.side or ctx.active_side
        facts = self.card_facts(action.card)
        self.pay(state, side, "cp", facts.get("cost") if facts else None)
        if action.card:  # card effects are not built: later combats this turn are not checked for strength (C93)
            played = self.record(state).setdefault("cards", [])
            # the entries now in ``played`` as keys, kept beside it so that a turn of many plays stays linear
            known = ctx.extra.get("cards_played")
            if known is None or known[0] is not played:
                known = ctx.extra["cards_played"] = (played, {(e.get("side"), e.get("card")) for e in played if isinstance(e, dict)})
            key = (str(side), action.card)
            if key not in known[1]:
                played.append({"side": key[0], "card": key[1]})
                known[1].add(key)
                for dropped in played[:-MAX_DISCARD]:  # bounded as the schema says (any card left keeps the combats unchecked)
                    if isinstance(dropped, dict):
                        known[1].discard((dropped.get("side"), dropped.get("card")))
                del played[:-MAX_DISCARD]
        if action.card and side in self.module.sides:
            piles = state.cards.setdefault(side, Piles(known=False))  # the hand and draw pile are not tracked
            piles.play(action.card, action.use or "command", DISCARD)
            del piles.discard[:-MAX_DISCARD]  # a written state keeps the newest (state.schema.json bounds the pile)
        return []
