"""WWII Campaign / Crusader rules: a legal and an illegal case for each rule built, on a tiny map (the support
module). Rule ids are the digest's W-§ ids, which name the Chinese headings (the source has no numbers)."""

from __future__ import annotations

import json

import pytest
from ww2_crusader_support import (
    MODULE, H, attack, build_module, declare, illegal, move, phase, recruit, reinforce, replenish, run, state,
)

from pbem.model.errors import PbemError

def rules():
    from pbem.engine.rulesets import module_ruleset

    return module_ruleset(MODULE)


# --- W-§1 sequence of play (游戏流程) ----------------------------------------------------------------------
def test_segments_in_order_are_legal():
    found = run("axis", [phase("move_1"), phase("attack_1"), phase("recovery"), phase("move_2"), phase("attack_2"),
                         phase("move_1", "allied"), phase("attack_1", "allied"), phase("turn_end")], state({}))
    assert illegal(found) == set()


def test_returning_to_a_finished_segment_is_illegal():
    assert illegal(run("axis", [phase("move_2"), phase("move_1")], state({}))) == {"W-§1"}
    assert illegal(run("axis", [phase("move_1"), phase("resource")], state({}))) == {"W-§1"}


def test_an_unknown_segment_is_illegal():
    assert illegal(run("axis", [phase("exploitation")], state({}))) == {"W-§1"}


def test_module_declares_the_sequence_as_data():
    manifest = json.loads((MODULE.path / "module.json").read_text())
    names = [p.get("phase") for p in manifest["sequence"]["game_turn"]]
    inner = [p["phase"] for p in manifest["sequence"]["game_turn"] if "player_turns" in p for p in p["player_turns"]]
    assert names[:5] == ["resource", "turn_start", "reinforcement_declaration", "reinforcement_entry", "initiative"]
    assert inner == ["move_1", "attack_1", "recovery", "move_2", "attack_2"] and names[-1] == "turn_end"


# --- W-CP/2 RP and CP never negative; W-Reinf/1 waiting zones; W-Repl/1 replenishment -------------------------
def test_recruiting_within_the_rp_is_legal_and_goes_to_waiting_zone_2():
    start = state({}, status={"rp": {"axis": 10, "allied": 0}})
    assert illegal(run("axis", [phase("reinforcement_declaration"), recruit("PZ-1")], start)) == set()
    assert start.status["rp"]["axis"] == 2 and start.units["PZ-1"].box == "waiting_zone_2"


def test_recruiting_beyond_the_rp_is_illegal():
    assert illegal(run("axis", [phase("reinforcement_declaration"), recruit("PZ-1")], state({}, status={"rp": {"axis": 7}}))) == {"W-CP/2"}
    # two recruits in one order: 4 + 4 against 7
    assert illegal(run("axis", [phase("reinforcement_declaration"), recruit("IT-INF-1", "IT-INF-2")], state({}, status={"rp": {"axis": 7}}))) == {"W-CP/2"}


def test_zone_2_units_are_not_placed_the_turn_they_are_recruited():
    start = state({}, status={"rp": {"axis": 20}})
    found = run("axis", [phase("reinforcement_declaration"), recruit("PZ-1", "IT-INF-1"), phase("reinforcement_entry"),
                         reinforce(["IT-INF-1"], "0103")], start)
    assert illegal(found) == set()
    start = state({}, status={"rp": {"axis": 20}})
    found = run("axis", [phase("reinforcement_declaration"), recruit("PZ-1"), phase("reinforcement_entry"), reinforce(["PZ-1"], "0103")], start)
    assert illegal(found) == {"W-Reinf/1"}


def test_replenishment_once_a_turn_and_within_the_rp():
    start = state({"PZ-1": ("0103", 1)}, status={"rp": {"axis": 3}})
    assert illegal(run("axis", [phase("reinforcement_entry"), replenish("PZ-1")], start)) == set()
    assert start.units["PZ-1"].step == 0 and start.status["rp"]["axis"] == 0
    start = state({"PZ-1": ("0103", 2)}, status={"rp": {"axis": 10}})
    assert illegal(run("axis", [phase("reinforcement_entry"), replenish("PZ-1"), replenish("PZ-1")], start)) == {"W-Repl/1"}
    assert illegal(run("axis", [phase("reinforcement_entry"), replenish("PZ-1")], state({"PZ-1": ("0103", 1)}, status={"rp": {"axis": 2}}))) == {"W-CP/2"}


