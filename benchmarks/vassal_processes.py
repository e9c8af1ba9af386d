"""Whole-process timings of reading a VASSAL save: ``python benchmarks/vassal_processes.py [SAVE]
[--runs N] [--pywargame PYTHON]``.

Each command runs as a fresh process, as a user runs it: a bare interpreter, ``pbem --version`` (start-up
and the CLI's imports), the decode floor as a process (Python start-up, unzip, hex, XOR, split), ``pbem
vassal info`` and, given the Python of a virtualenv holding pywargame (it needs Python 3.12, e.g.
``/work/pywargame-venv/bin/python``), pywargame's ``vsavdump``.  The commands take turns, run after run,
so a load that comes and goes on a shared machine weighs on all alike; prints the medians and their ratios.

Every process loads its modules' compiled bytecode, as an installed pbem (and pywargame) does: the
processes get a bytecode cache of their own in a temporary folder (``PYTHONPYCACHEPREFIX``, and
``PYTHONDONTWRITEBYTECODE`` unset), filled by one untimed run of each command.  (Figures taken before
this was so, with ``PYTHONDONTWRITEBYTECODE=1`` set and no ``__pycache__`` in the work tree, included
compiling pbem's modules from source on every run.)
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "paths-of-glory" / "vassal" / "Classic10-8.vsav"

FLOOR = """
import io, sys, zipfile
raw = zipfile.ZipFile(sys.argv[1]).read("savedGame")
key = int(raw[5:7], 16)
plain = bytes.fromhex(raw[7:].decode("ascii")).translate(bytes(value ^ key for value in range(256)))
print(len(plain.decode("utf-8").split("\\x1b")))
"""


def _time(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall-clock and CPU (user + system) seconds of one run: on a busy machine the CPU time is the
    steadier figure."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("save", nargs="?", default=str(DEFAULT))
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--pywargame", help="the Python of a virtualenv where pywargame is installed")
    args = parser.parse_args(argv)
    path = Path(args.save)
    if not path.is_file():
        print(f"{path}: not found (the sample lives in ../shared/data)", file=sys.stderr)
        return 2
    commands = {
        "bare interpreter (-c pass)": [sys.executable, "-c", "pass"],
        "pbem --version": [sys.executable, "-m", "pbem", "--version"],
        "floor as a process": [sys.executable, "-c", FLOOR, str(path)],
        "pbem vassal info": [sys.executable, "-m", "pbem", "vassal", "info", str(path)],
        "pbem vassal info --format json": [sys.executable, "-m", "pbem", "vassal", "info", str(path), "--format", "json"],
    }
    if args.pywargame:
        dump = Path(args.pywargame).parent / "vsavdump.py"
        commands["pywargame vsavdump"] = [args.pywargame, str(dump), str(path)]
    with tempfile.TemporaryDirectory(prefix="pbem-bench-pyc-") as cache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        for command in commands.values():
            _time(command, env)  # fills the cache
        results: dict[str, tuple[list[float], list[float]]] = {label: ([], []) for label in commands}
        for _ in range(args.runs):
            for label, command in commands.items():
                wall, cpu = _time(command, env)
                results[label][0].append(wall)
                results[label][1].append(cpu)
    print(f"{path.name}: {path.stat().st_size / 1e6:.1f} MB, {args.runs} interleaved runs each, bytecode cached "
          f"(median; CPU = user + system)")
    floor_wall, floor_cpu = (statistics.median(series) for series in results["floor as a process"])
    for label, (wall, cpu) in results.items():
        print(f"{label:32} wall {statistics.median(wall):6.3f} s ({statistics.median(wall) / floor_wall:5.2f}x floor)"
              f"   CPU {statistics.median(cpu):6.3f} s ({statistics.median(cpu) / floor_cpu:5.2f}x floor)")
    if "pywargame vsavdump" in results:
        pbem_wall, pbem_cpu = (statistics.median(series) for series in results["pbem vassal info"])
        other_wall, other_cpu = (statistics.median(series) for series in results["pywargame vsavdump"])
        print(f"pbem vassal info vs pywargame's dump: {other_wall / pbem_wall:.1f}x faster by the clock, "
              f"{other_cpu / pbem_cpu:.1f}x by CPU time (target >= 25x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
