"""Issue 30: dice two players can trust by email — request (commitment), answer, reveal; the blocks that carry them
through email; the refusals; the published test vector; and ``pbem check`` of a turn's rolls against its record."""

from __future__ import annotations

import hashlib
import hmac
import re
import stat
from pathlib import Path

import pytest
from archive_support import run
from dice_support import GAME, by_email_with_dice, exchange
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.formats.dicemail import armour, read_blocks
from pbem.model import fairdice
from pbem.model.errors import PbemError

DOCS = Path(__file__).resolve().parents[1] / "docs" / "dice.md"


def _request(seq: int = 1, **changes) -> fairdice.Request:
    fields = {"game": GAME, "seq": seq, "turn": 1, "phase": "combat", "side": "soviet",
              "rolls": ({"for": "attack on 3305", "dice": "1d6"}, {"for": "political", "dice": "2d6"})}  # fmt: skip
    fields.update(changes)
    return fairdice.Request(**fields)


def _messages(seq: int = 1, secret: bytes = b"s" * 32, answer: bytes = b"a" * 32) -> list[dict]:
    """A whole exchange's three messages."""
    request = _request(seq)
    committed = fairdice.commitment(request.encoded(), secret)
    entry = fairdice.Entry(request, committed, answer, secret)
    return [fairdice.request_message(request, committed), fairdice.answer_message(entry), fairdice.reveal_message(entry)]


# --- the published test vector -----------------------------------------------------------------------------
def _vector() -> dict[str, str]:
    block = DOCS.read_text(encoding="utf-8").split("### Test vector", 1)[1].split("```")[1]
    return {key.strip(): value.strip() for key, _, value in (line.partition("=") for line in block.strip().splitlines())}


def test_the_test_vector_in_the_docs_is_what_pbem_computes():
    vector = _vector()
    secret, answer, text = bytes.fromhex(vector["secret"]), bytes.fromhex(vector["answer"]), vector["request"].encode()
    body = __import__("json").loads(text)
    request = fairdice.Request.from_body(body)
    assert request.encoded() == text  # the vector's request is canonical
    committed = fairdice.commitment(text, secret)
    assert committed.hex() == vector["commitment"]
    assert fairdice.digest(text, committed).hex() == vector["digest"]
    assert hmac.new(secret + answer, text + bytes(8), hashlib.sha256).hexdigest() == vector["block 0"]
    assert fairdice.draw(request, secret, answer) == [int(d) for d in vector["dice"].split(",")]


def test_the_dice_follow_the_published_recipe_written_out_independently():
    """The recipe of docs/dice.md, written again here from the text: the same faces for many requests."""
    for n in range(30):
        secret, answer = hashlib.sha256(b"s%d" % n).digest(), hashlib.sha256(b"a%d" % n).digest()
        sides = (2, 3, 6, 10, 20, 100, 1000)[n % 7]
        request = _request(n, rolls=({"for": "x", "dice": f"3d{sides}"},))
        faces = []
        for i in range(3):
            j, face = 0, None
            while face is None:
                block = hmac.new(secret + answer, request.encoded() + i.to_bytes(4, "big") + j.to_bytes(4, "big"), "sha256").digest()
                for k in range(8):
                    word = int.from_bytes(block[4 * k : 4 * k + 4], "big")
                    if word < 2**32 - 2**32 % sides:
                        face = word % sides + 1
                        break
                j += 1
            faces.append(face)
        assert fairdice.draw(request, secret, answer) == faces
        assert all(1 <= f <= sides for f in faces)


# --- the exchange and its refusals ---------------------------------------------------------------------------
def test_a_whole_exchange_gives_both_records_the_same_dice():
    record = fairdice.Record(GAME)
    for message in _messages():
        assert record.add(message)
    assert not record.add(_messages()[2])  # pasted twice: nothing new
    entry = record.entries[1]
    assert entry.status == "revealed" and entry.faces() == fairdice.draw(entry.request, b"s" * 32, b"a" * 32)
    assert [len(f) for _, f in entry.rolls()] == [1, 2]


