"""No Retreat! combat as players write it (issue 28): counterblows (5.4, 4.0, the CRT's CB), advances by attacking
units only, odds no reading of the missing rule 10 reaches, and the enemy-ZOC option of the two printed charts.

Each turn is a few actions on the illustrative 1941 sample state (Axis player turn 2): GE 4th Army (3, damaged) in
1306 faces SU 3rd Byelorussian (4, brown side) in Minsk 1307; 1st and 2nd Panzer (7 each) stand in 1206 and 1105.
"""

from __future__ import annotations

import json

import pytest

from pbem.formats.notation import parse_notation
from pbem.model.resources import data_dir

SAMPLES = data_dir("samples") / "no-retreat"
COMBAT = {"phase": "combat"}
CB_CARD = {"card": "1", "use": "soviet:counterblow"}


def check(pbem, tmp_path, actions, *, options=None, units=None) -> list[tuple[str, str]]:
    """The (rule, severity) of every violation of the turn, warnings left out."""
    state = json.loads((SAMPLES / "state-1941.json").read_text())
    for unit in state["units"]:
        unit.update((units or {}).get(unit["id"], {}))
    (tmp_path / "state.json").write_text(json.dumps(state))
    turn = {"module": "no-retreat", "turn": 2, "side": "axis", "start": {"state": "state.json"}, "actions": actions}
    if options:
        turn["options"] = options
    (tmp_path / "turn.json").write_text(json.dumps(turn))
    result = pbem("check", tmp_path / "turn.json", "--format", "json")
    assert result.code in (0, 1), result.err
    return [(v["rule"], v["severity"]) for v in json.loads(result.out)["violations"] if v["severity"] != "warning"]


def soviet_counterblow(target="1306", column="1/1", roll=3, result="-"):
    return {"attack": ["SU-3BYELORUSSIAN"], "target": target, "declare": ["counterblow"], "column": column, "roll": roll, "result": result}


PANZERS_CB = {"attack": ["GE-1PANZER", "GE-2PANZER"], "target": "1307", "column": "3/1", "roll": 1, "result": "CB"}


# --- counterblows -----------------------------------------------------------------------------------------------
def test_a_card_spent_designates_a_counterblow_on_the_soviet_crt(pbem, tmp_path):
    assert check(pbem, tmp_path, [COMBAT, CB_CARD, {"special": "counterblow", "at": "1306"}, soviet_counterblow()]) == []
    # the marker may be left implicit: the counterblow places it on its target
    assert check(pbem, tmp_path, [COMBAT, CB_CARD, soviet_counterblow()]) == []


def test_a_counterblow_without_a_card_or_cb_result_is_illegal(pbem, tmp_path):
    assert check(pbem, tmp_path, [COMBAT, soviet_counterblow()]) == [("5.4", "illegal")]
    assert check(pbem, tmp_path, [COMBAT, {"special": "counterblow", "at": "1306"}]) == [("5.4", "illegal")]


def test_the_phasing_player_spends_no_card_for_a_counterblow(pbem, tmp_path):
    assert check(pbem, tmp_path, [COMBAT, {"card": "1", "use": "axis:counterblow"}]) == [("5.4", "illegal")]
    assert check(pbem, tmp_path, [{"phase": "movement"}, CB_CARD]) == [("5.4", "illegal")]


def test_a_counterblow_reads_the_soviet_crt_not_the_axis_one(pbem, tmp_path):
    # Soviet CRT 1:1, roll 4 = CB; the Axis CRT would give EX.
    assert check(pbem, tmp_path, [COMBAT, CB_CARD, soviet_counterblow(roll=4, result="CB")]) == []
    assert check(pbem, tmp_path, [COMBAT, CB_CARD, soviet_counterblow(roll=4, result="EX")]) == [("CRT", "mismatch")]


def test_card_counterblows_are_declared_before_the_first_attack_is_resolved(pbem, tmp_path):
    late = [COMBAT, PANZERS_CB, CB_CARD, soviet_counterblow()]
    # the CB result's own marker is unused here, so the card's designation is what is late (4.0)
    assert ("4.0", "illegal") in check(pbem, tmp_path, late)
    assert ("4.0", "illegal") not in check(pbem, tmp_path, late, options={"counterblow_declaration": "any_time"})


