"""The art style a module declares in ``art.json``: nationality colours, value layout, arm symbols, terrain,
per-counter-type colours and icons, and the names players use for the module's phases and special orders.

Every key is optional; a module without ``art.json`` gets a plain default style. The file is input from
outside like any other: it is size-bounded, checked, and a bad value is a :class:`PbemError` naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from PIL import ImageColor

from pbem.model.errors import PbemError
from pbem.model.jsonsource import JsonDocument, load_json
from pbem.model.patterns import compile_pattern
from pbem.model.units import CounterType

_FIELD = re.compile(r"\{(\w+)\}")


@dataclass(frozen=True)
class NationStyle:
    """Colours of one nationality's counters."""

    background: str = "#d8d8d8"
    text: str = "#000000"
    symbol: str = "#ffffff"  # fill inside the unit-symbol frame
    line: str = "#000000"  # frame, icon and echelon strokes
    reduced: str = "#ffffff"  # stripe that marks a reduced face


@dataclass(frozen=True)
class ValuePart:
    """One printed value of a face: a step value (attack, defence, move) or a counter attribute.

    Conditions name a counter attribute (true, non-zero, non-empty on this face) or ``mechanized``.
    """

    field: str
    sup: str | None = None  # value printed small and raised after it (a range)
    when: str | None = None  # print only if this condition holds
    unless: str | None = None  # print only if it does not
    box: str | None = None  # condition: white on a black box (e.g. doubled on defence)
    parens: str | None = None  # condition: in parentheses (e.g. defence only)
    dash: str | None = None  # condition: a dash instead of the value (e.g. off-map artillery)
    fill: str | None = None  # background colour behind the value
    fill_if: str | None = None  # condition for ``fill`` (always when absent)
    text: str | None = None  # text colour on ``fill``


@dataclass(frozen=True)
class Printed:
    """A value as it is printed: its text, raised text, and the colours behind and of it."""

    text: str
    sup: str = ""
    fill: str | None = None
    colour: str | None = None


@dataclass(frozen=True)
class TypeStyle:
    """What one counter type changes of its nationality's look (e.g. red armour, blue artillery)."""

    colours: dict[str, str] = field(default_factory=dict)  # NationStyle fields
    icons: tuple[str, ...] | None = None
    caption: str | None = None  # printed above the symbol instead of the echelon (e.g. "122mm", "T-26")


@dataclass(frozen=True)
class StatusMark:
    """A value the state's status keeps per location (e.g. ``trenches``: space -> level and owner), drawn on it."""

    status: str  # key of the state's status holding a location -> value (or object) mapping
    text: str  # template over the value's fields ({level}) or {value}
    fill: dict[str, str] = field(default_factory=dict)  # value of ``key`` -> badge colour
    key: str | None = None  # the field choosing the colour (e.g. owner)
    default: str = "#404040"
    unless_map: str | None = None  # skip a value equal to this map property of the location (a space's own side)