def test_a_reveal_that_does_not_match_its_commitment_is_refused():
    request, answer, reveal = _messages()
    record = fairdice.Record(GAME)
    record.add(request)
    record.add(answer)
    with pytest.raises(fairdice.DiceError, match="does not match its commitment"):
        record.add({**reveal, "secret": "00" * 32})


def test_two_requests_with_one_sequence_number_are_refused():
    record = fairdice.Record(GAME)
    record.add(_messages(secret=b"x" * 32)[0])
    with pytest.raises(fairdice.DiceError, match="two requests with sequence number 1"):
        record.add(_messages(secret=b"y" * 32)[0])


def test_an_answer_to_an_unknown_request_is_refused():
    record = fairdice.Record(GAME)
    record.add(_messages(1)[0])
    with pytest.raises(fairdice.DiceError, match="answer to an unknown request"):
        record.add(_messages(2)[1])
    with pytest.raises(fairdice.DiceError, match="answer to an unknown request"):
        record.add({**_messages(1)[1], "request": "ab" * 32})


def test_a_message_of_another_game_is_refused():
    record = fairdice.Record("another-game")
    with pytest.raises(fairdice.DiceError, match="for game 'amur-1980'"):
        record.add(_messages()[0])


def test_a_reused_secret_is_refused():
    record = fairdice.Record(GAME)
    for message in _messages(1, secret=b"k" * 32):
        record.add(message)
    second = _messages(2, secret=b"k" * 32, answer=b"b" * 32)
    record.add(second[0])
    record.add(second[1])
    with pytest.raises(fairdice.DiceError, match="reuses a secret"):
        record.add(second[2])


def test_a_record_file_with_a_bad_reveal_is_listed_by_verify(tmp_path, capsys):
    record = fairdice.Record(GAME)
    request, answer, reveal = _messages()
    record.messages = [request, answer, {**reveal, "secret": "11" * 32}]
    path = tmp_path / "g.dice"
    path.write_text(record.text())
    code, out, _ = run(capsys, "dice", "verify", path)
    assert code == 1 and "message 3: the reveal of #1 does not match its commitment" in out
    assert "awaiting the reveal" in out


# --- property: any change to any field of any message is detected ---------------------------------------------
def _leaves(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, path + (key,))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _leaves(item, path + (n,))
    else:
        yield path, value


def _changed(message: dict, path: tuple, new) -> dict:
    import copy

    out = copy.deepcopy(message)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, 2), pick=st.integers(0, 10**6), new=st.one_of(st.text(max_size=8), st.integers(-5, 5),
       st.binary(min_size=32, max_size=32).map(bytes.hex), st.none(), st.booleans()))  # fmt: skip
def test_any_change_to_any_field_of_any_message_is_refused(which, pick, new):
    messages = _messages()
    leaves = [(p, v) for p, v in _leaves(messages[which]) if p != ("kind",)]
    path, old = leaves[pick % len(leaves)]
    if new == old and type(new) is type(old):
        return
    changed = list(messages)
    changed[which] = _changed(messages[which], path, new)
    record = fairdice.Record(GAME)
    with pytest.raises(PbemError):
        for message in changed:
            record.add(message)


