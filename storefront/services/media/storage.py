"""Where images and other files live (docs/architecture.md §7; docs/product.md §3, 7, 8, 9): a local
folder served under the
media route, or an S3-compatible bucket, chosen once from `STORAGE_BACKEND`.

Images from users go through `save_image`, whose checks (services/media/images.py, apart from the
backends here) trust nothing the browser said:

- size per kind (service and banner 5 MB, avatar 2 MB), before anything is parsed;
- type by content (the file's first bytes): JPEG, PNG, WebP and GIF only; SVG and every other
  type are refused without running any other decoder;
- pixel count from the header, before a single pixel is decoded (`MAX_PIXELS`; animations also
  `MAX_FRAMES` and `MAX_ANIMATION_PIXELS` over all frames), with Pillow's own decompression-bomb
  limit set to the same figure as a second line;
- every image is decoded and written anew (GIF stays GIF, its frames and timings kept; the rest
  becomes WebP, animated WebP/APNG keeping their frames), so trailing bytes, comments, EXIF
  (GPS included), XMP and colour profiles are gone; EXIF orientation is applied first and a
  colour profile is converted to sRGB, so the picture looks as it did;
- names are generated (`{uuid}.{ext}`, or the caller's `banner-{timestamp}`,
  `avatar-{userId}-{timestamp}`), and a stored name is never overwritten (the spec: no upsert).

A refusal raises `StorageError(code, message)` and stores nothing. Codes and the spec's words:
no_file 'No file provided', too_large 'File too large. Maximum size is {n}MB', not_image 'File
must be an image', bad_type 'File type not accepted. Please upload image/jpeg, image/png,
image/webp, image/gif', too_many_pixels. Storage failures are `unavailable` (or `exists`).

A user's upload goes through `save_upload`, which also keeps the account's bounds (issue 18,
finding 6): uploads per hour (`rate_limited`, counted before the re-encode, refusals
included), the account's quota of stored bytes (`quota_exceeded`), and a `stored_files` row
naming the owner and size. Such a file is removed again if its transaction does not commit.
A file a change stops pointing at is handed to `release`: its row goes with the transaction,
and the file only once that transaction has committed, unless a saved row still points at it.
`sweep_orphans` removes uploads no saved row points at once they are older than the grace.

The bucket of the S3 backend is created by the operator, with public read of its objects (a
bucket policy or a CDN in front, `S3_PUBLIC_URL`): the app never creates buckets, so its keys
need only put, get, head and delete object.
"""

from __future__ import annotations

import logging
import mimetypes
import os
import re
import threading
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal, Protocol
from urllib.parse import quote, unquote, urlsplit

from sqlalchemy import String, cast, event, func, or_
from sqlmodel import Session, col, select

from storefront.models import (
    BannerItem,
    Booking,
    Service,
    ServiceRevision,
    StoredUpload,
    User,
    utcnow,
)
from storefront.services import throttle
from storefront.services.media.images import (
    MAX_BYTES,
    MB,
    StorageError,
    reencode_image,
)
from storefront.settings import Settings, get_settings

# The narrower copies of a stored photo the media route makes (api/media.py, `?w=`) and pages
# offer in their srcset (components/photo.py).
RESIZED_WIDTHS = (240, 400, 640)

log = logging.getLogger(__name__)

# docs/product.md §3: the folders of the 'images' bucket.
BANNER_FOLDERS = (
    "banners",
    "banners/banner-weddings",
    "banners/banner-bouncers",
    "banners/banner-mascots",
    "banners/banner-tables",
)
SPEC_FOLDERS = (
    "services",
    "posts",
    "avatars",
    "venues",
    "decorations",
    "catering",
    *BANNER_FOLDERS,
)
# Also accepted: "galleries/<name>", the seeded photo galleries of the public pages, and
# "deliveries", the crews' photos of a job set up (services/operations/delivery.py).
FOLDERS = (*SPEC_FOLDERS, "galleries", "deliveries")
PLACEHOLDER = ".placeholder"

