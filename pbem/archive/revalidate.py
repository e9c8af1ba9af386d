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
import os
import sys
import tempfile
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, Iterator

from pbem.archive.games import _compact, store_violations
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
        )
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "games": self.games, "actions": self.actions, "seconds": round(self.seconds, 3), "jobs": self.jobs,
            "changed": [{"game": c.game, "was_ok": c.was_ok, "now_ok": c.now_ok,
                         "added": [list(v) for v in c.added], "removed": [list(v) for v in c.removed]} for c in self.changed],
            "errors": [{"game": g, "message": m} for g, m in self.errors],
        }  # fmt: skip


# --- the work, in a worker process -----------------------------------------------------------------------
# (game, module id, start name, start, turns, dice records by name)
Job = tuple[int, str, str | None, bytes | None, list[tuple[str, bytes]], dict[str, bytes]]


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

        gid, module_id, start_name, start_data, turns, dice = job
        try:
            played = play_game(self.modules[module_id], turns, start_name, start_data, scratch=self.scratch, dice=dice)
        except PbemError as error:
            return gid, str(error)
        return gid, [
            ([(v.index, v.rule, v.severity, v.message, v.source.line if v.source else None, v.source.column if v.source else None)
              for v in turn.violations], _compact(turn.state), turn.actions)
            for turn in played.turns
        ]  # fmt: skip


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
def revalidate(
    archive: Archive,
    *,
    module: str | None = None,
    games: list[int] | None = None,
    jobs: int | None = None,
    store: bool = True,
    progress: bool = False,
) -> Report:
    """Replay every game (of ``module``, or the ``games`` listed, if given) and store and report what changed."""
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
    start = time.perf_counter()
    # One private folder for the run, in memory where possible: each game's turn files pass through a
    # folder of their own inside it, and whatever a worker leaves behind goes with it.
    with tempfile.TemporaryDirectory(prefix="pbem-revalidate-", dir=scratch_parent()) as scratch:
        with _checker(jobs, paths, scratch) as check, _progress(progress, len(ids)) as advance:
            for gid, module_id, outcome in _results(archive, ids, paths, check, jobs * 4):
                if isinstance(outcome, str):
                    report.errors.append((gid, outcome))
                else:
                    change = _compare_and_store(archive, gid, outcome, version[module_id], store)
                    report.actions += sum(turn[2] for turn in outcome)
                    if change is not None:
                        report.changed.append(change)
                report.games += 1
                advance()
    report.seconds = time.perf_counter() - start
    # Workers finish games in any order; the report lists them by game, as one process does.
    report.changed.sort(key=lambda change: change.game)
    report.errors.sort(key=lambda error: error[0])
    return report


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
    """(module id, job) for each game, or (module id, (game id, why it cannot be replayed))."""
    for gid in ids:
        row = archive.db.execute(
            "SELECT CAST(module AS TEXT), CAST(start_name AS TEXT), CAST(start_data AS BLOB) FROM games WHERE id = ?", (gid,)
        ).fetchone()
        if row is None:  # removed (by another process) since the list was read
            continue
        module_id, start_name, start_data = row
        if not paths.get(module_id):
            yield module_id, (gid, f"module {module_id} is not installed; give its folder with --module")
            continue
        turns = [(n, bytes(d)) for n, d in archive.db.execute(
            "SELECT CAST(name AS TEXT), CAST(data AS BLOB) FROM turns WHERE game_id = ? ORDER BY seq", (gid,))]  # fmt: skip
        dice = {n: bytes(d) for n, d in archive.db.execute(
            "SELECT CAST(name AS TEXT), CAST(data AS BLOB) FROM dice_records WHERE game_id = ? ORDER BY name", (gid,))}  # fmt: skip
        yield module_id, (gid, module_id, start_name, bytes(start_data) if start_data is not None else None, turns, dice)


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


def _compare_and_store(archive: Archive, gid: int, outcome: list, version: str, store: bool) -> Change | None:
    db = archive.db
    row = db.execute("SELECT ok FROM games WHERE id = ?", (gid,)).fetchone()
    if row is None:  # removed by another process while it was replayed
        return None
    was_ok = bool(row[0])
    before = [
        tuple(r) for r in db.execute(
            "SELECT seq, action, rule, severity, message FROM violations WHERE game_id = ? ORDER BY seq, n", (gid,)
        )
    ]  # fmt: skip
    after = [(seq, v[0], v[1], v[2], v[3]) for seq, (verdicts, _, _) in enumerate(outcome) for v in verdicts]
    now_ok = not any(v[3] != "warning" for v in after)
    change = None
    if before != after:
        added = [v for v in after if v not in before]
        removed = [v for v in before if v not in after]
        change = Change(gid, was_ok, now_ok, added, removed)  # type: ignore[arg-type]
    if store:
        now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        with archive.transaction():
            if db.execute("SELECT 1 FROM games WHERE id = ?", (gid,)).fetchone() is None:
                return None  # removed meanwhile: nothing of it to store
            if change is not None:
                db.execute("DELETE FROM violations WHERE game_id = ?", (gid,))
                for seq, (verdicts, _, _) in enumerate(outcome):
                    store_violations(db, gid, seq, [_Stored(*v) for v in verdicts])
            for seq, (_, state, actions) in enumerate(outcome):
                db.execute(
                    "UPDATE turns SET state = ?, actions = ? WHERE game_id = ? AND seq = ? AND (state != ? OR actions != ?)",
                    (state, actions, gid, seq, state, actions),
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


class _progress:
    """A rich progress bar on a terminal; nothing otherwise (``with _progress(on, total) as advance``)."""

    def __init__(self, on: bool, total: int):
        self.on, self.total = on, total

    def __enter__(self):
        if not self.on:
            return lambda: None
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        from rich.console import Console

        self.bar = Progress(TextColumn("re-checking games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                            console=Console(file=unescaped(sys.stderr)), transient=True)  # fmt: skip
        self.bar.start()
        task = self.bar.add_task("games", total=self.total)
        return lambda: self.bar.advance(task)

    def __exit__(self, *exc: object) -> None:
        if self.on:
            self.bar.stop()
