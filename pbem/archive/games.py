"""What the ``pbem archive`` verbs do: add, list, search, show, export, remove and verify games."""

from __future__ import annotations

import datetime
import io
import json
import os
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.archive import chain
from pbem.archive.gamefiles import MANIFEST, GameInput, plain_name
from pbem.archive.play import PlayedGame, TurnLoader, check_order, order_by_headers, play_game
from pbem.archive.safetext import check_text, escape_json, printable, without_surrogates
from pbem.archive.store import Archive
from pbem.model.errors import PbemError
from pbem.model.files import write_atomic
from pbem.model.module import Module, load_module, load_module_by_id


@dataclass
class GameRow:
    """One line of ``list`` / ``search``."""

    id: int
    module: str
    scenario: str | None
    title: str | None
    finished: str | None
    result: str | None
    players: dict[str, list[str]]
    turns: int
    actions: int
    violations: int
    ok: bool

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


# --- add -----------------------------------------------------------------------------------------------
def resolve_module(game: GameInput, module: str | Path | None) -> Module:
    """The module named by ``module``, else by the first turn's header (an id, or a folder beside the turn)."""
    if module is not None:
        return load_module(module)
    with TurnLoader() as loader:
        header = loader.header(game.turns[0].name, game.turns[0].data)
    try:
        return load_module_by_id(header["module"])
    except PbemError as error:
        raise PbemError.at(game.turns[0].name, error.message, pointer="/module") from None


def start_of(game: GameInput) -> tuple[str | None, bytes | None]:
    """The game's start state file, if it starts from one (the manifest's, else the first header's)."""
    if game.start_data is not None:
        return game.start_name, game.start_data
    with TurnLoader() as loader:
        header = loader.header(game.turns[0].name, game.turns[0].data)
    relative = header["start"].get("state")
    if relative is None:
        return None, None
    if not game.whole:  # turn files named one by one: the first one's start state, as 'pbem check' takes it
        return game.fetch(relative, game.turns[0].name)
    # A state file in a game folder is whatever someone wrote: the game starts from one only when game.json
    # records it as the start both players agreed on.
    raise PbemError.at(
        game.turns[0].name,
        f"the first turn starts from the state file {relative!r}, and the archive never takes a state file from a game folder "
        f"as its start: record it in game.json as \"start_state\" if both players agreed on it, or start the first turn from the scenario",
        pointer="/start/state",
    )


def play_input(game: GameInput, module: Module, *, players: bool = False) -> tuple[PlayedGame, str | None, bytes | None]:
    order_input(game, module)
    start_name, start_data = start_of(game)
    check_dice_records(game.dice, game.origin)
    played = play_game(module, [(t.name, t.data) for t in game.turns], start_name, start_data, players=players, check=True, listed=game.ordered,
                       dice=game.dice)
    return played, start_name, start_data


def dice_hashes(dice: dict[str, bytes]) -> tuple[tuple[str, str], ...]:
    """(name, SHA-256) of each dice record, as the chain's genesis binds them."""
    return tuple(sorted((name, chain.file_hash(data)) for name, data in dice.items()))


def dice_problems(name: str, data: bytes) -> list[str]:
    """What the protocol refuses in a dice record (docs/dice.md), every die recomputed; none for a sound one."""
    from pbem.formats.dicerecord import load_record_bytes

    try:
        _, problems = load_record_bytes(data, name, strict=False)
    except PbemError as error:
        return [error.message]
    return problems


def check_dice_records(dice: dict[str, bytes], origin: str) -> None:
    """Refuse a game whose dice record the protocol refuses: the archive keeps only records that verify."""
    for name, data in sorted(dice.items()):
        check_text(name, origin)
        problems = dice_problems(name, data)
        if problems:
            raise PbemError.at(f"{origin}/{name}" if not origin.endswith(name) else origin, f"dice record: {problems[0]}")


def order_input(game: GameInput, module: Module) -> None:
    """Put ``game``'s turn files in play order (unless the player gave it) and refuse files that do not follow."""
    if len(game.turns) > 1:
        with TurnLoader() as loader:
            headers = [loader.outline(t.name, t.data) for t in game.turns]
        if not game.ordered:
            order = order_by_headers(module, headers, [t.name for t in game.turns])
            game.turns, headers = [game.turns[k] for k in order], [headers[k] for k in order]
        check_order(module, [t.name for t in game.turns], headers, game.ordered)