Kind = Literal["service", "banner", "avatar", "delivery"]
CACHE_CONTROL = "public, max-age=3600"  # docs/product.md §9: storage cache control 3600 s
_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$")
_SAFE_SEGMENT = re.compile(r"^[a-z0-9][a-z0-9-]{0,60}$")


@dataclass(frozen=True)
class StoredFile:
    path: str  # the key inside the storage, e.g. "services/<uuid>.webp"
    url: str  # what a browser fetches: "/media/services/..." or the bucket's public URL
    size: int = 0  # bytes stored


@dataclass
class FolderReport:
    """What `create_folders` did, folder by folder. The banners admin turns it into the spec's
    messages (docs/product.md §8): all created -> 'Successfully created all {n} banner folders in
    storage';
    some failed -> 'Created {n} folders, but {m} failed...'; none created -> 'Failed to create
    banner folders...'."""

    created: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Backends


class Backend(Protocol):
    def put(self, path: str, data: bytes, *, content_type: str, overwrite: bool) -> None: ...
    def delete(self, path: str) -> None: ...
    def exists(self, path: str) -> bool: ...
    def url(self, path: str) -> str: ...
    def resolve(self, path: str) -> Path | None: ...
    def make_folder(self, folder: str) -> None: ...
    def files(self) -> Iterator[tuple[str, int]]: ...
    def read(self, path: str) -> bytes | None: ...


def _unfinished(name: str) -> bool:
    """A local write still under way (`LocalStorage.put` writes `.{name}.{hex}.part` first)."""
    return name.startswith(".") and name.endswith(".part")


class LocalStorage:
    """A folder on this host, served by the media route (api/media.py)."""

    def __init__(self, root: Path, url_prefix: str = "/media") -> None:
        self.root = Path(root)
        self.url_prefix = url_prefix.rstrip("/")

    def put(self, path: str, data: bytes, *, content_type: str, overwrite: bool) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if not overwrite:
            try:
                with open(target, "xb") as file:  # fails when the name exists: no upsert
                    file.write(data)
            except FileExistsError as exc:
                raise StorageError("exists", f"A file is already stored at {path}") from exc
            except BaseException:
                target.unlink(missing_ok=True)
                raise
            return
        tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex}.part")
        try:
            tmp.write_bytes(data)
            tmp.replace(target)
        finally:
            tmp.unlink(missing_ok=True)

    def delete(self, path: str) -> None:
        (self.root / path).unlink(missing_ok=True)

    def exists(self, path: str) -> bool:
        return (self.root / path).is_file()

    def url(self, path: str) -> str:
        return f"{self.url_prefix}/{path}"

    def resolve(self, path: str) -> Path | None:
        root = self.root.resolve()
        target = (root / path).resolve()
        if root not in target.parents or not target.is_file():
            return None
        return target

    def make_folder(self, folder: str) -> None:
        (self.root / folder).mkdir(parents=True, exist_ok=True)

    def files(self) -> Iterator[tuple[str, int]]:
        """Every stored file (path, bytes), for the backup (services/operations/backup.py); writes still
        under way are not files yet."""
        if not self.root.is_dir():
            return
        for folder, _dirs, names in os.walk(self.root):
            for name in sorted(names):
                if _unfinished(name):
                    continue
                target = Path(folder) / name
                try:
                    size = target.stat().st_size
                except FileNotFoundError:  # removed meanwhile
                    continue
                yield target.relative_to(self.root).as_posix(), size

    def read(self, path: str) -> bytes | None:
        """A stored file's bytes; None when it is not there (removed meanwhile)."""
        try:
            return (self.root / path).read_bytes()
        except FileNotFoundError:
            return None


