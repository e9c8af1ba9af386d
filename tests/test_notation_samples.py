"""Every China War sample has a notation twin that pbem judges exactly like the JSON sample."""

from __future__ import annotations

import json
import re

import pytest

from pbem.formats.notation import read_notation
from pbem.formats.turnfile import action_kinds
from pbem.model.resources import data_dir

SAMPLES = data_dir("samples") / "china-war-1980"
EXPECTED = json.loads((SAMPLES / "expected.json").read_text())


def test_every_sample_has_a_twin_and_every_twin_a_sample():
    assert {p.stem for p in SAMPLES.glob("*.pbem")} == {name.removesuffix(".json") for name in EXPECTED}


def _without_notes(data: dict) -> dict:
    # Notes are the player's free text, never interpreted: a twin may word them its own way.
    return {k: [_without_notes(a) for a in v] if k == "actions" else v for k, v in data.items() if k not in ("note", "$schema")}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_twin_reads_as_its_sample(name):
    sample = json.loads((SAMPLES / name).read_text())
    assert _without_notes(read_notation(SAMPLES / name.replace(".json", ".pbem")).data) == _without_notes(sample)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_twin_gets_the_same_verdict_on_its_own_lines(pbem, name):
    twin = SAMPLES / name.replace(".json", ".pbem")
    result = pbem("check", twin, "--format", "json")
    report = json.loads(result.out)
    rules = sorted({v["rule"] for v in report["violations"] if v["severity"] != "warning"})
    assert {"ok": report["ok"], "rules": rules} == EXPECTED[name], report["violations"]
    assert result.code == (0 if EXPECTED[name]["ok"] else 1)

    sample = json.loads(pbem("check", SAMPLES / name, "--format", "json").out)
    as_json = [(v["index"], v["rule"], v["severity"], v["message"]) for v in sample["violations"]]
    assert [(v["index"], v["rule"], v["severity"], v["message"]) for v in report["violations"]] == as_json

    document = read_notation(twin)
    lines = twin.read_text(encoding="utf-8").splitlines()
    for violation in report["violations"]:
        source = violation["source"]
        assert source["file"].endswith(twin.name)
        # The line the player wrote for that action, which is where the twin places it.
        assert source["line"] == document.source(f"/actions/{violation['index']}").line
        written = lines[source["line"] - 1]
        action = document.data["actions"][violation["index"]]
        kind = action_kinds(action)[0]
        if kind == "roll":
            continue  # a roll line names dice, not a unit
        first = action[kind] if isinstance(action[kind], str) else action[kind][0]
        assert first.lower() in written.lower(), (written, action)


def test_twins_are_written_the_way_players_write():
    """The twins exercise email artefacts and the notation's variants, not just one house style."""
    texts = {p.name: p.read_text(encoding="utf-8") for p in SAMPLES.glob("*.pbem")}
    every = "\n".join(texts.values())
    assert any(all(line.startswith(">") for line in t.split("\n-- \n")[0].splitlines()) for t in texts.values())
    assert "\n-- \n" in every  # a signature
    for variant in ("→", "–", "[Movement]", "Movement phase", "Phase: movement", "== Combat ==", "; ", "Blagoveshchensk", "sov-tk-xx"):
        assert variant in every, variant
    assert re.search(r"^> Attack \d+ with ", every, re.MULTILINE)