def test_a_cb_result_puts_the_marker_on_an_attacking_unit_hex(pbem, tmp_path):
    on_panzer = [COMBAT, PANZERS_CB, {"special": "counterblow", "at": "1206"}, soviet_counterblow("1206", "1/2", 4, "-")]
    assert check(pbem, tmp_path, on_panzer) == []
    elsewhere = [COMBAT, PANZERS_CB, {"special": "counterblow", "at": "1306"}]
    assert check(pbem, tmp_path, elsewhere) == [("CRT", "illegal")]


def test_the_cb_counterblow_comes_next_only_with_the_immediate_option(pbem, tmp_path):
    between = {"attack": ["GE-4ARMY"], "target": "1307", "column": "1/1", "roll": 3, "result": "CB"}
    turn = [COMBAT, PANZERS_CB, {"special": "counterblow", "at": "1206"}, between, soviet_counterblow("1206", "1/2", 4, "-")]
    assert check(pbem, tmp_path, turn) == []
    assert check(pbem, tmp_path, turn, options={"counterblow_resolution": "immediate"}) == [("4.0", "illegal")]


def test_counterblow_forms_in_the_notation():
    text = """Game: no-retreat
Start: state-1941.json
Turn: 2
Side: axis
== Combat ==
Card 1 as soviet:counterblow
Counterblow at 1306
SU-3BYELORUSSIAN attack 1306, declare counterblow, 1:1, roll 3 = -
"""
    actions = parse_notation(text, "turn.pbem").data["actions"]
    assert actions[1:] == [{"card": "1", "use": "soviet:counterblow"}, {"special": "counterblow", "at": "1306"},
                           {"attack": ["SU-3BYELORUSSIAN"], "target": "1306", "declare": ["counterblow"], "odds": "1/1", "roll": 3, "result": "-"}]  # fmt: skip


# --- advances ---------------------------------------------------------------------------------------------------
def dr(advance):
    return {"attack": ["GE-1PANZER", "GE-2PANZER"], "target": "1307", "column": "3/1", "roll": 3, "result": "DR",
            "retreats": {"SU-3BYELORUSSIAN": ["1308", "1309"]}, "advance": advance}  # fmt: skip


def test_only_attacking_units_advance_after_a_dr(pbem, tmp_path):
    assert check(pbem, tmp_path, [COMBAT, dr(["GE-1PANZER"])]) == []
    assert check(pbem, tmp_path, [COMBAT, dr(["GE-9ARMY"])]) == [("CRT", "illegal")]


# --- odds -------------------------------------------------------------------------------------------------------
def test_odds_out_of_reach_are_a_mismatch(pbem, tmp_path):
    full = {"SU-3BYELORUSSIAN": {"step": 0}}  # 7: GE 4th Army's 3 against 7 is 1:3 or 1:2 before shifts
    attack = {"attack": ["GE-4ARMY"], "target": "1307", "roll": 1}
    assert check(pbem, tmp_path, [COMBAT, {**attack, "column": "3/1", "result": "CB"}], units=full) == []
    at_6_1 = {**attack, "column": "6/1", "result": "DR", "retreats": {"SU-3BYELORUSSIAN": ["1308", "1309"]}}
    assert check(pbem, tmp_path, [COMBAT, at_6_1], units=full) == [("CRT", "mismatch")]
    # odds before shifts: only rounding moves them
    assert check(pbem, tmp_path, [COMBAT, {**attack, "odds": "1/2", "column": "3/1", "result": "CB"}], units=full) == []
    assert check(pbem, tmp_path, [COMBAT, {**attack, "odds": "1/1", "column": "3/1", "result": "CB"}], units=full) == [("CRT", "mismatch")]


