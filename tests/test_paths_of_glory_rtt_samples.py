"""Whole game-turns played by Rally the Troops' engine and converted (issue 24): pbem finds nothing illegal in them,
and the mutated one is illegal under the rule it breaks."""

from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "paths-of-glory" / "rtt"
LEGAL = sorted(p for p in SAMPLES.glob("seed*.json") if not p.name.endswith("-start.json"))


def test_there_are_samples():
    assert len(LEGAL) >= 3


@pytest.mark.parametrize("path", LEGAL, ids=lambda p: p.name)
def test_a_legal_game_turn_is_legal(pbem, path):
    result = pbem("check", path)
    assert result.code == 0, result.out
    assert "[illegal]" not in result.out and "[mismatch]" not in result.out


def test_a_mutated_game_turn_is_illegal_under_its_rule(pbem):
    result = pbem("check", SAMPLES / "illegal-9.2.1-seed004-t14-over-budget-activation.json")
    assert result.code == 1
    verdicts = [line for line in result.out.splitlines() if "[illegal]" in line or "[mismatch]" in line]
    assert len(verdicts) == 1 and "rule 9.2.1 [illegal]" in verdicts[0], result.out
