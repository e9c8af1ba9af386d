"""``pbem convert``: a turn file from JSON to the PBEM notation and back."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pbem.cli import EXIT_INPUT_ERROR, EXIT_OK
from pbem.formats.notation import NotationError, write_notation
from pbem.formats.turnfile import load_turn, read_turn_document
from pbem.model.files import write_atomic


@click.command()
@click.argument("turn", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--to", "target", type=click.Choice(["json", "pbem"]), required=True, help="The format to write.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write here instead of to standard output.")
def convert(turn: Path, target: str, out: Path | None) -> int:
    """Rewrite TURN (a .json turn file, or notation: .pbem, .txt, .eml) as JSON or as notation.

    Every unit and location is checked against the module first; in notation every problem is listed,
    one per line. Exit code 0: converted; 2: the input could not be read (nothing is written).
    """
    try:
        document = read_turn_document(turn)
        load_turn(turn)  # names and locations must exist in the module before anything is written
    except NotationError as error:
        for line in error.lines():
            click.echo(f"error: {line}", err=True)
        return EXIT_INPUT_ERROR
    data = {k: v for k, v in document.data.items() if k != "$schema"}
    if target == "json":
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    else:
        text = write_notation(data)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_atomic(out, text)
    return EXIT_OK
