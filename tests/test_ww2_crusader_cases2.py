"""Crusader: the fixes from the audit of the independent checker's second pass of cases (C87–C147, issue 29).

Each case gets a legal and an illegal test; units and hexes are the tiny map's (ww2_crusader_support)."""

from __future__ import annotations

from ww2_crusader_support import COUNTERS, FOLDER, SRC, H, _type, attack, build_module, card, declare, illegal, move, phase, recruit, reinforce, run, state

import json

from pbem.model.actions import Special
from pbem.model.module import load_module
from pbem.model.state import State, UnitState, written_state_text


def special(order, units, at=None):
    return Special(index=0, source=SRC, order=order, units=tuple(units), at=H(at) if at else None)


def warnings(found) -> set[str]:
    return {rule for rule, severity in found if severity == "warning"}


# --- C118 and the combat memory: one segment's resolutions do not outlive it -------------------------------------
# PZ-1 in 0403 is next to 0404 and 0503; PZ-2 in 0304 is next to 0404 only.
TWO = {"PZ-1": "0403", "GB-INF-1": ("0404", 1), "GB-INF-2": ("0503", 1)}
SECOND_ROUND = [phase("recovery"), phase("move_2"), phase("attack_2"), declare(["PZ-2"], "0404"), attack(["PZ-2"], "0404", 6, "AD")]


def test_c118_a_hex_resolved_in_attack_1_may_be_attacked_again_in_attack_2():
    # a one-on-one attack whose defender stays (AD) does not protect the hex: only a unit attacks once (只能攻击1次)
    start = state({"IT-INF-1": "0403", "GB-INF-1": ("0404", 2), "PZ-2": "0304"})
    first = [phase("attack_1"), declare(["IT-INF-1"], "0404"), attack(["IT-INF-1"], "0404", 6, "AD")]
    assert illegal(run("axis", first + SECOND_ROUND, start)) == set()


def test_c118_one_vs_many_defenders_stay_protected_for_the_players_action_phase():
    # [AMBIG] C118 reading 1 (再 = any more, for the rest of that player's action phase), in one file or two
    first = [phase("attack_1"), declare(["PZ-1"], "0404"), declare(["PZ-1"], "0503"), attack(["PZ-1"], "0404", 6, "AD", odds="1/1")]
    assert illegal(run("axis", first + SECOND_ROUND, state(TWO | {"PZ-2": "0304"}))) == {"W-Cbt/5"}
    start = state(TWO | {"PZ-2": "0304"})
    assert illegal(run("axis", first, start)) == set()
    written_state_text(start.module, start.to_json())  # the protection is in the state and reads back
    assert illegal(run("axis", SECOND_ROUND, start)) == {"W-Cbt/5"}


def test_c118_the_protection_ends_with_the_turn():
    start = state(TWO | {"PZ-2": "0304"})
    first = [phase("attack_1"), declare(["PZ-1"], "0404"), declare(["PZ-1"], "0503"), attack(["PZ-1"], "0404", 6, "AD", odds="1/1")]
    assert illegal(run("axis", first, start)) == set()
    start.turn += 1
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-2"], "0404"), attack(["PZ-2"], "0404", 6, "AD")], start)) == set()


# --- C93, C94: card effects are not built, so a combat after a card is not called a mismatch ---------------------
# PZ-1 (6) against GB-ARM-1 at ② (defence 3): 2:1 on the printed values; die 5 gives DeX there, D/AE at 3:1.
BUFFED = [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 5, "D/AE", odds="3/1", eliminated=("PZ-1",))]


def buffed_start():
    return state({"PZ-1": "0403", "GB-ARM-1": ("0404", 1)}, status={"cp": {"axis": 3, "allied": 0}})


def test_c93_a_combat_after_a_played_card_is_not_checked_for_strength():
    found = run("axis", [phase("turn_start"), card("example-turn-start", "axis")] + BUFFED, start := buffed_start())
    assert illegal(found) == set()
    assert {"W-Res/2", "W-CRT/1"} <= warnings(found)  # said as "not checked", not passed over in silence
    assert not start.units["PZ-1"].on_map  # the player's result is carried out
    assert "example-turn-start" in written_state_text(start.module, start.to_json())  # recorded, and reads back


def test_c93_the_same_combat_with_no_card_is_a_mismatch():
    assert {"W-Res/2", "W-CRT/1"} <= illegal(run("axis", BUFFED, buffed_start()))


