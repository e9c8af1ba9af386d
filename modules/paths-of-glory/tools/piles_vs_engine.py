"""Hold pbem's card piles against Rally the Troops' engine over whole converted games (a developer tool, not run
by the tests; the games are those pog-diff converts: a folder per game with tNN.json and tNN-start.json, and the
engine's record ``engine/<game>.json`` beside them).

Each game is replayed from its first turn's start state, every later turn on the state pbem wrote (as the archive
does); at the start of each game-turn the piles pbem keeps are compared with the engine's: discard pile, removed
cards, combat cards in play, hand and draw pile sizes. It also counts the verdicts that cite a pile rule.

    .venv/bin/python modules/paths-of-glory/tools/piles_vs_engine.py /work/helpers/pog-games [GAME...] [--engine-commitment]

``--engine-commitment`` takes each game-turn's war status and commitment levels from the engine at its start, so
that a war status drift (see the module README's data doubts) does not hide or cause a difference in the piles.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.module import load_module

PILE_RULES = {"2.3", "6.0", "9.1.3", "9.5.4.2", "9.5.4.4", "9.5.4.6", "16.1", "9.5.1.2"}
COMMITMENT = {0: "mobilization", 1: "limited_war", 2: "total_war"}


def card_id(number: int) -> str:
    return f"AP-{number:02d}" if number <= 65 else f"CP-{number - 65:02d}"


def options_of(engine: dict) -> dict:
    chosen = engine.get("options", {})
    if chosen.get("optional_cards"):
        return {"optional_cards": "all", "hand_size": 8}
    if chosen.get("valiant"):
        return {"optional_cards": "selected"}
    return {}


def engine_piles(start: dict, side: str) -> dict:
    mine = start[side]
    return {
        "discard": sorted(card_id(c) for c in mine["discard"]),
        "removed": sorted(card_id(c) for c in mine["removed"]),
        "in_play": sorted(card_id(c) for c in start.get("combat_cards", []) if (c <= 65) == (side == "ap")),
        "hand": len(mine["hand"]),
        "draw": len(mine["deck"]),
    }


def pbem_piles(state, side: str) -> dict:
    piles = state.cards[side]
    return {"discard": sorted(piles.discard), "removed": sorted(piles.removed), "in_play": sorted(e["card"] for e in piles.in_play),
            "hand": piles.hand, "draw": piles.draw}


LEVELS = {"mobilization": "mobilization", "limited": "limited_war", "total": "total_war"}


def run_game(folder: Path, module, engine_commitment: bool = False) -> tuple[int, int, Counter, list[str]]:
    engine = json.loads((folder.parent / "engine" / f"{folder.name}.json").read_text())
    starts = {t["turn"]: t["start"] for t in engine["turns"]}
    turns = sorted(folder.glob("t[0-9][0-9].json"))
    state = None
    compared = differ = 0
    verdicts: Counter = Counter()
    notes: list[str] = []
    for path in turns:
        turn, _ = load_turn(path, module)
        turn.header.options.update(options_of(engine))
        turn = _with_discards(turn, engine, module)
        if state is None:
            state = load_start_state(turn, module)
        number = turn.header.turn
        if number in starts and state.cards and number > 1:
            # pbem makes the last turn's draw when the next turn begins: compare after it.
            result = replay(module, state, _empty(turn))
            for side in ("cp", "ap"):
                mine, theirs = pbem_piles(result.state, side), engine_piles(starts[number], side)
                compared += 1
                if not state.cards[side].known:  # a game that began mid-war: only what the files show is known
                    mine = {k: v for k, v in mine.items() if k in ("removed", "in_play")}
                    theirs = {k: v for k, v in theirs.items() if k in ("removed", "in_play")}
                if mine != theirs:
                    differ += 1
                    diff = {k: (mine[k], theirs[k]) for k in mine if mine[k] != theirs[k]}
                    notes.append(f"{folder.name} turn {number} {side}: pbem/engine {diff}")
        if engine_commitment and number in starts:  # the engine's war status and commitment at this turn's start
            for side in ("cp", "ap"):
                level = LEVELS.get(starts[number][side]["commitment"], starts[number][side]["commitment"])
                state.status.setdefault("commitment", {})[side] = level
                state.status.setdefault("war_status", {})[side] = starts[number][side]["ws"]
            state.status["combined_war_status"] = starts[number]["cp"]["ws"] + starts[number]["ap"]["ws"]
        result = replay(module, state, turn)
        for v in result.violations:
            if v.severity != "warning" and v.rule in PILE_RULES:
                verdicts[v.rule] += 1
                if len(notes) < 400:
                    notes.append(f"{path}:{v.source.line if v.source else '?'}: {v.rule} {v.message}")
    return compared, differ, verdicts, notes


def _with_discards(turn, engine: dict, module):
    """The draw phase's discards (9.5.4.6) the engine records, where the converted file lacks them."""
    from dataclasses import replace

    from pbem.model.actions import CardPlay

    if any(getattr(a, "use", None) == "discard" for a in turn.actions):
        return turn
    record = next((t for t in engine["turns"] if t["turn"] == turn.header.turn), None)
    if record is None:
        return turn
    discards = [(s["a"], card_id(s["g"])) for s in record["steps"] if s.get("s") == "draw_cards_phase" and s.get("n") == "card"]
    at = next((n for n, a in enumerate(turn.actions) if a.kind == "phase" and a.name == "draw"), None)
    if not discards or at is None:
        return turn
    source = turn.actions[at].source
    added = [CardPlay(index=turn.actions[at].index, source=source, card=card, use="discard", side=side) for side, card in discards]
    return replace(turn, actions=[*turn.actions[: at + 1], *added, *turn.actions[at + 1:]])


def _empty(turn):
    from dataclasses import replace

    return replace(turn, actions=[])


def main(argv: list[str]) -> int:
    engine_commitment = "--engine-commitment" in argv
    argv = [a for a in argv if a != "--engine-commitment"]
    root = Path(argv[0])
    module = load_module("paths-of-glory")
    games = argv[1:] or sorted(p.name for p in root.iterdir() if p.is_dir() and p.name != "engine")
    total_compared = total_differ = 0
    rules: Counter = Counter()
    for name in games:
        folder = root / name
        if not (root / "engine" / f"{name}.json").is_file():
            continue
        compared, differ, verdicts, notes = run_game(folder, module, engine_commitment)
        total_compared += compared
        total_differ += differ
        rules += verdicts
        print(f"{name}: {compared} pile comparisons, {differ} differ; pile verdicts {dict(verdicts)}")
        for note in notes[:12]:
            print("   ", note)
    print(f"total: {total_compared} comparisons, {total_differ} differ; pile verdicts {dict(rules)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
