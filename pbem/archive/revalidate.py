"""Re-check every stored game against the current module, spread over worker processes.

Workers replay games (the CPU work); the parent alone writes, one transaction per game, so a kill leaves
every game either re-checked or as it was. Games stream through a bounded window of pending work, so
memory stays flat however large the archive is; cost is linear in the number of actions.

A worker loads each module once, for the whole run (on Linux it is forked with the parent's modules
already loaded), gets a game as the stored bytes, and sends back verdicts and each turn's state as text.
Turn files pass through a private folder in memory where the system has one (see ``play.scratch_parent``).
"""

from __future__ import annotations

import datetime
import gc
import hashlib
import json
import os
import sys
import tempfile
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from pbem.archive.games import store_violations
from pbem.archive.safetext import escape_json, printable
from pbem.archive.store import Archive
from pbem.model.errors import PbemError
from pbem.model.printable import unescaped

Verdict = tuple[int, int | None, str, str, str]  # (turn seq, action index, rule, severity, message)


@dataclass
class Change:
    game: int
    was_ok: bool
    now_ok: bool
    added: list[Verdict]
    removed: list[Verdict]

    def line(self) -> str:
        def verdict(ok: bool) -> str:
            return "legal" if ok else "violations"

        parts = [f"game #{self.game}: {verdict(self.was_ok)} -> {verdict(self.now_ok)}"]
        parts += [f"  + turn {v[0] + 1}, action {v[1]}: rule {v[2]} [{v[3]}] {v[4]}" for v in self.added]
        parts += [f"  - turn {v[0] + 1}, action {v[1]}: rule {v[2]} [{v[3]}] {v[4]}" for v in self.removed]
        return "\n".join(parts)


@dataclass
class Report:
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    jobs: int = 1
    changed: list[Change] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    resumed: int = 0  # games re-checked by an earlier, stopped run that this one went on from

    @property
    def rate(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    def lines(self) -> list[str]:
        out = [c.line() for c in self.changed] + [f"game #{g}: {message}" for g, message in self.errors]
        out.append(
            f"{self.games} game(s), {self.actions} actions re-checked in {self.seconds:.1f} s "
            f"({self.rate:,.0f} actions/s, {self.jobs} process(es)); "
            + (f"{len(self.changed)} verdict(s) changed" if self.changed else "no verdict changed")
            + (f"; {len(self.errors)} game(s) could not be replayed" if self.errors else "")
            + (f" (resumed: {self.resumed} of the games were re-checked by the run that was stopped)" if self.resumed else "")
        )
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "games": self.games, "actions": self.actions, "seconds": round(self.seconds, 3), "jobs": self.jobs, "resumed": self.resumed,
            "changed": [{"game": c.game, "was_ok": c.was_ok, "now_ok": c.now_ok,
                         "added": [list(v) for v in c.added], "removed": [list(v) for v in c.removed]} for c in self.changed],
            "errors": [{"game": g, "message": m} for g, m in self.errors],
        }  # fmt: skip


# --- the work, in a worker process -----------------------------------------------------------------------
# (game, module id, start name, start, turns, dice records by name, the stored text of the final state)
Job = tuple[int, str, str | None, bytes | None, list[tuple[str, bytes]], dict[str, bytes], str | None]


class Worker:
    """What a process keeps from game to game: each module loaded once (every game of a run is judged by
    the same module), and the folder its games' private folders go in."""

    def __init__(self, paths: dict[str, str], scratch: str | None):
        from pbem.model.module import load_module

        self.modules = {module_id: load_module(path) for module_id, path in paths.items() if path}
        self.scratch = scratch

    def check(self, job: Job) -> tuple[int, Any]:
        """Replay one stored game: (id, [(verdicts, state JSON, actions) per turn]) or (id, error message)."""
        from pbem.archive.play import play_game

        from pbem.model.state import State, written_state_text

        gid, module_id, start_name, start_data, turns, dice, final = job
        module = self.modules[module_id]
        try:
            played = play_game(module, turns, start_name, start_data, scratch=self.scratch, dice=dice, read_back=False, keep=State.compact_json)
            states = [_stored_text(turn.state) for turn in played.turns]
            # A final state that is stored already, byte for byte, is not written again: proving that it reads
            # back (a tenth of the time of a game) is needed only for a new one.
            if states[-1] != final:
                written_state_text(module, json.loads(played.turns[-1].state))
        except PbemError as error:
            return gid, str(error)
        return gid, [
            ([(v.index, v.rule, v.severity, v.message, v.source.line if v.source else None, v.source.column if v.source else None)
              for v in turn.violations], state, turn.actions)
            for turn, state in zip(played.turns, states)
        ]  # fmt: skip


