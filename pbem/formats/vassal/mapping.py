"""A module's VASSAL mapping (``modules/<game>/vassal.json``): pieces to units, VASSAL places to locations.

Everything game-specific about reading a game's VASSAL files is data in that file; this module only
interprets it: regexes with named groups, and templates filled from those groups.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.formats.vassal.traits import Piece
from pbem.model import schemas
from pbem.model.errors import PbemError
from pbem.model.jsonsource import JsonDocument, load_json
from pbem.model.module import Module
from pbem.model.patterns import PatternError, compile_pattern
from pbem.model.patterns import match as pattern_match
from pbem.model.printable import one_line

MAPPING_FILE = "vassal.json"
_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?::(0?)([0-9]))?\}")


def fill(template: str, groups: dict[str, str], n: int | None = None) -> str:
    """``template`` with ``{group}``, ``{GROUP}`` (upper-cased) and ``{n:02}`` filled in.

    >>> fill("{SIDE}-{number:02}", {"side": "cp", "number": "7"})
    'CP-07'
    """

    def one(match: re.Match) -> str:
        name, zero, width = match.group(1), match.group(2), match.group(3)
        if name == "n":
            value: str = "" if n is None else str(n)
        elif name in groups:
            value = groups[name] or ""
        elif name.isupper() and name.lower() in groups:
            value = (groups[name.lower()] or "").upper()
        else:
            raise KeyError(name)
        if width and value.isdigit():
            value = value.rjust(int(width), "0" if zero else " ")
        return value

    return _FIELD.sub(one, template)


def _exact_name(pattern: str) -> str | None:
    """The one name ``pattern`` matches if it is ``^`` + ``re.escape(name)`` + ``$`` (RE2's ``$`` is the end of
    the text), else None."""
    if not (pattern.startswith("^") and pattern.endswith("$")) or len(pattern) < 2 or pattern.endswith("\\$"):
        return None
    body = pattern[1:-1]
    name = re.sub(r"\\(.)", r"\1", body, flags=re.S)
    return name if re.escape(name) == body else None


def _plain(text: str) -> bool:
    return not any(c in text for c in "\\\t;,")


def marker_properties(piece: Piece) -> dict[str, str]:
    """A piece's Marker-trait properties (``mark;Name`` with its value as state)."""
    out: dict[str, str] = {}
    for trait in piece.traits:
        if trait.kind == "mark;":
            name = trait.type[len("mark;"):]
            out.setdefault(name, trait.state)
    return out


