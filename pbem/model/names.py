"""How players write names: the same name with or without accents, case, dots or hyphens.

>>> fold("Château-Thierry") == fold("chateau thierry")
True
>>> fold("St. Amand")
'st amand'
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable

_PUNCTUATION = re.compile(r"[.\-_'’`]+")


def fold(text: str) -> str:
    """The key two spellings of one name share: no accents, no case, dots and hyphens as spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(_PUNCTUATION.sub(" ", plain).split()).casefold()


def nearest(written: str, names: Iterable[tuple[str, str]], preferred: Collection[str] = (), limit: int = 4) -> list[str]:
    """What a mistyped ``written`` most likely meant, of ``names`` (pairs of a spelling and what it names).

    Nearness is the Damerau-Levenshtein distance (a swap of two characters is one edit: ``1-20`` is one edit from
    ``1-02``, two from ``1-07``), within a few edits. Those in ``preferred`` (the units in play) come first: the
    nearest of them, then any other name strictly nearer still; without one in play, the nearest names.
    At most ``limit``, each once.

    >>> ids = [(f"PLA-TK-XX-1-{n:02}", f"PLA-TK-XX-1-{n:02}") for n in range(1, 11)]
    >>> nearest("PLA-TK-XX-1-20", ids, {"PLA-TK-XX-1-02"})
    ['PLA-TK-XX-1-02']
    >>> nearest("PLA-TK-XX-1-20", ids)
    ['PLA-TK-XX-1-02', 'PLA-TK-XX-1-10']
    """
    from rapidfuzz.distance import DamerauLevenshtein  # only for a name that is not known

    target = fold(written)
    if not target:
        return []
    cutoff = 1 if len(target) <= 6 else 2 if len(target) <= 12 else 3
    best: dict[str, int] = {}
    for spelling, meant in names:
        distance = DamerauLevenshtein.distance(target, fold(spelling), score_cutoff=cutoff)
        if distance <= cutoff and distance < best.get(meant, cutoff + 1):
            best[meant] = distance
    if not best:
        return []
    in_play = [meant for meant in best if meant in preferred]
    if in_play:
        nearest_in_play = min(best[meant] for meant in in_play)
        first = sorted(meant for meant in in_play if best[meant] == nearest_in_play)
        rest = sorted((meant for meant in best if meant not in preferred and best[meant] < nearest_in_play), key=lambda m: (best[m], m))
        return (first + rest)[:limit]
    closest = min(best.values())
    return sorted(meant for meant in best if best[meant] == closest)[:limit]
