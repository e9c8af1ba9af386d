"""``pbem archive``: keep finished games in one SQLite file (or a club's PostgreSQL server), find them, export,
verify and re-validate them."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pbem.cli import EXIT_OK, EXIT_VIOLATIONS, WrappingGroup, counted
from pbem.model.printable import unescaped

DB_HELP = ("Archive file, or a club's server as postgresql://USER@HOST/DATABASE "
           "(default: $PBEM_ARCHIVE, else ~/.local/share/pbem/archive.sqlite).")


class ArchiveLocation(click.ParamType):
    """``--db``: a file (a Path), or a ``postgresql://`` URL kept as it is written."""

    name = "FILE|URL"

    def convert(self, value, param, ctx):
        from pbem.archive.backend import location_of

        if isinstance(value, Path):
            return value
        return location_of(str(value))


DB_LOCATION = ArchiveLocation()


def _open(ctx: click.Context):
    from pbem.archive.store import open_archive

    archive = open_archive(ctx.obj["db"])
    ctx.call_on_close(archive.close)
    return archive


def _shown(text: object) -> str:
    """Text from the archive as it may reach a terminal: control characters and the like escaped."""
    from pbem.archive.safetext import printable

    return printable(str(text))


def _json(value: object) -> str:
    from pbem.archive.safetext import json_text

    return json_text(value)


def _players_text(players: dict[str, list[str]]) -> str:
    return " vs ".join(f"{', '.join(map(_shown, names))} ({_shown(side)})" for side, names in players.items()) or "-"


def _print_rows(rows, output: str) -> None:
    if output == "json":
        click.echo(_json([row.as_json() for row in rows]))
        return
    for row in rows:
        verdict = "legal" if row.ok else f"{row.violations} violation(s)"
        title = f" “{_shown(row.title)}”" if row.title else ""
        click.echo(
            f"#{row.id:<5} {_shown(row.finished or '-'):10}  {_shown(row.module)}/{_shown(row.scenario or '-')}{title}"
            f"  {_players_text(row.players)}  result: {_shown(row.result or '-')}  {counted(row.turns, 'turn')}, {counted(row.actions, 'action')}, {verdict}"
        )
    click.echo(f"{len(rows)} game(s)", err=True)


def _db_after_verb(ctx: click.Context, _param: click.Parameter, value: Path | None) -> None:
    # The group has already run: a --db after the verb replaces the one before it.
    if value is not None:
        ctx.ensure_object(dict)["db"] = value


def db_option(command):
    """``--db`` after the verb too (``pbem archive list --db F``), as ``pbem replay`` takes it; it wins over one before."""
    return click.option(
        "--db", type=DB_LOCATION, expose_value=False, callback=_db_after_verb, help=DB_HELP
    )(command)


class ArchiveGroup(WrappingGroup):
    """The archive verbs; SQLite's own errors on a damaged or foreign file end as one line naming the file."""

    def invoke(self, ctx: click.Context):
        import sqlite3

        try:
            return super().invoke(ctx)
        except sqlite3.DatabaseError as error:
            raise database_error(ctx, error) from None
        except Exception as error:
            if type(error).__module__.startswith("psycopg"):  # psycopg is imported only for a server's archive
                raise server_error((ctx.obj or {}).get("db"), error) from None
            raise


def database_error(ctx: click.Context, error: Exception):
    from pbem.archive.store import shown_location
    from pbem.model.errors import PbemError

    return PbemError.at(shown_location((ctx.obj or {}).get("db")), f"cannot read the archive: {error} (a damaged file? keep a copy and restore a backup)")


