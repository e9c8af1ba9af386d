"""A cache, shared between runs, of what pbem derives from a module's files (the built map, counters, tables).

Each entry is one file per module folder holding the key it was made for and the value. The key is a hash of
every input the value came from (the caller's files, pbem's model code and schemas, pbem's and Python's
versions): a value is used only when its key is the one worked out now, so an edited module, an upgraded
pbem or another Python simply builds the value again. A value is stored only once it has been built and checked
in full, so a hit proves the inputs were valid as they stand.

No cache entry may change a verdict, so an entry is trusted only when nobody but the user could have made it:

- the cache folder, each kind's folder and each entry belong to the user and are writable by nobody else
  (owner and mode, as ssh checks its files); anything else is not read, and nothing is written there;
- an entry is opened only if it is a regular file (never a FIFO, device or symbolic link: an open never blocks);
- each entry carries an HMAC of its place and content under a key that only the user can read (``key`` in the
  cache folder, 32 random bytes, mode 0600, made on first use): an entry edited by someone who knew the inputs'
  hash but not the key is refused.

Nothing here may fail a command either: a cache folder that is missing, read-only, full or refused, and an
entry that is unreadable, damaged, unsigned or of another version are all ignored (the value is built as if
there were no cache). Entries are written whole or not at all (a temporary file renamed over the old one). Only
the classes the caller names are unpickled (plain data besides), so even a signed entry cannot make pbem call
anything else.

``PBEM_CACHE_DIR`` moves the cache (default: ``$XDG_CACHE_HOME/pbem`` or ``~/.cache/pbem``);
``PBEM_NO_CACHE=1`` or ``pbem --no-cache`` turns it off (the verdicts are the same, only slower).
"""

from __future__ import annotations

import hmac
import io
import os
import stat
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
KEY_FILE = "key"
KEY_BYTES = 32
MAGIC = b"pbem-cache 2\n"  # then the HMAC (32 bytes), then the pickle
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
_off = False  # pbem --no-cache

_MODEL = Path(__file__).resolve().parent


def turn_off(off: bool = True) -> None:
    """Turn the cache off (or on again) for this process, as ``pbem --no-cache`` does."""
    global _off
    _off = off


def cache_dir() -> Path | None:
    """Where entries are kept, or None when the cache is turned off."""
    if _off or os.environ.get(NO_CACHE_ENV, "") not in ("", "0"):
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


def _private(info: os.stat_result, *, folder: bool) -> bool:
    """Whether ``info`` is a folder (or a regular file) of this user's that nobody else may write."""
    kind_ok = stat.S_ISDIR(info.st_mode) if folder else stat.S_ISREG(info.st_mode)
    uid = os.geteuid() if hasattr(os, "geteuid") else info.st_uid
    return kind_ok and info.st_uid == uid and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _trusted_folders(path: Path) -> bool:
    """The cache folder and the kind's folder above ``path`` are the user's and writable by nobody else (the
    cache folder itself may be reached through a symbolic link the user made, its kind folder may not)."""
    try:
        return _private(os.stat(path.parent.parent), folder=True) and _private(os.lstat(path.parent), folder=True)
    except OSError:
        return False


def _read_private(path: Path, limit: int) -> bytes | None:
    """The bytes of ``path`` if it is a regular file of the user's that nobody else may write, else None; never
    blocks (a FIFO is opened without waiting, then refused) and never follows a symbolic link."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not _private(info, folder=False) or info.st_size > limit:
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read(info.st_size + 1)  # sized on the file: a read of the bound would allocate all of it
    except OSError:
        return None
    finally:
        os.close(fd)


def _secret(folder: Path, make: bool) -> bytes | None:
    """The user's key for this cache folder (made on first use when ``make``), or None if it cannot be had or
    someone else could read or have written it."""
    path = folder / KEY_FILE
    data = _read_private(path, KEY_BYTES)
    if data is not None:
        try:
            if os.stat(path).st_mode & (stat.S_IRWXG | stat.S_IRWXO):
                return None  # readable by others: no secret
        except OSError:
            return None
        return data if len(data) == KEY_BYTES else None
    if not make or os.path.lexists(path):
        return None
    import tempfile

    try:
        fd, tmp = tempfile.mkstemp(prefix=".key.", dir=folder)  # mode 0600
    except OSError:
        return None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(os.urandom(KEY_BYTES))
        os.link(tmp, path)  # made whole, or not at all if another run made one first
    except OSError:
        pass
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    return _secret(folder, make=False)


def user_secret() -> bytes | None:
    """The user's private key (this cache's signing key, made on first use), to sign what pbem keeps in a file
    someone else may have made (a re-validation's checkpoint in a received archive); None without a cache."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return _secret(folder, make=True)


def _signature(secret: bytes, kind: str, place: str, data: bytes) -> bytes:
    tag = hmac.new(secret, digestmod="sha256")
    for chunk in (kind.encode(), place.encode("utf-8", "surrogateescape"), data):
        tag.update(len(chunk).to_bytes(8, "little") + chunk)
    return tag.digest()


def load(kind: str, place: str, wanted: str, classes: Collection[type]) -> Any | None:
    """The value stored for ``place`` under key ``wanted``, or None (no entry, another key, not the user's,
    not signed with the user's key, or not readable).

    ``classes`` are the only classes the value may hold besides plain data (numbers, text, containers).
    """
    path = entry_path(kind, place)
    if path is None or not _trusted_folders(path):
        return None
    secret = _secret(path.parent.parent, make=False)
    if secret is None:
        return None
    data = _read_private(path, MAX_ENTRY_BYTES)
    if data is None or not data.startswith(MAGIC):
        return None
    signature, body = data[len(MAGIC) : len(MAGIC) + 32], data[len(MAGIC) + 32 :]
    if not hmac.compare_digest(signature, _signature(secret, kind, place, body)):
        return None
    try:
        stored_key, value = _Unpickler(io.BytesIO(body), classes).load()
    except Exception:  # noqa: BLE001 - a damaged or foreign entry is no entry
        return None
    return value if stored_key == wanted else None


def store(kind: str, place: str, wanted: str, value: Any) -> None:
    """Keep ``value`` for ``place`` under key ``wanted``, replacing any older entry; silently does nothing
    when the cache is off, cannot be written, or is in a folder someone else could write."""
    path = entry_path(kind, place)
    if path is None:
        return
    import pickle
    import tempfile  # only here, on a miss: they cost ~3 ms to import

    tmp = None
    try:
        body = pickle.dumps((wanted, value), protocol=pickle.HIGHEST_PROTOCOL)
        root = path.parent.parent
        root.parent.mkdir(parents=True, exist_ok=True)
        for folder in (root, path.parent):  # made private whatever the umask (a 002 umask would let the group in)
            try:
                folder.mkdir(mode=0o700)
            except FileExistsError:
                pass
        if not _trusted_folders(path):
            return
        secret = _secret(path.parent.parent, make=True)
        if secret is None:
            return
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as handle:
            handle.write(MAGIC + _signature(secret, kind, place, body) + body)
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
