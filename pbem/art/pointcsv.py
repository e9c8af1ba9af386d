"""A point-to-point map from two CSV tables (spaces with positions, connections), held in memory.

Spaces: columns ``id``, ``name``, ``x``, ``y`` (pixel centre on the map picture), optional ``w``
(space size), ``terrain``, ``nation``; connections: ``a``, ``b`` (space ids) and an optional ``nations``
column listing, separated by ``|`` or spaces, the nationalities a restricted connection admits. These are
the columns of Rally the Troops' CSV exports; other tables can be renamed to match.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from pbem.model.errors import PbemError
from pbem.model.files import read_text
from pbem.model.maps import PointMap, edge

MAX_SPACES = 20_000
MAX_CONNECTIONS = 100_000


def _rows(path: Path, required: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    text = read_text(path, 16 * 1024 * 1024)
    try:
        reader = csv.DictReader(io.StringIO(text))
        fields = reader.fieldnames or []
        missing = [c for c in required if c not in fields]
        if missing:
            raise PbemError.at(path, f"missing column(s) {', '.join(missing)}", line=1)
        return [(reader.line_num, row) for row in reader]
    except csv.Error as error:
        raise PbemError.at(path, f"bad CSV: {error}") from None


def point_map_from_csv(spaces_csv: str | Path, edges_csv: str | Path, map_id: str = "points") -> PointMap:
    """Build a :class:`PointMap` from the two tables; bad rows are a PbemError naming file and line."""
    spaces_csv, edges_csv = Path(spaces_csv), Path(edges_csv)
    rows = _rows(spaces_csv, ("id", "name", "x", "y"))
    if len(rows) > MAX_SPACES:
        raise PbemError.at(spaces_csv, f"more than {MAX_SPACES} spaces")
    labels: list[str] = []
    names: list[str | None] = []
    positions: list[tuple[float, float] | None] = []
    terrain: list[str] = []
    country: list[str | None] = []
    extra: list[dict] = []
    index: dict[str, int] = {}
    for line, row in rows:
        key = (row.get("id") or "").strip()
        if not key or key in index:
            raise PbemError.at(spaces_csv, f"space id {key!r} is empty or used twice", line=line)
        try:
            x, y = float(row["x"]), float(row["y"])
            size = float(row.get("w") or 44)
        except (TypeError, ValueError):
            raise PbemError.at(spaces_csv, "x, y and w must be numbers", line=line) from None
        if not (abs(x) < 1e6 and abs(y) < 1e6 and 0 < size < 1000):
            raise PbemError.at(spaces_csv, "position or size out of range", line=line)
        index[key] = len(labels)
        labels.append(key)
        names.append((row.get("name") or "").strip() or None)
        positions.append((x, y))
        terrain.append((row.get("terrain") or "").strip() or "clear")
        country.append((row.get("nation") or "").strip() or None)
        extra.append({"size": size})
    adjacency: list[set[int]] = [set() for _ in labels]
    restricted: dict[tuple[int, int], frozenset[str]] = {}
    connections = _rows(edges_csv, ("a", "b"))
    if len(connections) > MAX_CONNECTIONS:
        raise PbemError.at(edges_csv, f"more than {MAX_CONNECTIONS} connections")
    for line, row in connections:
        a, b = (row.get("a") or "").strip(), (row.get("b") or "").strip()
        if a not in index or b not in index or a == b:
            raise PbemError.at(edges_csv, f"connection {a}-{b} names an unknown space", line=line)
        i, j = index[a], index[b]
        adjacency[i].add(j)
        adjacency[j].add(i)
        nations = (row.get("nations") or "").replace("|", " ").split()
        if nations:
            restricted[edge(i, j)] = frozenset(nations)
    n = len(labels)
    return PointMap(
        positions,
        id=map_id,
        kind="points",
        labels=labels,
        neighbours=[tuple(sorted(a)) for a in adjacency],
        terrain=terrain,
        features=[frozenset()] * n,
        country=country,
        population=[0] * n,
        city=[None] * n,
        supply=[None] * n,
        names=names,
        extra=extra,
        restricted=restricted,
    )