@dataclass
class Mapping:
    """A loaded, checked ``vassal.json``, reading pieces as one version family does (``family``; None: as the
    top level does)."""

    module: Module
    document: JsonDocument
    family: dict[str, Any] | None = None
    game_module: str | None = None  # the VASSAL module name and version a save records (None: not recorded)
    game_version: str | None = None
    board: str | None = None  # the game map's board in the save (None: the places' own board)
    # Rules whose pattern is one exact name (``^`` + ``re.escape(name)`` + ``$``, as module import writes one per
    # palette piece) found by a dict look-up: 20,000 pieces against 20,000 rules is not 400 million matches.
    _exact: dict[str, int] | None = field(default=None, init=False, repr=False, compare=False)
    _patterned: list[int] = field(default_factory=list, init=False, repr=False, compare=False)
    _units: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def data(self) -> dict[str, Any]:
        return self.document.data

    @property
    def file(self) -> str:
        return self.document.file

    @property
    def units(self) -> dict[str, Any]:
        """The piece rules in force: the top level's ``units``, with the family's keys over them."""
        if self._units is None:
            units = self.data["units"]
            if self.family is not None and "units" in self.family:
                units = {**units, **self.family["units"]}
            self._units = units
        return self._units

    # --- which VASSAL modules -------------------------------------------------------------------------
    def answers_to(self, name: str | None, version: str | None) -> bool:
        for entry in self.data["vassal_modules"]:
            if name == entry["name"] and (
                "versions" not in entry or any(fnmatch.fnmatchcase(version or "", v) for v in entry["versions"])
            ):
                return True
        return False

    def claimed(self) -> str:
        """The VASSAL modules and versions the mapping reads, as a reader would write them."""
        return "; ".join(f"{e['name']} {', '.join(e.get('versions', ['(any version)']))}" for e in self.data["vassal_modules"])

    @property
    def families(self) -> list[dict[str, Any]]:
        return self.data.get("version_families", [])

    def family_of(self, version: str | None) -> dict[str, Any] | None:
        """The first version family that lists ``version``, or None."""
        for family in self.families:
            if any(fnmatch.fnmatchcase(version or "", v) for v in family["versions"]):
                return family
        return None

    def reading(self, family: dict[str, Any] | None, game_module: str | None = None, game_version: str | None = None) -> "Mapping":
        """This mapping reading pieces as ``family`` does, for a save of that VASSAL module and version (a copy:
        the loaded mapping is shared)."""
        return Mapping(self.module, self.document, family, game_module, game_version, self.board)

    def on_board(self, board: str | None) -> "Mapping":
        """This reading for a save whose game map holds ``board``."""
        return Mapping(self.module, self.document, self.family, self.game_module, self.game_version, board)

    @property
    def status_from(self) -> str | None:
        """The scenario whose status fills what a save does not show: its board's, else the mapping's."""
        boards = self.data.get("places", {}).get("boards", {})
        return boards.get(self.board or "", {}).get("status_from", self.data.get("status_from"))

    @property
    def version_read(self) -> str:
        """Which VASSAL module version a file is from, and how its pieces are read, for reports: ``VASSAL module
        Paths of Glory 10.0 (pieces named as in 10.0-10.1)``."""
        if self.game_version is not None:  # written by whoever made the file: one short line
            what = f"VASSAL module {one_line(self.game_module or '')[:60]} {one_line(self.game_version)[:40]}"
        else:
            what = "VASSAL module version not recorded in the file"
        if self.family is None:
            return what
        return what + (f" (pieces named as in {self.family['name']})" if self.game_version is not None
                       else f"; its pieces are named as in {self.family['name']}")

    def readings(self) -> list["Mapping"]:
        """One reading per version family (the top level's alone when there are none)."""
        return [self.reading(family) for family in self.families] or [self.reading(None)]

    def side(self, written: str) -> str:
        return self.data.get("sides", {}).get(written, written.lower())

    # --- units ----------------------------------------------------------------------------------------
    def is_unit_piece(self, piece: Piece) -> bool:
        if self.units.get("match") == "basic_name" and self.unit_rule(piece.basic_name) is None:
            return False  # decided without decoding the piece's whole trait chain
        return self.is_unit_candidate(piece)

    def is_candidate(self, piece: Piece) -> bool:
        """A piece that should be a unit: one with a unit's marker properties when the mapping gives them (named
        by a rule or not), else one the rules may name."""
        return self.is_unit_candidate(piece) if self.units.get("only") else self.is_unit_piece(piece)

    def is_unit_candidate(self, piece: Piece) -> bool:
        """Whether the piece has the marker properties of a unit (``units.only``), whatever its name: a candidate
        no rule names is a unit the mapping does not know (or a save of a version it reads differently)."""
        only = self.units.get("only")
        if not only:
            return True
        # A Marker trait's name and value are written unescaped in every link of the chain when they hold no
        # separator: a piece whose type or state lacks them is decided without decoding its chain.
        if piece.type_text and all(_plain(key) and _plain(value) for key, value in only.items()):
            if not all(f"mark;{key}" in piece.type_text and value in piece.state_text for key, value in only.items()):
                return False
        properties = marker_properties(piece)
        return all(properties.get(k) == v for k, v in only.items())

    def face(self, name: str) -> tuple[str, int]:
        """(full-face name, step) of a piece name: step 1 when the name shows the reduced face, or the number the
        pattern's group ``lost`` reads (a counter of three or more steps: "ID (reduced 2)" is step 2)."""
        pattern = self.units.get("reduced_name")
        if pattern:
            found = pattern_match(pattern, name)
            if found:
                lost = found.groupdict().get("lost")
                return found.group("name"), int(lost) if lost and lost.isdigit() and len(lost) <= 3 else 1
        return name, 0

    def unit_rule(self, name: str) -> tuple[str, str, dict[str, str]] | None:
        """("unit" or "generic", template, groups) for a full-face piece name, or None: the first rule that
        matches, as if each were tried in turn."""
        rules = self.units["pieces"]
        if self._exact is None:
            self._exact = {}
            for k, rule in enumerate(rules):
                exact = _exact_name(rule["name"])
                if exact is None:
                    self._patterned.append(k)
                else:
                    self._exact.setdefault(exact, k)
        first = self._exact.get(name, len(rules))
        for k in self._patterned:
            if k > first:
                break
            found = pattern_match(rules[k]["name"], name)
            if found:
                kind = "unit" if "unit" in rules[k] else "generic"
                return kind, rules[k][kind], found.groupdict()
        if first < len(rules):
            kind = "unit" if "unit" in rules[first] else "generic"
            return kind, rules[first][kind], {}
        return None

    def coverage(self, pieces: dict[str, Piece]) -> tuple[int, int]:
        """(unit candidates, those a piece rule names) among ``pieces``: how well this reading fits a save."""
        candidates = named = 0
        for piece in pieces.values():
            if self.is_candidate(piece):
                candidates += 1
                named += self.unit_rule(self.face(piece.name)[0]) is not None
        return candidates, named

    # --- locations ------------------------------------------------------------------------------------
    def location(self, map_id: str | None, name: str | None) -> tuple[str, str] | None:
        """("space", label) or ("box", box) for a VASSAL map and location name, or None if unmapped."""
        places = self.data["locations"]
        if map_id != places["map"]:
            box = places.get("maps", {}).get(map_id or "")
            return ("box", box) if box else None
        if name is None:
            return None
        named = places.get("names", {}).get(name)
        if named is not None:
            return ("box", named) if named in self.module.boxes else ("space", named)
        if places.get("same_names") and self.module.map.find(name) is not None:
            return "space", self.module.map.label(self.module.map.find(name))
        for pattern in places.get("patterns", ()):
            if pattern_match(pattern["match"], name):
                return "box", pattern["box"]
        return None

    # --- cards and dice -------------------------------------------------------------------------------
    def card_of(self, piece: Piece) -> str | None:
        cards = self.data.get("cards")
        if not cards:
            return None
        for image in piece.images:
            found = pattern_match(cards["image"], image)
            if found:
                card = fill(cards["card"], found.groupdict())
                return card if card in self.module.cards else None
        return None

    def card_use(self, location: str | None) -> str | None:
        cards = self.data.get("cards")
        return cards["plays"].get(location or "") if cards else None

    def dice(self, button: str | None) -> dict[str, str] | None:
        return self.data.get("dice", {}).get(button or "")

    def vassal_module(self):
        """A VASSAL module description built from ``places`` (regions, decks, dice reports), or None."""
        from pbem.formats.vassal.buildfile import Board, DiceButton, MapDef
        from pbem.formats.vassal.buildfile import Module as VassalModule
        from pbem.formats.vassal.grids import Region, RegionGrid

        places = self.data.get("places")
        if places is None:
            from pbem.formats.vassal.geometry import imported_module

            return imported_module(self.module.path)  # a module imported from VASSAL keeps its maps whole
        boards = [Board(places["board"], grid=RegionGrid([Region(name, x, y) for name, x, y in places["regions"]]))]
        boards += [Board(name, grid=RegionGrid([Region(n, x, y) for n, x, y in other["regions"]]))
                   for name, other in places.get("boards", {}).items()]
        game_map = MapDef(id=places["map"], name=places["map"], kind="Map", boards=boards,
                          decks=[(name, x, y, "") for name, (x, y) in places.get("decks", {}).items()])
        dice = []
        for name, report in places.get("dice_reports", {}).items():
            rolled = self.dice(name) or {}
            count, _, sides = rolled.get("dice", "1d6").partition("d")
            dice.append(DiceButton(name, "SpecialDiceButton", n_dice=int(count or 1), n_sides=int(sides), report_format=report))
        first = self.data["vassal_modules"][0]
        return VassalModule(name=first["name"], maps=[game_map], dice=dice)