def test_c93_a_card_a_group_marks_as_changing_no_strengths_keeps_the_combat_checked():
    """A group's card facts may say "strengths": false (a card that buffs no unit): the combat after it is checked."""
    def cards(tables, strengths):
        facts = {"cost": 1, "timing": "回合开始时。", "phases": ["turn_start"]}
        tables["cards"]["cards"] = {"Fuel": facts | ({"strengths": strengths} if strengths is not None else {})}

    for strengths, verdict in ((False, {"W-Res/2", "W-CRT/1"}), (None, set()), (True, set())):
        module = build_module(FOLDER / f"ww2-crusader-card-strengths-{strengths}", lambda t: cards(t, strengths))
        found = run("axis", [phase("turn_start"), card("Fuel", "axis")] + BUFFED, buffed_start(), module)
        assert illegal(found) == verdict, strengths


# --- C115(e): the facing shifts of a one-vs-many attack, whichever hex the log names ------------------------------
def dug_in_pair():
    """GB-INF-1 (0404) dug in fronting PZ-1's 0403, GB-INF-2 (0503) dug in with its rear to it; 6 against 5 + 5: 1:1."""
    start = state({"PZ-1": "0403", "GB-INF-1": "0404", "GB-INF-2": "0503"})
    game_map = start.module.map
    for unit_id, at, towards in (("GB-INF-1", "0404", "0403"), ("GB-INF-2", "0503", "0403")):
        unit = start.units[unit_id]
        unit.markers.add("dug_in")
        unit.facing = game_map.direction(H(at), H(towards))
    start.units["GB-INF-2"].facing = (start.units["GB-INF-2"].facing + 3) % 6  # turned away: 0403 is on its rear
    return start


def one_vs_two_dug_in(named: str, column: str):
    return run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), declare(["PZ-1"], "0503"), attack(["PZ-1"], named, 6, "AD", column=column)], dug_in_pair())


def test_c115e_front_and_rear_in_two_hexes_cancel_whichever_hex_is_named():
    assert illegal(one_vs_two_dug_in("0404", "1/1")) == set()
    assert illegal(one_vs_two_dug_in("0503", "1/1")) == set()


def test_c115e_the_first_defenders_front_alone_is_a_mismatch():
    assert illegal(one_vs_two_dug_in("0404", "1/2")) == {"W-Mod/1"}
    assert illegal(one_vs_two_dug_in("0503", "2/1")) == {"W-Mod/1"}


# --- C123: the street-fight resolution's results keep their meaning (但是战果描述一样) -----------------------------
def six_to_one(*after, **options):
    """Town 0303: PZ-1 + IT-INF-1 + IT-INF-2 (4 + 4 + 4 = 12) against GB-ARM-1 at ① (2): 6:1, PZ-1 chosen takes D
    (stamina 5 as the case's A1: 5 − 2 − 2 = 1, not disordered)."""
    start = state({"PZ-1": "0303", "IT-INF-1": "0303", "IT-INF-2": "0303", "GB-ARM-1": ("0303", 2)}, status={"stamina": {"PZ-1": 5}})
    start.status["street_fights"] = ["0303"]
    start.options = dict(options)
    found = run("axis", [phase("turn_end"), special("street_resolution", ["PZ-1"], "0303"), *after], start)
    return illegal(found), start


def test_c123i_a_unit_taking_d_in_the_resolution_may_retreat():
    # [AMBIG] D: 可以主动撤退至多两格; default street_result_retreat: allowed
    found, start = six_to_one(special("street_retreat", ["PZ-1"], "0403"))
    assert found == set() and start.units["PZ-1"].at == H("0403") and start.units["PZ-1"].tallies["stamina"] == 1
    assert six_to_one()[0] == set()  # or stays: the retreat is optional


def test_c123i_a_unit_with_no_result_may_not_retreat_and_the_other_reading():
    assert six_to_one(special("street_retreat", ["IT-INF-2"], "0403"))[0] == {"W-Street/6"}  # not chosen: no result
    assert six_to_one(special("street_retreat", ["PZ-1"], "0403"), street_result_retreat="disordered_only")[0] == {"W-Street/6"}


