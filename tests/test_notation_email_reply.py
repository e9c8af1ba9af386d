"""A turn pasted into a real email reply: greeting, closing remark and the quoted earlier mail are not the turn."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pbem.formats.notation import NotationError, parse_notation

TURN = "Game: china-war-1980\nScenario: border-war\nTurn: 1\nSide: soviet\n\n== Movement ==\nSOV-TK-XX-1-02: 2604-2605-2606\n"
EXPECTED = parse_notation(TURN, "plain.pbem").data


def problems(text: str) -> list[str]:
    with pytest.raises(NotationError) as caught:
        parse_notation(text, "reply.txt")
    return [str(p) for p in caught.value.problems]


@pytest.mark.parametrize(
    "attribution",
    [
        "On Tue, Nov 3, 2026 at 10:00 AM Ivan Petrov <ivan@example.org> wrote:",
        "On Tue, Nov 3, 2026 at 10:00 AM Ivan Petrov <ivan@example.org>\nwrote:",  # wrapped by the mail client
        "-----Original Message-----",
        "Le mar. 3 nov. 2026 à 10:00, Ivan <ivan@example.org> a écrit :",
        "Am Di., 3. Nov. 2026 um 10:00 Uhr schrieb Ivan <ivan@example.org>:",
    ],
)
def test_reply_with_greeting_closing_and_quoted_mail(attribution):
    reply = (
        "Hi Ivan,\n\nhere is my turn, sorry it took 2 days.\n\n" + TURN + "\nCheers,\nBoris\n\n" + attribution + "\n"
        "> Game: china-war-1980\n> Turn: 0\n> this is not a turn line\n"
    )
    document = parse_notation(reply, "reply.txt")
    assert document.data == EXPECTED
    assert document.source("/actions/1").line == reply.splitlines().index("SOV-TK-XX-1-02: 2604-2605-2606") + 1


def test_quoted_mail_without_attribution_after_an_unquoted_turn():
    assert parse_notation(TURN + "\n> SOV-TK-XX-1-02: 2604-9999\n> older mail\n", "r.txt").data == EXPECTED


def test_a_quoted_turn_is_still_read_whole():
    quoted = "\n".join("> " + line for line in TURN.splitlines())
    assert parse_notation(quoted, "fwd.txt").data == EXPECTED


def test_a_mistyped_last_action_is_not_forgiven_as_a_closing():
    # It names a unit or a hex, so it has a digit: it is part of the turn and is reported.
    found = problems(TURN + "\nSOV-TK-XX-1-02 2606 2607\n")
    assert len(found) == 1 and found[0].startswith("9:")
    # Nor is an unreadable line inside the turn, with no blank line before it.
    assert problems(TURN + "no such thing\n")[0].startswith("8:")


def test_a_long_last_paragraph_is_not_a_closing():
    assert len(problems(TURN + "\nthis is\nnot a\nshort\nclosing remark\n")) == 4


def test_greeting_without_a_header_is_still_an_error():
    # With no header line nothing tells the greeting from the turn: every line is the turn.
    assert problems("Hi Ivan,\nSOV-TK-XX-1-02: 2604-2605\n")[0].startswith("1:")


POG_TURN = Path(__file__).resolve().parent.parent / "samples" / "paths-of-glory" / "legal-01-guns-of-august-opening.pbem"


@pytest.mark.parametrize(
    "closing",
    ["Your turn.", "Good luck.", "Well played.", "Your turn!", "See you next turn.", "Good luck and have fun.", "Thanks,\nBoris."],
)
def test_a_closing_sentence_with_a_full_stop_is_skipped(closing):
    # "Your turn." reads as the special order 'your' of a unit 'turn.' (the form that takes any leading words for an
    # order's name); it names nothing of the game, so it is prose, whatever its words.
    document = parse_notation(TURN + "\n" + closing + "\n", "reply.txt")
    assert document.data == EXPECTED
    pog = POG_TURN.read_text(encoding="utf-8")
    assert parse_notation(pog + "\n" + closing + "\n", "pog.pbem").data == parse_notation(pog, "pog.pbem").data


def test_a_closing_sentence_naming_a_unit_of_the_game_is_the_turn():
    # The same shape naming a real unit (here by a prefix, so with no digit) is read as a special order and checked,
    # never dropped as prose.
    document = parse_notation(TURN + "\nHold sov-mar.\n", "reply.txt")
    assert document.data["actions"][-1] == {"special": "hold", "units": ["SOV-MAR-XX-1-01"]}
    # An action word makes a line notation: its unknown unit is reported even without a digit.
    assert "unknown unit" in problems(TURN + "\nEliminate Boris.\n")[0]
    # A closing remark inside the turn (no blank line before it) is still reported.
    assert "unknown unit 'turn.'" in problems(TURN + "Your turn.\n")[0]
    # Nor is a paragraph with a real action in it dropped.
    assert problems(TURN + "\nYour turn.\nSOV-TK-XX-1-02: 2606-2607\n")[0].startswith("9:")


def test_the_cli_checks_a_turn_that_ends_your_turn(tmp_path):
    turn = tmp_path / "t01.pbem"
    turn.write_text(TURN + "\nYour turn.\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pbem", "check", str(turn)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "2 actions checked" in done.stdout
