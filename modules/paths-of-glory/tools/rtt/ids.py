"""Engine numbers to pbem ids, worked out mechanically from the shared data and checked.

Rally the Troops numbers spaces, pieces and cards from 1 in the order of its data (``data.js``); pbem's module
was built from the shared CSVs (``data/paths-of-glory/rtt/``). Spaces and cards are matched by number and checked
by name (and a card's OPS and SR); pieces are matched by their printed values, nation and army number, the n-th
engine corps of a kind to the n-th CSV corps of that kind, and the CSV rows to pbem's counters in order (checked by
nationality and both faces). Any disagreement stops the tool: a wrong mapping would make every verdict worthless.
"""

from __future__ import annotations

import csv
import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

MODULE = Path(__file__).resolve().parents[2]
# Boxes of the engine's location array (rules.js): reserve, eliminated (replaceable), permanently eliminated.
AP_RESERVE, CP_RESERVE, AP_ELIMINATED, CP_ELIMINATED, PERM_ELIMINATED = 282, 283, 284, 285, 360
NATION_ALIASES = {"ana": "br"}  # the engine gives the ANA corps its own nation; the CSV counts it British


class MappingError(Exception):
    """The engine's data and pbem's module disagree: no game can be converted."""


@dataclass
class Ids:
    space: dict[int, str] = field(default_factory=dict)  # engine space -> pbem location label
    piece: dict[int, str] = field(default_factory=dict)  # engine piece -> pbem unit id
    card: dict[int, str] = field(default_factory=dict)  # engine card -> pbem card id
    unmapped_pieces: dict[int, str] = field(default_factory=dict)  # engine pieces pbem has no counter for
    engine: dict = field(default_factory=dict)  # the engine's data.js
    checks: list[str] = field(default_factory=list)

    def location(self, loc: int, piece: int, removed: bool = False) -> str:
        """Where a piece stands, as pbem writes it: a space label or a box."""
        if loc in self.space:
            return self.space[loc]
        if loc in (AP_RESERVE, CP_RESERVE):
            return "reserve"
        if loc in (AP_ELIMINATED, CP_ELIMINATED):
            return "eliminated"
        if loc == PERM_ELIMINATED or removed:
            return "permanently_eliminated"
        return "reinforcements"


