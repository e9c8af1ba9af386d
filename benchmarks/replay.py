"""Replay benchmark: a generated China War log of 10,000 actions (and 4x that), replayed and timed.

Run from the repository root::

    .venv/bin/python benchmarks/replay.py            # the table (well under a minute)
    .venv/bin/python benchmarks/replay.py --profile  # plus cProfile's hot spots of the 4x replay

The log is generated, not hand-written, so it can be as long as we like and still look like play. A start
state far richer than the bundled scenario (every Soviet and Chinese counter of the module, most on the map
near the border, some waiting as reinforcements), then game-turn after game-turn in the order of play
(Soviet reinforcement, movement, Chinese reaction, Soviet combat, then the same for the Chinese): land moves
of 1-6 hexes along paths the rules allow, sometimes a stack, sometimes a unit moving again with the MP it has
left; attacks whose odds, final column, roll, result, losses, retreats and advances are what the module's
own ``assess`` and combat results table give. Each game-turn is one turn file, chained by the state written
after it, as players send them; after some game-turns a new game starts, so neither army melts away.

While it writes, the generator judges every action with the module's rules in lockstep (the calls the
engine makes), so it knows the situation the player created, and it tries each action on a scratch copy of
the turn's bookkeeping first, keeping only what the rules accept: the log stays legal as the rules grow.
A few mistakes a player makes are put in on purpose (an MP overspend now and then, a miscounted odds
claim), so the replay also pays for reporting violations; the table says whether any other violation
turned up.

Timed, medians of several repetitions by ``time.perf_counter``: ``pbem.engine.replay.replay`` alone on the
in-memory turns, a fresh :class:`State` per game built before the clock starts (``replay``); and, as
``pbem check`` does it for each turn file, ``load_turn`` (parse, schema validation, resolving every unit
and hex) + ``load_start_state`` + ``replay`` (``files+replay``). The 1x log is the first game-turns of the
4x log that hold 10,000 actions.
"""

from __future__ import annotations

import argparse
import cProfile
import copy
import dataclasses
import gc
import io
import json
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.engine.replay import Replay, replay
from pbem.engine.rulesets import module_ruleset
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model import actions as act
from pbem.model.errors import Source
from pbem.model.jsonsource import parse_json
from pbem.model.module import Module, load_module
from pbem.model.state import State, UnitState
from pbem.model.violation import WARNING, Violation
from pbem.rules.ruleset import TurnContext

MODULE = "china-war-1980"
SCENARIO = "border-war"
SOVIET, CHINESE = "soviet", "chinese"
BASE_ACTIONS = 10_000
SCALE = 4
TARGET_RATE = 50_000  # actions per second, replay alone and files+replay (issue 17)
TARGET_RATIO = 4.4  # time(4x) / time(1x)
FILES_UNTIL = 35.0  # seconds into the run after which no more files+replay repetitions start

# One game-turn in the order of play (4.1): (phase, side acting in it).
SEQUENCE = (
    ("reinforcement", SOVIET),
    ("movement", SOVIET),
    ("reaction", CHINESE),
    ("combat", SOVIET),
    ("reinforcement", CHINESE),
    ("movement", CHINESE),
    ("reaction", SOVIET),
    ("combat", CHINESE),
)
GAME_TURNS = 20  # game-turns per game before a new game starts from the start state
FIRST_TURN = 1

# How the generated players behave.
IN_RESERVE = 0.15  # share of the units that start in the reinforcements box
REINFORCEMENTS = 1  # units that enter per reinforcement phase
MOVE_SHARE = {"movement": 0.8, "reaction": 0.35}  # chance that an eligible unit moves in the phase
AGAIN_SHARE = 0.1  # chance that a unit moves again with the MP it has left
GROUP_SHARE = 0.2  # chance that a move takes a second (or third) unit of the same hex along
TOWARD_ENEMY = 0.6  # chance that a step is the one closest to the unit's objective, not a random one
ATTACKS_PER_PHASE = (0, 2)
GOOD_COLUMN = "3/1"  # the generated players attack at this final column or better
RETREAT_SHARE = 0.6  # chance that a defender retreats instead of losing a step, when it may
ADVANCE_SHARE = 0.6
OVERSPEND_SHARE = 0.004  # moves that spend more MP than the unit has (6.12; 6.23 or 2.0 where those limit it)
MP_RULES = {"6.12", "6.23", "2.0"}
WRONG_ODDS_SHARE = 0.05  # attacks with a miscounted odds claim (a 9.0 mismatch)
UNSUPPLIED_SHARE = 0.04  # units that start out of supply (half MPA, 6.23; column shift, 9.51)


