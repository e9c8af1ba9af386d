"""VASSAL saves (``.vsav``) and logs (``.vlog``): read, decode into commands and pieces, and write back.

A save or log is a zip holding ``savedGame`` (the encoded command text), and since VASSAL 3.x ``savedata``
and ``moduledata``.  The text is ``begin_save … end_save`` (the game's restore commands); a log adds one
top-level ``LOG⇥…`` token per replay step.  Writing gives back the very bytes that were read, container
included, as long as nothing was changed; change ``tree`` and the rest is encoded as VASSAL would.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from pathlib import Path

from pbem.formats.vassal.archive import ZipArchive, is_zip, read_zip, write_zip
from pbem.formats.vassal.commands import (ESC, LOG_PREFIX, AddPiece, BoardLayout, NestingError, Player, decode_tree,
                                          encode_tree, leaves, parse_command)
from pbem.formats.vassal.metadata import Metadata, read_metadata
from pbem.formats.vassal.obfuscation import Obfuscation, ObfuscationError, deobfuscate, deobfuscate_chunks, obfuscate
from pbem.formats.vassal.traits import Piece, Stack, decode_piece
from pbem.model.errors import PbemError

SAVE_ENTRY = "savedGame"
# Bounds that keep reading within seconds and well under 1 GiB (documented in docs/vassal.md).  The
# largest real save at hand (Paths of Glory's, 6,000 pieces) is 27 MB of hex and 2,500 commands.
MAX_SAVED_GAME_BYTES = 64 * 1024 * 1024  # the savedGame entry as stored (hex: twice the text)
MAX_METADATA_BYTES = 1024 * 1024  # savedata, moduledata
# ESC-separated commands in it: a real log of a whole day holds a few thousand. 50,000 keeps the slowest use of
# a log, pbem replay of a game made of one (read for its header, then played), within 10 s (issue 26).
MAX_COMMANDS = 50_000


@dataclass(slots=True)
class SavedGame:
    """A decoded save or log."""

    source: str
    kind: str  # "save" or "log"
    tree: list | str
    obfuscation: Obfuscation
    archive: ZipArchive | None = None
    savedata: Metadata | None = None
    moduledata: Metadata | None = None
    _restore: tuple[list, list] | None = field(default=None, repr=False)  # (restore tokens, their commands)

    @property
    def tokens(self) -> list:
        """Top-level tokens: the restore commands, then (logs) the steps."""
        return self.tree if isinstance(self.tree, list) else [self.tree]

    @property
    def restore(self) -> list:
        """The tokens that rebuild the game as it was when saving (or when the log began)."""
        return [token for token in self.tokens if not _is_step(token)]

    @property
    def steps(self) -> list:
        """One token per replay step (logs only)."""
        return [token for token in self.tokens if _is_step(token)]

    def restore_commands(self) -> list:
        """The restore part's leaf commands, parsed (once for a tree: pieces, players and boards all ask)."""
        restore = self.restore
        cached = self._restore
        # Kept for the very tokens (held, so none is freed and its id reused): a tree changed is parsed again.
        if cached is None or len(cached[0]) != len(restore) or not all(map(operator.is_, cached[0], restore)):
            self._restore = cached = (restore, [parse_command(leaf) for token in restore for leaf in leaves(token)])
        return cached[1]

    def players(self) -> list[Player]:
        return [command for command in self.restore_commands() if isinstance(command, Player)]

    def board_layouts(self) -> list[BoardLayout]:
        return [command for command in self.restore_commands() if isinstance(command, BoardLayout)]

    def pieces(self) -> tuple[dict[str, Piece], dict[str, Stack]]:
        """The pieces and stacks the restore commands add, with stack members placed where their stack is."""
        return collect_pieces(self.restore_commands())

    @property
    def vassal_version(self) -> str:
        for meta in (self.savedata, self.moduledata):
            if meta and meta.vassal_version:
                return meta.vassal_version
        return ""


def _is_step(token: list | str) -> bool:
    first = token
    while isinstance(first, list):
        if not first:
            return False
        first = first[0]
    return first.startswith(LOG_PREFIX)


def step_commands(step: list | str) -> list[str]:
    """The commands of one step: each ``LOG⇥`` leaf's payload, empty ones (null commands) dropped."""
    out = []
    for leaf in leaves(step):
        payload = leaf[len(LOG_PREFIX):] if leaf.startswith(LOG_PREFIX) else leaf
        if payload:
            out.append(payload)
    return out


