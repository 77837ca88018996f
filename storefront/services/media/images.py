"""The checks on every uploaded image, apart from where it is stored (docs/architecture.md §7):
size per kind before anything is parsed, type by content (JPEG, PNG, WebP and GIF only),
pixels from the header before a pixel is decoded, then decoded and written anew without
metadata (services/media/storage.py describes each step). A refusal is a `StorageError` and nothing is
stored; services/media/storage.py keeps the files."""

from __future__ import annotations

import io
import logging

from PIL import Image, ImageCms, ImageOps

from storefront.i18n import _
from storefront.services.errors import ServiceError

log = logging.getLogger(__name__)

MB = 1024 * 1024
# docs/product.md §9: service image 5 MB, banner image 5 MB, avatar 2 MB; a delivery photo taken
# on a phone at a venue (issue 37, services/operations/delivery.py) 5 MB like a service image.
MAX_BYTES: dict[str, int] = {
    "service": 5 * MB,
    "banner": 5 * MB,
    "avatar": 2 * MB,
    "delivery": 5 * MB,
}
# docs/product.md §9, in its order
ACCEPTED_TYPES = ("image/jpeg", "image/png", "image/webp", "image/gif")

# 24 megapixels: a 6000x4000 camera photo or a 12 MP phone photo passes; what is larger would
# not fit in 5 MB as a real photo anyway, and decodes to 96 MB of RGBA, which is about as much
# as one upload may take of a small shared server. A tiny file declaring 20000x20000 (1.6 GB
# decoded) is refused from its header. Pillow's own check is set to the same limit: it warns
# above it and raises DecompressionBombError above twice it, while opening the header.
MAX_PIXELS = 24_000_000
# Animations are decoded frame by frame into full RGBA canvases kept until written again.
MAX_FRAMES = 300
MAX_ANIMATION_PIXELS = 40_000_000  # all frames together: at most 160 MB while re-encoding
Image.MAX_IMAGE_PIXELS = MAX_PIXELS

WEBP_QUALITY = 85
_SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


class StorageError(ServiceError):
    CODES = {
        "bad_folder": "Bad folder",
        "bad_name": "Bad name",
        "bad_type": "Bad type",
        "exists": "Exists",
        "no_file": "No file provided",
        "not_image": "File must be an image",
        "quota_exceeded": "Quota exceeded",
        "rate_limited": "Rate limited",
        "too_large": "Too large",
        "too_many_pixels": "Too many pixels",
        "unavailable": "Storage is unavailable",
    }


# The refusals' messages are in the language of the moment (the event's, storefront/i18n.py).
def _refuse_type() -> StorageError:
    return StorageError(
        "bad_type",
        _("File type not accepted. Please upload {types}").format(types=", ".join(ACCEPTED_TYPES)),
    )


def _too_large(max_bytes: int) -> StorageError:
    size = f"{max_bytes / MB:g}"
    return StorageError(
        "too_large",
        _("File too large. Maximum size is {max_mb}MB").format(max_mb=size),
        max=max_bytes,
    )


def _too_many_pixels() -> StorageError:
    return StorageError(
        "too_many_pixels",
        _("Image dimensions are too large. Maximum is {megapixels} megapixels").format(
            megapixels=MAX_PIXELS // 1_000_000
        ),
        max=MAX_PIXELS,
    )


# ---------------------------------------------------------------------------------------------
# Checking and re-encoding images


def sniff(data: bytes) -> str | None:
    """The accepted format the content starts with ("JPEG", "PNG", "WEBP", "GIF"), or None."""
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    return None


# Other image types, refused as 'not accepted' rather than 'not an image'.
_OTHER_IMAGE_MAGIC = (
    b"BM",  # BMP
    b"II*\x00",  # TIFF
    b"MM\x00*",  # TIFF
    b"\x00\x00\x01\x00",  # ICO
    b"8BPS",  # Photoshop
    b"\x00\x00\x00\x0cjP  \r\n",  # JPEG 2000
    b"\xff\x0a",  # JPEG XL
    b"\x00\x00\x00\x0cJXL ",  # JPEG XL container
    b"qoif",  # QOI
)
_ISO_IMAGE_BRANDS = (b"heic", b"heix", b"hevc", b"mif1", b"msf1", b"avif", b"avis")


def _is_other_image(data: bytes) -> bool:
    if data.startswith(_OTHER_IMAGE_MAGIC):
        return True
    if data[4:8] == b"ftyp" and data[8:12] in _ISO_IMAGE_BRANDS:
        return True
    head = data[:2048].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    return head.startswith((b"<svg", b"<?xml", b"<!doctype svg")) and b"<svg" in head


