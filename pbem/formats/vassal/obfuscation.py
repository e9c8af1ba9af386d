"""The ``savedGame`` encodings VASSAL writes and reads (``ObfuscatingOutputStream``).

Three forms exist: ``!VCSK`` + key + lower-case hex of each byte XOR key (VASSAL 3.x), the same with
upper-case hex (VASSAL 2.9 and older), and plain text, which VASSAL's reader accepts whenever the header
is absent.  There is no checksum, so a truncated or garbled stream is caught only by its hex.
"""

from __future__ import annotations

import binascii
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

HEADER = b"!VCSK"
_HEX_DIGITS = frozenset(b"0123456789abcdefABCDEF")

Encoding = Literal["obfuscated", "plain"]
HexCase = Literal["lower", "upper", "mixed"]


@dataclass(frozen=True, slots=True)
class Obfuscation:
    """How a ``savedGame`` entry was encoded, enough to write it again byte for byte."""

    encoding: Encoding = "obfuscated"
    key: int = 0
    hex_case: HexCase = "lower"


class ObfuscationError(ValueError):
    """A ``savedGame`` stream that VASSAL itself would refuse; ``offset`` is the byte where it goes wrong."""

    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.offset = offset


def _xor_table(key: int) -> bytes:
    return bytes(value ^ key for value in range(256))


def _hex_case(digits: bytes) -> HexCase:
    # bytes.islower/isupper: one C pass each, and only letters count.
    if digits.islower():
        return "lower"
    if digits.isupper():
        return "upper"
    return "mixed" if any(letter in digits for letter in b"abcdef") else "lower"


def deobfuscate(data: bytes) -> tuple[bytes, Obfuscation]:
    """The plaintext bytes of a ``savedGame`` entry and how it was encoded."""
    if not data.startswith(HEADER):
        return data, Obfuscation("plain")
    body = data[len(HEADER):]
    if len(body) < 2:
        raise ObfuscationError("obfuscated data ends inside its key", len(data))
    if len(body) % 2:
        raise ObfuscationError("obfuscated data has an odd number of hex digits (truncated?)", len(data))
    try:
        raw = binascii.unhexlify(body)
    except (binascii.Error, ValueError):
        bad = next(i for i, byte in enumerate(body) if byte not in _HEX_DIGITS)
        raise ObfuscationError(f"obfuscated data has a non-hex byte 0x{body[bad]:02x}", len(HEADER) + bad) from None
    key = raw[0]
    return raw[1:].translate(_xor_table(key)), Obfuscation("obfuscated", key, _hex_case(body))


def deobfuscate_chunks(chunks: Iterable[bytes]) -> tuple[bytearray, Obfuscation] | None:
    """:func:`deobfuscate` of the chunks' concatenation, each chunk decoded as it comes (a save's 30 MB of
    hex is never held whole); ``None`` unless it is an obfuscated stream that decodes cleanly, and then
    :func:`deobfuscate` of the whole gives the result or the error with its offset."""
    out = bytearray()  # grown in place: one copy of the text in fresh memory, not two
    table = b""
    pending = b""  # an odd digit left over, first of the next chunk's pair (or the header, until complete)
    upper = lower = False  # letters seen in either case, as _hex_case tells them
    for chunk in chunks:
        digits = pending + chunk if pending else chunk
        if not table:
            if len(digits) < len(HEADER) + 2:
                pending = digits
                continue
            if not digits.startswith(HEADER):
                return None
            digits = digits[len(HEADER):]
        even = len(digits) & ~1
        try:
            raw = binascii.unhexlify(memoryview(digits)[:even])
        except (binascii.Error, ValueError):
            return None
        pending = digits[even:]
        # One memchr per letter: far cheaper than bytes.islower's pass over every digit.
        upper = upper or any(letter in digits for letter in b"ABCDEF")
        lower = lower or any(letter in digits for letter in b"abcdef")
        if not table:
            table = _xor_table(raw[0])
            key = raw[0]
            raw = raw[1:]
        out += raw.translate(table)
    if pending or not table:
        return None
    hex_case: HexCase = "mixed" if upper and lower else "upper" if upper else "lower"
    return out, Obfuscation("obfuscated", key, hex_case)


def obfuscate(plain: bytes, how: Obfuscation) -> bytes:
    """Encode ``plain`` as ``how`` says; the inverse of :func:`deobfuscate` for lower or upper case."""
    if how.encoding == "plain":
        return plain
    digits = binascii.hexlify(bytes([how.key]) + plain.translate(_xor_table(how.key)))
    if how.hex_case == "upper":
        digits = digits.upper()
    return HEADER + digits
