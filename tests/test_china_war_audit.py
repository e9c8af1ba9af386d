"""The rules audit: turns written from the Chinese rulebook by someone who never saw the code, each with the verdict
the text gives (samples/china-war-1980/audit/expected.json). Every one must get that verdict; where pbem disagrees on
purpose, the entry says why (``disputed``) and what pbem reports instead (``pbem``)."""

import json

import pytest

from pbem.model.resources import data_dir

AUDIT = data_dir("samples") / "china-war-1980" / "audit"
EXPECTED = json.loads((AUDIT / "expected.json").read_text())


def test_the_audit_is_whole():
    assert len(EXPECTED) >= 50
    assert set(EXPECTED) == {p.name for p in AUDIT.glob("*.json")} - {"expected.json"}
    disputed = [name for name, entry in EXPECTED.items() if "disputed" in entry]
    assert all("pbem" in EXPECTED[name] and EXPECTED[name]["disputed"] for name in disputed)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_audit_verdict(pbem, name):
    entry = EXPECTED[name]
    want = entry["pbem"] if "disputed" in entry else entry
    result = pbem("check", AUDIT / name, "--format", "json")
    assert result.code in (0, 1), result.err
    report = json.loads(result.out)
    rules = sorted({v["rule"] for v in report["violations"] if v["severity"] != "warning"})
    assert {"ok": report["ok"], "rules": rules} == {"ok": want["ok"], "rules": want.get("rules", [])}, (entry.get("why"), report["violations"])
    assert result.code == (0 if want["ok"] else 1)
