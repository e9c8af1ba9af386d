"""Map pictures: a hex grid drawn from the module's data, a grid calibrated over a map image, or a
point-to-point map of spaces and connections.

``render_map(game_map, style)`` is a pure function of its arguments; pictures of the same map with the
same style are the same pixels. Drawing order follows a printed map: terrain, country tints, grid, borders,
rivers, roads, rails, cities, labels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from PIL import Image, ImageColor, ImageDraw

from pbem.art.fonts import font
from pbem.art.images import check_canvas
from pbem.art.layout import HexLayout, Point
from pbem.art.style import DEFAULT_TERRAIN, CounterStyle
from pbem.model.maps import GameMap, HexMap, PointMap

RIVER = "#2f6fd6"
BLOCKED = "#123a7a"
ROAD = "#a0522d"
RAIL = "#202020"
BORDER = "#7a1f6e"
GRID = "#7d7d6a"
LABEL = "#4a4a40"
CITY = "#202020"
RESTRICTED = "#b03020"
CONNECTION = "#505050"


@dataclass(frozen=True)
class MapPicture:
    """A rendered map and how to find locations on it (for overlays)."""

    image: Image.Image
    centers: tuple[Point, ...]  # pixel centre of every location
    radius: float  # room around a centre (half a hex; a space's half-size)
    layout: HexLayout | None = None
    names: tuple[tuple[float, float, float, float], ...] = ()  # boxes of the place names, kept whole by crops
    background: bool = False  # drawn over the user's own map image


def default_style() -> CounterStyle:
    return CounterStyle(terrain=dict(DEFAULT_TERRAIN))


def render_map(
    game_map: GameMap,
    style: CounterStyle | None = None,
    *,
    hex_size: float = 28.0,
    layout: HexLayout | None = None,
    background: Image.Image | None = None,
    labels: bool = True,
    scale: float = 1.0,
) -> Image.Image:
    """The picture of ``game_map`` (see :func:`map_picture` for the arguments)."""
    return map_picture(game_map, style, hex_size=hex_size, layout=layout, background=background, labels=labels, scale=scale).image


def map_picture(
    game_map: GameMap,
    style: CounterStyle | None = None,
    *,
    hex_size: float = 28.0,
    layout: HexLayout | None = None,
    background: Image.Image | None = None,
    labels: bool = True,
    scale: float = 1.0,
    numbers: bool = False,
) -> MapPicture:
    """Draw a hex map (``hex_size`` = hex circumradius in pixels, or a calibrated ``layout`` over a
    ``background`` image, with the hex ``numbers`` printed over it if asked) or a point-to-point map (positions
    times ``scale``)."""
    style = style or default_style()
    if isinstance(game_map, HexMap):
        if layout is None:
            layout = HexLayout.regular(game_map.spec, hex_size, margin=max(6.0, hex_size * 0.4))
        return _hex_picture(game_map, style, layout, background, labels, numbers)
    if isinstance(game_map, PointMap):
        return _point_picture(game_map, scale, labels)
    raise TypeError(f"cannot draw a map of kind {game_map.kind!r}")


# --- hex maps -------------------------------------------------------------------------------------


def grid_picture(layout: HexLayout, background: Image.Image | None = None, *, colour: str = "#ff2020", labels: bool = True) -> Image.Image:
    """Only the grid of ``layout`` (outlines and labels), over ``background`` if given: a calibration check."""
    spec = layout.spec
    if background is not None:
        image = background.convert("RGB").copy()
    else:
        x0, y0, x1, y1 = layout.extent()
        image = Image.new("RGB", check_canvas(x1 + x0, y1 + y0, "grid picture"), "white")
    draw = ImageDraw.Draw(image)
    label_font = font(max(7, round(min(layout.pitch) * 0.2)))
    for h in spec.hexes():
        corners = layout.corners(h)
        draw.line(corners + [corners[0]], fill=colour, width=max(1, round(min(layout.pitch) / 40)))
        if labels:
            x, y = layout.center(h)
            draw.text((x, y - layout.pitch[1] * 0.3), spec.label_of(h), font=label_font, fill=colour, anchor="mm")
    return image


def _hex_picture(game_map: HexMap, style: CounterStyle, layout: HexLayout, background: Image.Image | None, labels: bool, numbers: bool = False) -> MapPicture:
    centers = tuple(layout.center(h) for h in game_map.hexes)
    unit = min(layout.pitch)  # hex height (flat) or width (pointy): sizes below scale with it
    if background is not None:
        # The user's own board already shows terrain, roads and names: pbem only places pieces on it, and the hex
        # numbers where the printed map has none (``numbers``), near the top of each hex, clear of the counters.
        image = background.convert("RGB").copy()
        if numbers:
            draw = ImageDraw.Draw(image)
            number_font = font(max(8, round(unit * 0.2)))
            for (x, y), label in zip(centers, game_map.labels):
                draw.text((x, y - unit * 0.36), label, font=number_font, fill=LABEL, anchor="mm", stroke_width=max(1, round(unit / 40)), stroke_fill="white")
        return MapPicture(image, centers, unit / 2, layout, (), True)
    x0, y0, x1, y1 = layout.extent()
    image = Image.new("RGB", check_canvas(x1 + max(x0, 0), y1 + max(y0, 0), "map picture"), "white")
    draw = ImageDraw.Draw(image)
    corners = [layout.corners_at(*c) for c in centers]
    fills = _terrain_fills(game_map, style)
    for i, pts in enumerate(corners):
        draw.polygon(pts, fill=fills[i], outline=GRID)
    hexes = game_map.hexes
    # Borders: dashed along hexsides where the country changes.
    for i, neighbours in enumerate(game_map.neighbours):
        for j in neighbours:
            if j > i and game_map.country[i] != game_map.country[j] and game_map.country[i] and game_map.country[j]:
                dashed(draw, *layout.side(hexes[i], hexes[j]), fill=BORDER, width=max(2, round(unit / 14)), dash=unit / 8)
    for (i, j), features in sorted(game_map.side_features.items()):
        if "river" in features or "major_river" in features:
            width = max(2, round(unit / (8 if "major_river" in features else 12)))
            a, b = layout.side(hexes[i], hexes[j])
            draw.line([a, b], fill=RIVER, width=width)
            for p in (a, b):
                r = width / 2
                draw.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=RIVER)
    for (i, j), features in sorted(game_map.side_features.items()):
        if "blocked" in features:  # a hexside no unit may cross (a lake, sea water between coasts)
            a, b = layout.side(hexes[i], hexes[j])
            draw.line([a, b], fill=BLOCKED, width=max(3, round(unit / 7)))
    road_width = max(2, round(unit / 16))
    for i, j in sorted(game_map.roads):
        features = game_map.side_features.get((i, j), frozenset())
        if "trail" in features:  # a secondary road: thinner and dashed, as printed maps show tracks
            dashed(draw, centers[i], centers[j], fill=ROAD, width=max(1, road_width - 1), dash=unit / 9)
        else:
            draw.line([centers[i], centers[j]], fill=ROAD, width=road_width)
        if "bridge" in features:
            _bridge(draw, centers[i], centers[j], unit)
    for (i, j), track in sorted(game_map.rails.items()):
        _rail(draw, centers[i], centers[j], double=(track == "double"), unit=unit)
    for i, city in enumerate(game_map.city):
        if city or game_map.population[i]:
            x, y = centers[i]
            r = unit * (0.11 if game_map.population[i] >= 200 else 0.08)
            draw.rectangle([x - r, y - r, x + r, y + r], fill=CITY)
    for i, supply in enumerate(game_map.supply):
        if supply:
            x, y = centers[i]
            draw.text((x + unit * 0.2, y), "S", font=font(max(8, round(unit * 0.22))), fill="#0b6b2b", anchor="mm")
    if labels:
        label_font = font(max(6, round(unit * 0.17)))
        for i, label in enumerate(game_map.labels):
            x, y = centers[i]
            draw.text((x, y - unit * 0.34), label, font=label_font, fill=LABEL, anchor="mm")
    names = _place_names(draw, game_map, centers, unit, image.size)
    return MapPicture(image, centers, unit / 2, layout, names)


def _place_names(draw: ImageDraw.ImageDraw, game_map: HexMap, centers, unit: float, size: tuple[int, int]) -> tuple[tuple[float, float, float, float], ...]:
    """Every named hex's name under its centre, whole: shifted inside the picture rather than cut at its edge."""
    name_font = font(max(9, round(unit * 0.21)))
    boxes = []
    for i, (x, y) in enumerate(centers):
        name = game_map.names[i] or game_map.city[i]
        if not name:
            continue
        left, top, right, bottom = draw.textbbox((x, y + unit * 0.3), name, font=name_font, anchor="mm", stroke_width=2)
        dx = max(0.0, 2 - left) - max(0.0, right - (size[0] - 2))
        dy = max(0.0, 2 - top) - max(0.0, bottom - (size[1] - 2))
        draw.text((x + dx, y + unit * 0.3 + dy), name, font=name_font, fill=CITY, anchor="mm", stroke_width=2, stroke_fill="white")
        boxes.append((left + dx, top + dy, right + dx, bottom + dy))
    return tuple(boxes)