def s3_public_base(settings: Settings) -> str:
    """Where the bucket's objects are fetched by browsers: S3_PUBLIC_URL, else the endpoint
    with the bucket as the first path segment, else AWS's virtual-hosted address."""
    if settings.s3_public_url:
        return settings.s3_public_url.rstrip("/")
    if settings.s3_endpoint_url:
        return f"{settings.s3_endpoint_url.rstrip('/')}/{settings.s3_bucket}"
    return f"https://{settings.s3_bucket}.s3.{settings.s3_region}.amazonaws.com"


def image_origin(settings: Settings) -> str:
    """The origin stored images come from when it is not this site ('' for local storage):
    the Content-Security-Policy allows images from it."""
    if settings.storage_backend != "s3":
        return ""
    parts = urlsplit(s3_public_base(settings))
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


class S3Storage:
    """Any S3-compatible bucket (AWS, MinIO, R2, ...). Objects get their type and the spec's cache
    control; public reading is the bucket's business (see the module docstring)."""

    def __init__(
        self,
        *,
        bucket: str,
        public_base: str,
        endpoint_url: str | None = None,
        region: str = "us-east-1",
        access_key_id: str | None = None,
        secret_access_key: str | None = None,
    ) -> None:
        self.bucket = bucket
        self.public_base = public_base.rstrip("/")
        self._client_options = {
            "endpoint_url": endpoint_url,
            "region_name": region,
            "aws_access_key_id": access_key_id,
            "aws_secret_access_key": secret_access_key,
        }
        self._client: Any = None  # boto3 is imported only when the S3 backend is used
        self._lock = threading.Lock()

    @classmethod
    def from_settings(cls, settings: Settings) -> S3Storage:
        return cls(
            bucket=settings.s3_bucket,
            public_base=s3_public_base(settings),
            endpoint_url=settings.s3_endpoint_url,
            region=settings.s3_region,
            access_key_id=settings.s3_access_key_id,
            secret_access_key=settings.s3_secret_access_key,
        )

    @property
    def client(self) -> Any:
        with self._lock:
            if self._client is None:
                import boto3
                from botocore.config import Config

                path_style = (
                    {"addressing_style": "path"} if self._client_options["endpoint_url"] else {}
                )
                self._client = boto3.session.Session().client(
                    "s3",
                    config=Config(
                        connect_timeout=5,
                        read_timeout=30,
                        retries={"max_attempts": 3, "mode": "standard"},
                        s3=path_style,
                    ),
                    **self._client_options,
                )
            return self._client

    def _call(self, action: str, path: str, **kwargs):
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            return getattr(self.client, action)(Bucket=self.bucket, **kwargs)
        except ClientError as exc:
            code = str(exc.response.get("Error", {}).get("Code", ""))
            if code in ("PreconditionFailed", "412"):
                raise StorageError("exists", f"A file is already stored at {path}") from exc
            if code in ("404", "NoSuchKey", "NotFound") and action == "head_object":
                return None
            log.error("S3 %s of %s failed: %s", action, path, exc)
            raise StorageError("unavailable", "Storage is unavailable") from exc
        except BotoCoreError as exc:
            log.error("S3 %s of %s failed: %s", action, path, exc)
            raise StorageError("unavailable", "Storage is unavailable") from exc

    def put(self, path: str, data: bytes, *, content_type: str, overwrite: bool) -> None:
        extra = {} if overwrite else {"IfNoneMatch": "*"}  # no upsert: refused if it exists
        self._call(
            "put_object",
            path,
            Key=path,
            Body=data,
            ContentType=content_type,
            CacheControl=CACHE_CONTROL,
            **extra,
        )

    def delete(self, path: str) -> None:
        self._call("delete_object", path, Key=path)  # S3 answers 204 for a missing key too

    def exists(self, path: str) -> bool:
        return self._call("head_object", path, Key=path) is not None

    def url(self, path: str) -> str:
        return f"{self.public_base}/{quote(path)}"

    def resolve(self, path: str) -> Path | None:
        return None  # browsers fetch objects from the bucket, not through the media route

    def files(self) -> Iterator[tuple[str, int]]:
        """Every object of the bucket (key, bytes), for the backup (services/operations/backup.py)."""
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket):
                for item in page.get("Contents", []):
                    yield str(item["Key"]), int(item["Size"])
        except (BotoCoreError, ClientError) as exc:
            log.error("S3 listing of %s failed: %s", self.bucket, exc)
            raise StorageError("unavailable", "Storage is unavailable") from exc

    def read(self, path: str) -> bytes | None:
        """An object's bytes; None when it is not there (removed meanwhile)."""
        from botocore.exceptions import ClientError

        try:
            return self.client.get_object(Bucket=self.bucket, Key=path)["Body"].read()
        except ClientError as exc:
            if str(exc.response.get("Error", {}).get("Code", "")) in ("404", "NoSuchKey"):
                return None
            log.error("S3 get_object of %s failed: %s", path, exc)
            raise StorageError("unavailable", "Storage is unavailable") from exc

    def make_folder(self, folder: str) -> None:
        # A bucket has no folders: the spec's initialisation puts a .placeholder in each (upsert).
        self.put(f"{folder}/{PLACEHOLDER}", b"", content_type="text/plain", overwrite=True)


