"""Exports that need both a file format and pictures, above :mod:`pbem.formats` and :mod:`pbem.art`.

``vmod`` writes a module as a VASSAL module: the board and counters :mod:`pbem.art` draws, in the
``buildFile.xml``, grid and set-ups that :mod:`pbem.formats.vassal.modulewriter` writes.
"""
