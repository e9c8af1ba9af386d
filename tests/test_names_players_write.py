"""Cards and units named as players write them (issue 27, items 1 and 2), in JSON turn files and in the notation:
a card by id, by number in every common form or by name (accents, case and punctuation optional, an unambiguous
beginning); a unit as a Paths of Glory player names it (``AH Corps 5``, ``GE 1``, ``German 1st Army``), from the
module's data; anything that could be two things refused with the candidates. And ``pbem module show --cards``."""

from __future__ import annotations

import dataclasses
import json

import pytest

from pbem.formats.notation import parse_notation
from pbem.formats.turnfile import load_turn
from pbem.model.errors import PbemError
from pbem.model.lookup import find_card, find_units
from pbem.model.module import bundled_modules, load_module
from pbem.model.names import NameIndex, name_forms
from pbem.model.resources import data_dir

SAMPLES = data_dir("samples") / "paths-of-glory"
OPENING = "legal-01-guns-of-august-opening"


@pytest.fixture(scope="module")
def pog():
    return load_module("paths-of-glory")


# --- the generic machinery -----------------------------------------------------------------------------------

def test_name_forms_make_punctuation_accents_case_and_ordinals_optional():
    assert name_forms("A-H Corps #5") & name_forms("AH corps 05")
    assert name_forms("A-H Corps #5") & name_forms("a h corps 5")
    assert name_forms("GE 1st Army") & name_forms("ge 1 army")
    assert name_forms("Blücher") & name_forms("BLUCHER")
    assert not name_forms("1/1/JR16") & name_forms("11/JR16")  # digits are never run together
    assert not name_forms("GE 1st Army") & name_forms("GE 11th Army")


def test_a_beginning_names_a_thing_only_when_one_thing_begins_so():
    index = NameIndex([("a", ["GE 1st Army"]), ("b", ["GE 10th Army"]), ("c", ["Guns of August"]), ("d", ["Gunboats"])])
    assert index.find("GE 1") == {"a"}  # a number is a whole word: never the 10th
    assert index.find("GE 1st") == {"a"}
    assert index.find("GE") == {"a", "b"}
    assert index.find("guns of aug") == {"c"}
    assert index.find("gun") == {"c", "d"}
    assert index.find("Gunz") == set()
    assert index.find("") == set() and index.find("---") == set()


# --- cards ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("written", [
    "CP-03", "CP 3", "cp-3", "CP3", "cp03", "CP #3", "CP-#3", "cp_3", "CP:3",
    "Von Francois", "Von François", "VON-FRANCOIS", "von fr", "CP 3 Von Francois", "CP-03: Von François",
    "Von Francois (CP 3)", "Von Francois [cp-03]",
])
def test_a_card_by_number_in_every_common_form_or_by_name(pog, written):
    assert find_card(pog, written) == ("CP-03", "")


@pytest.mark.parametrize(("written", "card"), [
    ("Guns of August", "CP-01"), ("guns", "CP-01"), ("14 Points", "AP-40"), ("11th Army", "CP-29"),
    ("H-L Take Command", "CP-54"), ("HL Take Command", "CP-54"), ("Achtung Panzer", "CP-62"), ("Blücher", "CP-50"),
    ("Yudenitch", "AP-29"), ("Austria-Hungary Reinforcements (CP 20)", "CP-20"), ("ap 40", "AP-40"),
])
def test_card_names_players_write(pog, written, card):
    assert find_card(pog, written) == (card, "")


@pytest.mark.parametrize(("written", "candidates"), [
    ("3", ["AP-03 Russian Reinforcements", "CP-03 Von Francois"]),
    ("Von", ["CP-03 Von Francois", "CP-43 Von Below", "CP-44 Von Hutier"]),
    ("Austria-Hungary Reinforcements", ["CP-14 Austria-Hungary", "CP-20 Austria-Hungary", "CP-23 Austria-Hungary"]),
])
def test_a_card_name_that_could_be_two_cards_is_refused_with_the_candidates(pog, written, candidates):
    card, refusal = find_card(pog, written)
    assert card is None and "is ambiguous: it could be" in refusal
    assert all(candidate in refusal for candidate in candidates), refusal


