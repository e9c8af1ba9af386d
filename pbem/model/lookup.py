"""Finding a unit or a card from what a player writes: an id, a card's number in any common form, or a name as
players vary it (accents, case and punctuation optional, an unambiguous beginning, a nationality by its name).

Everything comes from the module's data: unit names and aliases, the other names of each nationality code
(``nationalities`` in the counters file), card ids, numbers and names. A name that could be more than one
thing is refused with the candidates, never guessed.
"""

from __future__ import annotations

import re
from typing import Any

from pbem.model.module import Module
from pbem.model.names import NameIndex, name_forms

_INDEXES: dict[tuple[int, str], tuple[Module, NameIndex]] = {}  # by id(module); the module is kept so its id stays its own


def _index(module: Module, kind: str, build) -> NameIndex:
    kept = _INDEXES.get((id(module), kind))
    if kept is not None and kept[0] is module:
        return kept[1]
    if len(_INDEXES) >= 32:
        _INDEXES.clear()
    index = build(module)
    _INDEXES[(id(module), kind)] = (module, index)
    return index


def _unit_names(module: Module) -> NameIndex:
    """Each unit under its id, name and aliases, and each of those with its nationality written another way."""
    named = []
    for unit in module.units.values():
        names = {unit.id, *unit.aliases} | ({unit.name} if unit.name else set())
        others = (unit.type.nationality, *module.nationalities.get(unit.type.nationality, ()))
        heads = [form for other in others for form in name_forms(other)]
        variants = set()
        for name in names:
            for form in name_forms(name):
                for head in heads:
                    if form[: len(head)] == head and len(form) > len(head):
                        variants |= {" ".join(other + form[len(head):]) for other in heads if other != head}
        named.append((unit.id, names | variants))
    return NameIndex(named)


def find_units(module: Module, written: str) -> set[str]:
    """The ids of every unit ``written`` may name (one: found; none: unknown; more: ambiguous).

    >>> from pbem.model.module import load_module
    >>> pog = load_module("paths-of-glory")
    >>> [find_units(pog, name) for name in ("AH Corps 5", "GE 1", "German 1st Army")]
    [{'AH-CORPS-05'}, {'GE-1-ARMY'}, {'GE-1-ARMY'}]
    """
    return _index(module, "units", _unit_names).find(written)


def ambiguous(kind: str, written: str, found: set[str], describe=str) -> str:
    """The refusal of a name that could be any of ``found``."""
    listed = sorted(found)
    shown = ", ".join(map(describe, listed[:8])) + (f" and {len(listed) - 8} more" if len(listed) > 8 else "")
    return f"{kind} {written!r} is ambiguous: it could be {shown}"


# --- cards ------------------------------------------------------------------------------------------------

_NUMBER = r"(?:(?P<prefix>[^\W\d_]+)\s*[-_.:#]?\s*)?#?\s*(?P<number>\d{1,6})"
_NUMBER_FORM = re.compile(_NUMBER)
_LEADING = re.compile(rf"(?P<written>{_NUMBER})\s*[-:–—.,)]?\s+(?P<name>\S.*)")
_TRAILING = re.compile(rf"(?P<name>.*?\S)\s*[(\[]\s*(?P<written>{_NUMBER})\s*[)\]]")


def _card_names(module: Module) -> NameIndex:
    return NameIndex((card_id, (card_id, card["name"])) for card_id, card in module.cards.items())


def _prefix(card_id: str) -> str:
    """The letters of a card id before its number: ``CP`` of ``CP-03``."""
    head, _, tail = card_id.rpartition("-")
    return head if tail.isdigit() and head else card_id


def _by_number(module: Module, text: str) -> set[str] | None:
    """The cards ``text`` names by number (``CP-03``, ``CP 3``, ``cp3``, ``CP #3``, ``3``), or None if it is no number."""
    match = _NUMBER_FORM.fullmatch(text.strip())
    if match is None:
        return None
    prefix = (match.group("prefix") or "").casefold()
    number = int(match.group("number"))
    return {card_id for card_id, card in module.cards.items()
            if card["number"] == number and (not prefix or prefix in (_prefix(card_id).casefold(), card["side"].casefold()))}


def describe_card(module: Module, card_id: str) -> str:
    """``CP-01 Guns of August``."""
    card: dict[str, Any] = module.cards.get(card_id, {})
    return f"{card_id} {card['name']}" if "name" in card else card_id


def find_card(module: Module, written: str) -> tuple[str | None, str]:
    """The id of the card ``written`` names, or None and a one-line refusal.

    By id; by number in every common form (``CP 3``, ``cp-3``, ``CP3``, ``CP #3``; ``3`` alone when only one
    card has that number); by name, accents, case and punctuation optional, or its unambiguous beginning
    (``Guns of August``, ``von francois``, ``Guns``); or both (``CP-01 Guns of August``, ``Guns of August (CP 1)``),
    which must agree.

    >>> from pbem.model.module import load_module
    >>> pog = load_module("paths-of-glory")
    >>> [find_card(pog, name)[0] for name in ("CP 3", "cp-3", "Von François", "guns", "CP-01 Guns of August")]
    ['CP-03', 'CP-03', 'CP-03', 'CP-01', 'CP-01']
    """
    text = " ".join(written.split())[:200]
    if text in module.cards:
        return text, ""
    found = _by_number(module, text)
    if not found:
        both = _LEADING.fullmatch(text) or _TRAILING.fullmatch(text)
        numbered = _by_number(module, both.group("written")) if both else None
        if numbered and len(numbered) == 1:
            (card_id,) = numbered
            if card_id in _index(module, "cards", _card_names).find(both.group("name")):
                return card_id, ""
            return None, f"card {written!r}: {describe_card(module, card_id)} is not {both.group('name')!r}"
        found = _index(module, "cards", _card_names).find(text)
    if len(found) == 1:
        return next(iter(found)), ""
    if found:
        return None, ambiguous("card", written, found, lambda card_id: describe_card(module, card_id))
    close = _index(module, "cards", _card_names).close(text, n=3)
    suggestion = f" (did you mean {', '.join(describe_card(module, c) for c in sorted(close))}?)" if close else ""
    return None, f"unknown card {written!r}{suggestion}"


__all__ = ["ambiguous", "describe_card", "find_card", "find_units"]
