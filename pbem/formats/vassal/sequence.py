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

from collections.abc import Iterable

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
        # No escapes at all: the common case, and the fast one.
        return [unquote(piece) for piece in pieces]
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
    way, until only one is left.  Each level of nesting adds one backslash before the delimiter, so the
    boundary after link ``k`` has exactly ``k`` backslashes in front of it, and link ``k`` is decoded
    ``k + 1`` times.  Reading level by level costs the chain's length times its depth (VASSAL's own cost);
    this reads all levels in one pass and falls back to the literal reading whenever quoting or a stray
    backslash could make the two disagree.
    """
    if delim not in text:
        return [unquote(text)]
    if text[-1] == "'" or text[0] == "'" or delim + "'" in text:
        return _split_chain_slow(text, delim, max_links)
    pieces = text.split(delim)
    links: list[str] = []
    level = 0
    start = 0  # index of the current link's first piece
    last = len(pieces) - 1
    for index in range(last):
        piece = pieces[index]
        if piece and piece[-1] == BACKSLASH:
            tail = piece[-64:]  # the run of backslashes, without copying a long piece
            count = len(tail) - len(tail.rstrip(BACKSLASH))
            if count == 64:
                count = len(piece) - len(piece.rstrip(BACKSLASH))
        else:
            count = 0
        if count == level:
            if start == index:
                links.append(piece[:len(piece) - count] if count else piece)
            else:
                links.append(_link(pieces, start, index, level, delim))
            start = index + 1
            level += 1
            if level > max_links:
                raise ValueError(f"a chain of more than {max_links} links")
        elif count < level:
            return _split_chain_slow(text, delim, max_links)
    links.append(pieces[last] if start == last else _link(pieces, start, last, level, delim))
    for link in links:
        if link[:1] == BACKSLASH:
            return _split_chain_slow(text, delim, max_links)
    return links


def _link(pieces: list[str], start: int, end: int, level: int, delim: str) -> str:
    """``pieces[start..end]`` of one link, rejoined with each inner delimiter decoded ``level + 1`` times.

    An inner delimiter keeps all but ``level + 1`` of its backslashes; the link's own closing run (the
    last piece's ``level`` backslashes, when ``end`` is a boundary) goes with the boundary.
    """
    joined = delim.join(pieces[start:end + 1])
    if end < len(pieces) - 1 and level:
        joined = joined[:-level]
    return joined.replace(BACKSLASH * (level + 1) + delim, delim)


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
