"""A file as a slice of the sequence of play: it is judged from where its header says it starts.

A file whose header has ``from`` (the reaction phase of the opponent's player-turn, a combat phase alone)
is replayed from that place: the start state is put just before it (or at it, when the file opens without
a phase marker), so the module's rules see the phase the file is in. When the start state already stands
somewhere in the sequence, the file must follow on from there: a phase someone else acts in, left out
between the two, or a file that starts before its start state ends, is a violation under the module's
sequence-of-play rule; and a file that ends elsewhere than its ``to`` says is one too.
"""

from __future__ import annotations

from pbem.model.actions import Phase, Turn
from pbem.model.errors import Source
from pbem.model.module import Module
from pbem.model.sequence import BOTH, Place, Sequence
from pbem.model.state import State
from pbem.model.violation import ILLEGAL, Violation

SEQUENCE_RULE = "sequence"  # when a module's sequence names no rulebook section


def state_place(sequence: Sequence, state: State) -> Place | None:
    """Where ``state`` stands in the sequence (the phase it ended in), if that is one place; ``None`` if it says
    nothing (a scenario's set-up, or a state written by hand without a phase: the file is judged from where
    it starts, and only the archive, which sees the whole game, can tell a file is missing)."""
    if state.phase is None:
        return None
    found = [k for k, step in enumerate(sequence.steps)
             if step.phase == state.phase and (step.owner is None or step.owner == state.side)]
    if len(found) != 1 or sequence.steps[found[0]].round is not None:
        return None
    return Place(state.turn, found[0])


def place_start(module: Module, state: State, turn: Turn) -> list[Violation]:
    """Put ``state`` where the file starts; the violations if the file does not follow on from ``state``."""
    header = turn.header
    if header.start_at is None or module.sequence_data is None:
        return []
    sequence = module.sequence(state.first_side)
    start = sequence.resolve(header.start_at, turn=header.turn, owner=header.side)
    rule = sequence.rule or SEQUENCE_RULE
    found: list[Violation] = []
    here = state_place(sequence, state)
    where = Source(turn.file, pointer="/from")
    if here is not None and here >= start:
        found.append(Violation(rule, ILLEGAL, f"this file starts at {sequence.describe(start)}, but the state it starts from has already reached "
                                              f"{_stand(sequence, here)}", None, where))
    elif here is not None:
        writer = header.writer or sequence.step(start).actor
        missing = sequence.missing_writers(here, start, writer if writer != BOTH else None)
        if missing:
            names = "; ".join(sequence.describe(p) for p in missing[:4]) + (" ..." if len(missing) > 4 else "")
            found.append(Violation(rule, ILLEGAL, f"missing between the state this file starts from ({_stand(sequence, here)}) and its start "
                                                  f"({sequence.describe(start)}): {names}", None, where))
    first = turn.actions[0] if turn.actions else None
    opens_with_marker = isinstance(first, Phase) and _names(sequence, start, first)
    target = sequence.previous(start) if opens_with_marker else start
    if opens_with_marker and start.index == 0:
        state.phase, state.turn = None, start.turn
    else:
        step = sequence.step(target)
        state.phase, state.side, state.turn = step.phase, step.owner or sequence.sides[0], target.turn
    return found


def check_turn_limit(module: Module, state: State, turn: Turn) -> list[Violation]:
    """A game started from a scenario with a last game-turn ends after it: a file of a later turn is not played."""
    last = module.last_turn(state.scenario)
    if last is None or turn.header.turn <= last:
        return []
    sequence = module.sequence_data or {}
    return [Violation(sequence.get("rule") or SEQUENCE_RULE, ILLEGAL,
                      f"scenario {state.scenario} ends after game-turn {last}: there is no game-turn {turn.header.turn}",
                      None, Source(turn.file, pointer="/turn"))]


def check_end(module: Module, state: State, turn: Turn) -> list[Violation]:
    """A file that says where it ends (``to``) must end there."""
    header = turn.header
    if header.end_at is None or module.sequence_data is None:
        return []
    sequence = module.sequence(state.first_side)
    start = sequence.resolve(header.start_at, turn=header.turn, owner=header.side) if header.start_at else None
    end = sequence.resolve(header.end_at, turn=header.end_at.get("turn", start.turn if start else header.turn),
                           owner=(sequence.step(start).owner if start else None) or header.side)
    if start is not None and end < start:
        end = sequence.find(header.end_at["phase"], turn=start.turn, actor=header.end_at.get("side"), round=header.end_at.get("round"), after=start) or end
    here = state_place(sequence, state)
    if here is None or here == end:
        return []
    return [Violation(sequence.rule or SEQUENCE_RULE, ILLEGAL, f"the file says it ends at {sequence.describe(end)}, but it ends at "
                                                              f"{_stand(sequence, here)}", None, Source(turn.file, pointer="/to"))]


def _stand(sequence: Sequence, place: Place) -> str:
    return sequence.describe(place)


def _names(sequence: Sequence, place: Place, marker: Phase) -> bool:
    step = sequence.step(place)
    return marker.name == step.phase and marker.side in (None, step.actor, step.owner) and marker.round in (None, step.round)
