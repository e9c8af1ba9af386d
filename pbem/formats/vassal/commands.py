"""The command stream inside a save or log: a tree of commands joined by ESC, and the leaf commands.

``GameModule.encode`` writes a command as its own text followed by its sub-commands, each appended with
the SequenceEncoder on ESC, so nesting shows as extra backslashes.  The tree here is syntactic: a leaf is
a ``str``, a group is a ``list`` of trees, and encoding a decoded tree gives back the same bytes.
"""

from __future__ import annotations

import operator
from bisect import bisect_left
from collections.abc import Iterator
from itertools import repeat
from dataclasses import dataclass

from pbem.formats.vassal.sequence import BACKSLASH, ESC, TAB, delimiter_index, join, split, unquote

MAX_DEPTH = 200  # VASSAL nests a few levels; thousands only come from a hostile file


class NestingError(ValueError):
    """A command tree deeper than :data:`MAX_DEPTH`."""


def decode_tree(text: str, max_depth: int = MAX_DEPTH) -> str | list:
    """The command tree of ``text``, following ``GameModule.decode``: a token equal to its input is a leaf.

    An ESC with ``k`` backslashes in front of it separates commands ``k`` levels down, so the whole tree
    can be read from one split; quoting (rare) takes the literal, level-by-level reading instead.
    """
    if ESC not in text:
        return _decode_windows(text, max_depth)
    if text[0] == "'" or text[-1] == "'" or ESC + "'" in text:
        return _decode_windows(text, max_depth)
    # Each leaf is cut from the text once: splitting first and then trimming the backslashes would copy
    # a save's text twice (and page in twice its size).
    ends = []
    at = text.find(ESC)
    while at >= 0:
        ends.append(at)
        at = text.find(ESC, at + 1)
    starts = [0] + [end + 1 for end in ends]
    counts = []
    for start, end in zip(starts, ends):
        if end > start and text[end - 1] == "\\":
            tail = text[max(start, end - max_depth - 1):end]
            count = len(tail) - len(tail.rstrip("\\"))
            if count > max_depth:
                raise NestingError(f"commands nested more than {max_depth} deep")
        else:
            count = 0
        counts.append(count)
    ends.append(len(text))
    tree = _build(text, starts, ends, counts, 0, len(ends) - 1, 0)
    return _decode_windows(text, max_depth) if tree is None else tree


def _build(text: str, starts: list[int], ends: list[int], counts: list[int], first: int, last: int,
           depth: int) -> list | None:
    """The group made of pieces ``first..last`` at ``depth`` (piece ``i`` is ``text[starts[i]:ends[i]]``,
    ``counts[i]`` the backslashes before the ESC that ends it); ``None`` if the escapes do not nest cleanly."""
    group: list = []
    begin = first
    for index in range(first, last):
        count = counts[index]
        if count == depth:
            group.append(_child(text, starts, ends, counts, begin, index, depth))
            begin = index + 1
        elif count < depth:
            return None
    group.append(_child(text, starts, ends, counts, begin, last, depth))
    if any(child is None for child in group):
        return None
    return group


def _child(text: str, starts: list[int], ends: list[int], counts: list[int], first: int, last: int,
           depth: int) -> str | list | None:
    if first == last:
        # A leaf keeps its text; the backslashes before the next ESC belong to that ESC.
        return text[starts[last]:ends[last] - counts[last]] if last < len(counts) else text[starts[last]:]
    # Within a child, the last piece's closing run is this level's delimiter: it is not part of the child.
    return _build(text, starts, ends, counts, first, last, depth + 1)


