"""A VASSAL module: its ``buildFile(.xml)`` read into maps, boards, grids, piece slots, prototypes and dice.

Element names are Java class names, and modules subclass them (``VASL.build.module.ASLMap``), so
components are recognised by the end of their class name; folders (3.6+) are looked through.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from pbem.formats.vassal.commands import AddPiece, parse_command
from pbem.formats.vassal.grids import (MAX_INDEX, Grid, HexGrid, Numbering, Region, RegionGrid, SquareGrid,
                                       Zone, ZonedGrid)
from pbem.formats.vassal.sequence import TAB, split, split_chain
from pbem.formats.vassal.traits import Piece, PieceError, Trait, piece_from_traits, substitute, trait_kind
from pbem.formats.vassal.xmlsafe import text_of
from pbem.model.errors import PbemError

# Bounds on a module's geometry (documented in docs/vassal.md): far beyond any real module, and enough to
# keep every grid computation finite and fast.
MAX_PIXELS = 10_000_000  # a board's size or a coordinate
MIN_SPACING, MAX_SPACING = 0.01, 100_000.0  # a grid's dx and dy
MAX_LEADING = 20  # leading zeros of a grid number


@dataclass(slots=True)
class Board:
    """A board: its image (under ``images/``) and pixel size, when known, and its grid."""

    name: str
    image: str = ""
    width: int | None = None
    height: int | None = None
    grid: Grid | None = None
    reversible: bool = False

    @property
    def size(self) -> tuple[int, int] | None:
        return (self.width, self.height) if self.width is not None and self.height is not None else None


@dataclass(slots=True)
class MapDef:
    """A map (``Map``, ``PrivateMap``, ``PlayerHand`` …): its id as saves name it, and its boards."""

    id: str
    name: str
    kind: str
    edge_width: int = 0
    edge_height: int = 0
    boards: list[Board] = field(default_factory=list)
    default_layout: str | None = None  # the BoardPicker's <setup> command, if any
    decks: list[tuple[str, int, int, str]] = field(default_factory=list)  # name, x, y, owning board

    def board(self, name: str) -> Board | None:
        return next((board for board in self.boards if board.name == name), None)


@dataclass(slots=True)
class PieceSlot:
    """A palette entry: its name and definition, with prototypes expanded."""

    name: str
    gpid: str | None
    type: str
    state: str
    traits: list[Trait]
    piece: Piece | None = None


@dataclass(slots=True)
class DiceButton:
    """A ``DiceButton`` (or ``SpecialDiceButton``): what it rolls and how it reports."""

    name: str
    kind: str
    n_dice: int = 2
    n_sides: int = 6
    plus: int = 0
    add_to_total: int = 0
    report_total: bool = False
    report_format: str | None = None
    keep: str | None = None


@dataclass(slots=True)
class Module:
    """Everything of a module that reading saves and logs needs."""

    name: str = ""
    version: str = ""
    vassal_version: str = ""
    description: str = ""
    maps: list[MapDef] = field(default_factory=list)
    slots: list[PieceSlot] = field(default_factory=list)
    prototypes: dict[str, str] = field(default_factory=dict)
    dice: list[DiceButton] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)
    root_class: str = ""
    is_extension: bool = False  # the root is a ModuleExtension, whatever metadata the zip holds
    extends: tuple[str, str] | None = None  # an extension's module: name and version

    def map(self, map_id: str | None) -> MapDef | None:
        return next((m for m in self.maps if m.id == map_id), None)


_FOLDERS = ("ModuleSubFolder", "MapSubFolder", "PrototypeFolder", "DeckSubFolder", "GlobalPropertyFolder")


def _short(tag: object) -> str:
    return tag.rsplit(".", 1)[-1] if isinstance(tag, str) else ""


def _children(element: etree._Element) -> list[etree._Element]:
    """Child components, looking through folder elements."""
    out: list[etree._Element] = []
    for child in element:
        if not isinstance(child.tag, str):
            continue
        if _short(child.tag) in _FOLDERS:
            out.extend(_children(child))
        else:
            out.append(child)
    return out


def _int(value: str | None, default: int | None = 0) -> int | None:
    try:
        return int(float(value)) if value not in (None, "") else default
    except (ValueError, OverflowError):  # not a number, NaN, Infinity
        return default


class BuildFileError(PbemError):
    """A component whose attribute no module could mean: a grid spacing of 0, NaN, Infinity, absurd sizes."""

    def __init__(self, element: etree._Element, message: str):
        super().__init__(f"<{_short(element.tag)}> {message}")
        self.line = element.sourceline


def _bounded(element: etree._Element, attribute: str, default: float | None, low: float, high: float,
             value: str | None = None) -> float | None:
    """A numeric attribute, ``default`` when absent or not a number (as VASSAL falls back), and a
    :class:`BuildFileError` when it is NaN, infinite or outside ``low..high``."""
    text = element.get(attribute) if value is None else value
    if text in (None, ""):
        return default
    try:
        number = float(text)
    except ValueError:
        return default
    if not math.isfinite(number) or not low <= number <= high:
        raise BuildFileError(element, f"{attribute}={text[:40]!r} is not a number from {low:g} to {high:g}")
    return number


def _bounded_int(element: etree._Element, attribute: str, default: int | None, low: int, high: int,
                 value: str | None = None) -> int | None:
    number = _bounded(element, attribute, default, low, high, value)
    return None if number is None else int(number)


def _coordinate(element: etree._Element, attribute: str, default: int | None = 0,
                value: str | None = None) -> int | None:
    return _bounded_int(element, attribute, default, -MAX_PIXELS, MAX_PIXELS, value)


def _spacing(element: etree._Element, attribute: str, default: float) -> float:
    return _bounded(element, attribute, default, MIN_SPACING, MAX_SPACING)


def _bool(value: str | None, default: bool = False) -> bool:
    return default if value in (None, "") else value == "true"


ImageSizer = Callable[[str], "tuple[int, int] | None"]


def read_module(root: etree._Element, image_size: ImageSizer | None = None) -> Module:
    """The module described by a parsed buildFile; ``image_size(name)`` measures board images if it can."""
    module = Module(
        name=root.get("name", ""), version=root.get("version", ""),
        vassal_version=root.get("VassalVersion") or root.get("vassalVersion") or "",
        description=root.get("description", ""), root_class=root.tag if isinstance(root.tag, str) else "")
    if _short(root.tag).endswith("ModuleExtension"):
        # An extension names the module it extends; its own name is its file's (VASSAL's too).
        module.is_extension = True
        module.extends = (root.get("module", ""), root.get("moduleVersion", ""))
    map_index = 0
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        short = _short(element.tag)
        if short.endswith("PrototypeDefinition"):
            module.prototypes[element.get("name", "")] = text_of(element)
    for element in _walk(root):
        short = _short(element.tag)
        if _is_map(element):
            module.maps.append(_read_map(element, map_index, image_size))
            map_index += 1
        elif short.endswith(("PieceSlot", "CardSlot")):
            slot = _read_slot(element, module.prototypes)
            if slot is not None:
                module.slots.append(slot)
        elif short.endswith("DiceButton"):
            module.dice.append(_read_dice(element, short))
        elif short.endswith("PlayerRoster"):
            module.sides.extend(text_of(entry) for entry in element if _short(entry.tag) == "entry")
    return module


def _walk(element: etree._Element):
    for child in _children(element):
        yield child
        yield from _walk(child)


def _is_map(element: etree._Element) -> bool:
    return any(_short(child.tag).endswith("BoardPicker") for child in _children(element))


def _read_map(element: etree._Element, index: int, image_size) -> MapDef:
    name = element.get("mapName", "")
    edge_w = element.get("edgeWidth")
    edge_h = element.get("edgeHeight")
    combined = element.get("edgeSize")  # the legacy "w,h" attribute
    if combined and (edge_w is None or edge_h is None):
        parts = combined.split(",")
        edge_w, edge_h = parts[0], parts[1] if len(parts) > 1 else parts[0]
    map_def = MapDef(id=name or f"Map{index}", name=name, kind=_short(element.tag),
                     edge_width=_coordinate(element, "edgeWidth", value=edge_w or ""),
                     edge_height=_coordinate(element, "edgeHeight", value=edge_h or ""))
    for deck in _walk(element):
        if _short(deck.tag).endswith("DrawPile"):
            map_def.decks.append((deck.get("name", ""), _coordinate(deck, "x"), _coordinate(deck, "y"),
                                  deck.get("owningBoard", "") or ""))
    for picker in _children(element):
        if not _short(picker.tag).endswith("BoardPicker"):
            continue
        for child in _children(picker):
            short = _short(child.tag)
            if short == "setup":
                map_def.default_layout = text_of(child)
            elif short.endswith("Board"):
                map_def.boards.append(_read_board(child, image_size))
    return map_def


def image_name_inside(name: str) -> bool:
    """Whether ``images/<name>`` stays inside the module: no absolute path, drive, ``..`` part or NUL."""
    if not name or "\0" in name or name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return False
    return ".." not in name.replace("\\", "/").split("/")


def _read_board(element: etree._Element, image_size) -> Board:
    board = Board(name=element.get("name", ""), image=element.get("image", "") or "",
                  reversible=_bool(element.get("reversible")))
    if board.image and not image_name_inside(board.image):
        # Read from outside the module, the picture would put facts about another file into the written module.
        raise BuildFileError(element, f"board {board.name[:60]!r} names its image {board.image[:80]!r}, outside the module's images/")
    measured = image_size(board.image) if (image_size and board.image) else None
    if measured:
        board.width, board.height = measured
    elif not board.image:
        board.width = _bounded_int(element, "width", None, 0, MAX_PIXELS)
        board.height = _bounded_int(element, "height", None, 0, MAX_PIXELS)
    for child in _children(element):
        grid = read_grid(child)
        if grid is not None:
            board.grid = grid
            break
    return board


def read_grid(element: etree._Element) -> Grid | None:
    """A grid element (hex, square, region or zoned), or ``None`` if ``element`` is not one."""
    short = _short(element.tag)
    if short.endswith("ZonedGrid"):
        zoned = ZonedGrid()
        for child in _children(element):
            child_short = _short(child.tag)
            if child_short.endswith("Zone"):
                zoned.zones.append(_read_zone(child))
            else:
                grid = read_grid(child)
                if isinstance(grid, (HexGrid, SquareGrid, RegionGrid)):  # VASSAL allows a region grid too
                    zoned.background = grid
        return zoned
    if short.endswith("HexGrid"):
        dy = _spacing(element, "dy", 64.0)
        dx = _spacing(element, "dx", (3 ** 0.5) / 2 * dy)
        return HexGrid(dx=dx, dy=dy, x0=_coordinate(element, "x0", 0), y0=_coordinate(element, "y0", 32),
                       sideways=_bool(element.get("sideways")), numbering=_numbering(element, hex_grid=True))
    if short.endswith("SquareGrid"):
        return SquareGrid(dx=_spacing(element, "dx", 48.0), dy=_spacing(element, "dy", 48.0),
                          x0=_coordinate(element, "x0", 24), y0=_coordinate(element, "y0", 24),
                          numbering=_numbering(element, hex_grid=False))
    if short.endswith("RegionGrid"):
        regions = [Region(child.get("name", ""), _coordinate(child, "originx"), _coordinate(child, "originy"))
                   for child in _children(element) if _short(child.tag).endswith("Region")]
        return RegionGrid(regions)
    return None


def _numbering(grid: etree._Element, hex_grid: bool) -> Numbering | None:
    for child in _children(grid):
        if _short(child.tag).endswith("GridNumbering"):
            get = child.get
            return Numbering(
                first=(get("first") or "H")[:1], sep=get("sep", "") or "",
                h_type=(get("hType") or "N")[:1], v_type=(get("vType") or "N")[:1],
                h_leading=_bounded_int(child, "hLeading", 1, -MAX_INDEX, MAX_LEADING),
                v_leading=_bounded_int(child, "vLeading", 1, -MAX_INDEX, MAX_LEADING),
                h_off=_bounded_int(child, "hOff", 0, -MAX_INDEX, MAX_INDEX),
                v_off=_bounded_int(child, "vOff", 0, -MAX_INDEX, MAX_INDEX),
                h_descend=_bool(get("hDescend")), v_descend=_bool(get("vDescend")),
                location_format=get("locationFormat") or "$gridLocation$",
                stagger=_bool(get("stagger"), True) if hex_grid else False,
                oblique=_short(child.tag).endswith("ObliqueHexGridNumbering"))
    return None


def _read_zone(element: etree._Element) -> Zone:
    points = []
    for pair in (element.get("path") or "").split(";"):
        xy = pair.split(",")
        if len(xy) == 2 and all(part.strip().lstrip("-").isdigit() for part in xy):
            points.append((_coordinate(element, "path", value=xy[0]), _coordinate(element, "path", value=xy[1])))
    zone = Zone(name=element.get("name", ""), polygon=points,
                location_format=element.get("locationFormat") or "$name$",
                use_parent_grid=_bool(element.get("useParentGrid")))
    for child in _children(element):
        grid = read_grid(child)
        if grid is not None:
            zone.grid = grid
            break
    return zone


def _read_dice(element: etree._Element, short: str) -> DiceButton:
    get = element.get
    keep = None
    if _bool(get("keepDice")):
        keep = f"{get('keepOption', '>')}{get('keepCount', '1')}"
    if short.endswith("SpecialDiceButton"):
        # Its dice are child elements, each with one child per face.
        dice = [child for child in _children(element) if _short(child.tag).endswith("SpecialDie")]
        faces = len([face for face in _children(dice[0]) if isinstance(face.tag, str)]) if dice else 0
        return DiceButton(name=get("name") or get("text") or "", kind=short, n_dice=len(dice), n_sides=faces,
                          report_format=get("format") or None)
    return DiceButton(
        name=get("name") or get("text") or "", kind=short,
        n_dice=_int(get("nDice"), 2), n_sides=_int(get("nSides"), 6), plus=_int(get("plus"), 0),
        add_to_total=_int(get("addToTotal"), 0), report_total=_bool(get("reportTotal")),
        report_format=get("reportFormat"), keep=keep)


def _read_slot(element: etree._Element, prototypes: dict[str, str]) -> PieceSlot | None:
    text = text_of(element)
    if not text:
        return None
    command = parse_command(text)
    if not isinstance(command, AddPiece):
        return None
    try:
        types, states = expand_prototypes(command.type, command.state, prototypes)
    except (PieceError, ValueError) as error:  # a chain too long, prototypes that explode
        raise BuildFileError(element, f"{element.get('entryName', '')!r}: {error}") from None
    traits = [Trait(trait_kind(t), t, s) for t, s in zip(types, states)]
    piece = piece_from_traits(None, traits) if traits and command.type != "stack" else None
    return PieceSlot(name=element.get("entryName", ""), gpid=element.get("gpid"), type=command.type,
                     state=command.state, traits=traits, piece=piece)


MAX_EXPANDED_LINKS = 10_000  # links visited expanding one piece's prototypes: real pieces stay in the hundreds


def expand_prototypes(type_text: str, state_text: str, prototypes: dict[str, str],
                      depth: int = 0, budget: list[int] | None = None) -> tuple[list[str], list[str]]:
    """The type and state links of a piece with every ``prototype;Name`` replaced by that prototype's traits.

    As ``UsePrototype`` does: the prototype's own placeholder BasicPiece is dropped, its traits bring their
    own states, prototypes inside prototypes are expanded too, parameters (``prototype;Name;k=v``) are
    substituted into the definition, and comments (``cmt;``) go.  Prototypes that use each other many
    times over would expand exponentially: past :data:`MAX_EXPANDED_LINKS` links it is a :class:`PieceError`.
    """
    budget = [MAX_EXPANDED_LINKS] if budget is None else budget
    types = split_chain(type_text, TAB)
    budget[0] -= len(types)
    if budget[0] < 0:
        raise PieceError(f"prototypes expand to more than {MAX_EXPANDED_LINKS} traits")
    states = split_chain(state_text, TAB) if state_text else [""]
    states += [""] * (len(types) - len(states))
    out_types: list[str] = []
    out_states: list[str] = []
    for index, (link, state) in enumerate(zip(types, states)):
        last = index == len(types) - 1
        if not last and link.startswith("prototype;") and depth < 50:
            fields = split(link, ";")
            definition = prototypes.get(fields[1] if len(fields) > 1 else "")
            if definition is None:
                continue
            if len(fields) > 2:
                # Parameters ``k=v,…`` fill ``$k$`` in the definition, as a FormattedString would.
                params = {}
                for pair in split(fields[2], ","):
                    key_value = split(pair, "=")
                    if len(key_value) > 1:
                        params[key_value[0]] = key_value[1]
                definition = substitute(definition, params)
            command = parse_command(definition)
            if not isinstance(command, AddPiece):
                continue
            inner_types, inner_states = expand_prototypes(command.type, command.state, prototypes, depth + 1, budget)
            out_types.extend(inner_types[:-1])
            out_states.extend(inner_states[:-1])
        elif not last and link.startswith("cmt;"):
            continue
        else:
            out_types.append(link)
            out_states.append(state)
    return out_types, out_states


def image_sizer(read_image: Callable[[str], "bytes | None"]) -> ImageSizer:
    """Measure ``images/<name>`` with Pillow (header only); ``read_image(name)`` returns bytes or ``None``."""
    from PIL import Image

    cache: dict[str, tuple[int, int] | None] = {}

    def size(name: str) -> tuple[int, int] | None:
        if name not in cache:
            data = read_image(name)
            cache[name] = None
            if data:
                try:
                    with Image.open(io.BytesIO(data)) as image:
                        cache[name] = image.size
                except Exception:  # any undecodable image just leaves the size unknown
                    cache[name] = None
        return cache[name]

    return size


def folder_image_reader(folder: Path, limit: int = 64 * 1024 * 1024):
    """Images of an unpacked module: ``<folder>/images/<name>``, if present."""
    from pbem.model.files import read_bytes

    images = (folder / "images").resolve()

    def read(name: str) -> bytes | None:
        if not image_name_inside(name):
            return None
        path = (images / name).resolve()  # a link inside images/ may still point out of the module: not followed
        if not path.is_relative_to(images) or not path.is_file():
            return None
        try:
            return read_bytes(path, limit)
        except Exception:
            return None

    return read