def backend_from_settings(settings: Settings) -> LocalStorage | S3Storage:
    if settings.storage_backend == "s3":
        return S3Storage.from_settings(settings)
    return LocalStorage(settings.media_dir, settings.media_url_prefix)


_backend: LocalStorage | S3Storage | None = None
_backend_lock = threading.Lock()


def backend() -> LocalStorage | S3Storage:
    """The storage of this process, chosen once from the settings."""
    global _backend
    with _backend_lock:
        if _backend is None:
            _backend = backend_from_settings(get_settings())
        return _backend


def use_backend(chosen: LocalStorage | S3Storage | None) -> LocalStorage | S3Storage | None:
    """Replace the storage of this process (tests, tools); None chooses from the settings again.
    Returns the one it replaced."""
    global _backend
    with _backend_lock:
        previous, _backend = _backend, chosen
    return previous


# ---------------------------------------------------------------------------------------------
# The API the rest of the app calls


def _check_folder(folder: str) -> None:
    if folder in FOLDERS:
        return
    top, _, rest = folder.partition("/")
    if top == "galleries" and _SAFE_SEGMENT.match(rest):
        return
    raise StorageError("bad_folder", f"Unknown storage folder: {folder}")


def _check_name(name: str) -> None:
    if not _SAFE_NAME.match(name):
        raise StorageError("bad_name", f"Unsafe file name: {name}")


def _split(path: str) -> tuple[str, str]:
    """A stored path's folder and name, both checked; StorageError otherwise."""
    folder, _, name = str(path).rpartition("/")
    _check_folder(folder)
    _check_name(name)
    return folder, name


def kind_of(folder: str) -> Kind:
    """The size class of a folder when the caller does not say: avatars, banners, the rest."""
    if folder == "avatars":
        return "avatar"
    if folder == "banners" or folder.startswith("banners/"):
        return "banner"
    return "service"


def save_image(
    folder: str,
    data: bytes,
    *,
    kind: Kind | None = None,
    name: str | None = None,
    max_bytes: int | None = None,
    max_side: int | None = None,
) -> StoredFile:
    """Check and store an uploaded image under `folder/{name or uuid}.{ext}`.

    `kind` sets the size cap (docs/product.md §9); without it the folder decides (`kind_of`).
    `max_bytes`
    may lower the cap, never raise it; `max_side` shrinks a still image to fit it. `name` is the caller's generated stem, e.g.
    `banner-{timestamp}` or `avatar-{userId}-{timestamp}`. Refusals raise StorageError and
    store nothing."""
    _check_folder(folder)
    kind = kind or kind_of(folder)
    if kind not in MAX_BYTES:
        raise ValueError(f"unknown image kind {kind!r}; one of {', '.join(MAX_BYTES)}")
    cap = MAX_BYTES[kind]
    if max_bytes is not None:
        cap = min(cap, max_bytes)
    stem = name or str(uuid.uuid4())
    _check_name(stem)
    clean, ext = reencode_image(data, max_bytes=cap, max_side=max_side)
    path = f"{folder}/{stem}.{ext}"
    _check_name(f"{stem}.{ext}")
    store = backend()
    store.put(path, clean, content_type=f"image/{ext}", overwrite=False)
    return StoredFile(path=path, url=store.url(path), size=len(clean))


