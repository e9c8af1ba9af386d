"""A turn file from an opponent cannot make pbem run code or read files outside its folder."""

import json
import shutil

import pytest

from pbem.model.resources import data_dir

TURN = {"module": "china-war-1980", "turn": 1, "side": "soviet", "start": {"scenario": "border-war"}, "actions": [{"phase": "movement"}]}


@pytest.fixture
def evil_module(tmp_path):
    """A module folder whose rules would leave a mark if they were ever imported."""
    folder = tmp_path / "evil"
    shutil.copytree(data_dir("modules") / "china-war-1980", folder)
    marker = tmp_path / "pwned"
    (folder / "rules" / "__init__.py").write_text(f"open({str(marker)!r}, 'w').write('x')\n")
    return folder, marker


@pytest.mark.parametrize("suffix", [".json", ".pbem"])
def test_a_turn_cannot_name_a_module_folder(pbem, tmp_path, evil_module, suffix):
    folder, marker = evil_module
    if suffix == ".json":
        text = json.dumps(TURN | {"module": str(folder)})
    else:
        text = f"Game: {folder}\nScenario: border-war\nTurn: 1\nSide: soviet\n== Movement ==\n"
    turn = tmp_path / f"turn{suffix}"
    turn.write_text(text)
    result = pbem("check", turn)
    assert result.code == 2 and "--module" in result.err and str(turn) in result.err
    assert not marker.exists()


def test_the_user_may_choose_a_module_folder(pbem, tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(data_dir("modules") / "china-war-1980", folder)
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps(TURN))
    assert pbem("check", turn, "--module", folder).code == 0


def test_module_ids_on_the_users_path(pbem, tmp_path, monkeypatch):
    shutil.copytree(data_dir("modules") / "china-war-1980", tmp_path / "mods" / "china-war-1980")
    monkeypatch.setenv("PBEM_MODULE_PATH", str(tmp_path / "mods"))
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps(TURN))
    assert pbem("check", turn).code == 0


@pytest.mark.parametrize("state", ["/etc/hostname", "../outside.json", "sub/../../outside.json"])
def test_start_state_stays_beside_the_turn(pbem, tmp_path, state):
    (tmp_path / "outside.json").write_text("{}")
    folder = tmp_path / "game"
    folder.mkdir()
    turn = folder / "turn.json"
    turn.write_text(json.dumps(TURN | {"start": {"state": state}}))
    result = pbem("check", turn)
    assert result.code == 2 and "/start/state" in result.err and "beside the turn" in result.err
