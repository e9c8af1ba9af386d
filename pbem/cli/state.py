"""``pbem state``: what a state holds, in words: who is where, with names and steps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from pbem.cli import EXIT_OK, WrappingGroup
from pbem.formats.turnfile import NOTATION_SUFFIXES, is_vassal_game, load_start_state, load_turn
from pbem.model import schemas
from pbem.model.errors import PbemError
from pbem.model.files import check_output, write_atomic
from pbem.model.jsonsource import load_json
from pbem.model.event import Event
from pbem.model.cards import piles_lines
from pbem.model.module import Module, load_module, load_module_by_id
from pbem.model.state import State, load_state_document


@click.group(cls=WrappingGroup)
def state() -> None:
    """Game states: a saved state, a scenario's set-up, or the state a turn leaves."""


@state.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--before", is_flag=True, help="For a turn: the state it starts from, not the one it leaves.")
@click.option("--state", "state_path", type=click.Path(path_type=Path), help="For a turn: start from this state (or scenario) file.")
@click.option("--module", "module_name", help="Module id or folder (default: the file's own).")
@click.option("--side", help="Only this side's units.")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
def show(file: Path, before: bool, state_path: Path | None, module_name: str | None, side: str | None, output: str) -> int:
    """Who is where in FILE: a state (.json), or a turn (the state after it).

    Units are listed by location with the name pbem prints, their id, side and step; then the off-map boxes.
    """
    module = load_module(module_name) if module_name else None
    loaded, events = _load(file, module, before, state_path)
    if side is not None and side not in loaded.module.sides:
        raise PbemError(f"--side: {side!r} is not one of {', '.join(loaded.module.sides)}")
    summary = describe(loaded, side)
    if events is not None:
        summary["events"] = [event.as_json() | {"text": event.text()} for event in events]
    if output == "json":
        click.echo(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        for line in text_lines(summary):
            click.echo(line)
    return EXIT_OK


@state.command()
@click.argument("module_name", metavar="MODULE")
@click.option("--scenario", required=True, help="The scenario whose set-up the state starts from (pbem module show MODULE lists them).")
@click.option("--position", "position", type=click.Path(path_type=Path), help="Then change it as this position file says (see 'pbem state edit').")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="Write the state here.")
def new(module_name: str, scenario: str, position: Path | None, out: Path) -> int:
    """Write a start state: MODULE's SCENARIO set-up as a state file a turn's Start: line (or --state) can name.

    With --position, the set-up changed as a position file says, so a game in progress needs only what differs
    from the set-up (docs/position.md).
    """
    check_output(out)
    module = load_module(module_name)
    if scenario not in module.scenarios:
        raise PbemError(f"--scenario: module {module.id} has no scenario {scenario!r} (it has: {', '.join(sorted(module.scenarios)) or 'none'})")
    document = load_json(module.scenarios[scenario])
    schemas.check(document, "scenario")
    made = State.from_json(module, document)
    return _write(made, position, out)


@state.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.argument("position", type=click.Path(path_type=Path))
@click.option("--module", "module_name", help="Module id or folder (default: the state's own).")
@click.option("--out", required=True, type=click.Path(path_type=Path), help="Write the changed state here (it may be FILE itself).")
def edit(file: Path, position: Path, module_name: str | None, out: Path) -> int:
    """Change the state FILE (or a scenario file) as the POSITION file says, and write it to --out.

    A position is one change a line: 'GE 1st Army: Sedan', 'FR 5th Army: Paris, reduced', 'GE Corps 3: reserve',
    'Control Lodz: cp', 'Status vp = 12', 'Turn: 5' (docs/position.md).
    """
    check_output(out)
    module = load_module(module_name) if module_name else None
    loaded, _ = _load(file, module, True, None)
    return _write(loaded, position, out)


def _write(made: State, position: Path | None, out: Path) -> int:
    """Apply ``position`` to ``made`` and write it, whole or not at all, after proving it reads back; a position
    that makes a state pbem would refuse is the position file's fault (exit 2), named with the key."""
    from pbem.formats.position import apply_position
    from pbem.model.jsonsource import parse_json

    if position is not None:
        apply_position(made, position)
    text = json.dumps(made.to_json(), indent=1, ensure_ascii=False) + "\n"
    try:
        document = parse_json(text, str(out))
        schemas.check(document, "state")
        State.from_json(made.module, document)
    except PbemError as error:
        where = position if position is not None else out
        pointer = error.source.pointer if error.source is not None and error.source.pointer else "/"
        raise PbemError.at(where, f"the position makes a state pbem cannot read, at {pointer}: {error.message}") from None
    write_atomic(out, made.written_json())
    click.echo(f"state written to {out}", err=True)
    return EXIT_OK


def _load(file: Path, module: Module | None, before: bool, state_path: Path | None) -> tuple[State, list[Event] | None]:
    """The state to show, and for a turn (not ``before``) the random events that led to it."""
    if _is_turn(file):
        turn, module = load_turn(file, module)
        start = load_start_state(turn, module, state_path)
        if before:
            return start, None
        from pbem.engine.replay import replay

        done = replay(module, start, turn)
        return done.state, done.events
    document = load_state_document(file)
    data = document.data
    if module is None:
        try:
            module = load_module_by_id(data["module"])
        except PbemError as error:
            raise document.error("/module", error.message) from None
    return State.from_json(module, document), None


