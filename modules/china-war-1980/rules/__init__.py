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
        found = self.check_any(action, state, ctx)
        kind = action.kind
        if kind == "move" or kind == "overrun":
            extra, units = ctx.extra, state.units
            starts = _kept(extra, "phase_start")
            together = _kept(extra, "moved_with")
            if kind == "move":
                # The moves a unit made, as one interned id (equal ids: the same moves), not a growing
                # tuple: copying a tuple per move made a long turn quadratic.
                sequences = _kept(extra, "move_sequences")
                for unit_id in action.units:  # type: ignore[attr-defined]
                    starts.setdefault(unit_id, units[unit_id].at)
                    together[unit_id] = sequences.setdefault((together.get(unit_id, 0), action.index), len(sequences) + 1)
            else:
                for unit_id in action.attackers:  # type: ignore[attr-defined]
                    starts.setdefault(unit_id, units[unit_id].at)
        return found + super().check(action, state, ctx)


def _kept(extra: dict, key: str) -> dict:
    """``extra.setdefault(key, {})`` without making an empty dict per call (three per move)."""
    found = extra.get(key)
    if found is None:
        found = extra[key] = {}
    return found


def build_ruleset(module) -> ChinaWarRules:
    return ChinaWarRules(module)


__all__ = ["Assessment", "ChinaWarRules", "build_ruleset"]
