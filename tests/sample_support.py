"""Shared by every game's sample tests: a sample turn checked as a user would, held to its expected verdict."""

from __future__ import annotations

import json
from pathlib import Path

from pbem.model.schemas import validator


def expected_verdicts(folder: Path) -> dict[str, dict]:
    """``expected.json`` of a samples folder: file name -> ``{"ok": bool, "rules": [...]}``."""
    return json.loads((folder / "expected.json").read_text(encoding="utf-8"))


def check_sample(pbem, folder: Path, name: str, expected: dict) -> dict:
    """``pbem check --format json`` on one sample: a valid report, the expected verdict and rules, the right exit code."""
    result = pbem("check", folder / name, "--format", "json")
    report = json.loads(result.out)
    validator("report").validate(report)
    rules = sorted({v["rule"] for v in report["violations"] if v["severity"] != "warning"})
    assert {"ok": report["ok"], "rules": rules} == expected, report["violations"]
    assert result.code == (0 if expected["ok"] else 1)
    return report
