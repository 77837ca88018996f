"""Placeholder photos drawn with Pillow: a soft gradient with the item's title on it."""

from __future__ import annotations

import hashlib
import io
import textwrap
import unicodedata
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

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
    """A WebP of `width` x `height` showing `title`; the colours follow from the title."""
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
    size = max(16, width // 14)
    font, title = _font(size), _drawable(title)
    lines = textwrap.wrap(title, width=max(8, int(width / (size * 0.55))))[:4]
    line_height = int(size * 1.25)
    y = (height - line_height * len(lines)) // 2
    for line in lines:
        text_width = draw.textlength(line, font=font)
        x = (width - text_width) / 2
        draw.text((x + 2, y + 2), line, font=font, fill=(0, 0, 0))
        draw.text((x, y), line, font=font, fill=(255, 255, 255))
        y += line_height
    out = io.BytesIO()
    image.save(out, format="WEBP", quality=quality, method=0)
    return out.getvalue()


_FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
)


@lru_cache
def _font_file() -> str | None:
    for path in _FONT_FILES:
        try:
            ImageFont.truetype(path, 12)
            return path
        except OSError:
            continue
    return None


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = _font_file()
    return ImageFont.truetype(path, size) if path else ImageFont.load_default(size=size)


def _drawable(title: str) -> str:
    """Pillow's built-in font has no accents: fold them when no system font is present."""
    if _font_file():
        return title
    return unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
