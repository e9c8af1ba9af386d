"""China War 1980 tables and counters, checked cell by cell against literals typed from the rulebook.

Every expected value below was typed from the Chinese rulebook (3.22, 5.2, 8.0/9.0, 9.6, 10.1-10.7, 10.23), not
read from the JSON, so a wrong cell in the data names itself in the failing test's id.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parents[1]
MODULE = ROOT / "modules" / "china-war-1980"
SCHEMAS = ROOT / "schemas"


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


TABLES = _load(MODULE / "tables.json")
COUNTERS = _load(MODULE / "counters.json")

# --- 9.6 Combat Results Table -------------------------------------------------------------------------------------

ODDS = ["1/4", "1/3", "1/2", "1/1", "2/1", "3/1", "4/1", "5/1", "6/1", "7/1"]

CRT_ROWS = {
    #       1/4    1/3    1/2    1/1    2/1    3/1    4/1    5/1    6/1    7/1
    "R1": ["E/-", "E/-", "E/-", "E/-", "E/-", "1/-", "1/-", "1/-", "1/1", "1/1"],
    "R2": ["E/-", "E/-", "E/-", "1/-", "1/-", "1/-", "1/-", "1/1", "1/1", "1/1"],
    "R3": ["E/-", "E/-", "E/-", "1/-", "1/-", "1/-", "1/-", "1/1", "1/1", "-/1"],
    "R4": ["E/-", "E/-", "E/-", "1/-", "-/-", "-/-", "1/1", "1/1", "-/1", "-/1"],
    "R5": ["E/-", "E/-", "E/-", "-/-", "-/-", "1/1", "1/1", "-/1", "-/1", "-/1"],
    "R6": ["E/-", "E/-", "1/-", "-/-", "1/1", "1/1", "-/1", "-/1", "-/1", "-/E"],
    "R7": ["E/-", "1/-", "1/-", "1/1", "1/1", "-/1", "-/1", "-/1", "-/E", "-/E"],
    "R8": ["1/-", "1/-", "1/1", "1/1", "-/1", "-/1", "-/E", "-/E", "-/E", "-/E"],
    "R9": ["1/-", "1/1", "1/1", "-/1", "-/1", "-/E", "-/E", "-/E", "-/E", "-/E"],
}

# Which result row each die face reads in each terrain die-row column (digest 4.2 / 5).
DIE_ROWS = {
    "A": {1: "R4", 2: "R5", 3: "R6", 4: "R7", 5: "R8", 6: "R9"},
    "B": {1: "R3", 2: "R4", 3: "R5", 4: "R6", 5: "R7", 6: "R8"},
    "C": {1: "R2", 2: "R3", 3: "R4", 4: "R5", 5: "R6", 6: "R7"},
    "D": {1: "R1", 2: "R2", 3: "R3", 4: "R4", 5: "R5", 6: "R6"},
}

# The die digits printed beside each result row, left to right (columns A, B, C, D; blanks skipped).
PRINTED_DIE_DIGITS = {
    "R1": [1], "R2": [1, 2], "R3": [1, 2, 3], "R4": [1, 2, 3, 4], "R5": [2, 3, 4, 5],
    "R6": [3, 4, 5, 6], "R7": [4, 5, 6], "R8": [5, 6], "R9": [6],
}

CRT_CELLS = [(row, i, result) for row, results in CRT_ROWS.items() for i, result in enumerate(results)]


@pytest.mark.parametrize(("row", "index", "expected"), CRT_CELLS,
                         ids=[f"{row}-{ODDS[i]}" for row, i, _ in CRT_CELLS])
def test_crt_cell(row, index, expected):
    assert TABLES["crt"]["rows"][row][index] == expected


def test_crt_columns_and_shape():
    crt = TABLES["crt"]
    assert crt["columns"] == ODDS
    assert list(crt["rows"]) == [f"R{n}" for n in range(1, 10)]
    assert all(len(results) == 10 for results in crt["rows"].values())


@pytest.mark.parametrize(("column", "die"), [(c, d) for c in "ABCD" for d in range(1, 7)],
                         ids=[f"{c}-die{d}" for c in "ABCD" for d in range(1, 7)])
def test_crt_die_row(column, die):
    assert TABLES["crt"]["die_rows"][column][str(die)] == DIE_ROWS[column][die]


def test_crt_die_rows_have_no_extra_columns_or_faces():
    die_rows = TABLES["crt"]["die_rows"]
    assert set(die_rows) == {"A", "B", "C", "D"}
    assert all(set(faces) == {"1", "2", "3", "4", "5", "6"} for faces in die_rows.values())


@pytest.mark.parametrize("row", list(PRINTED_DIE_DIGITS))
def test_die_rows_reproduce_printed_digits(row):
    """Reading the mapping back gives exactly the digits printed beside each row, in column order A-D."""
    die_rows = TABLES["crt"]["die_rows"]
    digits = [int(face) for column in "ABCD" for face, target in die_rows[column].items() if target == row]
    assert digits == PRINTED_DIE_DIGITS[row]


def test_die_row_terrain_names_every_column():
    terrain = TABLES["crt"]["die_row_terrain"]
    assert set(terrain) == {"A", "B", "C", "D"}
    assert "armour" in terrain["A"] and "clear" in terrain["A"]
    assert "forest" in terrain["B"]
    assert "pop-100" in terrain["C"] and "mountain" in terrain["C"]
    assert "pop-200" in terrain["D"]


# --- Odds-shift summary (printed with 9.6) --------------------------------------------------------------------------

SHIFTS = [  # id, columns, direction, rule — in printed order
    ("mech_infantry_desert", 1, "defender", "10.41"),
    ("armour_desert", 2, "owner", "10.41"),
    ("mongolian_desert", 1, "soviet", "10.42"),
    ("mountain_non_mech", 1, "owner", "10.33"),
    ("soviet_first_line", 1, "soviet", "9.41"),
    ("pla_first_line", 2, "chinese", "9.42"),
    ("pla_second_line", 1, "chinese", "9.41"),
    ("vietnamese", 3, "soviet", "9.43"),
    ("taiwanese", 1, "owner", "9.41"),
    ("north_korean", 1, "owner", "9.41"),
    ("out_of_supply", 3, "against_unsupplied", "9.51"),
    ("prepared_position", 1, "left", "10.5"),
    ("pla_mass_attack", 2, "right", "9.54"),
    ("chemical_vs_pla_first_line", 1, "right", "9.52"),
    ("chemical_vs_other_pla", 2, "right", "9.52"),
    ("electronic_warfare", 1, "soviet", "9.53"),
    ("flank_attack", 1, "right", "9.55"),
    ("river", 2, "left", "10.12"),
]


def test_shift_ids_in_printed_order():
    assert [entry["id"] for entry in TABLES["column_shifts"]["entries"]] == [s[0] for s in SHIFTS]


@pytest.mark.parametrize(("position", "shift_id", "columns", "direction", "rule"),
                         [(n, *s) for n, s in enumerate(SHIFTS)], ids=[s[0] for s in SHIFTS])
def test_shift_entry(position, shift_id, columns, direction, rule):
    entry = TABLES["column_shifts"]["entries"][position]
    assert entry["id"] == shift_id
    assert (entry["columns"], entry["direction"], entry["rule"]) == (columns, direction, rule)
    assert entry["condition"].strip()


# --- 5.2 Political events ---------------------------------------------------------------------------------------------

POLITICAL = {  # row = modified Chinese die; position = modified Soviet die - 1
    1: "B E D F G C G F",
    2: "B J E D F G F G",
    3: "H E B E D F G F",
    4: "F H E B E D F G",
    5: "G F H E J E D F",
    6: "C G F H E B E D",
    7: "A F A F H E B E",
    8: "F A F A F H E J",
}
POLITICAL_CELLS = [(cn, sov, letter) for cn, row in POLITICAL.items() for sov, letter in enumerate(row.split(), 1)]

EVENTS = {
    "A": ("NATO", "allied_prc"),
    "B": ("North Korea", "allied_prc"),
    "C": ("Vietnam", "neutral"),
    "D": ("Taiwan", "neutral"),
    "E": ("North Korea", "neutral"),
    "F": ("Vietnam", "allied_ussr"),
    "G": ("NATO", "neutral"),
    "H": ("Taiwan", "allied_ussr"),
    "J": ("North Korea", "allied_ussr"),
}


def political_event(chinese: int, soviet: int) -> str:
    table = TABLES["political_events"]
    assert (table["row_die"], table["column_die"]) == ("chinese", "soviet")
    return table["rows"][str(chinese)][soviet - 1]


@pytest.mark.parametrize(("chinese", "soviet", "expected"), POLITICAL_CELLS,
                         ids=[f"cn{cn}-sov{sov}" for cn, sov, _ in POLITICAL_CELLS])
def test_political_cell(chinese, soviet, expected):
    assert political_event(chinese, soviet) == expected


def test_political_shape():
    rows = TABLES["political_events"]["rows"]
    assert list(rows) == [str(n) for n in range(1, 9)]
    assert all(len(letters) == 8 for letters in rows.values())


def test_political_worked_example():
    """5.0: Chinese rolls 4, +1 for the VP modifier = 5; Soviet rolls 1 -> G, NATO declares neutrality."""
    assert political_event(4 + 1, 1) == "G"
    assert TABLES["political_events"]["events"]["G"]["power"] == "NATO"
    assert TABLES["political_events"]["events"]["G"]["outcome"] == "neutral"


@pytest.mark.parametrize(("code", "power", "outcome"), [(c, *v) for c, v in EVENTS.items()], ids=list(EVENTS))
def test_political_event(code, power, outcome):
    event = TABLES["political_events"]["events"][code]
    assert (event["power"], event["outcome"]) == (power, outcome)
    assert event["text"].strip()


def test_political_event_codes_complete():
    events = TABLES["political_events"]["events"]
    assert set(events) == set(EVENTS)  # there is no I
    used = {letter for letters in TABLES["political_events"]["rows"].values() for letter in letters}
    assert used == set(EVENTS)


def test_political_modifiers():
    assert TABLES["political_events"]["modifiers"] == [
        {"die": "soviet", "value": 1, "condition": "soviet_resources_30"},
        {"die": "soviet", "value": 1, "condition": "soviet_vp_100"},
        {"die": "chinese", "value": 1, "condition": "soviet_nuclear_used_100"},
        {"die": "chinese", "value": 1, "condition": "soviet_vp_below_100"},
    ]


# --- 8.0 Stacking ------------------------------------------------------------------------------------------------------

STACKING = {"clear": 10, "desert": 10, "forest": 3, "mountain": 3, "pop200": 20, "pop100": 15}


@pytest.mark.parametrize(("terrain", "limit"), list(STACKING.items()), ids=list(STACKING))
def test_stacking_limit(terrain, limit):
    assert TABLES["stacking"]["limits"][terrain] == limit


def test_stacking_weights_and_no_extra_terrain():
    assert TABLES["stacking"]["unit_weight"] == {"XX": 1, "XXX": 3}
    assert set(TABLES["stacking"]["limits"]) == set(STACKING)


# --- Movement costs (6.13, 10.1-10.4, 10.7) ------------------------------------------------------------------------

MOVEMENT = {  # terrain: (mechanized, non-mechanized)
    "clear": (1, 1),
    "forest": (3, 1),
    "mountain": (3, 2),
    "desert": (1, 1),  # supplied by the module author
}
MOVEMENT_CELLS = [(t, cls, cost) for t, costs in MOVEMENT.items()
                  for cls, cost in zip(("mechanized", "non_mechanized"), costs)]


@pytest.mark.parametrize(("terrain", "movement_class", "cost"), MOVEMENT_CELLS,
                         ids=[f"{t}-{c}" for t, c, _ in MOVEMENT_CELLS])
def test_movement_cost(terrain, movement_class, cost):
    assert TABLES["movement_costs"]["terrain"][terrain][movement_class] == cost


def test_movement_river_road_impassable():
    table = TABLES["movement_costs"]
    assert set(table["terrain"]) == set(MOVEMENT)
    assert table["river_extra"] == {"mechanized": 1, "non_mechanized": 0}
    assert table["road"] == {"mechanized": 1, "non_mechanized": 1, "not_reduced": {"mechanized": ["mountain"]}}
    assert table["impassable"] == []


def test_movement_worked_values():
    """10.71/10.22: mech into forest+river 4; non-mech into forest+river 1; mech into mountain pop-100 still 3."""
    table = TABLES["movement_costs"]
    assert table["terrain"]["forest"]["mechanized"] + table["river_extra"]["mechanized"] == 4
    assert table["terrain"]["forest"]["non_mechanized"] + table["river_extra"]["non_mechanized"] == 1
    assert "mountain" in table["road"]["not_reduced"]["mechanized"]
    assert table["terrain"]["mountain"]["mechanized"] == 3


def test_desert_and_impassable_are_marked_supplied():
    assert set(TABLES["movement_costs"]["supplied"]) == {"terrain.desert", "impassable"}
    assert set(TABLES["crt_terrain_rows"]["supplied"]) == {"terrain.desert"}


# --- Terrain -> CRT die-row column (9.3, 10.72) ------------------------------------------------------------------

TERRAIN_ROWS = {"clear": "A", "forest": "B", "mountain": "C", "pop100": "C", "pop200": "D", "desert": "A"}


@pytest.mark.parametrize(("terrain", "column"), list(TERRAIN_ROWS.items()), ids=list(TERRAIN_ROWS))
def test_crt_terrain_row(terrain, column):
    assert TABLES["crt_terrain_rows"]["terrain"][terrain] == column


def test_crt_terrain_armour_and_preference():
    table = TABLES["crt_terrain_rows"]
    assert set(table["terrain"]) == set(TERRAIN_ROWS)
    assert table["armour"] == "A"
    assert table["preference"] == ["D", "C", "B", "A"]


def test_crt_nine_point_zero_example():
    """9.0: 7/1 with net 2 left is 5/1; a PLA unit in mountain reads column C, so die 1 reads R2: 1/1."""
    final = ODDS[ODDS.index("7/1") - 2]
    column = TABLES["crt_terrain_rows"]["terrain"]["mountain"]
    row = TABLES["crt"]["die_rows"][column]["1"]
    assert (final, column, row) == ("5/1", "C", "R2")
    assert TABLES["crt"]["rows"][row][TABLES["crt"]["columns"].index(final)] == "1/1"


# --- 10.23 Militia -------------------------------------------------------------------------------------------------

def test_militia():
    table = TABLES["militia"]
    assert (table["pop200"], table["pop100"], table["nationalities"]) == (2, 1, ["China", "Vietnam"])


# --- Sources -------------------------------------------------------------------------------------------------------

SECTIONS = {
    "crt": "9.6", "column_shifts": "9.6", "political_events": "5.2", "stacking": "8.0",
    "movement_costs": "6.13, 10.1-10.4, 10.7", "crt_terrain_rows": "9.3", "militia": "10.23",
}


@pytest.mark.parametrize(("table", "section"), list(SECTIONS.items()), ids=list(SECTIONS))
def test_table_source(table, section):
    source = TABLES[table]["source"]
    assert source["section"] == section
    assert source["status"] == "transcribed"
    assert source["note"].strip()
    assert all(why.strip() for why in TABLES[table]["supplied"].values())


def test_no_unicode_minus_in_results():
    """Results use the ASCII hyphen; the PDF prints U+2212."""
    text = (MODULE / "tables.json").read_text(encoding="utf-8")
    assert "\u2212" not in text


# --- 3.22 Counters -------------------------------------------------------------------------------------------------

# id: (side, nationality, arm, size, quality, mechanized, retreats, faces front first, unit-id prefix)
COUNTER_TYPES = {
    "sov_marine_xx": ("soviet", "USSR", "marine", "XX", 1, False, False, ["1-2-3", "0-1-3"], "SOV-MAR-XX-1"),
    "sov_airborne_xx": ("soviet", "USSR", "airborne", "XX", 1, False, False, ["2-3-3", "1-2-3"], "SOV-AB-XX-1"),
    "sov_tank_xx_1": ("soviet", "USSR", "armour", "XX", 1, True, True, ["6-6-9", "3-3-9"], "SOV-TK-XX-1"),
    "sov_tank_xx_2": ("soviet", "USSR", "armour", "XX", 2, True, True, ["5-5-9", "3-3-9"], "SOV-TK-XX-2"),
    "sov_mech_xx_1": ("soviet", "USSR", "mechanized_infantry", "XX", 1, True, True, ["5-5-9", "2-2-9"], "SOV-MR-XX-1"),
    "sov_mech_xx_2": ("soviet", "USSR", "mechanized_infantry", "XX", 2, True, True, ["4-4-9", "2-2-9"], "SOV-MR-XX-2"),
    "tw_inf_xxx": ("neutral", "Taiwan", "infantry", "XXX", None, False, True, ["8-15-3", "3-7-3"], "TW-INF-XXX"),
    "tw_tank_xx": ("neutral", "Taiwan", "armour", "XX", None, True, True, ["4-4-9", "2-2-9"], "TW-TK-XX"),
    "vn_inf_xxx": ("neutral", "Vietnam", "infantry", "XXX", None, False, True, ["11-18-3", "5-9-2"], "VN-INF-XXX"),
    "vn_mech_xxx": ("neutral", "Vietnam", "mechanized_infantry", "XXX", None, True, True, ["18-22-9", "9-12-9"],
                    "VN-MECH-XXX"),
    "la_inf_xx": ("neutral", "Laos", "infantry", "XX", None, False, False, ["2-3-2", "1-2-2"], "LA-INF-XX"),
    "nk_inf_xxx": ("neutral", "North Korea", "infantry", "XXX", None, False, True, ["8-15-3", "4-8-2"], "NK-INF-XXX"),
    "nk_mech_xxx": ("neutral", "North Korea", "mechanized_infantry", "XXX", None, True, True, ["15-20-9", "7-10-9"],
                    "NK-MECH-XXX"),
    "nk_tank_xx": ("neutral", "North Korea", "armour", "XX", None, True, True, ["4-4-9", "2-2-9"], "NK-TK-XX"),
    "pla_inf_xxx_1": ("chinese", "PLA", "infantry", "XXX", 1, False, True, ["10-16-3", "7-9-2"], "PLA-INF-XXX-1"),
    "pla_inf_xx_1": ("chinese", "PLA", "infantry", "XX", 1, False, True, ["2-4-3", "1-2-2"], "PLA-INF-XX-1"),
    "pla_inf_xxx_2": ("chinese", "PLA", "infantry", "XXX", 2, False, False, ["7-13-3", "4-8-2"], "PLA-INF-XXX-2"),
    "pla_inf_xx_2": ("chinese", "PLA", "infantry", "XX", 2, False, False, ["1-3-2", "1-2-2"], "PLA-INF-XX-2"),
    "pla_inf_xxx_3": ("chinese", "PLA", "infantry", "XXX", 3, False, False, ["5-11-2"], "PLA-INF-XXX-3"),
    "pla_inf_xx_3": ("chinese", "PLA", "infantry", "XX", 3, False, False, ["1-2-2"], "PLA-INF-XX-3"),
    "pla_airborne_xx": ("chinese", "PLA", "airborne", "XX", 1, False, False, ["1-3-2", "0-2-2"], "PLA-AB-XX-1"),
    "pla_border_xx": ("chinese", "PLA", "border", "XX", 3, False, False, ["0-1-2"], "PLA-BDR-XX-3"),
    "pla_tank_xx_1": ("chinese", "PLA", "armour", "XX", 1, True, True, ["4-4-9", "2-2-9"], "PLA-TK-XX-1"),
}
FIELDS = ("side", "nationality", "arm", "size", "quality", "mechanized", "retreats")
TYPE_CELLS = [(type_id, field, value) for type_id, spec in COUNTER_TYPES.items()
              for field, value in zip(FIELDS, spec[:7])]
FACE_CELLS = [(type_id, n, face) for type_id, spec in COUNTER_TYPES.items() for n, face in enumerate(spec[7])]


def test_counter_type_ids():
    assert set(COUNTERS["counter_types"]) == set(COUNTER_TYPES)


@pytest.mark.parametrize(("type_id", "field", "expected"), TYPE_CELLS,
                         ids=[f"{t}-{f}" for t, f, _ in TYPE_CELLS])
def test_counter_type_field(type_id, field, expected):
    assert COUNTERS["counter_types"][type_id][field] == expected


@pytest.mark.parametrize(("type_id", "position", "face"), FACE_CELLS,
                         ids=[f"{t}-{'front' if n == 0 else 'back'}" for t, n, _ in FACE_CELLS])
def test_counter_face(type_id, position, face):
    step = COUNTERS["counter_types"][type_id]["steps"][position]
    assert f"{step['attack']}-{step['defence']}-{step['move']}" == face


@pytest.mark.parametrize("type_id", list(COUNTER_TYPES))
def test_counter_step_count_and_source(type_id):
    entry = COUNTERS["counter_types"][type_id]
    assert len(entry["steps"]) == len(COUNTER_TYPES[type_id][7])
    assert entry["source"] == "3.22"
    assert entry["name"].strip()


@pytest.mark.parametrize("type_id", ["sov_airborne_xx", "la_inf_xx", "pla_inf_xxx_3", "pla_inf_xx_3", "pla_border_xx"])
def test_ambiguous_types_carry_a_note(type_id):
    assert len(COUNTERS["counter_types"][type_id]["note"]) > 40


def test_mechanized_types_move_nine():
    for type_id, entry in COUNTERS["counter_types"].items():
        if entry["mechanized"]:
            assert all(step["move"] == 9 for step in entry["steps"]), type_id


# --- Order of battle -----------------------------------------------------------------------------------------------

def test_unit_ids_unique():
    counts = Counter(unit["id"] for unit in COUNTERS["units"])
    assert [uid for uid, n in counts.items() if n > 1] == []


def test_every_unit_type_exists():
    types = COUNTERS["counter_types"]
    assert [u["id"] for u in COUNTERS["units"] if u["type"] not in types] == []


@pytest.mark.parametrize("type_id", list(COUNTER_TYPES))
def test_units_of_type_follow_the_id_pattern(type_id):
    ids = [u["id"] for u in COUNTERS["units"] if u["type"] == type_id]
    assert ids, f"no unit of type {type_id}"
    pattern = re.compile(re.escape(COUNTER_TYPES[type_id][8]) + r"-\d{2}$")
    assert [uid for uid in ids if not pattern.match(uid)] == []


def test_order_of_battle_size_and_supplied_note():
    assert 180 <= len(COUNTERS["units"]) <= 200
    assert COUNTERS["supplied"]["units"].startswith("formation numbers and counts are not in the source")


# --- Schemas -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["tables", "counters"])
def test_schema_is_valid_and_data_conforms(name):
    schema = _load(SCHEMAS / f"{name}.schema.json")
    Draft202012Validator.check_schema(schema)
    assert schema["$id"] == f"https://pbem.invalid/schemas/{name}.schema.json"
    errors = [f"{list(e.absolute_path)}: {e.message}"
              for e in Draft202012Validator(schema).iter_errors(_load(MODULE / f"{name}.json"))]
    assert errors == []


@pytest.mark.parametrize(("name", "pointer", "bad"), [
    ("tables", ("crt", "rows", "R1", 0), "E/\u2212"),
    ("tables", ("crt", "source", "status"), "guessed"),
    ("tables", ("column_shifts", "entries", 0, "direction"), "up"),
    ("tables", ("political_events", "events", "A", "outcome"), "maybe"),
    ("tables", ("stacking", "surprise"), 1),
    ("counters", ("counter_types", "sov_tank_xx_1", "steps", 0, "attack"), "6"),
    ("counters", ("counter_types", "sov_tank_xx_1", "colour"), "red"),
    ("counters", ("units", 0, "type"), "Tank"),
], ids=lambda v: "/".join(map(str, v)) if isinstance(v, tuple) else None)
def test_schema_rejects(name, pointer, bad):
    data = _load(MODULE / f"{name}.json")
    target = data
    for key in pointer[:-1]:
        target = target[key]
    target[pointer[-1]] = bad
    schema = _load(SCHEMAS / f"{name}.schema.json")
    assert not Draft202012Validator(schema).is_valid(data)
