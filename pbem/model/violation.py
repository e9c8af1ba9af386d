"""A broken rule found in a turn: the rulebook's section, how bad, why, and where in the log."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.model.errors import Source

ILLEGAL = "illegal"  # a rule broken
MISMATCH = "mismatch"  # a die roll, odds or result the tables do not give
WARNING = "warning"  # legal but suspicious, or not checked
SEVERITIES = (ILLEGAL, MISMATCH, WARNING)


@dataclass(frozen=True, slots=True)
class Violation:
    rule: str
    severity: str
    message: str
    index: int | None = None
    source: Source | None = None
    # The map location where the broken rule happened, when it is not the action's own place (a retreat
    # into the wrong hex is ringed there, not on the hex attacked). Pictures use it; reports do not.
    at: int | None = None

    def as_json(self) -> dict:
        return {
            "index": self.index,
            "source": self.source.as_json() if self.source else None,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
        }

    def __str__(self) -> str:
        return f"{where(self.source)}: rule {self.rule} [{self.severity}] {self.message}"


def where(source: Source | None) -> str:
    """Where a report line points: ``file:line``, ``file: step 12`` for a VASSAL step, or the file alone."""
    if source and source.line:
        return f"{source.file}:{source.line}"
    if source and source.pointer and not source.pointer.startswith("/"):
        return f"{source.file}: {source.pointer}"  # a VASSAL step
    return source.file if source else "?"
