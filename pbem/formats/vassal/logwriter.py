"""Write VASSAL logs: a save's position, then steps of moves, state changes, chat, dice reports and undos.

The commands are those VASSAL's ``BasicLogger`` records (``M/``, ``D/``, ``CHAT``, ``MutableProperty``,
``UNDO``), each step a group of ``LOG⇥`` commands, the container a zip of ``savedGame``, ``savedata`` and
``moduledata``.  Used to build sample logs from real pieces, and to test the readers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from pbem.formats.vassal.archive import write_zip
from pbem.formats.vassal.commands import LOG_PREFIX, encode_tree
from pbem.formats.vassal.obfuscation import Obfuscation, obfuscate
from pbem.formats.vassal.savefile import SavedGame
from pbem.formats.vassal.sequence import TAB, join, join_chain, split, split_chain
from pbem.formats.vassal.traits import decode_chain


@dataclass
class _Where:
    map_id: str
    x: int
    y: int


@dataclass
class LogWriter:
    """Steps played on top of a save (its restore commands are the log's start)."""

    start: SavedGame
    player: str = "Player"
    secret: str = "pbem-sample"
    steps: list[list[str]] = field(default_factory=list)
    pieces: dict | None = None  # the start's pieces, if the caller has them decoded already

    def __post_init__(self) -> None:
        pieces = self.pieces if self.pieces is not None else self.start.pieces()[0]
        self.types = {pid: piece.type_text for pid, piece in pieces.items()}
        self.states = {pid: piece.state_text for pid, piece in pieces.items()}
        self.places = {pid: _Where(piece.map_id or "", piece.x or 0, piece.y or 0) for pid, piece in pieces.items()}

    # --- commands --------------------------------------------------------------------------------
    def move_command(self, piece_id: str, map_id: str, x: int, y: int) -> str:
        old = self.places[piece_id]
        self.places[piece_id] = _Where(map_id, x, y)
        return "M/" + join([piece_id, map_id, str(x), str(y), "null", old.map_id, str(old.x), str(old.y), "null", self.secret], "/")

    def layer_command(self, piece_id: str, layer: str, level: int) -> str:
        """``D/`` turning the Layer trait named ``layer`` to ``level`` (1 = its first image)."""
        traits = decode_chain(self.types[piece_id], self.states[piece_id])
        states = [trait.state for trait in traits]
        for k, trait in enumerate(traits):
            if trait.kind == "emb2;" and f";{layer};" in trait.type:
                rest = trait.state.split(";", 1)
                states[k] = ";".join([str(level)] + rest[1:])
                break
        else:
            raise ValueError(f"piece {piece_id} has no layer {layer!r}")
        old = self.states[piece_id]
        new = join_chain(states, TAB) if len(states) > 1 else states[0]
        self.states[piece_id] = new
        return "D/" + join([piece_id, new, old], "/")

    # --- steps -----------------------------------------------------------------------------------
    def step(self, *commands: str) -> int:
        """Log one step; its number (from 1)."""
        self.steps.append(list(commands))
        return len(self.steps)

    def move(self, piece_id: str, map_id: str, x: int, y: int) -> int:
        return self.step(self.move_command(piece_id, map_id, x, y))

    def flip(self, piece_id: str, layer: str, level: int) -> int:
        return self.step(self.layer_command(piece_id, layer, level))

    def chat(self, text: str) -> int:
        return self.step(f"CHAT&lt;{escape(self.player)}&gt; - {escape(text)}")

    def report(self, text: str) -> int:
        """An automatic report (a dice button's), as the module's report format produced it."""
        return self.step("CHAT* " + text)

    def undo(self) -> int:
        """Take back the last step not already taken back, as VASSAL 3.6.7+ logs it."""
        done = {n for n, step in enumerate(self.steps) if step and step[0] == "UNDO\ttrue"}
        taken = set()
        for n, step in enumerate(self.steps):
            if n in done:
                taken.add(_undoes(self.steps, n))
        target = max(n for n in range(len(self.steps)) if n not in done and n not in taken)
        inverse = [self._inverse(command) for command in reversed(self.steps[target])]
        return self.step("UNDO\ttrue", *inverse, "UNDO\tfalse")

    def _inverse(self, command: str) -> str:
        from pbem.formats.vassal.sequence import split

        if command.startswith("M/"):
            f = split(command[2:], "/")
            self.places[f[0]] = _Where(f[5], int(f[6]), int(f[7]))
            return "M/" + join([f[0], *f[5:9], *f[1:5], *f[9:]], "/")
        if command.startswith("D/"):
            f = split(command[2:], "/")
            self.states[f[0]] = f[2]
            return "D/" + join([f[0], f[2], f[1]], "/")
        if command.startswith("CHAT"):
            return "CHAT* UNDO: " + command[4:]
        return command

    # --- the position after the steps ----------------------------------------------------------------
    def position(self, source: str = "position.vsav") -> SavedGame:
        """The game as it stands after the steps, as a save: what the next log of a chain opens with (VASSAL
        writes the whole game at the start of a log). Each piece's state is its current one with its map and
        place; a piece that left its stack stands on its own."""
        moved = {pid for pid, where in self.places.items()}

        def rewrite(token):
            if isinstance(token, list):
                return [rewrite(child) for child in token]
            if not token.startswith("+/"):
                return token
            fields = split(token[2:], "/")
            pid, type_text = fields[0], fields[1]
            if pid in self.states:
                links = split_chain(self.states[pid], TAB)
                basic = split(links[-1], ";")
                where = self.places[pid]
                basic[0:3] = [where.map_id or "null", str(where.x), str(where.y)]
                links[-1] = join(basic, ";")
                return "+/" + join([pid, type_text, join_chain(links, TAB) if len(links) > 1 else links[0]], "/")
            if type_text == "stack":
                state = split(fields[2], ";")
                if state and state[0] not in ("", "null") and len(state) >= 3:
                    here = (state[0], state[1], state[2])
                    children = [c for c in state[3:] if c not in moved or
                                (self.places[c].map_id, str(self.places[c].x), str(self.places[c].y)) == here]
                    return "+/" + join([pid, type_text, join([*state[:3], *children], ";")], "/")
            if type_text.startswith("deck;"):
                state = split(fields[2], ";")
                if len(state) > 4 and state[4]:
                    cards = [c for c in split(state[4], ",") if c and (c not in moved or self.places[c].map_id == state[0] and
                                                                       (str(self.places[c].x), str(self.places[c].y)) == (state[1], state[2]))]
                    state[4] = join(cards, ",")
                    return "+/" + join([pid, type_text, join(state, ";")], "/")
            return token

        return SavedGame(source, "save", [rewrite(token) for token in self.start.restore], Obfuscation("obfuscated", 0x5A, "lower"))

    # --- the file --------------------------------------------------------------------------------
    def game(self, source: str = "sample.vlog") -> SavedGame:
        tree = list(self.start.restore) + [[LOG_PREFIX + c for c in step] if len(step) > 1 else LOG_PREFIX + step[0]
                                           for step in self.steps]
        return SavedGame(source, "log", tree, Obfuscation("obfuscated", 0x5A, "lower"))

    def to_bytes(self, module_name: str, module_version: str, vassal_version: str = "3.7.10", saved: int = 1738347539913) -> bytes:
        raw = obfuscate(encode_tree(self.game().tree).encode("utf-8"), Obfuscation("obfuscated", 0x5A, "lower"))
        savedata = _metadata("", vassal_version, saved)
        moduledata = _metadata(f"  <name>{escape(module_name)}</name>\n", vassal_version, saved, module_version)
        return write_zip({"savedGame": raw, "savedata": savedata, "moduledata": moduledata})


def _undoes(steps: list[list[str]], n: int) -> int:
    """The step an undo at ``n`` took back (undos pair with the latest step not yet taken back)."""
    taken: set[int] = set()
    for k in range(n + 1):
        if steps[k] and steps[k][0] == "UNDO\ttrue":
            target = max(j for j in range(k) if j not in taken and not (steps[j] and steps[j][0] == "UNDO\ttrue"))
            taken.add(target)
            if k == n:
                return target
    raise ValueError("not an undo")


def _metadata(name: str, vassal_version: str, saved: int, version: str = "") -> bytes:
    return (f'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<data version="1">\n'
            f"  <version>{escape(version)}</version>\n  <extra1/>\n  <extra2/>\n"
            f"  <VassalVersion>{escape(vassal_version)}</VassalVersion>\n  <dateSaved>{saved}</dateSaved>\n"
            f"  <description/>\n{name}</data>\n").encode("utf-8")

