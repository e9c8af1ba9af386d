"""JSON documents that remember where each value stands, so errors can name file, line and column.

The values come from the standard library's parser; a second, token-level pass records the offset of
every value under its JSON pointer (RFC 6901). Duplicate keys, excessive nesting, oversized files,
numbers beyond the range every JSON reader agrees on (RFC 7493: integers within +/-(2**53 - 1), no NaN
or Infinity) and strings holding a lone UTF-16 surrogate (not a character, so they could never be written
out again) are refused: an opponent's file is never trusted.
"""

from __future__ import annotations

import bisect
import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.model.errors import PbemError, Source
from pbem.model.files import MAX_INPUT_BYTES, read_text

MAX_DEPTH = 64
MAX_SAFE_INTEGER = 2**53 - 1  # RFC 7493 (I-JSON) 2.2: the integers every JSON reader represents exactly

# Cheap tests on the text that tell whether the slower checks are needed at all.
_MAYBE_HUGE_NUMBER = re.compile(r"\d{16}|\d[eE]|NaN|Infinity")
_MAYBE_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')


class _BadNumber(Exception):
    def __init__(self, token: str):
        self.token = token


def _int(token: str) -> int:
    if len(token) > 17 or abs(value := int(token)) > MAX_SAFE_INTEGER:
        raise _BadNumber(token)
    return value


def _float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value) or abs(value) > MAX_SAFE_INTEGER:
        raise _BadNumber(token)
    return value


def _constant(token: str) -> float:
    raise _BadNumber(token)


class _DuplicateKey(Exception):
    def __init__(self, key: str):
        self.key = key


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise _DuplicateKey(key)
        result[key] = value
    return result


def escape_pointer_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


@dataclass
class JsonDocument:
    """A parsed JSON file: its data and the position of every value in it."""

    file: str
    data: Any
    text: str = field(repr=False)
    _offsets: dict[str, int] | None = field(default=None, repr=False)
    _line_starts: list[int] | None = field(default=None, repr=False)

    def offsets(self) -> dict[str, int]:
        if self._offsets is None:
            self._offsets = _scan(self.text, self.file)
        return self._offsets

    def position(self, pointer: str) -> tuple[int, int] | None:
        """(line, column), both from 1, of the value at ``pointer``, or of its nearest parent."""
        offsets = self.offsets()
        while pointer not in offsets and pointer:
            pointer = pointer.rsplit("/", 1)[0]
        offset = offsets.get(pointer)
        return None if offset is None else self.line_column(offset)

    def line_column(self, offset: int) -> tuple[int, int]:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer(r"\n", self.text)]
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def source(self, pointer: str) -> Source:
        position = self.position(pointer)
        if position is None:
            return Source(self.file, pointer=pointer or "/")
        return Source(self.file, position[0], position[1], pointer or "/")

    def error(self, pointer: str, message: str) -> PbemError:
        """A :class:`PbemError` about the value at ``pointer``."""
        return PbemError(message, self.source(pointer))


def parse_json(text: str, file: str | Path) -> JsonDocument:
    """Parse ``text`` (the contents of ``file``) into a :class:`JsonDocument`."""
    file = str(file)
    numbers: dict[str, Any] = {"parse_constant": _constant}
    if _MAYBE_HUGE_NUMBER.search(text):
        numbers |= {"parse_int": _int, "parse_float": _float}
    try:
        data = json.loads(text, object_pairs_hook=_refuse_duplicates, **numbers)
    except _BadNumber as bad:
        offset = _find_number(text, bad.token)
        line, column = JsonDocument(file, None, text).line_column(offset) if offset is not None else (None, None)
        shown = bad.token if len(bad.token) <= 24 else f"{bad.token[:12]}...({len(bad.token)} characters)"
        raise PbemError.at(file, f"number {shown} is out of range (at most {MAX_SAFE_INTEGER:,} either way, no NaN or Infinity)", line=line, column=column) from None
    except json.JSONDecodeError as error:
        raise PbemError.at(file, f"not valid JSON: {error.msg}", line=error.lineno, column=error.colno) from None
    except _DuplicateKey as duplicate:
        document = JsonDocument(file, None, text)
        offset = _find_duplicate(text, duplicate.key)
        line, column = document.line_column(offset) if offset is not None else (None, None)
        raise PbemError.at(file, f"key {duplicate.key!r} appears twice in one object", line=line, column=column) from None
    except RecursionError:
        raise PbemError.at(file, f"JSON nested deeper than {MAX_DEPTH} levels") from None
    document = JsonDocument(file, data, text)
    if _depth_exceeds(text, MAX_DEPTH):
        raise PbemError.at(file, f"JSON nested deeper than {MAX_DEPTH} levels")
    if _MAYBE_SURROGATE.search(text):
        pointer = _lone_surrogate(data)
        if pointer is not None:
            raise document.error(pointer, "text holds a lone UTF-16 surrogate (such as \\ud800), which is not a character")
    return document