def mapping_path(module: Module) -> Path:
    return Path(module.path) / MAPPING_FILE


def load_mapping(module: Module) -> Mapping:
    """The module's ``vassal.json``, schema-checked and cross-checked against the module."""
    path = mapping_path(module)
    if not path.is_file():
        raise PbemError.at(path, f"module {module.id} has no VASSAL mapping ({MAPPING_FILE})")
    document = load_json(path)
    schemas.check(document, "vassal")
    mapping = Mapping(module, document)
    check_mapping(mapping)
    return mapping


def check_mapping(mapping: Mapping) -> None:
    """Every box, location, template, scenario and card the mapping names exists in the module."""
    data, module, document = mapping.data, mapping.module, mapping.document
    if data["module"] != module.id:
        raise document.error("/module", f"this mapping is for module {data['module']!r}, not {module.id!r}")
    for pointer, regex in _regexes(data):
        try:
            compile_pattern(regex)
        except PatternError as error:
            raise document.error(pointer, str(error)) from None
    # Groups the readers take from a match (found by the fuzz pass: a pattern without them crashed the reader).
    for pointer, regex, group, what in _named_groups(data):
        if group not in compile_pattern(regex).groupindex:
            raise document.error(pointer, f"{what} needs a group named {group!r}")
    places = data["locations"]
    for pointer, box in ([(f"/locations/patterns/{k}/box", p["box"]) for k, p in enumerate(places.get("patterns", ()))]
                         + [(f"/locations/maps/{k}", b) for k, b in places.get("maps", {}).items()]
                         + ([("/locations/inactive_nations/box", places["inactive_nations"]["box"])] if "inactive_nations" in places else [])):
        if box not in module.boxes:
            raise document.error(pointer, f"{box!r} is not a box of {module.id} ({', '.join(module.boxes)})")
    for name, target in places.get("names", {}).items():
        if target not in module.boxes and module.map.find(target) is None:
            raise document.error(f"/locations/names/{name}", f"{target!r} is neither a location nor a box of {module.id}")
    for side in data.get("sides", {}).values():
        if side not in module.sides:
            raise document.error("/sides", f"side {side!r} is not one of {', '.join(module.sides)}")
    scenarios = [("/status_from", data.get("status_from"))] + [
        (f"/places/boards/{name}/status_from", other.get("status_from")) for name, other in data.get("places", {}).get("boards", {}).items()]
    for pointer, scenario in scenarios:
        if scenario is not None and scenario not in module.scenarios:
            raise document.error(pointer, f"module {module.id} has no scenario {scenario!r}")
    for at, units in _unit_sections(data):
        for k, rule in enumerate(units.get("pieces", ())):
            kind = "unit" if "unit" in rule else "generic"
            groups = set(compile_pattern(rule["name"]).groupindex)
            _check_fields(document, f"{at}/pieces/{k}/{kind}", rule[kind], groups, "the name regex")
            if kind == "unit" and not groups and rule["unit"] not in module.units:
                raise document.error(f"{at}/pieces/{k}/unit", f"unknown unit {rule['unit']!r}")
            if kind == "generic" and not any(_matches_template(rule["generic"], unit_id) for unit_id in module.units):
                raise document.error(f"{at}/pieces/{k}/generic", f"no unit of {module.id} fits {rule['generic']!r}")
    for k, marker in enumerate(data.get("markers", ())):
        groups = set(compile_pattern(marker["name"]).groupindex)
        for key, template in marker["value"].items():
            _check_fields(document, f"/markers/{k}/value/{key}", template, groups, "the marker's name regex")
    if "cards" in data:
        _check_fields(document, "/cards/card", data["cards"]["card"], set(compile_pattern(data["cards"]["image"]).groupindex), "the card image regex")
    for use in data.get("cards", {}).get("plays", {}).values():
        if not use:
            raise document.error("/cards/plays", "an empty use")
    _check_families(mapping)


