"""Reports of a replay: text lines for people, a JSON object (``schemas/report.schema.json``) for scripts."""

from __future__ import annotations

from typing import Any

from pbem.engine.replay import Replay
from pbem.model.violation import ILLEGAL, MISMATCH, WARNING


def report_json(replay: Replay, file: str) -> dict[str, Any]:
    header = replay.turn.header
    module = replay.state.module
    return {
        "file": file,
        "module": module.id,
        "module_version": module.version,
        "scenario": header.scenario,
        "turn": header.turn,
        "side": header.side,
        "actions": replay.actions,
        "violations": [v.as_json() for v in replay.violations],
        "ok": replay.ok,
        **({"odds": [odds_json(action, odds) for action, odds in replay.odds]} if replay.odds else {}),
    }


def odds_json(action, odds) -> dict[str, Any]:
    return {"index": action.index, "source": action.source.as_json() if action.source else None, **odds.as_json()}


def odds_lines(replay: Replay) -> list[str]:
    """For each combat: ``file:line: attack on 3005: 11 to 4 = 2/1`` and the working below it."""
    lines = []
    for action, odds in replay.odds:
        where = f"{action.source.file}:{action.source.line}" if action.source and action.source.line else (action.source.file if action.source else "?")
        first, *rest = odds.lines()
        lines.append(f"{where}: {first}")
        lines.extend(f"    {line}" for line in rest)
    return lines


def report_lines(replay: Replay) -> list[str]:
    """One line per violation: ``file:line: rule 9.14 [illegal] message``."""
    return [str(v) for v in replay.violations]


def summary(replay: Replay, file: str) -> str:
    counts = {s: sum(v.severity == s for v in replay.violations) for s in (ILLEGAL, MISMATCH, WARNING)}
    found = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    verdict = "all legal" if replay.ok else "violations found"
    return f"{file}: {replay.actions} actions checked, {verdict}" + (f" ({found})" if found else "")
