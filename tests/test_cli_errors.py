"""Bad input ends in one line naming the file and place, exit code 2, and nothing written."""

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.model.errors import PbemError
from pbem.model.jsonsource import parse_json

GOOD = {
    "module": "china-war-1980", "turn": 1, "side": "soviet", "start": {"scenario": "border-war"},
    "actions": [{"phase": "movement"}, {"move": "SOV-TK-XX-1-02", "path": ["2604", "2605"]}],
}  # fmt: skip


def write(tmp_path, data, name="turn.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=1))
    return path


def check_fails(pbem, tmp_path, path, *expected, at=None):
    """The check ends with exit 2, one line naming ``at`` (default: the turn file), nothing written."""
    out = tmp_path / "next.json"
    result = pbem("check", path, "--write-state", out)
    assert result.code == 2
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert str(at or path) in lines[0]
    for text in expected:
        assert text in lines[0], lines[0]
    assert "Traceback" not in result.err and result.out == ""
    assert not out.exists()
    return lines[0]


def test_good_turn_writes_state(pbem, tmp_path):
    out = tmp_path / "next.json"
    result = pbem("check", write(tmp_path, GOOD), "--write-state", out)
    assert result.code == 0
    assert json.loads(out.read_text())["module"] == "china-war-1980"
    # Standard error says where it wrote (standard output stays the report, for scripts).
    assert result.err.strip() == f"state after the turn written to {out}"
    assert str(out) not in result.out


def test_write_state_after_violations_says_so(pbem, tmp_path):
    out = tmp_path / "next.json"
    bad = json.loads(json.dumps(GOOD))
    bad["actions"][1]["path"] = ["2604", "2605", "2606", "2607"]  # 10 MP for a 9 MP division (6.12)
    result = pbem("check", write(tmp_path, bad), "--write-state", out, "--format", "json")
    assert result.code == 1 and out.exists()
    assert result.err.strip() == (
        f"state after the turn written to {out}, but the turn had 1 violation: "
        "it is the state the turn as written leaves, violations included"
    )
    assert json.loads(result.out)["ok"] is False  # the JSON report is untouched by the message


def test_malformed_json(pbem, tmp_path):
    text = json.dumps(GOOD, indent=1).replace('"side"', '"side" "x"', 1)
    line = check_fails(pbem, tmp_path, write(tmp_path, text), "not valid JSON")
    assert ":4:" in line  # the line of the damage


def test_unknown_unit(pbem, tmp_path):
    data = json.loads(json.dumps(GOOD))
    data["actions"][1]["move"] = "SOV-TK-XX-1-99"
    check_fails(pbem, tmp_path, write(tmp_path, data), "unknown unit 'SOV-TK-XX-1-99'", "/actions/1/move", "did you mean")


def test_unknown_hex(pbem, tmp_path):
    data = json.loads(json.dumps(GOOD))
    data["actions"][1]["path"][1] = "9999"
    check_fails(pbem, tmp_path, write(tmp_path, data), "unknown hex '9999'", "/actions/1/path/1")


def test_schema_error_names_pointer_and_line(pbem, tmp_path):
    data = json.loads(json.dumps(GOOD))
    data["actions"][1]["by"] = "teleport"
    line = check_fails(pbem, tmp_path, write(tmp_path, data), "/actions/1/by", "teleport")
    assert ":" in line.split(" ")[1]


@pytest.mark.parametrize(
    "mutate, text",
    [
        (lambda d: d["actions"].append({"move": "SOV-TK-XX-1-02", "attack": ["x"], "path": ["2604", "2605"]}), "exactly one of"),
        (lambda d: d["actions"].append({}), "/actions/2"),
        (lambda d: d.update(module="no-such-game"), "no module 'no-such-game'"),
        (lambda d: d.update(side="martians"), "side 'martians'"),
        (lambda d: d.update(start={"scenario": "atlantis"}), "no scenario 'atlantis'"),
        (lambda d: d.update(start={"state": "missing.json"}), "no such file"),
    ],
)
def test_other_input_errors(pbem, tmp_path, mutate, text):
    data = json.loads(json.dumps(GOOD))
    mutate(data)
    check_fails(pbem, tmp_path, write(tmp_path, data), text)


def test_duplicate_key_and_unit_placed_twice(pbem, tmp_path):
    text = json.dumps(GOOD, indent=1).replace('"turn": 1,', '"turn": 1,\n "turn": 2,')
    check_fails(pbem, tmp_path, write(tmp_path, text), "'turn' appears twice", ":4:")
    state = {"module": "china-war-1980", "turn": 1, "units": [{"id": "SOV-TK-XX-1-02", "at": "2604"}, {"id": "SOV-TK-XX-1-02", "at": "2605"}]}
    write(tmp_path, state, "state.json")
    data = json.loads(json.dumps(GOOD))
    data["start"] = {"state": "state.json"}
    check_fails(pbem, tmp_path, write(tmp_path, data), "placed twice", "/units/1/id", at=tmp_path / "state.json")


def test_missing_file_and_folder(pbem, tmp_path):
    check_fails(pbem, tmp_path, tmp_path / "nope.json", "no such file")
    (tmp_path / "dir.json").mkdir()
    check_fails(pbem, tmp_path, tmp_path / "dir.json", "folder")


def test_deep_nesting_refused(pbem, tmp_path):
    check_fails(pbem, tmp_path, write(tmp_path, "[" * 5000 + "]" * 5000), "nested deeper")


def test_input_is_never_modified(pbem, tmp_path):
    path = write(tmp_path, GOOD)
    before = path.read_bytes()
    pbem("check", path, "--write-state", tmp_path / "out.json")
    assert path.read_bytes() == before


def test_existing_output_untouched_on_error(pbem, tmp_path):
    out = tmp_path / "next.json"
    out.write_text("keep me")
    data = json.loads(json.dumps(GOOD))
    data["actions"][1]["move"] = "nobody"
    assert pbem("check", write(tmp_path, data), "--write-state", out).code == 2
    assert out.read_text() == "keep me"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300) | st.text(alphabet='{}[]":,0123456789 truefalsn\\\n', max_size=200))
