"""Contact sheets for the by-eye check: each sampled hex cropped from Map.jpg around the centre the
reviewer's own grid predicts (Berlin, Moscow, Stalingrad centres read by eye), captioned with what
Hexes.xml says. Writes PNGs to the directory given (never into the repo)."""
import json
import math
import sys
from pathlib import Path
from PIL import Image, ImageDraw

from compare_map import SHARED, parse_xml

HERE = Path(__file__).resolve().parent
PX, PY = 159.75, 138.2          # from Berlin (1075,586) and Stalingrad (3631,2521), checked on Moscow (3390,1276)


def centre(lab: str) -> tuple[float, float]:
    c, r = int(lab[:2]), int(lab[2:])
    return 1075 + (c - 5) * PX - (0 if r % 2 else PX / 2), 586 + (r - 3) * PY


def direction(a: str, b: str) -> str:
    (ax, ay), (bx, by) = centre(a), centre(b)
    ang = math.degrees(math.atan2(-(by - ay), bx - ax)) % 360
    return ["E", "NE", "NW", "W", "SW", "SE"][int(((ang + 30) % 360) // 60)]


def main(outdir: str, labels: list[str] | None = None, name: str = "sheet") -> None:
    Image.MAX_IMAGE_PIXELS = None
    im = Image.open(SHARED / "Map.jpg").convert("RGB")
    labels = labels or json.loads((HERE / "sample.json").read_text())
    xh, xs = parse_xml()
    tiles = []
    for lab in labels:
        x, y = centre(lab)
        t = im.crop((int(x - 150), int(y - 150), int(x + 150), int(y + 150)))
        d = ImageDraw.Draw(t)
        d.ellipse((146, 146, 154, 154), outline="red", width=2)
        h = xh[lab]
        riv = sorted(direction(lab, o) for p, k in xs.items() if lab in p and "river" in k
                     for o in p if o != lab)
        blk = sorted(direction(lab, o) for p, k in xs.items() if lab in p and "blocked" in k
                     for o in p if o != lab)
        cap = f"{lab} {h['city'] or h['terrain']} R:{','.join(riv) or '-'} B:{','.join(blk) or '-'}"
        d.rectangle((0, 0, 300, 22), fill="white")
        d.text((4, 4), cap, fill="black")
        tiles.append(t)
    for s in range(0, len(tiles), 12):
        sheet = Image.new("RGB", (4 * 305, 3 * 305), "white")
        for i, t in enumerate(tiles[s:s + 12]):
            sheet.paste(t, ((i % 4) * 305, (i // 4) * 305))
        sheet.save(Path(outdir) / f"{name}{s // 12}.png")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:] or None, "extra" if sys.argv[2:] else "sheet")