# --- the start state ------------------------------------------------------------------------------------
def start_state(module: Module, rng: random.Random) -> dict[str, Any]:
    """Soviet units north of the Amur or in Mongolia, Chinese units in China, within stacking limits."""
    rules = module_ruleset(module)
    game_map = module.map
    homes = {SOVIET: ("USSR", "Mongolia"), CHINESE: ("China",)}
    load: Counter[int] = Counter()
    units = []
    for side in (SOVIET, CHINESE):
        hexes = [i for i in range(len(game_map)) if game_map.country[i] in homes[side]]
        # Armies stand near the border: hexes are drawn the more often the closer they are to it.
        border = [i for i in hexes if any(game_map.country[j] not in homes[side] for j in game_map.neighbours[i])]
        near = [1 / (1 + min(game_map.distance(i, b) for b in border)) ** 1.5 for i in hexes]
        for unit_id, unit in sorted(module.units.items()):
            if unit.type.side != side:
                continue
            if rng.random() < IN_RESERVE:
                units.append({"id": unit_id, "at": "reinforcements"})
                continue
            weight = rules.unit_weight[unit.type.size]
            for _ in range(1000):
                here = rng.choices(hexes, weights=near)[0]
                if load[here] + weight <= rules.stack_limit[here]:
                    break
            load[here] += weight
            entry: dict[str, Any] = {"id": unit_id, "at": game_map.label(here)}
            if rng.random() < UNSUPPLIED_SHARE:
                entry["supplied"] = False
            units.append(entry)
    return {"module": module.id, "scenario": SCENARIO, "turn": FIRST_TURN, "units": units, "status": {"pacified": []}}


def fresh_state(module: Module, start: dict[str, Any]) -> State:
    return State.from_json(module, parse_json(json.dumps(start), "start.json"))


def scratch(ctx: TurnContext) -> TurnContext:
    """A copy of the turn's bookkeeping that a trial check may change without touching the real one."""
    trial = copy.copy(ctx)
    for item in dataclasses.fields(ctx):
        value = getattr(ctx, item.name)
        if isinstance(value, dict | set | list) and item.name != "extra":
            setattr(trial, item.name, copy.copy(value))
    trial.extra = {k: copy.copy(v) if isinstance(v, dict | set | list) else v for k, v in ctx.extra.items()}
    return trial


# --- the log --------------------------------------------------------------------------------------------
@dataclass
class GameTurn:
    game: int
    number: int
    entries: list[dict[str, Any]]
    after: dict[str, Any]  # the state written after it: the next game-turn's start
    intended: set[int] = field(default_factory=set)  # actions written wrong on purpose


