"""Split each turn file in two at every phase marker, as two players by email would send it, and compare verdicts.

    .venv/bin/python tools/split_check.py samples/*/legal-*.json [/work/helpers/pog-games/seed*/t??.json ...]

For each JSON turn file and each phase marker inside it, the actions before the marker go in a first file (the
file's own header and start) and the rest in a second file that starts from the state the first one wrote, as
``pbem check FIRST --write-state`` writes it. A game split into files must be judged as the same game: the
violations of the two files (rule, severity, message) must be those of the whole file. A difference is printed
with the file, the split and what differs: ``extra`` (a verdict the split adds: a false accusation when the whole
file is legal) or ``missing`` (a verdict the split loses). Exit 1 when any split differs.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

from pbem.engine.replay import replay
from pbem.formats.turnfile import load_start_state, load_turn
from pbem.model.errors import PbemError
from pbem.model.state import written_state_text


def verdicts(path: Path) -> tuple[Counter, str]:
    """The violations of checking ``path`` as (rule, severity, message), and the state it leaves as file text."""
    turn, module = load_turn(path)
    state = load_start_state(turn, module, None)
    result = replay(module, state, turn)
    found = Counter((v.rule, v.severity, v.message) for v in result.violations)
    return found, written_state_text(module, result.state.to_json())


def splits(document: dict) -> list[int]:
    """The indexes of the phase markers a file may be split before (not the first action)."""
    return [k for k, action in enumerate(document["actions"]) if k > 0 and isinstance(action, dict) and "phase" in action]


def check_file(path: Path, folder: Path) -> list[str]:
    document = json.loads(path.read_text(encoding="utf-8"))
    whole, _ = verdicts(path)
    problems = []
    for k in splits(document):
        first = dict(document, actions=document["actions"][:k])
        start = document.get("start", {})
        if "state" in start:  # the first file's start state, where it is beside the original
            copy = folder / start["state"]
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text((path.parent / start["state"]).read_text(encoding="utf-8"), encoding="utf-8")
        (folder / "first.json").write_text(json.dumps(first), encoding="utf-8")
        try:
            found_first, state_text = verdicts(folder / "first.json")
            (folder / "between.json").write_text(state_text, encoding="utf-8")
            second = {key: value for key, value in document.items() if key not in ("start", "from", "to")}
            second.update(start={"state": "between.json"}, actions=document["actions"][k:])
            (folder / "second.json").write_text(json.dumps(second), encoding="utf-8")
            found_second, _ = verdicts(folder / "second.json")
        except PbemError as error:
            problems.append(f"{path} split before action {k}: {error}")
            continue
        split = found_first + found_second
        extra, missing = split - whole, whole - split
        marker = document["actions"][k]["phase"]
        for (rule, severity, message), n in sorted(extra.items()):
            problems.append(f"{path} split before action {k} ({marker}): extra {rule} [{severity}] {message}" + (f" (x{n})" if n > 1 else ""))
        for (rule, severity, message), n in sorted(missing.items()):
            problems.append(f"{path} split before action {k} ({marker}): missing {rule} [{severity}] {message}" + (f" (x{n})" if n > 1 else ""))
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args(argv)
    problems, checked = [], 0
    with tempfile.TemporaryDirectory(prefix="pbem-split-") as temporary:
        for path in args.files:
            try:
                document = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if not isinstance(document, dict) or not isinstance(document.get("actions"), list) or not splits(document):
                continue
            checked += 1
            problems += check_file(path.resolve(), Path(temporary))
    for line in problems:
        print(line)
    print(f"{checked} files split at every phase marker: {len(problems)} differences", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
