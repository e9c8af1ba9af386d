"""Where pbem's own data (modules, schemas, samples) lives: inside an installed wheel, or in a checkout."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from pbem.model.errors import PbemError

_PACKAGE = Path(__file__).resolve().parents[1]


@cache
def data_dir(name: str) -> Path:
    """The folder ``name`` (``modules``, ``schemas`` or ``samples``) of this installation."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise PbemError(f"this pbem installation has no {name} folder (looked in {_PACKAGE / '_data'})")
