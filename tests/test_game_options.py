"""A game chooses its module options (the Paths of Glory edition, optional cards, hand size) in its own files
(issue 24, class 6): the turn header's choice over the start state's, the state's over the scenario's, the
scenario's over the module default; the state pbem writes keeps them, and so does the archive."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pbem.model.module import load_module
from pbem.model.resources import data_dir

MODULE = data_dir("modules") / "paths-of-glory"
SCENARIO = json.loads((MODULE / "scenarios" / "1914.json").read_text(encoding="utf-8"))
CP_MOVES = [{"phase": "action", "round": 1, "side": "cp"}, {"card": None, "use": "automatic"},
            {"activate": {"Koblenz": "move"}, "cost": 1}, {"move": "GE-2-ARMY", "path": ["Koblenz", "Frankfurt"]}]
AP_FROM_RESERVE = [{"phase": "action", "round": 1, "side": "ap"}, {"card": "AP-05", "use": "sr"}, {"reinforce": "FR-CORPS-01", "at": "Nancy"}]
# LR2022 13.1.11 (not in the seed): no SR of a nation's corps out of the Reserve Box while its capital is besieged.
BESIEGED_PARIS_RULE = "13.1.11"


def paris_besieged(options: dict | None = None) -> dict:
    state = {k: v for k, v in SCENARIO.items() if k not in ("$schema", "id", "last_turn", "note", "source", "title")}
    state = json.loads(json.dumps(state)) | {"scenario": "1914"}
    state["status"].setdefault("forts", {})["Paris"] = "besieged"
    besieger = next(u for u in state["units"] if u["id"].startswith("GE-CORPS") and u["at"] == "reinforcements")
    besieger["at"] = "Paris"  # a siege lasts while enemy units stand in the fort's space (15.2.4)
    if options is not None:
        state["options"] = options
    return state


def write_turn(folder: Path, name: str, actions: list, *, start: dict, options: dict | None = None, turn_number: int = 1) -> Path:
    turn = {"module": "paths-of-glory", "turn": turn_number, "side": "cp", "start": start, "actions": actions}
    if options is not None:
        turn["options"] = options
    path = folder / name
    path.write_text(json.dumps(turn), encoding="utf-8")
    return path


def verdict(pbem, turn: Path, *extra: str) -> list[str]:
    result = pbem("check", turn, "--format", "json", *extra)
    assert result.code in (0, 1), result.err
    return sorted({v["rule"] for v in json.loads(result.out)["violations"] if v["severity"] != "warning"})


@pytest.mark.parametrize(("state_options", "header_options", "broken"), [
    (None, None, []),  # the module default: the seed
    ({"edition": "lr2022"}, None, [BESIEGED_PARIS_RULE]),  # the start state's choice
    ({"edition": "seed"}, {"edition": "lr2022"}, [BESIEGED_PARIS_RULE]),  # the header's over the state's
    ({"edition": "lr2022"}, {"edition": "seed"}, []),
    ({}, {"edition": "lr2022"}, [BESIEGED_PARIS_RULE]),
])
def test_the_edition_is_the_game_s_own_choice(pbem, tmp_path, state_options, header_options, broken):
    (tmp_path / "start.json").write_text(json.dumps(paris_besieged(state_options)), encoding="utf-8")
    turn = write_turn(tmp_path, "t1.json", CP_MOVES + AP_FROM_RESERVE, start={"state": "start.json"}, options=header_options)
    assert verdict(pbem, turn) == broken


def test_the_scenario_s_choice_over_the_module_default(pbem, tmp_path):
    """A module folder whose 1914 scenario chooses the 2022 rules: its games play by them unless a state or a
    header says otherwise."""
    folder = tmp_path / "pog"
    shutil.copytree(MODULE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    set_up = json.loads((folder / "scenarios" / "1914.json").read_text(encoding="utf-8"))
    set_up["options"] = {"edition": "lr2022"}
    set_up["status"].setdefault("forts", {})["Paris"] = "besieged"
    next(u for u in set_up["units"] if u["id"].startswith("GE-CORPS") and u["at"] == "reinforcements")["at"] = "Paris"
    (folder / "scenarios" / "1914.json").write_text(json.dumps(set_up), encoding="utf-8")
    turn = write_turn(tmp_path, "t1.json", CP_MOVES + AP_FROM_RESERVE, start={"scenario": "1914"})
    assert verdict(pbem, turn, "--module", str(folder)) == [BESIEGED_PARIS_RULE]
    seed = write_turn(tmp_path, "t1-seed.json", CP_MOVES + AP_FROM_RESERVE, start={"scenario": "1914"}, options={"edition": "seed"})
    assert verdict(pbem, seed, "--module", str(folder)) == []
    # A written state from that scenario without options of its own (written before they were kept) takes the scenario's.
    (tmp_path / "old.json").write_text(json.dumps(paris_besieged()), encoding="utf-8")
    old = write_turn(tmp_path, "t1-old.json", CP_MOVES + AP_FROM_RESERVE, start={"state": "old.json"})
    assert verdict(pbem, old, "--module", str(folder)) == [BESIEGED_PARIS_RULE]


def test_the_historical_scenario_chooses_eight_card_hands(pbem, tmp_path):
    """LR2022 5.7.4.1: the historical scenario uses the optional eight-card hands (9.1.4); the 1914 one the default 7."""
    assert load_module("paths-of-glory").options["hand_size"] == 7
    for scenario, chosen in (("1914-historical", {"hand_size": 8}), ("1914", {})):
        # turn 2: the historical scenario's turn 1 opens with Guns of August (LR2022 5.7.4.3)
        turn = write_turn(tmp_path, f"{scenario}.json", CP_MOVES, start={"scenario": scenario}, turn_number=2)
        assert pbem("check", turn, "--write-state", tmp_path / f"after-{scenario}.json").code == 0
        assert json.loads((tmp_path / f"after-{scenario}.json").read_text(encoding="utf-8"))["options"] == chosen


def test_the_written_state_keeps_the_choices_for_the_next_turn(pbem, tmp_path):
    (tmp_path / "start.json").write_text(json.dumps(paris_besieged()), encoding="utf-8")
    first = write_turn(tmp_path, "t1a.json", CP_MOVES, start={"state": "start.json"}, options={"edition": "lr2022", "hand_size": 8})
    result = pbem("check", first, "--write-state", tmp_path / "after-t1a.json")
    assert result.code == 0, result.out + result.err
    written = json.loads((tmp_path / "after-t1a.json").read_text(encoding="utf-8"))
    assert written["options"] == {"edition": "lr2022", "hand_size": 8}
    second = write_turn(tmp_path, "t1b.json", AP_FROM_RESERVE, start={"state": "after-t1a.json"})
    assert verdict(pbem, second) == [BESIEGED_PARIS_RULE]
    # A state written with every option at its default says so ({}), and does not fall back to its scenario's.
    plain = write_turn(tmp_path, "t0.json", CP_MOVES, start={"scenario": "1914-historical"}, options={"hand_size": 7}, turn_number=2)
    assert pbem("check", plain, "--write-state", tmp_path / "after-t0.json").code == 0
    assert json.loads((tmp_path / "after-t0.json").read_text(encoding="utf-8"))["options"] == {"hand_size": 7}


def test_the_archive_keeps_the_choices(pbem, tmp_path):
    """The archive replays a game from its first turn: the header's choice in turn 1 still holds in turn 2."""
    game = tmp_path / "game"
    game.mkdir()
    (game / "start.json").write_text(json.dumps(paris_besieged()), encoding="utf-8")
    write_turn(game, "t1a.json", CP_MOVES, start={"state": "start.json"}, options={"edition": "lr2022"})
    write_turn(game, "t1b.json", AP_FROM_RESERVE, start={"state": "after-t1a.json"})
    db = tmp_path / "archive.sqlite"
    added = pbem("archive", "--db", db, "add", game / "t1a.json", game / "t1b.json")
    assert added.code == 0, added.out + added.err
    info = json.loads(pbem("archive", "--db", db, "show", "1", "--format", "json").out)
    rules = [v["rule"] for t in info["turns"] for v in t["violations"] if v["severity"] != "warning"]
    assert rules == [BESIEGED_PARIS_RULE]
    assert pbem("archive", "--db", db, "revalidate").code == 0  # the same verdicts again


