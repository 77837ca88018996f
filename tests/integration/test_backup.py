"""Backups (services/operations/backup.py, issue 22 item 7) on SQLite and PostgreSQL, with real parts: the
`backup` and `restore` commands run as `make backup` / `make restore` run them, into a new
empty database; images from a local folder and from an S3 bucket (moto's server mode); the
refusal of a database that holds data; the daily job of two runners; a failed backup; the
dashboard's 'Last Backup' and the Settings switch. Issue 33, finding 3: folders 0700 and files
0600 whatever the umask, no backup in a bucket anyone can read, a signed manifest, and only
images of the types the app stores put back."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import boto3
import pytest
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import AuditLog, Booking, BookingItem, BusinessSettings, User
from storefront.models.operations import Backup
from storefront.services.media import storage
from storefront.services.operations import backup, dashboard
from storefront.settings import PROJECT_ROOT, get_settings
from tests.conftest import create_database, migrate
from tests.factories import line, make_service, place
from tests.s3_server import create_public_bucket

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)  # 08:00 in Prishtina
NIGHT = datetime(2026, 6, 2, 1, 10, tzinfo=UTC)  # 03:10 in Prishtina: the daily window
PHOTO = b"RIFF\x10\x00\x00\x00WEBPVP8 fake image bytes"
OTHER_PHOTO = b"GIF89a\x01\x00\x01\x00 another fake image"
PAGE = b"<html><script>fetch('/api/me').then(steal)</script></html>"


@pytest.fixture(params=["sqlite", "postgresql"])
def source(request) -> Iterator[tuple[str, Engine]]:
    """A migrated database of each backend, of this test alone."""
    url, drop = create_database(request.param)
    migrate(url)
    engine = make_engine(url)
    yield url, engine
    engine.dispose()
    drop()


@pytest.fixture
def empty_database(source) -> Iterator[tuple[str, Engine]]:
    """A new database of the source's backend with nothing in it: not even the schema."""
    url, drop = create_database(source[1].dialect.name)
    engine = make_engine(url)
    yield url, engine
    engine.dispose()
    drop()


@pytest.fixture
def local_media(tmp_path: Path) -> Iterator[storage.LocalStorage]:
    store = storage.LocalStorage(tmp_path / "media")
    previous = storage.use_backend(store)
    yield store
    storage.use_backend(previous)


def _with_bookings(engine: Engine) -> list[tuple]:
    """Two bookings (one of two lines) and an avatar on the source database; returns them."""
    with Session(engine, expire_on_commit=False) as session:
        castle = make_service(session, title="Bouncy castle", units=2)
        elsa = make_service(session, title="Mascot Elsa")
        place(session, [line(castle, "2026-06-10", "10:00")], now=NOW)
        place(
            session,
            [line(castle, "2026-06-12", "14:00", hours=2), line(elsa, "2026-06-12", "15:00")],
            now=NOW,
            full_name="Dren Berisha",
        )
        session.add(User(email="owner@example.com", role="admin"))
        session.commit()
    return _bookings(engine)


def _bookings(engine: Engine) -> list[tuple]:
    with Session(engine) as session:
        bookings = session.exec(select(Booking).order_by(Booking.reference)).all()
        items = session.exec(
            select(BookingItem).order_by(BookingItem.booking_id, BookingItem.start_datetime)
        ).all()
        return [
            (b.id, b.reference, b.status, b.contact_name, b.total_amount, b.created_at)
            for b in bookings
        ] + [
            (i.booking_id, i.service_name, i.quantity, i.start_datetime, i.end_datetime)
            for i in items
        ]


def _manage(
    *args: str, database_url: str, media: Path, umask: int | None = None, **env: str
) -> subprocess.CompletedProcess:
    """`python -m storefront.manage ...` as `make backup` / `make restore` run it (under
    `umask`, when given)."""
    environment = {
        **os.environ,
        "DATABASE_URL": database_url,
        "MEDIA_DIR": str(media),
        "STORAGE_BACKEND": "local",
        **env,
    }
    return subprocess.run(
        [sys.executable, "-m", "storefront.manage", *args],
        cwd=PROJECT_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=None if umask is None else (lambda: os.umask(umask)),
    )


