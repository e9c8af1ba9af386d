"""Red Winter validators added for issue 6: each with a legal and an illegal case (checklist ids as in the digest).

Anti-tank fire (AT), night raids (NR), supply (SP), retreat priorities (RT-1) and the step for retreating into an
enemy ZOC (RT-3), advance length (AV-3), the X28/A13 events (EV), move declarations (MV-5, MV-13), recovery
rolls (RC-1), the Reset Phase clearing fired and suppressed markers, and the concentric-attack claim (SH-3).
"""

import json
from pathlib import Path

import pytest

from pbem.engine.rulesets import module_ruleset
from pbem.model.jsonsource import load_json
from pbem.model.module import load_module
from pbem.model.resources import data_dir
from pbem.model.state import State

from test_red_winter_rules import checklist_ids

SAMPLES = data_dir("samples") / "red-winter"
MODULE = load_module("red-winter")
RULES = module_ruleset(MODULE)


def state_with(tmp_path, start: str, place: dict[str, str] | None = None, steps: dict[str, int] | None = None, markers: dict[str, list[str]] | None = None, status: dict | None = None) -> str:
    data = json.loads((SAMPLES / start).read_text())
    data.setdefault("status", {}).update(status or {})
    units = {u["id"]: u for u in data["units"]}
    for unit_id, at in (place or {}).items():
        units[unit_id]["at"] = at
    for unit_id, step in (steps or {}).items():
        units[unit_id]["step"] = step
    for unit_id, names in (markers or {}).items():
        units[unit_id]["markers"] = names
    path = tmp_path / f"start-{len(list(tmp_path.iterdir()))}.json"
    path.write_text(json.dumps(data))
    return str(path)


def run(pbem, tmp_path, side, turn, actions, start=None, report=False):
    doc = {"module": "red-winter", "scenario": "campaign", "turn": turn, "side": side,
           "start": {"scenario": "campaign"}, "actions": actions}  # fmt: skip
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(doc))
    # A start state from elsewhere is the user's choice (--state): a turn file may only name one beside it.
    chosen = [] if start is None else ["--state", str(SAMPLES / start) if "/" not in start else start]
    out = json.loads(pbem("check", path, "--format", "json", *chosen).out)
    return out if report else checklist_ids(out["violations"])


def test_rule_numbers_follow_the_digest():
    assert RULES.rule_number_of("MV-4") == "5.3" and RULES.rule_number_of("MV-5") == "4.3"
    assert RULES.rule_number_of("LS-4") == "5.2.5" and RULES.rule_number_of("SK-1") == "6.0"
    assert RULES.rule_number_of("AT-2") == "11.0" and RULES.rule_number_of("SP-2") == "15.0"
    assert RULES.rule_number_of("OD-1") == "OD-1" and RULES.rule_number_of("NR-3") == "NR-3"


# --- anti-tank fire -----------------------------------------------------------------------------------------
AT_FIRE = {"fire": ["FIN-AT-JR16"], "target": "O21", "declare": ["anti_tank"], "roll": [4, 2], "losses": {"defender": ["SOV-T26M33"]}}


def test_anti_tank_fire_hits_on_5_with_the_adjacent_modifier(pbem, tmp_path):
    assert run(pbem, tmp_path, "finnish", 9, [{"phase": "combat"}, AT_FIRE], "state-armour.json") == []


def test_anti_tank_hits_cannot_be_ignored(pbem, tmp_path):
    assert run(pbem, tmp_path, "finnish", 9, [{"phase": "combat"}, dict(AT_FIRE, losses={})], "state-armour.json") == ["AT-2"]


def test_anti_tank_fire_rolls_one_die_per_step(pbem, tmp_path):
    assert run(pbem, tmp_path, "finnish", 9, [{"phase": "combat"}, dict(AT_FIRE, roll=[4])], "state-armour.json") == ["AT-2"]


def test_anti_tank_fire_needs_soviet_armour_in_range(pbem, tmp_path):
    far = state_with(tmp_path, "state-armour.json", place={"FIN-AT-JR16": "K20"})
    assert run(pbem, tmp_path, "finnish", 9, [{"phase": "combat"}, AT_FIRE], far) == ["AT-1"]
    assert run(pbem, tmp_path, "finnish", 9, [{"phase": "combat"}, dict(AT_FIRE, target="Q25", losses={})], "state-armour.json") == ["AT-1"]


def test_anti_tank_fire_and_a_ranged_attack_exclude_each_other(pbem, tmp_path):
    ranged = {"fire": ["FIN-AT-JR16"], "target": "Q25", "roll": 2, "result": "none"}
    near = state_with(tmp_path, "state-armour.json", place={"SOV-1-1-609": "O22"})
    ranged = dict(ranged, target="O22")
    assert run(pbem, tmp_path, "finnish", 9, [{"phase": "combat"}, ranged], near) != ["AT-3"]
    assert "AT-3" in run(pbem, tmp_path, "finnish", 9, [{"phase": "combat"}, AT_FIRE, ranged], near)


def test_defensive_anti_tank_fire_only_against_armour_about_to_attack(pbem, tmp_path):
    attack = {"attack": ["SOV-T26M33", "SOV-1-1-609"], "target": "O20", "roll": 7, "result": "1/1",
              "losses": {"attacker": ["SOV-1-1-609"], "defender": ["FIN-1-1-JR16"]}}  # fmt: skip
    fire = dict(AT_FIRE, losses={}, roll=[1, 1])
    assert "AT-4" not in run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, fire, attack], "state-armour.json")
    assert run(pbem, tmp_path, "finnish", 9, [{"phase": "action"}, fire], "state-armour.json") == ["AT-4"]


# --- night raids ---------------------------------------------------------------------------------------------
RAIDERS = ["FIN-1-1-JR16", "FIN-2-1-JR16", "FIN-3-1-JR16"]
RAID = {"special": "night_raid", "units": RAIDERS, "at": "Q25", "roll": 2, "result": "2R"}
RAID_ATTACK = {"attack": RAIDERS, "target": "Q25", "declare": ["night_raid"], "odds": "1/2", "column": "2/1", "roll": 7,
               "result": "1/1", "losses": {"attacker": ["FIN-1-1-JR16"], "defender": ["SOV-1-1-609"]}}  # fmt: skip


