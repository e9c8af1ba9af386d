"""The one exception type that reaches a user: a message and where in which file."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

#: Finds (line, column) of a JSON pointer in a file's text, or None where it cannot.
Locate = Callable[[str], "tuple[int, int] | None"]


@dataclass(frozen=True, slots=True)
class Source:
    """Where something came from: a file and a line/column, or a JSON pointer, or a VASSAL step.

    A source made by :meth:`found_later` works out its line and column the first time either is read:
    every action of a turn has a source, but only those a report names need their place in the text.
    """

    file: str
    line: int | None = None
    column: int | None = None
    pointer: str | None = None
    _locate: Locate | None = field(default=None, kw_only=True, repr=False, compare=False)

    @classmethod
    def found_later(cls, file: str, pointer: str, locate: Locate) -> "Source":
        """The source of the value at ``pointer``, its line and column left unset until asked for."""
        source = object.__new__(cls)
        # Through the slots themselves: every action of a turn gets one, and object.__setattr__ looking each
        # name up took half the time of making it.
        _SET_FILE(source, file)
        _SET_POINTER(source, pointer)
        _SET_LOCATE(source, locate)
        return source

    def __getattr__(self, name: str):
        # Called only for a slot never set: the line and column of a source made by ``found_later``.
        if name not in ("line", "column"):
            raise AttributeError(name)
        position = object.__getattribute__(self, "_locate")(self.pointer)
        line, column = position if position is not None else (None, None)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "_locate", None)  # the text it read is no longer held
        return line if name == "line" else column

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


_SET_FILE = Source.__dict__["file"].__set__
_SET_POINTER = Source.__dict__["pointer"].__set__
_SET_LOCATE = Source.__dict__["_locate"].__set__


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


class ServiceError(PbemError):
    """A service pbem needs cannot be had (an archive server down, a login refused): one line, exit 3.

    Not the input's fault, and not a verdict; the message never holds a password.
    """

    exit_code = 3


class OwnOutputError(Exception):
    """pbem produced a file it would itself refuse to read: a bug in pbem (exit 3), never the input's fault.

    ``pointer`` names the key of the written document that is wrong, so the bug report says where.
    """

    def __init__(self, what: str, pointer: str, message: str):
        super().__init__(f"{what} at {pointer or '/'}: {message}")
        self.what = what
        self.pointer = pointer
        self.message = message
