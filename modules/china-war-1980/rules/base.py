"""Shared ground of the China War checks: the tables, and facts derived once from the map.

Every number comes from ``tables.json``; every choice the rulebook leaves open is an option in ``module.json``.
"""

from __future__ import annotations

from collections import deque

from pbem.model.state import State, UnitState
from pbem.rules.combat import CombatResultsTable
from pbem.rules.ruleset import Ruleset, TurnContext

POLITICAL, REINFORCEMENT, MOVEMENT, REACTION, COMBAT = "political", "reinforcement", "movement", "reaction", "combat"
PHASES = (POLITICAL, REINFORCEMENT, MOVEMENT, REACTION, COMBAT)
SOVIET, CHINESE = "soviet", "chinese"
MINOR_POWERS = ("North Korea", "Taiwan", "Vietnam")  # nations whose stance the political events decide (5.0)


_NO_RECORD: dict = {}  # a record never written (read only: no empty dict made per question)


class _EntryCosts(dict):
    """``costs[a][b]``: the MP cost of entering ``b`` from its neighbour ``a`` for one movement class, worked out
    for ``a`` when first asked: a turn's moves touch a few hexes, and the whole map's costs were a fifth of a
    ``pbem check``'s time."""

    def __init__(self, rules: ChinaWarBase, cls: str):
        super().__init__()
        self.rules, self.cls = rules, cls

    def __missing__(self, a: int) -> dict[int, int | None]:
        row = self[a] = {b: self.rules._entry_cost(a, b, self.cls) for b in self.rules.map.neighbours[a]}
        return row


