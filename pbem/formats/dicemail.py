"""Dice messages as text blocks that survive an email: quoting, re-wrapping, stray spaces and signatures.

A block::

    -----BEGIN PBEM DICE REQUEST-----
    eyJjb21taXRtZW50IjoiMmI5...   (the message's canonical JSON, base64 without padding, 64 characters a line)
    =1a2b3c4d                     (the first 4 bytes of SHA-256 of that JSON, in hex: a damaged paste is refused)
    -----END PBEM DICE REQUEST-----

Reading ignores everything outside the blocks (the mail around them, a signature), the ``>`` an email client puts
before quoted lines, and where the lines break: all the text between BEGIN and END, spaces removed, is the payload
and its checksum. The base64 alphabet has neither ``>``, ``-`` nor ``=``, and no space, so no mail client's habit
(``>From`` escaping, ``-- `` signatures, format=flowed) can change it unseen.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from pbem.model.errors import PbemError
from pbem.model.fairdice import KINDS, canonical

WIDTH = 64
MAX_BLOCK = 64 * 1024  # characters between BEGIN and END
_QUOTE = re.compile(r"^(?:[ \t]*>)+")
_BEGIN = re.compile(r"^-{3,}\s*BEGIN PBEM DICE ([A-Z]+)\s*-{3,}$")
_END = re.compile(r"^-{3,}\s*END PBEM DICE ([A-Z]+)\s*-{3,}$")
_BASE64 = re.compile(r"[A-Za-z0-9+/]*\Z")


@dataclass(frozen=True)
class Block:
    """One message read from a block, with the line its BEGIN was on."""

    kind: str
    message: dict[str, Any]
    line: int


def checksum(payload: bytes) -> str:
    return hashlib.sha256(payload).digest()[:4].hex()


def armour(message: dict[str, Any]) -> str:
    """The block of ``message`` (a request, answer or reveal), ending with a newline."""
    kind = message["kind"].upper()
    payload = canonical(message)
    text = base64.b64encode(payload).decode("ascii").rstrip("=")
    lines = [text[i : i + WIDTH] for i in range(0, len(text), WIDTH)]
    return "\n".join([f"-----BEGIN PBEM DICE {kind}-----", *lines, f"={checksum(payload)}", f"-----END PBEM DICE {kind}-----"]) + "\n"


def read_blocks(text: str, where: str, kinds: tuple[str, ...] = KINDS) -> list[Block]:
    """Every block of one of ``kinds`` in ``text`` (an email, quoted or not), in order; a damaged one is refused
    (:class:`PbemError` naming ``where`` and its line)."""
    found: list[Block] = []
    lines = text.splitlines()
    n = 0
    while n < len(lines):
        begin = _BEGIN.match(_unquoted(lines[n]))
        n += 1
        if not begin:
            continue
        kind, start = begin.group(1).lower(), n
        if kind not in KINDS:
            raise PbemError.at(where, f"a dice block of unknown kind {begin.group(1)!r}", line=start)
        body: list[str] = []
        size = 0
        while True:
            if n >= len(lines):
                raise PbemError.at(where, f"the dice {kind} block has no END line: paste the whole block", line=start)
            line = _unquoted(lines[n])
            n += 1
            end = _END.match(line)
            if end:
                if end.group(1).lower() != kind:
                    raise PbemError.at(where, f"the dice {kind} block ends as {end.group(1).lower()}: paste the whole block", line=n)
                break
            if _BEGIN.match(line):
                raise PbemError.at(where, f"the dice {kind} block has no END line: paste the whole block", line=start)
            size += len(line)
            if size > MAX_BLOCK:
                raise PbemError.at(where, f"the dice {kind} block is longer than {MAX_BLOCK} characters", line=start)
            body.append("".join(line.split()))
        if kind in kinds:
            found.append(Block(kind, _decode("".join(body), kind, where, start), start))
    return found


def _unquoted(line: str) -> str:
    return _QUOTE.sub("", line).strip()


def _decode(body: str, kind: str, where: str, line: int) -> dict[str, Any]:
    damaged = f"the dice {kind} block is damaged"
    text, equals, check = body.partition("=")
    if not equals or "=" in check or not re.fullmatch(r"[0-9a-f]{8}", check):
        raise PbemError.at(where, f"{damaged}: its checksum line (=xxxxxxxx) is missing or cut: paste the whole block", line=line)
    if not _BASE64.match(text) or len(text) % 4 == 1:
        raise PbemError.at(where, f"{damaged}: characters that base64 does not use: paste the block as it was sent", line=line)
    try:
        payload = base64.b64decode(text + "=" * (-len(text) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise PbemError.at(where, f"{damaged}: not base64: paste the block as it was sent", line=line) from None
    if base64.b64encode(payload).decode("ascii").rstrip("=") != text:  # a last character changed in its unused bits
        raise PbemError.at(where, f"{damaged}: its last base64 character was changed: paste the block as it was sent", line=line)
    if checksum(payload) != check:
        raise PbemError.at(where, f"{damaged}: its checksum does not match (a character changed or a line lost): paste it again", line=line)
    try:
        message = json.loads(payload.decode("utf-8"))
        same = isinstance(message, dict) and message.get("kind") == kind and canonical(message) == payload
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise PbemError.at(where, f"the dice {kind} block holds no JSON message", line=line) from None
    if not same:
        raise PbemError.at(where, f"the dice {kind} block holds no canonical {kind} message", line=line)
    return message
