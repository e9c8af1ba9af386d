"""Reading fire at a distance, special orders and declared moves, on the Red Winter module's real units and hexes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.formats.notation import NotationError, parse_notation, write_notation

HEADER = "Game: red-winter\nScenario: campaign\nTurn: 1\nSide: finnish\n"  # 4 lines: the body starts on line 5
DOCS = Path(__file__).resolve().parents[1] / "docs" / "notation.md"


def actions(body: str) -> list[dict]:
    return parse_notation(HEADER + body, "turn.pbem").data["actions"]


def problems(body: str) -> list[str]:
    with pytest.raises(NotationError) as caught:
        parse_notation(HEADER + body, "turn.pbem")
    return [str(p) for p in caught.value.problems]


def test_fire_in_every_form():
    found = actions("""mg-1-jr16 fires at O21 (spotter 3-1-jr16), declare ranged, roll 4+5 = suppressed
Fire at O21 with mg-1-jr16 + 5-ktr12: spotted by pajari, roll 7
5-ktr12 shoots O21, spotter: pajari, roll 3+4 = 1
    defender loses SOV-1-1-609
    eliminated SOV-2-1-609   # caught in the open
""")
    assert found == [
        {"fire": ["FIN-MG-1-JR16"], "target": "O21", "spotter": "FIN-3-1-JR16", "declare": ["ranged"], "roll": [4, 5], "result": "suppressed"},
        {"fire": ["FIN-MG-1-JR16", "FIN-ART-5-KTR12"], "target": "O21", "spotter": "FIN-PAJARI", "roll": 7},
        {"fire": ["FIN-ART-5-KTR12"], "target": "O21", "spotter": "FIN-PAJARI", "roll": [3, 4], "result": "1",
         "losses": {"defender": ["SOV-1-1-609"]}, "eliminated": ["SOV-2-1-609"], "note": "caught in the open"},
    ]  # fmt: skip


def test_special_orders_in_every_form():
    found = actions("""Dig in 3-1-jr16 at P20, roll 5
Bonfire at Q25
dig_in 3-1-jr16 + 1-1-jr16 at P20
Night raid 1-1-jr16 on O21, roll 3+4 = "2 steps"   # at dawn
Special recovery: 1-ppp7, roll 6 = recovered
Special night raid, roll 4
Special "x28": SOV-7-3-609
Recovery 2-ppp7
    roll 2
""")
    assert found == [
        {"special": "dig_in", "units": ["FIN-3-1-JR16"], "at": "P20", "roll": 5},
        {"special": "bonfire", "at": "Q25"},
        {"special": "dig_in", "units": ["FIN-3-1-JR16", "FIN-1-1-JR16"], "at": "P20"},
        {"special": "night_raid", "units": ["FIN-1-1-JR16"], "at": "O21", "roll": [3, 4], "result": "2 steps", "note": "at dawn"},
        {"special": "recovery", "units": ["FIN-1-PPP7"], "roll": 6, "result": "recovered"},
        {"special": "night_raid", "roll": 4},
        {"special": "x28", "units": ["SOV-7-3-609"]},
        {"special": "recovery", "units": ["FIN-2-PPP7"], "roll": 2},
    ]
    # Every leading word of letters is the order (documented): a unit named in letters only goes after 'Special …:'.
    assert actions("Dig in pajari at P20\nSpecial dig in: pajari at P20\n") == [
        {"special": "dig_in_pajari", "at": "P20"}, {"special": "dig_in", "units": ["FIN-PAJARI"], "at": "P20"}]


def test_declared_moves():
    found = actions("""1-1-jr16 + 2-1-jr16 moves double: O19-O20
7-3-jr16 moves double, extended: A13-B13-C13 by land
Move 7-3-jr16 by land: A13-B13, declare extended
1-1-jr16: O19-O20 declare "double"
""")
    assert found == [
        {"move": ["FIN-1-1-JR16", "FIN-2-1-JR16"], "path": ["O19", "O20"], "declare": ["double"]},
        {"move": "FIN-7-3-JR16", "path": ["A13", "B13", "C13"], "by": "land", "declare": ["double", "extended"]},
        {"move": "FIN-7-3-JR16", "path": ["A13", "B13"], "by": "land", "declare": ["extended"]},
        {"move": "FIN-1-1-JR16", "path": ["O19", "O20"], "declare": ["double"]},
    ]


def test_every_value_points_at_what_the_player_wrote():
    text = HEADER + "mg-1-jr16 fires at O21 (spotter 3-1-jr16), roll 4+5 = suppressed\nDig in 3-1-jr16 at P20, roll 5\n"
    document = parse_notation(text, "turn.pbem")
    line5, line6 = text.splitlines()[4:6]
    assert document.position("/actions/0") == (5, 1)
    assert document.position("/actions/0/spotter") == (5, line5.index("3-1-jr16") + 1)
    assert document.position("/actions/0/roll") == (5, line5.index("4+5") + 1)
    assert document.position("/actions/1/units/0") == (6, line6.index("3-1-jr16") + 1)
    assert document.position("/actions/1/at") == (6, line6.index("P20") + 1)


def test_errors_name_their_place():
    found = problems("""mg-1-jr16 fires at O21 at 2:1, roll 4+5 = suppressed
    retreat SOV-1-1-609 to O22
