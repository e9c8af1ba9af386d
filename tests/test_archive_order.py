"""A game folder's turns are played in the order of their headers, not of their file names; gaps are refused."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from archive_support import run

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "china-war-1980"


def folder_with(tmp_path, names: dict[str, str]) -> Path:
    folder = tmp_path / "game"
    folder.mkdir()
    for source, name in names.items():
        shutil.copy(SAMPLES / source, folder / name)
    shutil.copy(SAMPLES / "state-after-legal-01.json", folder / "state-after-legal-01.json")
    return folder


@pytest.mark.parametrize("suffix", [".json", ".pbem"])
def test_chinese_file_name_first_but_soviet_moves_first(capsys, tmp_path, suffix):
    # 'chinese' sorts before 'soviet', but in this scenario the Soviet player moves first in each game-turn.
    folder = folder_with(
        tmp_path,
        {f"legal-01-amur-crossing{suffix}": f"t01-soviet{suffix}", f"legal-02-chinese-reply{suffix}": f"t01-chinese{suffix}"},
    )
    db = tmp_path / "a.sqlite"
    code, out, err = run(capsys, "archive", "--db", db, "add", folder)
    assert code == 0 and "all legal" in out, out + err
    shown = json.loads(run(capsys, "archive", "--db", db, "show", "1", "--format", "json")[1])
    assert [t["name"] for t in shown["turns"]] == [f"t01-soviet{suffix}", f"t01-chinese{suffix}"]


def test_a_turn_that_does_not_follow_on_is_refused(capsys, tmp_path):
    folder = folder_with(tmp_path, {"legal-01-amur-crossing.json": "t01-soviet.json", "legal-02-chinese-reply.json": "t03-chinese.json"})
    turn = json.loads((folder / "t03-chinese.json").read_text())
    turn["turn"] = 3
    (folder / "t03-chinese.json").write_text(json.dumps(turn))
    db = tmp_path / "a.sqlite"
    code, out, err = run(capsys, "archive", "--db", db, "add", folder)
    assert code == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert "t03-chinese.json" in line and "does not follow on from t01-soviet.json" in line
    assert "missing between them: game-turn 1, chinese reinforcement phase" in line


def test_files_listed_in_the_wrong_order_are_refused_not_reordered(capsys, tmp_path):
    folder = folder_with(tmp_path, {"legal-01-amur-crossing.json": "a.json", "legal-02-chinese-reply.json": "b.json"})
    code, _, err = run(capsys, "archive", "--db", tmp_path / "a.sqlite", "add", folder / "b.json", folder / "a.json")
    assert code == 2 and "a.json" in err and "comes before b.json" in err
