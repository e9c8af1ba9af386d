"""The art style a module declares in ``art.json``: nationality colours, value layout, arm symbols, terrain.

Every key is optional; a module without ``art.json`` gets a plain default style. The file is input from
outside like any other: it is size-bounded, checked, and a bad value is a :class:`PbemError` naming it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import ImageColor

from pbem.model.errors import PbemError
from pbem.model.jsonsource import JsonDocument, load_json

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
class CounterStyle:
    """How a module's counters look."""

    nations: dict[str, NationStyle] = field(default_factory=dict)
    default: NationStyle = NationStyle()
    values: str = "{attack}-{defence}-{move}"  # template over a face's fields
    quality: bool = False  # print the counter type's quality in the top-left corner
    arms: dict[str, tuple[str, ...]] = field(default_factory=dict)  # arm -> icon names
    terrain: dict[str, str] = field(default_factory=dict)  # terrain -> fill colour on map pictures
    countries: dict[str, str] = field(default_factory=dict)  # country -> tint on map pictures

    def nation(self, nationality: str) -> NationStyle:
        return self.nations.get(nationality, self.default)


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
        unknown = set(entry) - {"background", "text", "symbol", "line", "reduced"}
        if unknown:
            raise fail(pointer, f"unknown key(s) {', '.join(sorted(unknown))}")
        return NationStyle(**{k: _colour(document, f"{pointer}/{k}", v) for k, v in entry.items()})

    nations = {}
    for name, entry in (data.get("nationalities") or {}).items():
        nations[name] = nation(entry, f"/nationalities/{name}")
    default = nation(data.get("default", {}), "/default")
    values = data.get("values", CounterStyle.values)
    if not isinstance(values, str) or len(values) > 60:
        raise fail("/values", "values must be a short template such as '{attack}-{defence}-{move}' or '{attack}-{loss}-{move}'")
    for name in _FIELD.findall(values):
        if name not in VALUE_FIELDS:
            raise fail("/values", f"unknown value field {{{name}}}; use {', '.join(VALUE_FIELDS)}")
    arms: dict[str, tuple[str, ...]] = {}
    for arm, icons in (data.get("arms") or {}).items():
        if not isinstance(icons, list) or not all(isinstance(i, str) and len(i) <= 40 for i in icons):
            raise fail(f"/arms/{arm}", "an arm maps to a list of icon names")
        from pbem.art.symbols import ALIASES, ICONS

        for i, icon in enumerate(icons):
            if not icon.startswith("text:") and ALIASES.get(icon, icon) not in ICONS:
                raise fail(f"/arms/{arm}/{i}", f"unknown icon {icon!r}; known: {', '.join(sorted(ICONS))}")
        arms[arm] = tuple(icons)
    terrain = dict(DEFAULT_TERRAIN)
    for name, colour in (data.get("terrain") or {}).items():
        terrain[name] = _colour(document, f"/terrain/{name}", colour)
    countries = {name: _colour(document, f"/countries/{name}", c) for name, c in (data.get("countries") or {}).items()}
    quality = data.get("quality", False)
    if not isinstance(quality, bool):
        raise fail("/quality", "quality must be true or false")
    return CounterStyle(nations, default, values, quality, arms, terrain, countries)


def load_style(module_path: Path | None) -> CounterStyle:
    """The style of the module in ``module_path`` (its ``art.json``), or the default style."""
    if module_path is None or not (module_path / "art.json").is_file():
        return CounterStyle(terrain=dict(DEFAULT_TERRAIN))
    document = load_json(module_path / "art.json")
    return style_from_json(document.data, document)


def face_values(template: str, attack: int, defence: int, move: int, loss: int | None = None) -> str:
    """The printed values of a face, e.g. ``6-6-9`` (``{loss}``: a loss factor, blank where none is printed)."""
    return template.format(attack=attack, defence=defence, move=move, loss="" if loss is None else loss)
