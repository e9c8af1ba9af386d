"""Counter sheets as vector PDF: every counter drawn as shapes and text (reportlab), not as an image.

A printed sheet stays sharp at any printer resolution and the file stays small. The pages follow the
same :func:`~pbem.art.sheets.sheet_layout` as the picture version, and each face the same layout as
:func:`~pbem.art.counters.render_counter` (boxes, fitted sizes, Vera Sans), so both print alike.
Drawing happens in the page's pixels at the spec's resolution, y downwards, as in the pictures.
"""

from __future__ import annotations

import io
from functools import lru_cache
from importlib import resources
from typing import Callable, Sequence

from PIL import ImageColor
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from pbem.art import counters as parts
from pbem.art.sheets import PAGES_MM, SheetSpec, sheet_layout
from pbem.art.style import CounterStyle, printed_values
from pbem.art.symbols import FRAME, STROKE, SYMBOL_BOX, Shape, echelon_shapes, has_frame, shapes
from pbem.model.units import CounterType

FONTS = {False: "pbem-Vera", True: "pbem-VeraBd"}


@lru_cache(maxsize=None)
def _font(bold: bool) -> str:
    """The Vera face registered with reportlab (the same files the pictures use)."""
    name = FONTS[bold]
    if name not in pdfmetrics.getRegisteredFontNames():
        with resources.as_file(resources.files("reportlab") / "fonts" / ("VeraBd.ttf" if bold else "Vera.ttf")) as file:
            pdfmetrics.registerFont(TTFont(name, str(file)))
    return name


def _rgb(colour: str | tuple[int, ...]) -> tuple[float, float, float]:
    r, g, b = (ImageColor.getrgb(colour) if isinstance(colour, str) else colour)[:3]
    return r / 255, g / 255, b / 255


class Pen:
    """A reportlab canvas seen as a picture: pixels at ``dpi``, origin top-left, y downwards."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas

    def rect(self, x0: float, y0: float, x1: float, y1: float, *, fill=None, stroke=None, width: float = 1.0) -> None:
        c = self.canvas
        if fill is not None:
            c.setFillColorRGB(*_rgb(fill))
        if stroke is not None:
            c.setStrokeColorRGB(*_rgb(stroke))
            c.setLineWidth(width)
        c.rect(x0, y0, x1 - x0, y1 - y0, stroke=int(stroke is not None), fill=int(fill is not None))

    def line(self, a, b, *, colour, width: float) -> None:
        c = self.canvas
        c.setStrokeColorRGB(*_rgb(colour))
        c.setLineWidth(width)
        c.line(a[0], a[1], b[0], b[1])

    def text(self, x: float, y: float, text: str, size: float, colour, *, bold: bool = False, anchor: str = "start",
             middle: bool = True, width: float | None = None) -> float:  # fmt: skip
        """Draw ``text`` with its left end, centre or right end (``anchor``) at ``x``; ``y`` is its middle
        (or its top with ``middle=False``). ``width`` squeezes it to at most that many pixels. Returns its width."""
        c, name = self.canvas, _font(bold)
        natural = pdfmetrics.stringWidth(text, name, size)
        squeeze = min(1.0, width / natural) if width and natural else 1.0
        shown = natural * squeeze
        left = x - (shown / 2 if anchor == "middle" else shown if anchor == "end" else 0)
        ascent, descent = pdfmetrics.getAscentDescent(name, size)
        baseline = y + (ascent + descent) / 2 if middle else y + ascent
        c.saveState()
        c.setFillColorRGB(*_rgb(colour))
        c.translate(left, baseline)
        c.scale(squeeze, -1)  # the page is drawn y-down: text is turned back upright
        c.setFont(name, size)
        c.drawString(0, 0, text)
        c.restoreState()
        return shown


def draw_counter(pen: Pen, x: float, y: float, counter_type: CounterType, face: int, style: CounterStyle, size: int, designation: str = "") -> None:
    """Face ``face`` of a counter ``size`` pixels square with its top-left corner at (``x``, ``y``)."""
    c = pen.canvas
    nation = style.colours(counter_type)
    layout = parts.style_layout(size, style, designation)
    c.saveState()
    c.translate(x, y)
    pen.rect(0, 0, size, size, fill=nation.background)
    step = parts._face(counter_type, face)
    if step is not None:
        bar = style.bar_colour(counter_type, face)
        if bar is not None:
            pen.rect(*parts.bar_box(layout), fill=bar, stroke=nation.line, width=max(0.5, size / 75))
        elif face == 1 and style.bars is None:
            pen.rect(*layout.stripe, fill=nation.reduced)
        caption = parts._caption(counter_type, style)
        _symbol(pen, layout.symbol, parts._icons(counter_type, style, face), None if caption else counter_type.size, nation.symbol, nation.line)
        if caption:
            box = parts._caption_box(layout, designation)
            pen.text((box[0] + box[2]) / 2, (box[1] + box[3]) / 2, caption, parts._fit_caption(caption, box), nation.text, bold=True,
                     anchor="middle", width=box[2] - box[0])  # fmt: skip
        vx0, vy0, vx1, vy1 = layout.values
        runs, value_size = parts._value_runs(printed_values(style, counter_type, face), vx1 - vx0, vy1 - vy0)
        cy = (vy0 + vy1) / 2
        for left_x, width, part in runs:
            left = vx0 + left_x
            if part.fill:
                pen.rect(*parts._fill_box(left, width, cy, value_size, layout.values), fill=part.fill)
            colour = part.colour or nation.text
            shown = pen.text(left, cy, part.text, value_size, colour, bold=True)
            if part.sup:
                pen.text(left + shown, cy - value_size * 0.3, part.sup, parts._sup_size(value_size), colour, bold=True)
        if style.quality and counter_type.quality is not None:
            qx0, qy0, qx1, qy1 = layout.quality
            pen.text((qx0 + qx1) / 2, (qy0 + qy1) / 2, str(counter_type.quality), round((qy1 - qy0) * 0.9), nation.text, anchor="middle")
        if designation:
            dx, dy, dsize = parts.designation_place(layout, designation)
            pen.text(dx, dy, designation, dsize, nation.text, bold=True, anchor="end", width=dx - layout.designation[0])
        if style.nationality_label:
            nx, ny, nsize = parts.nationality_place(layout, counter_type.nationality)
            pen.text(nx, ny, counter_type.nationality, nsize, parts.nationality_colour(style, counter_type, face), bold=True)
    c.restoreState()


def _symbol(pen: Pen, box, icons: Sequence[str], size: str | None, fill: str, line: str) -> None:
    """Frame, icons and echelon, from milsymbol's 200 x 200 space into ``box``."""
    c = pen.canvas
    x0, y0, x1, y1 = box
    scale = min((x1 - x0) / (SYMBOL_BOX[2] - SYMBOL_BOX[0]), (y1 - y0) / (SYMBOL_BOX[3] - SYMBOL_BOX[1]))
    c.saveState()
    c.translate(x0 - SYMBOL_BOX[0] * scale, y0 - SYMBOL_BOX[1] * scale)
    c.scale(scale, scale)
    c.setLineJoin(1)
    c.setLineCap(1)
    fx0, fy0, fx1, fy1 = FRAME
    framed = has_frame(icons)
    if framed:
        pen.rect(fx0, fy0, fx1, fy1, fill=fill)
    c.setStrokeColorRGB(*_rgb(line))
    c.setFillColorRGB(*_rgb(line))
    c.setLineWidth(STROKE)
    for shape in shapes(icons) + echelon_shapes(size):
        _shape(pen, shape, line)
    if framed:
        pen.rect(fx0, fy0, fx1, fy1, stroke=line, width=STROKE)
    c.restoreState()


