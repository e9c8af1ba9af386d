"""Benchmark the archive: add generated games, time searches, time re-validation with 1 and 2 processes.

    .venv/bin/python benchmarks/archive.py [--games 1000] [--turns 10] [--actions 50] [--db PATH]
                                           [--revalidate 200] [--rounds 3] [--profile] [--whole]

``--games 10000 --whole`` is the club-scale run (issue 31): the whole archive re-validated once with 1 and
once with 2 processes, each with its time, actions/s and actions per CPU-second (the checkpoint it keeps
included), after the interleaved rounds on ``--revalidate`` games.

Games are generated on the China War ``border-war`` scenario with every unit of the order of battle set
up on the map (a generated state), so each player-turn has 50 legal one-hex moves to choose from; a
few games get a deliberate illegal move so that "games with violations of rule X" finds something.
The game generator is ``tests/gamegen.py``, which the archive tests use to build their sample game.

Re-validation runs with 1 and 2 processes in turn, each round beside a pure-CPU probe, and prints what each
run got from the machine (CPU seconds, cores used, load, how busy all cores were), so that a speed-up that
fails to come shows whether the work or the machine held it back (see benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

# The game generator lives with the tests that use it; this benchmark borrows it (tests never import benchmarks).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from gamegen import MODULE, PLAYERS, generate_game  # noqa: E402


def _timed(function, repeat: int = 21) -> float:
    """Median milliseconds of ``function()``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


# --- re-validation: 1 and 2 processes, interleaved, with what the machine gave each run ------------------
def _cpu_seconds() -> tuple[float, float]:
    """CPU seconds (user + system) of this process, and of its children that have ended (the pool's workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _machine_ticks() -> tuple[int, int, int] | None:
    """(busy, of which niced, all) clock ticks of every core since boot, from /proc/stat; None elsewhere."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    user, nice, system, idle, iowait = fields[:5]
    return sum(fields[:8]) - idle - iowait, nice, sum(fields[:8])


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


@dataclass
class Run:
    jobs: int
    actions: int
    wall: float  # the report's seconds (pool start included)
    parent_cpu: float
    worker_cpu: float
    load: float  # 1-minute load average just before
    machine: tuple[float, float] | None  # share of all cores busy during the run: (all, niced)

    @property
    def rate(self) -> float:
        return self.actions / self.wall

    @property
    def cpu(self) -> float:
        return self.parent_cpu + self.worker_cpu

    def line(self) -> str:
        machine = f"{self.machine[0]:4.0%} ({self.machine[1]:3.0%} niced)" if self.machine else "   n/a"
        return (f"{self.jobs:>4} {self.wall:7.2f} {self.rate:10,.0f} {self.parent_cpu:7.2f} {self.worker_cpu:7.2f} "
                f"{self.cpu / self.wall:7.2f} {self.actions / self.cpu:11,.0f} {self.load:5.2f}  {machine}")


def _revalidate_run(archive, games: list[int], jobs: int) -> Run:
    from pbem.archive.revalidate import revalidate

    load = os.getloadavg()[0]
    cpu_before, ticks_before = _cpu_seconds(), _machine_ticks()
    report = revalidate(archive, games=games, jobs=jobs, store=True)
    cpu_after, ticks_after = _cpu_seconds(), _machine_ticks()
    machine = None
    if ticks_before and ticks_after and ticks_after[2] > ticks_before[2]:
        spent = ticks_after[2] - ticks_before[2]
        machine = ((ticks_after[0] - ticks_before[0]) / spent, (ticks_after[1] - ticks_before[1]) / spent)
    assert not report.changed and not report.errors, "the benchmark's games must re-check unchanged"
    return Run(jobs, report.actions, report.seconds, cpu_after[0] - cpu_before[0], cpu_after[1] - cpu_before[1], load, machine)


def _spin(loops: int) -> int:
    total = 0
    for n in range(loops):
        total += n
    return total


