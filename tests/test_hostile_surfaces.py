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


# --- 4. VASSAL logs as turns ---------------------------------------------------------------------------------
SHARED_SAVE = Path(__file__).resolve().parents[2] / "shared" / "data" / "paths-of-glory" / "vassal" / "Classic10-8.vsav"
needs_save = pytest.mark.skipif(not SHARED_SAVE.is_file(), reason="../shared/data/paths-of-glory/vassal is absent")


def _opening():
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_vassal_samples", data_dir("modules") / "paths-of-glory" / "tools" / "build_vassal_samples.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool.Opening(SHARED_SAVE)


@pytest.mark.parametrize("pattern, why", [
    ("(?=attack)(?P<target>.+)", "linear time"),  # lookahead: RE2 has none
    ("(?P<target>a)\\1", "linear time"),  # a backreference
    ("(" * 3000 + ")" * 3000, "attack_chat"),  # too long: the schema or the pattern bound says so
])
def test_a_mapping_pattern_that_cannot_run_in_linear_time_is_refused(pbem, tmp_path, pattern, why):
    module = _module_copy(tmp_path, "pog", "paths-of-glory")
    mapping = json.loads((module / "vassal.json").read_text())
    mapping["turn"]["attack_chat"] = pattern
    (module / "vassal.json").write_text(json.dumps(mapping))
    result = pbem("module", "validate", module)
    _one_line_refusal(result, "vassal.json", "/turn/attack_chat", why)


def test_nested_quantifiers_from_data_run_in_linear_time():
    from pbem.model.patterns import compile_pattern

    for pattern, text in [("(a+)+$", "a" * 100_000 + "!"), ("(?i)^attacks?\\s+(?P<target>[^:]+?)(?:\\s+from\\s+(?P<from>[^:]+?))?\\s*(?::\\s*(?P<result>\\d+\\s*/\\s*\\d+))?\\s*$", "attack " + " " * 290 + ":x")]:
        start = time.process_time()
        for _ in range(20):
            assert compile_pattern(pattern).match(text) is None
        assert time.process_time() - start < 1


@needs_save
def test_chat_lines_built_to_backtrack_are_read_fast(pbem, tmp_path):
    o = _opening()
    o.play("CP-10", "OPS (CP)")
    for k in range(20):
        o.writer.chat("attack " + " " * 290 + ":x")  # 5 s each with a backtracking engine and the bundled pattern
        o.writer.chat("attack a" + " from a" * 41 + ":")
    path = o.save("chat.vlog", tmp_path)
    start = time.process_time()
    result = pbem("check", path)
    assert time.process_time() - start < 5
    assert result.code in (0, 1, 2) and len(result.err.strip().splitlines()) <= 1


@needs_save
def test_a_log_that_drags_one_unit_round_and_round_is_refused_at_the_step_that_overflows_its_path(pbem, tmp_path):
    o = _opening()
    o.play("CP-10", "OPS (CP)")
    for k in range(1500):
        o.move("GE-4-ARMY", ("Strasbourg", "Metz", "Verdun")[k % 3])
    path = o.save("round.vlog", tmp_path)
    result = pbem("check", path)
    _one_line_refusal(result, "round.vlog: step ", "more than 1,000 locations")


def test_the_nearest_region_is_the_one_a_full_scan_finds():
    import math
    import random

    from pbem.formats.vassal.grids import Region, RegionGrid

    rng = random.Random(26)
    for _ in range(200):
        regions = [Region(f"r{k}", rng.randrange(50), rng.randrange(50)) for k in range(rng.randrange(40))]
        grid = RegionGrid(regions)
        for _ in range(20):
            point = (rng.randrange(-10, 60), rng.randrange(-10, 60))
            best, distance = None, math.inf
            for region in regions:  # the first listed among the nearest, as VASSAL's scan finds it
                d = (point[0] - region.x) ** 2 + (point[1] - region.y) ** 2
                if d < distance:
                    best, distance = region, d
            assert grid.location_name(point) == (best.name if best else None)


# --- 2. the module cache -------------------------------------------------------------------------------------
@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    from pbem.model import cache
    from pbem.model import module as modules

    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_DIR_ENV, str(folder))
    monkeypatch.delenv(cache.NO_CACHE_ENV, raising=False)
    monkeypatch.setattr(modules, "_CACHE", {})
    return folder


