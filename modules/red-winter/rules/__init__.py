"""Red Winter (GMT 2012): the game's rules on pbem's kernel, one file per rule area.

``base`` (units, ZOC, terrain, phases, movement, reinforcements, combat, assault, losses, retreat, advance),
``fire`` (ranged and anti-tank fire), ``special`` (dig-in, bonfire, recovery, night raid, X28 event,
replacements), ``supply`` (supply lines), ``subzero`` (the Sub-Zero Loss Phase), ``returns`` (the dead pool and rebuilt
companies, the 354th's return from the turn track, Prov/TF-P). Rule numbers in violations: see ``base.RULE_NUMBERS``.
"""

from __future__ import annotations

from .base import RedWinterBase, rule_number
from .fire import FireRules
from .returns import ReturnRules
from .special import SpecialRules
from .subzero import SubZeroRules
from .supply import SupplyRules


class RedWinterRules(ReturnRules, SubZeroRules, FireRules, SpecialRules, SupplyRules, RedWinterBase):
    """All of Red Winter's checks."""


def build_ruleset(module) -> RedWinterRules:
    return RedWinterRules(module)


__all__ = ["RedWinterRules", "build_ruleset", "rule_number"]
