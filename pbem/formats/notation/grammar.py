"""The notation's lark grammar (``notation.lark``), one line at a time, and its failures as hints."""


from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from lark import Lark, Tree
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
)


@cache
def parser() -> Lark:
    """The notation grammar (``notation.lark``), built once per process."""
    grammar = resources.files("pbem.formats.notation").joinpath("notation.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="earley", lexer="dynamic", start=["line", "continuation"])


@cache
def _terminal(name: str) -> re.Pattern[str]:
    for terminal in parser().terminals:
        if terminal.name == name:
            return re.compile(terminal.pattern.to_regexp())
    raise KeyError(name)


_EXPECTED = {
    "WORD": "a unit",
    "LOCWORD": "a hex or space",
    "PWORD": "a phase name",
    "PURPOSE_WORD": "what the roll is for",
    "CARD_WORD": "a card",
    "STRING": '"quoted text"',
    "VALUE": "a value",
    "TEXT": "text",
    "RATIO": "odds such as 3:1",
    "RESULT_CODE": "a result such as 1/1",
    "INT": "a number",
    "SIGNED": "a shift such as +1 or -2",
    "DICE": "dice such as 1d6",
    "ARROW": "'-' or '>' between locations",
    "USEP": "'+' or ',' between units",
    "COLON": "':'",
    "EQUAL": "'='",
    "LPAR": "'('",
    "RPAR": "')'",
    "RSQB": "']'",
    "COMMA": "','",
    "PLUS": "'+'",
    "EQS": "'=='",
    "MODE": "land, rail, air, sea or strategic",
    "ORDER": "a special order such as dig in",
    "FIRE": "fires",
    "HEADER_KEY": None,
    "TEXT_KEY": None,
    "COMMENT": None,
}


def _describe_expected(names: set[str]) -> str:
    words = []
    for name in sorted(names):
        text = _EXPECTED.get(name, name.lower().replace("_", " "))
        if text and text not in words:
            words.append(text)
    if len(words) > 7:
        words = words[:7] + ["…"]
    return ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1] if words else "the end of the line"


@dataclass
class _Failure:
    column: int  # from 1
    message: str
    expected: frozenset[str] = frozenset()


def _failure(error: UnexpectedInput, text: str) -> _Failure:
    if isinstance(error, UnexpectedEOF):
        names = frozenset(error.expected or ())
        return _Failure(len(text) + 1, f"the line ends too early: expected {_describe_expected(set(names))}{_hint(names)}", names)
    if isinstance(error, UnexpectedCharacters):
        column = error.column if isinstance(error.column, int) and error.column > 0 else 1
        found = re.match(r"\S{1,20}", text[column - 1 :])
        what = f"{found.group()!r}" if found else "this"
        names = frozenset(error.allowed or ())
        return _Failure(column, f"cannot read {what} here: expected {_describe_expected(set(names))}{_hint(names)}", names)
    return _Failure(1, "cannot read this line")


def _hint(expected: frozenset[str]) -> str:
    if {"COLON", "MOVES"} <= expected:
        return " (a move is written UNITS: HEX-HEX-…)"
    if "ARROW" in expected and "LOCWORD" in expected:
        return " (separate locations with '-' or '>')"
    return ""


# The words that start a clause of an attack: a line starting with one continues the attack above it.
_CLAUSE_START = re.compile(
    r"\s*(?:attacker|defender|losses|retreats?|advances?|eliminated|destroyed|negated|rolls?|rolled|dr|die|vs|against|support"
    r"|declares?|shifts?|col|column|odds|at|results?|res|spotter|spotted|flank|cards?|=|\(|\d+\s*[:/-]\s*\d+)(?:\b|\s|$)",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)  # a line repeated is parsed once: the trees are only read, never changed
def _parse(text: str, start: str) -> Tree | _Failure:
    try:
        return parser().parse(text, start=start)
    except UnexpectedInput as error:
        return _failure(error, text)
    except LarkError:  # anything else the parser refuses is still the player's line, not our crash
        return _Failure(1, "cannot read this line")
