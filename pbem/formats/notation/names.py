"""Resolving the names a player writes: units, hexes and spaces, and the game itself."""


from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from pbem.formats.notation.cleanup import MAX_ERRORS
from pbem.formats.notation.located import At
from pbem.model.errors import PbemError
from pbem.model.lookup import find_card, find_units
from pbem.model.module import Module, bundled_modules, load_module_by_id
from pbem.model.names import fold


MAX_SUGGESTIONS = MAX_ERRORS  # as many as a notation error shows


class Names:
    """Units, locations and sides of a module, found by id, alias, case-insensitive spelling or prefix."""

    def __init__(self, module: Module, in_play: Callable[[], dict[str, str]] | None = None):
        self.module = module
        self._in_play = in_play  # the units on the map where the turn starts, asked for only to suggest a unit
        self._in_play_found: dict[str, str] | None = None
        self.suggested = 0  # suggestions made: past MAX_SUGGESTIONS a name is only called unknown
        self.unit_keys: dict[str, set[str]] = {}
        for unit in module.units.values():
            for key in (unit.id, unit.name, *unit.aliases):
                if not key:
                    continue
                self.unit_keys.setdefault(_fold(key), set()).add(unit.id)
        game_map = module.map
        self.location_names: dict[str, set[int]] = {}
        for index, label in enumerate(game_map.labels):
            self.location_names.setdefault(_fold(label), set()).add(index)
            name = game_map.names[index]
            if name:
                self.location_names.setdefault(_fold(name), set()).add(index)

    def unit(self, written: str) -> tuple[str | None, str]:
        found = _lookup(self.unit_keys, written)
        if len(found) == 1:
            return next(iter(found)), ""
        # As players write it: punctuation optional, a nationality by its name, whole words of a name's beginning.
        closer = find_units(self.module, written)
        if len(closer) == 1:
            return next(iter(closer)), ""
        return None, self._refusal("unit", written, closer or found, self.unit_keys)

    def location(self, written: str) -> tuple[str | None, str]:
        game_map = self.module.map
        index = game_map.find(written)
        if index is None:
            found = _lookup(self.location_names, written)
            if len(found) == 1:
                index = next(iter(found))
            else:
                kind = "hex" if game_map.kind == "hex" else "space"
                labels = {game_map.label(i) for i in found}
                refusal = self._refusal(kind, written, labels, self.location_names)
                if not found and " " in written.strip():
                    refusal += " (separate locations with '-' or '>')"
                return None, refusal
        return game_map.label(index), ""

    def card(self, written: str) -> tuple[str | None, str]:
        if not self.module.cards:  # a game without cards names them as it likes
            return written, ""
        return find_card(self.module, written)

    def place(self, written: str) -> tuple[str | None, str]:
        """A map location, or else one of the module's boxes (where a rebuilt unit goes)."""
        found, refusal = self.location(written)
        if found is not None:
            return found, ""
        box, _ = self.box(written)
        if box is not None and _fold(written) == _fold(box):
            return box, ""
        return None, f"{refusal}, nor a box of {self.module.id} ({', '.join(self.module.boxes)})"

    def box(self, written: str) -> tuple[str | None, str]:
        keys = {_fold(b): {b} for b in self.module.boxes}
        found = _lookup(keys, written)
        if len(found) == 1:
            return next(iter(found)), ""
        return None, self._refusal("box", written, found, keys)

    def side(self, written: str) -> tuple[str | None, str]:
        keys = {_fold(s): {s} for s in self.module.sides}
        found = _lookup(keys, written)
        if len(found) == 1:
            return next(iter(found)), ""
        return None, self._refusal("side", written, found, keys)

    def in_play(self) -> dict[str, str]:
        if self._in_play_found is None:
            self._in_play_found = self._in_play() if self._in_play is not None else {}
        return self._in_play_found

    def _refusal(self, kind: str, written: str, found: set, keys: dict[str, set]) -> str:
        if found:
            listed = sorted(map(str, found))
            shown = ", ".join(listed[:8]) + (f" and {len(listed) - 8} more" if len(listed) > 8 else "")
            return f"{kind} {written!r} is ambiguous: it could be {shown}"
        self.suggested += 1
        if self.suggested > MAX_SUGGESTIONS:  # only the first problems are shown: the search costs a few ms each
            return f"unknown {kind} {written!r}"
        if kind == "unit":
            from pbem.formats.turnfile import unit_suggestion

            return f"unknown unit {written!r}" + unit_suggestion(written, self.module, self.in_play())
        close = difflib.get_close_matches(_fold(written), list(keys), n=4, cutoff=0.6)
        names = sorted({name for key in close for name in map(str, keys[key])})
        if kind in ("hex", "space"):
            names = sorted({self.module.map.label(i) for key in close for i in keys[key]})
        return f"unknown {kind} {written!r}" + (f" (did you mean {', '.join(names)}?)" if names else "")


def _fold(text: str) -> str:
    return fold(text)


def _lookup(keys: dict[str, set], written: str) -> set:
    folded = _fold(written)
    if not folded:
        return set()
    if folded in keys:
        return set(keys[folded])
    found: set = set()
    for key, values in keys.items():
        if key.startswith(folded):
            found |= values
    return found


def _find_module(written: At, file: str) -> tuple[Module | None, str, str]:
    """The module a header names: (module, what goes in the data, refusal)."""
    name = str(written.value).strip()
    if "/" in name or "\\" in name or name.startswith("."):
        return None, name, f"a turn names its game by id (e.g. china-war-1980), not by folder {name!r}: give a module folder with --module"
    try:
        module = load_module_by_id(name)
        return module, module.id, ""
    except PbemError as error:
        refusal = error.message
    slug = re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")
    known = [p.name for p in bundled_modules()]
    found = [k for k in known if k == slug] or [k for k in known if k.startswith(slug)] if slug else []
    if len(found) == 1:
        module = load_module_by_id(found[0])
        return module, module.id, ""
    if len(found) > 1:
        refusal = f"game {name!r} is ambiguous: it could be {', '.join(found)}"
    return None, name, refusal
