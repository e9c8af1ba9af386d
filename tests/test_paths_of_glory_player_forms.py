"""Issue 27.3: Paths of Glory as its players write it, each form with a legal and a refused case: the flank roll's
claimed modifier (12.3.2), the replacing corps named by its kind (12.4.4), a file that starts at its own side's
action round (8.1.1). The turn is the notation doc's own (docs/notation.md), changed one line at a time."""

import re
from pathlib import Path

import pytest

from pbem.formats.notation import parse_notation, write_notation

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def doc_turn() -> str:
    text = (REPO / "docs" / "notation.md").read_text()
    return re.search(r"## A Paths of Glory turn.*?```\n(.*?)```", text, re.S).group(1)


def check(pbem, tmp_path, text: str):
    path = tmp_path / "turn.pbem"
    path.write_text(text)
    return pbem("check", str(path))


def test_12_3_2_the_flank_roll_s_claimed_modifier_is_checked(pbem, tmp_path, doc_turn):
    right = doc_turn.replace("flank Kamenets Podolski roll 4,", "flank Kamenets Podolski roll 4 +1,")
    assert right != doc_turn
    result = check(pbem, tmp_path, right)
    assert result.code == 0, result.out
    wrong = check(pbem, tmp_path, right.replace("roll 4 +1,", "roll 4 +2,"))
    assert wrong.code == 1 and "rule 12.3.2 [mismatch] the flank roll's modifier is +1 (attacking spaces not joined to another enemy-occupied space: Dubno), not +2" in wrong.out


def test_12_4_4_the_replacing_corps_named_by_its_kind_is_picked_from_the_reserve_box(pbem, tmp_path, doc_turn):
    by_kind = doc_turn.replace("replace AH 3rd Army by A-H Corps 1", "replace AH 3rd Army by an Austrian corps")
    by_kind = by_kind.replace("retreat A-H Corps 1 to", "retreat AH 3rd Army to")  # the corps takes the army's place
    assert by_kind.count("an Austrian corps") == 1 and "retreat AH 3rd Army" in by_kind
    result = check(pbem, tmp_path, by_kind)
    assert result.code == 0, result.out
    refused = check(pbem, tmp_path, by_kind.replace("an Austrian corps", "a GE corps"))
    assert refused.code == 1 and "rule 12.4.4 [illegal] AH 3rd Army is to be replaced by a GE corps: none of that kind" in refused.out


def test_a_kind_reads_and_writes_back_in_json_and_notation(doc_turn):
    text = doc_turn.replace("replace AH 3rd Army by A-H Corps 1", "replace AH 3rd Army by a AH corps").replace("Podolski roll 4,", "Podolski roll 4 +1,")
    document = parse_notation(text, "turn.pbem").data
    attack = [a for a in document["actions"] if "attack" in a][1]
    assert attack["replacements"] == {"AH-3-ARMY": "a AH corps"} and attack["flank"]["drm"] == 1
    written = write_notation(document)
    assert "replace AH-3-ARMY by a AH corps" in written and "roll 4 +1" in written
    assert parse_notation(written, "again.pbem").data["actions"] == document["actions"]


ALLIED = """Game: Paths of Glory
Turn: 1
Side: {side}
{start}

== Action round {round} ({round_side}) ==
Card none as automatic
"""


@pytest.fixture
def set_up(pbem, tmp_path):
    """The 1914 set-up as a state file (pbem state new), which records no action round."""
    assert pbem("state", "new", "paths-of-glory", "--scenario", "1914", "--out", str(tmp_path / "s0.json")).code == 0
    return tmp_path


@pytest.mark.parametrize("side, number, start", [
    ("AP", 1, "Start: s0.json"),  # an Allied-only file from a state: no CP round before it
    ("CP", 3, "Start: s0.json"),
    ("AP", 1, "Scenario: 1914\nStarts: action round 1 (ap)"),  # from the scenario, said in the header
])  # fmt: skip
def test_8_1_1_a_file_starts_at_any_round_of_its_own_side(pbem, set_up, side, number, start):
    result = check(pbem, set_up, ALLIED.format(side=side, round=number, round_side=side, start=start))
    assert result.code == 0, result.out


def test_8_1_1_a_round_out_of_turn_is_still_illegal(pbem, set_up):
    # From the scenario's opening the CP acts first; a CP file does not open with the AP's round.
    for side, round_side, start in (("AP", "AP", "Scenario: 1914"), ("CP", "AP", "Start: s0.json")):
        result = check(pbem, set_up, ALLIED.format(side=side, round=1, round_side=round_side, start=start))
        assert result.code == 1 and "rule 8.1.1 [illegal] action round 1 of the AP comes out of turn" in result.out
    # After its first round the file follows the sequence: the CP's round 5 does not follow the AP's round 3.
    later = ALLIED.format(side="AP", round=3, round_side="AP", start="Start: s0.json") + "\n== Action round 5 (CP) ==\nCard none as automatic\n"
    result = check(pbem, set_up, later)
    assert result.code == 1 and "next is round 4 of the CP" in result.out


def test_the_readme_s_paths_of_glory_turn_is_legal_and_explained_as_shown(pbem, tmp_path):
    readme = (REPO / "README.md").read_text()
    section = readme.split("### A Paths of Glory turn, as its players write it", 1)[1]
    turn, shown = re.findall(r"```(?:console)?\n(.*?)```", section, re.S)[:2]
    assert "Card Guns of August as ops" in turn and "Card Russian Reinforcements (AP 3) as ops" in turn
    (tmp_path / "t01-cp.pbem").write_text(turn)
    result = pbem("check", str(tmp_path / "t01-cp.pbem"), "--explain")
    printed = [line.replace(str(tmp_path) + "/", "") for line in result.out.splitlines()]
    assert result.code == 0 and printed == shown.splitlines()[1:]


