"""The one font of every picture: Pillow's built-in scalable font, so nothing depends on system fonts."""

from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont


@lru_cache(maxsize=256)
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at ``size`` pixels (Pillow >= 10.1)."""
    loaded = ImageFont.load_default(size=max(1, int(size)))
    if not isinstance(loaded, ImageFont.FreeTypeFont):  # Pillow built without FreeType: bitmap only
        raise RuntimeError("Pillow was built without FreeType; pbem's pictures need its scalable font")
    return loaded
