"""Red Winter rules an audit found missing (issue 13), each with a legal and an illegal case.

PAC cases 10 (Change of Finnish Operational Stance), 11 (Bonfire bonus) and 12 (Soviet Morale Collapse);
stacking after every unit's move and at the start of every assault (SK-2); one assault per unit and Action
Phase (AS-1, AS-5); the turn-14 Soviet reinforcements at X1 (RE-4); the turn track's reinforcement counts.
The samples legal-07 ... legal-13 and their illegal twins show the same rules from a player's side.
"""

import json
from collections import Counter
from types import SimpleNamespace

import pytest

from pbem.model.errors import PbemError
from pbem.model.module import load_module

from test_red_winter_validators import RULES, run, state_with

MODULE = load_module("red-winter")
FIN2 = ["FIN-1-1-JR16", "FIN-2-1-JR16"]
SOV3 = ["SOV-1-1-609", "SOV-2-1-609", "SOV-3-1-609"]


def written_status(pbem, tmp_path, side, turn, actions, start):
    doc = {"module": "red-winter", "scenario": "campaign", "turn": turn, "side": side, "start": {"scenario": "campaign"}, "actions": actions}
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(doc))
    out = tmp_path / "after.json"
    args = ["check", path, "--write-state", out] + (["--state", start] if start else [])
    assert pbem(*args).code == 0
    return json.loads(out.read_text()).get("status", {})


# --- case 11: the Bonfire bonus, 2R against a hex with a Bonfire marker -------------------------------------------
TO_P25 = {"move": FIN2, "path": ["O20", "O21", "O22", "O23", "P24", "P25"]}
# 10 vs 23 (three companies and the MG, boxed) = 1:3; Soviet morale (turn 5) 1L; the Bonfire 2R: 1:2; 10 = 0/1.
ON_BONFIRE = {"attack": FIN2, "target": "Q25", "odds": "1/3", "shifts": {"morale": -1, "bonfire": 2}, "column": "1/2",
              "roll": 10, "result": "0/1", "losses": {"defender": ["SOV-MG-1-609"]}}  # fmt: skip
# Without a bonfire the same attack is 1:4; 10 = 1/0.
NO_BONFIRE = dict(ON_BONFIRE, shifts={"morale": -1}, column="1/4", result="1/0", losses={"attacker": ["FIN-1-1-JR16"]})


def test_bonfire_bonus_in_a_combat(pbem, tmp_path):
    actions = [{"phase": "action"}, TO_P25, {"phase": "combat"}]
    assert run(pbem, tmp_path, "finnish", 5, actions + [ON_BONFIRE], "state-bonfire.json") == []
    assert run(pbem, tmp_path, "finnish", 5, actions + [NO_BONFIRE], "state-bonfire.json") == ["LS-1", "LS-2", "OD-6", "SH-1"]  # the defender owed the loss
    # The campaign set-up has no bonfire: the bonus claimed there is a mismatch, its absence is right.
    assert run(pbem, tmp_path, "finnish", 5, actions + [NO_BONFIRE]) == []
    assert "SH-1" in run(pbem, tmp_path, "finnish", 5, actions + [ON_BONFIRE])


def test_bonfire_bonus_in_an_assault(pbem, tmp_path):
    # 1/1/JR16 alone (5 vs 23, worse than 1:4 reads 1:4); Soviet morale 2L in assaults, Finnish SMG 1R (into
    # forest), Bonfire 2R: 1:3; 12 = 1/2 (attacker step, two steps from the MG).
    move = {"move": "FIN-1-1-JR16", "path": ["O20", "O21", "O22", "O23", "P24", "P25"]}
    assault = {"overrun": "FIN-1-1-JR16", "target": "Q25", "shifts": {"morale": -2, "smg": 1, "bonfire": 2}, "column": "1/3",
               "roll": 12, "result": "1/2", "losses": {"attacker": ["FIN-1-1-JR16"], "defender": ["SOV-MG-1-609", "SOV-MG-1-609"]}}  # fmt: skip
    assert run(pbem, tmp_path, "finnish", 5, [{"phase": "action"}, move, assault], "state-bonfire.json") == []
    assert "SH-1" in run(pbem, tmp_path, "finnish", 5, [{"phase": "action"}, move, assault])


# --- case 10: Change of Finnish Operational Stance -----------------------------------------------------------------
# Turn 20, 10 vs 15 = 1:2; Finnish morale 1R and the stance 1R: 2:1; 9 = 1/2.
STANCE = {"attack": FIN2, "target": "O21", "odds": "1/2", "shifts": {"morale": 1, "finnish_stance": 1}, "column": "2/1", "roll": 9,
          "result": "1/2", "losses": {"attacker": ["FIN-1-1-JR16"], "defender": ["SOV-1-1-609", "SOV-2-1-609"]}}  # fmt: skip


