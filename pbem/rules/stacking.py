"""Shared stacking mechanics: how much stands in a location against its limit."""

from __future__ import annotations

from typing import Callable

from pbem.model.state import State, UnitState


def stack_weight(state: State, location: int, weight: Callable[[UnitState], int]) -> int:
    return sum(map(weight, map(state.units.__getitem__, state.stacks.get(location, ()))))


def over_limit(
    state: State, locations: set[int], weight: Callable[[UnitState], int], limit: Callable[[int], int]
) -> list[tuple[int, int, int]]:
    """``(location, weight, limit)`` for each of ``locations`` holding more than its limit."""
    found = []
    units, stacks = state.units.__getitem__, state.stacks
    for location in sorted(locations):
        total = sum(map(weight, map(units, stacks.get(location, ()))))  # stack_weight's, without a call per location
        if total > limit(location):
            found.append((location, total, limit(location)))
    return found
