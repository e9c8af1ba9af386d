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
ESCARPMENT = "#6b4423"  # a scarp: dark brown, hachured
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
    stack_offset: Point = (0.0, 0.0)  # where a location's stack stands, from its centre (below a space's name)
    name_labels: tuple["NameLabel", ...] = ()  # names the overlay draws again over the counters


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
    status: dict | None = None,
) -> Image.Image:
    """The picture of ``game_map`` (see :func:`map_picture` for the arguments)."""
    return map_picture(game_map, style, hex_size=hex_size, layout=layout, background=background, labels=labels, scale=scale, status=status).image


def map_picture(
    game_map: GameMap,
    style: CounterStyle | None = None,
    *,
    hex_size: float = 28.0,
    layout: HexLayout | None = None,
    background: Image.Image | None = None,
    labels: bool = True,
    scale: float = 1.0,
    status: dict | None = None,
    numbers: bool = False,
) -> MapPicture:
    """Draw a hex map (``hex_size`` = hex circumradius in pixels, or a calibrated ``layout`` over a
    ``background`` image, with the hex ``numbers`` printed over it if asked) or a point-to-point map (positions
    times ``scale``). ``status``: the game's status, which may choose the features drawn (``style.status_features``:
    the VP spaces of the map a scenario scores on)."""
    style = style or default_style()
    if isinstance(game_map, HexMap):
        if layout is None:
            layout = HexLayout.regular(game_map.spec, hex_size, margin=max(6.0, hex_size * 0.4))
        return _hex_picture(game_map, style, layout, background, labels, numbers)
    if isinstance(game_map, PointMap):
        return _point_picture(game_map, style, scale * style.map_scale, labels, style.feature_names(status))
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
        if "escarpment" in features:  # a cliff line along the hexside, hachured as printed maps draw scarps
            _escarpment(draw, *layout.side(hexes[i], hexes[j]), unit)
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


def _escarpment(draw: ImageDraw.ImageDraw, a: Point, b: Point, unit: float) -> None:
    """A scarp along the hexside a-b: a brown line with short hachures across it."""
    draw.line([a, b], fill=ESCARPMENT, width=max(2, round(unit / 16)))
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    nx, ny = -uy, ux
    tick = unit * 0.09
    for k in range(1, 5):
        px, py = a[0] + (b[0] - a[0]) * k / 5, a[1] + (b[1] - a[1]) * k / 5
        draw.line([(px - nx * tick, py - ny * tick), (px + nx * tick, py + ny * tick)], fill=ESCARPMENT, width=max(1, round(unit / 24)))


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


