"""``pbem dice``: a game's dice on record."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pbem.cli import EXIT_OK, one_line
from pbem.cli.archive import DB_HELP


@click.group()
def dice() -> None:
    """A game's dice: who rolled what, and how the counts compare with fair dice."""


@dice.command()
@click.argument("game", nargs=-1, required=True)
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), help=DB_HELP)
@click.option("--module", "module_name", help="Module id or folder (default: the game's).")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
def stats(game: tuple[str, ...], db: Path | None, module_name: str | None, output: str) -> int:
    """Every roll of GAME by player and purpose, the counts per face, the mean against the expected, a chi-square
    test per player and die type (with its p-value), and the re-rolls after undos.

    GAME is a game folder, zip or turn files, an archived game's number, or a chain of VASSAL logs (files or a
    folder). A low p-value says the rolls are unusual for fair dice; it does not prove cheating (see the report).
    """
    from pbem.engine.dicestats import dice_stats, stats_lines

    module, turns, players = load_game_files(game, db, module_name)
    from pbem.archive.gamedice import dice_record

    result = dice_stats(dice_record(module, turns))
    if output == "json":
        click.echo(json.dumps({"module": module.id, "players": players, **result.as_json()}, indent=2, ensure_ascii=False))
    else:
        for line in stats_lines(result, players):
            click.echo(one_line(line))
    return EXIT_OK


def load_game_files(game: tuple[str, ...], db: Path | None, module_name: str | None):
    """The module, the turn files in play order and the players (side -> names) of GAME."""
    from pbem.archive import games
    from pbem.archive.gamefiles import read_game
    from pbem.model.module import load_module, load_module_by_id

    reference = game[0].lstrip("#")
    if len(game) == 1 and reference.isdigit() and not Path(game[0]).exists():
        import sqlite3

        from pbem.archive.store import default_path, open_archive
        from pbem.model.errors import PbemError

        try:
            with open_archive(db) as archive:
                stored = games.load_game(archive, reference)
        except sqlite3.DatabaseError as error:
            raise PbemError.at(db or default_path(), f"cannot read the archive: {error}") from None
        module = load_module(module_name) if module_name else load_module_by_id(stored.module)
        return module, stored.turns, stored.metadata.get("players") or {}
    from pbem.cli.chain import chain_files

    paths = tuple(Path(g) for g in game)
    try:
        files = chain_files(paths) if all(p.suffix.lower() in (".vlog", ".vsav") for p in paths) or _only_vassal(paths) else None
    except Exception:
        files = None
    if files:
        from pbem.cli.chain import _module_of
        from pbem.model.files import read_bytes

        module = load_module(module_name) if module_name else _module_of(files)
        return module, [(p.name, read_bytes(p)) for p in files], {}
    found = read_game(list(paths))
    module = games.resolve_module(found, module_name)
    games.order_input(found, module)
    return module, [(t.name, t.data) for t in found.turns], found.metadata.get("players") or {}


def _only_vassal(paths: tuple[Path, ...]) -> bool:
    """A folder holding VASSAL files and no turn file of another kind."""
    if len(paths) != 1 or not paths[0].is_dir():
        return False
    names = [p.name.lower() for p in paths[0].iterdir() if p.is_file() and not p.name.startswith(".")]
    return any(n.endswith((".vlog", ".vsav")) for n in names) and not any(n.endswith((".json", ".pbem", ".txt", ".eml")) for n in names if n != "game.json")