def _bridge(draw: ImageDraw.ImageDraw, a: Point, b: Point, unit: float) -> None:
    """Two short rails across the road where it crosses the hexside: a bridge."""
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    nx, ny = -uy, ux
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    half, gap = unit * 0.12, unit * 0.07
    for side in (-1, 1):
        cx, cy = mx + nx * gap * side, my + ny * gap * side
        draw.line([(cx - ux * half, cy - uy * half), (cx + ux * half, cy + uy * half)], fill=CITY, width=max(2, round(unit / 22)))


def _terrain_fills(game_map: GameMap, style: CounterStyle) -> list[tuple[int, int, int]]:
    """Terrain colour per hex, tinted toward the country colour so that borders read at a glance."""
    cache: dict[tuple[str, str | None], tuple[int, int, int]] = {}
    out = []
    for terrain, country in zip(game_map.terrain, game_map.country):
        key = (terrain, country)
        if key not in cache:
            base = ImageColor.getrgb(style.terrain.get(terrain) or DEFAULT_TERRAIN.get(terrain, "#f0f0f0"))[:3]
            tint = style.countries.get(country or "")
            if tint:
                t = ImageColor.getrgb(tint)[:3]
                base = tuple(round(b * 0.75 + c * 0.25) for b, c in zip(base, t))  # type: ignore[assignment]
            cache[key] = base  # type: ignore[assignment]
        out.append(cache[key])
    return out


