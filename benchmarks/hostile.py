"""Hostile inputs at the size limits: time and peak memory of ``pbem check`` on each (target: 10 s, 1 GiB).

    python benchmarks/hostile.py            # the turn files, then issue 26's surfaces
    python benchmarks/hostile.py --surfaces # issue 26's surfaces only

Issue 26's surfaces: an art template with a format spec, a FIFO as a module cache entry, hostile .vmod imports
(3,000 zones, zones of 20,000 points, 2,000 maps, 20,000 palette pieces, a board image named /etc/hostname),
names made of control characters, and (with ../shared/data) VASSAL logs with chat built to backtrack and of
as many moves as the command cap allows.

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


GM = "VASSAL.build.module"
ROOT = Path(__file__).resolve().parents[1]
SAVE = ROOT.parent / "shared" / "data" / "paths-of-glory" / "vassal" / "Classic10-8.vsav"


def _build_file(maps: str = "", pieces: str = "") -> str:
    return (f'<?xml version="1.0"?><VASSAL.build.GameModule name="hostile" version="1" VassalVersion="3.7.0">'
            f'<{GM}.PlayerRoster><entry>a</entry><entry>b</entry></{GM}.PlayerRoster>{maps}{pieces}</VASSAL.build.GameModule>')


def _grid(spacing: float) -> str:
    return (f'<{GM}.map.boardPicker.board.HexGrid dx="{spacing}" dy="{spacing}"><{GM}.map.boardPicker.board.mapgrid.HexGridNumbering/>'
            f'</{GM}.map.boardPicker.board.HexGrid>')


def _board(inner: str, size: int = 4000, image: str = "") -> str:
    picture = f' image="{image}"' if image else ""
    return (f'<{GM}.Map mapName="M"><{GM}.map.BoardPicker><{GM}.map.boardPicker.Board name="B" width="{size}" height="{size}"{picture}>'
            f'{inner}</{GM}.map.boardPicker.Board></{GM}.map.BoardPicker></{GM}.Map>')


def _zones(count: int, points: int, size: int = 4000) -> str:
    import math

    zones = []
    for k in range(count):
        x, y = (k * 37) % (size - 200), (k * 53) % (size - 200)
        ring = ";".join(f"{x + 100 + round(90 * math.cos(6.283 * j / points))},{y + 100 + round(90 * math.sin(6.283 * j / points))}" for j in range(points))
        zones.append(f'<{GM}.map.boardPicker.board.mapgrid.Zone name="z{k}" useParentGrid="true" path="{ring}"/>')
    return f'<{GM}.map.boardPicker.board.ZonedGrid>{"".join(zones)}{_grid(20)}</{GM}.map.boardPicker.board.ZonedGrid>'


def _palette(count: int) -> str:
    return "".join(f'<VASSAL.build.widget.PieceSlot entryName="p{k}" gpid="{k}">+/null/piece;;;p.png;piece {k}/null;0;0;1;0</VASSAL.build.widget.PieceSlot>'
                   for k in range(count))


def _import_case(text: str) -> Callable[[Path], list[str]]:
    def make(folder: Path) -> list[str]:
        (folder / "vmod").mkdir()
        (folder / "vmod" / "buildFile.xml").write_text(text)
        return ["module", "import", str(folder / "vmod" / "buildFile.xml"), "--out", str(folder / "out")]

    return make


def _art_template(folder: Path) -> list[str]:
    import shutil

    module = folder / "china"
    shutil.copytree(ROOT / "modules" / "china-war-1980", module, ignore=shutil.ignore_patterns("__pycache__"))
    style = json.loads((module / "art.json").read_text())
    style["values"] = "{attack:>999999999}-{defence}-{move}"
    (module / "art.json").write_text(json.dumps(style))
    return ["art", "counters", str(module), "--out", str(folder / "art")]


def _fifo_cache(folder: Path) -> list[str]:
    turn = ROOT / "samples" / "china-war-1980" / "illegal-6.12-mp-overrun.json"
    os.environ["PBEM_CACHE_DIR"] = str(folder / "cache")
    subprocess.run([sys.executable, "-m", "pbem", "check", str(turn)], capture_output=True)
    for entry in (folder / "cache" / "modules").glob("*.pickle"):
        entry.unlink()
        os.mkfifo(entry, 0o600)
    return ["check", str(turn)]


def _control_names(folder: Path) -> list[str]:
    import shutil

    name = "china\x1b]0;owned\x07\x1b[2J\x9b\u202e"
    module = folder / name
    shutil.copytree(ROOT / "modules" / "china-war-1980", module, ignore=shutil.ignore_patterns("__pycache__"))
    data = json.loads((module / "module.json").read_text())
    data["name"] = data["title"] = name * 100
    (module / "module.json").write_text(json.dumps(data))
    return ["module", "show", str(module), "--units", "--locations"]


def _opening():
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_vassal_samples", ROOT / "modules" / "paths-of-glory" / "tools" / "build_vassal_samples.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    opening = tool.Opening(SAVE)
    opening.play("CP-10", "OPS (CP)")
    return opening


def _chat_log(folder: Path) -> list[str]:
    opening = _opening()
    for _ in range(20):
        opening.writer.chat("attack " + " " * 290 + ":x")  # 5 s a line with a backtracking engine
    return ["check", str(opening.save("chat.vlog", folder))]


def _moves_log(moves: int, verb: str) -> Callable[[Path], list[str]]:
    def make(folder: Path) -> list[str]:
        opening = _opening()
        for k in range(moves):
            opening.move("GE-4-ARMY", ("Strasbourg", "Metz")[k % 2])
        (folder / "game").mkdir()
        path = opening.save("01.vlog", folder / "game")
        return ["check", str(path)] if verb == "check" else ["replay", str(folder / "game"), "--out", str(folder / "out.html")]

    return make


SURFACES: dict[str, Callable[[Path], list[str]]] = {
    "art.json values {attack:>999999999}: art counters": _art_template,
    "a FIFO as the module's cache entry: check": _fifo_cache,
    "names of control characters: module show": _control_names,
    ".vmod: 3,000 zones over a large parent grid": _import_case(_build_file(_board(_zones(3000, 4)))),
    ".vmod: 6 zones of 20,000 points": _import_case(_build_file(_board(_zones(6, 20_000)))),
    ".vmod: 2,000 maps": _import_case(_build_file("".join(_board(_grid(40), 100).replace('mapName="M"', f'mapName="M{k}"') for k in range(2000)))),
    ".vmod: 5,000 palette pieces": _import_case(_build_file(_board(_grid(40), 400), _palette(5_000))),
    ".vmod: 20,000 palette pieces (too large to read back)": _import_case(_build_file(_board(_grid(40), 400), _palette(20_000))),
    ".vmod: 5,000 palette names that slug alike": _import_case(_build_file(_board(_grid(40), 400), "".join(
        f'<VASSAL.build.widget.PieceSlot entryName="p{k}" gpid="{k}">+/null/piece;;;p.png;x{"." * (k % 50)}{"!" * (k // 50)}/null;0;0;1;0</VASSAL.build.widget.PieceSlot>'
        for k in range(5_000)))),
    ".vmod: board image /etc/hostname": _import_case(_build_file(_board(_grid(40), 400, "/etc/hostname"))),
}
if SAVE.is_file():
    SURFACES |= {
        "log: 20 chat lines built to backtrack: check": _chat_log,
        "log: 47,400 moves (at the 50,000-command cap): check": _moves_log(47_400, "check"),
        "log: 47,400 moves: replay of a game of it": _moves_log(47_400, "replay"),
        "log: 97,000 moves (over the cap): check": _moves_log(97_000, "check"),
    }


def run_command(argv: list[str]) -> tuple[int, float, float, float]:
    """Exit code, wall seconds, CPU seconds and peak resident MiB of ``pbem ARGV``."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "pbem", *argv], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    return os.waitstatus_to_exitcode(status), time.perf_counter() - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def surfaces() -> float:
    print(f"{'issue 26 surface':<56}{'exit':>6}{'seconds':>9}{'CPU s':>8}{'peak MiB':>10}")
    worst = 0.0
    for title, make in SURFACES.items():
        with tempfile.TemporaryDirectory() as tmp:
            saved = os.environ.get("PBEM_CACHE_DIR")
            argv = make(Path(tmp))
            code, seconds, cpu, mib = run_command(argv)
            if saved is None:
                os.environ.pop("PBEM_CACHE_DIR", None)
            else:
                os.environ["PBEM_CACHE_DIR"] = saved
        worst = max(worst, cpu)
        print(f"{title:<56}{code:>6}{seconds:>9.2f}{cpu:>8.2f}{mib:>10.0f}", flush=True)
    print(f"most CPU: {worst:.2f} s (target 10 s)")
    return worst


def main() -> int:
    if "--surfaces" in sys.argv[1:]:
        surfaces()
        return 0
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
    surfaces()
    return 0


if __name__ == "__main__":
    sys.exit(main())
