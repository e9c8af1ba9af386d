"""Maps: a graph of locations with terrain, hexside features, routes, cities, countries and supply.

Two kinds behind one interface, :class:`GameMap`: hex grids (:class:`HexMap`) and point-to-point maps
(:class:`PointMap`, named spaces and connections, some restricted to listed nationalities). Rules ask the
map for neighbours, connections, terrain and distance and never care which kind it is unless the game
does. Locations are small integers inside; printed labels (``2701``, ``X28``, ``Paris``) only at the edges.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Iterable

from pbem.model.hexgrid import Hex, HexGridSpec
from pbem.model.jsonsource import JsonDocument
from pbem.model.names import fold

Edge = tuple[int, int]

# Per-location keys of a map file that the model understands; anything else is kept in ``extra``.
_KNOWN_LOCATION_KEYS = {"terrain", "features", "country", "population", "city", "supply", "name"}


def edge(a: int, b: int) -> Edge:
    """The unordered pair {a, b} as a tuple key."""
    return (a, b) if a < b else (b, a)


@dataclass
class GameMap:
    """What every map offers. Locations are indices ``0 .. len(map) - 1``."""

    id: str
    kind: str
    labels: list[str]
    neighbours: list[tuple[int, ...]]
    terrain: list[str]
    features: list[frozenset[str]]
    country: list[str | None]
    population: list[int]
    city: list[str | None]
    supply: list[str | None]
    names: list[str | None]
    extra: list[dict[str, Any]]
    side_features: dict[Edge, frozenset[str]] = field(default_factory=dict)
    roads: set[Edge] = field(default_factory=set)
    rails: dict[Edge, str] = field(default_factory=dict)
    restricted: dict[Edge, frozenset[str]] = field(default_factory=dict)
    illustrative: bool = False
    note: str = ""
    _index: dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._index = {label: i for i, label in enumerate(self.labels)}
        self._index.update({label.upper(): i for i, label in enumerate(self.labels)})
        # Spellings without accents, dots or hyphens, unless two labels share one (then neither is found so).
        folded: dict[str, list[int]] = {}
        for i, label in enumerate(self.labels):
            folded.setdefault(fold(label), []).append(i)
        self._folded = {key: found[0] for key, found in folded.items() if len(found) == 1}
        self._adjacent = [frozenset(n) for n in self.neighbours]

    def __len__(self) -> int:
        return len(self.labels)

    # --- naming -------------------------------------------------------------------------------------
    def index(self, label: str) -> int:
        """Location index of a printed label, spelt with or without accents, dots and hyphens; ``KeyError`` if none."""
        found = self._index.get(label)
        if found is None:
            found = self._index.get(label.strip().upper())
        if found is None:
            found = self._folded.get(fold(label))
        if found is None:
            raise KeyError(label)
        return found

    def find(self, label: str) -> int | None:
        found = self._index.get(label)  # a label as printed: most of them, and checked per step of every move
        if found is not None:
            return found
        try:
            return self.index(label)
        except KeyError:
            return None

    def find_all(self, labels: list[str]) -> tuple[int | None, ...]:
        """``find`` of each label; the labels as printed (a move's path, mostly) are looked up at C speed."""
        found = tuple(map(self._index.get, labels))
        return tuple(map(self.find, labels)) if None in found else found

    def label(self, index: int) -> str:
        return self.labels[index]

    # --- graph --------------------------------------------------------------------------------------
    def is_adjacent(self, a: int, b: int) -> bool:
        return b in self._adjacent[a]

    def hexside(self, a: int, b: int) -> frozenset[str]:
        """Features on the boundary between two adjacent locations (a river hexside, a strait…)."""
        return self.side_features.get(edge(a, b), frozenset())

    def has_road(self, a: int, b: int) -> bool:
        return edge(a, b) in self.roads

    def rail(self, a: int, b: int) -> str | None:
        """Track kind (``single`` or ``double``) of a rail line from ``a`` to ``b``, if any."""
        return self.rails.get(edge(a, b))

    def may_cross(self, a: int, b: int, nationality: str | None = None) -> bool:
        """Whether a unit of ``nationality`` may use the connection a–b (restricted connections)."""
        allowed = self.restricted.get(edge(a, b))
        return allowed is None or (nationality is not None and nationality in allowed)

    def on_edge(self, index: int) -> bool:
        """True for a location at the map edge (a hex with fewer than six on-map neighbours)."""
        return False

    def distance(self, a: int, b: int) -> int:
        raise NotImplementedError

    def crosses_border(self, a: int, b: int) -> bool:
        return self.country[a] != self.country[b]


class HexMap(GameMap):
    """A hex grid: geometry comes from :class:`HexGridSpec`."""

    def __init__(self, spec: HexGridSpec, hexes: list[Hex], **fields: Any):
        self.spec = spec
        self.hexes = hexes
        self._at = {h: i for i, h in enumerate(hexes)}
        super().__init__(**fields)

    def at_hex(self, h: Hex) -> int | None:
        return self._at.get(h)

    def distance(self, a: int, b: int) -> int:
        return self.hexes[a].distance(self.hexes[b])

    def on_edge(self, index: int) -> bool:
        return len(self.neighbours[index]) < 6

    def direction(self, a: int, b: int) -> int | None:
        """The hexside of ``a`` that ``b`` lies across (0-5, the grid's directions in order around the hex; opposite
        sides 3 apart), None unless adjacent: what a unit's ``facing`` counts in."""
        return self.hexes[a].direction_to(self.hexes[b])

    def opposite(self, center: int, a: int) -> int | None:
        """The location on the far side of ``center`` from its neighbour ``a`` (for flank attacks)."""
        c, h = self.hexes[center], self.hexes[a]
        return self._at.get(Hex(2 * c.q - h.q, 2 * c.r - h.r))


class PointMap(GameMap):
    """Named spaces joined by connections; distance counts connections."""

    def __init__(self, positions: list[tuple[float, float] | None], **fields: Any):
        self.positions = positions
        self._distances: dict[int, list[int]] = {}
        super().__init__(**fields)

    def distance(self, a: int, b: int) -> int:
        table = self._distances.get(a)
        if table is None:
            table = self._distances[a] = _bfs(self.neighbours, a)
        return table[b]

    def on_edge(self, index: int) -> bool:
        return "edge" in self.features[index]


def _bfs(neighbours: list[tuple[int, ...]], start: int) -> list[int]:
    far = len(neighbours) + 1
    seen = [far] * len(neighbours)
    seen[start] = 0
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for nxt in neighbours[here]:
            if seen[nxt] == far:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return seen


# --- loading ----------------------------------------------------------------------------------------


def load_map(document: JsonDocument) -> GameMap:
    """Build a map from a document already checked against ``map.schema.json``."""
    data = document.data
    if data["kind"] == "hex":
        return _load_hex_map(document)
    return _load_point_map(document)


def _blank(n: int, terrain: str) -> dict[str, list]:
    return {
        "terrain": [terrain] * n,
        "features": [frozenset()] * n,
        "country": [None] * n,
        "population": [0] * n,
        "city": [None] * n,
        "supply": [None] * n,
        "names": [None] * n,
        "extra": [{} for _ in range(n)],
    }


def _load_hex_map(document: JsonDocument) -> HexMap:
    data = document.data
    grid = data["grid"]
    spec = HexGridSpec(
        label=grid["label"],
        first_column=grid.get("first_column", 1),
        columns=grid["columns"],
        first_row=grid.get("first_row", 1),
        rows=grid["rows"],
        orientation=grid.get("orientation", "flat"),
        shifted=grid.get("shifted", "even"),
    )
    absent = set()
    for n, label in enumerate(data.get("absent", [])):
        try:
            absent.add(spec.parse(label))
        except ValueError:
            raise document.error(f"/absent/{n}", f"{label!r} is not a hex label of this grid") from None
    hexes = [h for h in spec.hexes() if h not in absent]
    labels = [spec.label_of(h) for h in hexes]
    at = {h: i for i, h in enumerate(hexes)}
    neighbours = [tuple(at[n] for n in h.neighbours() if n in at) for h in hexes]
    columns = _blank(len(hexes), data.get("default_terrain", "clear"))
    index = {label: i for i, label in enumerate(labels)}

    def locate(label: str, pointer: str) -> int:
        try:
            return index[label] if label in index else index[spec.label_of(spec.parse(label))]
        except (KeyError, ValueError):
            raise document.error(pointer, f"hex {label!r} is not on this map") from None

    for name, layer in data.get("layers", {}).items():
        rows, legend = layer["rows"], layer["legend"]
        pointer = f"/layers/{name}"
        if len(rows) != spec.rows:
            raise document.error(f"{pointer}/rows", f"layer has {len(rows)} rows, the grid has {spec.rows}")
        target = {"terrain": "terrain", "country": "country", "population": "population"}.get(name)
        for r, text in enumerate(rows):
            if len(text) != spec.columns:
                raise document.error(
                    f"{pointer}/rows/{r}", f"row has {len(text)} characters, the grid has {spec.columns} columns"
                )
            for c, char in enumerate(text):
                if char not in legend:
                    raise document.error(f"{pointer}/rows/{r}", f"character {char!r} (column {c + 1}) is not in the legend")
                value = legend[char]
                i = at.get(spec.to_hex(spec.first_column + c, spec.first_row + r))
                if value is None or i is None:  # nothing to set, or a position the map leaves out
                    continue
                if target is not None:
                    columns[target][i] = value
                else:
                    columns["features"][i] = columns["features"][i] | {value}

    _apply_locations(document, data.get("hexes", {}), "/hexes", locate, columns)
    fields = _routes(document, data, locate)
    return HexMap(
        spec,
        hexes,
        id=data["id"],
        kind="hex",
        labels=labels,
        neighbours=neighbours,
        illustrative=data.get("illustrative", False),
        note=data.get("note", ""),
        **columns,
        **fields,
    )


def _load_point_map(document: JsonDocument) -> PointMap:
    data = document.data
    spaces = data["spaces"]
    labels = list(spaces)
    index = {label: i for i, label in enumerate(labels)}
    columns = _blank(len(labels), data.get("default_terrain", "clear"))

    def locate(label: str, pointer: str) -> int:
        if label not in index:
            raise document.error(pointer, f"space {label!r} is not on this map")
        return index[label]

    _apply_locations(document, spaces, "/spaces", locate, columns)
    adjacency: list[set[int]] = [set() for _ in labels]
    restricted: dict[Edge, frozenset[str]] = {}
    side_features: dict[Edge, frozenset[str]] = {}
    for n, connection in enumerate(data.get("connections", [])):
        a, b = (locate(label, f"/connections/{n}/between/{k}") for k, label in enumerate(connection["between"]))
        adjacency[a].add(b)
        adjacency[b].add(a)
        if "nationalities" in connection:
            restricted[edge(a, b)] = frozenset(connection["nationalities"])
        if "features" in connection:
            side_features[edge(a, b)] = frozenset(connection["features"])
    positions = [tuple(spaces[label]["xy"]) if "xy" in spaces[label] else None for label in labels]
    fields = _routes(document, data, locate)
    fields["restricted"] = restricted
    fields["side_features"] = side_features | fields["side_features"]
    return PointMap(
        positions,  # type: ignore[arg-type]
        id=data["id"],
        kind="points",
        labels=labels,
        neighbours=[tuple(sorted(a)) for a in adjacency],
        illustrative=data.get("illustrative", False),
        note=data.get("note", ""),
        **columns,
        **fields,
    )


def _apply_locations(document: JsonDocument, entries: dict, base: str, locate, columns: dict[str, list]) -> None:
    for label, entry in entries.items():
        i = locate(label, f"{base}/{_escape(label)}")
        if "terrain" in entry:
            columns["terrain"][i] = entry["terrain"]
        if "features" in entry:
            columns["features"][i] = columns["features"][i] | frozenset(entry["features"])
        for key, target in (("country", "country"), ("population", "population"), ("city", "city"), ("supply", "supply"), ("name", "names")):
            if key in entry:
                columns[target][i] = entry[key]
        columns["extra"][i] = {k: v for k, v in entry.items() if k not in _KNOWN_LOCATION_KEYS}


def _routes(document: JsonDocument, data: dict, locate) -> dict[str, Any]:
    side_features: dict[Edge, frozenset[str]] = {}
    roads: set[Edge] = set()
    rails: dict[Edge, str] = {}

    def pairs(labels: Iterable[str], pointer: str) -> list[Edge]:
        indices = [locate(label, f"{pointer}/{k}") for k, label in enumerate(labels)]
        return [edge(a, b) for a, b in zip(indices, indices[1:])]

    for n, side in enumerate(data.get("hexsides", [])):
        a, b = (locate(label, f"/hexsides/{n}/hexes/{k}") for k, label in enumerate(side["hexes"]))
        side_features[edge(a, b)] = side_features.get(edge(a, b), frozenset()) | frozenset(side["features"])
    for n, road in enumerate(data.get("roads", [])):
        roads.update(pairs(road["hexes"], f"/roads/{n}/hexes"))
    for n, rail in enumerate(data.get("rails", [])):
        for pair in pairs(rail["hexes"], f"/rails/{n}/hexes"):
            # Where lines overlap, the better track wins.
            if rails.get(pair) != "double":
                rails[pair] = rail["track"]
    return {"side_features": side_features, "roads": roads, "rails": rails}


def _escape(label: str) -> str:
    return label.replace("~", "~0").replace("/", "~1")


def check_routes_adjacent(document: JsonDocument, game_map: GameMap) -> None:
    """Every hexside, road and rail must join adjacent locations; says where one does not."""
    data = document.data
    for n, side in enumerate(data.get("hexsides", [])):
        a, b = (game_map.index(label) for label in side["hexes"])
        if not game_map.is_adjacent(a, b):
            raise document.error(f"/hexsides/{n}/hexes", f"{side['hexes'][0]} and {side['hexes'][1]} are not adjacent")
    for key in ("roads", "rails"):
        for n, route in enumerate(data.get(key, [])):
            labels = route["hexes"]
            for k, (x, y) in enumerate(zip(labels, labels[1:])):
                if not game_map.is_adjacent(game_map.index(x), game_map.index(y)):
                    raise document.error(f"/{key}/{n}/hexes/{k + 1}", f"{x} and {y} are not adjacent")