def dashed(draw: ImageDraw.ImageDraw, a: Point, b: Point, *, fill, width: int, dash: float) -> None:
    """A dashed line from ``a`` to ``b``, dashes ``dash`` pixels long."""
    length = math.dist(a, b)
    if length == 0:
        return
    steps = max(1, int(length / dash))
    for k in range(0, steps, 2):
        t0, t1 = k / steps, min(1.0, (k + 1) / steps)
        draw.line([(a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0), (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)], fill=fill, width=width)


def _rail(draw: ImageDraw.ImageDraw, a: Point, b: Point, *, double: bool, unit: float) -> None:
    """Single track: one line with cross-ties; double track: two parallel lines with cross-ties."""
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    nx, ny = -uy, ux
    width = max(1, round(unit / 30))
    gap = unit * 0.07
    if double:
        for side in (-1, 1):
            draw.line([(a[0] + nx * gap * side, a[1] + ny * gap * side), (b[0] + nx * gap * side, b[1] + ny * gap * side)], fill=RAIL, width=width)
    else:
        draw.line([a, b], fill=RAIL, width=width + 1)
    tie = unit * (0.11 if double else 0.08)
    count = max(2, int(length / (unit * 0.16)))
    for k in range(1, count):
        t = k / count
        x, y = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        draw.line([(x - nx * tie, y - ny * tie), (x + nx * tie, y + ny * tie)], fill=RAIL, width=width)


# --- point-to-point maps --------------------------------------------------------------------------

NATION_COLOURS = ("#1f5fbf", "#b03020", "#2e8b57", "#8b5a00", "#7a1f6e", "#008b8b", "#555555")


