"""Line of sight on hex grids: the hexes between two hexes, and whether anything in them blocks the view.

The line is :func:`pbem.model.hexgrid.line` (nudged so ties break the same way every time); only the hexes
strictly between the two ends can block. What blocks is the game's business: a callable on locations.
"""

from __future__ import annotations

from typing import Callable

from pbem.model.hexgrid import line
from pbem.model.maps import HexMap


def between(game_map: HexMap, a: int, b: int) -> list[int]:
    """Locations strictly between ``a`` and ``b`` on the straight line joining them (off-map hexes skipped)."""
    hexes = line(game_map.hexes[a], game_map.hexes[b])[1:-1]
    found = (game_map.at_hex(h) for h in hexes)
    return [i for i in found if i is not None]


def blocked_by(game_map: HexMap, a: int, b: int, blocks: Callable[[int], bool]) -> int | None:
    """The first location between ``a`` and ``b`` that ``blocks``, or ``None`` when the line is clear."""
    for location in between(game_map, a, b):
        if blocks(location):
            return location
    return None


def clear(game_map: HexMap, a: int, b: int, blocks: Callable[[int], bool]) -> bool:
    return blocked_by(game_map, a, b, blocks) is None
