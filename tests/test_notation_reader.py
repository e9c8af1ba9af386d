"""Reading the notation as players write it: email artefacts, names, every action kind, located errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pbem.formats.notation import NotationError, parse_notation, read_notation
from pbem.model.errors import PbemError
from pbem.model.module import module_path

HEADER = "Game: china-war-1980\nScenario: border-war\nTurn: 1\nSide: soviet\n"


def read(body: str, header: str = HEADER):
    return parse_notation(header + body, "turn.pbem")


def actions(body: str) -> list[dict]:
    return read(body).data["actions"]


def problems(text: str) -> list[str]:
    with pytest.raises(NotationError) as caught:
        parse_notation(text, "turn.pbem")
    return [str(p) for p in caught.value.problems]


def test_header_and_defaults():
    data = read("").data
    assert data == {"module": "china-war-1980", "scenario": "border-war", "turn": 1, "side": "soviet",
                    "start": {"scenario": "border-war"}, "actions": []}  # fmt: skip
    data = parse_notation("game: China War\nstart: turn-2-after.json\nturn: 3\nside: Sov\nplayer: Ivan; Moscow\n", "t.pbem").data
    assert (data["module"], data["start"], data["turn"], data["side"], data["player"]) == (
        "china-war-1980", {"state": "turn-2-after.json"}, 3, "soviet", "Ivan; Moscow")


def test_every_action_kind():
    body = """
== Movement ==
Move SOV-TK-XX-1-01 + SOV-MR-XX-1-01 by rail: 3004-3104
SOV-MR-XX-1-02 moves 3104 > 3204 (air)
SOV-TK-XX-1-03 overruns 3305 at 4:1, roll 2 = -/E
Phase: combat (chinese)
Attack 3005 with SOV-TK-XX-1-01, SOV-MR-XX-1-01: odds 2:1, col 1:1, rolled 4, result 1/1, vs PLA-INF-XX-1-01
  declare mass_attack, "chemical"
  support nuclear 10, air 5
  shifts: river -1, soviet_first_line +1
  losses none
  eliminated none
  retreats none
  advance none
