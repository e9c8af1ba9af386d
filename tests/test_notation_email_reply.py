"""A turn pasted into a real email reply: greeting, closing remark and the quoted earlier mail are not the turn."""

from __future__ import annotations

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
