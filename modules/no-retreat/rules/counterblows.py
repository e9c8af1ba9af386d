"""Counterblows: the non-phasing side's attacks in the phasing side's Combat Phase.

What the sources say: the Combat Phase starts by declaring every attack and every Counterblow, then they are
resolved one at a time in the order the phasing player chooses (4.0); a card may be spent (discarded) to
designate a Counterblow in the opponent's Combat Phase (5.4); the Target marker has a Counterblow side (2.3);
a CB result flips the Target marker to its Counterblow side and puts it on the hex of one of the phasing
attacking units (the printed explanation of results). A counterblow is an attack by the non-phasing side, so
it is read on that side's own CRT (each side attacks on its own table).

Log forms (``README``, "Counterblows"): the card ``{"card": "12", "use": "soviet:counterblow"}``; the marker
``{"special": "counterblow", "at": "1306"}`` (optional: a counterblow attack places it on its target when none
is there); the attack ``{"attack": [...], "target": "1306", "declare": ["counterblow"], ...}`` (the declaration is
optional where a CB result or a card spent allows the attack).

What they leave open, so judged every way or made an option (``module.json`` ``option_choices``):
- whether a card-designated marker sits on the hex the counterblow attacks or on the counterblowing unit (the
  older VPG edition's example puts it on the unit that strikes): both are accepted, and the attack must then
  target the marker's hex or be made from it;
- ``counterblow_declaration``: ``before_resolution`` (4.0's text: card counterblows are declared before the
  first attack is resolved) or ``any_time``;
- ``counterblow_resolution``: a CB result's counterblow comes at any later point of the phase (``any_order``,
  4.0: the phasing player orders the resolution) or as the very next attack (``immediate``).
One card designates one counterblow (the VPG edition's example discards one card for one; the GMT 5.4 gives
no number). Not checked: adjacency, which units may strike, and whether a marker left unused must be.
"""

from __future__ import annotations

from pbem.model.actions import CardPlay, Combat, Special
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal

from .base import NoRetreatBase

# ctx.extra keys, all cleared when a phase starts (base.check_phase).
CB_RESULTS = "cb_results"  # hexes of the attacking units of each CB result whose marker is not placed yet
CB_CARDS = "cb_cards"  # cards spent for counterblows whose marker is not placed yet
CB_MARKERS = "cb_markers"  # hex -> "card" | "result": markers not yet attacked
CB_DUE = "cb_due"  # with counterblow_resolution=immediate: the marker hex the next attack must strike
RESOLVED = "attacks_resolved"  # attacks resolved in this combat phase
CB_USED = "cb_used"  # hexes whose Counterblow marker was struck


class CounterblowRules(NoRetreatBase):
    def counterblow_card(self, player: str, action: CardPlay, ctx: TurnContext) -> list[Violation]:
        """5.4: a card spent to designate a counterblow, by the non-phasing player in the Combat Phase."""
        if ctx.phase != "combat" or player == ctx.phase_side:
            when = f"the {ctx.phase_side} {ctx.phase or 'no'} phase"
            return [illegal("5.4", f"a card is spent for a Counterblow in the opponent's Combat Phase, not by the {player} player in {when}", action)]
        found = self._declared_late("the card for a Counterblow", action, ctx)
        ctx.extra[CB_CARDS] = ctx.extra.get(CB_CARDS, 0) + 1
        return found

    def _declared_late(self, what: str, action, ctx: TurnContext) -> list[Violation]:
        if ctx.extra.get(RESOLVED, 0) and self.module.options.get("counterblow_declaration", "before_resolution") == "before_resolution":
            return [illegal("4.0", f"{what} comes after an attack was resolved: every attack and Counterblow is declared before the first is resolved (option counterblow_declaration=any_time allows it)", action)]
        return []

    def check_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if action.order != "counterblow":
            return super().check_special(action, state, ctx)  # type: ignore[misc]
        if ctx.phase != "combat":
            return [illegal("4.0", f"a Counterblow marker is placed in the Combat Phase, not the {ctx.phase or 'no'} phase", action)]
        if action.at is None:
            return [illegal("4.0", "a Counterblow marker is placed on a hex: write it 'Counterblow at HEX'", action)]
        return self._place_marker(action.at, action, state, ctx)

    def _place_marker(self, hex_: int, action, state: State, ctx: TurnContext) -> list[Violation]:
        """Put a Counterblow marker on ``hex_``: from a CB result on one of its attacking units' hexes, else from a
        card spent for a counterblow (5.4); none of them -> illegal."""
        phasing = ctx.phase_side
        results: list[frozenset[int]] = ctx.extra.setdefault(CB_RESULTS, [])
        markers: dict[int, str] = ctx.extra.setdefault(CB_MARKERS, {})
        for k, hexes in enumerate(results):
            if hex_ in hexes:
                del results[k]
                markers[hex_] = "result"
                if self.module.options.get("counterblow_resolution", "any_order") == "immediate":
                    ctx.extra[CB_DUE] = hex_
                return []
        if ctx.extra.get(CB_CARDS, 0):
            ctx.extra[CB_CARDS] -= 1
            sides = {u.side for u in state.units_at(hex_)}
            if not sides:
                return [illegal("5.4", f"the Counterblow marker goes on a hex with units (the hex struck or the unit striking); {self.where(hex_)} is empty", action)]
            markers[hex_] = "card"
            return []
        if hex_ in ctx.extra.get(CB_USED, ()):
            return [illegal("4.0", f"the Counterblow marker on {self.where(hex_)} was already struck: one counterblow a marker, and no CB result or card spent designates another", action)]
        if results:
            where = " or ".join(sorted(self.where(h) for hs in results for h in hs))
            return [illegal("CRT", f"CB: the marker goes on the hex of one of the {phasing} attacking units ({where}), not on {self.where(hex_)}", action)]
        return [illegal("5.4", f"no CB result or card spent designates a Counterblow on {self.where(hex_)} (a card is spent, 5.4, or the CRT gives CB)", action)]

    def counterblow_attack(self, action: Combat, side: str, state: State, ctx: TurnContext) -> list[Violation] | None:
        """The checks of a non-phasing attack that is a counterblow; None if it is not one (no marker, not declared)."""
        markers: dict[int, str] = ctx.extra.setdefault(CB_MARKERS, {})
        declared = "counterblow" in action.declared
        if side == ctx.phase_side:
            return [illegal("4.0", f"a Counterblow is the non-phasing side's attack; the {side} side is phasing", action)] if declared else None
        hexes_from = {state.units[u].at for u in action.attackers}
        marked = action.target if action.target in markers else next((h for h in markers if h in hexes_from and markers[h] == "card"), None)
        found: list[Violation] = []
        if marked is None:
            pending = ctx.extra.get(CB_CARDS, 0) or any(action.target in hexes for hexes in ctx.extra.get(CB_RESULTS, []))
            if not declared and not pending:
                return None  # not a counterblow: a counterattack, or an attack out of turn
            found += self._place_marker(action.target, action, state, ctx)
            if found:
                return found
            marked = action.target
        if markers[marked] == "result" and marked != action.target:
            return [illegal("CRT", f"the CB marker is on {self.where(marked)}: the counterblow strikes that hex, not {self.where(action.target)}", action)]
        del markers[marked]
        ctx.extra.setdefault(CB_USED, set()).add(marked)
        if ctx.extra.get(CB_DUE) == marked:
            ctx.extra[CB_DUE] = None
        return found
