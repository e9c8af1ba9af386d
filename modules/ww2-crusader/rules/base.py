"""WWII Campaign / Crusader: what every check shares: the sequence of segments, the game's status, units'
establishment states, stamina and disorder, zones of control and stacking.

The Chinese source has no numbered sections; rules are cited by the digest's ids (``W-§1``, ``W-Stack/1`` ...),
each of which names the Chinese heading it comes from (README, "Rule ids"). A check that needs a value the
tables in force do not give says so as a warning ("not checked"), never a guess.
"""

from __future__ import annotations

from typing import Any

from pbem.model.actions import Phase
from pbem.model.errors import Source
from pbem.model.state import State, UnitState
from pbem.model.violation import ILLEGAL, Violation
from pbem.rules.ruleset import Ruleset, TurnContext, illegal, warning

from .tables import Tables, group_file

# W-§1 (游戏流程): the segments of one turn in order. The action phase's five segments repeat for the first
# and then the second player (4b, 4c); play never returns to a finished segment.
SHARED_BEFORE = ("resource", "turn_start", "reinforcement_declaration", "reinforcement_entry", "initiative")
PLAYER_SEGMENTS = ("move_1", "attack_1", "recovery", "move_2", "attack_2")
SHARED_AFTER = ("turn_end",)
MOVE_SEGMENTS = {"move_1": 1, "move_2": 2}
ATTACK_SEGMENTS = {"attack_1": 1, "attack_2": 2}

STRONG, WEAK, NONE = 2, 1, 0
SEGMENT_MEMORY = ("resolved_hexes", "one_vs_many", "last_combat", "bonus", "battle", "battle_defenders")  # cleared per segment
STAMINA = "stamina"  # the unit tally (耐力值) the state keeps
# 特定描述 (unit skills): the counters' ``skills`` names, each with the text's bracketed Chinese name as an alias
ARMOURED_DIVISION = ("Armored Div", "Armoured Division", "装甲师")
FLAK_88 = ("8.8cm Flak", "8.8cm Flak")
INFILTRATION = ("Infiltration", "穿插")
ADVANCE_IN_ENEMY_TERRITORY = ("Advance in enemy territory", "在敌境中前进")
COURAGE = ("Courage", "勇气")
GUARDS = ("Guards", "近卫")
WAR_WEARY = ("War-weary", "厌战")
DEPLOYED = "deployed"  # the marker of an artillery unit in its deployed state (展开状态)


