"""NATO / APP-6 land-unit symbols as vector shapes, drawn the same way into PIL images and SVG.

Shapes live in milsymbol's coordinate space (the APP-6 reference renderer): a 200 x 200 box in which a
friendly land unit's frame is the rectangle x 25..175, y 50..150 (3:2), icons are drawn inside it and
echelon marks sit just above it (y 30..46). Proportions follow milsymbol's ``ground.js``; the shapes are
re-drawn here as simple primitives, so that a counter needs no font and no SVG renderer.

A symbol is named by a list of icon names (``infantry``, ``armour``…), combined the way APP-6 combines
them: mechanized infantry is the infantry cross inside the armour oval.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

from PIL import Image, ImageDraw

from pbem.art.fonts import font

Point = tuple[float, float]

# The frame of a friendly land unit in milsymbol's 200 x 200 space, and the band above it for echelons.
FRAME = (25.0, 50.0, 175.0, 150.0)
ECHELON_TOP = 28.0
SYMBOL_BOX = (25.0, ECHELON_TOP, 175.0, 150.0)  # what a counter reserves for frame + echelon
STROKE = 4.0  # milsymbol's default stroke width in the same units


@dataclass(frozen=True)
class Shape:
    """One primitive: ``line`` (open polyline), ``poly`` (closed), ``circle`` or ``text``."""

    kind: str
    points: tuple[Point, ...] = ()
    filled: bool = False
    radius: float = 0.0
    text: str = ""
    size: float = 0.0


def _line(*points: Point) -> Shape:
    return Shape("line", tuple(points))


def _poly(*points: Point, filled: bool = False) -> Shape:
    return Shape("poly", tuple(points), filled=filled)


def _circle(cx: float, cy: float, r: float, filled: bool = False) -> Shape:
    return Shape("circle", ((cx, cy),), filled=filled, radius=r)


def _text(x: float, y: float, text: str, size: float = 30.0) -> Shape:
    return Shape("text", ((x, y),), text=text, size=size)


def _cubic(p0: Point, p1: Point, p2: Point, p3: Point, n: int = 10) -> list[Point]:
    """A cubic Bézier flattened to ``n`` segments (the same points for PIL and SVG)."""
    out = []
    for i in range(1, n + 1):
        t = i / n
        u = 1 - t
        out.append(
            (
                u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
                u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1],
            )
        )
    return out


def _oval() -> Shape:
    # milsymbol GR.IC.ARMOUR: M125,80 C150,80 150,120 125,120 L75,120 C50,120 50,80 75,80 Z
    points: list[Point] = [(75, 80), (125, 80)]
    points += _cubic((125, 80), (150, 80), (150, 120), (125, 120))
    points.append((75, 120))
    points += _cubic((75, 120), (50, 120), (50, 80), (75, 80))[:-1]
    return _poly(*points)


def _star(cx: float, cy: float, r: float) -> Shape:
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.4
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return _poly(*points, filled=True)


def _arc(cx: float, cy: float, r: float, start: float, end: float, n: int = 16) -> list[Point]:
    """Points on a circle from ``start`` to ``end`` degrees (0 = east, clockwise as y grows down)."""
    return [(cx + r * math.cos(math.radians(start + (end - start) * k / n)), cy + r * math.sin(math.radians(start + (end - start) * k / n))) for k in range(n + 1)]


_X1, _Y1, _X2, _Y2 = FRAME
_CROSS = (_line((_X1, _Y1), (_X2, _Y2)), _line((_X1, _Y2), (_X2, _Y1)))

# Icon name -> shapes (frame coordinates). Modifiers in the lower sector (airborne, mountain…) are drawn
# on top of the main icon, as APP-6 sector 2 modifiers.
ICONS: dict[str, tuple[Shape, ...]] = {
    "infantry": _CROSS,
    "armour": (_oval(),),
    "mechanized_infantry": _CROSS + (_oval(),),
    "motorized_infantry": _CROSS + (_line((100, _Y1), (100, _Y2)),),
    "motorized": (_line((100, _Y1), (100, _Y2)),),
    "artillery": (_circle(100, 100, 15, filled=True),),
    "reconnaissance": (_line((_X1, _Y2), (_X2, _Y1)),),
    "cavalry": (_line((_X1, _Y2), (_X2, _Y1)),),
    "airborne": (
        _line((75, 140), *_cubic((75, 140), (75, 125), (100, 125), (100, 140), 8)),
        _line((100, 140), *_cubic((100, 140), (100, 125), (125, 125), (125, 140), 8)),
    ),
    "amphibious": (
        _line(
            (40, 100),
            *[(40 + i * 2.5, 100 + 8 * math.sin(i * 2.5 * math.pi / 30)) for i in range(1, 49)],
        ),
    ),
    "mountain": (_poly((87, 142), (100, 122), (113, 142), filled=True),),
    "ski": (_line((85, 140), (118, 140), *_cubic((118, 140), (126, 140), (126, 130), (120, 128), 5)),),
    # Two wheels joined by the frame, in the lower sector (a bicycle-mounted unit).
    "bicycle": (_circle(84, 134, 9), _circle(116, 134, 9), _line((84, 134), (96, 122), (116, 134)), _line((96, 122), (108, 122))),
    "engineer": (_line((60, 120), (60, 80), (140, 80), (140, 120)), _line((100, 80), (100, 110))),
    "machine_gun": (_line((100, 128), (100, 72)), _line((88, 84), (100, 72), (112, 84)), _line((86, 128), (114, 128))),
    "mortar": (_circle(100, 115, 5), _line((100, 110), (100, 81)), _line((90, 90), (100, 80), (110, 90))),
    "anti_tank": (_line((_X1, _Y2), (100, 52), (_X2, _Y2)),),
    "anti_aircraft": (_line((25, 150), *_cubic((25, 150), (25, 110), (175, 110), (175, 150), 14)),),
    "headquarters": (_text(100, 100, "HQ", 44),),
    "leader": (_star(100, 100, 30),),
    "militia": (_text(100, 100, "MIL", 40),),
    "garrison": (_text(100, 100, "G", 50),),
    "security": (_text(100, 100, "SEC", 38),),
    "supply": (_line((_X1, 130), (_X2, 130)),),
    # NATO's class I supply (rations): a crescent, here above the supply bar of a field kitchen.
    "rations": (_poly(*_arc(100, 95, 24, 40, 320), *reversed(_arc(110, 95, 20, 58, 302)), filled=True),),
    "naval": (_circle(100, 72, 6), _line((100, 78), (100, 128)), _line((84, 88), (116, 88)),
              _line((76, 112), *_cubic((76, 112), (80, 132), (120, 132), (124, 112), 8))),
    # German-style (Wehrmacht taktische Zeichen) signs, drawn without the APP-6 frame: the flag on a staff of a
    # troop unit (plain: infantry), two wheels under the flag for motorised troops, the Panzerraute (a flattened
    # rhombus) for armour, and a small Raute in the flag for a light (mixed tank and motorised) division.
    "de_infantry": (_line((40, 150), (40, 54)), _poly((40, 54), (165, 54), (165, 112), (40, 112))),
    "de_motorized": (_circle(82, 134, 11), _circle(132, 134, 11)),
    "de_panzer": (_poly((25, 100), (100, 60), (175, 100), (100, 140)), _poly((58, 100), (100, 78), (142, 100), (100, 122))),
    "de_light": (_poly((70, 83), (102, 67), (134, 83), (102, 99)),),
}
# Icons drawn without the APP-6 frame (a symbol whose icons are all of these has no frame).
FRAMELESS = frozenset({"de_infantry", "de_motorized", "de_panzer", "de_light"})
# Frequent synonyms in counter lists, so that a module's arm name usually needs no mapping.
ALIASES = {
    "armor": "armour", "tank": "armour", "mechanized": "mechanized_infantry", "mech": "mechanized_infantry",
    "motorised_infantry": "motorized_infantry", "recon": "reconnaissance", "paratroops": "airborne",
    "engineers": "engineer", "antitank": "anti_tank", "anti-tank": "anti_tank", "flak": "anti_aircraft",
    "aa": "anti_aircraft", "hq": "headquarters", "mg": "machine_gun",
}
# Combined symbols named in the issue: arm -> icons, drawn in order.
COMPOUNDS: dict[str, tuple[str, ...]] = {
    "naval_infantry": ("infantry", "amphibious"),
    "marine": ("infantry", "amphibious"),
    "airborne_infantry": ("infantry", "airborne"),
    "paratroop": ("infantry", "airborne"),
    "mountain_infantry": ("infantry", "mountain"),
    "ski_infantry": ("infantry", "ski"),
    "bicycle_infantry": ("infantry", "bicycle"),
    "motorized_artillery": ("artillery", "motorized"),
    "infantry_gun": ("infantry", "artillery"),
    "field_kitchen": ("supply", "rations"),
    "kitchen": ("supply", "rations"),
    "at_gun": ("anti_tank",),
    "armoured_car": ("armour", "reconnaissance"),
    "self_propelled_artillery": ("artillery", "armour"),
}

ECHELONS = ("•", "••", "•••", "I", "II", "III", "X", "XX", "XXX", "XXXX", "XXXXX")  # squad … army group


def icons_for(arm: str, mapping: dict[str, Sequence[str]] | None = None) -> tuple[str, ...]:
    """The icon names of an arm: the module's mapping first, then built-in compounds, aliases and icons.

    >>> icons_for("mechanized_infantry")
    ('mechanized_infantry',)
    >>> icons_for("marine")
    ('infantry', 'amphibious')
    """
    if mapping and arm in mapping:
        return tuple(mapping[arm])
    if arm in COMPOUNDS:
        return COMPOUNDS[arm]
    name = ALIASES.get(arm, arm)
    if name in ICONS:
        return (name,)
    if arm.endswith("_infantry") and arm[: -len("_infantry")] in ICONS:
        return ("infantry", arm[: -len("_infantry")])
    return ()


def shapes(icons: Iterable[str]) -> list[Shape]:
    """Every primitive of the icons; ``text:ABC`` draws ABC in the frame, unknown names draw nothing."""
    out: list[Shape] = []
    for name in icons:
        if name.startswith("text:"):
            out.append(_text(100, 100, name[5:], 44 if len(name) <= 7 else 32))
        else:
            out.extend(ICONS.get(ALIASES.get(name, name), ()))
    return out


def echelon_shapes(size: str | None) -> list[Shape]:
    """Echelon marks above the frame: bars for I-III, crosses for X-XXXXX (centred, as in APP-6)."""
    if not size or size.upper() not in ECHELONS:
        return []
    size = size.upper()
    top, bottom = ECHELON_TOP + 2, 46.0
    if set(size) == {"•"}:
        gap = 14.0
        return [_circle(100 + (i - (len(size) - 1) / 2) * gap, (top + bottom) / 2, 4.5, filled=True) for i in range(len(size))]
    if set(size) == {"I"}:
        gap = 12.0
        xs = [100 + (i - (len(size) - 1) / 2) * gap for i in range(len(size))]
        return [_line((x, top), (x, bottom)) for x in xs]
    width, gap = 14.0, 4.0
    total = len(size) * width + (len(size) - 1) * gap
    left = 100 - total / 2
    out = []
    for i in range(len(size)):
        x = left + i * (width + gap)
        out += [_line((x, top), (x + width, bottom)), _line((x, bottom), (x + width, top))]
    return out


# --- PIL ------------------------------------------------------------------------------------------


def draw_symbol(
    draw: ImageDraw.ImageDraw,
    box: tuple[float, float, float, float],
    icons: Sequence[str],
    size: str | None,
    *,
    fill: str,
    line: str = "#000000",
) -> None:
    """Draw frame, icons and echelon into ``box`` (pixels; mapped from :data:`SYMBOL_BOX`)."""
    bx0, by0, bx1, by1 = box
    sx0, sy0, sx1, sy1 = SYMBOL_BOX
    scale = min((bx1 - bx0) / (sx1 - sx0), (by1 - by0) / (sy1 - sy0))
    ox = bx0 + ((bx1 - bx0) - (sx1 - sx0) * scale) / 2 - sx0 * scale
    oy = by0 + ((by1 - by0) - (sy1 - sy0) * scale) / 2 - sy0 * scale

    def at(p: Point) -> Point:
        return (ox + p[0] * scale, oy + p[1] * scale)

    width = max(1, round(STROKE * scale))
    framed = has_frame(icons)
    if framed:
        draw.rectangle([at((FRAME[0], FRAME[1])), at((FRAME[2], FRAME[3]))], fill=fill)
    for shape in shapes(icons) + echelon_shapes(size):
        _draw_shape(draw, shape, at, scale, width, line)
    if framed:
        draw.rectangle([at((FRAME[0], FRAME[1])), at((FRAME[2], FRAME[3]))], outline=line, width=width)


def has_frame(icons: Sequence[str]) -> bool:
    """False for a German-style sign (every icon frameless), which stands on the counter without the APP-6 frame.

    >>> has_frame(("infantry",)), has_frame(("de_infantry", "de_motorized"))
    (True, False)
    """
    return not icons or not all(name in FRAMELESS for name in icons)


def _draw_shape(draw: ImageDraw.ImageDraw, shape: Shape, at, scale: float, width: int, line: str) -> None:
    if shape.kind == "line":
        draw.line([at(p) for p in shape.points], fill=line, width=width, joint="curve")
    elif shape.kind == "poly":
        draw.polygon([at(p) for p in shape.points], fill=line if shape.filled else None, outline=line, width=width)
    elif shape.kind == "circle":
        (cx, cy), r = at(shape.points[0]), shape.radius * scale
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=line if shape.filled else None, outline=line, width=width)
    elif shape.kind == "text":
        x, y = at(shape.points[0])
        draw.text((x, y), shape.text, font=font(max(4, round(shape.size * scale))), fill=line, anchor="mm")


SUPERSAMPLE = 4  # draw symbols 4x larger and reduce: smooth edges without an anti-aliasing renderer


@lru_cache(maxsize=1024)
def symbol_image(icons: tuple[str, ...], size: str | None, width: int, height: int, fill: str, line: str) -> Image.Image:
    """The symbol as a transparent RGBA image of ``width`` x ``height`` pixels (cached: pure)."""
    big = Image.new("RGBA", (width * SUPERSAMPLE, height * SUPERSAMPLE), (0, 0, 0, 0))
    draw_symbol(ImageDraw.Draw(big), (0, 0, big.width, big.height), icons, size, fill=fill, line=line)
    return big.reduce(SUPERSAMPLE)


# --- SVG ------------------------------------------------------------------------------------------


def symbol_svg(icons: Sequence[str], size: str | None, *, fill: str, line: str = "#000000") -> str:
    """SVG elements of the symbol in milsymbol's 200 x 200 user space (wrap them in a ``<g transform>``)."""

    def pts(points: Sequence[Point]) -> str:
        return " ".join(f"{x:.2f},{y:.2f}" for x, y in points)

    stroke = f'stroke="{line}" stroke-width="{STROKE}" stroke-linejoin="round"'
    x0, y0, x1, y1 = FRAME
    framed = has_frame(icons)
    out = [f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" fill="{fill}"/>'] if framed else []
    for shape in shapes(icons) + echelon_shapes(size):
        if shape.kind == "line":
            out.append(f'<polyline points="{pts(shape.points)}" fill="none" {stroke}/>')
        elif shape.kind == "poly":
            out.append(f'<polygon points="{pts(shape.points)}" fill="{line if shape.filled else "none"}" {stroke}/>')
        elif shape.kind == "circle":
            (cx, cy) = shape.points[0]
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{shape.radius}" fill="{line if shape.filled else "none"}" {stroke}/>')
        elif shape.kind == "text":
            (x, y) = shape.points[0]
            out.append(
                f'<text x="{x}" y="{y}" font-size="{shape.size}" font-family="sans-serif" text-anchor="middle" '
                f'dominant-baseline="central" fill="{line}">{escape(shape.text)}</text>'
            )
    if framed:
        out.append(f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" fill="none" {stroke}/>')
    return "".join(out)


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
