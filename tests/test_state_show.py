"""Finding ids and positions: `pbem state show`, `pbem module show --units/--locations`, printed names as ids."""

from __future__ import annotations

import json

from pbem.formats.turnfile import load_turn
from pbem.model.resources import data_dir

RED_WINTER = data_dir("samples") / "red-winter"


def test_state_show_lists_who_is_where(pbem):
    scenario = data_dir("modules") / "red-winter" / "scenarios" / "campaign.json"
    result = pbem("state", "show", scenario)
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0].startswith("red-winter, scenario campaign, turn 1")
    # Every unit of the set-up appears once, under its location, by its printed name with its id.
    placed = json.loads(scenario.read_text())["units"]
    for entry in placed:
        assert sum(f"({entry['id']})" in line for line in lines) == 1, entry["id"]


def test_state_show_of_a_turn_is_the_state_it_leaves(pbem):
    turn = RED_WINTER / "legal-01-soviet-advance.json"
    after = json.loads(pbem("state", "show", turn, "--format", "json").out)
    before = json.loads(pbem("state", "show", turn, "--before", "--format", "json").out)

    def where(summary, unit_id):
        return next(loc["at"] for loc in summary["locations"] for u in loc["units"] if u["id"] == unit_id)

    assert (where(before, "SOV-1-1-609"), where(after, "SOV-1-1-609")) == ("Q25", "O21")
    soviet = json.loads(pbem("state", "show", turn, "--side", "soviet", "--format", "json").out)
    assert {u["side"] for loc in soviet["locations"] for u in loc["units"]} == {"soviet"}


def test_state_show_refuses_a_bad_side_and_a_missing_file(pbem, tmp_path):
    result = pbem("state", "show", RED_WINTER / "legal-01-soviet-advance.json", "--side", "swedish")
    assert result.code == 2 and "swedish" in result.err
    result = pbem("state", "show", tmp_path / "nope.json")
    assert result.code == 2 and "nope.json" in result.err


def test_module_show_lists_units_and_locations(pbem):
    out = pbem("module", "show", "red-winter", "--units", "--locations").out
    assert "  SOV-1-1-364 (1/1/364, 1-1-364): soviet Soviet rifle company, 5-5-5 / 3-3-5" in out
    assert "\n  X28 Soviet supply source: forest" in out and "\n  A1: " in out
    info = json.loads(pbem("module", "show", "china-war-1980", "--units", "--format", "json").out)
    assert len(info["unit_list"]) == info["units"] and "location_list" not in info


def test_printed_names_work_as_ids_in_json_turns(tmp_path):
    data = json.loads((RED_WINTER / "legal-01-soviet-advance.json").read_text())
    data.pop("$schema", None)
    data["actions"][2]["move"] = ["1/1/609", "2/1/609 ", "3/1/609"]  # as pbem prints them, any case and spacing
    data["actions"][-1]["retreats"] = {"1/1/jr16": ["O19"], "FIN-2-1-JR16": ["O19"]}
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(data))
    turn, _ = load_turn(path)
    move = turn.actions[2]
    assert move.units == ("SOV-1-1-609", "SOV-2-1-609", "SOV-3-1-609")


def test_printed_names_work_in_notation():
    from pbem.formats.notation import parse_notation

    text = "Game: red-winter\nScenario: campaign\nTurn: 1\nSide: soviet\n== Action ==\n1/1/609 + 2/1/609: Q25-P25\n"
    assert parse_notation(text, "t.pbem").data["actions"][1]["move"] == ["SOV-1-1-609", "SOV-2-1-609"]


def test_china_war_units_by_the_names_players_type():
    from pbem.formats.notation import parse_notation

    header = "Game: china-war-1980\nScenario: border-war\nTurn: 1\nSide: soviet\n== Movement ==\n"
    for written in ("SOV TK 1-02", "sov tk xx 1-02", "SOV-TK-XX-1-02"):
        assert parse_notation(header + f"{written}: 2604-2605\n", "t.pbem").data["actions"][1]["move"] == "SOV-TK-XX-1-02"


def test_check_and_state_show_take_a_scenario_file_as_state(pbem, samples, tmp_path):
    # As 'art map --state' does: a scenario file gives the units and where they stand.
    scenario = data_dir("modules") / "china-war-1980" / "scenarios" / "border-war.json"
    turn = samples / "illegal-6.12-mp-overrun.json"
    result = pbem("check", turn, "--state", scenario)
    assert result.code == 1 and "rule 6.12 [illegal]" in result.out, result.err
    before = pbem("state", "show", turn, "--state", scenario, "--before").out
    assert before == pbem("state", "show", scenario).out
    assert pbem("art", "turn", turn, "--state", scenario, "--out", tmp_path / "t.png", "--hex-size", "10").code == 1
    # A scenario file is still checked against the scenario schema: a broken one is refused where it breaks.
    broken = json.loads(scenario.read_text())
    broken["units"][0]["at"] = 7
    (tmp_path / "broken.json").write_text(json.dumps(broken))
    result = pbem("check", turn, "--state", tmp_path / "broken.json")
    assert result.code == 2 and "broken.json" in result.err and "/units/0/at" in result.err
