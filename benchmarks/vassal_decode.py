"""Timing the decoder against the floor: ``python benchmarks/vassal_decode.py [SAVE] [--runs N]``.

The floor is what no reader can avoid: unzip, hex decode, XOR, split on ESC.  The measured work is a full
read: zip checks, deobfuscation, the command tree, every command parsed and every piece decoded.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import zipfile
from pathlib import Path

from pbem.formats.vassal.commands import leaves, parse_command
from pbem.formats.vassal.savefile import collect_pieces, read_saved_game
from pbem.formats.vassal.traits import _cached_type_links

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "data" / "paths-of-glory" / "vassal" / "Classic10-8.vsav"


def floor(data: bytes) -> int:
    """Unzip, hex-decode, XOR, split on ESC: the least any reader must do.  Returns the piece count."""
    import io

    raw = zipfile.ZipFile(io.BytesIO(data)).read("savedGame")
    key = int(raw[5:7], 16)
    plain = bytes.fromhex(raw[7:].decode("ascii")).translate(bytes(value ^ key for value in range(256)))
    return len(plain.decode("utf-8").split("\x1b"))


def parse(data: bytes, source: str) -> list:
    """Decode and parse: zip checks, deobfuscation, the command tree, every command typed."""
    game = read_saved_game(data, source)
    return [parse_command(leaf) for token in game.tokens for leaf in leaves(token)]


def place(data: bytes, source: str) -> int:
    """Also place every piece (map and position from its BasicPiece), as ``pbem vassal info`` does."""
    pieces, stacks = collect_pieces(parse(data, source))
    return len(pieces) + len(stacks)


def name(data: bytes, source: str) -> int:
    """Also decode every piece's whole trait chain, to name it as VASSAL would (cold: no type chain
    remembered from an earlier run)."""
    _cached_type_links.cache_clear()
    pieces, _ = collect_pieces(parse(data, source))
    return sum(len(piece.name) for piece in pieces.values())


def _median(function, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("save", nargs="?", default=str(DEFAULT))
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args(argv)
    path = Path(args.save)
    if not path.is_file():
        print(f"{path}: not found (the sample lives in ../shared/data)", file=sys.stderr)
        return 2
    data = path.read_bytes()
    commands = floor(data)
    floor_time = _median(lambda: floor(data), args.runs)
    parse_time = _median(lambda: parse(data, str(path)), args.runs)
    place_time = _median(lambda: place(data, str(path)), args.runs)
    name_time = _median(lambda: name(data, str(path)), args.runs)
    print(f"{path.name}: {len(data) / 1e6:.1f} MB file, {commands} ESC-separated commands")
    print(f"floor (unzip + hex + XOR + split):   median {floor_time:.3f} s")
    print(f"decode + parse commands:             median {parse_time:.3f} s  ({parse_time / floor_time:.2f}x floor,"
          f" target <= 2x)")
    print(f"... and place every piece:           median {place_time:.3f} s  ({place_time / floor_time:.2f}x floor)")
    print(f"... and name every piece (all traits): median {name_time:.3f} s  ({name_time / floor_time:.2f}x floor)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
