"""``pbem module list|show|validate``."""

import json
import shutil

from pbem.model.resources import data_dir


def test_list_and_show(pbem):
    assert "china-war-1980" in pbem("module", "list").out
    info = json.loads(pbem("module", "show", "china-war-1980", "--format", "json").out)
    assert info["map"]["illustrative"] and info["units"] >= 150 and "crt" in info["tables"]


def test_validate_a_copied_module_and_a_broken_one(pbem, tmp_path):
    folder = tmp_path / "my-module"
    shutil.copytree(data_dir("modules") / "china-war-1980", folder)
    assert pbem("module", "validate", folder).code == 0
    counters = json.loads((folder / "counters.json").read_text())
    counters["units"].append(dict(counters["units"][0]))
    (folder / "counters.json").write_text(json.dumps(counters, indent=1))
    result = pbem("module", "validate", folder)
    assert result.code == 2 and "counters.json" in result.err and "used twice" in result.err
