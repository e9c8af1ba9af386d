"""The fonts of every picture: Bitstream Vera Sans as shipped inside the reportlab package, so that nothing
depends on the system's fonts and place names keep their letters (ä, ö, å, é…): Pillow's own
bundled font has no glyph outside ASCII. Vera is free to redistribute (Bitstream's licence); pbem ships no copy.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from PIL import ImageFont

FACES = {False: "Vera.ttf", True: "VeraBd.ttf"}


@lru_cache(maxsize=512)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """Vera Sans (``bold``: Vera Sans Bold) at ``size`` pixels; Pillow's bundled font if reportlab lacks it."""
    size = max(1, int(size))
    try:
        path = resources.files("reportlab") / "fonts" / FACES[bold]
        with resources.as_file(path) as file:
            return ImageFont.truetype(str(file), size)
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        loaded = ImageFont.load_default(size=size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # Pillow built without FreeType: bitmap only
        raise RuntimeError("Pillow was built without FreeType; pbem's pictures need a scalable font")
    return loaded
