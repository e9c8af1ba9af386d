"""Units coming back: the dead pool and its rebuilt companies (LS-6, RE-7), the 354th Artillery's return from the
turn track (RA-8) and the Finnish Prov/TF-P company (RE-6).

What the state keeps:
- the box ``dead_pool`` holds the infantry companies eliminated while they could trace supply (LS-6); every
  other eliminated unit stays in ``eliminated`` (permanently). The kernel puts every eliminated unit in
  ``eliminated``; the module moves the eligible companies on, right after the action that eliminated them,
  with their supply traced *before* it (where they stood when they were destroyed). Units keep their ids.
- ``status.turn_track`` maps a unit on the turn track to ``{"turn": T}`` (available from turn T) and, for a
  rebuilt company, ``"step"`` (the face it returns on: the kernel's ``reinforce`` puts units in at full
  strength, so the module restores the face afterwards).
- ``status.prov_trigger``: the turn on which a Soviet unit was first seen in a trigger column (RE-6).

Turn-file expressions:
- ``{"special": "rebuild", "units": [COMPANY], "at": HEX, "result": "reduced" | "full"}`` in the owner's Reset
  Phase: 2 RP (reduced) or 3 RP (full) bring a dead-pool company back at the friendly supply source or within 10
  hexes of it and 4+ hexes from every enemy unit; without ``at`` it goes on the turn track and may enter as a
  reinforcement (at the supply source, RE-1) from the next turn on.
- ``{"roll": {"purpose": "return_354", "dice": "1d6", "value": n, "result": "turn T"}}`` right after a 354th
  battery's ranged attack (before the phase ends): the battery goes on the turn track, back off-map on turn
  (this turn + n). ``result`` is optional; when given it must name that turn.
- Prov/TF-P enters with a plain ``{"reinforce": "FIN-PROV-TFP", "at": HEX}``.
"""

from __future__ import annotations

import dataclasses
import re

from pbem.model.actions import Action, Fire, Reinforce, Roll, Special
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext

from .base import ACTION, FINNISH, RESET, SOVIET, SUPPLY_SOURCE, illegal, mismatch

DEAD_POOL, ELIMINATED, TURN_TRACK, OFF_MAP = "dead_pool", "eliminated", "turn_track", "off_map"
ELIMINATING = ("attack", "overrun", "fire", "loss", "eliminate")
PROV = "FIN-PROV-TFP"
LEADER = "FIN-PAJARI"
LUTIKKAMOKKI = "E13"
REBUILD_COST = {"reduced": ("return_reduced", 1), "full": ("return_full", 0)}  # cost key, face (step)
# RE-6's trigger, "a Soviet unit has crossed into column W or I" [AMBIG in the digest]: the columns that count.
PROV_TRIGGERS = {"column_w_or_i": "WI", "west_of_column_i": "ABCDEFGHI"}


def is_354th(unit: UnitState) -> bool:
    return unit.id.endswith("-354")


