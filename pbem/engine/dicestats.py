"""Statistics of a game's dice: counts per face, the mean against the expected, and a chi-square test per player
and die type (scipy's), with what a low p-value does and does not mean.

Only the rolls the game kept are tested (a roll taken back by an undo is listed with its re-roll). A die thrown
alone counts one observation per face; a total of several dice (a ``2d6`` combat roll written as its sum) is tested
against the exact distribution of that total.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import product
from typing import Any

from pbem.engine.dice import DiceRecord, DieRoll

MIN_EXPECTED = 5  # the usual rule of thumb: below it per face, the chi-square approximation is rough
MAX_TOTAL_DICE = 4  # totals of more dice are counted but not tested (their exact distribution is large)

MEANING = (
    "What the p-value means: it is the chance that fair dice would give counts at least this far from the expected "
    "ones. A low p-value (say below 0.01) says these rolls would be unusual for fair dice, nothing more: it does not "
    "prove that anyone cheated or that a die is loaded, because among many players and games some fair records look "
    "this unusual by chance (about 1 in 100 below 0.01), and with few rolls the test can say little either way. A high "
    "p-value does not prove the dice fair. pbem cannot recompute rolls made outside it (VASSAL's, or dice thrown at home): "
    "this is the record the files show."
)


@dataclass
class DieGroup:
    """The kept rolls of one player with one die type, and the test of their counts."""

    player: str
    die: str  # "d6" or "2d6 total"
    faces: dict[int, int]  # face (or total) -> count, every possible one listed
    expected: dict[int, float]  # face -> expected count for fair dice
    observations: int
    mean: float | None
    expected_mean: float
    chi_square: float | None
    degrees: int
    p_value: float | None
    note: str | None  # why the test is rough or left out

    def as_json(self) -> dict[str, Any]:
        return {"player": self.player, "die": self.die, "counts": {str(k): v for k, v in self.faces.items()},
                "expected": {str(k): round(v, 4) for k, v in self.expected.items()}, "observations": self.observations,
                "mean": self.mean, "expected_mean": self.expected_mean, "chi_square": self.chi_square, "degrees_of_freedom": self.degrees,
                "p_value": self.p_value, "note": self.note}


@dataclass
class DiceStats:
    rolls: list[DieRoll]
    kept: list[DieRoll]
    undone: list[DieRoll]
    rerolls: list[dict[str, Any]]
    by_player_purpose: dict[str, dict[str, int]]
    groups: list[DieGroup]

    def as_json(self) -> dict[str, Any]:
        return {"rolls": len(self.rolls), "kept": len(self.kept), "undone": len(self.undone),
                "by_player_and_purpose": self.by_player_purpose, "groups": [g.as_json() for g in self.groups],
                "undone_rolls": [r.as_json() for r in self.undone], "rerolls": self.rerolls,
                "every_roll": [r.as_json() for r in self.rolls], "meaning": MEANING}


def _distribution(count: int, sides: int) -> dict[int, float]:
    """The chance of each face (one die) or total (several)."""
    if count == 1:
        return {face: 1 / sides for face in range(1, sides + 1)}
    totals: Counter = Counter(sum(faces) for faces in product(range(1, sides + 1), repeat=count))
    whole = sides**count
    return {total: totals[total] / whole for total in sorted(totals)}


def dice_stats(record: DiceRecord) -> DiceStats:
    from scipy.stats import chisquare

    kept = [r for r in record.rolls if not r.undone]
    undone = [r for r in record.rolls if r.undone]
    by_player_purpose: dict[str, dict[str, int]] = {}
    for roll in kept:
        purposes = by_player_purpose.setdefault(roll.player, {})
        purposes[roll.purpose] = purposes.get(roll.purpose, 0) + 1
    observed: dict[tuple[str, str, int, int], list[int]] = {}
    for roll in kept:
        if roll.faces is not None:
            observed.setdefault((roll.player, f"d{roll.sides}", 1, roll.sides), []).extend(roll.faces)
        else:
            observed.setdefault((roll.player, roll.die, roll.count, roll.sides), []).append(roll.total)
    groups = []
    for (player, die, count, sides), values in sorted(observed.items()):
        n = len(values)
        if count > MAX_TOTAL_DICE or sides > 100:
            counts = dict(sorted(Counter(values).items()))
            groups.append(DieGroup(player, die, counts, {}, n, sum(values) / n, count * (sides + 1) / 2, None, 0, None,
                                   "not tested: too many dice in one total"))
            continue
        chances = _distribution(count, sides)
        counts = {face: 0 for face in chances}
        outside = 0
        for value in values:
            if value in counts:
                counts[value] += 1
            else:
                outside += 1
        expected = {face: chance * n for face, chance in chances.items()}
        note = None
        chi = p = None
        degrees = len(chances) - 1
        if outside:
            note = f"{outside} value(s) no {die} can show: not tested"
        elif n < 2:
            note = "too few rolls to test"
        else:
            test = chisquare([counts[f] for f in chances], [expected[f] for f in chances])
            chi, p = float(test.statistic), float(test.pvalue)
            if min(expected.values()) < MIN_EXPECTED:
                note = f"rough: fewer than {MIN_EXPECTED} rolls expected per {'face' if count == 1 else 'total'} (the test needs more rolls to say much)"
        groups.append(DieGroup(player, die, counts, expected, n, round(sum(values) / n, 4), count * (sides + 1) / 2,
                               None if chi is None else round(chi, 4), degrees, None if p is None else round(p, 4), note))
    return DiceStats(record.rolls, kept, undone, record.rerolls, by_player_purpose, groups)


def stats_lines(stats: DiceStats, names: dict[str, list[str]] | None = None) -> list[str]:
    """The report as text lines."""
    return json_lines(stats.as_json(), names)


def json_lines(data: dict[str, Any], names: dict[str, list[str]] | None = None) -> list[str]:
    """The report as text lines, from its JSON form (what ``archive show`` keeps)."""
    names = names or {}

    def who(player: str) -> str:
        return f"{player} ({', '.join(names[player])})" if names.get(player) else player

    lines = [f"{data['rolls']} roll(s) on record: {data['kept']} kept, {data['undone']} taken back by an undo"]
    if not data["rolls"]:
        return lines
    lines.append("rolls by player and purpose:")
    for player, purposes in sorted(data["by_player_and_purpose"].items()):
        lines.append(f"  {who(player)}: " + ", ".join(f"{purpose} {n}" for purpose, n in sorted(purposes.items())))
    lines.append("faces, per player and die type (kept rolls):")
    for group in data["groups"]:
        counts = " ".join(f"{face}:{n}" for face, n in group["counts"].items())
        unit = ("die" if group["observations"] == 1 else "dice") if group["die"].startswith("d") else ("total" if group["observations"] == 1 else "totals")
        lines.append(f"  {who(group['player'])}, {group['die']}: {counts}  ({group['observations']} {unit})")
        test = (f"chi-square {group['chi_square']:.2f} with {group['degrees_of_freedom']} degrees of freedom, p = {group['p_value']:.3f}"
                if group["p_value"] is not None else "no chi-square test")
        mean = f"mean {group['mean']:.2f} (expected {group['expected_mean']:.2f})" if group["mean"] is not None else ""
        lines.append(f"      {mean}; {test}" + (f"; {group['note']}" if group["note"] else ""))
    if data["undone_rolls"] or data["rerolls"]:
        lines.append("rolls taken back by an undo, and rolled again:")
        for roll in data["undone_rolls"]:
            again = next((r for r in data["rerolls"] if r["file"] == roll["file"] and f"step {r['undone_step']}" == roll["where"]), None)
            tail = f"; rolled again at step {again['step']}: {','.join(map(str, again['after']))}" if again else "; not rolled again"
            shown = ",".join(map(str, roll["faces"] if roll["faces"] is not None else [roll["total"]]))
            lines.append(f"  {who(roll['player'])}: {roll['file']} {roll['where']} {roll['purpose']} {shown} taken back{tail}")
    else:
        lines.append("no roll was taken back by an undo")
    lines.append(data["meaning"])
    return lines