def _resign(folder: Path, change) -> None:
    """Change a finished backup's manifest with `change(manifest)` and sign it again with the
    site's key, as the one who made it would have."""
    manifest = json.loads((folder / "manifest.json").read_text())
    change(manifest)
    signed = backup.sign_manifest({k: v for k, v in manifest.items() if k != "signature"})
    (folder / "manifest.json").write_text(json.dumps(signed))


def test_make_backup_then_restore_into_an_empty_database_gives_the_same_bookings(
    source, empty_database, tmp_path
):
    url, engine = source
    media = tmp_path / "media"
    (media / "services").mkdir(parents=True)
    (media / "services" / "castle.webp").write_bytes(PHOTO)
    before = _with_bookings(engine)
    assert len(before) == 5

    made = _manage("backup", database_url=url, media=media, BACKUP_DIR=str(tmp_path / "backups"))
    assert made.returncode == 0, made.stderr
    location = made.stdout.strip()
    assert Path(location).parent == tmp_path / "backups"
    manifest = json.loads((Path(location) / "manifest.json").read_text())
    assert manifest["database"]["tables"]["bookings"] == 2
    assert manifest["database"]["alembic_revision"]
    assert manifest["images"]["files"] == [
        {
            "path": "services/castle.webp",
            "bytes": len(PHOTO),
            "sha256": backup._sha256(PHOTO),
        }
    ]

    target_url, target = empty_database
    restored_media = tmp_path / "restored-media"
    put_back = _manage("restore", location, database_url=target_url, media=restored_media)
    assert put_back.returncode == 0, put_back.stderr
    assert "2 bookings" in put_back.stdout

    assert _bookings(target) == before
    assert (restored_media / "services" / "castle.webp").read_bytes() == PHOTO
    with Session(target) as session:
        (row,) = session.exec(select(Backup)).all()
        assert (row.status, row.location) == ("done", location)
        assert session.exec(select(User.email)).all() == ["owner@example.com"]


