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
