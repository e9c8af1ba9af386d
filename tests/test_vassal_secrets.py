"""A player's VASSAL secret (the password) is never shown: not by ``info``, ``log``, their JSON, nor errors.

VASSAL keeps it in clear in ``PLAYER`` commands and as the owner in the state of concealment (Obscurable
``obs;``), invisibility (Hideable ``hide;``) and ownership (Restricted ``restrict;``) traits.  The logs here
are made from real pieces: Paths of Glory's cards (``obs;``) and VASL's counters (``hide;``).
"""

from __future__ import annotations

from pathlib import Path

import zipfile

import pytest

from pbem.formats.vassal.commands import AddPiece, encode_tree, leaves, parse_command
from pbem.formats.vassal.obfuscation import obfuscate
from pbem.formats.vassal.savefile import read_saved_game
from pbem.formats.vassal.sequence import TAB, join, join_chain, split_chain
from pbem.formats.vassal.traits import public_state, Trait

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
POG_SAVE = DATA / "paths-of-glory" / "vassal" / "Classic10-8.vsav"
VASL_SAVE = DATA / "vassal-samples" / "vasl-templates-analyze-vsav-basic.vsav"
SECRET = "Zq-7secret-PASSWORD"


def first_piece_with(game, kind: str) -> AddPiece:
    for token in game.restore:
        for leaf in leaves(token):
            command = parse_command(leaf)
            if isinstance(command, AddPiece) and TAB + kind in command.type or (
                    isinstance(command, AddPiece) and command.type.startswith(kind)):
                return command
    raise AssertionError(f"no piece with {kind}")


def with_owner(command: AddPiece, kind: str, owner: str) -> str:
    """The piece's state with the ``kind`` trait's owner field set to ``owner``."""
    types = split_chain(command.type)
    states = split_chain(command.state)
    at = next(index for index, link in enumerate(types) if link.startswith(kind))
    old = states[at]
    rest = old.split(";", 1)[1] if ";" in old else None
    states[at] = owner if rest is None else owner + ";" + rest
    return join_chain(states)


def write_log(game, path: Path) -> Path:
    # A plain zip: re-finding the original deflate level of a 1.9 MB member is not what is tested here.
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:
        archive.writestr("savedGame", obfuscate(encode_tree(game.tree).encode("utf-8"), game.obfuscation))
    return path


def log_from(save: Path, kind: str, tmp_path: Path, roster: bool) -> Path:
    """``save`` turned into a log with two steps: the owner masks/hides a piece, then unmasks it."""
    game = read_saved_game(save.read_bytes(), save)
    piece = first_piece_with(game, kind)
    hidden = with_owner(piece, kind, SECRET)
    steps = [f"LOG\tD/{join([piece.id, hidden, piece.state], '/')}",
             f"LOG\tD/{join([piece.id, piece.state, hidden], '/')}"]
    # The real piece alone, as its save adds it: the rest of a 1.9 MB save would only slow the test.
    tokens = ["begin_save", "", ["", "+/" + join([piece.id, piece.type, piece.state], "/")]]
    if roster:
        tokens.append(f"PLAYER\t{SECRET}\tAlice\tCentral Powers")
    game.tree = tokens + ["end_save"] + steps
    return write_log(game, tmp_path / f"{save.stem}-{kind.rstrip(';')}.vlog")


needs_data = pytest.mark.skipif(not POG_SAVE.is_file() or not VASL_SAVE.is_file(),
                                reason=f"real VASSAL saves not found under {DATA}")


@needs_data
@pytest.mark.parametrize("save, kind", [(POG_SAVE, "obs;"), (VASL_SAVE, "hide;")], ids=["pog-obs", "vasl-hide"])
@pytest.mark.parametrize("roster", [True, False], ids=["in-roster", "unknown-owner"])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_owner_secret_of_a_real_piece_is_never_printed(pbem, tmp_path, save, kind, roster, fmt):
    path = log_from(save, kind, tmp_path, roster)
    result = pbem("vassal", "log", str(path), "--format", fmt)
    assert result.code == 0, result.err
    assert SECRET not in result.out and SECRET not in result.err
    owner = "Alice" if roster else "(a player)"
    if fmt == "text":  # the change is still shown, with who did it
        assert f"{kind.rstrip(';')} null" in result.out and f"->{owner}" in result.out
        assert f"{kind.rstrip(';')} {owner}" in result.out and "->null" in result.out
    else:
        assert f'"after": "{owner}' in result.out and f'"before": "{owner}' in result.out
    info = pbem("vassal", "info", str(path), "--format", fmt)
    assert info.code == 0 and SECRET not in info.out


@needs_data
def test_change_of_a_piece_never_added_shows_no_raw_state(pbem, tmp_path):
    game = read_saved_game(POG_SAVE.read_bytes(), POG_SAVE)
    piece = first_piece_with(game, "obs;")
    hidden = with_owner(piece, "obs;", SECRET)
    game.tree = list(game.tokens) + [f"LOG\tD/{join(['no-such-piece', hidden, piece.state], '/')}"]
    path = write_log(game, tmp_path / "unknown.vlog")
    for fmt in ("text", "json"):
        result = pbem("vassal", "log", str(path), "--format", fmt)
        assert result.code == 0 and SECRET not in result.out


def test_public_state_of_each_owner_trait():
    owners = {SECRET: "Alice"}
    assert public_state(Trait("obs;", "obs;70,0;mask.png;Mask;G;*", f"{SECRET};"), owners) == "Alice;"
    assert public_state(Trait("hide;", "hide;72,130;HIP", SECRET), {}) == "(a player)"
    assert public_state(Trait("restrict;", "restrict;;German", SECRET), owners) == "Alice"
    assert public_state(Trait("obs;", "obs;70,0;mask.png", "null;"), owners) == "null;"
    assert public_state(Trait("mark;", "mark;Side", SECRET), owners) == SECRET  # not an owner's field