def test_a_backup_taken_while_bookings_are_placed_is_one_consistent_moment(
    source, empty_database, local_media, tmp_path
):
    """Bookings and their items are written together while the backup runs: the restored
    database has every booking with its item, and exactly the manifest's rows."""
    _, engine = source
    with Session(engine, expire_on_commit=False) as session:
        castle = make_service(session, title="Bouncy castle", units=1000)
        session.commit()
    stop, placed, started = threading.Event(), [], threading.Event()

    def book() -> None:
        try:
            with Session(engine, expire_on_commit=False) as session:
                while not stop.is_set() or len(placed) < 3:
                    n = len(placed)
                    day = (datetime(2026, 7, 1) + timedelta(days=n // 12)).strftime("%Y-%m-%d")
                    place(session, [line(castle, day, f"{8 + n % 12:02d}:00")], now=NOW)
                    placed.append(n)
                    if n == 2:
                        started.set()
        finally:
            started.set()

    writer = threading.Thread(target=book)
    writer.start()
    try:
        assert started.wait(30)
        made = backup.make_backup(engine=engine, target=str(tmp_path / "backups"), now=NOW)
    finally:
        stop.set()
        writer.join()

    _, target = empty_database
    backup.restore(made.location, engine=target)  # checks the rows against the manifest
    with Session(target) as session:
        bookings = set(session.exec(select(Booking.id)).all())
        with_items = set(session.exec(select(BookingItem.booking_id)).all())
    assert bookings == with_items
    assert len(bookings) == made.tables["bookings"] >= 3


def test_restore_refuses_a_database_that_holds_data_unless_forced(
    source, empty_database, local_media, tmp_path
):
    _, engine = source
    before = _with_bookings(engine)
    made = backup.make_backup(engine=engine, target=str(tmp_path / "backups"), now=NOW)

    # The target holds other bookings: refused, and left as it was.
    target_url, target = empty_database
    migrate(target_url)
    with Session(target, expire_on_commit=False) as session:
        other = make_service(session, title="Popcorn machine")
        place(session, [line(other, "2026-07-01", "10:00")], now=NOW)
    theirs = _bookings(target)
    with pytest.raises(backup.BackupError) as refused:
        backup.restore(made.location, engine=target)
    assert refused.value.code == "not_empty"
    assert "bookings 1" in refused.value.message and "--force" in refused.value.message
    assert _bookings(target) == theirs

    backup.restore(made.location, engine=target, force=True)
    assert _bookings(target) == before


def test_a_backup_unfinished_changed_or_from_a_newer_version_is_not_restored(local_media, tmp_path):
    url, drop = create_database("sqlite")
    migrate(url)
    engine = make_engine(url)
    try:
        made = backup.make_backup(engine=engine, target=str(tmp_path / "backups"), now=NOW)
        empty_url, drop_empty = create_database("sqlite")
        empty = make_engine(empty_url)
        folder = Path(made.location)
        with open(folder / backup.SQLITE_FILE, "ab") as file:
            file.write(b"\0")
        with pytest.raises(backup.BackupError) as damaged:
            backup.restore(made.location, engine=empty)
        assert damaged.value.code == "damaged"
        _resign(
            folder,
            lambda manifest: manifest["database"].update(
                alembic_revision="9999_from_a_later_version"
            ),
        )
        with pytest.raises(backup.BackupError) as newer:
            backup.restore(made.location, engine=empty)
        assert newer.value.code == "newer"
        (folder / "manifest.json").unlink()
        with pytest.raises(backup.BackupError) as unfinished:
            backup.restore(made.location, engine=empty)
        assert unfinished.value.code == "incomplete"
        empty.dispose()
        drop_empty()
    finally:
        engine.dispose()
        drop()


# --- issue 33, finding 3: private files, a signed manifest, only images put back -------------


def _modes(root: Path) -> dict[str, int]:
    """Every folder and file under `root` (itself included) -> its permission bits."""
    found = {".": root.stat().st_mode & 0o777}
    for path in root.rglob("*"):
        found[path.relative_to(root).as_posix()] = path.stat().st_mode & 0o777
    return found


@pytest.mark.parametrize("umask", [0o022, 0o000])
def test_backup_folders_are_0700_and_files_0600_whatever_the_umask(source, tmp_path, umask):
    """The database copy holds password and session hashes: nobody else on the host reads it."""
    url, engine = source
    _with_bookings(engine)
    media = tmp_path / "media"
    (media / "services").mkdir(parents=True)
    (media / "services" / "castle.webp").write_bytes(PHOTO)
    root = tmp_path / "backups"
    made = _manage("backup", database_url=url, media=media, umask=umask, BACKUP_DIR=str(root))
    assert made.returncode == 0, made.stderr
    modes = _modes(root)
    name = Path(made.stdout.strip()).name
    assert {f"{name}/manifest.json", f"{name}/images/services/castle.webp"} <= set(modes)
    wrong = {
        path: oct(mode)
        for path, mode in modes.items()
        if mode != (0o700 if (root / path).is_dir() else 0o600)
    }
    assert wrong == {}


def _x_html_added(manifest: dict) -> None:
    manifest["images"]["files"].append(
        {"path": "services/x.html", "bytes": len(PAGE), "sha256": backup._sha256(PAGE)}
    )


def _nothing_restored(target: Engine, media: Path) -> None:
    assert backup.rows_held(target) == {}
    assert not media.exists() or [p for p in media.rglob("*") if p.is_file()] == []


def test_restore_refuses_a_manifest_whose_signature_fails(
    source, empty_database, tmp_path, monkeypatch
):
    """Someone who can write to the backups adds a page to the images and lists it, with its
    checksum, in the manifest: the manifest's signature no longer holds, and nothing is put
    back (before, the page was served from /media)."""
    _, engine = source
    _with_bookings(engine)
    made_media = storage.LocalStorage(tmp_path / "media")
    made_media.put("services/castle.webp", PHOTO, content_type="image/webp", overwrite=False)
    previous = storage.use_backend(made_media)
    try:
        made = backup.make_backup(engine=engine, target=str(tmp_path / "backups"), now=NOW)
    finally:
        storage.use_backend(previous)
    folder = Path(made.location)
    signed = (folder / "manifest.json").read_bytes()
    (folder / "images" / "services" / "x.html").write_bytes(PAGE)

    _, target = empty_database
    restored_media = storage.LocalStorage(tmp_path / "restored")
    previous = storage.use_backend(restored_media)
    try:
        manifest = json.loads(signed)
        _x_html_added(manifest)
        (folder / "manifest.json").write_text(json.dumps(manifest))
        with pytest.raises(backup.BackupError) as changed:
            backup.restore(made.location, engine=target)
        assert changed.value.code == "forged"
        _nothing_restored(target, restored_media.root)

        del manifest["signature"]
        (folder / "manifest.json").write_text(json.dumps(manifest))
        with pytest.raises(backup.BackupError) as unsigned:
            backup.restore(made.location, engine=target)
        assert unsigned.value.code == "forged"

        # Signed, but with another site's key.
        (folder / "manifest.json").write_bytes(signed)
        monkeypatch.setattr(get_settings(), "secret_key", "another-site-" + "k" * 40)
        with pytest.raises(backup.BackupError) as other_key:
            backup.restore(made.location, engine=target)
        assert other_key.value.code == "forged"
        _nothing_restored(target, restored_media.root)

        monkeypatch.undo()
        backup.restore(made.location, engine=target)  # the backup as it was made
        assert restored_media.read("services/castle.webp") == PHOTO
        assert not restored_media.exists("services/x.html")
    finally:
        storage.use_backend(previous)


@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("services/x.html", PAGE),  # a page by its name
        ("services/photo.webp", PAGE),  # a page under an image's name
        ("services/photo.svg", b"<svg xmlns='http://www.w3.org/2000/svg'/>"),  # not stored
        ("services/photo.gif", PHOTO),  # a WebP under a GIF's name
        ("elsewhere/photo.webp", PHOTO),  # not a folder of the storage
        ("services/.htaccess", b"AddType text/html .webp"),
    ],
    ids=["page", "page-named-webp", "svg", "webp-named-gif", "unknown-folder", "htaccess"],
)
def test_restore_puts_back_only_images_of_the_types_the_app_stores(
    source, empty_database, tmp_path, path, data
):
    """Even under a good signature (the site's own storage held it), a file whose name or
    content is not an image type the app stores is refused, before anything is restored."""
    _, engine = source
    made_media = storage.LocalStorage(tmp_path / "media")
    made_media.put("services/castle.webp", PHOTO, content_type="image/webp", overwrite=False)
    previous = storage.use_backend(made_media)
    try:
        made = backup.make_backup(engine=engine, target=str(tmp_path / "backups"), now=NOW)
    finally:
        storage.use_backend(previous)
    folder = Path(made.location)
    (folder / "images" / path).parent.mkdir(parents=True, exist_ok=True)
    (folder / "images" / path).write_bytes(data)
    _resign(
        folder,
        lambda manifest: manifest["images"]["files"].append(
            {"path": path, "bytes": len(data), "sha256": backup._sha256(data)}
        ),
    )
    _, target = empty_database
    restored_media = storage.LocalStorage(tmp_path / "restored")
    previous = storage.use_backend(restored_media)
    try:
        with pytest.raises(backup.BackupError) as refused:
            backup.restore(made.location, engine=target)
    finally:
        storage.use_backend(previous)
    assert refused.value.code == "not_image"
    assert path in refused.value.message
    _nothing_restored(target, restored_media.root)


