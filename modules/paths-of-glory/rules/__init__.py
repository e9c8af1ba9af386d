"""Paths of Glory (GMT): the game's rules on pbem's kernel, one file per rule area.

``base`` (status, control, nationalities, the sequence of action rounds), ``operations`` (card plays and
activations), ``movement`` (movement and strategic redeployment), ``combat`` (attacks, fire tables, flank
attacks, losses, retreats, advances). What is not checked yet is listed in the README.
"""

from __future__ import annotations

from .base import PathsOfGloryBase
from .combat import CombatRules
from .movement import MovementRules
from .operations import OperationsRules


class PathsOfGloryRules(CombatRules, MovementRules, OperationsRules, PathsOfGloryBase):
    """All of Paths of Glory's checks."""


def build_ruleset(module) -> PathsOfGloryRules:
    return PathsOfGloryRules(module)


__all__ = ["PathsOfGloryRules", "build_ruleset"]
