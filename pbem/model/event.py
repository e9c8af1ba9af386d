"""A random event of a turn: dice rolled, and what they gave, for every report and picture to show.

A turn's dice decide things the turn file only names by a code or not at all: a China War political roll gives
event ``G`` (NATO declares neutrality), a siege roll destroys a fort. The engine makes one :class:`Event` for
every action that rolls dice; the module's rules add what the roll did in their own words
(:meth:`pbem.rules.ruleset.TurnContext.outcome`), else the event shows the result the player wrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pbem.model.errors import Source


@dataclass(frozen=True, slots=True)
class Event:
    what: str  # what was rolled for, ending where the dice follow: "political roll", "attack on 3005, roll"
    values: tuple[int, ...]  # the dice as rolled, in the order written
    result: str | None = None  # the result: as the module works it out, else as the player wrote it
    outcome: str = ""  # what it did, in the module's words ("NATO declares neutrality")
    rule: str = ""  # the rulebook's section for the outcome, if the module names one
    index: int | None = None
    source: Source | None = None
    kind: str = "roll"  # the kind of action that rolled: roll, attack, overrun, fire, special

    def text(self) -> str:
        """``political roll 1+4 = G (rule 5.2): NATO declares neutrality``, ``attack on 3005, roll 4 = 1/1``."""
        text = f"{self.what} {'+'.join(str(v) for v in self.values)}".rstrip()
        if self.result:
            text += f" = {self.result}"
        if self.rule:
            text += f" (rule {self.rule})"
        if self.outcome:
            text += f": {self.outcome}"
        return text

    def as_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "source": self.source.as_json() if self.source else None,
            "kind": self.kind,
            "what": self.what,
            "values": list(self.values),
            "result": self.result,
            "outcome": self.outcome,
            "rule": self.rule,
        }

    def __str__(self) -> str:
        from pbem.model.violation import where

        return f"{where(self.source)}: [roll] {self.text()}"