def _is_turn(file: Path) -> bool:
    if file.suffix.lower() in NOTATION_SUFFIXES or is_vassal_game(file):
        return True
    if not file.is_file():
        return False  # never open a FIFO or device to peek: the JSON reader refuses it
    try:
        with open(file, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return b'"actions"' in head


def describe(state: State, only_side: str | None = None) -> dict[str, Any]:
    """The state as a player reads it: locations in map order, each with its units; then the boxes."""
    module = state.module
    game_map = module.map
    locations: list[dict[str, Any]] = []
    for index in sorted(state.stacks):
        units = [_unit(u) for u in state.units_at(index) if only_side is None or u.side == only_side]
        if units:
            entry: dict[str, Any] = {"at": game_map.label(index)}
            name = game_map.names[index]
            if name:
                entry["name"] = name
            entry["terrain"] = game_map.terrain[index]
            entry["units"] = units
            locations.append(entry)
    boxes: dict[str, list[dict[str, Any]]] = {}
    for unit in state.units.values():
        if not unit.on_map and (only_side is None or unit.side == only_side):
            boxes.setdefault(unit.box or "off map", []).append(_unit(unit))
    header = {
        "module": module.id,
        "scenario": state.scenario,
        "turn": state.turn,
        "side": state.side,
        "phase": state.phase,
    }
    out = {k: v for k, v in header.items() if v is not None}
    out["locations"] = locations
    out["boxes"] = boxes
    if state.cards:
        out["cards"] = {side: piles.to_json() for side, piles in state.cards.items() if only_side is None or side == only_side}
    if state.options:
        out["options"] = state.options
    if state.status:
        out["status"] = state.status
    return out


def _unit(unit) -> dict[str, Any]:
    steps = unit.unit.type.steps
    face = unit.face
    entry: dict[str, Any] = {"id": unit.id, "name": unit.unit.display(), "side": unit.side, "type": unit.unit.type.name}
    entry["steps"] = len(steps)
    entry["steps_lost"] = unit.step
    entry["values"] = face.printed()
    if not unit.supplied:
        entry["supplied"] = False
    if unit.markers:
        entry["markers"] = sorted(unit.markers)
    if unit.tallies:
        entry["tallies"] = dict(sorted(unit.tallies.items()))
    if unit.facing is not None:
        entry["facing"] = unit.facing
    return entry


def text_lines(summary: dict[str, Any]) -> list[str]:
    head = f"{summary['module']}"
    for key, label in (("scenario", "scenario"), ("turn", "turn"), ("side", "side"), ("phase", "phase")):
        if key in summary:
            head += f", {label} {summary[key]}"
    lines = [head]
    for location in summary["locations"]:
        where = location["at"] + (f" {location['name']}" if "name" in location else "") + f" ({location['terrain']})"
        lines.append(where)
        lines.extend(f"  {_unit_text(u)}" for u in location["units"])
    for box, units in summary["boxes"].items():
        lines.append(f"[{box}]")
        lines.extend(f"  {_unit_text(u)}" for u in units)
    if not summary["locations"] and not summary["boxes"]:
        lines.append("no units")
    status = status_lines(summary.get("status") or {})
    if status:
        lines.append("[status]")
        lines.extend(f"  {line}" for line in status)
    if summary.get("events"):
        lines.append("[random events of the turn]")
        lines.extend(f"  {_event_place(event)}{event['text']}" for event in summary["events"])
    for side, piles in summary.get("cards", {}).items():
        lines.extend(piles_lines(side, piles))
    return lines


MAX_STATUS_ITEMS = 12  # a status entry with more parts (the hexes of the rail net used) is counted, not listed


def status_lines(status: dict[str, Any]) -> list[str]:
    """What the game tracks beside the units, one line an entry: ``political: NATO neutral, Taiwan ambiguous``.

    The module's status holds the lasting results of random events (a power's stance, a fort destroyed), so a
    player reads them here; entries are shown as they are stored, with '_' as a space.
    """
    lines = []
    for key, value in status.items():
        if value in (None, [], {}, ""):
            continue
        lines.append(f"{key.replace('_', ' ')}: {_status_value(value)}")
    return lines


def _status_value(value: Any) -> str:
    if isinstance(value, dict):
        if len(value) > MAX_STATUS_ITEMS:
            return f"{len(value)} entries"
        return ", ".join(f"{k} {_status_value(v)}" for k, v in value.items())
    if isinstance(value, list):
        if len(value) > MAX_STATUS_ITEMS:
            return f"{len(value)} entries"
        return ", ".join(_status_value(v) for v in value)
    if isinstance(value, str):
        return value.replace("_", " ")
    return json.dumps(value)


def _event_place(event: dict[str, Any]) -> str:
    source = event.get("source") or {}
    if source.get("line"):
        return f"line {source['line']}: "
    if source.get("pointer") and not str(source["pointer"]).startswith("/"):
        return f"{source['pointer']}: "
    return ""


def _unit_text(unit: dict[str, Any]) -> str:
    name = unit["name"] if unit["name"] == unit["id"] else f"{unit['name']} ({unit['id']})"
    extra = [unit["side"], unit["values"]]
    if unit["steps_lost"]:
        lost = unit["steps_lost"]
        extra.append("reduced" if unit["steps"] == 2 else f"{lost} of {unit['steps']} steps lost")
    if unit.get("supplied") is False:
        extra.append("out of supply")
    extra.extend(unit.get("markers", ()))
    extra.extend(f"{key} {value}" for key, value in unit.get("tallies", {}).items())
    if "facing" in unit:
        extra.append(f"facing {unit['facing']}")
    return f"{name}: {', '.join(extra)}"