def save_bytes(
    folder: str, name: str, data: bytes, *, content_type: str | None = None
) -> StoredFile:
    """Store bytes the app made itself (the seed's placeholders) under `folder/name`, replacing
    what is there. Never for uploads: those go through `save_image`."""
    _check_folder(folder)
    _check_name(name)
    path = f"{folder}/{name}"
    content_type = content_type or mimetypes.guess_type(name)[0] or "application/octet-stream"
    store = backend()
    store.put(path, data, content_type=content_type, overwrite=True)
    return StoredFile(path=path, url=store.url(path))


def delete(path: str) -> None:
    """Remove a stored file; removing one that is not there is not an error. A path outside
    the storage folders (a URL, say: see `path_from_url`) raises StorageError."""
    _split(path)
    backend().delete(path)


def exists(path: str) -> bool:
    _split(path)
    return backend().exists(path)


def public_url(path: str) -> str:
    return backend().url(path)


def path_from_url(url: str) -> str | None:
    """The stored path behind a URL this storage handed out, or None for any other URL (an
    image from elsewhere, a static asset)."""
    store = backend()
    base = store.url("")
    if not url or not url.startswith(base):
        return None
    path = unquote(url[len(base) :].split("?", 1)[0])
    try:
        _split(path)
    except StorageError:
        return None
    return path


def resolve(path: str) -> Path | None:
    """The local file behind a media path, or None when it is not a stored file (or the
    storage is not local)."""
    try:
        _split(path)
    except StorageError:
        return None
    return backend().resolve(path)


def media_root() -> Path:
    return get_settings().media_dir


def create_folders(folders: tuple[str, ...] = SPEC_FOLDERS) -> FolderReport:
    """The spec's folder initialisation: each folder is made (a directory, or a `.placeholder`
    object in a bucket, replaced if present); returns which were created and which failed.
    See FolderReport for the messages the spec shows."""
    report = FolderReport()
    store = backend()
    for folder in folders:
        try:
            _check_folder(folder)
            store.make_folder(folder)
        except (StorageError, OSError) as exc:
            log.error("could not create storage folder %s: %s", folder, exc)
            report.failed.append(folder)
        else:
            report.created.append(folder)
    return report


# ---------------------------------------------------------------------------------------------
# Users' uploads: who stored what, the account's bounds, deletion after commit, the sweep

MB_QUOTA_STEP = MB  # quotas are set in MB (settings.upload_quota_mb)
UPLOAD_WINDOW = timedelta(hours=1)
LIMIT_CODES = ("rate_limited", "quota_exceeded")  # the account's bounds: their words are ours
_PENDING = "storage_pending"


def upload_quota(role: str, settings: Settings | None = None) -> int | None:
    """The bytes an account of `role` may keep in storage; None: no quota."""
    settings = settings or get_settings()
    megabytes = settings.upload_quota_admin_mb if role == "admin" else settings.upload_quota_mb
    return None if megabytes is None else int(megabytes * MB_QUOTA_STEP)


def used_bytes(session: Session, owner_id: uuid.UUID) -> int:
    """What an account keeps in storage: its uploads, saved or not yet swept."""
    total = session.exec(
        select(func.coalesce(func.sum(StoredUpload.bytes), 0)).where(
            StoredUpload.owner_id == owner_id
        )
    ).one()
    return int(total or 0)


