"""The fuzz harness (tools/fuzz.py) runs, classifies and reports; a few inputs of the formats it covers here."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_short_fuzz_pass_finds_no_crash_in_turns_and_states(tmp_path):
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "fuzz.py"), "--inputs", "30", "--only", "json-turn,json-state,rules,notation",
         "--keep", str(tmp_path / "findings"), "--seed", "3"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert "30 inputs in" in result.stdout, result.stdout + result.stderr
    table = {line.split()[0]: line.split()[1:6] for line in result.stdout.splitlines() if line.startswith(("json-", "rules", "notation", "all"))}
    refusals, verdicts, crashes, hangs, memory = map(int, table["all"])
    assert refusals + verdicts == 30 and crashes == hangs == memory == 0, result.stdout
    assert result.returncode == 0


def test_a_short_fuzz_pass_over_issue_26s_surfaces(tmp_path):
    """Art templates, names of controls, cache entries, mapping patterns, chat of controls, hostile imports."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "fuzz.py"), "--inputs", "18", "--only", "art,names,cache,patterns,chat,vmod-import",
         "--keep", str(tmp_path / "findings"), "--seed", "26"],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert "18 inputs in" in result.stdout, result.stdout + result.stderr
    table = {line.split()[0]: line.split()[1:6] for line in result.stdout.splitlines() if line.split() and line.split()[0] == "all"}
    refusals, verdicts, crashes, hangs, memory = map(int, table["all"])
    assert refusals + verdicts == 18 and crashes == hangs == memory == 0, result.stdout
    assert result.returncode == 0


def test_the_harness_calls_a_raw_control_character_or_a_changed_verdict_a_crash(tmp_path):
    script = f"""
import sys
sys.path.insert(0, {str(ROOT / "tools")!r})
import fuzz
import pbem.cli
import pbem.model.printable as printable
from pathlib import Path
work, samples = Path({str(tmp_path)!r}), Path({str(ROOT / "samples" / "china-war-1980")!r})
real = printable.escape
printable.escape = pbem.cli.one_line = lambda text: text  # as a verb that bypassed the escaping would print
[raw] = fuzz.run_case(fuzz.Case({{}}, [["check", str(work / "no\\x85\\u202e.json")]]), work / "a", 10, 2048)
printable.escape = real
[moved] = fuzz.run_case(fuzz.Case({{}}, [["check", str(samples / "illegal-6.12-mp-overrun.json")]],
                                  same_as=["check", str(samples / "legal-01-amur-crossing.json")]), work / "b", 10, 2048)
print(raw.kind, raw.detail)
print(moved.kind, moved.detail)
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    raw, moved = result.stdout.strip().splitlines()[-2:]
    assert raw.startswith("crash") and "raw control" in raw, result.stdout + result.stderr
    assert moved.startswith("crash") and "differs" in moved, result.stdout + result.stderr


def test_a_child_that_sleeps_is_a_hang_and_time_spent_waiting_for_a_cpu_is_not_counted(tmp_path):
    """Wall time counts against an input only while its child could run: on a machine shared with busier
    processes a child that waited for a CPU is no hang (found by the long pass: 1-2 s of CPU in 30 s of wall)."""
    script = f"""
import os, sys, time
sys.path.insert(0, {str(ROOT / "tools")!r})
import fuzz
import pbem.cli
from pathlib import Path
pbem.cli.main = lambda argv: time.sleep(60)
outcome = fuzz._run_child(["check"], Path({str(tmp_path)!r}), 1, 2048)
print(outcome.kind, outcome.detail)
print(fuzz._run_delay(os.getpid()) >= 0, fuzz._run_delay(-1))
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    hang, delay = result.stdout.strip().splitlines()[-2:]
    assert hang.startswith("hang killed after") and "waiting for a CPU" in hang, result.stdout + result.stderr
    assert delay == "True 0.0"
