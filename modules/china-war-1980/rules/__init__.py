"""The China War (SPI 1979): the game's rules on pbem's kernel, one file per rule area.

Rule numbers in violations are the rulebook's "cases". What the source lacks (supply lines 11.x,
reinforcement schedules 12.0/17.3, air and nuclear limits 13.x, reorganisation 14.0) is reported, never guessed.
"""

from __future__ import annotations

from pbem.model.violation import Violation

from .base import ChinaWarBase
from .combat import Assessment
from .movement import MovementRules
from .overrun import OverrunRules
from .politics import PoliticsRules
from .sequence import SequenceRules


class ChinaWarRules(SequenceRules, MovementRules, OverrunRules, PoliticsRules, ChinaWarBase):
    def check(self, action, state, ctx) -> list[Violation]:
        # Most actions are moves in a phase: ``check_any`` (which has nothing to say once a phase is under way) is
        # asked only before the first phase, and a move goes straight to ``check_move``. The generic plumbing per
        # action (empty lists made and joined, the kernel's lookup of the check) cost more than the move's own check.
        found = self.check_any(action, state, ctx) if ctx.phase is None else None
        kind = action.kind
        if kind == "move":
            extra, units = ctx.extra, state.units
            starts, together = extra["phase_start"], extra["moved_with"]
            # The moves a unit made, as one interned id (equal ids: the same moves), not a growing
            # tuple: copying a tuple per move made a long turn quadratic.
            sequences = extra["move_sequences"]
            for unit_id in action.units:  # type: ignore[attr-defined]
                starts.setdefault(unit_id, units[unit_id].at)
                together[unit_id] = sequences.setdefault((together.get(unit_id, 0), action.index), len(sequences) + 1)
            checked = self.check_move(action, state, ctx)  # a list of its own, never kept by the check
            return found + checked if found else checked
        if kind == "overrun":
            starts, units = ctx.extra["phase_start"], state.units
            for unit_id in action.attackers:  # type: ignore[attr-defined]
                starts.setdefault(unit_id, units[unit_id].at)
        return (found or []) + super().check(action, state, ctx)

    def after(self, action, state, ctx) -> list[Violation]:
        # A move straight to ``after_move``, as ``check`` does: the kernel's lookup is for the other kinds.
        if action.kind == "move":
            return self.after_move(action, state, ctx)
        return super().after(action, state, ctx)


def build_ruleset(module) -> ChinaWarRules:
    return ChinaWarRules(module)


__all__ = ["Assessment", "ChinaWarRules", "build_ruleset"]