def test_a_replenished_unit_acts_only_in_the_second_round():
    def turn(segment):
        start = state({"PZ-1": ("0103", 1)}, status={"rp": {"axis": 3}})
        return illegal(run("axis", [phase("reinforcement_entry"), replenish("PZ-1"), phase(segment), move("PZ-1", "0203")], start))
    assert turn("move_2") == set()
    assert turn("move_1") == {"W-Round/4"}


# --- W-Stack/1-3 stacking by main terrain, road/rail bonus, at the end of movement ------------------------------
def test_road_bonus_lets_a_plain_hex_hold_four_with_three_armoured():
    start = state({"PZ-1": "0403", "PZ-2": "0403", "IT-INF-1": "0403", "PZ-3": "0503"})
    assert illegal(run("axis", [phase("move_1"), move("PZ-3", "0403"), phase("attack_1")], start)) == set()


def test_three_armoured_in_a_plain_hex_without_road_is_illegal():
    start = state({"PZ-1": "0304", "PZ-2": "0304", "PZ-3": "0403"})
    assert illegal(run("axis", [phase("move_1"), move("PZ-3", "0304"), phase("attack_1")], start)) == {"W-Stack/1"}


def test_a_town_gets_no_road_bonus():
    start = state({"IT-INF-1": "0303", "IT-INF-2": "0303", "IT-INF-3": "0303", "IT-INF-4": "0303", "IT-INF-5": "0203"})
    assert illegal(run("axis", [phase("move_1"), move("IT-INF-5", "0303"), phase("attack_1")], start)) == {"W-Stack/1"}
    start = state({"PZ-1": "0303", "PZ-2": "0203"})
    assert illegal(run("axis", [phase("move_1"), move("PZ-2", "0303"), phase("attack_1")], start)) == {"W-Stack/1"}


def test_overstacking_during_movement_is_legal_if_it_ends_within_the_limit():
    start = state({"PZ-1": "0304", "PZ-2": "0304", "PZ-3": "0203"})
    found = run("axis", [phase("move_1"), move("PZ-3", "0304", "0305"), phase("attack_1")], start)
    assert "W-Stack/1" not in illegal(found)


# --- W-Move/1 MP, W-Round/2 second-move −1, W-Move/2 extra MP -----------------------------------------------
def test_a_move_within_its_mp_is_legal_and_beyond_is_illegal():
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0202", "0302", "0402", "0502", "0602", "0702")], state({"PZ-1": "0102"}))) == set()
    assert illegal(run("axis", [phase("move_1"), move("IT-INF-1", "0202", "0302", "0402", "0502")], state({"IT-INF-1": "0102"}))) == {"W-Move/1"}


def test_the_second_move_has_one_mp_less():
    path = ("0202", "0302", "0402")
    assert illegal(run("axis", [phase("move_2"), move("IT-INF-1", *path)], state({"IT-INF-1": "0102"}))) == {"W-Move/1"}
    assert illegal(run("axis", [phase("move_1"), move("IT-INF-1", *path)], state({"IT-INF-1": "0102"}))) == set()


def test_extra_mp_adds_the_card_value_for_one_stamina():
    start = state({"IT-INF-1": "0102"})
    assert illegal(run("axis", [phase("move_1"), move("IT-INF-1", "0202", "0302", "0402", "0502", declare=["extra_mp"])], start)) == set()
    assert start.units["IT-INF-1"].tallies["stamina"] == 2


def test_extra_mp_is_barred_leaving_an_enemy_strong_zoc_with_no_friend():
    # GB-INF-1 (state ③) makes 0304 a strong ZOC hex
    start = state({"PZ-1": "0304", "GB-INF-1": "0404"})
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0204", declare=["extra_mp"])], start)) == {"W-Move/2"}
    start = state({"PZ-1": "0304", "IT-INF-1": "0304", "GB-INF-1": "0404"})
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0204", declare=["extra_mp"])], start)) == set()


