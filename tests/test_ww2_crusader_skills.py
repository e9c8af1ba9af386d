"""Crusader unit skills other than Guards and War-weary (W-Mod/8, 特定描述): [装甲师], [8.8cm Flak], [穿插],
[在敌境中前进], [勇气], on the tiny test map with the skills given by unit id in the tables' ``unit_values``."""

from __future__ import annotations

import pytest
from ww2_crusader_support import FOLDER, attack, build_module, declare, illegal, move, phase, run, state

SKILLS = {"PZ-3": ["Armored Div"], "ART-2": ["8.8cm Flak"], "IT-INF-3": ["Infiltration"], "IT-INF-4": ["Advance in enemy territory"], "PZ-4": ["Courage"]}


def _skills(tables):
    for unit_id, skills in SKILLS.items():
        tables["unit_values"]["types"][unit_id] = {"skills": skills}


SKILLED = build_module(FOLDER / "ww2-crusader-skills", _skills)


def skilled(units, **options):
    start = state(units)
    start.module = SKILLED
    if options:
        start.options = options
    return start


def fight(side, units, attackers, target, roll, result, **fields):
    start = skilled(units, **fields.pop("options", {}))
    return illegal(run(side, [phase("attack_1", side), declare(attackers, target), attack(attackers, target, roll, result, **fields)], start, module=SKILLED))


# [装甲师]:与装甲单位战斗时,战力+1
@pytest.mark.parametrize("unit, odds, bad", [("PZ-3", "3/1", set()), ("PZ-3", "2/1", {"W-Res/2"}), ("PZ-1", "2/1", set())])
def test_armoured_division_against_armour(unit, odds, bad):
    # 6 (+1) against GB-ARM-1 at ② (defence 3): 7:3 is 3:1, 6:3 2:1
    assert fight("axis", {unit: "0403", "GB-ARM-1": ("0404", 1)}, [unit], "0404", 6, "AD", odds=odds) - {"W-CRT/1"} == bad


def test_armoured_division_not_against_infantry():
    units = {"PZ-3": "0403", "GB-INF-1": ("0404", 2)}  # 6 against 3: 2:1; no armour defending, no +1
    assert fight("axis", units, ["PZ-3"], "0404", 6, "AD", odds="2/1") - {"W-CRT/1"} == set()
    assert fight("axis", units, ["PZ-3"], "0404", 6, "AD", odds="3/1") - {"W-CRT/1"} == {"W-Res/2"}


# [8.8cm Flak]:对战装甲单位时,防御力+1,若本单位为展开状态则改为战力+1
@pytest.mark.parametrize("attacker, odds, bad", [("GB-ARM-1", "2/1", set()), ("GB-ARM-1", "3/1", {"W-Res/2"}), ("GB-INF-1", "2/1", set())])
def test_flak_defends_plus_one_against_armour(attacker, odds, bad):
    # ART-2 defends 2 (+1 against armour): GB-ARM-1 5:3 is 2:1 (5:2 would be 3:1); GB-INF-1 3:2 is 2:1, no bonus
    assert fight("allied", {attacker: "0403", "ART-2": "0404"}, [attacker], "0404", 6, "AD", odds=odds) - {"W-CRT/1"} == bad


@pytest.mark.parametrize("deployed, odds", [(True, "2/1"), (False, "1/1")])
def test_deployed_flak_attacks_plus_one_against_armour(deployed, odds):
    start = skilled({"ART-2": "0403", "IT-INF-1": "0403", "GB-ARM-1": ("0404", 1)})  # 0 (+1 deployed) + 3 against 3
    if deployed:
        start.units["ART-2"].markers.add("deployed")
    wrong = "1/1" if odds == "2/1" else "2/1"
    for claim, bad in ((odds, set()), (wrong, {"W-Res/2"})):
        again = skilled({"ART-2": "0403", "IT-INF-1": "0403", "GB-ARM-1": ("0404", 1)})
        again.units["ART-2"].markers |= start.units["ART-2"].markers
        found = run("axis", [phase("attack_1"), declare(["ART-2", "IT-INF-1"], "0404"), attack(["ART-2", "IT-INF-1"], "0404", 6, "AD", odds=claim)], again, module=SKILLED)
        assert illegal(found) - {"W-CRT/1"} == bad


# [勇气]:单位攻击时无论何时都取猛攻战果
@pytest.mark.parametrize("option, column, bad", [(None, "3/1", set()), (None, "2/1", {"W-Mod/1"}), ("optional", "2/1", set())])
def test_courage_always_takes_the_assault_result(option, column, bad):
    # PZ-4 6 against GB-INF-1 5: 2:1; a die of 2 under the assault: one column right, 3:1
    fields = {"options": {"courage": option}} if option else {}
    assert fight("axis", {"PZ-4": "0403", "GB-INF-1": "0404"}, ["PZ-4"], "0404", 2, "AD", column=column, **fields) - {"W-CRT/1"} == bad


# [穿插]:进入敌方弱控区时无需停止移动,可以消耗双倍移动力在敌方弱控区中连续移动
@pytest.mark.parametrize("unit, path, bad", [
    ("IT-INF-3", ("0505", "0504"), set()),              # through the weak ZOC in 0505 without stopping
    ("IT-INF-1", ("0505", "0504"), {"W-Move/3"}),       # without the skill it stops there
    ("IT-INF-3", ("0505", "0506"), set()),              # weak to weak: 1 + 2 = 3 MP
    ("IT-INF-3", ("0505", "0506", "0606"), {"W-Move/1"}),  # 1 + 2 + 2 = 5 MP, more than 3
])
def test_infiltration_through_an_enemy_weak_zoc(unit, path, bad):
    start = skilled({unit: "0404", "GB-INF-1": ("0605", 1)})  # ② British: weak ZOC
    assert illegal(run("axis", [phase("move_1"), move(unit, *path)], start, module=SKILLED)) == bad


# [在敌境中前进]:只要进行了战术推进就可以进行二次推进
@pytest.mark.parametrize("unit, bad", [("IT-INF-4", set()), ("IT-INF-1", {"W-Adv/2"})])
def test_advance_in_enemy_territory_allows_a_second_hex(unit, bad):
    # 3 against 3: 1:1, a 1 is D1: the British go one hex; infantry advances a second hex only with the skill
    start = skilled({unit: "0403", "GB-INF-1": ("0404", 2)})
    combat = attack([unit], "0404", 1, "D1", retreats={"GB-INF-1": ["0505"]})
    combat.advance = (unit,)
    combat.advance_paths = {unit: (start.module.map.index("0404"), start.module.map.index("0504"))}
    found = run("axis", [phase("attack_1"), declare([unit], "0404"), combat], start, module=SKILLED)
    assert illegal(found) - {"W-CRT/1"} == bad
