"""Cleaning a turn out of an email: quoting, signatures, typography, kept column for column."""


from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass

from pbem.model.errors import PbemError

# One character for one, so every column the player sees is the column we report.
_TYPOGRAPHY = str.maketrans(
    {
        "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
        "\u2192": ">", "\u21d2": ">", "\u2794": ">", "\u27a1": ">", "\u27f6": ">", "\u21e8": ">", "\u2b95": ">",
        "\u00a0": " ", "\u2007": " ", "\u202f": " ", "\u200b": " ", "\ufeff": " ", "\u3000": " ",
    }
)  # fmt: skip
_QUOTE_PREFIX = re.compile(r"^[ \t]*>(?:[ \t]*>)*[ \t]?")
_SIGNATURE = "--"
MAX_LINE = 600  # characters (a 120-hex path); a longer line is not something a player typed
MAX_FILE = 1024 * 1024  # a turn written in an email is a few kilobytes; this bounds the parser's work
MAX_ERRORS = 50
# How much of a turn is read: the grammar costs about a millisecond a line plus 0.1 ms a character, so each
# line counts LINE_COST characters more, and the reading of any file stays within seconds. A turn written in
# an email is a few thousand (the longest sample, 36 lines: 4,000).
MAX_READ = 24 * 1024
LINE_COST = 64


@dataclass(frozen=True)
class Line:
    number: int  # from 1, in the file
    text: str  # cleaned; a quote prefix is blanked, so columns match the file

    @property
    def indent(self) -> int:
        return len(self.text) - len(self.text.lstrip())


def clean_lines(text: str, first_line: int = 1) -> list[Line]:
    """The lines of a turn as a mail client left them: quote marks, CRLF, typography and signature removed."""
    lines: list[Line] = []
    for n, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), start=first_line):
        line = raw.translate(_TYPOGRAPHY)
        quote = _QUOTE_PREFIX.match(line)
        if quote:
            line = " " * quote.end() + line[quote.end() :]
        if line.strip() == _SIGNATURE:
            break  # the signature: nothing after it is the turn
        if line.strip():
            lines.append(Line(n, line.rstrip()))
    return lines


def _email_body(text: str, file: str) -> tuple[str, int]:
    """The plain-text body of a saved email (``.eml``) and the file line it starts on."""
    head, separator, _ = text.replace("\r\n", "\n").partition("\n\n")
    if not separator:
        return text, 1
    message = email.message_from_string(head + "\n\n", policy=email.policy.compat32)
    encoding = (message.get("Content-Transfer-Encoding") or "7bit").strip().lower()
    if message.is_multipart() or message.get_content_maintype() not in ("text", None) or encoding not in ("7bit", "8bit", "binary"):
        raise PbemError.at(
            file, "this email is encoded (multipart, quoted-printable or base64): save its text as a .pbem file", line=1
        )
    start = head.count("\n") + 3
    return "\n".join(text.replace("\r\n", "\n").split("\n")[start - 1 :]), start
