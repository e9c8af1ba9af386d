"""Compare ``pbem module export`` with an older commit on every bundled module: the ``.vmod`` must not move.

    .venv/bin/python tools/compare_exports.py --old baaf191
    .venv/bin/python tools/compare_exports.py --old HEAD~1 --module china-war-1980

The old commit is exported with ``git archive`` into a temporary folder and put first on ``PYTHONPATH``;
each module is exported by both in a fresh process with the module cache off, and the exit code, standard
output (with the output file's name made alike), standard error and the ``.vmod``'s bytes must be identical.
A change that moves code without changing what it writes must pass this.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def bundled() -> list[str]:
    return sorted(p.parent.name for p in ROOT.glob("modules/*/module.json"))


def export(code: Path, module: str, out: Path) -> tuple[int, str, str, bytes]:
    """Exit code, output (``out`` written as ``OUT``), errors and the bytes written."""
    env = dict(os.environ, PYTHONPATH=str(code), PBEM_NO_CACHE="1")
    done = subprocess.run([sys.executable, "-m", "pbem", "module", "export", module, "--out", str(out)],
                          capture_output=True, text=True, env=env, cwd=tempfile.gettempdir())
    data = out.read_bytes() if out.is_file() else b""
    return done.returncode, done.stdout.replace(str(out), "OUT"), done.stderr.replace(str(out), "OUT"), data


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the commit to compare with")
    parser.add_argument("--module", action="append", help="only this module (repeatable; default: every bundled one)")
    args = parser.parse_args()
    modules = args.module or bundled()
    found = []
    with tempfile.TemporaryDirectory() as old, tempfile.TemporaryDirectory() as scratch:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.old], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", old], input=archive, check=True)
        for module in modules:
            before = export(Path(old), module, Path(scratch) / f"{module}-old.vmod")
            after = export(ROOT, module, Path(scratch) / f"{module}-new.vmod")
            digest = hashlib.sha256(after[3]).hexdigest()[:16]
            same = before[:3] == after[:3] and before[3] == after[3]
            print(f"{module}: exit {after[0]}, {len(after[3])} bytes, sha256 {digest}: {'identical' if same else 'DIFFERENT'}")
            if not same:
                found.append(module)
                for what, a, b in zip(("exit", "stdout", "stderr"), before[:3], after[:3]):
                    if a != b:
                        print(f"  {what}: old {str(a)[:200]!r}, new {str(b)[:200]!r}")
                if before[3] != after[3]:
                    print(f"  .vmod: old {len(before[3])} bytes, new {len(after[3])} bytes")
    print(f"{len(modules)} modules: {len(found)} differences")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
