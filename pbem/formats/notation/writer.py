"""Writing JSON turn data as notation that reads back to the same data."""


from __future__ import annotations

import json
import re
from typing import Any

from pbem.formats.notation.cleanup import Line
from pbem.formats.notation.grammar import _terminal
from pbem.formats.notation.located import At
from pbem.formats.notation.reader import _Reader, action_kind
from pbem.model.actions import counter_kind
from pbem.model.errors import PbemError


def _fits(text: str, terminal: str) -> bool:
    words = text.split(" ")
    return bool(text) and all(w and _terminal(terminal).fullmatch(w) for w in words)


def _quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _name(text: str, terminal: str = "WORD") -> str:
    return text if _fits(text, terminal) else _quoted(text)


def _word(text: str) -> str:
    """A name the grammar reads as one word (a shift, support, declaration, box): quoted if it has spaces."""
    return text if " " not in text and _fits(text, "WORD") else _quoted(text)


def _units(units: str | list[str]) -> str:
    return " + ".join(_name(u) for u in ([units] if isinstance(units, str) else units))


def _units_or_none(units: list[str]) -> str:
    return _units(units) if units else "none"


def _path(path: list[str]) -> str:
    parts = [_name(p, "LOCWORD") for p in path]
    return ("-" if all(" " not in p for p in path) else " - ").join(parts)


def _value(text: str) -> str:
    """A free text up to the end of its clause: bare when it reads back the same, else quoted."""
    if text and text == text.strip() and _terminal("VALUE").fullmatch(text) and "\n" not in text:
        return text
    return _quoted(text)


def _reason(text: str) -> str:
    """A reason after ``UNITS:``: bare only when it is plain words, since ``X: 0-0`` would read as a move."""
    return text if re.fullmatch(r"[A-Za-z][A-Za-z _]*", text) and text == text.strip() else _quoted(text)


def _comment(note: str | None) -> str:
    return f"  # {' '.join(note.split())}" if note else ""


def _signed(items: dict[str, int]) -> str:
    return ", ".join(f"{_word(k)} {v:+d}" for k, v in items.items())


def write_notation(data: dict[str, Any]) -> str:
    """The notation for JSON turn data (as read from a JSON turn file); reading it back gives the same data."""
    out: list[str] = [f"Game: {_header_value(data['module'])}"]
    if "module_version" in data:
        out.append(f"Version: {_header_value(data['module_version'])}")
    start = data.get("start", {})
    scenario = data.get("scenario")
    if scenario is not None:
        out.append(f"Scenario: {_header_value(scenario)}")
    if not (scenario is not None and start == {"scenario": scenario}):
        for kind, value in start.items():
            out.append(f"Start: {kind} {_header_value(value)}")
    out.append(f"Turn: {data['turn']}")
    out.append(f"Side: {_header_value(data['side'])}")
    if "writer" in data:
        out.append(f"Writer: {_header_value(data['writer'])}")
    for key, label in (("from", "Starts"), ("to", "Ends")):
        if key in data:
            out.append(f"{label}: {_place_text(data[key])}")
    if data.get("options"):
        chosen = (f"{name}={str(value).lower() if isinstance(value, bool) else value}" for name, value in data["options"].items())
        out.append(f"Options: {', '.join(chosen)}")
    if "dice" in data:
        dice = data["dice"]
        out.append(f"Dice: {dice}" if isinstance(dice, str) else f"Dice: {' '.join([dice['record'], *dice['draws']])}")
    for key, label in (("player", "Player"), ("note", "Note")):
        if key in data:
            text = data[key]
            plain = text and text == text.strip() and "\n" not in text and not text.startswith('"')
            out.append(f"{label}: {text if plain else _quoted(text)}")
    for action in data.get("actions", []):
        out.extend(_action_lines(action))
    return "\n".join(out) + "\n"


def _place_text(place: dict[str, Any]) -> str:
    """A header place as ``[turn N] phase [round R] [(side)]``."""
    text = f"turn {place['turn']} " if "turn" in place else ""
    text += place["phase"].replace("_", " ")
    if "round" in place:
        text += f" round {place['round']}"
    if "side" in place:
        text += f" ({place['side']})"
    return text


def _header_value(text: str) -> str:
    return _value(text)


