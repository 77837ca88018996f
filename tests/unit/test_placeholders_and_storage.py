import io

import pytest
from PIL import Image

from storefront import i18n
from storefront.services.media import images, storage
from storefront.services.media.placeholders import placeholder_image


@pytest.fixture(autouse=True)
def _english_edition():
    """These tests read SPEC's English copy: the English edition's words (the default edition
    says them in Albanian, tests/unit/test_translations.py)."""
    with i18n.using("en"):
        yield


def test_placeholder_has_the_requested_size_and_depends_on_the_title():
    a = placeholder_image("Maskotat", width=280, height=350)
    b = placeholder_image("Bouncers", width=280, height=350)
    assert a != b
    with Image.open(io.BytesIO(a)) as image:
        assert image.format == "WEBP"
        assert image.size == (280, 350)


def test_reencode_accepts_a_png_and_returns_webp_without_metadata():
    buffer = io.BytesIO()
    image = Image.new("RGB", (40, 30), (200, 10, 10))
    exif = Image.Exif()
    exif[0x010E] = "secret description"
    image.save(buffer, format="JPEG", exif=exif.tobytes())
    clean, ext = images.reencode_image(buffer.getvalue(), max_bytes=5 * 1024 * 1024)
    assert ext == "webp"
    with Image.open(io.BytesIO(clean)) as out:
        assert out.size == (40, 30)
        assert not out.getexif()


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", "no_file"),
        (b"not an image at all", "not_image"),
    ],
)
def test_reencode_refuses_what_is_not_an_image(data, code):
    with pytest.raises(storage.StorageError) as error:
        images.reencode_image(data, max_bytes=1024)
    assert error.value.code == code


def test_reencode_refuses_a_file_over_the_cap():
    buffer = io.BytesIO()
    Image.new("RGB", (400, 400)).save(buffer, format="PNG")
    with pytest.raises(storage.StorageError) as error:
        images.reencode_image(
            buffer.getvalue() + b"\0" * 3 * 1024 * 1024, max_bytes=2 * 1024 * 1024
        )
    assert error.value.message == "File too large. Maximum size is 2MB"


def test_save_and_resolve_stay_inside_the_media_folder(media_dir):
    stored = storage.save_bytes("services", "x.webp", b"data")
    assert stored.url == "/media/services/x.webp"
    assert storage.resolve(stored.path) == (media_dir / "services" / "x.webp").resolve()
    assert storage.resolve("../../etc/passwd") is None
    with pytest.raises(storage.StorageError):
        storage.save_bytes("../outside", "x.webp", b"data")
    with pytest.raises(storage.StorageError):
        storage.save_bytes("services", "../x.webp", b"data")


def test_the_film_strip_runs_twelve_items():
    from storefront.services.catalog.banners import BannerCard, film_strip

    cards = [BannerCard(str(i), f"Photo {i}", None, f"/{i}.webp", None) for i in range(5)]
    strip = film_strip(cards)
    assert len(strip) == 12
    assert [c.title for c in strip[:7]] == [f"Photo {i}" for i in (0, 1, 2, 3, 4, 0, 1)]
    assert film_strip(cards * 3) == (cards * 3)[:12]
    assert film_strip([]) == []
