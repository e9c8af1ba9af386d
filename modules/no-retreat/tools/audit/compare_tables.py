"""Compare the reviewer's own transcription (my_transcription.json) with tables.json, cell by cell.

Prints one line per disagreement and a count per table; exit 1 if any cell disagrees.
"""
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MINE = json.loads((HERE / "my_transcription.json").read_text())
MODULE = json.loads((HERE.parents[1] / "tables.json").read_text())


def compare_crt(side: str) -> tuple[int, list[str]]:
    mine, theirs = MINE[f"crt_{side}"], MODULE["crts"][side]
    out, n = [], 0
    cols = [c.replace(":", "/") for c in mine["columns"]]
    if cols != theirs["columns"]:
        out.append(f"crt_{side}: columns {theirs['columns']} vs image {cols}")
    for die, row in mine["rows"].items():
        for col, cell, their in zip(cols, row, theirs["rows"][die]):
            n += 1
            if cell != their:
                out.append(f"crt_{side} die {die} col {col}: module {their!r} image {cell!r}")
    return n, out


def compare_tec() -> tuple[int, list[str]]:
    mine, theirs = MINE["tec_main"], MODULE["terrain_effects"]
    out, n = [], 0
    for name, row in mine["rows"].items():
        for col, cell in zip(mine["columns"], row):
            n += 1
            their = theirs["rows"].get(name, {}).get(col)
            if cell != their:
                out.append(f"tec {name}.{col}: module {their!r} image {cell!r}")
    extra = set(theirs["rows"]) - set(mine["rows"])
    if extra:
        out.append(f"tec: rows in module not on image: {sorted(extra)}")
    return n, out


def compare_turns() -> tuple[int, list[str]]:
    mine = MINE["turn_track"]
    theirs = {t["turn"]: t for t in MODULE["turn_track"]["turns"]}
    keys = {"year": "year", "months": "months", "weather": "weather", "skull": "sudden_death",
            "blitz": "blitz", "shock": "shock", "event": "event", "stamped_red_game_event": "game_event"}
    out, n = [], 0
    for row in mine["rows"]:
        rec = dict(zip(mine["columns"], row))
        t = theirs.get(rec["turn"], {})
        for k, mk in keys.items():
            n += 1
            a, b = rec[k], t.get(mk)
            if k == "event":
                a, b = a.lower(), str(b).lower()
            if a != b:
                out.append(f"turn {rec['turn']} {k}: module {t.get(mk)!r} image {rec[k]!r}")
    return n, out


def compare_vp() -> tuple[int, list[str]]:
    mine, theirs = MINE["vp_track"], MODULE["vp_track"]
    out, n = [], 2
    if mine["boxes"] != theirs["boxes"]:
        out.append(f"vp boxes: module {theirs['boxes']} image {mine['boxes']}")
    if mine["labels"] != theirs["labels"]:
        out.append(f"vp labels: module {theirs['labels']} image {mine['labels']}")
    their_sd = sorted((s["box"], s["turn"], s["icon"]) for s in theirs["sudden_death"])
    for sd in mine["sudden_death"]:
        n += 1
        if tuple(sd) not in their_sd:
            out.append(f"vp sudden death {sd}: not in module")
    if len(their_sd) != len(mine["sudden_death"]):
        out.append(f"vp sudden death count: module {len(their_sd)} image {len(mine['sudden_death'])}")
    their_aw = [tuple(a["turns"]) for a in theirs["awards"]]
    mine_aw = [tuple(a[0]) for a in mine["awards"]]
    n += len(mine_aw)
    if their_aw != mine_aw:
        out.append(f"vp awards turns: module {their_aw} image {mine_aw}")
    for (_, text), a in zip(mine["awards"], theirs["awards"]):
        sign = "-1" if text.startswith("-1") else ("+/-1" if text.startswith("+/-") else "+1")
        their = {1: "+1", -1: "-1", "+1 or -1": "+/-1"}[a["vp"]]
        if sign != their:
            out.append(f"vp award '{text}': module {a['vp']!r}")
    return n, out


def main() -> int:
    total_bad = 0
    for name, fn in [("crt axis", lambda: compare_crt("axis")), ("crt soviet", lambda: compare_crt("soviet")),
                     ("tec main", compare_tec), ("turn track", compare_turns), ("vp track", compare_vp)]:
        n, bad = fn()
        total_bad += len(bad)
        print(f"{name}: {n} cells compared, {len(bad)} disagreements")
        for line in bad:
            print("  " + line)
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