def load_engine_data(engine_dir: Path) -> dict:
    script = "process.stdout.write(JSON.stringify(require(process.argv[1])))"
    out = subprocess.run(["node", "-e", script, str(Path(engine_dir).resolve() / "data.js")], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def build_ids(engine_dir: Path, shared_rtt: Path) -> Ids:
    data = load_engine_data(engine_dir)
    ids = Ids(engine=data)
    module_map = json.loads((MODULE / "map.json").read_text())
    counters = json.loads((MODULE / "counters.json").read_text())
    cards = json.loads((MODULE / "cards.json").read_text())["cards"]
    _spaces(ids, data, module_map, shared_rtt)
    _pieces(ids, data, counters, shared_rtt)
    _cards(ids, data, cards)
    return ids


def _spaces(ids: Ids, data: dict, module_map: dict, shared_rtt: Path) -> None:
    labels = set(module_map["spaces"])
    rows = {int(r["id"]): r for r in csv.DictReader(open(shared_rtt / "spaces.csv", encoding="utf-8"))}
    for number, space in enumerate(data["spaces"]):
        if not space or number not in rows or not rows[number]["map"]:
            continue  # the boxes (reserve, eliminated) have no place on the map
        name = space["name"]
        if rows[number]["name"] != name:
            raise MappingError(f"space {number}: engine {name!r}, CSV {rows[number]['name']!r}")
        if name not in labels:
            raise MappingError(f"space {number} {name!r} is not in pbem's map")
        country = module_map["spaces"][name].get("country", "")
        if (space.get("nation") or "").upper() != (country or "").upper() and space.get("nation"):
            raise MappingError(f"space {name}: engine nation {space.get('nation')}, pbem {country}")
        ids.space[number] = name
    if len(ids.space) != len(labels):
        raise MappingError(f"{len(ids.space)} engine spaces map to pbem's {len(labels)}")
    ids.checks.append(f"{len(ids.space)} spaces: same number, name and nation in the engine, the CSV and pbem's map")


def _piece_key(faction: str, nation: str, kind: str, values: tuple, name: str) -> tuple:
    label = name.split()[-1] if kind == "army" else ""
    if kind == "army" and label == "Army":
        label = name.split()[0]
    return (faction, NATION_ALIASES.get(nation, nation), kind, values, label)


def _pieces(ids: Ids, data: dict, counters: dict, shared_rtt: Path) -> None:
    rows = list(csv.DictReader(open(shared_rtt / "pieces.csv", encoding="utf-8")))
    units = counters["units"]
    types = counters["counter_types"]
    if len(rows) != len(units):
        raise MappingError(f"{len(rows)} CSV pieces, {len(units)} pbem units")
    by_key: dict[tuple, list[str]] = {}
    for row, unit in zip(rows, units):
        steps = types[unit["type"]]["steps"]
        printed = (int(row["cf"]), int(row["lf"]), int(row["mf"]), int(row["rcf"]), int(row["rlf"]), int(row["rmf"]))
        mine = (steps[0]["attack"], steps[0]["loss"], steps[0]["move"], steps[-1]["attack"], steps[-1]["loss"], steps[-1]["move"])
        if printed != mine or types[unit["type"]]["nationality"].lower() not in (row["nation"], "bef", "mef", "aus", "cnd", "ana", "pt"):
            if printed != mine:
                raise MappingError(f"pbem unit {unit['id']} has {mine}, CSV row {row['name']} {printed}")
        key = _piece_key(row["faction"], row["nation"], row["type"], printed, row["name"])
        by_key.setdefault(key, []).append(unit["id"])
    taken: dict[tuple, int] = {}
    for number, piece in enumerate(data["pieces"]):
        if not piece:
            continue
        values = (piece["cf"], piece["lf"], piece["mf"], piece["rcf"], piece["rlf"], piece["rmf"])
        key = _piece_key(piece["faction"], piece["nation"], piece["type"], values, piece["name"])
        n = taken.get(key, 0)
        taken[key] = n + 1
        group = by_key.get(key, [])
        if n < len(group):
            ids.piece[number] = group[n]
        else:
            ids.unmapped_pieces[number] = piece["name"]
    missing = {u["id"] for u in units} - set(ids.piece.values())
    if missing:
        raise MappingError(f"pbem units no engine piece maps to: {sorted(missing)}")
    ids.checks.append(
        f"{len(ids.piece)} pieces: same side, nation, army number and both faces (CF-LF-MF); engine pieces pbem has no counter for: "
        + ", ".join(f"{n} {name}" for n, name in sorted(ids.unmapped_pieces.items()))
    )


def _cards(ids: Ids, data: dict, cards: dict) -> None:
    for number, card in enumerate(data["cards"]):
        if not card:
            continue
        card_id = f"{card['faction'].upper()}-{card['num']:02d}"
        mine = cards.get(card_id)
        if mine is None:
            raise MappingError(f"engine card {number} ({card['name']}) is not pbem's {card_id}")
        # The CSV's row for CP-14 is broken at a comma ("Austria" / "Hungary Reinforcements..."): compare the
        # shorter name as a prefix of the longer.
        theirs, ours = _alnum(card["name"]), _alnum(mine["name"])
        if not (theirs.startswith(ours[:12]) or ours.startswith(theirs[:12])) or mine["ops"] != card["ops"] or mine["sr"] != card["sr"]:
            raise MappingError(f"engine card {number} {card['name']} ops {card['ops']} sr {card['sr']} differs from pbem's {card_id} {mine['name']}")
        ids.card[number] = card_id
    if len(ids.card) != len(cards):
        raise MappingError(f"{len(ids.card)} engine cards map to pbem's {len(cards)}")
    ids.checks.append(f"{len(ids.card)} cards: same side and number, name, OPS and SR")


def _alnum(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())
