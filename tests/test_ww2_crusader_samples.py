"""Every WWII Campaign / Crusader sample gets its expected verdict from ``pbem check --format json``."""

import pytest

from pbem.model.resources import data_dir
from sample_support import check_sample, expected_verdicts

SAMPLES = data_dir("samples") / "ww2-crusader"
EXPECTED = expected_verdicts(SAMPLES)


def test_enough_samples_of_each_kind():
    verdicts = [v["ok"] for v in EXPECTED.values()]
    assert verdicts.count(True) >= 15 and verdicts.count(False) >= 30
    turns = {p.name for p in SAMPLES.glob("*.json")} - {"expected.json"} - {p.name for p in SAMPLES.glob("state-*.json")}
    assert set(EXPECTED) == turns


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_verdict(pbem, name):
    report = check_sample(pbem, SAMPLES, name, EXPECTED[name])
    for violation in report["violations"]:
        assert violation["source"]["file"].endswith(name) and violation["source"]["line"] >= 1


@pytest.mark.parametrize("name", sorted(n for n, v in EXPECTED.items() if not v["ok"]))
def test_each_illegal_sample_breaks_one_rule(name):
    assert len(EXPECTED[name]["rules"]) == 1


def test_a_groups_tables_file_named_by_the_player_changes_a_samples_verdict(pbem, tmp_path, monkeypatch):
    """PBEM_TABLES names a group's own tables (here a CRT where every result is DE): the legal 8:5 attack's claimed D
    no longer matches, so the same turn is refused; a file of the wrong shape is bad input (exit 2)."""
    import json
    import shutil

    modules = tmp_path / "modules"
    shutil.copytree(data_dir("modules") / "ww2-crusader", modules / "ww2-crusader", ignore=shutil.ignore_patterns("__pycache__", "tools"))
    for name in ("legal-02-panzer-attack-8-to-5.json", "state-tobruk-front.json"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    crt = {"source": {"section": "our printed CRT", "status": "transcribed"},
           "columns": ["1/5", "1/4", "1/3", "1/2", "1/1", "2/1", "3/1", "4/1", "5/1", "6/1"], "rows": {str(r): ["DE"] * 10 for r in range(1, 7)}}
    (tmp_path / "our-tables.json").write_text(json.dumps({"combat_results": crt}))
    monkeypatch.setenv("PBEM_MODULE_PATH", str(modules))
    monkeypatch.setenv("PBEM_TABLES", str(tmp_path / "our-tables.json"))
    result = pbem("check", tmp_path / "legal-02-panzer-attack-8-to-5.json", "--format", "json")
    report = json.loads(result.out)
    assert result.code == 1 and {v["rule"] for v in report["violations"] if v["severity"] != "warning"} >= {"W-CRT/1"}
    assert any("our-tables.json" in v["message"] for v in report["violations"])
    other = tmp_path / "other-modules"  # another folder: the rules are built once per module folder
    shutil.copytree(data_dir("modules") / "ww2-crusader", other / "ww2-crusader", ignore=shutil.ignore_patterns("__pycache__", "tools"))
    monkeypatch.setenv("PBEM_MODULE_PATH", str(other))
    (tmp_path / "our-tables.json").write_text(json.dumps({"combat_results": {"columns": ["2/1"]}}))
    result = pbem("check", tmp_path / "legal-02-panzer-attack-8-to-5.json")
    assert result.code == 2 and "our-tables.json" in result.err