class ChinaWarBase(Ruleset):
    """Tables and map facts every China War check uses."""

    unchecked_ok = frozenset({"comment", "eliminate"})

    def __init__(self, module):
        super().__init__(module)
        tables, options = module.tables, module.options
        self.options = options
        self.crt = CombatResultsTable.from_table(tables["crt"])
        self.scale = self.crt.scale
        self.shift_table = {entry["id"]: entry for entry in tables["column_shifts"]["entries"]}
        self.terrain_rows = tables["crt_terrain_rows"]
        self.militia = tables["militia"]
        self.political = tables["political_events"]
        stacking = tables["stacking"]
        self.unit_weight = stacking["unit_weight"]
        game_map = module.map
        self.map = game_map
        n = len(game_map)
        # A river hex: a river in it, or along one of its hexsides (read from the few river hexsides, not by
        # asking each hex about its six sides).
        self.river_hex = ["river" in features for features in game_map.features]
        for (a, b), kinds in game_map.side_features.items():
            if "river" in kinds:
                self.river_hex[a] = self.river_hex[b] = True
        self.pop = ["pop200" if p >= 200 else "pop100" if p >= 100 else None for p in game_map.population]
        limits = stacking["limits"]
        populated_wins = options.get("stacking_mixed_terrain", "populated") == "populated"
        self.stack_limit = [
            limits[self.pop[i]] if (self.pop[i] and populated_wins) else limits[game_map.terrain[i]] for i in range(n)
        ]
        self.costs = tables["movement_costs"]
        # entry[class][a] maps each neighbour b of a to the MP cost of entering b from a (None: impassable).
        self.entry = {cls: _EntryCosts(self, cls) for cls in ("mechanized", "non_mechanized")}
        self.rail_hex = [False] * n
        for a, b in game_map.rails:
            self.rail_hex[a] = self.rail_hex[b] = True
        self.trans_siberian = self._rail_line(*options.get("trans_siberian", ("2701", "4711")))
        self.home = options.get("home_country", {})
        self.militia_owners = [self.militia_owner(i) for i in range(n)]  # asked for every hex a unit enters
        self.may_bar: dict[str, list[bool]] = {}  # by side: the hexes whose entry needs asking (see ``barring``)

    def barring(self, side: str) -> list[bool]:
        """For each hex, whether its militia (of another side than ``side``), the Trans-Siberian line or a minor
        power may bar a unit of ``side`` from entering it: facts of the map and options, worked out once per side.
        A hex held by another side's units may bar it too, but that is asked of the state."""
        found = self.may_bar.get(side)
        if found is None:
            line, country = self.trans_siberian, self.map.country
            found = self.may_bar[side] = [
                owner not in (None, side) or hex_ in line or country[hex_] in MINOR_POWERS
                for hex_, owner in enumerate(self.militia_owners)
            ]
        return found

    # --- terrain ----------------------------------------------------------------------------------------
    def _entry_cost(self, a: int, b: int, cls: str) -> int | None:
        terrain = self.map.terrain[b]
        costs = self.costs
        if terrain in costs["impassable"]:
            return None
        by_road = self.map.has_road(a, b) or self.map.rail(a, b) is not None or self.pop[b] is not None
        if by_road:  # 6.34, 10.21, 10.22, 10.71
            if terrain in costs["road"].get("not_reduced", {}).get(cls, ()):
                return costs["terrain"][terrain][cls]
            return costs["road"][cls]
        return costs["terrain"][terrain][cls] + (costs["river_extra"][cls] if self.river_hex[b] else 0)

    def describe(self, a: int, b: int) -> str:
        """``2703 forest+river`` / ``2704 mountain by road``: what a step paid for."""
        parts = [self.map.terrain[b]]
        if self.pop[b]:
            parts.append(self.pop[b].replace("pop", "pop-"))
        if self.river_hex[b]:
            parts.append("river")
        road = self.map.has_road(a, b) or self.map.rail(a, b) is not None
        return f"{self.where(b)} {'+'.join(parts)}{' by road' if road else ''}"

    def _rail_line(self, start: str, end: str) -> frozenset[int]:
        """The rail hexes from ``start`` to ``end`` along the line (10.8's Trans-Siberian stretch)."""
        a, b = self.map.find(start), self.map.find(end)
        if a is None or b is None:
            return frozenset()
        came = {a: a}
        queue = deque([a])
        while queue:
            here = queue.popleft()
            for nxt in self.map.neighbours[here]:
                if nxt not in came and self.map.rail(here, nxt):
                    came[nxt] = here
                    queue.append(nxt)
        if b not in came:
            return frozenset()
        line = [b]
        while line[-1] != a:
            line.append(came[line[-1]])
        return frozenset(line)

    # --- sides and units ------------------------------------------------------------------------------
    @staticmethod
    def other(side: str) -> str:
        return CHINESE if side == SOVIET else SOVIET

    def weight(self, unit: UnitState) -> int:
        return self.unit_weight[unit.unit.type.size]

    def side_name(self, side: str) -> str:
        return side.capitalize()

    def stance(self, state: State, power: str) -> str:
        """``ambiguous``, ``neutral``, ``allied_prc`` or ``allied_ussr`` (5.0)."""
        return state.status.get("political", {}).get(power, "ambiguous")

    # --- militia and garrison -------------------------------------------------------------------------
    def militia_owner(self, location: int) -> str | None:
        country = self.map.country[location]
        if self.pop[location] is None or country not in self.militia["nationalities"]:
            return None
        return self.options.get("militia_owner", {}).get(country)

    def militia_active(self, location: int, against: str, state: State, ctx: TurnContext) -> bool:
        """10.23/10.24: an enemy populated hex with no unit of ``against`` in it and not pacified."""
        owner = self.militia_owner(location)
        if owner is None or owner == against:
            return False
        return state.side_at(location) != against and self.map.label(location) not in ctx.extra["pacified"]

    def militia_strength(self, location: int, attacker_side: str, state: State, ctx: TurnContext) -> int:
        if state.side_at(location) is not None and state.side_at(location) != self.militia_owner(location):
            return 0
        if not self.militia_active(location, attacker_side, state, ctx):
            return 0
        return self.militia[self.pop[location]]  # type: ignore[index]

    def garrison_strength(self, location: int, state: State, against: str = CHINESE) -> int:
        """10.8: each unit garrisoning the Trans-Siberian adds 1 to the defence of every railway hex, like militia."""
        if location not in self.trans_siberian or against == SOVIET or state.side_at(location) == against:
            return 0
        return sum(1 for u in state.units.values() if u.box == "garrison")

    def guard(self, location: int, against: str, state: State, ctx: TurnContext) -> str | None:
        """``"10.24"`` if active militia, ``"10.8"`` if the Trans-Siberian garrison defends ``location`` against
        ``against``'s units: such a hex is entered only by an overrun or an advance after combat (10.24)."""
        if self.militia_active(location, against, state, ctx):
            return "10.24"
        if self.garrison_strength(location, state, against):
            return "10.8"
        return None

    @staticmethod
    def back_from_garrison(unit_id: str, state: State) -> bool:
        """10.8: a unit that came back from the garrison moves no more this game-turn (it may attack)."""
        record = state.status.get("garrison_returned", _NO_RECORD)
        return record.get("turn") == state.turn and unit_id in record.get("units", ())

    def guard_name(self, location: int) -> str:
        if location in self.trans_siberian and self.militia_owner(location) is None:
            return "a garrisoned Trans-Siberian hex (the garrison defends it as militia)"
        return f"an enemy {(self.pop[location] or '').replace('pop', 'pop-')} hex with active militia"

    @staticmethod
    def airlift_rule(unit: UnitState) -> str:
        """The airlift case for a unit: 6.41 for the PLA, 6.42 for the Soviets."""
        return "6.41" if unit.unit.type.nationality == "PLA" else "6.42"

    # --- movement allowance ----------------------------------------------------------------------------
    def mpa(self, unit: UnitState) -> int:
        """The unit's movement allowance: the printed value, except Soviet airborne divisions (6.43)."""
        kind = unit.unit.type
        if kind.arm == "airborne" and kind.nationality == "USSR":
            return int(self.options.get("soviet_airborne_mpa", 2))
        return unit.face.move
