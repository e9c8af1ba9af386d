"""VASSAL modules, saves and logs: read them faithfully and defensively, and write saves back byte for byte.

>>> from pbem.formats.vassal import open_vassal_file, read_events   # doctest: +SKIP
>>> game = open_vassal_file("turn-3.vlog")                          # doctest: +SKIP
>>> read_events(game, open_module("game.vmod").module)["summary"]   # doctest: +SKIP
"""

from __future__ import annotations

import importlib

# Each name is imported from its module when first asked for: importing one submodule (``pbem vassal info``
# of a save) must not pay for the buildFile reader, the log's events and their imports.
_EXPORTS = {
    "SavedGame": "savefile", "encode_saved_game": "savefile", "read_saved_game": "savefile",
    "describe": "describe", "open_vassal_file": "describe",
    "open_module": "modulefile", "read_events": "logevents",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value