@pytest.mark.parametrize(("where", "options", "pointer"), [
    ("header", {"edition": "2022"}, "/options/edition"),
    ("header", {"colour": "red"}, "/options/colour"),
    ("state", {"hand_size": 9}, "/options/hand_size"),
])
def test_an_option_the_module_does_not_offer_is_an_input_error(pbem, tmp_path, where, options, pointer):
    (tmp_path / "start.json").write_text(json.dumps(paris_besieged(options if where == "state" else None)), encoding="utf-8")
    turn = write_turn(tmp_path, "t1.json", CP_MOVES, start={"state": "start.json"}, options=options if where == "header" else None)
    result = pbem("check", turn, "--write-state", tmp_path / "after.json")
    assert result.code == 2
    assert pointer in result.err and len(result.err.strip().splitlines()) == 1
    assert not (tmp_path / "after.json").exists()


def test_the_notation_header_chooses_options_and_round_trips(pbem, tmp_path):
    (tmp_path / "start.json").write_text(json.dumps(paris_besieged()), encoding="utf-8")
    text = ("Game: paths-of-glory\nStart: start.json\nTurn: 1\nSide: cp\nOptions: edition=lr2022, hand_size=8\n"
            "== Action round 1 (CP) ==\nCard none as automatic\nActivate Koblenz (move), cost 1\nGE-2-ARMY: Koblenz - Frankfurt\n"
            "== Action round 1 (AP) ==\nCard AP-05 as sr\n")
    turn = tmp_path / "t1.pbem"
    turn.write_text(text, encoding="utf-8")
    converted = pbem("convert", turn, "--to", "json")
    assert converted.code == 0, converted.err
    data = json.loads(converted.out)
    assert data["options"] == {"edition": "lr2022", "hand_size": 8}
    back = pbem("convert", turn, "--to", "pbem")
    assert "Options: edition=lr2022, hand_size=8" in back.out
    bad = tmp_path / "bad.pbem"
    bad.write_text(text.replace("hand_size=8", "hand_size"), encoding="utf-8")
    result = pbem("check", bad)
    assert result.code == 2 and ":5:" in result.err


def test_a_module_default_that_is_not_a_choice_is_refused(tmp_path):
    folder = tmp_path / "pog"
    shutil.copytree(MODULE, folder, ignore=shutil.ignore_patterns("__pycache__"))
    manifest = json.loads((folder / "module.json").read_text(encoding="utf-8"))
    manifest["options"]["edition"] = "2022"
    (folder / "module.json").write_text(json.dumps(manifest), encoding="utf-8")
    from pbem.model.errors import PbemError

    with pytest.raises(PbemError, match="options/edition"):
        load_module(folder, reuse=False)
