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


def _module_copy(tmp_path: Path, name: str = "china-war-1980") -> Path:
    target = tmp_path / name
    shutil.copytree(data_dir("modules") / name, target, ignore=shutil.ignore_patterns("__pycache__"))
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
