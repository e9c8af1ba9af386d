"""Issue 30: a whole China War game (the by-email sample) played with dice records, from request to archive: every
roll checked against the record, the record stored with the game, covered by its hash chain and re-verified."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from archive_support import run
from dice_support import BY_EMAIL_REQUESTS, GAME, by_email_with_dice

from pbem.formats.dicerecord import load_record

PLAY_ORDER = ["t01-soviet-movement", "t01-chinese-reaction", "t01-soviet-combat", "t01-chinese-movement", "t01-soviet-reaction",
              "t01-chinese-combat"]  # fmt: skip


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    return by_email_with_dice(tmp_path_factory.mktemp("dice-game"))


def test_every_turn_of_the_game_checks_against_the_record(game, capsys):
    record, problems = load_record(game / f"{GAME}.dice")
    assert problems == [] and sorted(record.entries) == [1, 2, 3, 4]
    assert all(e.status == "revealed" for e in record.entries.values())
    for name in PLAY_ORDER:
        out = run(capsys, "check", game / f"{name}.pbem", "--write-state", game / f"after-{name}.json")[1]
        assert "rule dice" not in out, out
    assert len(BY_EMAIL_REQUESTS) == 4


def test_the_archive_keeps_chains_and_reverifies_the_record(game, tmp_path, capsys):
    db = tmp_path / "games.sqlite"
    code, out, _ = run(capsys, "archive", "--db", db, "add", game)
    assert code == 0 and "all legal" in out
    head = next(line.split()[1] for line in out.splitlines() if line.startswith("head "))
    assert run(capsys, "archive", "--db", db, "verify", "1", "--head", head)[0] == 0
    # The export carries the record, and adding the export back gives the same head.
    assert run(capsys, "archive", "--db", db, "export", "1", tmp_path / "out")[0] == 0
    assert (tmp_path / "out" / f"{GAME}.dice").read_bytes() == (game / f"{GAME}.dice").read_bytes()
    code, out, _ = run(capsys, "archive", "--db", db, "add", tmp_path / "out")
    assert code == 0 and f"head {head}" in out
    # An edited record breaks the chain and fails the protocol's checks.
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE dice_records SET data = replace(data, 'attack on 3305', 'attack on 3306') WHERE game_id = 1")
    code, out, _ = run(capsys, "archive", "--db", db, "verify")
    assert code == 1
    assert "game #1: link 1" in out and "dice records" in out
    assert "game #1: dice record amur-1980.dice: message 8: answer to an unknown request" in out
    assert "game #2" not in out


def test_the_archive_refuses_a_record_the_protocol_refuses(game, tmp_path, capsys):
    import shutil

    copy = tmp_path / "game"
    shutil.copytree(game, copy)
    text = (copy / f"{GAME}.dice").read_text()
    secret = text.split('"secret": "')[1][:64]
    (copy / f"{GAME}.dice").write_text(text.replace(secret, "0" * 64))
    code, out, err = run(capsys, "archive", "--db", tmp_path / "g.sqlite", "add", copy)
    assert code == 2 and "amur-1980.dice" in err and "does not match its commitment" in err
    assert not (tmp_path / "g.sqlite").exists()


def test_a_roll_changed_after_the_fact_is_a_dice_mismatch_in_the_archive(game, tmp_path, capsys):
    import shutil

    copy = tmp_path / "game"
    shutil.copytree(game, copy)
    path = copy / "t01-chinese-combat.pbem"
    path.write_text(path.read_text().replace("roll 6 = -/E", "roll 5 = -/E"))
    code, out, _ = run(capsys, "archive", "--db", tmp_path / "g.sqlite", "add", copy)
    assert code == 0 and "violation" in out
    code, out, _ = run(capsys, "archive", "--db", tmp_path / "g.sqlite", "search", "--rule", "dice", "--format", "json")
    assert code == 0 and [game["id"] for game in __import__("json").loads(out)] == [1]
    code, out, _ = run(capsys, "archive", "--db", tmp_path / "g.sqlite", "show", "1")
    assert "rule dice [mismatch] attack roll 5 differs from the dice record amur-1980.dice: draw #4.1 (attack on 3306) gave 6" in out


def test_a_draw_taken_again_by_a_later_file_of_the_game_is_a_dice_mismatch(game, tmp_path, capsys):
    import shutil

    copy = tmp_path / "game"
    shutil.copytree(game, copy)
    path = copy / "t01-chinese-combat.pbem"  # takes the Soviet attack's draw #3 (a 5), legal within the file itself
    path.write_text(path.read_text().replace(f"Dice: {GAME}.dice\n", f"Dice: {GAME}.dice 3\n").replace("roll 6 = -/E", "roll 5"))
    code, out, _ = run(capsys, "archive", "--db", tmp_path / "g.sqlite", "add", copy)
    assert code == 0 and "1 violation" in out
    out = run(capsys, "archive", "--db", tmp_path / "g.sqlite", "show", "1")[1]
    assert (f"t01-chinese-combat.pbem: rule dice [mismatch] draw #3.1 of the dice record {GAME}.dice was already used by "
            "t01-soviet-combat.pbem" in out), out
    assert out.count("rule dice") == 1


# --- a VASSAL log: the record beside the logs ------------------------------------------------------------------
REPO = Path(__file__).resolve().parents[1]
SAVE = REPO.parent / "shared" / "data" / "paths-of-glory" / "vassal" / "Classic10-8.vsav"


@pytest.mark.skipif(not SAVE.is_file(), reason="../shared/data/paths-of-glory/vassal is absent")
def test_a_vassal_log_is_checked_against_the_record_beside_it(tmp_path, capsys):
    import importlib.util

    from dice_support import exchange

    from pbem.model import fairdice

    spec = importlib.util.spec_from_file_location("build_vassal_samples", REPO / "modules" / "paths-of-glory" / "tools" / "build_vassal_samples.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    o = tool.Opening(SAVE)  # the sample log legal-03: the CP attack on Sedan, the attacker's die 4, the defender's 3
    o.play("CP-10", "OPS (CP)")
    o.move("GE-4-ARMY", "Strasbourg")
    o.writer.chat("attack Sedan from Koblenz: 2/5")
    o.roll("Grey Die", 4)
    o.roll("Blue Die", 3)
    o.reduce("FR-5-ARMY")
    o.move("FR-5-ARMY", "Chateau Thierry", "Cambrai")
    o.move("GE-2-ARMY", "Sedan")
    o.move("GE-3-ARMY", "Sedan")
    log = o.save("attack-on-sedan.vlog", tmp_path)
    request = fairdice.Request("pog-1", 1, 1, "action", "cp", ({"for": "attack on Sedan", "dice": "1d6"},
                                                              {"for": "attack on Sedan (defender)", "dice": "1d6"}))  # fmt: skip
    for faces, verdict in (([4, 3], 0), ([4, 2], 1)):
        record = fairdice.Record("pog-1")
        exchange(record, request, faces)
        (tmp_path / "pog-1.dice").write_text(record.text())
        code, out, _ = run(capsys, "check", log)
        assert code == verdict, out
        assert ("rule dice [mismatch] attack (defender) roll 3 differs from the dice record pog-1.dice: draw #1.2" in out) == bool(verdict)