def test_a_file_in_the_storage_that_is_not_an_image_is_left_out_of_the_backup(
    session, engine, tmp_path
):
    """What restore would refuse is never backed up: a backup stays restorable, and the
    manifest names what it left out."""
    media = storage.LocalStorage(tmp_path / "media")
    media.put("services/castle.webp", PHOTO, content_type="image/webp", overwrite=False)
    media.put("services/x.html", PAGE, content_type="text/html", overwrite=False)
    previous = storage.use_backend(media)
    try:
        made = backup.make_backup(engine=engine, target=str(tmp_path / "backups"), now=NOW)
    finally:
        storage.use_backend(previous)
    manifest = json.loads((Path(made.location) / "manifest.json").read_text())
    assert [f["path"] for f in manifest["images"]["files"]] == ["services/castle.webp"]
    assert manifest["images"]["skipped"] == ["services/x.html"]
    assert not (Path(made.location) / "images" / "services" / "x.html").exists()


# --- S3: the images in a bucket, the backup in another ---------------------------------------

CREDENTIALS = {"aws_access_key_id": "test-key", "aws_secret_access_key": "test-secret"}


@pytest.fixture(scope="module")
def s3_endpoint() -> Iterator[str]:
    pytest.importorskip("moto.server")
    from moto.server import ThreadedMotoServer

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()


