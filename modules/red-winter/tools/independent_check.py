"""Independent terrain check of the Red Winter map: hex crops grouped by map.json's terrain.

The hex centres are computed here from calibration.json alone (not from pbem's grid code), so an error
in either shows up. Sheets are written outside the repository (default /tmp/rw-check): they are crops
of the GMT scan and must never be committed.

    python modules/red-winter/tools/independent_check.py verify   # label-check crops with the grid drawn
    python modules/red-winter/tools/independent_check.py sheets   # one sheet set per claimed terrain
    python modules/red-winter/tools/independent_check.py roads    # map.json's roads drawn over the scan
    python modules/red-winter/tools/independent_check.py outliers # per terrain, the hexes least like the rest
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

from PIL import Image, ImageDraw

MODULE = Path(__file__).resolve().parents[1]
SCAN = MODULE.parents[1] / ".." / "shared" / "data" / "red-winter" / "Red_Winter_Map-150.jpg"
OUT = Path("/tmp/rw-check")
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWX"


def load() -> tuple[dict, dict]:
    cal = json.loads((MODULE / "calibration.json").read_text())
    game_map = json.loads((MODULE / "map.json").read_text())
    return cal, game_map


def centre(cal: dict, label: str) -> tuple[float, float]:
    """Pixel centre of a hex: flat-topped columns; the odd columns (A, C, ...) sit half a hex lower,
    so A1 (the origin) is lower than B1."""
    col = LETTERS.index(label[0]) + 1
    row = int(label[1:])
    (ox, oy), (px, py) = cal["origin"], cal["pitch"]
    lift = 0.0 if col % 2 == 1 else py / 2
    return ox + (col - 1) * px, oy + (row - 1) * py - lift


def hex_outline(cx: float, cy: float, px: float, scale: float = 1.0) -> list[tuple[float, float]]:
    """Flat-topped hexagon: the corner radius is 2/3 of the column pitch."""
    r = px * 2 / 3 * scale
    return [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a))) for a in range(0, 360, 60)]


def terrain_of(game_map: dict) -> dict[str, str]:
    legend = game_map["layers"]["terrain"]["legend"]
    rows = game_map["layers"]["terrain"]["rows"]
    absent = set(game_map.get("absent", []))
    out = {}
    for r, line in enumerate(rows, start=1):
        for c, code in enumerate(line):
            label = f"{LETTERS[c]}{r}"
            if label not in absent:
                out[label] = legend[code]
    return out


def tile(scan: Image.Image, cal: dict, label: str, half: int = 42, size: int = 168) -> Image.Image:
    cx, cy = centre(cal, label)
    box = (round(cx) - half, round(cy) - half, round(cx) + half, round(cy) + half)
    crop = scan.crop(box).resize((size, size), Image.LANCZOS)
    k = size / (2 * half)
    draw = ImageDraw.Draw(crop)
    pts = [((x - box[0]) * k, (y - box[1]) * k) for x, y in hex_outline(cx, cy, cal["pitch"][0])]
    draw.polygon(pts, outline=(255, 0, 255))
    draw.rectangle((0, 0, 40, 14), fill=(0, 0, 0))
    draw.text((2, 1), label, fill=(255, 255, 0))
    return crop


def sheets(labels: list[str], name: str, scan: Image.Image, cal: dict, per_row: int = 8, per_sheet: int = 48) -> list[Path]:
    OUT.mkdir(parents=True, exist_ok=True)
    paths = []
    for start in range(0, len(labels), per_sheet):
        chunk = labels[start:start + per_sheet]
        rows = math.ceil(len(chunk) / per_row)
        sheet = Image.new("RGB", (per_row * 170, rows * 170), (40, 40, 40))
        for i, label in enumerate(chunk):
            sheet.paste(tile(scan, cal, label), ((i % per_row) * 170, (i // per_row) * 170))
        path = OUT / f"{name}-{start // per_sheet + 1:02d}.png"
        sheet.save(path)
        paths.append(path)
    return paths


def cmd_verify(scan: Image.Image, cal: dict, game_map: dict) -> None:
    """Hexes whose printed set-up label or map feature can be read: the computed centre must sit in them."""
    labels = ["A13", "M16", "X28", "O19", "P15", "X12", "R27", "Q25", "P7", "X1", "F21", "H19", "O1", "S11", "A1", "X31"]
    print(*(f"{h}:{tuple(round(v) for v in centre(cal, h))}" for h in labels))
    sheets(labels, "verify", scan, cal, per_row=4, per_sheet=16)


def cmd_sheets(scan: Image.Image, cal: dict, game_map: dict) -> None:
    by_terrain: dict[str, list[str]] = {}
    for label, terrain in terrain_of(game_map).items():
        by_terrain.setdefault(terrain, []).append(label)
    for terrain, labels in sorted(by_terrain.items()):
        paths = sheets(labels, terrain, scan, cal)
        print(terrain, len(labels), "hexes,", len(paths), "sheets")


def cmd_roads(scan: Image.Image, cal: dict, game_map: dict) -> None:
    """Every road route drawn centre to centre (main/primary red, trails cyan) and bridges marked, in 6 map regions."""
    img = scan.copy()
    draw = ImageDraw.Draw(img)
    trail = {frozenset(s["hexes"]) for s in game_map["hexsides"] if "trail" in s["features"]}
    for route in game_map["roads"]:
        pts = [centre(cal, h) for h in route["hexes"]]
        for a, b, (ha, hb) in zip(pts, pts[1:], zip(route["hexes"], route["hexes"][1:])):
            colour = (0, 230, 255) if frozenset((ha, hb)) in trail else (255, 0, 0)
            draw.line([a, b], fill=colour, width=3)
    for s in game_map["hexsides"]:
        if "bridge" in s["features"]:
            (ax, ay), (bx, by) = (centre(cal, h) for h in s["hexes"])
            draw.ellipse(((ax + bx) / 2 - 8, (ay + by) / 2 - 8, (ax + bx) / 2 + 8, (ay + by) / 2 + 8), outline=(255, 0, 255), width=3)
    for label in terrain_of(game_map):
        x, y = centre(cal, label)
        draw.text((x - 10, y + 14), label, fill=(255, 0, 255))
    OUT.mkdir(parents=True, exist_ok=True)
    w, h = img.size
    top = 300
    for i, (x0, y0) in enumerate((x, y) for y in (top, top + 750, top + 1500) for x in (0, 800)):
        img.crop((x0, y0, min(w, x0 + 860), min(h, y0 + 800))).save(OUT / f"roads-{i + 1}.png")
    print("wrote", OUT)


def disc_stats(scan: Image.Image, cal: dict, label: str, radius: int = 20) -> tuple[float, float, float]:
    """Mean RGB over a disc round the hex centre (a number to rank hexes, not a classifier)."""
    cx, cy = (round(v) for v in centre(cal, label))
    crop = scan.crop((cx - radius, cy - radius, cx + radius + 1, cy + radius + 1))
    pixels = [crop.getpixel((x, y)) for y in range(2 * radius + 1) for x in range(2 * radius + 1)
              if (x - radius) ** 2 + (y - radius) ** 2 <= radius ** 2]
    return tuple(sum(p[i] for p in pixels) / len(pixels) for i in range(3))


def cmd_outliers(scan: Image.Image, cal: dict, game_map: dict) -> None:
    """Within each claimed terrain, the hexes whose centre colour lies farthest from that terrain's median:
    the odd ones out to look at again, enlarged, on outliers-<terrain>.png."""
    by_terrain: dict[str, list[str]] = {}
    for label, terrain in terrain_of(game_map).items():
        by_terrain.setdefault(terrain, []).append(label)
    for terrain, labels in sorted(by_terrain.items()):
        stats = {h: disc_stats(scan, cal, h) for h in labels}
        median = [sorted(v[i] for v in stats.values())[len(stats) // 2] for i in range(3)]
        ranked = sorted(labels, key=lambda h: -math.dist(stats[h], median))[:16]
        print(terrain, "median", [round(m) for m in median], "farthest:",
              ", ".join(f"{h}({math.dist(stats[h], median):.0f})" for h in ranked))
        sheets(ranked, f"outliers-{terrain}", scan, cal, per_row=8, per_sheet=16)


def main(argv: list[str]) -> int:
    commands = {"verify": cmd_verify, "sheets": cmd_sheets, "roads": cmd_roads, "outliers": cmd_outliers}
    if len(argv) != 1 or argv[0] not in commands:
        print(__doc__)
        return 2
    cal, game_map = load()
    scan = Image.open(SCAN).convert("RGB")
    commands[argv[0]](scan, cal, game_map)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
