"""Build the sample VASSAL logs of ``samples/paths-of-glory/vassal/`` from the real Classic save.

Run from the repo root: ``python modules/paths-of-glory/tools/build_vassal_samples.py
../shared/data/paths-of-glory/vassal/Classic10-8.vsav [OUT]`` (default OUT: samples/paths-of-glory/vassal/).
The logs carry the save's restore part, that is the VASSAL module's own piece definitions, which may not be
committed (no licence): the repo keeps this recipe and ``expected.json``; the logs are built beside them
(git-ignored) or, by the tests, in a temporary folder. Each log starts from the save's position (the real
module's pieces) and plays a few steps of the August 1914 opening with pbem's log writer, as a player would:
cards put on the OPS area, units dragged space by space or in one drag, dice rolled with the module's
buttons, a counter flipped, an undo.  The expected verdicts are in ``expected.json`` (set by hand from the
rules, not from pbem's output).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

MODULE = Path(__file__).resolve().parents[1]
REPO = MODULE.parents[1]
sys.path.insert(0, str(REPO))
OUT = REPO / "samples" / "paths-of-glory" / "vassal"


class Opening:
    """A log writer that speaks in units, spaces and cards."""

    _opened: dict[str, object] = {}  # the save read once, however many logs are built on it

    def __init__(self, save: Path, player: str = "Ted"):
        from pbem.formats.vassal.logwriter import LogWriter
        from pbem.formats.vassal.to_state import open_game, save_to_state

        if str(save) not in Opening._opened:
            opened = open_game(str(save))
            save_to_state(opened.game, opened.mapping, opened.pieces, opened.namer)
            Opening._opened[str(save)] = opened
        self.opened = Opening._opened[str(save)]
        self.piece_of = {unit: pid for pid, unit in self.opened.namer.units.items()}
        self.cards = {self.opened.mapping.card_of(p): pid for pid, p in self.opened.pieces.items()
                      if self.opened.mapping.card_of(p) is not None and p.map_id == "Map"}
        places = self.opened.mapping.data["places"]
        self.xy = {}
        for name, x, y in places["regions"]:
            self.xy.setdefault(name, (x, y))
        self.writer = LogWriter(self.opened.game, player=player, pieces=self.opened.pieces)
        self.player = player
        self.units_at: dict[str, list[str]] = {}

    def unit(self, unit_id: str) -> str:
        return self.piece_of[unit_id]

    def play(self, card: str, area: str) -> int:
        x, y = self.xy[area]
        return self.writer.move(self.cards[card], "Map", x, y)

    def move(self, unit_id: str, *spaces: str, one_drag: bool = False) -> list[int]:
        if one_drag:
            spaces = spaces[-1:]
        steps = []
        for space in spaces:
            x, y = self.xy[space]
            steps.append(self.writer.move(self.unit(unit_id), "Map", x, y))
        return steps

    def roll(self, button: str, value: int) -> int:
        report = self.opened.mapping.data["places"]["dice_reports"][button]
        colour = "grey" if "grey" in report else "blue"
        text = report.replace("$name$", button).replace("$result1$", str(value)).replace("$PlayerName$", self.player)
        assert colour in text
        return self.writer.report(text)

    def reduce(self, unit_id: str) -> int:
        return self.writer.flip(self.unit(unit_id), "Status", 2)

    def save(self, name: str, out: Path) -> Path:
        out.mkdir(parents=True, exist_ok=True)
        path = out / name
        path.write_bytes(self.writer.to_bytes("Paths of Glory", "10.8"))
        return path

    def next_log(self, player: str) -> "Opening":
        """The next log of a chain: it opens with the game as it stands now (VASSAL saves the whole game at
        the start of a log), written by ``player``. Piece ids, cards and places stay those of the save."""
        from pbem.formats.vassal.logwriter import LogWriter

        following = object.__new__(Opening)
        following.__dict__.update(self.__dict__)
        following.writer = LogWriter(self.writer.position(), player=player)
        following.player = player
        following.units_at = {}
        return following

    def cheat_move(self, unit_id: str, space: str) -> None:
        """Move a unit without logging it (a VASSAL player moving a piece before starting the log)."""
        x, y = self.xy[space]
        self.writer.move_command(self.unit(unit_id), "Map", x, y)


def corps_at(opening: Opening, space: str, nation: str) -> str:
    from pbem.formats.vassal.to_state import save_to_state

    state, _ = save_to_state(opening.opened.game, opening.opened.mapping, opening.opened.pieces)
    return next(u["id"] for u in state["units"] if u["at"] == space and u["id"].startswith(f"{nation}-CORPS-"))


def build(save: Path, out: Path = OUT, expected_file: bool = True) -> dict[str, dict]:
    expected: dict[str, dict] = {}

    # A legal opening: a CP OPS round (three spaces, one nation each), an AP OPS round, moves in one drag
    # and space by space, a chat line, and dice rolled for the record.
    o = Opening(save)
    o.play("CP-10", "OPS (CP)")
    o.move("GE-4-ARMY", "Strasbourg")
    o.move(corps_at(o, "Oppeln", "GE"), "Czestochowa", "Lodz")
    o.move("AH-2-ARMY", "Czernowitz", one_drag=True)
    o.writer.chat("that's my first round")
    o.play("AP-03", "OPS (AP)")
    o.move("FR-9-ARMY", "Chateau Thierry")
    o.save("legal-01-opening.vlog", out)
    expected["legal-01-opening.vlog"] = {"ok": True, "rules": []}

    # Over budget: a 2-OPS card, units leave three spaces (9.2.1).
    o = Opening(save)
    o.play("CP-02", "OPS (CP)")
    o.move("GE-4-ARMY", "Strasbourg")
    o.move("GE-1-ARMY", "Koblenz")
    o.move("AH-2-ARMY", "Czernowitz")
    o.save("illegal-9.2.1-over-budget.vlog", out)
    expected["illegal-9.2.1-over-budget.vlog"] = {"ok": False, "rules": ["9.2.1"]}

    # Through an enemy space: GE 2nd Army dragged Koblenz - Sedan (the French 5th Army) - Cambrai (11.1.7).
    o = Opening(save)
    o.play("CP-04", "OPS (CP)")
    o.move("GE-2-ARMY", "Sedan", "Cambrai")
    o.save("illegal-11.1.7-through-an-enemy-space.vlog", out)
    expected["illegal-11.1.7-through-an-enemy-space.vlog"] = {"ok": False, "rules": ["11.1.7"]}


    # An undone move is not part of the turn: GE 4th Army dragged to Sedan, taken back, then to Strasbourg.
    o = Opening(save)
    o.play("CP-10", "OPS (CP)")
    o.move("GE-4-ARMY", "Verdun")
    o.writer.undo()
    o.move("GE-4-ARMY", "Strasbourg")
    o.save("legal-02-undone-move.vlog", out)
    expected["legal-02-undone-move.vlog"] = {"ok": True, "rules": []}

    # An attack, as the 2022 rules' Extended Example plays it: declared in the chat with the loss numbers,
    # both dice rolled, the French 5th Army reduced and retreating two spaces, both German armies advancing.
    def sedan(claim: str, name: str, retreat: tuple[str, ...], first_roll: int | None = None) -> None:
        o = Opening(save)
        o.play("CP-10", "OPS (CP)")
        o.move("GE-4-ARMY", "Strasbourg")
        o.writer.chat(f"attack Sedan from Koblenz: {claim}")
        if first_roll is not None:
            o.roll("Grey Die", first_roll)
            o.writer.undo()
        o.roll("Grey Die", 4)
        o.roll("Blue Die", 3)
        o.reduce("FR-5-ARMY")
        o.move("FR-5-ARMY", *retreat)
        o.move("GE-2-ARMY", "Sedan")
        o.move("GE-3-ARMY", "Sedan")
        o.save(name, out)

    sedan("2/5", "legal-03-attack-on-sedan.vlog", ("Chateau Thierry", "Cambrai"))
    expected["legal-03-attack-on-sedan.vlog"] = {"ok": True, "rules": []}
    # The same attack with the table misread: the player claims the defender loses 3 and retreats one space as
    # that claim calls for, but 10 CF on the 9-11 column with a roll of 4 gives 5 (12.2.8).
    sedan("2/3", "mismatch-12.2.8-wrong-combat-result.vlog", ("Chateau Thierry",))
    expected["mismatch-12.2.8-wrong-combat-result.vlog"] = {"ok": False, "rules": ["12.2.8"]}

    # A re-roll after an undo: the attacker's grey die shows 1, is taken back and rolled again (a 4).
    sedan("2/5", "reroll-after-undo.vlog", ("Chateau Thierry", "Cambrai"), first_roll=1)
    expected["reroll-after-undo.vlog"] = {"ok": True, "rules": ["undo"]}

    if expected_file:
        (OUT / "expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")
    return expected


def build_chains(save: Path, out: Path = OUT) -> dict[str, list[str]]:
    """Two chains of logs as two players send them, one log per action round (issue 25): ``chain-clean/``, each
    log opening where the one before ended, and ``chain-moved/``, the same game with the Allied player moving
    the French 5th Army from Sedan to Verdun before starting their log (a move no log shows). The CP rolls for
    the record in rounds 1 and 2, once taking a roll back and rolling again. Returns each chain's files."""
    chains: dict[str, list[str]] = {}
    for chain, cheat in (("chain-clean", False), ("chain-moved", True)):
        folder = out / chain
        cp = Opening(save, "Ted")
        cp.play("CP-10", "OPS (CP)")
        cp.move("GE-4-ARMY", "Strasbourg")
        cp.move("AH-2-ARMY", "Czernowitz", one_drag=True)
        cp.roll("Grey Die", 3)
        cp.roll("Blue Die", 5)
        files = [cp.save("01-cp-round-1.vlog", folder).name]
        if cheat:
            cp.cheat_move("FR-5-ARMY", "Verdun")
        ap = cp.next_log("Ann")
        ap.play("AP-03", "OPS (AP)")
        ap.move("FR-9-ARMY", "Chateau Thierry")
        ap.roll("Grey Die", 2)
        files.append(ap.save("02-ap-round-1.vlog", folder).name)
        cp = ap.next_log("Ted")
        cp.play("CP-04", "OPS (CP)")
        cp.move("GE-1-ARMY", "Koblenz")
        cp.roll("Grey Die", 1)
        cp.writer.undo()
        cp.roll("Grey Die", 6)
        files.append(cp.save("03-cp-round-2.vlog", folder).name)
        chains[chain] = files
    return chains


if __name__ == "__main__":
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else OUT
    for name in build(Path(sys.argv[1]), out):
        print(f"wrote {out / name}")
    for chain, names in build_chains(Path(sys.argv[1]), out).items():
        for name in names:
            print(f"wrote {out / chain / name}")