def test_night_raid_roll_shift_and_step_losses(pbem, tmp_path):
    # 1d6 2 + first raid 2 + every route 7 MP or less 1 + all by road 1 = 6: 2R; 15 vs 23 = 1:2 -> 2:1.
    assert run(pbem, tmp_path, "finnish", 5, [{"phase": "action"}, RAID, RAID_ATTACK]) == []


def test_night_raid_claims_and_limits(pbem, tmp_path):
    assert run(pbem, tmp_path, "finnish", 5, [{"phase": "action"}, dict(RAID, result="1R")]) == ["NR-5"]
    assert run(pbem, tmp_path, "finnish", 6, [{"phase": "action"}, RAID]) == ["NR-1"]  # a day turn
    reduced = state_with(tmp_path, "state-after-legal-01.json", place={"FIN-1-1-JR16": "O20", "FIN-2-1-JR16": "O20", "SOV-1-1-609": "Q25", "SOV-2-1-609": "Q25", "SOV-3-1-609": "Q25", "SOV-MG-1-609": "Q25"}, steps={"FIN-2-1-JR16": 1})
    assert run(pbem, tmp_path, "finnish", 5, [{"phase": "action"}, RAID], reduced) == ["NR-1"]
    apart = state_with(tmp_path, "state-after-legal-01.json", place={"FIN-1-1-JR16": "M20", "FIN-2-1-JR16": "O20", "SOV-1-1-609": "Q25", "SOV-2-1-609": "Q25", "SOV-3-1-609": "Q25", "SOV-MG-1-609": "Q25"})
    assert run(pbem, tmp_path, "finnish", 5, [{"phase": "action"}, dict(RAID, units=["FIN-1-1-JR16", "FIN-3-1-JR16"])], apart) == ["NR-2"]


def test_night_raid_target_distance_and_hotel(pbem, tmp_path):
    near = state_with(tmp_path, "state-after-legal-01.json", place={"FIN-1-1-JR16": "O20", "FIN-2-1-JR16": "O20", "SOV-1-1-609": "O23", "SOV-2-1-609": "Q25", "SOV-3-1-609": "Q25", "SOV-MG-1-609": "Q25"})
    raid = dict(RAID, at="O23", units=["FIN-1-1-JR16", "FIN-2-1-JR16"])
    assert run(pbem, tmp_path, "finnish", 5, [{"phase": "action"}, raid], near) == ["NR-3"]
    hotel = state_with(tmp_path, "state-after-legal-01.json", place={"SOV-1-1-609": "M16", "FIN-1-1-JR16": "E13", "FIN-2-1-JR16": "E13"})
    raid = dict(RAID, at="M16", units=["FIN-1-1-JR16", "FIN-2-1-JR16"], result="0")
    assert run(pbem, tmp_path, "finnish", 5, [{"phase": "action"}, raid], hotel) == ["NR-3"]


def test_night_raid_route_of_at_most_18_mp(pbem, tmp_path):
    # A29 -> Q25 is 23.5 MP at best (B25 is 18 since the south-west trails were traced).
    far = state_with(tmp_path, "state-after-legal-01.json", place={"FIN-1-1-JR16": "A29", "FIN-2-1-JR16": "A29", "SOV-1-1-609": "Q25", "SOV-2-1-609": "Q25", "SOV-3-1-609": "Q25", "SOV-MG-1-609": "Q25"})
    raid = dict(RAID, units=["FIN-1-1-JR16", "FIN-2-1-JR16"])
    assert run(pbem, tmp_path, "finnish", 5, [{"phase": "action"}, raid], far) == ["NR-4"]


def test_night_raid_losses_are_steps_and_raiders_stay(pbem, tmp_path):
    retreat = dict(RAID_ATTACK, losses={"attacker": ["FIN-1-1-JR16"]}, retreats={"SOV-1-1-609": ["R26"]})
    assert "LS-3" in run(pbem, tmp_path, "finnish", 5, [{"phase": "action"}, RAID, retreat])
    # Not the first raid, routes over 7 MP and through woods: 1d6 1 = no attack; attacking anyway is illegal.
    lost = state_with(tmp_path, "state-after-legal-01.json", place={"FIN-1-1-JR16": "J28", "FIN-2-1-JR16": "J28", "SOV-1-1-609": "Q25", "SOV-2-1-609": "Q25", "SOV-3-1-609": "Q25", "SOV-MG-1-609": "Q25"}, status={"night_raids": 1})
    two = ["FIN-1-1-JR16", "FIN-2-1-JR16"]
    raid = dict(RAID, units=two, result="no_attack", roll=1)
    assert run(pbem, tmp_path, "finnish", 12, [{"phase": "action"}, raid], lost) == []
    assert run(pbem, tmp_path, "finnish", 12, [{"phase": "action"}, raid, dict(RAID_ATTACK, attack=two)], lost) == ["NR-5"]


# --- supply ---------------------------------------------------------------------------------------------------
def supply(start, place=None):
    state = State.from_json(MODULE, load_json(SAMPLES / start))
    for unit_id, label in (place or {}).items():
        state.place(unit_id, MODULE.map.index(label))
    return state


def test_supply_finns_any_distance_soviets_within_4_of_the_road():
    state = supply("state-after-legal-01.json")
    assert RULES.supply_line(state.units["FIN-1-PPP7"], state)[0]  # H19, a long way from A13
    assert RULES.supply_line(state.units["SOV-4-2-609"], state)[0]  # R27 on the road to X28
    far = supply("state-after-legal-01.json", {"SOV-4-2-609": "B31"})
    ok, why = RULES.supply_line(far.units["SOV-4-2-609"], far)
    assert not ok and "within 4 hexes" in why


def test_supply_never_through_enemy_units_or_their_zoc():
    state = supply("state-cutoff.json")
    ok, why = RULES.supply_line(state.units["FIN-1-PPP7"], state)
    assert not ok and "A13" in why
    friend = supply("state-cutoff.json", {"FIN-MG-ERP9": "X29"})  # no help: X30 and W30 are held by the enemy
    assert not RULES.supply_line(friend.units["FIN-1-PPP7"], friend)[0]