@settings(max_examples=150, deadline=None)
@given(which=st.integers(0, 2), at=st.integers(0, 10**6), char=st.sampled_from("ABCabc012+/="))
def test_any_changed_character_of_a_block_is_refused(which, at, char):
    block = armour(_messages()[which]).splitlines()
    body = [n for n in range(1, len(block) - 1)]
    line = body[at % len(body)]
    column = (at // len(body)) % len(block[line])
    if block[line][column] == char:
        return
    block[line] = block[line][:column] + char + block[line][column + 1 :]
    with pytest.raises(PbemError, match="mail.txt:1: the dice .* block"):
        read_blocks("\n".join(block), "mail.txt")


def test_a_block_survives_quoting_rewrapping_spaces_and_a_signature():
    message = _messages()[0]
    block = armour(message)
    lines = block.splitlines()
    rewrapped = [lines[0]] + [" ".join(re.findall(".{1,23}", "".join(lines[1:-2])))] + lines[-2:]
    mail = "Hi Bob,\r\n\r\n" + "\r\n".join(f">  > {line}   " for line in rewrapped) + "\r\n\r\n-- \r\nAlice\r\n"
    assert [b.message for b in read_blocks(mail, "mail.txt")] == [message]
    assert read_blocks("   " + block.replace("\n", "\n\t"), "m")[0].message == message


def test_a_lost_line_or_end_is_refused_in_one_line():
    lines = armour(_messages()[0]).splitlines()
    with pytest.raises(PbemError, match="checksum does not match|not base64"):
        read_blocks("\n".join(lines[:2] + lines[3:]), "mail.txt")
    with pytest.raises(PbemError, match="no END line"):
        read_blocks("\n".join(lines[:-1]), "mail.txt")


# --- the commands, between two players' folders ----------------------------------------------------------------
def test_two_players_roll_by_email_with_the_commands(tmp_path, capsys, monkeypatch):
    alice, bob = tmp_path / "alice", tmp_path / "bob"
    alice.mkdir()
    bob.mkdir()
    monkeypatch.chdir(alice)
    code, out, err = run(capsys, "dice", "request", GAME, "--turn", "1", "--phase", "combat", "--side", "soviet",
                         "--for", "attack on 3305: 1d6", "--for", "political: 2 x 1d6")  # fmt: skip
    assert code == 0 and "request #1 recorded" in err
    secret_file = alice / f"{GAME}.dice.secret"
    assert stat.S_IMODE(secret_file.stat().st_mode) == 0o600
    secret = __import__("json").loads(secret_file.read_text())["1"]
    assert secret not in out and secret not in (alice / f"{GAME}.dice").read_text()
    (tmp_path / "mail-1.txt").write_text("Bob,\n" + "".join(f"> {line}\n" for line in out.splitlines()) + "-- \nAlice\n")
    monkeypatch.chdir(bob)
    code, answer, _ = run(capsys, "dice", "answer", tmp_path / "mail-1.txt")
    assert code == 0 and "BEGIN PBEM DICE ANSWER" in answer and secret not in answer
    (tmp_path / "mail-2.txt").write_text(answer)
    monkeypatch.chdir(alice)
    code, reveal, _ = run(capsys, "dice", "reveal", tmp_path / "mail-2.txt")
    assert code == 0 and "BEGIN PBEM DICE REVEAL" in reveal and not secret_file.exists()
    rolled = [line for line in reveal.splitlines() if line.startswith("#1")]
    (tmp_path / "mail-3.txt").write_text(reveal)
    monkeypatch.chdir(bob)
    code, seen, _ = run(capsys, "dice", "reveal", tmp_path / "mail-3.txt")
    assert code == 0 and [line for line in seen.splitlines() if line.startswith("#1")] == rolled
    assert (alice / f"{GAME}.dice").read_text() == (bob / f"{GAME}.dice").read_text()
    code, out, _ = run(capsys, "dice", "verify", bob / f"{GAME}.dice")
    assert code == 0 and "every die recomputed" in out


def test_a_damaged_paste_is_refused_in_one_line_and_records_nothing(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = armour(_messages()[0])
    damaged = text.replace(text.splitlines()[2][:5], text.splitlines()[2][:4] + ("A" if text.splitlines()[2][4] != "A" else "B"), 1)
    (tmp_path / "mail.txt").write_text(damaged)
    code, out, err = run(capsys, "dice", "answer", tmp_path / "mail.txt")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "mail.txt:1" in err and "damaged" in err
    assert not (tmp_path / f"{GAME}.dice").exists()


def test_a_second_request_with_the_same_number_is_refused_by_the_command(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ("dice", "request", GAME, "--turn", "1", "--phase", "combat", "--side", "soviet", "--for", "attack: 1d6")
    assert run(capsys, *args)[0] == 0
    before = (tmp_path / f"{GAME}.dice").read_text()
    code, _, err = run(capsys, *args, "--seq", "1")
    assert code == 2 and "two requests with sequence number 1" in err
    assert (tmp_path / f"{GAME}.dice").read_text() == before


# --- pbem check of a turn's rolls against its record -------------------------------------------------------------
@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Path:
    return by_email_with_dice(tmp_path_factory.mktemp("dice"))


def test_a_turn_whose_rolls_are_its_draws_is_legal(game, capsys):
    code, out, _ = run(capsys, "check", game / "t01-soviet-movement.pbem")
    assert code == 0, out
    assert "rule dice" not in out


def test_a_roll_that_differs_from_its_draw_is_a_dice_mismatch(game, tmp_path, capsys):
    path = tmp_path / "t01-soviet-movement.pbem"
    path.write_text((game / "t01-soviet-movement.pbem").read_text().replace("overrun 2906, roll 3", "overrun 2906, roll 2"))
    (tmp_path / f"{GAME}.dice").write_text((game / f"{GAME}.dice").read_text())
    code, out, _ = run(capsys, "check", path)
    assert code == 1
    assert "rule dice [mismatch] overrun roll 2 differs from the dice record amur-1980.dice: draw #2.1 (overrun 2906) gave 3" in out


def test_a_draw_used_twice_for_another_purpose_or_turn_is_a_mismatch(game, tmp_path, capsys):
    (tmp_path / f"{GAME}.dice").write_text((game / f"{GAME}.dice").read_text())
    text = (game / "t01-soviet-movement.pbem").read_text()
    path = tmp_path / "t.pbem"
    path.write_text(text.replace(f"Dice: {GAME}.dice", f"Dice: {GAME}.dice 1 1"))
    out = run(capsys, "check", path)[1]
    assert "draw #1.1 is used twice" in out
    path.write_text(text.replace(f"Dice: {GAME}.dice", f"Dice: {GAME}.dice 1 3"))
    out = run(capsys, "check", path)[1]
    assert "overrun roll uses draw #3.1 (attack on 3305) of amur-1980.dice, drawn for another purpose" in out
    path.write_text(text.replace("Turn: 1", "Turn: 2").replace(f"Dice: {GAME}.dice", f"Dice: {GAME}.dice 1 2"))
    out = run(capsys, "check", path)[1]
    assert "drawn for turn 1, not turn 2" in out


def test_a_turn_naming_no_record_is_checked_as_before_and_a_missing_record_is_an_input_error(game, tmp_path, capsys):
    path = tmp_path / "t.pbem"
    path.write_text((game / "t01-soviet-movement.pbem").read_text())
    code, _, err = run(capsys, "check", path)
    assert code == 2 and "the dice record amur-1980.dice is not beside the turn file" in err
    path.write_text((game / "t01-soviet-movement.pbem").read_text().replace(f"Dice: {GAME}.dice\n", ""))
    code, out, _ = run(capsys, "check", path)
    assert code == 0 and "dice" not in out.replace("political roll", "")


def test_the_dice_header_round_trips_between_json_and_notation():
    from pbem.formats.notation import parse_notation
    from pbem.formats.notation.writer import write_notation

    data = {"module": "china-war-1980", "scenario": "border-war", "turn": 1, "side": "soviet", "start": {"scenario": "border-war"},
            "dice": {"record": "amur-1980.dice", "draws": ["3", "4.2"]}, "actions": [{"phase": "combat"}]}  # fmt: skip
    text = write_notation(data)
    assert "Dice: amur-1980.dice 3 4.2" in text
    assert parse_notation(text, "t.pbem").data["dice"] == data["dice"]
    assert parse_notation(text.replace(" 3 4.2", ""), "t.pbem").data["dice"] == "amur-1980.dice"


def test_exchange_helper_reaches_the_wanted_dice():
    record = fairdice.Record(GAME)
    exchange(record, _request(7), [6, 6, 1])
    assert record.entries[7].faces() == [6, 6, 1]


def test_verify_in_json_and_a_block_quoted_twice_is_answered_once(tmp_path, capsys, monkeypatch):
    import json

    monkeypatch.chdir(tmp_path)
    block = armour(_messages()[0])
    (tmp_path / "mail.txt").write_text(f"{block}\n> {block.replace(chr(10), chr(10) + '> ')}")
    code, out, _ = run(capsys, "dice", "answer", tmp_path / "mail.txt")
    assert code == 0 and out.count("BEGIN PBEM DICE ANSWER") == 1
    code, out, _ = run(capsys, "dice", "verify", tmp_path / f"{GAME}.dice", "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["ok"] and report["requests"][0]["status"].startswith("awaiting the reveal")
    assert report["requests"][0]["rolls"] is None