@dataclass(frozen=True)
class CounterStyle:
    """How a module's counters look."""

    nations: dict[str, NationStyle] = field(default_factory=dict)
    default: NationStyle = NationStyle()
    values: str | tuple[ValuePart, ...] = "{attack}-{defence}-{move}"  # template, or printed parts
    quality: bool = False  # print the counter type's quality in the top-left corner
    arms: dict[str, tuple[str, ...]] = field(default_factory=dict)  # arm -> icon names
    terrain: dict[str, str] = field(default_factory=dict)  # terrain -> fill colour on map pictures
    countries: dict[str, str] = field(default_factory=dict)  # country -> tint on map pictures
    types: dict[str, TypeStyle] = field(default_factory=dict)  # counter type id -> its own look
    phases: dict[str, str] = field(default_factory=dict)  # phase id -> the name players use
    orders: dict[str, str] = field(default_factory=dict)  # special order or action kind -> its name
    sides: dict[str, str] = field(default_factory=dict)  # side id -> its name ("finnish" -> "Finnish")
    designation: str | None = None  # regular expression: the part of a unit's id printed on its counter
    layout: str = "standard"  # "standard" (SPI's) or "large_id" (nationality on top, the designation large beside the symbol)
    nationality_label: bool = False  # print the counter's nationality (GE, FR...) in its top-left corner
    sizes: dict[str, float] = field(default_factory=dict)  # unit size (XXXX, XXX) -> counter side relative to the rest
    labels: dict[str, str] = field(default_factory=dict)  # turn-picture label kind -> template in the game's words
    status_marks: tuple["StatusMark", ...] = ()  # per-location values of the state's status drawn on the map
    map_scale: float = 1.0  # a point-to-point map's pixels per position unit (room for legible counters)
    # A map feature a game's status chooses: feature -> (status key, status value -> the map feature drawn instead),
    # e.g. the VP spaces of the map a scenario scores on.
    status_features: dict[str, tuple[str, dict[str, str]]] = field(default_factory=dict)
    # A bar across the top of each face from a counter attribute (one name per face) and the names' colours, e.g.
    # the establishment bar of a three-state counter: ("bars", {"black": "#111111", "white": "#ffffff"}).
    bars: tuple[str, dict[str, str]] | None = None
    # ``pbem module export`` draws each unit's own counter, designation printed, instead of one per counter type:
    # for a game whose counters differ only by their number (off by default: an export's bytes stay as they were).
    export_designations: bool = False

    def feature_names(self, status: dict[str, Any] | None) -> dict[str, str]:
        """Feature -> the map feature to draw for it under ``status`` (only those that change)."""
        out = {}
        for feature, (key, choices) in self.status_features.items():
            chosen = choices.get(str((status or {}).get(key)))
            if chosen:
                out[feature] = chosen
        return out

    def bar_colour(self, counter_type: CounterType, face: int) -> str | None:
        """The colour of the bar ``face`` shows under :attr:`bars` (``None``: no bar, e.g. "none" or a name without colour)."""
        if self.bars is None:
            return None
        names = counter_type.attributes.get(self.bars[0])
        if not isinstance(names, list) or not 0 <= face < len(names) or not isinstance(names[face], str):
            return None
        return self.bars[1].get(names[face])

    def faces(self, counter_type: CounterType) -> int:
        """How many printed faces a counter type has: one per step when the style draws bars, else front and back."""
        return max(2, len(counter_type.steps)) if self.bars is not None else 2

    def designation_of(self, unit_id: str) -> str:
        """What the counter of unit ``unit_id`` prints to tell it from identical counters (``""``: nothing).

        The pattern's match is printed, or its one group if it has one:

        >>> CounterStyle(designation="(?:[0-9]+-)?[0-9]+$").designation_of("PLA-INF-XXX-1-04")
        '1-04'
        >>> CounterStyle(designation="-([0-9]+)$").designation_of("PLA-INF-XXX-1-04")
        '04'
        """
        if not self.designation:
            return ""
        found = compile_pattern(self.designation).search(unit_id)
        if found is None:
            return ""
        return ((found.group(1) if found.re.groups else found.group(0)) or "")[:MAX_DESIGNATION]

    def scale_of(self, counter_type: CounterType) -> float:
        """How much larger than the others this type's counters are printed (5/8" armies beside 1/2" corps)."""
        return self.sizes.get(counter_type.size or "", 1.0)

    def label(self, kind: str, default: str, **fields: Any) -> str:
        """The module's label template ``kind`` (else ``default``) with its ``{field}``s filled in; unknown fields stay."""
        return fill_template(self.labels.get(kind) or default, fields)

    def nation(self, nationality: str) -> NationStyle:
        return self.nations.get(nationality, self.default)

    def colours(self, counter_type: CounterType) -> NationStyle:
        """The nationality's colours with the counter type's own changes."""
        base = self.nation(counter_type.nationality)
        own = self.types.get(counter_type.id)
        return replace(base, **own.colours) if own and own.colours else base

    def phase_name(self, phase: str) -> str:
        """The name the module gives phase ``phase``, else a readable form of the id (``night_move`` -> "Night move phase")."""
        return self.phases.get(phase) or (phase.replace("_", " ").capitalize() + " phase" if phase else "")

    def side_name(self, side: str) -> str:
        return self.sides.get(side) or side

    def order_name(self, order: str) -> str:
        return self.orders.get(order) or order.replace("_", " ").capitalize()