def _decode_windows(text: str, max_depth: int) -> str | list:
    """The literal reading of :func:`_decode`, without copying the text once per level.

    A command ``d`` levels down is a window on the original text in which every ESC has lost ``d`` of the
    backslashes in front of it: its separators are the ESCs with exactly ``d``; unquoting trims the
    window's two ends.  Reading level by level instead costs the text's length times its depth, in time
    and in memory (hundreds of MB for a hostile 2 MB save).
    """
    positions, by_count = delimiter_index(text, ESC)

    def node(start: int, end: int, first: int, depth: int) -> str | list:
        # ``first``: the index of the first ESC at or after ``start``.
        has_esc = first < len(positions) and positions[first] < end
        quoted = end - start > 1 and text[start] == "'" and text[end - 1] == "'"
        if not has_esc and not quoted:
            return text[start:end]
        if depth >= max_depth:
            raise NestingError(f"commands nested more than {max_depth} deep")
        separators = by_count.get(depth, [])
        found = bisect_left(separators, first)
        children = []
        child_start, child_first = start, first
        while True:
            separator = separators[found] if found < len(separators) else None
            if separator is None or positions[separator] >= end:
                children.append(child(child_start, end, child_first, depth))
                return children
            children.append(child(child_start, positions[separator] - depth, child_first, depth))
            child_start, child_first = positions[separator] + 1, separator + 1
            found += 1

    def child(start: int, end: int, first: int, depth: int) -> str | list:
        if end - start > 1 and text[start] == "'" and text[end - 1] == "'":
            start, end = start + 1, end - 1
        return node(start, end, first, depth + 1)

    return node(0, len(text), 0, 0)


def _decode(text: str, depth: int, max_depth: int) -> str | list:
    if ESC not in text and not (len(text) > 1 and text[0] == "'" and text[-1] == "'"):
        return text
    if depth >= max_depth:
        raise NestingError(f"commands nested more than {max_depth} deep")
    tokens = split(text, ESC)
    if len(tokens) == 1 and tokens[0] == text:
        return text
    return [_decode(token, depth + 1, max_depth) for token in tokens]


def _decode_literal(text: str, max_depth: int = MAX_DEPTH) -> str | list:
    """The level-by-level reading, exactly as VASSAL does it (used when quotes are involved)."""
    return _decode(text, 0, max_depth)


def encode_tree(tree: str | list) -> str:
    """The text of a command tree; ``encode_tree(decode_tree(s)) == s`` for everything VASSAL writes."""
    if isinstance(tree, str):
        return tree
    return join([encode_tree(child) for child in tree], ESC)


def leaves(tree: str | list) -> Iterator[str]:
    """The leaf commands of a tree, depth first, in the order VASSAL executes them."""
    if isinstance(tree, str):
        yield tree
        return
    stack: list[Iterator] = [iter(tree)]
    while stack:
        for node in stack[-1]:
            if isinstance(node, str):
                yield node
            else:
                stack.append(iter(node))
                break
        else:
            stack.pop()


# --- leaf commands -------------------------------------------------------------------------------

LOG_PREFIX = "LOG\t"
UNDO_PREFIX = "UNDO\t"


def _null(value: str | None) -> str | None:
    return None if value in (None, "null") else value


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class AddPiece:
    """``+/id/type/state``: a piece (or stack, or deck) appears."""

    id: str | None
    type: str
    state: str


@dataclass(frozen=True, slots=True)
class RemovePiece:
    """``-/id``: a piece disappears."""

    id: str


@dataclass(frozen=True, slots=True)
class ChangePiece:
    """``D/id/newState[/oldState]``: a piece's state changes (the new state comes first)."""

    id: str
    new_state: str
    old_state: str | None


@dataclass(frozen=True, slots=True)
class MovePiece:
    """``M/id/newMap/x/y/underId/oldMap/ox/oy/oldUnderId/player``: a piece moves (map pixels)."""

    id: str
    new_map: str | None
    new_x: int | None
    new_y: int | None
    new_under: str | None
    old_map: str | None
    old_x: int | None
    old_y: int | None
    old_under: str | None
    player: str | None


@dataclass(frozen=True, slots=True)
class Chat:
    """``CHAT<message>``: typed chat or an automatic report (reports start with ``*``)."""

    message: str


@dataclass(frozen=True, slots=True)
class SetProperty:
    """``MutableProperty⇥key⇥old⇥new⇥container`` (dice results live here since 3.x)."""

    key: str
    old: str
    new: str
    container: str


@dataclass(frozen=True, slots=True)
class UndoMarker:
    """``UNDO⇥true`` / ``UNDO⇥false`` around an undo step (VASSAL 3.6.7+)."""

    in_progress: bool


@dataclass(frozen=True, slots=True)
class Player:
    """``PLAYER⇥secret⇥name⇥side``.  The secret is the player's VASSAL password: never shown."""

    secret: str
    name: str
    side: str

    @property
    def shown_name(self) -> str:
        """The name as VASSAL shows it: 3.4+ writes chat-escaped names (``&lt;Brian&gt;``)."""
        if "&" not in self.name:
            return self.name  # nothing escaped: html (and its entity table) is not imported
        import html

        return html.unescape(self.name)


