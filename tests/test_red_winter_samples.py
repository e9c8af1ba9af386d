"""Every Red Winter sample gets its expected verdict from ``pbem check --format json``."""

import json
import re

import pytest

from pbem.engine.rulesets import module_ruleset
from pbem.model.module import load_module
from pbem.model.resources import data_dir
from sample_support import check_sample, expected_verdicts

RULES = module_ruleset(load_module("red-winter"))

SAMPLES = data_dir("samples") / "red-winter"
EXPECTED = expected_verdicts(SAMPLES)


def test_enough_samples_of_each_kind():
    verdicts = [v["ok"] for v in EXPECTED.values()]
    assert verdicts.count(True) >= 3 and verdicts.count(False) >= 15
    states = {p.name for p in SAMPLES.glob("state-*.json")}
    assert set(EXPECTED) == {p.name for p in SAMPLES.glob("*.json")} - {"expected.json"} - states


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_verdict(pbem, name):
    report = check_sample(pbem, SAMPLES, name, EXPECTED[name])
    assert not [v for v in report["violations"] if v["severity"] == "warning"], "every action kind used is checked"


@pytest.mark.parametrize("name", sorted(n for n, v in EXPECTED.items() if not v["ok"]))
def test_illegal_samples_break_exactly_the_rule_in_their_name(pbem, name):
    """The file name carries the digest's checklist id; the verdict reports its GMT number (if the digest
    gives one) and names the checklist id at the end of the message."""
    parts = name.split("-")
    checklist = f"{parts[1]}-{parts[2]}"
    assert EXPECTED[name]["rules"] == [RULES.rule_number_of(checklist)]
    report = json.loads(pbem("check", SAMPLES / name, "--format", "json").out)
    messages = [v["message"] for v in report["violations"] if v["severity"] != "warning"]
    if RULES.rule_number_of(checklist) != checklist:
        assert all(re.search(rf"\({checklist}\)$", m) for m in messages), messages


@pytest.mark.parametrize("legal, state", [("legal-01-soviet-advance.json", "state-after-legal-01.json"), ("legal-02-finnish-reply.json", "state-after-legal-02.json")])
def test_committed_states_are_what_pbem_writes(pbem, tmp_path, legal, state):
    written = tmp_path / "after.json"
    assert pbem("check", SAMPLES / legal, "--write-state", written).code == 0
    assert json.loads(written.read_text()) == json.loads((SAMPLES / state).read_text())