def _entry(folder: Path) -> Path:
    [entry] = sorted((folder / "modules").glob("*.pickle"))
    return entry


def _forged_entry(module_folder: Path, unit: str, mpa: int, secret: bytes) -> bytes:
    """An entry for ``module_folder`` under its right key, whose module gives ``unit`` an MPA of ``mpa``,
    signed with ``secret``."""
    import pickle
    from dataclasses import replace as changed

    from pbem.model import cache
    from pbem.model import module as modules

    path = module_folder.resolve()
    inputs, _ = modules._inputs(path)
    module = modules._load(path)
    counter_type = module.units[unit].type
    steps = [changed(step, move=mpa) for step in counter_type.steps]
    module.units[unit] = changed(module.units[unit], type=changed(counter_type, steps=tuple(steps) if isinstance(counter_type.steps, tuple) else steps))
    body = pickle.dumps((cache.key(inputs), (changed(module, status_checker=None), getattr(module.status_checker, "schema", None))))
    return cache.MAGIC + cache._signature(secret, "modules", str(path), body) + body


def _check_6_12(pbem, module: Path, *extra: str):
    turn = data_dir("samples") / "china-war-1980" / "illegal-6.12-mp-overrun.json"
    return pbem(*extra, "check", turn, "--module", module, "--format", "json")


def test_an_edited_entry_without_the_users_key_cannot_change_a_verdict(pbem, tmp_path, own_cache):
    from pbem.model import module as modules

    module = _module_copy(tmp_path)
    first = _check_6_12(pbem, module)
    assert first.code == 1 and '"rule": "6.12"' in first.out
    entry = _entry(own_cache)
    # Someone who knows the inputs' hash but not the key: the MPA raised so that the move looks legal.
    for secret in (b"\0" * 32, b"guessed" * 5):
        entry.write_bytes(_forged_entry(module, "SOV-TK-XX-1-02", 99, secret[:32]))
        modules._CACHE.clear()
        again = _check_6_12(pbem, module)
        assert (again.code, again.out) == (first.code, first.out)
    # The same forgery with the user's own key is taken: the HMAC is what refused it above, not an accident.
    entry.write_bytes(_forged_entry(module, "SOV-TK-XX-1-02", 99, (own_cache / "key").read_bytes()))
    modules._CACHE.clear()
    assert _check_6_12(pbem, module).code == 0


@pytest.mark.parametrize("how", ["entry-writable", "folder-writable", "root-writable", "key-readable", "other-owner", "symlink"])
def test_an_entry_someone_else_could_have_written_is_not_read(pbem, tmp_path, own_cache, how):
    import os

    from pbem.model import module as modules

    module = _module_copy(tmp_path)
    first = _check_6_12(pbem, module)
    entry = _entry(own_cache)
    entry.write_bytes(_forged_entry(module, "SOV-TK-XX-1-02", 99, (own_cache / "key").read_bytes()))
    if how == "entry-writable":
        os.chmod(entry, 0o666)
    elif how == "folder-writable":
        os.chmod(entry.parent, 0o777)
    elif how == "root-writable":
        os.chmod(own_cache, 0o770)
    elif how == "key-readable":
        os.chmod(own_cache / "key", 0o644)
    elif how == "other-owner":
        if os.geteuid() != 0:
            pytest.skip("only root can give a file to another user")
        os.chown(entry, 12345, 12345)
    else:
        elsewhere = tmp_path / "planted.pickle"
        entry.rename(elsewhere)
        entry.symlink_to(elsewhere)
    modules._CACHE.clear()
    again = _check_6_12(pbem, module)
    assert (again.code, again.out) == (first.code, first.out)


def test_a_fifo_in_place_of_an_entry_or_the_key_never_blocks(tmp_path, own_cache):
    import os
    import subprocess
    import sys as system

    turn = data_dir("samples") / "china-war-1980" / "illegal-6.12-mp-overrun.json"
    command = [system.executable, "-m", "pbem", "check", str(turn)]
    subprocess.run(command, capture_output=True, timeout=120)
    entry = _entry(own_cache)
    for target in (entry, own_cache / "key"):
        target.unlink()
        os.mkfifo(target, 0o600)
        result = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert result.returncode == 1 and "6.12" in result.stdout, result.stderr


