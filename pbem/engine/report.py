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
    }


def report_lines(replay: Replay) -> list[str]:
    """One line per violation: ``file:line: rule 9.14 [illegal] message``."""
    return [str(v) for v in replay.violations]


def summary(replay: Replay, file: str) -> str:
    counts = {s: sum(v.severity == s for v in replay.violations) for s in (ILLEGAL, MISMATCH, WARNING)}
    found = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    verdict = "all legal" if replay.ok else "violations found"
    return f"{file}: {replay.actions} actions checked, {verdict}" + (f" ({found})" if found else "")
