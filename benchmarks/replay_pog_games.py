"""Converted Rally the Troops games of Paths of Glory (issue 24), checked files-plus-replay in one process.

Run from the repository root, after ``modules/paths-of-glory/tools/rtt/run.py`` has written the games::

    .venv/bin/python benchmarks/replay_pog_games.py /work/helpers/pog-games          # median of 3 runs
    .venv/bin/python benchmarks/replay_pog_games.py /work/helpers/pog-games --profile

Each run does for every game-turn file what ``pbem check`` does: ``load_turn`` (parse, schema validation,
resolving every unit and space) + ``load_start_state`` (the engine's start state, schema-checked) + ``replay``.
Paths of Glory's rules trace supply in that replay wherever the rules ask (activation, movement, attacks, SR,
entrenching, reinforcements, and every unit on the map in the Attrition phase), so supply tracing is included.
Prints actions per second, the median of the runs (target: 20,000), with actions per CPU-second (process time,
less skewed by other processes on a shared machine) and the load average.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn


def check_all(files: list[Path]) -> int:
    actions = 0
    for path in files:
        turn, module = load_turn(path)
        state = load_start_state(turn, module, None)
        actions += replay(module, state, turn).actions
    return actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path, nargs="?", default=Path("/work/helpers/pog-games"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    files = sorted(args.games.glob("seed*/t??.json"))
    if not files:
        print(f"no game-turn files under {args.games}: run modules/paths-of-glory/tools/rtt/run.py first", file=sys.stderr)
        return 2
    check_all(files[:1])  # the module built once, as in any session
    rates, cpu_rates, actions = [], [], 0
    for _ in range(args.runs):
        gc.collect()
        started, cpu = time.perf_counter(), time.process_time()
        actions = check_all(files)
        rates.append(actions / (time.perf_counter() - started))
        cpu_rates.append(actions / (time.process_time() - cpu))
    print(f"{len(files)} game-turn files, {actions} actions: files+replay {statistics.median(rates):,.0f} actions/s "
          f"(median of {args.runs}; runs {', '.join(f'{r:,.0f}' for r in rates)}); "
          f"{statistics.median(cpu_rates):,.0f} actions per CPU-second; load average {os.getloadavg()[0]:.1f}")
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        check_all(files)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(30)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