def _sample_turns() -> list[Path]:
    found = []
    for path in sorted(data_dir("samples").glob("*/*")):
        if path.suffix == ".pbem" or (path.suffix == ".json" and '"actions"' in path.read_text(encoding="utf-8")):
            found.append(path)
    return found


def test_every_sample_gets_the_same_verdict_with_and_without_the_cache(pbem, own_cache, monkeypatch):
    from pbem.model import module as modules

    turns = _sample_turns()
    assert len(turns) > 100
    built = []
    real = modules._load
    monkeypatch.setattr(modules, "_load", lambda path: built.append(path) or real(path))
    # Without the cache: each module built from its files once (kept in this process, as within one run).
    fresh = {turn: pbem("--no-cache", "check", turn, "--format", "json") for turn in turns}
    assert not own_cache.exists()  # --no-cache neither reads nor writes it
    without = len(built)
    for turn in turns:
        modules._CACHE.clear()  # a new process: the module comes from the cache on disk (the first, a miss, fills it)
        cached = pbem("check", turn, "--format", "json")
        assert (cached.code, cached.out, cached.err) == (fresh[turn].code, fresh[turn].out, fresh[turn].err), turn
    assert len(built) == 2 * without  # every cached run but each module's first was a hit
    monkeypatch.setenv("PBEM_NO_CACHE", "1")
    modules._CACHE.clear()
    assert pbem("check", turns[0], "--format", "json").out == fresh[turns[0]].out


# --- 3. module import of a hostile .vmod ---------------------------------------------------------------------
GM = "VASSAL.build.module"


def _build_file(maps: str = "", pieces: str = "") -> str:
    return (f'<?xml version="1.0"?>\n<VASSAL.build.GameModule name="hostile" version="1" VassalVersion="3.7.0">\n'
            f' <{GM}.PlayerRoster><entry>a</entry><entry>b</entry></{GM}.PlayerRoster>\n{maps}{pieces}</VASSAL.build.GameModule>\n')


def _map(name: str, board: str) -> str:
    return f' <{GM}.Map mapName="{name}"><{GM}.map.BoardPicker>{board}</{GM}.map.BoardPicker></{GM}.Map>\n'


def _hex_grid(dx: float = 40, dy: float = 40) -> str:
    return (f'<{GM}.map.boardPicker.board.HexGrid dx="{dx}" dy="{dy}">'
            f'<{GM}.map.boardPicker.board.mapgrid.HexGridNumbering/></{GM}.map.boardPicker.board.HexGrid>')


def _zoned_board(zones: int, points: int, width: int = 4000, height: int = 4000) -> str:
    zone_list = []
    for k in range(zones):
        x, y = (k * 37) % (width - 200), (k * 53) % (height - 200)
        ring = ";".join(f"{x + 100 + round(90 * __import__('math').cos(6.283 * j / points))},"
                        f"{y + 100 + round(90 * __import__('math').sin(6.283 * j / points))}" for j in range(points))
        zone_list.append(f'<{GM}.map.boardPicker.board.mapgrid.Zone name="z{k}" useParentGrid="true" path="{ring}"/>')
    return (f'<{GM}.map.boardPicker.Board name="B" width="{width}" height="{height}">'
            f'<{GM}.map.boardPicker.board.ZonedGrid>{"".join(zone_list)}{_hex_grid(20, 20)}</{GM}.map.boardPicker.board.ZonedGrid>'
            f'</{GM}.map.boardPicker.Board>')


def _palette(n: int) -> str:
    return "".join(f' <VASSAL.build.widget.PieceSlot entryName="p{k}" gpid="{k}">+/null/piece;;;p.png;piece {k}/null;0;0;1;0</VASSAL.build.widget.PieceSlot>\n'
                   for k in range(n))


def _import(pbem, tmp_path: Path, text: str, name: str = "buildFile.xml"):
    folder = tmp_path / "vmod"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text)
    out = tmp_path / "out"
    start = time.process_time()
    result = pbem("module", "import", folder / name, "--out", out)
    return result, time.process_time() - start, out


