"""Counter sheets: pages of counters to print and cut, fronts and backs mirrored for duplex printing.

A page holds a grid of counters with cut lines between them and crop marks in the margin. The backs page
mirrors the columns (a sheet turned over its long edge), so that each back lands behind its front when
the two pages are printed duplex, or glued back to back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from PIL import Image, ImageDraw

from pbem.art.fonts import font
from pbem.model.errors import PbemError

PAGES_MM = {"letter": (215.9, 279.4), "a4": (210.0, 297.0)}
CUT = (120, 120, 120)
MARK = (0, 0, 0)
CAPTION = (60, 60, 60)
MAX_COUNTERS = 10_000


@dataclass(frozen=True)
class SheetSpec:
    """Page size, resolution, counter size and margins, in millimetres and dots per inch."""

    page: str = "letter"
    dpi: int = 300
    counter_mm: float = 12.7  # SPI's half inch
    margin_mm: float = 12.0

    def px(self, mm: float) -> int:
        return round(mm / 25.4 * self.dpi)

    def grid(self) -> tuple[int, int]:
        """Columns and rows of counters a page holds."""
        width, height = PAGES_MM[self.page]
        columns = int((width - 2 * self.margin_mm) // self.counter_mm)
        rows = int((height - 2 * self.margin_mm - 8) // self.counter_mm)
        return columns, rows


def check_spec(spec: SheetSpec) -> SheetSpec:
    if spec.page not in PAGES_MM:
        raise PbemError(f"page must be one of {', '.join(PAGES_MM)}, not {spec.page!r}")
    if not 72 <= spec.dpi <= 1200:
        raise PbemError(f"dpi must be 72 to 1200, not {spec.dpi}")
    if not 5 <= spec.counter_mm <= 50:
        raise PbemError(f"counter size must be 5 to 50 mm, not {spec.counter_mm}")
    columns, rows = spec.grid()
    if columns < 1 or rows < 1:
        raise PbemError("no counter fits on the page with these margins")
    return spec


@dataclass(frozen=True)
class SheetPage:
    """One page of a sheet, in pixels at the spec's resolution: where each counter goes, the cut lines
    and the caption."""

    size: tuple[int, int]
    face: int  # 0 fronts, 1 backs
    cell: int  # counter side
    counters: tuple[tuple[int, int, int], ...]  # (counter number, left, top)
    lines: tuple[tuple[tuple[int, int], tuple[int, int], tuple[int, int, int]], ...]  # cut lines and crop marks: a, b, colour
    line_width: int
    caption: str
    caption_at: tuple[int, int]  # top-left corner of the caption
    caption_size: int
    sizes: tuple[int, ...] = ()  # each counter's side when they differ (else every one is ``cell``)

    def size_of(self, k: int) -> int:
        """The side of the page's ``k``-th counter."""
        return self.sizes[k] if self.sizes else self.cell