def _action_lines(action: dict[str, Any]) -> list[str]:
    note = _comment(action.get("note"))
    if "phase" in action:
        side = f" ({action['side']})" if "side" in action else ""
        round_tag = f" round {action['round']}" if "round" in action else ""
        name = action["phase"]
        shown = name[:1].upper() + name[1:] if _fits(name, "PWORD") and name == name.lower() else _quoted(name)
        return ["", f"== {shown}{round_tag}{side} =={note}"]
    if "move" in action:
        by = f" by {action['by']}" if "by" in action else ""
        declared = ", ".join(_word(d) for d in action.get("declare", ()))
        how = f" moves {declared}:" if declared else ":"  # "A moves double: O22-O21"
        return [f"{_units(action['move'])}{how} {_path(action['path'])}{by}{note}"]
    if "sr" in action:
        by = f" by {action['by']}" if "by" in action else ""
        return [f"SR {_units(action['sr'])}: {_path(action['path'])}{by}{note}"]
    if "attack" in action or "overrun" in action or "fire" in action:
        return _combat_lines(action, note)
    if "special" in action:
        return [_special_line(action) + note]
    if "eliminate" in action:
        reason = f": {_reason(action['reason'])}" if "reason" in action else ""
        return [f"Eliminate {_units(action['eliminate'])}{reason}{note}"]
    if "remove" in action:
        return [f"Remove {_units(action['remove'])} to {_word(action['to'])}{note}"]
    if "loss" in action:
        reason = f": {_reason(action['reason'])}" if "reason" in action else ""
        return [f"Loss {_units(action['loss'])}{reason}{note}"]
    if "reinforce" in action:
        return [f"Reinforce {_units(action['reinforce'])} at {_name(action['at'], 'LOCWORD')}{note}"]
    if "replace" in action:
        if "at" in action:  # an eliminated unit rebuilt on the map or into a box
            return [f"Rebuild {_units(action['replace'])} at {_name(action['at'], 'LOCWORD')}{note}"]
        return [f"Replace {_units(action['replace'])}{note}"]
    if "control" in action:
        spaces = ", ".join(f"{_name(space, 'LOCWORD')} ({_name(side)})" for space, side in action["control"].items())
        return [f"Control {spaces}{note}"]
    if "roll" in action and isinstance(action["roll"], dict):
        roll = action["roll"]
        purpose = roll["purpose"] if _fits(roll["purpose"], "PURPOSE_WORD") else _quoted(roll["purpose"])
        text = f"Roll {purpose}"
        if "dice" in roll:
            text += f" {roll['dice']}"
        if "side" in roll:
            text += f" by {_name(roll['side'])}"
        value = roll["value"]
        text += " = " + ("+".join(map(str, value)) if isinstance(value, list) else str(value))
        if "modifiers" in roll:
            text += f" ({_signed(roll['modifiers'])})" if roll["modifiers"] else ""
        if "result" in roll:
            text += f" -> {_value(roll['result'])}"
        return [text + note]
    if "card" in action:
        if action["card"] is None:
            return [f"Card none as {_value(action['use'])}{note}"]
        plain = _fits(action["card"], "CARD_WORD") and action["card"].casefold() != "none"  # a card named none is quoted
        name = action["card"] if plain else _quoted(action["card"])
        return [f"Card {name} as {_value(action['use'])}{note}"]
    if "activate" in action:
        spaces = ", ".join(f"{_name(space, 'LOCWORD')} ({purpose})" for space, purpose in action["activate"].items())
        cost = f", cost {action['cost']}" if "cost" in action else ""
        return [f"Activate {spaces}{cost}{note}"]
    if "comment" in action:
        return [f"# {' '.join(str(action['comment']).split())}".rstrip()]
    raise PbemError(f"cannot write an action with keys {', '.join(sorted(action))} in the notation")


def _ratio(text: str) -> str:
    numbers = re.findall(r"\d+", text)
    return f"{int(numbers[0])}:{int(numbers[1])}" if len(numbers) == 2 else text


def _roll(value: int | list[int]) -> str:
    return "+".join(map(str, value)) if isinstance(value, list) else str(value)


def _result(text: str) -> str:
    return text if _terminal("RESULT_CODE").fullmatch(text) else _quoted(text)


def _special_line(action: dict[str, Any]) -> str:
    """``Dig in FIN-3-1-JR16 at P20, roll 5 = ok``, or with ``Special`` when the plain words would read otherwise."""
    order: str = action["special"]
    units = _units(action["units"]) if action.get("units") else ""
    place = f" at {_name(action['at'], 'LOCWORD')}" if "at" in action else ""
    tail = f", roll {_roll(action['roll'])}" if "roll" in action else ""
    if "result" in action:
        tail += f" = {_result(action['result'])}"
    words = order.replace("_", " ")
    candidates = [
        f"{words[:1].upper()}{words[1:]}{' ' + units if units else ''}{place}{tail}" if units or place else "",
        f"Special {words}{': ' + units if units else ''}{place}{tail}",
        f"Special {_quoted(order)}{': ' + units if units else ''}{place}{tail}",
    ]
    wanted = {k: v for k, v in action.items() if k != "note"}
    for line in candidates:
        if line and _reads_as(line, wanted):
            return line
    return candidates[-1]


