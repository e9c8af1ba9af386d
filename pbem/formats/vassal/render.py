"""Text renderings of the ``info`` and ``log`` reports: (style, line) pairs, styled only on a terminal."""

from __future__ import annotations

Line = tuple[str, str]


def _grid_words(grid: dict | None) -> str:
    if grid is None:
        return "no grid"
    kind = grid["kind"]
    if kind in ("hex", "square"):
        numbering = grid.get("numbering")
        words = f"{kind} grid dx={grid['dx']:g} dy={grid['dy']:g} x0={grid['x0']} y0={grid['y0']}"
        if grid.get("sideways"):
            words += " sideways"
        if numbering:
            words += f", numbered {numbering['location_format']} ({numbering['first']}-first, " \
                     f"h {numbering['h_type']}+{numbering['h_off']}, v {numbering['v_type']}+{numbering['v_off']})"
        else:
            words += ", not numbered"
        return words
    if kind == "region":
        return f"region grid, {grid['regions']} regions"
    background = grid.get("background")
    return (f"zoned grid, {len(grid['zones'])} zones"
            + (f", background {_grid_words(background)}" if background else ""))


def info_lines(report: dict) -> list[Line]:
    lines: list[Line] = []
    module = report.get("module") or {}
    title = f"{report['file']}: VASSAL {report['kind']}"
    lines.append(("bold", title))
    if report.get("vassal_version"):
        lines.append(("", f"  VASSAL version: {report['vassal_version']}"))
    elif report.get("vassal_version_note"):
        lines.append(("", f"  VASSAL version: {report['vassal_version_note']}"))
    if module.get("name") or module.get("version"):
        lines.append(("", f"  module: {module.get('name') or '?'} {module.get('version') or ''}".rstrip()))
    if report.get("extends"):
        parent = report["extends"]
        lines.append(("", f"  extends: {parent.get('name') or '?'} {parent.get('version') or ''}".rstrip()))
    if report.get("encoding"):
        encoding = report["encoding"]
        lines.append(("", f"  encoding: {encoding['obfuscation']}"
                          + (f" ({encoding['hex']}-case hex)" if encoding.get("hex") else "")))
    if report.get("saved"):
        lines.append(("", f"  saved: {report['saved']}"))
    if report.get("description"):
        lines.append(("", f"  description: {report['description']}"))
    if "steps" in report:
        lines.append(("", f"  steps: {report['steps']}"))
    if "pieces" in report:
        extra = f", {report['stacks']} stacks" if "stacks" in report else ""
        extra += f", {report['decks']} decks" if report.get("decks") else ""
        noun = "piece slots" if report["kind"] in ("module", "extension") else "pieces"
        lines.append(("", f"  {noun}: {report['pieces']}{extra}"))
    if report.get("prototypes"):
        lines.append(("", f"  prototypes: {report['prototypes']}"))
    for player in report.get("players", []):
        lines.append(("", f"  player: {player['name']} ({player['side'] or 'no side'})"))
    for die in report.get("dice", []):
        lines.append(("", f"  dice button: {die['name']} ({die['dice']}d{die['sides']})"))
    maps = report.get("maps", [])
    if maps:
        lines.append(("bold", f"  maps: {len(maps)}"))
    for map_info in maps:
        count = f", {map_info['pieces']} pieces" if "pieces" in map_info else ""
        lines.append(("cyan", f"    {map_info['id']}{' (' + map_info['kind'] + ')' if 'kind' in map_info else ''}{count}"))
        for board in map_info.get("boards", []):
            if "grid" in board:
                size = f"{board['size'][0]}x{board['size'][1]}" if board.get("size") else "size unknown"
                lines.append(("", f"      board {board['name']} ({size}): {_grid_words(board['grid'])}"))
            else:
                where = f" at column {board['column']}, row {board['row']}" if (board["column"] or board["row"]) else ""
                lines.append(("", f"      board {board['name']}{' (reversed)' if board['reversed'] else ''}{where}"))
    return lines


def _place(place: dict | None) -> str:
    if not place:
        return "?"
    if place.get("location") and place["location"] != "offboard":
        return f"{place['location']} ({place['map']})"
    if place.get("map") is None:
        return "nowhere"
    return f"{place['map']} {place['x']},{place['y']}"


