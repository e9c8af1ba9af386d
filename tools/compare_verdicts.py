"""Compare ``pbem check`` with an older commit on every sample, audit and fixture turn: verdicts must not move.

    .venv/bin/python tools/compare_verdicts.py --old 3d004b9          # all ~1,000 files, text and JSON
    .venv/bin/python tools/compare_verdicts.py --old HEAD~3 --limit 50

The old commit is exported with ``git archive`` into a temporary folder and put first on ``PYTHONPATH``;
each file is checked in a fresh process by both, with the module cache off, and exit code, standard
output and standard error must be byte-identical. A speed change must pass this; a rules change shows here
exactly which verdicts it moved.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = (".json", ".pbem", ".txt", ".vlog")


def turn_files() -> list[Path]:
    found = [*ROOT.glob("samples/**/*"), *ROOT.glob("tests/**/*")]
    return sorted(p for p in found if p.is_file() and p.suffix in SUFFIXES and "expected" not in p.name)


def check(code: Path, path: Path, form: str) -> tuple[int, str, str]:
    env = dict(os.environ, PYTHONPATH=str(code), PBEM_NO_CACHE="1")
    done = subprocess.run([sys.executable, "-m", "pbem", "check", str(path), "--format", form],
                          capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    return done.returncode, done.stdout, done.stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the commit to compare with")
    parser.add_argument("--limit", type=int, default=0, help="only the first N files (0: all)")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    files = turn_files()[: args.limit or None]
    with tempfile.TemporaryDirectory() as old:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.old], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)

        def differences(path: Path) -> list[str]:
            return [f"{path.relative_to(ROOT)} ({form}): old exit {a[0]}, new exit {b[0]}"
                    for form in ("text", "json")
                    for a, b in [(check(Path(old), path, form), check(ROOT, path, form))] if a != b]

        with ThreadPoolExecutor(args.jobs) as pool:
            found = [line for lines in pool.map(differences, files) for line in lines]
    print(f"{len(files)} files, text and JSON: {len(found)} differences")
    for line in found:
        print("  " + line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