def _reads_as(text: str, wanted: dict[str, Any]) -> bool:
    """Whether one written line reads back as ``wanted`` (names as written: they are the module's ids)."""
    reader = _Reader("written")
    reader.read([Line(1, text)])
    return not reader.problems and len(reader.actions) == 1 and _plain(reader.actions[0]) == wanted


def _plain(value: Any) -> Any:
    if isinstance(value, At):
        return value.value
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _combat_lines(action: dict[str, Any], note: str) -> list[str]:
    kind = action_kind(action)
    if kind == "fire":  # "MG-1-609 fires at O21 (spotter 1-1-609)"
        verb = "fires at" if len(action["fire"]) == 1 else "fire at"
        parts = [f"{_units(action['fire'])} {verb} {_name(action['target'], 'LOCWORD')}"]
        if "spotter" in action:
            parts[0] += f" (spotter {_name(action['spotter'])})"
    else:
        parts = [f"{_units(action[kind])} {kind} {_name(action['target'], 'LOCWORD')}"]
    if "defenders" in action:
        parts[0] += f" vs {_units_or_none(action['defenders'])}" if action["defenders"] else ""
    clauses: list[str] = []
    if action.get("support"):
        clauses.append("support " + ", ".join(f"{_word(k)} {v}" for k, v in action["support"].items()))
    if action.get("declare"):
        clauses.append("declare " + ", ".join(_word(d) for d in action["declare"]))
    if "flank" in action:
        drm = f" {action['flank']['drm']:+d}" if "drm" in action["flank"] else ""
        clauses.append(f"flank {_name(action['flank']['pin'], 'LOCWORD')} roll {action['flank']['roll']}{drm}")
    if action.get("cards"):
        clauses.append("cards " + ", ".join(_word(c) for c in action["cards"]))
    odds = ""
    if "odds" in action:
        odds = f"at {_ratio(action['odds'])}"
    if "shifts" in action:
        odds += (" " if odds else "") + (f"({_signed(action['shifts'])})" if action["shifts"] else "shifts none")
    if "column" in action:
        column = _ratio(action["column"])
        odds += f" > {column}" if "odds" in action else (" " if odds else "") + f"col {column}"
    if odds:
        clauses.append(odds)
    if "roll" in action or "result" in action:
        roll = f"roll {_roll(action['roll'])}" if "roll" in action else ""
        result = action.get("result")
        if result is not None:
            roll += (" " if roll else "") + f"= {_result(result)}"
        clauses.append(roll)
    if "defender_roll" in action:
        clauses.insert(len(clauses) - 1 if "result" in action else len(clauses), f"defender roll {action['defender_roll']}")
    if odds and clauses and clauses[0] == odds:  # "attack 3005 at 2:1 > 1:1, roll 4 = 1/1"
        parts[0] += f" {clauses.pop(0)}"
    first = parts[0] + (", " + ", ".join(clauses) if clauses else "") + note
    lines = [first]
    indent = "    "
    losses = action.get("losses")
    if losses is not None:
        if not losses:
            lines.append(f"{indent}losses none")
        for side in ("attacker", "defender"):
            if side in losses:
                lines.append(f"{indent}{side} loses {_units_or_none(losses[side])}")
    if action.get("negated"):
        lines.append(f"{indent}negated {_units(action['negated'])}")
    for old, new in action.get("replacements", {}).items():
        kind = counter_kind(new) is not None and all(_fits(word, "WORD") for word in new.split())
        lines.append(f"{indent}replace {_name(old)} by {new if kind else _name(new)}")
    if "eliminated" in action:
        lines.append(f"{indent}eliminated {_units_or_none(action['eliminated'])}")
    if "retreats" in action:
        if not action["retreats"]:
            lines.append(f"{indent}retreats none")
        for unit, path in action["retreats"].items():
            lines.append(f"{indent}retreat {_name(unit)} to {_path(path)}")
    if isinstance(action.get("advance"), dict):
        for unit, path in action["advance"].items():
            lines.append(f"{indent}advance {_name(unit)} to {_path(path)}")
    elif "advance" in action:
        lines.append(f"{indent}advance {_units_or_none(action['advance'])}")
    for unit, path in action.get("defender_advance", {}).items():
        lines.append(f"{indent}defender advances {_name(unit)} to {_path(path)}")
    return lines
