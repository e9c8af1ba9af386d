"""Paths of Glory whole games, this checkout against an older commit: the speed-up as a ratio, in one run.

    .venv/bin/python benchmarks/replay_pog_pairs.py --old 1cd1590 [--pairs 5] [/work/helpers/pog-games]

The older commit is exported with ``git archive``. Each pair runs ``replay_pog_games.check_all`` (``load_turn`` +
``load_start_state`` + ``replay`` of every converted game-turn, after one file to build the module), each commit's
own, once in a fresh process of each commit, the older first, so the machine's load weighs on both alike. Prints
each pair's actions per CPU-second and their ratio, then the medians (a ratio above 1: this checkout is faster).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ONE_PASS = r"""
import gc, sys, time
from pathlib import Path
sys.path.insert(0, "benchmarks")
from replay_pog_games import check_all  # that commit's own loop
files = sorted(Path(sys.argv[1]).glob("seed*/t??.json"))
check_all(files[:1])
gc.collect()
started = time.process_time()
actions = check_all(files)
print(actions / (time.process_time() - started))
"""


def one_pass(code: Path, games: Path, cache: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(code), PBEM_CACHE_DIR=cache)
    done = subprocess.run([sys.executable, "-c", ONE_PASS, str(games)], capture_output=True, text=True, env=env,
                          cwd=code, check=False)
    if done.returncode:
        raise SystemExit(f"the pass under {code} failed: {done.stderr.strip().splitlines()[-1:]}")
    return float(done.stdout.split()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path, nargs="?", default=Path("/work/helpers/pog-games"))
    parser.add_argument("--old", required=True, help="the commit to compare with")
    parser.add_argument("--pairs", type=int, default=5)
    args = parser.parse_args(argv)
    if not any(args.games.glob("seed*/t??.json")):
        print(f"no game-turn files under {args.games}: run modules/paths-of-glory/tools/rtt/run.py first", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as old, tempfile.TemporaryDirectory() as cache:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.old], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
        olds, news, ratios = [], [], []
        for n in range(args.pairs):
            before, after = one_pass(Path(old), args.games, cache), one_pass(ROOT, args.games, cache)
            olds.append(before)
            news.append(after)
            ratios.append(after / before)
            print(f"pair {n + 1}: {args.old} {before:,.0f}  this checkout {after:,.0f} actions per CPU-second  "
                  f"ratio {after / before:.3f}", flush=True)
    print(f"median: {args.old} {statistics.median(olds):,.0f}, this checkout {statistics.median(news):,.0f} actions per "
          f"CPU-second; ratio {statistics.median(ratios):.2f} (pairs {min(ratios):.2f}-{max(ratios):.2f}); "
          f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