def _check_fields(document: JsonDocument, pointer: str, template: str, groups: set[str], what: str) -> None:
    """Every ``{field}`` of ``template`` but ``{n}`` is a named group (or one upper-cased) of the regex."""
    for found in _FIELD.findall(template):
        name = found[0]
        if name != "n" and name not in groups and not (name.isupper() and name.lower() in groups):
            raise document.error(pointer, f"template field {{{name}}} is not a group of {what}")


def _check_families(mapping: Mapping) -> None:
    """Family names are distinct, and every version a family lists is one the mapping claims."""
    document, seen = mapping.document, set()
    for k, family in enumerate(mapping.families):
        if family["name"] in seen:
            raise document.error(f"/version_families/{k}/name", f"two version families are named {family['name']!r}")
        seen.add(family["name"])
        for j, version in enumerate(family["versions"]):
            claimed = [v for e in mapping.data["vassal_modules"] for v in e.get("versions", ["*"])]
            if not any(fnmatch.fnmatchcase(version, v) for v in claimed):
                raise document.error(f"/version_families/{k}/versions/{j}", f"version {version!r} is not one the mapping claims (vassal_modules: {', '.join(claimed)})")


def _unit_sections(data: dict[str, Any]):
    """(pointer, units) for the top level's ``units`` and each version family's."""
    yield "/units", data["units"]
    for k, family in enumerate(data.get("version_families", ())):
        if "units" in family:
            yield f"/version_families/{k}/units", family["units"]


