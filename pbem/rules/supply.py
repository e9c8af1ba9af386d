"""Supply lines and other traced paths: breadth-first reach over a map's locations.

Which locations a line may enter, and how far it may run, is the game's business (callables and limits the
module passes in); this only walks the map.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from pbem.model.maps import GameMap
from pbem.rules.movement import costs_from


def reach(
    game_map: GameMap,
    starts: Iterable[int],
    passable: Callable[[int], bool],
    *,
    limit: int | None = None,
    step: Callable[[int, int], bool] = lambda a, b: True,
) -> dict[int, int]:
    """Every location a line from ``starts`` reaches through ``passable`` locations, with its length in steps.

    The starts themselves are reached at 0 (whether passable or not); ``limit`` caps the length and ``step``
    may refuse a connection (a line that must follow roads, say).
    """
    found: dict[int, int] = {}
    queue: deque[int] = deque()
    for s in starts:
        if s not in found:
            found[s] = 0
            queue.append(s)
    while queue:
        here = queue.popleft()
        if limit is not None and found[here] >= limit:
            continue
        for there in game_map.neighbours[here]:
            if there not in found and passable(there) and step(here, there):
                found[there] = found[here] + 1
                queue.append(there)
    return found


def spread(lines: list[tuple[int, ...]], starts: Iterable[int], passable: list[bool]) -> set[int]:
    """Every location joined to ``starts`` through ``passable`` locations, over ``lines`` (each location's usable
    neighbours, worked out once by the caller): ``reach`` without lengths or callables, for lines traced many
    times a turn. The starts are included whether passable or not."""
    found = set(starts)
    return _spread_from(lines, found, list(found), passable)


def grow(lines: list[tuple[int, ...]], found: set[int], starts: Iterable[int], passable: list[bool]) -> set[int]:
    """``found`` (what ``spread`` found) with every location joined to ``starts`` through ``passable`` locations
    not in it, as a new set: when locations became passable, ``spread`` again from the same starts gives the same
    as growing from those of them that touch ``found`` (for symmetric lines), without walking ``found`` again."""
    found = set(found)
    todo = [s for s in starts if s not in found]
    found.update(todo)
    return _spread_from(lines, found, todo, passable)


def _spread_from(lines: list[tuple[int, ...]], found: set[int], todo: list[int], passable: list[bool]) -> set[int]:
    """``found`` with every location joined to those in ``todo`` (already in it) through ``passable`` locations."""
    add, push, pop = found.add, todo.append, todo.pop
    while todo:
        for there in lines[pop()]:
            if passable[there] and there not in found:
                add(there)
                push(there)
    return found


def components(lines: list[tuple[int, ...]], passable: list[bool]) -> list[int]:
    """Each location's stretch of ``passable`` locations joined over ``lines``, named by its lowest location;
    -1 for a location not passable."""
    found = [-1] * len(passable)
    for start in range(len(passable)):
        if passable[start] and found[start] < 0:
            found[start] = start
            todo = [start]
            while todo:
                for there in lines[todo.pop()]:
                    if passable[there] and found[there] < 0:
                        found[there] = start
                        todo.append(there)
    return found


def connected(game_map: GameMap, a: int, b: int, passable: Callable[[int], bool], *, limit: int | None = None) -> bool:
    """Whether a line of at most ``limit`` steps joins ``a`` to ``b`` through passable locations (``b`` included)."""
    return b in reach(game_map, [a], passable, limit=limit)


def cheapest(
    game_map: GameMap, start: int, cost: Callable[[int, int], float | None], *, goal: int | None = None
) -> dict[int, float]:
    """Least total cost from ``start`` to every location (Dijkstra); ``cost(a, b)`` is None where b may not be
    entered from a. Stops early once ``goal`` is settled."""
    return costs_from(game_map, start, cost, goal=goal)[0]
