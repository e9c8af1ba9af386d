"""pywargame, an independent VASSAL library, reads what ``pbem module export`` writes and finds the same pieces.

pywargame needs Python >= 3.12; this test runs it in another interpreter: ``PBEM_PYWARGAME_PYTHON`` if set,
else a ``python3.12``/``python3.13`` (on PATH or under ~/.pyenv) that can import pywargame. It skips, saying why,
where there is none (install one with ``python3.12 -m venv /some/venv && /some/venv/bin/pip install pywargame``).
"""

from __future__ import annotations

import glob
import json
import os
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

from pbem.export.vmod import export_module, vmod_bytes
from pbem.model.jsonsource import load_json
from pbem.model.module import load_module
from pbem.model.state import State

READER = Path(__file__).parent / "tools" / "pywargame_read.py"


@cache
def pywargame_python() -> str | None:
    candidates = [os.environ.get("PBEM_PYWARGAME_PYTHON", "")]
    candidates += [shutil.which(name) or "" for name in ("python3.13", "python3.12")]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.1[2-9]*/bin/python")))
    candidates += ["/work/pywargame-venv/bin/python"]
    for candidate in candidates:
        if candidate and Path(candidate).is_file():
            probe = subprocess.run([candidate, "-c", "import pywargame.vassal"], capture_output=True, timeout=60)
            if probe.returncode == 0:
                return candidate
    return None


@pytest.mark.parametrize("name", ["china-war-1980", "red-winter", "paths-of-glory", "no-retreat"])
def test_pywargame_reads_the_export(name, tmp_path, samples_as_scenarios):
    python = pywargame_python()
    if python is None:
        pytest.skip("no Python >= 3.12 with pywargame here: set PBEM_PYWARGAME_PYTHON to one")
    module = load_module(name)
    if not module.scenarios:  # No Retreat!: its sample states stand in for set-ups
        module = load_module(samples_as_scenarios(name))
    assert module.scenarios
    vmod = tmp_path / f"{name}.vmod"
    vmod.write_bytes(vmod_bytes(export_module(module)))
    run = subprocess.run([python, str(READER), str(vmod)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    found = json.loads(run.stdout)
    assert sorted(p["name"] for p in found["pieces"]) == sorted(module.units)
    assert all(p["traits"] == ["emb2", "piece"] for p in found["pieces"])
    assert found["boards"] == ["Board"]
    assert found["grids"] == (["HexGrid"] if module.map.kind == "hex" else ["RegionGrid"])
    if module.map.kind == "hex":
        assert found["sideways"] == [str(module.map.spec.orientation == "pointy").lower()]
    if module.map.kind == "points":
        assert sorted(found["regions"]) == sorted(module.map.label(i) for i in range(len(module.map)))
    assert found["dice"] == ["1d6", "2d6"] and found["turn_tracks"] == 1
    for scenario, path in module.scenarios.items():
        state = State.from_json(module, load_json(path))
        assert sorted(found["setups"][scenario]) == sorted(u for u, s in state.units.items() if s.at >= 0)
