"""Helpers for the dice tests: a dice exchange played by both players in-process, and the by-email China War
game given a dice record whose draws are the rolls its turn files already show."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from pbem.model import fairdice

REPO = Path(__file__).resolve().parents[1]
BY_EMAIL = REPO / "samples" / "china-war-1980" / "by-email"
GAME = "amur-1980"

# The by-email game's rolls, as requests: (file, turn, phase, roller, [(purpose, dice, faces)]).
BY_EMAIL_REQUESTS = [
    ("t01-soviet-movement.pbem", 1, "political", "soviet", [("political roll", "2d6", [1, 4])]),
    ("t01-soviet-movement.pbem", 1, "movement", "soviet", [("overrun 2906", "1d6", [3])]),
    ("t01-soviet-combat.pbem", 1, "combat", "soviet", [("attack on 3305", "1d6", [5])]),
    ("t01-chinese-combat.pbem", 1, "combat", "chinese", [("attack on 3306", "1d6", [6])]),
]


def exchange(record: fairdice.Record, request: fairdice.Request, wanted: list[int] | None = None) -> None:
    """Request, answer and reveal ``request`` in ``record``. ``wanted``: the test plays both players, and tries
    answers until the dice are these (as a sample's turn files already show them); a real opponent cannot."""
    secret = hashlib.sha256(b"test secret %d" % request.seq).digest()
    committed = fairdice.commitment(request.encoded(), secret)
    record.add(fairdice.request_message(request, committed))
    entry = record.entries[request.seq]
    for attempt in range(100_000):
        answer = hashlib.sha256(b"test answer %d %d" % (request.seq, attempt)).digest()
        if wanted is None or fairdice.draw(request, secret, answer) == wanted:
            break
    else:  # pragma: no cover
        raise AssertionError("no answer gives those dice")
    record.add({"kind": "answer", "game": request.game, "seq": request.seq, "request": entry.digest.hex(), "answer": answer.hex()})
    record.add(fairdice.reveal_message(fairdice.Entry(request, committed, answer, secret)))


def by_email_with_dice(folder: Path) -> Path:
    """The by-email game copied into ``folder``, each file with rolls naming ``amur-1980.dice``, and that record."""
    game = folder / "game"
    shutil.copytree(BY_EMAIL, game)
    record = fairdice.Record(GAME)
    for seq, (_, turn, phase, side, rolls) in enumerate(BY_EMAIL_REQUESTS, start=1):
        request = fairdice.Request(GAME, seq, turn, phase, side, tuple({"for": p, "dice": d} for p, d, _ in rolls))
        exchange(record, request, [face for *_, faces in rolls for face in faces])
    (game / f"{GAME}.dice").write_text(record.text(), encoding="utf-8")
    for name in sorted({r[0] for r in BY_EMAIL_REQUESTS}):
        path = game / name
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        at = next(n for n, line in enumerate(lines) if line.startswith("Writer:"))
        lines.insert(at + 1, f"Dice: {GAME}.dice\n")
        path.write_text("".join(lines), encoding="utf-8")
    return game