def test_an_unknown_card_is_refused_with_the_nearest_names(pog):
    assert find_card(pog, "Gunz of August") == (None, "unknown card 'Gunz of August' (did you mean CP-01 Guns of August?)")
    assert find_card(pog, "CP 99")[0] is None and find_card(pog, "Zz top") == (None, "unknown card 'Zz top'")


def test_a_number_and_a_name_that_disagree_are_refused(pog):
    assert find_card(pog, "CP-03 Guns of August") == (None, "card 'CP-03 Guns of August': CP-03 Von Francois is not 'Guns of August'")


def _opening_json(tmp_path, change) -> tuple:
    data = json.loads((SAMPLES / f"{OPENING}.json").read_text(encoding="utf-8"))
    change(data["actions"])
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return load_turn(path)[0]


def test_json_turns_take_cards_by_name_and_number(tmp_path):
    def by_name(actions):
        actions[1]["card"] = "Guns of August"

    turn = _opening_json(tmp_path, by_name)
    assert turn.actions[1].card == "CP-01"

    def by_number(actions):
        actions[1]["card"] = "cp 1"

    assert _opening_json(tmp_path, by_number).actions[1].card == "CP-01"

    def ambiguous(actions):
        actions[1]["card"] = "Russian Reinforcements"

    with pytest.raises(PbemError, match=r"/actions/1/card.*'Russian Reinforcements' is ambiguous: it could be AP-03"):
        _opening_json(tmp_path, ambiguous)


def _opening_notation(change) -> str:
    return change((SAMPLES / f"{OPENING}.pbem").read_text(encoding="utf-8"))


def test_notation_turns_take_cards_by_name_and_number_and_check_alike(pbem, tmp_path):
    turn = tmp_path / "turn.pbem"
    turn.write_text(_opening_notation(lambda t: t.replace("Card CP-01 as event", "Card Guns of August as event")
                                      .replace("Play AP-03 for ops", "Play AP 3 for ops")
                                      .replace("Card CP-10 as ops", "Card sud army as ops")), encoding="utf-8")
    data = parse_notation(turn.read_text(encoding="utf-8"), "turn.pbem").data
    assert [a["card"] for a in data["actions"] if "card" in a][:3] == ["CP-01", "AP-03", "CP-10"]
    assert pbem("check", turn).out == pbem("check", SAMPLES / f"{OPENING}.pbem").out.replace(str(SAMPLES / f"{OPENING}.pbem"), str(turn))


def test_a_notation_card_refusal_points_at_the_card(pbem, tmp_path):
    turn = tmp_path / "turn.pbem"
    turn.write_text(_opening_notation(lambda t: t.replace("Card CP-01 as event", "Card Russian as event")), encoding="utf-8")
    result = pbem("check", turn)
    assert result.code == 2 and "turn.pbem:8:6: card 'Russian' is ambiguous: it could be AP-03 Russian Reinforcements" in result.err


def test_module_show_lists_the_cards(pbem):
    result = pbem("module", "show", "paths-of-glory", "--cards")
    assert result.code == 0
    lines = result.out.splitlines()
    cards = lines[lines.index("cards:") + 1:]
    assert len(cards) == 130
    assert "  CP-01 Guns of August: cp, OPS 3, SR 4, RP AH 1 GE 2 TU 1, mobilization, removed after event" in cards
    assert "  CP-18 Fortified Machine Guns: cp, OPS 2, SR 2, RP GE 1, limited war, combat card" in cards
    shown = json.loads(pbem("module", "show", "paths-of-glory", "--cards", "--format", "json").out)
    assert shown["cards"] == 130
    assert shown["card_list"][64 + 1] == {
        "id": "CP-01", "number": 1, "name": "Guns of August", "side": "cp", "ops": 3, "sr": 4, "rp": {"AH": 1, "GE": 2, "TU": 1},
        "commitment": "mobilization", "combat_card": False, "removed_after_event": True, "optional": False}
    assert pbem("module", "show", "china-war-1980", "--cards").out.splitlines()[-1] == "cards: none (the module has no cards)"