def _point_picture(game_map: PointMap, style: CounterStyle, scale: float, labels: bool, chosen: dict[str, str] | None = None) -> MapPicture:
    """Spaces as boxes in their nation's colour (``style.countries``), the name on a band across the top (red with a
    red outline for a VP space, as some maps print one), the terrain's sign in the box, fort value, capital,
    port and supply source at its corners; connections solid, or dashed in the colour of the nations allowed."""
    placed = [p for p in game_map.positions if p is not None]
    if not placed:
        raise ValueError("a point-to-point map needs positions to be drawn")
    size = game_map.extra[0].get("size", 44) if game_map.extra else 44
    half = float(size) * scale / 2
    half_w = half * 1.3  # a space's box is wider than tall: its name fits
    margin = half_w + 12
    min_x = min(p[0] for p in placed)
    min_y = min(p[1] for p in placed)
    max_x = max(p[0] for p in placed)
    max_y = max(p[1] for p in placed)
    width, height = check_canvas((max_x - min_x) * scale + 2 * margin, (max_y - min_y) * scale + 2 * margin, "map picture")
    image = Image.new("RGB", (width, height), PAPER)
    draw = ImageDraw.Draw(image)

    def at(p: tuple[float, float] | None) -> Point:
        if p is None:
            return (margin / 2, margin / 2)  # a space without a position sits in the corner, not nowhere
        return ((p[0] - min_x) * scale + margin, (p[1] - min_y) * scale + margin)

    centers = tuple(at(p) for p in game_map.positions)
    nations = sorted({n for allowed in game_map.restricted.values() for n in allowed})
    colour_of = {n: _nation_line(style, n, k) for k, n in enumerate(nations)}
    line_width = max(2, round(3 * scale))
    for i, neighbours in enumerate(game_map.neighbours):
        for j in neighbours:
            if j <= i:
                continue
            allowed = game_map.restricted.get((i, j))
            if allowed:
                colour = colour_of[sorted(allowed)[0]]
                dashed(draw, centers[i], centers[j], fill=colour, width=line_width + 1, dash=max(4.0, 9 * scale))
            else:
                draw.line([centers[i], centers[j]], fill=CONNECTION, width=line_width)
    name_size = max(6, round(10 * scale))
    badge_font = font(max(6, round(11 * scale)), True)
    badge = max(4.0, half * 0.34)
    band = half * 0.62  # the name's band across the top of the box
    names: list[tuple[float, float, float, float]] = []
    name_labels: list[NameLabel] = []
    for i, (x, y) in enumerate(centers):
        features = game_map.features[i]
        vp = (chosen or {}).get("vp", "vp") in features
        outline = VP_RED if vp else "#202020"
        outline_width = max(1, round(2 * scale)) * (2 if vp or "capital" in features else 1)
        name = (game_map.names[i] or game_map.labels[i]) if labels else ""
        capital = "capital" in features
        pad = outline_width + 3  # the name keeps clear of the (thick, red) outline
        name_font = font(_fit_name(name, half_w * 2 - 2 * pad - (band if capital else 0), name_size, round(name_size * 0.8)), True)
        # A long name widens its box rather than shrinking below legibility.
        wide = max(half_w, (name_font.getlength(name) + (band if capital else 0)) / 2 + pad)
        box = (x - wide, y - half, x + wide, y + half)
        draw.rounded_rectangle(box, radius=half / 5, fill=_space_fill(game_map, style, i), outline=outline, width=outline_width)
        draw.line([(box[0] + outline_width, y - half + band), (box[2] - outline_width, y - half + band)], fill=_darker(_space_fill(game_map, style, i)), width=1)
        _terrain_sign(draw, game_map.terrain[i], (x, y + band / 2), half)
        if labels:
            text = name
            ny = y - half + band / 2 + 1
            nx = x + (band / 2 if capital else 0)
            names.append(draw.textbbox((nx, ny), text, font=name_font, anchor="mm"))
            colour = VP_RED if vp else "#000000"
            draw.text((nx, ny), text, font=name_font, fill=colour, anchor="mm")
            if capital:  # a capital: a star before its name
                sx = names[-1][0] - band * 0.45
                draw.polygon(_star_points(sx, ny, band * 0.42), fill=colour)
                names[-1] = (sx - band * 0.45,) + names[-1][1:]
            name_labels.append(NameLabel((nx, ny), text, name_font.size, colour, names[-1], capital))
        fort = game_map.extra[i].get("fort")
        if fort:  # the fort's value in a black fort badge at the top-left corner, as the map prints forts
            _fort(draw, (x - wide, y - half), badge, str(fort), badge_font)
        if "port" in features:  # an anchor at the bottom-right corner
            _anchor(draw, (x + wide - badge * 0.2, y + half - badge * 0.2), badge * 0.9)
        if game_map.supply[i]:  # a supply source: a green badge at the top-right corner
            cx, cy = x + wide, y - half
            draw.ellipse([cx - badge, cy - badge, cx + badge, cy + badge], fill="#2e8b57", outline="#000000")
            draw.text((cx, cy), "S", font=badge_font, fill="#ffffff", anchor="mm")
    if nations:
        legend_font = font(max(8, round(14 * scale)))
        y = 8
        for n in nations:
            dashed(draw, (8, y + 7), (48, y + 7), fill=colour_of[n], width=line_width + 1, dash=8)
            draw.text((54, y), f"only {n}", font=legend_font, fill="#000000")
            y += max(16, round(20 * scale))
    # Counters stand in the box below its name band and spill below it; the names are drawn again over them.
    return MapPicture(image, centers, half, None, tuple(names), stack_offset=(0.0, band * 0.75), name_labels=tuple(name_labels))


@dataclass(frozen=True)
class NameLabel:
    """A place name drawn again over the counters (so that no counter hides it)."""

    at: Point
    text: str
    size: int
    colour: str
    box: tuple[float, float, float, float]
    capital: bool = False  # drawn after a star


def _star_points(cx: float, cy: float, r: float) -> list[Point]:
    return [
        (cx + (r if k % 2 == 0 else r * 0.42) * math.cos(-math.pi / 2 + k * math.pi / 5), cy + (r if k % 2 == 0 else r * 0.42) * math.sin(-math.pi / 2 + k * math.pi / 5))
        for k in range(10)
    ]


PAPER = "#f4f1e6"
VP_RED = "#c00000"
_TERRAIN_INK = {"mountain": "#7a5230", "forest": "#2f6b2a", "swamp": "#2f6f7a", "desert": "#b08a3a"}


