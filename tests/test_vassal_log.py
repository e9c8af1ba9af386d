"""Log events from synthetic logs: undo markers (3.6.7+), inferred undos (older), re-rolls, players."""

from __future__ import annotations

from pbem.formats.vassal.commands import encode_tree
from pbem.formats.vassal.logevents import read_events
from pbem.formats.vassal.obfuscation import Obfuscation
from pbem.formats.vassal.savefile import SavedGame, encode_saved_game, read_saved_game

RESTORE = ["begin_save", "", ["", "+/11/piece;;;inf.png;1st Infantry/Main;100;100;0;0"],
           "PLAYER\tsEcReT\tAlice\tRed", "end_save"]


def roll(values: str, before: str = "1,1") -> list[str]:
    return [f"LOG\tCHAT*** 2d6 = {values} *** &lt;Alice&gt;", f"LOG\tMutableProperty\t2d6_result\t{before}\t{values}\tModule"]


def game(*steps) -> SavedGame:
    return SavedGame("test.vlog", "log", list(RESTORE) + list(steps), Obfuscation("obfuscated", 7, "lower"))


def test_undo_marker_and_reroll():
    report = read_events(game(
        roll("3,4"),
        ["LOG\tUNDO\ttrue", "LOG\tMutableProperty\t2d6_result\t3,4\t1,1\tModule",
         "LOG\tCHAT* UNDO: *** 2d6 = 3,4 *** &lt;Alice&gt;", "LOG\tUNDO\tfalse"],
        roll("6,6", "1,1"),
    ))
    steps = report["steps"]
    assert steps[0]["events"][0] == {"type": "roll", "button": "2d6", "dice": "2d6", "values": [3, 4], "total": 7,
                                     "player": "Alice", "report": "*** 2d6 = 3,4 *** <Alice>", "command_index": 0}
    assert steps[0]["undone_by"] == 2
    assert steps[1]["events"][0]["type"] == "undo" and steps[1]["events"][0]["undoes"] == 1
    assert steps[1]["events"][0]["inferred"] is False
    summary = report["summary"]
    assert summary["undos"] == 1
    assert summary["undone_rolls"] == [{"step": 1, "undone_by": 2, "button": "2d6", "values": [3, 4], "total": 7,
                                        "player": "Alice"}]
    assert summary["rerolls"] == [{"step": 3, "undone_step": 1, "button": "2d6", "before": [3, 4],
                                   "after": [6, 6], "player": "Alice"}]
    assert summary["rolls_per_player"] == {"Alice": 2}


def test_old_logs_undo_is_inferred_from_inverse_commands():
    move = "LOG\tM/11/Main/200/100/null/Main/100/100/null/sEcReT"
    back = "LOG\tM/11/Main/100/100/null/Main/200/100/null/sEcReT"
    report = read_events(game([move], roll("2,2"), ["LOG\tCHAT* UNDO: *** 2d6 = 2,2 *** &lt;Alice&gt;",
                                                    "LOG\tMutableProperty\t2d6_result\t2,2\t1,1\tModule"],
                              [back], roll("5,1")))
    steps = report["steps"]
    assert steps[0]["events"][0]["piece"] == "1st Infantry"
    assert steps[0]["events"][0]["player"] == "Alice"  # the roster name, never the secret
    assert "sEcReT" not in repr(report)
    assert steps[2]["events"][0]["undoes"] == 2 and steps[2]["events"][0]["inferred"]
    assert steps[3]["events"][0]["undoes"] == 1  # the next undo goes one step further back
    assert report["summary"]["undone_steps"] == [1, 2]
    assert report["summary"]["rerolls"][0]["before"] == [2, 2]
    assert report["summary"]["rerolls"][0]["after"] == [5, 1]


def test_a_move_back_by_hand_is_not_an_undo_when_it_differs():
    report = read_events(game(["LOG\tM/11/Main/200/100/null/Main/100/100/null/x"],
                              ["LOG\tM/11/Main/100/100/null/Main/200/100/12/x"]))
    assert report["summary"]["undos"] == 0


# A layer trait: 13 empty key fields, x and y offsets, two images, level names ("" keeps the name).
LAYER = "emb2;" + ";".join([""] * 13 + ["0", "0", "a.png,b.png", ",+ reduced", "true", "Step"])


def test_events_change_add_remove_and_chat():
    report = read_events(game(
        ["LOG\tCHAT&lt;Alice&gt; - hello &amp; welcome"],
        ["LOG\t+/12/" + LAYER + "\tpiece;;;hq.png;HQ/1\tMain;5;5;0;0"],
        ["LOG\tD/12/2\tMain;5;5;0;0/1\tMain;5;5;0;0"],
        ["LOG\t-/12"],
    ))
    chat, add, change, remove = (step["events"][0] for step in report["steps"])
    assert chat == {"type": "chat", "text": "hello & welcome", "player": "Alice", "command_index": 0}
    assert add["piece"] == "HQ" and add["at"] == {"map": "Main", "x": 5, "y": 5}
    assert change["name_after"] == "HQ reduced"
    assert change["traits"] == [{"trait": "emb2;", "before": "1", "after": "2"}]
    assert remove["piece"] == "HQ reduced"


def test_synthetic_log_round_trips(tmp_path):
    from pbem.formats.vassal.archive import write_zip

    log = game(roll("3,4"))
    data = write_zip({"savedGame": encode_saved_game(log), "savedata": b"<data version=\"1\"/>"})
    again = read_saved_game(data, "x.vlog")
    assert again.kind == "log" and len(again.steps) == 1
    assert encode_tree(again.tree) == encode_tree(log.tree)
    assert encode_saved_game(again) == data


def test_piece_images_follow_the_active_layer():
    from pbem.formats.vassal.traits import decode_piece

    piece = decode_piece("1", LAYER + "\tpiece;;;hq.png;HQ", "2\tMain;5;5")
    assert piece.images == ["hq.png", "b.png"] and piece.name == "HQ reduced"


def test_prototypes_expand_with_parameters():
    from pbem.formats.vassal.buildfile import expand_prototypes
    from pbem.formats.vassal.sequence import join, join_chain

    def definition(types, states):
        return "+/null/" + join([join_chain(types), join_chain(states)], "/")

    prototypes = {
        "Unit": definition(["mark;Side", "prototype;Base", "piece;;;;"], ["$side$", "", "null;0;0;;0"]),
        "Base": definition(["cmt;note", "delete;Delete;68,130", "piece;;;;"], ["", "", "null;0;0;;0"]),
    }
    types, states = expand_prototypes(join_chain(["prototype;Unit;side=Red", "piece;;;a.png;A"]),
                                      join_chain(["", "null;0;0;1;0"]), prototypes)
    assert types == ["mark;Side", "delete;Delete;68,130", "piece;;;a.png;A"]
    assert states == ["Red", "", "null;0;0;1;0"]
