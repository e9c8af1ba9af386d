"""A file plays the game-turn its header names, whatever turn its start state stopped in; a game started from a
scenario ends after the scenario's last turn. Judged on the bundled samples, as a player chains them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from pbem.model.resources import data_dir

NO_RETREAT = data_dir("samples") / "no-retreat"
CHINA_WAR = data_dir("samples") / "china-war-1980"
STATE_KEYS = set(json.loads((data_dir("schemas") / "state.schema.json").read_text(encoding="utf-8"))["properties"])


def chained(tmp_path: Path, sample: Path, state: Path, *, state_turn: int, file_turn: int) -> Path:
    """``sample`` as the file of ``file_turn``, starting from ``state`` re-dated to ``state_turn`` (the state the
    previous file wrote)."""
    written = json.loads(state.read_text(encoding="utf-8")) | {"turn": state_turn}
    (tmp_path / "state.json").write_text(json.dumps(written), encoding="utf-8")
    turn = json.loads(sample.read_text(encoding="utf-8"))
    turn.pop("$schema", None)
    turn.update(turn=file_turn, start={"state": "state.json"})
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(turn), encoding="utf-8")
    return path


def test_a_card_of_turn_6_on_is_legal_in_the_turn_6_file_from_the_turn_5_state(pbem, tmp_path):
    """No Retreat! card 8's Soviet half may be played from turn 6 (5.3.1): the file of turn 6 plays it, though the
    state it starts from was written at the end of turn 5."""
    path = chained(tmp_path, NO_RETREAT / "illegal-5.3.1-before-turn-6.json", NO_RETREAT / "state-1941.json", state_turn=5, file_turn=6)
    result = pbem("check", path)
    assert result.code == 0, result.out


def test_the_turn_5_file_still_may_not_play_it(pbem, tmp_path):
    path = chained(tmp_path, NO_RETREAT / "illegal-5.3.1-before-turn-6.json", NO_RETREAT / "state-1941.json", state_turn=5, file_turn=5)
    result = pbem("check", path)
    assert result.code == 1 and "rule 5.3.1" in result.out and "this is turn 5" in result.out


def test_a_turn_after_the_scenarios_last_is_illegal(pbem, tmp_path):
    """Paths of Glory's 1914 scenario ends after turn 20 (its last_turn): a file of turn 21 names the sequence rule
    and the /turn of its header; turn 20 does not."""
    from pbem.model.module import load_module

    module = load_module("paths-of-glory")
    assert module.last_turn("1914") == 20 and module.last_turn("no such scenario") is None
    scenario = module.scenarios["1914"]
    for turn, verdict in ((21, True), (20, False)):
        (tmp_path / "t.json").write_text(json.dumps({"module": "paths-of-glory", "turn": turn, "side": "cp",
                                                     "start": {"state": "s.json"}, "actions": []}), encoding="utf-8")
        data = json.loads(scenario.read_text(encoding="utf-8"))
        data = {key: value for key, value in data.items() if key in STATE_KEYS} | {"scenario": data["id"], "turn": turn - 1}
        (tmp_path / "s.json").write_text(json.dumps(data), encoding="utf-8")
        result = pbem("check", tmp_path / "t.json")
        said = "scenario 1914 ends after game-turn 20: there is no game-turn 21" in result.out
        assert said == verdict, (turn, result.out, result.err)


def split_in_two(tmp_path: Path, sample: Path, before: int) -> tuple[Path, Path]:
    """``sample``'s actions before index ``before`` as a first file, the rest as a second file starting from the state
    the first one leaves (written by ``--write-state``), as two emails of one player-turn."""
    document = json.loads(sample.read_text(encoding="utf-8"))
    document.pop("$schema", None)
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    first.write_text(json.dumps(dict(document, actions=document["actions"][:before])), encoding="utf-8")
    rest = {key: value for key, value in document.items() if key not in ("start", "from", "to")}
    second.write_text(json.dumps(dict(rest, start={"state": "between.json"}, actions=document["actions"][before:])), encoding="utf-8")
    return first, second


def test_a_unit_that_followed_up_in_one_file_may_not_attack_in_the_next(pbem, tmp_path):
    """The China War (2.0): the reaction phase with the follow-up move in one file, the combat phase in the next."""
    first, second = split_in_two(tmp_path, CHINA_WAR / "illegal-2.0-follow-up-unit-attacks.json", 4)
    assert pbem("check", first, "--write-state", tmp_path / "between.json").code == 0
    result = pbem("check", second)
    assert result.code == 1 and "rule 2.0" in result.out and "may not attack this turn" in result.out


def test_a_unit_that_did_not_follow_up_attacks_in_the_next_file(pbem, tmp_path):
    first, second = split_in_two(tmp_path, CHINA_WAR / "illegal-2.0-follow-up-unit-attacks.json", 3)  # no follow-up move
    document = json.loads(second.read_text(encoding="utf-8"))
    document["actions"] = document["actions"][1:]  # drop the follow-up move: the attack comes from 3004 now
    second.write_text(json.dumps(document), encoding="utf-8")
    assert pbem("check", first, "--write-state", tmp_path / "between.json").code == 0
    result = pbem("check", second)
    assert result.code in (0, 1) and "actions checked" in result.out and "rule 2.0" not in result.out, result.out + result.err


def test_a_later_file_of_the_player_turn_may_not_go_back_to_an_earlier_phase(pbem, tmp_path):
    """No Retreat! (4.0): card and movement phases in one file, the organization phase in the next."""
    shutil.copy(NO_RETREAT / "state-1941.json", tmp_path)
    first, second = split_in_two(tmp_path, NO_RETREAT / "illegal-4.0-phase-order.json", 2)
    assert pbem("check", first, "--write-state", tmp_path / "between.json").code == 0
    result = pbem("check", second)
    assert result.code == 1 and "rule 4.0" in result.out and "comes before the movement phase" in result.out


def test_it_may_go_on_with_that_phase_or_a_later_one(pbem, tmp_path):
    shutil.copy(NO_RETREAT / "state-1941.json", tmp_path)
    for actions in ([{"phase": "movement"}], [{"phase": "combat"}]):
        document = json.loads((NO_RETREAT / "illegal-4.0-phase-order.json").read_text(encoding="utf-8"))
        document["actions"] = [{"phase": "card"}, {"phase": "movement"}] + actions
        (tmp_path / "whole.json").write_text(json.dumps(document), encoding="utf-8")
        first, second = split_in_two(tmp_path, tmp_path / "whole.json", 2)
        assert pbem("check", first, "--write-state", tmp_path / "between.json").code == 0
        assert pbem("check", second).code == 0, actions


def test_the_follow_up_may_come_in_the_file_after_the_reaction(pbem, tmp_path):
    """The China War (2.0): the Chinese reaction move in one file, the Soviet follow-up into the hex it vacated in the
    next: the follow-up is legal (the vacated hex is kept in the state), and the unit still may not attack."""
    first, second = split_in_two(tmp_path, CHINA_WAR / "illegal-2.0-follow-up-unit-attacks.json", 3)
    assert pbem("check", first, "--write-state", tmp_path / "between.json").code == 0
    result = pbem("check", second)
    assert "which no reacting unit vacated" not in result.out
    assert result.code == 1 and "may not attack this turn" in result.out, result.out