def _space_fill(game_map: PointMap, style: CounterStyle, i: int) -> str:
    """The nation's colour from the style's ``countries``, else the terrain's colour, else white."""
    tint = style.countries.get(game_map.country[i] or "")
    if tint:
        return tint
    return style.terrain.get(game_map.terrain[i]) if game_map.terrain[i] != "clear" and game_map.terrain[i] in style.terrain else "#ffffff"


def _darker(colour: str) -> tuple[int, int, int]:
    r, g, b = ImageColor.getrgb(colour)[:3]
    return (round(r * 0.7), round(g * 0.7), round(b * 0.7))


def _nation_line(style: CounterStyle, nation: str, k: int) -> str:
    """A restricted connection's colour: the nation's counter colour when the style has one."""
    if nation in style.nations:
        return style.nations[nation].background
    return NATION_COLOURS[k % len(NATION_COLOURS)]


def star_points(cx: float, cy: float, r: float) -> list[Point]:
    """A five-pointed star's corners (a capital's mark)."""
    return _star_points(cx, cy, r)


def _fit_name(text: str, width: float, size: int, smallest: int = 6) -> int:
    while size > max(6, smallest) and font(size, True).getlength(text) > width:
        size -= 1
    return size


def _terrain_sign(draw: ImageDraw.ImageDraw, terrain: str, at: Point, half: float) -> None:
    """The terrain's sign in the lower part of a space's box: peaks, trees, marsh tufts or dunes."""
    ink = _TERRAIN_INK.get(terrain)
    if ink is None:
        return
    x, y = at
    r = half * 0.3
    w = max(1, round(half / 12))
    if terrain == "mountain":
        for dx, k in ((-1.1, 0.8), (0.0, 1.0), (1.1, 0.8)):
            px = x + dx * r * 1.2
            draw.polygon([(px - r * k, y + r * 0.7), (px, y - r * k * 0.9), (px + r * k, y + r * 0.7)], fill=ink)
    elif terrain == "forest":
        for dx in (-1.3, 0.0, 1.3):
            px = x + dx * r
            draw.line([(px, y + r * 0.3), (px, y + r * 0.9)], fill="#5a3a1a", width=w + 1)
            draw.ellipse([px - r * 0.6, y - r * 0.8, px + r * 0.6, y + r * 0.4], fill=ink)
    elif terrain == "swamp":
        for row, dx in ((-0.4, -0.6), (0.5, 0.6)):
            cy = y + row * r
            draw.line([(x + dx * r - r * 1.2, cy), (x + dx * r + r * 1.2, cy)], fill=ink, width=w)
            for t in (-0.6, 0.0, 0.6):
                draw.line([(x + dx * r + t * r, cy), (x + dx * r + t * r - r * 0.2, cy - r * 0.5)], fill=ink, width=w)
    elif terrain == "desert":
        for k in range(3):
            px = x + (k - 1) * r * 1.3
            draw.arc([px - r * 0.7, y - r * 0.3, px + r * 0.7, y + r * 0.9], 200, 340, fill=ink, width=w + 1)
            draw.point([(px, y + r * 0.6), (px + r * 0.4, y + r * 0.8)], fill=ink)


def _fort(draw: ImageDraw.ImageDraw, at: Point, r: float, value: str, badge_font) -> None:
    """A fort: a black square with battlements and its value in white."""
    x, y = at
    draw.rectangle([x - r, y - r * 0.8, x + r, y + r], fill="#101010")
    for k in (-1, 0, 1):
        cx = x + k * r * 0.7
        draw.rectangle([cx - r * 0.25, y - r * 1.2, cx + r * 0.25, y - r * 0.7], fill="#101010")
    draw.text((x, y + r * 0.1), value, font=badge_font, fill="#ffffff", anchor="mm")


def _anchor(draw: ImageDraw.ImageDraw, at: Point, r: float) -> None:
    """A port: a small navy-blue anchor on a white disc."""
    x, y = at
    draw.ellipse([x - r, y - r, x + r, y + r], fill="#ffffff", outline="#1d3f8f")
    w = max(1, round(r / 5))
    ink = "#1d3f8f"
    draw.line([(x, y - r * 0.65), (x, y + r * 0.6)], fill=ink, width=w)
    draw.line([(x - r * 0.4, y - r * 0.35), (x + r * 0.4, y - r * 0.35)], fill=ink, width=w)
    draw.arc([x - r * 0.6, y - r * 0.1, x + r * 0.6, y + r * 0.65], 20, 160, fill=ink, width=w)


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
