"""The independent Paths of Glory audit (samples/paths-of-glory/audit): every turn gets the auditor's verdict.

The auditor wrote each verdict from the rules alone. A verdict we believe the rules contradict is marked
``"disputed"`` in expected.json with the rule text's reason, and is then checked the other way round.
"""

import json

import pytest

from pbem.model.resources import data_dir

AUDIT = data_dir("samples") / "paths-of-glory" / "audit"
EXPECTED = json.loads((AUDIT / "expected.json").read_text())


def test_every_turn_of_the_audit_has_a_verdict():
    turns = {p.name for p in AUDIT.glob("*.json")} - {"expected.json", "pbem-today.json"}
    assert set(EXPECTED) == {t for t in turns if not t.startswith("state-")}
    assert len(EXPECTED) == 125


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_audit_verdict(pbem, name):
    expected = EXPECTED[name]
    ok = expected["ok"] if "disputed" not in expected else not expected["ok"]
    result = pbem("check", AUDIT / name, "--format", "json")
    report = json.loads(result.out)
    assert report["ok"] == ok, (expected.get("why"), report["violations"])
    assert result.code == (0 if ok else 1)
    if not ok:
        assert any(v["severity"] != "warning" for v in report["violations"])
