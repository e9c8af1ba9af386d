"""Piece type and state strings: a chain of traits around one BasicPiece, decoded into names and places.

A piece's type and state are TAB chains, outermost trait first and ``piece;…`` last; each trait's own
fields are SequenceEncoder lists, mostly on ``;``.  Only what naming and positioning need is interpreted;
every trait keeps its raw type and state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from pbem.formats.vassal.sequence import MAX_LINKS, TAB, join, split, split_chain

# Traits whose state starts with the VASSAL secret (the password) of the player who masked, hid or owns
# the piece: Obscurable, Hideable, Restricted.  That field is never shown as it is.
OWNER_TRAITS = ("obs;", "hide;", "restrict;")
UNKNOWN_OWNER = "(a player)"


@dataclass(frozen=True, slots=True)
class Trait:
    """One link of a chain: ``kind`` is the type's prefix (``emb2;``, ``mark;``, ``piece;`` …)."""

    kind: str
    type: str
    state: str

    @property
    def fields(self) -> list[str]:
        """The type's ``;`` fields after the prefix."""
        return split(self.type, ";")[1:]


@dataclass(slots=True)
class Piece:
    """A piece: where it is at once, its traits (outermost first, BasicPiece last) decoded when first needed."""

    id: str | None
    type_text: str = ""
    state_text: str = ""
    basic_name: str = ""
    image: str = ""
    map_id: str | None = None
    x: int | None = None
    y: int | None = None
    gpid: str | None = None
    properties: dict[str, str] = field(default_factory=dict)
    _traits: list[Trait] | None = field(default=None, repr=False)
    _name: str | None = field(default=None, repr=False)
    _states: list[str] | None = field(default=None, repr=False, compare=False)  # the state chain, once split

    @property
    def traits(self) -> list[Trait]:
        if self._traits is None:
            self._traits = decode_chain(self.type_text, self.state_text, self._states)
        return self._traits

    @property
    def name(self) -> str:
        """The piece's name as VASSAL shows it: BasicPiece name, then layer and label traits, inside out."""
        if self._name is None:
            if self._traits is not None:
                self._name = piece_name(self._traits, self.basic_name)
            else:
                self._name = name_from_chains(self.type_text, self.state_text, self.basic_name, self._states)
        return self._name

    @property
    def images(self) -> list[str]:
        """Images drawn for the piece, bottom first: the BasicPiece's, then each active layer's level image."""
        out = [self.image] if self.image else []
        for trait in reversed(self.traits[:-1]):
            if trait.kind == "emb2;":
                level = _int(trait.state.split(";", 1)[0]) if trait.state else None
                fields = trait.fields
                images = split(fields[15], ",") if len(fields) > 15 else []
                if level is not None and 0 < level <= len(images) and images[level - 1]:
                    out.append(images[level - 1])
        return out

    @property
    def kinds(self) -> list[str]:
        return [trait.kind for trait in self.traits]


@dataclass(slots=True)
class Stack:
    """A ``stack`` entry: where it is and its pieces, bottom to top."""

    id: str | None
    map_id: str | None
    x: int | None
    y: int | None
    children: list[str]
    layer: int | None = None
    kind: str = "stack"  # or "deck"


def trait_kind(type_link: str) -> str:
    """``emb2;`` for ``emb2;Activate;…``; ``stack`` and other bare words stay as they are."""
    head, sep, _ = type_link.partition(";")
    return head + sep


def public_state(trait: Trait, owners: Mapping[str, str]) -> str:
    """A trait's state fit to show: an owner's secret becomes the owner's roster name (``owners``: secret →
    name), or :data:`UNKNOWN_OWNER` when the roster does not know it.

    >>> public_state(Trait("obs;", "obs;70,0;mask.png", "s3cret;"), {"s3cret": "Alice"})
    'Alice;'
    >>> public_state(Trait("hide;", "hide;72,130", "s3cret"), {})
    '(a player)'
    """
    if trait.kind not in OWNER_TRAITS or not trait.state:
        return trait.state
    fields = split(trait.state, ";")
    if fields[0] in ("", "null"):
        return trait.state
    fields[0] = owners.get(fields[0], UNKNOWN_OWNER)
    return join(fields, ";")


class PieceError(ValueError):
    """A piece definition that cannot be read (e.g. an absurdly long trait chain)."""