def sheet_layout(count: int, spec: SheetSpec = SheetSpec(), title: str = "", scales: Sequence[float] = ()) -> list[SheetPage]:
    """The pages for ``count`` counters: front page, back page, front page… (the backs mirrored). ``scales``: each
    counter's side relative to ``spec.counter_mm`` when they differ (5/8" armies beside 1/2" corps); counters of one
    size then share rows, a new size starting a new row."""
    check_spec(spec)
    if not 0 < count <= MAX_COUNTERS:
        raise PbemError(f"a sheet holds 1 to {MAX_COUNTERS} counters, not {count}")
    if scales and len(set(scales)) > 1:
        if len(scales) != count:
            raise PbemError(f"{len(scales)} counter sizes for {count} counters")
        return _mixed_layout(count, spec, title, scales)
    columns, rows = spec.grid()
    per_page = columns * rows
    width_mm, height_mm = PAGES_MM[spec.page]
    page_px = (spec.px(width_mm), spec.px(height_mm))
    cell = spec.px(spec.counter_mm)
    left = (page_px[0] - columns * cell) // 2
    top = spec.px(spec.margin_mm) + spec.px(8)
    pages: list[SheetPage] = []
    for first in range(0, count, per_page):
        numbers = list(range(first, min(count, first + per_page)))
        used_rows = (len(numbers) + columns - 1) // columns
        for face in (0, 1):
            places = []
            for k, n in enumerate(numbers):
                row, column = divmod(k, columns)
                if face == 1:
                    column = columns - 1 - column  # mirrored: the back of column 0 prints in the last column
                places.append((n, left + column * cell, top + row * cell))
            caption = f"{title}  page {len(pages) + 1} - {'fronts' if face == 0 else 'backs (mirrored for duplex)'}"
            pages.append(SheetPage(
                page_px, face, cell, tuple(places), _cut_lines(left, top, cell, columns, used_rows, spec), max(1, spec.dpi // 150),
                caption.strip(), (left, spec.px(spec.margin_mm)), spec.px(3.2),
            ))  # fmt: skip
    return pages


def _mixed_layout(count: int, spec: SheetSpec, title: str, scales: Sequence[float]) -> list[SheetPage]:
    """Rows of counters of one size each, as many rows a page as fit; backs mirrored about the page's middle."""
    width_mm, height_mm = PAGES_MM[spec.page]
    page_px = (spec.px(width_mm), spec.px(height_mm))
    margin = spec.px(spec.margin_mm)
    top0 = margin + spec.px(8)
    bottom = page_px[1] - margin
    mark = spec.px(4)
    rows: list[tuple[int, list[int]]] = []  # (cell, counter numbers)
    for n in range(count):
        cell = spec.px(spec.counter_mm * scales[n])
        columns = max(1, (page_px[0] - 2 * margin) // cell)
        if not rows or rows[-1][0] != cell or len(rows[-1][1]) >= columns:
            rows.append((cell, []))
        rows[-1][1].append(n)
    if any(cell > bottom - top0 for cell, _ in rows):
        raise PbemError("a counter does not fit on the page with these margins")
    pages_rows: list[list[tuple[int, list[int]]]] = [[]]
    used = 0
    for row in rows:
        if used + row[0] > bottom - top0 and pages_rows[-1]:
            pages_rows.append([])
            used = 0
        pages_rows[-1].append(row)
        used += row[0]
    pages: list[SheetPage] = []
    for page_rows in pages_rows:
        widest = max(len(numbers) * cell for cell, numbers in page_rows)
        left = (page_px[0] - widest) // 2
        for face in (0, 1):
            places, sizes, lines = [], [], []
            y = top0
            for cell, numbers in page_rows:
                for k, n in enumerate(numbers):
                    x = left + k * cell
                    if face == 1:
                        x = page_px[0] - x - cell  # mirrored about the page's middle: the back lands behind its front
                    places.append((n, x, y))
                    sizes.append(cell)
                xs = [left + k * cell for k in range(len(numbers) + 1)]
                if face == 1:
                    xs = [page_px[0] - x for x in xs]
                x0, x1 = min(xs), max(xs)
                for x in xs:
                    lines.append(((x, y), (x, y + cell), CUT))
                for edge in (y, y + cell):
                    lines += [((x0, edge), (x1, edge), CUT), ((x0 - mark - 2, edge), (x0 - 2, edge), MARK), ((x1 + 2, edge), (x1 + mark + 2, edge), MARK)]
                y += cell
            caption = f"{title}  page {len(pages) + 1} - {'fronts' if face == 0 else 'backs (mirrored for duplex)'}"
            pages.append(SheetPage(
                page_px, face, max(sizes), tuple(places), tuple(lines), max(1, spec.dpi // 150), caption.strip(), (left, margin), spec.px(3.2), tuple(sizes),
            ))  # fmt: skip
    return pages


def sheet_pages(
    count: int,
    draw_face: Callable[[int, int, int], Image.Image],
    spec: SheetSpec = SheetSpec(),
    title: str = "",
    progress: Callable[[int], None] | None = None,
    scales: Sequence[float] = (),
) -> list[Image.Image]:
    """Pages as pictures for ``count`` counters. ``draw_face(n, face, px)`` draws counter ``n``'s face 0 or 1
    at ``px`` pixels. ``progress(n)`` is called after each counter. ``scales``: see :func:`sheet_layout`."""
    pages: list[Image.Image] = []
    for layout in sheet_layout(count, spec, title, scales):
        page = Image.new("RGB", layout.size, "white")
        draw = ImageDraw.Draw(page)
        for k, (n, x, y) in enumerate(layout.counters):
            page.paste(draw_face(n, layout.face, layout.size_of(k)), (x, y))
            if layout.face == 1 and progress is not None:
                progress(n)
        for a, b, colour in layout.lines:
            draw.line([a, b], fill=colour, width=layout.line_width)
        draw.text(layout.caption_at, layout.caption, font=font(layout.caption_size), fill=CAPTION)
        pages.append(page)
    return pages


def _cut_lines(left: int, top: int, cell: int, columns: int, rows: int, spec: SheetSpec):
    """Hairlines on every counter edge and crop marks running into the margin."""
    right, bottom = left + columns * cell, top + rows * cell
    mark = spec.px(4)
    lines = []
    for c in range(columns + 1):
        x = left + c * cell
        lines += [((x, top), (x, bottom), CUT), ((x, top - mark - 2), (x, top - 2), MARK), ((x, bottom + 2), (x, bottom + mark + 2), MARK)]
    for r in range(rows + 1):
        y = top + r * cell
        lines += [((left, y), (right, y), CUT), ((left - mark - 2, y), (left - 2, y), MARK), ((right + 2, y), (right + mark + 2, y), MARK)]
    return tuple(lines)


def pages_png(pages: Sequence[Image.Image], gap: int = 20) -> Image.Image:
    """All pages side by side in pairs (fronts left, backs right), pairs stacked: one PNG to look at."""
    width = pages[0].width * 2 + gap * 3
    pairs = (len(pages) + 1) // 2
    height = pages[0].height * pairs + gap * (pairs + 1)
    from pbem.art.images import check_canvas

    out = Image.new("RGB", check_canvas(width, height, "sheet"), (200, 200, 200))
    for k, page in enumerate(pages):
        pair, side = divmod(k, 2)
        out.paste(page, (gap + side * (page.width + gap), gap + pair * (page.height + gap)))
    return out
