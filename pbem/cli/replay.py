"""``pbem replay``: write one self-contained HTML page that steps through a game, action by action."""

from __future__ import annotations

from pathlib import Path

import click

from pbem.cli import EXIT_OK, counted
from pbem.cli.archive import DB_HELP, DB_LOCATION


@click.command()
@click.argument("game", nargs=-1, required=True)
@click.option("--out", "-o", required=True, type=click.Path(dir_okay=False, path_type=Path), help="The HTML file to write.")
@click.option("--db", type=DB_LOCATION, help=DB_HELP)
@click.option("--module", "module_name", help="Module id or folder (default: the game's).")
@click.option("--title", help="Page title (default: the game's title, else its scenario).")
@click.option(
    "--background",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Draw over your own copy of the map image, placed by the module's calibration.json (embedded in OUT, never kept by pbem).",
)
def replay(game: tuple[str, ...], out: Path, db: Path | None, module_name: str | None, title: str | None, background: Path | None) -> int:
    """Write OUT, a replay of GAME that works offline (from a mail attachment too).

    GAME is an archived game's number (see 'pbem archive list'), or a game folder, zip or turn files.
    """
    from pbem.archive import games
    from pbem.archive.gamefiles import read_game
    from pbem.archive.play import play_game
    from pbem.archive.safetext import check_text
    from pbem.archive.viewer import write_viewer
    from pbem.model.module import load_module, load_module_by_id

    if title is not None:
        check_text(title, "--title")
    reference = game[0].lstrip("#")
    if len(game) == 1 and reference.isdigit() and not Path(game[0]).exists():
        from pbem.archive.store import open_archive

        import sqlite3

        from pbem.archive.store import shown_location
        from pbem.model.errors import PbemError

        try:
            with open_archive(db) as archive:
                stored = games.load_game(archive, reference)
        except sqlite3.DatabaseError as error:
            raise PbemError.at(shown_location(db), f"cannot read the archive: {error} (a damaged file? keep a copy and restore a backup)") from None
        # A stored game names its module by id only: a path in a received archive must not pick the code run.
        module = load_module(module_name) if module_name else load_module_by_id(stored.module)
        played = play_game(module, stored.turns, stored.start_name, stored.start_data, dice=stored.dice)
        metadata = stored.metadata
        default_title = f"Game #{stored.id}"
    else:
        found = read_game([Path(g) for g in game])
        module = games.resolve_module(found, module_name)
        played, _, _ = games.play_input(found, module)
        metadata = dict(found.metadata)
        metadata.setdefault("scenario", played.turns[0].turn.header.scenario)
        default_title = Path(found.origin).name
    name = title or metadata.get("title") or f"{module.name}: {metadata.get('scenario') or default_title}"
    board = None
    if background is not None:
        from pbem.art.background import load_background

        board = load_background(background, module.path, module.map, module.id)
    size = write_viewer(played, out, title=name, metadata=metadata, background=board)
    click.echo(f"wrote {out} ({size // 1024} KiB): {counted(len(played.turns), 'turn')}, {counted(played.actions, 'action')}, {played.violations} violation(s)")
    return EXIT_OK