class ReturnRules:
    # --- LS-6: the eligible dead pool ------------------------------------------------------------------
    def check(self, action: Action, state: State, ctx: TurnContext) -> list[Violation]:
        if action.kind in ELIMINATING:
            # Traced before the action is applied: where the company stood, in the situation it was destroyed in.
            ctx.extra["pool_candidates"] = {u.id: self.supply_line(u, state)[0] for u in self._companies_at_risk(action, state)}
        return super().check(action, state, ctx)  # type: ignore[misc]

    def after(self, action: Action, state: State, ctx: TurnContext) -> list[Violation]:
        found = super().after(action, state, ctx)  # type: ignore[misc]
        for unit_id, supplied in (ctx.extra.pop("pool_candidates", None) or {}).items():
            if supplied and state.units[unit_id].box == ELIMINATED:
                state.remove(unit_id, DEAD_POOL)
        self._note_prov_trigger(state)
        return found

    def _companies_at_risk(self, action: Action, state: State) -> list[UnitState]:
        """The infantry companies an action could eliminate."""
        ids: set[str] = set()
        if action.kind in ("attack", "overrun"):
            ids.update(action.attackers)  # type: ignore[attr-defined]
            ids.update(u.id for u in state.units_at(action.target))  # type: ignore[attr-defined]
        elif action.kind == "fire":
            ids.update(u.id for u in state.units_at(action.target))  # type: ignore[attr-defined]
        elif action.kind == "loss":
            ids.add(action.unit)  # type: ignore[attr-defined]
        else:
            ids.update(action.units)  # type: ignore[attr-defined]
        return [state.units[u] for u in sorted(ids) if state.units[u].on_map and self.is_company(state.units[u])]

    # --- RE-7: rebuilding a dead-pool company --------------------------------------------------------------
    def check_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if action.order == "rebuild":
            return self._check_rebuild(action, state, ctx)
        return super().check_special(action, state, ctx)  # type: ignore[misc]

    def _check_rebuild(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if ctx.phase != RESET:
            return [illegal("RE-7", f"Replacement Points are spent in the owner's Reset Phase, not the {ctx.phase or 'no'} phase", action)]
        if len(action.units) != 1:
            return [illegal("RE-7", "one company per rebuild order", action)]
        unit, name = state.units[action.units[0]], self.name(action.units[0])
        if unit.side != ctx.active_side:
            return [illegal("SEQ-1", f"{name} is not a unit of the phasing player", action)]
        if not self.is_company(unit):
            return [illegal("RE-7", f"{name} is not an infantry company: only infantry companies return from the dead pool", action)]
        if unit.box != DEAD_POOL:
            why = "it is not eliminated" if unit.on_map or unit.box != ELIMINATED else "it was out of supply when it was eliminated, so it never returns"
            return [illegal("RE-7", f"{name} is not in the eligible dead pool: {why}", action)]
        face = (action.result or "").strip().lower()
        if face not in REBUILD_COST:
            return [illegal("RE-7", f"a rebuilt company returns 'reduced' (2 RP) or 'full' (3 RP), not {action.result or 'nothing'!r}", action)]
        cost = self.module.tables["replacement_costs"][REBUILD_COST[face][0]]
        points = self.turns.get(state.turn, {}).get("replacement_points", {}).get(unit.side, 0)
        if ctx.extra["rp_spent"] + cost > points:
            return [illegal("RE-7", f"returning {name} {face} costs {cost} RP; the {unit.side} player has {points - ctx.extra['rp_spent']} left on turn {state.turn}", action)]
        ctx.extra["rp_spent"] += cost
        if action.at is None:
            return []  # onto the turn track, entering as a reinforcement later
        source = self.map.index(SUPPLY_SOURCE[unit.side])
        where = self.where(action.at)
        if state.side_at(action.at) not in (None, unit.side):
            return [illegal("RE-7", f"{where} is held by the enemy", action)]
        if action.at != source:
            distance = self.map.distance(action.at, source)
            if distance > 10:
                return [illegal("RE-7", f"{where} is {distance} hexes from the supply source {SUPPLY_SOURCE[unit.side]}: a rebuilt company is placed there or within 10 hexes of it", action)]
            near = self.enemy_distance(state, action.at, unit.side)
            if near < 4:
                return [illegal("RE-7", f"{where} is {near} hexes from an enemy unit: away from the supply source a rebuilt company is placed 4 or more hexes from every enemy unit", action)]
        return []

    def _after_rebuild(self, action: Special, state: State, ctx: TurnContext) -> None:
        if not action.units:  # refused by the check; nothing to carry out
            return
        unit = state.units[action.units[0]]
        face = (action.result or "").strip().lower()
        if unit.box != DEAD_POOL or face not in REBUILD_COST:
            return
        unit.step = REBUILD_COST[face][1]
        if action.at is None:
            state.remove(unit.id, TURN_TRACK)
            state.status.setdefault("turn_track", {})[unit.id] = {"turn": state.turn + 1, "step": unit.step}
        else:
            state.place(unit.id, action.at)
            ctx.touched.add(action.at)
            ctx.last_entry[action.at] = action

    def after_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        if action.order == "rebuild":
            self._after_rebuild(action, state, ctx)
            return []
        return super().after_special(action, state, ctx)  # type: ignore[misc]

    # --- RA-8: the 354th's return roll, and units coming off the turn track ----------------------------------
    def begin(self, state: State, turn) -> TurnContext:
        ctx = super().begin(state, turn)  # type: ignore[misc]
        track = state.status.get("turn_track") or {}
        for unit_id, entry in sorted(track.items()):
            unit = state.units.get(unit_id)
            if unit is None or unit.box != TURN_TRACK:
                del track[unit_id]  # gone from the track another way (the X28 event, say)
            elif unit is not None and unit.box == TURN_TRACK and self.attrs(unit).get("off_map") and entry.get("turn", 0) <= state.turn:
                state.remove(unit_id, OFF_MAP)  # back from the turn track, face up and ready to fire
                unit.markers.discard("fired")
                del track[unit_id]
        if "turn_track" in state.status and not track:
            del state.status["turn_track"]
        self._note_prov_trigger(state)
        return ctx

    def check_fire(self, action: Fire, state: State, ctx: TurnContext) -> list[Violation]:
        entry = (state.status.get("turn_track") or {}).get(action.units[0]) if action.units else None
        if entry is not None and state.units[action.units[0]].box == TURN_TRACK and "anti_tank" not in action.declared:
            return [illegal("RA-8", f"{self.name(action.units[0])} is on the turn track until turn {entry['turn']} (its return roll) and cannot fire", action)]
        return super().check_fire(action, state, ctx)  # type: ignore[misc]

    def after_fire(self, action: Fire, state: State, ctx: TurnContext) -> list[Violation]:
        found = super().after_fire(action, state, ctx)  # type: ignore[misc]
        unit = state.units[action.units[0]] if action.units else None
        if unit is not None and "anti_tank" not in action.declared and is_354th(unit) and unit.box == OFF_MAP:
            ctx.extra.setdefault("return_354", {})[unit.id] = action
        return found

    def check_roll(self, action: Roll, state: State, ctx: TurnContext) -> list[Violation]:
        if action.purpose != "return_354":
            return super().check_roll(action, state, ctx)  # type: ignore[misc]
        waiting = ctx.extra.get("return_354") or {}
        if not waiting:
            return [illegal("RA-8", "no 354th battery has fired this phase: there is no return roll to make", action)]
        if action.dice != "1d6" or len(action.values) != 1 or not 1 <= action.values[0] <= 6:
            return [mismatch("RA-8", f"the 354th's return roll is one 1d6, not {action.dice} {list(action.values)}", action)]
        unit_id = next(iter(waiting))
        due = state.turn + action.values[0]
        ctx.outcome(action, f"{self.name(unit_id)} returns on turn {due}", result=f"turn {due}", rule="RA-8")
        claimed = re.search(r"\d+", action.result or "")
        if action.result is not None and (claimed is None or int(claimed.group()) != due):
            return [mismatch("RA-8", f"{self.name(unit_id)} fired on turn {state.turn} and rolled {action.values[0]}: it returns on turn {due}, not {action.result!r}", action)]
        return []

    def after_roll(self, action: Roll, state: State, ctx: TurnContext) -> list[Violation]:
        waiting = ctx.extra.get("return_354") or {}
        if action.purpose == "return_354" and waiting and len(action.values) == 1:
            unit_id = next(iter(waiting))
            del waiting[unit_id]
            state.remove(unit_id, TURN_TRACK)
            state.status.setdefault("turn_track", {})[unit_id] = {"turn": state.turn + action.values[0]}
        return []

    def _end_of_phase(self, state: State, ctx: TurnContext) -> list[Violation]:
        found = super()._end_of_phase(state, ctx)  # type: ignore[misc]
        for unit_id, fired in (ctx.extra.pop("return_354", None) or {}).items():
            found.append(illegal("RA-8", f"{self.name(unit_id)} fired: roll 1d6 for its return (a 'return_354' roll) and put it on the turn track", fired))
        return found

    # --- reinforcements from the turn track, and Prov/TF-P (RE-6) ----------------------------------------
    def check_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        if PROV in action.units:
            found = self._check_prov(action, state, ctx)
            others = [u for u in action.units if u != PROV]
            return found + (super().check_reinforce(dataclasses.replace(action, units=tuple(others)), state, ctx) if others else [])  # type: ignore[misc]
        track = state.status.get("turn_track") or {}
        for unit_id in action.units:
            entry = track.get(unit_id)
            if entry is not None and state.turn < entry.get("turn", 0):
                return [illegal("RE-1", f"{self.name(unit_id)} is on the turn track until turn {entry['turn']}", action)]
        return super().check_reinforce(action, state, ctx)  # type: ignore[misc]

    def after_reinforce(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        found = super().after_reinforce(action, state, ctx)  # type: ignore[misc]
        track = state.status.get("turn_track") or {}
        for unit_id in action.units:
            entry = track.pop(unit_id, None)
            if entry is not None and state.units[unit_id].on_map:
                state.units[unit_id].step = entry.get("step", 0)  # a company rebuilt reduced enters reduced
        if "turn_track" in state.status and not track:
            del state.status["turn_track"]
        return found

    def prov_trigger(self) -> str | None:
        """The module option for RE-6's trigger columns, or None when the trigger is not checked."""
        choice = self.options.get("prov_trigger", "column_w_or_i")
        return PROV_TRIGGERS.get(choice)

    def _note_prov_trigger(self, state: State) -> None:
        columns = self.prov_trigger()
        if columns is None or "prov_trigger" in state.status:
            return
        for unit in state.units.values():
            if unit.on_map and unit.side == SOVIET and self.where(unit.at).rstrip("0123456789") in columns:
                state.status["prov_trigger"] = state.turn
                return

    def _check_prov(self, action: Reinforce, state: State, ctx: TurnContext) -> list[Violation]:
        """RE-6: from 9 Dec, once a Soviet unit has crossed into the trigger column(s), with the leader within 4
        hexes of Lutikkamökki: in the leader's hex or next to it, leader and company in supply, not in an enemy
        ZOC. Declared in the Finnish Action Phase (it enters like a reinforcement)."""
        unit, name = state.units[PROV], self.name(PROV)
        if ctx.phase != ACTION or ctx.active_side != FINNISH:
            return [illegal("RE-6", f"{name} enters in the Finnish Action Phase, not the {ctx.active_side} {ctx.phase or 'no'} phase", action)]
        if unit.on_map:
            return [illegal("RE-6", f"{name} is already on the map", action)]
        first = min((t for t, e in self.turns.items() if e.get("date") == "9 Dec"), default=6)
        if state.turn < first:
            return [illegal("RE-6", f"{name} may be declared from 9 December (turn {first}) on, not turn {state.turn}", action)]
        columns = self.prov_trigger()
        if columns is not None and "prov_trigger" not in state.status:
            which = " or ".join(columns) if len(columns) <= 2 else f"{columns[0]}-{columns[-1]}"
            return [illegal("RE-6", f"no Soviet unit has crossed into column {which} yet (module option prov_trigger: {self.options.get('prov_trigger', 'column_w_or_i')})", action)]
        leader = state.units.get(LEADER)
        if leader is None or not leader.on_map:
            return [illegal("RE-6", f"{name} is placed with the leader, who is not on the map", action)]
        lutikka = self.map.index(LUTIKKAMOKKI)
        distance = self.map.distance(leader.at, lutikka)
        if distance > 4:
            return [illegal("RE-6", f"{self.name(LEADER)} in {self.where(leader.at)} is {distance} hexes from Lutikkamökki ({LUTIKKAMOKKI}): {name} may enter only with the leader within 4", action)]
        if action.at != leader.at and not self.map.is_adjacent(action.at, leader.at):
            return [illegal("RE-6", f"{name} is placed in the leader's hex ({self.where(leader.at)}) or next to it, not {self.where(action.at)}", action)]
        if state.side_at(action.at) not in (None, FINNISH):
            return [illegal("RE-6", f"{self.where(action.at)} is held by the enemy", action)]
        placed = dataclasses.replace(unit, at=action.at, markers=set())
        for who in (leader, placed):
            label = self.name(who.id)
            if self.in_ezoc(state, who.at, who):
                return [illegal("RE-6", f"{label} would be in an enemy ZOC in {self.where(who.at)}", action)]
            supplied, why = self.supply_line(who, state)
            if not supplied:
                return [illegal("RE-6", f"{label} is out of supply in {self.where(who.at)}: {why}", action)]
        return []
