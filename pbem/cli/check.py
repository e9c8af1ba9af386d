"""``pbem check``: replay one turn file and report every violation."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from pbem.cli import EXIT_OK, EXIT_VIOLATIONS, counted, one_line
from pbem.engine.replay import replay
from pbem.engine.report import odds_lines, report_items, report_json, summary
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.files import check_output, write_atomic
from pbem.model.module import load_module
from pbem.model.printable import unescaped
from pbem.model.violation import WARNING


@click.command()
@click.argument("turns", nargs=-1, required=True, metavar="TURN", type=click.Path(path_type=Path))
@click.option("--state", "state_path", type=click.Path(path_type=Path), help="Start from this state (or scenario) file instead of the turn's header.")
@click.option("--module", "module_name", help="Module id or folder (default: the turn's header).")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option(
    "--write-state", type=click.Path(path_type=Path),
    help="Write the state after the turn here (the next turn's start); standard error says where, and if the turn had violations.",
)  # fmt: skip
@click.option("--explain", is_flag=True, help="Also show each combat's working: odds, every shift, the column and the result for every roll.")
def check(turns: tuple[Path, ...], state_path: Path | None, module_name: str | None, output: str, write_state: Path | None, explain: bool) -> int:
    """Replay TURN and report every illegal action with its rule number.

    TURN may also be several VASSAL logs (and saves), or a folder of them: a chain, each log checked from where
    the one before ended and each log's opening position compared with the previous file's end (rule
    continuity), with the undos and re-rolls of the whole chain.

    With --explain, each attack is worked out as the tables give it, so a player can write a turn's odds and
    results right: write the attack with any roll, and read the result for every roll.

    Exit code 0: all legal; 1: violations found; 2: the input could not be read.
    """
    if write_state is not None:
        check_output(write_state)  # a folder or device there is refused before the report, not after it
    from pbem.cli.chain import chain_files, check_chain_command

    files = chain_files(turns)
    if files is not None:
        if state_path is not None or explain:
            from pbem.model.errors import PbemError

            raise PbemError.at(turns[0], "a chain of VASSAL files starts from its first log's own position: drop --state and --explain")
        return check_chain_command(files, module_name, output, write_state)
    turn = turns[0]
    module = load_module(module_name) if module_name else None
    parsed, module = load_turn(turn, module, state_path)
    state = load_start_state(parsed, module, state_path)
    result = replay(module, state, parsed, explain=explain)
    if parsed.origin and output != "json":
        click.echo(one_line(f"{turn}: {parsed.origin}"), err=True)  # which version of the VASSAL module the file is from
    # Everything the user asked for is computed before anything is written.
    state_text = result.state.written_json() if write_state else None
    if output == "json":
        click.echo(json.dumps(report_json(result, str(turn)), indent=2, ensure_ascii=False))
    else:
        if explain:
            for line in odds_lines(result):
                click.echo(line)
        _print_text(result, str(turn))
    if write_state and state_text is not None:
        write_atomic(write_state, state_text)
        click.echo(one_line(_wrote_state(write_state, result)), err=True)
    return EXIT_OK if result.ok else EXIT_VIOLATIONS


def _wrote_state(path: Path, result) -> str:
    """The line on standard error that says where the next turn's start state went, and whether the turn that
    led to it broke rules (the state is the turn as written, so a player should not start from it unawares)."""
    if result.ok:
        return f"state after the turn written to {path}"
    bad = sum(v.severity != WARNING for v in result.violations)
    return (
        f"state after the turn written to {path}, but the turn had {counted(bad, 'violation')}: "
        "it is the state the turn as written leaves, violations included"
    )


def _print_text(result, file: str) -> None:
    # A message may quote what the opponent wrote (a claimed result): never a terminal escape.
    items = report_items(result)
    lines = [one_line(str(item)) for item in items]
    # A pipe or file gets plain lines, written at once (rich costs ~0.1 ms a line and ~12 ms to import).
    if not _may_be_terminal():
        click.echo("".join(f"{line}\n" for line in lines) + one_line(summary(result, file)))
        return
    from rich.console import Console

    console = Console(file=unescaped(sys.stdout), highlight=False, soft_wrap=True)
    if not console.is_terminal:
        click.echo("".join(f"{line}\n" for line in lines) + one_line(summary(result, file)))
        return
    colours = {"illegal": "red", "mismatch": "yellow", "warning": "cyan"}
    for item, line in zip(items, lines):
        console.print(line, style=colours.get(getattr(item, "severity", ""), "default"), markup=False)
    console.print(one_line(summary(result, file)), style="green" if result.ok else "bold", markup=False)


def _may_be_terminal() -> bool:
    """False when rich would surely see no terminal: standard output is not a tty and nothing forces colour."""
    if any(os.environ.get(name) for name in ("FORCE_COLOR", "TTY_INTERACTIVE", "TTY_COMPATIBLE")):
        return True
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False