class CrusaderBase(Ruleset):
    """Segments, status and unit helpers."""

    unchecked_ok = frozenset({"comment", "roll"})

    def __init__(self, module, tables_file=None):
        super().__init__(module)
        self.tables = Tables(module.path, module.tables, tables_file if tables_file is not None else group_file())
        self.alias: dict[str, str] = self.tables.value("terrain_alias", "map") or {}
        self.armoured_arms = frozenset(module.options.get("armoured_arms", ("armour",)))
        self.infantry_arms = frozenset(module.options.get("infantry_arms", ("infantry", "cavalry", "motorized_infantry")))

    def begin(self, state: State, turn) -> TurnContext:
        """The file plays its header's turn (the engine sets it after this), never an earlier one than its start
        state's (W-§1; a state written before pbem moved the turn on may lag behind, so a later one is not judged).
        The turn's record (``status.this_turn``) of an earlier turn is dropped from then on, and so is who played
        first: that is decided anew each turn (W-Init/1)."""
        ctx = super().begin(state, turn)
        played = turn.header.turn
        if played < state.turn:
            ctx.start_problems.append(Violation("W-§1", ILLEGAL, f"this file plays turn {played}, but the state it starts from is already turn {state.turn}: play never goes back", None, Source(turn.file, pointer="/turn")))
        record = state.status.get("this_turn")
        recorded = record.get("turn") if isinstance(record, dict) else None
        if played > state.turn or isinstance(recorded, int) and recorded < played:
            state.first_side = None  # a new turn: its first player is its own
            return ctx
        segment = record.get("segment") if recorded == played else None
        if isinstance(segment, dict):
            # the same turn goes on from the segment the last file was in: it may go on with that segment (the other
            # player's part of a shared one, or actions with no marker), never back to an earlier one
            first = state.first_side or segment.get("first")
            position = self.segment_position(segment.get("name", ""), segment.get("side"), first)
            if position is not None:
                ctx.extra.update(position=position, segment=segment.get("name"), carried=True)
                ctx.new_phase(segment["name"], segment.get("side") or turn.header.side)
                if first is not None and state.first_side is None:
                    ctx.extra["first_side"] = first  # who played first this turn, as the last file took it
                self.restore_segment_memory(record.get("open") or {}, ctx)
        return ctx

    def restore_segment_memory(self, kept: dict, ctx: TurnContext) -> None:
        """What the segment the last file stopped in had declared and resolved (``status.this_turn.open``), so the
        next file goes on with it: the defender's choice of a street fight, say, in the other player's file."""
        find = self.module.map.find
        declared = [(find(target), tuple(units)) for target, units in kept.get("declared", ()) if find(target) is not None]
        if declared:
            ctx.extra["declared"] = declared
        if kept.get("resolved"):
            ctx.extra["resolved"] = int(kept["resolved"])
        hexes = {find(label) for label in kept.get("resolved_hexes", ())} - {None}
        if hexes:
            ctx.extra["resolved_hexes"] = hexes
        many = {tuple(group): {find(t) for t in targets} - {None} for group, targets in kept.get("one_vs_many", ())}
        if many:
            ctx.extra["one_vs_many"] = many
        last = kept.get("last_combat")
        if last:  # the last file ended with a combat: "immediately after" it is this file's first action
            ctx.extra["last_combat"] = {"index": -1, "attackers": set(last.get("attackers", ())), "wiped": bool(last.get("wiped"))}
        bonus = kept.get("bonus")
        if bonus and find(bonus.get("target", "")) is not None:
            ctx.extra["bonus"] = {"target": find(bonus["target"]), "formed": set(bonus.get("formed", ()))}

    def keep_segment_memory(self, state: State, ctx: TurnContext) -> None:
        """At a file's end: the open segment's declarations and resolutions, for the file that goes on with it."""
        record = self.record(state)
        where = self.where
        kept = {
            "declared": [[where(target), list(units)] for target, units in ctx.extra.get("declared") or ()],
            "resolved": int(ctx.extra.get("resolved") or 0),
            "resolved_hexes": sorted(where(h) for h in ctx.extra.get("resolved_hexes") or ()),
            "one_vs_many": [[list(group), sorted(where(t) for t in targets)] for group, targets in (ctx.extra.get("one_vs_many") or {}).items()],
        }
        last, actions = ctx.extra.get("last_combat"), ctx.turn.actions
        if last is not None and last["index"] == (actions[-1].index if actions else -1):  # the file ended with it
            kept["last_combat"] = {"attackers": sorted(last["attackers"]), "wiped": bool(last["wiped"])}
        bonus = ctx.extra.get("bonus")
        if bonus:  # a bonus attack declared and not yet resolved
            kept["bonus"] = {"target": where(bonus["target"]), "formed": sorted(bonus["formed"])}
        kept = {key: value for key, value in kept.items() if value}
        if kept:
            record["open"] = kept
        else:
            record.pop("open", None)

    # --- not checked ----------------------------------------------------------------------------------------
    def not_checked(self, rule: str, what: str, action=None, ctx: TurnContext | None = None,
                    why: str = "no tables file in force gives it; see the module README") -> list[Violation]:
        """A warning, once per turn and kind: ``what`` needs a value no tables file in force gives."""
        if ctx is not None:
            said = ctx.extra.setdefault("not_checked", set())
            if (rule, what) in said:
                return []
            said.add((rule, what))
        return [warning(rule, f"not checked: {what} ({why})", action)]

    # --- terrain --------------------------------------------------------------------------------------------
    def main_terrain(self, location: int) -> str:
        """The hex's main terrain in the source's words (W-§5): the map's name through ``terrain_alias``."""
        name = self.module.map.terrain[location]
        return self.alias.get(name, name)

    def has_route(self, location: int) -> bool:
        """A road or railway runs through the hex (W-Stack/2)."""
        game_map = self.module.map
        return any(game_map.has_road(location, n) or game_map.rail(location, n) for n in game_map.neighbours[location])

    def route_between(self, a: int, b: int) -> bool:
        return self.module.map.has_road(a, b) or self.module.map.rail(a, b) is not None

    # --- units ----------------------------------------------------------------------------------------------
    @staticmethod
    def establishment(unit: UnitState) -> int:
        """State ① ② ③ as 1, 2, 3: the card's rows run ① first, the counter's steps full first (W-State/1)."""
        return len(unit.unit.type.steps) - unit.step

    def values(self, unit: UnitState) -> dict[str, Any]:
        """The unit card's values (stamina, extra MP, RP costs): the tables' ``unit_values`` (a group's file, by
        unit id or counter type) over the counter type's own (counters.json, supplied values marked there)."""
        types = self.tables.value("unit_values", "types") or {}
        printed = unit.unit.type.attributes
        return printed | (types.get(unit.unit.type.id) or {}) | (types.get(unit.id) or {})

    def has_skill(self, unit: UnitState, names: tuple[str, ...]) -> bool:
        """Whether the unit card names one of the skill's names (单位描述)."""
        return any(name in names for name in (self.values(unit).get("skills") or ()))

    def skill_bonus(self, side: list[UnitState], enemies: list[UnitState], defending: bool = False) -> int:
        """W-Mod/8 skills adding to a side's strength (战力: 防御时看防御力,攻击时看攻击力). [装甲师]: +1 fighting armoured
        units; [8.8cm Flak]: defending against armoured units defence +1, or, deployed (marker ``deployed``,
        展开状态), strength +1 attacking or defending against them. Each unit's bonus once (不会累积计算)."""
        if not any(self.armoured(e) for e in enemies):
            return 0
        bonus = 0
        for unit in side:
            if self.has_skill(unit, ARMOURED_DIVISION):
                bonus += 1
            elif self.has_skill(unit, FLAK_88) and (defending or DEPLOYED in unit.markers):
                bonus += 1
        return bonus

    def stamina(self, state: State, unit: UnitState) -> int | None:
        """The unit's stamina: its ``stamina`` tally in the state, else the card's full value; None when neither is
        known."""
        recorded = unit.tallies.get(STAMINA)
        return recorded if recorded is not None else self.values(unit).get(STAMINA)

    def disordered(self, state: State, unit: UnitState) -> bool:
        """W-Stam/1 (正常与混乱): disordered exactly when stamina is 0. A unit whose stamina is unknown is at its
        printed full value, which is never 0, so normal."""
        return self.stamina(state, unit) == 0

    def set_stamina(self, state: State, unit: UnitState, change: int) -> None:
        """Add ``change`` to the unit's stamina, never below 0 (W-Stam/1); nothing when it is unknown."""
        now = self.stamina(state, unit)
        if now is None:
            return
        unit.tallies[STAMINA] = max(0, now + change)

    def armoured(self, unit: UnitState) -> bool:
        printed = unit.unit.type.attributes.get("armoured")
        return printed if isinstance(printed, bool) else unit.unit.type.arm in self.armoured_arms

    def infantry(self, unit: UnitState) -> bool:
        return unit.unit.type.arm in self.infantry_arms

    # --- zones of control (W-State/2, 控制区) ---------------------------------------------------------------
    def projects(self, state: State, unit: UnitState) -> int:
        """The ZOC a unit projects: ① none, ② weak, ③ strong; a disordered unit none."""
        if not unit.on_map or self.disordered(state, unit):
            return NONE
        return {3: STRONG, 2: WEAK}.get(self.establishment(unit), NONE)

    def enemy_zoc(self, state: State, location: int, side: str) -> int:
        """The strongest ZOC the enemies of ``side`` exert in ``location``: two or more weak ZOCs make it strong."""
        weak = 0
        for near in self.module.map.neighbours[location]:
            for unit in state.units_at(near):
                if unit.side == side:
                    continue
                zoc = self.projects(state, unit)
                if zoc == STRONG:
                    return STRONG
                weak += zoc == WEAK
        return STRONG if weak >= 2 else WEAK if weak else NONE

    def enter_town(self, state: State, unit: UnitState) -> None:
        """[AMBIG] a town is held by the side that entered it last (``status.held``), by a move, an advance or a
        placement, when no enemy unit is in it (C110)."""
        if unit.on_map and self.main_terrain(unit.at) == "town" and not any(u.side != unit.side for u in state.units_at(unit.at)):
            state.status.setdefault("held", {})[self.where(unit.at)] = unit.side

    def friendly_in(self, state: State, location: int, side: str, besides: tuple[str, ...] = ()) -> bool:
        return any(u.side == side and u.id not in besides for u in state.units_at(location))

    # --- stacking (W-Stack/1-3, 堆叠(容量)) -----------------------------------------------------------------
    def stacking_limit(self, location: int) -> tuple[int, int] | None:
        terrain = self.main_terrain(location)
        limit = self.tables.value("stacking_limits", "limits", terrain)
        if limit is None:
            return None
        units, armoured = limit["units"], limit["armoured"]
        bonus = self.tables.value("stacking_limits", "road_rail_bonus") or {}
        if bonus and terrain not in bonus.get("not_in", ()) and self.has_route(location):
            units, armoured = units + bonus.get("units", 0), armoured + bonus.get("armoured", 0)
        return units, armoured

    def check_stacking(self, state: State, locations, ctx: TurnContext, action=None) -> list[Violation]:
        found: list[Violation] = []
        for location in sorted(set(locations)):
            units = state.units_at(location)
            if not units:
                continue
            limit = self.stacking_limit(location)
            if limit is None:
                found += self.not_checked("W-Stack/1", f"the stacking limit of {self.main_terrain(location)} hexes", action, ctx)
                continue
            by_side: dict[str, list[UnitState]] = {}
            for unit in units:
                by_side.setdefault(unit.side, []).append(unit)
            for side, own in by_side.items():
                armoured = sum(self.armoured(u) for u in own)
                where = f"{self.where(location)} ({self.main_terrain(location)}{', road/rail' if self.has_route(location) else ''})"
                if len(own) > limit[0]:
                    found.append(illegal("W-Stack/1", f"{len(own)} {side} units end in {where}: the limit is {limit[0]} (堆叠)", action, at=location))
                elif armoured > limit[1]:
                    found.append(illegal("W-Stack/1", f"{armoured} armoured {side} units end in {where}: the limit is {limit[1]} armoured (堆叠)", action, at=location))
        return found

    # --- the turn's record of who acted (W-Round/1-4) --------------------------------------------------------
    def record(self, state: State) -> dict[str, list[str]]:
        """This turn's per-unit record in the status: moved, attacked, first-round, second-round-only,
        used extra MP, replenished, reorganised. A record of an earlier turn is dropped."""
        record = state.status.get("this_turn")
        if not isinstance(record, dict) or record.get("turn") != state.turn:
            record = {"turn": state.turn}
            state.status["this_turn"] = record
        return record

    def mark(self, state: State, key: str, unit_id: str) -> None:
        items = self.record(state).setdefault(key, [])
        if unit_id not in items:
            items.append(unit_id)

    def marked(self, state: State, key: str, unit_id: str) -> bool:
        return unit_id in self.record(state).get(key, [])

    # --- sequence of play (W-§1, 游戏流程) ------------------------------------------------------------------
    def segment_position(self, name: str, side: str | None, first: str | None) -> int | None:
        if name in SHARED_BEFORE:
            return SHARED_BEFORE.index(name)
        if name in PLAYER_SEGMENTS:
            second = side is not None and first is not None and side != first
            return len(SHARED_BEFORE) + (len(PLAYER_SEGMENTS) if second else 0) + PLAYER_SEGMENTS.index(name)
        if name in SHARED_AFTER:
            return len(SHARED_BEFORE) + 2 * len(PLAYER_SEGMENTS) + SHARED_AFTER.index(name)
        return None

    def check_phase(self, action: Phase, state: State, ctx: TurnContext) -> list[Violation]:
        name = action.name
        # a marker with no side that names the segment the last file stopped in goes on with it (the defender's
        # reply in the attacker's segment, written "== Attack_1 ==")
        going_on = ctx.extra.get("carried") and action.side is None and name == ctx.extra.get("segment") and ctx.phase_side
        side = action.side or (ctx.phase_side if going_on else ctx.active_side)
        found = self.end_segment(state, ctx, action)
        first = state.first_side or ctx.extra.get("first_side")
        if name in PLAYER_SEGMENTS and first is None:
            first = ctx.extra["first_side"] = side
        position = self.segment_position(name, side, first)
        if position is None:
            known = ", ".join(SHARED_BEFORE + PLAYER_SEGMENTS + SHARED_AFTER)
            return found + [illegal("W-§1", f"there is no {name!r} segment (游戏流程: {known})", action)]
        last, carried = ctx.extra.get("position"), ctx.extra.pop("carried", False)
        if last is not None and (position < last or position == last and not carried):
            found.append(illegal("W-§1", f"the {name} segment{' of ' + side if name in PLAYER_SEGMENTS else ''} comes after the {ctx.extra['segment']} segment: play never returns to a finished segment (游戏必须按照流程展开,不能返回)", action))
        if carried and position == last:  # the segment the last file stopped in goes on: its combat memory with it
            self.record(state)["segment"] = {"name": name, "side": side, "first": first} if name in PLAYER_SEGMENTS and side and first else {"name": name}
            ctx.new_phase(name, side)
            ctx.extra["reopened"] = True  # what the segment does at its start was done in the last file
            last_combat = ctx.extra.get("last_combat")
            if last_combat is not None and last_combat["index"] < 0:
                last_combat["index"] = action.index  # the last file's last combat is still "immediately before"
            return found
        ctx.extra["reopened"] = False
        ctx.extra.update(position=position, segment=name, declared=[], resolved=0)
        self.record(state)["segment"] = {"name": name, "side": side, "first": first} if name in PLAYER_SEGMENTS and side and first else {"name": name}
        # a segment's combat memory ends with it (C118): what was resolved, one-vs-many groups, the last combat and a
        # bonus attack; the one-vs-many protection that outlives it is kept in the turn's record (combat.py)
        for key in SEGMENT_MEMORY:
            ctx.extra.pop(key, None)
        ctx.new_phase(name, side)
        return found

    def end_segment(self, state: State, ctx: TurnContext, action=None) -> list[Violation]:
        """At a segment's end: the stacking of every hex units entered (W-Stack/3: only at the end of a move)."""
        touched = ctx.extra.pop("stack_touched", set())
        return self.check_stacking(state, touched, ctx, action) if touched else []

    def touch(self, ctx: TurnContext, location: int, state: State | None = None, action=None) -> list[Violation]:
        """A hex units ended a move, placement, retreat or advance in. W-Stack/3 (移动结束后不能; 不得主动造成超堆叠):
        by default judged at once, when that unit's move ends (option ``stacking_checked``: ``end_of_each_move``);
        ``end_of_segment`` judges only what stands at the segment's end (case C14's other reading)."""
        if state is not None and self.module.options.get("stacking_checked", "end_of_each_move") == "end_of_each_move":
            return self.check_stacking(state, (location,), ctx, action)
        ctx.extra.setdefault("stack_touched", set()).add(location)
        return []

    def finish(self, state: State, ctx: TurnContext) -> list[Violation]:
        self.keep_segment_memory(state, ctx)
        return self.end_segment(state, ctx)