def collect_pieces(commands: list) -> tuple[dict[str, Piece], dict[str, Stack]]:
    """Pieces and stacks from ``+/`` commands, in two passes because members come before their stack."""
    pieces: dict[str, Piece] = {}
    stacks: dict[str, Stack] = {}
    anonymous = 0
    for command in commands:
        if not isinstance(command, AddPiece):
            continue
        decoded = decode_piece(command.id, command.type, command.state)
        key = command.id or f"#{anonymous}"
        anonymous += command.id is None
        if isinstance(decoded, Stack):
            stacks[key] = decoded
        else:
            pieces[key] = decoded
    for stack in stacks.values():
        for child in stack.children:
            piece = pieces.get(child)
            if piece is not None and stack.map_id is not None:
                # VASSAL 2.9 leaves a stacked piece's own map null: the stack knows where it is.
                piece.map_id, piece.x, piece.y = stack.map_id, stack.x, stack.y
    return pieces, stacks


def _too_large(size: int, source: str | Path) -> PbemError:
    return PbemError.at(source, f"savedGame holds {size} bytes, more than the {MAX_SAVED_GAME_BYTES} "
                                f"pbem reads (no real save comes near)")


def decode_saved_game(data: bytes, source: str | Path) -> tuple[list | str, Obfuscation]:
    """The command tree of a ``savedGame`` entry's bytes."""
    if len(data) > MAX_SAVED_GAME_BYTES:
        raise _too_large(len(data), source)
    try:
        plain, how = deobfuscate(data)
    except ObfuscationError as error:
        raise PbemError.at(source, f"savedGame: {error}", pointer=f"byte {error.offset}") from None
    return _decode_plain(plain, how, source), how


def _decode_plain(plain: bytes | bytearray, how: Obfuscation, source: str | Path) -> list | str:
    """The command tree of a ``savedGame`` entry once deobfuscated."""
    try:
        text = plain.decode("utf-8")
    except UnicodeDecodeError as error:
        raise PbemError.at(source, "savedGame is not UTF-8 once decoded (garbled obfuscation?)",
                           pointer=f"byte {error.start}") from None
    if how.encoding == "plain" and not text.startswith(("begin_save", LOG_PREFIX)):
        raise PbemError.at(source, "savedGame is neither obfuscated (!VCSK) nor a VASSAL command stream")
    commands = text.count(ESC) + 1
    if commands > MAX_COMMANDS:
        raise PbemError.at(source, f"savedGame holds {commands} commands, more than the {MAX_COMMANDS} pbem reads")
    try:
        return decode_tree(text)
    except (NestingError, RecursionError) as error:
        raise PbemError.at(source, f"savedGame: {error}") from None


def read_saved_game(data: bytes, source: str | Path, archive: ZipArchive | None = None) -> SavedGame:
    """A save or log from the bytes of a ``.vsav``/``.vlog`` (or a bare ``savedGame`` stream); ``archive``
    is ``data`` already read as a zip, if it was."""
    savedata = moduledata = None
    decoded = None
    if archive is None and is_zip(data):
        archive = read_zip(data, source)
    if archive is not None:
        size = archive.size(SAVE_ENTRY)
        if size is not None and size > MAX_SAVED_GAME_BYTES:
            raise _too_large(size, source)  # before inflating a byte of it
        if size is None:
            raise PbemError.at(source, "zip has no savedGame entry: not a VASSAL save or log")
        # Inflated and decoded chunk by chunk: the whole hex would cost as much in fresh memory as in work.
        # Anything irregular is read again whole, for the very errors (and their order) of the plain path.
        chunks = archive.chunks(SAVE_ENTRY)
        try:
            decoded = deobfuscate_chunks(chunks)
        finally:
            chunks.close()
        raw = archive.get(SAVE_ENTRY) if decoded is None else b""
        for name in ("savedata", "moduledata"):
            size = archive.size(name)
            if size is not None and size > MAX_METADATA_BYTES:
                raise PbemError.at(source, f"{name} holds {size} bytes, more than the {MAX_METADATA_BYTES} "
                                           "pbem reads (a real one is a few hundred)")
        if archive.get("savedata") is not None:
            savedata = read_metadata(archive.get("savedata"), f"{source}!savedata")
        if archive.get("moduledata") is not None:
            moduledata = read_metadata(archive.get("moduledata"), f"{source}!moduledata")
    else:
        raw = data
    if decoded is None:
        tree, how = decode_saved_game(raw, source)
    else:
        tree, how = _decode_plain(decoded[0], decoded[1], source), decoded[1]
    game = SavedGame(str(source), "save", tree, how, archive, savedata, moduledata)
    if any(_is_step(token) for token in game.tokens):
        game.kind = "log"
    return game


def encode_saved_game(game: SavedGame) -> bytes:
    """The file bytes of ``game``: the same bytes as read when unchanged."""
    raw = obfuscate(encode_tree(game.tree).encode("utf-8"), game.obfuscation)
    if game.archive is None:
        return raw
    members = dict(game.archive.members)
    members[SAVE_ENTRY] = raw
    return write_zip(members, game.archive.layout, game.archive.comment, originals=game.archive.members)