class LogWriter:
    """Writes games of turn files while judging them in lockstep, as the engine will."""

    def __init__(self, module: Module, start: dict[str, Any], seed: int):
        self.module = module
        self.map = module.map
        self.rules = module_ruleset(module)
        self.rng = random.Random(seed)
        self.start = start
        self.turns: list[GameTurn] = []
        self.found: Counter[tuple[str, str]] = Counter()
        self.mistakes: Counter[str] = Counter()
        self.actions = 0
        # Attacks need the module's combat assessment; a ruleset without one gets a log of moves only.
        self.can_attack = all(hasattr(self.rules, name) for name in ("assess", "crt", "scale"))
        self.good = self.rules.scale.columns.index(GOOD_COLUMN) if self.can_attack else 0

    def write(self, count: int) -> list[GameTurn]:
        game = 0
        while self.actions < count:
            game += 1
            self.state = fresh_state(self.module, self.start)
            for number in range(FIRST_TURN, FIRST_TURN + GAME_TURNS):
                if self.actions >= count:
                    break
                self.game_turn(game, number)
        return self.turns

    def game_turn(self, game: int, number: int) -> None:
        header = act.TurnHeader(module=self.module.id, scenario=SCENARIO, turn=number, side=SOVIET, start_state="start.json")
        self.ctx = self.rules.begin(self.state, act.Turn(f"game-{game}-turn-{number}.json", header, []))
        self.entries: list[dict[str, Any]] = []
        self.intended: set[int] = set()
        for name, side in SEQUENCE:
            self.phase(name, side)
            if name == "reinforcement":
                self.reinforcement_phase(side)
            elif name == "combat":
                self.combat_phase(side)
            else:
                self.movement_phase(side)
        self.found.update((v.rule, v.severity) for v in self.rules.finish(self.state, self.ctx))
        self.turns.append(GameTurn(game, number, self.entries, self.readable(self.state.to_json()), self.intended))
        self.actions += len(self.entries)

    def readable(self, written: dict[str, Any]) -> dict[str, Any]:
        """``State.to_json`` as ``State.from_json`` will take it back.

        A one-step unit eliminated by a step loss is written with ``step`` 1, which ``from_json`` refuses
        ("has only 1 step(s)"); reported to the lead engineer. Until that is fixed, clamp it here.
        """
        for entry in written["units"]:
            steps = len(self.module.units[entry["id"]].type.steps)
            if entry.get("step", 0) >= steps:
                entry["step"] = steps - 1
                if not entry["step"]:
                    del entry["step"]
        return written

    # -- plumbing ---------------------------------------------------------------------------------------
    def source(self) -> Source:
        return Source("generated", pointer=f"/actions/{len(self.entries)}")

    def trial(self, action: act.Action) -> list[Violation]:
        """What the rules would say about ``action`` now, leaving the real bookkeeping as it is."""
        return [v for v in self.rules.check(action, self.state, scratch(self.ctx)) if v.severity != WARNING]

    def emit(self, entry: dict[str, Any], action: act.Action, intended: bool = False) -> None:
        rules, state, ctx = self.rules, self.state, self.ctx
        found = rules.check(action, state, ctx)
        state.apply(action)
        found += rules.after(action, state, ctx)
        self.found.update((v.rule, v.severity) for v in found)
        if intended:
            self.intended.add(len(self.entries))
        self.entries.append(entry)

    def label(self, location: int) -> str:
        return self.map.label(location)

    def weight_at(self, location: int) -> int:
        return sum(self.rules.weight(u) for u in self.state.units_at(location))

    def phase(self, name: str, side: str) -> None:
        action = act.Phase(index=len(self.entries), source=self.source(), name=name, side=side)
        self.emit({"phase": name, "side": side}, action)

    # -- reinforcement ----------------------------------------------------------------------------------
    def reinforcement_phase(self, side: str) -> None:
        """Units waiting in the reinforcements box enter in their own country, away from the enemy."""
        rng, state, rules, game_map = self.rng, self.state, self.rules, self.map
        home = ("USSR",) if side == SOVIET else ("China",)
        waiting = sorted((u for u in state.units.values() if u.box == "reinforcements" and u.side == side), key=lambda u: u.id)
        for unit in rng.sample(waiting, min(REINFORCEMENTS, len(waiting))):
            for _ in range(50):
                at = rng.randrange(len(game_map))
                if (
                    game_map.country[at] in home
                    and state.side_at(at) in (None, side)
                    and all(state.side_at(n) in (None, side) for n in game_map.neighbours[at])
                    and self.weight_at(at) + rules.weight(unit) <= rules.stack_limit[at]
                ):
                    action = act.Reinforce(index=len(self.entries), source=self.source(), units=(unit.id,), at=at)
                    if not self.trial(action):
                        self.emit({"reinforce": unit.id, "at": self.label(at)}, action)
                        break

    # -- movement ---------------------------------------------------------------------------------------
    def allowance(self, unit: UnitState) -> int | None:
        """The unit's MP this phase (None: it may not move), as 6.12, 6.23, 2.0 and 6.43 give it."""
        kind = unit.unit.type
        allowance = unit.face.move if unit.supplied else unit.face.move // 2
        if self.ctx.phase == "reaction":
            if kind.arm == "airborne" or not (kind.mechanized or kind.quality == 1):
                return None
            allowance = min(allowance, 2 if kind.mechanized else 1)
        return allowance

    def cost(self, unit: UnitState, path: list[int]) -> int:
        table = self.rules.entry["mechanized" if unit.unit.type.mechanized else "non_mechanized"]
        return sum(table[a][b] for a, b in zip(path, path[1:]))

    def movement_phase(self, side: str) -> None:
        rng, state = self.rng, self.state
        share = MOVE_SHARE[self.ctx.phase]  # type: ignore[index]
        enemy = [loc for loc, ids in state.stacks.items() if state.units[ids[0]].side not in (side, "neutral")]
        mine = [u for u in state.units.values() if u.on_map and u.side == side]
        rng.shuffle(mine)
        spent: Counter[str] = Counter()
        for unit in mine:
            if unit.id in spent or not unit.on_map or rng.random() > share or self.allowance(unit) is None:
                continue
            group = [unit]
            if rng.random() < GROUP_SHARE:
                for other in state.units_at(unit.at):
                    if (
                        len(group) < 3 and other is not unit and other.id not in spent and other.side == side
                        and other.unit.type.mechanized == unit.unit.type.mechanized and self.allowance(other) is not None
                    ):  # fmt: skip
                        group.append(other)
            goal = rng.choice(enemy) if enemy else None
            path = self.move(group, min(self.allowance(u) for u in group), goal, spent)  # type: ignore[type-var]
            if path and rng.random() < AGAIN_SHARE:  # on again with what is left, as players often do
                left = min(self.allowance(u) - spent[u.id] for u in group)  # type: ignore[operator]
                if left > 0:
                    self.move(group, left, goal, spent)

    def move(self, group: list[UnitState], budget: int, goal: int | None, spent: Counter[str]) -> list[int] | None:
        """Write one move of ``group`` with ``budget`` MP, trying shorter paths until the rules accept one."""
        overspend = self.rng.random() < OVERSPEND_SHARE
        path = self.path(group, budget + 3 if overspend else budget, goal, 6 if overspend else None)
        ids = tuple(u.id for u in group)
        while len(path) > 1:
            action = act.Move(index=len(self.entries), source=self.source(), units=ids, path=tuple(path))
            problems = self.trial(action)
            if overspend and problems and all(v.rule in MP_RULES for v in problems):
                self.mistakes["MP overspent"] += 1
                break
            if not problems:
                overspend = False
                break
            path.pop()
            self.fit(path, group)
        else:
            return None
        for unit in group:
            spent[unit.id] += self.cost(unit, path)
        entry = {"move": ids[0] if len(ids) == 1 else list(ids), "path": [self.label(h) for h in path]}
        self.emit(entry, action, intended=overspend)
        return path

    def path(self, group: list[UnitState], budget: int, goal: int | None, length: int | None) -> list[int]:
        """A walk of 1-6 hexes, most steps toward ``goal``, that the group can pay for and stack at the end of."""
        rng, state, rules, game_map = self.rng, self.state, self.rules, self.map
        side = group[0].side
        table = rules.entry["mechanized" if group[0].unit.type.mechanized else "non_mechanized"]
        length = length or rng.choice((1, 1, 2, 2, 3, 3, 4, 5, 6))
        first_move = all(self.ctx.mp_spent.get(u.id, 0) == 0 for u in group) and self.ctx.phase == "movement"
        path, left = [group[0].at], budget
        while len(path) <= length:
            here = path[-1]
            options = []
            for there in game_map.neighbours[here]:
                cost = table[here][there]
                if cost is None or there in path:
                    continue
                holder = state.side_at(there)
                if holder is not None and holder != side:
                    continue
                if cost <= left or (len(path) == 1 and first_move):  # 6.14: one hex is always allowed
                    options.append((there, cost))
            if not options:
                break
            if goal is not None and rng.random() < TOWARD_ENEMY:
                there, cost = min(options, key=lambda o: game_map.distance(o[0], goal))
            else:
                there, cost = rng.choice(options)
            path.append(there)
            left -= cost
            if left < 0:
                break
        self.fit(path, group)
        return path

    def fit(self, path: list[int], group: list[UnitState]) -> None:
        """Stacking (8.0) is judged at the end of the phase: stop where the group fits."""
        weight = sum(self.rules.weight(u) for u in group)
        while len(path) > 1 and self.weight_at(path[-1]) + weight > self.rules.stack_limit[path[-1]]:
            path.pop()

    # -- combat -----------------------------------------------------------------------------------------
    def combat_phase(self, side: str) -> None:
        if not self.can_attack:
            return
        rng, state, ctx, rules, game_map = self.rng, self.state, self.ctx, self.rules, self.map
        targets = [loc for loc, ids in state.stacks.items() if state.units[ids[0]].side not in (side, "neutral")]
        rng.shuffle(targets)
        attacks = rng.randint(*ATTACKS_PER_PHASE)
        for target in targets:
            if attacks == 0:
                break
            defenders = state.units_at(target)
            if any(u.id in ctx.attacked for u in defenders):
                continue
            ready = [
                u.id
                for near in game_map.neighbours[target]
                for u in state.units_at(near)
                if u.side == side and u.id not in ctx.attacked_with and u.id not in ctx.advanced
            ]
            if not ready:
                continue
            # Commit units one by one until the odds are good enough, keeping the rest for other attacks.
            rng.shuffle(ready)
            wanted = self.good + rng.randint(0, 2)
            for n in range(1, len(ready) + 1):
                combat = act.Combat(index=len(self.entries), source=self.source(), attackers=tuple(ready[:n]), target=target, roll=1, result="-/-")
                assessment = rules.assess(combat, state, ctx)
                if assessment.odds is not None and rules.scale.columns.index(assessment.column) >= wanted:
                    break
            if assessment.odds is None or rules.scale.columns.index(assessment.column) < self.good:
                continue
            if self.attack(combat, assessment, defenders):
                attacks -= 1

    def attack(self, combat: act.Combat, assessment: Any, defenders: list[UnitState]) -> bool:
        """Write the attack as the table resolves it, if the rules accept it; True if written."""
        rng, state, rules = self.rng, self.state, self.rules
        roll = rng.randint(1, 6)
        result = rules.crt.result(assessment.column, roll, assessment.die_row)
        attacker_part, _, defender_part = result.partition("/")
        attackers = [state.units[u] for u in combat.attackers]
        lost_a: list[str] = []
        lost_d: list[str] = []
        eliminated: list[str] = []
        retreats: dict[str, int] = {}
        if attacker_part == "E":
            eliminated += [u.id for u in attackers]
        elif attacker_part == "1":
            lost_a.append(max(attackers, key=lambda u: len(u.unit.type.steps) - u.step).id)
        if defender_part == "E":
            eliminated += [u.id for u in defenders]
        elif defender_part == "1":
            into = self.retreat_hex(combat.target, defenders) if rng.random() < RETREAT_SHARE else None
            if into is not None:
                retreats = {u.id: into for u in defenders}
            else:
                lost_d.append(rng.choice(defenders).id)
        gone = set(eliminated) | set(retreats)
        survivors = [u for u in defenders if u.id not in gone and u.step + lost_d.count(u.id) < len(u.unit.type.steps)]
        advance: list[str] = []
        if not survivors and rng.random() < ADVANCE_SHARE:
            able = [u for u in attackers if u.id not in gone and u.step + lost_a.count(u.id) < len(u.unit.type.steps)]
            fits = [u for u in able if rules.weight(u) <= rules.stack_limit[combat.target]]
            if fits:
                advance.append(rng.choice(fits).id)
        odds = f"{assessment.odds[0]}/{assessment.odds[1]}"
        action = act.Combat(
            index=combat.index, source=combat.source, attackers=combat.attackers, target=combat.target, roll=roll,
            result=result, odds=odds, column=assessment.column, losses_attacker=tuple(lost_a),
            losses_defender=tuple(lost_d), eliminated=tuple(eliminated),
            retreats={u: (h,) for u, h in retreats.items()}, advance=tuple(advance),
        )  # fmt: skip
        if self.trial(action):
            return False
        wrong = rng.random() < WRONG_ODDS_SHARE
        if wrong:
            odds = f"{assessment.odds[0] + 1}/{assessment.odds[1]}"
            action = dataclasses.replace(action, odds=odds)
            self.mistakes["odds miscounted"] += 1
        entry: dict[str, Any] = {
            "attack": list(combat.attackers),
            "target": self.label(combat.target),
            "odds": odds,
            "column": assessment.column,
            "roll": roll,
            "result": result,
        }
        if lost_a or lost_d:
            entry["losses"] = {"attacker": lost_a, "defender": lost_d}
        if eliminated:
            entry["eliminated"] = eliminated
        if retreats:
            entry["retreats"] = {u: [self.label(h)] for u, h in retreats.items()}
        if advance:
            entry["advance"] = advance
        self.emit(entry, action, intended=wrong)
        return True

    def retreat_hex(self, target: int, defenders: list[UnitState]) -> int | None:
        """A hex next to the target where the whole stack may retreat (9.8, 9.81, 8.0), if any."""
        if not all(u.unit.type.retreats for u in defenders):
            return None
        weight = sum(self.rules.weight(u) for u in defenders)
        side = defenders[0].side
        options = [
            h
            for h in self.map.neighbours[target]
            if self.state.side_at(h) in (None, side) and self.weight_at(h) + weight <= self.rules.stack_limit[h]
        ]
        return self.rng.choice(options) if options else None


