"""Build ``modules/ww2-crusader/map.json`` from real geography (``geography.py``) and a land mask.

Run from the repo root, after ``pip install global-land-mask`` (a build-time tool only; pbem never imports it):

    python modules/ww2-crusader/tools/build_map.py

Each hex's main terrain: sea when at least half of 19 points spread over the hex are sea on the land mask
(``global_land_mask.globe.is_land``, a 1 km grid of the world's coastlines); else town for the towns, mountain
for the two Halfaya Pass hexes, plain for the rest of the desert. A named place's hex is the hex whose centre
is nearest the place (brute force over every hex); the coast road and the railway join their waypoints hex by
hex along straight hex lines, and the build stops if one would cross a sea hex. ``--check`` rebuilds in memory
and exits 1 when ``map.json`` differs (the file is committed, so pbem needs no land mask at run time).
"""

from __future__ import annotations

import heapq
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import geography as geo  # noqa: E402

from pbem.model.hexgrid import HexGridSpec  # noqa: E402

MODULE = Path(__file__).resolve().parents[1]
SPEC = HexGridSpec(label="CCRR", columns=geo.COLUMNS, rows=geo.ROWS, orientation="flat", shifted="even")
SEA = "Mediterranean"


def all_hexes() -> list[tuple[int, int]]:
    return [(c, r) for c in range(1, geo.COLUMNS + 1) for r in range(1, geo.ROWS + 1)]


def nearest_hex(lat: float, lon: float) -> tuple[int, int]:
    """The hex whose centre is nearest the point (ties: the first in column order)."""
    x, y = geo.to_km(lat, lon)
    best = min(all_hexes(), key=lambda cr: math.dist((x, y), geo.centre_km(*cr)))
    if math.dist((x, y), geo.centre_km(*best)) > geo.RADIUS_KM:
        raise SystemExit(f"({lat}, {lon}) is off the map")
    return best


def sample_points(column: int, row: int) -> list[tuple[float, float]]:
    """Centre, six points at half the inner radius and twelve near the edge, as (lat, lon)."""
    cx, cy = geo.centre_km(column, row)
    inner = geo.HEX_ACROSS_KM / 2
    points = [(cx, cy)]
    for k in range(6):
        a = math.radians(30 + 60 * k)
        points.append((cx + 0.5 * inner * math.cos(a), cy + 0.5 * inner * math.sin(a)))
    for k in range(12):
        a = math.radians(15 + 30 * k)
        points.append((cx + 0.85 * inner * math.cos(a), cy + 0.85 * inner * math.sin(a)))
    return [geo.to_latlon(x, y) for x, y in points]


def land_fraction(column: int, row: int, is_land) -> float:
    points = sample_points(column, row)
    return sum(1 for lat, lon in points if is_land(lat, lon)) / len(points)


def route(waypoints: list[tuple[float, float]], sea: set[str], what: str) -> list[str]:
    """Hexes from waypoint to waypoint: the fewest land hexes, and among those the ones nearest the straight line."""
    hexes: list[str] = []
    stops = [nearest_hex(lat, lon) for lat, lon in waypoints]
    for a, b in zip(stops, stops[1:]):
        leg = _land_path(a, b, sea)
        if leg is None:
            raise SystemExit(f"{what}: no land path from {geo.label(*a)} to {geo.label(*b)}")
        for name in leg:
            if not hexes or hexes[-1] != name:
                hexes.append(name)
    return hexes


