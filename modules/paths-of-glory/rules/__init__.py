"""Paths of Glory (GMT): the game's rules on pbem's kernel, one file per rule area.

``base`` (status, control, nationalities, the sequence of action rounds), ``operations`` (card plays and
activations), ``movement`` (movement and strategic redeployment), ``combat`` (attacks, fire tables, flank
attacks, losses, retreats, advances), ``rolls`` (mandated offensive, siege, entrenchment), ``reserve`` (reinforcements, the Reserve
Box, replacement points), ``fronts`` (besieging forts, London, the Caucasus link, Near East SR quotas), ``warstatus`` (mandated
offensives carried out, commitment levels, automatic victory), ``supply`` (supply lines, the Attrition phase), ``greece`` (limited Greek entry and the Salonika event). What is not checked yet is listed in the README.
"""

from __future__ import annotations

from .base import PathsOfGloryBase
from .combat import CombatRules
from .fronts import FrontRules
from .greece import GreeceRules
from .srstacking import SrStackingRules
from .trenchroll import TrenchRollRules
from .movement import MovementRules
from .operations import OperationsRules
from .reserve import ReserveRules
from .rolls import RollRules
from .supply import SupplyRules
from .warstatus import WarStatusRules


class PathsOfGloryRules(GreeceRules, SrStackingRules, TrenchRollRules, WarStatusRules, SupplyRules, FrontRules, ReserveRules, RollRules, CombatRules, MovementRules, OperationsRules, PathsOfGloryBase):
    """All of Paths of Glory's checks."""


def build_ruleset(module) -> PathsOfGloryRules:
    return PathsOfGloryRules(module)


__all__ = ["PathsOfGloryRules", "build_ruleset"]
