"""The archive on PostgreSQL beside the SQLite file: store, open, search and verify times (issue 31 item 1).

    .venv/bin/python benchmarks/archive_postgres.py               # a throwaway cluster (tests/pg_support.py), ~15 s
    PBEM_TEST_POSTGRES=postgresql://... .venv/bin/python benchmarks/archive_postgres.py   # an existing server

The same short generated game (tests/gamegen.py, 3 turns) is stored GAMES times in each archive through one
connection (each game its own transaction), then each archive is opened 20 times, searched by player 20
times (the median), and verified whole.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))


def measure(where: str, new, games_module, count: int) -> dict[str, float]:
    from pbem.archive.store import adding_to, open_archive

    with adding_to(where) as archive:
        games_module.store_game(archive, new)
    start = time.perf_counter()
    with open_archive(where) as archive:
        for _ in range(count):
            games_module.store_game(archive, new)
    store = (time.perf_counter() - start) / count * 1000
    start = time.perf_counter()
    for _ in range(20):
        open_archive(where).close()
    opening = (time.perf_counter() - start) / 20 * 1000
    with open_archive(where) as archive:
        times = []
        for _ in range(20):
            start = time.perf_counter()
            games_module.search(archive, player="bob")
            times.append(time.perf_counter() - start)
        start = time.perf_counter()
        checked, problems = games_module.verify(archive)
        verify = (time.perf_counter() - start) * 1000
    assert not problems, problems
    return {"store": store, "open": opening, "search": statistics.median(times) * 1000, "verify": verify, "games": checked}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    options = parser.parse_args()
    import gamegen
    import pg_support

    from pbem.archive import games
    from pbem.archive.gamefiles import read_game

    server = pg_support.start()
    if isinstance(server, str):
        sys.exit(f"no PostgreSQL: {server}")
    database = server.new_database()
    try:
        with tempfile.TemporaryDirectory() as folder:
            paths = gamegen.sample_game(Path(folder) / "game")
            found = read_game(paths)
            new = games.prepare_game(found, games.resolve_module(found, None), {})
            print(f"{'archive':<12}{'store/game':>12}{'open':>10}{'search':>10}{'verify':>12}")
            for name, where in (("sqlite", str(Path(folder) / "archive.sqlite")), ("postgresql", server.url(database))):
                m = measure(where, new, games, options.games)
                print(f"{name:<12}{m['store']:>9.1f} ms{m['open']:>7.1f} ms{m['search']:>7.1f} ms{m['verify']:>9.0f} ms  ({m['games']} games)")
    finally:
        server.drop_database(database)
        server.stop()


if __name__ == "__main__":
    main()
