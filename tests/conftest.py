"""Shared test helpers: run the real CLI in-process, find the repo's folders."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.model.resources import data_dir

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@dataclass
class CliResult:
    code: int
    out: str
    err: str


@pytest.fixture
def pbem(capsys):
    """``pbem(*args)`` runs the ``pbem`` command as a user would and returns its exit code and output."""
    from pbem.cli import main

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_info:
            main([str(a) for a in args])
        captured = capsys.readouterr()
        return CliResult(exit_info.value.code or 0, captured.out, captured.err)

    return run


@pytest.fixture(scope="session")
def samples() -> Path:
    return data_dir("samples") / "china-war-1980"
