"""Shared by the archive tests: the CLI run in-process, and the generated sample game of the archive benchmark."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import main

ROOT = Path(__file__).resolve().parents[1]


def run(capsys, *args) -> tuple[int, str, str]:
    """``pbem ARGS``: exit code, stdout, stderr."""
    with pytest.raises(SystemExit) as exit_:
        main([str(a) for a in args])
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def archive_bench():
    """The generated-game helpers (``tests/gamegen.py``) that the archive tests store, export and replay."""
    import gamegen

    return gamegen
