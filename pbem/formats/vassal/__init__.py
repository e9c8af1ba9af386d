"""VASSAL modules, saves and logs: read them faithfully and defensively, and write saves back byte for byte.

>>> from pbem.formats.vassal import open_vassal_file, read_events   # doctest: +SKIP
>>> game = open_vassal_file("turn-3.vlog")                          # doctest: +SKIP
>>> read_events(game, open_module("game.vmod").module)["summary"]   # doctest: +SKIP
"""

from pbem.formats.vassal.describe import describe, open_vassal_file
from pbem.formats.vassal.logevents import read_events
from pbem.formats.vassal.modulefile import open_module
from pbem.formats.vassal.savefile import SavedGame, encode_saved_game, read_saved_game

__all__ = ["SavedGame", "describe", "encode_saved_game", "open_module", "open_vassal_file", "read_events",
           "read_saved_game"]