def test_stance_change_is_eligible_from_day_4(pbem, tmp_path):
    combat = [{"phase": "action"}, {"phase": "combat"}]
    assert run(pbem, tmp_path, "finnish", 20, combat + [STANCE], "state-day-4.json") == []
    # Turn 18 is before day 4: the same claim is a mismatch (shift, column, result; the losses owed differ too).
    assert "SH-1" in run(pbem, tmp_path, "finnish", 18, combat + [STANCE], "state-day-4.json")
    status = written_status(pbem, tmp_path, "finnish", 20, combat + [STANCE], state_with(tmp_path, "state-day-4.json"))
    assert status["finnish_stance"] == 20


def test_stance_counts_on_the_turn_it_changes_only(pbem, tmp_path):
    changed = state_with(tmp_path, "state-day-4.json", status={"finnish_stance": 20})
    combat = [{"phase": "action"}, {"phase": "combat"}]
    assert run(pbem, tmp_path, "finnish", 20, combat + [STANCE], changed) == []
    assert "SH-1" in run(pbem, tmp_path, "finnish", 21, combat + [STANCE], changed)  # changed on turn 20, gone on 21
    # Declared on turn 20, it also counts for an attack that does not claim it (the claim was the declaration).
    unclaimed = dict(STANCE, shifts={"morale": 1})
    assert run(pbem, tmp_path, "finnish", 20, combat + [unclaimed], changed) == ["SH-1"]


def test_stance_option_rest_of_game(monkeypatch):
    claim = SimpleNamespace(shifts={"finnish_stance": 1})
    later = SimpleNamespace(status={"finnish_stance": 20}, turn=24)
    assert not RULES.stance_applies(claim, later)
    monkeypatch.setitem(RULES.options, "finnish_stance_lasts", "rest_of_game")
    assert RULES.stance_applies(claim, later)
    assert not RULES.stance_applies(claim, SimpleNamespace(status={}, turn=19))  # before day 4, claimed or not


# --- case 12: Soviet Morale Collapse ----------------------------------------------------------------------------------
COLLAPSE = dict(STANCE, shifts={"morale": 1, "soviet_morale_collapse": 1})


def full_soviet_infantry_and_mg(tmp_path, start, reduced=()):
    return state_with(tmp_path, start, steps={u: 1 for u in reduced})


def test_morale_collapse_is_checked_in_the_soviet_reset_phase(pbem, tmp_path):
    reset = [{"phase": "reset"}]
    # state-day-4: 18 full-strength Soviet infantry companies and MGs on the map. Reduce 6: 12 left, no collapse;
    # reduce 7: 11 left, collapse (fewer than 12, the module's default reading).
    companies = ["SOV-1-1-364", "SOV-2-1-364", "SOV-3-1-364", "SOV-4-2-364", "SOV-5-2-364", "SOV-6-2-364", "SOV-7-3-364"]
    twelve = full_soviet_infantry_and_mg(tmp_path, "state-day-4.json", companies[:6])
    eleven = full_soviet_infantry_and_mg(tmp_path, "state-day-4.json", companies)
    assert "soviet_morale_collapse" not in written_status(pbem, tmp_path, "soviet", 20, reset, twelve)
    assert written_status(pbem, tmp_path, "soviet", 20, reset, eleven)["soviet_morale_collapse"] == 20
    # A Soviet file without a reset marker passed its Reset Phase all the same.
    assert written_status(pbem, tmp_path, "soviet", 20, [{"phase": "action"}], eleven)["soviet_morale_collapse"] == 20
    # Not before day 4, nor in the Finnish Reset Phase.
    assert "soviet_morale_collapse" not in written_status(pbem, tmp_path, "soviet", 19, reset, eleven)
    assert "soviet_morale_collapse" not in written_status(pbem, tmp_path, "finnish", 20, reset, eleven)