def type_links(type_text: str) -> tuple[str, ...]:
    """A type chain's links: pieces made from one palette entry share their type, so each is split once
    (types up to 64 KB are remembered, 1,024 of them: at most 64 MB kept between files)."""
    if len(type_text) > 65_536:
        return tuple(split_chain(type_text, TAB))
    return _cached_type_links(type_text)


@lru_cache(maxsize=1024)
def _cached_type_links(type_text: str) -> tuple[str, ...]:
    return tuple(split_chain(type_text, TAB))


def _chains(type_text: str, state_text: str, states: list[str] | None) -> tuple[list[str], list[str]]:
    """A piece's type links and state links (``states``: the state chain already split, if it was)."""
    try:
        types = type_links(type_text)
        if states is None:
            states = split_chain(state_text, TAB) if state_text else [""]
    except ValueError as error:
        raise PieceError(str(error)) from None
    return types, states


def decode_chain(type_text: str, state_text: str, states: list[str] | None = None) -> list[Trait]:
    """The traits of a piece, outermost first; a state chain shorter than the type chain leaves states empty.
    ``states`` is the state chain already split, if it was."""
    types, states = _chains(type_text, state_text, states)
    if len(states) < len(types):
        states = states + [""] * (len(types) - len(states))
    return [Trait(trait_kind(kind_type), kind_type, state) for kind_type, state in zip(types, states)]


def name_from_chains(type_text: str, state_text: str, basic_name: str, states: list[str] | None = None) -> str:
    """:func:`piece_name` of a piece's chains, building traits only for the links that change the name
    (every link is read; only those few become :class:`Trait` objects).  ``states``: as for decode_chain."""
    types, states = _chains(type_text, state_text, states)
    named = [Trait(trait_kind(types[index]), types[index], states[index] if index < len(states) else "")
             for index in range(len(types) - 1) if types[index].startswith(NAME_TRAITS)]
    return piece_name(named + [Trait("piece;", types[-1], "")], basic_name)


def _int(value: str) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def decode_piece(piece_id: str | None, type_text: str, state_text: str) -> Piece | Stack:
    """A piece or stack from its ``+/`` type and state."""
    if type_text == "stack":
        return _decode_stack(piece_id, state_text)
    if type_text.startswith("deck;"):
        return _decode_deck(piece_id, state_text)
    basic = _basic_links(type_text, state_text)
    if basic is None:
        return piece_from_traits(piece_id, decode_chain(type_text, state_text), type_text, state_text)
    piece = Piece(piece_id, type_text, state_text, _states=basic[2])
    _apply_basic_type(piece, basic[0])
    apply_basic_state(piece, basic[1])
    return piece


def _basic_links(type_text: str, state_text: str) -> tuple[str, str, list[str]] | None:
    """The BasicPiece's type and state without decoding the whole (long) type chain, when that is safe.

    The type chain ends in ``piece;…``; the backslashes before its TAB say how many links come before it,
    which picks the BasicPiece's link out of the (short) state chain.  The state chain comes too, as split.
    """
    if type_text.startswith("piece;") and TAB not in type_text:
        states = split_chain(state_text, TAB) if state_text else [""]
        return type_text, states[0], states
    at = type_text.rfind(TAB + "piece;")
    if at < 0 or TAB in type_text[at + 1:]:
        return None
    before = type_text[max(0, at - MAX_LINKS - 1):at]
    links = len(before) - len(before.rstrip("\\")) + 2
    if links > MAX_LINKS:
        raise PieceError(f"a chain of more than {MAX_LINKS} links")
    try:
        states = split_chain(state_text, TAB) if state_text else [""]
    except ValueError as error:
        raise PieceError(str(error)) from None
    return type_text[at + 1:], states[links - 1] if len(states) >= links else "", states


def _apply_basic_type(piece: Piece, basic_type: str) -> None:
    fields = split(basic_type, ";")
    if fields and fields[0] == "piece":
        piece.image = fields[3] if len(fields) > 3 else ""
        piece.basic_name = fields[4] if len(fields) > 4 else ""


def piece_from_traits(piece_id: str | None, traits: list[Trait], type_text: str = "", state_text: str = "") -> Piece:
    """A piece from its decoded traits: name and image from the BasicPiece type, place from its state."""
    piece = Piece(piece_id, type_text, state_text, _traits=traits)
    _apply_basic_type(piece, traits[-1].type)
    apply_basic_state(piece, traits[-1].state)
    return piece


