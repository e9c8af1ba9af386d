"""VASSAL's ``SequenceEncoder``: lists of strings joined by one delimiter, with its exact escaping.

Rules (from ``VASSAL.tools.SequenceEncoder``): a delimiter inside an item gets one backslash in front;
backslashes themselves are never escaped; an item that starts with a backslash, or starts and ends with
``'``, is wrapped in single quotes; an empty item contributes nothing but its separator.  Reading, a
delimiter whose preceding character (anywhere in the string) is a backslash is literal: that one backslash
is dropped.  Every token longer than one character that starts and ends with ``'`` loses those quotes.

>>> split("a;b\\\\;c;;'\\\\x'", ";")
['a', 'b;c', '', '\\\\x']
>>> join(['a', 'b;c', '', '\\\\x'], ";")
"a;b\\\\;c;;'\\\\x'"
"""

from __future__ import annotations

import operator
from bisect import bisect_left
from collections.abc import Iterable
from itertools import repeat

ESC = "\x1b"
TAB = "\t"
BACKSLASH = "\\"
MAX_LINKS = 1_000  # real trait chains reach ~150 links; thousands only come from a hostile file


def unquote(token: str) -> str:
    """Strip one pair of enclosing single quotes, as the decoder does to every token."""
    if len(token) > 1 and token[0] == "'" and token[-1] == "'":
        return token[1:-1]
    return token


def split(text: str, delim: str) -> list[str]:
    """All tokens of ``text``; an empty string is one empty token, a trailing delimiter a last empty one."""
    pieces = text.split(delim)
    if len(pieces) == 1:
        return [unquote(text)]
    if BACKSLASH + delim not in text:
        # No escapes at all: the common case, and the fast one (no quote either: nothing to unquote).
        return [unquote(piece) for piece in pieces] if "'" in text else pieces
    tokens: list[str] = []
    current: list[str] = [pieces[0]]
    for piece in pieces[1:]:
        last = current[-1]
        if last and last[-1] == BACKSLASH:
            # An escaped delimiter: drop its one backslash and keep the delimiter in the token.
            current[-1] = last[:-1]
            current.append(delim)
            current.append(piece)
        else:
            tokens.append(unquote("".join(current)))
            current = [piece]
    tokens.append(unquote("".join(current)))
    return tokens


def _escape(item: str, delim: str) -> str:
    escaped = item.replace(delim, BACKSLASH + delim) if delim in item else item
    if item[0] == BACKSLASH or (item[0] == "'" and item[-1] == "'"):
        return "'" + escaped + "'"
    return escaped


def join(items: Iterable[str | None], delim: str) -> str:
    """Encode ``items`` as VASSAL does; ``None`` and ``""`` leave only their separator."""
    return delim.join(_escape(item, delim) if item else "" for item in items)


def first_and_rest(text: str, delim: str) -> tuple[str, str | None]:
    """The first token and the next one (``None`` when there is none), as two ``nextToken`` calls read them.

    VASSAL reads trait chains this way: the second call stops at the next unescaped delimiter, so
    anything after it is ignored, exactly as here.
    """
    tokens = split(text, delim)
    return tokens[0], (tokens[1] if len(tokens) > 1 else None)


def split_chain(text: str, delim: str = TAB, max_links: int = MAX_LINKS) -> list[str]:
    """The links of a nested chain ``join([a, join([b, join([c, ...])])])``, outermost first.

    This is how VASSAL reads a trait chain: take the first token, then read the second token the same
    way, until only one is left.  Read literally, level by level, that costs the chain's length times its
    depth (VASSAL's own cost, and seconds on a hostile file).  Here every level is a window on the
    original text instead: after ``k`` levels a delimiter has lost ``k`` of the backslashes in front of
    it, so the delimiters with exactly ``k`` end link ``k`` (the first) and the rest (a second one, which
    VASSAL's reader ignores everything after); unquoting the rest trims the window's two ends.  Each
    delimiter is found by its count, so the whole chain reads in one pass.
    """
    if delim not in text:
        return [unquote(text)]
    plain = _split_chain_plain(text, delim, max_links)
    if plain is not None:
        return plain
    positions, by_count = delimiter_index(text, delim)
    links: list[str] = []
    start, end, first, level = 0, len(text), 0, 0  # the current rest is text[start:end], less escapes
    while True:
        boundary = _next_with(by_count.get(level), first, positions, end)
        if boundary is None:
            links.append(unquote(_unescape(text[start:end], level + 1, delim)))
            return links
        at = positions[boundary]
        links.append(unquote(_unescape(text[start:at - level], level + 1, delim)))
        if len(links) >= max_links:
            raise ValueError(f"a chain of more than {max_links} links")
        second = _next_with(by_count.get(level), boundary + 1, positions, end)
        if second is not None:
            end = positions[second] - level
        start, first, level = at + 1, boundary + 1, level + 1
        if end - start > 1 and text[start] == "'" and text[end - 1] == "'":
            start, end = start + 1, end - 1


