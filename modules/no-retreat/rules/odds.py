"""Odds a claim cannot fake: the range of CRT columns any reading of the missing rule 10 allows.

Rule 10 (odds, rounding, column shifts) is not in the sources, so pbem cannot say which column an attack uses.
It can say which columns no reading reaches. The attack's strength is the sum of the attacking units' printed
strengths, the defence the sum of the defending units' in the target hex (the face each shows). Their ratio
falls between two printed columns (1:3 1:2 1:1 3:2 2:1 3:1 4:1 5:1 6:1): rounding down, to the nearest or up,
whatever the rule, gives one of those two (``rounding``; below 1:3 or above 6:1 the end column). The printed
column shifts then move it at most:

- right (toward the attacker): 2 for an unsupplied defender (6.5.4, TEC), 1 for armour (the TEC's armour
  column), 2 for a Blitz! or Shock! marker (2.3 names them; their effect is in rule 10, so ``supplied`` from a
  public record of play, lparchive.org's No Retreat! Let's Play, part 34: "+2 for Soviet Shock! marker (bonus
  doubled on the first Snow Turn)", so 1 otherwise) = 5;
- left: 2 for the hex's terrain (mountain), 1 for a river or objective hexside, 1 for snow or long winter
  against the Soviets (TEC) = 4.

A claimed ``odds`` (before shifts) outside the rounding range, or a claimed column outside the shifted range, is
a ``mismatch``. Where an event was played this phase or cards are played into the attack (events override
rules, 5.3.2) the bounds are only a warning.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from pbem.model.actions import Combat
from pbem.model.state import State
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, mismatch, warning

if TYPE_CHECKING:
    from .base import NoRetreatBase

MAX_RIGHT = 5  # unsupplied defender 2 + armour 1 + Blitz!/Shock! 2 (doubled on the first snow turn; supplied)
MAX_LEFT = 4  # terrain 2 + hexside 1 + snow/long winter 1


def column_value(column: str) -> Fraction:
    a, _, d = column.partition("/")
    return Fraction(int(a), int(d))


def rounding(attack: int, defence: int, columns: list[str]) -> tuple[int, int]:
    """The lowest and highest column index any rounding of ``attack:defence`` gives (``defence`` > 0).

    >>> rounding(3, 7, ["1/3", "1/2", "1/1", "3/2", "2/1", "3/1", "4/1", "5/1", "6/1"])
    (0, 1)
    >>> rounding(12, 4, ["1/3", "1/2", "1/1", "3/2", "2/1", "3/1", "4/1", "5/1", "6/1"])
    (5, 5)
    """
    ratio = Fraction(attack, defence)
    values = [column_value(c) for c in columns]
    below = [i for i, v in enumerate(values) if v <= ratio]
    above = [i for i, v in enumerate(values) if v >= ratio]
    low = below[-1] if below else 0
    high = above[0] if above else len(values) - 1
    return low, high


def strengths(rules: "NoRetreatBase", action: Combat, side: str, state: State) -> tuple[int, int]:
    """The printed strengths of the attacking units on the map and of the other side's units in the target hex."""
    attack = sum(rules.face(state.units[u])["strength"] for u in action.attackers if state.units[u].on_map)
    defence = sum(rules.face(u)["strength"] for u in state.units_at(action.target) if u.side != side)
    return attack, defence


def reach(low: int, high: int, columns: list[str]) -> tuple[int, int]:
    """The first and last column the printed shifts can reach from the rounding pair ``low``, ``high``."""
    return max(0, low - MAX_LEFT), min(len(columns) - 1, high + MAX_RIGHT)


def odds_claim(rules: "NoRetreatBase", action: Combat, side: str, columns: list[str], state: State, ctx: TurnContext) -> list[Violation]:
    """A mismatch (or, after an event, a warning) for a claimed odds or column no reading of rule 10 gives."""
    attack, defence = strengths(rules, action, side, state)
    if defence <= 0 or attack <= 0:
        return []
    low, high = rounding(attack, defence, columns)
    by_event = ctx.extra.get("events_this_phase", 0) > 0 or bool(action.cards)
    report = warning if by_event else mismatch
    tail = "; an event was played this phase (events override rules, 5.3.2), so this is not judged" if by_event else ""
    found = []
    ratio = f"{attack} against {defence}"
    rounded = columns[low] if low == high else f"{columns[low]} or {columns[high]}"
    if action.odds and action.column and action.odds in columns:
        at = columns.index(action.odds)
        if not low <= at <= high:
            found.append(report("CRT", f"{ratio} rounds to {rounded} whatever the rounding rule, not {action.odds}{tail}", action))
    column = action.column or action.odds
    if column in columns:
        at = columns.index(column)
        first, last = reach(low, high, columns)
        if not first <= at <= last:
            found.append(report("CRT", f"{ratio} rounds to {rounded} and the printed shifts move it at most {MAX_LEFT} columns left and {MAX_RIGHT} right ({columns[first]} to {columns[last]}), so {column} is out of reach{tail}", action))
    return found
