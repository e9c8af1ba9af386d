"""``moduledata`` / ``savedata`` / ``extensiondata``: the small XML files describing a module or a save."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.formats.vassal.xmlsafe import parse_xml, text_of


@dataclass(slots=True)
class Metadata:
    """``<data version="1">`` with version, VassalVersion, dateSaved, description and (modules) name."""

    root: str = "data"
    name: str = ""
    version: str = ""
    vassal_version: str = ""
    date_saved: int | None = None
    description: str = ""
    extra1: str = ""
    extra2: str = ""
    translations: dict[str, dict[str, str]] = field(default_factory=dict)


def read_metadata(data: bytes, source: str | Path) -> Metadata:
    """Parse a metadata file; translated copies (``lang=``) are kept apart, even when written swapped (< 3.6.11)."""
    root = parse_xml(data, source)
    meta = Metadata(root=root.tag if isinstance(root.tag, str) else "data")
    fields = {"name": "name", "version": "version", "VassalVersion": "vassal_version",
              "description": "description", "extra1": "extra1", "extra2": "extra2"}
    for child in root:
        if not isinstance(child.tag, str):
            continue
        text = text_of(child)
        lang = child.get("lang")
        if lang is not None:
            meta.translations.setdefault(child.tag, {})[lang] = text
            continue
        if child.tag == "dateSaved":
            try:
                meta.date_saved = int(text)
            except ValueError:
                meta.date_saved = None
        elif child.tag in fields:
            setattr(meta, fields[child.tag], text)
    return meta
