"""The notation's card-driven forms: rounds, card plays, activations, flank attempts, both rolls, combat cards,
replacing units -- every Paths of Glory sample round-trips, and a player's hand-written turn reads the same."""

import json

import pytest

from pbem.formats.notation import parse_notation, write_notation
from pbem.model.resources import data_dir

SAMPLES = data_dir("samples") / "paths-of-glory"
TURNS = sorted(p.name for p in SAMPLES.glob("*.json") if p.name != "expected.json" and not p.name.startswith("state-"))
UNIT_KEYS = ("move", "reinforce", "remove", "eliminate")


def _canonical(data: dict) -> dict:
    """One unit is written the same as a list of one (the schema's ``units``)."""
    actions = []
    for action in data["actions"]:
        action = dict(action)
        for key in UNIT_KEYS:
            if isinstance(action.get(key), list) and len(action[key]) == 1:
                action[key] = action[key][0]
        actions.append(action)
    return data | {"actions": actions}


@pytest.mark.parametrize("name", TURNS)
def test_every_sample_round_trips(name):
    data = json.loads((SAMPLES / name).read_text())
    back = parse_notation(write_notation(data), name).data
    assert _canonical(back) == _canonical(data)


def test_a_hand_written_turn_reads_as_the_json_sample(pbem):
    written = parse_notation((SAMPLES / "legal-01-guns-of-august-opening.pbem").read_text(encoding="utf-8"), "turn.pbem").data
    sample = json.loads((SAMPLES / "legal-01-guns-of-august-opening.json").read_text())
    strip = lambda actions: [{k: v for k, v in a.items() if k != "note"} for a in actions]  # noqa: E731
    assert strip(_canonical(written)["actions"]) == strip(_canonical(sample)["actions"])
    assert pbem("check", SAMPLES / "legal-01-guns-of-august-opening.pbem").code == 0


@pytest.mark.parametrize(
    "line, expected",
    [
        ("== Action round 3 (ap) ==", {"phase": "action", "round": 3, "side": "ap"}),
        ("Card none as automatic", {"card": None, "use": "automatic"}),
        ("Activate Verdun (attack), Nancy (move)", {"activate": {"Verdun": "attack", "Nancy": "move"}}),
        ("FR-CORPS-01: Bordeaux - Marseilles by sea", {"move": "FR-CORPS-01", "path": ["Bordeaux", "Marseilles"], "by": "sea"}),
        ("FR-CORPS-10: Grenoble - Lyon by strategic", {"move": "FR-CORPS-10", "path": ["Grenoble", "Lyon"], "by": "strategic"}),
    ],
)
def test_card_driven_lines(line, expected):
    text = f"Game: paths-of-glory\nScenario: 1914\nTurn: 1\nSide: cp\n{line}\n"
    assert parse_notation(text, "t.pbem").data["actions"] == [expected]


def test_an_activation_names_a_space_once():
    text = "Game: paths-of-glory\nScenario: 1914\nTurn: 1\nSide: cp\nActivate Verdun (attack), verdun (move)\n"
    with pytest.raises(Exception, match="Verdun is activated twice"):
        parse_notation(text, "t.pbem")
