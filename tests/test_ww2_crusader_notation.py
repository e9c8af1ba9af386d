"""Every Crusader sample has a notation twin (written by ``pbem convert --to pbem``) that gets the same verdict."""

import json

import pytest

from pbem.model.resources import data_dir
from sample_support import expected_verdicts

SAMPLES = data_dir("samples") / "ww2-crusader"
EXPECTED = expected_verdicts(SAMPLES)


def test_every_sample_has_a_twin():
    assert {p.stem for p in SAMPLES.glob("*.pbem")} == {name.removesuffix(".json") for name in EXPECTED}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_twin_gets_the_same_verdict(pbem, name):
    result = pbem("check", SAMPLES / name.replace(".json", ".pbem"), "--format", "json")
    report = json.loads(result.out)
    rules = sorted({v["rule"] for v in report["violations"] if v["severity"] != "warning"})
    assert {"ok": report["ok"], "rules": rules} == EXPECTED[name], report["violations"]
