"""``pbem archive``: keep finished games in one SQLite file, find them, export, verify and re-validate them."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pbem.cli import EXIT_OK, EXIT_VIOLATIONS, WrappingGroup

DB_HELP = "Archive file (default: $PBEM_ARCHIVE, else ~/.local/share/pbem/archive.sqlite)."


def _open(ctx: click.Context, create: bool = False):
    from pbem.archive.store import open_archive

    archive = open_archive(ctx.obj["db"], create=create)
    ctx.call_on_close(archive.close)
    return archive


def _players_text(players: dict[str, list[str]]) -> str:
    return " vs ".join(f"{', '.join(names)} ({side})" for side, names in players.items()) or "-"


def _print_rows(rows, output: str) -> None:
    if output == "json":
        click.echo(json.dumps([row.as_json() for row in rows], indent=1, ensure_ascii=False))
        return
    for row in rows:
        verdict = "legal" if row.ok else f"{row.violations} violation(s)"
        title = f" “{row.title}”" if row.title else ""
        click.echo(
            f"#{row.id:<5} {row.finished or '-':10}  {row.module}/{row.scenario or '-'}{title}  {_players_text(row.players)}"
            f"  result: {row.result or '-'}  {row.turns} turns, {row.actions} actions, {verdict}"
        )
    click.echo(f"{len(rows)} game(s)", err=True)


@click.group(cls=WrappingGroup)
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), help=DB_HELP)
@click.pass_context
def archive(ctx: click.Context, db: Path | None) -> None:
    """Finished games in one SQLite file: add, list, show, search, export, remove, verify, revalidate."""
    ctx.ensure_object(dict)
    ctx.obj["db"] = db


@archive.command()
@click.argument("game", nargs=-1, required=True, type=click.Path(exists=False, path_type=Path))
@click.option("--module", "module_name", help="Module id or folder (default: the first turn's header).")
@click.option("--player", "players", multiple=True, metavar="SIDE=NAME", help="A player and the side played (repeatable).")
@click.option("--title")
@click.option("--started", metavar="YYYY-MM-DD")
@click.option("--finished", metavar="YYYY-MM-DD", help="Default: game.json's, else today.")
@click.option("--result", help="Free text, e.g. the winning side or 'draw'.")
@click.pass_context
def add(ctx, game, module_name, players, title, started, finished, result) -> int:
    """Replay a finished game and store it: GAME is a folder, a zip, or turn files in play order.

    Every turn is replayed from the previous turn's final state (state files in the folder are not
    trusted); the turn files are kept byte for byte, hash-chained. All turns are stored, or none.
    """
    from pbem.archive import games
    from pbem.archive.gamefiles import parse_date, read_game
    from pbem.model.errors import PbemError

    overrides: dict = {"title": title, "result": result}
    for key, value in (("started", started), ("finished", finished)):
        if value:
            overrides[key] = parse_date(value, lambda message, k=key: PbemError(f"--{k}: {message}"))
    if players:
        parsed: dict[str, list[str]] = {}
        for entry in players:
            side, sep, name = entry.partition("=")
            if not sep or not side.strip() or not name.strip():
                raise PbemError(f"--player {entry!r}: write SIDE=NAME, e.g. soviet=Alice")
            parsed.setdefault(side.strip(), []).append(name.strip())
        overrides["players"] = parsed
    found = read_game(list(game))
    module = games.resolve_module(found, module_name)
    # Replay everything before the archive is opened: a bad turn file leaves the archive untouched.
    summary = games.add_game(_open(ctx, create=True), found, module, overrides)
    verdict = "all legal" if summary["ok"] else f"{summary['violations']} violation(s)"
    click.echo(
        f"added game #{summary['id']}: {summary['module']}/{summary['scenario']}, {summary['turns']} turns, "
        f"{summary['actions']} actions, {verdict}; head {summary['head']}"
    )
    return EXIT_OK


@archive.command("list")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_context
def list_(ctx, output) -> int:
    """Every game in the archive."""
    from pbem.archive import games

    _print_rows(games.list_games(_open(ctx)), output)
    return EXIT_OK


@archive.command()
@click.option("--player", help="A player's name (any side; case ignored).")
@click.option("--module", "module_id", help="Module id.")
@click.option("--scenario")
@click.option("--since", metavar="YYYY-MM-DD", help="Finished on or after.")
@click.option("--until", metavar="YYYY-MM-DD", help="Finished on or before.")
@click.option("--result")
@click.option("--rule", help="Games with a violation of this rule, e.g. 9.14.")
@click.option("--severity", type=click.Choice(["illegal", "mismatch", "warning"]))
@click.option("--legal/--with-violations", "ok", default=None, help="Only games with no violation / with some.")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_context
def search(ctx, player, module_id, scenario, since, until, result, rule, severity, ok, output) -> int:
    """Games matching every filter given."""
    from pbem.archive import games
    from pbem.archive.gamefiles import parse_date
    from pbem.model.errors import PbemError

    def date(value, option):
        return parse_date(value, lambda message: PbemError(f"{option}: {message}")) if value else None

    rows = games.search(
        _open(ctx), player=player, module=module_id, scenario=scenario, since=date(since, "--since"),
        until=date(until, "--until"), result=result, rule=rule, severity=severity, ok=ok,
    )  # fmt: skip
    _print_rows(rows, output)
    return EXIT_OK


@archive.command()
@click.argument("game")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_context
def show(ctx, game, output) -> int:
    """A game's details, its turns (hash, link) and every violation."""
    from pbem.archive import games

    info = games.show(_open(ctx), game)
    if output == "json":
        click.echo(json.dumps(info, indent=1, ensure_ascii=False))
        return EXIT_OK
    click.echo(f"game #{info['id']}{' “' + info['title'] + '”' if info['title'] else ''}")
    click.echo(f"  module   {info['module']} {info['module_version']} (checked {info['checked']} with {info['checked_version']})")
    click.echo(f"  scenario {info['scenario'] or '-'}; start: {info['start_name'] or 'scenario ' + str(info['start_scenario'])}")
    click.echo(f"  players  {_players_text(info['players'])}")
    click.echo(f"  dates    started {info['started'] or '-'}, finished {info['finished'] or '-'} (added {info['added']})")
    click.echo(f"  result   {info['result'] or '-'}")
    verdict = "all legal" if info["ok"] else f"{info['violations']} violation(s)"
    click.echo(f"  verdict  {info['turn_count']} turns, {info['actions']} actions, {verdict}")
    click.echo(f"  head     {info['head']}")
    for turn in info["turns"]:
        click.echo(f"  {turn['seq'] + 1:>3}. {turn['name']}  turn {turn['turn']} {turn['side']}, {turn['actions']} actions, link {turn['link'][:16]}…")
        for v in turn["violations"]:
            where = f"{turn['name']}:{v['line']}" if v["line"] else turn["name"]
            click.echo(f"       {where}: rule {v['rule']} [{v['severity']}] {v['message']}")
    return EXIT_OK


