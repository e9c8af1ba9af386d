"""Parsing untrusted XML: no DTD, no entities, no network, default depth and size limits."""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from pbem.model.errors import PbemError


# Whatever may precede the root element: BOM, blanks, an XML declaration, comments, processing instructions.
_PROLOG_ITEM = re.compile(rb"\s+|<\?.*?\?>|<!--.*?-->", re.S)
_PROLOG_LIMIT = 1 << 16


def _declares_dtd(data: bytes) -> bool:
    """Whether a DOCTYPE (the only place entities can be declared) comes before the root element."""
    position = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    while position < min(len(data), _PROLOG_LIMIT):
        match = _PROLOG_ITEM.match(data, position)
        if not match or match.end() == position:
            break
        position = match.end()
    return data[position:position + 2] == b"<!"


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,  # keeps libxml2's limits on depth and text size
        remove_blank_text=False,
        collect_ids=False,
    )


def parse_xml(data: bytes, source: str | Path) -> etree._Element:
    """The root element of ``data``; a DOCTYPE, an entity declaration or malformed XML is a :class:`PbemError`."""
    if _declares_dtd(data):
        raise PbemError.at(source, "XML with a DOCTYPE or entity declarations is refused (no DTDs are read)")
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as error:
        line, column = (error.position if error.position else (None, None))
        raise PbemError.at(source, f"malformed XML: {error.msg}", line=line, column=column) from None
    except (ValueError, MemoryError) as error:
        raise PbemError.at(source, f"malformed XML: {error}") from None
    docinfo = root.getroottree().docinfo
    if docinfo.doctype or docinfo.internalDTD is not None:
        raise PbemError.at(source, "XML with a DOCTYPE is refused (no DTDs or entities are read)")
    for _ in root.iter(etree.Entity):
        raise PbemError.at(source, "XML with entity references is refused")
    return root


def text_of(element: etree._Element) -> str:
    """An element's text as VASSAL's ``Builder.getText`` reads it: all text nodes, Java-``trim``med."""
    text = "".join(element.itertext())
    return _java_trim(text)


def _java_trim(text: str) -> str:
    # Java's String.trim drops every char <= U+0020 at both ends, not just whitespace.
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]