DEFAULT_TERRAIN = {
    "clear": "#eef0d0",
    "forest": "#9cc486",
    "woods": "#9cc486",
    "mountain": "#c8a878",
    "rough": "#d8c8a0",
    "hills": "#dccb92",
    "desert": "#f3e2ad",
    "swamp": "#a8c8b8",
    "marsh": "#a8c8b8",
    "lake": "#a8d0f0",
    "sea": "#8cbce8",
    "urban": "#d0c0c0",
    "city": "#d0c0c0",
}

VALUE_FIELDS = ("attack", "defence", "move", "loss")
LAYOUTS = ("standard", "large_id")
NATION_KEYS = ("background", "text", "symbol", "line", "reduced")
MAX_PARTS = 12  # values printed along a counter's bottom edge
MAX_DESIGNATION_PATTERN = 100
MAX_DESIGNATION = 8  # characters printed in a counter's corner
_PART_KEYS = {"field", "sup", "when", "unless", "box", "parens", "dash", "fill", "fill_if", "text"}
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")


def fill_template(template: str, fields: dict[str, Any]) -> str:
    """``template`` with each plain ``{field}`` replaced by its value (no format mini-language); unknown ones stay.

    >>> fill_template("trench {level}", {"level": 2})
    'trench 2'
    """
    return _FIELD.sub(lambda m: str(fields[m.group(1)]) if m.group(1) in fields else m.group(0), template)


def _colour(document: JsonDocument | None, pointer: str, value: Any) -> str:
    try:
        if not isinstance(value, str) or len(value) > 40:
            raise ValueError
        ImageColor.getrgb(value)
    except ValueError:
        if document is None:
            raise PbemError(f"{pointer}: {value!r} is not a colour") from None
        raise document.error(pointer, f"{value!r} is not a colour (use #rrggbb or a colour name)") from None
    return value


