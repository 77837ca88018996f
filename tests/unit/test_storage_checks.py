"""The server's own checks on uploaded images (docs/architecture.md §7, issue 9 item 5), on a real
folder with
real image files: every refusal has the spec's message and leaves the folder empty; what is stored
is written anew, without metadata or trailing bytes."""

from __future__ import annotations

import io
import re
import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image

from storefront import i18n
from storefront.services.media import images, storage


@pytest.fixture(autouse=True)
def _english_edition():
    """These tests read SPEC's English copy: the English edition's words (the default edition
    says them in Albanian, tests/unit/test_translations.py)."""
    with i18n.using("en"):
        yield


TYPES_MESSAGE = "File type not accepted. Please upload image/jpeg, image/png, image/webp, image/gif"


@pytest.fixture
def local(tmp_path: Path):
    """This test's own media folder as the storage of the process."""
    store = storage.LocalStorage(tmp_path / "media", "/media")
    previous = storage.use_backend(store)
    yield store
    storage.use_backend(previous)


def stored_files(store: storage.LocalStorage) -> list[Path]:
    return sorted(p for p in store.root.rglob("*") if p.is_file()) if store.root.exists() else []


def jpeg(size=(64, 48), color=(200, 30, 30), **options) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format="JPEG", **options)
    return buffer.getvalue()


def png_declaring(width: int, height: int) -> bytes:
    """A valid PNG header declaring width x height, with a few bytes of pixel data."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0" * 1024))
        + chunk(b"IEND", b"")
    )


def gif_declaring(width: int, height: int) -> bytes:
    """A GIF whose logical screen and only frame claim width x height."""
    return (
        b"GIF89a"
        + struct.pack("<HHBBB", width, height, 0, 0, 0)
        + b","
        + struct.pack("<HHHHB", 0, 0, width, height, 0)
        + b"\x02\x02\x44\x01\x00;"
    )


def animated_gif(colors, durations, *, size=(24, 16)) -> bytes:
    frames = [Image.new("RGB", size, c) for c in colors]
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=list(durations),
        loop=0,
        comment=b"made by a test",
    )
    return buffer.getvalue()


SVG = b"""<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
  <script>alert(document.cookie)</script><rect width="10" height="10"/>