def _off_line(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def _land_path(a: tuple[int, int], b: tuple[int, int], sea: set[str]) -> list[str] | None:
    """Dijkstra over land hexes: each step costs 1 plus a thousandth of its km off the straight line a-b."""
    start, goal = SPEC.to_hex(*a), SPEC.to_hex(*b)
    ca, cb = geo.centre_km(*a), geo.centre_km(*b)
    best = {start: 0.0}
    came: dict = {}
    queue = [(0.0, 0, start)]
    tick = 0
    while queue:
        cost, _, h = heapq.heappop(queue)
        if h == goal:
            path = [h]
            while path[-1] in came:
                path.append(came[path[-1]])
            return [SPEC.label_of(x) for x in reversed(path)]
        if cost > best.get(h, math.inf):
            continue
        for n in h.neighbours():
            if not SPEC.contains(n) or SPEC.label_of(n) in sea:
                continue
            step = cost + 1 + 0.001 * _off_line(geo.centre_km(*SPEC.to_offset(n)), ca, cb)
            if step < best.get(n, math.inf):
                best[n] = step
                came[n] = h
                tick += 1
                heapq.heappush(queue, (step, tick, n))
    return None


def _segments_cross(p1, p2, q1, q2) -> bool:
    def orient(a, b, c) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0


def escarpment_sides(trace: list[tuple[float, float]], sea: set[str]) -> list[tuple[str, str]]:
    """Hexsides the trace crosses: pairs of neighbouring land hexes whose centre-to-centre segment it cuts."""
    pts = [geo.to_km(lat, lon) for lat, lon in trace]
    sides = []
    for c, r in all_hexes():
        a = SPEC.to_hex(c, r)
        for n in a.neighbours():
            if not SPEC.contains(n) or (n.q, n.r) < (a.q, a.r):
                continue
            la, lb = SPEC.label_of(a), SPEC.label_of(n)
            if la in sea or lb in sea:
                continue
            ca, cb = geo.centre_km(c, r), geo.centre_km(*SPEC.to_offset(n))
            if any(_segments_cross(ca, cb, p, q) for p, q in zip(pts, pts[1:])):
                sides.append(tuple(sorted((la, lb))))
    return sorted(set(sides))


def build(is_land) -> dict:
    sea = {geo.label(c, r) for c, r in all_hexes() if land_fraction(c, r, is_land) < 0.5}
    hexes: dict[str, dict] = {}
    terrain: dict[str, str] = {}
    forced_land = []
    for name, lat, lon, kind, source, coastal in geo.PLACES:
        at = geo.label(*nearest_hex(lat, lon))
        if at in hexes:
            raise SystemExit(f"{name} and {hexes[at]['name']} fall in the same hex {at}")
        if at in sea:
            forced_land.append(at)
            sea.discard(at)
        entry = {"name": name, "features": [], "lat": lat, "lon": lon, "source": source}
        if kind == "town":
            terrain[at] = "town"
            entry["city"] = name
        if kind == "fort":
            entry["features"].append("fortification")
        if coastal:
            entry["coastal_place"] = True
        hexes[at] = entry
    # Halfaya Pass: the source makes it two mountain hexes (defence +1). The pass lies 6 km from Sollum, inside
    # Sollum's hex at this scale, so the two hexes are the escarpment hexes next to Sollum's on the pass side:
    # the neighbour of Sollum nearest the pass, and the neighbour of both nearest the pass after it.
    name, lat, lon, source = geo.HALFAYA
    sollum = next(h for h, e in hexes.items() if e["name"] == "Sollum")
    px, py = geo.to_km(lat, lon)

    def dist(label_: str) -> float:
        return math.dist((px, py), geo.centre_km(*SPEC.unformat(label_)))

    def land_neighbours(label_: str) -> list[str]:
        return [SPEC.label_of(n) for n in SPEC.parse(label_).neighbours() if SPEC.contains(n) and SPEC.label_of(n) not in sea]

    first = min((h for h in land_neighbours(sollum) if h not in hexes), key=dist)
    second = min((h for h in land_neighbours(first) if h not in hexes and h != first and h in land_neighbours(sollum)), key=dist)
    for n, h in enumerate((first, second), 1):
        terrain[h] = "mountain"
        hexes[h] = {"name": f"{name} ({n}/2)", "features": ["halfaya_pass"], "lat": lat, "lon": lon, "source": source}

    road = route(geo.ROAD_WAYPOINTS, sea, "the coast road")
    rail = route(geo.RAIL_WAYPOINTS, sea, "the railway")
    west, east = road[0], road[-1]
    if SPEC.unformat(west)[0] != 1 or SPEC.unformat(east)[0] != geo.COLUMNS:
        raise SystemExit(f"the coast road must run from the west edge to the east edge, not {west}..{east}")
    hexes.setdefault(west, {"features": []}).update(name="Via Balbia (to Derna)", supply="axis")
    hexes[west]["features"] += ["supply_source", "road_entry"]
    hexes.setdefault(east, {"features": []}).update(name="Coast road (to Alexandria)", supply="allied")
    hexes[east]["features"] += ["supply_source", "road_entry"]
    for h in ("Tobruk", "Mersa Matruh"):
        at = next(k for k, e in hexes.items() if e.get("name") == h)
        hexes[at]["features"].append("objective")

    # Coastal land hexes: a land hex with a sea neighbour (the British supply rule uses coastal towns).
    coastal = set()
    for c, r in all_hexes():
        label_ = geo.label(c, r)
        if label_ in sea:
            continue
        if any(SPEC.contains(n) and SPEC.label_of(n) in sea for n in SPEC.to_hex(c, r).neighbours()):
            coastal.add(label_)
            entry = hexes.setdefault(label_, {"features": []})
            entry["features"].append("coastal")
            entry["sea"] = SEA
    for label_, entry in hexes.items():
        if entry.pop("coastal_place", False) and label_ not in coastal:
            raise SystemExit(f"{entry['name']} ({label_}) should be a coastal hex")
        entry["features"] = sorted(set(entry["features"]))
        if not entry["features"]:
            del entry["features"]

    legend = {".": "plain", "~": "sea", "T": "town", "M": "mountain"}
    code = {v: k for k, v in legend.items()}
    rows = []
    for r in range(1, geo.ROWS + 1):
        row = ""
        for c in range(1, geo.COLUMNS + 1):
            label_ = geo.label(c, r)
            row += "~" if label_ in sea else code[terrain.get(label_, "plain")]
        rows.append(row)

    countries = []
    for r in range(1, geo.ROWS + 1):
        row = ""
        for c in range(1, geo.COLUMNS + 1):
            lat, lon = geo.to_latlon(*geo.centre_km(c, r))
            row += "-" if geo.label(c, r) in sea else "E" if lon > geo.border_lon(lat) else "L"
        countries.append(row)

    hexsides = []
    for name_, trace in geo.ESCARPMENTS.items():
        for a, b in escarpment_sides(trace, sea):
            hexsides.append({"hexes": [a, b], "features": ["escarpment"]})
    return {
        "$schema": "../../schemas/map.schema.json",
        "id": "ww2-crusader",
        "kind": "hex",
        "illustrative": True,
        "note": (
            "The source gives no map (its 'Game Map' heading is empty). This map is built by tools/build_map.py from "
            "real geography at the source's scale (a hex is 15 km across the flats): coast and sea hexes from the "
            "global-land-mask land mask, towns and places at their real coordinates (per-hex lat/lon/source; sources "
            "in tools/README.md), the coast road (Via Balbia) with its west (axis) and east (allied) map-edge supply "
            "sources, the railway east of Mersa Matruh, escarpment hexsides, Halfaya Pass as two mountain hexes, the "
            "Egypt-Libya border (country layer). "
            "Numbering CCRR from 0101 in the north-west, columns west to east, rows north to south, flat-topped "
            "hexes, even columns half a hex lower. Projection: equirectangular about 31.75 N."
            + (f" Forced to land (a named place on a mostly-sea hex): {', '.join(sorted(forced_land))}." if forced_land else "")
        ),
        "default_terrain": "plain",
        "grid": {
            "label": "CCRR",
            "orientation": "flat",
            "shifted": "even",
            "first_column": 1,
            "columns": geo.COLUMNS,
            "first_row": 1,
            "rows": geo.ROWS,
        },
        "projection": {
            "kind": "equirectangular",
            "west_lon": geo.WEST,
            "north_lat": geo.NORTH,
            "mid_lat": geo.MID_LAT,
            "km_per_deg_lat": geo.KM_PER_DEG_LAT,
            "hex_across_km": geo.HEX_ACROSS_KM,
            "origin": "centre of hex 0101",
        },
        "layers": {
            "terrain": {"legend": legend, "rows": rows},
            "country": {"legend": {"L": "Libya", "E": "Egypt", "-": None}, "rows": countries},
        },
        "hexes": dict(sorted(hexes.items())),
        "hexsides": hexsides,
        "roads": [{"name": "Via Balbia / coast road", "hexes": road}],
        "rails": [{"name": "Western Desert railway (Alexandria - Mersa Matruh)", "hexes": rail, "track": "single"}],
    }


def main(argv: list[str]) -> int:
    try:
        from global_land_mask import globe
    except ImportError:
        print("build_map.py needs the land mask: pip install global-land-mask", file=sys.stderr)
        return 2
    data = build(lambda lat, lon: bool(globe.is_land(lat, lon)))
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    target = MODULE / "map.json"
    if "--check" in argv:
        same = target.exists() and target.read_text(encoding="utf-8") == text
        print("map.json is up to date" if same else "map.json differs from a rebuild")
        return 0 if same else 1
    target.write_text(text, encoding="utf-8")
    land = sum(row.count(".") + row.count("T") + row.count("M") for row in data["layers"]["terrain"]["rows"])
    print(f"wrote {target} ({geo.COLUMNS} x {geo.ROWS} hexes, {land} land, road {len(data['roads'][0]['hexes'])} hexes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
