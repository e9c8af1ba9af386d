"""Paths of Glory tables, cell by cell: fire tables against the digest and the 2022 rules' worked examples."""

from pathlib import Path

import pytest

from pbem.model.module import load_module
from pbem.rules.combat import StrengthTable

MODULE = Path(__file__).resolve().parents[1] / "modules" / "paths-of-glory"

# Digest 4.1, typed again from the digest (rows = die 1..6).
ARMY = """
0 1 1 2 2 3 3 4 4 5
1 1 2 2 3 3 4 4 5 5
1 2 2 3 3 4 4 5 5 7
1 2 3 3 4 4 5 5 7 7
2 3 3 4 4 5 5 7 7 7
2 3 4 4 5 5 7 7 7 7
"""
CORPS = """
0 0 0 1 1 1 1 1 2
0 0 1 1 1 1 1 2 2
0 0 1 1 1 2 2 2 3
0 1 1 1 2 2 2 3 3
1 1 1 2 2 2 3 3 4
1 1 1 2 2 3 3 4 4
"""
ARMY_STRENGTHS = [1, 2, 3, 4, 5, 6, 9, 12, 15, 16]
CORPS_STRENGTHS = [0, 1, 2, 3, 4, 5, 6, 7, 8]


@pytest.fixture(scope="module")
def tables():
    return load_module(MODULE).tables


@pytest.fixture(scope="module")
def army(tables):
    return StrengthTable.from_table(tables["fire_army"])


@pytest.fixture(scope="module")
def corps(tables):
    return StrengthTable.from_table(tables["fire_corps"])


def _cells(text, strengths):
    for die, line in enumerate(text.strip().splitlines(), start=1):
        for strength, value in zip(strengths, line.split(), strict=True):
            yield die, strength, int(value)


@pytest.mark.parametrize("die, strength, loss", list(_cells(ARMY, ARMY_STRENGTHS)))
def test_army_fire_table_cell(army, die, strength, loss):
    assert army.result(strength, 0, die) == loss


@pytest.mark.parametrize("die, strength, loss", list(_cells(CORPS, CORPS_STRENGTHS)))
def test_corps_fire_table_cell(corps, die, strength, loss):
    assert corps.result(strength, 0, die) == loss


def test_columns_are_strength_ranges(army, corps):
    assert [army.columns[army.column(s)] for s in (0, 1, 6, 7, 8, 9, 11, 12, 14, 15, 16, 40)] == [
        "1", "1", "6-8", "6-8", "6-8", "9-11", "9-11", "12-14", "12-14", "15", "16+", "16+",
    ]  # fmt: skip
    assert [corps.columns[corps.column(s)] for s in (0, 7, 8, 12)] == ["0", "7", "8+", "8+"]


# (table, strength, column shift, die + drm, loss number, where the 2022 rules read it)
WORKED = [
    ("army", 15, 0, 2, 5, "Extended Example, CP action 1: die 2 on the 15 column, Loss Number 5"),
    ("army", 3, 0, 3, 2, "Extended Example, CP action 1: Allied die 3 on the 3 column, Loss Number 2"),
    ("army", 6, 0, 3, 4, "Extended Example, AP action 1: die 3 on the 6 column, Loss Number 4"),
    ("corps", 1, 0, 4, 1, "Extended Example, AP action 1: AH corps fires 1 CF, die 4, Loss Number 1"),
    ("army", 10, 0, 4, 5, "Extended Example, CP action 2: die 4 on the 10 column, Loss Number 5"),
    ("army", 2, 0, 6, 3, "Extended Example, CP action 2: die 6 on the 2 column, Loss Number 3"),
    ("army", 8, 0, 5, 5, "Extended Example, AP action 2: 2+3+3 CF, die 5 on the 6-8 column, Loss Number 5"),
    ("army", 3, 0, 3, 2, "Extended Example, AP action 2: die 3 on the 3 column, Loss Number 2"),
    ("army", 6, 0, 3, 4, "Extended Example, AP action 2: RU 3+3 CF, die 2 +1 (Pleve) = 3, Loss Number 4"),
    ("army", 3, 0, 3, 2, "Extended Example, AP action 2: (AH 2nd Army) + two corps, die 3, Loss Number 2"),
    ("army", 15, 0, 4, 7, "Extended Example, CP action 3: GE 1st, 4th, 5th (15 CF), die 4, Loss Number 7"),
    ("army", 4, 0, 3, 3, "Extended Example, CP action 3: AH corps + AH 5th Army (4 CF), die 3, Loss Number 3"),
    ("army", 2, 0, 6, 3, "Extended Example, CP action 3: (SB 1st Army) 1 CF + fort 1, die 6, Loss Number 3"),
    ("army", 10, 0, 6, 7, "Extended Example, CP action 4: GE 3rd + 4th (10 CF), die 6, Loss Number 7"),
    ("army", 3, 0, 5, 3, "Extended Example, CP action 4: (FR 9th Army) + (FR Corps), die 5, Loss Number 3"),
    ("army", 3, 0, 2, 2, "Extended Example, AP action 4: CP fires on the 3 column, die 2, Loss Number 2"),
    ("army", 6, 0, 5, 5, "Extended Example, AP action 5: FR 1st + 4th (6 CF), die 5, Loss Number 5"),
    ("army", 6, 0, 4, 4, "Extended Example, AP action 5: (GE 3rd) + (GE 4th) (6 CF), die 4, Loss Number 4"),
    ("army", 3, -1, 3, 2, "Extended Example, AP action 5: RU 3 CF shifted to the 2 column by mountain Munkacs, die 3, Loss Number 2"),
    ("army", 1, 0, 1, 0, "Extended Example, AP action 5: (AH 2nd Army) 1 CF, die 1, Loss Number 0"),
    ("army", 7, 0, 3, 4, "Combat Example 1: strength 7 on the Army table, die 3, result 4"),
    ("corps", 1, 0, 4, 1, "Combat Example 1: Corps table, 1 column, die 4, result 1"),
    ("army", 9, 1, 6, 7, "Combat Example 2: level 2 trench, defender fires on 12-14, die 5 +1 (Fortified Machine Guns), Loss Number 7"),
    ("army", 13, -2, 4, 4, "Combat Example 2: 13 CF against a level 2 trench fire on the 6-8 column, die 4, Loss Number 4"),
    ("army", 16, -1, 6, 7, "Extended Example, CP action 6: 16 GE CF against Nancy's trench fire on the 15 column; both roll 6"),
    ("army", 5, 1, 6, 5, "Extended Example, CP action 6: FR 2nd Army + Nancy fort (5 CF) fire on the 6-8 column; both roll 6"),
]


