"""The dice on record of a game: a folder, zip or turn files, an archived game, or a chain of VASSAL logs."""

from __future__ import annotations

from pbem.archive.play import TurnLoader
from pbem.engine.dice import DiceRecord, turn_rolls, vassal_rolls
from pbem.model.module import Module


def dice_record(module: Module, turns: list[tuple[str, bytes]], beside: dict[str, bytes] | None = None) -> DiceRecord:
    """Every roll of ``turns`` (in play order) as the files show it, without replaying the game. VASSAL logs give
    their rolls taken back by an undo and their re-rolls too. ``beside``: the game's dice records, by name."""
    from pbem.archive.logchain import is_vassal, read_chain

    record = DiceRecord()
    with TurnLoader(beside=beside) as loader:
        vassal = [(name, data) for name, data in turns if is_vassal(name)]
        chain = {f.name: f for f in read_chain(module, vassal, loader)} if vassal else {}
        for name, data in turns:
            if name in chain:
                record.rolls.extend(vassal_rolls(chain[name].rolls))
                record.rerolls.extend(chain[name].rerolls)
            else:
                turn = loader.load(name, data, module)
                record.rolls.extend(turn_rolls(turn, module))
    return record