def _split_chain_plain(text: str, delim: str, max_links: int) -> list[str] | None:
    """The common case, no quoting: the boundary after link ``k`` is the first delimiter after the previous
    boundary with exactly ``k`` backslashes before it.  Every count is taken and searched in C (split,
    rstrip, ``list.index``, ``min``): a piece of 150 traits costs a few calls per link.  ``None`` when
    quotes, a delimiter with fewer backslashes than its level, or a link starting with one, need the windows.
    """
    if "'" in text and (text[-1] == "'" or text[0] == "'" or delim + "'" in text):
        return None
    pieces = text.split(delim)
    last = len(pieces) - 1
    if last <= max_links and all(map(str.endswith, pieces[:last], _RUNS)) and \
            not any(map(str.endswith, pieces[:last], _LONGER_RUNS)):
        # Every link is one piece, the k-th closed by exactly k backslashes (a piece's state when no trait
        # state holds the delimiter): each link is its piece less those, as the loop below would take it.
        links = list(map(operator.getitem, pieces[:last], _CUTS))
        links.append(pieces[last])
        return None if any(map(str.startswith, links, repeat(BACKSLASH))) else links
    counts = list(map(operator.sub, map(len, pieces), map(len, map(str.rstrip, pieces, repeat(BACKSLASH)))))
    counts[last] = -1  # the end of the text: no delimiter there
    links: list[str] = []
    append = links.append
    find = counts.index
    start = level = 0  # the current link's first piece
    while True:
        try:
            end = find(level, start, last)
        except ValueError:
            end = last
        if end == start:  # a link of one piece, the most common: no inner delimiter to decode
            piece = pieces[end]
            link = piece[:len(piece) - level] if level and end != last else piece
        else:
            if level and min(counts[start:end]) < level:
                return None  # a delimiter closing a level already closed: VASSAL's reader stops there
            # Inner delimiters (all with more than ``level`` backslashes) lose those of every level read, and
            # one more: cut from each piece before joining (str.replace crawls through long backslash runs).
            tail = pieces[end]
            if level and end != last:
                tail = tail[:len(tail) - level]
            link = delim.join([*map(operator.getitem, pieces[start:end], repeat(slice(None, -level - 1))), tail])
        if link[:1] == BACKSLASH:
            return None
        append(link)
        if end == last:
            return links
        start = end + 1
        level += 1
        if level > max_links:
            raise ValueError(f"a chain of more than {max_links} links")


# For the one-piece links of a chain: the run of backslashes that closes link k, and the slice less it.
_RUNS = [BACKSLASH * level for level in range(MAX_LINKS + 2)]
_LONGER_RUNS = _RUNS[1:]
_CUTS = [slice(None)] + [slice(None, -level) for level in range(1, MAX_LINKS + 1)]


def delimiter_index(text: str, delim: str) -> tuple[list[int], dict[int, list[int]]]:
    """Where each ``delim`` stands in ``text``, and which of them (indices into those positions, ascending)
    have exactly ``n`` backslashes in front, by ``n``: how a nested escaped text is read in one pass."""
    positions: list[int] = []
    by_count: dict[int, list[int]] = {}
    at = 0
    pieces = text.split(delim)
    for index in range(len(pieces) - 1):
        piece = pieces[index]
        at += len(piece)
        positions.append(at)
        by_count.setdefault(_backslashes_before_end(piece), []).append(index)
        at += 1
    return positions, by_count


def _backslashes_before_end(piece: str) -> int:
    if not piece or piece[-1] != BACKSLASH:
        return 0
    tail = piece[-64:]  # the run of backslashes, without copying a long piece
    count = len(tail) - len(tail.rstrip(BACKSLASH))
    return count if count < 64 else len(piece) - len(piece.rstrip(BACKSLASH))


def _next_with(indices: list[int] | None, first: int, positions: list[int], end: int) -> int | None:
    """The first of ``indices`` from ``first`` on whose delimiter lies before ``end``."""
    if not indices:
        return None
    found = bisect_left(indices, first)
    if found < len(indices) and positions[indices[found]] < end:
        return indices[found]
    return None


def _unescape(link: str, times: int, delim: str) -> str:
    """``link`` with ``times`` backslashes dropped before each delimiter (all have at least that many)."""
    return link.replace(BACKSLASH * times + delim, delim) if delim in link else link


def _split_chain_slow(text: str, delim: str, max_links: int) -> list[str]:
    links: list[str] = []
    rest: str | None = text
    while rest is not None:
        head, rest = first_and_rest(rest, delim)
        links.append(head)
        if len(links) > max_links:
            raise ValueError(f"a chain of more than {max_links} links")
    return links


def join_chain(links: list[str], delim: str = TAB) -> str:
    """Inverse of :func:`split_chain`: ``join([links[0], join([links[1], ...])])``."""
    encoded = links[-1]
    for link in reversed(links[:-1]):
        encoded = join([link, encoded], delim)
    return encoded
