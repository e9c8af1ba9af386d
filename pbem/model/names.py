"""How players write names: the same name with or without accents, case, dots or hyphens.

>>> fold("Château-Thierry") == fold("chateau thierry")
True
>>> fold("St. Amand")
'st amand'
"""

from __future__ import annotations

import re
import unicodedata

_PUNCTUATION = re.compile(r"[.\-_'’`]+")


def fold(text: str) -> str:
    """The key two spellings of one name share: no accents, no case, dots and hyphens as spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(_PUNCTUATION.sub(" ", plain).split()).casefold()