def test_morale_collapse_shifts_finnish_attacks_only(pbem, tmp_path):
    combat = [{"phase": "action"}, {"phase": "combat"}]
    assert run(pbem, tmp_path, "finnish", 20, combat + [COLLAPSE], "state-day-4-collapse.json") == []
    assert run(pbem, tmp_path, "finnish", 24, combat + [COLLAPSE], "state-day-4-collapse.json") == []  # for good
    assert "SH-1" in run(pbem, tmp_path, "finnish", 20, combat + [COLLAPSE], "state-day-4.json")
    # A Soviet attack gets no 1R from it: 15 vs 10 = 1:1, Finnish morale 1L: 1:2; 7 = 2/1.
    soviet = {"attack": SOV3, "target": "O20", "odds": "1/1", "shifts": {"morale": -1}, "column": "1/2", "roll": 7, "result": "2/1",
              "losses": {"attacker": ["SOV-1-1-609", "SOV-2-1-609"], "defender": ["FIN-1-1-JR16"]}}  # fmt: skip
    assert run(pbem, tmp_path, "soviet", 20, combat + [soviet], "state-day-4-collapse.json") == []
    claimed = dict(soviet, shifts={"morale": -1, "soviet_morale_collapse": 1})
    assert run(pbem, tmp_path, "soviet", 20, combat + [claimed], "state-day-4-collapse.json") == ["SH-1"]


def test_morale_collapse_option_claimed(monkeypatch):
    claim = SimpleNamespace(shifts={"soviet_morale_collapse": 1})
    day4 = SimpleNamespace(status={}, turn=20)
    assert not RULES.collapse_applies(claim, day4)
    monkeypatch.setitem(RULES.options, "soviet_morale_collapse", "claimed")
    assert RULES.collapse_applies(claim, day4) and not RULES.collapse_applies(claim, SimpleNamespace(status={}, turn=19))


def test_an_unknown_option_value_is_refused(monkeypatch):
    monkeypatch.setitem(MODULE.options, "soviet_morale_collapse", "sometimes")
    with pytest.raises(PbemError, match="options.soviet_morale_collapse"):
        type(RULES)(MODULE)


# --- stacking after every unit's move and at the start of every assault (SK-2) ----------------------------------------
def test_stacking_is_judged_where_a_move_ends_not_on_the_way(pbem, tmp_path):
    through = [{"phase": "action"}, {"move": "SOV-4-2-609", "path": ["R27", "Q26", "Q25", "P25"]}]
    assert run(pbem, tmp_path, "soviet", 1, through) == []  # a fourth company passes through Q25
    into = [{"phase": "action"}, {"move": "SOV-4-2-609", "path": ["R27", "Q26", "Q25"]}, {"move": "SOV-1-1-609", "path": ["Q25", "P25"]}]
    assert run(pbem, tmp_path, "soviet", 1, into) == ["SK-1"]  # four companies at the end of its move, though one leaves later
    five = [{"phase": "action"}, {"move": "SOV-MG-2-609", "path": ["R27", "Q26", "Q25"]}, {"move": "SOV-1-1-609", "path": ["Q25", "P25"]}]
    assert run(pbem, tmp_path, "soviet", 1, five) == []  # five units, three of them companies: the limit exactly
    six = [{"phase": "action"}, {"move": "SOV-MG-2-609", "path": ["R27", "Q26", "Q25"]}, {"move": "SOV-MG-3-609", "path": ["R27", "Q26", "Q25"]}]
    start = state_with(tmp_path, "state-after-legal-01.json", place={u: "Q25" for u in SOV3} | {"SOV-MG-3-609": "R27"})
    assert run(pbem, tmp_path, "soviet", 2, six, start) == ["SK-1"]  # six units at the end of the MG's move


# --- one assault per unit and Action Phase; armour may go on after a won assault (AS-1, AS-5) -------------------------
def test_armour_that_won_an_assault_may_assault_again(pbem, tmp_path):
    # Turn 9 (day): the T-26 on the main road in W27; 7/3/JR16 in V28 and 8/3/JR16 in U27 on the road ahead.
    # 7 vs 5 = 1:1; Soviet armour 1R, Finnish SMG 1L (defending in forest): 1:1; 12 = 0/3: eliminated, advance.
    start = state_with(tmp_path, "state-armour.json", place={"SOV-T26M33": "W27", "FIN-7-3-JR16": "V28", "FIN-8-3-JR16": "U27"})
    first = {"overrun": "SOV-T26M33", "target": "V28", "odds": "1/1", "column": "1/1", "roll": 12, "result": "0/3",
             "losses": {"defender": ["FIN-7-3-JR16", "FIN-7-3-JR16"]}, "advance": ["SOV-T26M33"]}  # fmt: skip
    second = dict(first, target="U27", losses={"defender": ["FIN-8-3-JR16", "FIN-8-3-JR16"]})
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "action"}, first, second], start) == []
    # Had the first assault not emptied the hex, the tank could not go on: 7 vs 10 (7/3 and 9/3 in V28) = 1:2,
    # shifts as above; 12 = 0/2, a step from each, nobody leaves. Assaulting V28 again is a second assault.
    start = state_with(tmp_path, "state-armour.json", place={"SOV-T26M33": "W27", "FIN-7-3-JR16": "V28", "FIN-9-3-JR16": "V28"})
    held = dict(first, odds="1/2", column="1/2", result="0/2", losses={"defender": ["FIN-7-3-JR16", "FIN-9-3-JR16"]}, advance=[])
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "action"}, held], start) == []
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "action"}, held, held], start) == ["AS-1"]


