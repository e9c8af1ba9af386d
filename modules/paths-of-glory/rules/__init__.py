"""Paths of Glory (GMT): the game's rules on pbem's kernel, one file per rule area.

``base`` (status, control, nationalities, the sequence of action rounds), ``operations`` (card plays and
activations), ``movement`` (movement and strategic redeployment), ``combat`` (attacks, fire tables, flank
attacks, losses, retreats, advances), ``rolls`` (mandated offensive, siege, entrenchment), ``reserve`` (reinforcements, the Reserve
Box, replacement points), ``fronts`` (besieging forts, London, the Caucasus link, Near East SR quotas), ``warstatus`` (mandated
offensives carried out, commitment levels, automatic victory), ``supply`` (supply lines, the Attrition phase), ``cards`` (the card piles: deal, draw, reshuffle, new decks, combat cards in play),
``events`` (event effects that later checks see), ``control`` (control
changing hands in the Attrition phase and at a retreat's end), ``rebuild`` (eliminated units rebuilt with RP), ``advance``
(advances beyond the attacked space, Withdrawal), ``entrench`` (one attempt a space a round),
``greece`` (limited Greek entry and the Salonika event), ``explain`` (an attack's working for ``--explain``), ``picks`` (counters named by their kind), ``entry`` (a neutral nation's set-up placed by itself), ``historical`` (the historical scenario's bans, LR2022 5.7). What is not checked yet is listed in the README.
"""

from __future__ import annotations

from .advance import AdvanceRules
from .base import PathsOfGloryBase
from .cards import CardPileRules
from .combat import CombatRules
from .control import ControlRules
from .entrench import EntrenchRules
from .entry import EntryRules
from .events import EntrenchEventRules, EventRules
from .explain import ExplainRules
from .fronts import FrontRules
from .greece import GreeceRules
from .historical import HistoricalRules
from .srstacking import SrStackingRules
from .movement import MovementRules
from .picks import PickRules
from .operations import OperationsRules
from .rebuild import RebuildRules
from .reserve import ReserveRules
from .rolls import RollRules
from .supply import SupplyRules
from .warstatus import WarStatusRules


class PathsOfGloryRules(HistoricalRules, PickRules, CardPileRules, EntrenchEventRules, EventRules, ControlRules, RebuildRules, AdvanceRules, EntrenchRules, GreeceRules, SrStackingRules, WarStatusRules, SupplyRules, FrontRules, EntryRules, ReserveRules, RollRules, ExplainRules, CombatRules, MovementRules, OperationsRules, PathsOfGloryBase):
    """All of Paths of Glory's checks."""


def build_ruleset(module) -> PathsOfGloryRules:
    return PathsOfGloryRules(module)


__all__ = ["PathsOfGloryRules", "build_ruleset"]
