"""Issue 26: hostile inputs on the newer surfaces (art templates, the module cache, .vmod import, VASSAL logs as
turns, terminal controls in every output, one-line errors). Each test builds its hostile input here and holds
pbem to the contract: one line, exit 2 (or a verdict), fast, nothing read outside the input's folder, no raw
control character printed, no verdict changed by the cache."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from pbem.model.resources import data_dir

CHINA = data_dir("modules") / "china-war-1980"


def _module_copy(tmp_path: Path, folder: str = "china-war-1980", game: str = "china-war-1980") -> Path:
    target = tmp_path / folder
    shutil.copytree(data_dir("modules") / game, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def _one_line_refusal(result, *words: str) -> None:
    assert result.code == 2, (result.code, result.out, result.err)
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, lines
    for word in words:
        assert word in lines[0], lines[0]


# --- 1. format specifications from data ---------------------------------------------------------------------
@pytest.mark.parametrize("template", ["{attack:>999999999}", "{}", "{attack!r}", "{attack.real}", "{0}", "{attack[0]}", "{{attack}}", "{attack"])
@pytest.mark.parametrize("verb", [("art", "counters"), ("module", "export")])
def test_a_value_template_with_anything_but_plain_fields_is_refused(pbem, tmp_path, template, verb):
    module = _module_copy(tmp_path)
    style = json.loads((module / "art.json").read_text())
    style["values"] = f"{template}-{{defence}}-{{move}}"
    (module / "art.json").write_text(json.dumps(style))
    out = tmp_path / ("counters" if verb[0] == "art" else "out.vmod")
    start = time.process_time()
    result = pbem(*verb, module, "--out", out)
    assert time.process_time() - start < 5
    _one_line_refusal(result, "art.json", "/values")
    assert not out.exists()


def test_plain_value_fields_are_filled_without_a_format_language():
    from pbem.art.style import face_values

    assert face_values("{attack}-{loss}-{move}", 6, 5, 9, None) == "6--9"
    assert face_values("{attack}-{defence}-{move}", 12, 8, 10) == "12-8-10"


# --- 6. errors: one line everywhere --------------------------------------------------------------------------
def test_convert_tells_many_notation_problems_in_one_line(pbem, tmp_path):
    header = "Game: China War 1980\nScenario: border-war\nTurn: 1\nSide: Soviet\n== Movement ==\n"
    bad = tmp_path / "bad.pbem"
    bad.write_text(header + "".join(f"SOV-TK-XX-1-0{k % 9 + 1}: 2604-99{k:02}\n" for k in range(40)))
    for target in ("json", "pbem"):
        out = tmp_path / f"out.{target}"
        result = pbem("convert", bad, "--to", target, "--out", out)
        _one_line_refusal(result, "bad.pbem:6:", "more")
        assert not out.exists()


# --- 5. terminal controls in every text output ---------------------------------------------------------------
CONTROLS = "\x1b]0;owned\x07\x1b[2J\x9b31m\x85\r\u202eevil\x7f\u2066"


def _no_raw_control(result) -> None:
    from pbem.model.printable import has_control

    for stream in (result.out, result.err):
        assert not has_control(stream.replace("\n", "")), repr(stream[:400])


@pytest.fixture
def control_module(tmp_path) -> Path:
    """The China War module in a folder named with controls, its own names made of controls too."""
    module = _module_copy(tmp_path, "china" + CONTROLS)
    data = json.loads((module / "module.json").read_text())
    data["name"] = data["title"] = "China" + CONTROLS
    data["notes"] = [CONTROLS]
    (module / "module.json").write_text(json.dumps(data))
    return module


def _control_log(tmp_path: Path) -> Path:
    from pbem.formats.vassal.archive import write_zip
    from pbem.formats.vassal.obfuscation import Obfuscation
    from pbem.formats.vassal.savefile import SavedGame, encode_saved_game

    tree = ["begin_save", "", ["", f"+/11/piece;;;inf.png;1st{CONTROLS}/Main;100;100;0;0"],
            f"PLAYER\tsecret\tAlice{CONTROLS}\tRed{CONTROLS}", "end_save"]
    steps = [[f"LOG\tCHAT<Alice{CONTROLS}> attack {CONTROLS} " + CONTROLS * 20],
             [f"LOG\tCHAT*** 2d6 = 3,4 *** &lt;Alice{CONTROLS}&gt;", "LOG\tMutableProperty\t2d6_result\t1,1\t3,4\tModule"]]
    log = SavedGame("c.vlog", "log", tree + steps, Obfuscation("obfuscated", 7, "lower"))
    path = tmp_path / ("log" + CONTROLS + ".vlog")
    path.write_bytes(write_zip({"savedGame": encode_saved_game(log), "savedata": b'<data version="1"/>'}))
    return path


BUILD_FILE = """<?xml version="1.0"?>
<VASSAL.build.GameModule name="m{c}" version="1{c}" VassalVersion="3.7.0">
 <VASSAL.build.module.PlayerRoster><entry>a{c}</entry><entry>b{c}</entry></VASSAL.build.module.PlayerRoster>
 <VASSAL.build.module.Map mapName="M{c}"><VASSAL.build.module.map.BoardPicker>
  <VASSAL.build.module.map.boardPicker.Board name="B{c}" width="400" height="400">
   <VASSAL.build.module.map.boardPicker.board.HexGrid dx="40" dy="40">
    <VASSAL.build.module.map.boardPicker.board.mapgrid.HexGridNumbering/>
   </VASSAL.build.module.map.boardPicker.board.HexGrid>
  </VASSAL.build.module.map.boardPicker.Board>
 </VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map>
 <VASSAL.build.widget.PieceSlot entryName="x{c}" gpid="1">+/null/piece;;;x{c}.png;p{c}/null;0;0;1;0</VASSAL.build.widget.PieceSlot>