SR_ROUND = """Game: Paths of Glory
Scenario: 1914
Turn: 1
Side: AP
Starts: action round 1 (ap)

== Action round 1 (AP) ==
Card AP-05 as sr
{lines}
"""


def test_13_1_sr_has_one_form_overland_and_through_the_reserve_box(pbem, tmp_path):
    # The old forms (move by strategic, reinforce, remove to reserve) still read: the samples keep them.
    result = check(pbem, tmp_path, SR_ROUND.format(lines="SR FR Corps 1: Reserve - Verdun\nSR FR Corps 10: Grenoble - reserve"))
    assert result.code == 0, result.out
    overland = check(pbem, tmp_path, SR_ROUND.format(lines="SR FR Corps 10: Grenoble - Lyon - Nevers"))
    assert overland.code == 0, overland.out
    written = pbem("convert", str(tmp_path / "turn.pbem"), "--to", "json").out
    assert '"sr": "FR-CORPS-10"' in written and '"Nevers"' in written


def test_13_1_sr_forms_that_break_a_rule_or_cannot_be_read(pbem, tmp_path):
    army = check(pbem, tmp_path, SR_ROUND.format(lines="SR FR 5th Army: reserve - Verdun"))
    assert army.code == 1 and "rule 13.1.8" in army.out
    by_sea = check(pbem, tmp_path, SR_ROUND.format(lines="SR FR 5th Army: Sedan - Bar le Duc - Verdun by sea"))
    assert by_sea.code == 1 and "rule 13.1.7" in by_sea.out
    through = check(pbem, tmp_path, SR_ROUND.format(lines="SR FR Corps 10: Grenoble - reserve - Verdun"))
    assert through.code == 2 and "an SR path names a box first or last only" in through.err


ITALY = """Game: Paths of Glory
Turn: 2
Side: AP
Start: state.json

== Action round 1 (AP) ==
Card Italy as event
{lines}
== Action round 2 (CP) ==
Card none as automatic
"""


@pytest.fixture
def limited_war(tmp_path):
    """The 1914 set-up at turn 2 with both sides at Limited War, so Italy's card may be played."""
    import json

    data = json.loads((REPO / "modules" / "paths-of-glory" / "scenarios" / "1914.json").read_text())
    data = {k: v for k, v in data.items() if k not in ("$schema", "id", "last_turn", "note", "source", "title")}
    data["turn"] = 2
    data["status"].update(war_status={"ap": 5, "cp": 5}, combined_war_status=10, commitment={"ap": "limited_war", "cp": "limited_war"})
    (tmp_path / "state.json").write_text(json.dumps(data))
    return tmp_path


def _where(pbem, folder, turn: str) -> dict:
    import json

    (folder / "turn.pbem").write_text(turn)
    result = pbem("check", str(folder / "turn.pbem"), "--write-state", str(folder / "after.json"))
    assert result.code == 0, result.out
    return {u["id"]: (u["at"], u.get("step", 0)) for u in json.loads((folder / "after.json").read_text())["units"]}


def test_4_2_2_an_entering_nation_sets_up_by_itself_unless_written_otherwise(pbem, limited_war):
    placed = _where(pbem, limited_war, ITALY.format(lines=""))
    assert placed["IT-1-ARMY"] == ("Verona", 1) and placed["IT-CORPS-07"] == ("Taranto", 0)
    assert [placed[f"IT-CORPS-0{n}"][0] for n in range(1, 5)] == ["reserve"] * 4
    assert placed["IT-5-ARMY"][0] == "reinforcements"  # not in the set-up: it comes by its card
    # Written otherwise: corps 7 takes Rome's corps place, so corps 6 fills Taranto's.
    written = _where(pbem, limited_war, ITALY.format(lines="Reinforce IT Corps 7 at Rome\n"))
    assert written["IT-CORPS-07"][0] == "Rome" and written["IT-CORPS-06"][0] == "Taranto"


def test_4_2_2_a_set_up_written_elsewhere_than_the_chart_is_still_illegal(pbem, limited_war):
    (limited_war / "turn.pbem").write_text(ITALY.format(lines="Reinforce IT 1st Army at Rome\n"))
    result = pbem("check", str(limited_war / "turn.pbem"))
    assert result.code == 1 and "rule 4.2.2 [illegal] IT 1st Army sets up in Verona when IT enters, not Rome" in result.out


@pytest.mark.parametrize("origin, verdict", [("Grenoble", None), ("Lyon", "FR Corps #10 is not in Lyon, where its SR to the reserve box starts (it is in Grenoble)")])
def test_13_1_5_an_sr_into_the_reserve_box_starts_where_the_corps_stands(pbem, tmp_path, origin, verdict):
    # Both forms: the notation's "SR X: space - reserve" and JSON's {"sr": X, "path": [space, "reserve"]}.
    result = check(pbem, tmp_path, SR_ROUND.format(lines=f"SR FR Corps 10: {origin} - reserve"))
    as_json = pbem("convert", str(tmp_path / "turn.pbem"), "--to", "json").out
    assert f'"{origin}"' in as_json and '"reserve"' in as_json
    (tmp_path / "turn.json").write_text(as_json)
    for checked in (result, pbem("check", str(tmp_path / "turn.json"))):
        if verdict is None:
            assert checked.code == 0, checked.out
        else:
            assert checked.code == 1 and f"rule 13.1.5 [illegal] {verdict}" in checked.out
