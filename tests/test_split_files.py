"""A turn split into two files at a phase marker, as two emails, gets the verdicts of the whole file: the state the
first file writes carries what the rules remember. A few samples of every game, each split at every phase marker, with
``tools/split_check.py`` (which runs the same over every sample and game in a session)."""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("split_check", ROOT / "tools" / "split_check.py")
split_check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(split_check)  # type: ignore[union-attr]

SAMPLES = [
    "china-war-1980/legal-04-full-game-turn.json",
    "china-war-1980/illegal-2.0-follow-up-unit-attacks.json",
    "no-retreat/legal-01-axis-turn.json",
    "no-retreat/illegal-4.0-phase-order.json",
    "paths-of-glory/legal-20-war-status-phase.json",
    "red-winter/legal-06-night-raid-and-sub-zero.json",
    "ww2-crusader/legal-15-second-player-full-turn.json",
    "ww2-crusader/illegal-24-segment-out-of-order.json",
]


@pytest.mark.parametrize("sample", SAMPLES)
def test_a_split_file_gets_the_verdicts_of_the_whole(sample, tmp_path):
    path = ROOT / "samples" / sample
    assert split_check.splits(json.loads(path.read_text(encoding="utf-8"))), "a sample with phase markers to split at"
    assert split_check.check_file(path, tmp_path) == []


def test_the_tool_names_a_verdict_the_split_loses(tmp_path, monkeypatch):
    """The check can fail: with the second file's verdicts dropped, the whole file's violation is reported missing."""
    real = split_check.verdicts
    calls = []

    def second_forgets(path):
        found, state = real(path)
        calls.append(path.name)
        return (Counter() if path.name == "second.json" else found), state

    monkeypatch.setattr(split_check, "verdicts", second_forgets)
    problems = split_check.check_file(ROOT / "samples" / "no-retreat" / "illegal-4.0-phase-order.json", tmp_path)
    assert any("missing 4.0" in line for line in problems) and "second.json" in calls
