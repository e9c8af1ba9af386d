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
    quoted: bool = False  # it began with '>' (the turn itself may be quoted, or the mail it answers)

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
            lines.append(Line(n, line.rstrip(), quote is not None))
    return lines


# Where a reply's quoted earlier mail begins, as common mail clients write it (the first line of an attribution may wrap).
_ATTRIBUTION = re.compile(
    r"(on\s.*\swrote\s*:|le\s.*\sa\s+écrit\s*:|am\s.*\sschrieb.*:|el\s.*\sescribió\s*:"
    r"|-{2,}\s*(original message|forwarded message)\s*-{2,})\s*",
    re.IGNORECASE,
)
_ATTRIBUTION_START = re.compile(r"(on|le|am|el)\s", re.IGNORECASE)
_HEADER_LINE = re.compile(r"\s*(game|module|version|scenario|turn|side|start|starts|ends|writer|player|note|options|dice)\s*:", re.IGNORECASE)


def _is_attribution(line: Line, following: Line | None) -> bool:
    text = line.text.strip()
    if _ATTRIBUTION.fullmatch(text):
        return True
    return (
        following is not None
        and following.number == line.number + 1
        and bool(_ATTRIBUTION_START.match(text))
        and bool(_ATTRIBUTION.fullmatch(f"{text} {following.text.strip()}"))
    )


def turn_lines(lines: list[Line]) -> list[Line]:
    """The lines of the turn in a reply: from its first header line to the quoted mail it answers.

    Before the first header line (``Game:``, ``Turn:`` ...) comes the greeting; an attribution line ("On Tue, ...
    Ivan wrote:", "-----Original Message-----") starts the earlier mail; so does a quoted line below an unquoted
    header. A turn with no header line is kept whole.
    """
    start = next((n for n, line in enumerate(lines) if _HEADER_LINE.match(line.text)), None)
    if start is None:
        start = 0
        header_quoted = True  # nothing tells the turn from the mail: keep every line
    else:
        header_quoted = lines[start].quoted
    kept: list[Line] = []
    for n in range(start, len(lines)):
        line = lines[n]
        if _is_attribution(line, lines[n + 1] if n + 1 < len(lines) else None):
            break
        if line.quoted and not header_quoted:
            break
        kept.append(line)
    return kept


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