def _matches_template(template: str, unit_id: str) -> bool:
    regex = _FIELD.sub(lambda m: r"\d+" if m.group(1) == "n" else r"[A-Za-z0-9]+", re.escape(template).replace(r"\{", "{").replace(r"\}", "}"))
    return re.fullmatch(regex, unit_id) is not None


def _named_groups(data: dict[str, Any]):
    """Each pattern whose match a reader takes a named group from: (pointer, pattern, group, what it is)."""
    for at, units in _unit_sections(data):
        if "reduced_name" in units:
            yield f"{at}/reduced_name", units["reduced_name"], "name", "the reduced face's pattern (the full face's name)"
    for k, counter in enumerate(data.get("counters", ())):
        yield f"/counters/{k}/location", counter["location"], "value", "a counter's location pattern (the track's number)"
    if "attack_chat" in data.get("turn", {}):
        yield "/turn/attack_chat", data["turn"]["attack_chat"], "target", "the attack declaration's pattern (the space attacked)"


def _regexes(data: dict[str, Any]):
    for at, units in _unit_sections(data):
        for k, rule in enumerate(units.get("pieces", ())):
            yield f"{at}/pieces/{k}/name", rule["name"]
        if "reduced_name" in units:
            yield f"{at}/reduced_name", units["reduced_name"]
    for k, pattern in enumerate(data["locations"].get("patterns", ())):
        yield f"/locations/patterns/{k}/match", pattern["match"]
    for k, marker in enumerate(data.get("markers", ())):
        yield f"/markers/{k}/name", marker["name"]
        if "basic_name" in marker:
            yield f"/markers/{k}/basic_name", marker["basic_name"]
    for k, counter in enumerate(data.get("counters", ())):
        yield f"/counters/{k}/name", counter["name"]
        yield f"/counters/{k}/location", counter["location"]
        if "basic_name" in counter:
            yield f"/counters/{k}/basic_name", counter["basic_name"]
    if "cards" in data:
        yield "/cards/image", data["cards"]["image"]
    for nation, pattern in data["locations"].get("inactive_nations", {}).get("markers", {}).items():
        yield f"/locations/inactive_nations/markers/{nation}", pattern
    if "attack_chat" in data.get("turn", {}):
        yield "/turn/attack_chat", data["turn"]["attack_chat"]
