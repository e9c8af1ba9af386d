"""WWII Campaign / Crusader: who moves first (W-Init/1, 先后手判定节).

The general rule: 资源补给阶段获得资源点更少的一方先手,若一样则获得指挥点更多的一方先手,若还是一样则单位数量更少的一方
先手,如果依旧一样则剩余指挥点更多的一方先手(要是还一样就抛硬币或者石头剪刀布决定). The Crusader scenario replaces it:
双方的先后手由轴心国一方的玩家决定 (option ``initiative``: ``rule`` for free play, ``axis_chooses`` in the Crusader
scenario: nothing to check).

The first player is the side of the first player segment (``move_1`` …) that follows the initiative segment, in the
same file or the next (the open segment is kept in ``status.this_turn.initiative_open`` of the state written between
them); it becomes the state's ``first_side``. What each side gained in the resource phase is kept in
``status.this_turn.gained`` (from the RP rolls); without both sides' gains the order is "not checked".
"""

from __future__ import annotations

from pbem.model.actions import Phase
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal

from .base import PLAYER_SEGMENTS
from .cards import CardRules


class InitiativeRules(CardRules):
    """W-Init/1: the order of the two players' segments."""

    def after_roll(self, action, state: State, ctx: TurnContext) -> list[Violation]:
        side = action.side or ctx.active_side
        before = dict(state.status.get("rp", {})), dict(state.status.get("cp", {}))
        found = super().after_roll(action, state, ctx)
        after = state.status.get("rp", {}), state.status.get("cp", {})
        if side in self.module.sides and after[0].get(side, 0) != before[0].get(side, 0):
            gained = self.record(state).setdefault("gained", {})
            gained[side] = {"rp": after[0].get(side, 0) - before[0].get(side, 0), "cp": after[1].get(side, 0) - before[1].get(side, 0)}
        return found

    def initiative_rule(self, state: State) -> str:
        return state.options.get("initiative", self.module.options.get("initiative", "rule"))

    def first_by_rule(self, state: State) -> tuple[str | None, str]:
        """The side the general rule puts first, and on what it was decided (None: a tie, the players decide)."""
        gained = self.record(state).get("gained", {})
        sides = list(self.module.sides)
        on_map = {s: sum(1 for u in state.units.values() if u.side == s and u.on_map) for s in sides}
        left = {s: state.status.get("cp", {}).get(s, 0) for s in sides}
        tests = (("fewer RP gained (获得资源点更少的一方先手)", {s: -gained[s]["rp"] for s in sides}),
                 ("more CP gained (获得指挥点更多的一方先手)", {s: gained[s]["cp"] for s in sides}),
                 ("fewer units (单位数量更少的一方先手)", {s: -on_map[s] for s in sides}),
                 ("more CP left (剩余指挥点更多的一方先手)", left))
        for why, score in tests:
            best = max(score.values())
            winners = [s for s in sides if score[s] == best]
            if len(winners) == 1:
                return winners[0], why
        return None, "a tie on every test: a coin or rock-paper-scissors decides (抛硬币或者石头剪刀布决定)"

    def check_phase(self, action: Phase, state: State, ctx: TurnContext) -> list[Violation]:
        found: list[Violation] = []
        if action.name == "initiative":
            self.record(state)["initiative_open"] = True  # in the state: the first segment may be the next file's
        elif action.name in PLAYER_SEGMENTS and self.record(state).pop("initiative_open", False):
            side = action.side or ctx.active_side
            found += self._judge_first(action, side, state, ctx)
            state.first_side = side  # the first player of this turn, as the file shows it
        return found + super().check_phase(action, state, ctx)

    def _judge_first(self, action: Phase, side: str, state: State, ctx: TurnContext) -> list[Violation]:
        if self.initiative_rule(state) == "axis_chooses":
            return []  # 双方的先后手由轴心国一方的玩家决定
        gained = self.record(state).get("gained", {})
        if not all(s in gained for s in self.module.sides):
            return self.not_checked("W-Init/1", "who moves first (both sides' RP rolls of this turn are not in the record)", action, ctx,
                                    why="the resource phase's gains decide it")
        first, why = self.first_by_rule(state)
        if first is not None and first != side:
            return [illegal("W-Init/1", f"{first} moves first this turn ({why}), not {side}", action)]
        return []
