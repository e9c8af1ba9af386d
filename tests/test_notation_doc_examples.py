"""Every turn docs/notation.md shows is one a player can copy: each example that starts with a header is checked
as a whole turn and found legal; each fragment (a block that starts with a phase, later in the same game) reads
under the header of the example before it."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from pbem.formats.notation import parse_notation
from pbem.model.resources import data_dir

DOCS = Path(__file__).resolve().parents[1] / "docs" / "notation.md"
HEADER_LINE = re.compile(r"^(Game|Module|Scenario|Start|Turn|Side|Version|Player|Note|Options|Writer|Starts|Ends):", re.I)


def examples() -> list[tuple[str, str, str | None]]:
    """(title of the section, the block, the header it reads under when it is a fragment)."""
    found = []
    header = None
    title = ""
    for k, part in enumerate(DOCS.read_text(encoding="utf-8").split("```")):
        if k % 2 == 0:
            titles = re.findall(r"^##+ (.+)$", part, re.M)
            title = titles[-1] if titles else title
            continue
        block = part.split("\n", 1)[1] if not part.startswith("\n") else part.lstrip("\n")
        lines = [line for line in block.splitlines() if line.strip()]
        if not lines:
            continue
        if HEADER_LINE.match(lines[0]):
            header = "\n".join(line for line in lines if HEADER_LINE.match(line)) + "\n"
            found.append((title, block, None))
        elif lines[0].startswith("==") and header is not None:
            found.append((title, block, header))
    return found


EXAMPLES = examples()


def test_the_doc_shows_a_turn_of_every_bundled_game():
    games = {re.search(r"^(?:Game|Module):\s*(.+)$", block, re.M | re.I).group(1).strip() for _, block, header in EXAMPLES if header is None}
    assert {"china-war-1980", "red-winter", "Paths of Glory", "no-retreat"} <= games


@pytest.mark.parametrize("title,block,header", [e for e in EXAMPLES if e[2] is None], ids=lambda v: v if isinstance(v, str) and len(v) < 40 else "")
def test_every_documented_turn_is_legal(pbem, tmp_path, title, block, header):
    turn = tmp_path / "turn.pbem"
    turn.write_text(block, encoding="utf-8")
    data = parse_notation(block, turn).data
    start = data.get("start", {}).get("state")
    if start:  # a state file named beside the turn: the module's sample of that name
        shutil.copy(next((data_dir("samples") / data["module"]).rglob(Path(start).name)), tmp_path)
    result = pbem("check", turn)
    assert result.code == 0 and "all legal" in result.out, f"{title}: {result.out}{result.err}"


@pytest.mark.parametrize("title,block,header", [e for e in EXAMPLES if e[2] is not None], ids=lambda v: v if isinstance(v, str) and len(v) < 40 else "")
def test_every_documented_fragment_reads(title, block, header):
    assert parse_notation(header + block, "fragment.pbem").data["actions"], title