</svg>"""


@pytest.mark.parametrize(
    ("data", "kind", "code", "message"),
    [
        pytest.param(b"", "service", "no_file", "No file provided", id="empty"),
        pytest.param(
            jpeg() + b"\0" * (5 * 1024 * 1024),
            "service",
            "too_large",
            "File too large. Maximum size is 5MB",
            id="oversize-service",
        ),
        pytest.param(
            jpeg() + b"\0" * (2 * 1024 * 1024),
            "avatar",
            "too_large",
            "File too large. Maximum size is 2MB",
            id="oversize-avatar",
        ),
        pytest.param(
            b"<html><body>not a photo</body></html>",
            "service",
            "not_image",
            "File must be an image",
            id="html-renamed-jpg",
        ),
        pytest.param(
            b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n",
            "banner",
            "not_image",
            "File must be an image",
            id="pdf-renamed-jpg",
        ),
        pytest.param(
            b"\xff\xd8\xff\xe0" + b"garbage that only starts like a JPEG" * 10,
            "service",
            "not_image",
            "File must be an image",
            id="broken-jpeg",
        ),
        pytest.param(SVG, "service", "bad_type", TYPES_MESSAGE, id="svg"),
        pytest.param(
            b"\xef\xbb\xbf  <svg xmlns='http://www.w3.org/2000/svg'/>",
            "service",
            "bad_type",
            TYPES_MESSAGE,
            id="svg-with-bom",
        ),
        pytest.param(b"BM" + b"\0" * 60, "service", "bad_type", TYPES_MESSAGE, id="bmp"),
        pytest.param(
            b"\0\0\0\x18ftypheic\0\0\0\0" + b"\0" * 40,
            "avatar",
            "bad_type",
            TYPES_MESSAGE,
            id="heic",
        ),
    ],
)
def test_refusals_say_why_and_store_nothing(local, data, kind, code, message):
    folder = "avatars" if kind == "avatar" else "services"
    with pytest.raises(storage.StorageError) as error:
        storage.save_image(folder, data, kind=kind)
    assert (error.value.code, error.value.message) == (code, message)
    assert stored_files(local) == []


def test_a_jpeg_renamed_from_anything_is_judged_by_its_bytes(local):
    """The name and the browser's type are never looked at: a real JPEG is accepted whatever
    it was called, and a PNG is a PNG."""
    stored = storage.save_image("services", jpeg())
    assert re.fullmatch(r"services/[0-9a-f-]{36}\.webp", stored.path)
    assert stored.url == f"/media/{stored.path}"
    assert images.sniff(jpeg()) == "JPEG"


def test_a_decompression_bomb_is_refused_from_its_header_without_decoding(local):
    bomb = png_declaring(20_000, 20_000)  # 400 megapixels: 1.2 GB once decoded
    assert len(bomb) < 200
    pictures_before = Image.core.get_stats()["new_count"]  # Pillow's pixel buffers made so far
    with pytest.raises(storage.StorageError) as error:
        storage.save_image("services", bomb)
    assert error.value.code == "too_many_pixels"
    assert Image.core.get_stats()["new_count"] == pictures_before  # not one pixel buffer
    assert stored_files(local) == []


@pytest.mark.filterwarnings("ignore::PIL.Image.DecompressionBombWarning")
@pytest.mark.parametrize(
    "bomb",
    [
        pytest.param(png_declaring(6000, 5000), id="png-30MP-under-pillows-own-limit"),
        pytest.param(png_declaring(4_900, 4_900), id="png-just-over-24MP"),
        pytest.param(gif_declaring(10_000, 10_000), id="gif-100MP"),
        pytest.param(png_declaring(1, 30_000_000), id="png-one-pixel-wide"),
    ],
)
def test_more_pixels_than_the_cap_are_refused(local, bomb):
    with pytest.raises(storage.StorageError) as error:
        storage.save_image("services", bomb)
    assert error.value.code == "too_many_pixels"
    assert stored_files(local) == []


def test_pillows_own_bomb_limit_is_the_same_cap():
    assert Image.MAX_IMAGE_PIXELS == images.MAX_PIXELS == 24_000_000


def test_an_animation_with_too_many_frames_is_refused(local):
    many = animated_gif(
        [(i % 256, (i * 7) % 256, 0) for i in range(images.MAX_FRAMES + 1)],
        [40] * (images.MAX_FRAMES + 1),
        size=(4, 4),
    )
    with pytest.raises(storage.StorageError) as error:
        storage.save_image("services", many)
    assert error.value.code == "too_many_pixels"
    assert stored_files(local) == []


def test_a_gif_with_trailing_script_is_stored_written_anew(local):
    original = animated_gif([(255, 0, 0), (0, 255, 0)], [100, 100])
    hostile = original + b"<script>alert(document.cookie)</script>"
    stored = storage.save_image("services", hostile)
    assert stored.path.endswith(".gif")
    (written,) = stored_files(local)
    body = written.read_bytes()
    assert b"<script" not in body
    assert b"made by a test" not in body  # the comment extension is gone too
    assert body != original  # written by us, not kept byte for byte
    assert body.endswith(b";")  # the GIF trailer is the last byte
    with Image.open(written) as image:
        assert image.format == "GIF"
        assert "comment" not in image.info


def test_a_gif_keeps_its_frames_timings_and_colours(local):
    colors = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]
    stored = storage.save_image("banners", animated_gif(colors, [100, 200, 300]))
    with Image.open(local.root / stored.path) as image:
        assert image.n_frames == 3
        assert image.info.get("loop") == 0
        seen = []
        for index in range(3):
            image.seek(index)
            seen.append((image.info["duration"], image.convert("RGB").getpixel((5, 5))))
    assert seen == [(100, colors[0]), (200, colors[1]), (300, colors[2])]


def test_exif_and_gps_are_gone_and_the_orientation_is_applied(local):
    exif = Image.Exif()
    exif[0x010E] = "secret description"
    exif[0x0112] = 6  # rotate 90 degrees clockwise to display
    exif[0x8825] = {1: "N", 2: (42.0, 39.0, 0.0), 3: "E", 4: (21.0, 10.0, 0.0)}  # GPS
    data = jpeg(size=(80, 40), exif=exif.tobytes())
    with Image.open(io.BytesIO(data)) as probe:
        assert probe.getexif()[0x0112] == 6  # the upload carries it
    stored = storage.save_image("services", data)
    (written,) = stored_files(local)
    body = written.read_bytes()
    assert b"secret description" not in body and b"Exif" not in body
    with Image.open(written) as image:
        assert image.format == "WEBP"
        assert image.size == (40, 80)  # shown upright, as the camera meant
        assert not image.getexif()
        assert not {"exif", "xmp", "icc_profile"} & set(image.info)
    assert stored.path.endswith(".webp")


def test_a_png_with_text_chunks_and_a_profile_is_cleaned(local):
    from PIL import ImageCms, PngImagePlugin

    info = PngImagePlugin.PngInfo()
    info.add_text("Comment", "<script>alert(1)</script>")
    srgb = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    buffer = io.BytesIO()
    Image.new("RGBA", (30, 20), (10, 20, 30, 128)).save(
        buffer, format="PNG", pnginfo=info, icc_profile=srgb
    )
    stored = storage.save_image("services", buffer.getvalue())
    body = (local.root / stored.path).read_bytes()
    assert b"<script" not in body
    with Image.open(local.root / stored.path) as image:
        assert image.mode == "RGBA"  # transparency kept
        assert "icc_profile" not in image.info


def test_names_are_generated_and_never_overwritten(local):
    first = storage.save_image("avatars", jpeg(), kind="avatar", name="avatar-u1-1700000000000")
    assert first.path == "avatars/avatar-u1-1700000000000.webp"
    before = (local.root / first.path).read_bytes()
    with pytest.raises(storage.StorageError) as error:
        storage.save_image(
            "avatars", jpeg(color=(0, 0, 255)), kind="avatar", name="avatar-u1-1700000000000"
        )
    assert error.value.code == "exists"
    assert (local.root / first.path).read_bytes() == before
    with pytest.raises(storage.StorageError):
        storage.save_image("avatars", jpeg(), name="../escape")
    with pytest.raises(storage.StorageError):
        storage.save_image("../outside", jpeg())
    a = storage.save_image("services", jpeg())
    b = storage.save_image("services", jpeg())
    assert a.path != b.path


def test_the_size_cap_follows_the_kind_or_folder_and_max_bytes_only_lowers_it(local):
    big = jpeg() + b"\0" * (3 * 1024 * 1024)  # 3 MB: fine for a service, not for an avatar
    assert storage.save_image("services", big).path.startswith("services/")
    with pytest.raises(storage.StorageError) as error:
        storage.save_image("avatars", big)  # the folder says avatar: 2 MB
    assert error.value.message == "File too large. Maximum size is 2MB"
    with pytest.raises(storage.StorageError) as error:
        storage.save_image("services", big, max_bytes=2 * 1024 * 1024)  # an older caller
    assert error.value.code == "too_large"
    huge = jpeg() + b"\0" * (6 * 1024 * 1024)
    with pytest.raises(storage.StorageError):
        storage.save_image("services", huge, max_bytes=50 * 1024 * 1024)  # cannot raise it


def test_delete_is_idempotent_and_refuses_what_is_not_a_stored_path(local):
    stored = storage.save_image("services", jpeg())
    assert storage.exists(stored.path)
    assert storage.path_from_url(stored.url) == stored.path
    assert storage.path_from_url("https://elsewhere.example/x.webp") is None
    storage.delete(stored.path)
    assert not storage.exists(stored.path)
    storage.delete(stored.path)  # again: nothing to do, no error
    for bad in (stored.url, "../../etc/passwd", "services/../../x", "services/.placeholder"):
        with pytest.raises(storage.StorageError):
            storage.delete(bad)


def test_resolve_serves_only_stored_files(local):
    stored = storage.save_bytes("services", "seeded.webp", b"data")
    assert storage.resolve(stored.path) == (local.root / "services" / "seeded.webp").resolve()
    assert storage.resolve("services/missing.webp") is None
    assert storage.resolve("../../etc/passwd") is None
    assert storage.resolve("services/.seeded.webp.part") is None


def test_save_bytes_replaces_what_the_seed_wrote_before(local):
    storage.save_bytes("services", "castle.webp", b"one")
    stored = storage.save_bytes("services", "castle.webp", b"two")
    assert (local.root / stored.path).read_bytes() == b"two"
    assert [p.name for p in stored_files(local)] == ["castle.webp"]  # no temporary left


def test_create_folders_makes_specs_folders(local):
    report = storage.create_folders()
    assert report.failed == []
    assert report.created == list(storage.SPEC_FOLDERS)
    assert len(report.created) == 11
    for folder in storage.SPEC_FOLDERS:
        assert (local.root / folder).is_dir()
    again = storage.create_folders(storage.BANNER_FOLDERS)  # upsert: all fine a second time
    assert again.created == list(storage.BANNER_FOLDERS) and again.failed == []


def test_create_folders_reports_each_failure(tmp_path):
    blocked = tmp_path / "media"
    blocked.mkdir()
    (blocked / "banners").write_text("a file where the folder should be")
    previous = storage.use_backend(storage.LocalStorage(blocked))
    try:
        report = storage.create_folders()
    finally:
        storage.use_backend(previous)
    assert report.failed == list(storage.BANNER_FOLDERS)
    assert report.created == [f for f in storage.SPEC_FOLDERS if f not in storage.BANNER_FOLDERS]


async def test_the_media_route_serves_a_saved_image(local):
    import httpx

    from storefront.api import create_api

    stored = storage.save_image("services", jpeg())
    transport = httpx.ASGITransport(app=create_api())
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
        answer = await client.get(stored.url)
        assert answer.status_code == 200
        assert answer.content == (local.root / stored.path).read_bytes()
        assert answer.headers["content-type"] == "image/webp"
        assert (await client.get("/media/services/.placeholder")).status_code == 404


def test_the_backend_is_chosen_from_the_settings(tmp_path):
    from storefront.settings import Settings

    local = storage.backend_from_settings(Settings(media_dir=tmp_path))
    assert isinstance(local, storage.LocalStorage) and local.root == tmp_path
    s3 = storage.backend_from_settings(
        Settings(storage_backend="s3", s3_bucket="pics", s3_endpoint_url="http://127.0.0.1:9000/")
    )
    assert isinstance(s3, storage.S3Storage)
    assert s3.url("services/a.webp") == "http://127.0.0.1:9000/pics/services/a.webp"
    aws = Settings(storage_backend="s3", s3_bucket="pics", s3_region="eu-central-1")
    assert storage.s3_public_base(aws) == "https://pics.s3.eu-central-1.amazonaws.com"
    cdn = Settings(storage_backend="s3", s3_public_url="https://cdn.example.com/images/")
    assert (
        storage.backend_from_settings(cdn).url("x/y.gif")
        == "https://cdn.example.com/images/x/y.gif"
    )


@pytest.mark.parametrize(
    ("options", "origin"),
    [
        (
            {"storage_backend": "s3", "s3_public_url": "https://cdn.example.com/images"},
            "https://cdn.example.com",
        ),
        (
            {"storage_backend": "s3", "s3_endpoint_url": "http://127.0.0.1:9000"},
            "http://127.0.0.1:9000",
        ),
        ({"storage_backend": "s3", "s3_bucket": "pics"}, "https://pics.s3.us-east-1.amazonaws.com"),
    ],
)
def test_the_content_security_policy_allows_images_from_the_bucket(monkeypatch, options, origin):
    from storefront.api.security import policy_for
    from storefront.settings import get_settings

    settings = get_settings()
    for name, value in options.items():
        monkeypatch.setattr(settings, name, value)
    img_src = next(d for d in policy_for(None).split("; ") if d.startswith("img-src"))
    assert img_src.split() == ["img-src", "'self'", "data:", "blob:", origin]


def test_local_storage_adds_no_image_origin():
    from storefront.api.security import policy_for

    img_src = next(d for d in policy_for(None).split("; ") if d.startswith("img-src"))
    assert img_src == "img-src 'self' data: blob:"


def test_an_animated_png_becomes_an_animated_webp(local):
    frames = [Image.new("RGBA", (12, 12), c) for c in ((255, 0, 0, 255), (0, 0, 255, 128))]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="PNG", save_all=True, append_images=frames[1:], duration=150)
    stored = storage.save_image("services", buffer.getvalue())
    with Image.open(local.root / stored.path) as image:
        assert image.format == "WEBP" and image.n_frames == 2
        image.seek(1)
        assert image.convert("RGBA").getpixel((3, 3))[3] == 128  # transparency kept
