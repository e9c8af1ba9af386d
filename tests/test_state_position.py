"""Issue 27.5: a start state from a scenario (`pbem state new`) and a position written by hand (`pbem state edit`)."""

import json

MODULE = "paths-of-glory"


def test_state_new_and_edit_write_a_state_a_turn_starts_from(pbem, tmp_path):
    start = tmp_path / "start.json"
    assert pbem("state", "new", MODULE, "--scenario", "1914", "--out", str(start)).code == 0
    position = tmp_path / "mid.txt"
    position.write_text("# by hand\nTurn: 5\nGE 1st Army: Sedan\nFR 5th Army: Paris, reduced\nGE Corps 3 + GE Corps 4: reserve\n"
                        "Control Lodz: cp\nStatus vp = 12\nStatus trenches.Sedan = {\"level\": 1, \"owner\": \"cp\"}\n")
    out = tmp_path / "t05.json"
    assert pbem("state", "edit", str(start), str(position), "--out", str(out)).code == 0
    data = json.loads(out.read_text())
    units = {u["id"]: u for u in data["units"]}
    assert data["turn"] == 5 and data["status"]["vp"] == 12 and data["status"]["control"]["Lodz"] == "cp"
    assert units["GE-1-ARMY"]["at"] == "Sedan" and units["FR-5-ARMY"] == {"id": "FR-5-ARMY", "at": "Paris", "step": 1}
    assert units["GE-CORPS-03"]["at"] == units["GE-CORPS-04"]["at"] == "reserve"
    assert data["status"]["trenches"]["Sedan"] == {"level": 1, "owner": "cp"}
    turn = tmp_path / "t05.pbem"
    turn.write_text("Game: Paths of Glory\nTurn: 5\nSide: CP\nStart: t05.json\n\n== Action round 1 (CP) ==\nCard none as automatic\n")
    assert pbem("check", str(turn)).code == 0


def test_a_position_pbem_cannot_read_is_refused_and_nothing_is_written(pbem, tmp_path):
    out = tmp_path / "s.json"
    for text, message in (("GE 99th Army: Sedan\n", "bad.txt:1:1: unknown unit 'GE 99th Army'"),
                          ("\nGE 1st Army: Atlantis\n", "bad.txt:2:1: unknown location 'Atlantis'"),
                          ("GE 1st Army goes to Sedan\n", "bad.txt:1:1: cannot read this line"),
                          ('Status vp = "lots"\n', "the position makes a state pbem cannot read, at /status/vp")):
        (tmp_path / "bad.txt").write_text(text)
        result = pbem("state", "new", MODULE, "--scenario", "1914", "--position", str(tmp_path / "bad.txt"), "--out", str(out))
        assert result.code == 2 and message in result.err, result.err
        assert not out.exists()
    assert pbem("state", "new", MODULE, "--scenario", "nope", "--out", str(out)).code == 2