def server_error(location, error: Exception):
    """A PostgreSQL error in one line without the password: exit 3 if the server failed, 2 if it refused what
    was sent (text it cannot store, such as a NUL character)."""
    import psycopg

    from pbem.archive.postgres import clean, shown
    from pbem.archive.store import default_location
    from pbem.model.errors import PbemError, ServiceError

    url = str(location or default_location())
    message = clean(str(error) or type(error).__name__, url)
    if isinstance(error, (psycopg.DataError, psycopg.IntegrityError)):
        return PbemError.at(shown(url), f"the archive server refused it: {message}; nothing was written")
    return ServiceError(f"{shown(url)}: the archive server failed: {message}")


@click.group(cls=ArchiveGroup)
@click.option("--db", type=DB_LOCATION, help=DB_HELP)
@click.pass_context
def archive(ctx: click.Context, db: Path | None) -> None:
    """Finished games in one SQLite file: add, list, show, search, export, remove, verify, revalidate.

    --db FILE may come before the verb or after it (pbem archive --db F list, pbem archive list --db F).
    A club's archive on a PostgreSQL server: --db postgresql://USER@HOST/DATABASE (see docs/archive.md).
    """
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
@db_option
@click.pass_context
def add(ctx, game, module_name, players, title, started, finished, result) -> int:
    """Replay a finished game and store it: GAME is a folder, a zip, or turn files in play order.

    Every turn is replayed from the previous turn's final state (state files in the folder are not
    trusted); the turn files are kept byte for byte, hash-chained. All turns are stored, or none.
    """
    from pbem.archive import games
    from pbem.archive.gamefiles import parse_date, read_game
    from pbem.archive.safetext import check_text
    from pbem.archive.store import adding_to, check_target
    from pbem.model.errors import PbemError

    for option, value in (("--title", title), ("--result", result), *(("--player", p) for p in players)):
        if value is not None:
            check_text(value, option)
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
    check_target(ctx.obj["db"])  # a foreign file is refused before the replay, not after it
    found = read_game(list(game))
    module = games.resolve_module(found, module_name)
    # Replay and check everything before the archive is opened: a bad game leaves the archive untouched,
    # and a new archive is not even made.
    new = games.prepare_game(found, module, overrides)
    with adding_to(ctx.obj["db"]) as archive_:
        summary = games.store_game(archive_, new)
    verdict = "all legal" if summary["ok"] else f"{summary['violations']} violation(s)"
    click.echo(
        f"added game #{summary['id']}: {_shown(summary['module'])}/{_shown(summary['scenario'])}, {counted(summary['turns'], 'turn')}, "
        f"{counted(summary['actions'], 'action')}, {verdict}"
    )
    click.echo(f"head {summary['head']}")
    click.echo(f"  (keep it: 'pbem archive verify {summary['id']} --head HEAD' tells whether the archive still holds this game)")
    return EXIT_OK


@archive.command("list")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@db_option
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
@db_option
@click.pass_context
def search(ctx, player, module_id, scenario, since, until, result, rule, severity, ok, output) -> int:
    """Games matching every filter given."""
    from pbem.archive import games
    from pbem.archive.gamefiles import parse_date
    from pbem.model.errors import PbemError

    from pbem.archive.safetext import check_text

    def date(value, option):
        return parse_date(value, lambda message: PbemError(f"{option}: {message}")) if value else None

    for option, value in (("--player", player), ("--module", module_id), ("--scenario", scenario), ("--result", result), ("--rule", rule)):
        if value is not None:
            check_text(value, option)

    rows = games.search(
        _open(ctx), player=player, module=module_id, scenario=scenario, since=date(since, "--since"),
        until=date(until, "--until"), result=result, rule=rule, severity=severity, ok=ok,
    )  # fmt: skip
    _print_rows(rows, output)
    return EXIT_OK