def event_words(event: dict) -> str:
    kind = event["type"]
    if kind == "move":
        return f"move {event['piece']}: {_place(event['from'])} -> {_place(event['to'])}"
    if kind == "add":
        return f"add {event['piece']} at {_place(event.get('at'))}"
    if kind == "remove":
        return f"remove {event['piece']}" + (f" from {_place(event['at'])}" if event.get("at") else "")
    if kind == "change":
        if "property" in event:
            return f"set {event['property']}: {event['before']} -> {event['after']}"
        renamed = f" -> {event['name_after']}" if event.get("name_after") else ""
        traits = ", ".join(f"{t['trait'].rstrip(';')} {t['before']!s:.20}->{t['after']!s:.20}"
                           for t in event.get("traits", [])[:4])
        return f"change {event['piece']}{renamed}" + (f" ({traits})" if traits else "")
    if kind == "roll":
        button = event["button"] or "dice"
        same = (event.get("dice") or "").lstrip("1") == button.lstrip("1")
        dice = f" ({event['dice']})" if event.get("dice") and not same else ""
        total = f" = {event['total']}" if event.get("total") is not None and len(event["values"]) > 1 else ""
        who = f" by {event['player']}" if event.get("player") else ""
        return f"roll {button}{dice}: {','.join(map(str, event['values']))}{total}{who}"
    if kind == "chat":
        if event.get("auto"):
            return f"report: {event['text']}"
        who = f"<{event['player']}> " if event.get("player") else ""
        return f"chat {who}{event['text']}"
    if kind == "undo":
        what = "; ".join(event["what"][:5]) if event.get("what") else "?"
        target = f"step {event['undoes']}" if event.get("undoes") else "an earlier step"
        return f"undo {target} ({what})" + (" [inferred]" if event.get("inferred") else "")
    if kind == "boards":
        boards = ", ".join(f"{board['name']}{' (reversed)' if board['reversed'] else ''}"
                           + (f" at column {board['column']}, row {board['row']}" if board["column"] or board["row"] else "")
                           for board in event["boards"])
        return f"boards of {event['map']}: {boards or 'none'}"
    return f"{kind} {event.get('command', '')}".rstrip()


_STYLES = {"roll": "bold yellow", "undo": "bold red", "move": "", "chat": "green"}


def log_lines(report: dict) -> list[Line]:
    lines: list[Line] = [("bold", f"{report['file']}: VASSAL {report['kind']}, {len(report['steps'])} steps")]
    lines.extend(("bold yellow", f"warning: {warning}") for warning in report.get("warnings", []))
    for step in report["steps"]:
        who = f" [{step['player']}]" if step.get("player") else ""
        undone = f" (undone by step {step['undone_by']})" if step.get("undone_by") else ""
        lines.append(("bold", f"step {step['index']}{who}{undone}"))
        for event in step["events"]:
            lines.append((_STYLES.get(event["type"], "dim" if event["type"] == "other" else ""),
                          f"  {event_words(event)}"))
    summary = report["summary"]
    lines.append(("bold", "summary"))
    lines.append(("", f"  steps: {summary['steps']}, undos: {summary['undos']}, rolls: {summary['rolls']}"))
    for player, count in summary["steps_per_player"].items():
        lines.append(("", f"  steps by {player}: {count}"))
    for player, count in summary["rolls_per_player"].items():
        lines.append(("", f"  rolls by {player}: {count}"))
    for roll in summary["undone_rolls"]:
        lines.append(("yellow", f"  roll in undone step {roll['step']} (undone by step {roll['undone_by']}): "
                                f"{roll['button'] or 'dice'} {','.join(map(str, roll['values']))}"))
    for roll in summary["rerolls"]:
        lines.append(("bold red", f"  re-roll at step {roll['step']} after undoing step {roll['undone_step']}: "
                                  f"{roll['button'] or 'dice'} {','.join(map(str, roll['before']))} -> "
                                  f"{','.join(map(str, roll['after']))}"
                                  + (f" by {roll['player']}" if roll.get("player") else "")))
    return lines