def test_replacement_point_needs_a_traced_supply_line(pbem, tmp_path):
    flip = [{"phase": "reset"}, {"replace": "FIN-1-PPP7"}]
    assert run(pbem, tmp_path, "finnish", 7, flip, "state-cutoff.json") == ["SP-2"]
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "reset"}, {"replace": "FIN-2-PPP7"}], "state-cutoff.json") == []


def test_recovery_roll_modifiers_include_supply(pbem, tmp_path):
    # FIN-1-PPP7 cut off in X31 and next to Soviets: 6 - 1 (out of supply) = 5 fails.
    claim = {"special": "recovery", "units": ["FIN-1-PPP7"], "roll": 6, "result": "recovered"}
    cutoff = state_with(tmp_path, "state-cutoff.json", place={"SOV-7-3-609": "V29", "SOV-8-3-609": "W29"})
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "action"}, dict(claim, result="failed")], cutoff) == []
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "action"}, claim], cutoff) == ["RC-1"]
    # In supply (H19, far from the Soviets: +1), a 5 recovers.
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "action"}, dict(claim, roll=5)]) == []


# --- retreat and advance ------------------------------------------------------------------------------------
ATTACK = {"attack": ["SOV-1-1-609", "SOV-2-1-609", "SOV-3-1-609"], "target": "O20", "odds": "1/1", "column": "1/1"}


def test_retreat_priorities_prefer_a_hex_outside_enemy_zoc(pbem, tmp_path):
    into_zoc = dict(ATTACK, roll=9, result="0/1", retreats={"FIN-1-1-JR16": ["O19"], "FIN-2-1-JR16": ["O19"]}, losses={"defender": ["FIN-1-1-JR16"]})
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, into_zoc], "state-retreat.json") == ["RT-1"]
    free = dict(ATTACK, roll=9, result="0/1", retreats={"FIN-1-1-JR16": ["P20"], "FIN-2-1-JR16": ["P20"]})
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, free], "state-retreat.json") == []


def test_retreat_into_an_enemy_zoc_costs_a_step(pbem, tmp_path):
    boxed_in = state_with(tmp_path, "state-retreat.json", place={"SOV-5-2-609": "Q20"})
    no_step = dict(ATTACK, roll=9, result="0/1", retreats={"FIN-1-1-JR16": ["P20"], "FIN-2-1-JR16": ["P20"]})
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, no_step], boxed_in) == ["RT-3"]
    step = dict(no_step, losses={"defender": ["FIN-1-1-JR16"]})
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, step], boxed_in) == []


def test_advance_as_far_as_the_defender_retreated(pbem, tmp_path):
    two = dict(ATTACK, roll=11, result="0/2", retreats={"FIN-1-1-JR16": ["P20", "Q19"], "FIN-2-1-JR16": ["P20", "Q19"]}, advance=["SOV-1-1-609"])
    on = {"move": "SOV-1-1-609", "path": ["O20", "P20"], "declare": ["advance"]}
    clear = state_with(tmp_path, "state-retreat.json", place={"FIN-3-1-JR16": "L20", "FIN-MG-1-JR16": "L20", "FIN-PAJARI": "L20"})
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, two, on], clear) == []
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, two, on], "state-retreat.json") == ["AV-3"]  # O20 is next to P20
    one = dict(ATTACK, roll=9, result="0/1", retreats={"FIN-1-1-JR16": ["P20"], "FIN-2-1-JR16": ["P20"]}, advance=["SOV-1-1-609"])
    beyond = {"move": "SOV-1-1-609", "path": ["O20", "O19"], "declare": ["advance"]}
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, one, beyond], "state-retreat.json") == ["AV-3"]


# --- events, declarations, markers ---------------------------------------------------------------------------
def test_a_soviet_unit_in_a13_ends_finnish_artillery(pbem, tmp_path):
    start = state_with(tmp_path, "state-after-legal-01.json", place={"SOV-4-2-609": "B13"})
    enter = [{"phase": "action"}, {"move": "SOV-4-2-609", "path": ["B13", "A13"]}, {"phase": "combat"}]
    report = run(pbem, tmp_path, "soviet", 2, enter, start, report=True)
    assert report["ok"]
    fire = {"fire": ["FIN-ART-5-KTR12"], "target": "O21", "roll": 7, "result": "none"}
    assert run(pbem, tmp_path, "finnish", 1, [{"phase": "combat"}, fire], "state-after-legal-01.json") == []
    after = tmp_path / "after.json"
    turn = tmp_path / "enter.json"
    turn.write_text(json.dumps({"module": "red-winter", "scenario": "campaign", "turn": 2, "side": "soviet", "start": {"state": Path(start).name}, "actions": enter}))
    assert pbem("check", turn, "--write-state", after).code == 0
    assert run(pbem, tmp_path, "finnish", 2, [{"phase": "combat"}, fire], str(after)) == ["EV-2"]


def test_x28_sacrifice(pbem, tmp_path):
    start = state_with(tmp_path, "state-after-legal-01.json", place={"FIN-3-1-JR16": "X28"})
    ok = {"special": "x28", "units": ["FIN-3-1-JR16", "SOV-ART-1-47"]}
    assert run(pbem, tmp_path, "finnish", 2, [{"phase": "action"}, ok], start) == []
    assert run(pbem, tmp_path, "finnish", 2, [{"phase": "action"}, dict(ok, units=["FIN-1-1-JR16"])], start) == ["EV-1"]


def test_double_and_extended_declarations(pbem, tmp_path):
    road = {"move": "SOV-4-2-609", "path": ["R27", "Q26"], "declare": ["double"]}
    assert run(pbem, tmp_path, "soviet", 12, [{"phase": "action"}, road]) == []
    assert run(pbem, tmp_path, "soviet", 2, [{"phase": "action"}, road]) == ["MV-13"]
    assert run(pbem, tmp_path, "soviet", 2, [{"phase": "action"}, dict(road, declare=["extended"])]) == []
    off_road = {"move": "SOV-4-2-609", "path": ["R27", "R26"], "declare": ["extended"]}
    assert run(pbem, tmp_path, "soviet", 2, [{"phase": "action"}, off_road]) == ["MV-5"]


