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
        "events": [e.as_json() for e in replay.events],
        **({"vassal": replay.turn.origin} if replay.turn.origin else {}),
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
    """One line per violation, ``file:line: rule 9.14 [illegal] message``, and one per random event,
    ``file:line: [roll] political roll 1+4 = G: NATO declares neutrality (5.2)``, in the order of the turn."""
    return [str(item) for item in report_items(replay)]


def report_items(replay: Replay) -> list:
    """The violations and the random events of ``replay`` in the order of the turn (an event before the violations
    of its own action; those of the turn's end last)."""
    if not replay.events:
        return list(replay.violations)
    last = len(replay.turn.actions)
    keyed = [((e.index if e.index is not None else last, 0), n, e) for n, e in enumerate(replay.events)]
    keyed += [((v.index if v.index is not None else last + 1, 1), n, v) for n, v in enumerate(replay.violations)]
    return [item for _, _, item in sorted(keyed, key=lambda k: (k[0], k[1]))]


def summary(replay: Replay, file: str) -> str:
    counts = {s: sum(v.severity == s for v in replay.violations) for s in (ILLEGAL, MISMATCH, WARNING)}
    found = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
    verdict = "all legal" if replay.ok else "violations found"
    return f"{file}: {replay.actions} actions checked, {verdict}" + (f" ({found})" if found else "")
