"""Shared by the China War tests: the module, its start state, and short builders for actions and replays."""

from __future__ import annotations

from pbem.engine.rulesets import module_ruleset
from pbem.engine.replay import replay
from pbem.model.actions import Combat, Move, Phase, Turn, TurnHeader
from pbem.model.errors import Source
from pbem.model.module import load_module
from pbem.model.state import State

MODULE = load_module("china-war-1980")
RULES = module_ruleset(MODULE)
MAP = MODULE.map
H = MAP.index
SRC = Source("test.json", 1, 1)


def scenario_state() -> State:
    from pbem.formats.turnfile import load_start_state

    turn = Turn("test.json", TurnHeader(MODULE.id, "border-war", 1, "soviet", "border-war"), [])
    return load_start_state(turn, MODULE)


def run(side: str, actions: list, state: State | None = None) -> list[tuple[str, str]]:
    """Replay ``actions`` (Phase/Move/Combat objects without index) and return (rule, severity) pairs."""
    numbered = []
    for n, action in enumerate(actions):
        action.index, action.source = n, SRC
        numbered.append(action)
    turn = Turn("test.json", TurnHeader(MODULE.id, "border-war", 1, side, "border-war"), numbered)
    result = replay(MODULE, state or scenario_state(), turn)
    return [(v.rule, v.severity) for v in result.violations]


def phase(name: str) -> Phase:
    return Phase(index=0, source=SRC, name=name)


def move(units, *path: str) -> Move:
    units = (units,) if isinstance(units, str) else tuple(units)
    return Move(index=0, source=SRC, units=units, path=tuple(H(p) for p in path))


def attack(attackers, target: str, roll: int, result: str, **fields) -> Combat:
    attackers = (attackers,) if isinstance(attackers, str) else tuple(attackers)
    if "retreats" in fields:
        fields["retreats"] = {u: tuple(H(p) for p in path) for u, path in fields["retreats"].items()}
    return Combat(index=0, source=SRC, attackers=attackers, target=H(target), roll=roll, result=result, **fields)


def to_combat() -> list[Phase]:
    """The phases before a combat phase, in order: movement, the opponent's reaction, combat."""
    return [phase("movement"), phase("reaction"), phase("combat")]
