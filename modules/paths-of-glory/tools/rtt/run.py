"""The differential test: play games with Rally the Troops' engine, convert them, check them with pbem in-process.

    .venv/bin/python modules/paths-of-glory/tools/rtt/run.py --games 2 --out /work/helpers/pog-games
    .venv/bin/python modules/paths-of-glory/tools/rtt/run.py --seeds 1-30 --status /work/helpers/pog-diff-status.md

Every game is legal (the engine offered every action), so every ``illegal`` or ``mismatch`` verdict pbem gives is
false, unless it is one of the cases where the rulebook and the engine disagree (``DISAGREEMENTS``: the README lists
each with its rule), which are counted apart. Prints per rule the verdicts with one example each, and the things
the converter could not write, by kind.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from convert import Converter, convert_game  # noqa: E402
from ids import MODULE, build_ids  # noqa: E402

SHARED = MODULE.parents[2] / "shared" / "data" / "paths-of-glory"  # ../shared beside the repository
ENGINE = SHARED / "rtt-engine"
SCENARIOS = {"H": "Historical", "G": "The Great War"}


def game_plan(seeds: list[int]) -> list[tuple[int, str, list[str]]]:
    """Seeds cycle through the scenarios and options: Historical plain, valiant, optional_cards; The Great War."""
    plan = []
    for seed in seeds:
        kind = seed % 4
        if kind == 0:
            plan.append((seed, "Historical", []))
        elif kind == 1:
            plan.append((seed, "Historical", ["valiant"]))
        elif kind == 2:
            plan.append((seed, "Historical", ["optional_cards"]))
        else:
            plan.append((seed, "The Great War", []))
    return plan


def play(seed: int, scenario: str, options: list[str], out: Path) -> dict:
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["node", str(HERE / "play.js"), str(ENGINE), str(out), str(seed), scenario, *options], check=True, capture_output=True, text=True)
    return json.loads(out.read_text())


def check_folder(folder: Path):
    """pbem's own check of every turn file in ``folder``, in-process: (file, Replay) pairs."""
    from pbem.engine.replay import replay
    from pbem.formats.turnfile import load_start_state, load_turn

    results = []
    for path in sorted(folder.glob("t??.json")):
        turn, module = load_turn(path)
        state = load_start_state(turn, module, None)
        results.append((path, replay(module, state, turn)))
    return results


# Cases where the engine and the rulebook disagree and the rulebook wins, each listed in the module README with its
# rule. A verdict is excluded only when its rule and its situation match one of these exactly.
def _round_card(document: dict, index: int) -> dict:
    for action in reversed(document["actions"][:index]):
        if "card" in action and action.get("use") != "discard":
            return action
        if action.get("phase") == "action":
            break
    return {}


def _valiant_great_retreat(violation, document: dict, index: int, options: dict) -> str | None:
    """The engine's Valiant variant lets Great Retreat (AP-27) played as an event conduct operations; the card's
    text (LR2022 and the deck's) gives no OPS, so moving or activating in that round needs a card played for OPS."""
    play = _round_card(document, index)
    if options.get("valiant") and play.get("card") == "AP-27" and play.get("use") == "event" and violation.rule in ("9.2.1", "9.2.5", "12.1.1", "11.2.1", "11.2.2"):
        return "9.2.1: Great Retreat (AP-27) gives no OPS (the engine's Valiant variant does)"
    return None


DISAGREEMENTS = [_valiant_great_retreat]


