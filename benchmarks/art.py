"""Art benchmark: counters per second at 75 px on one core, and the time to draw a 3,000-hex map.

Run: ``.venv/bin/python benchmarks/art.py``. Prints medians of several runs. Targets (issue 5):
>= 1,000 counters/s and < 0.5 s for the map picture.
"""

from __future__ import annotations

import statistics
import time

from pbem.art.counters import render_counter
from pbem.art.maps import render_map
from pbem.art.style import load_style
from pbem.art.symbols import symbol_image
from pbem.model.jsonsource import parse_json
from pbem.model.maps import load_map
from pbem.model.module import load_module

RUNS = 7


def counters_per_second(cold: bool) -> float:
    module = load_module("china-war-1980")
    style = load_style(module.path)
    faces = [(t, f) for t in module.counter_types.values() for f in (0, 1)] * 20
    rates = []
    for _ in range(RUNS):
        if cold:
            symbol_image.cache_clear()  # symbols drawn afresh, as on the first sheet of a run
        start = time.perf_counter()
        for counter_type, face in faces:
            render_counter(counter_type, face, style, 75)
        rates.append(len(faces) / (time.perf_counter() - start))
    return statistics.median(rates)


def big_map_seconds() -> tuple[int, float]:
    document = parse_json(
        '{"id": "bench", "kind": "hex", "grid": {"label": "CCRR", "columns": 60, "rows": 50, "orientation": "flat", "shifted": "even"}}',
        "bench.json",
    )
    game_map = load_map(document)
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        render_map(game_map, hex_size=16)
        times.append(time.perf_counter() - start)
    return len(game_map), statistics.median(times)


def main() -> None:
    print(f"counters at 75 px: {counters_per_second(cold=False):,.0f}/s (symbols cached), "
          f"{counters_per_second(cold=True):,.0f}/s (symbol cache cleared each run); median of {RUNS}")
    hexes, seconds = big_map_seconds()
    print(f"map picture of {hexes:,} hexes with labels: {seconds:.3f} s (median of {RUNS})")


if __name__ == "__main__":
    main()
