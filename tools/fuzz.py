"""Fuzz pbem's command line with mutated real files, each run capped in time and memory.

Every input format pbem reads is seeded from the repository's samples (and ``../shared/data`` when present),
mutated (structure-aware for JSON, notation and VASSAL command streams, bytes for everything), and handed to
the real CLI entry point, ``pbem.cli.main``, in a forked child that has at most ``--memory`` MiB of address
space and ``--limit`` seconds of CPU. The child's exit tells the class::

    refusal  exit 2, one line on stderr           (a clean input error)
    verdict  exit 0 or 1                          (the input was understood)
    crash    exit 3, a traceback, a signal, or exit 2 that breaks the contract (several lines, output written)
    hang     over the CPU limit, or over three times the limit in wall time (not counting the time the child
             was ready to run but waited for a CPU, which the kernel's scheduler statistics tell; at most 60 times)
    memory   the memory cap was hit

Each crash and hang is kept under ``--keep`` (default ``fuzz-findings/``) with the command that shows it.

Children start warm: before the first input the harness imports everything pbem's code imports (scipy.stats for
the dice statistics included), builds every bundled module and its rules, and runs one clean-ending input of each
format and command in its own process, then freezes its heap (``gc.freeze``), so a child pays for its input's
check, not for loading pbem (about 1.8 times as many inputs per CPU second). ``--jobs N`` runs N forking
workers on one shared sequence of inputs: the inputs are the same for any N.

    python tools/fuzz.py --seconds 40                 # the short pass CI runs
    nice -n 19 python tools/fuzz.py --inputs 100000 --seed N --jobs 1   # a long pass
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import io
import json
import math
import os
import random
import re
import resource
import select
import shutil
import signal
import sqlite3
import sys
import tempfile
import time
import traceback
import zipfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT))

CLASSES = ("refusal", "verdict", "crash", "hang", "memory")

# Values that have broken parsers before: huge and non-finite numbers, lone surrogates, control characters.
HOSTILE_JSON = [
    "0", "-1", "1", "7", "-7", "65536", "2147483648", "9007199254740993", "18446744073709551616", "1e308", "1e999",
    "-1e999", "1.5", "NaN", "Infinity", "-0", "1" * 5000, "true", "false", "null", '""', '"\\ud800"',
    '"\\udc00x"', '"\\u0000"', '"\\u001b[31mred"', '"' + "x" * 70000 + '"', "[]", "{}", "[" * 70 + "]" * 70,
    '"../../etc/passwd"', '"/etc/hostname"', '"2604"', '"X28"', '"A1"', '"movement"', '"combat"', '"recovery"',
    '"night"', '"soviet"', '"finnish"', '"chinese"',
]  # fmt: skip
HOSTILE_TOKENS = [
    "0", "-1", "99999999999999999999", "1" * 5000, "1e309", "NaN", "-2147483649", "", "\ud800", "\x1b[2J", "\x00",
    "x" * 5000, ";", "\\", "\t", "\x1b", "/", ",", "1000000000000",
]  # fmt: skip


# --- mutations -----------------------------------------------------------------------------------------------
def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """A few byte-level edits: flips, insertions, deletions, duplicated or repeated chunks."""
    out = bytearray(data)
    for _ in range(rng.choice((1, 1, 2, 3, 8))):
        if not out:
            out += bytes([rng.randrange(256)])
            continue
        at = rng.randrange(len(out))
        op = rng.randrange(7)
        if op == 0:
            out[at] ^= 1 << rng.randrange(8)
        elif op == 1:
            out[at] = rng.choice(b"\x00\xff\"\\{}[],:;\t\x1b/0123456789-e.")
        elif op == 2:
            del out[at : at + rng.choice((1, 1, 4, 64, 1024))]
        elif op == 3:
            out[at:at] = rng.choice(HOSTILE_TOKENS).encode("utf-8", "surrogatepass")
        elif op == 4:
            length = rng.choice((1, 8, 64, 512))
            out[at:at] = out[at : at + length] * rng.choice((2, 10, 100))
        elif op == 5:
            other = rng.randrange(len(out))
            length = rng.choice((1, 16, 256))
            out[at : at + length] = out[other : other + length]
        else:
            del out[at:]
    return bytes(out)


def _nodes(value, path=()):
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _nodes(item, (*path, key))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from _nodes(item, (*path, n))


def _get(value, path):
    for part in path:
        value = value[part]
    return value


def mutate_json(data: bytes, rng: random.Random, pool: list) -> bytes:
    """Edit the parsed document: replace, drop, repeat or splice values, then sometimes its bytes too."""
    try:
        doc = json.loads(data)
    except ValueError:
        return mutate_bytes(data, rng)
    raw: dict[str, str] = {}
    for _ in range(rng.choice((1, 1, 2, 3, 5))):
        nodes = list(_nodes(doc))
        path, value = rng.choice(nodes)
        op = rng.randrange(8)
        if not path:
            continue
        parent = _get(doc, path[:-1])
        key = path[-1]
        if op <= 2:
            marker = f"@@RAW{len(raw)}@@"
            raw[marker] = rng.choice(HOSTILE_JSON)
            parent[key] = marker
        elif op == 3:
            del parent[key]
        elif op == 4 and isinstance(value, list) and value:
            parent[key] = value + [rng.choice(value)] * rng.choice((1, 10, 1000))
        elif op == 5 and pool:
            other = rng.choice(pool)
            parent[key] = json.loads(json.dumps(rng.choice(list(_nodes(other)))[1]))
        elif op == 6:
            _, donor = rng.choice(nodes)
            parent[key] = json.loads(json.dumps(donor))  # a copy: never a cycle
        elif isinstance(parent, dict):
            parent[rng.choice(["note", "x", "$schema", "side", "phase", "units", "ammo", "steps", "turn"])] = value
    text = json.dumps(doc, indent=rng.choice((None, 1)), ensure_ascii=False, check_circular=False)
    for marker, value in raw.items():
        text = text.replace(f'"{marker}"', value)
    out = text.encode("utf-8", "surrogatepass")
    return mutate_bytes(out, rng) if rng.random() < 0.15 else out


def mutate_lines(data: bytes, rng: random.Random, pool: list) -> bytes:
    """Notation: drop, repeat, swap or borrow lines and words; make lines long."""
    lines = data.decode("utf-8", "replace").split("\n")
    borrowed = [line for other in pool for line in other.decode("utf-8", "replace").split("\n")] or lines
    for _ in range(rng.choice((1, 2, 3, 6))):
        at = rng.randrange(len(lines) or 1)
        op = rng.randrange(7)
        if op == 0 and lines:
            del lines[at]
        elif op == 1 and lines:
            lines[at:at] = [lines[at]] * rng.choice((1, 10, 60))
        elif op == 2:
            lines.insert(at, rng.choice(borrowed))
        elif op == 3 and lines:
            words = lines[at].split(" ")
            words[rng.randrange(len(words))] = rng.choice(HOSTILE_TOKENS + rng.choice(borrowed).split(" "))
            lines[at] = " ".join(words)
        elif op == 4 and lines:
            lines[at] = lines[at] + " " + " ".join(rng.choice(borrowed).split(" ")[-2:]) * rng.choice((10, 100))
        elif op == 5 and len(lines) > 1:
            other = rng.randrange(len(lines))
            lines[at], lines[other] = lines[other], lines[at]
        else:
            lines.insert(at, rng.choice(HOSTILE_TOKENS))
    out = "\n".join(lines).encode("utf-8", "surrogatepass")
    return mutate_bytes(out, rng) if rng.random() < 0.2 else out


_SEPARATORS = re.compile(rb"[\t;\x1b/,]")


def mutate_stream(plain: bytes, rng: random.Random) -> bytes:
    """A VASSAL command stream: replace tokens between separators, repeat segments, then bytes."""
    out = plain
    for _ in range(rng.choice((1, 2, 4))):
        cuts = _separator_offsets(out)
        if len(cuts) < 2:
            break
        n = rng.randrange(len(cuts) - 1)
        start, end = int(cuts[n]) + 1, int(cuts[n + 1])
        op = rng.randrange(4)
        if op <= 1:
            out = out[:start] + rng.choice(HOSTILE_TOKENS).encode("utf-8", "surrogatepass") + out[end:]
        elif op == 2:
            out = out[:start] + out[start:end] * rng.choice((2, 100, 5000)) + out[end:]
        else:
            m = rng.randrange(len(cuts) - 1)
            out = out[:start] + out[int(cuts[m]) + 1 : int(cuts[m + 1])] + out[end:]
    return mutate_bytes(out, rng) if rng.random() < 0.3 else out


def _separator_offsets(data: bytes):
    """Where ``_SEPARATORS`` match in ``data``, in order (what ``finditer`` gives, ~50 times faster on a
    save of megabytes)."""
    try:
        import numpy
    except ImportError:  # pragma: no cover
        return [m.start() for m in _SEPARATORS.finditer(data)]
    table = numpy.zeros(256, dtype=bool)
    table[list(b"\t;\x1b/,")] = True
    return numpy.flatnonzero(table[numpy.frombuffer(data, dtype=numpy.uint8)])


def zip_of(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive:  # deflated, quickly
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def zip_members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


# --- formats ---------------------------------------------------------------------------------------------------
@dataclass
class Case:
    """One input, written into the work folder, and the commands to run on it."""

    files: dict[str, bytes]  # relative path -> bytes
    commands: list[list[str]]  # arguments; {dir} is the work folder
    outputs: list[str] = field(default_factory=list)  # paths that must not exist after a refusal
    env: dict[str, str] = field(default_factory=dict)  # set in the child; {dir} is the work folder
    same_as: list[str] | None = None  # a command whose exit code and standard output must be these commands' too
    prepare: Callable[[Path], None] | None = None  # makes what files cannot say (a FIFO, a link, modes)


@dataclass
class Format:
    name: str
    make: Callable[[random.Random], Case]


def _json_files(pattern: str) -> list[Path]:
    return sorted(p for p in ROOT.glob(pattern) if p.name != "expected.json")


def build_formats() -> list[Format]:
    formats: list[Format] = []
    turns = [p for p in _json_files("samples/*/*.json") if "actions" in json.loads(p.read_text())]
    states = {p: p.read_bytes() for p in _json_files("samples/*/state-*.json")}
    by_game = defaultdict(list)
    for path in turns:
        by_game[path.parent.name].append(json.loads(path.read_text()))
    siblings = {p.parent.name + "/" + p.name: data for p, data in states.items()}

    def with_states(game: str) -> dict[str, bytes]:
        return {name: data for name, data in siblings.items() if name.startswith(game + "/")}

    def json_turn(rng: random.Random) -> Case:
        seed = rng.choice(turns)
        game = seed.parent.name
        data = mutate_json(seed.read_bytes(), rng, by_game[game])
        files = with_states(game) | {f"{game}/fuzz.json": data}
        commands = [
            ["check", "{dir}/%s/fuzz.json" % game, "--format", "json", "--write-state", "{dir}/out.json"],
            ["convert", "{dir}/%s/fuzz.json" % game, "--to", "pbem", "--out", "{dir}/out.pbem"],
        ]
        return Case(files, [rng.choice(commands)], ["out.json", "out.pbem"])

    formats.append(Format("json-turn", json_turn))

    pairs = []
    for path in turns:
        start = json.loads(path.read_text()).get("start", {}).get("state")
        if start and (path.parent / start).exists():
            pairs.append((path, path.parent / start))

    state_pool = [json.loads(b) for b in states.values()]  # read only: mutate_json copies what it takes

    def json_state(rng: random.Random) -> Case:
        turn, state = rng.choice(pairs)
        game = turn.parent.name
        data = mutate_json(state.read_bytes(), rng, state_pool)
        files = with_states(game) | {f"{game}/turn.json": turn.read_bytes(), f"{game}/fuzz-state.json": data}
        command = ["check", "{dir}/%s/turn.json" % game, "--state", "{dir}/%s/fuzz-state.json" % game, "--write-state", "{dir}/out.json"]
        return Case(files, [command], ["out.json"])

    if pairs:
        formats.append(Format("json-state", json_state))

    def rules(rng: random.Random) -> Case:
        """Schema-valid but odd: actions dropped, repeated, reordered, borrowed; names and numbers swapped."""
        seed = rng.choice(turns)
        game = seed.parent.name
        turn = json.loads(seed.read_bytes())
        files = with_states(game)
        vocabulary = _vocabulary(game)
        for _ in range(rng.choice((1, 2, 3, 5))):
            _mutate_turn(turn, rng, by_game[game], vocabulary)
        start = turn.get("start", {}).get("state")
        if start and f"{game}/{start}" in files and rng.random() < 0.5:
            state = json.loads(files[f"{game}/{start}"])
            _mutate_state(state, rng, vocabulary)
            files[f"{game}/{start}"] = json.dumps(state).encode()
        files[f"{game}/fuzz.json"] = json.dumps(turn).encode()
        command = ["check", "{dir}/%s/fuzz.json" % game, "--format", "json", "--write-state", "{dir}/out.json"]
        return Case(files, [command], ["out.json"])

    formats.append(Format("rules", rules))

    module_files = {
        game: {str(p.relative_to(ROOT / "modules")): p.read_bytes() for p in sorted((ROOT / "modules" / game).rglob("*"))
               if p.is_file() and "__pycache__" not in p.parts and "tools" not in p.parts}
        for game in ("china-war-1980", "red-winter") if (ROOT / "modules" / game).is_dir()
    }  # fmt: skip

    def module_data(rng: random.Random) -> Case:
        """A module folder (the user's choice, so trusted code) whose data files are mutated."""
        game = rng.choice(sorted(module_files))
        files = {f"mods/{name}": data for name, data in module_files[game].items()}
        target = rng.choice([name for name in files if name.endswith(".json")])
        files[target] = mutate_json(files[target], rng, [])
        sample = rng.choice([p for p in turns if p.parent.name == game])
        files.update({name: data for name, data in with_states(game).items()})
        files[f"{game}/turn.json"] = sample.read_bytes()
        command = rng.choice([
            ["module", "validate", "{dir}/mods/%s" % game],
            ["check", "{dir}/%s/turn.json" % game, "--module", "{dir}/mods/%s" % game],
        ])  # fmt: skip
        return Case(files, [command])

    if module_files:
        formats.append(Format("module", module_data))

    notations = sorted(ROOT.glob("samples/*/*.pbem"))
    note_pool = [p.read_bytes() for p in notations]

    def notation(rng: random.Random) -> Case:
        seed = rng.choice(notations)
        game = seed.parent.name
        files = with_states(game) | {f"{game}/fuzz.pbem": mutate_lines(seed.read_bytes(), rng, rng.sample(note_pool, 3))}
        commands = [
            ["check", "{dir}/%s/fuzz.pbem" % game, "--write-state", "{dir}/out.json"],
            ["convert", "{dir}/%s/fuzz.pbem" % game, "--to", "json", "--out", "{dir}/out.json"],
        ]
        command = rng.choice(commands)
        return Case(files, [command], ["out.json"])

    if notations:
        formats.append(Format("notation", notation))

    vassal_files = [p for p in sorted(SHARED.glob("vassal-samples/*")) if p.suffix in (".vsav", ".vlog", ".sav", ".log")]
    vassal_files += [p for p in [SHARED / "paths-of-glory/vassal/Classic10-8.vsav"] if p.exists()]
    vassal_seeds = {p: zip_members(p.read_bytes()) for p in vassal_files}

    plain_streams: dict[Path, tuple] = {}  # each seed's command stream, deobfuscated once

    def vassal_stream(rng: random.Random) -> Case:
        from pbem.formats.vassal.obfuscation import deobfuscate, obfuscate

        path = rng.choice(vassal_files)
        members = dict(vassal_seeds[path])
        if path not in plain_streams:
            plain_streams[path] = deobfuscate(members["savedGame"])
        plain, how = plain_streams[path]
        if rng.random() < 0.85 or len(members) == 1:
            members["savedGame"] = obfuscate(mutate_stream(plain, rng), how)
        else:
            name = rng.choice([n for n in members if n != "savedGame"])
            members[name] = mutate_bytes(members[name], rng)
        name = "fuzz" + path.suffix
        verb = rng.choice(["info", "log"])
        return Case({name: zip_of(members)}, [["vassal", verb, "{dir}/" + name, "--format", rng.choice(["text", "json"])]])

    def vassal_bytes(rng: random.Random) -> Case:
        path = rng.choice(vassal_files)
        data = mutate_bytes(path.read_bytes(), rng)
        name = "fuzz" + path.suffix
        return Case({name: data}, [["vassal", rng.choice(["info", "log"]), "{dir}/" + name]])

    if vassal_files:
        formats.append(Format("vassal-stream", vassal_stream))
        formats.append(Format("vassal-zip", vassal_bytes))

    build_files = sorted(SHARED.glob("vassal-samples/*buildFile.xml"))
    modules = sorted(SHARED.glob("vassal-samples/*.vmod"))

    def vmod(rng: random.Random) -> Case:
        if build_files and rng.random() < 0.7:
            path = rng.choice(build_files)
            data = path.read_bytes()
            if rng.random() < 0.6:  # an attribute's value replaced
                values = list(re.finditer(rb'="([^"]*)"', data))
                for _ in range(rng.choice((1, 3, 10))):
                    m = rng.choice(values)
                    token = rng.choice(HOSTILE_TOKENS + ["0", "0.0", "NaN", "Infinity", "-Infinity", "1e308", "-5"])
                    data = data[: m.start(1)] + token.encode("utf-8", "surrogatepass").replace(b'"', b"") + data[m.end(1) :]
                    values = list(re.finditer(rb'="([^"]*)"', data))
            else:
                data = mutate_bytes(data, rng)
            payload = zip_of({"buildFile.xml": data})
        else:
            payload = mutate_bytes(rng.choice(modules).read_bytes(), rng)
        return Case({"fuzz.vmod": payload}, [["vassal", "info", "{dir}/fuzz.vmod", "--format", rng.choice(["text", "json"])]])

    if build_files or modules:
        formats.append(Format("vmod", vmod))

    game_turns = _sample_game()

    def game(rng: random.Random) -> Case:
        files = {f"game/{name}": data for name, data in game_turns.items()}
        target = rng.choice(sorted(files))
        files[target] = mutate_json(files[target], rng, [json.loads(d) for d in game_turns.values()])
        as_zip = rng.random() < 0.4
        if as_zip:
            payload = zip_of({k.split("/", 1)[1]: v for k, v in files.items()})
            if rng.random() < 0.3:
                payload = mutate_bytes(payload, rng)
            files = {"game.zip": payload}
        where = "{dir}/game.zip" if as_zip else "{dir}/game"
        command = rng.choice([
            ["archive", "--db", "{dir}/games.db", "add", where],
            ["replay", where, "--out", "{dir}/out.html"],
        ])  # fmt: skip
        return Case(files, [command], ["games.db", "out.html"])

    if game_turns:
        formats.append(Format("game", game))

    archive = _sample_archive(game_turns)

    def archive_file(rng: random.Random) -> Case:
        data = _mutate_archive(archive, rng)
        command = rng.choice([
            ["archive", "--db", "{dir}/fuzz.db", "list", "--format", "json"],
            ["archive", "--db", "{dir}/fuzz.db", "verify"],
            ["archive", "--db", "{dir}/fuzz.db", "show", "1"],
            ["archive", "--db", "{dir}/fuzz.db", "search", "--player", "alice"],
            ["archive", "--db", "{dir}/fuzz.db", "export", "1", "{dir}/export"],
            ["replay", "1", "--db", "{dir}/fuzz.db", "--out", "{dir}/out.html"],
            ["archive", "--db", "{dir}/fuzz.db", "site", "--out", "{dir}/site"],
            ["archive", "--db", "{dir}/fuzz.db", "revalidate", "--dry-run"],
        ])  # fmt: skip
        return Case({"fuzz.db": data}, [command], ["out.html", "export", "site"])

    if archive:
        formats.append(Format("archive", archive_file))
    formats += hostile_surface_formats(module_files, with_states)
    return formats


# --- issue 26's surfaces: art templates, names of controls, the module cache, mapping patterns, chat, import ----
CONTROL_CHARS = [chr(c) for c in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), 0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F),
                                  *range(0x2066, 0x206A), 0x2028, 0x2029)]  # fmt: skip
