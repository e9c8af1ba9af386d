"""WWII Wargame, Campaign Edition 1.0 with its Crusader scenario: the game's rules on pbem's kernel.

``base`` (segments, status, states, stamina, ZOC, stacking), ``movement`` (MP, extra MP, rounds),
``combat`` (declaration, odds, shifts, results, retreats), ``resources`` (RP/CP, recruiting, replenishment), ``cards`` (command cards), ``initiative`` (who moves first), ``deployment`` (turn 1's initial deployment),
``tables`` (the tables in force: the module's supplied ones or a group's own file). The source has no
numbered sections: rules are the digest's W-§ ids (README).
"""

from __future__ import annotations

from .combat import CombatRules
from .deployment import DeploymentRules
from .movement import MovementRules


class CrusaderRules(DeploymentRules, MovementRules, CombatRules):
    """All of the Crusader checks built so far."""


def build_ruleset(module, tables_file=None) -> CrusaderRules:
    """The ruleset; ``tables_file`` (else ``PBEM_TABLES``) is a group's own tables file over the module's."""
    return CrusaderRules(module, tables_file)


__all__ = ["CrusaderRules", "build_ruleset"]