def _point_picture(game_map: PointMap, scale: float, labels: bool) -> MapPicture:
    placed = [p for p in game_map.positions if p is not None]
    if not placed:
        raise ValueError("a point-to-point map needs positions to be drawn")
    size = game_map.extra[0].get("size", 44) if game_map.extra else 44
    half = float(size) * scale / 2
    margin = half + 10
    min_x = min(p[0] for p in placed)
    min_y = min(p[1] for p in placed)
    max_x = max(p[0] for p in placed)
    max_y = max(p[1] for p in placed)
    width, height = check_canvas((max_x - min_x) * scale + 2 * margin, (max_y - min_y) * scale + 2 * margin, "map picture")
    image = Image.new("RGB", (width, height), "#f4f1e6")
    draw = ImageDraw.Draw(image)

    def at(p: tuple[float, float] | None) -> Point:
        if p is None:
            return (margin / 2, margin / 2)  # a space without a position sits in the corner, not nowhere
        return ((p[0] - min_x) * scale + margin, (p[1] - min_y) * scale + margin)

    centers = tuple(at(p) for p in game_map.positions)
    nations = sorted({n for allowed in game_map.restricted.values() for n in allowed})
    colour_of = {n: NATION_COLOURS[k % len(NATION_COLOURS)] for k, n in enumerate(nations)}
    line_width = max(2, round(4 * scale))
    for i, neighbours in enumerate(game_map.neighbours):
        for j in neighbours:
            if j <= i:
                continue
            allowed = game_map.restricted.get((i, j))
            if allowed:
                colour = colour_of[sorted(allowed)[0]]
                dashed(draw, centers[i], centers[j], fill=colour, width=line_width, dash=max(4.0, 10 * scale))
            else:
                draw.line([centers[i], centers[j]], fill=CONNECTION, width=line_width)
    name_font = font(max(6, round(11 * scale)))
    badge_font = font(max(6, round(10 * scale)))
    badge = max(4.0, half * 0.32)
    for i, (x, y) in enumerate(centers):
        fill = _space_fill(game_map, i)
        features = game_map.features[i]
        outline_width = max(1, round(2 * scale)) * (2 if "capital" in features else 1)
        draw.rounded_rectangle([x - half, y - half, x + half, y + half], radius=half / 4, fill=fill, outline="#202020", width=outline_width)
        if labels:
            name = game_map.names[i] or game_map.labels[i]
            # A VP space prints its name in red, as on the Paths of Glory map.
            draw.text((x, y), _short(name), font=name_font, fill=VP_RED if "vp" in features else "#000000", anchor="mm")
        fort = game_map.extra[i].get("fort")
        if fort:  # fort strength in a dark badge at the top-left corner
            cx, cy = x - half, y - half
            draw.ellipse([cx - badge, cy - badge, cx + badge, cy + badge], fill="#303030", outline="#000000")
            draw.text((cx, cy), str(fort), font=badge_font, fill="#ffffff", anchor="mm")
        if "port" in features:  # a blue dot at the bottom-right corner
            cx, cy = x + half, y + half
            draw.ellipse([cx - badge * 0.8, cy - badge * 0.8, cx + badge * 0.8, cy + badge * 0.8], fill="#2060c0", outline="#ffffff")
        if game_map.supply[i]:  # a supply source: green badge at the top-right corner
            cx, cy = x + half, y - half
            draw.ellipse([cx - badge, cy - badge, cx + badge, cy + badge], fill="#2e8b57", outline="#000000")
            draw.text((cx, cy), "S", font=badge_font, fill="#ffffff", anchor="mm")
    if nations:
        legend_font = font(max(8, round(14 * scale)))
        y = 8
        for n in nations:
            dashed(draw, (8, y + 7), (48, y + 7), fill=colour_of[n], width=line_width, dash=8)
            draw.text((54, y), f"restricted: {n}", font=legend_font, fill="#000000")
            y += max(16, round(20 * scale))
    return MapPicture(image, centers, half, None)


VP_RED = "#c00000"
_SPACE_COLOURS = {"mountain": "#d8c2a0", "swamp": "#b8d4c0", "desert": "#f0deb0", "forest": "#b8d8a8"}


def _space_fill(game_map: PointMap, i: int) -> str:
    return _SPACE_COLOURS.get(game_map.terrain[i], "#ffffff")


def _short(name: str, limit: int = 12) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def arrow(draw: ImageDraw.ImageDraw, points: Sequence[Point], *, fill, width: int, head: float) -> None:
    """A polyline ending in an arrowhead at the last point."""
    if len(points) < 2:
        return
    *body, tip = points
    prev = body[-1]
    length = math.dist(prev, tip)
    if length == 0:
        return
    ux, uy = (tip[0] - prev[0]) / length, (tip[1] - prev[1]) / length
    base = (tip[0] - ux * head, tip[1] - uy * head)
    draw.line(list(body) + [base], fill=fill, width=width, joint="curve")
    nx, ny = -uy, ux
    draw.polygon([tip, (base[0] + nx * head * 0.55, base[1] + ny * head * 0.55), (base[0] - nx * head * 0.55, base[1] - ny * head * 0.55)], fill=fill)