def test_an_assault_is_part_of_a_move_not_a_second_action(pbem, tmp_path):
    # Night turn 5 (digging in next to the enemy is allowed at night, DI-3), the MG on the ice of N21: 1/1/JR16
    # assaults it after moving (legal), but not after digging in.
    assault = {"overrun": "FIN-1-1-JR16", "target": "N21", "odds": "1/2", "column": "2/1", "roll": 4, "result": "1/0", "losses": {"attacker": ["FIN-1-1-JR16"]}}
    moved = [{"phase": "action"}, {"move": "FIN-1-1-JR16", "path": ["O20", "N20"]}, dict(assault)]
    assert run(pbem, tmp_path, "finnish", 5, moved, "state-mg-on-ice.json") == []
    dug_in = [{"phase": "action"}, {"special": "dig_in", "units": ["FIN-1-1-JR16"]}, assault]
    assert run(pbem, tmp_path, "finnish", 5, dug_in, "state-mg-on-ice.json") == ["SEQ-1"]


# --- turn 14: the 139th AT sections enter at X1 with the 718th (RE-4) ----------------------------------------------------
def test_entry_hex_of_every_coded_soviet_reinforcement():
    state = SimpleNamespace(status={})
    for unit_id, code in MODULE.tables["setup_codes"]["units"].items():
        if unit_id.startswith("SOV-") and code.isdigit():
            unit = SimpleNamespace(id=unit_id, side="soviet")
            assert RULES.entry_hex(unit, state) == ("X1" if code in ("11", "13", "14") else "X28"), unit_id
    rebuilt = SimpleNamespace(status={"turn_track": {"SOV-1-1-718": {"turn": 20, "step": 1}}})
    assert RULES.entry_hex(SimpleNamespace(id="SOV-1-1-718", side="soviet"), rebuilt) == "X28"  # RE-7: the supply source


def test_turn_14_reinforcements(pbem, tmp_path):
    at = lambda unit, hex_: [{"phase": "action"}, {"reinforce": unit, "at": hex_}]  # noqa: E731
    assert run(pbem, tmp_path, "soviet", 14, at("SOV-AT-2-3-139", "X1")) == []
    assert run(pbem, tmp_path, "soviet", 14, at("SOV-AT-2-3-139", "X28")) == ["RE-4"]
    assert run(pbem, tmp_path, "soviet", 14, at("SOV-AT-1-1-139", "X28")) == []  # coded 4: the supply source
    assert run(pbem, tmp_path, "soviet", 14, at("SOV-AT-1-1-139", "X1")) == ["RE-1"]


# --- the turn track's reinforcement counts against the counters' codes -------------------------------------------------
def test_reinforcement_counts_against_the_counters():
    """Every Soviet count on the turn track is the number of Soviet counters coded for that turn. Three Finnish
    counts are not: turn 1 prints 5 (4 counters coded 1), turn 5 prints 2 (1 coded 5), turn 8 prints 3 (2 coded 8,
    plus the two optional field kitchens coded "8 *"). The sources do not say which units make up the difference
    (module README, "Reinforcement counts"); this test pins the facts so a change to either is noticed."""
    coded: dict[str, Counter] = {"soviet": Counter(), "finnish": Counter()}
    for unit_id, code in MODULE.tables["setup_codes"]["units"].items():
        turn = code.split(" ")[0]
        if turn.isdigit():
            coded["soviet" if unit_id.startswith("SOV-") else "finnish"][int(turn)] += 1
    printed = {side: {e["turn"]: e["reinforcements"][side] for e in MODULE.tables["turn_track"]["turns"] if side in e.get("reinforcements", {})} for side in coded}
    assert printed["soviet"] == dict(coded["soviet"])
    differ = {t: (n, coded["finnish"][t]) for t, n in printed["finnish"].items() if coded["finnish"][t] != n}
    assert differ == {1: (5, 4), 5: (2, 1), 8: (3, 4)}  # turn 8: 2 + the 2 optional kitchens
    assert set(coded["finnish"]) <= set(printed["finnish"])