def test_reset_phase_flips_fired_units_and_ends_suppression(pbem, tmp_path):
    marked = state_with(tmp_path, "state-after-legal-01.json", markers={"FIN-ART-5-KTR12": ["fired"], "FIN-MG-1-JR16": ["suppressed"]})
    fire = {"fire": ["FIN-ART-5-KTR12"], "target": "O21", "roll": 7, "result": "none"}
    assert run(pbem, tmp_path, "finnish", 2, [{"phase": "combat"}, fire], marked) == ["RA-8"]
    assert run(pbem, tmp_path, "finnish", 2, [{"phase": "reset"}, {"phase": "action"}, {"phase": "combat"}, fire], marked) == []


def test_concentric_claim_is_taken_as_given_with_a_warning(pbem, tmp_path):
    claim = dict(ATTACK, column="2/1", shifts={"concentric": 1}, roll=8, result="0/1", losses={"defender": ["FIN-1-1-JR16"]})
    report = run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, claim], "state-retreat.json", report=True)
    assert report["ok"] and any("concentric" in v["message"] for v in report["violations"])


# --- roads and trails traced from the map image (issue 6 follow-up) ------------------------------------------
VARISVAARA_TRAIL = ["F21", "E20", "D21", "C20", "B21", "A21"]  # brown secondary road, Tolvajärvi -> Varisvaara


def test_the_south_west_trails_are_traced_as_secondary_roads():
    m = MODULE.map
    for route in (VARISVAARA_TRAIL, ["O19", "P19", "Q18", "R18", "S18", "S19", "T20"], ["T12", "U12", "V12", "W12", "X12"]):
        for a, b in zip(route, route[1:]):
            assert m.has_road(m.index(a), m.index(b)) and "trail" in m.hexside(m.index(a), m.index(b)), (a, b)
    # The north road along row 1 is brown (secondary) and leaves row 1 at S1 for W2; X1 joins it through W1.
    assert "trail" in m.hexside(m.index("R1"), m.index("S1")) and m.has_road(m.index("S1"), m.index("T2"))
    assert not m.has_road(m.index("S1"), m.index("T1")) and m.has_road(m.index("X1"), m.index("W1"))
    # Hexsides the proposal got wrong stay without a road: a place name, bog texture.
    assert not m.has_road(m.index("N2"), m.index("O1")) and not m.has_road(m.index("U15"), m.index("V15"))


def test_a_move_along_a_new_trail_costs_the_trail_rate(pbem, tmp_path):
    # Five trail hexes at 0.5 MP = 2.5 of the company's 6 MP; the hexes beside it cost 10 MP.
    move = {"move": "FIN-3-ERP112", "path": VARISVAARA_TRAIL}
    assert run(pbem, tmp_path, "finnish", 2, [{"phase": "action"}, move], "state-after-legal-01.json") == []
    beside = {"move": "FIN-3-ERP112", "path": ["F21", "E21", "D22", "C21", "B22", "A21"]}
    assert run(pbem, tmp_path, "finnish", 2, [{"phase": "action"}, beside], "state-after-legal-01.json") == ["MV-1"]


def test_armour_pays_the_trail_rate_on_the_new_south_trail(pbem, tmp_path):
    # T-26 (tank): 1 MP per secondary-road hex (MV-11); O19 -> S19 is 5 trail hexes.
    start = state_with(tmp_path, "state-after-legal-01.json", place={"SOV-T26M33": "O19", "FIN-1-1-JR16": "A13", "FIN-2-1-JR16": "A13"})
    move = {"move": "SOV-T26M33", "path": ["O19", "P19", "Q18", "R18", "S18", "S19"]}
    assert run(pbem, tmp_path, "soviet", 6, [{"phase": "action"}, move], start) == []


# --- one legal and one illegal case for every rule the module checks ---------------------------------------------
# (checklist id, side, turn or (legal turn, illegal turn), start state or None for the campaign set-up, legal actions, illegal actions). The illegal
# case is the legal one with the one thing changed that breaks the rule; ids with their own tests above are listed too.
S1 = "state-after-legal-01.json"
SOV3 = ["SOV-1-1-609", "SOV-2-1-609", "SOV-3-1-609"]
OPENING = [{"phase": "reset"}, {"phase": "action"}, {"move": SOV3, "path": ["Q25", "P25", "P24", "O23", "O22", "O21"]}, {"phase": "combat"}]
OPENING_ATTACK = {"attack": SOV3, "target": "O20", "odds": "1/1", "column": "2/1", "roll": 8, "result": "0/1", "retreats": {"FIN-1-1-JR16": ["O19"], "FIN-2-1-JR16": ["O19"]}}
FIN_ASSAULT = [{"phase": "action"}, {"move": "FIN-3-1-JR16", "path": ["P20", "P21"]}]
ASSAULT_O21 = {"overrun": "FIN-3-1-JR16", "target": "O21", "roll": 7, "result": "2/0", "losses": {"attacker": ["FIN-3-1-JR16", "FIN-3-1-JR16"]}}
FIN_ATTACK = [{"phase": "action"}, {"move": ["FIN-1-1-JR16", "FIN-2-1-JR16"], "path": ["O19", "O20"]}, {"phase": "combat"}]
SOV4 = SOV3 + ["SOV-MG-1-609"]
NIGHT_MOVE = {"move": SOV4, "path": ["Q25", "P25", "P24", "O23", "O22", "O21"], "declare": ["double"]}
ASSAULT_SOV = {"overrun": SOV4, "target": "O20", "odds": "1/1", "column": "2/1", "roll": 12, "result": "0/4",
               "losses": {"defender": ["FIN-1-1-JR16", "FIN-1-1-JR16", "FIN-2-1-JR16", "FIN-2-1-JR16"]}}  # fmt: skip
ATTACK_O21 = {"attack": ["FIN-1-1-JR16", "FIN-2-1-JR16"], "target": "O21", "roll": 9, "result": "1/0", "losses": {"attacker": ["FIN-1-1-JR16"]}}
# Campaign set-up on the night turn 5: Q25 (four units) rolls 2 = a step, R27 rolls 4 = none (both forest).
SUB_ZERO = [{"phase": "sub_zero"}, {"special": "sub_zero", "at": "Q25", "roll": 2, "result": "step"}, {"loss": "SOV-MG-1-609"},
            {"special": "sub_zero", "at": "R27", "roll": 4, "result": "none"}, {"phase": "victory"}]  # fmt: skip