# --- timing ---------------------------------------------------------------------------------------------
def turn_document(turn: GameTurn, start: str) -> dict[str, Any]:
    return {
        "module": MODULE, "scenario": SCENARIO, "turn": turn.number, "side": SOVIET,
        "start": {"state": start}, "actions": turn.entries,
    }  # fmt: skip


def write_files(folder: Path, start: dict[str, Any], turns: list[GameTurn]) -> list[Path]:
    """Each game-turn as a turn file starting from the state file written after the one before."""
    (folder / "start.json").write_text(json.dumps(start), encoding="utf-8")
    paths = []
    previous: dict[int, str] = {}
    for turn in turns:
        name = f"game-{turn.game:02d}-turn-{turn.number:02d}"
        path = folder / f"{name}.json"
        path.write_text(json.dumps(turn_document(turn, previous.get(turn.game, "start.json")), indent=1), encoding="utf-8")
        (folder / f"{name}-after.json").write_text(json.dumps(turn.after), encoding="utf-8")
        previous[turn.game] = f"{name}-after.json"
        paths.append(path)
    return paths


@dataclass
class Timing:
    wall: float = 0.0  # time.perf_counter
    cpu: float = 0.0  # time.process_time: far below ``wall`` means other work shared the machine
    parts: Counter[str] = field(default_factory=Counter)  # wall seconds by stage


