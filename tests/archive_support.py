"""Shared by the archive tests: the CLI run in-process, and the generated sample game of the archive benchmark."""

from __future__ import annotations

import importlib.util
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
    """``benchmarks/archive.py`` as a module: its game generator is what the tests archive."""
    spec = importlib.util.spec_from_file_location("pbem_archive_bench", ROOT / "benchmarks" / "archive.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
