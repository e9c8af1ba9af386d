"""Whole-process time of ``pbem check`` on a bundled sample turn, as a ratio to a bare ``python -c pass``.

Run from the repository root::

    .venv/bin/python benchmarks/startup.py              # 15 runs of each, interleaved
    .venv/bin/python benchmarks/startup.py --runs 31 --importtime   # plus the slowest imports of one run

Bytecode: this machine's environment sets ``PYTHONDONTWRITEBYTECODE=1``, so every run would compile pbem's
sources again (~50 ms), which no installed copy does (pip compiles a wheel's ``.pyc`` files at install).
The runs here are made without it, after a warm-up run that writes the ``.pyc`` files; ``--no-bytecode``
measures the other way.

Modules: pbem keeps each module it builds in its cache (``PBEM_CACHE_DIR``), so every check after the first reads
it back instead of parsing and checking its files. The runs here use a cache folder of their own, filled by the
warm-up run, which is what a player sees from the second check on; ``PBEM_NO_CACHE=1`` (a first check, or the
cache turned off) is timed in the same loop and printed beside it.

All commands run in the same loop, one after the other, so a passing load on the shared machine touches
both alike; the figures are medians of wall-clock time (``time.perf_counter`` around ``subprocess.run``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "samples" / "china-war-1980" / "legal-04-full-game-turn.json"
TARGET = 6.0  # pbem check within 6x a bare interpreter start


def pbem_command() -> list[str]:
    script = Path(sys.executable).parent / "pbem"
    return [str(script)] if script.is_file() else [sys.executable, "-m", "pbem"]


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str], **env: str) -> float:
    began = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO, env=ENV | env)
    took = time.perf_counter() - began
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.decode()[-300:]}")
    return took


def slowest_imports(command: list[str], count: int = 15) -> list[str]:
    """The imports with the largest cumulative time in one run under ``python -X importtime``."""
    env = ENV | {"PYTHONPROFILEIMPORTTIME": "1"}
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO, env=env, text=True)
    rows = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "cumulative" not in line:
            own, cumulative, name = (part.strip() for part in line[len("import time:"):].split("|"))
            rows.append((int(cumulative), int(own), name))
    rows.sort(reverse=True)
    total = sum(own for _, own, _ in rows)
    return [f"all imports: {total / 1000:.1f} ms (sum of self times)"] + [f"{c / 1000:8.1f} ms cumulative {o / 1000:6.1f} ms self  {n}" for c, o, n in rows[:count]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each command (default %(default)s)")
    parser.add_argument("--sample", type=Path, default=SAMPLE)
    parser.add_argument("--no-bytecode", action="store_true", help="keep PYTHONDONTWRITEBYTECODE: compile the sources every run")
    parser.add_argument("--importtime", action="store_true", help="also list the slowest imports of one pbem check")
    args = parser.parse_args(argv)
    if args.no_bytecode:
        ENV.update(os.environ)

    bare = [sys.executable, "-c", "pass"]
    check = pbem_command() + ["check", str(args.sample)]
    with tempfile.TemporaryDirectory(prefix="pbem-cache-") as cache:
        ENV["PBEM_CACHE_DIR"] = cache
        timed(bare), timed(check), timed(check, PBEM_NO_CACHE="1")  # warm the disk cache, the .pyc files and pbem's cache
        times: dict[str, list[float]] = {"bare": [], "check": [], "uncached": []}
        for _ in range(args.runs):
            times["bare"].append(timed(bare))
            times["check"].append(timed(check))
            times["uncached"].append(timed(check, PBEM_NO_CACHE="1"))
        imports = slowest_imports(check) if args.importtime else []
    bare_s, check_s = statistics.median(times["bare"]), statistics.median(times["check"])
    uncached_s = statistics.median(times["uncached"])
    ratio = check_s / bare_s
    print(f"sample: {args.sample.relative_to(REPO) if args.sample.is_relative_to(REPO) else args.sample}")
    print(f"python -c pass      median of {args.runs}: {bare_s * 1000:7.1f} ms")
    print(f"pbem check SAMPLE   median of {args.runs}: {check_s * 1000:7.1f} ms  ({' '.join(Path(check[0]).name if i == 0 else a for i, a in enumerate(check[:2]))} ...)")
    print(f"  the same, PBEM_NO_CACHE=1  median of {args.runs}: {uncached_s * 1000:7.1f} ms  ({uncached_s / bare_s:.1f}x: the module built from its files)")
    print(f"bytecode: {'compiled every run' if 'PYTHONDONTWRITEBYTECODE' in ENV else '.pyc files written once and reused'}")
    print(f"ratio: {ratio:.1f}x  (target <= {TARGET:g}x: {'met' if ratio <= TARGET else 'MISSED'})")
    if imports:
        print()
        print("\n".join(imports))
    return 0


if __name__ == "__main__":
    sys.exit(main())
