"""``pbem state``: what a state holds, in words: who is where, with names and steps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from pbem.cli import EXIT_OK, WrappingGroup
from pbem.formats.turnfile import NOTATION_SUFFIXES, load_start_state, load_turn
from pbem.model.errors import PbemError
from pbem.model.cards import piles_lines
from pbem.model.jsonsource import load_json
from pbem.model.module import Module, load_module, load_module_by_id
from pbem.model.state import State


@click.group(cls=WrappingGroup)
def state() -> None:
    """Game states: a saved state, a scenario's set-up, or the state a turn leaves."""


@state.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--before", is_flag=True, help="For a turn: the state it starts from, not the one it leaves.")
@click.option("--state", "state_path", type=click.Path(path_type=Path), help="For a turn: start from this state file.")
@click.option("--module", "module_name", help="Module id or folder (default: the file's own).")
@click.option("--side", help="Only this side's units.")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
def show(file: Path, before: bool, state_path: Path | None, module_name: str | None, side: str | None, output: str) -> int:
    """Who is where in FILE: a state (.json), or a turn (the state after it).

    Units are listed by location with the name pbem prints, their id, side and step; then the off-map boxes.
    """
    module = load_module(module_name) if module_name else None
    loaded = _load(file, module, before, state_path)
    if side is not None and side not in loaded.module.sides:
        raise PbemError(f"--side: {side!r} is not one of {', '.join(loaded.module.sides)}")
    summary = describe(loaded, side)
    if output == "json":
        click.echo(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        for line in text_lines(summary):
            click.echo(line)
    return EXIT_OK


def _load(file: Path, module: Module | None, before: bool, state_path: Path | None) -> State:
    if _is_turn(file):
        turn, module = load_turn(file, module)
        start = load_start_state(turn, module, state_path)
        if before:
            return start
        from pbem.engine.replay import replay

        return replay(module, start, turn).state
    from pbem.model import schemas

    document = load_json(file)
    data = document.data
    kind = "scenario" if isinstance(data, dict) and "id" in data else "state"
    schemas.check(document, kind)
    if module is None:
        try:
            module = load_module_by_id(data["module"])
        except PbemError as error:
            raise document.error("/module", error.message) from None
    return State.from_json(module, document)


def _is_turn(file: Path) -> bool:
    if file.suffix.lower() in NOTATION_SUFFIXES:
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
    for side, piles in summary.get("cards", {}).items():
        lines.extend(piles_lines(side, piles))
    return lines


def _unit_text(unit: dict[str, Any]) -> str:
    name = unit["name"] if unit["name"] == unit["id"] else f"{unit['name']} ({unit['id']})"
    extra = [unit["side"], unit["values"]]
    if unit["steps_lost"]:
        lost = unit["steps_lost"]
        extra.append("reduced" if unit["steps"] == 2 else f"{lost} of {unit['steps']} steps lost")
    if unit.get("supplied") is False:
        extra.append("out of supply")
    extra.extend(unit.get("markers", ()))
    return f"{name}: {', '.join(extra)}"
