"""Recognising dice rolls in chat reports: VASSAL's default formats, a module's own report formats, and the
``<button>_result`` property a roll sets in the same step."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.formats.vassal.buildfile import DiceButton, Module
from pbem.formats.vassal.sequence import split

# ``** $name$ = $result$ *** <$playerName$>`` (before 3.4) or with &lt; &gt; (3.4+), after the "*" VASSAL adds.
_DEFAULT = re.compile(r"^\*\*\*\s*(?P<name>.+?) = (?P<result>.*?) \*\*\*\s*(?:&lt;|<)(?P<player>.*?)(?:&gt;|>)")
# VASL and others: ``*** (IFT DR) 6,6 ***   <test> …``
_PARENTHESISED = re.compile(r"^\*\*\*\s*\((?P<name>[^)]*)\)\s*(?P<result>[-0-9, ]+?)\s*\*\*\*\s*(?:&lt;|<)(?P<player>.*?)(?:&gt;|>)")
_DICE_NAME = re.compile(r"^(\d*)d(\d+)$", re.I)


@dataclass(slots=True)
class Roll:
    button: str | None
    report: str
    values: list[int]
    total: int | None
    player: str | None
    dice: str | None = None


MAX_DIGITS = 9  # no die shows more; thousands of digits would only slow int() down or make it refuse


def _ints(text: str) -> list[int] | None:
    """The numbers in a report, or ``None`` if one is too long to be a die's."""
    values = re.findall(r"-?\d+", text)
    if any(len(value.lstrip("-")) > MAX_DIGITS for value in values):
        return None
    return [int(value) for value in values]


def _format_regex(report_format: str) -> re.Pattern | None:
    """A regex matching what ``report_format`` produces, with ``result`` and ``player`` groups."""
    tokens = split(report_format, "$")
    regex = ""
    groups: set[str] = set()
    for index, token in enumerate(tokens):
        if index % 2 == 0 or index + 1 >= len(tokens):
            regex += re.escape(token)
        elif token == "result" and "result" not in groups:
            regex += "(?P<result>.*?)"
            groups.add("result")
        elif token.lower() == "playername" and "player" not in groups:
            regex += "(?P<player>.*?)"
            groups.add("player")
        else:
            regex += ".*?"
    if "result" not in groups:
        return None
    # VASSAL prefixes "*" to a report starting with "*", else "* ".
    try:
        return re.compile(r"^(?:\* ?)" + regex + "$", re.S)
    except re.error:
        return None


class DiceReader:
    """Turns chat messages (and result properties) into rolls, knowing the module's buttons if given."""

    def __init__(self, module: Module | None = None):
        self.buttons: dict[str, DiceButton] = {}
        self.formats: list[tuple[DiceButton, re.Pattern]] = []
        for button in (module.dice if module else []):
            self.buttons.setdefault(button.name, button)
            if button.report_format:
                pattern = _format_regex(button.report_format.replace("$name$", button.name))
                if pattern is not None:
                    self.formats.append((button, pattern))

    def dice_of(self, name: str | None) -> str | None:
        if name is None:
            return None
        button = self.buttons.get(name)
        if button is not None:
            plus = f"+{button.plus}" if button.plus else ""
            return f"{button.n_dice}d{button.n_sides}{plus}"
        match = _DICE_NAME.match(name.strip())
        if match:
            return f"{match.group(1) or 1}d{match.group(2)}"
        return None

    def from_chat(self, message: str, result_property: tuple[str, str] | None = None) -> Roll | None:
        """The roll a chat report shows, or ``None`` if it is not one; a ``<name>_result`` property wins."""
        name = result = player = None
        match = _DEFAULT.match(message) or _PARENTHESISED.match(message)
        if match:
            name, result, player = match.group("name"), match.group("result"), match.group("player")
        else:
            for button, pattern in self.formats:
                found = pattern.match(message)
                if found:
                    name, result = button.name, found.group("result")
                    player = found.groupdict().get("player")
                    break
        if result_property is not None and (name is None or result_property[0] == name):
            name = name or result_property[0]
            result = result_property[1]
        if result is None:
            return None
        values = _ints(result)
        if values is None:
            return None  # not a roll any die could make: left as the chat it is
        button = self.buttons.get(name) if name else None
        if button is not None and button.report_total and len(values) == 1:
            total = values[0]
        else:
            total = sum(values) + (button.add_to_total if button else 0) if values else None
        return Roll(name, message, values, total, player.strip() if player else None, self.dice_of(name))
