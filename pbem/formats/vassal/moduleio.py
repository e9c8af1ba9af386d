"""Writing a new module folder whole or not at all."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from pbem.model.errors import PbemError


def oversized(files: dict[str, Any]) -> str | None:
    """Why the module ``files`` would not read back (a file over the size pbem reads), or None."""
    from pbem.model.files import MAX_INPUT_BYTES

    for name, data in sorted(files.items()):
        # The file is written indented, which only adds line breaks and spaces to the compact text: a compact
        # text (C's encoder) over the bound already tells, without the indenting encoder (pure Python, ~20
        # times slower: 4 s of a 2 KB hostile buildFile's 6 s, found by the fuzz pass as a hang under load).
        size = len((json.dumps(data, separators=(",", ": "), ensure_ascii=False) + "\n").encode("utf-8"))
        if size <= MAX_INPUT_BYTES:
            size = len((json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
        if size > MAX_INPUT_BYTES:
            return (f"the module would have a {name} of at least {size / 1024 / 1024:.1f} MiB, more than the "
                    f"{MAX_INPUT_BYTES // 1024 // 1024} MiB pbem reads back (too many locations, connections or pieces)")
    return None


def write_module_folder(target: Path, files: dict[str, Any]) -> None:
    """Write ``files`` (relative name -> JSON data) as the new folder ``target``: complete, or absent."""
    parent = target.parent if str(target.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=parent))
    except OSError as error:
        raise PbemError.at(target, f"cannot write: {error.strerror or error}") from None
    try:
        for name, data in sorted(files.items()):
            path = staging / name
            if path.resolve().parent != staging.resolve():
                raise PbemError.at(target, f"refusing to write {name!r} outside the module folder")
            path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        os.rename(staging, target)
    except OSError as error:
        shutil.rmtree(staging, ignore_errors=True)
        raise PbemError.at(target, f"cannot write: {error.strerror or error}") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