TANK_FIRE = {"fire": ["SOV-T26M33"], "target": "K19", "roll": 6, "result": "none"}  # 6 + RAS 6 + lake 1 = 13
AT_FIRST = {"fire": ["FIN-AT-JR16"], "target": "I18", "declare": ["anti_tank"], "roll": [1, 1]}
FIRE_354 = {"fire": ["SOV-ART-1-354"], "target": "P20", "roll": 7, "result": "suppressed"}
RETURN_354 = {"roll": {"purpose": "return_354", "dice": "1d6", "value": 3, "result": "turn 12"}}
PROV_NEAR = "state-prov.json"  # turn 6, the trigger seen on turn 1, Pajari in F13 next to Lutikkamökki (E13)
PROV_IN = {"reinforce": "FIN-PROV-TFP", "at": "E13"}
PAIRS = [
    ("SK-1", "soviet", 1, None, [{"phase": "action"}, {"move": "SOV-4-2-609", "path": ["R27", "Q26"]}],
     [{"phase": "action"}, {"move": "SOV-4-2-609", "path": ["R27", "Q26", "Q25"]}]),
    ("SEQ-1", "soviet", 2, S1, [{"phase": "action"}, {"move": "SOV-MG-1-609", "path": ["Q25", "P25"]}],
     [{"phase": "action"}, {"move": "SOV-MG-1-609", "path": ["Q25", "P25"]}, {"move": "SOV-MG-1-609", "path": ["P25", "P24"]}]),
    ("MV-1", "finnish", 1, S1, [{"phase": "action"}, {"reinforce": "FIN-7-3-JR16", "at": "A13"}, {"move": "FIN-7-3-JR16", "path": ["A13", "B13", "C13"]}],
     [{"phase": "action"}, {"reinforce": "FIN-7-3-JR16", "at": "A13"}, {"move": "FIN-7-3-JR16", "path": ["A13", "B14", "C14"]}]),
    ("MV-2", "finnish", 1, S1, [{"phase": "action"}, {"move": "FIN-MG-1-JR16", "path": ["P20", "P21"]}],
     [{"phase": "action"}, {"move": "FIN-MG-1-JR16", "path": ["P20", "P21", "O21"]}]),
    ("MV-3", "finnish", 1, S1, [{"phase": "action"}, {"move": "FIN-3-1-JR16", "path": ["P20", "P21"]}],
     [{"phase": "action"}, {"move": "FIN-3-1-JR16", "path": ["P20", "P21", "P22"]}]),
    ("MV-4", "soviet", 2, S1, [{"phase": "action"}, {"move": "SOV-MG-1-609", "path": ["Q25", "P25", "P24", "O23", "O22"]}],
     [{"phase": "action"}, {"move": "SOV-MG-1-609", "path": ["Q25", "P25", "P24", "O23", "O22", "O21", "O20"]}]),
    ("MV-11", "soviet", 6, None, [{"phase": "action"}, {"reinforce": "SOV-T26M33", "at": "X28"}, {"move": "SOV-T26M33", "path": ["X28", "W27"]}],
     [{"phase": "action"}, {"reinforce": "SOV-T26M33", "at": "X28"}, {"move": "SOV-T26M33", "path": ["X28", "X27"]}]),
    ("AS-1", "finnish", 1, S1, FIN_ASSAULT + [ASSAULT_O21],
     [{"phase": "action"}, {"move": "FIN-PAJARI", "path": ["P20", "P21"]}, dict(ASSAULT_O21, overrun="FIN-PAJARI", losses={})]),
    ("AS-2", "finnish", 1, S1, FIN_ASSAULT + [ASSAULT_O21],
     [{"phase": "action"}, {"move": "FIN-MG-1-JR16", "path": ["P20", "P21"]}, dict(ASSAULT_O21, overrun="FIN-MG-1-JR16", losses={"attacker": ["FIN-MG-1-JR16", "FIN-MG-1-JR16"]})]),
    ("AS-4", "finnish", 1, S1, FIN_ASSAULT + [ASSAULT_O21], FIN_ASSAULT + [dict(ASSAULT_O21, support={"offensive": 1})]),
    ("CB-1", "finnish", 1, S1, FIN_ATTACK + [ATTACK_O21], FIN_ATTACK[:2] + [ATTACK_O21]),
    ("CB-2", "finnish", 1, S1, FIN_ATTACK + [ATTACK_O21], FIN_ATTACK + [ATTACK_O21, dict(ATTACK_O21, attack=["FIN-1-1-JR16"], losses={"attacker": ["FIN-1-1-JR16"]})]),
    ("CB-4", "finnish", 1, S1, FIN_ATTACK + [ATTACK_O21],
     [{"phase": "action"}, {"move": "FIN-MTR-JR16-O19", "path": ["M20", "N21"]}, {"phase": "combat"}, {"attack": "FIN-MTR-JR16-O19", "target": "O21", "roll": 7, "result": "2/0"}]),
    ("LS-3", "finnish", 1, S1, FIN_ATTACK + [ATTACK_O21], FIN_ATTACK + [dict(ATTACK_O21, losses={}, retreats={"FIN-1-1-JR16": ["O19"], "FIN-2-1-JR16": ["O19"]})]),
    ("OD-1", "soviet", 1, None, OPENING + [OPENING_ATTACK], OPENING + [dict(OPENING_ATTACK, odds="2/1")]),
    ("OD-6", "soviet", 1, None, OPENING + [OPENING_ATTACK], OPENING + [dict(OPENING_ATTACK, column="3/1")]),
    ("LS-1", "soviet", 1, None, OPENING + [OPENING_ATTACK], OPENING + [dict(OPENING_ATTACK, result="0/2")]),
    ("LS-2", "soviet", 1, None, OPENING + [OPENING_ATTACK], OPENING + [dict(OPENING_ATTACK, retreats={})]),
    ("RT-2", "soviet", 1, None, OPENING + [OPENING_ATTACK], OPENING + [dict(OPENING_ATTACK, retreats={"FIN-1-1-JR16": ["O19", "O18", "O17", "O16", "O15"], "FIN-2-1-JR16": ["O19"]})]),
    ("AV-1", "soviet", 1, None, OPENING + [dict(OPENING_ATTACK, advance=["SOV-1-1-609"])], OPENING + [dict(OPENING_ATTACK, retreats={}, losses={"defender": ["FIN-1-1-JR16"]}, advance=["SOV-1-1-609"])]),
    ("AS-5", "soviet", 5, None, [{"phase": "action"}, NIGHT_MOVE, dict(ASSAULT_SOV, advance=SOV4)], [{"phase": "action"}, NIGHT_MOVE, ASSAULT_SOV]),
    ("RA-1", "finnish", 1, S1, [{"phase": "combat"}, {"fire": ["FIN-ART-5-KTR12"], "target": "O21", "roll": 7, "result": "none"}],
     [{"phase": "action"}, {"fire": ["FIN-ART-5-KTR12"], "target": "O21", "roll": 7, "result": "none"}]),
    ("RA-3", "finnish", 1, S1, [{"phase": "combat"}, {"fire": ["FIN-ART-5-KTR12"], "target": "O21", "roll": 7, "result": "none"}],
     [{"phase": "combat"}, {"fire": ["FIN-ART-5-KTR12"], "target": "O21", "roll": 12, "result": "none"}]),
    ("RA-4", "finnish", 1, S1, [{"phase": "combat"}, {"fire": ["FIN-ART-5-KTR12"], "target": "O21", "roll": 7, "result": "none"}],
     [{"phase": "combat"}, {"fire": ["FIN-1-1-JR16"], "target": "O21", "roll": 7, "result": "none"}]),
    ("RA-5", "finnish", 1, S1, [{"phase": "combat"}, {"fire": ["FIN-ART-5-KTR12"], "target": "O21", "roll": 7, "result": "none"}],
     [{"phase": "combat"}, {"fire": ["FIN-ART-5-KTR12"], "target": "Q26", "roll": 7, "result": "none"}]),
    ("SH-1", "soviet", 1, None, OPENING + [dict(OPENING_ATTACK, shifts={"morale": 1})], OPENING + [dict(OPENING_ATTACK, shifts={})]),
    ("NR-6", "finnish", 5, None, [{"phase": "action"}, RAID, RAID_ATTACK], [{"phase": "action"}, RAID, dict(RAID_ATTACK, advance=["FIN-1-1-JR16"])]),
    ("RE-1", "soviet", 1, None, [{"phase": "action"}, {"reinforce": "SOV-7-3-609", "at": "X28"}], [{"phase": "action"}, {"reinforce": "SOV-4-2-364", "at": "X28"}]),
    ("RE-4", "soviet", 11, None, [{"phase": "action"}, {"reinforce": "SOV-1-1-718", "at": "X1"}], [{"phase": "action"}, {"reinforce": "SOV-1-1-718", "at": "X28"}]),
    ("RE-5", "soviet", (6, 4), None, [{"phase": "action"}, {"reinforce": "SOV-T37", "at": "X28"}], [{"phase": "action"}, {"reinforce": "SOV-T37", "at": "X28"}]),
    ("RE-7", "finnish", 7, None, [{"phase": "reset"}, {"replace": "FIN-1-PPP7"}, {"replace": "FIN-2-PPP7"}],
     [{"phase": "reset"}, {"replace": "FIN-1-PPP7"}, {"replace": "FIN-2-PPP7"}, {"replace": "FIN-3-PPP7"}]),
    ("DI-1", "soviet", 2, None, [{"phase": "action"}, {"special": "dig_in", "units": ["SOV-4-2-609"]}], [{"phase": "action"}, {"special": "dig_in", "units": ["SOV-ART-1-47"]}]),
    ("DI-3", "soviet", 2, "state-after-legal-02.json", [{"phase": "action"}, {"special": "dig_in", "units": ["SOV-4-2-609"]}], [{"phase": "action"}, {"special": "dig_in", "units": ["SOV-3-1-609"]}]),
    ("RC-2", "finnish", 2, "state-after-legal-02.json", [{"phase": "action"}, {"special": "recovery", "units": ["FIN-2-PPP7"], "roll": 6, "result": "recovered"}],
     [{"phase": "action"}, {"special": "recovery", "units": ["FIN-1-1-JR16"], "roll": 6, "result": "recovered"}]),
    ("SZ-1", "soviet", (5, 2), None, SUB_ZERO, SUB_ZERO),
    ("RA-6", "soviet", 9, "state-tank-lake.json", [{"phase": "combat"}, AT_FIRST, TANK_FIRE], [{"phase": "combat"}, TANK_FIRE, AT_FIRST]),
    ("RA-8", "soviet", 9, "state-354.json", [{"phase": "combat"}, FIRE_354, RETURN_354], [{"phase": "combat"}, FIRE_354]),
    ("RE-6", "finnish", (6, 5), PROV_NEAR, [{"phase": "action"}, PROV_IN], [{"phase": "action"}, PROV_IN]),
    ("BF-1", "soviet", 5, None, [{"phase": "action"}, {"special": "bonfire", "at": "R27"}], [{"phase": "action"}, {"special": "bonfire", "at": "O22"}]),
]

