"""Text from a received archive or game, made safe to store, print and embed.

Titles, player names, results and file names come from other people. Printed raw, an escape sequence
in a title would drive the reader's terminal; a lone surrogate (``"\\ud800"``, which JSON can carry but
UTF-8 cannot) would crash the encoder. So what goes in is checked (:func:`check_text`), what comes out
is escaped visibly (:func:`printable`, :func:`json_text`).
"""

from __future__ import annotations

import json
import re
from typing import Any

from pbem.model.errors import PbemError

_SURROGATE = re.compile("[\ud800-\udfff]")


def has_surrogate(text: str) -> bool:
    return _SURROGATE.search(text) is not None


def without_surrogates(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD, for text pbem derives and shows."""
    return _SURROGATE.sub("\ufffd", text)


def check_text(text: str, where: str, *, pointer: str | None = None) -> str:
    """``text`` if UTF-8 can store it, else a PbemError naming ``where`` and the offending character."""
    found = _SURROGATE.search(text)
    if found is not None:
        raise PbemError.at(where, f"holds a lone surrogate ({ascii(found.group())[1:-1]}), which is not text", pointer=pointer)
    return text


def printable(text: str) -> str:
    """``text`` with every non-printable character (controls, escape sequences, bidi overrides, lone
    surrogates, unusual spaces) and the backslash written as a Python escape, e.g. ``\\x1b``."""
    if text.isprintable() and "\\" not in text:
        return text
    return "".join(ch if ch.isprintable() and ch != "\\" else repr(ch)[1:-1] for ch in text)


def _json_escape(code: int) -> str:
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def escape_json(text: str, *, everything: bool = True) -> str:
    """JSON text with non-printable characters (or, with ``everything=False``, only lone surrogates) as
    ``\\uXXXX`` escapes. JSON puts such characters only inside strings, where the escape means the same."""
    if not everything:
        return _SURROGATE.sub(lambda m: _json_escape(ord(m.group())), text)
    return "\n".join(
        line if line.isprintable() else "".join(ch if ch.isprintable() else _json_escape(ord(ch)) for ch in line)
        for line in text.split("\n")
    )


def json_text(value: Any) -> str:
    """``value`` as indented UTF-8 JSON that is safe on a terminal: nothing non-printable reaches it raw."""
    return escape_json(json.dumps(value, indent=1, ensure_ascii=False))
