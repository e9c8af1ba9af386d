"""A JSON turn file is read once: its first bytes (a VASSAL file? a picture?) and its text come from one read,
and a file that is not a plain regular one within the size limit is read as before, by whoever says what is wrong."""

from __future__ import annotations

import builtins
import os
import shutil
from pathlib import Path

import pytest

from pbem.formats import turnfile
from pbem.formats.turnfile import load_turn, read_turn_document
from pbem.model import files
from pbem.model.errors import PbemError

SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "china-war-1980"


def _count_opens(monkeypatch, path: Path) -> list[str]:
    """Every open of ``path`` (by ``open`` or ``os.open``), as the name of the function that made it."""
    opened: list[str] = []
    real_open, real_os_open = builtins.open, os.open

    def counting_open(file, *args, **kwargs):
        if str(file) == str(path):
            opened.append("open")
        return real_open(file, *args, **kwargs)

    def counting_os_open(file, *args, **kwargs):
        if str(file) == str(path):
            opened.append("os.open")
        return real_os_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(os, "open", counting_os_open)
    return opened


def test_a_json_turn_is_opened_once(tmp_path, monkeypatch):
    for name in ("legal-01-amur-crossing.json", "start.json"):
        if (SAMPLES / name).exists():
            shutil.copy(SAMPLES / name, tmp_path / name)
    turn = tmp_path / "legal-01-amur-crossing.json"
    opened = _count_opens(monkeypatch, turn)
    read_turn_document(turn)
    assert opened == ["os.open"]
    opened.clear()
    loaded, _ = load_turn(turn)
    assert opened == ["os.open"] and loaded.actions


def test_a_picture_named_json_is_refused_from_the_one_read(tmp_path, monkeypatch):
    turn = tmp_path / "turn.json"
    turn.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    opened = _count_opens(monkeypatch, turn)
    with pytest.raises(PbemError, match="this is a PNG picture, not a turn"):
        read_turn_document(turn)
    assert opened == ["os.open"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_never_opened_to_read_it_once(tmp_path, monkeypatch):
    fifo = tmp_path / "turn.json"
    os.mkfifo(fifo)
    opened = _count_opens(monkeypatch, fifo)
    assert turnfile._regular_bytes(fifo) is None
    assert opened == []


def test_a_file_over_the_limit_is_refused_as_before(tmp_path):
    turn = tmp_path / "turn.json"
    turn.write_bytes(b"[" + b" " * files.MAX_INPUT_BYTES + b"]")
    assert turnfile._regular_bytes(turn) is None
    with pytest.raises(PbemError) as caught:
        read_turn_document(turn)
    assert str(caught.value) == f"{turn}: file is larger than 4 MiB"


def test_a_vassal_log_by_its_content_goes_to_the_vassal_reader(tmp_path, monkeypatch):
    turn = tmp_path / "turn.json"
    turn.write_bytes(b"!VCSK" + bytes(32))
    seen = []

    def reader(path, module, previous):
        seen.append(path)
        raise PbemError.at(path, "read by the VASSAL reader")

    import pbem.formats.vassal.to_turn as to_turn

    monkeypatch.setattr(to_turn, "read_vassal_turn", reader)
    with pytest.raises(PbemError, match="read by the VASSAL reader"):
        read_turn_document(turn)
    assert seen == [str(turn)]


def test_read_bytes_reads_a_file_whole(tmp_path):
    path = tmp_path / "data.bin"
    data = os.urandom(300_000)
    path.write_bytes(data)
    assert files.read_bytes(path) == data
    path.write_bytes(b"")
    assert files.read_bytes(path) == b""
    path.write_bytes(b"x" * 101)
    with pytest.raises(PbemError, match="file is larger than 100 bytes"):
        files.read_bytes(path, 100)


def test_the_archive_turn_loader_hands_the_bytes_over_without_reading_them_back(monkeypatch):
    from pbem.archive.play import TurnLoader
    from pbem.model.module import load_module_by_id

    sample = SAMPLES / "legal-01-amur-crossing.json"
    data = sample.read_bytes()
    module = load_module_by_id("china-war-1980")
    with TurnLoader() as loader:
        written = loader.folder / "turn.json"
        opened = _count_opens(monkeypatch, written)
        turn = loader.load("turn.json", data, module)
        assert opened == []  # written, not read back
    from_file, _ = load_turn(sample, module)
    assert turn.file == "turn.json" and turn.header == from_file.header
    assert [repr(a).replace(str(written), "F") for a in turn.actions] == [repr(a).replace(str(sample), "F") for a in from_file.actions]


def test_bytes_handed_over_are_read_as_the_file_would_be(tmp_path):
    turn = tmp_path / "turn.json"
    for data in (b"\x89PNG\r\n\x1a\n", b'{"module": 1', b"\xff\xfe{}", b'{"a": 1, "a": 2}'):
        turn.write_bytes(data)
        with pytest.raises(PbemError) as from_file:
            read_turn_document(turn)
        with pytest.raises(PbemError) as handed:
            read_turn_document(turn, data=data)
        assert str(handed.value) == str(from_file.value)


def test_every_action_of_a_long_turn_points_at_itself(tmp_path):
    import json

    data = json.loads((SAMPLES / "legal-01-amur-crossing.json").read_text(encoding="utf-8"))
    data["actions"] = [{"phase": "movement"}, {"comment": "x"}] * 650  # beyond the pointers kept
    turn = tmp_path / "long.json"
    turn.write_text(json.dumps(data, indent=1), encoding="utf-8")
    for _ in range(2):  # the second time from the pointers kept
        loaded, _ = load_turn(turn)
        assert [a.source.pointer for a in loaded.actions] == [f"/actions/{n}" for n in range(1300)]
        assert [a.index for a in loaded.actions] == list(range(1300))
        assert loaded.actions[1299].source.line == loaded.actions[0].source.line + 1299 * 3  # three lines each
