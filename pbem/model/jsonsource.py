"""JSON documents that remember where each value stands, so errors can name file, line and column.

The values come from the standard library's parser; the place of a value is found on demand by following
its JSON pointer (RFC 6901) through the text. Duplicate keys, excessive nesting, oversized files,
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
from itertools import chain
from pathlib import Path
from typing import Any

from pbem.model.errors import Locate, PbemError, Source
from pbem.model.files import MAX_INPUT_BYTES, read_text

MAX_DEPTH = 64
MAX_SAFE_INTEGER = 2**53 - 1  # RFC 7493 (I-JSON) 2.2: the integers every JSON reader represents exactly

# Cheap tests on the text that tell whether the slower checks are needed at all.
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
    result = dict(pairs)
    if len(result) != len(pairs):  # a key came twice: name the first that did
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return result


def escape_pointer_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


class _Places:
    """Where the values of one JSON text stand, found on demand by following a pointer down.

    The offsets of a container's children are found once (the parser skips each child at C speed) and kept
    for the next question, so the positions of a turn's actions cost one pass, and a huge file with an
    error deep inside is never mapped whole. It holds the text only, not the parsed values, so a source
    that may be asked for its line later keeps no more than the text alive.
    """

    __slots__ = ("text", "_line_starts", "_children")

    def __init__(self, text: str):
        self.text = text
        self._line_starts: list[int] | None = None
        self._children: dict[str, dict[str, int] | list[int]] = {}

    def offset(self, pointer: str) -> int | None:
        """The offset of the value at ``pointer``, or of its nearest parent that exists."""
        start = _WHITESPACE.match(self.text).end()
        if start >= len(self.text):
            return None
        here = ""
        for token in pointer.split("/")[1:]:
            children = self._children_of(here, start)
            key = token.replace("~1", "/").replace("~0", "~")
            if isinstance(children, dict) and key in children:
                start = children[key]
            elif isinstance(children, list) and key.isdigit() and int(key) < len(children):
                start = children[int(key)]
            else:
                break
            here = f"{here}/{token}"
        return start

    def _children_of(self, pointer: str, start: int) -> dict[str, int] | list[int]:
        if pointer not in self._children:
            if len(self._children) >= 64:  # a few containers are asked about again and again (a turn's actions)
                self._children.clear()
            self._children[pointer] = _children(self.text, start)
        return self._children[pointer]

    def position(self, pointer: str) -> tuple[int, int] | None:
        offset = self.offset(pointer)
        return None if offset is None else self.line_column(offset)

    __call__ = position  # a source keeps the places themselves to ask later, not a bound method made per value

    def line_column(self, offset: int) -> tuple[int, int]:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer(r"\n", self.text)]
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1


@dataclass
class JsonDocument:
    """A parsed JSON file: its data and the position of every value in it, found when asked for."""

    file: str
    data: Any
    text: str = field(repr=False)
    _places: _Places | None = field(default=None, repr=False)

    @property
    def places(self) -> _Places:
        if self._places is None:
            self._places = _Places(self.text)
        return self._places

    def offset(self, pointer: str) -> int | None:
        """The offset of the value at ``pointer``, or of its nearest parent that exists."""
        return self.places.offset(pointer)

    def position(self, pointer: str) -> tuple[int, int] | None:
        """(line, column), both from 1, of the value at ``pointer``, or of its nearest parent."""
        return self.places.position(pointer)

    def line_column(self, offset: int) -> tuple[int, int]:
        return self.places.line_column(offset)

    def locator(self) -> Locate:
        """What the sources of this document ask for the (line, column) of their pointer."""
        # A subclass that places values its own way (the notation) is asked itself.
        return self.places if type(self).position is JsonDocument.position else self.position

    def source(self, pointer: str) -> Source:
        """Where the value at ``pointer`` stands; its line and column are worked out if they are read."""
        return Source.found_later(self.file, pointer or "/", self.locator())

    def error(self, pointer: str, message: str) -> PbemError:
        """A :class:`PbemError` about the value at ``pointer``."""
        return PbemError(message, self.source(pointer))


def parse_json(text: str, file: str | Path) -> JsonDocument:
    """Parse ``text`` (the contents of ``file``) into a :class:`JsonDocument`."""
    data = _parse_plain(text)
    return _parse_careful(text, str(file)) if data is _UNSURE else _checked_strings(JsonDocument(str(file), data, text))


_UNSURE = object()  # what _parse_plain gives for a text that needs the careful parse
_PLAIN = json.JSONDecoder(parse_constant=_constant, parse_int=_int, parse_float=_float)
_KEY_END = re.compile(r'"[ \t\n\r]*:')


def _parse_plain(text: str) -> Any:
    """The value of ``text`` when it plainly has nothing to refuse but a lone surrogate, else ``_UNSURE``.

    The parser makes the dicts itself (a third of the time of handing each one's pairs to a check), and a key
    written twice, which it would drop, is found by counting instead: see :func:`_pairs_written_at_most`. A text
    that does not parse, nests too deep or may hold a key twice is parsed again carefully, for the message.
    """
    if type(text) is not str or text.startswith("\ufeff"):
        return _UNSURE  # json.loads says what is wrong with it
    try:
        data = _PLAIN.decode(text)
    except (_BadNumber, ValueError, RecursionError):
        return _UNSURE
    deeper, keys = _depth_and_keys(data, MAX_DEPTH)
    if deeper:
        return _UNSURE
    # Each pair written has a colon of its own: as many keys as colons lost none (a state file, which has no other
    # colon, is told so in one count); else the finer count, which leaves out most colons inside strings.
    colons = text.count(":")
    if keys != colons and keys != _pairs_written_at_most(text, colons):
        return _UNSURE
    return data


def _pairs_written_at_most(text: str, colons: int) -> int:
    """At least as many as the key-value pairs written in the JSON ``text`` (which holds ``colons`` colons): its
    colons right after a quote, or after a quote and whitespace (a key ends with its quote, and its colon follows).
    A parsed value with as many keys lost none to a key written twice."""
    after_quote = text.count('":')
    if after_quote == colons:
        return after_quote  # the usual text: no colon but a key's
    if " :" in text or "\t:" in text or "\n:" in text or "\r:" in text:
        return len(_KEY_END.findall(text))
    return after_quote


def _parse_careful(text: str, file: str) -> JsonDocument:
    """:func:`parse_json` with every object through the duplicate keys check: what a text that may hold a fault
    is parsed with, to name the fault the first one in the text."""
    try:
        # Every number through its bounds check: a few µs a file, where screening the text for numbers
        # that might need it took ~20 ns a character (0.5 ms for a long turn).
        data = json.loads(text, object_pairs_hook=_refuse_duplicates, parse_constant=_constant, parse_int=_int, parse_float=_float)
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
    if _depth_exceeds(data, MAX_DEPTH):
        raise PbemError.at(file, f"JSON nested deeper than {MAX_DEPTH} levels")
    return _checked_strings(document)


def _checked_strings(document: JsonDocument) -> JsonDocument:
    """``document``, refused if a string or key in it holds a lone surrogate."""
    text, data = document.text, document.data
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


def copy_json(value: Any) -> Any:
    """A copy of parsed JSON (dicts, lists and scalars) that shares no dict or list with it: what copy.deepcopy
    gives, in a quarter of the time (no memo, no dispatch on types JSON cannot hold)."""
    kind = type(value)
    if kind is dict:
        return {key: copy_json(item) for key, item in value.items()}
    if kind is list:
        return [copy_json(item) for item in value]
    return value


def _depth_and_keys(data: Any, limit: int) -> tuple[bool, int]:
    """Whether the parsed ``data`` nests deeper than ``limit`` (each object or array one level), and the number of keys
    of its objects (all of them when it does not).

    A level at a time: the values of a level are gathered and screened for containers at C speed.
    """
    level = [data] if type(data) is dict or type(data) is list else []
    keys = 0
    for _ in range(limit):
        if not level:
            return False, keys
        objects = [value for value in level if type(value) is dict]
        if objects:
            keys += sum(map(len, objects))
            values = chain.from_iterable(map(dict.values, objects))
            if len(objects) != len(level):
                values = chain(values, chain.from_iterable([value for value in level if type(value) is list]))
        else:
            values = chain.from_iterable(level)
        level = [value for value in values if type(value) in _CONTAINERS]
    return bool(level), keys


_CONTAINERS = frozenset((dict, list))


def _depth_exceeds(data: Any, limit: int) -> bool:
    """Whether the parsed ``data`` nests deeper than ``limit`` (each object or array one level); it stops after
    ``limit`` levels."""
    return _depth_and_keys(data, limit)[0]


_WHITESPACE = re.compile(r"[ \t\n\r]*")
_SCAN_VALUE = json.JSONDecoder().scan_once


def _children(text: str, start: int) -> dict[str, int] | list[int]:
    """The offsets of the members of the object or array at ``start`` (a scalar has none)."""
    opening = text[start]
    if opening not in "{[":
        return {}
    found: dict[str, int] | list[int] = {} if opening == "{" else []
    at = _WHITESPACE.match(text, start + 1).end()
    while text[at] not in "}]":
        if isinstance(found, dict):
            key, at = _SCAN_VALUE(text, at)
            at = _WHITESPACE.match(text, at).end() + 1  # the colon
            at = _WHITESPACE.match(text, at).end()
            found[key] = at
        else:
            found.append(at)
        _, at = _SCAN_VALUE(text, at)
        at = _WHITESPACE.match(text, at).end()
        if text[at] == ",":
            at = _WHITESPACE.match(text, at + 1).end()
    return found


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
