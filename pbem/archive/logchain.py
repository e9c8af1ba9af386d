"""A game sent as a chain of VASSAL logs (and saves): each log checked as a turn from where the replay of the one
before ended, each log's opening position compared with the previous file's end (rule ``continuity``), and the
chain's dice with their undos and re-rolls gathered across every file.

A save in a chain is a position, not a turn: it is compared like a log's opening and ends where it opens.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.archive.play import PlayedGame, TurnLoader, play_game
from pbem.formats.turnfile import VASSAL_SUFFIXES
from pbem.formats.vassal.continuity import ChainDice, ChainFile, chain_dice, continuity, read_chain_file
from pbem.model.errors import PbemError
from pbem.model.module import Module
from pbem.model.violation import Violation

MAX_CHAIN_FILES = 500  # a long game by action rounds holds a few hundred logs


@dataclass
class ChainCheck:
    """The outcome of checking a chain: the logs replayed, the continuity between files, the dice."""

    played: PlayedGame | None
    files: list[str]
    continuity: dict[str, list[Violation]] = field(default_factory=dict)  # by the later file's name
    dice: ChainDice | None = None
    versions: dict[str, str] = field(default_factory=dict)  # by file name: the VASSAL module version it is from

    @property
    def ok(self) -> bool:
        return (self.played is None or self.played.ok) and not any(self.continuity.values())


def is_vassal(name: str) -> bool:
    return name.lower().endswith(VASSAL_SUFFIXES)


def read_chain(module: Module | None, files: list[tuple[str, bytes]], loader: TurnLoader) -> list[ChainFile]:
    """Each file of the chain opened through ``loader``'s private folder, in order."""
    if len(files) > MAX_CHAIN_FILES:
        raise PbemError(f"a chain holds at most {MAX_CHAIN_FILES} VASSAL files")
    out = []
    for name, data in files:
        path = loader.write(name, data)
        try:
            out.append(read_chain_file(str(path), module, name))
        except PbemError as error:
            if error.source is not None and error.source.file == str(path):
                from dataclasses import replace

                raise PbemError(error.message, replace(error.source, file=name)) from None
            raise
        finally:
            path.unlink(missing_ok=True)
    return out


def chain_continuity(chain: list[ChainFile]) -> dict[str, list[Violation]]:
    """The continuity violations of each file against the one before it."""
    return {after.name: continuity(before, after, after.opened.namer if after.opened else None)
            for before, after in zip(chain, chain[1:])}


def check_chain(module: Module, files: list[tuple[str, bytes]]) -> ChainCheck:
    """Replay the chain's logs in order (each from where the one before ended) and check its continuity."""
    if not files:
        raise PbemError("no VASSAL logs or saves to check")
    with TurnLoader() as loader:
        chain = read_chain(module, files, loader)
    logs = [(name, data) for (name, data), item in zip(files, chain) if item.kind == "log"]
    found = chain_continuity(chain)
    # The logs' own continuity: a save between two logs is compared on both sides, and the logs are not read twice.
    played = play_game(module, logs, chain=[item for item in chain if item.kind == "log"]) if logs else None
    versions = {item.name: item.opened.mapping.version_read for item in chain if item.opened is not None}
    return ChainCheck(played, [name for name, _ in files], found, chain_dice(chain), versions)