def _stored_text(compact: str) -> str:
    """A state's compact JSON text as the archive stores it (what :func:`pbem.archive.games._compact` gives)."""
    return compact if compact.isascii() else escape_json(compact, everything=False)


_worker: Worker | None = None  # a pool process's own


def _start_worker(paths: dict[str, str], scratch: str | None) -> None:
    global _worker
    _worker = Worker(paths, scratch)


def _check_in_worker(job: Job) -> tuple[int, Any]:
    assert _worker is not None
    return _worker.check(job)


def _ready() -> int:
    return os.getpid()


# --- the parent -----------------------------------------------------------------------------------------
BATCH_GAMES = 64  # games stored per transaction (and per read of the archive)
BATCH_SECONDS = 1.0  # ... or fewer, so that a stop loses at most this much work


def revalidate(
    archive: Archive,
    *,
    module: str | None = None,
    games: list[int] | None = None,
    jobs: int | None = None,
    store: bool = True,
    progress: bool | str = False,
    on_stored: Callable[[int], None] | None = None,
) -> Report:
    """Replay every game (of ``module``, or the ``games`` listed, if given) and store and report what changed.

    A storing run keeps a checkpoint in the archive (tables ``revalidation`` and ``revalidated``), written in
    the same transaction as each batch of new verdicts: a run stopped in any way (Ctrl-C, kill -9, a crash)
    and started again with the same archive, modules and choice of games goes on where it stopped, and its
    report covers the whole run. Anything else (a game added, removed or changed, a module's files changed,
    other games chosen) starts afresh. ``on_stored(games stored so far)`` is called after each batch.
    ``progress``: ``"bar"`` (or ``True``) a progress bar on stderr, ``"plain"`` a line of text there now and then.
    A dry run (``store=False``) writes nothing, checkpoint included.
    """
    from pbem.archive.play import scratch_parent
    from pbem.model.module import load_module, load_module_by_id

    jobs = jobs or os.cpu_count() or 1
    report = Report(jobs=jobs)
    paths: dict[str, str] = {}
    if module is not None:
        chosen = load_module(module)
        paths[chosen.id] = str(chosen.path)
        ids = [r[0] for r in archive.db.execute("SELECT id FROM games WHERE module = ? ORDER BY id", (chosen.id,))]
    else:
        ids = [r[0] for r in archive.db.execute("SELECT id FROM games ORDER BY id")]
        for (module_id,) in archive.db.execute("SELECT DISTINCT CAST(module AS TEXT) FROM games"):
            try:
                # By id only: a module is code, and a received archive must not choose a folder to run.
                paths[module_id] = str(load_module_by_id(module_id).path)
            except PbemError as error:
                paths[module_id] = ""
                report.errors.append((0, f"module {module_id}: {error}"))
    if games is not None:
        wanted = set(games)
        ids = [gid for gid in ids if gid in wanted]
    version = {mid: load_module(path).version for mid, path in paths.items() if path}
    checkpoint = Checkpoint(archive, run_key(archive, ids, paths)) if store else None
    done = checkpoint.resume(report) if checkpoint is not None else set()
    todo = [gid for gid in ids if gid not in done]
    start = time.perf_counter()
    # One private folder for the run, in memory where possible: each game's turn files pass through a
    # folder of their own inside it, and whatever a worker leaves behind goes with it.
    with tempfile.TemporaryDirectory(prefix="pbem-revalidate-", dir=scratch_parent()) as scratch:
        with _checker(jobs, paths, scratch) as check, _progress(progress, len(ids), len(done)) as advance:
            batch = _Batch(archive, version, store, checkpoint, report, on_stored)
            try:
                for gid, module_id, outcome in _results(archive, todo, paths, check, jobs * 4):
                    batch.add(gid, module_id, outcome)
                    advance()
                    if batch.full():
                        batch.flush(time.perf_counter() - start)
            except BaseException:
                # Ctrl-C: what is checked already is kept (a kill -9 loses at most the batch under way).
                batch.flush(time.perf_counter() - start)
                raise
            batch.flush(time.perf_counter() - start, last=True)
    report.seconds += time.perf_counter() - start
    # Workers finish games in any order; the report lists them by game, as one process does.
    report.changed.sort(key=lambda change: change.game)
    report.errors.sort(key=lambda error: error[0])
    return report


