"""Counters: a counter type's face drawn SPI-style from the module's data and art style.

Layout of a square counter of side ``s`` (SPI's: symbol on top with the echelon above it, values along
the bottom, quality in the top-left corner); :func:`counter_layout` gives the boxes so that tests and
other pictures can find the parts.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from pbem.art.fonts import font
from pbem.art.style import CounterStyle, face_values
from pbem.art.symbols import escape, icons_for, symbol_image, symbol_svg, SYMBOL_BOX
from pbem.model.errors import PbemError
from pbem.model.units import CounterType

Box = tuple[int, int, int, int]

MIN_SIZE, MAX_SIZE = 16, 2048  # pixels per counter side


@dataclass(frozen=True)
class CounterLayout:
    """Where the parts of a counter of ``size`` pixels go (left, top, right, bottom; right/bottom excluded)."""

    size: int
    symbol: Box
    values: Box
    quality: Box
    stripe: Box


def counter_layout(size: int) -> CounterLayout:
    s = size
    sym_w = round(s * 0.60)
    sym_h = round(sym_w * (SYMBOL_BOX[3] - SYMBOL_BOX[1]) / (SYMBOL_BOX[2] - SYMBOL_BOX[0]))
    left = (s - sym_w) // 2
    top = round(s * 0.10)
    return CounterLayout(
        size=s,
        symbol=(left, top, left + sym_w, top + sym_h),
        values=(round(s * 0.06), round(s * 0.64), s - round(s * 0.06), s - round(s * 0.05)),
        quality=(round(s * 0.04), round(s * 0.03), round(s * 0.20), round(s * 0.22)),
        stripe=(0, 0, s, max(2, round(s * 0.07))),
    )


def _check_size(size_px: int) -> int:
    if not isinstance(size_px, int) or not MIN_SIZE <= size_px <= MAX_SIZE:
        raise PbemError(f"counter size must be {MIN_SIZE} to {MAX_SIZE} pixels, not {size_px!r}")
    return size_px


def _face(counter_type: CounterType, face: int):
    """The values of face ``face`` (0 front, 1 back); ``None`` for the blank back of a one-step counter."""
    if face not in (0, 1):
        raise PbemError(f"a counter has faces 0 (front) and 1 (back), not {face!r}")
    if face >= len(counter_type.steps):
        return None
    return counter_type.steps[face]


def render_counter(counter_type: CounterType, face: int, style: CounterStyle, size_px: int = 75, dpi: int | None = None) -> Image.Image:
    """One face of a counter as an RGB image ``size_px`` square (``dpi`` is recorded for printing).

    Face 0 is the front (full strength); face 1 the back: the reduced step marked by a stripe, or a blank
    back in the nationality's colour for a one-step counter.
    """
    size = _check_size(size_px)
    nation = style.nation(counter_type.nationality)
    image = Image.new("RGB", (size, size), nation.background)
    if dpi is not None:
        image.info["dpi"] = (dpi, dpi)
    draw = ImageDraw.Draw(image)
    layout = counter_layout(size)
    step = _face(counter_type, face)
    if step is None:
        return image
    if face == 1:
        draw.rectangle(_inclusive(layout.stripe), fill=nation.reduced)
    x0, y0, x1, y1 = layout.symbol
    icons = icons_for(counter_type.arm, style.arms)
    symbol = symbol_image(icons, counter_type.size, x1 - x0, y1 - y0, nation.symbol, nation.line)
    image.paste(symbol, (x0, y0), symbol)
    text = face_values(style.values, step.attack, step.defence, step.move, step.loss)
    vx0, vy0, vx1, vy1 = layout.values
    value_font = font(_fit(text, vx1 - vx0, vy1 - vy0))
    draw.text(((vx0 + vx1) / 2, (vy0 + vy1) / 2), text, font=value_font, fill=nation.text, anchor="mm")
    if style.quality and counter_type.quality is not None:
        qx0, qy0, qx1, qy1 = layout.quality
        draw.text(((qx0 + qx1) / 2, (qy0 + qy1) / 2), str(counter_type.quality), font=font(round((qy1 - qy0) * 0.9)), fill=nation.text, anchor="mm")
    return image


def _inclusive(box: Box) -> tuple[int, int, int, int]:
    return (box[0], box[1], box[2] - 1, box[3] - 1)


_FIT_CACHE: dict[tuple[int, int, int], int] = {}


def _fit(text: str, width: int, height: int) -> int:
    """The largest font size (<= the box height) at which ``text`` fits ``width``; cached per length."""
    key = (len(text), width, height)
    found = _FIT_CACHE.get(key)
    if found is None:
        found = max(4, round(height * 0.95))
        sample = "8" * len(text.replace("-", "")) + "-" * text.count("-")
        while found > 4 and font(found).getlength(sample) > width:
            found -= 1
        _FIT_CACHE[key] = found
    return found


def counter_svg(counter_type: CounterType, face: int, style: CounterStyle, size_px: int = 75) -> str:
    """The same face as a standalone SVG document (vector symbol, text left to the viewer's sans-serif)."""
    size = _check_size(size_px)
    nation = style.nation(counter_type.nationality)
    layout = counter_layout(size)
    step = _face(counter_type, face)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">',
        f'<rect width="{size}" height="{size}" fill="{nation.background}"/>',
    ]
    if step is not None:
        if face == 1:
            sx0, sy0, sx1, sy1 = layout.stripe
            parts.append(f'<rect x="{sx0}" y="{sy0}" width="{sx1 - sx0}" height="{sy1 - sy0}" fill="{nation.reduced}"/>')
        x0, y0, x1, y1 = layout.symbol
        scale = min((x1 - x0) / (SYMBOL_BOX[2] - SYMBOL_BOX[0]), (y1 - y0) / (SYMBOL_BOX[3] - SYMBOL_BOX[1]))
        tx, ty = x0 - SYMBOL_BOX[0] * scale, y0 - SYMBOL_BOX[1] * scale
        icons = icons_for(counter_type.arm, style.arms)
        parts.append(f'<g transform="translate({tx:.3f} {ty:.3f}) scale({scale:.5f})">')
        parts.append(symbol_svg(icons, counter_type.size, fill=nation.symbol, line=nation.line))
        parts.append("</g>")
        text = face_values(style.values, step.attack, step.defence, step.move, step.loss)
        vx0, vy0, vx1, vy1 = layout.values
        parts.append(
            f'<text x="{(vx0 + vx1) / 2}" y="{(vy0 + vy1) / 2}" font-size="{_fit(text, vx1 - vx0, vy1 - vy0)}" '
            f'font-family="sans-serif" font-weight="bold" text-anchor="middle" dominant-baseline="central" '
            f'fill="{nation.text}">{escape(text)}</text>'
        )
        if style.quality and counter_type.quality is not None:
            qx0, qy0, qx1, qy1 = layout.quality
            parts.append(
                f'<text x="{(qx0 + qx1) / 2}" y="{(qy0 + qy1) / 2}" font-size="{round((qy1 - qy0) * 0.9)}" '
                f'font-family="sans-serif" text-anchor="middle" dominant-baseline="central" fill="{nation.text}">'
                f"{counter_type.quality}</text>"
            )
    parts.append("</svg>\n")
    return "".join(parts)
