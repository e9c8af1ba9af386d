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


SECRET = '{"password": "hunter2-do-not-echo", "module": "china-war-1980"'  # not valid JSON: an error would quote it


@pytest.fixture
def outside(tmp_path):
    secret = tmp_path / "private" / "secret.json"
    secret.parent.mkdir()
    secret.write_text(SECRET)
    return secret


def test_start_state_linking_outside_the_folder_is_refused(pbem, tmp_path, outside):
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "start.json").symlink_to(outside)
    turn = folder / "turn.json"
    turn.write_text(json.dumps(TURN | {"start": {"state": "start.json"}}))
    result = pbem("check", turn)
    assert result.code == 2 and "outside its folder" in result.err and "hunter2" not in result.err + result.out
    assert str(outside) not in result.err


def test_a_link_inside_the_folder_is_fine(pbem, tmp_path, samples):
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "real-state.json").write_text((samples / "state-after-legal-01.json").read_text())
    (folder / "start.json").symlink_to(folder / "real-state.json")
    turn = folder / "turn.json"
    turn.write_text((samples / "legal-02-chinese-reply.json").read_text().replace("state-after-legal-01.json", "start.json"))
    assert pbem("check", turn).code in (0, 1)


@pytest.mark.parametrize("what", ["turn", "manifest start", "header start"])
def test_game_folder_links_leading_outside_are_refused(pbem, tmp_path, outside, samples, what):
    folder = tmp_path / "game"
    folder.mkdir()
    first = json.loads((samples / "legal-01-amur-crossing.json").read_text())
    if what == "turn":
        (folder / "t1.json").write_text(json.dumps(first))
        (folder / "t2.json").symlink_to(outside)
    elif what == "manifest start":
        (folder / "t1.json").write_text(json.dumps(first))
        (folder / "game.json").write_text(json.dumps({"start_state": "start.state"}))
        (folder / "start.state").symlink_to(outside)
    else:
        (folder / "t1.json").write_text(json.dumps(first | {"start": {"state": "start.state"}}))
        (folder / "start.state").symlink_to(outside)
    for args in (["archive", "--db", tmp_path / "games.db", "add", folder], ["replay", folder, "--out", tmp_path / "out.html"]):
        result = pbem(*args)
        assert result.code == 2, result.err
        # A header's start state is not even read: only game.json can make a state file the start (issue 25).
        refusal = "never takes a state file" if what == "header start" else "outside its folder"
        assert refusal in result.err and "hunter2" not in result.err + result.out
    assert not (tmp_path / "out.html").exists()


def test_a_chosen_module_whose_data_its_rules_cannot_use_is_refused_in_one_line(pbem, tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(data_dir("modules") / "china-war-1980", folder)
    tables = json.loads((folder / "tables.json").read_text())
    del tables["crt_terrain_rows"]
    (folder / "tables.json").write_text(json.dumps(tables))
    result = pbem("module", "validate", folder)
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1
    assert str(folder) in result.err and "rules could not be built" in result.err and "KeyError" in result.err


def test_a_module_id_too_long_for_a_file_name_is_refused(pbem, tmp_path):
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps(TURN | {"module": "x" * 300}))
    result = pbem("check", turn)
    assert result.code == 2 and "/module" in result.err and len(result.err.strip().splitlines()) == 1


def test_a_module_part_that_is_not_a_file_name_is_refused(pbem, tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(data_dir("modules") / "china-war-1980", folder)
    manifest = json.loads((folder / "module.json").read_text())
    manifest["tables"] = "tables\u0000.json"
    (folder / "module.json").write_text(json.dumps(manifest))
    result = pbem("module", "validate", folder)
    assert result.code == 2 and "not a file name" in result.err
