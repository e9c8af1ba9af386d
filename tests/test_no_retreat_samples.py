"""Every No Retreat! sample gets its expected verdict from ``pbem check --format json``."""

import json

import pytest

from pbem.model.resources import data_dir
from sample_support import check_sample, expected_verdicts

SAMPLES = data_dir("samples") / "no-retreat"
EXPECTED = expected_verdicts(SAMPLES)


def test_every_sample_has_a_verdict_and_both_kinds_exist():
    assert set(EXPECTED) == {p.name for p in SAMPLES.glob("*.json")} - {"expected.json"} - {p.name for p in SAMPLES.glob("state-*.json")}
    verdicts = [v["ok"] for v in EXPECTED.values()]
    assert verdicts.count(True) >= 4 and verdicts.count(False) >= 20


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_verdict(pbem, name):
    check_sample(pbem, SAMPLES, name, EXPECTED[name])


@pytest.mark.parametrize("name", sorted(n for n, v in EXPECTED.items() if not v["ok"]))
def test_illegal_samples_break_exactly_the_rule_in_their_name(name):
    assert EXPECTED[name]["rules"] == [name.split("-")[1]]


def test_sample_states_are_marked_illustrative():
    for path in SAMPLES.glob("state-*.json"):
        assert "illustrative" in json.loads(path.read_text())["status"], path.name


def test_a_unit_missing_from_the_start_state_is_an_input_error(pbem, tmp_path):
    """A unit the module knows but the start state does not list: exit 2 naming the action, no traceback."""
    (tmp_path / "state-1941.json").write_text((SAMPLES / "state-1941.json").read_text())
    turn = json.loads((SAMPLES / "illegal-7.6-placed-in-ezoc.json").read_text())
    turn["actions"][1]["reinforce"] = "SU-4UKRAINE"
    (tmp_path / "turn.json").write_text(json.dumps(turn))
    result = pbem("check", tmp_path / "turn.json")
    assert result.code == 2
    assert "'SU-4UKRAINE' is not in" in result.err and "/actions/1" in result.err
    assert "Traceback" not in result.err


@pytest.mark.parametrize(
    "held,drawn,ok",
    [
        ({"2008": "axis"}, 3, True),
        ({"2008": "axis"}, 4, False),
        ({"2008": "axis", "2022": "axis"}, 2, True),  # both penalties: 5.2 does not say whether they add up
        ({"2008": "axis", "2022": "axis"}, 3, True),
        ({"2008": "axis", "2022": "axis"}, 4, False),
    ],
)
def test_soviet_draw_with_moscow_or_the_caucasus_oil_held_by_the_axis(pbem, tmp_path, held, drawn, ok):
    state = json.loads((SAMPLES / "state-1941.json").read_text())
    state["status"]["cities"].update(held)
    (tmp_path / "state-1941.json").write_text(json.dumps(state))
    turn = json.loads((SAMPLES / "illegal-5.2-draws-five.json").read_text())
    turn["actions"][1]["result"] = str(drawn)
    (tmp_path / "turn.json").write_text(json.dumps(turn))
    report = json.loads(pbem("check", tmp_path / "turn.json", "--format", "json").out)
    assert report["ok"] is ok and all(v["rule"] == "5.2" for v in report["violations"])


def test_sample_states_carry_the_control_of_every_city():
    """Supply (6.1) needs every city's owner: a new player's first turn from these states is judged."""
    from pbem.model.module import load_module

    game_map = load_module("no-retreat").map
    cities = {game_map.label(i) for i in range(len(game_map)) if game_map.terrain[i] == "city"}
    assert len(cities) == 32
    for path in SAMPLES.glob("state-*.json"):
        assert set(json.loads(path.read_text())["status"]["cities"]) >= cities, path.name