def test_a_unit_that_used_extra_mp_may_not_attack():
    start = state({"PZ-1": "0102", "GB-INF-1": ("0404", 2)})  # state ①: no ZOC to bar the extra MP
    found = run("axis", [phase("move_1"), move("PZ-1", "0202", "0302", "0402", "0403", declare=["extra_mp"]), phase("attack_1"),
                         declare(["PZ-1"], "0404")], start)
    assert illegal(found) == {"W-Cbt/2"}


# --- W-Move/3 ZOC stops (supplied: the hint card) -----------------------------------------------------------
def test_entering_an_enemy_zoc_stops_the_unit():
    start = state({"PZ-1": "0203", "GB-INF-1": "0404"})
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0304", "0305")], start)) == {"W-Move/3"}
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0304")], state({"PZ-1": "0203", "GB-INF-1": "0404"}))) == set()


def test_a_state_one_unit_has_no_zoc_and_a_disordered_unit_none():
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0304", "0305")], state({"PZ-1": "0203", "GB-INF-1": ("0404", 2)}))) == set()
    start = state({"PZ-1": "0203", "GB-INF-1": "0404"}, status={"stamina": {"GB-INF-1": 0}})
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0304", "0305")], start)) == set()


def test_two_weak_zocs_make_a_strong_one():
    rs = rules()
    one = state({"GB-INF-1": ("0404", 1)})
    assert rs.enemy_zoc(one, H("0304"), "axis") == 1
    two = state({"GB-INF-1": ("0404", 1), "GB-INF-2": ("0204", 1)})
    assert rs.enemy_zoc(two, H("0304"), "axis") == 2


# --- W-Stam/1 disorder --------------------------------------------------------------------------------------
def test_a_disordered_unit_may_not_move_or_attack():
    start = state({"PZ-1": "0403", "GB-INF-1": "0404"}, status={"stamina": {"PZ-1": 0}})
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0503")], start)) == {"W-Stam/1"}
    start = state({"PZ-1": "0403", "GB-INF-1": "0404"}, status={"stamina": {"PZ-1": 0}})
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1"], "0404")], start)) == {"W-Cbt/2"}
    start = state({"PZ-1": "0403", "GB-INF-1": "0404"}, status={"stamina": {"PZ-1": 1}})
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0503")], start)) == set()


# --- W-Round/1, /3 ------------------------------------------------------------------------------------------
def test_a_first_round_unit_may_not_act_in_the_second_round():
    start = state({"PZ-1": "0102"})
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0202"), phase("move_2"), move("PZ-1", "0302")], start)) == {"W-Round/1"}
    start = state({"PZ-1": "0102", "PZ-2": "0103"})
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0202"), phase("move_2"), move("PZ-2", "0203")], start)) == set()


# --- W-Cbt/1-4 declaration ----------------------------------------------------------------------------------
def setup_combat(**status):
    return state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "GB-INF-1": "0404"}, status=status or None)


def test_declared_then_resolved_is_legal():
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"),
                         attack(["PZ-1", "PZ-2"], "0404", 4, "D", odds="2/1", column="2/1")], setup_combat())
    assert illegal(found) == set()


def test_a_declaration_after_a_resolution_is_illegal():
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "GB-INF-1": "0404", "PZ-3": "0102", "GB-INF-2": "0202"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 4, "D"),
                         declare(["PZ-3"], "0202"), attack(["PZ-3"], "0202", 4)], start)
    assert "W-Cbt/3" in illegal(found)


def test_an_undeclared_attack_is_illegal():
    assert illegal(run("axis", [phase("attack_1"), attack(["PZ-1", "PZ-2"], "0404", 4, "D")], setup_combat())) == {"W-Cbt/3"}


