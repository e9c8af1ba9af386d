"""The PBEM notation: a turn written as text in an email, read into the JSON turn shape and written back.

A turn reads like this (``docs/notation.md`` has the whole notation)::

    Game: china-war-1980
    Scenario: border-war
    Turn: 1
    Side: soviet

    == Movement ==
    SOV-MR-XX-1-04: 3202-3203-3303-3403-3404      # along the Amur road
    == Combat ==
    SOV-TK-XX-1-01 + SOV-MR-XX-1-01 attack 3005 at 2:1 > 1:1, roll 4 = 1/1
        attacker loses SOV-MR-XX-1-01
        defender loses PLA-INF-XX-1-01

Reading is forgiving like PGN readers: every line is parsed on its own by the lark grammar in
``notation.lark`` (so one bad line never hides the next), every problem is collected with its line,
column and a hint, and names are resolved against the module (ids, aliases, case-insensitive, unambiguous
prefixes). :func:`read_notation` returns a :class:`NotationDocument`, which behaves like the
:class:`~pbem.model.jsonsource.JsonDocument` of a JSON turn file, so ``pbem check`` treats both alike and
points at the line the player wrote. :func:`write_notation` turns JSON turn data back into notation.
"""

from pbem.formats.notation.reader import (
    NotationDocument,
    NotationError,
    Problem,
    parse_notation,
    read_notation,
)
from pbem.formats.notation.writer import write_notation

__all__ = ["NotationDocument", "NotationError", "Problem", "parse_notation", "read_notation", "write_notation"]
