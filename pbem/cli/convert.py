"""``pbem convert``: a turn file from JSON to the PBEM notation and back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from pbem.cli import EXIT_OK
from pbem.formats.notation import NotationError, parse_notation, write_notation
from pbem.formats.notation.cleanup import MAX_READ
from pbem.formats.turnfile import load_turn, read_turn_document
from pbem.model.errors import PbemError
from pbem.model.files import write_atomic


@click.command()
@click.argument("turn", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--to", "target", type=click.Choice(["json", "pbem"]), required=True, help="The format to write.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="Write here instead of to standard output.")
def convert(turn: Path, target: str, out: Path | None) -> int:
    """Rewrite TURN (a .json turn file, or notation: .pbem, .txt, .eml) as JSON or as notation.

    Every unit and location is checked against the module first; in notation every problem is listed,
    all on one line. Exit code 0: converted; 2: the input could not be read (nothing is written).
    """
    # A notation file's problems come in one error, told on one line (the first one's place, then the rest),
    # as ``pbem check`` tells them: every command refuses an input in one line.
    document = read_turn_document(turn)
    load_turn(turn)  # names and locations must exist in the module before anything is written
    data = {k: v for k, v in document.data.items() if k != "$schema"}
    if target == "json":
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    else:
        text = write_notation(data)
        if len(text) > MAX_READ:
            raise PbemError.at(turn, f"this turn would take {len(text):,} characters of notation, more than the {MAX_READ:,} pbem reads back: keep it as JSON")
        try:
            again = parse_notation(text, turn).data
        except NotationError as error:  # our writer's fault, not the player's: say so rather than blame the file
            raise PbemError(f"the notation written for {turn.name} does not read back ({error.problems[0]}): please report this") from error
        _nothing_lost(document, data, again)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_atomic(out, text)
    return EXIT_OK


def _nothing_lost(document: Any, data: dict[str, Any], again: dict[str, Any]) -> None:
    """Refuse to write notation that would drop something of the turn (a field the notation cannot say yet).

    Canonical forms (a single unit as a string or a list, ``2:1`` as ``2/1``, empty lists left out) are not
    losses; a key with a value that does not come back is.
    """
    for pointer, key in _lost(data, again, ""):
        raise document.error(pointer, f"the notation cannot say {key!r} here yet, so it would be lost: keep this turn as JSON")


def _lost(before: Any, after: Any, pointer: str) -> Iterator[tuple[str, str]]:
    if isinstance(before, dict) and isinstance(after, dict):
        for key, value in before.items():
            if key not in after:
                if value not in ([], {}, None, ""):
                    yield pointer, key
            else:
                yield from _lost(value, after[key], f"{pointer}/{key}")
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for n, (one, other) in enumerate(zip(before, after)):
            yield from _lost(one, other, f"{pointer}/{n}")
