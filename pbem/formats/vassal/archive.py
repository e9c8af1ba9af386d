"""Reading VASSAL's zip files defensively, and writing them again exactly as Java's ``ZipOutputStream`` did.

Everything is checked before a byte is inflated: member count, names (no ``..``, no absolute or drive
paths), each member's and the total declared size, and the compression ratio; inflating is bounded too,
so a header that lies about sizes cannot get past the limits.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from pbem.model.errors import PbemError


@dataclass(frozen=True, slots=True)
class ZipLimits:
    """What a zip from outside may contain; the defaults fit the largest real modules and saves."""

    max_members: int = 20_000
    max_member_bytes: int = 256 * 1024 * 1024
    max_total_bytes: int = 1024 * 1024 * 1024
    max_ratio: float = 200.0  # inflated / compressed; deflate can reach ~1000 on junk made to be a bomb
    ratio_floor_bytes: int = 1024 * 1024  # small members may compress well without being bombs


DEFAULT_LIMITS = ZipLimits()


@dataclass(slots=True)
class MemberLayout:
    """The header fields of one member, enough to write it again byte for byte."""

    name: str
    version_needed: int
    flags: int
    method: int
    dos_time: int
    dos_date: int
    local_extra: bytes
    central_extra: bytes
    comment: bytes
    version_made_by: int
    internal_attr: int
    external_attr: int
    sizes_in_local_header: bool
    descriptor_signature: bool
    compressed: bytes | memoryview = field(repr=False)  # the original stream: to find the deflate level again
    _level: int | None = field(default=None, repr=False)

    @property
    def has_descriptor(self) -> bool:
        return bool(self.flags & 0x08)

    def deflate_level(self, original: bytes) -> int:
        """The zlib level that turns ``original`` into this member's stream (Java writes 6 or 9 by version)."""
        if self._level is None:
            self._level = _find_level(original, self.compressed)
        return self._level


class ZipArchive:
    """A checked zip: its members (name → bytes, in file order, read when first asked for) and its layout."""

    def __init__(self, archive: zipfile.ZipFile, infos: list[zipfile.ZipInfo], layout: list[MemberLayout],
                 source: str | Path, limits: ZipLimits, comment: bytes = b""):
        self._archive = archive
        self._infos = {info.filename: info for info in infos}
        self._cache: dict[str, bytes] = {}
        self.layout = layout
        self.source = source
        self.limits = limits
        self.comment = comment

    def size(self, name: str) -> int | None:
        """A member's declared inflated size (checked when read), or ``None`` if there is no such member."""
        info = self._infos.get(name)
        return None if info is None else info.file_size

    @property
    def names(self) -> list[str]:
        return list(self._infos)

    def get(self, name: str) -> bytes | None:
        """One member's bytes, or ``None`` if there is no such member."""
        if name not in self._infos:
            return None
        if name not in self._cache:
            self._cache[name] = _read_member(self._archive, self._infos[name], self.source, self.limits)
        return self._cache[name]

    def chunks(self, name: str, size: int = 1 << 16) -> Iterator[bytes]:
        """One member's bytes in chunks of ``size`` (the last may be shorter), checked as :meth:`get` checks
        them and failing with the same errors, without holding the whole member (it is not kept either)."""
        info = self._infos[name]
        if name in self._cache:
            yield self._cache[name]
            return
        cap = min(info.file_size, self.limits.max_member_bytes)
        read = 0
        try:
            with self._archive.open(info) as handle:
                while read < cap:
                    chunk = handle.read(min(size, cap - read))
                    if not chunk:
                        break
                    read += len(chunk)
                    yield chunk
                if handle.read(1):
                    raise PbemError.at(self.source, f"zip member {info.filename!r} is larger than its header says")
        except PbemError:
            raise
        except _READ_ERRORS as error:
            raise PbemError.at(self.source, f"zip member {info.filename!r} is damaged: {error}") from None
        if read != info.file_size:
            raise PbemError.at(self.source, f"zip member {info.filename!r} is truncated")

    @property
    def members(self) -> dict[str, bytes]:
        """Every member, read now if not yet."""
        return {name: self.get(name) for name in self._infos}


def _bad_name(name: str) -> bool:
    if not name or "\x00" in name:
        return True
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        return True
    parts = PurePosixPath(name.replace("\\", "/")).parts
    return ".." in parts