Eliminate SOV-MR-XX-1-03, SOV-MR-XX-1-04: out of supply
Remove SOV-MR-XX-2-04 to Garrison
Loss SOV-MR-XX-1-05: attrition
Reinforce SOV-AB-XX-1-01 at Chita
Replace SOV-MR-XX-1-01
Roll political 1d6 by chinese = 4 (war_weariness +1) -> North Korea hostile
Roll weather 2d6 = 3+5
Card "Guns of August" as event
Play Mass Attack for ops
# a comment line
; another
"""
    assert actions(body) == [
        {"phase": "movement"},
        {"move": ["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "path": ["3004", "3104"], "by": "rail"},
        {"move": "SOV-MR-XX-1-02", "path": ["3104", "3204"], "by": "air"},
        {"overrun": ["SOV-TK-XX-1-03"], "target": "3305", "odds": "4/1", "roll": 2, "result": "-/E"},
        {"phase": "combat", "side": "chinese"},
        {"attack": ["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "target": "3005", "defenders": ["PLA-INF-XX-1-01"],
         "support": {"nuclear": 10, "air": 5}, "declare": ["mass_attack", "chemical"], "odds": "2/1",
         "shifts": {"river": -1, "soviet_first_line": 1}, "column": "1/1", "roll": 4, "result": "1/1", "losses": {},
         "eliminated": [], "retreats": {}, "advance": []},
        {"eliminate": ["SOV-MR-XX-1-03", "SOV-MR-XX-1-04"], "reason": "out of supply"},
        {"remove": "SOV-MR-XX-2-04", "to": "garrison"},
        {"loss": "SOV-MR-XX-1-05", "reason": "attrition"},
        {"reinforce": "SOV-AB-XX-1-01", "at": "2601"},
        {"replace": "SOV-MR-XX-1-01"},
        {"roll": {"purpose": "political", "dice": "1d6", "side": "chinese", "value": 4, "modifiers": {"war_weariness": 1}, "result": "North Korea hostile"}},
        {"roll": {"purpose": "weather", "dice": "2d6", "value": [3, 5]}},
        {"card": "Guns of August", "use": "event"},
        {"card": "Mass Attack", "use": "ops"},
        {"comment": "a comment line"},
        {"comment": "another"},
    ]  # fmt: skip


def test_email_artefacts_change_nothing_but_keep_columns():
    plain = HEADER + "== Movement ==\nSOV-TK-XX-1-02: 2604-2605-2606   # screen\n"
    mailed = "\r\n".join(
        ["> > " + line for line in plain.splitlines()[:-1]]
        + ["> >   sov-tk-xx-1-02\u00a0: 2604 \u2192 2605 \u2013 2606   ; screen", "", "-- ", "Ivan", "SOV-TK-XX-1-02: 2604-9999"]
    )
    document = parse_notation(mailed, "mail.txt")
    assert document.data == parse_notation(plain, "plain.pbem").data
    line, column = document.position("/actions/1/path/2")
    assert (line, column) == (6, mailed.splitlines()[5].index("2606") + 1)
    assert document.source("/actions/1").line == 6


def test_unit_and_location_names():
    found = actions("== Movement ==\nsov-mar: 4609-Vladivo\nSOV-AB-XX-1-01 + \"SOV-AB-XX-1-02\": 2601 - 2602\n")
    assert found[1] == {"move": "SOV-MAR-XX-1-01", "path": ["4609", "4609"]}
    assert found[2]["move"] == ["SOV-AB-XX-1-01", "SOV-AB-XX-1-02"]
    ambiguous, unknown, hex_ = problems(HEADER + "SOV-TK: 3004-3104\nSOV-TX-XX-1-01: 3004-3104\nSOV-TK-XX-1-01: 3004-9999\n")
    assert ambiguous.startswith("5:1: unit 'SOV-TK' is ambiguous: it could be SOV-TK-XX-1-01, SOV-TK-XX-1-02")
    assert unknown.startswith("6:1: unknown unit 'SOV-TX-XX-1-01' (did you mean SOV-TK-XX-1-01")
    assert hex_.startswith("7:22: unknown hex '9999'")


def test_aliases_from_the_module(tmp_path, monkeypatch):
    # A player's own copy of the module, found by id on PBEM_MODULE_PATH (a turn never names a folder).
    monkeypatch.setenv("PBEM_MODULE_PATH", str(tmp_path / "mods"))
    folder = tmp_path / "mods" / "china-war-1980"
    shutil.copytree(module_path("china-war-1980"), folder)
    counters = json.loads((folder / "counters.json").read_text())
    for unit in counters["units"]:
        if unit["id"] == "SOV-TK-XX-1-01":
            unit["aliases"] = ["1st Tk"]
        if unit["id"] == "SOV-TK-XX-1-02":
            unit["aliases"] = ["1st Guards Tk"]
    (folder / "counters.json").write_text(json.dumps(counters))
    turn = tmp_path / "turn.pbem"
    turn.write_text("Game: china-war-1980\nScenario: border-war\nTurn: 1\nSide: soviet\n1st tk + 1st  Guards: 3004-3104\n1st: 3004-3104\n")
    with pytest.raises(NotationError) as caught:
        read_notation(turn)
    assert [str(p) for p in caught.value.problems] == ["6:1: unit '1st' is ambiguous: it could be SOV-TK-XX-1-01, SOV-TK-XX-1-02"]
    turn.write_text(turn.read_text().rsplit("\n1st:", 1)[0] + "\n")
    document = read_notation(turn)
    assert document.data["module"] == "china-war-1980"
    assert document.data["actions"][0]["move"] == ["SOV-TK-XX-1-01", "SOV-TK-XX-1-02"]


def test_every_error_is_collected_with_its_place():
    text = "Game: china-war-1980\nTurn: one\nSide: soviet\n\nSOV-TK-XX-1-02 2604-2605\nretreat SOV-TK-XX-1-02 to 2605\nSOV-TK-XX-1-02: 2604-2605\n  attacker lose X\n"
    found = problems(text)
    assert found[0] == "1:1: the header lacks Start: (or Scenario:)"
    assert found[1] == "2:7: the turn is a number, not 'one'"
    assert found[2].startswith("5:25: the line ends too early") and "a move is written UNITS: HEX-HEX" in found[2]
    assert found[3] == "6:1: this reads like part of an attack, but no attack comes before it"
    assert found[4:] == ["8:12: cannot read 'lose' here: expected ':' or loses"]
    with pytest.raises(NotationError) as caught:
        parse_notation(text, "turn.pbem")
    error = caught.value
    assert isinstance(error, PbemError) and (error.source.line, error.source.column) == (1, 1)
    assert "; 4 more: 2:7: the turn is a number" in error.message and "\n" not in str(error)


def test_continuation_lines_attach_to_the_attack_above():
    found = actions("""== Combat ==
