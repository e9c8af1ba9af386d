"""``pbem dice``: a game's dice on record, and dice two players can trust by email (request, answer, reveal)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pbem.cli import EXIT_OK, EXIT_VIOLATIONS, counted, one_line
from pbem.cli.archive import DB_HELP, DB_LOCATION


@click.group()
def dice() -> None:
    """A game's dice: rolls two players can trust by email (request, answer, reveal, verify; docs/dice.md), and
    who rolled what, and how the counts compare with fair dice (stats)."""


@dice.command()
@click.argument("game", nargs=-1, required=True)
@click.option("--db", type=DB_LOCATION, help=DB_HELP)
@click.option("--module", "module_name", help="Module id or folder (default: the game's).")
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
def stats(game: tuple[str, ...], db: Path | None, module_name: str | None, output: str) -> int:
    """Every roll of GAME by player and purpose, the counts per face, the mean against the expected, a chi-square
    test per player and die type (with its p-value), and the re-rolls after undos.

    GAME is a game folder, zip or turn files, an archived game's number, or a chain of VASSAL logs (files or a
    folder). A low p-value says the rolls are unusual for fair dice; it does not prove cheating (see the report).
    """
    from pbem.engine.dicestats import dice_stats, stats_lines

    module, turns, players, records = load_game_files(game, db, module_name)
    from pbem.archive.gamedice import dice_record

    result = dice_stats(dice_record(module, turns, records))
    if output == "json":
        click.echo(json.dumps({"module": module.id, "players": players, **result.as_json()}, indent=2, ensure_ascii=False))
    else:
        for line in stats_lines(result, players):
            click.echo(one_line(line))
    return EXIT_OK


def load_game_files(game: tuple[str, ...], db: Path | None, module_name: str | None):
    """The module, the turn files in play order, the players (side -> names) and the dice records of GAME."""
    from pbem.archive import games
    from pbem.archive.gamefiles import read_game
    from pbem.model.module import load_module, load_module_by_id

    reference = game[0].lstrip("#")
    if len(game) == 1 and reference.isdigit() and not Path(game[0]).exists():
        import sqlite3

        from pbem.archive.store import open_archive, shown_location
        from pbem.model.errors import PbemError

        try:
            with open_archive(db) as archive:
                stored = games.load_game(archive, reference)
        except sqlite3.DatabaseError as error:
            raise PbemError.at(shown_location(db), f"cannot read the archive: {error}") from None
        module = load_module(module_name) if module_name else load_module_by_id(stored.module)
        return module, stored.turns, stored.metadata.get("players") or {}, stored.dice
    from pbem.cli.chain import chain_files

    paths = tuple(Path(g) for g in game)
    try:
        files = chain_files(paths) if all(p.suffix.lower() in (".vlog", ".vsav") for p in paths) or _only_vassal(paths) else None
    except Exception:
        files = None
    if files:
        from pbem.cli.chain import _module_of
        from pbem.model.files import read_bytes

        module = load_module(module_name) if module_name else _module_of(files)
        return module, [(p.name, read_bytes(p)) for p in files], {}, {}
    found = read_game(list(paths))
    module = games.resolve_module(found, module_name)
    games.order_input(found, module)
    return module, [(t.name, t.data) for t in found.turns], found.metadata.get("players") or {}, found.dice


def _only_vassal(paths: tuple[Path, ...]) -> bool:
    """A folder holding VASSAL files and no turn file of another kind."""
    if len(paths) != 1 or not paths[0].is_dir():
        return False
    names = [p.name.lower() for p in paths[0].iterdir() if p.is_file() and not p.name.startswith(".")]
    return any(n.endswith((".vlog", ".vsav")) for n in names) and not any(n.endswith((".json", ".pbem", ".txt", ".eml")) for n in names if n != "game.json")


RECORD_HELP = "The game's dice record (default: GAME.dice in the current folder)."


@dice.command()
@click.argument("game")
@click.option("--for", "rolls", multiple=True, required=True, metavar="PURPOSE: DICE",
              help='What a roll is for and its dice, e.g. "attack on 3005: 1d6" or "political: 2 x 1d6" (repeat for each roll; no dice: 1d6).')
@click.option("--turn", type=click.IntRange(0, 2**31 - 1), required=True, help="The game turn the dice are for.")
@click.option("--phase", required=True, help="The phase the dice are for (e.g. combat).")
@click.option("--side", required=True, help="The side rolling (yours).")
@click.option("--seq", type=click.IntRange(0, 2**31 - 1), help="The request's sequence number (default: one more than the record's last).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path), help=RECORD_HELP)
def request(game: str, rolls: tuple[str, ...], turn: int, phase: str, side: str, seq: int | None, record_path: Path | None) -> int:
    """Ask for dice (the roller): print a REQUEST block to send to your opponent.

    The request names GAME, the turn, phase and side, a sequence number and what each die is for, and commits to
    32 secret random bytes kept in RECORD.secret (readable by you only, never sent until the reveal).
    """
    import secrets

    from pbem.formats.dicemail import armour
    from pbem.formats.dicerecord import default_path, load_secrets, new_record, save_record, save_secrets
    from pbem.model import fairdice

    path = record_path or default_path(game)
    record = _local_record(path, game)
    with _refused(path):
        parsed = tuple(fairdice.parse_roll(text) for text in rolls)
        number = seq if seq is not None else max(record.entries, default=0) + 1
        body = fairdice.Request(game, number, turn, " ".join(phase.split()), " ".join(side.split()), parsed)
        fairdice.Request.from_body(body.body(), "--for")  # the same bounds as a request read from a message
        stored = load_secrets(path)
        secret = secrets.token_bytes(fairdice.SECRET_BYTES)
        message = fairdice.request_message(body, fairdice.commitment(body.encoded(), secret))
        record.add(message)
    stored[number] = secret
    save_secrets(path, stored)  # the secret first: a request recorded without it could never be revealed
    save_record(path, record)
    click.echo(armour(message), nl=False)
    click.echo(one_line(f"request #{number} recorded in {path}; send the block above to your opponent"), err=True)
    return EXIT_OK


@dice.command()
@click.argument("message", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path), help=RECORD_HELP)
def answer(message: Path, record_path: Path | None) -> int:
    """Answer a request (the opponent): MESSAGE is the email with the REQUEST block ('-': standard input).

    Records the request and 32 random bytes of yours, and prints the ANSWER block to send back.
    """
    import secrets

    from pbem.formats.dicemail import armour
    from pbem.formats.dicerecord import save_record
    from pbem.model import fairdice

    blocks = _blocks(message, ("request",))
    game = blocks[0].message["request"].get("game") if isinstance(blocks[0].message.get("request"), dict) else None
    path = record_path or _default_for(game, message, blocks[0].line)
    record = _local_record(path, game)
    replies = []
    for block in blocks:
        with _refused(message, block.line):
            record.add(block.message)
            seq = block.message["request"]["seq"]
            entry = record.entries[seq]
            if entry.answer is None:
                reply = {"kind": "answer", "game": entry.request.game, "seq": seq, "request": entry.digest.hex(),
                         "answer": secrets.token_bytes(fairdice.SECRET_BYTES).hex()}
                record.add(reply)
            if all(r["seq"] != seq for r in replies):  # a block quoted twice is answered once
                replies.append(fairdice.answer_message(entry))
    save_record(path, record)
    for reply in replies:
        click.echo(armour(reply), nl=False)
    click.echo(one_line(f"answered {_numbers(replies)} in {path}; send the block above to your opponent"), err=True)
    return EXIT_OK


@dice.command()
@click.argument("message", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path), default="-")
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path), help=RECORD_HELP)
def reveal(message: Path, record_path: Path | None) -> int:
    """Reveal the dice: MESSAGE is the email with an ANSWER block (the roller) or a REVEAL block (the opponent).

    The roller records the answer, prints the dice and the REVEAL block to send back (the secret, taken out of
    RECORD.secret). The opponent records the reveal, checked against the request's commitment, and sees the same
    dice.
    """
    from pbem.formats.dicemail import armour
    from pbem.formats.dicerecord import load_secrets, save_record, save_secrets
    from pbem.model import fairdice

    blocks = _blocks(message, ("answer", "reveal"))
    if any(b.kind == "reveal" for b in blocks):  # the opponent's side: a quoted answer is only context
        blocks = [b for b in blocks if b.kind == "reveal"]
    game = blocks[0].message.get("game")
    path = record_path or _default_for(game, message, blocks[0].line)
    record = _local_record(path, game)
    stored = load_secrets(path) if blocks[0].kind == "answer" else {}
    out, shown = [], []
    for block in blocks:
        with _refused(message, block.line):
            if block.kind == "answer":
                record.add(block.message)
                seq = block.message["seq"]
                entry = record.entries[seq]
                if entry.secret is None:
                    secret = stored.get(seq)
                    if secret is None:
                        raise fairdice.DiceError(f"no secret of request #{seq} in {path.name}{'.secret'}: only its roller can reveal it")
                    record.add({**fairdice.answer_message(entry), "kind": "reveal", "secret": secret.hex()})
                out.append(fairdice.reveal_message(entry))
            else:
                record.add(block.message)
                entry = record.entries[block.message["seq"]]
            if entry in shown:
                continue
            shown.append(entry)
    save_record(path, record)
    for entry in shown:
        stored.pop(entry.request.seq, None)
    if out:
        save_secrets(path, stored)
    for entry in shown:
        for line in dice_lines(entry):
            click.echo(one_line(line))
    for reply in {m["seq"]: m for m in out}.values():
        click.echo(armour(reply), nl=False)
    note = "send the block above to your opponent" if out else "the dice match the request's commitment"
    click.echo(one_line(f"revealed {_numbers([fairdice.reveal_message(e) for e in shown])} in {path}; {note}"), err=True)
    return EXIT_OK


@dice.command()
@click.argument("record_path", metavar="RECORD", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
def verify(record_path: Path, output: str) -> int:
    """Recompute every die of a dice record from its requests, answers and reveals.

    Lists each request with its dice, or what it still waits for; a message the protocol refuses (a reveal that
    does not match its commitment, two requests with one number, an answer to an unknown request, another
    game's message, a reused secret) is a problem. Exit code 0: every message checks; 1: problems found.
    """
    from pbem.formats.dicerecord import load_record

    record, problems = load_record(record_path, strict=False)
    if output == "json":
        entries = [{"seq": seq, "turn": e.request.turn, "phase": e.request.phase, "side": e.request.side, "status": e.status,
                    "rolls": [{"for": r["for"], "dice": r["dice"], "faces": faces} for r, faces in (e.rolls() or [])] or None}
                   for seq, e in sorted(record.entries.items())]
        click.echo(json.dumps({"record": str(record_path), "game": record.game, "requests": entries, "problems": problems,
                               "ok": not problems}, indent=2, ensure_ascii=False))
    else:
        for seq, entry in sorted(record.entries.items()):
            for line in dice_lines(entry):
                click.echo(one_line(line))
        for problem in problems:
            click.echo(one_line(f"{record_path}: {problem}"))
        waiting = sum(e.status != "revealed" for e in record.entries.values())
        click.echo(one_line(f"{record_path}: game {record.game}, {counted(len(record.entries), 'request')}, {waiting} not revealed, "
                            + (f"{len(problems)} problems" if problems else "every die recomputed")))
    return EXIT_VIOLATIONS if problems else EXIT_OK


def dice_lines(entry) -> list[str]:
    """``#3 turn 1 combat (soviet): attack on 3005: 1d6 = 4``, one line a roll, or what the request waits for."""
    head = f"#{entry.request.seq} turn {entry.request.turn} {entry.request.phase} ({entry.request.side})"
    rolls = entry.rolls()
    if rolls is None:
        return [f"{head}: {', '.join(r['for'] + ': ' + r['dice'] for r in entry.request.rolls)}: {entry.status}"]
    return [f"{head}: {roll['for']}: {roll['dice']} = {'+'.join(map(str, faces))}" for roll, faces in rolls]


def _numbers(messages) -> str:
    return ", ".join(f"#{m['seq']}" for m in messages)


def _blocks(message: Path, kinds: tuple[str, ...]):
    """The dice blocks of ``kinds`` in the email MESSAGE; none is an input error."""
    from pbem.formats.dicemail import read_blocks
    from pbem.model.errors import PbemError
    from pbem.model.files import read_text

    where = "<stdin>" if str(message) == "-" else str(message)
    if str(message) == "-":
        text = click.get_text_stream("stdin").read(1024 * 1024 + 1)
        if len(text) > 1024 * 1024:
            raise PbemError.at(where, "more than 1 MB on standard input: paste the email with the dice block only")
    else:
        text = read_text(message, 1024 * 1024)
    blocks = read_blocks(text, where, kinds)
    if not blocks:
        raise PbemError.at(where, f"no dice {' or '.join(k.upper() for k in kinds)} block (-----BEGIN PBEM DICE ...-----) in it")
    return blocks


def _default_for(game, message: Path, line: int) -> Path:
    from pbem.formats.dicerecord import default_path
    from pbem.model import fairdice
    from pbem.model.errors import PbemError

    try:
        fairdice.check_game(game, "the message")
    except fairdice.DiceError as error:
        raise PbemError.at(message, error.message, line=line) from None
    return default_path(game)


def _local_record(path: Path, game: str | None):
    """The record at ``path`` (checked whole), or a new one for ``game``; a record of another game is refused."""
    from pbem.formats.dicerecord import load_record, new_record
    from pbem.model.errors import PbemError

    if path.exists():
        record, _ = load_record(path)
        if game is not None and record.game != game:
            raise PbemError.at(path, f"this record is game {record.game!r}'s, not {game!r}'s: give the game's own --record")
        return record
    return new_record(game or "")


class _refused:
    """Turns a refusal of the protocol into one line naming the file (and the block's line)."""

    def __init__(self, where: Path, line: int | None = None):
        self.where, self.line = where, line

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, error, trace) -> bool:
        from pbem.model.errors import PbemError
        from pbem.model.fairdice import DiceError

        if isinstance(error, DiceError):
            raise PbemError.at("<stdin>" if str(self.where) == "-" else self.where, error.message, line=self.line) from None
        return False