def module_fingerprint(folder: str) -> str:
    """A digest of every file of a module's folder (its rules code, data and tables), by path and bytes."""
    digest = hashlib.blake2b(digest_size=16)
    root = Path(folder)
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode("utf-8", "surrogateescape") + b"\0")
        digest.update(hashlib.blake2b(path.read_bytes(), digest_size=16).digest())
    return digest.hexdigest()


def run_key(archive: Archive, ids: list[int], paths: dict[str, str]) -> str:
    """What a re-validation's results depend on: the games chosen, every game's chain head (which binds its
    turn files, start and dice records), and the files of each module that judges them; signed with the user's
    own key, so that a checkpoint in an archive someone sent cannot make this user's run skip a game. Without
    a user key (no cache folder) every key is new: nothing is resumed."""
    from pbem.model.cache import user_secret

    secret = user_secret() or os.urandom(32)
    digest = hashlib.blake2b(digest_size=16, key=secret)
    digest.update(repr(ids).encode())
    for gid, head in archive.db.execute("SELECT id, CAST(head AS TEXT) FROM games ORDER BY id"):
        digest.update(f"{gid}:{head};".encode("utf-8", "surrogateescape"))
    for module_id, folder in sorted(paths.items()):
        digest.update(f"{module_id}={module_fingerprint(folder) if folder else '-'};".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


class Checkpoint:
    """A storing run's progress, kept in the archive beside the verdicts it stores."""

    def __init__(self, archive: Archive, key: str):
        self.archive, self.key = archive, key
        self.held = True  # until another run (another key) takes the archive's one checkpoint over

    def still_held(self) -> bool:
        """Inside the batch's transaction: is the archive's checkpoint still this run's? A run started since
        with other games, modules or archive contents has replaced it, and this run's games must not count as
        done in that run's checkpoint; this run then keeps none (its verdicts are stored all the same)."""
        if self.held:
            row = self.archive.db.execute("SELECT CAST(key AS TEXT) FROM revalidation WHERE id = 1").fetchone()
            self.held = row is not None and row[0] == self.key
        return self.held

    def resume(self, report: Report) -> set[int]:
        """The games already re-checked by a stopped run with this key (their results put in ``report``), or
        none, after clearing any other run's checkpoint."""
        db = self.archive.db
        with self.archive.transaction():
            row = db.execute("SELECT key, seconds FROM revalidation WHERE id = 1").fetchone()
            if row is None or row[0] != self.key:
                db.execute("DELETE FROM revalidated")
                db.execute("DELETE FROM revalidation")
                db.execute("INSERT INTO revalidation (id, key, seconds) VALUES (1, ?, 0)", (self.key,))
                return set()
            try:
                seconds, done, changed, errors, actions = float(row[1]), set(), [], [], 0
                for gid, count, outcome in db.execute("SELECT game_id, actions, outcome FROM revalidated ORDER BY game_id"):
                    done.add(int(gid))
                    actions += int(count)
                    if outcome is not None:
                        found = json.loads(outcome)
                        if "error" in found:
                            errors.append((int(gid), str(found["error"])))
                        else:
                            changed.append(Change(int(gid), bool(found["was_ok"]), bool(found["now_ok"]),
                                                  [tuple(v) for v in found["added"]], [tuple(v) for v in found["removed"]]))  # type: ignore[misc]  # fmt: skip
            except (ValueError, TypeError, KeyError):  # not what this code writes: start afresh
                db.execute("DELETE FROM revalidated")
                db.execute("UPDATE revalidation SET seconds = 0")
                return set()
            report.seconds, report.actions, report.games = seconds, report.actions + actions, report.games + len(done)
            report.changed += changed
            report.errors += errors
            report.resumed = len(done)
            return done

    def record(self, gid: int, actions: int, change: "Change | None", error: str | None) -> None:
        """Inside the batch's transaction: ``gid`` is done."""
        outcome = None
        if error is not None:
            outcome = json.dumps({"error": error})
        elif change is not None:
            outcome = json.dumps({"was_ok": change.was_ok, "now_ok": change.now_ok, "added": change.added, "removed": change.removed})
        self.archive.db.execute(
            "INSERT INTO revalidated (game_id, actions, outcome) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET actions = excluded.actions, outcome = excluded.outcome", (gid, actions, outcome)
        )  # fmt: skip

    def finish(self, seconds: float, last: bool) -> None:
        db = self.archive.db
        if last:
            db.execute("DELETE FROM revalidated")
            db.execute("DELETE FROM revalidation")
        else:
            db.execute("UPDATE revalidation SET seconds = seconds + ? WHERE id = 1", (seconds,))


class _Batch:
    """Finished games waiting to be compared and stored, all in one transaction."""

    def __init__(self, archive: Archive, version: dict[str, str], store: bool, checkpoint: Checkpoint | None,
                 report: Report, on_stored: Callable[[int], None] | None):  # fmt: skip
        self.archive, self.version, self.store, self.checkpoint = archive, version, store, checkpoint
        self.report, self.on_stored = report, on_stored
        self.games: list[tuple[int, str, Any]] = []
        self.since = time.perf_counter()
        self.flushed = 0.0  # seconds of the run already added to the checkpoint

    def add(self, gid: int, module_id: str, outcome: Any) -> None:
        self.games.append((gid, module_id, outcome))

    def full(self) -> bool:
        return len(self.games) >= BATCH_GAMES or time.perf_counter() - self.since >= BATCH_SECONDS

    def flush(self, seconds: float, last: bool = False) -> None:
        games, self.games, self.since = self.games, [], time.perf_counter()
        if not games and not (last and self.checkpoint is not None):
            return
        report, db = self.report, self.archive.db
        replayed = [g for g in games if not isinstance(g[2], str)]
        with self.archive.transaction() if self.store else _nothing():
            before = _stored_verdicts(self.archive, [g[0] for g in replayed])
            keeping = self.checkpoint if self.checkpoint is not None and self.checkpoint.still_held() else None
            for gid, module_id, outcome in games:
                if not isinstance(outcome, str) and gid not in before:
                    continue  # removed (by another process) while it was replayed: nothing of it to store
                change = error = None
                actions = 0
                if isinstance(outcome, str):
                    error = outcome
                    report.errors.append((gid, outcome))
                else:
                    actions = sum(turn[2] for turn in outcome)
                    change = _compare_and_store(db, gid, outcome, self.version[module_id], self.store, before[gid])
                    report.actions += actions
                    if change is not None:
                        report.changed.append(change)
                report.games += 1
                if keeping is not None:
                    keeping.record(gid, actions, change, error)
            if keeping is not None:
                keeping.finish(seconds - self.flushed, last)
                self.flushed = seconds
        if self.on_stored is not None and games:
            self.on_stored(report.games)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def _stored_verdicts(archive: Archive, gids: list[int]) -> dict[int, tuple[bool, list[Verdict]]]:
    """Each game's stored verdict and violations, read in one go."""
    db = archive.db
    found: dict[int, tuple[bool, list[Verdict]]] = {}
    for chunk in range(0, len(gids), 500):
        part = gids[chunk : chunk + 500]
        marks = ",".join("?" * len(part))
        for gid, ok in db.execute(f"SELECT id, ok FROM games WHERE id IN ({marks})", part):
            found[gid] = (bool(ok), [])
        for gid, *verdict in db.execute(  # typed as pbem stores them: a received archive's file may hold anything
            f"SELECT game_id, CAST(seq AS INTEGER), CAST(action AS INTEGER), CAST(rule AS TEXT), CAST(severity AS TEXT),"
            f" CAST(message AS TEXT) FROM violations WHERE game_id IN ({marks}) ORDER BY game_id, seq, n", part
        ):  # fmt: skip
            _belongs(archive, gid, found, "violation")
            found[gid][1].append(tuple(verdict))  # type: ignore[arg-type]
    return found


class _checker:
    """``with _checker(jobs, paths, scratch) as check``: ``check(job)`` is a function that returns the outcome
    (one job: in this process) or a Future of it (a pool of worker processes).

    The pool's processes start here, before any progress bar's thread does: a process forked while another
    thread holds a lock would inherit the lock held. Forked workers inherit the modules this process loaded.
    """

    def __init__(self, jobs: int, paths: dict[str, str], scratch: str):
        self.jobs, self.paths, self.scratch = jobs, paths, scratch

    def __enter__(self):
        if self.jobs == 1:
            return Worker(self.paths, self.scratch).check
        import multiprocessing

        context = multiprocessing.get_context("fork" if sys.platform == "linux" else None)
        self.pool = ProcessPoolExecutor(self.jobs, context, initializer=_start_worker, initargs=(self.paths, self.scratch))
        # What is frozen before the fork, the workers' garbage collector leaves alone; it would otherwise go
        # through every object the parent shares with them, and so copy every page they share.
        frozen_already = gc.get_freeze_count() > 0  # someone else's freeze is theirs to undo
        gc.freeze()
        try:
            self.pool.submit(_ready).result()  # starts every process (a forking pool starts them all at once)
        finally:
            if not frozen_already:
                gc.unfreeze()
        return lambda job: self.pool.submit(_check_in_worker, job)

    def __exit__(self, *exc: object) -> None:
        if self.jobs != 1:
            self.pool.shutdown(cancel_futures=True)


def _jobs(archive: Archive, ids: list[int], paths: dict[str, str]) -> Iterator[tuple[str, Job | tuple[int, str]]]:
    """(module id, job) for each game, or (module id, (game id, why it cannot be replayed)); the archive is
    read a batch of games at a time."""
    db = archive.db
    for chunk in range(0, len(ids), BATCH_GAMES):
        part = ids[chunk : chunk + BATCH_GAMES]
        marks = ",".join("?" * len(part))
        heads = {r[0]: r[1:] for r in db.execute(
            f"SELECT id, CAST(module AS TEXT), CAST(start_name AS TEXT), CAST(start_data AS BLOB) FROM games WHERE id IN ({marks})", part)}  # fmt: skip
        turns: dict[int, list[tuple[str, bytes]]] = {gid: [] for gid in part}
        for gid, name, data in db.execute(
            f"SELECT game_id, CAST(name AS TEXT), CAST(data AS BLOB) FROM turns WHERE game_id IN ({marks}) ORDER BY game_id, seq", part):  # fmt: skip
            _belongs(archive, gid, turns, "turn")
            turns[gid].append((name, bytes(data)))
        final = dict(db.execute(
            f"SELECT t.game_id, CAST(t.state AS TEXT) FROM turns t JOIN games g ON g.id = t.game_id "
            f"WHERE t.game_id IN ({marks}) AND t.seq = g.turn_count - 1", part).fetchall())  # fmt: skip
        dice: dict[int, dict[str, bytes]] = {gid: {} for gid in part}
        for gid, name, data in db.execute(
            f"SELECT game_id, CAST(name AS TEXT), CAST(data AS BLOB) FROM dice_records WHERE game_id IN ({marks}) ORDER BY game_id, name", part):  # fmt: skip
            _belongs(archive, gid, dice, "dice record")
            dice[gid][name] = bytes(data)
        for gid in part:
            if gid not in heads:
                continue  # removed since the list was read
            module_id, start_name, start_data = heads[gid]
            if not paths.get(module_id):
                yield module_id, (gid, f"module {module_id} is not installed; give its folder with --module")
                continue
            yield module_id, (gid, module_id, start_name, bytes(start_data) if start_data is not None else None, turns[gid], dice[gid], final.get(gid))


def _belongs(archive: Archive, gid: object, batch: dict, what: str) -> None:
    """A row the query found for one of the batch's games names one of them; a damaged file (an index that does not
    agree with its table) can give another value, and that is an input error, not pbem's."""
    if gid not in batch:
        raise PbemError.at(archive.path, f"the archive is damaged: a {what} row found for a game names game {printable(repr(gid))[:40]} "
                                         "(its index and its table disagree: the file was changed outside pbem)")


def _results(archive: Archive, ids: list[int], paths: dict[str, str], check, window: int) -> Iterator[tuple[int, str, Any]]:
    """(game id, module id, outcome) as games finish, with at most ``window`` games in the workers at once."""
    pending: dict[Future, str] = {}
    for module_id, job in _jobs(archive, ids, paths):
        if len(job) == 2:
            yield job[0], module_id, job[1]
            continue
        outcome = check(job)
        if not isinstance(outcome, Future):
            yield outcome[0], module_id, outcome[1]
            continue
        pending[outcome] = module_id
        if len(pending) >= window:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                gid, outcome = future.result()
                yield gid, pending.pop(future), outcome
    for future in list(pending):
        gid, outcome = future.result()
        yield gid, pending.pop(future), outcome


def _compare_and_store(db, gid: int, outcome: list, version: str, store: bool, stored: tuple[bool, list[Verdict]]) -> Change | None:
    was_ok, before = stored
    after = [(seq, v[0], v[1], v[2], v[3]) for seq, (verdicts, _, _) in enumerate(outcome) for v in verdicts]
    now_ok = not any(v[3] != "warning" for v in after)
    change = None
    if before != after:
        added = [v for v in after if v not in before]
        removed = [v for v in before if v not in after]
        change = Change(gid, was_ok, now_ok, added, removed)  # type: ignore[arg-type]
    if store:
        now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        if change is not None:
            db.execute("DELETE FROM violations WHERE game_id = ?", (gid,))
            for seq, (verdicts, _, _) in enumerate(outcome):
                store_violations(db, gid, seq, [_Stored(*v) for v in verdicts])
        db.executemany(
            "UPDATE turns SET state = ?, actions = ? WHERE game_id = ? AND seq = ? AND (state != ? OR actions != ?)",
            [(state, actions, gid, seq, state, actions) for seq, (_, state, actions) in enumerate(outcome)],
        )
        db.execute(
            "UPDATE games SET ok = ?, violations = ?, actions = ?, checked = ?, checked_version = ? WHERE id = ?",
            (int(now_ok), len(after), sum(t[2] for t in outcome), now, version, gid),
        )
    return change


@dataclass
class _Stored:
    """A violation as a worker sends it back, shaped for :func:`store_violations`."""

    index: int | None
    rule: str
    severity: str
    message: str
    line: int | None
    column: int | None

    @property
    def source(self):
        return self


PLAIN_EVERY = 30.0  # seconds between two plain progress lines


class _progress:
    """``with _progress(how, total, done) as advance``: ``how`` is ``True`` or ``"bar"`` for a rich progress bar
    (a terminal), ``"plain"`` for a line of plain text every :data:`PLAIN_EVERY` seconds (a log file), else
    nothing. All on stderr."""

    def __init__(self, how: bool | str, total: int, done: int = 0):
        self.how = "bar" if how is True else how or None
        self.total, self.done = total, done

    def __enter__(self):
        if self.how == "plain":
            self.shown = self.started = time.perf_counter()
            self.at_start = self.done
            return self._plain
        if self.how != "bar":
            return lambda: None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        from rich.console import Console

        self.bar = Progress(TextColumn("re-checking games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                            console=Console(file=unescaped(sys.stderr)), transient=True)  # fmt: skip
        self.bar.start()
        task = self.bar.add_task("games", total=self.total, completed=self.done)
        return lambda: self.bar.advance(task)

    def _plain(self) -> None:
        self.done += 1
        now = time.perf_counter()
        if now - self.shown >= PLAIN_EVERY and self.done < self.total:
            self.shown = now
            rate = (self.done - self.at_start) / (now - self.started)
            left = (self.total - self.done) / rate if rate else 0.0
            print(f"re-checked {self.done:,} of {self.total:,} games, about {left:,.0f} s to go", file=sys.stderr, flush=True)

    def __exit__(self, *exc: object) -> None:
        if self.how == "bar":
            self.bar.stop()