@archive.command()
@click.argument("game")
@click.argument("out", type=click.Path(path_type=Path))
@click.pass_context
def export(ctx, game, out) -> int:
    """Write GAME's turn files (byte for byte), start state and game.json to folder OUT, or OUT.zip."""
    from pbem.archive import games

    names = games.export(_open(ctx), game, out)
    click.echo(f"wrote {len(names)} files to {out}")
    return EXIT_OK


@archive.command()
@click.argument("game")
@click.option("--yes", is_flag=True, help="Do not ask.")
@click.pass_context
def remove(ctx, game, yes) -> int:
    """Delete GAME from the archive."""
    from pbem.archive import games

    archive_ = _open(ctx)
    gid = games.game_id(archive_, game)
    if not yes:
        click.confirm(f"remove game #{gid} from {archive_.path}?", abort=True)
    games.remove(archive_, gid)
    click.echo(f"removed game #{gid}")
    return EXIT_OK


@archive.command()
@click.argument("game", nargs=-1)
@click.pass_context
def verify(ctx, game) -> int:
    """Check every game's hash chain (or GAME's); name the first broken link. Exit 1 if any is broken."""
    from pbem.archive import games

    count, problems = games.verify(_open(ctx), list(game) or None)
    for gid, problem in problems:
        click.echo(f"game #{gid}: {problem}" if gid else problem)
    click.echo(f"{count} game(s) checked, {'all chains intact' if not problems else f'{len(problems)} broken'}")
    return EXIT_VIOLATIONS if problems else EXIT_OK


@archive.command()
@click.argument("game", nargs=-1)
@click.option("--module", "module_name", help="Only games of this module (id or folder: re-check against that folder).")
@click.option("--jobs", type=click.IntRange(min=1), help="Worker processes (default: all cores).")
@click.option("--dry-run", is_flag=True, help="Report changes without storing the new verdicts.")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.pass_context
def revalidate(ctx, game, module_name, jobs, dry_run, output) -> int:
    """Replay every stored game (or each GAME) against the current module; report which verdicts changed.

    Exit 1 if any verdict changed (or a game could not be replayed), else 0.
    """
    from pbem.archive.games import game_id

    from rich.console import Console

    from pbem.archive.revalidate import revalidate as run

    console = Console(stderr=True)
    archive_ = _open(ctx)
    chosen = [game_id(archive_, g) for g in game] or None
    report = run(archive_, module=module_name, games=chosen, jobs=jobs, store=not dry_run, progress=console.is_terminal)
    if output == "json":
        click.echo(json.dumps(report.as_json(), indent=1, ensure_ascii=False))
    else:
        for line in report.lines():
            click.echo(line)
    return EXIT_VIOLATIONS if report.changed or report.errors else EXIT_OK