def test_pinning_rule_every_adjacent_enemy_is_attacked():
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "GB-INF-1": "0404", "GB-INF-2": "0503", "IT-INF-1": "0603"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 4, "D")], start)
    assert illegal(found) == {"W-Cbt/4"}
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "GB-INF-1": "0404", "GB-INF-2": "0503", "IT-INF-1": "0603"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), declare(["IT-INF-1"], "0503"),
                         attack(["PZ-1", "PZ-2"], "0404", 4, "D")], start)
    assert "W-Cbt/4" not in illegal(found)


def test_a_zero_attack_unit_may_not_attack_alone():
    start = state({"ART-1": "0403", "PZ-1": "0304", "GB-INF-1": "0404"})
    assert illegal(run("axis", [phase("attack_1"), declare(["ART-1"], "0404")], start)) == {"W-Cbt/2"}
    start = state({"ART-1": "0403", "PZ-1": "0304", "GB-INF-1": "0404"})
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1", "ART-1"], "0404")], start)) == set()


def test_attackers_must_be_adjacent():
    start = state({"PZ-1": "0203", "GB-INF-1": "0404"})
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1"], "0404")], start)) == {"W-Cbt/1"}


# --- W-Res/2 odds ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("attack_, defence, odds", [(8, 5, (2, 1)), (11, 5, (3, 1)), (5, 5, (1, 1)), (5, 8, (1, 1)), (3, 8, (1, 2)), (1, 6, (1, 5)), (1, 20, (1, 5)), (0, 4, (1, 5))])
def test_odds_round_in_the_attackers_favour_with_a_1_5_floor(attack_, defence, odds):
    import sys

    rules()  # the module's rules code is loaded as a package named after the module
    assert sys.modules["pbem_module_ww2_crusader.combat"].crusader_odds(attack_, defence) == odds


def test_a_wrong_odds_claim_is_reported():
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 4, "D", odds="1/1")], setup_combat())
    assert illegal(found) == {"W-Res/2"}


# --- W-Mod/3-4 shifts, W-Res/4 assault ----------------------------------------------------------------------
def test_a_disordered_defender_shifts_one_column_right():
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 1, "D2", column="3/1", retreats={"GB-INF-1": ["0505", "0506"]})],
                setup_combat(stamina={"GB-INF-1": 0}))
    assert illegal(found) == set()
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 1, "D1", column="2/1", retreats={"GB-INF-1": ["0505"]})],
                setup_combat(stamina={"GB-INF-1": 0}))
    assert illegal(found) == {"W-Mod/1", "W-CRT/1"}


def test_an_out_of_supply_attacker_shifts_one_column_left():
    start = setup_combat()
    start.units["PZ-1"].supplied = False
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 4, "DeX", column="1/1",
                                                                                        losses_attacker=("PZ-1", "PZ-2"), losses_defender=("GB-INF-1",))], start)
    assert illegal(found) == set()
    start = setup_combat()
    start.units["PZ-1"].supplied = False
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 4, "D1", column="2/1")], start)
    assert illegal(found) == {"W-Mod/1", "W-CRT/1"}  # 1/1 with a 4 is DeX (or D with the armour shift), not D1


def test_assault_moves_the_column_by_the_die():
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"),
                         attack(["PZ-1", "PZ-2"], "0404", 5, "D", column="1/1", declared=["assault"])], setup_combat())
    assert illegal(found) == {"W-CRT/1"}  # 1/1 with a 5 is AD: an assault with 4-6 worsens the attacker's result
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"),
                         attack(["PZ-1", "PZ-2"], "0404", 5, "AD", column="1/1", declared=["assault"])], setup_combat())
    assert illegal(found) == set()


# --- W-CRT/1-2 results, retreat minimums, W-Retreat/1 ----------------------------------------------------------
def test_d1_defender_must_retreat_when_it_can():
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 1, "D1")], setup_combat())
    assert illegal(found) == {"W-CRT/1"}
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"),
                         attack(["PZ-1", "PZ-2"], "0404", 1, "D1", retreats={"GB-INF-1": ["0505"]})], setup_combat())
    assert illegal(found) == set()


