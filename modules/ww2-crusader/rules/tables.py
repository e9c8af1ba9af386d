"""The tables the Crusader checks read: the module's own ``tables.json``, or a group's own file over it.

The source prints no combat results table, hint card (terrain costs and shifts, river modifier, ZOC
stopping) or unit cards, so the module ships illustrative values marked ``supplied``. A group that has
the real ones writes them in a file of the same shape (``group-tables.schema.json``) and names it with
``PBEM_TABLES=path`` (or passes it to :func:`build_ruleset`); every table the file gives replaces the
module's whole, and every table is checked against the schema before use. A value no table gives is
``None``: the check that needs it reports "not checked" (:meth:`Tables.missing`), never a guess.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pbem.model.errors import PbemError
from pbem.model.jsonsource import JsonDocument, load_json

SCHEMA = "group-tables.schema.json"
ENV = "PBEM_TABLES"  # the file of tables a group names over the module's own


class Tables:
    """The tables in force: the module's, with a group's file (if any) replacing the tables it gives."""

    def __init__(self, module_path: Path, own: dict[str, Any], group_file: Path | None = None):
        self.schema = json.loads((module_path / SCHEMA).read_text(encoding="utf-8"))
        self.data: dict[str, Any] = dict(own)
        _check(self.schema, self.data, str(module_path / "tables.json"))
        self.group_file = group_file
        self.from_group: set[str] = set()
        if group_file is not None:
            document = load_json(group_file)
            _check(self.schema, document.data, str(group_file), document)
            for name, table in document.data.items():
                self.data[name] = table
                self.from_group.add(name)

    def table(self, name: str) -> dict[str, Any] | None:
        return self.data.get(name)

    def value(self, name: str, *keys: str) -> Any:
        """The value at ``keys`` in table ``name``; None when no table in force gives it."""
        found: Any = self.data.get(name)
        for key in keys:
            if not isinstance(found, dict):
                return None
            found = found.get(key)
        return found

    def origin(self, name: str) -> str:
        """Where table ``name`` comes from, for messages: the group's file or the module (supplied or not)."""
        if name in self.from_group:
            return f"the group's {Path(self.group_file).name}"  # type: ignore[arg-type]
        status = self.value(name, "source", "status")
        return "the module's supplied (illustrative) table" if status == "supplied" else "the source"


def _check(schema: dict[str, Any], data: Any, where: str, document: JsonDocument | None = None) -> None:
    from jsonschema import Draft202012Validator

    errors = sorted(Draft202012Validator(schema).iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        error = errors[0]
        pointer = "/" + "/".join(map(str, error.absolute_path))
        if document is not None:
            raise document.error(pointer, f"not a tables file of this game: {error.message[:160]}")
        raise PbemError(f"{where}: at {pointer}: {error.message[:160]}")


def group_file() -> Path | None:
    """The file a group names with ``PBEM_TABLES`` (None when it names none)."""
    name = os.environ.get(ENV, "").strip()
    return Path(name) if name else None
