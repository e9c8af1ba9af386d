"""A FIFO given where a file is expected is refused at once, never opened (opening one blocks until a writer comes)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")

COMMANDS = [
    ["check", "{fifo}.json"],
    ["check", "{fifo}.pbem"],
    ["check", "{fifo}.vlog"],
    ["state", "show", "{fifo}.json"],
    ["vassal", "info", "{fifo}.vsav"],
    ["archive", "--db", "{fifo}.sqlite", "list"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
def test_a_fifo_is_refused_without_blocking(tmp_path, command):
    args = []
    for arg in command:
        if "{fifo}" in arg:
            path = tmp_path / ("input" + arg.split("{fifo}")[1])
            os.mkfifo(path)
            arg = str(path)
        args.append(arg)
    # A child process with a timeout: a regression blocks forever, and must fail the test, not hang the suite.
    result = subprocess.run([sys.executable, "-m", "pbem", *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