@dataclass
class NewGame:
    """A game replayed and checked for storing: nothing in it can make the store fail but the disk."""

    module: Module
    played: PlayedGame
    turns: list[tuple[str, bytes]]
    start_name: str | None
    start_data: bytes | None
    scenario: str | None
    start_scenario: str | None
    metadata: dict[str, Any]
    players: dict[str, list[str]]
    links: list[str]
    dice: dict[str, bytes] = field(default_factory=dict)  # the game's dice records, by name

    @property
    def record(self) -> chain.Record:
        return chain.Record(chain.CURRENT, self.start_scenario, self.start_data, self.module.id, self.module.version,
                            self.scenario, self.players, self.metadata.get("result"), dice_hashes(self.dice))  # fmt: skip

    @property
    def head(self) -> str:
        return self.links[-1]


def add_game(archive: Archive, game: GameInput, module: Module, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """Replay ``game`` and store it in one transaction (all turns or none). Returns a summary."""
    return store_game(archive, prepare_game(game, module, overrides))


def prepare_game(
    game: GameInput,
    module: Module,
    overrides: dict[str, Any] | None = None,
    played: tuple[PlayedGame, str | None, bytes | None] | None = None,
) -> NewGame:
    """Replay ``game`` (unless ``played``, its :func:`play_input`, is given) and check all that ``add`` will
    store, before any archive is opened: a refusal here leaves every archive as it was."""
    played_game, start_name, start_data = played or play_input(game, module, players=True)
    metadata = {**game.metadata, **{k: v for k, v in (overrides or {}).items() if v}}
    players = _players(played_game, metadata.get("players", {}))
    first = played_game.turns[0].turn.header
    turns = [(t.name, t.data) for t in game.turns]
    new = NewGame(
        module=module, played=played_game, turns=turns, start_name=start_name, start_data=start_data,
        scenario=first.scenario or played_game.start.scenario, start_scenario=first.start_scenario if start_data is None else None,
        metadata=metadata, players=players, links=[], dice=dict(game.dice),
    )  # fmt: skip
    for key in ("title", "result", "started", "finished"):
        if isinstance(metadata.get(key), str):
            check_text(metadata[key], game.origin, pointer=f"/{key}")
    for side, names in players.items():
        for name in [side, *names]:
            check_text(name, game.origin, pointer=f"/players/{side}")
    for name, _ in turns:
        check_text(name, game.origin)
    new.links = chain.chain(new.record, turns)
    _check_recorded_head(game, new)
    return new


def _check_recorded_head(game: GameInput, new: NewGame) -> None:
    """A game.json written by ``export`` names the head; the files must still give it.

    The head is recomputed from the manifest's own record (the module version it was exported with, its
    players and result), so taking a game back under a newer module is not mistaken for an edit.
    """
    recorded = game.metadata.get("head")
    if not recorded:
        return
    stored_as = chain.Record(
        int(game.metadata.get("chain", chain.CURRENT)), new.start_scenario, new.start_data, new.module.id,
        game.metadata.get("module_version", new.module.version), new.scenario, game.metadata.get("players", new.players),
        game.metadata.get("result"), dice_hashes(game.dice),
    )  # fmt: skip
    candidates = {chain.chain(stored_as, new.turns)[-1]}
    if "chain" not in game.metadata:  # exported before game.json named the scheme: a scheme-1 head
        candidates.add(chain.chain(chain.Record(1, new.start_scenario, new.start_data), new.turns)[-1])
    if recorded not in candidates:
        raise PbemError.at(
            f"{game.origin}/game.json", "the game does not give the head recorded at export: a turn, the start state, "
            "the players or the result was edited, dropped or reordered since (remove \"head\" to add the game as it is now)", pointer="/head",
        )  # fmt: skip


def store_game(archive: Archive, new: NewGame) -> dict[str, Any]:
    """Store a prepared game in one transaction. Returns a summary."""
    metadata, played, module = new.metadata, new.played, new.module
    now = datetime.datetime.now(datetime.timezone.utc)
    finished = metadata.get("finished") or now.date().isoformat()
    with archive.transaction() as db:
        game_id = _next_game_number(archive)
        db.execute(
            "INSERT INTO games (id, module, module_version, scenario, title, started, finished, result, added, start_scenario,"
            " start_name, start_data, head, turn_count, actions, violations, ok, checked, checked_version, chain)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, module.id, module.version, new.scenario, metadata.get("title"), metadata.get("started"), finished,
             metadata.get("result"), now.isoformat(timespec="seconds"), new.start_scenario, new.start_name, new.start_data,
             new.head, len(new.turns), played.actions, played.violations, int(played.ok), now.isoformat(timespec="seconds"),
             module.version, chain.CURRENT),
        )  # fmt: skip
        db.executemany(
            "INSERT INTO players (game_id, side, name, name_key) VALUES (?, ?, ?, ?)",
            [(game_id, side, name, name.casefold()) for side, names in new.players.items() for name in names],
        )
        for seq, ((name, data), link, turn) in enumerate(zip(new.turns, new.links, played.turns)):
            insert_turn(db, game_id, seq, name, data, link, turn)
        db.executemany("INSERT INTO dice_records (game_id, name, data, file_hash) VALUES (?, ?, ?, ?)",
                       [(game_id, name, data, chain.file_hash(data)) for name, data in sorted(new.dice.items())])
    return {"id": game_id, "module": module.id, "scenario": new.scenario, "turns": len(new.turns), "actions": played.actions,
            "violations": played.violations, "ok": played.ok, "head": new.head, "players": new.players}  # fmt: skip