def street_pair(stamina: int, step: int = 0):
    """PZ-1 (defence 4, stamina 2) against GB-INF-1 (defence 5 at ③, 4 at ②) in 0303: 1:1, both De and −2."""
    start = state({"PZ-1": "0303", "GB-INF-1": ("0303", step)}, status={"stamina": {"PZ-1": 2, "GB-INF-1": stamina}})
    start.status["street_fights"] = ["0303"]
    assert illegal(run("axis", [phase("turn_end"), special("street_resolution", [], "0303")], start)) == set()
    return start


def test_c123_pair_a_unit_already_disordered_takes_no_second_de():
    start = street_pair(0)  # already at 0 before the resolution: it does not fall into disorder (陷入混乱) now
    assert start.units["GB-INF-1"].step == 1
    start = street_pair(0, step=1)  # at ②: one De to ①, still on the map
    assert start.units["GB-INF-1"].on_map and start.units["GB-INF-1"].step == 2


def test_c123_a_unit_falling_into_disorder_takes_the_second_de():
    start = street_pair(3)
    assert start.units["PZ-1"].step == 2  # stamina 2 → 0 in this resolution: De, then De again
    assert start.units["GB-INF-1"].step == 1  # stamina 3 → 1: one De


# --- C142: a reorganisation places the new unit in the old one's hex, within the stacking limits ------------------
def _infantry_reorganises(tables):
    tables["unit_values"]["types"]["it_inf"] = dict(tables["unit_values"]["types"]["it_inf"], reorganise={"into": "pz", "cost": 2})


REORGANISING = build_module(FOLDER / "ww2-crusader-reorganise", _infantry_reorganises)


def reorganised_in(town: str):
    start = state({"IT-INF-1": town, "IT-INF-2": town, "PZ-1": town}, status={"rp": {"axis": 10, "allied": 0}})
    start.module = REORGANISING
    reorganise = Special(index=0, source=SRC, order="reorganise", units=("IT-INF-1",), result="PZ-2")
    return illegal(run("axis", [phase("reinforcement_entry"), reorganise], start, module=REORGANISING)), start


def test_c142_a_reorganisation_that_fits_the_hex_is_legal():
    # plain with road and rail: 4 units, 3 armoured (and the test counters have no designation: no false twin, W-Unit/1)
    found, start = reorganised_in("0103")
    assert found == set() and start.units["PZ-2"].at == H("0103") and start.units["IT-INF-1"].box == "removed"


def test_c142_a_reorganisation_that_overstacks_the_hex_is_illegal():
    assert reorganised_in("0303")[0] == {"W-Stack/1"}  # a town: 1 armoured; PZ-1 is there already


# --- C126(e), C121: the units of a street fight started in the first attack segment are first-round units --------
def street_started(*after, **options):
    """PZ-1 (0403) and PZ-2 (0203) declare on the town 0303 (GB-INF-1); the defender chooses a street fight and PZ-1
    moves in, PZ-2 stays outside."""
    start = state({"PZ-1": "0403", "PZ-2": "0203", "GB-INF-1": "0303"})
    start.options = dict(options)
    found = run("axis", [phase("attack_1"), declare(["PZ-1", "PZ-2"], "0303"), special("street_fight", ["PZ-1"], "0303"), *after], start)
    return illegal(found), start


def test_c126e_a_unit_that_entered_at_the_trigger_leaves_next_turn():
    found, start = street_started(phase("turn_end"), special("street_resolution", [], "0303"))  # 4 against 5: both De, it goes on
    assert found == set() and start.status["street_fights"] == ["0303"]
    start.turn += 1
    assert illegal(run("axis", [phase("move_1"), move("PZ-1", "0203")], start)) == set()


def test_c126e_a_unit_that_entered_at_the_trigger_may_not_move_in_round_2():
    assert street_started(phase("recovery"), phase("move_2"), move("PZ-1", "0203"))[0] == {"W-Round/1"}


def test_c121_a_declared_attacker_that_stayed_outside_has_acted():
    # [AMBIG] C121 reading 1 (the attack went ahead as a street fight): option street_declared: acted (default) | free
    later = (phase("recovery"), phase("move_2"), move("PZ-2", "0103"))
    assert street_started(*later)[0] == {"W-Round/1"}
    assert street_started(*later, street_declared="free")[0] == set()


# --- C114(b), C132, C111, C117(d): eliminations and losses are what the result gives ------------------------------
def one_against_two(*actions):
    return run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), declare(["PZ-1"], "0503"), *actions], state(TWO))