# --- units ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("written", "unit"), [
    ("AH Corps 5", "AH-CORPS-05"), ("A-H Corps 5", "AH-CORPS-05"), ("Austrian Corps #5", "AH-CORPS-05"),
    ("GE 1", "GE-1-ARMY"), ("GE 1st Army", "GE-1-ARMY"), ("German 1st Army", "GE-1-ARMY"), ("Germany 1", "GE-1-ARMY"),
    ("GE 10", "GE-10-ARMY"), ("German Corps 3", "GE-CORPS-03"), ("French 5th Army", "FR-5-ARMY"),
    ("Turkish YLD Army", "TU-YLD-ARMY"), ("American 1st Army", "US-1-ARMY"),
])
def test_units_as_paths_of_glory_players_name_them(pog, written, unit):
    assert find_units(pog, written) == {unit}


def test_nation_names_come_from_the_module_data(pog):
    assert find_units(dataclasses.replace(pog, nationalities={}), "German 1st Army") == set()
    assert find_units(dataclasses.replace(pog, nationalities={"GE": ("Teutonic",)}), "Teutonic 1st Army") == {"GE-1-ARMY"}


def test_a_unit_name_that_could_be_two_units_is_refused_with_the_candidates(pbem, tmp_path):
    turn = tmp_path / "turn.pbem"
    turn.write_text(_opening_notation(lambda t: t.replace("GE Corps 11: Oppeln", "German Corps: Oppeln")), encoding="utf-8")
    result = pbem("check", turn)
    assert result.code == 2 and "unit 'German Corps' is ambiguous: it could be GE-CORPS-01, GE-CORPS-02" in result.err

    def ambiguous(actions):
        actions[11]["move"] = "GE"

    with pytest.raises(PbemError, match=r"/actions/11/move.*unit 'GE' is ambiguous: it could be GE-1-ARMY"):
        _opening_json(tmp_path, ambiguous)


def test_json_and_notation_turns_take_units_as_players_name_them(pbem, tmp_path):
    def named(actions):
        actions[12]["move"] = "AH 2nd Army"
        actions[2]["attack"] = ["German 1st Army", "GE 2", "Germany 3rd Army"]

    turn = _opening_json(tmp_path, named)
    assert turn.actions[12].units == ("AH-2-ARMY",) and turn.actions[2].attackers == ("GE-1-ARMY", "GE-2-ARMY", "GE-3-ARMY")
    written = tmp_path / "turn.pbem"
    written.write_text(_opening_notation(lambda t: t.replace("AH 2nd Army: Munkacs", "AH 2: Munkacs")
                                         .replace("GE 1st Army + GE 2nd Army + GE 3rd Army attack", "German 1st Army + GE 2 + German 3rd Army attack")
                                         .replace("A-H Corps 1", "AH Corps 1")), encoding="utf-8")
    assert pbem("check", written).code == 0


@pytest.mark.parametrize("module_path", bundled_modules(), ids=lambda p: p.name)
def test_every_unit_name_a_module_gives_still_names_its_unit(module_path):
    """What resolved before resolves the same: each id, name and alias names its own unit (unless the module
    gives one name to two units)."""
    module = load_module(module_path)
    owners: dict[str, set[str]] = {}
    for unit in module.units.values():
        for name in (unit.id, unit.name, *unit.aliases):
            if name:
                owners.setdefault(" ".join(name.split()).casefold(), set()).add(unit.id)
    wrong = [(name, unit.id) for unit in module.units.values() for name in (unit.id, unit.name, *unit.aliases)
             if name and len(owners[" ".join(name.split()).casefold()]) == 1 and unit.id not in find_units(module, name)]
    assert not wrong, wrong[:5]


def test_the_documented_paths_of_glory_turn_writes_cards_by_name():
    # tests/test_notation_doc_examples.py checks it is legal, with every other documented turn
    from pathlib import Path

    docs = Path(__file__).resolve().parents[1] / "docs" / "notation.md"
    example = docs.read_text(encoding="utf-8").split("## A Paths of Glory turn", 1)[1].split("```")[1].lstrip("\n")
    assert "Card Guns of August as ops" in example
    cards = [a["card"] for a in parse_notation(example, "docs.pbem").data["actions"] if "card" in a]
    assert cards[:2] == ["CP-01", "AP-03"]
