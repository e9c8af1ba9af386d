"""``pbem archive site``: a static web site of an archive that any club can host with no server.

The site is a folder: ``index.html`` (every game, with search and filters that run in the page),
``standings.html`` (wins, losses, draws and Elo ratings: :mod:`pbem.archive.standings`), one page per player
(``players/<slug>.html``: games, results and the dice on record) and one replay per game (``games/<id>.html``,
the replay viewer's page). Every page is self-contained (inline CSS and script, no network: the viewer's
content-security policy), so the folder opens from disk as well as from any web host.

Rebuilt incrementally: ``pbem-site.json`` in the folder keeps, per game, a hash of everything its page is made
from (the game's head, which covers its module, players, result and turn files; its title and dates; the stored
verdict; the installed module's version; pbem's version and the viewer's code) and what the other pages need of it (the players,
the result, each player's kept rolls), so an unchanged game is neither replayed nor rewritten. The other pages are
rewritten only when their text changes.

Everything read from the archive is someone else's text: it reaches a page only through :func:`pbem.archive.sitepages.text`
(control characters, bidi overrides and lone surrogates shown as visible escapes, then HTML-escaped), and file
names come from game numbers and hashed, ASCII-only player slugs, never from the text itself.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import unicodedata
from pathlib import Path
from typing import Any, Callable

from pbem.archive import games
from pbem.archive.store import Archive
from pbem.model.errors import PbemError
from pbem.model.files import write_atomic

SITE_VERSION = 1  # bump when a game's page would come out differently for the same game
MANIFEST = "pbem-site.json"
_OWN_FILE = re.compile(r"(games/[0-9]{1,18}|players/[a-z0-9-]{1,60})\.html|index\.html|standings\.html")
MAX_MANIFEST = 64 * 1024 * 1024


def player_slug(key: str) -> str:
    """The file name stem of a player's page: ASCII letters and digits of the name, and a hash of the whole name
    (two names that look alike never share a page, and no name can make a path)."""
    plain = unicodedata.normalize("NFKD", key).encode("ascii", "ignore").decode("ascii").lower()
    readable = re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:32].strip("-") or "player"
    return f"{readable}-{hashlib.sha256(key.encode('utf-8', 'surrogatepass')).hexdigest()[:10]}"


def _renderer() -> str:
    """pbem's version and a hash of the code that draws a game's page: a new viewer re-renders every game."""
    import pbem
    from pbem.archive import sitepages, viewer

    code = hashlib.sha256()
    for module in (viewer, sitepages):
        code.update(Path(module.__file__).read_bytes())
    return f"{pbem.__version__}:{code.hexdigest()}"


def _game_key(row: games.GameRow, stored: games.StoredGame, module_version: str | None, renderer: str) -> str:
    """The hash of everything game ``row``'s page and summary are made from."""
    facts = {"site": SITE_VERSION, "renderer": renderer, "row": row.as_json(), "head": stored.head, "metadata": stored.metadata,
             "module": stored.module, "stored_version": stored.module_version, "installed_version": module_version}  # fmt: skip
    text = json.dumps(facts, sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _kept_rolls(record: Any, players: dict[str, list[str]]) -> list[list[Any]]:
    """The game's kept rolls, each given to the player who rolled it: ``[name key, purpose, count, sides, faces, total]``.

    A turn file's roll belongs to a side, so it goes to the side's player when the side has one; a VASSAL log's
    roll names the player. A roll of a side played by a team is nobody's alone, and is left out.
    """
    from pbem.archive.standings import name_key

    by_side = {side: {name_key(n) for n in names if n.strip()} for side, names in players.items()}
    known = set().union(*by_side.values()) if by_side else set()
    out = []
    for roll in record.rolls:
        if roll.undone:
            continue
        keys = by_side.get(roll.player)
        key = next(iter(keys)) if keys and len(keys) == 1 else (name_key(roll.player) if name_key(roll.player) in known else None)
        if key is not None:
            out.append([key, roll.purpose, roll.count, roll.sides, list(roll.faces) if roll.faces is not None else None, roll.total])
    return out


def _side_names(module: Any) -> dict[str, str]:
    """The module's names of its sides ("Central Powers" for ``cp``), as its art style gives them."""
    try:
        from pbem.art.style import load_style

        style = load_style(module.path)
    except (ImportError, PbemError):
        return {}
    return {side: str(style.side_name(side)) for side in module.sides}


def _render_game(stored: games.StoredGame, row: games.GameRow, out: Path) -> dict[str, Any]:
    """Replay a game, write its page to ``out``; return what the other pages need of it."""
    from pbem.archive import sitepages
    from pbem.archive.play import play_game
    from pbem.archive.safetext import printable
    from pbem.archive.viewer import render_html
    from pbem.model.module import load_module_by_id

    summary: dict[str, Any] = {"module_name": row.module, "replay": None, "note": None, "rolls": [], "side_names": {}}
    try:
        module = load_module_by_id(row.module)  # by id only: a received archive must not pick the code run
    except PbemError:
        summary["note"] = f"no replay: the module {printable(row.module)!r} is not installed"
        return summary
    summary["module_name"] = module.name
    summary["side_names"] = _side_names(module)
    try:
        played = play_game(module, stored.turns, stored.start_name, stored.start_data, dice=stored.dice)
        rolls = _kept_rolls(played.dice(), stored.metadata["players"])
    except PbemError as error:
        summary["note"] = f"no replay: {printable(error.message)}"
        return summary
    title = printable(row.title or f"{module.name}: {row.scenario or 'game'}") + f" (game #{row.id})"
    # The viewer shows these as text; made printable here too, so a bidi override in a name is seen, not obeyed.
    metadata = {key: ({side: [printable(n) for n in names] for side, names in value.items()} if key == "players"
                      else printable(value) if isinstance(value, str) else value)
                for key, value in stored.metadata.items()}  # fmt: skip
    page = render_html(played, title=title, metadata=metadata)
    write_atomic(out, sitepages.with_site_links(page))
    summary.update(replay=f"games/{row.id}.html", rolls=rolls)
    return summary


def _checked_summary(summary: Any, gid: int) -> dict[str, Any] | None:
    """A game's summary from the manifest if it has exactly the shape pbem writes, else ``None`` (the game is
    rendered again): the folder is the user's, but a file read back is checked like any other."""
    if not isinstance(summary, dict) or set(summary) != {"module_name", "replay", "note", "rolls", "side_names"}:
        return None
    if not isinstance(summary["module_name"], str) or summary["replay"] not in (None, f"games/{int(gid)}.html"):
        return None
    if not (summary["note"] is None or isinstance(summary["note"], str)):
        return None
    names = summary["side_names"]
    if not isinstance(names, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in names.items()):
        return None
    rolls = summary["rolls"]
    if not isinstance(rolls, list) or not all(_sound_roll(roll) for roll in rolls):
        return None
    return summary


def _sound_roll(roll: Any) -> bool:
    def number(value: Any, low: int, high: int) -> bool:
        return type(value) is int and low <= value <= high

    if not (isinstance(roll, list) and len(roll) == 6 and isinstance(roll[0], str) and isinstance(roll[1], str)):
        return False
    _, _, count, sides, faces, total = roll
    if not (number(count, 1, 1000) and number(sides, 1, 10**6) and number(total, -10**6, 10**6)):
        return False
    return faces is None or (isinstance(faces, list) and len(faces) <= 1000 and all(number(f, -10**6, 10**6) for f in faces))


def _read_manifest(folder: Path) -> dict[str, Any]:
    path = folder / MANIFEST
    try:
        if path.stat().st_size > MAX_MANIFEST:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("pbem_site") == SITE_VERSION else {}


def _prepare_folder(folder: Path) -> None:
    """Make ``folder`` (and its ``games``/``players``) or check that it is a site pbem wrote: never scatter pages
    into a folder of other files, never write through a link."""
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise PbemError.at(folder, "not a folder: give a new or empty folder, or one pbem wrote a site into")
    # Hidden entries (a web host's .git, .nojekyll) do not make a folder someone else's.
    if folder.exists() and any(not p.name.startswith(".") for p in folder.iterdir()) and not (folder / MANIFEST).is_file():
        raise PbemError.at(folder, f"a folder of other files (no {MANIFEST}): give a new or empty folder, or one pbem wrote a site into")
    for sub in (folder, folder / "games", folder / "players"):
        if sub.is_symlink() or (sub.exists() and not sub.is_dir()):
            raise PbemError.at(sub, "not a folder (a link or a file where pbem keeps pages)")
        try:
            sub.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise PbemError.at(sub, f"cannot create the folder: {error.strerror or error}") from None


def _write_if_changed(path: Path, text: str) -> bool:
    data = text.encode("utf-8")
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    write_atomic(path, data)
    return True


def build_site(archive: Archive, folder: Path, *, title: str = "Game archive", progress: Callable[[str], None] | None = None) -> dict[str, int]:
    """Write (or bring up to date) the site of ``archive`` in ``folder``, headed ``title``; return counts of what was done."""
    rows = games.list_games(archive)  # a damaged archive is refused before the folder is touched
    created = not folder.exists()
    _prepare_folder(folder)
    try:
        return _build(archive, folder, rows, title, progress)
    except BaseException:  # a damaged archive (any database's error), a bug, Ctrl-C
        if created:  # a failed run leaves nothing: the folder it made goes again
            shutil.rmtree(folder, ignore_errors=True)
        raise


def _build(archive: Archive, folder: Path, rows: list, title: str, progress: Callable[[str], None] | None) -> dict[str, int]:
    from pbem.archive import sitepages
    from pbem.archive.standings import name_key, standings
    from pbem.model.module import load_module_by_id

    old = _read_manifest(folder)
    old_games = old.get("games") if isinstance(old.get("games"), dict) else {}
    counts = {"games": 0, "replayed": 0, "unchanged": 0, "removed": 0, "not_shown": 0, "players": 0, "pages": 0}
    summaries: list[dict[str, Any]] = []
    entries: dict[str, Any] = {}
    installed: dict[str, str | None] = {}
    renderer = _renderer()
    for row in rows:
        try:
            stored = games.load_game(archive, row.id)
        except PbemError as error:  # a received archive's game with file names such as ../../x: listed, not replayed
            summary = {"module_name": row.module, "replay": None, "note": f"not shown: {error.message}", "rolls": [], "side_names": {}}
            summaries.append({**row.as_json(), "started": None, **summary})
            counts["not_shown"] += 1
            continue
        if row.module not in installed:
            try:
                installed[row.module] = load_module_by_id(row.module).version
            except PbemError:
                installed[row.module] = None
        key = _game_key(row, stored, installed[row.module], renderer)
        page = folder / "games" / f"{int(row.id)}.html"
        previous = old_games.get(str(row.id))
        kept = _checked_summary(previous["summary"], row.id) if isinstance(previous, dict) and previous.get("key") == key else None
        if kept is not None and (kept["replay"] is None or page.is_file()):
            summary = kept
            counts["unchanged"] += 1
        else:
            if progress:
                progress(f"game #{row.id}")
            summary = _render_game(stored, row, page)
            counts["replayed"] += 1
        entries[str(row.id)] = {"key": key, "summary": summary}
        summaries.append({**row.as_json(), "started": stored.metadata.get("started"), **summary})
    counts["games"] = len(rows)

    table = standings(summaries)
    slugs = {key: player_slug(key) for key in table}
    written = {f"games/{int(g['id'])}.html" for g in summaries if g.get("replay")}
    of_module: dict[str, list[dict[str, Any]]] = {}
    for g in summaries:  # str(): a received archive may hold any type there
        of_module.setdefault(str(g["module"]), []).append(g)
    by_module = {mid: (str(mine[0].get("module_name") or mid), standings(mine)) for mid, mine in of_module.items()}
    pages = {"index.html": sitepages.index_page(summaries, table, slugs, title),
             "standings.html": sitepages.standings_page(table, slugs, title, by_module)}  # fmt: skip
    for key, standing in table.items():
        mine = [g for g in summaries if any(name_key(n) == key for names in g["players"].values() for n in names)]
        pages[f"players/{slugs[key]}.html"] = sitepages.player_page(standing, mine, table, slugs, title)
    for name, text in pages.items():
        counts["pages"] += _write_if_changed(folder / name, text)
    counts["players"] = len(table)
    keep = written | set(pages)
    for name in _old_files(old):
        if name not in keep and _OWN_FILE.fullmatch(name):
            try:
                (folder / name).unlink()
                counts["removed"] += name.startswith("games/")
            except FileNotFoundError:
                pass
    manifest = {"pbem_site": SITE_VERSION, "games": entries, "files": sorted(keep)}
    _write_if_changed(folder / MANIFEST, json.dumps(manifest, ensure_ascii=True, sort_keys=True, indent=1) + "\n")
    return counts


def _old_files(old: dict[str, Any]) -> list[str]:
    files = old.get("files")
    return [f for f in files if isinstance(f, str)] if isinstance(files, list) else []