CONTROL_TEXTS = ["\x1b]0;owned\x07", "\x1b[2J", "\x9b31m", "\x85", "\r", "\u202eevil", "\x07", "\x1bP", "\x00"]
HOSTILE_TEMPLATES = [
    "{attack:>999999999}", "{}", "{0}", "{attack!r}", "{attack.__class__}", "{attack[0]}", "{{attack}}", "{attack", "attack}",
    "{defence:{move}}", "{loss:,}", "{attack:%}", "{" * 30 + "}" * 30, "{attack}-{defence}-{move}", "{attack}-{loss}-{move}",
]  # fmt: skip
HOSTILE_PATTERNS = [
    "(a+)+$", "(a|aa)+$", "(.*a){25}", "^(\\w+\\s?)*$", "(?=x)x", "(?<=x)y", "(?P<target>a)(?P=target)", "(a)\\1", "[",
    "a{1000}{1000}", "(?P<target>.{0,1000}){1000}", "(?i)^attacks?\\s+(?P<target>[^:]+?)(?:\\s+from\\s+(?P<from>[^:]+?))?\\s*$",
    "\\p{L}+", "(?P<target>(x+x+)+y)", "x" * 3000, "(?P<name>.+) \\(reduced\\)$", "^(?P<target>.*)$", "",
]  # fmt: skip