def disagreement(violation, document: dict, index: int, options: dict) -> str | None:
    """The rule under which the rulebook, not the engine, decides this verdict (see the README); else None."""
    for case in DISAGREEMENTS:
        why = case(violation, document, index, options)
        if why:
            return why
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1-2", help="seeds, e.g. 1-30 or 3,5,8")
    parser.add_argument("--out", type=Path, default=Path("/work/helpers/pog-games"))
    parser.add_argument("--status", type=Path, help="write the figures here as Markdown")
    parser.add_argument("--replay", action="store_true", help="reuse recorded games in OUT instead of playing")
    args = parser.parse_args(argv)
    seeds: list[int] = []
    for part in args.seeds.split(","):
        a, _, b = part.partition("-")
        seeds += list(range(int(a), int(b or a) + 1))
    ids = build_ids(ENGINE, SHARED / "rtt")
    conv = Converter(ids)
    verdicts: dict[tuple[str, str], list] = defaultdict(list)
    excluded: Counter = Counter()
    warnings: Counter = Counter()
    unwritable: Counter = Counter()
    files = bad_files = actions = 0
    games = []
    started = time.perf_counter()
    for seed, scenario, options in game_plan(seeds):
        tag = f"seed{seed:03d}-{'G' if scenario.startswith('The') else 'H'}{''.join('-' + o for o in options)}"
        folder = args.out / tag
        record_path = args.out / "engine" / f"{tag}.json"
        game = json.loads(record_path.read_text()) if args.replay and record_path.exists() else play(seed, scenario, options, record_path)
        turns = convert_game(conv, game, folder)
        for t in turns:
            unwritable.update(t.unwritable)
        results = check_folder(folder)
        games.append((tag, game["end"], len(turns)))
        for path, result in results:
            files += 1
            actions += result.actions
            document = json.loads(path.read_text())
            false_here = False
            for v in result.violations:
                if v.severity == "warning":
                    warnings[v.rule] += 1
                    continue
                why = disagreement(v, document, v.index or 0, game.get("options", {}))
                if why:
                    excluded[why] += 1
                    continue
                false_here = True
                verdicts[(v.rule, v.severity)].append((f"{path}:{(v.index or 0) + 1}", v.message))
            bad_files += false_here
        print(f"{tag}: {len(turns)} game-turns, end {game['end']['victory']}", file=sys.stderr)
    elapsed = time.perf_counter() - started
    lines = report(games, files, bad_files, actions, verdicts, excluded, warnings, unwritable, elapsed)
    print("\n".join(lines))
    if args.status:
        args.status.write_text("\n".join(lines) + "\n")
    return 0


# Who fixes what (issue 24's helpers), for the status file; a guess from the rule, the example says more.
OWNERS = {
    "11.2.1": "pog-rules class 1 (Entrench by either player)", "13.1.8": "pog-rules class 1", "11.1.12": "pog-rules class 1 / edition per game",
    "12.4.4": "pog-rules", "12.6.1": "pog-rules", "12.5.1": "pog-rules (the replacing corps is a defender too)", "12.5.3": "pog-rules (cancel with a replacing corps)",
    "9.2.1": "pog-rules class 2 (events that give OPS)", "9.2.5": "pog-rules class 2 (events that give OPS)", "12.1.1": "pog-rules class 2 (events that give OPS, Guns of August)",
    "9.2.6": "pog-rules class 2 (Guns of August)", "11.1.3": "pog-rules class 2 (Guns of August)", "12.1.3": "pog-rules class 2 (Guns of August)",
    "13.1.9": "pog-rules class 2 (event effects)", "9.5.3.2": "pog-rules class 2 (event effects)", "17.1.4": "pog-forms (rebuild not writable before it)",
    "17.1.1": "pog-rules (RP from events, 5.7.3) / pog-forms (rebuild)", "14.3.5": "pog-diff", "14.3.1": "pog-diff", "13.1.5": "pog-diff",
    "4.2.2": "pog-diff", "11.1.11": "pog-diff", "13.1.6": "pog-diff (converter SR route)", "13.1.7": "pog-diff", "11.1.8": "pog-diff", "11.2.2": "pog-rules (11.2.10 trench roll DRM; events that give OPS)",
}


def report(games, files, bad_files, actions, verdicts, excluded, warnings, unwritable, elapsed) -> list[str]:
    total = sum(len(v) for v in verdicts.values())
    lines = [
        "# pog-diff: pbem against Rally the Troops' engine",
        "",
        f"{len(games)} games, {files} game-turn files, {actions} pbem actions; {total} false verdicts (illegal or mismatch on legal play) "
        f"in {bad_files} files; {sum(excluded.values())} excluded where the rulebook decides against the engine; {elapsed:.0f} s.",
        "",
        "Games: " + ", ".join(f"{tag} ({n} turns{'' if end.get('victory') else ', INCOMPLETE'})" for tag, end, n in games),
        "",
        "## False verdicts by rule (one example each)",
        "",
    ]
    for (rule, severity), found in sorted(verdicts.items(), key=lambda kv: -len(kv[1])):
        where, message = found[0]
        owner = OWNERS.get(rule, "unassigned: pog-diff looks")
        lines.append(f"- **{rule}** {severity}: {len(found)} ({owner}) — e.g. `{where}`: {message}")
    if excluded:
        lines += ["", "## Excluded (the rulebook decides against the engine; README lists each)", ""]
        lines += [f"- {why}: {n}" for why, n in excluded.most_common()]
    lines += ["", "## Not writable in pbem's turn format, by kind", ""]
    lines += [f"- {kind}: {n}" for kind, n in unwritable.most_common()]
    lines += ["", "## Warnings (not verdicts) by rule", ""]
    lines += [f"- {rule}: {n}" for rule, n in warnings.most_common()]
    return lines


if __name__ == "__main__":
    sys.exit(main())
