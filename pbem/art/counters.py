"""Counters: a counter type's face drawn SPI-style from the module's data and art style.

Layout of a square counter of side ``s`` (SPI's: symbol on top with the echelon above it, values along
the bottom, quality in the top-left corner); :func:`counter_layout` gives the boxes so that tests and
other pictures can find the parts.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from pbem.art.fonts import font
from pbem.art.style import CounterStyle, Printed, printed_values
from pbem.art.symbols import escape, icons_for, symbol_image, symbol_svg, SYMBOL_BOX
from pbem.model.errors import PbemError
from pbem.model.units import CounterType

Box = tuple[int, int, int, int]

MIN_SIZE, MAX_SIZE = 16, 2048  # pixels per counter side
MIN_FONT = 3  # values on the smallest counters shrink this far rather than spill out of their box


@dataclass(frozen=True)
class CounterLayout:
    """Where the parts of a counter of ``size`` pixels go (left, top, right, bottom; right/bottom excluded)."""

    size: int
    symbol: Box
    values: Box
    quality: Box
    stripe: Box
    designation: Box  # top-right corner: the unit's own number, which tells identical counters apart
    nationality: Box = (0, 0, 0, 0)  # where the nationality is printed, if the style prints it


def counter_layout(size: int, kind: str = "standard", designation: bool = True) -> CounterLayout:
    """The boxes of a counter of ``size`` pixels. ``kind`` ``large_id`` (a strategic game's army and corps
    counters): nationality across the top (on the reduced face's stripe), the designation large left of
    the symbol (the symbol centred when there is none), the values along the bottom."""
    s = size
    if kind == "large_id":
        band = round(s * 0.25)
        sym_w = round(s * 0.50)
        sym_h = round(sym_w * (SYMBOL_BOX[3] - SYMBOL_BOX[1]) / (SYMBOL_BOX[2] - SYMBOL_BOX[0]))
        left = s - round(s * 0.05) - sym_w if designation else (s - sym_w) // 2
        top = band + round(s * 0.01)
        return CounterLayout(
            size=s,
            symbol=(left, top, left + sym_w, top + sym_h),
            values=(round(s * 0.06), top + sym_h + round(s * 0.02), s - round(s * 0.06), s - round(s * 0.04)),
            quality=(s - round(s * 0.30), round(s * 0.02), s - round(s * 0.04), band - round(s * 0.02)),
            stripe=(0, 0, s, band),
            designation=(round(s * 0.04), top, max(round(s * 0.04) + 2, left - round(s * 0.03)), top + sym_h),
            nationality=(round(s * 0.06), round(s * 0.02), s - round(s * 0.30), band - round(s * 0.01)),
        )
    sym_w = round(s * 0.60)
    sym_h = round(sym_w * (SYMBOL_BOX[3] - SYMBOL_BOX[1]) / (SYMBOL_BOX[2] - SYMBOL_BOX[0]))
    left = (s - sym_w) // 2
    top = round(s * 0.10)
    frame_top = top + sym_h * (50.0 - SYMBOL_BOX[1]) / (SYMBOL_BOX[3] - SYMBOL_BOX[1])
    return CounterLayout(
        size=s,
        symbol=(left, top, left + sym_w, top + sym_h),
        values=(round(s * 0.06), round(s * 0.64), s - round(s * 0.06), s - round(s * 0.05)),
        quality=(round(s * 0.04), round(s * 0.03), round(s * 0.20), round(s * 0.22)),
        stripe=(0, 0, s, max(2, round(s * 0.07))),
        # Below a reduced face's stripe (a white figure on a white stripe would vanish), above the frame.
        designation=(round(s * 0.665), max(2, round(s * 0.07)), s - round(s * 0.035), max(max(2, round(s * 0.07)) + 3, int(frame_top - s * 0.01))),
        nationality=(round(s * 0.04), max(2, round(s * 0.07)), round(s * 0.45), max(max(2, round(s * 0.07)) + 3, int(frame_top - s * 0.01))),
    )


def style_layout(size: int, style: CounterStyle, designation: str = "") -> CounterLayout:
    """The layout ``style`` chooses for a counter of ``size`` pixels (with or without a designation)."""
    return counter_layout(size, style.layout, bool(designation))


def nationality_place(layout: CounterLayout, nationality: str) -> tuple[float, float, int]:
    """Where the nationality is printed: its left end, its middle height and its (bold) font size."""
    x0, y0, x1, y1 = layout.nationality
    return x0, (y0 + y1) / 2, _fit(nationality, x1 - x0, round((y1 - y0) * 0.9))


def nationality_colour(style: CounterStyle, counter_type: CounterType, face: int) -> str:
    """The nationality's text colour: on a reduced face's stripe (large_id layout) the counter's own background."""
    nation = style.colours(counter_type)
    return nation.background if face == 1 and style.layout == "large_id" else nation.text


def _check_size(size_px: int) -> int:
    if not isinstance(size_px, int) or not MIN_SIZE <= size_px <= MAX_SIZE:
        raise PbemError(f"counter size must be {MIN_SIZE} to {MAX_SIZE} pixels, not {size_px!r}")
    return size_px


def _face(counter_type: CounterType, face: int):
    """The values of face ``face`` (0 front, 1 back, 2 and on: further steps of a counter with more than two);
    ``None`` for the blank back of a one-step counter."""
    if not isinstance(face, int) or face < 0 or (face > 1 and face >= len(counter_type.steps)):
        raise PbemError(f"a counter has faces 0 (front) and 1 (back) and one more per step past two, not {face!r}")
    if face >= len(counter_type.steps):
        return None
    return counter_type.steps[face]


def _arm(counter_type: CounterType, face: int) -> str:
    """The arm a face shows: a counter whose faces show different unit types lists them in
    ``attributes.faces[n].arm`` (No Retreat!'s Soviet fronts); otherwise the type's arm."""
    faces = counter_type.attributes.get("faces")
    if isinstance(faces, list) and face < len(faces) and isinstance(faces[face], dict) and isinstance(faces[face].get("arm"), str):
        return faces[face]["arm"]
    return counter_type.arm


def render_counter(
    counter_type: CounterType, face: int, style: CounterStyle, size_px: int = 75, dpi: int | None = None, designation: str = ""
) -> Image.Image:
    """One face of a counter as an RGB image ``size_px`` square (``dpi`` is recorded for printing).

    Face 0 is the front (full strength); face 1 the back: the reduced step marked by a stripe, or a blank
    back in the nationality's colour for a one-step counter. ``designation`` (the unit's own number, see
    :meth:`CounterStyle.designation_of`) is printed in the top-right corner of both printed faces.
    """
    size = _check_size(size_px)
    nation = style.colours(counter_type)
    image = Image.new("RGB", (size, size), nation.background)
    if dpi is not None:
        image.info["dpi"] = (dpi, dpi)
    draw = ImageDraw.Draw(image)
    layout = style_layout(size, style, designation)
    step = _face(counter_type, face)
    if step is None:
        return image
    bar = style.bar_colour(counter_type, face)
    if bar is not None:
        draw.rectangle(_inclusive(bar_box(layout)), fill=bar, outline=nation.line, width=max(1, size // 75))
    elif face == 1 and style.bars is None:
        draw.rectangle(_inclusive(layout.stripe), fill=nation.reduced)
    x0, y0, x1, y1 = layout.symbol
    caption = _caption(counter_type, style)
    symbol = symbol_image(_icons(counter_type, style, face), None if caption else counter_type.size, x1 - x0, y1 - y0, nation.symbol, nation.line)
    image.paste(symbol, (x0, y0), symbol)
    if caption:
        box = _caption_box(layout, designation)
        draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), caption, font=font(_fit_caption(caption, box), True), fill=nation.text, anchor="mm")
    vx0, vy0, vx1, vy1 = layout.values
    runs, value_size = _value_runs(printed_values(style, counter_type, face), vx1 - vx0, vy1 - vy0)
    cy = (vy0 + vy1) / 2
    for x, width, part in runs:
        left = vx0 + x
        if part.fill:
            fx0, fy0, fx1, fy1 = _fill_box(left, width, cy, value_size, layout.values)
            draw.rectangle([fx0, fy0, fx1 - 1, fy1 - 1], fill=part.fill)
        colour = part.colour or nation.text
        draw.text((left, cy), part.text, font=font(value_size, True), fill=colour, anchor="lm")
        if part.sup:
            draw.text((left + font(value_size, True).getlength(part.text), cy - value_size * 0.05), part.sup, font=font(_sup_size(value_size), True), fill=colour, anchor="ls")
    if style.quality and counter_type.quality is not None:
        qx0, qy0, qx1, qy1 = layout.quality
        draw.text(((qx0 + qx1) / 2, (qy0 + qy1) / 2), str(counter_type.quality), font=font(round((qy1 - qy0) * 0.9)), fill=nation.text, anchor="mm")
    if designation:
        x, y, size = designation_place(layout, designation)
        draw.text((x, y), designation, font=font(size, True), fill=nation.text, anchor="rm")
    if style.nationality_label:
        x, y, size = nationality_place(layout, counter_type.nationality)
        draw.text((x, y), counter_type.nationality, font=font(size, True), fill=nationality_colour(style, counter_type, face), anchor="lm")
    return image


def bar_box(layout: CounterLayout) -> Box:
    """Where a face's bar goes (an establishment bar): across the top, a little taller than the reduced stripe."""
    s = layout.size
    return (0, 0, s, max(3, round(s * 0.09)))


def designation_place(layout: CounterLayout, designation: str) -> tuple[float, float, int]:
    """Where a designation is printed: its right end, its middle height and its (bold) font size."""
    x0, y0, x1, y1 = layout.designation
    return x1, (y0 + y1) / 2, _fit(designation, x1 - x0, round((y1 - y0) * 0.85))


def _inclusive(box: Box) -> tuple[int, int, int, int]:
    return (box[0], box[1], box[2] - 1, box[3] - 1)


_FIT_CACHE: dict[tuple[str, int, int], int] = {}


def _fit(text: str, width: int, height: int) -> int:
    """The largest font size (<= the box height) at which ``text`` fits ``width``; cached per shape of text."""
    sample = "".join("8" if c.isdigit() else c for c in text)
    key = (sample, width, height)
    found = _FIT_CACHE.get(key)
    if found is None:
        found = max(MIN_FONT, round(height * 0.95))
        while found > MIN_FONT and font(found, True).getlength(sample) > width:
            found -= 1
        _FIT_CACHE[key] = found
    return found


def _sup_size(size: int) -> int:
    return max(4, round(size * 0.6))


def _sup_width(sup: str, size: int) -> float:
    return font(_sup_size(size), True).getlength(sup) if sup else 0.0


def _run_widths(parts: list[Printed], size: int) -> list[float]:
    return [font(size, True).getlength(p.text) + _sup_width(p.sup, size) for p in parts]



def _value_runs(parts: list[Printed], width: int, height: int) -> tuple[list[tuple[float, float, Printed]], int]:
    """Where each printed value goes in a box ``width`` wide: (left, width, part) per value, and the font size.

    One value is centred; several are spread over the box, as on a printed counter, at the largest size that
    keeps a gap between them.
    """
    if len(parts) == 1 and not parts[0].sup and not parts[0].fill:
        size = _fit(parts[0].text, width, height)
        w = font(size, True).getlength(parts[0].text)
        return [((width - w) / 2, w, parts[0])], size
    size = max(MIN_FONT, round(height * 0.95))
    while True:
        widths = _run_widths(parts, size)
        gap = size * 0.35
        if size <= MIN_FONT or sum(widths) + gap * (len(parts) - 1) <= width:
            break
        size -= 1
    if len(parts) == 1:
        return [((width - widths[0]) / 2, widths[0], parts[0])], size
    spare = (width - sum(widths)) / (len(parts) - 1)
    runs, x = [], 0.0
    for w, part in zip(widths, parts):
        runs.append((x, w, part))
        x += w + spare
    return runs, size


def _fill_box(left: float, width: float, cy: float, size: int, values: Box) -> tuple[float, float, float, float]:
    """The coloured box behind a value: a little wider and taller than its figures, never outside the values' box."""
    pad = max(1, size // 10)
    return (max(values[0], left - pad), max(values[1], cy - size * 0.55), min(values[2], left + width + pad), min(values[3], cy + size * 0.5))


def _icons(counter_type: CounterType, style: CounterStyle, face: int = 0) -> tuple[str, ...]:
    own = style.types.get(counter_type.id)
    if own is not None and own.icons is not None:
        return own.icons
    return icons_for(_arm(counter_type, face), style.arms)


def _caption(counter_type: CounterType, style: CounterStyle) -> str | None:
    own = style.types.get(counter_type.id)
    return own.caption if own is not None else None


def _caption_box(layout: CounterLayout, designation: str = "") -> Box:
    """The band above the symbol's frame, where the echelon would stand (left of a designation)."""
    s = layout.size
    x0, y0, x1, y1 = layout.symbol
    frame_top = y0 + round((y1 - y0) * (50.0 - SYMBOL_BOX[1]) / (SYMBOL_BOX[3] - SYMBOL_BOX[1]))
    right = layout.designation[0] - round(s * 0.02) if designation else s - round(s * 0.06)
    return (round(s * 0.06), max(1, round(s * 0.06)), right, max(frame_top - 1, round(s * 0.06) + 4))


def _fit_caption(caption: str, box: Box) -> int:
    return _fit(caption, box[2] - box[0], box[3] - box[1])


def counter_svg(
    counter_type: CounterType, face: int, style: CounterStyle, size_px: int = 75, designation: str = "", designation_room: bool = False
) -> str:
    """The same face as a standalone SVG document (vector symbol, text left to the viewer's sans-serif).
    ``designation_room``: laid out for a designation another layer prints (a page drawing one picture per type)."""
    size = _check_size(size_px)
    nation = style.colours(counter_type)
    layout = counter_layout(size, style.layout, bool(designation) or designation_room)
    step = _face(counter_type, face)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" viewBox="0 0 {size} {size}">',
        f'<rect width="{size}" height="{size}" fill="{nation.background}"/>',
    ]
    if step is not None:
        bar = style.bar_colour(counter_type, face)
        if bar is not None:
            bx0, by0, bx1, by1 = bar_box(layout)
            parts.append(f'<rect x="{bx0}" y="{by0}" width="{bx1 - bx0}" height="{by1 - by0}" fill="{bar}" stroke="{nation.line}" stroke-width="1"/>')
        elif face == 1 and style.bars is None:
            sx0, sy0, sx1, sy1 = layout.stripe
            parts.append(f'<rect x="{sx0}" y="{sy0}" width="{sx1 - sx0}" height="{sy1 - sy0}" fill="{nation.reduced}"/>')
        x0, y0, x1, y1 = layout.symbol
        scale = min((x1 - x0) / (SYMBOL_BOX[2] - SYMBOL_BOX[0]), (y1 - y0) / (SYMBOL_BOX[3] - SYMBOL_BOX[1]))
        tx, ty = x0 - SYMBOL_BOX[0] * scale, y0 - SYMBOL_BOX[1] * scale
        caption = _caption(counter_type, style)
        parts.append(f'<g transform="translate({tx:.3f} {ty:.3f}) scale({scale:.5f})">')
        parts.append(symbol_svg(_icons(counter_type, style, face), None if caption else counter_type.size, fill=nation.symbol, line=nation.line))
        parts.append("</g>")
        if caption:
            cx0, cy0, cx1, cy1 = _caption_box(layout, designation)
            parts.append(
                f'<text x="{(cx0 + cx1) / 2}" y="{(cy0 + cy1) / 2}" font-size="{_fit_caption(caption, (cx0, cy0, cx1, cy1))}" '
                f'font-family="sans-serif" font-weight="bold" text-anchor="middle" dominant-baseline="central" '
                f'fill="{nation.text}">{escape(caption)}</text>'
            )
        vx0, vy0, vx1, vy1 = layout.values
        runs, value_size = _value_runs(printed_values(style, counter_type, face), vx1 - vx0, vy1 - vy0)
        cy = (vy0 + vy1) / 2
        for x, width, part in runs:
            left = vx0 + x
            if part.fill:
                fx0, fy0, fx1, fy1 = _fill_box(left, width, cy, value_size, layout.values)
                parts.append(
                    f'<rect x="{fx0:.1f}" y="{fy0:.1f}" width="{fx1 - fx0:.1f}" '
                    f'height="{fy1 - fy0:.1f}" fill="{part.fill}"/>'
                )
            sup = f'<tspan font-size="{_sup_size(value_size)}" dy="{-value_size * 0.3:.1f}">{escape(part.sup)}</tspan>' if part.sup else ""
            parts.append(
                f'<text x="{left:.1f}" y="{cy:.1f}" font-size="{value_size}" textLength="{width:.1f}" lengthAdjust="spacingAndGlyphs" '
                f'font-family="sans-serif" font-weight="bold" dominant-baseline="central" '
                f'fill="{part.colour or nation.text}">{escape(part.text)}{sup}</text>'
            )
        if style.quality and counter_type.quality is not None:
            qx0, qy0, qx1, qy1 = layout.quality
            parts.append(
                f'<text x="{(qx0 + qx1) / 2}" y="{(qy0 + qy1) / 2}" font-size="{round((qy1 - qy0) * 0.9)}" '
                f'font-family="sans-serif" text-anchor="middle" dominant-baseline="central" fill="{nation.text}">'
                f"{counter_type.quality}</text>"
            )
        if designation:
            parts.append(designation_svg(layout, designation, nation.text))
        if style.nationality_label:
            x, y, nsize = nationality_place(layout, counter_type.nationality)
            parts.append(
                f'<text x="{x}" y="{y}" font-size="{nsize}" font-family="sans-serif" font-weight="bold" dominant-baseline="central" '
                f'fill="{nationality_colour(style, counter_type, face)}">{escape(counter_type.nationality)}</text>'
            )
    parts.append("</svg>\n")
    return "".join(parts)


def designation_svg(layout: CounterLayout, designation: str, colour: str) -> str:
    """The designation as an SVG text element in the counter's own coordinates (top-left 0, 0)."""
    x, y, size = designation_place(layout, designation)
    x0 = layout.designation[0]
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" font-family="sans-serif" font-weight="bold" text-anchor="end" '
        f'dominant-baseline="central" textLength="{min(x - x0, font(size, True).getlength(designation)):.1f}" '
        f'lengthAdjust="spacingAndGlyphs" fill="{colour}">{escape(designation)}</text>'
    )