def test_c114b_d1_retreats_and_destroys_no_one():
    # 6 against 4 + 4: 1:1, a 1 is D1; each defender retreats from its own hex
    ok = attack(["PZ-1"], "0404", 1, "D1", retreats={"GB-INF-1": ["0405"], "GB-INF-2": ["0603"]})
    assert illegal(one_against_two(ok)) == set()


def test_c114b_a_defender_destroyed_by_a_d1_is_illegal():
    bad = attack(["PZ-1"], "0404", 1, "D1", retreats={"GB-INF-1": ["0405"]}, eliminated=("GB-INF-2",))
    assert illegal(one_against_two(bad)) == {"W-CRT/1"}
    lost = attack(["PZ-1"], "0404", 1, "D1", retreats={"GB-INF-1": ["0405"], "GB-INF-2": ["0603"]}, losses_defender=("GB-INF-2",))
    assert illegal(one_against_two(lost)) == {"W-CRT/1"}  # nor a state lost: D1 is a retreat
    attacker = attack(["PZ-1"], "0404", 1, "D1", retreats={"GB-INF-1": ["0405"], "GB-INF-2": ["0603"]}, losses_attacker=("PZ-1",))
    assert illegal(one_against_two(attacker)) == {"W-CRT/1"}


def test_c132_a_war_weary_unit_with_a_retreat_is_not_destroyed():
    # GB-HQ-1 (war-weary, defence 0) with GB-INF-1 (②, 4): 6 against 4 = 2:1, a 2 is D1; 0405 is free for both
    start = state({"PZ-1": "0403", "GB-INF-1": ("0404", 1), "GB-HQ-1": "0404"})
    both = dict(retreats={"GB-INF-1": ["0405"], "GB-HQ-1": ["0405"]})
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 2, "D1", **both)], start)) == set()
    start = state({"PZ-1": "0403", "GB-INF-1": ("0404", 1), "GB-HQ-1": "0404"})
    gone = attack(["PZ-1"], "0404", 2, "D1", retreats={"GB-INF-1": ["0405"]}, eliminated=("GB-HQ-1",))
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), gone], start)) == {"W-CRT/1"}


def test_c111_c117d_total_defence_0_is_de_and_its_effects_are_checked():
    start = state({"PZ-1": "0403", "GB-HQ-1": "0404"})
    found = run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 3, "DE")], start)
    assert illegal(found) == {"W-CRT/1"}  # DE, and GB-HQ-1 not listed as destroyed
    start = state({"PZ-1": "0403", "GB-HQ-1": "0404"})
    far = attack(["PZ-1"], "0404", 3, "DE", eliminated=("GB-HQ-1",), advance=("PZ-1",), advance_paths={"PZ-1": (H("0404"), H("0504"))})
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), far], start)) == set()  # C117(d): leaving 0 ≥ 0
    start = state({"PZ-1": "0403", "GB-HQ-1": "0404"})
    river = attack(["PZ-1"], "0404", 3, "DE", eliminated=("GB-HQ-1",), advance=("PZ-1",), advance_paths={"PZ-1": (H("0404"), H("0405"))})
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), river], start)) == {"W-Adv/2"}  # the river bar holds


def test_c115e_dug_in_defenders_of_one_hex_facing_different_ways_leave_the_column_unchecked():
    start = state({"PZ-1": "0403", "GB-INF-1": ("0404", 1), "GB-INF-2": ("0404", 1)})  # 6 against 4 + 4: 1:1
    front = start.module.map.direction(H("0404"), H("0403"))
    for unit_id, facing in (("GB-INF-1", front), ("GB-INF-2", (front + 3) % 6)):
        start.units[unit_id].markers.add("dug_in")
        start.units[unit_id].facing = facing
    found = run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 6, "AD", column="1/2")], start)
    assert illegal(found) == set() and "W-CRT/1" in warnings(found)  # not stated: not checked, not refused
    start = state({"PZ-1": "0403", "GB-INF-1": ("0404", 1), "GB-INF-2": ("0404", 1)})
    for unit_id in ("GB-INF-1", "GB-INF-2"):  # both fronting the attacker: −1
        start.units[unit_id].markers.add("dug_in")
        start.units[unit_id].facing = front
    found = run("axis", [phase("attack_1"), declare(["PZ-1"], "0404"), attack(["PZ-1"], "0404", 6, "ADe", column="1/1", losses_attacker=("PZ-1",))], start)
    assert illegal(found) == {"W-Mod/1"}  # 1:1 shifted to 1:2, where a 6 is ADe


