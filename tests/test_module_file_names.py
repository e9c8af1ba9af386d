"""A user's module whose module.json names an unusable file is an input error naming module.json (exit 2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "china-war-1980" / "legal-04-full-game-turn.json"


@pytest.mark.parametrize("key", ["rules", "map", "status"])
@pytest.mark.parametrize("name", ["x" * 5000, "a\u0000b", "../../outside.json"])
def test_unusable_file_names_are_refused(pbem, tmp_path: Path, key: str, name: str) -> None:
    module = tmp_path / "china-war-1980"
    shutil.copytree(ROOT / "modules" / "china-war-1980", module)
    manifest = json.loads((module / "module.json").read_text(encoding="utf-8"))
    manifest[key] = name
    (module / "module.json").write_text(json.dumps(manifest), encoding="utf-8")
    result = pbem("check", SAMPLE, "--module", module)
    err = result.err
    assert result.code == 2, err
    assert len(err.strip().splitlines()) == 1
    assert "module.json" in err
    assert ("not a file name" in err) or ("outside the module folder" in err)