</VASSAL.build.GameModule>
"""


def test_every_command_prints_names_made_of_controls_escaped(pbem, tmp_path, control_module):
    from xml.sax.saxutils import escape as xml_escape

    xml_controls = "".join(f"&#{ord(c)};" if c not in "\x1b\x07\x7f\x85\x9b\r" else "" for c in CONTROLS)  # XML 1.0 forbids most C0
    build = tmp_path / ("build" + CONTROLS + ".xml")
    build.write_text(BUILD_FILE.format(c=xml_escape(CONTROLS.replace("\x1b", "").replace("\x07", "")) + xml_controls))
    log = _control_log(tmp_path)
    turn = tmp_path / ("turn" + CONTROLS + ".json")
    turn.write_text(json.dumps({"module": "china-war-1980", "turn": 1, "side": "soviet", "start": {"scenario": "border-war"},
                                "actions": [{"phase": "movement", "note": CONTROLS},
                                            {"move": "SOV-TK-XX-1-02" + CONTROLS, "path": ["2604", "2605"]}]}))
    legal = data_dir("samples") / "china-war-1980" / "illegal-6.12-mp-overrun.json"
    runs = [
        ("module", "show", control_module), ("module", "show", control_module, "--units", "--locations"),
        ("module", "show", control_module, "--format", "json"), ("module", "validate", control_module),
        ("module", "export", control_module, "--out", tmp_path / "x.vmod"),
        ("module", "import", build, "--out", tmp_path / ("imported" + CONTROLS)),
        ("module", "show", tmp_path / ("imported" + CONTROLS)),
        ("check", legal, "--module", control_module), ("check", turn), ("check", turn, "--format", "json"),
        ("convert", turn, "--to", "pbem"), ("state", "show", legal, "--module", control_module),
        ("state", "show", turn), ("art", "counters", control_module, "--out", tmp_path / ("art" + CONTROLS)),
        ("vassal", "info", log), ("vassal", "info", log, "--format", "json"), ("vassal", "log", log),
        ("vassal", "log", log, "--format", "json"), ("vassal", "info", build),
        ("check", tmp_path / ("missing" + CONTROLS + ".json")),
    ]
    for args in runs:
        result = pbem(*args)
        assert result.code in (0, 1, 2), (args, result.code, result.err)
        _no_raw_control(result)
        if "json" in args and result.code in (0, 1):
            json.loads(result.out)  # the escapes are JSON's own: the output still reads back
