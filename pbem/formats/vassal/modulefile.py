"""Opening a module from disk: a ``.vmod``/``.vmdx`` zip, a ``buildFile(.xml)``, or an unpacked module folder."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.formats.vassal.archive import ZipArchive, is_zip, read_zip
from pbem.formats.vassal.metadata import Metadata, read_metadata
from pbem.formats.vassal.xmlsafe import parse_xml
from pbem.model.errors import PbemError
from pbem.model.files import read_bytes

if TYPE_CHECKING:  # the buildFile reader (grids, traits) is imported when a module is read, not for a save
    from pbem.formats.vassal.buildfile import Module

BUILD_FILES = ("buildFile.xml", "buildFile")  # 3.5+ name first, as a robust reader should
MAX_FILE_BYTES = 1024 * 1024 * 1024  # modules full of images can be hundreds of MiB; members are read lazily
MAX_TEXT_BYTES = 64 * 1024 * 1024  # an XML file or a bare savedGame stream: no real one comes near


def read_vassal_bytes(path: Path) -> bytes:
    """A VASSAL file's bytes: a zip up to :data:`MAX_FILE_BYTES`, anything else up to :data:`MAX_TEXT_BYTES`."""
    head = b""  # read_bytes names the problem (a FIFO or device is never opened here: it would block)
    if path.is_file():
        try:
            with path.open("rb") as handle:
                head = handle.read(4)
        except OSError:
            pass
    return read_bytes(path, MAX_FILE_BYTES if is_zip(head) else MAX_TEXT_BYTES)


@dataclass(slots=True)
class ModuleFile:
    """A module as found on disk."""

    source: str
    module: Module
    metadata: Metadata | None
    archive: ZipArchive | None = None
    build_file: str = ""
    is_extension: bool = False


def module_from_archive(archive: ZipArchive, source: str | Path) -> ModuleFile:
    """The module inside a zip that has a buildFile."""
    name = next((candidate for candidate in BUILD_FILES if archive.get(candidate) is not None), None)
    if name is None:
        raise PbemError.at(source, "zip has neither savedGame nor buildFile: not a VASSAL file")
    from pbem.formats.vassal.buildfile import image_sizer

    root = parse_xml(archive.get(name), f"{source}!{name}")
    sizer = image_sizer(lambda image: archive.get(f"images/{image}"))
    meta_name = "moduledata" if archive.get("moduledata") is not None else "extensiondata"
    metadata = (read_metadata(archive.get(meta_name), f"{source}!{meta_name}")
                if archive.get(meta_name) is not None else None)
    module = _read(root, sizer, f"{source}!{name}")
    return ModuleFile(str(source), _named(module, Path(source)), metadata, archive, name,
                      is_extension=module.is_extension)


def module_from_build_file(data: bytes, path: Path) -> ModuleFile:
    """An unpacked module: its buildFile, with ``moduledata`` and ``images/`` read from the same folder."""
    from pbem.formats.vassal.buildfile import folder_image_reader, image_sizer

    root = parse_xml(data, path)
    sizer = image_sizer(folder_image_reader(path.parent))
    metadata = None
    for meta_name in ("moduledata", "extensiondata"):
        meta_path = path.parent / meta_name
        if meta_path.is_file():
            metadata = read_metadata(read_bytes(meta_path, MAX_TEXT_BYTES), meta_path)
            break
    module = _read(root, sizer, path)
    return ModuleFile(str(path), _named(module, path), metadata, None, path.name, is_extension=module.is_extension)


def _named(module: Module, path: Path) -> Module:
    """An extension is named after its file (or its folder, when unpacked), as VASSAL names it."""
    if module.is_extension and not module.name:
        stem = path.stem if path.name not in BUILD_FILES else path.resolve().parent.name
        module.name = stem
    return module


def _read(root, sizer, source: str | Path) -> Module:
    from pbem.formats.vassal.buildfile import BuildFileError, read_module

    try:
        return read_module(root, sizer)
    except BuildFileError as error:
        raise PbemError.at(source, error.message, line=error.line) from None


def open_module(path: str | Path) -> ModuleFile:
    """A module from a ``.vmod``, a buildFile, or a folder holding one."""
    path = Path(path)
    if path.is_dir():
        candidate = next((path / name for name in BUILD_FILES if (path / name).is_file()), None)
        if candidate is None:
            raise PbemError.at(path, "folder has no buildFile.xml or buildFile")
        path = candidate
    data = read_vassal_bytes(path)
    if is_zip(data):
        return module_from_archive(read_zip(data, path), path)
    return module_from_build_file(data, path)
