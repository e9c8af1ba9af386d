"""Hostile inputs at the size limits: time and peak memory of ``pbem check`` on each (target: 10 s, 1 GiB).

    python benchmarks/hostile.py

Each file is generated in a temporary folder and checked in a fresh process (``python -m pbem``), so the
figures include start-up, as a user sees them. The exit code says how it ended: 1 a verdict, 2 a refusal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

HEADER = {"module": "china-war-1980", "turn": 1, "side": "soviet", "start": {"scenario": "border-war"}}
MIB = 1024 * 1024


def _moves(n: int, path_length: int = 2, note: str | None = None) -> str:
    path = (["2604", "2605"] * path_length)[:path_length]
    actions: list[dict] = [{"phase": "movement"}]
    for k in range(n):
        action = {"move": "SOV-TK-XX-1-02", "path": path if k % 2 else path[::-1]}
        if note:
            action["note"] = note
        actions.append(action)
    return json.dumps(HEADER | {"actions": actions}, separators=(",", ":"))


def _fill(make: Callable[[int], str], limit: int) -> str:
    """The largest ``make(n)`` under ``limit`` bytes (by bisection on n)."""
    low, high = 1, 1
    while len(make(high).encode()) < limit:
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if len(make(middle).encode()) < limit else (low, middle)
    return make(low)


def _notation(row: str, limit: int) -> str:
    lines = ["Game: China War 1980", "Scenario: border-war", "Turn: 1", "Side: Soviet", "== Movement =="]
    lines += [row] * (limit // (len(row) + 1) - 10)
    return "\n".join(lines) + "\n"


CASES: dict[str, tuple[str, Callable[[], str]]] = {
    "10,000 moves (the most actions allowed)": ("turn.json", lambda: _moves(9_999)),
    "4 MiB of moves through 140-hex paths": ("turn.json", lambda: _fill(lambda n: _moves(n, 140), 4 * MIB)),
    "690 moves through 140-hex paths (99,000 values)": ("turn.json", lambda: _moves(690, 140)),
    "120 attacks losing 800 steps each (97,000 values)": ("turn.json", lambda: json.dumps(HEADER | {"actions": [
        {"phase": "movement"}, {"phase": "reaction"}, {"phase": "combat"},
        *[{"attack": ["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "target": "3005", "roll": 4, "result": "1/1",
           "losses": {"attacker": ["SOV-MR-XX-1-01"] * 400, "defender": ["PLA-INF-XX-1-01"] * 400}}] * 120]})),
    "4 MiB of moves with long notes": ("turn.json", lambda: _fill(lambda n: _moves(n, 2, "x" * 400), 4 * MIB)),
    "one move through 500,000 hexes": ("turn.json", lambda: _moves(1, 500_000)),
    "4 MiB, an error at its very end": ("turn.json", lambda: _moves(9_000)[:-2] + ',"x":[' + ",".join(["1"] * 1_500_000) + "]}"),
    "1 MiB notation, 600-character lines": ("turn.pbem", lambda: _notation("SOV-TK-XX-1-02: " + "-".join(["2604", "2605"] * 58), MIB)),
    "1 MiB notation, short lines": ("turn.pbem", lambda: _notation("SOV-TK-XX-1-02: 2604-2605", MIB)),
    # Last: building it grows this process, and a child's peak counts the pages it was forked with.
    "60 MB of JSON": ("turn.json", lambda: json.dumps(HEADER | {"actions": []})[:-1] + ', "x": [' + "1," * 30_000_000 + "1]}"),
}


def _game(folder: Path) -> Path:
    """A game at the archive's bounds: ten 4 MiB turns of moves that all break a rule (about 91,000 actions)."""
    folder.mkdir()
    turn = _fill(lambda n: _moves(n, 2, "x" * 400), 4 * MIB)
    for k in range(1, 11):
        (folder / f"turn-{k:02}.json").write_text(turn)
    return folder


def run(path: Path, command: tuple[str, ...] = ("check",), extra: tuple[str, ...] = ()) -> tuple[int, float, float]:
    """Exit code, wall seconds and peak resident MiB of ``pbem COMMAND PATH EXTRA``."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "pbem", *command, str(path), *extra], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    return os.waitstatus_to_exitcode(status), seconds, usage.ru_maxrss / 1024


def main() -> int:
    print(f"{'input':<52}{'size':>10}{'exit':>6}{'seconds':>9}{'peak MiB':>10}")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for title, (name, make) in CASES.items():
            path = Path(tmp) / name
            path.write_text(make())
            code, seconds, mib = run(path)
            worst = max(worst, seconds)
            print(f"{title:<52}{path.stat().st_size / MIB:>8.1f}MB{code:>6}{seconds:>9.2f}{mib:>10.0f}")
            path.unlink()
        folder = _game(Path(tmp) / "game")
        code, seconds, mib = run(folder, ("archive", "add"), ("--db", str(Path(tmp) / "archive.sqlite")))
        worst = max(worst, seconds)
        size = sum(p.stat().st_size for p in folder.iterdir())
        print(f"{'archive add: 10 turns of 4 MiB, 91,000 illegal moves':<52}{size / MIB:>8.1f}MB{code:>6}{seconds:>9.2f}{mib:>10.0f}")
    print(f"slowest: {worst:.2f} s (target 10 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
