"""Zones of control: which locations a side's units project a ZOC into, and who is in an enemy ZOC.

Games differ on who exerts a ZOC and whom it binds, so both are callables the module passes in; the
default ZOC covers the six adjacent locations (and, as most games have it, the unit's own location).
"""

from __future__ import annotations

from typing import Callable

from pbem.model.maps import GameMap
from pbem.model.state import State, UnitState


def zoc_locations(
    state: State, game_map: GameMap, side: str, exerts: Callable[[UnitState], bool] = lambda u: True, *, own: bool = True
) -> set[int]:
    """Every location in the ZOC of ``side``'s on-map units that ``exerts`` accepts."""
    found: set[int] = set()
    for unit in state.units.values():
        if unit.side != side or not unit.on_map or not exerts(unit):
            continue
        if own:
            found.add(unit.at)
        found.update(game_map.neighbours[unit.at])
    return found


def in_zoc(state: State, game_map: GameMap, location: int, side: str, exerts: Callable[[UnitState], bool] = lambda u: True) -> bool:
    """Whether ``location`` lies in a ZOC of ``side`` (a unit of ``side`` in or next to it that exerts one)."""
    for here in (location, *game_map.neighbours[location]):
        if any(u.side == side and exerts(u) for u in state.units_at(here)):
            return True
    return False
