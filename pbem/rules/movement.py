"""Shared movement mechanics: walking a written path, and the cheapest path within a budget."""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Callable

from pbem.model.maps import GameMap

#: cost(from, to) of entering ``to`` from the adjacent ``from``; ``None`` means it may not be entered.
StepCost = Callable[[int, int], int | None]


@dataclass(slots=True)
class PathWalk:
    """The outcome of walking a written path step by step."""

    costs: list[int]  # cost of each step taken (one per location entered)
    total: int
    broken_at: int | None = None  # index in the path of the first location not adjacent to the previous
    blocked_at: int | None = None  # index of the first location the cost function refused

    @property
    def ok(self) -> bool:
        return self.broken_at is None and self.blocked_at is None


def walk(game_map: GameMap, path: tuple[int, ...], cost: StepCost) -> PathWalk:
    """Cost of each step of ``path`` (which starts where the unit stands); stops at the first bad step."""
    costs: list[int] = []
    total = 0
    adjacent = game_map.is_adjacent
    for k in range(1, len(path)):
        a, b = path[k - 1], path[k]
        if not adjacent(a, b):
            return PathWalk(costs, total, broken_at=k)
        c = cost(a, b)
        if c is None:
            return PathWalk(costs, total, blocked_at=k)
        costs.append(c)
        total += c
    return PathWalk(costs, total)


def walk_table(path: tuple[int, ...], table: list[dict[int, int | None]]) -> PathWalk:
    """:func:`walk` with the costs read from a table made once per module: ``table[a]`` maps each location
    adjacent to ``a`` to the cost of entering it from ``a`` (``None``: it may not be entered). The same
    outcome as ``walk`` with ``lambda a, b: table[a][b]``, at a fraction of the cost per step."""
    costs: list[int] = []
    total = 0
    here = path[0] if path else None
    for k in range(1, len(path)):
        there = path[k]
        c = table[here].get(there, _NOT_ADJACENT)  # type: ignore[index]
        if c is _NOT_ADJACENT:
            return PathWalk(costs, total, broken_at=k)
        if c is None:
            return PathWalk(costs, total, blocked_at=k)
        costs.append(c)
        total += c
        here = there
    return PathWalk(costs, total)


_NOT_ADJACENT = object()


def costs_from(
    game_map: GameMap, start: int, cost: StepCost, *, budget: float | None = None, goal: int | None = None
) -> tuple[dict[int, float], dict[int, int]]:
    """Least total cost from ``start`` to each location within ``budget`` (Dijkstra), and the step each was
    reached from; stops once ``goal`` is settled. ``cost(a, b)`` is None where ``b`` may not be entered from ``a``."""
    best: dict[int, float] = {start: 0}
    came: dict[int, int] = {}
    done: set[int] = set()
    queue: list[tuple[float, int]] = [(0, start)]
    while queue:
        spent, here = heapq.heappop(queue)
        if here in done:
            continue
        done.add(here)
        if here == goal:
            break
        for nxt in game_map.neighbours[here]:
            c = cost(here, nxt)
            if c is None:
                continue
            total = spent + c
            if (budget is None or total <= budget) and total < best.get(nxt, float("inf")):
                best[nxt] = total
                came[nxt] = here
                heapq.heappush(queue, (total, nxt))
    return best, came


def cheapest_path(game_map: GameMap, start: int, goal: int, budget: int, cost: StepCost) -> list[int] | None:
    """The cheapest path from ``start`` to ``goal`` costing at most ``budget``, or None."""
    best, came = costs_from(game_map, start, cost, budget=budget, goal=goal)
    if goal not in best:
        return None
    path = [goal]
    while path[-1] != start:
        path.append(came[path[-1]])
    return path[::-1]
