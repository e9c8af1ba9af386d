"""Replay benchmark for a card-driven game: a generated Paths of Glory log, replayed and timed.

Run from the repository root::

    .venv/bin/python benchmarks/replay_pog.py                 # 10,000 actions (about 10 s)
    .venv/bin/python benchmarks/replay_pog.py --actions 40000

The log is a series of turn files, one per game-turn from the August 1914 set-up, chained by the state written
after each, a new game every 20 turns. Each turn: both mandated offensive rolls, then six action rounds a
side, the CP first. Each round is an operation: a card played for OPS (three different Mobilization cards a side
each turn, chosen among those the card piles leave in reach: never one in the discard pile, removed or in play) or an automatic operation, which activates
one or two spaces behind the front and moves a corps there and back along friendly connections; every fourth
round a card is played for SR instead (never two rounds running) and a corps is redeployed by rail or sea.
Every action is judged by the module's rules while generating, and the table says how many violations the
replay found (0 expected).

Timed (medians, ``time.perf_counter``): ``pbem.engine.replay.replay`` alone on the in-memory turns (a fresh
state per game, built before the clock starts), and ``load_turn`` + ``load_start_state`` + ``replay`` per file,
as ``pbem check`` does. Target (issue 15): at least 50,000 actions/s replayed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.jsonsource import load_json
from pbem.model.module import load_module
from pbem.model.state import State

MODULE = load_module("paths-of-glory")
SETUP = Path(MODULE.scenarios["1914"])
# (side, space, corps, there and back along this path, a sea or rail redeployment)
SHUTTLES = {
    "cp": [("GE-CORPS-09", ["Bremen", "Hamburg"]), ("AH-CORPS-09", ["Villach", "Graz"])],
    "ap": [("FR-CORPS-10", ["Grenoble", "Lyon"]), ("RU-CORPS-11", ["Batum", "Poti"])],
}
SR = {"cp": ("GE-CORPS-11", ["Oppeln", "Breslau"]), "ap": ("FR-CORPS-08", ["Belfort", "Dijon"])}


def cards_in_reach(state: State) -> dict[str, list[str]]:
    """Three Mobilization cards a side that the piles leave in reach (a card played twice would be illegal)."""
    chosen = {}
    for side in ("cp", "ap"):
        piles = state.cards.get(side)
        deck = [c for c, card in MODULE.cards.items() if card["side"] == side and card["commitment"] == "mobilization" and not card.get("optional")]
        chosen[side] = [c for c in deck if piles is None or piles.whereabouts(c) is None][:3]
    return chosen


def game_turn(number: int, flip: dict[str, int], cards: dict[str, list[str]]) -> list[dict]:
    actions: list[dict] = [{"phase": "mandated_offensive"}]
    for side in ("cp", "ap"):
        actions.append({"roll": {"purpose": "mandated_offensive", "side": side, "value": 5 if side == "cp" else 6}})
    for round_ in range(1, 7):
        for side in ("cp", "ap"):
            actions.append({"phase": "action", "round": round_, "side": side})
            if round_ % 4 == 0:
                unit, path = SR[side]
                actions.append({"card": cards[side][1], "use": "sr"})
                there = flip[unit] % 2 == 1
                actions.append({"move": unit, "path": path[::-1] if there else path, "by": "strategic"})
                flip[unit] += 1
                continue
            if round_ % 2:
                actions.append({"card": None, "use": "automatic"})
                moving = SHUTTLES[side][:1]
            else:
                actions.append({"card": cards[side][0 if round_ == 2 else 2], "use": "ops"})
                moving = SHUTTLES[side]
            spaces = {}
            moves = []
            for unit, path in moving:
                there = flip[unit] % 2 == 1
                route = path[::-1] if there else path
                spaces[route[0]] = "move"
                moves.append({"move": unit, "path": route})
                flip[unit] += 1
            actions.append({"activate": spaces, "cost": len(spaces)})
            actions.extend(moves)
    return actions


def write_log(folder: Path, wanted: int) -> list[list[Path]]:
    """Games of turn files holding at least ``wanted`` actions; each game is a list of files in order."""
    games: list[list[Path]] = []
    total = 0
    while total < wanted:
        files: list[Path] = []
        flip = {u: 0 for side in SHUTTLES.values() for u, _ in side} | {SR[s][0]: 0 for s in SR}
        state = State.from_json(MODULE, load_json(SETUP))
        for number in range(1, 21):
            if total >= wanted:
                break
            actions = game_turn(number, flip, cards_in_reach(state))
            start = {"scenario": "1914"} if number == 1 else {"state": f"g{len(games)}-after-{number - 1}.json"}
            path = folder / f"g{len(games)}-turn-{number}.json"
            path.write_text(json.dumps({"module": "paths-of-glory", "scenario": "1914", "turn": number, "side": "cp", "start": start, "actions": actions}))
            turn, _ = load_turn(path, MODULE)
            result = replay(MODULE, state, turn)
            if not result.ok:
                raise SystemExit(f"{path.name}: the generated log is not legal: {result.violations[:3]}")
            (folder / f"g{len(games)}-after-{number}.json").write_text(json.dumps(result.state.to_json()))
            files.append(path)
            total += len(actions)
        games.append(files)
    return games


def timed(games: list[list[Path]], repeat: int) -> tuple[float, float, int]:
    turns = [[load_turn(p, MODULE)[0] for p in files] for files in games]
    actions = sum(len(t.actions) for game in turns for t in game)
    replays = []
    for _ in range(repeat):
        states = []
        for game in turns:
            state = State.from_json(MODULE, load_json(SETUP))
            states.append(state)
        began = time.perf_counter()
        for game, state in zip(turns, states):
            for turn in game:
                replay(MODULE, state, turn)
        replays.append(time.perf_counter() - began)
    began = time.perf_counter()
    for files in games:
        for path in files:
            turn, _ = load_turn(path, MODULE)
            state = load_start_state(turn, MODULE)
            replay(MODULE, state, turn)
    return statistics.median(replays), time.perf_counter() - began, actions


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        games = write_log(Path(folder), options.actions)
        replay_s, files_s, actions = timed(games, options.repeat)
    print("log      actions  turns  replay s  actions/s  files+replay s  actions/s")
    turns = sum(len(g) for g in games)
    print(f"pog  {actions:>10,}  {turns:>5}  {replay_s:8.3f}  {actions / replay_s:9,.0f}  {files_s:14.3f}  {actions / files_s:9,.0f}")
    print(f"median of {options.repeat} replays; one files+replay run; {len(games)} game(s); every action legal while generating")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