def style_from_json(data: dict[str, Any], document: JsonDocument | None = None) -> CounterStyle:
    """A :class:`CounterStyle` from the parsed ``art.json``; every value is checked."""

    def fail(pointer: str, message: str) -> PbemError:
        return document.error(pointer, message) if document is not None else PbemError(f"{pointer}: {message}")

    if not isinstance(data, dict):
        raise fail("", "art style must be a JSON object")

    def nation(entry: Any, pointer: str) -> NationStyle:
        if not isinstance(entry, dict):
            raise fail(pointer, "a nationality's style must be an object")
        unknown = set(entry) - set(NATION_KEYS)
        if unknown:
            raise fail(pointer, f"unknown key(s) {', '.join(sorted(unknown))}")
        return NationStyle(**{k: _colour(document, f"{pointer}/{k}", v) for k, v in entry.items()})

    nations = {}
    for name, entry in (data.get("nationalities") or {}).items():
        nations[name] = nation(entry, f"/nationalities/{name}")
    default = nation(data.get("default", {}), "/default")
    values: str | tuple[ValuePart, ...] = data.get("values", CounterStyle.values)
    if isinstance(values, list):
        if not 1 <= len(values) <= MAX_PARTS:
            raise fail("/values", f"values must list 1 to {MAX_PARTS} parts")
        values = tuple(_value_part(document, f"/values/{k}", part, fail) for k, part in enumerate(values))
    elif not isinstance(values, str) or len(values) > 60:
        raise fail("/values", "values must be a short template such as '{attack}-{defence}-{move}', or a list of parts")
    else:
        for name in _FIELD.findall(values):
            if name not in VALUE_FIELDS:
                raise fail("/values", f"unknown value field {{{name}}}; use {', '.join(VALUE_FIELDS)}")
        if "{" in _FIELD.sub("", values) or "}" in _FIELD.sub("", values):
            # Only plain {field}s: no format spec ({attack:>999999999} would allocate gigabytes), no {}.
            raise fail("/values", f"values template {values!r} may hold only plain fields such as {{attack}}, no other braces")

    def icon_list(icons: Any, pointer: str) -> tuple[str, ...]:
        if not isinstance(icons, list) or len(icons) > 8 or not all(isinstance(i, str) and len(i) <= 40 for i in icons):
            raise fail(pointer, "icons are a list of icon names")
        from pbem.art.symbols import ALIASES, ICONS

        for i, icon in enumerate(icons):
            if not icon.startswith("text:") and ALIASES.get(icon, icon) not in ICONS:
                raise fail(f"{pointer}/{i}", f"unknown icon {icon!r}; known: {', '.join(sorted(ICONS))}")
        return tuple(icons)

    arms = {arm: icon_list(icons, f"/arms/{arm}") for arm, icons in (data.get("arms") or {}).items()}
    types: dict[str, TypeStyle] = {}
    for type_id, entry in _object(data, "types", fail).items():
        pointer = f"/types/{type_id}"
        if not isinstance(entry, dict):
            raise fail(pointer, "a counter type's style must be an object")
        unknown = set(entry) - set(NATION_KEYS) - {"icons", "caption"}
        if unknown:
            raise fail(pointer, f"unknown key(s) {', '.join(sorted(unknown))}")
        caption = entry.get("caption")
        if caption is not None and (not isinstance(caption, str) or len(caption) > 16):
            raise fail(f"{pointer}/caption", "a caption is a short text (at most 16 characters)")
        types[type_id] = TypeStyle(
            {k: _colour(document, f"{pointer}/{k}", v) for k, v in entry.items() if k in NATION_KEYS},
            icon_list(entry["icons"], f"{pointer}/icons") if "icons" in entry else None,
            caption,
        )
    words = {}
    for key in ("phases", "orders", "sides"):
        names = _object(data, key, fail)
        for name, text in names.items():
            if not isinstance(text, str) or not 0 < len(text) <= 60:
                raise fail(f"/{key}/{name}", "a name is a text of 1 to 60 characters")
        words[key] = dict(names)
    terrain = dict(DEFAULT_TERRAIN)
    for name, colour in (data.get("terrain") or {}).items():
        terrain[name] = _colour(document, f"/terrain/{name}", colour)
    countries = {name: _colour(document, f"/countries/{name}", c) for name, c in (data.get("countries") or {}).items()}
    quality = data.get("quality", False)
    if not isinstance(quality, bool):
        raise fail("/quality", "quality must be true or false")
    designation = data.get("designation")
    if designation is not None:
        try:
            if not isinstance(designation, str) or not 0 < len(designation) <= MAX_DESIGNATION_PATTERN or compile_pattern(designation).groups > 1:
                raise ValueError
        except ValueError:  # PatternError too: a pattern RE2 cannot run in linear time
            raise fail(
                "/designation", f"designation must be a regular expression (at most {MAX_DESIGNATION_PATTERN} characters, one group at most) "
                "picking the printed part of a unit's id, e.g. \"(?:\\\\d+-)?\\\\d+$\""
            ) from None
    layout = data.get("layout", "standard")
    if layout not in LAYOUTS:
        raise fail("/layout", f"layout must be one of {', '.join(LAYOUTS)}")
    nationality_label = data.get("nationality_label", False)
    if not isinstance(nationality_label, bool):
        raise fail("/nationality_label", "nationality_label must be true or false")
    sizes = {}
    for size, ratio in _object(data, "sizes", fail).items():
        if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0.5 <= ratio <= 2:
            raise fail(f"/sizes/{size}", "a counter size is a ratio from 0.5 to 2")
        sizes[size] = float(ratio)
    labels = {}
    for kind, template in _object(data, "labels", fail).items():
        if not isinstance(template, str) or not 0 < len(template) <= 200 or "{" in _FIELD.sub("", template) or "}" in _FIELD.sub("", template):
            raise fail(f"/labels/{kind}", "a label is a text of 1 to 200 characters with plain {field}s only")
        labels[kind] = template
    map_scale = data.get("map_scale", 1.0)
    if isinstance(map_scale, bool) or not isinstance(map_scale, (int, float)) or not 0.25 <= map_scale <= 4:
        raise fail("/map_scale", "map_scale is a number from 0.25 to 4")
    map_scale = float(map_scale)
    status_features = {}
    for feature, entry in _object(data, "status_features", fail).items():
        pointer = f"/status_features/{feature}"
        choices = entry.get("values") if isinstance(entry, dict) else None
        if not isinstance(entry, dict) or not isinstance(entry.get("status"), str) or not isinstance(choices, dict) or set(entry) - {"status", "values"}:
            raise fail(pointer, "a status feature is {\"status\": KEY, \"values\": {VALUE: FEATURE}}")
        if not all(isinstance(v, str) and 0 < len(v) <= 40 for v in choices.values()):
            raise fail(f"{pointer}/values", "each value names a map feature")
        status_features[feature] = (entry["status"], dict(choices))
    marks = data.get("status_marks") or []
    if not isinstance(marks, list) or len(marks) > 8:
        raise fail("/status_marks", "status_marks is a list of at most 8 marks")
    status_marks = []
    for k, mark in enumerate(marks):
        pointer = f"/status_marks/{k}"
        if not isinstance(mark, dict) or not isinstance(mark.get("status"), str) or not isinstance(mark.get("text"), str) or len(mark["text"]) > 30:
            raise fail(pointer, "a status mark has a status key and a short text template")
        unknown = set(mark) - {"status", "text", "fill", "key", "default", "unless_map"}
        if unknown:
            raise fail(pointer, f"unknown key(s) {', '.join(sorted(unknown))}")
        fills = mark.get("fill") or {}
        if not isinstance(fills, dict):
            raise fail(f"{pointer}/fill", "fill maps values to colours")
        status_marks.append(StatusMark(
            mark["status"], mark["text"], {v: _colour(document, f"{pointer}/fill/{v}", c) for v, c in fills.items()},
            mark.get("key") if isinstance(mark.get("key"), str) else None, _colour(document, f"{pointer}/default", mark.get("default", "#404040")),
            mark.get("unless_map") if isinstance(mark.get("unless_map"), str) else None,
        ))  # fmt: skip
    bars = None
    if data.get("bars") is not None:
        entry = data["bars"]
        if (
            not isinstance(entry, dict) or set(entry) - {"attribute", "colours"} or not isinstance(entry.get("attribute"), str)
            or not _NAME.match(entry["attribute"]) or not isinstance(entry.get("colours"), dict) or len(entry["colours"]) > 16
        ):
            raise fail("/bars", "bars is {\"attribute\": NAME, \"colours\": {BAR: COLOUR}} (the attribute lists one bar name per face)")
        bars = (entry["attribute"], {k: _colour(document, f"/bars/colours/{k}", v) for k, v in entry["colours"].items()})
    export_designations = data.get("export_designations", False)
    if not isinstance(export_designations, bool):
        raise fail("/export_designations", "export_designations must be true or false")
    return CounterStyle(
        nations, default, values, quality, arms, terrain, countries, types, words["phases"], words["orders"], words["sides"], designation,
        layout, nationality_label, sizes, labels, tuple(status_marks), map_scale, status_features, bars, export_designations,
    )  # fmt: skip