def test_odds_bounds_of_a_ratio():
    from importlib import util

    spec = util.spec_from_file_location("no_retreat_odds", data_dir("modules") / "no-retreat" / "rules" / "odds.py")
    odds = util.module_from_spec(spec)
    spec.loader.exec_module(odds)
    columns = ["1/3", "1/2", "1/1", "3/2", "2/1", "3/1", "4/1", "5/1", "6/1"]
    assert odds.rounding(3, 7, columns) == (0, 1)  # 1:3 or 1:2
    assert odds.rounding(3, 2, columns) == (3, 3)  # exactly 3:2
    assert odds.rounding(14, 4, columns) == (5, 6)  # 3.5: 3:1 or 4:1
    assert odds.rounding(1, 9, columns) == (0, 0) and odds.rounding(50, 1, columns) == (8, 8)


# --- enemy ZOC --------------------------------------------------------------------------------------------------
def test_an_enemy_zoc_stops_movement_only_with_the_inset_option(pbem, tmp_path):
    through = [{"phase": "movement"}, {"move": "GE-9ARMY", "path": ["1107", "1207", "1208"]}]
    assert check(pbem, tmp_path, through) == []
    assert check(pbem, tmp_path, through, options={"enemy_zoc": "stops"}) == [("TEC", "illegal")]
    stopping = [{"phase": "movement"}, {"move": "GE-9ARMY", "path": ["1107", "1207"]}]
    assert check(pbem, tmp_path, stopping, options={"enemy_zoc": "stops"}) == []


@pytest.mark.parametrize("option", ["enemy_zoc", "counterblow_declaration", "counterblow_resolution"])
def test_options_are_listed_in_the_module_readme(option):
    readme = (data_dir("modules") / "no-retreat" / "README.md").read_text(encoding="utf-8")
    assert f"`{option}`" in readme


def test_an_unsupplied_defender_may_retreat_two_hexes_more(pbem, tmp_path):
    four = {**dr([]), "retreats": {"SU-3BYELORUSSIAN": ["1308", "1309", "1310", "1311"]}}
    assert check(pbem, tmp_path, [COMBAT, four], units={"SU-3BYELORUSSIAN": {"markers": ["unsupplied"]}}) == []
    assert check(pbem, tmp_path, [COMBAT, four]) == [("CRT", "illegal")]  # a supplied one retreats 2


def test_explain_gives_the_rounding_the_reach_and_every_rolls_result(pbem, tmp_path):
    from pbem.model.schemas import validator

    check(pbem, tmp_path, [COMBAT, PANZERS_CB])
    result = pbem("check", tmp_path / "turn.json", "--explain", "--format", "json")
    report = json.loads(result.out)
    validator("report").validate(report)
    (worked,) = report["odds"]
    assert (worked["attack"], worked["defence"], worked["column"]) == (14, 4, "3/1")
    assert worked["odds"].startswith("3/1 or 4/1") and "1/2 to 6/1" in worked["parts"][0]
    assert worked["results"] == {"1": "CB", "2": "EX", "3": "DR", "4": "DR", "5": "DS", "6": "DD"}  # the Axis CRT at 3:1


def test_one_counterblow_a_marker(pbem, tmp_path):
    assert check(pbem, tmp_path, [COMBAT, CB_CARD, CB_CARD, soviet_counterblow(), soviet_counterblow()]) == []  # two cards, two markers
    assert check(pbem, tmp_path, [COMBAT, CB_CARD, soviet_counterblow(), soviet_counterblow()]) == [("4.0", "illegal")]


def test_a_counterblow_need_not_be_declared_where_a_cb_result_or_card_allows_it(pbem, tmp_path):
    plain = {"attack": ["SU-3BYELORUSSIAN"], "target": "1206", "column": "1/2", "roll": 4, "result": "-"}
    assert check(pbem, tmp_path, [COMBAT, PANZERS_CB, plain]) == []  # the CB result's marker on 1st Panzer's hex
    assert check(pbem, tmp_path, [COMBAT, CB_CARD, {**plain, "target": "1306", "column": "1/1", "roll": 3}]) == []
    assert check(pbem, tmp_path, [COMBAT, {**plain, "target": "1306", "column": "1/1", "roll": 3}]) == [("4.0", "illegal")]
