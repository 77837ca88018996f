"""The S3 backend against a real S3 server on loopback (moto's server mode): objects, their
type and cache control, their public URL fetched over HTTP, deletion, folder initialisation."""

from __future__ import annotations

import io
import urllib.error
import urllib.request
from collections.abc import Iterator

import boto3
import pytest
from PIL import Image

from storefront.services.media import storage
from tests.s3_server import create_public_bucket

pytest.importorskip("moto.server")
from moto.server import ThreadedMotoServer  # noqa: E402

BUCKET = "images"
CREDENTIALS = {"aws_access_key_id": "test-key", "aws_secret_access_key": "test-secret"}


@pytest.fixture(scope="module")
def s3_endpoint() -> Iterator[str]:
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()


@pytest.fixture
def s3(s3_endpoint: str) -> Iterator[storage.S3Storage]:
    """An empty bucket, readable by anyone (as the operator sets it up), as the storage."""
    client = boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1", **CREDENTIALS)
    create_public_bucket(client, BUCKET)
    store = storage.S3Storage(
        bucket=BUCKET,
        public_base=f"{s3_endpoint}/{BUCKET}",
        endpoint_url=s3_endpoint,
        region="us-east-1",
        access_key_id=CREDENTIALS["aws_access_key_id"],
        secret_access_key=CREDENTIALS["aws_secret_access_key"],
    )
    previous = storage.use_backend(store)
    yield store
    storage.use_backend(previous)
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=BUCKET):
        for item in page.get("Contents", []):
            client.delete_object(Bucket=BUCKET, Key=item["Key"])
    client.delete_bucket(Bucket=BUCKET)


def keys(store: storage.S3Storage) -> list[str]:
    listed = store.client.list_objects_v2(Bucket=store.bucket)
    return sorted(item["Key"] for item in listed.get("Contents", []))


def fetch(url: str) -> tuple[int, bytes, dict[str, str]]:
    """GET over HTTP as a browser would: no credentials."""
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read(), {k.lower(): v for k, v in answer.headers.items()}
    except urllib.error.HTTPError as error:
        return error.code, b"", {}


def photo() -> bytes:
    buffer = io.BytesIO()
    exif = Image.Exif()
    exif[0x010E] = "where this was taken"
    Image.new("RGB", (60, 40), (20, 160, 90)).save(buffer, format="JPEG", exif=exif.tobytes())
    return buffer.getvalue()


def test_an_image_goes_to_the_bucket_is_served_by_its_public_url_and_is_deleted(s3, s3_endpoint):
    stored = storage.save_image("services", photo())
    assert stored.path.startswith("services/") and stored.path.endswith(".webp")
    assert stored.url == f"{s3_endpoint}/{BUCKET}/{stored.path}"

    head = s3.client.head_object(Bucket=BUCKET, Key=stored.path)
    assert head["ContentType"] == "image/webp"
    assert head["CacheControl"] == "public, max-age=3600"
    kept = s3.client.get_object(Bucket=BUCKET, Key=stored.path)["Body"].read()
    assert b"where this was taken" not in kept

    status, body, headers = fetch(stored.url)
    assert status == 200
    assert body == kept
    assert headers["content-type"] == "image/webp"
    assert headers["cache-control"] == "public, max-age=3600"
    with Image.open(io.BytesIO(body)) as image:
        assert image.size == (60, 40) and not image.getexif()

    assert storage.exists(stored.path)
    assert storage.path_from_url(stored.url) == stored.path
    storage.delete(stored.path)
    assert not storage.exists(stored.path)
    assert fetch(stored.url)[0] == 404
    storage.delete(stored.path)  # idempotent
    assert keys(s3) == []