@pytest.fixture
def s3(s3_endpoint: str, monkeypatch) -> Iterator:
    """The S3 settings point at moto; buckets 'images' (the storage) and 'backups'."""
    settings = get_settings()
    monkeypatch.setattr(settings, "s3_endpoint_url", s3_endpoint)
    monkeypatch.setattr(settings, "s3_access_key_id", CREDENTIALS["aws_access_key_id"])
    monkeypatch.setattr(settings, "s3_secret_access_key", CREDENTIALS["aws_secret_access_key"])
    monkeypatch.setattr(settings, "storage_backend", "s3")
    client = boto3.client("s3", endpoint_url=s3_endpoint, region_name="us-east-1", **CREDENTIALS)
    buckets = [f"images-{uuid.uuid4().hex[:8]}", f"backups-{uuid.uuid4().hex[:8]}"]
    create_public_bucket(client, buckets[0])  # the images: anyone reads them
    client.create_bucket(Bucket=buckets[1])  # the backups: private
    monkeypatch.setattr(settings, "s3_bucket", buckets[0])
    previous = storage.use_backend(storage.S3Storage.from_settings(settings))
    yield client, buckets[0], buckets[1]
    storage.use_backend(previous)


def _objects(client, bucket: str) -> dict[str, bytes]:
    listed = client.list_objects_v2(Bucket=bucket).get("Contents", [])
    return {
        item["Key"]: client.get_object(Bucket=bucket, Key=item["Key"])["Body"].read()
        for item in listed
    }


def test_images_in_a_bucket_are_backed_up_to_a_bucket_and_put_back(s3, tmp_path):
    client, images, backups = s3
    url, drop = create_database("sqlite")
    migrate(url)
    engine = make_engine(url)
    empty_url, drop_empty = create_database("sqlite")
    empty = make_engine(empty_url)
    try:
        before = _with_bookings(engine)
        storage.save_bytes("services", "castle.webp", PHOTO)
        storage.save_bytes("avatars", "avatar-1.gif", OTHER_PHOTO)
        made = backup.make_backup(engine=engine, target=f"s3://{backups}/nightly", now=NOW)
        assert made.location.startswith(f"s3://{backups}/nightly/backup-20260601T060000Z-")
        keys = set(_objects(client, backups))
        name = made.location.rsplit("/", 1)[1]
        assert f"nightly/{name}/manifest.json" in keys
        assert f"nightly/{name}/images/services/castle.webp" in keys
        assert backup.finished_backups(backup.parse_target(f"s3://{backups}/nightly")) == [name]

        for key in _objects(client, images):  # the bucket is lost
            client.delete_object(Bucket=images, Key=key)
        backup.restore(made.location, engine=empty)
        assert _bookings(empty) == before
        assert _objects(client, images) == {
            "services/castle.webp": PHOTO,
            "avatars/avatar-1.gif": OTHER_PHOTO,
        }
    finally:
        engine.dispose()
        empty.dispose()
        drop()
        drop_empty()


def test_a_backup_goes_to_no_bucket_anyone_can_read(s3, tmp_path):
    """The images bucket is public (its objects are the site's pictures): a backup there, or in
    any bucket whose policy lets anyone read, is refused and writes nothing."""
    client, images, backups = s3
    public = f"public-{uuid.uuid4().hex[:8]}"
    create_public_bucket(client, public)
    url, drop = create_database("sqlite")
    migrate(url)
    engine = make_engine(url)
    try:
        for bucket in (images, public):
            with pytest.raises(backup.BackupError) as refused:
                backup.make_backup(engine=engine, target=f"s3://{bucket}/backups", now=NOW)
            assert "anyone" in refused.value.message, refused.value.message
            assert [k for k in _objects(client, bucket) if k.startswith("backups/")] == []
        assert "images bucket" in _failure(engine, images)

        made = backup.make_backup(engine=engine, target=f"s3://{backups}/nightly", now=NOW)
        keys = [k for k in _objects(client, backups) if k.startswith("nightly/")]
        assert keys and made.location.startswith(f"s3://{backups}/")
        for key in keys:  # each object for its owner alone
            grants = client.get_object_acl(Bucket=backups, Key=key)["Grants"]
            assert [g["Grantee"].get("URI") for g in grants if g["Grantee"].get("URI")] == []
    finally:
        engine.dispose()
        drop()