@archive.command()
@click.argument("game")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@db_option
@click.pass_context
def show(ctx, game, output) -> int:
    """A game's details, its turns (hash, link) and every violation."""
    from pbem.archive import games

    info = games.show(_open(ctx), game)
    if output == "json":
        click.echo(_json(info))
        return EXIT_OK
    title = f" “{_shown(info['title'])}”" if info["title"] else ""
    start = _shown(info["start_name"]) if info["start_name"] else f"scenario {_shown(info['start_scenario'])}"
    click.echo(f"game #{info['id']}{title}")
    click.echo(f"  module   {_shown(info['module'])} {_shown(info['module_version'])} (checked {_shown(info['checked'])} with {_shown(info['checked_version'])})")
    click.echo(f"  scenario {_shown(info['scenario'] or '-')}; start: {start}")
    click.echo(f"  players  {_players_text(info['players'])}")
    click.echo(f"  dates    started {_shown(info['started'] or '-')}, finished {_shown(info['finished'] or '-')} (added {_shown(info['added'])})")
    click.echo(f"  result   {_shown(info['result'] or '-')}")
    verdict = "all legal" if info["ok"] else f"{info['violations']} violation(s)"
    click.echo(f"  verdict  {counted(info['turn_count'], 'turn')}, {counted(info['actions'], 'action')}, {verdict}")
    covers = "start and turn files only: stored before pbem's heads covered module, players and result" if info["chain"] == 1 else \
        "module and version, scenario, start, players, result and every turn file"  # fmt: skip
    click.echo(f"  head     {_shown(info['head'])}")
    click.echo(f"           (covers the {covers}; check it with 'pbem archive verify {info['id']} --head HEAD')")
    for turn in info["turns"]:
        click.echo(
            f"  {turn['seq'] + 1:>3}. {_shown(turn['name'])}  turn {turn['turn']} {_shown(turn['side'])}, {turn['actions']} actions,"
            f" link {_shown(turn['link'])[:16]}…"
        )
        if turn.get("place"):
            by = f", written by {_shown(turn['writer'])}" if turn.get("writer") else ""
            click.echo(f"       {_shown(turn['place'])}{by}")
        for v in turn["violations"]:
            where = f"{_shown(turn['name'])}:{v['line']}" if v["line"] else _shown(turn["name"])
            click.echo(f"       {where}: rule {_shown(v['rule'])} [{_shown(v['severity'])}] {_shown(v['message'])}")
    if "dice" in info:
        from pbem.engine.dicestats import json_lines

        click.echo("  dice")
        for line in json_lines(info["dice"], info["players"]):
            click.echo(f"    {_shown(line)}")
    return EXIT_OK


@archive.command()
@click.argument("game")
@click.argument("out", type=click.Path(path_type=Path))
@db_option
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
@db_option
@click.pass_context
def remove(ctx, game, yes) -> int:
    """Delete GAME from the archive (its number is never given to another game).

    Asks first on a terminal; elsewhere (a script, a pipe) --yes is required.
    """
    import sys

    from pbem.archive import games
    from pbem.model.errors import PbemError

    archive_ = _open(ctx)
    gid = games.game_id(archive_, game)
    if not yes:
        if not sys.stdin.isatty():
            raise PbemError(f"remove game #{gid}: no terminal to ask on; pass --yes to remove it")
        click.confirm(f"remove game #{gid} from {archive_.path}?", abort=True)
    games.remove(archive_, gid)
    click.echo(f"removed game #{gid}")
    return EXIT_OK


@archive.command()
@click.argument("game", nargs=-1)
@click.option("--head", "kept", metavar="HEX", help="The head you kept of GAME (one game): does the stored game still end at it?")
@db_option
@click.pass_context
def verify(ctx, game, kept) -> int:
    """Check every game's hash chain (or GAME's); name the first broken link. Exit 1 if any is broken.

    With --head, check that GAME is still exactly the game whose head you kept (exit 1 if not).
    """
    import re

    from pbem.archive import games
    from pbem.model.errors import PbemError

    if kept is not None:
        if len(game) != 1:
            raise PbemError("--head: name exactly one game, e.g. pbem archive verify 3 --head HEX")
        if not re.fullmatch(r"[0-9a-fA-F]{64}", kept.strip()):
            raise PbemError("--head: a head is 64 hexadecimal digits, as 'archive add' and 'archive show' print it")
        archive_ = _open(ctx)
        _, database = games.verify(archive_, list(game))
        ok, lines = games.verify_head(archive_, game[0], kept)
        for line in [problem for gid, problem in database if not gid] + lines:
            click.echo(_shown(line))
        return EXIT_OK if ok and not database else EXIT_VIOLATIONS
    count, problems = games.verify(_open(ctx), list(game) or None)
    for gid, problem in problems:
        click.echo(_shown(f"game #{gid}: {problem}" if gid else problem))
    click.echo(f"{count} game(s) checked, {'all chains intact' if not problems else f'{len(problems)} broken'}")
    return EXIT_VIOLATIONS if problems else EXIT_OK


