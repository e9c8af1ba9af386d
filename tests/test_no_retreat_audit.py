"""The independent No Retreat! audit: every turn written from the rulebook and the printed charts gets its verdict
and names the rule it breaks (samples/no-retreat/audit/, verdicts decided before pbem was run)."""

from __future__ import annotations

import json

import pytest

from pbem.model.resources import data_dir

AUDIT = data_dir("samples") / "no-retreat" / "audit"
EXPECTED = json.loads((AUDIT / "expected.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_audit_turn(pbem, name):
    result = pbem("check", AUDIT / name, "--format", "json")
    assert result.code in (0, 1), result.err
    report = json.loads(result.out)
    expected = EXPECTED[name]
    assert report["ok"] == expected["ok"], report["violations"]
    named = {v["rule"] for v in report["violations"] if v["severity"] != "warning"}
    assert set(expected["rules"]) <= named, (expected["rules"], report["violations"])
    # A wrong half's play is one violation of its own rule, not a contradictory timing message too (5.3 vs 5.3.1).
    if "5.3" in expected["rules"]:
        assert "5.3.1" not in named
