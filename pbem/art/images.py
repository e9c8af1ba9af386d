"""Reading map images from outside within bounds, and writing pictures whole."""

from __future__ import annotations

import io
import warnings
from pathlib import Path

from PIL import Image

from pbem.model.errors import PbemError
from pbem.model.files import read_bytes, write_atomic

MAX_PIXELS = 64_000_000  # a 600 dpi scan of a 34" x 22" map is ~27 Mpx; anything far larger is refused
MAX_IMAGE_BYTES = 256 * 1024 * 1024

# Pillow's own decompression-bomb guard, set to ours: it trips before the pixels are decoded.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS


def open_image(path: str | Path, max_pixels: int = MAX_PIXELS) -> Image.Image:
    """An RGB copy of the image at ``path``; too many pixels, a bad or truncated image is a PbemError."""
    data = read_bytes(path, MAX_IMAGE_BYTES)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            width, height = image.size  # from the header, before any pixel is decoded
            if width <= 0 or height <= 0 or width * height > max_pixels:
                raise PbemError.at(path, f"image is {width} x {height} pixels; at most {max_pixels:,} pixels are accepted")
            image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PbemError.at(path, f"image has more than {max_pixels:,} pixels") from None
    except PbemError:
        raise
    except (OSError, ValueError, SyntaxError) as error:
        raise PbemError.at(path, f"not a readable image: {error}") from None
    return image.convert("RGB")


def check_canvas(width: float, height: float, what: str = "picture") -> tuple[int, int]:
    """Refuse to allocate an absurd output picture (a huge grid or scale from input data)."""
    w, h = int(round(width)), int(round(height))
    if w <= 0 or h <= 0 or w * h > MAX_PIXELS:
        raise PbemError(f"the {what} would be {w} x {h} pixels; at most {MAX_PIXELS:,} are allowed (lower the size)")
    return w, h


def encode(image: Image.Image, path: str | Path, dpi: int | None = None) -> bytes:
    """Encoded bytes for ``path``'s suffix (.png, .jpg, .pdf); deterministic: no dates, no text chunks."""
    suffix = Path(path).suffix.lower()
    buffer = io.BytesIO()
    if suffix == ".png":
        image.save(buffer, "PNG", optimize=False, **({"dpi": (dpi, dpi)} if dpi else {}))
    elif suffix in (".jpg", ".jpeg"):
        image.convert("RGB").save(buffer, "JPEG", quality=92)
    elif suffix == ".pdf":
        return pdf_bytes([image], dpi or 150)
    else:
        raise PbemError.at(path, "output must end in .png, .jpg or .pdf")
    return buffer.getvalue()


def pdf_bytes(pages: list[Image.Image], dpi: int) -> bytes:
    """A multi-page PDF; the dates are fixed so that the same pages give the same bytes."""
    import time

    fixed = time.gmtime(946684800)  # 2000-01-01: Pillow would stamp the current time
    buffer = io.BytesIO()
    first, rest = pages[0].convert("RGB"), [p.convert("RGB") for p in pages[1:]]
    first.save(buffer, "PDF", save_all=True, append_images=rest, resolution=float(dpi), title="pbem", creationDate=fixed, modDate=fixed, producer="pbem")
    return buffer.getvalue()


def save(image: Image.Image, path: str | Path, dpi: int | None = None) -> None:
    write_atomic(path, encode(image, path, dpi))
