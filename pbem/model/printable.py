"""The one escaping function for everything pbem prints: text from a file (a name, a chat line, a note) never
drives the reader's terminal.

C0 and C1 controls, DEL and the bidirectional overrides, isolates and marks (which reorder what a terminal
shows) are written as escapes: ``\\x1b`` for a C0 control, ``\\u009b`` for DEL, a C1 control or a bidi mark.
C0 controls never stand raw in JSON (its encoder escapes them), and the ``\\uXXXX`` form is JSON's own escape,
so JSON text passed through :func:`escape` stays valid JSON that reads back to the same strings.
Lone surrogates are left to the output stream's ``backslashreplace``.
"""

from __future__ import annotations

import re

_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_TABLE = (
    {c: f"\\x{c:02x}" for c in range(0x20) if c not in (0x0A,)}
    | {c: f"\\u{c:04x}" for c in (*range(0x7F, 0xA0), *_BIDI, 0x2028, 0x2029)}
)
_ONE_LINE = _TABLE | {0x0A: " ", 0x0D: " ", 0x09: " "}
_FOUND = re.compile("[" + "".join(re.escape(chr(c)) for c in _TABLE) + "]")


def escape(text: str) -> str:
    """``text`` with every control character and bidi override escaped; line breaks (``\\n``) kept."""
    if _FOUND.search(text) is None:  # the usual case, at the speed of one regex scan
        return text
    return text.translate(_TABLE)


def one_line(text: str) -> str:
    """``text`` as one printable line: line breaks, carriage returns and tabs as spaces, the rest escaped."""
    return text.translate(_ONE_LINE).encode("utf-8", "backslashreplace").decode("utf-8")


def has_control(text: str) -> bool:
    """Whether ``text`` holds a character :func:`escape` would escape (a test's and a fuzzer's check)."""
    return _FOUND.search(text) is not None


class EscapingStream:
    """A text stream that writes everything through :func:`escape` to the stream it wraps (line breaks kept);
    every other attribute is the wrapped stream's. ``pbem``'s entry point puts one over standard output and
    standard error, so no command can print a raw control character, whatever it forgets."""

    def __init__(self, stream):
        self.unescaped = unescaped(stream)

    def write(self, text: str) -> int:
        self.unescaped.write(escape(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):
        return getattr(self.unescaped, name)


def unescaped(stream):
    """The stream under an :class:`EscapingStream` (for rich, whose colours are escapes of its own: its caller
    escapes the text it hands rich with :func:`one_line`), or ``stream`` itself."""
    return stream.unescaped if isinstance(stream, EscapingStream) else stream