ALSO = {"NR-6": ["SK-1"]}  # the raider advancing into the still-held target hex over-stacks it too


@pytest.mark.parametrize("cid, side, turn, start, legal, broken", PAIRS, ids=[p[0] for p in PAIRS])
def test_each_rule_has_a_legal_and_an_illegal_case(pbem, tmp_path, cid, side, turn, start, legal, broken):
    legal_turn, broken_turn = turn if isinstance(turn, tuple) else (turn, turn)
    assert run(pbem, tmp_path, side, legal_turn, legal, start) == []
    assert run(pbem, tmp_path, side, broken_turn, broken, start) == sorted([cid] + ALSO.get(cid, []))


def test_bonfire_marker_forbids_attacking(pbem, tmp_path):  # CB-5
    plain = state_with(tmp_path, S1)
    marked = state_with(tmp_path, S1, markers={"FIN-1-1-JR16": ["bonfire"]})
    assert run(pbem, tmp_path, "finnish", 1, FIN_ATTACK + [ATTACK_O21], plain) == []
    assert run(pbem, tmp_path, "finnish", 1, FIN_ATTACK + [ATTACK_O21], marked) == ["CB-5"]


def test_reinforcements_wait_when_the_entry_hex_is_held(pbem, tmp_path):  # RE-2
    held = state_with(tmp_path, S1, place={"SOV-4-2-609": "A13"})
    entry = [{"phase": "action"}, {"reinforce": "FIN-7-3-JR16", "at": "A13"}]
    assert run(pbem, tmp_path, "finnish", 1, entry, S1) == []
    assert run(pbem, tmp_path, "finnish", 1, entry, held) == ["RE-2"]


