"""Shared by the Crusader rules tests: the module's rules and tables on a tiny map of its own (the real map is
another helper's), with short builders for states, actions and replays."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

from pbem.engine.replay import replay
from pbem.model.actions import CardPlay, Combat, Move, Phase, Reinforce, Replace, Special, Turn, TurnHeader
from pbem.model.errors import Source
from pbem.model.module import load_module
from pbem.model.resources import data_dir
from pbem.model.state import State, UnitState

SOURCE = data_dir("modules") / "ww2-crusader"
SRC = Source("test.json", 1, 1)

# A 7x6 flat-top grid, CCRR labels. Plain unless named; a road 0103-0203-0303-0403-0503 (east-west, row 3)
# and a river between 0404 and 0405.
TERRAIN = {"0303": "town", "0204": "forest", "0305": "mountain", "0601": "sea", "0602": "desert"}
# and a track over the mountain 0305 to 0306 (a road: the stacking bonus), the mountain being a Halfaya Pass hex
MAP = {
    "id": "crusader-test", "kind": "hex", "default_terrain": "plain",
    "grid": {"label": "CCRR", "orientation": "flat", "shifted": "even", "first_column": 1, "columns": 7, "first_row": 1, "rows": 6},
    "hexes": {label: {"terrain": terrain} | ({"features": ["halfaya_pass"]} if label == "0305" else {}) for label, terrain in TERRAIN.items()}
    | {"0103": {"supply": "axis"}, "0706": {"supply": "allied"}},  # the sides' supply sources: the road's west end, the south-east corner
    "rails": [{"name": "railway", "track": "single", "hexes": ["0103", "0203", "0303"]}],
    "roads": [{"name": "coast road", "hexes": ["0103", "0203", "0303", "0403", "0503"]}, {"name": "pass track", "hexes": ["0305", "0306"]}],
    "hexsides": [{"hexes": ["0404", "0405"], "features": ["river"]}],
}


def _type(side: str, arm: str, mechanized: bool, rows: list[tuple[int, int, int]]) -> dict:
    return {"name": f"{side} {arm}", "side": side, "nationality": "DE" if side == "axis" else "GB", "arm": arm, "size": "XX", "quality": None, "source": "test", "retreats": True, "note": "test type",
            "mechanized": mechanized, "steps": [{"attack": a, "defence": d, "move": m} for a, d, m in rows]}


COUNTERS = {
    "counter_types": {
        "pz": _type("axis", "armour", True, [(6, 4, 6), (4, 3, 6), (2, 2, 5)]) | {"attributes": {"formation": "panzerkeil"}},
        "it_inf": _type("axis", "infantry", False, [(3, 4, 3), (2, 3, 3), (1, 2, 3)]),
        "art": _type("axis", "artillery", False, [(0, 2, 2), (0, 1, 2)]),
        "pzgr": _type("axis", "motorized_infantry", True, [(3, 3, 5), (2, 2, 5)]),
        "gb_arm": _type("allied", "armour", True, [(5, 4, 6), (4, 3, 6), (2, 2, 5)]) | {"attributes": {"formation": "royal_tank_corps"}},
        "gb_inf": _type("allied", "infantry", False, [(3, 5, 3), (2, 4, 3), (1, 3, 3)]),
        "gb_hq": _type("allied", "headquarters", False, [(0, 0, 2), (0, 0, 2)]),
    },
    "units": [{"id": f"{kind.upper().replace('_', '-')}-{n}", "type": kind} for kind in ("pz", "it_inf", "art", "pzgr", "gb_arm", "gb_inf", "gb_hq") for n in (1, 2, 3, 4, 5)],
}
VALUES = {"pz": {"stamina": 4, "extra_mp": 3, "recruit_rp": 8, "replenish_rp": 3},
          "it_inf": {"stamina": 3, "extra_mp": 1, "recruit_rp": 4, "replenish_rp": 2},
          "gb_arm": {"stamina": 4, "extra_mp": 3, "recruit_rp": 7, "replenish_rp": 3},
          "gb_inf": {"stamina": 3, "extra_mp": 1, "recruit_rp": 4, "replenish_rp": 2},
          "gb_hq": {"stamina": 2, "skills": ["War-weary"]}}


def build_module(folder: Path, tables_change=None):
    """The Crusader module's rules and tables with the tiny map and counters, in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((SOURCE / "module.json").read_text(encoding="utf-8"))
    manifest.pop("$schema", None)
    manifest.pop("scenarios", None)
    (folder / "module.json").write_text(json.dumps(manifest), encoding="utf-8")
    tables = json.loads((SOURCE / "tables.json").read_text(encoding="utf-8"))
    tables["unit_values"]["types"] = VALUES
    if tables_change:
        tables_change(tables)
    (folder / "tables.json").write_text(json.dumps(tables), encoding="utf-8")
    (folder / "map.json").write_text(json.dumps(MAP), encoding="utf-8")
    (folder / "counters.json").write_text(json.dumps(COUNTERS), encoding="utf-8")
    for name in ("status.schema.json", "group-tables.schema.json"):
        shutil.copy(SOURCE / name, folder / name)
    shutil.copytree(SOURCE / "rules", folder / "rules", ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
    return load_module(folder)


FOLDER = Path(tempfile.mkdtemp(prefix="pbem-crusader-test-"))
MODULE = build_module(FOLDER / "ww2-crusader")
H = MODULE.map.index


def state(units: dict[str, str | tuple[str, int]], *, status: dict | None = None, first: str = "axis", turn: int = 2) -> State:
    """A state with ``units`` (id -> hex, or (hex, step)); every other unit off the map."""
    result = State(MODULE, scenario=None, turn=turn, side=first, phase=None)
    result.first_side = first
    for unit_id, unit_def in MODULE.units.items():
        result.units[unit_id] = UnitState(unit=unit_def, side=unit_def.type.side, box="pool")
    for unit_id, where in units.items():
        at, step = (where, 0) if isinstance(where, str) else where
        result.units[unit_id].step = step
        result.place(unit_id, H(at))
    result.status = json.loads(json.dumps(status or {}))
    for unit_id, stamina in result.status.pop("stamina", {}).items():  # a unit's stamina is its tally
        result.units[unit_id].tallies["stamina"] = stamina
    return result


def run(side: str, actions: list, start: State, module=None) -> list[tuple[str, str]]:
    """Replay ``actions`` and return the (rule, severity) pairs of what was found."""
    for n, action in enumerate(actions):
        action.index, action.source = n, SRC
    turn = Turn("test.json", TurnHeader((module or MODULE).id, None, start.turn, side, None), actions)
    result = replay(module or MODULE, start, turn)
    return [(v.rule, v.severity) for v in result.violations]


def illegal(found) -> set[str]:
    return {rule for rule, severity in found if severity != "warning"}


def phase(name: str, side: str | None = None) -> Phase:
    return Phase(index=0, source=SRC, name=name, side=side)


def move(unit: str, *path: str, declare=()) -> Move:
    return Move(index=0, source=SRC, units=(unit,), path=tuple(H(p) for p in path), declared=frozenset(declare))


def declare(units, target: str) -> Special:
    return Special(index=0, source=SRC, order="declare", units=tuple(units), at=H(target))


def attack(attackers, target: str, roll: int, result: str | None = None, **fields) -> Combat:
    if "retreats" in fields:
        fields["retreats"] = {u: tuple(H(p) for p in path) for u, path in fields["retreats"].items()}
    if "declared" in fields:
        fields["declared"] = frozenset(fields["declared"])
    return Combat(index=0, source=SRC, attackers=tuple(attackers), target=H(target), roll=roll, result=result, **fields)


def recruit(*units: str) -> Special:
    return Special(index=0, source=SRC, order="recruit", units=tuple(units))


def replenish(unit: str) -> Replace:
    return Replace(index=0, source=SRC, unit=unit)


def reinforce(units, at: str) -> Reinforce:
    return Reinforce(index=0, source=SRC, units=tuple(units), at=H(at))


def card(card_id: str, side: str) -> CardPlay:
    return CardPlay(index=0, source=SRC, card=card_id, use="command", side=side)