def _shape(pen: Pen, shape: Shape, line: str) -> None:
    c = pen.canvas
    if shape.kind in ("line", "poly"):
        path = c.beginPath()
        path.moveTo(*shape.points[0])
        for point in shape.points[1:]:
            path.lineTo(*point)
        if shape.kind == "poly":
            path.close()
        c.setStrokeColorRGB(*_rgb(line))
        c.setFillColorRGB(*_rgb(line))
        c.setLineWidth(STROKE)
        c.drawPath(path, stroke=1, fill=int(shape.filled))
    elif shape.kind == "circle":
        (cx, cy) = shape.points[0]
        c.setStrokeColorRGB(*_rgb(line))
        c.setFillColorRGB(*_rgb(line))
        c.setLineWidth(STROKE)
        c.circle(cx, cy, shape.radius, stroke=1, fill=int(shape.filled))
    elif shape.kind == "text":
        (x, y) = shape.points[0]
        pen.text(x, y, shape.text, shape.size, line, anchor="middle")


def sheet_pdf(
    count: int,
    counter: Callable[[int], tuple[CounterType, str]],
    style: CounterStyle,
    spec: SheetSpec = SheetSpec(),
    title: str = "",
    progress: Callable[[int], None] | None = None,
    scales: Sequence[float] = (),
) -> bytes:
    """The counter sheets of ``count`` counters as one PDF; ``counter(n)`` gives counter ``n``'s type and
    designation; ``scales`` each one's size (see :func:`sheet_layout`). Same input, same bytes."""
    pages = sheet_layout(count, spec, title, scales)
    width_mm, height_mm = PAGES_MM[spec.page]
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width_mm * mm, height_mm * mm), invariant=1, pageCompression=1)
    canvas.setTitle(f"{title} counter sheets".strip())
    canvas.setCreator("pbem")
    canvas.setProducer("pbem")
    pen = Pen(canvas)
    points_per_pixel = 72 / spec.dpi
    for page in pages:
        canvas.translate(0, height_mm * mm)
        canvas.scale(points_per_pixel, -points_per_pixel)
        for k, (n, x, y) in enumerate(page.counters):
            counter_type, designation = counter(n)
            draw_counter(pen, x, y, counter_type, page.face, style, page.size_of(k), designation)
            if page.face == 1 and progress is not None:
                progress(n)
        canvas.setLineCap(0)
        for a, b, colour in page.lines:
            pen.line(a, b, colour=colour, width=page.line_width)
        pen.text(page.caption_at[0], page.caption_at[1], page.caption, page.caption_size, (60, 60, 60), middle=False)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()