def _failure(engine: Engine, bucket: str) -> str:
    with Session(engine) as session:
        row = session.exec(
            select(Backup).where(Backup.location.startswith(f"s3://{bucket}/"))  # type: ignore[union-attr]
        ).one()
        return row.error or ""


def test_backup_url_in_the_images_bucket_is_refused_at_start(monkeypatch):
    from pydantic import ValidationError

    from storefront import preflight
    from storefront.settings import Settings

    with pytest.raises(ValidationError, match="images bucket"):
        Settings(
            storage_backend="s3",
            s3_bucket="images",
            backup_url="s3://images/backups",
            _env_file=None,
        )
    assert (
        Settings(
            storage_backend="s3", s3_bucket="images", backup_url="s3://backups/site", _env_file=None
        ).backup_url
        == "s3://backups/site"
    )
    # Local images: no images bucket to keep backups out of.
    assert Settings(storage_backend="local", backup_url="s3://images/b", _env_file=None).backup_url

    for name, value in {
        "STORAGE_BACKEND": "s3",
        "S3_BUCKET": "site-images",
        "BACKUP_URL": "s3://site-images/backups",
    }.items():
        monkeypatch.setenv(name, value)
    assert any("images bucket" in problem for problem in preflight.settings_problems())


# --- the daily backup, failures, and what the back office shows -------------------------------


def _daily(session: Session, on: bool = True) -> None:
    row = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
    row.backup_daily = on
    session.add(row)
    session.commit()


def _rows(session: Session) -> list[Backup]:
    session.commit()  # a fresh read: the backup wrote through its own connection
    rows = session.exec(select(Backup).order_by(Backup.started_at)).all()
    session.commit()
    return list(rows)


