"""``pbem vassal``: look inside VASSAL modules, saves and logs."""

from __future__ import annotations

import sys

import click

from pbem.cli import WrappingGroup
from pbem.model.printable import one_line, unescaped

EXIT_OK = 0


def _located(file: str, error: Exception):
    """A :class:`PbemError` naming ``file`` for an error raised below the file level."""
    from pbem.model.errors import PbemError

    if isinstance(error, PbemError):
        return error if error.source is not None else PbemError.at(file, error.message)
    return PbemError.at(file, str(error))


def _tty() -> bool:
    return sys.stdout.isatty()


def _print_json(data: dict) -> None:
    """Indented JSON; a log's steps one per line, each encoded compactly (json's C encoder: indenting
    100,000 steps in pure Python takes seconds)."""
    import json  # here and in the verbs that write JSON: info's text report does without

    steps = data.get("steps")
    if not isinstance(steps, list):
        click.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    fields = []
    for key, value in data.items():
        if key == "steps":
            inner = ",\n".join("    " + json.dumps(step, ensure_ascii=False) for step in value)
            text = "[\n" + inner + "\n  ]" if value else "[]"
        else:
            text = json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n  ")
        fields.append(f"  {json.dumps(key)}: {text}")
    click.echo("{\n" + ",\n".join(fields) + "\n}")


def _print_lines(lines: list[tuple[str, str]]) -> None:
    """Print (style, text) lines: styled with rich on a terminal, plain text otherwise."""
    if _tty():
        from rich.console import Console
        from rich.text import Text

        console = Console(file=unescaped(sys.stdout), highlight=False, soft_wrap=True)
        for style, text in lines:
            console.print(Text(one_line(text), style=style or ""))
    elif lines:
        click.echo("\n".join(text for _, text in lines))  # one write: a long log has 100,000 lines


@click.group(cls=WrappingGroup)
def vassal() -> None:
    """Read VASSAL modules (.vmod, buildFile), saves (.vsav) and logs (.vlog)."""


@vassal.command()
@click.argument("file", type=click.Path(path_type=str))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def info(file: str, fmt: str) -> int:
    """What FILE is: kind, VASSAL version, module, maps with boards and grids, pieces, steps.

    FILE is a module (.vmod, .vmdx, buildFile, or an unpacked module folder), a save, a log or a
    metadata file."""
    from pbem.formats.vassal.describe import describe, open_vassal_file
    from pbem.formats.vassal.render import info_lines

    from pbem.formats.vassal.traits import PieceError
    from pbem.model.errors import PbemError

    try:
        report = describe(open_vassal_file(file), file)
    except (PbemError, PieceError, RecursionError) as error:
        raise _located(file, error) from None
    if fmt == "json":
        _print_json(report)
    else:
        _print_lines(info_lines(report))
    return EXIT_OK


def is_vassal_module(value: str) -> bool:
    """Whether ``value`` names a VASSAL module (a .vmod/.vmdx/.zip, a buildFile, or a folder holding one) rather
    than a pbem module (an id, or a folder with a module.json)."""
    from pathlib import Path

    path = Path(value)
    if path.is_dir():
        return not (path / "module.json").is_file() and any((path / name).is_file() for name in ("buildFile.xml", "buildFile"))
    return path.is_file() and (path.suffix.lower() in (".vmod", ".vmdx", ".zip", ".xml") or path.name.startswith("buildFile"))


def vassal_module_option(module_name: str | None, vassal_module: str | None, command: str) -> tuple[str | None, str | None]:
    """``(pbem module, VASSAL module)`` from ``--module`` and ``--vassal-module``: ``--module`` names a pbem module
    everywhere; a VASSAL module given to it (the old spelling of ``vassal log``) still works, with a note."""
    if module_name is not None and is_vassal_module(module_name):
        if vassal_module is not None:
            from pbem.model.errors import PbemError

            raise PbemError(f"--module {module_name} is a VASSAL module and --vassal-module is given too: give it once, as --vassal-module")
        click.echo(
            f"note: --module names a pbem module; give a VASSAL module as 'pbem {command} --vassal-module {module_name}' "
            "(--module with a VASSAL module is deprecated and will stop working)",
            err=True,
        )
        return None, module_name
    return module_name, vassal_module


@vassal.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--module", "module_name",
              help="A pbem module (id or folder) whose VASSAL geometry names locations instead of pixels (its vassal.json, or the maps kept by 'pbem module import').")
