"""A value of a turn as the player wrote it, and where."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class At:
    """A value as written, and where: resolved (units, locations, sides) when the module is known."""

    value: Any
    line: int
    column: int
    kind: str = "text"  # text | unit | location | side | box