def _lone_surrogate(data: Any) -> str | None:
    """The pointer of the first string (or key) that holds a lone surrogate, else None."""
    stack: list[tuple[str, Any]] = [("", data)]
    while stack:
        pointer, value = stack.pop()
        if isinstance(value, str):
            if not value.isascii():
                try:
                    value.encode("utf-8")
                except UnicodeEncodeError:
                    return pointer
        elif isinstance(value, dict):
            for key, item in value.items():
                shown = key.encode("utf-8", "backslashreplace").decode("utf-8")
                here = f"{pointer}/{escape_pointer_token(shown)}"
                stack.append((here, item))
                if shown != key:
                    return pointer or "/"
        elif isinstance(value, list):
            stack.extend((f"{pointer}/{n}", item) for n, item in enumerate(value))
    return None


def _find_number(text: str, token: str) -> int | None:
    """Offset of the number token ``token`` outside strings."""
    for match in _TOKEN.finditer(text):
        if match.group() == token:
            return match.start()
    return None


def load_json(path: str | Path, limit: int = MAX_INPUT_BYTES) -> JsonDocument:
    """Read and parse a JSON file within the size limit."""
    return parse_json(read_text(path, limit), path)


def _depth_exceeds(text: str, limit: int) -> bool:
    depth = 0
    for match in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[{]|[\]}]', text):
        char = match.group()[0]
        if char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _scan(text: str, file: str) -> dict[str, int]:
    """Map every value's JSON pointer to its offset in ``text`` (which is known to be valid JSON)."""
    offsets: dict[str, int] = {}
    # Each frame: [pointer, is_object, pending key or array index, expecting_key]
    stack: list[list] = []

    def here() -> str:
        if not stack:
            return ""
        frame = stack[-1]
        key = frame[2]
        return f"{frame[0]}/{escape_pointer_token(key) if frame[1] else key}"

    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first in "{[":
            pointer = here()
            offsets[pointer] = match.start()
            stack.append([pointer, first == "{", 0, first == "{"])
        elif first in "}]":
            stack.pop()
        elif first == ",":
            frame = stack[-1]
            if frame[1]:
                frame[3] = True
            else:
                frame[2] += 1
        elif first == ":":
            continue
        elif stack and stack[-1][1] and stack[-1][3]:
            stack[-1][2] = json.loads(token)
            stack[-1][3] = False
        else:
            offsets[here()] = match.start()
    return offsets


def _find_duplicate(text: str, key: str) -> int | None:
    """Offset of the second occurrence of ``key`` within one object, for the error message."""
    # Each frame: [is_object, expecting_key, keys seen]
    frames: list[list] = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first in "{[":
            frames.append([first == "{", first == "{", set()])
        elif first in "}]":
            frames.pop()
        elif first == ",":
            if frames and frames[-1][0]:
                frames[-1][1] = True
        elif first == '"' and frames and frames[-1][0] and frames[-1][1]:
            name = json.loads(token)
            if name == key and name in frames[-1][2]:
                return match.start()
            frames[-1][2].add(name)
            frames[-1][1] = False
    return None
