"""Mutations of the converted legal game-turns: each breaks one rule on purpose; pbem should catch it under that rule.

    .venv/bin/python modules/paths-of-glory/tools/rtt/mutate.py /work/helpers/pog-games [--per-kind 40]

For every converted game-turn file (``tNN.json`` beside its ``tNN-start.json``) the tool makes at most one mutation
of each kind, checks it in-process, and counts it caught when pbem reports, at the mutated action, a violation (not
a warning) under one of the kind's expected rules that the unmutated file did not have there.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from pbem.engine.replay import replay
from pbem.engine.rulesets import module_ruleset
from pbem.formats.turnfile import load_start_state, load_turn

# A card played a second time in the same game-turn: the card piles say it was played this turn (9.1.3).
CARD_RULES = {"9.1.3"}
EXPECTED = {
    "over-budget activation": {"9.2.1"},
    "move through an enemy space": {"11.1.7"},
    "wrong fire result": {"12.2.8"},
    "wrong loss count": {"12.4.3"},
    "SR in consecutive rounds": {"9.3.3"},
    "event before its prerequisite": {"16.3.4", "16.4.8"},
    "move into a neutral nation": {"11.1.11"},
    "same attack twice": {"12.1.5", "12.1.6"},
    "card played twice": CARD_RULES,
}
PREREQUISITE_CARDS = {"ap": ("AP-38", "AP-55", "16.3.4"), "cp": ("CP-45", "CP-53", "16.4.8")}


def _check(path: Path):
    turn, module = load_turn(path)
    state = load_start_state(turn, module, None)
    return replay(module, state, turn), module


def _state_at(path: Path, index: int):
    """The state just before action ``index`` of the turn file."""
    turn, module = load_turn(path)
    state = load_start_state(turn, module, None)
    turn.actions = turn.actions[:index]
    replay(module, state, turn)
    return state, module


def _rounds(actions: list[dict]) -> list[tuple[int, int, str, int]]:
    """(phase index, round, side, card index) of every action round."""
    found = []
    for i, a in enumerate(actions):
        if a.get("phase") == "action" and i + 1 < len(actions) and "card" in actions[i + 1]:
            found.append((i, a["round"], a["side"], i + 1))
    return found


def candidates(path: Path, doc: dict, bad: set[int] = frozenset()) -> list[tuple[str, int, dict]]:
    """At most one mutation of each kind: (kind, index of the mutated action, mutated document), never of an
    action pbem already finds fault with (a false verdict would hide the mutation's)."""
    actions = doc["actions"]
    out: list[tuple[str, int, dict]] = []
    rounds = _rounds(actions)

    def mutated(index: int, action: dict | None = None, insert: dict | None = None) -> dict:
        new = copy.deepcopy(doc)
        if insert is not None:
            new["actions"].insert(index, insert)
        else:
            new["actions"][index] = action
        return new

    # wrong fire result, wrong loss count, same attack twice
    for i, a in enumerate(actions):
        if "attack" in a and i not in bad and not a.get("cards") and "/" in a.get("result", ""):
            att, dfn = a["result"].split("/")
            out.append(("wrong fire result", i, mutated(i, {**a, "result": f"{att}/{int(dfn) + 1}"})))
            break
    for i, a in enumerate(actions):
        if "attack" in a and i not in bad and not a.get("cards") and a.get("losses", {}).get("defender") and not a.get("declare") and not a.get("replacements"):
            losses = dict(a["losses"])
            losses["defender"] = losses["defender"][:-1]
            out.append(("wrong loss count", i, mutated(i, {**a, "losses": {k: v for k, v in losses.items() if v}})))
            break
    for i, a in enumerate(actions):
        if "attack" in a and i not in bad and not a.get("retreats") and not a.get("eliminated"):
            state, module = _state_at(path, i + 1)
            target = module.map.index(a["target"])
            if any(u.side != state.units[a["attack"][0]].side for u in state.units_at(target)):
                out.append(("same attack twice", i + 1, mutated(i + 1, insert=copy.deepcopy(a))))
                break
    # SR in consecutive rounds; event before its prerequisite; card played twice
    by_side: dict[str, list[tuple[int, int, str, int]]] = defaultdict(list)
    for r in rounds:
        by_side[r[2]].append(r)
    done = set()
    for side, mine in by_side.items():
        for (p1, n1, _, c1), (p2, n2, _, c2) in zip(mine, mine[1:]):
            if "SR" not in done and n2 == n1 + 1 and actions[c1].get("use") == "sr" and actions[c2].get("use") == "rp" and actions[c2].get("card"):
                out.append(("SR in consecutive rounds", c2, mutated(c2, {**actions[c2], "use": "sr"})))
                done.add("SR")
        card, needed, rule = PREREQUISITE_CARDS[side]
        start = json.loads((path.parent / doc["start"]["state"]).read_text())
        played = start["status"].get("events_played", []) + [a["card"] for a in actions if a.get("use") == "event" and a.get("card")]
        if "prereq" not in done and needed not in played and card not in start["status"].get("removed_cards", []):
            for p, n, s, c in mine:
                if actions[c].get("use") == "rp" and actions[c].get("card"):
                    out.append(("event before its prerequisite", c, mutated(c, {"card": card, "use": "event"})))
                    done.add("prereq")
                    break
        if "twice" not in done:
            cards_played = [(c, actions[c]["card"]) for _, _, _, c in mine if actions[c].get("card")]
            if len(cards_played) >= 2:
                (c1, first), (c2, _) = cards_played[0], cards_played[-1]
                out.append(("card played twice", c2, mutated(c2, {**actions[c2], "card": first})))
                done.add("twice")
    # over-budget activation, moves through an enemy space and into a neutral nation need the state
    for i, a in enumerate(actions):
        if "activate" in a and i not in bad:
            state, module = _state_at(path, i)
            side = next(r[2] for r in reversed(rounds) if r[0] < i)
            use = actions[next(r[3] for r in reversed(rounds) if r[0] < i)]
            card = use.get("card")
            ops = 1 if card is None else module.cards[card]["ops"]
            own = sorted({u.at for u in state.units.values() if u.on_map and u.side == side})
            labels = [module.map.label(x) for x in own]
            extra = [x for x in labels if x not in a["activate"]][: ops + 1]
            if len(a["activate"]) + len(extra) > ops:
                spaces = dict(a["activate"])
                spaces.update({x: "move" for x in extra})
                out.append(("over-budget activation", i, mutated(i, {"activate": spaces})))
            break
    move_done = set()
    for i, a in enumerate(actions):
        if "move" not in a or i in bad or a.get("by", "land") != "land" or len(move_done) == 2:
            continue
        state, module = _state_at(path, i)
        unit = state.units[a["move"]]
        if not unit.on_map:
            continue
        start = unit.at
        rules = module_ruleset(module)
        for n in module.map.neighbours[start]:
            label = module.map.label(n)
            if "enemy" not in move_done and rules.enemy_units(state, n, unit.side):
                out.append(("move through an enemy space", i, mutated(i, {**a, "path": [module.map.label(start), label]})))
                move_done.add("enemy")
                break
            country = module.map.country[n]
            if "neutral" not in move_done and rules.neutral(state, country) and country != "AL" and not rules.greek_open(state, n) and rules.may_use(state, start, n, unit):
                out.append(("move into a neutral nation", i, mutated(i, {**a, "path": [module.map.label(start), label]})))
                move_done.add("neutral")
                break
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", type=Path)
    parser.add_argument("--per-kind", type=int, default=60, help="at most this many mutations of each kind")
    args = parser.parse_args(argv)
    tried: Counter = Counter()
    caught: Counter = Counter()
    other: Counter = Counter()
    misses: dict[str, list[str]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        for path in sorted(args.games.glob("seed*/t??.json")):
            doc = json.loads(path.read_text())
            base, _ = _check(path)
            before = {(v.index, v.rule) for v in base.violations if v.severity != "warning"}
            for kind, index, new in candidates(path, doc, {v.index for v in base.violations if v.severity != "warning"}):
                if tried[kind] >= args.per_kind:
                    continue
                work = Path(tmp) / path.parent.name
                work.mkdir(exist_ok=True)
                (work / doc["start"]["state"]).write_text((path.parent / doc["start"]["state"]).read_text())
                target = work / path.name
                target.write_text(json.dumps(new))
                result, _ = _check(target)
                tried[kind] += 1
                found = {(v.index, v.rule) for v in result.violations if v.severity != "warning"} - before
                rules_here = {rule for at, rule in found if at == index}
                if rules_here & EXPECTED[kind]:
                    caught[kind] += 1
                elif rules_here:
                    other[kind] += 1
                    misses[kind].append(f"{path}:{index + 1} got {sorted(rules_here)}")
                else:
                    misses[kind].append(f"{path}:{index + 1} not caught")
    total, hit = sum(tried.values()), sum(caught.values())
    print(f"mutations: {total}, caught under the expected rule: {hit} ({100 * hit / max(total, 1):.1f}%)")
    for kind in EXPECTED:
        print(f"- {kind}: {caught[kind]}/{tried[kind]} under {'/'.join(sorted(EXPECTED[kind]))}" + (f"; {other[kind]} under another rule" if other[kind] else "") + (f"; e.g. {misses[kind][0]}" if misses[kind] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
