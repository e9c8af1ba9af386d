"""Counters: a counter type's printed values on each face, and the individual units of a module."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Step:
    """One face of a counter: the values printed on it.

    ``loss`` is a loss factor, for games where a step absorbs a printed number of losses (point-to-point
    card games print combat, loss and movement factors); ``None`` where the counter prints none.
    """

    attack: int
    defence: int
    move: int
    loss: int | None = None

    def printed(self) -> str:
        """The values as players quote them: ``6-6-9``, or combat-loss-movement (``3-3-3``) where a loss factor is printed."""
        return f"{self.attack}-{self.defence if self.loss is None else self.loss}-{self.move}"


@dataclass(frozen=True)
class CounterType:
    """A kind of counter (e.g. a Soviet 1st-line tank division), its faces strongest first."""

    id: str
    name: str
    side: str
    nationality: str
    arm: str
    size: str
    quality: int | None
    mechanized: bool
    steps: tuple[Step, ...]
    retreats: bool = True
    attributes: dict[str, Any] = field(default_factory=dict)

    @property
    def one_step(self) -> bool:
        return len(self.steps) == 1


@dataclass(frozen=True)
class UnitDef:
    """One counter of the order of battle."""

    id: str
    type: CounterType
    name: str = ""
    aliases: tuple[str, ...] = ()

    @property
    def side(self) -> str:
        return self.type.side

    def display(self) -> str:
        return self.name or self.id
