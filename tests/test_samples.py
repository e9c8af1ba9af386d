"""Every China War sample gets its expected verdict from ``pbem check --format json``."""

import json
import shutil

import pytest
from jsonschema import Draft202012Validator

from pbem.model.resources import data_dir
from pbem.model.schemas import validator
from sample_support import check_sample, expected_verdicts

SAMPLES = data_dir("samples") / "china-war-1980"
EXPECTED = expected_verdicts(SAMPLES)


def test_enough_samples_of_each_kind():
    verdicts = [v["ok"] for v in EXPECTED.values()]
    assert verdicts.count(True) >= 3 and verdicts.count(False) >= 12
    assert set(EXPECTED) == {p.name for p in SAMPLES.glob("*.json")} - {"expected.json", "state-after-legal-01.json"}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_verdict(pbem, name):
    report = check_sample(pbem, SAMPLES, name, EXPECTED[name])
    for violation in report["violations"]:
        assert violation["source"]["file"].endswith(name) and violation["source"]["line"] >= 1


@pytest.mark.parametrize("name", sorted(n for n, v in EXPECTED.items() if not v["ok"]))
def test_illegal_samples_break_exactly_the_rule_in_their_name(name):
    # The name says what the situation was built to break; the verdict must say the same.
    assert EXPECTED[name]["rules"] == [name.split("-")[1]]


def test_written_state_starts_the_next_turn(pbem, tmp_path):
    """legal-02 starts from the state pbem wrote after legal-01; the committed file is exactly that state."""
    written = tmp_path / "after.json"
    assert pbem("check", SAMPLES / "legal-01-amur-crossing.json", "--write-state", written).code == 0
    state = json.loads(written.read_text())
    Draft202012Validator(validator("state").schema).validate(state)
    assert state == json.loads((SAMPLES / "state-after-legal-01.json").read_text())
    units = {u["id"]: u for u in state["units"]}
    assert units["PLA-INF-XX-1-03"]["at"] == "3305" and units["PLA-INF-XX-1-03"]["step"] == 1  # flanked: no retreat
    assert units["PLA-INF-XX-1-01"]["step"] == 1  # took a step loss
    assert units["SOV-TK-XX-1-02"]["at"] == "2606"
    assert (state["turn"], state["phase"], state["side"], state["first_side"]) == (1, "combat", "soviet", "soviet")
    # The chain works from a copy in any folder.
    shutil.copy(SAMPLES / "legal-02-chinese-reply.json", tmp_path / "turn2.json")
    shutil.copy(written, tmp_path / "state-after-legal-01.json")
    assert pbem("check", tmp_path / "turn2.json").code == 0
