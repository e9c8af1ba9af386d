"""No Retreat!: what every check shares: the sequence of play (4.0), the game's status, units' faces.

Rule numbers are the rulebook's where the translated text gives them (4.0-7.6). Checks that rest on a
chart printed on the map name the chart: ``TEC`` (terrain effects chart) and ``CRT`` (the attacking side's
combat results table), because the rule sections behind them (8, 10) are not in the sources.
"""

from __future__ import annotations

from typing import Any

from pbem.model.actions import Phase, Special
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules.ruleset import Ruleset, TurnContext, illegal

# 4.0: the shared housekeeping (turn marker, events, victory check), then each player turn's seven phases.
HOUSEKEEPING = ("turn_marker", "event", "victory")
PHASES = ("card", "supply", "organization", "movement", "combat", "removal", "detrain")

# 4.0: on turn 12, in the victory check, the Initiative passes to the Soviet player.
INITIATIVE_CHANGES = 12
YEAR_STARTS = {1941: 1, 1942: 5, 1943: 11, 1944: 17, 1945: 23}


class NoRetreatBase(Ruleset):
    """Phases, status and unit helpers."""

    unchecked_ok = frozenset({"comment", "roll"})

    def __init__(self, module):
        super().__init__(module)
        tables = module.tables
        self.turns = {t["turn"]: t for t in tables["turn_track"]["turns"]}
        self.tec = tables["terrain_effects"]["rows"]
        self.crts = tables["crts"]
        self.cards = tables["cards"]["cards"]

    # --- status ---------------------------------------------------------------------------------------
    def weather(self, state: State) -> str:
        """The turn's weather: the state's ``status.weather`` (weather cards can change it), else the track's."""
        return state.status.get("weather") or self.turns.get(state.turn, {}).get("weather", "clear")

    def initiative(self, state: State) -> str:
        """Who holds the Initiative: ``status.initiative`` if the state says, else Axis before turn 12 (4.0)."""
        return state.status.get("initiative") or ("axis" if state.turn < INITIATIVE_CHANGES else "soviet")

    # --- units ----------------------------------------------------------------------------------------
    @staticmethod
    def face(unit: UnitState) -> dict[str, Any]:
        """The printed face the unit shows: name, arm, mechanized, strength, zoc, move."""
        return unit.unit.type.attributes["faces"][unit.step]

    @staticmethod
    def unsupplied(unit: UnitState) -> bool:
        return "unsupplied" in unit.markers or not unit.supplied

    def exerts_zoc(self, unit: UnitState) -> bool:
        """TEC: an unsupplied unit loses its ZOC; a face the counter mix marks NoZOC has none."""
        return unit.on_map and self.face(unit)["zoc"] and not self.unsupplied(unit)

    def in_enemy_zoc(self, state: State, location: int, side: str) -> bool:
        game_map = self.module.map
        for near in game_map.neighbours[location]:
            if "blocked" in game_map.hexside(location, near):
                continue  # TEC: no EZOC extends across a lake hexside
            if any(u.side != side and self.exerts_zoc(u) for u in state.units_at(near)):
                return True
        return False

    # --- sequence of play (4.0) ------------------------------------------------------------------------
    def begin(self, state: State, turn) -> TurnContext:
        """A file that goes on with the player-turn its start state stopped in (same turn, same side) goes on from the
        phase that state reached (``status.phase_reached``): that phase again, or a later one."""
        ctx = super().begin(state, turn)
        reached = state.status.get("phase_reached")
        if isinstance(reached, dict) and (reached.get("turn"), reached.get("side")) == (turn.header.turn, turn.header.side) \
                and reached.get("phase") in HOUSEKEEPING + PHASES:
            ctx.extra.update(phases=[reached["phase"]], phases_carried=True)
        return ctx

    def check_phase(self, action: Phase, state: State, ctx: TurnContext) -> list[Violation]:
        name = action.name
        order = HOUSEKEEPING + PHASES
        if name not in order:
            return [illegal("4.0", f"there is no {name!r} phase (phases: {', '.join(order)})", action)]
        found = []
        seen = ctx.extra.setdefault("phases", [])
        carried = ctx.extra.pop("phases_carried", False)
        if seen and (order.index(name) < order.index(seen[-1]) or name == seen[-1] and not carried):
            what = f"the {name} phase comes once a turn" if name == seen[-1] else f"the {name} phase comes before the {seen[-1]} phase, not after it"
            found.append(illegal("4.0", f"{what} (phases run in order: {', '.join(order)})", action))
        if name in HOUSEKEEPING and ctx.active_side != "axis":
            found.append(illegal("4.0", f"the {name} phase is part of the new-turn housekeeping before the Axis player turn", action))
        seen.append(name)
        state.status["phase_reached"] = {"turn": state.turn, "side": ctx.active_side, "phase": name}
        ctx.new_phase(name, action.side or ctx.active_side)
        ctx.extra["events_this_phase"] = 0
        for key in ("cb_results", "cb_cards", "cb_markers", "cb_due", "cb_used", "attacks_resolved", "counterattack"):
            ctx.extra.pop(key, None)  # counterblow markers and results live within one combat phase
        return found

    def check_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        known = "draw, unsupplied, resupplied, educate, garrison, counterblow"
        return [illegal("4.0", f"special order {action.order!r} is not one this module knows ({known})", action)]
