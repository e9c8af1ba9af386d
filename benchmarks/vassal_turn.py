"""Converting and checking a whole turn's VASSAL log: ``python benchmarks/vassal_turn.py [SAVE] [--runs N]``.

The log is built with pbem's log writer from the real Paths of Glory Classic save: a full game-turn of 12
action rounds (6 a side), each a card put on the OPS area, three units dragged two spaces space by space,
two dice rolled and a counter flipped, with an undo and a re-roll now and then (about 130 steps).  Timed:
reading the log, the start state from its restore part, the steps as actions, and the module's rules on
every action, as ``pbem check LOG.vlog`` does.  The first run includes loading the module (schemas, rules).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DEFAULT = REPO.parent / "shared" / "data" / "paths-of-glory" / "vassal" / "Classic10-8.vsav"


def _tool():
    spec = importlib.util.spec_from_file_location("build_vassal_samples", REPO / "modules" / "paths-of-glory" / "tools" / "build_vassal_samples.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def build_turn(save: Path, out: Path) -> tuple[Path, int]:
    tool = _tool()
    o = tool.Opening(save)
    state = {u["id"]: u["at"] for u in _state(o)["units"]}
    game_map = o.opened.module.map
    cards = {"cp": ["CP-02", "CP-03", "CP-05", "CP-06", "CP-07", "CP-08"], "ap": ["AP-04", "AP-05", "AP-06", "AP-07", "AP-08", "AP-09"]}
    movers = {"cp": ["GE-1-ARMY", "GE-6-ARMY", "AH-1-ARMY", "AH-5-ARMY", "GE-8-ARMY", "AH-6-ARMY"],
              "ap": ["FR-1-ARMY", "FR-3-ARMY", "RU-1-ARMY", "RU-4-ARMY", "RU-5-ARMY", "SB-1-ARMY"]}
    for round_number in range(6):
        for side in ("cp", "ap"):
            o.play(cards[side][round_number], f"OPS ({side.upper()})")
            for k in range(3):
                unit = movers[side][(round_number + k) % 6]
                here = game_map.find(state[unit])
                there = game_map.label(game_map.neighbours[here][0])
                back = state[unit]
                o.move(unit, there, back)
            o.roll("Grey Die", 1 + round_number % 6)
            if round_number % 3 == 1:
                o.writer.undo()
                o.roll("Grey Die", 6 - round_number % 6)
            o.roll("Blue Die", 1 + (round_number + 2) % 6)
            if round_number < 2:
                o.reduce(movers[side][round_number])
            else:
                o.writer.chat("no loss")
    path = o.save("turn.vlog", out)
    return path, len(o.writer.steps)


def _state(o):
    from pbem.formats.vassal.to_state import save_to_state

    state, _ = save_to_state(o.opened.game, o.opened.mapping, o.opened.pieces, o.opened.namer)
    return state


def check(path: Path) -> tuple[int, int]:
    from pbem.engine.replay import replay
    from pbem.formats.turnfile import load_start_state, load_turn

    turn, module = load_turn(path)
    result = replay(module, load_start_state(turn, module), turn)
    return result.actions, len(result.violations)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("save", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if not args.save.is_file():
        sys.exit(f"no save at {args.save} (give the Paths of Glory Classic save)")
    with tempfile.TemporaryDirectory() as folder:
        path, steps = build_turn(args.save, Path(folder))
        size = path.stat().st_size
        started, cpu = time.perf_counter(), time.process_time()
        actions, violations = check(path)
        first, first_cpu = time.perf_counter() - started, time.process_time() - cpu
        times, cpus = [], []
        for _ in range(args.runs):
            started, cpu = time.perf_counter(), time.process_time()
            check(path)
            times.append(time.perf_counter() - started)
            cpus.append(time.process_time() - cpu)
    print(f"log: {steps} steps, {size / 1e6:.1f} MB (the whole Classic position plus the turn)")
    print(f"turn: {actions} actions, {violations} violations reported")
    print("                              wall clock   CPU time (the same on a busy machine)")
    print(f"first run (module loaded):    {first * 1000:7.0f} ms   {first_cpu * 1000:7.0f} ms")
    print(f"median of {args.runs} runs:           {statistics.median(times) * 1000:7.0f} ms   {statistics.median(cpus) * 1000:7.0f} ms")
    print(f"fastest:                      {min(times) * 1000:7.0f} ms   {min(cpus) * 1000:7.0f} ms")


if __name__ == "__main__":
    main()
