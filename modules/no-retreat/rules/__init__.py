"""No Retreat! The Russian Front (GMT 2011): the game's rules on pbem's kernel, one file per rule area.

``base`` (sequence of play, status, units' faces, ZOC), ``cards`` (5.0-5.5), ``supply`` (6.1-6.4),
``organization`` (7.0-7.6),
``movement`` (by the terrain effects chart), ``combat`` (by each side's CRT). What the sources do not give
is listed in each file's docstring and in the module's README, and is not checked.
"""

from __future__ import annotations

from .base import NoRetreatBase
from .cards import CardRules
from .combat import CombatRules
from .movement import MovementRules
from .organization import OrganizationRules
from .supply import SupplyRules


class NoRetreatRules(SupplyRules, OrganizationRules, CardRules, MovementRules, CombatRules, NoRetreatBase):
    """All of No Retreat!'s checks."""


def build_ruleset(module) -> NoRetreatRules:
    return NoRetreatRules(module)


__all__ = ["NoRetreatRules", "build_ruleset"]
