"""Generated China War games, shared by the archive tests and the archive benchmark (``benchmarks/archive.py``).

Games are generated on the China War ``border-war`` scenario with every unit of the order of battle set up on the
map (a generated state), so each player-turn has legal one-hex moves to choose from; a game may get a deliberate
illegal move so that "games with violations of rule X" finds something.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

MODULE = "china-war-1980"
SCENARIO = "border-war"
PLAYERS = ["Alice", "Bob", "Chen", "Dmitri", "Eva", "Feng", "Galina", "Hu", "Ivan", "Jun"]


def _action_source(n: int):
    from pbem.model.errors import Source

    return Source("generated", pointer=f"/actions/{n}")


def crowded_start(seed: int = 0) -> dict[str, Any]:
    """The border-war scenario with every off-map unit set up in an empty hex of its own side's country."""
    from pbem.model.jsonsource import load_json
    from pbem.model.module import load_module

    module = load_module(MODULE)
    scenario = load_json(module.scenarios[SCENARIO]).data
    game_map = module.map
    taken = {game_map.index(u["at"]) for u in scenario["units"] if game_map.find(u["at"]) is not None}
    placed = {u["id"] for u in scenario["units"]}
    home = module.options.get("home_country", {})
    rng = random.Random(seed)
    units = [dict(u) for u in scenario["units"] if game_map.find(u["at"]) is not None]
    for unit_id, definition in module.units.items():
        if unit_id in placed:
            continue
        country = home.get(definition.type.nationality)
        spots = [i for i in range(len(game_map)) if i not in taken and game_map.country[i] == country and game_map.terrain[i] == "clear"]
        if not spots or definition.type.side not in module.sides:
            continue
        spot = rng.choice(spots)
        taken.add(spot)
        units.append({"id": unit_id, "at": game_map.label(spot)})
    return {"module": MODULE, "scenario": SCENARIO, "turn": 1, "units": units}


def generate_turn(module, state, turn_number: int, side: str, actions: int, rng: random.Random, *, illegal: bool = False,
                  player: str | None = None, start: dict[str, str] | None = None) -> dict[str, Any]:  # fmt: skip
    """A player-turn (as turn-file JSON) of ``actions`` actions by ``side``, applied to ``state``: a movement
    phase of legal one-hex moves, then the (empty) reaction and combat phases.

    Candidate moves are judged by the module's own ruleset, so they are legal by construction; with
    ``illegal`` the last move is one the ruleset refuses (an enemy-occupied hex, rule 6.22 in China War).
    """
    from pbem.engine.rulesets import module_ruleset
    from pbem.model import actions as act

    rules = module_ruleset(module)
    header = act.TurnHeader(module=module.id, scenario=SCENARIO, turn=turn_number, side=side)
    ctx = rules.begin(state, act.Turn("generated", header, []))
    out: list[dict[str, Any]] = [{"phase": "movement"}]
    phase = act.Phase(index=0, source=_action_source(0), name="movement")
    rules.check(phase, state, ctx)
    state.apply(phase)
    game_map = module.map
    mine = [u for u in state.units.values() if u.side == side and u.on_map]
    tries = 0
    while len(out) < actions - 2 - int(illegal) and tries < actions * 200:
        tries += 1
        unit = rng.choice(mine)
        target = rng.choice(game_map.neighbours[unit.at])
        if state.stacks.get(target):
            continue  # keep one division per hex: no stacking question at the phase's end
        move = act.Move(index=len(out), source=_action_source(len(out)), units=(unit.id,), path=(unit.at, target))
        spent = dict(ctx.mp_spent)
        found = rules.check(move, state, ctx)
        if any(v.severity != "warning" for v in found):
            ctx.mp_spent = spent
            continue
        state.apply(move)
        rules.after(move, state, ctx)
        out.append({"move": unit.id, "path": [game_map.label(move.path[0]), game_map.label(target)]})
    if illegal:
        for unit in mine:
            enemy = [n for n in game_map.neighbours[unit.at] if state.side_at(n) not in (None, side)]
            if enemy:
                out.append({"move": unit.id, "path": [game_map.label(unit.at), game_map.label(enemy[0])], "note": "a deliberate mistake"})
                state.place(unit.id, enemy[0])
                break
    # The opponent's (empty) reaction phase and one's own (empty) combat phase close the player-turn (4.1).
    for name in ("reaction", "combat"):
        marker = act.Phase(index=len(out), source=_action_source(len(out)), name=name)
        rules.check(marker, state, ctx)
        state.apply(marker)
        rules.after(marker, state, ctx)
        out.append({"phase": name})
    rules.finish(state, ctx)
    data: dict[str, Any] = {"module": module.id, "scenario": SCENARIO, "turn": turn_number, "side": side,
                            "start": start or {"state": f"state-before-{turn_number}-{side}.json"}}  # fmt: skip
    if player:
        data["player"] = player
    data["actions"] = out
    return data