def _object(data: dict[str, Any], key: str, fail) -> dict[str, Any]:
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise fail(f"/{key}", f"{key} must be an object")
    return value


def _value_part(document: JsonDocument | None, pointer: str, part: Any, fail) -> ValuePart:
    if not isinstance(part, dict) or not isinstance(part.get("field"), str):
        raise fail(pointer, "a value part is an object with a field, e.g. {\"field\": \"attack\"}")
    unknown = set(part) - _PART_KEYS
    if unknown:
        raise fail(pointer, f"unknown key(s) {', '.join(sorted(unknown))}; use {', '.join(sorted(_PART_KEYS))}")
    for key in ("field", "sup", "when", "unless", "box", "parens", "dash", "fill_if"):
        value = part.get(key)
        if value is not None and (not isinstance(value, str) or not _NAME.match(value)):
            raise fail(f"{pointer}/{key}", f"{key} must name a value or counter attribute, not {value!r}")
    colours = {k: _colour(document, f"{pointer}/{k}", part[k]) for k in ("fill", "text") if k in part}
    return ValuePart(**{k: v for k, v in part.items() if k not in colours}, **colours)


def _attribute(counter_type: CounterType, name: str, face: int) -> Any:
    """A step value, a type property or an attribute of ``counter_type`` on ``face`` (lists hold one entry per face)."""
    if name in VALUE_FIELDS:
        return getattr(counter_type.steps[face], name)
    if name == "mechanized":
        return counter_type.mechanized
    value = counter_type.attributes.get(name)
    if isinstance(value, list):
        return value[min(face, len(value) - 1)] if value else None
    return value


