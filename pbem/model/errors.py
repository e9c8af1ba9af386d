"""The one exception type that reaches a user: a message and where in which file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Source:
    """Where something came from: a file and a line/column, or a JSON pointer, or a VASSAL step."""

    file: str
    line: int | None = None
    column: int | None = None
    pointer: str | None = None

    def __str__(self) -> str:
        text = self.file
        if self.line is not None:
            text += f":{self.line}"
            if self.column is not None:
                text += f":{self.column}"
        if self.pointer:
            text += f" ({self.pointer})" if self.line is not None else f": {self.pointer}"
        return text

    def as_json(self) -> dict:
        out: dict = {"file": self.file, "line": self.line, "column": self.column}
        if self.pointer is not None:
            out["pointer"] = self.pointer
        return out


class PbemError(ValueError):
    """Bad input: a message a player understands and the place it concerns.

    ``str(error)`` is the one line the CLI prints before exiting with code 2.
    """

    def __init__(self, message: str, source: Source | None = None):
        super().__init__(message)
        self.message = message
        self.source = source

    @classmethod
    def at(
        cls,
        file: str | Path,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        pointer: str | None = None,
    ) -> "PbemError":
        return cls(message, Source(str(file), line, column, pointer))

    def __str__(self) -> str:
        return f"{self.source}: {self.message}" if self.source else self.message