@dataclass(frozen=True, slots=True)
class BoardLayout:
    """``<mapId>BoardPicker⇥board⇥col⇥row…``: which board sits in which cell of a map."""

    map_id: str
    boards: tuple[tuple[str, bool, int, int], ...]  # name, reversed, column, row


@dataclass(frozen=True, slots=True)
class Other:
    """Any other command, kept as text (``prefix`` is what it starts with, for counting)."""

    text: str

    @property
    def prefix(self) -> str:
        head = self.text.split(TAB, 1)[0]
        return head[:40]


Command = AddPiece | RemovePiece | ChangePiece | MovePiece | Chat | SetProperty | UndoMarker | Player | BoardLayout | Other


def parse_command(text: str) -> Command:
    """A leaf command as a typed value; anything unknown or malformed is :class:`Other`, never an error."""
    head = text[:2]
    if head == "+/":
        fields = _first_three(text)
        if fields is not None:
            return AddPiece(_null(fields[0]), fields[1], fields[2])
    elif head == "-/":
        return RemovePiece(text[2:])
    elif head == "D/":
        fields = split(text[2:], "/")
        if len(fields) >= 2:
            return ChangePiece(fields[0], fields[1], fields[2] if len(fields) > 2 else None)
    elif head == "M/":
        fields = split(text[2:], "/")
        if len(fields) >= 9:
            fields += [None] * (10 - len(fields))
            return MovePiece(fields[0], _null(fields[1]), _int(fields[2]), _int(fields[3]), _null(fields[4]),
                             _null(fields[5]), _int(fields[6]), _int(fields[7]), _null(fields[8]), _null(fields[9]))
    elif text.startswith("CHAT"):
        return Chat(text[4:])
    elif text.startswith("MutableProperty\t"):
        fields = split(text, TAB)
        if len(fields) >= 4:
            return SetProperty(fields[1], fields[2], fields[3], fields[4] if len(fields) > 4 else "")
    elif text.startswith(UNDO_PREFIX):
        return UndoMarker(text[len(UNDO_PREFIX):] == "true")
    elif text.startswith("PLAYER\t"):
        fields = split(text, TAB)
        if len(fields) >= 3:
            return Player(fields[1], fields[2], fields[3] if len(fields) > 3 else "")
    elif "BoardPicker\t" in text:
        return _board_layout(text)
    return Other(text)


def _first_three(text: str) -> list[str] | None:
    """The first three of ``split(text[2:], "/")`` (``None`` if there are fewer), the rest left unsplit: a
    piece's type and state are most of a save's text, and hold many a slash."""
    if BACKSLASH + "/" not in text:
        fields = text.split("/", 4)
        return [unquote(fields[1]), unquote(fields[2]), unquote(fields[3])] if len(fields) > 3 else None
    # Split once; a slash is literal when the piece before it ends in a backslash (which it then loses), so
    # each field runs to the first piece that does not.  pieces[0] is the "+" of "+/".
    pieces = text.split("/")
    escaped = list(map(str.endswith, pieces, repeat(BACKSLASH)))
    last = len(pieces) - 1
    fields: list[str] = []
    start = 1
    while len(fields) < 3 and start <= last:
        try:
            end = escaped.index(False, start, last)
        except ValueError:
            end = last
        if end == start:
            fields.append(unquote(pieces[start]))
        else:
            cut = map(operator.getitem, pieces[start:end], repeat(_ALL_BUT_LAST))
            fields.append(unquote("/".join([*cut, pieces[end]])))
        start = end + 1
    return fields if len(fields) == 3 else None


_ALL_BUT_LAST = slice(None, -1)


def _board_layout(text: str) -> Command:
    map_id, _, rest = text.partition("BoardPicker\t")
    fields = split(rest, TAB)
    boards = []
    for index in range(0, len(fields) - 2, 3):
        name_fields = split(fields[index], "/")
        column, row = _int(fields[index + 1]), _int(fields[index + 2])
        if column is None or row is None:
            return Other(text)
        boards.append((name_fields[0], len(name_fields) > 1 and name_fields[1] == "rev", column, row))
    return BoardLayout(map_id, tuple(boards))
