"""A cache, shared between runs, of what pbem derives from a module's files (the built map, counters, tables).

Each entry is one file per module folder holding the key it was made for and the value. The key is a hash of
every input the value came from (the caller's files, pbem's model code and schemas, pbem's and Python's
versions): a value is used only when its key is the one worked out now, so an edited module, an upgraded
pbem or another Python simply builds the value again. A value is stored only once it has been built and checked
in full, so a hit proves the inputs were valid as they stand.

Nothing here may change a verdict or fail a command: a cache folder that is missing, read-only or full, and an
entry that is unreadable, damaged or of another version are all ignored (the value is built as if there were no
cache). Entries are written whole or not at all (a temporary file renamed over the old one). Only the classes
the caller names are unpickled (plain data besides), so a planted file cannot make pbem call anything else.

``PBEM_CACHE_DIR`` moves the cache (default: ``$XDG_CACHE_HOME/pbem`` or ``~/.cache/pbem``);
``PBEM_NO_CACHE=1`` turns it off.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from typing import Any, Collection, Iterable

# Straight from the C modules, for a start's sake: hashlib loads OpenSSL (~2 ms) and pickle.py is ~1 ms of
# Python around the ``_pickle`` that does the reading; the full modules only where these are missing.
try:
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without it
    from hashlib import blake2b
try:
    from _pickle import Unpickler, UnpicklingError
except ImportError:  # pragma: no cover
    from pickle import Unpickler, UnpicklingError

import pbem
from pbem.model.resources import data_dir

CACHE_DIR_ENV = "PBEM_CACHE_DIR"
NO_CACHE_ENV = "PBEM_NO_CACHE"
MAX_ENTRY_BYTES = 64 * 1024 * 1024  # far above any module's entry (~100 KB); a bigger file is not ours

_MODEL = Path(__file__).resolve().parent


def cache_dir() -> Path | None:
    """Where entries are kept, or None when the cache is turned off."""
    if os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
        return None
    chosen = os.environ.get(CACHE_DIR_ENV)
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # unset, or relative, which the XDG specification says to ignore
        base = os.path.join(os.path.expanduser("~"), ".cache")
    if not os.path.isabs(base):  # no home to be found: no cache, rather than one in the current folder
        return None
    return Path(base) / "pbem"


def _pbem_inputs() -> Iterable[bytes]:
    """What every entry depends on besides its own files: versions, pbem's model code, the schemas."""
    yield f"pbem {pbem.__version__}\0python {sys.version}\0".encode()
    # The source itself, not just the version: a checkout changes its code without changing its version.
    for folder, suffix in ((_MODEL, ".py"), (data_dir("schemas"), ".json")):
        for name in sorted(os.listdir(folder)):  # not glob: its pattern matching costs more than the reading
            if name.endswith(suffix):
                with open(os.path.join(folder, name), "rb") as handle:
                    yield name.encode() + b"\0" + handle.read()


def key(parts: Iterable[tuple[str, bytes]]) -> str:
    """The key of a value built from ``parts`` (a name and the bytes of each input) by this pbem and Python."""
    digest = blake2b(digest_size=32)
    for chunk in _pbem_inputs():
        digest.update(len(chunk).to_bytes(8, "little") + chunk)
    for name, data in parts:
        for chunk in (name.encode("utf-8", "surrogateescape"), data):
            digest.update(len(chunk).to_bytes(8, "little") + chunk)
    return digest.hexdigest()


def entry_path(kind: str, place: str) -> Path | None:
    """The file of the entry for ``place`` (e.g. a module folder's path) among the ``kind`` entries."""
    folder = cache_dir()
    if folder is None:
        return None
    name = blake2b(place.encode("utf-8", "surrogateescape"), digest_size=16).hexdigest()
    return folder / kind / f"{name}.pickle"


def load(kind: str, place: str, wanted: str, classes: Collection[type]) -> Any | None:
    """The value stored for ``place`` under key ``wanted``, or None (no entry, another key, or not readable).

    ``classes`` are the only classes the value may hold besides plain data (numbers, text, containers).
    """
    path = entry_path(kind, place)
    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > MAX_ENTRY_BYTES:
                return None
            data = handle.read(size + 1)  # sized on the file: a read of the bound would allocate all of it
        stored_key, value = _Unpickler(io.BytesIO(data), classes).load()
    except Exception:  # noqa: BLE001 - a damaged, foreign or unreadable entry is no entry
        return None
    return value if stored_key == wanted else None


def store(kind: str, place: str, wanted: str, value: Any) -> None:
    """Keep ``value`` for ``place`` under key ``wanted``, replacing any older entry; silently does nothing
    when the cache is off or cannot be written."""
    path = entry_path(kind, place)
    if path is None:
        return
    import pickle
    import tempfile  # only here, on a miss: they cost ~3 ms to import

    tmp = None
    try:
        data = pickle.dumps((wanted, value), protocol=pickle.HIGHEST_PROTOCOL)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
        tmp = None
    except (OSError, pickle.PicklingError, TypeError, AttributeError, RecursionError):
        pass  # a read-only or full disk, or a value that cannot be kept: the next run builds it again
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


class _Unpickler(Unpickler):
    """Unpickles plain data and the classes it is given; refuses every other class or function."""

    def __init__(self, file: io.BytesIO, classes: Collection[type]):
        super().__init__(file)
        self.classes = {(cls.__module__, cls.__qualname__): cls for cls in classes}

    def find_class(self, module: str, name: str) -> Any:
        found = self.classes.get((module, name))
        if found is None:
            raise UnpicklingError(f"{module}.{name} is not kept in pbem's cache")
        return found