def test_d1_without_a_retreat_stays_legal():
    # IT-INF-1 in 0505 holds it and its strong ZOC closes 0405; 0504 and 0305 touch the attackers
    start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "GB-INF-1": "0404", "IT-INF-1": "0505"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), declare(["IT-INF-1"], "0404"), attack(["PZ-1", "PZ-2", "IT-INF-1"], "0404", 4, "D1")], start)  # cut off: 4:1
    assert illegal(found) == set()


def test_retreat_may_not_enter_a_hex_next_to_an_attacker_or_go_three_hexes():
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"),
                         attack(["PZ-1", "PZ-2"], "0404", 1, "D1", retreats={"GB-INF-1": ["0504"]})], setup_combat())
    assert "W-Retreat/1" in illegal(found)
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"),
                         attack(["PZ-1", "PZ-2"], "0404", 1, "D1", retreats={"GB-INF-1": ["0505", "0506", "0606"]})], setup_combat())
    assert illegal(found) == {"W-Retreat/1"}


def test_de_needs_every_defender_to_lose_a_state():
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404"})  # 12 against 5: 3/1
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 2, "D1", retreats={"GB-INF-1": ["0505"]})], start)
    assert illegal(found) == set()
    start = state({"PZ-1": "0403", "PZ-2": "0304", "GB-INF-1": "0404"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 4, "D2", retreats={"GB-INF-1": ["0505", "0506"]})], start)
    assert illegal(found) == {"W-CRT/1"}  # 3/1 with a 4 is D (D1 with the armour shift), not D2


# --- the tables in force: the module's supplied ones, or a group's own file --------------------------------------
def group_file(tmp_path, tables):
    path = tmp_path / "our-tables.json"
    path.write_text(json.dumps(tables), encoding="utf-8")
    return path


def test_a_groups_own_crt_changes_the_verdict(tmp_path):
    from pbem.engine.rulesets import module_ruleset

    rows = {str(r): ["DE"] * 10 for r in range(1, 7)}
    path = group_file(tmp_path, {"combat_results": {"source": {"section": "our printed CRT", "status": "transcribed"},
                                                    "columns": ["1/5", "1/4", "1/3", "1/2", "1/1", "2/1", "3/1", "4/1", "5/1", "6/1"], "rows": rows}})
    actions = lambda: [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0404"), attack(["PZ-1", "PZ-2"], "0404", 1, "D1", retreats={"GB-INF-1": ["0505"]})]
    assert illegal(run("axis", actions(), setup_combat())) == set()
    grouped = build_module(tmp_path / "ww2-crusader")
    code = type(module_ruleset(grouped))
    vars(grouped)["_built_ruleset"] = code(grouped, path)
    assert "W-CRT/1" in illegal(run("axis", actions(), setup_combat(), module=grouped))


def test_a_value_no_file_gives_is_not_checked_never_guessed(tmp_path):
    def no_zoc_rule(tables):
        tables["zoc_stop"]["weak"] = tables["zoc_stop"]["strong"] = None
    bare = build_module(tmp_path / "ww2-crusader", no_zoc_rule)
    found = run("axis", [phase("move_1"), move("PZ-1", "0304", "0305")], state({"PZ-1": "0203", "GB-INF-1": "0404"}), module=bare)
    assert illegal(found) == set() and ("W-Move/3", "warning") in found


def test_a_groups_file_is_schema_checked(tmp_path):
    from pbem.engine.rulesets import module_ruleset

    path = group_file(tmp_path, {"combat_results": {"source": {"section": "x", "status": "transcribed"}, "columns": ["1/1"], "rows": {"1": ["XX"]}}})
    code = type(module_ruleset(MODULE))
    with pytest.raises(PbemError, match="our-tables.json"):
        code(MODULE, path)


def test_every_supplied_table_says_what_it_is_based_on():
    tables = json.loads((MODULE.path / "tables.json").read_text())
    for name in ("combat_results", "terrain_costs", "terrain_shifts", "river", "zoc_stop", "unit_values", "cards"):
        assert tables[name]["source"]["status"] == "supplied" and tables[name]["supplied"], name