@pytest.mark.parametrize("table, strength, shift, roll, loss, where", WORKED, ids=[w[5][:60] for w in WORKED])
def test_worked_examples_of_the_2022_rules(army, corps, table, strength, shift, roll, loss, where):
    assert (army if table == "army" else corps).result(strength, shift, roll) == loss


def test_shifts_stop_at_the_edges_and_the_die_is_clamped(army, corps):
    assert army.result(16, 5, 3) == army.result(16, 0, 3) == 7
    assert army.result(2, -4, 6) == army.result(1, 0, 6) == 2
    assert corps.result(8, 0, 9) == 4 and corps.result(0, 0, -2) == 0


def test_terrain_and_trench_shifts_read_like_the_examples(tables, army):
    effects = tables["terrain_effects"]
    # Belfort (mountain, level 1 trench): "3 CF shifted one column left for trench, and one additional column
    # left for the mountain terrain"; the defender "shifted one column right".
    belfort = effects["terrain"]["mountain"]["attacker_shift"] + effects["trench"]["1"]["attacker_shift"]
    assert belfort == -2 and effects["terrain"]["mountain"]["defender_shift"] + effects["trench"]["1"]["defender_shift"] == 1
    # Nancy (clear, level 1 trench): "The 16 GE CF are shifted to the 15 column. The FR 5 CF are shifted to the 6-8 column."
    clear, trench = effects["terrain"]["clear"], effects["trench"]["1"]
    assert army.columns[army.shifted(16, clear["attacker_shift"] + trench["attacker_shift"])] == "15"
    assert army.columns[army.shifted(5, clear["defender_shift"] + trench["defender_shift"])] == "6-8"
    assert (effects["trench"]["2"]["attacker_shift"], effects["trench"]["2"]["defender_shift"]) == (-2, 1)
    assert [t for t, e in effects["terrain"].items() if not e["flank"]] == ["mountain", "swamp"]
    assert effects["terrain"]["desert"]["stops_advance"] == {"seed": False, "lr2022": True}


def test_numbers_of_the_rules(tables):
    assert tables["mandated_offensive"]["cp"] == {"1": "AH", "2": "AH_IT", "3": "TU", "4": "GE", "5": "none", "6": "none"}
    assert tables["mandated_offensive"]["ap"] == {"1": "FR", "2": "FR", "3": "BR", "4": "IT", "5": "IT", "6": "RU"}
    ws = tables["war_status"]
    assert (ws["limited_war_at"], ws["total_war_at"], ws["armistice_combined_at"], ws["zimmermann_combined_at"]) == (4, 11, 40, 30)
    victory = tables["victory"]
    assert (victory["start_vp"], victory["cp_automatic_at_least"], victory["ap_automatic_at_most"]) == (10, 20, 0)
    assert victory["scenarios"]["campaign"] == {"last_turn": 20, "cp_at_least": 13, "ap_at_most": 9}
    assert victory["scenarios"]["introductory"] == {"last_turn": 3, "cp_at_least": 14, "ap_at_most": 10}
    assert tables["strategic_redeployment"]["cost"] == {"corps": 1, "army": 4}
    assert tables["activation"]["mef_beachhead"] == {"mef_army": 3, "per_other_corps": 1, "rule": "9.2.7.1"}
    assert tables["flank_attack"]["success_at_least"] == 4 and tables["movement"]["stacking_limit"] == 3
    assert tables["turns"]["names"]["20"] == "Winter 1919" and tables["turns"]["names"]["10"] == "Summer 1916"
    assert tables["retreat"]["by_difference"] == {"1": 1} and tables["retreat"]["otherwise"] == 2
    assert tables["replacement_costs"]["source"]["status"] == "supplied"
