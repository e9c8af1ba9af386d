"""The rules audit: turns written from the Chinese rulebook by someone who never saw the code, each with the verdict
the text gives (samples/china-war-1980/audit/expected.json). Every one must get that verdict; where pbem disagrees on
purpose, the entry says why (``disputed``) and what pbem reports instead (``pbem``)."""

import json

import pytest

from pbem.model.resources import data_dir

AUDIT = data_dir("samples") / "china-war-1980" / "audit"
EXPECTED = json.loads((AUDIT / "expected.json").read_text())
# The audit lists both numbers where two cases state the same ban (its README); either one names the fault.
SAME_BAN = [{"6.24", "9.11"}, {"9.14", "9.92"}, {"9.91", "8.0"}, {"10.8", "10.24"}]


def bans(rules: list[str]) -> set[str]:
    """Rule numbers with each pair that states the same ban counted once."""
    return {min(next((group for group in SAME_BAN if rule in group), {rule})) for rule in rules}


def test_the_audit_is_whole():
    assert len(EXPECTED) >= 50
    assert set(EXPECTED) == {p.name for p in AUDIT.glob("*.json")} - {"expected.json", "pbem-today.json"}
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
    assert (report["ok"], bans(rules)) == (want["ok"], bans(want.get("rules", []))), (entry.get("why"), report["violations"])
    assert result.code == (0 if want["ok"] else 1)


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if "retreat_away" in e.get("disputed", "")))
def test_the_other_retreat_reading_gives_the_audits_verdict(pbem, monkeypatch, name):
    from china_war_support import RULES

    monkeypatch.setitem(RULES.options, "retreat_away", "from_attackers")
    report = json.loads(pbem("check", AUDIT / name, "--format", "json").out)
    rules = sorted({v["rule"] for v in report["violations"] if v["severity"] != "warning"})
    assert (report["ok"], bans(rules)) == (EXPECTED[name]["ok"], bans(EXPECTED[name].get("rules", [])))