SOV-TK-XX-1-01 + SOV-MR-XX-1-01 attack 3005,   # opening shot
   at 2:1 > 1:1,
   roll 4 = 1/1
   attacker loses SOV-MR-XX-1-01   # ouch
defender loses PLA-INF-XX-1-01
   # the Chinese hold
# next attack
""")
    assert found[1] == {"attack": ["SOV-TK-XX-1-01", "SOV-MR-XX-1-01"], "target": "3005", "odds": "2/1", "column": "1/1",
                        "roll": 4, "result": "1/1", "losses": {"attacker": ["SOV-MR-XX-1-01"], "defender": ["PLA-INF-XX-1-01"]},
                        "note": "opening shot ouch the Chinese hold"}  # fmt: skip
    assert found[2] == {"comment": "next attack"}
    assert problems(HEADER + "A attack 3005, roll 4 = 1/1\n  roll 5\n")[-1] == "6:3: this attack already has its roll"


def test_saved_email(tmp_path):
    mail = tmp_path / "turn.eml"
    mail.write_text("From: ivan@example.org\nSubject: turn 1\nContent-Type: text/plain\n\n" + HEADER + "SOV-TK-XX-1-02: 2604-2605\n")
    document = read_notation(mail)
    assert document.data["actions"] == [{"move": "SOV-TK-XX-1-02", "path": ["2604", "2605"]}]
    assert document.source("/actions/0").line == 9
    mail.write_text("From: x\nContent-Transfer-Encoding: base64\n\nR2FtZQ==\n")
    with pytest.raises(PbemError, match="save its text as a .pbem file"):
        read_notation(mail)


def test_hostile_input_is_refused_cleanly():
    for text in ("", "\x00\x01", "Game: " + "x" * 5000, "Game: ../../../etc\nTurn: 1\nSide: a\nStart: b\n", '"unterminated', "(((((((", "Turn: 99999999999999"):
        with pytest.raises(PbemError):
            parse_notation(text, "bad.pbem")


def test_convert_both_ways(pbem, tmp_path, samples):
    out = tmp_path / "turn.pbem"
    assert pbem("convert", samples / "legal-03-khingan-and-nukes.json", "--to", "pbem", "--out", out).code == 0
    assert "at 2:1 (soviet_first_line +1" in out.read_text()
    result = pbem("convert", out, "--to", "json")
    assert result.code == 0
    original = json.loads((samples / "legal-03-khingan-and-nukes.json").read_text())
    original.pop("$schema")
    assert json.loads(result.out) == original
    assert pbem("check", out).code == 0


def test_convert_lists_every_problem_and_writes_nothing(pbem, tmp_path):
    bad = tmp_path / "bad.pbem"
    bad.write_text(HEADER + "SOV-TX: 3004-3104\nSOV-TK-XX-1-01: 3004-9999\n")
    out = tmp_path / "out.json"
    result = pbem("convert", bad, "--to", "json", "--out", out)
    assert result.code == 2 and not out.exists()
    # Both problems, on one line (as check tells them): the first one's place, then the other's.
    assert result.err.count("\n") == 1 and "bad.pbem:5:1:" in result.err and "6:22" in result.err
    result = pbem("check", bad)
    assert result.code == 2 and result.err.count("\n") == 1 and "bad.pbem:5:1:" in result.err


def test_the_documented_china_war_turn_reads():
    docs = Path(__file__).resolve().parents[1] / "docs" / "notation.md"
    example = docs.read_text(encoding="utf-8").split("## A China War turn", 1)[1].split("```")[1]
    data = parse_notation(example, "docs.pbem").data
    assert [a.get("phase") for a in data["actions"] if "phase" in a] == ["movement", "reaction", "combat"]
    assert data["actions"][-1]["shifts"]["river"] == -2
