"""Every action kind of the turn format is read, resolved and applied; unknown names fail with their place."""

import json

import pytest

from pbem.formats.turnfile import ACTION_KINDS, load_turn
from pbem.model import actions as act
from pbem.model.errors import PbemError

ACTIONS = [
    {"phase": "movement"},
    {"move": ["SOV-TK-XX-1-02"], "path": ["2604", "2605"], "declare": ["double"]},
    {"fire": ["SOV-TK-XX-1-03"], "target": "3305", "spotter": "SOV-MR-XX-2-01", "roll": [3, 4], "result": "1", "losses": {"defender": ["PLA-INF-XX-1-03"]}},
    {"special": "dig_in", "units": ["PLA-INF-XXX-2-01"], "at": "3105", "roll": 5, "result": "done"},
    {"remove": "SOV-MR-XX-2-04", "to": "garrison"},
    {"roll": {"purpose": "weather", "value": 3}},
    {"card": "C12", "use": "ops"},
    {"comment": "that is all"},
]


def write(tmp_path, actions):
    path = tmp_path / "turn.json"
    data = {"module": "china-war-1980", "turn": 1, "side": "soviet", "start": {"scenario": "border-war"}, "actions": actions}
    path.write_text(json.dumps(data, indent=1))
    return path


def test_kinds_are_read(tmp_path):
    turn, module = load_turn(write(tmp_path, ACTIONS))
    kinds = [a.kind for a in turn.actions]
    assert kinds == ["phase", "move", "fire", "special", "remove", "roll", "card", "comment"]
    move, fire, special = turn.actions[1], turn.actions[2], turn.actions[3]
    assert isinstance(move, act.Move) and move.declared == {"double"}
    assert isinstance(fire, act.Fire) and fire.rolls == (3, 4) and fire.spotter == "SOV-MR-XX-2-01"
    assert fire.target == module.map.index("3305") and fire.losses_defender == ("PLA-INF-XX-1-03",)
    assert isinstance(special, act.Special) and special.order == "dig_in" and special.at == module.map.index("3105")
    assert all(turn.actions[n].source.line > 1 for n in range(len(ACTIONS)))
    assert set(kinds) <= set(ACTION_KINDS)


def test_fire_losses_are_applied(tmp_path):
    from pbem.engine.replay import replay
    from pbem.formats.turnfile import load_start_state

    turn, module = load_turn(write(tmp_path, ACTIONS[:3]))
    state = load_start_state(turn, module)
    replay(module, state, turn)
    assert state.units["PLA-INF-XX-1-03"].step == 1


@pytest.mark.parametrize(
    "action, pointer",
    [
        ({"fire": ["nobody"], "target": "3305", "roll": 3}, "/actions/1/fire/0"),
        ({"fire": ["SOV-TK-XX-1-03"], "target": "9999", "roll": 3}, "/actions/1/target"),
        ({"special": "dig_in", "at": "ZZ"}, "/actions/1/at"),
        ({"special": "Dig In"}, "/actions/1/special"),
        ({"remove": "SOV-MR-XX-2-04", "to": "attic"}, "/actions/1/to"),
    ],
)
def test_bad_names_fail_with_their_place(tmp_path, action, pointer):
    with pytest.raises(PbemError) as error:
        load_turn(write(tmp_path, [{"phase": "movement"}, action]))
    assert error.value.source.pointer == pointer
