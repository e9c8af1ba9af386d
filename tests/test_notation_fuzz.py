"""Random edits of valid notation files never crash the reader: it reads them or raises a clean PbemError."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.formats.notation import NotationError, parse_notation
from pbem.model.errors import PbemError
from pbem.model.resources import data_dir

DOCS = Path(__file__).resolve().parents[1] / "docs" / "notation.md"
# The China War twins, and the documented Red Winter turn for fire, special orders and declared moves.
TWINS = sorted(p.read_text(encoding="utf-8") for p in (data_dir("samples") / "china-war-1980").glob("*.pbem")) + [
    DOCS.read_text(encoding="utf-8").split("## A Red Winter turn", 1)[1].split("```")[1]
]
# Characters that matter to the grammar, plus email and unicode noise.
NOISE = st.sampled_from(list(":-+,>=()[]#;\"\\/ \t\n\r\u2192\u2013\u00a0\u200b") + ["attack", "roll", "retreat", " to ", "==", "phase", "> ", "-- \n", "none", "1:1", "SOV-", "fires at ", "(spotter ", "Special ", "dig in ", "moves double: ", "+5", "\ufffd", "\U0001f600"])


@st.composite
def edited(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(TWINS))
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "delete", "replace", "swap-lines"]))
        if how == "insert":
            text = text[:at] + draw(NOISE | st.text(max_size=4)) + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 12)) :]
        elif how == "replace":
            text = text[:at] + draw(NOISE) + text[at + 1 :]
        else:
            lines = text.split("\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(edited())
def test_random_edits_never_crash(text):
    try:
        document = parse_notation(text, "edited.pbem")
    except NotationError as error:
        assert error.problems and all(p.line >= 1 and p.column >= 1 for p in error.problems)
        assert error.source.line >= 1 and "\n" not in error.message
    except PbemError:
        pass
    else:
        assert isinstance(document.data["actions"], list)
        for n in range(len(document.data["actions"])):
            assert document.source(f"/actions/{n}").line >= 1