@pytest.mark.parametrize("case, words", [
    ("3,000 zones over a large parent grid", ("more than 10,000,000 steps",)),
    ("zones of 20,000 points each", ("polygon points, more than the 100,000",)),
    ("2,000 maps", ("2,000 maps, more than the 200",)),
    ("20,001 palette pieces over the bound", ("20,001 pieces, more than the 20,000",)),
])
def test_a_module_past_the_whole_imports_bounds_is_refused_at_once(pbem, tmp_path, case, words):
    text = {
        "3,000 zones over a large parent grid": lambda: _build_file(_map("M", _zoned_board(3000, 4))),
        "zones of 20,000 points each": lambda: _build_file(_map("M", _zoned_board(6, 20_000))),
        "2,000 maps": lambda: _build_file("".join(_map(f"M{k}", f'<{GM}.map.boardPicker.Board name="B{k}" width="100" height="100">{_hex_grid()}</{GM}.map.boardPicker.Board>') for k in range(2000))),
        "20,001 palette pieces over the bound": lambda: _build_file(pieces=_palette(20_001)),
    }[case]()
    result, seconds, out = _import(pbem, tmp_path, text)
    _one_line_refusal(result, *words)
    assert seconds < 10 and not out.exists()


def test_a_large_palette_imports_in_linear_time_and_one_too_large_to_read_back_is_refused(pbem, tmp_path):
    board = _map("M", f'<{GM}.map.boardPicker.Board name="B" width="400" height="400">{_hex_grid()}</{GM}.map.boardPicker.Board>')
    result, seconds, out = _import(pbem, tmp_path, _build_file(board, _palette(5_000)))
    assert result.code == 0, result.err
    assert "5000 units" in result.out
    assert seconds < 10
    shutil.rmtree(out)
    # 20,000 pieces: a counters.json over the 4 MiB pbem reads is an input error, not pbem failing its own read-back.
    result, seconds, out = _import(pbem, tmp_path, _build_file(board, _palette(20_000)))
    _one_line_refusal(result, "counters.json", "more than the 4 MiB pbem reads back")
    assert seconds < 10 and not out.exists()