def timed_files(module: Module, paths: list[Path]) -> Timing:
    """``pbem check``'s work on every turn file: read it and its start state, replay it.

    Nothing is kept from one file to the next, as in ``pbem check`` or the archive's re-validation: kept
    turns made the heap grow with the log, and the cyclic garbage collector's full passes over it made the
    4x log cost 5.4x the 1x log's time (3.96x with the collector off).
    """
    timing = Timing()
    gc.collect()
    began, cpu = time.perf_counter(), time.process_time()
    for path in paths:
        t0 = time.perf_counter()
        turn, _ = load_turn(path, module)
        t1 = time.perf_counter()
        state = load_start_state(turn, module)
        t2 = time.perf_counter()
        replay(module, state, turn)
        t3 = time.perf_counter()
        timing.parts.update({"load_turn": t1 - t0, "load_start_state": t2 - t1, "replay": t3 - t2})
    timing.wall, timing.cpu = time.perf_counter() - began, time.process_time() - cpu
    return timing


def timed_replay(module: Module, start: dict[str, Any], log: list[GameTurn], turns: list[act.Turn]) -> tuple[Timing, list[Replay]]:
    """Seconds of ``replay`` alone over the whole log, each game on a fresh state built beforehand."""
    states = {game: fresh_state(module, start) for game in sorted({turn.game for turn in log})}
    outcomes = []
    gc.collect()
    began, cpu = time.perf_counter(), time.process_time()
    for written, turn in zip(log, turns):
        outcomes.append(replay(module, states[written.game], turn))
    return Timing(time.perf_counter() - began, time.process_time() - cpu), outcomes


