"""Benchmark the archive: add generated games, time searches, time re-validation with 1 and 2 processes.

    .venv/bin/python benchmarks/archive.py [--games 1000] [--turns 10] [--actions 50] [--db PATH]

Games are generated on the China War ``border-war`` scenario with every unit of the order of battle set
up on the map (a generated state), so each player-turn has 50 legal one-hex moves to choose from; a
few games get a deliberate illegal move so that "games with violations of rule X" finds something.
The game generator is ``tests/gamegen.py``, which the archive tests use to build their sample game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=10)
    parser.add_argument("--actions", type=int, default=50)
    parser.add_argument("--templates", type=int, default=20, help="distinct generated games (the rest are copies with other players)")
    parser.add_argument("--revalidate", type=int, default=200, help="games to re-validate (with 1, then 2 processes)")
    parser.add_argument("--db", type=Path, help="archive file (default: a temporary one)")
    args = parser.parse_args(argv)

    from pbem.archive import games as archive_games
    from pbem.archive.gamefiles import read_game
    from pbem.archive.revalidate import revalidate
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

    rates = {}
    subset = list(range(1, min(args.revalidate, args.games) + 1))
    for jobs in (1, 2):
        report = revalidate(archive, games=subset, jobs=jobs, store=True)
        rates[jobs] = report.rate
        print(f"revalidate --jobs {jobs}: {report.games} games, {report.actions} actions in {report.seconds:.1f} s = {report.rate:,.0f} actions/s; {len(report.changed)} changed")
    print(f"speed-up with --jobs 2: {rates[2] / rates[1]:.2f}x")
    archive.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
