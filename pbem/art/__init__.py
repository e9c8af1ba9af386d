"""Pictures as pure functions of module data and state: counters, sheets, maps and turn overlays.

Same input, same bytes: nothing here reads the clock, the system fonts or the environment.
"""