def test_c114_a_de_loses_one_state_a_unit():
    both = attack(["PZ-1"], "0404", 4, "DeX", losses_defender=("GB-INF-1", "GB-INF-2"), losses_attacker=("PZ-1",))
    assert illegal(one_against_two(both)) == set()  # 1:1, a 4 is DeX
    twice = attack(["PZ-1"], "0404", 4, "DeX", losses_defender=("GB-INF-1", "GB-INF-1", "GB-INF-2"), losses_attacker=("PZ-1",))
    assert illegal(one_against_two(twice)) == {"W-CRT/1"}


# --- C137: [Guards] and [War-weary] by the text's Chinese names too (README: English or the text's Chinese name) ---
def _chinese_skill_names(tables):
    tables["unit_values"]["types"]["IT-INF-1"] = {"skills": ["近卫"]}
    tables["unit_values"]["types"]["GB-HQ-1"] = {"skills": ["厌战"]}


CHINESE_SKILLS = build_module(FOLDER / "ww2-crusader-chinese-skills", _chinese_skill_names)


def test_c137_guards_by_its_chinese_name_recovers_two_in_limited_supply():
    for unit_id, gained in (("IT-INF-1", 2), ("IT-INF-2", 1)):  # 0402: limited supply (+1), [近卫] +2 whenever supplied
        start = state({unit_id: "0402"}, status={"stamina": {unit_id: 1}})
        start.module = CHINESE_SKILLS
        assert illegal(run("axis", [phase("recovery")], start, module=CHINESE_SKILLS)) == set()
        assert start.units[unit_id].tallies["stamina"] == 1 + gained


def test_c137_war_weary_by_its_chinese_name_is_destroyed_with_no_retreat():
    # as C54: GB-INF-1 and GB-HQ-1 ([厌战]) surrounded: 11 against 5 + 0, cut off: 4:1, a 4 is D1
    def played(**fields):
        start = state({"PZ-1": ("0403", 1), "PZ-2": ("0304", 1), "IT-INF-1": "0505", "GB-INF-1": "0404", "GB-HQ-1": "0404"})
        start.module = CHINESE_SKILLS
        acts = [phase("attack_1"), declare(["PZ-1", "PZ-2", "IT-INF-1"], "0404"), attack(["PZ-1", "PZ-2", "IT-INF-1"], "0404", 4, "D1", **fields)]
        return illegal(run("axis", acts, start, module=CHINESE_SKILLS))
    assert played(eliminated=("GB-HQ-1",)) == set()
    assert played() == {"W-CRT/2"}


# --- C141(b): a unit reorganised away has left the game (直接移出游戏) ---------------------------------------------
def recruited(box: str):
    start = state({}, status={"rp": {"axis": 10, "allied": 0}})
    start.units["IT-INF-1"].box = box
    return illegal(run("axis", [phase("reinforcement_declaration"), recruit("IT-INF-1")], start))


def test_c141_a_unit_from_the_pool_or_eliminated_may_be_recruited():
    assert recruited("pool") == set()
    assert recruited("eliminated") == set()  # (c): silent, so not refused


def test_c141b_a_reorganised_unit_may_not_be_recruited_again():
    assert recruited("removed") == {"W-Reorg/1"}


# --- C124(b): both street-fight totals 0: both sides DE (若一方巷战总战力为零 holds for each side) ----------------------
def _with_axis_headquarters():
    folder = FOLDER / "ww2-crusader-axis-hq"
    build_module(folder)
    counters = json.loads(json.dumps(COUNTERS))
    counters["counter_types"]["de_hq"] = _type("axis", "headquarters", False, [(0, 0, 2), (0, 0, 2)])
    counters["units"].append({"id": "DE-HQ-1", "type": "de_hq"})
    (folder / "counters.json").write_text(json.dumps(counters), encoding="utf-8")
    return load_module(folder)


AXIS_HQ = _with_axis_headquarters()


def street_zero(axis_unit: str):
    """``axis_unit`` and GB-HQ-1 (defence 0) in a street fight in 0303, resolved."""
    start = State(AXIS_HQ, scenario=None, turn=2, side="axis", phase=None)
    start.first_side = "axis"
    for unit_id, unit_def in AXIS_HQ.units.items():
        start.units[unit_id] = UnitState(unit=unit_def, side=unit_def.type.side, box="pool")
    for unit_id in (axis_unit, "GB-HQ-1"):
        start.place(unit_id, H("0303"))
    start.status = {"street_fights": ["0303"]}
    found = run("axis", [phase("turn_end"), special("street_resolution", [], "0303")], start, module=AXIS_HQ)
    return illegal(found), start


