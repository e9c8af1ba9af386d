"""Big hostile inputs, generated here: each is checked or refused in seconds and bounded memory.

The figures on this machine are in ``benchmarks/hostile.py``; these tests hold generous bounds that only a
return of a quadratic walk or a map of every value would break.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tracemalloc

from conftest import CliResult

from pbem.model.jsonsource import parse_json

HEADER = {"module": "china-war-1980", "turn": 1, "side": "soviet", "start": {"scenario": "border-war"}}


def moves(n: int, path_length: int = 2) -> dict:
    path = (["2604", "2605"] * path_length)[:path_length]
    return HEADER | {"actions": [{"phase": "movement"}] + [{"move": "SOV-TK-XX-1-02", "path": path if k % 2 else path[::-1]} for k in range(n)]}


def timed_check(pbem, path, *args):
    """The check's result and the CPU seconds it took, run as the user runs it: in a process of its own (CPU time,
    so that a busy machine cannot fail a bound; its own process, so that the test session's heap, which every
    garbage collection walks, does not make a longer turn look slower than it is)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "pbem", "check", str(path), *map(str, args)], capture_output=True, text=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return CliResult(done.returncode, done.stdout, done.stderr), seconds


def test_a_turn_of_the_most_actions_allowed_is_checked_in_seconds(pbem, tmp_path):
    turn = tmp_path / "long.json"
    turn.write_text(json.dumps(moves(9_999)))
    result, seconds = timed_check(pbem, turn, "--format", "json")
    assert result.code == 1 and json.loads(result.out)["actions"] == 10_000
    assert seconds < 30, seconds  # about 1 s; a quadratic walk over the moves took minutes


def test_one_more_action_is_refused_in_one_line(pbem, tmp_path):
    turn = tmp_path / "longer.json"
    turn.write_text(json.dumps(moves(10_000)))
    result, _ = timed_check(pbem, turn)
    assert result.code == 2 and "/actions" in result.err and "10,000 allowed" in result.err


def test_move_through_half_a_million_hexes_is_refused_quickly(pbem, tmp_path):
    turn = tmp_path / "path.json"
    turn.write_text(json.dumps(moves(1, 500_000), separators=(",", ":")))
    result, seconds = timed_check(pbem, turn)
    assert result.code == 2 and "(/actions/1)" in result.err and "more than 100,000 values" in result.err
    assert seconds < 15, seconds


def test_a_path_longer_than_allowed_is_refused_by_its_length(pbem, tmp_path):
    turn = tmp_path / "path.json"
    turn.write_text(json.dumps(moves(1, 1_001)))
    result, _ = timed_check(pbem, turn)
    assert result.code == 2 and "/actions/1/path" in result.err and "1,000 allowed" in result.err


def test_check_time_grows_linearly_with_the_turn(pbem, tmp_path):
    times = {}
    for n in (500, 4_000):
        turn = tmp_path / f"t{n}.json"
        turn.write_text(json.dumps(moves(n, 12)))
        times[n] = min(timed_check(pbem, turn)[1] for _ in range(2))
    assert times[4_000] < 8 * times[500] + 1.0, times  # 8 times the actions; quadratic would be 64 times


def test_a_turn_holding_too_many_values_is_refused_at_the_action_that_passes_the_bound(pbem, tmp_path):
    turn = tmp_path / "paths.json"
    turn.write_text(json.dumps(moves(800, 140)))  # 800 moves through 140 hexes: 114,400 values
    result, seconds = timed_check(pbem, turn)
    assert result.code == 2 and "more than 100,000 values" in result.err and "(/actions/700)" in result.err
    assert seconds < 15, seconds


def test_oversized_json_is_refused_before_it_is_parsed(pbem, tmp_path):
    turn = tmp_path / "big.json"
    turn.write_text(json.dumps(HEADER | {"actions": [], "x": "y" * (4 * 1024 * 1024)}))
    result, seconds = timed_check(pbem, turn)
    assert result.code == 2 and "larger than 4 MiB" in result.err and seconds < 5


def test_locating_an_error_deep_in_a_big_document_keeps_memory_small():
    text = json.dumps({"a": [1] * 1_000_000, "b": [{"c": [0, 1, {"d": 2}]}]})
    document = parse_json(text, "big.json")
    tracemalloc.start()
    try:
        line, column = document.position("/b/0/c/2/d")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert text[column - 1] == "2" and line == 1
    assert peak < 40 * 1024 * 1024, peak  # a map of every value's pointer took gigabytes at 60 MB


def test_long_notation_is_read_within_its_budget(pbem, tmp_path):
    lines = ["Game: China War 1980", "Scenario: border-war", "Turn: 1", "Side: Soviet", "== Movement =="]
    row = "SOV-TK-XX-1-02: " + "-".join(["2604", "2605"] * 58)
    lines += [row] * (1024 * 1024 // (len(row) + 1) - 10)
    turn = tmp_path / "long.pbem"
    turn.write_text("\n".join(lines) + "\n")
    result, seconds = timed_check(pbem, turn)
    assert result.code == 2 and "longer than pbem reads" in result.err
    assert seconds < 30, seconds  # about 3 s; reading every line took minutes