1-1-jr16 + 2-1-jr16 attack O21 (spotter 3-1-jr16), roll 4+5 = 1/1
Dig in 3-1-jr16 at P20, roll 5, advance 3-1-jr16
Elimnate 3-1-jr16
Dig in 3-1-jr99 at P99
mg-1-jr16 fires at O21 (spotter 1-1-jr16) spotter 2-1-jr16, roll 4
Special "Dig in!": 3-1-jr16
mg-1-jr16 fires at O21, roll 4
    roll 5
""")
    assert found == [
        "5:24: a fire has no odds (a fire takes a spotter, declarations, roll, result, losses and eliminated units)",
        "6:5: a fire has no retreats (a fire takes a spotter, declarations, roll, result, losses and eliminated units)",
        "7:33: an attack has no spotter (a spotter goes with fire: UNITS fire at HEX (spotter UNIT))",
        "7:59: the roll of an attack is one number: write the total",
        "8:33: a special order has no advance (a special order takes its units, 'at HEX', a roll and a result)",
        "9:1: cannot read 'Elimnate': did you mean Eliminate? (a special order of the module with this name is written Special Elimnate: …)",
        "10:8: unknown unit '3-1-jr99' (did you mean FIN-3-1-JR16 at P20?)",  # the one in play nearest in spelling
        "10:20: unknown hex 'P99' (did you mean P19, P29, P9?)",
        "11:43: this fire already has its spotter",
        "12:9: a special order is named in letters, digits and '_' (such as dig_in), not 'Dig in!'",
        "14:5: this fire already has its roll",
    ]


def test_writer_falls_back_to_special_when_plain_words_would_read_otherwise():
    data = {"module": "red-winter", "turn": 1, "side": "finnish", "start": {"scenario": "campaign"}, "actions": [
        {"special": "dig_in", "units": ["FIN-3-1-JR16"], "at": "P20", "roll": 5, "result": "dug in"},
        {"special": "bonfire", "at": "Q25"},
        {"special": "night_raid"},
        {"special": "move_up", "units": ["FIN-3-1-JR16"]},
        {"special": "x28", "units": ["SOV-7-3-609"]},
        {"fire": ["FIN-MG-1-JR16", "FIN-MG-2-JR16"], "target": "O21", "spotter": "FIN-PAJARI", "roll": [6, 5], "result": "suppressed+1",
         "losses": {"defender": ["SOV-1-1-609"]}},
        {"move": "FIN-1-1-JR16", "path": ["O19", "O20"], "declare": ["double"]},
    ]}  # fmt: skip
    written = write_notation(data)
    assert written.split("Side: finnish\n", 1)[1] == """Dig in FIN-3-1-JR16 at P20, roll 5 = "dug in"
Bonfire at Q25
Special night raid
Special "move_up": FIN-3-1-JR16
Special "x28": SOV-7-3-609
FIN-MG-1-JR16 + FIN-MG-2-JR16 fire at O21 (spotter FIN-PAJARI), roll 6+5 = suppressed+1
    defender loses SOV-1-1-609
FIN-1-1-JR16 moves double: O19-O20
"""
    assert parse_notation(written, "again.pbem").data == data


def test_convert_round_trips_and_refuses_to_lose_a_field(pbem, tmp_path, monkeypatch):
    turn = tmp_path / "turn.pbem"
    turn.write_text(HEADER + "mg-1-jr16 fires at O21 (spotter 3-1-jr16), roll 4+5 = suppressed\nDig in 3-1-jr16 at P20, roll 5\n")
    as_json = tmp_path / "turn.json"
    assert pbem("convert", turn, "--to", "json", "--out", as_json).code == 0
    assert json.loads(as_json.read_text())["actions"][0]["spotter"] == "FIN-3-1-JR16"
    result = pbem("convert", as_json, "--to", "pbem")
    assert result.code == 0
    assert "FIN-MG-1-JR16 fires at O21 (spotter FIN-3-1-JR16), roll 4+5 = suppressed" in result.out

    # A writer that cannot say a field (as before fire existed): convert names the field and writes nothing.
    from pbem.cli import convert

    real = convert.write_notation
    monkeypatch.setattr(convert, "write_notation", lambda data: real({**data, "actions": [{k: v for k, v in a.items() if k != "spotter"} for a in data["actions"]]}))
    out = tmp_path / "out.pbem"
    result = pbem("convert", as_json, "--to", "pbem", "--out", out)
    assert result.code == 2 and not out.exists()
    assert "turn.json" in result.err and "'spotter'" in result.err and "would be lost" in result.err


def test_the_documented_red_winter_turn_reads():
    # tests/test_notation_doc_examples.py checks it is legal, with every other documented turn
    example = DOCS.read_text(encoding="utf-8").split("## A Red Winter turn", 1)[1].split("```")[1]
    kinds = [next(k for k in ("phase", "reinforce", "move", "special", "fire") if k in a) for a in parse_notation(example.lstrip("\n"), "turn.pbem").data["actions"]]
    assert kinds == ["phase", "phase", "reinforce", "move", "special", "special", "phase", "fire", "fire"]