# --- the Sub-Zero Loss Phase (SZ-1) ----------------------------------------------------------------------------
def test_sub_zero_result_is_read_on_the_table_with_its_modifiers(pbem, tmp_path):
    wrong = [SUB_ZERO[0], dict(SUB_ZERO[1], roll=4, result="step")] + SUB_ZERO[2:]
    assert run(pbem, tmp_path, "soviet", 5, wrong) == ["SZ-1"]  # 4 is no effect
    # A Finnish stack with a Skull marker rolls too, +1: a 3 is no effect; a Soviet stack on a lake -1: a 4 costs a step.
    marked = state_with(tmp_path, S1, place={"SOV-MG-2-609": "J20"}, markers={"FIN-3-1-JR16": ["skull"]})
    rolls = [{"phase": "sub_zero"}, {"special": "sub_zero", "at": "P20", "units": ["FIN-3-1-JR16"], "roll": 3, "result": "none"},
             {"special": "sub_zero", "at": "J20", "roll": 4, "result": "step"}, {"loss": "SOV-MG-2-609"}]  # fmt: skip
    rolls += [{"special": "sub_zero", "at": at, "roll": 6, "result": "none"} for at in ("O21", "Q26", "Q25", "R27", "U27")]
    assert run(pbem, tmp_path, "soviet", 12, rolls, marked) == []
    assert run(pbem, tmp_path, "soviet", 12, rolls[:2] + [dict(rolls[2], result="none")] + rolls[4:], marked) == ["SZ-1"]


def test_sub_zero_step_is_taken_by_the_stack_that_rolled(pbem, tmp_path):
    no_loss = SUB_ZERO[:2] + SUB_ZERO[3:]
    assert run(pbem, tmp_path, "soviet", 5, no_loss) == ["SZ-1"]
    elsewhere = SUB_ZERO[:2] + [{"loss": "SOV-4-2-609"}] + SUB_ZERO[3:]
    assert run(pbem, tmp_path, "soviet", 5, elsewhere) == ["SZ-1"]
    two_steps = SUB_ZERO[:2] + [{"eliminate": ["SOV-MG-1-609"]}] + SUB_ZERO[3:]
    assert run(pbem, tmp_path, "soviet", 5, two_steps) == ["SZ-1"]
    uncalled = SUB_ZERO[:3] + [SUB_ZERO[3], {"loss": "SOV-4-2-609"}, SUB_ZERO[4]]
    assert run(pbem, tmp_path, "soviet", 5, uncalled) == ["SZ-1"]


def test_every_stack_outside_a_bonfire_rolls_once(pbem, tmp_path):
    assert run(pbem, tmp_path, "soviet", 5, SUB_ZERO[:3] + SUB_ZERO[4:]) == ["SZ-1"]  # R27 never rolled
    assert run(pbem, tmp_path, "soviet", 5, SUB_ZERO[:4] + [SUB_ZERO[3]] + SUB_ZERO[4:]) == ["SZ-1"]  # R27 twice
    fire = [{"phase": "action"}, {"special": "bonfire", "at": "R27"}]
    assert run(pbem, tmp_path, "soviet", 5, fire + SUB_ZERO[:3] + SUB_ZERO[4:]) == []
    assert run(pbem, tmp_path, "soviet", 5, fire + SUB_ZERO) == ["SZ-1"]  # under the bonfire: no roll


# --- the dead pool and rebuilt companies (LS-6, RE-7) ----------------------------------------------------------------
def after_turn(pbem, tmp_path, side, turn, actions, start):
    doc = {"module": "red-winter", "scenario": "campaign", "turn": turn, "side": side, "start": {"scenario": "campaign"}, "actions": actions}
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(doc))
    out = tmp_path / "after.json"
    assert pbem("check", path, "--state", start, "--write-state", out).code == 0
    data = json.loads(out.read_text())
    return {u["id"]: u for u in data["units"]}, data.get("status", {})


def test_companies_eliminated_in_supply_go_to_the_dead_pool(pbem, tmp_path):
    start = state_with(tmp_path, "state-cutoff.json")
    units, _ = after_turn(pbem, tmp_path, "finnish", 7, [{"loss": "FIN-2-PPP7"}, {"loss": "FIN-1-PPP7"}, {"eliminate": ["FIN-MG-ERP9"]}], start)
    assert units["FIN-2-PPP7"]["at"] == "dead_pool"  # reduced in H19, in supply
    assert units["FIN-1-PPP7"]["at"] == "eliminated"  # cut off in X31
    assert units["FIN-MG-ERP9"]["at"] == "eliminated"  # not an infantry company


DEAD = "state-dead-pool.json"
REBUILD = {"special": "rebuild", "units": ["FIN-4-2-JR16"], "at": "A13", "result": "reduced"}


def test_rebuilding_costs_and_eligibility(pbem, tmp_path):
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "reset"}, REBUILD], DEAD) == []
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "reset"}, dict(REBUILD, result="full")], DEAD) == ["RE-7"]  # 3 RP of 2
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "reset"}, {"replace": "FIN-1-PPP7"}, REBUILD], DEAD) == ["RE-7"]
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "reset"}, dict(REBUILD, units=["FIN-5-2-JR16"])], DEAD) == ["RE-7"]
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "action"}, REBUILD], DEAD) == ["RE-7"]
    assert run(pbem, tmp_path, "finnish", 14, [{"phase": "reset"}, dict(REBUILD, result="full")], DEAD) == []  # 3 RP on turn 14


def test_rebuilt_company_placement(pbem, tmp_path):
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "reset"}, dict(REBUILD, at="H13")], DEAD) == []
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "reset"}, dict(REBUILD, at="L13")], DEAD) == ["RE-7"]  # 11 hexes
    near = state_with(tmp_path, DEAD, place={"SOV-7-3-609": "K13"})
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "reset"}, dict(REBUILD, at="H13")], near) == ["RE-7"]  # 3 from a Soviet
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "reset"}, dict(REBUILD, at="A13")], near) == []  # the source itself