def _quota_refusal(quota: int) -> StorageError:
    return StorageError(
        "quota_exceeded",
        f"Storage limit reached. Your account can keep at most {quota / MB:g}MB of images; "
        "please remove some images first",
        max=quota,
    )


def _take_upload_turn(session: Session, owner: User, now: datetime) -> None:
    """Count one upload of the account (this commits the session's transaction so far)."""
    settings = get_settings()
    allowed = (
        settings.uploads_per_hour_admin if owner.role == "admin" else settings.uploads_per_hour
    )
    wait = throttle.take(
        session, [(f"upload:{owner.id}", throttle.Rule(allowed, UPLOAD_WINDOW))], now=now
    )
    if wait:
        minutes = max(1, round(wait / 60))
        raise StorageError(
            "rate_limited",
            f"Too many uploads. Please try again in {minutes} min.",
            retry_after=wait,
        )


def save_upload(
    session: Session,
    folder: str,
    data: bytes,
    *,
    owner: User,
    kind: Kind,
    name: str | None = None,
    max_bytes: int | None = None,
    draft: str | None = None,
    referenced: bool = False,
    now: datetime | None = None,
    max_side: int | None = None,
) -> StoredFile:
    """`save_image` for a user's upload, within the account's bounds: counted by the upload
    throttle first (so a refused or costly file counts too), then held to the account's quota,
    then stored and recorded in `stored_files` (owner, bytes, kind; `draft` names the unsaved
    form it belongs to, `referenced` that the caller's change points at it at once). If the
    transaction does not commit, the file is removed again. Commits what the session did
    before (the throttle's short transaction)."""
    now = now or utcnow()
    _take_upload_turn(session, owner, now)
    quota = upload_quota(owner.role)
    used = used_bytes(session, owner.id) if quota is not None else 0
    if quota is not None and used >= quota:
        raise _quota_refusal(quota)  # refused before any decoding
    stored = save_image(folder, data, kind=kind, name=name, max_bytes=max_bytes, max_side=max_side)
    if quota is not None and used + stored.size > quota:
        _remove_files([stored.path])
        raise _quota_refusal(quota)
    session.add(
        StoredUpload(
            path=stored.path,
            owner_id=owner.id,
            kind=kind,
            bytes=stored.size,
            referenced=referenced,
            draft=draft,
            created_at=now,
        )
    )
    _pending(session)["rollback"].add(stored.path)
    session.flush()
    return stored


def _pending(session: Session) -> dict[str, set[str]]:
    """What to do with stored files when the session's transaction ends: "release" is checked
    just before a commit, "commit" removed after it (what the change stopped pointing at),
    "rollback" removed after a rollback (what it stored)."""
    pending = session.info.get(_PENDING)
    if pending is None:
        pending = session.info[_PENDING] = {"release": set(), "commit": set(), "rollback": set()}
        event.listen(session, "before_commit", _before_commit)
        event.listen(session, "after_commit", _after_commit)
        event.listen(session, "after_soft_rollback", _after_rollback)
    return pending


def _before_commit(session: Session) -> None:
    """The released files no saved row points at once the change is complete lose their row
    in this transaction; their files are removed after it commits."""
    pending = session.info.get(_PENDING)
    if not pending or not pending["release"]:
        return
    candidates, pending["release"] = pending["release"], set()
    session.flush()
    gone = candidates - pointed_at(session, candidates)
    for path in gone:
        row = session.get(StoredUpload, path)
        if row is not None:
            session.delete(row)
    pending["commit"].update(gone)


def _after_commit(session: Session) -> None:
    pending = session.info.get(_PENDING)
    if pending:
        paths, pending["commit"] = pending["commit"], set()
        pending["rollback"] = set()
        _remove_files(paths)


def _after_rollback(session: Session, previous_transaction) -> None:
    pending = session.info.get(_PENDING)
    if pending and previous_transaction.parent is None:  # the outermost one, not a savepoint
        paths, pending["rollback"] = pending["rollback"], set()
        pending["commit"], pending["release"] = set(), set()
        _remove_files(paths)