# game_id() reads at most 18 digits: a number beyond it could be stored but never named again.
LAST_GAME_NUMBER = 10**18 - 1


def _next_game_number(archive: Archive) -> int:
    """One more than any game number ever given in this archive (inside the adding transaction).

    A removed game's number is never given again, so a number written down (or a kept head) always
    means the same game or none. The backend reads the counter under the writers' lock, so processes
    adding at once never get the same number.
    """
    db = archive.db
    _, number = archive.backend.next_game_number(db)
    if number > LAST_GAME_NUMBER:
        raise PbemError.at(archive.path, "no game number left in this archive (the last one given is too high); start a new archive")
    db.execute("INSERT INTO game_numbers (id, last) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET last = excluded.last", (number,))
    return number


def insert_turn(db, game_id: int, seq: int, name: str, data: bytes, link: str, turn) -> None:
    header = turn.turn.header
    db.execute(
        "INSERT INTO turns (game_id, seq, name, turn, side, data, file_hash, link, actions, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, seq, name, header.turn, header.side, data, chain.file_hash(data), link, turn.actions, _compact(turn.state)),
    )
    store_violations(db, game_id, seq, turn.violations)


def store_violations(db, game_id: int, seq: int, violations) -> None:
    db.executemany(
        "INSERT INTO violations (game_id, seq, n, action, rule, severity, message, line, column_) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (game_id, seq, n, v.index, v.rule, v.severity, _storable(v.message), v.source.line if v.source else None,
             v.source.column if v.source else None)
            for n, v in enumerate(violations)
        ],
    )


