"""A game's dice record file (``GAME.dice``) and the roller's secrets beside it (``GAME.dice.secret``, mode 0600).

The record is JSON: ``{"pbem_dice_record": 1, "game": ..., "messages": [request, answer, reveal, ...]}``, one
message a line in the order they came, each the very object a dice block carries. Both players' records of a
game hold the same messages. The secrets file holds the roller's secret of each request not yet revealed; it is
never sent, and a secret leaves it only inside a reveal.
"""

from __future__ import annotations

import json
from pathlib import Path

from pbem.model.errors import PbemError
from pbem.model.fairdice import DiceError, Record, check_game, read_record
from pbem.model.files import read_bytes, write_atomic
from pbem.model.jsonsource import parse_json

SUFFIX = ".dice"
SECRET_SUFFIX = ".secret"
MAX_RECORD_BYTES = 16 * 1024 * 1024  # 10,000 requests of a few dice each take about 8 MiB


def default_path(game: str) -> Path:
    """The record of ``game`` in the current folder."""
    return Path(f"{game}{SUFFIX}")


def secrets_path(record: Path) -> Path:
    return record.with_name(record.name + SECRET_SUFFIX)


def load_record(path: str | Path, strict: bool = True) -> tuple[Record, list[str]]:
    """The record in ``path``; a refused message raises (``strict``) or is returned among the problems."""
    data = read_bytes(path, MAX_RECORD_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PbemError.at(path, "not UTF-8 text") from None
    return record_from_text(text, str(path), strict)


def load_record_bytes(data: bytes, where: str, strict: bool = True) -> tuple[Record, list[str]]:
    """A record from its file's bytes (as the archive keeps them)."""
    if len(data) > MAX_RECORD_BYTES:
        raise PbemError.at(where, f"a dice record is at most {MAX_RECORD_BYTES // (1024 * 1024)} MiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise PbemError.at(where, "not UTF-8 text") from None
    return record_from_text(text, where, strict)


def record_from_text(text: str, where: str, strict: bool = True) -> tuple[Record, list[str]]:
    document = parse_json(text, where)
    try:
        return read_record(document.data, where, strict)
    except DiceError as error:
        raise PbemError.at(where, error.message.removeprefix(f"{where}: ")) from None


def save_record(path: str | Path, record: Record) -> None:
    """Write the record whole or not at all, after reading it back as the next command will."""
    text = record.text()
    again, _ = read_record(json.loads(text), str(path))
    if again.messages != record.messages:  # pragma: no cover - pbem's own bug
        raise RuntimeError("a dice record pbem wrote does not read back the same")
    write_atomic(path, text)


def load_secrets(record: Path) -> dict[int, bytes]:
    """The roller's unrevealed secrets (sequence number -> 32 bytes); none when there is no secrets file."""
    path = secrets_path(record)
    if not path.exists():
        return {}
    document = parse_json(read_bytes(path, 1024 * 1024).decode("utf-8", "replace"), path)
    data = document.data
    if not isinstance(data, dict) or not all(k.isdigit() and isinstance(v, str) and len(v) == 64 for k, v in data.items()):
        raise PbemError.at(path, "not a pbem dice secrets file ({\"seq\": \"64 hex digits\"})")
    try:
        return {int(k): bytes.fromhex(v) for k, v in data.items()}
    except ValueError:
        raise PbemError.at(path, "a secret is not hex") from None


def save_secrets(record: Path, secrets: dict[int, bytes]) -> None:
    """Write the secrets file readable by its owner only; remove it when no secret is left."""
    path = secrets_path(record)
    if not secrets:
        path.unlink(missing_ok=True)
        return
    write_atomic(path, json.dumps({str(k): v.hex() for k, v in sorted(secrets.items())}, indent=1) + "\n", private=True)


def new_record(game: str) -> Record:
    try:
        check_game(game, "GAME")
    except DiceError as error:
        raise PbemError(error.message) from None
    return Record(game)
