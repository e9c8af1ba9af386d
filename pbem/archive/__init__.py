"""Finished games in one SQLite file: add, find, export, re-check against a corrected module, verify, replay.

``store`` opens (and migrates) the database, ``chain`` is the tamper-evidence hash chain, ``gamefiles``
reads a game from a folder, zip or list of turn files, ``play`` replays a game turn by turn, ``games``
is what the ``pbem archive`` verbs call, ``revalidate`` spreads re-checks over processes, ``viewer``
writes the self-contained HTML replay, ``site`` (with ``sitepages`` and ``standings``) the club's static web
site, and ``safetext`` keeps received text from crashing or steering
the terminal.
"""
