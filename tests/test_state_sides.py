"""A state's sides are the module's: a unit, the phasing side or the first side on an unknown side is an input error
(the rules read sides as keys; found by the fuzz pass as a crash in No Retreat!'s supply)."""

from __future__ import annotations

import json

import pytest

from pbem.model.resources import data_dir

SCENARIO = data_dir("modules") / "red-winter" / "scenarios" / "campaign.json"


@pytest.mark.parametrize(
    ("edit", "pointer"),
    [
        (lambda d: d["units"][0].update(side="SOV-1-1-364"), "/units/0/side"),
        (lambda d: d.update(side="swedish"), "/side"),
        (lambda d: d.update(first_side="swedish"), "/first_side"),
    ],
)
def test_an_unknown_side_is_refused(pbem, tmp_path, edit, pointer):
    state = json.loads(SCENARIO.read_text())
    state.pop("$schema", None)
    for key in ("id", "title", "note", "source", "last_turn"):
        state.pop(key, None)
    state["module"] = "red-winter"
    edit(state)
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state))
    result = pbem("state", "show", path)
    assert result.code == 2 and pointer in result.err and result.err.count("\n") == 1, result.err


def test_a_users_module_whose_rules_fail_on_its_own_data_is_an_input_error(pbem, tmp_path):
    """A module folder the user chose, with a table its rules cannot read, ends in one line naming the module (exit 2),
    not an internal error: its code and data belong together (found by the fuzz pass)."""
    import shutil

    folder = tmp_path / "red-winter"
    shutil.copytree(data_dir("modules") / "red-winter", folder)
    tables = json.loads((folder / "tables.json").read_text())
    tables["terrain"]["cost"] = 3  # a number where the rules look up a cost per terrain
    (folder / "tables.json").write_text(json.dumps(tables))
    turn = data_dir("samples") / "red-winter" / "legal-01-soviet-advance.json"
    result = pbem("check", turn, "--module", folder)
    assert result.code == 2 and result.err.count("\n") == 1, result.err
    assert str(folder) in result.err and "rules failed on this turn" in result.err and "internal error" not in result.err


def test_a_start_state_name_too_long_for_the_file_system(pbem, tmp_path):
    turn = json.loads((data_dir("samples") / "red-winter" / "legal-01-soviet-advance.json").read_text())
    turn.pop("$schema", None)
    turn["start"] = {"state": "x" * 5000 + ".json"}
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(turn))
    result = pbem("check", path)
    assert result.code == 2 and result.err.count("\n") == 1 and "no such file" in result.err and "internal error" not in result.err


def test_a_start_state_name_with_a_nul_character(pbem, tmp_path):
    turn = json.loads((data_dir("samples") / "red-winter" / "legal-01-soviet-advance.json").read_text())
    turn.pop("$schema", None)
    turn["start"] = {"state": "start\u0000.json"}
    path = tmp_path / "turn.json"
    path.write_text(json.dumps(turn))
    result = pbem("check", path, "--write-state", tmp_path / "out.json")
    assert result.code == 2 and result.err.count("\n") == 1 and "NUL" in result.err and "/start/state" in result.err
    assert not (tmp_path / "out.json").exists()


def test_inside_refuses_a_nul_character(tmp_path):
    from pbem.model.errors import PbemError
    from pbem.model.files import inside

    with pytest.raises(PbemError, match="NUL"):
        inside(tmp_path / "a\u0000b", tmp_path)
