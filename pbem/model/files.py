"""Reading inputs within bounds and writing outputs whole or not at all."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from pbem.model.errors import PbemError

# A turn, state or module file larger than this is refused: the largest real one is under 100 KB, and 4 MiB
# of the costliest shape (moves through long paths) is checked in seconds and well under 1 GiB.
MAX_INPUT_BYTES = 4 * 1024 * 1024


def read_bytes(path: str | Path, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of ``path``; a missing, unreadable, oversized or not regular file is a :class:`PbemError`.

    A FIFO or device (``/dev/stdin``, ``/dev/zero``) is refused before a byte is read: it could block or
    never end. Memory is sized on the file, not on the limit.
    """
    path = Path(path)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise PbemError.at(path, "no such file") from None
    except IsADirectoryError:
        raise PbemError.at(path, "is a folder, not a file") from None
    except OSError as error:
        raise PbemError.at(path, f"cannot read: {error.strerror or error}") from None
    info = os.fstat(fd)
    problem = None
    if stat.S_ISDIR(info.st_mode):
        problem = "is a folder, not a file"
    elif not stat.S_ISREG(info.st_mode):
        problem = "is not a regular file (a device, pipe or socket)"
    elif info.st_size > limit:
        problem = f"file is larger than {_size(limit)}"
    if problem is not None:
        os.close(fd)
        raise PbemError.at(path, problem)
    try:
        data = _read_fd(fd, info.st_size + 1)
    except OSError as error:
        raise PbemError.at(path, f"cannot read: {error.strerror or error}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise PbemError.at(path, f"file is larger than {_size(limit)}")
    return data


def _read_fd(fd: int, size: int) -> bytes:
    """Up to ``size`` bytes from ``fd``, fewer only at the end of the file (without a file object: a turn file is
    read in one call, and making the object cost as much as reading it)."""
    parts = []
    while size > 0:
        data = os.read(fd, size)
        if not data:
            break
        parts.append(data)
        size -= len(data)
    return parts[0] if len(parts) == 1 else b"".join(parts)


def inside(path: str | Path, folder: str | Path) -> Path:
    """``path``, refused when it resolves (symbolic links followed) outside ``folder``.

    A file from an opponent names other files only beside it; a link there must not lead pbem elsewhere
    on the disk. The refusal names the link, never where it leads.
    """
    path = Path(path)
    try:
        real = _resolved(path)
        base = _resolved(folder)
    except (OSError, RuntimeError):  # a loop of links
        raise PbemError.at(path, "is a symbolic link that cannot be resolved (a loop?): refused") from None
    except ValueError:  # a NUL character: no file has such a name
        raise PbemError.at(folder, "a file name there holds a NUL character: refused") from None
    if real == base or (not base.endswith(os.sep) and real.startswith(base + os.sep)):
        return path  # within it, told on the strings (every start state is looked for so)
    # Anything else as pathlib tells it: a refusal, or a folder that is a root.
    if Path(real) != Path(base) and Path(base) not in Path(real).parents:
        raise PbemError.at(path, f"leads outside its folder {str(folder) or '.'} (a symbolic link?): refused")
    return path


def _resolved(path: str | Path) -> str:
    """``str(Path(path).resolve())``, without the Path objects: symbolic links followed, a loop of them a
    RuntimeError as pathlib raises it."""
    real = os.path.realpath(path)
    try:
        os.stat(real)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise RuntimeError(f"Symlink loop from {error.filename!r}") from None
    return real


def _size(limit: int) -> str:
    return f"{limit // (1024 * 1024)} MiB" if limit >= 1024 * 1024 else f"{limit} bytes"


def read_text(path: str | Path, limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of ``path`` (a BOM is allowed); bad encoding names the byte offset."""
    return decode_text(read_bytes(path, limit), path)


def decode_text(data: bytes, path: str | Path) -> str:
    """``data`` (the bytes of ``path``) as UTF-8 text (a BOM is allowed); bad encoding names the line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise PbemError.at(path, "not UTF-8 text", line=line) from None


def write_atomic(path: str | Path, data: bytes | str, *, private: bool = False) -> None:
    """Write ``data`` to ``path`` so that the file is either complete or untouched.

    ``private``: readable and writable by the owner only (mode 0600) whatever was there, for a secret.

    The file gets the permissions the user's umask gives a new file (as any program's output does, not the
    owner-only ones of a temporary file), or keeps those of the regular file it replaces. A symbolic link, a
    folder, a device or a pipe at ``path`` is refused: never followed, never replaced.
    """
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    mode = 0o600 if private else _mode_for(path)
    if private:
        _mode_for(path)  # a link, folder or device there is refused all the same
    import tempfile  # only here: with shutil, random and the compressors it costs ~2 ms of every start

    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as error:
        raise PbemError.at(path, f"cannot write: {error.strerror or error}") from None
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as error:
        Path(tmp).unlink(missing_ok=True)
        raise PbemError.at(path, f"cannot write: {error.strerror or error}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def check_output(path: str | Path) -> None:
    """Refuse an output path that cannot be written whole (a folder, device or pipe there), before any work."""
    _mode_for(Path(path))


def _mode_for(path: Path) -> int:
    """The permissions ``path`` is written with: those of the regular file there, else what the umask gives."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return 0o666 & ~umask()
    except OSError as error:
        raise PbemError.at(path, f"cannot write: {error.strerror or error}") from None
    if stat.S_ISREG(info.st_mode):
        return stat.S_IMODE(info.st_mode) & 0o777
    if stat.S_ISLNK(info.st_mode):
        # Following it would write wherever it leads (/dev/stdout, a file elsewhere); replacing it would break
        # what the link was for. Neither is what the user meant.
        what = "a symbolic link (pbem neither follows nor replaces one)"
    elif stat.S_ISDIR(info.st_mode):
        what = "a folder"
    else:
        what = "not a regular file (a device, pipe or socket)"
    raise PbemError.at(path, f"is {what}: not written; write to a file name")


def umask() -> int:
    """The process's umask, read without changing it where the system tells it (Linux), else set and restored."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