def _holds(counter_type: CounterType, condition: str | None, face: int) -> bool:
    return condition is not None and bool(_attribute(counter_type, condition, face))


def _text(value: Any) -> str:
    if value == "inf":
        return "∞"  # an off-map unit's range: anywhere
    if isinstance(value, bool) or value is None:
        return ""
    return str(value)[:12]


def printed_values(style: CounterStyle, counter_type: CounterType, face: int) -> list[Printed]:
    """The values printed along the bottom of ``face``: one entry, or one per value part of the style.

    >>> from pbem.model.units import Step
    >>> gun = CounterType("g", "AT gun", "a", "A", "at_gun", "I", None, False, (Step(2, 2, 2),), attributes={"ras": [2], "range": [4]})
    >>> [(p.text, p.sup) for p in printed_values(CounterStyle(values=(ValuePart("attack"), ValuePart("ras", sup="range"))), gun, 0)]
    [('2', ''), ('2', '4')]
    """
    step = counter_type.steps[face]
    if isinstance(style.values, str):
        return [Printed(face_values(style.values, step.attack, step.defence, step.move, step.loss))]
    out = []
    for part in style.values:
        if part.when is not None and not _holds(counter_type, part.when, face):
            continue
        if _holds(counter_type, part.unless, face):
            continue
        value = _attribute(counter_type, part.field, face)
        if value is None:
            continue
        if _holds(counter_type, part.dash, face):
            out.append(Printed("–"))
            continue
        text = _text(value)
        if _holds(counter_type, part.parens, face):
            text = f"({text})"
        sup = _text(_attribute(counter_type, part.sup, face)) if part.sup else ""
        if _holds(counter_type, part.box, face):
            out.append(Printed(text, sup, "#000000", "#ffffff"))
        elif part.fill is not None and (part.fill_if is None or _holds(counter_type, part.fill_if, face)):
            out.append(Printed(text, sup, part.fill, part.text))
        else:
            out.append(Printed(text, sup))
    return out


def load_style(module_path: Path | None) -> CounterStyle:
    """The style of the module in ``module_path`` (its ``art.json``), or the default style."""
    if module_path is None or not (module_path / "art.json").is_file():
        return CounterStyle(terrain=dict(DEFAULT_TERRAIN))
    document = load_json(module_path / "art.json")
    return style_from_json(document.data, document)


def face_values(template: str, attack: int, defence: int, move: int, loss: int | None = None) -> str:
    """The printed values of a face, e.g. ``6-6-9`` (``{loss}``: a loss factor, blank where none is printed).

    Each plain ``{field}`` is replaced by its value and nothing else is read: the template comes from a module's
    data, so it gets no format mini-language (widths, fills, attribute look-ups) to spend time or memory with.
    """
    fields = {"attack": attack, "defence": defence, "move": move, "loss": "" if loss is None else loss}
    return _FIELD.sub(lambda m: str(fields[m.group(1)]) if m.group(1) in fields else m.group(0), template)
