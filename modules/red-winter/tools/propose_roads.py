"""Propose the secondary-road (trail) hexsides of the Red Winter map from its 150 dpi scan.

``python modules/red-winter/tools/propose_roads.py ../shared/data/red-winter/Red_Winter_Map-150.jpg``
prints one line per hexside ``A-B hits_inside hits_near_vertices``. A pixel is road-brown when red > green >
blue with clear gaps (the map key's secondary road is about RGB 117/93/55; snow, forest, suo and ice are grey,
green or olive). Each hexside is sampled at 41 points along its length, 3 px to either side; a hexside with
two or more brown samples is proposed. The proposal is only a starting point: place names printed in brown,
roofs, bog texture and roads running along a hexside give false hits, and faint stretches give misses; the
verdicts are in ``build_map.py`` (REJECTED, ADDED). Nothing derived from the image is written to the repo.
"""

from __future__ import annotations

import math
import sys

from PIL import Image

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWX"
ORIGIN, PITCH = (136.7, 408.3), (59.9, 69.2)  # calibration.json
SIZE = PITCH[0] / 1.5  # centre-to-vertex of a flat-topped hex


def centre(c: int, r: int) -> tuple[float, float]:
    """Pixel centre of column index c (A = 0), row r; B, D ... stand half a hex higher."""
    return ORIGIN[0] + c * PITCH[0], ORIGIN[1] + (r - 1) * PITCH[1] - (PITCH[1] / 2 if c % 2 else 0)


def exists(c: int, r: int) -> bool:
    return 0 <= c < 24 and 1 <= r <= 31 and not (r == 31 and c % 2 == 0)


def neighbours(c: int, r: int):
    steps = [(0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0)] if c % 2 else [(0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1)]
    for dc, dr in steps:
        if exists(c + dc, r + dr):
            yield c + dc, r + dr


def brown_mask(image: Image.Image) -> Image.Image:
    rgb = image.convert("RGB")
    data = bytes(255 if (r - g >= 12 and g - b >= 15 and 70 < r < 200 and r - b >= 45) else 0 for r, g, b in rgb.get_flattened_data())
    return Image.frombytes("L", rgb.size, data)


def crossing(mask: Image.Image, a: tuple[int, int], b: tuple[int, int], steps: int = 40, thick: int = 3) -> tuple[int, int]:
    """Brown samples on the hexside a|b: (within the middle 80 %, near its two vertices)."""
    (x1, y1), (x2, y2) = centre(*a), centre(*b)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    n = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / n, (y2 - y1) / n
    hits = []
    for i in range(steps + 1):
        t = (-1 + 2 * i / steps) * SIZE / 2
        hits.append(any(mask.getpixel((round(mx - uy * t + ux * k), round(my + ux * t + uy * k))) for k in range(-thick, thick + 1)))
    inside = sum(hits[int(steps * 0.1): int(steps * 0.9) + 1])
    return inside, sum(hits) - inside


def main(path: str) -> None:
    mask = brown_mask(Image.open(path))
    for c in range(24):
        for r in range(1, 32):
            if not exists(c, r):
                continue
            for nb in neighbours(c, r):
                if nb < (c, r):
                    continue
                inside, ends = crossing(mask, (c, r), nb)
                if inside + ends >= 2:
                    print(f"{LETTERS[c]}{r}-{LETTERS[nb[0]]}{nb[1]} {inside} {ends}")


if __name__ == "__main__":
    main(sys.argv[1])