def test_json_reader_never_crashes(blob):
    text = blob.decode("utf-8", "replace") if isinstance(blob, bytes) else blob
    try:
        document = parse_json(text, "fuzz.json")
    except PbemError as error:
        assert "fuzz.json" in str(error)
    else:
        document.position("/actions/0/path/1")


def test_python_dash_m(tmp_path):
    result = subprocess.run([sys.executable, "-m", "pbem", "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "check" in result.stdout


@pytest.mark.parametrize("args, text", [(["check"], "Missing argument 'TURN'"), (["check", "t.json", "--format", "xml"], "'xml'"), (["nosuchverb"], "No such command")])
def test_usage_mistakes_are_one_line(pbem, args, text):
    result = pbem(*args)
    assert result.code == 2 and len(result.err.strip().splitlines()) == 1
    assert text in result.err and "--help" in result.err


def _break_replay(monkeypatch):
    from pbem.cli import check as check_command

    def broken(*args, **kwargs):
        return {}["no such key: a secret from the file"]

    monkeypatch.setattr(check_command, "replay", broken)


def test_internal_error_is_one_line_and_exit_3(pbem, samples, monkeypatch):
    monkeypatch.delenv("PBEM_DEBUG", raising=False)
    _break_replay(monkeypatch)
    result = pbem("check", samples / "legal-01-amur-crossing.json")
    assert result.code == 3
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("internal error: KeyError in pbem/cli/check.py:"), result.err
    assert "Traceback" not in result.err and "secret" not in result.err and "--debug" in result.err


@pytest.mark.parametrize("switch", ["flag", "env"])
def test_debug_switch_shows_the_traceback(pbem, samples, monkeypatch, switch):
    _break_replay(monkeypatch)
    args = ["check", samples / "legal-01-amur-crossing.json"]
    if switch == "flag":
        monkeypatch.delenv("PBEM_DEBUG", raising=False)
        args = ["--debug", *args]
    else:
        monkeypatch.setenv("PBEM_DEBUG", "1")
    result = pbem(*args)
    assert result.code == 3 and "Traceback" in result.err and result.err.strip().splitlines()[-1].startswith("internal error: KeyError")


def test_out_of_memory_is_an_internal_error(pbem, samples, monkeypatch):
    from pbem.cli import check as check_command

    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(check_command, "replay", exhausted)
    result = pbem("check", samples / "legal-01-amur-crossing.json")
    assert result.code == 3 and result.err.startswith("internal error: out of memory")