@archive.command()
@click.argument("game", nargs=-1)
@click.option("--module", "module_name", help="Only games of this module (id or folder: re-check against that folder).")
@click.option("--jobs", type=click.IntRange(min=1), help="Worker processes (default: all cores).")
@click.option("--dry-run", is_flag=True, help="Report changes without storing the new verdicts.")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
@db_option
@click.pass_context
def revalidate(ctx, game, module_name, jobs, dry_run, output) -> int:
    """Replay every stored game (or each GAME) against the current module; report which verdicts changed.

    Exit 1 if any verdict changed (or a game could not be replayed), else 0. A run stopped half-way (Ctrl-C,
    kill -9) goes on where it stopped when run again, unless the archive, the modules or the games chosen changed
    (the checkpoint is kept in the archive). A progress bar shows on a terminal, a plain line every 30 s otherwise.
    """
    from pbem.archive.games import game_id

    from rich.console import Console

    from pbem.archive.revalidate import revalidate as run

    console = Console(file=unescaped(sys.stderr))
    archive_ = _open(ctx)
    chosen = [game_id(archive_, g) for g in game] or None
    try:
        report = run(archive_, module=module_name, games=chosen, jobs=jobs, store=not dry_run,
                     progress="bar" if console.is_terminal else "plain")
    except KeyboardInterrupt:
        if not dry_run:
            click.echo("the games re-checked so far are stored; run the same command again to go on where it stopped", err=True)
        raise
    if output == "json":
        click.echo(_json(report.as_json()))
    else:
        for line in report.lines():
            click.echo(_shown(line))
    return EXIT_VIOLATIONS if report.changed or report.errors else EXIT_OK


@archive.command()
@click.argument("archive_file", metavar="[ARCHIVE]", required=False, type=DB_LOCATION)
@click.option("--out", "out", required=True, type=click.Path(file_okay=False, path_type=Path), help="The site's folder (new, empty, or one pbem wrote a site into).")
@click.option("--title", default="Game archive", show_default=True, help="The site's name, e.g. your club's.")
@db_option
@click.pass_context
def site(ctx, archive_file, out, title) -> int:
    """Write a static web site of the archive to folder OUT: games (search, filters), standings, players, replays.

    ARCHIVE is the archive, a file or postgresql://... (default: --db, else the default archive). Run it again
    after adding games: only games that changed are replayed and rewritten. The pages work offline and on any
    web host, with no server.
    """
    from pbem.archive.safetext import check_text
    from pbem.archive.site import build_site

    check_text(title, "--title")
    if archive_file is not None:
        ctx.obj["db"] = archive_file
    archive_ = _open(ctx)
    counts = build_site(archive_, out, title=title)
    not_shown = f", {counts['not_shown']} not shown (see the index)" if counts["not_shown"] else ""
    click.echo(
        f"wrote the site of {counted(counts['games'], 'game')} to {_shown(out)}: {counts['replayed']} replayed, {counts['unchanged']} unchanged,"
        f" {counts['removed']} removed{not_shown}; {counted(counts['players'], 'player')}; open {_shown(out / 'index.html')}"
    )
    return EXIT_OK