def apply_basic_state(piece: Piece, state: str) -> None:
    """Set map, position, gpid and properties from a BasicPiece state ``map;x;y;gpid;n;k1;v1…``."""
    fields = split(state, ";") if state else []
    if not fields:
        return
    piece.map_id = None if fields[0] in ("null", "") else fields[0]
    piece.x = _int(fields[1]) if len(fields) > 1 else None
    piece.y = _int(fields[2]) if len(fields) > 2 else None
    piece.gpid = fields[3] if len(fields) > 3 else None
    count = _int(fields[4]) if len(fields) > 4 else None
    for index in range(min(count or 0, (len(fields) - 5) // 2)):
        at = 5 + 2 * index
        piece.properties[fields[at]] = fields[at + 1]


def _decode_stack(stack_id: str | None, state_text: str) -> Stack:
    fields = split(state_text, ";")
    map_id = None if not fields or fields[0] in ("null", "") else fields[0]
    children: list[str] = []
    layer = None
    rest = fields[1:]
    x = y = None
    if map_id is not None:
        # VASSAL skips x and y for a stack with no map, and then reads them as (ignored) child ids.
        x = _int(rest[0]) if rest else None
        y = _int(rest[1]) if len(rest) > 1 else None
        rest = rest[2:]
    for token in rest:
        if token.startswith("@@"):
            layer = _int(token[2:])
        elif token:
            children.append(token)
    return Stack(stack_id, map_id, x, y, children, layer)


def _decode_deck(deck_id: str | None, state_text: str) -> Stack:
    """A deck's state: ``map;x;y;faceDown;id,id,…`` (cards listed bottom to top)."""
    fields = split(state_text, ";")
    map_id = None if not fields or fields[0] in ("null", "") else fields[0]
    x = _int(fields[1]) if len(fields) > 1 else None
    y = _int(fields[2]) if len(fields) > 2 else None
    children = [card for card in split(fields[4], ",") if card] if len(fields) > 4 and fields[4] else []
    return Stack(deck_id, map_id, x, y, children, kind="deck")


NAME_TRAITS = ("emb2;", "emb;", "label;", "basicName;")  # the traits that change a piece's name


def piece_name(traits: list[Trait], basic_name: str) -> str:
    """Apply the name-changing traits from the innermost out, as ``getName`` does."""
    name = basic_name
    for trait in reversed(traits[:-1]):
        if trait.kind in NAME_TRAITS[:2]:
            name = _layer_name(trait, name)
        elif trait.kind == "label;":
            name = _label_name(trait, name)
        elif trait.kind == "basicName;":
            fields = trait.fields
            if trait.state or (fields and fields[0]):
                name = trait.state or fields[0]
    return name


def _layer_name(trait: Trait, name: str) -> str:
    level = _int(trait.state.split(";", 1)[0]) if trait.state else None
    if level is None or level <= 0:
        return name
    fields = trait.fields
    if trait.kind == "emb2;":
        names = split(fields[16], ",") if len(fields) > 16 else []
    else:
        # The old ``emb;`` layout: …;images,…;names,…  — image and name lists are the last two fields.
        names = split(fields[-1], ",") if fields else []
    if level - 1 >= len(names):
        return name
    level_name = names[level - 1]
    if not level_name:
        return name
    if level_name.startswith("+"):
        return name + level_name[1:]
    if level_name.endswith("+"):
        return level_name[:-1] + name
    return level_name


def _label_name(trait: Trait, name: str) -> str:
    fields = trait.fields
    label = trait.state
    always = len(fields) > 17 and fields[17] == "true"
    if not label and not always:
        return name
    name_format = fields[11] if len(fields) > 11 and fields[11] else "$pieceName$ ($label$)"
    return substitute(name_format, {"pieceName": name, "label": label})


def substitute(text: str, values: dict[str, str], unknown_empty: bool = False) -> str:
    """VASSAL's ``FormattedString``: ``$name$`` replaced by its value, an unknown name by itself
    (or by nothing, as in VASSAL's localised evaluation, with ``unknown_empty``).

    >>> substitute("$pieceName$ ($label$)", {"pieceName": "1st Div", "label": "X"})
    '1st Div (X)'
    """
    tokens = split(text, "$")
    out: list[str] = []
    for index, token in enumerate(tokens):
        # Odd tokens are property names, but only when another token follows (an unclosed ``$`` is text).
        if index % 2 == 1 and index + 1 < len(tokens):
            out.append(values.get(token, "" if unknown_empty else token))
        else:
            out.append(token)
    return "".join(out)