def test_c124b_both_sides_at_0_are_both_destroyed():
    found, start = street_zero("DE-HQ-1")
    assert found == set() and not start.units["DE-HQ-1"].on_map and not start.units["GB-HQ-1"].on_map
    assert start.status["street_fights"] == []


def test_c124a_only_the_side_at_0_is_destroyed():
    found, start = street_zero("IT-INF-1")
    assert found == set() and start.units["IT-INF-1"].on_map and not start.units["GB-HQ-1"].on_map


# --- C102: a placement in the shared reinforcement phase is judged for the placed unit's side, not the file's -------
def placed(at: str):
    start = state({})
    start.units["GB-INF-1"].box = "waiting_zone_1"
    return illegal(run("axis", [phase("reinforcement_entry"), reinforce(["GB-INF-1"], at)], start))


def test_c102_a_british_placement_in_an_axis_file_uses_the_british_areas():
    assert placed("0706") == set()  # the British supply source


def test_c102_a_british_placement_on_an_axis_source_is_illegal():
    assert placed("0103") == {"W-Reinf/3"}


# --- C89(c): a card printed "己方攻击节" is played only in its player's own attack segments (a card's ``own``) ------
def _own_segment_card(tables):
    tables["cards"]["cards"]["own-attack"] = {"cost": 1, "timing": "己方攻击节。", "phases": ["attack_1", "attack_2"], "own": True}


OWN_CARD = build_module(FOLDER / "ww2-crusader-own-card", _own_segment_card)


def own_card_played_by(side: str):
    start = state({}, status={"cp": {"axis": 3, "allied": 3}})
    start.module = OWN_CARD
    return illegal(run("axis", [phase("attack_1"), card("own-attack", side)], start, module=OWN_CARD))


def test_c89c_an_own_segment_card_in_its_players_segment_is_legal():
    assert own_card_played_by("axis") == set()


def test_c89c_an_own_segment_card_in_the_enemys_segment_is_illegal():
    assert own_card_played_by("allied") == {"W-Card/1"}


# --- C110: a town is held by the side that entered it last, by an advance or a placement too (README AMBIG row) ------
def test_c110_an_advance_into_a_town_takes_it():
    start = state({"PZ-1": "0403", "GB-HQ-1": "0303"}, status={"held": {"0303": "allied"}})  # defence 0: DE
    won = attack(["PZ-1"], "0303", 3, "DE", eliminated=("GB-HQ-1",), advance=("PZ-1",))
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1"], "0303"), won], start)) == set()
    assert start.status["held"]["0303"] == "axis"


def test_c110_a_combat_without_an_advance_leaves_the_town_held():
    start = state({"PZ-1": "0403", "GB-HQ-1": "0303"}, status={"held": {"0303": "allied"}})
    won = attack(["PZ-1"], "0303", 3, "DE", eliminated=("GB-HQ-1",))
    assert illegal(run("axis", [phase("attack_1"), declare(["PZ-1"], "0303"), won], start)) == set()
    assert start.status["held"]["0303"] == "allied"


# --- C119: one against many where one hex becomes a street fight: the rest of the combat lapses (reading 1) --------
def street_in_one_vs_many(*after):
    """PZ-1 (0403) attacks the town 0303 (GB-INF-1) and 0404 (GB-INF-2) one against many; the defender of the town
    chooses a street fight and PZ-1 moves in."""
    start = state({"PZ-1": "0403", "GB-INF-1": ("0303", 1), "GB-INF-2": ("0404", 1)})
    acts = [phase("attack_1"), declare(["PZ-1"], "0303"), declare(["PZ-1"], "0404"), special("street_fight", ["PZ-1"], "0303"), *after]
    return illegal(run("axis", acts, start)), start


def test_c119_the_street_fight_settles_the_one_vs_many_attack():
    found, start = street_in_one_vs_many()
    assert found == set() and start.units["PZ-1"].at == H("0303") and start.units["GB-INF-2"].at == H("0404")


def test_c119_the_other_hex_may_not_be_resolved_after_it():
    found, _ = street_in_one_vs_many(attack(["PZ-1"], "0404", 1, "D1", retreats={"GB-INF-2": ["0405"]}, advance=("PZ-1",)))
    assert "W-Res/1" in found