def prefix(turns: list[GameTurn], count: int) -> list[GameTurn]:
    """The first game-turns that hold at least ``count`` actions."""
    total = 0
    for n, turn in enumerate(turns):
        total += len(turn.entries)
        if total >= count:
            return turns[: n + 1]
    return turns


def by_rule(violations: list[Violation]) -> str:
    counts = Counter((v.rule, v.severity) for v in violations)
    return ", ".join(f"{rule} {severity} x{n}" for (rule, severity), n in sorted(counts.items())) or "none"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=BASE_ACTIONS, help="length of the 1x log (default %(default)s)")
    parser.add_argument("--repeat", type=int, default=9, help="repetitions of each replay-only timing (default %(default)s)")
    parser.add_argument("--repeat-files", type=int, default=3, help="repetitions of the 1x files+replay timing (default %(default)s)")
    parser.add_argument("--seed", type=int, default=1980)
    parser.add_argument("--profile", action="store_true", help="also profile one replay of the 4x log with cProfile")
    args = parser.parse_args(argv)

    began = time.perf_counter()
    module = load_module(MODULE)
    start = start_state(module, random.Random(args.seed))
    writer = LogWriter(module, start, args.seed)
    written = writer.write(args.actions * SCALE)
    logs = {1: prefix(written, args.actions), SCALE: prefix(written, args.actions * SCALE)}
    kinds = Counter(next(iter(e)) for t in logs[1] for e in t.entries)
    results_1x = Counter(e["result"] for t in logs[1] for e in t.entries if "attack" in e)
    moves = [e for t in logs[1] for e in t.entries if "move" in e]
    hexes = Counter(min(len(e["path"]) - 1, 6) for e in moves)
    games = {t.game for t in logs[SCALE]}
    print(f"start state: {len(start['units'])} units ({sum(u['at'] == 'reinforcements' for u in start['units'])} as reinforcements) "
          f"on the {len(module.map)}-hex map of {module.id} {module.version}")  # fmt: skip
    print(f"4x log: {len(games)} games of up to {GAME_TURNS} game-turns, {len(logs[SCALE])} turn files; 1x log: the first {len(logs[1])}")
    print(f"1x log: {', '.join(f'{n:,} {k}' for k, n in kinds.most_common())}")
    print(f"1x moves by hexes: {', '.join(f'{k}: {hexes[k]}' for k in sorted(hexes))}; stacks of 2-3: {sum(isinstance(e['move'], list) for e in moves)}")
    print(f"1x attack results: {', '.join(f'{r} x{n}' for r, n in results_1x.most_common()) or 'none'}")
    print(f"written wrong on purpose in the 4x log: {', '.join(f'{n} {k}' for k, n in writer.mistakes.items()) or 'nothing'}")
    print(f"log generated in {time.perf_counter() - began:.1f} s (setup, not timed)")

    # 1x and 4x repetitions take turns, so a passing load on the machine touches both alike.
    files: dict[int, list[Timing]] = {n: [] for n in logs}
    replays: dict[int, list[Timing]] = {n: [] for n in logs}
    turns: dict[int, list[act.Turn]] = {}
    outcomes: dict[int, list[Replay]] = {}
    with tempfile.TemporaryDirectory(prefix="pbem-bench-") as folder:
        paths = write_files(Path(folder), start, logs[SCALE])
        for round_ in range(args.repeat_files):
            for scale, log in logs.items():
                # Reading files is the slow part: the 4x log is read once, so the run stays under a minute.
                if round_ == 0 or (scale == 1 and time.perf_counter() - began < FILES_UNTIL):
                    files[scale].append(timed_files(module, paths[: len(log)]))
        for scale, log in logs.items():  # the turns the replay-only timings replay, read outside the clock
            turns[scale] = [load_turn(path, module)[0] for path in paths[: len(log)]]
    for _ in range(args.repeat):
        for scale, log in logs.items():
            timing, outcomes[scale] = timed_replay(module, start, log, turns[scale])
            replays[scale].append(timing)

    def median(timings: list[Timing], attribute: str = "wall") -> float:
        return statistics.median(getattr(t, attribute) for t in timings)

    print()
    print(f"{'log':<3} {'actions':>7} {'replay s':>9} {'(cpu s)':>8} {'actions/s':>10} {'files+replay s':>15} {'(cpu s)':>8} {'actions/s':>10}")
    rates = {}
    for scale, log in logs.items():
        count = sum(len(t.entries) for t in log)
        seconds, whole = median(replays[scale]), median(files[scale])
        rates[scale] = (count, seconds, whole)
        print(f"{scale}x {count:>8,} {seconds:>9.3f} {median(replays[scale], 'cpu'):>8.3f} {count / seconds:>10,.0f} "
              f"{whole:>15.3f} {median(files[scale], 'cpu'):>8.3f} {count / whole:>10,.0f}")  # fmt: skip
    (n1, t1, e1), (n4, t4, e4) = rates[1], rates[SCALE]
    ratio = t4 / t1
    print(f"time 4x / 1x: replay {ratio:.2f}, files+replay {e4 / e1:.2f} (the 4x log holds {n4 / n1:.2f}x the actions)")
    parts = files[1][0].parts
    print(f"medians of {len(replays[1])} replays, of {len(files[1])} (1x) and {len(files[SCALE])} (4x) files+replay runs; "
          f"files+replay, 1x, by stage: {', '.join(f'{k} {v:.3f} s' for k, v in parts.items())}")  # fmt: skip

    print()
    for scale, log in logs.items():
        count = sum(len(t.entries) for t in log)
        violations = [v for outcome in outcomes[scale] for v in outcome.violations]
        wrong = {(n, v.index) for n, outcome in enumerate(outcomes[scale]) for v in outcome.violations if v.severity != WARNING}
        unexpected = [
            (t.game, t.number, v)
            for t, outcome in zip(log, outcomes[scale])
            for v in outcome.violations
            if v.severity != WARNING and v.index not in t.intended
        ]
        print(f"{scale}x: {count - len(wrong):,} of {count:,} actions legal; violations by rule: {by_rule(violations)}; "
              f"not written on purpose: {len(unexpected)}")  # fmt: skip
        for game, number, v in unexpected[:3]:
            print(f"    game {game} turn {number}: {v.rule} [{v.severity}] {v.message}")

    rate = n1 / t1
    print()
    verdict = "met" if rate >= TARGET_RATE else f"MISSED: {TARGET_RATE / rate:.2f}x too slow"
    print(f"target >= {TARGET_RATE:,} actions/s replayed: {rate:,.0f} ({verdict}); "
          f"4x within {TARGET_RATIO}x the time: {ratio:.2f} ({'met' if ratio <= TARGET_RATIO * n4 / (SCALE * n1) else 'MISSED'})")
    for scale in logs:
        count, _, whole = rates[scale]
        verdict = "met" if count / whole >= TARGET_RATE else f"MISSED: {TARGET_RATE * whole / count:.2f}x too slow"
        # Wall time well above CPU time means other work shared the machine: the CPU rate is what this code costs.
        cpu = median(files[scale], "cpu")
        print(f"target >= {TARGET_RATE:,} actions/s files+replay, {scale}x: {count / whole:,.0f} ({verdict}); "
              f"by CPU time {count / cpu:,.0f} actions/s, wall/CPU {whole / cpu:.2f}")  # fmt: skip
    files_ratio = e4 / e1
    print(f"files+replay 4x within {TARGET_RATIO}x the time: {files_ratio:.2f} ({'met' if files_ratio <= TARGET_RATIO * n4 / (SCALE * n1) else 'MISSED'})")
    print(f"total {time.perf_counter() - began:.1f} s")
    if args.profile:
        profile(module, start, logs[SCALE], turns[SCALE])
    return 0


def profile(module: Module, start: dict[str, Any], log: list[GameTurn], turns: list[act.Turn]) -> None:
    """cProfile of one replay of the 4x log: the functions where the time goes."""
    states = {game: fresh_state(module, start) for game in sorted({turn.game for turn in log})}
    profiler = cProfile.Profile()
    profiler.enable()
    for written, turn in zip(log, turns):
        replay(module, states[written.game], turn)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(20)
    print()
    print(out.getvalue())


if __name__ == "__main__":
    sys.exit(main())