def control_text(rng: random.Random) -> str:
    """A name or chat line made of control characters and bidi overrides, with some text between them."""
    parts = [rng.choice(CONTROL_TEXTS) if rng.random() < 0.5 else rng.choice(CONTROL_CHARS) for _ in range(rng.choice((1, 3, 10)))]
    return "".join(part + rng.choice(["", "x", " ", "Sedan"]) for part in parts)


def _with_controls(value, rng: random.Random):
    """``value`` (text) with controls put in somewhere."""
    if not isinstance(value, str):
        return value
    at = rng.randrange(len(value) + 1)
    return value[:at] + control_text(rng) + value[at:]


def _build_file_text(rng: random.Random) -> str:
    """A buildFile with hostile structure along one axis at a time (many maps, many zones, zones of many points,
    a large palette, an odd board image name), at most a few MB of text."""
    gm = "VASSAL.build.module"
    axis = rng.choice(["maps", "zones", "points", "pieces", "image", "small"])
    grid = (f'<{gm}.map.boardPicker.board.HexGrid dx="{rng.choice((5, 20, 40, 0.5))}" dy="{rng.choice((5, 20, 40, 0.5))}">'
            f'<{gm}.map.boardPicker.board.mapgrid.HexGridNumbering/></{gm}.map.boardPicker.board.HexGrid>')
    size = rng.choice((100, 2000, 8000, 100000))
    n_zones = rng.choice((300, 3000)) if axis == "zones" else rng.choice((0, 1, 10))
    n_points = rng.choice((2000, 20000, 60000)) if axis == "points" else rng.choice((3, 4, 50))
    if n_zones * n_points > 200_000:
        n_zones = max(1, 200_000 // n_points)

    def zone(k: int) -> str:
        x, y, r = rng.randrange(size), rng.randrange(size), rng.choice((10, size // 2))
        ring = ";".join(f"{x + int(r * math.cos(6.283 * j / n_points))},{y + int(r * math.sin(6.283 * j / n_points))}" for j in range(n_points))
        inner = grid if rng.random() < 0.3 else ""
        return f'<{gm}.map.boardPicker.board.mapgrid.Zone name="z{k}" useParentGrid="{rng.choice(("true", "false"))}" path="{ring}">{inner}</{gm}.map.boardPicker.board.mapgrid.Zone>'

    image = rng.choice(["/etc/hostname", "../../etc/hostname", "C:/x.png", "..\\x.png", "images/../../x", "board.png"]) if axis == "image" else rng.choice(["", "board.png"])
    image_attr = f' image="{image}"' if image else ""
    zones = "".join(zone(k) for k in range(n_zones))
    inner = f'<{gm}.map.boardPicker.board.ZonedGrid>{zones}{grid}</{gm}.map.boardPicker.board.ZonedGrid>' if n_zones else grid
    board = f'<{gm}.map.boardPicker.Board name="B" width="{size}" height="{size}"{image_attr}>{inner}</{gm}.map.boardPicker.Board>'
    n_maps = rng.choice((201, 2001)) if axis == "maps" else rng.choice((1, 2))
    if n_maps > 1:
        board = f'<{gm}.map.boardPicker.Board name="B" width="{size}" height="{size}">{grid}</{gm}.map.boardPicker.Board>'
    maps = "".join(f'<{gm}.Map mapName="M{k}"><{gm}.map.BoardPicker>{board}</{gm}.map.BoardPicker></{gm}.Map>' for k in range(n_maps))
    n_pieces = rng.choice((5000, 20000, 20001)) if axis == "pieces" else rng.choice((0, 10))
    repeat = rng.choice((1, 7, 10**6))
    pieces = "".join(f'<VASSAL.build.widget.PieceSlot entryName="p{k}" gpid="{k}">+/null/piece;;;p.png;piece {k % repeat}/null;0;0;1;0</VASSAL.build.widget.PieceSlot>'
                     for k in range(n_pieces))
    return (f'<?xml version="1.0"?><VASSAL.build.GameModule name="h" version="1" VassalVersion="3.7.0">'
            f'<{gm}.PlayerRoster><entry>a</entry><entry>b</entry></{gm}.PlayerRoster>{maps}{pieces}</VASSAL.build.GameModule>')


def _control_log(rng: random.Random) -> bytes:
    """A VASSAL log whose players, pieces and chat are made of controls and bidi overrides."""
    from pbem.formats.vassal.archive import write_zip
    from pbem.formats.vassal.obfuscation import Obfuscation
    from pbem.formats.vassal.savefile import SavedGame, encode_saved_game

    def text() -> str:
        return control_text(rng).replace("\x1b", "")  # ESC separates VASSAL's commands: kept out of their text

    tree = ["begin_save", "", ["", f"+/11/piece;;;inf.png;1st{text()}/Main;100;100;0;0"], f"PLAYER\tsecret\tAlice{text()}\t{text()}", "end_save"]
    steps = [[f"LOG\tCHAT<Alice{text()}> {text()}"] for _ in range(rng.choice((1, 5, 50)))]
    steps.append([f"LOG\tCHAT*** 2d6 = 3,4 *** &lt;{text()}&gt;", "LOG\tMutableProperty\t2d6_result\t1,1\t3,4\tModule"])
    log = SavedGame("c.vlog", "log", tree + steps, Obfuscation("obfuscated", 7, "lower"))
    return write_zip({"savedGame": encode_saved_game(log), "savedata": b'<data version="1"/>'})


def hostile_surface_formats(module_files: dict[str, dict[str, bytes]], with_states) -> list[Format]:
    formats: list[Format] = []
    china = module_files.get("china-war-1980")
    sample = ROOT / "samples" / "china-war-1980" / "illegal-6.12-mp-overrun.json"

    if china:
        def art(rng: random.Random) -> Case:
            """art.json's value template and designation pattern, hostile; names with controls."""
            files = {f"mods/{name}": data for name, data in china.items()}
            style = json.loads(files["mods/china-war-1980/art.json"])
            style["values"] = rng.choice(HOSTILE_TEMPLATES)
            if rng.random() < 0.5:
                style["designation"] = rng.choice(HOSTILE_PATTERNS)[:100] or "x"
            files["mods/china-war-1980/art.json"] = json.dumps(style).encode()
            command = rng.choice([
                ["art", "counters", "{dir}/mods/china-war-1980", "--out", "{dir}/art"],
                ["module", "export", "{dir}/mods/china-war-1980", "--out", "{dir}/x.vmod"],
                ["module", "validate", "{dir}/mods/china-war-1980"],
            ])  # fmt: skip
            return Case(files, [command], ["art", "x.vmod"])

        def names(rng: random.Random) -> Case:
            """A module folder and its names made of controls, shown by every command that prints them."""
            folder = "mods/china" + control_text(rng).replace("/", "").replace("\x00", "")
            files = {f"{folder}/{name.split('/', 1)[1]}": data for name, data in china.items()}
            manifest = json.loads(files[f"{folder}/module.json"])
            for key in rng.sample(["name", "title", "publisher"], 2):
                manifest[key] = _with_controls(manifest.get(key, ""), rng)
            manifest["notes"] = [_with_controls(n, rng) for n in manifest.get("notes", [])]
            files[f"{folder}/module.json"] = json.dumps(manifest).encode()
            files["turn.json"] = sample.read_bytes()
            command = rng.choice([
                ["module", "show", "{dir}/" + folder, "--units", "--locations"],
                ["module", "show", "{dir}/" + folder, "--format", "json"],
                ["module", "export", "{dir}/" + folder, "--out", "{dir}/x.vmod"],
                ["check", "{dir}/turn.json", "--module", "{dir}/" + folder],
                ["state", "show", "{dir}/turn.json", "--module", "{dir}/" + folder],
            ])  # fmt: skip
            return Case(files, [command], ["x.vmod"])

        formats += [Format("art", art), Format("names", names)]

    # The module cache: a real entry (made once, for the bundled China War) then damaged, forged or replaced.
    template = Path(tempfile.mkdtemp(prefix="pbem-fuzz-cache-"))
    saved = os.environ.get("PBEM_CACHE_DIR")
    os.environ["PBEM_CACHE_DIR"] = str(template)
    try:
        import pbem.model.module as loaded

        loaded._CACHE.pop(loaded.module_path("china-war-1980").resolve(), None)
        loaded.load_module("china-war-1980")
    finally:
        if saved is None:
            os.environ.pop("PBEM_CACHE_DIR", None)
        else:
            os.environ["PBEM_CACHE_DIR"] = saved
    cache_files = {f"cache/{p.relative_to(template)}": p.read_bytes() for p in sorted(template.rglob("*")) if p.is_file()}
    shutil.rmtree(template, ignore_errors=True)

    if any(name.endswith(".pickle") for name in cache_files):
        def cache_entry(rng: random.Random) -> Case:
            files = dict(cache_files)
            entry = next(name for name in files if name.endswith(".pickle"))
            how = rng.choice(["bytes", "bytes", "forged", "legacy", "fifo", "link", "modes", "key", "truncated"])
            if how == "bytes":
                files[entry] = mutate_bytes(files[entry], rng)
            elif how == "forged":  # the right content key, a changed unit, signed with a guessed key
                files[entry] = _forged_entry(files[entry], rng)
            elif how == "legacy":  # the old unsigned format: the pickle alone
                files[entry] = files[entry][len(b"pbem-cache 2\n") + 32 :]
            elif how == "key":
                files["cache/key"] = mutate_bytes(files["cache/key"], rng)
            elif how == "truncated":
                files[entry] = files[entry][: rng.randrange(len(files[entry]))]

            def prepare(work: Path) -> None:
                target = work / (entry if how != "key" or rng.random() < 0.5 else "cache/key")
                if how == "fifo":
                    target.unlink()
                    os.mkfifo(target, 0o600)
                elif how == "link":
                    other = work / "elsewhere"
                    other.write_bytes(target.read_bytes())
                    target.unlink()
                    target.symlink_to(other)
                elif how == "modes":
                    os.chmod(rng.choice([target, target.parent, work / "cache", work / "cache" / "key"]), rng.choice((0o666, 0o777, 0o644, 0o620)))

            command = ["check", str(sample), "--format", rng.choice(["text", "json"])]
            return Case(files, [command], env={"PBEM_CACHE_DIR": "{dir}/cache"}, same_as=["--no-cache", *command], prepare=prepare)

        formats.append(Format("cache", cache_entry))

    pog = {str(p.relative_to(ROOT / "modules")): p.read_bytes() for p in sorted((ROOT / "modules" / "paths-of-glory").rglob("*"))
           if p.is_file() and "__pycache__" not in p.parts and "tools" not in p.parts} if (ROOT / "modules" / "paths-of-glory").is_dir() else {}
    save = SHARED / "paths-of-glory" / "vassal" / "Classic10-8.vsav"
    chat_log = _backtracking_log(save) if save.is_file() else None
    if pog:
        def patterns(rng: random.Random) -> Case:
            """vassal.json's patterns replaced by ones built to backtrack or that no linear engine runs."""
            files = {f"mods/{name}": data for name, data in pog.items()}
            mapping = json.loads(files["mods/paths-of-glory/vassal.json"])
            slots = [("turn", "attack_chat"), ("units", "reduced_name")]
            slots += [("units", "pieces", k, "name") for k in range(len(mapping["units"]["pieces"]))]
            slots += [("locations", "patterns", k, "match") for k in range(len(mapping["locations"].get("patterns", [])))]
            for _ in range(rng.choice((1, 2, 4))):
                *path, last = rng.choice(slots)
                node = mapping
                for part in path:
                    node = node.setdefault(part, {}) if isinstance(part, str) else node[part]
                node[last] = rng.choice(HOSTILE_PATTERNS) if rng.random() < 0.8 else _with_controls(node.get(last, "") if isinstance(node, dict) else "", rng)
            files["mods/paths-of-glory/vassal.json"] = json.dumps(mapping).encode()
            commands = [["module", "validate", "{dir}/mods/paths-of-glory"]]
            if save.is_file():
                commands.append(["vassal", "state", str(save), "--module", "{dir}/mods/paths-of-glory"])
            if chat_log is not None:
                files["chat.vlog"] = chat_log
                commands.append(["check", "{dir}/chat.vlog", "--module", "{dir}/mods/paths-of-glory"])
            return Case(files, [rng.choice(commands)])

        formats.append(Format("patterns", patterns))

    def chat(rng: random.Random) -> Case:
        return Case({"c.vlog": _control_log(rng)}, [["vassal", rng.choice(["log", "info"]), "{dir}/c.vlog", "--format", rng.choice(["text", "json"])]])

    formats.append(Format("chat", chat))

    def vmod_import(rng: random.Random) -> Case:
        text = _build_file_text(rng)
        files = {"vmod/buildFile.xml": text.encode()}
        if rng.random() < 0.3:
            files["vmod/images/board.png"] = mutate_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, rng)
        return Case(files, [["module", "import", "{dir}/vmod/buildFile.xml", "--out", "{dir}/out"]], ["out"])

    formats.append(Format("vmod-import", vmod_import))
    return formats


def _forged_entry(entry: bytes, rng: random.Random) -> bytes:
    """``entry`` with its module changed (every unit's movement allowance raised) and signed with a guessed key."""
    import hmac
    import pickle

    from pbem.model import cache

    body = entry[len(cache.MAGIC) + 32 :]
    try:
        import pbem.model.module as loaded

        key, (module, schema) = cache._Unpickler(io.BytesIO(body), loaded._CACHED_CLASSES).load()
        from dataclasses import replace

        for unit_id, unit in list(module.units.items())[: rng.choice((1, 10, 1000))]:
            steps = type(unit.type.steps)(replace(step, move=rng.choice((0, 99, 10**9))) for step in unit.type.steps)
            module.units[unit_id] = replace(unit, type=replace(unit.type, steps=steps))
        body = pickle.dumps((key, (module, schema)))
    except Exception:  # noqa: BLE001 - a body the harness cannot change is forged as it is
        pass
    secret = rng.choice([b"\0" * 32, os.urandom(32), b""])
    return cache.MAGIC + hmac.new(secret, body, "sha256").digest() + body


def _backtracking_log(save: Path) -> bytes | None:
    """A Paths of Glory log whose chat lines are shaped to make a backtracking attack pattern take seconds."""
    import importlib.util

    try:
        spec = importlib.util.spec_from_file_location("build_vassal_samples", ROOT / "modules" / "paths-of-glory" / "tools" / "build_vassal_samples.py")
        tool = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(tool)
        opening = tool.Opening(save)
        opening.play("CP-10", "OPS (CP)")
        for k in range(20):
            opening.writer.chat(["attack " + " " * 290 + ":x", "attack a" + " from a" * 41 + ":", "attack Sedan from Koblenz: 2/5"][k % 3])
        opening.move("GE-4-ARMY", "Strasbourg")
        return opening.writer.to_bytes("Paths of Glory", "10.8")
    except Exception as error:  # noqa: BLE001 - without it, the patterns are fuzzed on the save alone
        print(f"harness: no chat log ({type(error).__name__}: {error})", file=sys.stderr)
        return None


_VOCABULARY: dict[str, dict[str, list]] = {}


def _vocabulary(game: str) -> dict[str, list]:
    """The module's unit ids, location labels and phase names: what a schema-valid turn may name."""
    if game not in _VOCABULARY:
        from pbem.model.module import load_module

        module = load_module(game)
        labels = list(getattr(module.map, "labels", []))
        phases = sorted({a["phase"] for t in (ROOT / "samples" / game).glob("*.json") for a in json.loads(t.read_text()).get("actions", []) if "phase" in a})
        _VOCABULARY[game] = {"units": sorted(module.units), "locations": labels or ["2604", "O21"], "phases": phases or ["movement"]}
    return _VOCABULARY[game]


def _mutate_turn(turn: dict, rng: random.Random, pool: list, words: dict[str, list]) -> None:
    actions = turn["actions"]
    op = rng.randrange(9)
    if op == 0 and actions:
        del actions[rng.randrange(len(actions))]
    elif op == 1 and actions:
        at = rng.randrange(len(actions))
        actions[at:at] = [json.loads(json.dumps(actions[at]))] * rng.choice((1, 2, 20))
    elif op == 2 and len(actions) > 1:
        a, b = rng.randrange(len(actions)), rng.randrange(len(actions))
        actions[a], actions[b] = actions[b], actions[a]
    elif op == 3:
        donor = rng.choice(pool)["actions"]
        if donor:
            actions.insert(rng.randrange(len(actions) + 1), json.loads(json.dumps(rng.choice(donor))))
    elif op == 4:
        actions.insert(rng.randrange(len(actions) + 1), {"phase": rng.choice(words["phases"])})
    elif op == 5 and rng.random() < 0.5:
        turn["side"] = rng.choice(["soviet", "chinese", "finnish"])
    else:  # a name or number inside one action
        if not actions:
            return
        action = rng.choice(actions)
        leaves = [(path, value) for path, value in _nodes(action) if path and not isinstance(value, (dict, list))]
        if not leaves:
            return
        path, value = rng.choice(leaves)
        parent = _get(action, path[:-1])
        if isinstance(value, bool):
            parent[path[-1]] = not value
        elif isinstance(value, int):
            parent[path[-1]] = rng.choice([0, 1, 6, 7, 12, -1, 10**15, value + 1])
        elif isinstance(value, str) and value in words["units"] or rng.random() < 0.3:
            parent[path[-1]] = rng.choice(words["units"])
        elif isinstance(value, str):
            parent[path[-1]] = rng.choice(words["locations"])


def _mutate_state(state: dict, rng: random.Random, words: dict[str, list]) -> None:
    units = state.get("units", [])
    op = rng.randrange(5)
    if op == 0 and units:
        del units[rng.randrange(len(units))]
    elif op == 1 and units:
        unit = rng.choice(units)
        key = rng.choice(["at", "step", "face", "markers", "supplied"])
        unit[key] = rng.choice([0, -1, 10**15, "off_map", "dead", rng.choice(words["locations"]), [], {}, None, True])
    elif op == 2:
        status = state.setdefault("status", {})
        target = status.setdefault("ammo", {}) if rng.random() < 0.5 else status
        key = rng.choice(list(target) or ["ammo"])
        target[key] = rng.choice([0, -5, 10**15, 2**53 - 1, 1.5, "lots", [], {}, None])
    elif op == 3:
        state[rng.choice(["turn", "phase", "side", "first_side"])] = rng.choice([0, 10**15, "combat", "movement", "night", "finnish", "soviet", "nobody"])
    elif units:
        units.append(json.loads(json.dumps(rng.choice(units))))


def _sample_game() -> dict[str, bytes]:
    """The archive tests' sample game (three turns and the manifest) as file name -> bytes."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("pbem_gamegen", ROOT / "tests" / "gamegen.py")
    if spec is None or spec.loader is None:
        return {}
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "game"
        bench.sample_game(folder)
        manifest = {"title": "Fuzz game", "players": {"soviet": "Alice", "chinese": "Bob"}, "result": "soviet"}
        (folder / "game.json").write_text(json.dumps(manifest))
        return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _sample_archive(game_turns: dict[str, bytes]) -> bytes:
    if not game_turns:
        return b""
    from pbem.cli import main

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "game"
        folder.mkdir()
        for name, data in game_turns.items():
            (folder / name).write_bytes(data)
        db = Path(tmp) / "games.db"
        code = _run_quiet(main, ["archive", "--db", str(db), "add", str(folder)])
        return db.read_bytes() if code in (0, 1) and db.exists() else b""


def _mutate_archive(archive: bytes, rng: random.Random) -> bytes:
    """Either the file's bytes, or one cell of one table set to a hostile value through SQL."""
    if rng.random() < 0.4:
        return mutate_bytes(archive, rng)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "a.db"
        path.write_bytes(archive)
        db = sqlite3.connect(path)
        try:
            tables = [r[0] for r in db.execute("select name from sqlite_master where type='table'")]
            table = rng.choice(tables)
            columns = [r[1] for r in db.execute(f"pragma table_info({table})")]
            column = rng.choice(columns)
            value = rng.choice([None, 0, -1, 2**62, "", "x" * 100000, "\x1b[31m", "{}", "[]", "null", b"\x00\xff",
                                '{"actions": 5}', "../../x", 1.5e308])  # fmt: skip
            db.execute(f'update "{table}" set "{column}" = ?', (value,))
            db.commit()
        except sqlite3.Error:
            pass
        finally:
            db.close()
        return path.read_bytes()


def _run_quiet(main, argv: list[str]) -> int:
    saved = sys.stdout, sys.stderr
    sys.stdout = sys.stderr = io.StringIO()
    try:
        main(argv)
    except SystemExit as done:
        return done.code if isinstance(done.code, int) else 0
    finally:
        sys.stdout, sys.stderr = saved
    return 0


# --- running -----------------------------------------------------------------------------------------------------
@dataclass
class Outcome:
    kind: str
    detail: str = ""
    seconds: float = 0.0
    code: int | None = None


def run_case(case: Case, work: Path, limit: float, memory_mib: int) -> list[Outcome]:
    """Write the case's files, run each command in a capped child, classify what happened."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for name, data in case.files.items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_bytes(data)
    if case.prepare is not None:
        case.prepare(work)
    digests = {name: hashlib.sha256(data).hexdigest() for name, data in case.files.items()}
    env = {k: v.replace("{dir}", str(work)) for k, v in case.env.items()}
    expected = None
    if case.same_as is not None:  # the reference run (e.g. without the cache): its verdict is the one to give
        reference = _run_child([part.replace("{dir}", str(work)) for part in case.same_as], work, limit, memory_mib, env)
        expected = (reference.kind, reference.code, _output(work))
    outcomes = []
    for command in case.commands:
        argv = [part.replace("{dir}", str(work)) for part in command]
        outcome = _run_child(argv, work, limit, memory_mib, env)
        if outcome.kind in ("refusal", "verdict"):
            from pbem.model.printable import has_control

            printed = _output(work)
            if has_control(printed.replace("\n", "")):
                outcome = Outcome("crash", "a raw control character was printed", outcome.seconds)
            elif expected is not None and expected[0] in ("refusal", "verdict") and (outcome.code, printed) != expected[1:]:
                outcome = Outcome("crash", f"verdict differs from the reference run (exit {outcome.code}, not {expected[1]})", outcome.seconds)
        if outcome.kind == "refusal":
            written = [o for o in case.outputs if (work / o).exists() and (o != "games.db" or "add" in argv)]
            lines = (work / ".err").read_text(errors="replace").strip().splitlines()
            if len(lines) != 1:
                outcome = Outcome("crash", f"exit 2 with {len(lines)} lines on stderr: {lines[:2]}", outcome.seconds)
            elif written and not (written == ["games.db"] and not (work / "games.db").stat().st_size):
                outcome = Outcome("crash", f"exit 2 but wrote {written}", outcome.seconds)
        for name, digest in digests.items():
            path = work / name
            if path.is_file() and hashlib.sha256(path.read_bytes()).hexdigest() != digest and not name.endswith(".db") and not name.startswith("cache/"):
                outcome = Outcome("crash", f"input {name} modified", outcome.seconds)
        outcomes.append(outcome)
    return outcomes


def _output(work: Path) -> str:
    """What the last child printed, standard output then standard error."""
    return "".join((work / name).read_text(errors="replace") if (work / name).exists() else "" for name in (".out", ".err"))


def _run_child(argv: list[str], work: Path, limit: float, memory_mib: int, env: dict[str, str] | None = None) -> Outcome:
    from pbem.cli import main

    start = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    pid = os.fork()
    if pid == 0:  # the child: caps, captured output, the real entry point
        code = 70
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.chdir(work)
            out = os.open(work / ".out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            err = os.open(work / ".err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(out, 1)
            os.dup2(err, 2)
            os.environ["PBEM_DEBUG"] = "1"
            os.environ.update(env or {})
            if env and "PBEM_CACHE_DIR" in env:  # modules come from that cache, not from what the parent loaded
                import pbem.model.module as loaded

                loaded._CACHE.clear()
            cpu = max(1, int(limit + 0.999))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
            memory = memory_mib * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
            sys.stdin = open(os.devnull)
            try:
                main(argv)
                code = 0
            except SystemExit as done:
                code = done.code if isinstance(done.code, int) else (0 if done.code is None else 2)
            except MemoryError:
                code = 71
            except BaseException:  # noqa: BLE001
                traceback.print_exc()
                code = 70
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
    pidfd = os.pidfd_open(pid)
    waited = 0.0  # seconds the child was ready to run but the machine gave its CPUs to others
    try:
        while True:
            waited = max(waited, _run_delay(pid))
            left = limit * 3 - (time.monotonic() - start - waited)
            if left <= 0 or time.monotonic() - start > limit * 60:
                ready = []
                break
            ready, _, _ = select.select([pidfd], [], [], min(left, 1.0))
            if ready:
                break
        if not ready:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(pidfd)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    err = (work / ".err").read_text(errors="replace") if (work / ".err").exists() else ""
    if not ready:
        return Outcome("hang", f"killed after {wall:.1f} s wall ({cpu_used:.1f} s CPU, {waited:.1f} s waiting for a CPU)", wall)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig in (signal.SIGXCPU, signal.SIGKILL) and cpu_used >= limit * 0.9:
            return Outcome("hang", f"over {limit:.0f} s of CPU", cpu_used)
        return Outcome("crash", f"killed by signal {sig}", wall)
    code = os.WEXITSTATUS(status)
    if code == 71 or "MemoryError" in err or "out of memory" in err:
        return Outcome("memory", _signature(err), wall)
    if code in (0, 1):
        return Outcome("verdict", "", wall, code)
    if code == 2 and "Traceback" not in err:
        return Outcome("refusal", "", wall, code)
    return Outcome("crash", f"exit {code}: {_signature(err)}", wall)


def _run_delay(pid: int) -> float:
    """Seconds the process ``pid`` has spent runnable but not running (waiting for a CPU), from the kernel's
    scheduler statistics; 0 where they cannot be read. On a machine shared with busier processes a child can
    wait there for most of its wall time: that time is the machine's, not a hang of the input's."""
    try:
        with open(f"/proc/{pid}/schedstat") as handle:
            return int(handle.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def _signature(err: str) -> str:
    """The exception and the innermost pbem or module frame: one crash's name, for grouping."""
    frames = re.findall(r'File "([^"]+)", line (\d+), in (\S+)', err)
    ours = [f for f in frames if "/pbem/" in f[0] or "/modules/" in f[0]]
    where = ""
    if ours:
        path, line, function = ours[-1]
        short = path[path.rfind("/pbem/") + 1 :] if "/pbem/" in path else path[path.rfind("/modules/") + 1 :]
        where = f" at {short}:{line} ({function})"
    last = [line for line in err.strip().splitlines() if line and not line.startswith(" ")]
    exception = last[-1][:160] if last else "no message"
    for line in reversed(last):
        if re.match(r"^[A-Za-z_.]+(Error|Exception|Exit|Interrupt)\b", line):
            exception = line[:160]
            break
    return exception + where


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=0, help="Stop after this many inputs (0: no limit).")
    parser.add_argument("--seconds", type=float, default=0, help="Stop after this many seconds (0: no limit).")
    parser.add_argument("--limit", type=float, default=10, help="CPU seconds per command (default 10).")
    parser.add_argument("--memory", type=int, default=1024, help="MiB of address space per command (default 1024).")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="Forking workers running inputs side by side (default 1); "
                        "the inputs are the same whatever the number.")
    parser.add_argument("--only", help="Comma-separated formats to fuzz.")
    parser.add_argument("--keep", type=Path, default=Path("fuzz-findings"), help="Where crashes and hangs are kept.")
    parser.add_argument("--report-every", type=float, default=300, help="Print the table every N seconds.")
    args = parser.parse_args(argv)
    if not args.inputs and not args.seconds:
        parser.error("give --inputs or --seconds")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")

    begun = time.monotonic()
    import_everything()
    formats = build_formats()
    if args.only:
        wanted = set(args.only.split(","))
        formats = [f for f in formats if f.name in wanted]

    def stop(signum, frame):  # SIGTERM: stop after this input and print the figures
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    with tempfile.TemporaryDirectory(prefix="pbem-fuzz-") as tmp:
        warm(formats, Path(tmp) / "warm", args.limit, args.memory)
        gc.collect()
        gc.freeze()  # what the parent made is never walked (nor its pages copied) by a child's collections
        print(f"harness: ready in {time.monotonic() - begun:.1f} s", file=sys.stderr)
        started = time.monotonic()
        tally = Tally({f.name: Counter() for f in formats})
        if args.jobs == 1:
            _work(formats, args, Path(tmp) / "case", None, tally, started)
        else:
            _workers(formats, args, Path(tmp), tally, started)
    tally.print(time.monotonic() - started)
    used = [resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    cpu = sum(u.ru_utime + u.ru_stime for u in used)
    print(f"cpu {cpu:.0f} s in all (start included): {tally.done / max(cpu, 0.001):.1f} inputs per CPU second")
    bad = sum(c["crash"] + c["hang"] + c["memory"] for c in tally.counts.values())
    return 1 if bad else 0


@dataclass
class Tally:
    """Per format, how many inputs ended in each class, the slowest and the time spent; the findings."""

    counts: dict[str, Counter]
    slowest: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    spent: dict[str, float] = field(default_factory=lambda: defaultdict(float))
    findings: dict[tuple[str, str], int] = field(default_factory=dict)
    done: int = 0

    def to_json(self) -> str:
        return json.dumps({"counts": self.counts, "slowest": self.slowest, "spent": self.spent, "done": self.done,
                           "findings": [[name, detail, n] for (name, detail), n in self.findings.items()]})

    def add(self, text: str) -> None:
        """Add a worker's tally (as ``to_json`` wrote it) to this one."""
        other = json.loads(text)
        for name, counter in other["counts"].items():
            self.counts.setdefault(name, Counter()).update(counter)
        for name, seconds in other["slowest"].items():
            self.slowest[name] = max(self.slowest[name], seconds)
        for name, seconds in other["spent"].items():
            self.spent[name] += seconds
        for name, detail, n in other["findings"]:
            self.findings[(name, detail)] = self.findings.get((name, detail), 0) + n
        self.done += other["done"]

    def print(self, elapsed: float) -> None:
        _print_table(self.counts, self.slowest, self.spent, self.findings, self.done, elapsed)


def import_everything() -> None:
    """Import, once here, every module pbem's code imports anywhere (a verb's, a library a function imports on
    first use such as scipy.stats for the dice statistics), and build every bundled module and its rules: each
    child then starts with them, instead of paying for them on every input."""
    import ast
    import importlib

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no BLAS threads in a process that forks
    names = set()
    for path in sorted((ROOT / "pbem").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names.add(node.module)
        names.add(".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"))
    for name in sorted(names):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - an optional library that is absent, or a script
            pass
    from pbem.engine.rulesets import module_ruleset
    from pbem.model.module import load_module

    for folder in sorted((ROOT / "modules").iterdir()):
        if (folder / "module.json").is_file():
            try:
                module_ruleset(load_module(folder.name))
            except Exception as error:  # noqa: BLE001 - a module that does not load is fuzzed as it is
                print(f"harness: module {folder.name}: {type(error).__name__}: {error}", file=sys.stderr)


def warm(formats: list[Format], folder: Path, limit: float, memory_mib: int) -> None:
    """Run one input of each format in this process, so every child forked later starts with what the CLI
    imports and builds on first use (verbs, schemas, grammars, compiled patterns, modules' rules code) already
    made, as a long-running caller would have it. Only an input that a capped child has first shown to end
    quickly in a verdict or refusal is run here (never one that could hang the harness), and nothing it loaded
    from its own folder is kept: each fuzzed input is still read and checked in full by its child."""
    from pbem.cli import main as cli_main
    import pbem.model.module as loaded

    here = os.getcwd()
    for fmt in formats:
        warmed: dict[tuple[str, ...], str] = {}  # each command's verbs and options -> the deepest class run
        for seed in range(8):
            try:
                case = fmt.make(random.Random(seed))
            except Exception:  # noqa: BLE001 - a case the harness cannot build warms nothing
                continue
            if case.prepare is not None or case.env or case.same_as is not None:
                break  # made-up files, another cache: run cold in each child anyway
            shapes = [tuple(part for part in command if "{dir}" not in part and "/" not in part) for command in case.commands]
            if all(warmed.get(shape) == "verdict" for shape in shapes):
                continue
            work = folder / fmt.name
            outcomes = run_case(case, work, limit, memory_mib)
            if any(o.kind not in ("refusal", "verdict") or o.seconds > 2 for o in outcomes):
                continue
            if all(warmed.get(shape) in (o.kind, "verdict") for shape, o in zip(shapes, outcomes)):
                continue
            try:
                os.chdir(work)
                for command, shape, outcome in zip(case.commands, shapes, outcomes):
                    _run_quiet(cli_main, [part.replace("{dir}", str(work)) for part in command])
                    warmed[shape] = outcome.kind if warmed.get(shape) != "verdict" else "verdict"
            except Exception:  # noqa: BLE001 - warming is best effort
                pass
            finally:
                os.chdir(here)
        shutil.rmtree(folder / fmt.name, ignore_errors=True)
    for path in [p for p in loaded._CACHE if folder in p.parents]:
        del loaded._CACHE[path]  # a child must load a module from its own files, never from the warm-up's


def _work(formats: list[Format], args, work: Path, counter, tally: Tally, started: float,
          snapshot: Path | None = None) -> None:
    """Run inputs until done: input n is format ``n % len(formats)`` with the n-th case seed of ``--seed``'s
    sequence, whichever worker takes it (``counter``, shared between workers, hands out the next n)."""
    rng = random.Random(args.seed)
    seeds: list[int] = []
    last_report = time.monotonic()
    try:
        while True:
            if args.seconds and time.monotonic() - started >= args.seconds:
                break
            if counter is None:
                n = tally.done
            else:
                with counter.get_lock():
                    n = counter.value
                    counter.value += 1
            if args.inputs and n >= args.inputs:
                break
            while len(seeds) <= n:
                seeds.append(rng.randrange(2**32))
            fmt = formats[n % len(formats)]
            tally.done += _one(fmt, seeds[n], args, work, tally.counts, tally.slowest, tally.spent, tally.findings)
            if time.monotonic() - last_report >= args.report_every:
                last_report = time.monotonic()
                if snapshot is None:
                    tally.print(time.monotonic() - started)
                else:
                    _write_snapshot(snapshot, tally)
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    if snapshot is not None:
        _write_snapshot(snapshot, tally)


def _write_snapshot(path: Path, tally: Tally) -> None:
    path.with_suffix(".tmp").write_text(tally.to_json())
    path.with_suffix(".tmp").replace(path)


def _workers(formats: list[Format], args, tmp: Path, tally: Tally, started: float) -> None:
    """``--jobs`` forked workers sharing one input counter; their tallies are merged here."""
    import multiprocessing

    counter = multiprocessing.Value("q", 0)
    pids = []
    for k in range(args.jobs):
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                mine = Tally({f.name: Counter() for f in formats})
                _work(formats, args, tmp / f"case-{k}", counter, mine, started, tmp / f"worker-{k}.json")
            except BaseException:  # noqa: BLE001
                traceback.print_exc()
                code = 70
            finally:
                os._exit(code)
        pids.append(pid)
    last_report = time.monotonic()
    running = set(pids)
    try:
        while running:
            pid, _ = os.waitpid(-1, os.WNOHANG)
            if pid:
                running.discard(pid)
                continue
            time.sleep(0.5)
            if time.monotonic() - last_report >= args.report_every:
                last_report = time.monotonic()
                _merged(formats, tmp, args.jobs).print(time.monotonic() - started)
    except KeyboardInterrupt:
        print("stopping the workers", file=sys.stderr)
        for pid in running:
            os.kill(pid, signal.SIGTERM)
        for pid in running:
            os.waitpid(pid, 0)
    merged = _merged(formats, tmp, args.jobs)
    for name in ("counts", "slowest", "spent", "findings"):
        setattr(tally, name, getattr(merged, name))
    tally.done = merged.done


def _merged(formats: list[Format], tmp: Path, jobs: int) -> Tally:
    merged = Tally({f.name: Counter() for f in formats})
    for k in range(jobs):
        path = tmp / f"worker-{k}.json"
        if path.exists():
            merged.add(path.read_text())
    return merged


def _one(fmt: Format, case_seed: int, args, work: Path, counts, slowest, spent, findings) -> int:
    """Build and run one input; 1 when it counts."""
    try:
        case = fmt.make(random.Random(case_seed))
    except KeyboardInterrupt:
        raise
    except Exception as error:  # noqa: BLE001 - a mutation the harness could not build is skipped
        counts[fmt.name]["skipped"] += 1
        print(f"harness: {fmt.name} seed {case_seed}: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
    for command, outcome in zip(case.commands, run_case(case, work, args.limit, args.memory)):
        counts[fmt.name][outcome.kind] += 1
        slowest[fmt.name] = max(slowest[fmt.name], outcome.seconds)
        spent[fmt.name] += outcome.seconds
        if outcome.kind in ("crash", "hang", "memory"):
            key = (fmt.name, re.sub(r"'[^']*'", "'…'", re.sub(r"\d+\.\d+ s", "N s", outcome.detail)))
            findings[key] = findings.get(key, 0) + 1
            if findings[key] <= 3:
                _keep(args.keep, fmt.name, case_seed, case, command, outcome, work)
    return 1


def _keep(folder: Path, name: str, seed: int, case: Case, command: list[str], outcome: Outcome, work: Path) -> None:
    target = folder / f"{name}-{seed}"
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    for relative, data in case.files.items():
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        (target / relative).write_bytes(data)
    err = (work / ".err").read_text(errors="replace") if (work / ".err").exists() else ""
    argv = " ".join(part.replace("{dir}", ".") for part in command)
    (target / "FINDING.txt").write_text(f"{outcome.kind}: {outcome.detail}\n\ncd {target} && pbem {argv}\n\n{err[-4000:]}")


def _print_table(counts, slowest, spent, findings, done: int, elapsed: float) -> None:
    print(f"\n{done} inputs in {elapsed:.0f} s")
    print(f"{'format':<15}" + "".join(f"{c:>9}" for c in CLASSES) + f"{'slowest':>10}{'mean':>8}")
    for name, counter in counts.items():
        runs = sum(counter[c] for c in CLASSES) or 1
        print(f"{name:<15}" + "".join(f"{counter[c]:>9}" for c in CLASSES) + f"{slowest[name]:>9.1f}s{spent[name] / runs:>7.2f}s")
    total = Counter()
    for counter in counts.values():
        total.update(counter)
    print(f"{'all':<15}" + "".join(f"{total[c]:>9}" for c in CLASSES))
    for (name, detail), n in sorted(findings.items(), key=lambda item: -item[1]):
        print(f"  {n:>5} x {name}: {detail}")
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
