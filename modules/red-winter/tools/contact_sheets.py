"""Contact sheets of every hex of the Red Winter map, each crop labelled with the terrain map.json gives it.

The second, independent check of the terrain (the first is the colour sampler of ``build_map.py``): a person
looks at every hex's crop of the scan next to the module's verdict and writes down each disagreement.
See ``tools/README.md`` for the method and the result of the last pass.

Run from the repo root::

    python modules/red-winter/tools/contact_sheets.py ../shared/data/red-winter/Red_Winter_Map-150.jpg OUT_DIR
        [--columns A-F | --only A6,B7,...] [--terrain village] [--per-sheet 48] [--across 8]

It writes ``OUT_DIR/sheet-NN.png`` (crops in column-major order: A1, A2, ... then B1 ...). The crops derive
from the copyrighted scan, so they are written only at run time and never committed. Each tile is the hex's
crop (1.6 x the hex's width, so the neighbours' edges show), the hex outline drawn on it, and a caption bar
"LABEL terrain" coloured by terrain (the centre is marked with a small cross: a mixed hex counts as what covers
its centre) so a sheet can be scanned for one colour at a time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from pbem.art.layout import load_calibration

MODULE = Path(__file__).resolve().parents[1]
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWX"
CAPTION_COLOURS = {"forest": (20, 110, 30), "suo": (150, 130, 20), "frozen_lake": (40, 120, 220), "village": (200, 40, 40)}
SCALE = 2  # enlargement of each crop: the scan's hexes are about 70 px tall
CAPTION = 22


def terrain_by_label() -> dict[str, str]:
    """map.json's terrain of every hex, by label."""
    data = json.loads((MODULE / "map.json").read_text(encoding="utf-8"))
    legend = data["layers"]["terrain"]["legend"]
    absent = set(data["absent"])
    result = {}
    for r, row in enumerate(data["layers"]["terrain"]["rows"], start=1):
        for c, code in enumerate(row):
            label = f"{LETTERS[c]}{r}"
            if label not in absent:
                result[label] = legend[code]
    return result


def tile(image: Image.Image, calibration, label: str, terrain: str, font) -> Image.Image:
    """One hex's enlarged crop with its outline and caption."""
    layout = calibration.layout
    x, y = layout.label_center(label)
    half_w = layout.pitch[0] * 0.8
    half_h = layout.pitch[1] * 0.8
    box = (round(x - half_w), round(y - half_h), round(x + half_w), round(y + half_h))
    crop = image.crop(box).resize(((box[2] - box[0]) * SCALE, (box[3] - box[1]) * SCALE), Image.LANCZOS)
    out = Image.new("RGB", (crop.width, crop.height + CAPTION), "white")
    out.paste(crop, (0, CAPTION))
    draw = ImageDraw.Draw(out)
    corners = [((cx - box[0]) * SCALE, (cy - box[1]) * SCALE + CAPTION) for cx, cy in layout.corners_at(x, y)]
    draw.polygon(corners, outline=(255, 0, 255), width=2)
    # Mixed hexes follow what covers the centre (README), so the centre is marked.
    cx, cy = (x - box[0]) * SCALE, (y - box[1]) * SCALE + CAPTION
    draw.line((cx - 6, cy, cx + 6, cy), fill=(255, 0, 255), width=1)
    draw.line((cx, cy - 6, cx, cy + 6), fill=(255, 0, 255), width=1)
    draw.rectangle((0, 0, out.width, CAPTION), fill=CAPTION_COLOURS[terrain])
    draw.text((4, 2), f"{label} {terrain}", fill="white", font=font)
    return out


def sheets(image_path: Path, out_dir: Path, labels: list[str], per_sheet: int, across: int) -> list[Path]:
    """Write the contact sheets of ``labels`` and return their paths."""
    calibration = load_calibration(MODULE / "calibration.json")
    try:
        with Image.open(image_path) as opened:
            image = opened.convert("RGB")
    except OSError as error:
        raise ValueError(f"{image_path}: cannot read the image ({error.strerror or error})") from None
    if calibration.image_size and image.size != calibration.image_size:
        size = "x".join(map(str, calibration.image_size))
        raise ValueError(f"{image_path}: image is {image.size[0]}x{image.size[1]}, the calibration was measured on {size}")
    terrain = terrain_by_label()
    try:
        font = ImageFont.truetype("DejaVuSans-Bold.ttf", 16)
    except OSError:
        font = ImageFont.load_default()
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for start in range(0, len(labels), per_sheet):
        tiles = [tile(image, calibration, label, terrain[label], font) for label in labels[start : start + per_sheet]]
        w, h = tiles[0].size
        down = -(-len(tiles) // across)
        sheet = Image.new("RGB", (across * (w + 4), down * (h + 4)), "black")
        for n, t in enumerate(tiles):
            sheet.paste(t, ((n % across) * (w + 4), (n // across) * (h + 4)))
        path = out_dir / f"sheet-{start // per_sheet + 1:02d}.png"
        sheet.save(path)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("image", type=Path, help="Red_Winter_Map-150.jpg (1650 x 2550)")
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--columns", default="A-X", help="a letter range, e.g. A-F")
    parser.add_argument("--only", default="", help="comma-separated hex labels instead of whole columns")
    parser.add_argument("--terrain", choices=sorted(CAPTION_COLOURS), help="only the hexes map.json gives this terrain")
    parser.add_argument("--per-sheet", type=int, default=48, help="tiles per sheet (48)")
    parser.add_argument("--across", type=int, default=8, help="tiles per row (8)")
    args = parser.parse_args(argv)
    terrain = terrain_by_label()
    if args.only:
        labels = [label.strip().upper() for label in args.only.split(",") if label.strip()]
        unknown = [label for label in labels if label not in terrain]
        if unknown:
            print(f"--only: not hexes of the map: {', '.join(unknown)}", file=sys.stderr)
            return 2
    else:
        first, _, last = args.columns.upper().partition("-")
        last = last or first
        if len(first) != 1 or len(last) != 1 or first not in LETTERS or last not in LETTERS or first > last:
            print(f"--columns: {args.columns!r} is not a range of columns A-X such as A-F", file=sys.stderr)
            return 2
        columns = LETTERS[LETTERS.index(first) : LETTERS.index(last) + 1]
        labels = [f"{c}{r}" for c in columns for r in range(1, 32) if f"{c}{r}" in terrain]
    if args.terrain:
        labels = [label for label in labels if terrain[label] == args.terrain]
    if not labels:
        print("no hex to show", file=sys.stderr)
        return 2
    if args.per_sheet < 1 or args.across < 1:
        print("--per-sheet and --across must be at least 1", file=sys.stderr)
        return 2
    try:
        written = sheets(args.image, args.out_dir, labels, args.per_sheet, args.across)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    for path in written:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
