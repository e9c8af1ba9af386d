"""Regular expressions that come from data (a module's ``vassal.json`` and ``art.json``), run in linear time.

A pattern written by a module's author runs on text an opponent wrote (a chat line, a piece's name). Python's
``re`` backtracks, so a pattern with nested or adjacent quantifiers can take minutes on a 300-character line;
these patterns are compiled by RE2 (``google-re2``), whose matching time is linear in the text whatever the
pattern. RE2 has no backreferences or lookaround: a pattern that uses them is refused when the module is
loaded, with RE2's reason. Its ``\\d``, ``\\w`` and ``\\s`` are ASCII, as the bundled patterns assume.
"""

from __future__ import annotations

from typing import Any

MAX_PATTERN = 2000  # characters: far above any bundled pattern (~150)
_COMPILED: dict[str, Any] = {}


class PatternError(ValueError):
    """A pattern RE2 cannot run: its message says why."""


def compile_pattern(pattern: str) -> Any:
    """``pattern`` compiled by RE2 (``match``, ``search``, ``fullmatch``, ``groupindex`` as with ``re``)."""
    compiled = _COMPILED.get(pattern)
    if compiled is not None:
        return compiled
    if not isinstance(pattern, str) or len(pattern) > MAX_PATTERN:
        raise PatternError(f"a pattern is text of at most {MAX_PATTERN} characters")
    import re2  # only where a module's patterns are used: ~5 ms

    options = re2.Options()
    options.log_errors = False  # RE2 would print its own lines on standard error
    try:
        compiled = re2.compile(pattern, options=options)
    except Exception as error:  # noqa: BLE001 - re2 raises its own error type, with bytes for a message
        reason = error.args[0] if error.args else error
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise PatternError(f"not a regular expression pbem can run in linear time: {reason}") from None
    if len(_COMPILED) > 1000:
        _COMPILED.clear()
    _COMPILED[pattern] = compiled
    return compiled


def match(pattern: str, text: str) -> Any:
    """``re.match`` with RE2: the match at the start of ``text``, or None."""
    return compile_pattern(pattern).match(text)
