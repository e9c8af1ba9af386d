"""Every WWII Campaign / Crusader sample gets its expected verdict from ``pbem check --format json``."""

import pytest

from pbem.model.resources import data_dir
from sample_support import check_sample, expected_verdicts

SAMPLES = data_dir("samples") / "ww2-crusader"
EXPECTED = expected_verdicts(SAMPLES)


def test_enough_samples_of_each_kind():
    verdicts = [v["ok"] for v in EXPECTED.values()]
    assert verdicts.count(True) >= 15 and verdicts.count(False) >= 30
    turns = {p.name for p in SAMPLES.glob("*.json")} - {"expected.json"} - {p.name for p in SAMPLES.glob("state-*.json")}
    assert set(EXPECTED) == turns


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_verdict(pbem, name):
    report = check_sample(pbem, SAMPLES, name, EXPECTED[name])
    for violation in report["violations"]:
        assert violation["source"]["file"].endswith(name) and violation["source"]["line"] >= 1


@pytest.mark.parametrize("name", sorted(n for n, v in EXPECTED.items() if not v["ok"]))
def test_each_illegal_sample_breaks_one_rule(name):
    assert len(EXPECTED[name]["rules"]) == 1
