"""Placeholder photos drawn with Pillow: a soft gradient with a few circles, in colours that
follow the item's title. No words: a picture is the same in both editions, and the title is in
the page beside it (the demo catalogue's 'Paketa 1' used to be written on its English card)."""

from __future__ import annotations

import hashlib
import io
from functools import lru_cache

from PIL import Image, ImageDraw

_PALETTES = [
    ((236, 72, 153), (124, 58, 237)),
    ((59, 130, 246), (16, 185, 129)),
    ((245, 158, 11), (239, 68, 68)),
    ((139, 92, 246), (59, 130, 246)),
    ((16, 185, 129), (132, 204, 22)),
    ((244, 114, 182), (251, 191, 36)),
    ((99, 102, 241), (236, 72, 153)),
    ((20, 184, 166), (59, 130, 246)),
]


@lru_cache(maxsize=256)
def placeholder_image(title: str, *, width: int, height: int, quality: int = 72) -> bytes:
    """A WebP of `width` x `height` whose colours and circles follow from `title`."""
    digest = hashlib.sha256(title.encode()).digest()
    top, bottom = _PALETTES[digest[0] % len(_PALETTES)]
    column = Image.new("RGB", (1, height))
    column.putdata(
        [
            tuple(
                int(a + (b - a) * y / max(height - 1, 1)) for a, b in zip(top, bottom, strict=True)
            )
            for y in range(height)
        ]
    )
    image = column.resize((width, height), Image.Resampling.NEAREST)
    draw = ImageDraw.Draw(image)
    # A few soft circles so photos of the same palette still look different.
    for i in range(3):
        r = width // (4 + digest[i + 1] % 4)
        cx = digest[i + 4] * width // 255
        cy = digest[i + 7] * height // 255
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=(255, 255, 255), width=3)
    out = io.BytesIO()
    image.save(out, format="WEBP", quality=quality, method=0)
    return out.getvalue()