def _probe(processes: int, loops: int) -> float:
    """Wall seconds for ``processes`` forked processes to share ``loops`` turns of pure CPU work (no data, no
    waiting): what the machine gives a perfectly parallel job at this moment."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    start = time.perf_counter()
    children = [context.Process(target=_spin, args=(loops // processes,)) for _ in range(processes)]
    for child in children:
        child.start()
    for child in children:
        child.join()
    return time.perf_counter() - start


def _autogroup() -> bool:
    try:
        return Path("/proc/sys/kernel/sched_autogroup_enabled").read_text().strip() == "1"
    except OSError:
        return False


def revalidate_rounds(archive, games: list[int], rounds: int) -> None:
    """Re-check ``games`` with 1 and 2 processes in turn, ``rounds`` times, each round beside a pure-CPU probe
    run with 1 and 2 processes, and say whether the work or the machine limited the speed-up."""
    cores = _cores()
    start = time.process_time()
    _spin(2_000_000)
    loops = int(2_000_000 * 0.3 / max(time.process_time() - start, 1e-3))  # about 0.3 CPU-seconds in all
    print(f"revalidate {len(games)} games, {rounds} rounds of --jobs 1 then --jobs 2; {cores} core(s) available to this process; "
          f"load average {'/'.join(f'{v:.2f}' for v in os.getloadavg())}")
    print("jobs  wall s  actions/s  parent  workers  cores  actions/cpu-s  load  machine busy")
    print("                         cpu s   cpu s    used")
    runs: dict[int, list[Run]] = {1: [], 2: []}
    ratios, probes = [], []
    for _ in range(rounds):
        alone, shared = _probe(1, loops), _probe(2, loops)
        probes.append(alone / shared)
        print(f"probe: pure CPU work in 1 process {alone:.2f} s, split over 2 processes {shared:.2f} s = {alone / shared:.2f}x")
        for jobs in (1, 2):
            runs[jobs].append(_revalidate_run(archive, games, jobs))
            print(runs[jobs][-1].line())
        ratios.append(runs[2][-1].rate / runs[1][-1].rate)
    median = statistics.median
    one, two = runs[1], runs[2]
    rate1, rate2 = median(r.rate for r in one), median(r.rate for r in two)
    per_cpu1, per_cpu2 = median(r.actions / r.cpu for r in one), median(r.actions / r.cpu for r in two)
    speedup, machine = median(ratios), median(probes)
    used2 = median(r.cpu / r.wall for r in two)
    parent2 = median(r.parent_cpu / r.wall for r in two)
    verdict = "ok" if rate1 >= 50_000 else "below target"
    print(f"one process: median {rate1:,.0f} actions/s wall, {per_cpu1:,.0f} actions per CPU-second [{verdict}; target >= 50,000/s]")
    print(f"--jobs 2: median {rate2:,.0f} actions/s; speed-up {speedup:.2f}x (median of {rounds} interleaved ratios), "
          f"parallel efficiency {speedup / 2:.0%}; the probe's speed-up {machine:.2f}x in the same rounds")
    print(f"--jobs 2 used {used2:.2f} cores on average (the parent {parent2:.2f}); "
          f"CPU per action {per_cpu1 / per_cpu2:.2f}x that of one process")
    # The work limits the speed-up when revalidate scales worse than the probe; the machine, when the
    # probe itself gets little from a second process.
    limits = []
    if machine < 1.5:
        limits.append(f"the machine: a perfectly parallel job got only {machine:.2f}x from a second process")
        if _autogroup():
            limits.append("(Linux autogroup is on: the processes of one session share one session's share of the CPU, "
                          "so while other sessions keep the cores busy, more processes get no more CPU)")
    if speedup < 0.8 * machine:
        why = "the parent (reading, comparing, storing) is busy most of the time" if parent2 > 0.8 else (
            "each action costs more CPU with workers" if per_cpu1 / per_cpu2 > 1.15 else "start-up and hand-over costs")
        limits.append(f"the work: {speedup:.2f}x against the probe's {machine:.2f}x ({why})")
    print("limit: " + (" ".join(limits) if limits else f"neither: revalidate scales as the probe does ({speedup:.2f}x against {machine:.2f}x)"))


def whole_archive(archive) -> None:
    """Every game of the archive re-validated with 1, then 2 processes: the club-scale figures."""
    games = [row[0] for row in archive.db.execute("SELECT id FROM games ORDER BY id")]
    print(f"whole archive: {len(games)} games, re-validated once with --jobs 1, then with --jobs 2")
    print("jobs  wall s  actions/s  parent  workers  cores  actions/cpu-s  load  machine busy")
    runs = []
    for jobs in (1, 2):
        runs.append(_revalidate_run(archive, games, jobs))
        print(runs[-1].line())
    one, two = runs
    print(f"whole archive, {one.actions:,} actions: --jobs 1 {one.wall:.1f} s = {one.rate:,.0f} actions/s "
          f"({one.actions / one.cpu:,.0f} per CPU-second); --jobs 2 {two.wall:.1f} s = {two.rate:,.0f} actions/s "
          f"({two.actions / two.cpu:,.0f} per CPU-second), {two.rate / one.rate:.2f}x")


# Where one process's time goes, by the functions that do each stage (cumulative cProfile time).
STAGES = (
    ("read turn files (load_turn)", (("turnfile.py", "load_turn"),)),
    ("read start states", (("play.py", "start_state"),)),
    ("replay (rules + apply)", (("replay.py", "replay"),)),
    ("each turn's state as JSON text", (("state.py", "compact_json"), ("revalidate.py", "_stored_text"))),
)


def profile_revalidate(archive, games: list[int]) -> None:
    """Re-check ``games`` in this process under cProfile: the time by stage, then the hottest functions."""
    import cProfile
    import io
    import pstats

    from pbem.archive.revalidate import revalidate

    profiler = cProfile.Profile()
    profiler.enable()
    report = revalidate(archive, games=games, jobs=1, store=True)
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = sum(row[2] for row in stats.stats.values())  # type: ignore[attr-defined]
    print(f"profile of --jobs 1 ({report.actions} actions; cProfile slows it down, the shares are what counts):")
    accounted = 0.0
    for label, functions in STAGES:
        seconds = sum(row[3] for (path, _, name), row in stats.stats.items() if any(path.endswith(f) and name == n for f, n in functions))  # type: ignore[attr-defined]
        accounted += seconds
        print(f"  {label:32s} {seconds:6.2f} s {seconds / total:5.0%}  {seconds / report.actions * 1e6:6.1f} us/action")
    rest = total - accounted
    print(f"  {'the rest (archive, compare, store)':32s} {rest:6.2f} s {rest / total:5.0%}  {rest / report.actions * 1e6:6.1f} us/action")
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(15)
    print("\n".join(line for line in out.getvalue().splitlines() if line.strip())[-2500:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--actions", type=int, default=50)
    parser.add_argument("--templates", type=int, default=20, help="distinct generated games (the rest are copies with other players)")
    parser.add_argument("--revalidate", type=int, default=200, help="games to re-validate (with 1, then 2 processes)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds of re-validation with 1 and 2 processes")
    parser.add_argument("--profile", action="store_true", help="also profile re-validation in one process, by stage")
    parser.add_argument("--whole", action="store_true", help="also re-validate the whole archive once with 1 and once with 2 processes")
    parser.add_argument("--db", type=Path, help="archive file (default: a temporary one)")
    args = parser.parse_args(argv)

    from pbem.archive import games as archive_games
    from pbem.archive.gamefiles import read_game
    from pbem.archive.store import open_archive
    from pbem.model.module import load_module

    work = Path(tempfile.mkdtemp(prefix="pbem-bench-"))
    db_path = args.db or work / "archive.sqlite"
    module = load_module(MODULE)
    start = time.perf_counter()
    templates = []
    for t in range(min(args.templates, args.games)):
        folder = work / f"game-{t:03d}"
        generate_game(folder, turns=args.turns, actions=args.actions, seed=t, illegal_turn=(t % args.turns) if t % 4 == 0 else None, players=None)
        templates.append(read_game([folder]))
    print(f"generated {len(templates)} distinct games of {args.turns} turns x {args.actions} actions in {time.perf_counter() - start:.1f} s")

    archive = open_archive(db_path, create=True)
    # Each distinct game goes through the whole of ``add`` (replay + store), timed; its copies (other
    # players, dates, results) reuse that replay and time only the store, so the run stays short.
    played = {}
    add_seconds = 0.0
    start = time.perf_counter()
    for g in range(args.games):
        t = g % len(templates)
        game = templates[t]
        a, b = PLAYERS[g % len(PLAYERS)], PLAYERS[(g * 7 + 3) % len(PLAYERS)]
        overrides = {"players": {"soviet": [a], "chinese": [b if b != a else "Kim"]}, "result": ["soviet", "chinese", "draw"][g % 3],
                     "finished": f"20{10 + g % 15:02d}-{1 + g % 12:02d}-{1 + g % 28:02d}"}  # fmt: skip
        if t not in played:
            begin = time.perf_counter()
            played[t] = archive_games.play_input(game, module)
            archive_games.store_game(archive, archive_games.prepare_game(game, module, overrides, played=played[t]))
            add_seconds += time.perf_counter() - begin
        else:
            archive_games.store_game(archive, archive_games.prepare_game(game, module, overrides, played=played[t]))
    seconds = time.perf_counter() - start
    total_actions = archive.db.execute("SELECT sum(actions) FROM games").fetchone()[0]
    per_game = add_seconds / len(templates)
    print(f"stored {args.games} games ({total_actions} actions) in {seconds:.1f} s; a whole add (replay + store) "
          f"takes {per_game * 1000:.0f} ms a game = {args.turns * args.actions / per_game:,.0f} actions/s")
    by_player = _timed(lambda: archive_games.search(archive, player="alice"))
    by_rule = _timed(lambda: archive_games.search(archive, rule="6.22"))
    found_player = len(archive_games.search(archive, player="alice"))
    found_rule = len(archive_games.search(archive, rule="6.22"))
    verdict = lambda ms: "ok" if ms < 50 else "SLOW"  # noqa: E731
    print(f"search by player: median {by_player:.2f} ms ({found_player} games) [{verdict(by_player)}; target < 50 ms]")
    print(f"search by rule:   median {by_rule:.2f} ms ({found_rule} games) [{verdict(by_rule)}; target < 50 ms]")

    subset = list(range(1, min(args.revalidate, args.games) + 1))
    revalidate_rounds(archive, subset, args.rounds)
    if args.whole:
        whole_archive(archive)
    if args.profile:
        profile_revalidate(archive, subset[:50])
    archive.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