def _compact(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text if text.isascii() else escape_json(text, everything=False)  # ASCII holds no lone surrogate


def _storable(text: str) -> str:
    """Derived text (a violation message may quote a turn file) with any lone surrogate, and any NUL
    (which PostgreSQL's text cannot hold), as U+FFFD: the same message in every archive."""
    return without_surrogates(text).replace("\x00", "\ufffd")


def _players(played: PlayedGame, given: dict[str, list[str]]) -> dict[str, list[str]]:
    """Players by side: the manifest's or the command line's, plus each turn header's ``player``."""
    sides = played.module.sides
    for side in given:
        if side not in sides:
            raise PbemError(f"player side {side!r} is not one of {', '.join(sides)}")
    players = {side: list(names) for side, names in given.items()}
    for turn in played.turns:
        if turn.player:
            names = players.setdefault(turn.turn.header.side, [])
            if turn.player.casefold() not in {n.casefold() for n in names}:
                names.append(turn.player)
    return players


# --- list, search, show --------------------------------------------------------------------------------
# A received archive may hold any SQLite type in any column (a title stored as a blob, a turn file as
# text): every query that reads what is shown or hashed casts each column to the type pbem writes.
_ROW = ("SELECT id, CAST(module AS TEXT), CAST(scenario AS TEXT), CAST(title AS TEXT), CAST(finished AS TEXT), CAST(result AS TEXT),"
        " CAST(turn_count AS INTEGER), CAST(actions AS INTEGER), CAST(violations AS INTEGER), CAST(ok AS INTEGER) FROM games")


def list_games(archive: Archive) -> list[GameRow]:
    return _rows(archive, archive.db.execute(_ROW + " ORDER BY id").fetchall())


def search(
    archive: Archive,
    *,
    player: str | None = None,
    module: str | None = None,
    scenario: str | None = None,
    since: str | None = None,
    until: str | None = None,
    result: str | None = None,
    rule: str | None = None,
    severity: str | None = None,
    ok: bool | None = None,
) -> list[GameRow]:
    """Games matching every filter given (player names and results ignore case; dates are inclusive)."""
    where: list[str] = []
    params: list[Any] = []
    if player is not None:
        where.append("id IN (SELECT game_id FROM players WHERE name_key = ?)")
        params.append(player.strip().casefold())
    if module is not None:
        where.append("module = ?")
        params.append(module)
    if scenario is not None:
        where.append("scenario = ?")
        params.append(scenario)
    if since is not None:
        where.append("finished >= ?")
        params.append(since)
    if until is not None:
        where.append("finished <= ?")
        params.append(until)
    if result is not None:
        where.append("result = ? COLLATE NOCASE")
        params.append(result)
    if rule is not None:
        condition = "rule = ?" + (" AND severity = ?" if severity else "")
        where.append(f"id IN (SELECT game_id FROM violations WHERE {condition})")
        params += [rule, severity] if severity else [rule]
    elif severity is not None:
        where.append("id IN (SELECT game_id FROM violations WHERE severity = ?)")
        params.append(severity)
    if ok is not None:
        where.append("ok = ?")
        params.append(int(ok))
    sql = _ROW + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY id"
    return _rows(archive, archive.db.execute(sql, params).fetchall())


def _rows(archive: Archive, rows: list[tuple]) -> list[GameRow]:
    if not rows:
        return []
    players: dict[int, dict[str, list[str]]] = {}
    ids = [row[0] for row in rows]
    # Batched so a search over the whole archive stays one indexed query per 500 games.
    for k in range(0, len(ids), 500):
        batch = ids[k : k + 500]
        query = (f"SELECT game_id, CAST(side AS TEXT), CAST(name AS TEXT) FROM players WHERE game_id IN ({','.join('?' * len(batch))})"
                 " ORDER BY rowid")
        for game_id, side, name in archive.db.execute(query, batch):
            players.setdefault(game_id, {}).setdefault(side, []).append(name)
    return [
        GameRow(id=r[0], module=r[1], scenario=r[2], title=r[3], finished=r[4], result=r[5], players=players.get(r[0], {}),
                turns=r[6], actions=r[7], violations=r[8], ok=bool(r[9]))
        for r in rows
    ]  # fmt: skip


def game_id(archive: Archive, reference: str | int) -> int:
    """A game's id from ``3`` or ``#3``; an unknown game is a PbemError."""
    text = str(reference).lstrip("#")
    known = text.isascii() and text.isdigit() and len(text) <= 18
    if not known or archive.db.execute("SELECT 1 FROM games WHERE id = ?", (int(text),)).fetchone() is None:
        raise PbemError.at(archive.path, f"no game {printable(str(reference))!r} in the archive (see pbem archive list)")
    return int(text)


def show(archive: Archive, reference: str | int) -> dict[str, Any]:
    """Everything the archive knows about a game, its turns and their violations."""
    gid = game_id(archive, reference)
    texts = ["module", "module_version", "scenario", "title", "started", "finished", "result", "added", "start_scenario",
             "start_name", "head"]  # fmt: skip
    numbers = ["turn_count", "actions", "violations", "ok", "chain"]
    columns = ["id", *texts, *numbers, "checked", "checked_version"]
    selected = ["id", *(f"CAST({c} AS TEXT)" for c in texts), *(f"CAST({c} AS INTEGER)" for c in numbers),
                "CAST(checked AS TEXT)", "CAST(checked_version AS TEXT)"]  # fmt: skip
    row = archive.db.execute(f"SELECT {', '.join(selected)} FROM games WHERE id = ?", (gid,)).fetchone()
    info: dict[str, Any] = dict(zip(columns, row))
    info["ok"] = bool(info["ok"])
    info["players"] = _rows(archive, [(gid, *([None] * 9))])[0].players
    info["turns"] = []
    for seq, name, turn, side, file_hash, link, actions in archive.db.execute(
        "SELECT CAST(seq AS INTEGER), CAST(name AS TEXT), CAST(turn AS INTEGER), CAST(side AS TEXT), CAST(file_hash AS TEXT), CAST(link AS TEXT),"
        " CAST(actions AS INTEGER) FROM turns WHERE game_id = ? ORDER BY seq", (gid,)
    ):
        violations = [
            {"action": a, "rule": r, "severity": s, "message": m, "line": line, "column": c}
            for a, r, s, m, line, c in archive.db.execute(
                "SELECT CAST(action AS INTEGER), CAST(rule AS TEXT), CAST(severity AS TEXT), CAST(message AS TEXT),"
                " CAST(line AS INTEGER), CAST(column_ AS INTEGER) FROM violations WHERE game_id = ? AND seq = ? ORDER BY n", (gid, seq)
            )
        ]
        info["turns"].append({"seq": seq, "name": name, "turn": turn, "side": side, "hash": file_hash, "link": link,
                              "actions": actions, "violations": violations})  # fmt: skip
    try:
        module = load_module_by_id(info["module"])
    except PbemError:
        return info  # a module this pbem does not have: the stored facts only
    from pbem.archive.gamedice import dice_record
    from pbem.engine.dicestats import dice_stats

    stored = load_game(archive, gid)
    try:
        for turn_info, (place, writer) in zip(info["turns"], _places_of(stored, module)):
            turn_info["place"], turn_info["writer"] = place, writer
        info["dice"] = dice_stats(dice_record(module, stored.turns, stored.dice)).as_json()
    except PbemError:
        pass  # turn files this module no longer reads: 'revalidate' says so; show what is stored
    return info


def _places_of(stored: "StoredGame", module: Module) -> list[tuple[str | None, str | None]]:
    """Each stored turn file's slice of the sequence of play and its writer (nothing if the module has no sequence)."""
    from pbem.archive.play import _slices, first_side, span

    if module.sequence_data is None:
        return []
    with TurnLoader() as loader:
        try:
            outlines = [loader.outline(name, data) for name, data in stored.turns]
        except PbemError:
            return []
    slices = _slices(module, first_side(module, outlines), outlines)
    if slices is None:
        return []
    return [(span(slices[0], piece, writer=False), piece.writer) for piece in slices[1]]


# --- stored games back out -----------------------------------------------------------------------------
@dataclass
class StoredGame:
    id: int
    module: str
    module_version: str
    start_scenario: str | None
    start_name: str | None
    start_data: bytes | None
    turns: list[tuple[str, bytes]]
    metadata: dict[str, Any]
    head: str
    scheme: int
    dice: dict[str, bytes] = field(default_factory=dict)  # the game's dice records, by name

    @property
    def record(self) -> chain.Record:
        return chain.Record(self.scheme, self.start_scenario, self.start_data, self.module, self.module_version,
                            self.metadata["scenario"], self.metadata["players"], self.metadata["result"], dice_hashes(self.dice))  # fmt: skip


def load_game(archive: Archive, reference: str | int) -> StoredGame:
    """A stored game, its file names checked: a received archive may hold names such as ``../../x``."""
    gid = game_id(archive, reference)
    module, version, scenario, title, started, finished, result, start_scenario, start_name, start_data, head, scheme = archive.db.execute(
        "SELECT CAST(module AS TEXT), CAST(module_version AS TEXT), CAST(scenario AS TEXT), CAST(title AS TEXT), CAST(started AS TEXT),"
        " CAST(finished AS TEXT), CAST(result AS TEXT), CAST(start_scenario AS TEXT), CAST(start_name AS TEXT),"
        " CAST(start_data AS BLOB), CAST(head AS TEXT), CAST(chain AS INTEGER) FROM games WHERE id = ?",
        (gid,),
    ).fetchone()
    turns = [(name, bytes(data)) for name, data in archive.db.execute(
        "SELECT CAST(name AS TEXT), CAST(data AS BLOB) FROM turns WHERE game_id = ? ORDER BY seq", (gid,))]  # fmt: skip
    seen: set[str] = set()
    for seq, (name, _) in enumerate(turns):
        plain_name(name, f"{archive.path}: game {gid}, turn {seq + 1}")
        if name.casefold() in seen:
            raise PbemError.at(archive.path, f"game {gid}, turn {seq + 1}: a second turn file named {printable(name)!r}")
        seen.add(name.casefold())
    if start_name is not None:
        plain_name(start_name, f"{archive.path}: game {gid}, start state")
    metadata = {"title": title, "started": started, "finished": finished, "result": result,
                "players": _rows(archive, [(gid, *([None] * 9))])[0].players, "scenario": scenario}  # fmt: skip
    dice = stored_dice(archive, gid)
    for name in dice:
        plain_name(name, f"{archive.path}: game {gid}, dice record")
        if name.casefold() in seen or not name.lower().endswith(".dice"):
            raise PbemError.at(archive.path, f"game {gid}: a dice record named {printable(name)!r}")
    return StoredGame(gid, module, version, start_scenario, start_name, bytes(start_data) if start_data is not None else None,
                      turns, metadata, head, scheme, dice)  # fmt: skip


def stored_dice(archive: Archive, gid: int) -> dict[str, bytes]:
    """The dice records stored with game ``gid``, by name."""
    return {name: bytes(data) for name, data in archive.db.execute(
        "SELECT CAST(name AS TEXT), CAST(data AS BLOB) FROM dice_records WHERE game_id = ? ORDER BY name", (gid,))}  # fmt: skip


def manifest(game: StoredGame) -> dict[str, Any]:
    """The ``game.json`` an export writes: enough for ``add`` to take the game back unchanged."""
    out: dict[str, Any] = {"pbem_archive": game.id, "module": game.module, "module_version": game.module_version,
                           "chain": game.scheme, "head": game.head}  # fmt: skip
    for key in ("title", "started", "finished", "result", "scenario"):
        if game.metadata.get(key):
            out[key] = game.metadata[key]
    if game.metadata.get("players"):
        out["players"] = game.metadata["players"]
    out["turns"] = [name for name, _ in game.turns]
    if game.start_data is not None:
        out["start_state"] = game.start_name or "start.json"
    return out


def export(archive: Archive, reference: str | int, out: Path) -> list[str]:
    """Write a game's turn files byte for byte, its start state and a ``game.json`` to a folder or a ``.zip``.

    Every name written is a plain file name inside ``out`` (checked by :func:`load_game`); nothing is
    written if one is not.
    """
    game = load_game(archive, reference)
    files: dict[str, bytes] = {name: data for name, data in game.turns}
    for name, data in game.dice.items():
        if name in files:
            raise PbemError.at(archive.path, f"game {game.id}: a dice record and a turn file are both named {printable(name)!r}")
        files[name] = data
    if game.start_data is not None:
        name = game.start_name or "start.json"
        if name in files and files[name] != game.start_data:
            raise PbemError.at(archive.path, f"game {game.id}: the start state and a turn file are both named {printable(name)!r}")
        files[name] = game.start_data
    if MANIFEST in files:
        raise PbemError.at(archive.path, f"game {game.id}: a turn file is named {MANIFEST}")
    files[MANIFEST] = (json.dumps(manifest(game), indent=1, ensure_ascii=False) + "\n").encode("utf-8")
    if out.suffix.lower() == ".zip":
        buffer = io.BytesIO()
        folder = out.stem
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive_zip:
            for name, data in files.items():
                archive_zip.writestr(f"{folder}/{name}", data)
        write_atomic(out, buffer.getvalue())
    else:
        if os.path.lexists(out) and not out.is_dir():
            raise PbemError.at(out, "exists and is not a folder")
        if out.is_dir() and any(out.iterdir()):
            clashes = sorted(n for n in files if os.path.lexists(out / n))
            if clashes:
                raise PbemError.at(out, f"would overwrite {', '.join(clashes[:3])}: export into an empty or new folder")
        out.mkdir(parents=True, exist_ok=True)
        for name, data in files.items():
            write_atomic(out / name, data)
    return list(files)


def remove(archive: Archive, reference: str | int) -> int:
    gid = game_id(archive, reference)
    with archive.transaction() as db:
        db.execute("DELETE FROM games WHERE id = ?", (gid,))
    return gid


# --- verify --------------------------------------------------------------------------------------------
def verify(archive: Archive, references: list[str] | None = None) -> tuple[int, list[tuple[int, str]]]:
    """Check the database's integrity and every game's hash chain: (games checked, [(game, first break)])."""
    problems: list[tuple[int, str]] = []
    check = archive.backend.integrity_problems(archive.db)
    if check:
        problems.append((0, "database: " + "; ".join(check)))
    ids = [game_id(archive, r) for r in references] if references else [r[0] for r in archive.db.execute("SELECT id FROM games ORDER BY id")]
    for gid in ids:
        broken = _chain_break(archive, gid)[0]
        if broken:
            problems.append((gid, broken))
        for name, data in stored_dice(archive, gid).items():
            problems += [(gid, f"dice record {printable(name)}: {problem}") for problem in dice_problems(name, data)]
    return len(ids), problems


def _chain_break(archive: Archive, gid: int) -> tuple[str | None, chain.Record, list[chain.StoredLink]]:
    """The game's first broken link (or None), the record its genesis binds and its stored turns."""
    head, count = archive.db.execute("SELECT CAST(head AS TEXT), CAST(turn_count AS INTEGER) FROM games WHERE id = ?", (gid,)).fetchone()
    record = stored_record(archive, gid)
    stored = [
        chain.StoredLink(seq, name, bytes(data), file_hash, link)
        for seq, name, data, file_hash, link in archive.db.execute(
            "SELECT CAST(seq AS INTEGER), CAST(name AS TEXT), CAST(data AS BLOB), CAST(file_hash AS TEXT), CAST(link AS TEXT) FROM turns"
            " WHERE game_id = ? ORDER BY seq", (gid,)
        )
    ]
    if record.scheme not in chain.SCHEMES:
        return f"chain scheme {record.scheme} is unknown to this pbem", record, stored
    return chain.first_break(record, stored, head, count), record, stored


def stored_record(archive: Archive, gid: int) -> chain.Record:
    module, version, scenario, result, start_scenario, start_data, scheme = archive.db.execute(
        "SELECT CAST(module AS TEXT), CAST(module_version AS TEXT), CAST(scenario AS TEXT), CAST(result AS TEXT),"
        " CAST(start_scenario AS TEXT), CAST(start_data AS BLOB), CAST(chain AS INTEGER) FROM games WHERE id = ?", (gid,)
    ).fetchone()
    players = _rows(archive, [(gid, *([None] * 9))])[0].players
    # The records' hashes from their bytes as stored: an edited record changes the genesis, so every link.
    return chain.Record(scheme, start_scenario, bytes(start_data) if start_data is not None else None, module, version,
                        scenario, players, result, dice_hashes(stored_dice(archive, gid)))  # fmt: skip


def verify_head(archive: Archive, reference: str | int, kept: str) -> tuple[bool, list[str]]:
    """Does the game the archive holds end at ``kept``, the head a player kept? (verdict, lines to show)

    The chain is recomputed from what is stored (record and turn files), not read from the stored links,
    which whoever edits the file can rewrite along with the turns.
    """
    gid = game_id(archive, reference)
    kept = kept.strip().lower()
    broken, record, stored = _chain_break(archive, gid)
    if record.scheme not in chain.SCHEMES:
        return False, [f"game #{gid}: {broken}"]
    links = chain.chain(record, [(s.name, s.data) for s in stored])
    computed = links[-1] if links else chain.genesis(record)
    lines = []
    if broken:
        lines.append(f"game #{gid}: {broken}")
    covers = "its start and turn files only (stored before pbem covered module, players and result)" if record.scheme == 1 else \
        "its module and version, scenario, start, players, result and every turn file in order"  # fmt: skip
    if computed == kept:
        lines.append(f"game #{gid}: the stored game ends at the head you kept; it covers {covers}")
        return broken is None, lines
    if kept in links:
        k = links.index(kept) + 1
        lines.append(f"game #{gid}: the head you kept is link {k} of {len(links)}: turns {k + 1}-{len(links)} were added after it")
    else:
        lines.append(f"game #{gid}: the stored game does not end at the head you kept: its record or turn files differ from the "
                     f"game you kept the head of (the stored game gives {computed})")  # fmt: skip
    return False, lines