@click.option("--vassal-module", "vassal_module", type=click.Path(path_type=str),
              help="The game's VASSAL module (.vmod, buildFile or unpacked folder), to name locations instead of pixels.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def log(file: str, module_name: str | None, vassal_module: str | None, fmt: str) -> int:
    """FILE's steps as events (moves, adds, removes, changes, chat, dice, undos) and a summary."""
    from pbem.formats.vassal.describe import open_vassal_file
    from pbem.formats.vassal.logevents import read_events
    from pbem.formats.vassal.modulefile import open_module
    from pbem.formats.vassal.render import log_lines
    from pbem.formats.vassal.savefile import SavedGame
    from pbem.formats.vassal.traits import PieceError
    from pbem.model.errors import PbemError

    module_name, vassal_module = vassal_module_option(module_name, vassal_module, "vassal log")
    geometry = _pbem_module_geometry(module_name) if module_name else None
    try:
        game = open_vassal_file(file)
        if not isinstance(game, SavedGame):
            raise PbemError.at(file, "not a VASSAL save or log")
        module = geometry
        if vassal_module:
            module = open_module(vassal_module).module
        report = read_events(game, module)
    except (PbemError, PieceError, RecursionError) as error:
        raise _located(file, error) from None
    if fmt == "json":
        _print_json(report)
    else:
        _print_lines(log_lines(report))
    return EXIT_OK


def _pbem_module_geometry(module_name: str):
    """The VASSAL geometry a pbem module keeps: the maps ``pbem module import`` kept, or its vassal.json's places."""
    from pbem.formats.vassal.geometry import imported_module
    from pbem.formats.vassal.mapping import load_mapping, mapping_path
    from pbem.model.errors import PbemError
    from pbem.model.module import load_module

    module = load_module(module_name)
    found = imported_module(module.path)
    if found is None and mapping_path(module).is_file():
        found = load_mapping(module).vassal_module()
    if found is None:
        raise PbemError(f"module {module.id} keeps no VASSAL geometry (no vassal.json places, not imported from VASSAL): give the game's VASSAL module with --vassal-module")
    return found


@vassal.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--module", "module_name", help="pbem module id or folder (default: the one whose VASSAL mapping reads FILE).")
@click.option("--vassal-module", "vassal_module", type=click.Path(path_type=str),
              help="The game's VASSAL module (.vmod, buildFile or unpacked folder), to name places (default: the places kept in the module's vassal.json).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=str), help="Write the state (JSON) here.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def state(file: str, module_name: str | None, vassal_module: str | None, out: str | None, fmt: str) -> int:
    """FILE (a save, or the start of a log) as a pbem state: every mapped unit on its space or in its box."""
    from collections import Counter

    from pbem.formats.vassal.to_state import open_game, state_of
    from pbem.model.files import write_atomic
    from pbem.model.module import load_module
    from pbem.model.state import written_state_text

    module_name, vassal_module = vassal_module_option(module_name, vassal_module, "vassal state")
    opened = open_game(file, load_module(module_name) if module_name else None, vassal_module)
    result = state_of(opened)
    text = written_state_text(opened.module, result)
    for warning in opened.namer.warnings:
        click.echo(f"{file}: warning: {warning}", err=True)
    if out:
        write_atomic(out, text)
    if fmt == "json" and not out:
        click.echo(text, nl=False)
        return EXIT_OK
    units = result["units"]
    boxes = Counter(u["at"] for u in units if u["at"] in opened.module.boxes)
    on_map = len(units) - sum(boxes.values())
    lines = [("bold", f"{file}: {opened.module.id} state, turn {result['turn']}: {len(units)} units, {on_map} on the map"
                      + "".join(f", {n} {box}" for box, n in sorted(boxes.items()))),
             ("", f"{file}: {opened.mapping.version_read}")]
    if fmt == "json":
        _print_json({"file": file, "module": opened.module.id, "vassal": opened.mapping.version_read,
                     "vassal_version": opened.mapping.game_version,
                     "vassal_family": opened.mapping.family["name"] if opened.mapping.family else None,
                     "turn": result["turn"], "units": len(units),
                     "on_map": on_map, "boxes": dict(boxes), "warnings": opened.namer.warnings, "out": out})
        return EXIT_OK
    if out:
        lines.append(("", f"wrote {out}"))
    else:
        by_place: dict[str, list[str]] = {}
        for unit in units:
            if unit["at"] not in opened.module.boxes:
                by_place.setdefault(unit["at"], []).append(unit["id"] + (" (reduced)" if unit.get("step") else ""))
        lines += [("", f"  {place}: {', '.join(ids)}") for place, ids in sorted(by_place.items())]
    _print_lines(lines)
    return EXIT_OK


@vassal.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=str))
@click.option("--module", "module_name", help="pbem module id or folder (default: the one whose VASSAL mapping reads FILE).")
@click.option("--state", "previous", type=click.Path(dir_okay=False, path_type=str),
              help="For a save: the previous position (a save or a state file); the turn is the moves between them.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=str),
              help="Write the turn here: a JSON turn file, or PBEM notation if the name ends in .pbem.")
def turn(file: str, module_name: str | None, previous: str | None, out: str | None) -> int:
    """The turn pbem reads in FILE (a log, or a save with --state): what it understood, as a turn file."""
    import json
    from pathlib import Path

    from pbem.formats.notation.writer import write_notation
    from pbem.formats.turnfile import NOTATION_SUFFIXES
    from pbem.formats.vassal.to_turn import read_vassal_turn
    from pbem.model.files import write_atomic
    from pbem.model.module import load_module

    module = load_module(module_name) if module_name else None
    document = read_vassal_turn(file, module, previous)
    data = dict(document.data)
    if out and document.start_document is not None:
        # The log's opening position is the turn's start: written beside the turn, named in its header, proved to read back.
        from pbem.model.module import load_module_by_id
        from pbem.model.state import written_state_text

        start_name = Path(out).stem + "-start.json"
        data["start"] = {"state": start_name}
        start_text = written_state_text(module or load_module_by_id(data["module"]), document.start_document.data)
    else:
        start_name = start_text = None
    for notice in document.notices:
        click.echo(str(notice), err=True)
    if out and Path(out).suffix.lower() in NOTATION_SUFFIXES:
        text = write_notation(data)
    else:
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    if not out:
        click.echo(text, nl=False)
        return EXIT_OK
    if start_name and start_text:
        write_atomic(Path(out).parent / start_name, start_text)
    write_atomic(out, text)
    click.echo(f"wrote {out}" + (f" (start state: {Path(out).parent / start_name})" if start_name else "")
               + f": {len(data['actions'])} actions")
    return EXIT_OK