def test_the_daily_backup_runs_once_a_day_for_two_runners(
    session, engine, local_media, tmp_path, monkeypatch
):
    monkeypatch.setattr(get_settings(), "backup_dir", tmp_path / "backups")
    assert backup.run_daily(engine=engine, now=NIGHT, holder="a") is None  # off
    _daily(session)
    assert backup.run_daily(engine=engine, now=NIGHT - timedelta(hours=2), holder="a") is None
    assert backup.run_daily(engine=engine, now=NIGHT + timedelta(hours=3), holder="a") is None

    results = []
    start = threading.Barrier(2)

    def runner(holder: str) -> None:
        start.wait()
        results.append(backup.run_daily(engine=engine, now=NIGHT, holder=holder))

    threads = [threading.Thread(target=runner, args=(h,)) for h in ("host-a:1", "host-b:2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r is not None for r in results) == 1
    # Later the same night, another worker finds the day's backup taken.
    assert backup.run_daily(engine=engine, now=NIGHT + timedelta(minutes=50), holder="c") is None
    rows = _rows(session)
    assert [(r.trigger, r.status) for r in rows] == [("daily", "done")]
    assert len(backup.finished_backups(backup.configured_target())) == 1

    # The next night it runs again.
    assert backup.run_daily(engine=engine, now=NIGHT + timedelta(days=1), holder="b") is not None
    assert len(_rows(session)) == 2


def test_a_failed_backup_is_recorded_as_failed_and_leaves_nothing_that_looks_complete(
    session, engine, tmp_path
):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the folder should be")
    with pytest.raises(backup.BackupError) as failed:
        backup.make_backup(engine=engine, target=str(blocked), now=NOW)
    assert failed.value.code == "failed"
    (row,) = _rows(session)
    assert row.status == "failed" and row.finished_at is not None
    assert row.error and "not-a-folder" in row.error

    class BrokenStorage(storage.LocalStorage):
        """A disk that fails half-way through the images."""

        def read(self, path: str) -> bytes | None:
            if path.endswith("2.webp"):
                raise OSError(5, "Input/output error")
            return super().read(path)

    broken = BrokenStorage(tmp_path / "media")
    for n in (1, 2, 3):
        broken.put(f"services/{n}.webp", PHOTO, content_type="image/webp", overwrite=False)
    previous = storage.use_backend(broken)
    try:
        with pytest.raises(backup.BackupError):
            backup.make_backup(engine=engine, target=str(tmp_path / "backups"), now=NOW)
    finally:
        storage.use_backend(previous)
    assert [r.status for r in _rows(session)] == ["failed", "failed"]
    assert "Input/output error" in _rows(session)[1].error
    assert list((tmp_path / "backups").iterdir()) == []  # the partial folder is gone


def test_backups_beyond_backup_keep_are_removed(
    session, engine, local_media, tmp_path, monkeypatch
):
    monkeypatch.setattr(get_settings(), "backup_keep", 2)
    target = str(tmp_path / "backups")
    made = [
        backup.make_backup(engine=engine, target=target, now=NOW + timedelta(hours=n)).location
        for n in range(3)
    ]
    kept = backup.finished_backups(backup.parse_target(target))
    assert kept == [Path(m).name for m in made[1:]]


def _admin(session: Session, role: str = "admin") -> str:
    user = User(email=f"{role}-{uuid.uuid4().hex[:6]}@example.com", role=role)
    session.add(user)
    session.commit()
    return str(user.id)


def _last_backup(session: Session, admin: str, now: datetime) -> tuple[bool, str]:
    session.commit()  # a fresh read, as each dashboard load is
    checks = dashboard.system_status(session=session, actor_id=admin, now=now)
    return next((c.ok, c.detail) for c in checks if c.name == "Last Backup")


def test_system_status_shows_the_last_backup(session, engine, local_media, tmp_path, monkeypatch):
    admin = _admin(session)
    settings = get_settings()
    monkeypatch.setattr(settings, "backup_url", None)
    monkeypatch.setattr(settings, "backup_dir", None)
    assert _last_backup(session, admin, NOW) == (False, "Not configured")
    _daily(session)
    assert _last_backup(session, admin, NOW) == (False, "No backup yet")

    backup.make_backup(engine=engine, target=str(tmp_path / "backups"), now=NIGHT)
    (row,) = _rows(session)
    finished = row.finished_at
    when = finished.astimezone(dashboard.dates.business_zone()).strftime("%d.%m.%Y %H:%M")
    assert _last_backup(session, admin, finished + timedelta(hours=1)) == (True, when)
    assert _last_backup(session, admin, finished + timedelta(hours=37)) == (
        False,
        f"{when} (more than 36 hours ago)",
    )

    blocked = tmp_path / "full-disk"
    blocked.write_text("")
    with pytest.raises(backup.BackupError):
        backup.make_backup(engine=engine, target=str(blocked), now=NIGHT + timedelta(days=1))
    ok, detail = _last_backup(session, admin, NIGHT + timedelta(days=1, hours=1))
    assert not ok
    assert detail.startswith("Failed 03.06.2026 03:10: ")
    assert "full-disk" in detail and detail.endswith(f"; the last good one {when}")


def test_the_daily_setting_is_for_admins_and_audited(session):
    admin, user = _admin(session), _admin(session, "user")
    with pytest.raises(backup.BackupError) as refused:
        backup.set_daily(session=session, actor_id=user, daily=True)
    assert refused.value.code == "not_allowed"
    with pytest.raises(backup.BackupError):
        backup.daily_setting(session=session, actor_id=user)

    backup.set_daily(session=session, actor_id=admin, daily=True)
    session.commit()
    setting = backup.daily_setting(session=session, actor_id=admin)
    assert setting.daily and setting.target == get_settings().backup_target
    (entry,) = session.exec(select(AuditLog)).all()
    assert (entry.action, entry.entity_type, str(entry.actor_user_id)) == (
        "settings_update",
        "settings",
        admin,
    )
    assert entry.details["after"]["backup_daily"] is True