def test_a_gif_and_an_avatar_keep_their_types_and_names(s3):
    frames = [Image.new("RGB", (10, 10), c) for c in ((255, 0, 0), (0, 0, 255))]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="GIF", save_all=True, append_images=frames[1:], duration=80)
    gif = storage.save_image("banners/banner-mascots", buffer.getvalue() + b"<script>x</script>")
    head = s3.client.head_object(Bucket=BUCKET, Key=gif.path)
    assert head["ContentType"] == "image/gif"
    body = s3.client.get_object(Bucket=BUCKET, Key=gif.path)["Body"].read()
    assert b"<script" not in body
    with Image.open(io.BytesIO(body)) as image:
        assert image.n_frames == 2

    avatar = storage.save_image("avatars", photo(), kind="avatar", name="avatar-u7-1700000000000")
    assert avatar.path == "avatars/avatar-u7-1700000000000.webp"
    with pytest.raises(storage.StorageError) as error:  # The spec: no upsert
        storage.save_image("avatars", photo(), kind="avatar", name="avatar-u7-1700000000000")
    assert error.value.code == "exists"


def test_a_refused_upload_puts_nothing_in_the_bucket(s3):
    too_big = photo() + b"\0" * (2 * 1024 * 1024)
    for data in (b"", b"<svg xmlns='http://www.w3.org/2000/svg'/>", b"plain text", too_big):
        with pytest.raises(storage.StorageError):
            storage.save_image("avatars", data)
    assert keys(s3) == []


def test_create_folders_puts_a_placeholder_in_each(s3):
    report = storage.create_folders()
    assert report.failed == []
    assert report.created == list(storage.SPEC_FOLDERS)
    assert keys(s3) == sorted(f"{folder}/.placeholder" for folder in storage.SPEC_FOLDERS)
    again = storage.create_folders(storage.BANNER_FOLDERS)  # with upsert: fine again
    assert again.created == list(storage.BANNER_FOLDERS)


def test_seeded_bytes_are_replaced_in_place(s3):
    storage.save_bytes("services", "castle.webp", b"one")
    stored = storage.save_bytes("services", "castle.webp", b"two")
    assert s3.client.get_object(Bucket=BUCKET, Key=stored.path)["Body"].read() == b"two"
    assert s3.client.head_object(Bucket=BUCKET, Key=stored.path)["ContentType"] == "image/webp"


def test_a_missing_bucket_fails_every_folder_and_every_save(s3_endpoint):
    store = storage.S3Storage(
        bucket="no-such-bucket",
        public_base=f"{s3_endpoint}/no-such-bucket",
        endpoint_url=s3_endpoint,
        access_key_id="k",
        secret_access_key="s",
    )
    previous = storage.use_backend(store)
    try:
        report = storage.create_folders(storage.BANNER_FOLDERS)
        assert report.created == [] and report.failed == list(storage.BANNER_FOLDERS)
        with pytest.raises(storage.StorageError) as error:
            storage.save_image("services", photo())
        assert error.value.code == "unavailable"
    finally:
        storage.use_backend(previous)


def test_a_replaced_avatar_and_a_swept_orphan_leave_the_bucket_after_the_commit(s3, session):
    """Issue 18, finding 6, on the S3 backend: deletion after the commit, and the sweep."""
    from datetime import timedelta

    from storefront.models import utcnow
    from storefront.services.accounts import users
    from storefront.services.catalog import admin as catalog_admin
    from tests.factories import image_bytes, make_user

    owner = make_user(session)
    session.commit()
    first = storage.path_from_url(
        users.set_avatar(session=session, user_id=str(owner.id), data=photo())
    )
    session.commit()
    second = storage.path_from_url(
        users.set_avatar(session=session, user_id=str(owner.id), data=image_bytes())
    )
    assert first in keys(s3)  # not before the commit
    session.commit()
    assert second in keys(s3) and first not in keys(s3)

    orphan = catalog_admin.store_image(
        session=session, actor_id=owner.id, data=photo(), draft="unsaved"
    )["path"]
    session.commit()
    later = utcnow() + storage.orphan_grace() + timedelta(minutes=1)
    assert storage.sweep_orphans(session=session, now=later) == 1
    session.rollback()
    assert orphan in keys(s3)  # a rolled-back sweep removes nothing
    assert storage.sweep_orphans(session=session, now=later) == 1
    session.commit()
    assert keys(s3) == [second]