def is_zip(data: bytes) -> bool:
    return data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06"


def read_zip(data: bytes, source: str | Path, limits: ZipLimits = DEFAULT_LIMITS) -> ZipArchive:
    """The zip in ``data``, every member checked against ``limits``; any problem is a :class:`PbemError`."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = archive.infolist()
    except NotImplementedError as error:  # e.g. "zip file version 9.9": a version needed zipfile cannot read
        raise PbemError.at(source, f"zip needs a feature pbem cannot read ({error})") from None
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError) as error:
        raise PbemError.at(source, f"not a readable zip file: {error}") from None
    if len(infos) > limits.max_members:
        raise PbemError.at(source, f"zip has {len(infos)} members, more than {limits.max_members}")
    total = 0
    seen: set[str] = set()
    for info in infos:
        name = info.filename
        if _bad_name(name):
            raise PbemError.at(source, f"zip member name {name!r} is absolute or leaves the archive")
        if name in seen:
            raise PbemError.at(source, f"zip member {name!r} appears twice")
        seen.add(name)
        _check_features(name, info.flag_bits, info.extract_version, info.compress_type, source)
        if info.file_size > limits.max_member_bytes:
            raise PbemError.at(
                source, f"zip member {name!r} would inflate to {info.file_size} bytes, "
                f"more than {limits.max_member_bytes} (zip bomb?)")
        total += info.file_size
        if total > limits.max_total_bytes:
            raise PbemError.at(source, f"zip would inflate to more than {limits.max_total_bytes} bytes (zip bomb?)")
        if info.file_size > limits.ratio_floor_bytes and info.file_size > limits.max_ratio * max(info.compress_size, 1):
            raise PbemError.at(
                source, f"zip member {name!r} inflates {info.file_size // max(info.compress_size, 1)}:1, "
                f"more than {limits.max_ratio:.0f}:1 (zip bomb?)")
    view = memoryview(data)  # slices of the original streams without copying them
    layout = [_layout(data, view, info, source) for info in infos]
    return ZipArchive(archive, infos, layout, source, limits, archive.comment)


_ENCRYPTED = 0x1 | 0x40  # traditional and strong encryption
# 2.0 (deflate) is all VASSAL writes; 4.5 (zip64) is what other zip tools may mark on a repacked module.
MAX_VERSION_NEEDED = 45


def _check_features(name: str, flags: int, version_needed: int, method: int, source: str | Path) -> None:
    """Refuse what neither VASSAL writes nor pbem reads, in the central directory or a local header alike."""
    if flags & _ENCRYPTED:
        raise PbemError.at(source, f"zip member {name!r} is encrypted")
    if method not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
        raise PbemError.at(source, f"zip member {name!r} uses an unsupported compression method ({method})")
    if version_needed > MAX_VERSION_NEEDED:
        raise PbemError.at(source, f"zip member {name!r} needs zip version {version_needed // 10}.{version_needed % 10}, "
                                   f"more than the {MAX_VERSION_NEEDED // 10}.{MAX_VERSION_NEEDED % 10} pbem reads")


_READ_ERRORS = (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError, RuntimeError)


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, source: str | Path, limits: ZipLimits) -> bytes:
    cap = min(info.file_size, limits.max_member_bytes)
    try:
        with archive.open(info) as handle:
            content = handle.read(cap)
            if handle.read(1):
                raise PbemError.at(source, f"zip member {info.filename!r} is larger than its header says")
    except PbemError:
        raise
    except _READ_ERRORS as error:
        raise PbemError.at(source, f"zip member {info.filename!r} is damaged: {error}") from None
    if len(content) != info.file_size:
        raise PbemError.at(source, f"zip member {info.filename!r} is truncated")
    return content


def _layout(data: bytes, view: memoryview, info: zipfile.ZipInfo, source: str | Path) -> MemberLayout:
    offset = info.header_offset
    try:
        (signature, version, flags, method, dos_time, dos_date, crc, csize, usize, name_len, extra_len
         ) = struct.unpack_from("<IHHHHHIIIHH", data, offset)
    except struct.error:
        raise PbemError.at(source, f"zip member {info.filename!r} has a damaged header") from None
    if signature != 0x04034B50:
        raise PbemError.at(source, f"zip member {info.filename!r} has a damaged header")
    _check_features(info.filename, flags, version, method, source)
    start = offset + 30 + name_len + extra_len
    compressed = view[start:start + info.compress_size]
    after = start + info.compress_size
    return MemberLayout(
        name=info.filename,
        version_needed=version,
        flags=flags,
        method=method,
        dos_time=dos_time,
        dos_date=dos_date,
        local_extra=data[offset + 30 + name_len:start],
        central_extra=info.extra,
        comment=info.comment,
        version_made_by=(info.create_system << 8) | info.create_version,
        internal_attr=info.internal_attr,
        external_attr=info.external_attr,
        sizes_in_local_header=not (flags & 0x08) or (csize != 0 or usize != 0 or crc != 0),
        descriptor_signature=data[after:after + 4] == b"PK\x07\x08",
        compressed=compressed,
    )


# Java's Deflater default is 6; VASSAL 3.2 wrote saves at 9.  Try the likely ones first.
_LEVELS = (6, 9, 8, 7, 5, 4, 3, 2, 1, 0)
_CHUNK = 1 << 16


def _find_level(original: bytes, compressed: bytes) -> int:
    """The first deflate level whose output equals ``compressed``; 6 (Java's default) if none does.

    Deflate emits its output as it goes, so a wrong level usually shows within the first chunks.
    """
    view = memoryview(original)
    for level in _LEVELS:
        engine = zlib.compressobj(level, zlib.DEFLATED, -15, 8)
        produced = 0
        matched = True
        for start in range(0, len(view), _CHUNK):
            out = engine.compress(view[start:start + _CHUNK])
            if out:
                if compressed[produced:produced + len(out)] != out:
                    matched = False
                    break
                produced += len(out)
        if matched:
            out = engine.flush()
            if compressed[produced:] == out:
                return level
    return 6


def write_zip(members: dict[str, bytes], layout: list[MemberLayout] | None = None, comment: bytes = b"",
              originals: dict[str, bytes] | None = None) -> bytes:
    """A zip of ``members``; with the ``layout`` of a file read before, laid out exactly as that file was.

    ``originals`` gives each member's content as it was read, so the same deflate level is found even when
    the content changed.  Members without a layout are written as VASSAL 3.x does (deflate 9, UTF-8 flag,
    data descriptors).
    """
    by_name = {entry.name: entry for entry in layout or []}
    out = bytearray()
    central = bytearray()
    for name, content in members.items():
        entry = by_name.get(name) or _default_layout(name)
        encoded_name = name.encode("utf-8" if entry.flags & 0x800 else "cp437", errors="strict")
        crc = zlib.crc32(content)
        if entry.method == zipfile.ZIP_DEFLATED:
            source = (originals or {}).get(name, content)
            level = entry.deflate_level(source) if len(entry.compressed) else 9
            engine = zlib.compressobj(level, zlib.DEFLATED, -15, 8)
            stream = engine.compress(content) + engine.flush()
        else:
            stream = content
        offset = len(out)
        local_sizes = (crc, len(stream), len(content)) if entry.sizes_in_local_header else (0, 0, 0)
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, entry.version_needed, entry.flags, entry.method,
                           entry.dos_time, entry.dos_date, *local_sizes, len(encoded_name), len(entry.local_extra))
        out += encoded_name + entry.local_extra + stream
        if entry.has_descriptor:
            if entry.descriptor_signature:
                out += b"PK\x07\x08"
            out += struct.pack("<III", crc, len(stream), len(content))
        central += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, entry.version_made_by, entry.version_needed,
                               entry.flags, entry.method, entry.dos_time, entry.dos_date, crc, len(stream),
                               len(content), len(encoded_name), len(entry.central_extra), len(entry.comment), 0,
                               entry.internal_attr, entry.external_attr, offset)
        central += encoded_name + entry.central_extra + entry.comment
    start = len(out)
    out += central
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, len(members), len(members), len(central), start, len(comment))
    out += comment
    return bytes(out)


def _default_layout(name: str) -> MemberLayout:
    return MemberLayout(name=name, version_needed=20, flags=0x808, method=zipfile.ZIP_DEFLATED, dos_time=0,
                        dos_date=(1980 - 1980) << 9 | 1 << 5 | 1, local_extra=b"", central_extra=b"", comment=b"",
                        version_made_by=20, internal_attr=0, external_attr=0, sizes_in_local_header=False,
                        descriptor_signature=True, compressed=b"")