def test_rebuilt_company_on_the_turn_track_enters_later_on_its_face(pbem, tmp_path):
    later = dict(REBUILD)
    del later["at"]
    units, status = after_turn(pbem, tmp_path, "finnish", 7, [{"phase": "reset"}, later], str(SAMPLES / DEAD))
    assert units["FIN-4-2-JR16"]["at"] == "turn_track" and status["turn_track"]["FIN-4-2-JR16"] == {"turn": 8, "step": 1}
    enter = [{"phase": "action"}, {"reinforce": "FIN-4-2-JR16", "at": "A13"}]
    assert run(pbem, tmp_path, "finnish", 7, [{"phase": "reset"}, later] + enter, DEAD) == ["RE-1"]
    (tmp_path / "track.json").write_text((tmp_path / "after.json").read_text())
    units, status = after_turn(pbem, tmp_path, "finnish", 8, enter, str(tmp_path / "track.json"))
    assert units["FIN-4-2-JR16"] == {"id": "FIN-4-2-JR16", "at": "A13", "step": 1} and "turn_track" not in status


# --- the 354th's return from the turn track (RA-8) -------------------------------------------------------------------
def test_354th_return_roll_and_turn(pbem, tmp_path):
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, FIRE_354, dict(RETURN_354, roll=dict(RETURN_354["roll"], result="turn 11"))], "state-354.json") == ["RA-8"]
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, RETURN_354], "state-354.json") == ["RA-8"]  # nothing fired
    units, status = after_turn(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, FIRE_354, RETURN_354], str(SAMPLES / "state-354.json"))
    assert units["SOV-ART-1-354"]["at"] == "turn_track" and status["turn_track"]["SOV-ART-1-354"] == {"turn": 12}
    (tmp_path / "track.json").write_text((tmp_path / "after.json").read_text())
    again = [{"phase": "reset"}, {"phase": "action"}, {"phase": "combat"}, FIRE_354]
    assert run(pbem, tmp_path, "soviet", 11, again, str(tmp_path / "track.json")) == ["RA-8"]  # still on the track
    back = again[:3] + [dict(FIRE_354, target="O20"), dict(RETURN_354, roll=dict(RETURN_354["roll"], result="turn 16"))]
    assert run(pbem, tmp_path, "soviet", 13, back, str(tmp_path / "track.json")) == []  # back since turn 12 (a night)


def test_354th_on_the_turn_track_cannot_fire(pbem, tmp_path):
    early = dict(FIRE_354, fire=["SOV-ART-2-354"])
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, early], "state-354.json") == ["RA-8"]
    dusk = [{"phase": "combat"}, dict(early, result="none"), dict(RETURN_354, roll=dict(RETURN_354["roll"], result="turn 14"))]
    assert run(pbem, tmp_path, "soviet", 11, dusk, "state-354.json") == []  # back on turn 11 (dusk: -1)


# --- RA-6: armour firing at an AT gun -------------------------------------------------------------------------------
def test_only_the_gun_fired_at_fires_first(pbem, tmp_path):
    # The tank fires at a company in K19; the AT gun in J20 may not fire "first" (it is not the target).
    elsewhere = state_with(tmp_path, "state-tank-lake.json", place={"FIN-AT-JR16": "J20", "FIN-3-1-JR16": "K19"})
    at_company = dict(TANK_FIRE, result="suppressed")
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, at_company], elsewhere) == []
    assert run(pbem, tmp_path, "soviet", 9, [{"phase": "combat"}, AT_FIRST, at_company], elsewhere) == ["RA-6"]


# --- Prov/TF-P (RE-6) ---------------------------------------------------------------------------------------------
def test_prov_company_conditions(pbem, tmp_path):
    assert run(pbem, tmp_path, "finnish", 6, [{"phase": "action"}, dict(PROV_IN, at="G13")], PROV_NEAR) == []  # next to F13
    assert run(pbem, tmp_path, "finnish", 6, [{"phase": "action"}, dict(PROV_IN, at="E15")], PROV_NEAR) == ["RE-6"]
    far = state_with(tmp_path, PROV_NEAR, place={"FIN-PAJARI": "P20"})
    assert run(pbem, tmp_path, "finnish", 6, [{"phase": "action"}, dict(PROV_IN, at="P21")], far) == ["RE-6"]
    quiet = json.loads((SAMPLES / PROV_NEAR).read_text())
    del quiet["status"]["prov_trigger"]
    for unit in quiet["units"]:
        if unit["id"] == "SOV-7-3-609":
            unit["at"] = "U27"
    (tmp_path / "quiet.json").write_text(json.dumps(quiet))
    assert run(pbem, tmp_path, "finnish", 6, [{"phase": "action"}, PROV_IN], str(tmp_path / "quiet.json")) == ["RE-6"]
    # A Soviet unit entering column W (or I) now is the trigger, recorded in the state.
    west = [{"phase": "action"}, {"move": "SOV-7-3-609", "path": ["U27", "V28", "W27"]}]
    _, status = after_turn(pbem, tmp_path, "soviet", 6, west, str(tmp_path / "quiet.json"))
    assert status["prov_trigger"] == 6


def test_prov_trigger_option():
    from importlib import import_module

    rules_module = import_module(type(RULES).__module__.rsplit(".", 1)[0])
    state = supply("state-prov.json")
    del state.status["prov_trigger"]
    state.place("SOV-7-3-609", MODULE.map.index("U27"))
    for option, hexes in (("column_w_or_i", ("W10", "I20")), ("west_of_column_i", ("I20", "C5"))):
        rules = rules_module.RedWinterRules(MODULE)
        rules.options = dict(MODULE.options, prov_trigger=option)
        rules._note_prov_trigger(state)
        assert "prov_trigger" not in state.status
        for label in hexes:
            state.place("SOV-7-3-609", MODULE.map.index(label))
            rules._note_prov_trigger(state)
            assert state.status.pop("prov_trigger") == state.turn, (option, label)
        state.place("SOV-7-3-609", MODULE.map.index("U27"))
    off = rules_module.RedWinterRules(MODULE)
    off.options = dict(MODULE.options, prov_trigger="not_checked")
    assert off.prov_trigger() is None
