"""How players write names: the same name with or without accents, case, dots or hyphens, or its beginning.

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


_INNER = re.compile(r"(?<=[^\W\d_])[.\-'’`](?=[^\W\d_])")  # a hyphen, dot or apostrophe between letters: A-H, U.S
_SEPARATORS = re.compile(r"[\W_]+")
_ORDINAL = re.compile(r"(\d+)(?:st|nd|rd|th)")


def _plain(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def _words(text: str) -> tuple[str, ...]:
    found = []
    for word in _SEPARATORS.split(text):
        if not word:
            continue
        ordinal = _ORDINAL.fullmatch(word)
        if ordinal:
            word = ordinal.group(1)
        if word.isdigit():
            word = str(int(word[:18]))  # no leading zeros; a longer number is no name anyone writes
        found.append(word)
    return tuple(found)


def name_forms(text: str) -> set[tuple[str, ...]]:
    """The word lists a name is written as, whatever its accents, case, punctuation and ordinals.

    A hyphen or dot between letters may be written or left out (``A-H`` is ``AH``, and also ``A H``),
    any other punctuation separates words, ``1st`` is ``1`` and ``#05`` is ``5``; digits are never run together,
    so ``1/1/JR16`` stays apart from ``11/JR16``.

    >>> sorted(name_forms("A-H Corps #5"))
    [('a', 'h', 'corps', '5'), ('ah', 'corps', '5')]
    >>> name_forms("GE 1st Army") == name_forms("ge 1 army")
    True
    >>> name_forms("Von François") & name_forms("von-francois")
    {('von', 'francois')}
    """
    plain = _plain(text)
    return {_words(plain), _words(_INNER.sub("", plain))} - {()}


def _starts(key: tuple[str, ...], written: tuple[str, ...]) -> bool:
    """``written`` is how ``key`` begins: whole words, the last one perhaps cut short unless it is a number."""
    if len(written) > len(key) or key[: len(written) - 1] != written[:-1]:
        return False
    last, word = written[-1], key[len(written) - 1]
    return word == last or (not last.isdigit() and word.startswith(last))


class NameIndex:
    """Things (units, cards) found by any of their names as players vary them: accents, case and punctuation
    optional (:func:`name_forms`), or an unambiguous beginning of a name (whole words; the last word may be cut
    short unless it is a number, so ``GE 1`` is ``GE 1st Army`` and never ``GE 10th Army``).

    >>> index = NameIndex([("GE-1-ARMY", ["GE 1st Army"]), ("GE-10-ARMY", ["GE 10th Army"]), ("AH-1-ARMY", ["A-H 1st Army"])])
    >>> index.find("ge 1"), index.find("AH 1st army"), sorted(index.find("GE"))
    ({'GE-1-ARMY'}, {'AH-1-ARMY'}, ['GE-1-ARMY', 'GE-10-ARMY'])
    """

    def __init__(self, named: Iterable[tuple[str, Iterable[str]]]):
        self.keys: dict[tuple[str, ...], set[str]] = {}
        for thing, names in named:
            for name in names:
                for form in name_forms(name):
                    self.keys.setdefault(form, set()).add(thing)

    def find(self, written: str) -> set[str]:
        """Every thing ``written`` names: those a whole name matches, else those a name begins with."""
        forms = name_forms(written[:200])
        found = {thing for form in forms for thing in self.keys.get(form, ())}
        if found or not forms:
            return found
        return {thing for key, things in self.keys.items() if any(_starts(key, form) for form in forms) for thing in things}

    def close(self, written: str, n: int = 4) -> set[str]:
        """Things with a name close to ``written`` (for a "did you mean"), or none."""
        import difflib  # only for a name that is not known

        keys = {" ".join(key): key for key in self.keys}
        forms = sorted(" ".join(form) for form in name_forms(written[:200]))
        close = {match for form in forms for match in difflib.get_close_matches(form, list(keys), n=n, cutoff=0.6)}
        return {thing for match in close for thing in self.keys[keys[match]]}
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
