"""Parsing untrusted XML: no DTD, no entities, no network, default depth and size limits."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from pbem.model.errors import PbemError


class _ExternalLoadRefused(Exception):
    """Raised by :class:`_RefuseEveryLoad` to stop the parse at the first external resource it names."""


class _RefuseEveryLoad(etree.Resolver):
    """Every DTD, parameter entity or external entity the parser would load is refused.

    The parser options below already tell libxml2 not to load anything; this is the second lock, for a
    libxml2 or lxml that would (lxml's ``collect_ids=False``, for one, makes libxml2 load the external
    subset whatever ``load_dtd`` says).
    """

    def resolve(self, url, pubid, context):
        raise _ExternalLoadRefused(url)


def _parser() -> etree.XMLParser:
    parser = etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        attribute_defaults=False,
        huge_tree=False,  # keeps libxml2's limits on depth and text size
        remove_blank_text=False,
    )
    parser.resolvers.add(_RefuseEveryLoad())
    return parser


def parse_xml(data: bytes, source: str | Path) -> etree._Element:
    """The root element of ``data``; a DOCTYPE, an entity reference or malformed XML is a :class:`PbemError`.

    No DTD or external entity is ever loaded, wherever the DOCTYPE stands: the parser is told not to, and
    any load it would attempt anyway is refused; the parsed tree's DOCTYPE is then refused as a whole.
    """
    try:
        root = etree.fromstring(data, _parser())
    except _ExternalLoadRefused:
        raise PbemError.at(source, "XML with a DOCTYPE or external entities is refused (no DTDs are read)") from None
    except etree.XMLSyntaxError as error:
        line, column = (error.position if error.position else (None, None))
        raise PbemError.at(source, f"malformed XML: {error.msg}", line=line, column=column) from None
    except (ValueError, MemoryError) as error:
        raise PbemError.at(source, f"malformed XML: {error}") from None
    docinfo = root.getroottree().docinfo
    if docinfo.doctype or docinfo.internalDTD is not None or docinfo.externalDTD is not None:
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