def generate_game(folder: Path, *, turns: int = 10, actions: int = 50, seed: int = 0, illegal_turn: int | None = None,
                  players: tuple[str, str] | None = ("Alice", "Bob"), crowded: bool = True) -> list[Path]:  # fmt: skip
    """Write a game's turn files (and its start state) into ``folder``; return the turn files in order."""
    from pbem.model.jsonsource import parse_json
    from pbem.model.module import load_module
    from pbem.model.state import State

    module = load_module(MODULE)
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    if crowded:
        start_data = crowded_start(seed)
        (folder / "start.json").write_text(json.dumps(start_data, indent=1) + "\n")
        # The archive starts a game from a state file only when game.json records it as the agreed start.
        (folder / "game.json").write_text(json.dumps({"start_state": "start.json"}) + "\n")
        start = {"state": "start.json"}
        state = State.from_json(module, parse_json(json.dumps(start_data), "start.json"))
    else:
        start = {"scenario": SCENARIO}
        state = State.from_json(module, parse_json(module.scenarios[SCENARIO].read_text(), "scenario"))
    paths = []
    for k in range(turns):
        side = module.sides[k % 2]
        data = generate_turn(module, state, k // 2 + 1, side, actions, rng, illegal=(k == illegal_turn),
                             player=players[k % 2] if players else None, start=start if k == 0 else None)  # fmt: skip
        path = folder / f"turn-{k + 1:02d}-{side}.json"
        path.write_text(json.dumps(data, indent=1) + "\n")
        paths.append(path)
    return paths


FIRST_TURN = {
    "module": MODULE, "scenario": SCENARIO, "turn": 1, "side": "soviet", "player": "Alice", "start": {"scenario": SCENARIO},
    "actions": [
        {"phase": "movement"},
        {"move": "SOV-MR-XX-1-04", "path": ["3202", "3203", "3303", "3403", "3404"]},
        {"move": "SOV-TK-XX-1-02", "path": ["2604", "2605", "2606"], "note": "into the Khingan"},
        {"phase": "reaction"},
        {"phase": "combat"},
        {"attack": ["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "target": "3005", "odds": "2/1", "column": "1/1", "roll": 4,
         "result": "1/1", "losses": {"attacker": ["SOV-MR-XX-1-01"], "defender": ["PLA-INF-XX-1-01"]}},
    ],
}  # fmt: skip


def sample_game(folder: Path, *, seed: int = 7, actions: int = 6) -> list[Path]:
    """A short game for tests: a Soviet turn with moves and an attack on the ``border-war`` scenario, a
    Chinese reply of one-hex moves, and a Soviet turn whose last move breaks rule 6.22."""
    from pbem.engine.replay import replay
    from pbem.formats.turnfile import load_start_state, load_turn
    from pbem.model.module import load_module

    module = load_module(MODULE)
    folder.mkdir(parents=True, exist_ok=True)
    first = folder / "t1-soviet.json"
    first.write_text(json.dumps(FIRST_TURN, indent=1) + "\n")
    turn, _ = load_turn(first, module)
    state = load_start_state(turn, module)
    replay(module, state, turn)
    rng = random.Random(seed)
    paths = [first]
    for k, (side, player, bad) in enumerate((("chinese", "Bob", False), ("soviet", "Alice", True)), start=2):
        data = generate_turn(module, state, (k - 1) // 2 + 1, side, actions, rng, illegal=bad, player=player,
                             start={"state": f"after-{k - 1}.json"})  # fmt: skip
        path = folder / f"t{k}-{side}.json"
        path.write_text(json.dumps(data, indent=1) + "\n")
        paths.append(path)
    return paths


# --- the benchmark ------------------------------------------------------------------------------------------
