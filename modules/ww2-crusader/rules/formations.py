"""WWII Campaign / Crusader: infantry dig-ins and armour battle formations with their facings (W-Dig/1-3, 步兵掘壕;
W-Form/1-3, 装甲单位战斗队形) and their column shifts (W-Mod/6-7).

Declared in the turn-start phase: ``{"special": "dig_in", "units": [one or two infantry], "at": hex}`` and
``{"special": "formation", "units": [a large armoured unit, optionally a small heavy one], "at": hex}``, where ``at``
is the adjacent hex the front (the centre of the front faces) points to; the unit's ``facing`` is kept in the
state (``pbem/model``), its kind as a marker (``dug_in``, ``panzerkeil``, ``royal_tank_corps``). A formation that
moved may turn: ``{"special": "face", "units": [...], "at": hex}`` in its move segment. Which formation a unit may
form is its counter's ``formation`` attribute (Panzerkeil: German only; Royal Tank Corps: British large armour).
"""

from __future__ import annotations

from pbem.model.actions import Special
from pbem.model.state import State, UnitState
from pbem.model.violation import Violation
from pbem.rules.ruleset import TurnContext, illegal

from .base import CrusaderBase, MOVE_SEGMENTS, NONE

DUG_IN = "dug_in"
FORMATIONS = ("panzerkeil", "royal_tank_corps")
NO_FORMATION = {"town", "beach"}
# The faces, as hexsides counted from the facing (0 = the centre of the front): front, flank, the rest rear.
FACES = {
    DUG_IN: ({-1, 0, 1}, set()),                 # 3 front, 3 rear (W-Dig/2)
    "panzerkeil": ({-1, 0, 1}, {-2, 2}),          # 3 front, 2 flank, 1 rear (W-Form/2)
    "royal_tank_corps": ({0}, {-1, 1, -2, 2}),    # 1 front, 4 flank, 1 rear (W-Form/2)
}