def _remove_files(paths: Iterable[str]) -> None:
    """Remove stored files; one that cannot be removed is only logged (the sweep retries
    what still has a row)."""
    for path in sorted(paths):
        try:
            delete(path)
        except Exception:
            log.warning("could not remove the stored file %s", path, exc_info=True)


def _image_paths(images: object) -> set[str]:
    if not isinstance(images, list):
        return set()
    return {str(i["path"]) for i in images if isinstance(i, dict) and i.get("path")}


def pointed_at(session: Session, paths: Iterable[str] | None = None) -> set[str]:
    """The stored paths saved rows point at: a service's or a pending revision's images, a
    banner item's image, an avatar, a booking's delivery photo. Only those among `paths` when given (else all)."""
    wanted = None if paths is None else set(paths)
    if wanted is not None and not wanted:
        return set()
    found: set[str] = set()

    def _json_rows(column):
        query = select(column)
        if wanted is not None:
            text = cast(column, String)
            query = query.where(or_(*(text.contains(path) for path in wanted)))
        return session.exec(query).all()

    photos = select(Booking.set_up_photo).where(col(Booking.set_up_photo).is_not(None))
    if wanted is not None:
        photos = photos.where(col(Booking.set_up_photo).in_(wanted))
    found |= {path for path in session.exec(photos).all() if path}
    for images in _json_rows(Service.images):
        found |= _image_paths(images)
    for values in _json_rows(ServiceRevision.values):
        found |= _image_paths((values or {}).get("images") if isinstance(values, dict) else None)
    store = backend()
    urls = None if wanted is None else [store.url(path) for path in wanted]
    for column in (BannerItem.image_url, User.avatar_url):
        query = select(column).where(col(column).is_not(None))
        if urls is not None:
            query = query.where(col(column).in_(urls))
        for url in session.exec(query).all():
            path = path_from_url(url)
            if path:
                found.add(path)
    return found if wanted is None else found & wanted


def claim(session: Session, paths: Iterable[str]) -> None:
    """A saved row now points at these uploads: they are no longer a form's pending files."""
    for path in set(paths):
        row = session.get(StoredUpload, path)
        if row is not None and (not row.referenced or row.draft is not None):
            row.referenced, row.draft = True, None
            session.add(row)


def release(session: Session, paths: Iterable[str]) -> None:
    """The change in `session` stops pointing at these stored files. When it commits, those no
    saved row points at any more (checked just before the commit, so the order of the
    change's steps does not matter) lose their `stored_files` row in the same transaction and
    are removed from storage once it has committed. A rollback removes nothing."""
    candidates = {str(p) for p in paths if p}
    if candidates:
        _pending(session)["release"].update(candidates)


def orphan_grace(settings: Settings | None = None) -> timedelta:
    return timedelta(hours=(settings or get_settings()).upload_orphan_grace_hours)


def sweep_orphans(*, session: Session, now: datetime) -> int:
    """Remove the uploads no saved row points at that are older than the grace period
    (`UPLOAD_ORPHAN_GRACE_HOURS`: an upload on a form not saved yet is kept meanwhile). Their
    rows go in the caller's transaction, the files once it has committed. Rows a saved row
    points at are marked referenced. Returns how many were removed."""
    rows = session.exec(
        select(StoredUpload).where(col(StoredUpload.created_at) < now - orphan_grace())
    ).all()
    if not rows:
        return 0
    alive = pointed_at(session)
    gone = set()
    for row in rows:
        if row.path in alive:
            if not row.referenced:
                row.referenced, row.draft = True, None
                session.add(row)
            continue
        session.delete(row)
        gone.add(row.path)
    session.flush()
    if gone:
        _pending(session)["commit"].update(gone)
        log.info("orphan sweep: %d stored files no row points at", len(gone))
    return len(gone)
