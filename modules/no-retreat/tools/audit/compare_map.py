"""Second method for map.json: parse Hexes.xml independently and compare every hex and hexside.

Hexes.xml stores axial coordinates (row, column); a river/blocked entry "a,b" is the neighbour at
(row+a, column+b) (checked: every such entry's reciprocal uses the negated pair). The label is derived
here from pixel geometry, not copied from the module: centre x grows by one pitch per column and half a
pitch per row, so C = column + row/2 + 12 (+1/2 on odd XML rows), R = row + 11, anchored on Berlin = 0503.
Usage: python compare_map.py [--sample N --seed S] (prints disagreements; with --sample writes sample.json).
"""
import argparse
import json
import random
import sys
from fractions import Fraction
from pathlib import Path
import xml.etree.ElementTree as ET

HERE = Path(__file__).resolve().parent
MODULE = HERE.parents[1]
SHARED = HERE.parents[4] / "shared" / "data" / "no-retreat"

# Russian city names as the XML spells them -> the names the map prints (read off Map.jpg by the reviewer).
CITIES = {
    "Ярославль": "Yaroslavl", "Харьков": "Kharkov", "Тула": "Tula", "Сталино": "Stalino",
    "Сталинград": "Stalingrad", "Смоленск": "Smolensk", "Севастополь": "Sevastopol", "Саратов": "Saratov",
    "Ростов": "Rostov", "Рига": "Riga", "Прага": "Prague", "Познань": "Posen", "Одесса": "Odessa",
    "Новороссийск": "Novorossiysk", "Москва": "Moscow", "Минск": "Minsk", "Люблин": "Lublin",
    "Ленинград": "Leningrad", "Кёнигсберг": "Königsberg", "Киев": "Kiev", "Калинин": "Kalinin",
    "Днепропетровск": "Dnepropetrovsk", "Горький": "Gorki", "Воронеж": "Voronezh", "Вена": "Vienna",
    "Варшава": "Warsaw", "Бухарест": "Bucharest", "Будапешт": "Budapest", "Бреслау": "Breslau",
    "Берлин": "Berlin", "Белград": "Belgrade", "Астрахань": "Astrakhan",
}
TERRAIN = {"Open": "open", "Forest": "forest", "Mountain": "mountain", "Marsh": "marsh", "Area": "area",
           "KerchStrait": "kerch_strait"}
BERLIN_AXIAL = (-8, -3)


def label(row: int, col: int) -> str:
    c = Fraction(col) + Fraction(row, 2) + 12 + (Fraction(1, 2) if row % 2 else 0)
    assert c.denominator == 1
    return f"{int(c):02d}{row + 11:02d}"


def parse_xml() -> tuple[dict, dict]:
    root = ET.parse(SHARED / "Hexes.xml").getroot()
    hexes, sides = {}, {}
    for r in root.iter("row"):
        row = int(r.get("value"))
        for h in r.iter("hex"):
            col = int(h.get("column"))
            t = h.get("type")
            rec = {"terrain": TERRAIN.get(t, "city"), "city": CITIES.get(t), "sea": h.get("sea"),
                   "edge": h.get("mapEdge"), "axial": (row, col)}
            hexes[label(row, col)] = rec
            for kind in ("river", "blocked"):
                for e in h.iter(kind):
                    dr, dc = map(int, e.text.split(","))
                    pair = tuple(sorted((label(row, col), label(row + dr, col + dc))))
                    sides.setdefault(pair, {}).setdefault(kind, []).append(label(row, col))
    return hexes, sides


def module_view() -> tuple[dict, dict]:
    m = json.loads((MODULE / "map.json").read_text())
    legend = m["layers"]["terrain"]["legend"]
    hexes = {}
    for r, line in enumerate(m["layers"]["terrain"]["rows"], start=1):
        for c, ch in enumerate(line, start=1):
            if legend[ch]:
                hexes[f"{c:02d}{r:02d}"] = {"terrain": legend[ch]}
    for k, v in m["hexes"].items():
        hexes.setdefault(k, {"terrain": m["default_terrain"]}).update(v)
    sides = {tuple(sorted(s["hexes"])): set(s["features"]) for s in m["hexsides"]}
    return hexes, sides


def compare(labels=None) -> list[str]:
    xh, xs = parse_xml()
    mh, ms = module_view()
    out = []
    assert label(*BERLIN_AXIAL) == "0503" and xh["0503"]["city"] == "Berlin"
    todo = labels or sorted(set(xh) | set(mh))
    for lab in todo:
        x, m = xh.get(lab), mh.get(lab)
        if x is None or m is None:
            out.append(f"{lab}: in XML {x is not None}, in module {m is not None}")
            continue
        if x["terrain"] != m["terrain"]:
            out.append(f"{lab} terrain: module {m['terrain']} XML {x['terrain']}")
        if x["city"] != m.get("city"):
            out.append(f"{lab} city: module {m.get('city')} XML {x['city']}")
        if (x["sea"] or "").lower() != (m.get("sea") or ""):
            out.append(f"{lab} sea: module {m.get('sea')} XML {x['sea']}")
        edge = {"Germany": "axis", "USSR": "soviet"}.get(x["edge"])
        if edge != m.get("supply"):
            out.append(f"{lab} map edge: module {m.get('supply')} XML {x['edge']}")
    pairs = set(xs) | set(ms)
    if labels:
        pairs = {p for p in pairs if p[0] in labels or p[1] in labels}
    for p in sorted(pairs):
        x = xs.get(p, {})
        xf = {k for k in x}
        mf = ms.get(p, set()) & {"river", "blocked"}
        if xf != mf:
            one_sided = {k: v for k, v in x.items() if len(v) == 1}
            out.append(f"{p[0]}-{p[1]}: module {sorted(mf)} XML {sorted(xf)} (one-sided in XML: {one_sided})")
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sample", type=int)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    labels = None
    if a.sample:
        xh, _ = parse_xml()
        labels = sorted(random.Random(a.seed).sample(sorted(xh), a.sample))
        (HERE / "sample.json").write_text(json.dumps(labels) + "\n")
    bad = compare(labels)
    print(f"{len(labels) if labels else 'all'} hexes compared, {len(bad)} disagreements")
    for line in bad:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