def _check_pixels(width: int, height: int) -> None:
    if width <= 0 or height <= 0:
        raise StorageError("not_image", _("File must be an image"))
    if width * height > MAX_PIXELS:
        raise _too_many_pixels()


def check_image(data: bytes, *, max_bytes: int) -> str:
    """Size and type, from the bytes alone; returns the format. Nothing is decoded here."""
    if not data:
        raise StorageError("no_file", _("No file provided"))
    if len(data) > max_bytes:
        raise _too_large(max_bytes)
    fmt = sniff(data)
    if fmt is None:
        if _is_other_image(data):
            raise _refuse_type()
        raise StorageError("not_image", _("File must be an image"))
    return fmt


def reencode_image(
    data: bytes, *, max_bytes: int, max_side: int | None = None
) -> tuple[bytes, str]:
    """Check `data` and write it anew; returns the clean bytes and their extension. With
    `max_side`, a still image is shrunk to fit it (its longest side, proportions kept)."""
    fmt = check_image(data, max_bytes=max_bytes)
    try:
        # Only the plugin of the format found: no other decoder ever sees the bytes.
        with Image.open(io.BytesIO(data), formats=[fmt]) as image:
            _check_pixels(*image.size)  # from the header: nothing decoded yet
            frames = getattr(image, "n_frames", 1)
            if frames > 1 and (
                frames > MAX_FRAMES or frames * image.size[0] * image.size[1] > MAX_ANIMATION_PIXELS
            ):
                raise _too_many_pixels()
            return _encode(image, fmt, frames, max_side)
    except StorageError:
        raise
    except Image.DecompressionBombError as exc:
        raise _too_many_pixels() from exc
    except Exception as exc:  # a damaged or hostile file breaks decoders in many ways
        log.info("image refused: %s: %s", type(exc).__name__, exc)
        raise StorageError("not_image", _("File must be an image")) from exc


def _has_alpha(image: Image.Image) -> bool:
    return image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or (
        image.mode in ("P", "L", "RGB") and "transparency" in image.info
    )


def _clean_frame(image: Image.Image, icc: bytes | None, *, reuse: bool) -> Image.Image:
    """The pixels of the current frame as RGB(A) in sRGB, with no metadata at all. With
    `reuse`, `image` itself may be returned (a still: big images are held once, not twice);
    an animation's frames must be new images, as the source moves on to the next frame."""
    mode = "RGBA" if _has_alpha(image) else "RGB"
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        image = image.point(lambda v: v / 256).convert("L")  # 16-bit grey to 8-bit
    converted = None
    if icc:
        try:
            source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
            base = image if image.mode == "CMYK" else image.convert(mode)
            converted = ImageCms.profileToProfile(base, source, _SRGB, outputMode=mode)
        except (ImageCms.PyCMSError, OSError, ValueError, TypeError):
            converted = None  # a profile that does not fit the pixels: use them as they are
    if converted is not None:
        clean = converted
    else:
        clean = image if reuse and image.mode == mode else image.convert(mode)
    clean.info = {}
    return clean


def _encode(
    image: Image.Image, fmt: str, frames: int, max_side: int | None = None
) -> tuple[bytes, str]:
    out_format, ext = ("GIF", "gif") if fmt == "GIF" else ("WEBP", "webp")
    icc = image.info.get("icc_profile")
    out = io.BytesIO()
    if frames > 1:
        loop = image.info.get("loop")
        pictures, durations = [], []
        for index in range(frames):
            image.seek(index)
            _check_pixels(*image.size)  # a later frame may declare a bigger canvas
            pictures.append(_clean_frame(image, icc, reuse=False))
            durations.append(max(int(image.info.get("duration") or 100), 20))
        options: dict = {"save_all": True, "append_images": pictures[1:], "duration": durations}
        if loop is not None:
            options["loop"] = loop
        if out_format == "GIF":
            options["disposal"] = 2  # every frame is a whole canvas: clear before drawing
        else:
            options["quality"] = WEBP_QUALITY
        pictures[0].save(out, format=out_format, **options)
    else:
        image.load()
        if fmt != "GIF":
            ImageOps.exif_transpose(image, in_place=True)  # upright, as the camera meant
        clean = _clean_frame(image, icc, reuse=True)
        if max_side and max(clean.size) > max_side:
            clean.thumbnail((max_side, max_side), Image.Resampling.LANCZOS)
        if out_format == "GIF":
            clean.save(out, format="GIF")
        else:
            clean.save(out, format="WEBP", quality=WEBP_QUALITY)
    return out.getvalue(), ext