class FormationRules(CrusaderBase):
    """check_dig_in / check_formation / check_face, the facing shifts, and what ends them."""

    def kind(self, unit: UnitState) -> str | None:
        return next((k for k in (DUG_IN,) + FORMATIONS if k in unit.markers), None)

    def face_of(self, unit: UnitState, towards: int) -> str | None:
        """front, flank or rear: the face of ``unit`` (dug in or in formation) that ``towards`` lies across."""
        kind = self.kind(unit)
        direction = self.module.map.direction(unit.at, towards) if hasattr(self.module.map, "direction") and unit.on_map else None
        if kind is None or unit.facing is None or direction is None:
            return None
        offset = (direction - unit.facing + 3) % 6 - 3  # -3..2
        front, flank = FACES[kind]
        return "front" if offset in front else "flank" if offset in flank else "rear"

    def spearhead(self, unit: UnitState, towards: int) -> bool:
        """W-Form/3 只能朝“矛头”方向进攻: the front faces (default), or with option spearhead: centre (C40 reading 2) only
        the middle front face."""
        if self.face_of(unit, towards) != "front":
            return False
        if self.module.options.get("spearhead", "front") != "centre":
            return True
        return self.module.map.direction(unit.at, towards) == unit.facing

    def _front_hex(self, action: Special, units: list[UnitState]) -> int | None:
        if action.at is None or not units:
            return None
        return self.module.map.direction(units[0].at, action.at)

    def check_dig_in(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        units = [state.units[u] for u in action.units if u in state.units]
        if ctx.phase != "turn_start":
            return [illegal("W-Dig/1", f"dig-ins are declared in the turn-start phase, not in {ctx.phase or 'no segment'}", action)]
        if not units or len(units) != len(action.units) or len(units) > 2 or len({u.at for u in units}) != 1 or not units[0].on_map:
            return [illegal("W-Dig/1", "a dig-in is one infantry unit, or two in one hex, on the map", action)]
        if self._front_hex(action, units) is None:
            return [illegal("W-Dig/2", "a dig-in names the adjacent hex its front faces (at)", action)]
        for unit in units:
            name = self.name(unit.id)
            if unit.unit.type.arm not in ("infantry", "motorized_infantry"):
                return [illegal("W-Dig/1", f"{name} is not infantry: only infantry digs in (骑兵…没有构筑防御阵地能力)", action)]
            if self.disordered(state, unit):
                return [illegal("W-Dig/1", f"{name} is disordered: only normal infantry digs in (只有未混乱的步兵可以掘壕)", action)]
        if len(units) == 1 and self.establishment(units[0]) < 3:
            return [illegal("W-Dig/1", f"{self.name(units[0].id)} is not at state ③: alone it may not dig in", action)]
        if len(units) == 2 and all(self.projects(state, u) == NONE for u in units):
            return [illegal("W-Dig/1", "two units dig in together only if at least one forms a ZOC (至少需要有一个可以形成控制区)", action)]
        return []

    def check_formation(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        units = [state.units[u] for u in action.units if u in state.units]
        if ctx.phase != "turn_start":
            return [illegal("W-Form/1", f"formations are deployed in the turn-start phase, not in {ctx.phase or 'no segment'}", action)]
        if not units or len(units) != len(action.units) or len(units) > 2 or len({u.at for u in units}) != 1 or not units[0].on_map:
            return [illegal("W-Form/1", "a formation is one large armoured unit, with at most one small heavy unit, in one hex", action)]
        if self._front_hex(action, units) is None:
            return [illegal("W-Form/2", "a formation names the adjacent hex its front faces (at)", action)]
        large = [u for u in units if not u.unit.type.attributes.get("small")]
        if len(large) != 1 or any(u is not large[0] and not u.unit.type.attributes.get("heavy") for u in units):
            return [illegal("W-Form/1", "a formation is one large armoured unit, paired at most with one small heavy unit (重型装甲营/旅)", action)]
        lead = large[0]
        name = self.name(lead.id)
        if lead.unit.type.attributes.get("formation") not in FORMATIONS:
            return [illegal("W-Form/1", f"{name} has no battle formation on its card (Panzerkeil: German only)", action)]
        # 那些单位一般是编制等级为③的装甲大单位 says which units *generally* have the ability (the card says it), not a
        # state they must be in (C80); option formation_state: "3" for the strict reading.
        if self.module.options.get("formation_state", "any") == "3" and self.establishment(lead) < 3:
            return [illegal("W-Form/1", f"{name} is not at state ③ (option formation_state: 3)", action)]
        if self.main_terrain(lead.at) in NO_FORMATION:
            return [illegal("W-Form/1", f"no formation in a {self.main_terrain(lead.at)} hex (在此类单元格中不得展开装甲战斗队形)", action)]
        if any(self.disordered(state, u) for u in units):
            return [illegal("W-Form/1", "disordered units may neither form nor join a formation", action)]
        return []

    def check_face(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        units = [state.units[u] for u in action.units if u in state.units]
        if not units or any(self.kind(u) not in FORMATIONS for u in units):
            return [illegal("W-Form/3", "only a formation turns during movement; a dig-in turns at turn start", action)]
        if ctx.phase not in MOVE_SEGMENTS or any(u.id not in ctx.moved for u in units):
            return [illegal("W-Form/3", "a formation turns only as it moves (每移动一格), in its move segment", action)]
        if self._front_hex(action, units) is None:
            return [illegal("W-Form/2", "a turn names the adjacent hex the front faces (at)", action)]
        return []

    def after_special(self, action: Special, state: State, ctx: TurnContext) -> list[Violation]:
        parent = getattr(super(), "after_special", None)
        found = parent(action, state, ctx) if parent is not None else []
        if action.order not in ("dig_in", "formation", "face"):
            return found
        units = [state.units[u] for u in action.units if u in state.units and state.units[u].on_map]
        facing = self._front_hex(action, units)
        if facing is None:
            return found
        for unit in units:
            if action.order == "dig_in":
                unit.markers.add(DUG_IN)
            elif action.order == "formation":
                unit.markers.add(unit.unit.type.attributes.get("formation") if unit.unit.type.attributes.get("formation") in FORMATIONS else "panzerkeil")
            unit.facing = facing
        return found

    def end_formations(self, state: State, units) -> None:
        """W-Dig/3, W-Form/1: a dig-in ends when the unit moves or attacks; both end when it is disordered; a
        formation dissolves in a town or beach."""
        for unit in units:
            for marker in (DUG_IN,) + FORMATIONS:
                unit.markers.discard(marker)
            unit.facing = None

    def facing_shift(self, attackers: list[UnitState], defenders: list[UnitState]) -> int | None:
        """W-Mod/6-7, + toward the attacker. A dug-in or formed defender: front −1, flank 0, rear +1; attacked from
        several directions, the direction most favourable to the attacker. An attacking formation fights through its
        front (W-Form/3) and gets +1 there: 当战斗发生在正面范围时 ... 朝对展开队形的一方有利 names the battle, not the
        attacked side (the flank and rear clauses say 被攻击时), and 己方单位在…战斗队形的正面战斗时会有增益; option
        ``attacking_formation: none`` for the reading that the facing shifts are defensive only (C49).
        [AMBIG] C115(e) one against many: each defending hex (position) gives the face most favourable to the attacker,
        and the hexes' shifts are added (reading 1: a front −1 and a rear +1 cancel), whichever hex the log names;
        None (not checked) when shaped defenders of one hex give different shifts (the source is silent)."""
        shift = 0
        values = {"front": -1, "flank": 0, "rear": 1}
        by_hex: dict[int, set[int]] = {}
        for unit in defenders:
            if self.kind(unit):
                by_hex.setdefault(unit.at, set()).add(max(values.get(self.face_of(unit, a.at) or "flank", 0) for a in attackers))
        if any(len(found) > 1 for found in by_hex.values()):
            return None
        shift += sum(next(iter(found)) for found in by_hex.values())
        if defenders and self.module.options.get("attacking_formation", "front_shift") == "front_shift":
            target = defenders[0].at
            if any(self.kind(a) in FORMATIONS and self.face_of(a, target) == "front" for a in attackers):
                shift += 1
        return shift