# --- the options for the readings the case file prefers and the code did not take (C108, C128(d), C143) -----------
def test_c108_turn_one_has_a_reinforcement_phase_unless_the_option_removes_it():
    """IT-INF-1 recruited (4 RP) in turn 1's declaration segment: legal when turn 1 keeps the phase, W-Deploy/1 when
    the option reads it away; the segment's marker alone is harmless, and turn 2 recruits under every reading."""
    for turn, chosen, actions, verdict in ((1, "skipped", [recruit("IT-INF-1")], set()),
                                            (1, "no_reinforcement", [recruit("IT-INF-1")], {"W-Deploy/1"}),
                                            (1, "no_reinforcement", [], set()),
                                            (2, "no_reinforcement", [recruit("IT-INF-1")], set())):
        start = state({}, turn=turn, status={"rp": {"axis": 10, "allied": 0}})
        start.options = {"initial_deployment": chosen}
        assert illegal(run("axis", [phase("reinforcement_declaration"), *actions], start)) == verdict, (turn, chosen, actions)


def street_with_skills(units, **options):
    """Town 0303: PZ-3 ([Armored Div], defence 4) and PZ-1 (4) against GB-ARM-1 at ② (armour, defence 3)."""
    from test_ww2_crusader_skills import SKILLED

    start = state({"PZ-3": "0303", "PZ-1": "0303", "GB-ARM-1": ("0303", 1)}, status={"stamina": {"PZ-3": 4, "PZ-1": 4}})
    start.module = SKILLED
    start.status["street_fights"] = ["0303"]
    start.options = dict(options)
    found = run("axis", [phase("turn_end"), special("street_resolution", units, "0303")], start, module=SKILLED)
    return illegal(found), start


def test_c128d_armoured_division_counts_in_the_street_strength_by_default():
    """9 against 3 is 3:1: the Axis chooses units totalling at least 3 to take De (PZ-1), PZ-3 keeps its state."""
    found, start = street_with_skills(["PZ-1"])
    assert found == set() and start.units["PZ-1"].step == 1 and start.units["PZ-3"].step == 0
    assert street_with_skills([])[0] == {"W-Street/6"}  # at 3:1 someone must take it


def test_c128d_a_chosen_unit_counts_its_skill_towards_the_smaller_sides_total():
    """Axis PZ-3 (4, +1 [Armored Div] against the British armour), PZ-1, PZ-2, IT-INF-1 (4 each): 17 against GB-ARM-1
    at ① (2) and GB-INF-1 at ① (3): 5. 17:5 is 3:1, so the chosen must total at least 5: PZ-3 does with its skill
    (4 + 1), IT-INF-1 (4) does not."""
    from test_ww2_crusader_skills import SKILLED

    def resolve(chosen: str):
        start = state({"PZ-3": "0303", "PZ-1": "0303", "PZ-2": "0303", "IT-INF-1": "0303", "GB-ARM-1": ("0303", 2), "GB-INF-1": ("0303", 2)})
        start.module = SKILLED
        start.status["street_fights"] = ["0303"]
        return illegal(run("axis", [phase("turn_end"), special("street_resolution", [chosen], "0303")], start, module=SKILLED))

    assert resolve("PZ-3") == set()
    assert resolve("IT-INF-1") == {"W-Street/6"}


def test_c128d_not_counted_the_bare_defence_is_2_to_1():
    """8 against 3 is 2:1: every unit of both sides takes De, and no choice is asked."""
    found, start = street_with_skills([], street_skills="not_counted")
    assert found == set() and start.units["PZ-1"].step == 1 and start.units["PZ-3"].step == 1


def test_c143_the_new_unit_comes_on_at_its_printed_stamina_or_keeps_the_old_ones():
    for chosen, stamina in (("printed", None), ("kept", 0)):
        start = state({"IT-INF-1": "0103"}, status={"rp": {"axis": 10, "allied": 0}, "stamina": {"IT-INF-1": 0}})
        start.module = REORGANISING
        start.options = {"reorganised_stamina": chosen}
        reorganise = Special(index=0, source=SRC, order="reorganise", units=("IT-INF-1",), result="PZ-2")
        assert illegal(run("axis", [phase("reinforcement_entry"), reorganise], start, module=REORGANISING)) == set()
        assert start.units["PZ-2"].at == H("0103") and start.units["PZ-2"].tallies.get("stamina") == stamina, chosen