def test_a_module_too_large_to_read_back_is_told_without_the_indenting_encoder(monkeypatch):
    """Found by the fuzz pass: a 2 KB buildFile (a hex grid of 40 x 20 pixels on an 8,000-pixel board: 80,000
    cells) spent 1.5 of its 4.8 s of CPU, and 160 MB, indenting its 20 MiB map.json to measure it before
    refusing it; the compact text (C's encoder) already shows it is over."""
    import json

    from pbem.formats.vassal import moduleio

    indented = []
    real = json.dumps
    monkeypatch.setattr(moduleio.json, "dumps", lambda data, **options: indented.append(options.get("indent")) or real(data, **options))
    spaces = {f"{k:06d}": {"xy": [k % 8000, k // 8000]} for k in range(160_000)}
    message = moduleio.oversized({"map.json": {"spaces": spaces}, "module.json": {"id": "x"}})
    assert message is not None and "map.json of at least" in message and "4 MiB pbem reads back" in message
    assert 1 not in indented
    assert moduleio.oversized({"map.json": {"spaces": dict(list(spaces.items())[:100])}}) is None
    assert 1 in indented  # a file under the bound is measured as it is written


def test_zones_within_the_bounds_are_named_in_time(pbem, tmp_path):
    result, seconds, out = _import(pbem, tmp_path, _build_file(_map("M", _zoned_board(40, 200, 2000, 2000))))
    assert result.code == 0, result.err
    assert seconds < 10


@pytest.mark.parametrize("image", ["/etc/hostname", "../../../../etc/hostname", "..\\..\\secret.png", "C:/Windows/win.ini"])
def test_a_board_image_named_outside_the_module_is_refused(pbem, tmp_path, image):
    board = f'<{GM}.map.boardPicker.Board name="B" image="{image}">{_hex_grid()}</{GM}.map.boardPicker.Board>'
    result, _, out = _import(pbem, tmp_path, _build_file(_map("M", board)))
    _one_line_refusal(result, "outside the module")
    assert not out.exists()


def test_a_board_image_linked_out_of_the_module_is_not_read(pbem, tmp_path):
    from PIL import Image

    outside = tmp_path / "outside.png"
    Image.new("RGB", (123, 45)).save(outside)
    (tmp_path / "vmod" / "images").mkdir(parents=True)
    (tmp_path / "vmod" / "images" / "board.png").symlink_to(outside)
    board = f'<{GM}.map.boardPicker.Board name="B" image="board.png">{_hex_grid()}</{GM}.map.boardPicker.Board>'
    result, _, out = _import(pbem, tmp_path, _build_file(_map("M", board)))
    assert result.code == 0, result.err
    assert "123" not in (out / "map.json").read_text()  # nothing about the outside file in the written module


def test_palette_names_that_slug_alike_get_unit_ids_in_linear_time(pbem, tmp_path):
    from pbem.formats.vassal.importer import _free_id

    names = "".join(f' <VASSAL.build.widget.PieceSlot entryName="p{k}" gpid="{k}">+/null/piece;;;p.png;x{"." * (k % 50)}{"!" * (k // 50)}/null;0;0;1;0</VASSAL.build.widget.PieceSlot>\n'
                    for k in range(5000))  # 5,000 names, every one P-X
    result, seconds, out = _import(pbem, tmp_path, _build_file(_map("M", f'<{GM}.map.boardPicker.Board name="B" width="400" height="400">{_hex_grid()}</{GM}.map.boardPicker.Board>'), names))
    assert result.code == 0, result.err
    assert "5000 units" in result.out and seconds < 10
    # Remembering where each base's search ended gives the ids a search from the start gives.
    taken, again, tried = set(), set(), {}
    for copies in [1, 2, 1, 12, 1, 3, 1] * 20:
        assert _free_id("P-A", copies, taken) == _free_id("P-A", copies, again, tried)


def test_an_entry_of_a_module_missing_a_field_of_this_pbems_is_no_entry(pbem, tmp_path, own_cache):
    """A process running older code pickles a Module without the fields added since, under the key of the newer
    files on disk: the entry is refused, and the verdict is the one the files give."""
    import pickle

    from pbem.model import cache
    from pbem.model import module as modules

    module = _module_copy(tmp_path)
    first = _check_6_12(pbem, module)
    path = module.resolve()
    inputs, _ = modules._inputs(path)
    built = modules._load(path)
    del built.__dict__["option_choices"]  # as the older Module class had no such field
    stale = built.__class__.__new__(built.__class__)
    stale.__dict__.update({k: v for k, v in built.__dict__.items() if k != "status_checker"} | {"status_checker": None})
    body = pickle.dumps((cache.key(inputs), (stale, getattr(modules._load(path).status_checker, "schema", None))))
    _entry(own_cache).write_bytes(cache.MAGIC + cache._signature((own_cache / "key").read_bytes(), "modules", str(path), body) + body)
    modules._CACHE.clear()
    again = _check_6_12(pbem, module)
    assert (again.code, again.out) == (first.code, first.out)


@pytest.mark.parametrize("key, pattern, pointer, group", [
    (("units", "reduced_name"), "^(.*) reduced$", "/units/reduced_name", "'name'"),  # fuzz pass: an IndexError, exit 3
    (("turn", "attack_chat"), "(?i)^attacks?\\s+(?P<where>.+)$", "/turn/attack_chat", "'target'"),  # fuzz pass: a KeyError
])
def test_a_pattern_without_the_group_its_reader_takes_is_refused(pbem, tmp_path, key, pattern, pointer, group):
    module = _module_copy(tmp_path, "pog", "paths-of-glory")
    mapping = json.loads((module / "vassal.json").read_text())
    mapping[key[0]][key[1]] = pattern
    (module / "vassal.json").write_text(json.dumps(mapping))
    _one_line_refusal(pbem("module", "validate", module), "vassal.json", pointer, group)


@pytest.mark.parametrize("level", ["classic", "", "Total War", "total_war "])
def test_a_state_with_a_commitment_level_the_game_lacks_is_refused(pbem, tmp_path, level):
    """Found by the long fuzz pass: a Paths of Glory state whose side was at commitment 'classic' reached the
    card rules (exit 3, a ValueError); the module's status schema names the three levels (LR2022 16.1)."""
    samples = data_dir("samples") / "paths-of-glory"
    turn = samples / "illegal-13.2.2-two-russian-corps-redeploy-to-the-near-east.json"
    state = json.loads((samples / "state-russian-corps-in-the-caucasus.json").read_text())
    state["status"]["commitment"]["ap"] = level
    (tmp_path / "state.json").write_text(json.dumps(state))
    out = tmp_path / "out.json"
    result = pbem("check", turn, "--state", tmp_path / "state.json", "--write-state", out)
    _one_line_refusal(result, "state.json", "/status/commitment/ap")
    assert not out.exists()
