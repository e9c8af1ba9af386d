"""A chain of VASSAL logs (and saves): each log opens with the whole game as its writer found it, so each must
open where the previous one ended.

Moving, flipping or removing a piece (or drawing a card) before starting the log is the oldest way to cheat in
a VASSAL game by email: nothing in the log shows it. Here every piece's place (map, position, the deck or
stack it is in) and state (face, markers, properties) at the end of one file is compared with the next file's
opening position; each difference is an ``illegal`` violation under rule ``continuity`` naming the piece, where
it was and where it is, and the two files. A save in a chain is a position: it ends where it opens.

The same pass gathers the chain's dice: every roll with its file, step, player and button, whether an undo
took it back, and each re-roll after an undo (:class:`ChainDice`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.formats.vassal.commands import AddPiece
from pbem.formats.vassal.logevents import LogReader, read_events
from pbem.formats.vassal.to_state import OpenedGame, open_game
from pbem.model.errors import Source
from pbem.model.module import Module
from pbem.model.violation import ILLEGAL, Violation

RULE = "continuity"
MAX_REPORTED = 60  # pieces named one by one; past it, one line says how many more differ


@dataclass(frozen=True)
class Seen:
    """A piece as one position shows it."""

    name: str
    map_id: str | None
    x: int | None
    y: int | None
    pile: str | None  # the deck (card pile) it is in, if any
    state: str  # its traits' states without the BasicPiece's own place


@dataclass
class ChainFile:
    """One file of the chain: its opening and closing positions and its dice."""

    name: str
    kind: str  # "log" or "save"
    opening: dict[str, Seen]
    closing: dict[str, Seen]
    rolls: list[dict[str, Any]] = field(default_factory=list)
    rerolls: list[dict[str, Any]] = field(default_factory=list)
    opened: OpenedGame | None = field(default=None, repr=False)


@dataclass
class ChainDice:
    """Every roll of a chain, and its re-rolls after undos, each with its file and step."""

    rolls: list[dict[str, Any]]
    rerolls: list[dict[str, Any]]


def read_chain_file(path: str, module: Module | None = None, name: str | None = None) -> ChainFile:
    """Open ``path`` and read its opening position, its closing position (a log replayed with its undos) and
    its dice."""
    opened = open_game(path, module)
    opened.namer.assign(opened.pieces)  # unit ids for the pieces the mapping knows, named in messages
    name = name or path
    types = {c.id: c for c in opened.restore if isinstance(c, AddPiece)}
    piles = _piles(opened.stacks)
    opening = {pid: _seen(piece, types[pid].state if pid in types else "", piles.get(pid)) for pid, piece in opened.pieces.items()}
    if opened.game.kind != "log":
        return ChainFile(name, "save", opening, opening, opened=opened)
    # The reader moves the opened pieces along: the opening is already taken, as values.
    vassal_module = opened.namer.vassal_module
    reader = LogReader(opened.game, vassal_module, restore=opened.restore, collected=(opened.pieces, opened.stacks))
    reader.layouts = opened.namer.layouts
    report = read_events(opened.game, vassal_module, reader)
    piles = _piles(reader.stacks)
    closing = {pid: _seen(tracked.piece, tracked.state, piles.get(pid)) for pid, tracked in reader.pieces.items()}
    rolls = []
    for step in report["steps"]:
        for event in step["events"]:
            if event["type"] == "roll":
                known = opened.mapping.dice(event.get("button")) or {}
                rolls.append({"file": name, "step": step["index"], "player": event.get("player") or step.get("player"),
                              "button": event.get("button"), "purpose": known.get("purpose"), "dice": event.get("dice") or known.get("dice"),
                              "values": list(event["values"]), "undone": "undone_by" in step})
    rerolls = [{"file": name, **r} for r in report["summary"]["rerolls"]]
    return ChainFile(name, "log", opening, closing, rolls, rerolls, opened=opened)


def _piles(stacks: dict) -> dict[str, str]:
    """Which deck each card is in."""
    out = {}
    for stack_id, stack in stacks.items():
        if getattr(stack, "kind", "stack") == "deck":
            for child in stack.children:
                out[child] = stack_id
    return out


def _seen(piece, state_text: str, pile: str | None) -> Seen:
    from pbem.formats.vassal.sequence import TAB, split_chain

    links = split_chain(state_text, TAB) if state_text else [""]
    return Seen(piece.name or "(unnamed)", piece.map_id, piece.x, piece.y, pile, "\t".join(links[:-1]))


def continuity(before: ChainFile, after: ChainFile, namer=None) -> list[Violation]:
    """Every piece that is not at the opening of ``after`` as it was at the end of ``before``."""
    found: list[Violation] = []
    where = Source(after.name, pointer="opening position")
    changed = []
    for pid in sorted(set(before.closing) | set(after.opening), key=_order):
        was, now = before.closing.get(pid), after.opening.get(pid)
        if was == now:
            continue
        changed.append((pid, was, now))
    for pid, was, now in changed[:MAX_REPORTED]:
        who = _who(pid, was or now, namer)
        found.append(Violation(RULE, ILLEGAL, f"{who}: at the end of {before.name} {_describe(was, namer)}; at the start of {after.name} "
                                              f"{_describe(now, namer)}{_what_changed(was, now)}", None, where))
    if len(changed) > MAX_REPORTED:
        found.append(Violation(RULE, ILLEGAL, f"and {len(changed) - MAX_REPORTED} more pieces differ between the end of {before.name} "
                                              f"and the start of {after.name}", None, where))
    return found


def chain_dice(files: list[ChainFile]) -> ChainDice:
    return ChainDice([r for f in files for r in f.rolls], [r for f in files for r in f.rerolls])


def _order(pid: str) -> tuple[int, int | str]:
    return (0, int(pid)) if pid.isdigit() else (1, pid)


def _who(pid: str, seen: Seen, namer) -> str:
    unit = namer.units.get(pid) if namer is not None else None
    return f"{unit} ({seen.name})" if unit else f"{seen.name} (piece {pid})"


def _describe(seen: Seen | None, namer) -> str:
    if seen is None:
        return "it is not in the game"
    if seen.map_id is None:
        place = "off every map"
    else:
        name = namer.place_name(seen.map_id, seen.x, seen.y) if namer is not None else None
        place = f"on {seen.map_id}" + (f" / {name}" if name else "") + f" ({seen.x},{seen.y})"
    return f"it is {place}" + (f" in the pile {seen.pile}" if seen.pile else "")


def _what_changed(was: Seen | None, now: Seen | None) -> str:
    if was is None or now is None:
        return ""
    out = []
    if was.name != now.name:
        out.append(f"shown as {was.name!r}, now {now.name!r}")
    elif was.state != now.state:
        out.append("its face, markers or properties changed")
    return f" ({'; '.join(out)})" if out else ""
