"""The tamper-evidence hash chain over a game's turn files (the scheme is described in ``docs/archive.md``).

::

    genesis  = SHA-256("pbem-archive-chain-v1" 0x00 start)        start = "scenario:<id>" or "state:" + file bytes
    link[i]  = SHA-256(link[i-1] ‖ uint32_be(i) ‖ SHA-256(name[i]) ‖ SHA-256(bytes[i]))   (link[-1] = genesis)
    head     = link[last]

Editing a byte of a turn file changes its hash and every link after it; dropping, inserting or reordering
turns changes the links from that point; dropping the last turns changes the head. Anyone holding the
head (players mail it to each other when a game ends) can tell whether the archive still holds that game.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

DOMAIN = b"pbem-archive-chain-v1\x00"


def file_hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def genesis(start_scenario: str | None, start_data: bytes | None) -> str:
    """The link before the first turn: it binds the chain to where the game started."""
    start = b"state:" + start_data if start_data is not None else b"scenario:" + (start_scenario or "").encode("utf-8")
    return hashlib.sha256(DOMAIN + start).hexdigest()


def link(previous: str, seq: int, name: str, data: bytes) -> str:
    """The link of turn ``seq`` (0-based) named ``name`` with contents ``data``, chained to ``previous``."""
    digest = hashlib.sha256(bytes.fromhex(previous))
    digest.update(seq.to_bytes(4, "big"))
    digest.update(hashlib.sha256(name.encode("utf-8")).digest())
    digest.update(hashlib.sha256(data).digest())
    return digest.hexdigest()


def chain(start_scenario: str | None, start_data: bytes | None, turns: list[tuple[str, bytes]]) -> list[str]:
    """Every link of a game, first turn first."""
    links: list[str] = []
    previous = genesis(start_scenario, start_data)
    for seq, (name, data) in enumerate(turns):
        previous = link(previous, seq, name, data)
        links.append(previous)
    return links


@dataclass(frozen=True)
class StoredLink:
    seq: int
    name: str
    data: bytes
    file_hash: str
    link: str


def first_break(start_scenario: str | None, start_data: bytes | None, stored: list[StoredLink], head: str, count: int) -> str | None:
    """Why the stored chain is broken, naming the first broken link, or ``None`` if it holds."""
    previous = genesis(start_scenario, start_data)
    for position, entry in enumerate(stored):
        where = f"link {position + 1} ({entry.name})"
        if entry.seq != position:
            return f"{where}: turn {position + 1} is missing (the next stored turn is number {entry.seq + 1})"
        if file_hash(entry.data) != entry.file_hash:
            return f"{where}: the turn file's bytes do not match their recorded hash (the file was edited)"
        expected = link(previous, position, entry.name, entry.data)
        if expected != entry.link:
            if position == 0:
                return f"{where}: does not follow from the game's start (start state edited, or turns dropped or reordered)"
            return f"{where}: does not follow from link {position} (turns edited, dropped, inserted or reordered)"
        previous = entry.link
    if len(stored) != count:
        return f"link {len(stored) + 1}: the game had {count} turns, {len(stored)} are stored (turns dropped)"
    if previous != head:
        return f"head: the last link is not the game's recorded head (turns dropped or appended after link {len(stored)})"
    return None
