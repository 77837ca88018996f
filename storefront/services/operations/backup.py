"""Backups (issue 22, item 7; docs/operations.md, 'Backups'): the database and images, written to
a folder or an S3 bucket, and put back into an empty database.

A backup is a folder (or a prefix of keys) named `backup-{UTC time}-{id}` holding:
- the database: `database.sqlite3`, a copy made with SQLite's online backup API (consistent
  while the app writes), or `database.pgdump`, `pg_dump`'s custom format;
- `images/<path>`: every file of the image storage (local folder or bucket), as stored;
- `manifest.json`, written last: the alembic revision, the rows of every table, every image
  with its size and SHA-256, signed (HMAC-SHA256 with a key derived from SECRETS_KEY, else
  SECRET_KEY: services/sealed.derive_key). A backup without it did not finish and is never
  restored; in a folder the backup is written under `.{name}.partial` and renamed once its
  manifest is in.

The copy holds password and session hashes and the sealed TOTP secrets (issue 33, finding 3):
in a folder, every folder is 0700 and every file 0600 whatever the umask; in a bucket, never
the images bucket (public), nor a bucket whose policy or ACL lets anyone read (objects are put
with no ACL: their owner's alone). Only what the app stores goes in: images of its types, by
name and by content (`stored_type`); anything else in the storage is left out and named in the
manifest's `images.skipped`.

The rows counted and the database copied are the same moment: SQLite's copy is counted, and on
PostgreSQL `pg_dump` reads the snapshot of the transaction that counts
(`pg_export_snapshot`). The images are copied after the database, so every image the copied
rows point at was there (unless removed in between: a file gone while copying is left out and
named in the manifest's `images.missing`).

Every backup is a row of `backups` (running, then done or failed with the error), which the
dashboard's System Status reads. The daily backup (BusinessSettings.backup_daily) runs once per
day for the whole cluster: every worker asks, from BACKUP_HOUR local time on, for the lease
`backup-daily` (services/housekeeping.take_lease), which the first taker holds until the next
day's hour.

`restore` puts a backup back into an empty database (one whose tables hold no rows beyond what
migrations and a running app write by themselves, `BOOKKEEPING_TABLES`), or over anything with
`force`. It refuses a manifest whose signature fails (changed, unsigned, or signed with another
key) and, before anything is restored, any file that does not match its checksum or any image
whose name or content is not an image type the app stores; it checks the restored rows against
the manifest's counts, then puts the images back into the configured storage."""

from __future__ import annotations

import asyncio
import errno
import fnmatch
import hashlib
import hmac
import json
import logging
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from datetime import time as clock_time
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO, Protocol
from urllib.parse import urlsplit

from sqlalchemy import inspect, text, update
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Session, col, select

from storefront.db import error_summary, get_engine, is_outage, session_scope
from storefront.models import BusinessSettings, utcnow
from storefront.models.operations import Backup
from storefront.services import business, dates, permissions
from storefront.services.accounts import sealed
from storefront.services.errors import ServiceError
from storefront.services.media import storage
from storefront.services.media.images import StorageError, sniff
from storefront.services.operations.housekeeping import take_lease
from storefront.settings import PROJECT_ROOT, get_settings

log = logging.getLogger(__name__)

FORMAT = 2  # 2: the manifest is signed
MANIFEST = "manifest.json"
SQLITE_FILE = "database.sqlite3"
POSTGRES_FILE = "database.pgdump"
IMAGES = "images"
NAME_PREFIX = "backup-"
PARTIAL = ".partial"
# Rows a database has before anyone used it (the migrations' own, a running worker's lease):
# restore's emptiness check does not count them.
BOOKKEEPING_TABLES = frozenset({"alembic_version", "cache_versions", "housekeeping_leases"})
DAILY_LEASE = "backup-daily"
# From BACKUP_HOUR on, this long: a worker (re)started a little later still makes the day's.
DAILY_WINDOW = timedelta(hours=3)
POLL_SECONDS = 60.0
COMMAND_TIMEOUT_SECONDS = 6 * 3600
FOLDER_MODE = 0o700
FILE_MODE = 0o600
SIGNATURE = "signature"
SIGNATURE_SCHEME = "hmac-sha256"
MANIFEST_PURPOSE = b"backup-manifest/v1"  # the HKDF info of the manifest's signing key
# Grantees of a bucket ACL that mean anyone (with or without an AWS account).
PUBLIC_GRANTEES = frozenset(
    {
        "http://acs.amazonaws.com/groups/global/AllUsers",
        "http://acs.amazonaws.com/groups/global/AuthenticatedUsers",
    }
)
# The image types the app stores (services/media/images.py: JPEG, PNG, WebP and GIF, by content),
# by the extension a stored name ends with.
IMAGE_EXTENSIONS = {"webp": "WEBP", "gif": "GIF", "png": "PNG", "jpg": "JPEG", "jpeg": "JPEG"}


class BackupError(ServiceError):
    """Codes: the admin checks, and what `make backup` / `make restore` say."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "bad_target": "Backups go to a folder or to s3://bucket/prefix",
        "public_bucket": "Backups never go to a bucket anyone can read",
        "forged": "The backup's manifest is not signed with this site's key",
        "not_image": "The backup holds a file that is not an image the app stores",
        "failed": "The backup failed",
        "incomplete": "This is not a finished backup (it has no manifest.json)",
        "unknown_format": "This backup was written in a format this version does not read",
        "newer": "This backup comes from a newer version of the app",
        "other_backend": "This backup is of another kind of database",
        "not_empty": "The database holds data",
        "damaged": "The backup does not match its manifest",
        "tool_missing": "A PostgreSQL tool is missing",
        "tool_failed": "A PostgreSQL tool failed",
    }


# --- where backups go -----------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    """A folder on this host, or a bucket and a key prefix."""

    folder: Path | None = None
    bucket: str = ""
    prefix: str = ""

    def __str__(self) -> str:
        if self.folder is not None:
            return str(self.folder)
        return f"s3://{self.bucket}/{self.prefix}".rstrip("/")

    def key(self, *parts: str) -> str:
        return "/".join(p for p in (self.prefix, *parts) if p)


def parse_target(location: str) -> Target:
    """'s3://bucket/prefix' or a folder's path (a relative one from the current folder)."""
    location = str(location).strip()
    if not location:
        raise BackupError("bad_target")
    parts = urlsplit(location)
    if parts.scheme == "s3":
        if not parts.netloc:
            raise BackupError("bad_target", f"No bucket in {location!r}: s3://bucket/prefix")
        return Target(bucket=parts.netloc, prefix=parts.path.strip("/"))
    if parts.scheme not in ("", "file") or (parts.scheme == "" and "://" in location):
        raise BackupError("bad_target", f"{location!r}: backups go to a folder or s3://bucket/…")
    return Target(
        folder=Path(parts.path if parts.scheme == "file" else location).expanduser().absolute()
    )


def configured_target() -> Target:
    return parse_target(get_settings().backup_target)


def _bucket_client(bucket: str) -> Any:
    """A client of the backup bucket, with the image storage's S3 endpoint, region and keys."""
    settings = get_settings()
    return storage.S3Storage(
        bucket=bucket,
        public_base="",
        endpoint_url=settings.s3_endpoint_url,
        region=settings.s3_region,
        access_key_id=settings.s3_access_key_id,
        secret_access_key=settings.s3_secret_access_key,
    ).client


class Writer(Protocol):
    location: str

    def put_file(self, name: str, source: Path) -> None: ...
    def put_bytes(self, name: str, data: bytes) -> None: ...
    def commit(self, manifest: bytes) -> None: ...
    def abort(self) -> None: ...


def _private_folder(path: Path) -> None:
    """`path` and whichever of its parents are missing, each made FOLDER_MODE whatever the
    umask (folders that exist are left as they are)."""
    missing = []
    while not path.exists() and path != path.parent:
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        folder.mkdir(mode=FOLDER_MODE, exist_ok=True)
        os.chmod(folder, FOLDER_MODE)  # mkdir's mode is cut by the umask
    if not path.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "Not a directory", str(path))


def _private_file(path: Path) -> BinaryIO:
    """A new file, FILE_MODE whatever the umask, open for writing (never through a link)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags, FILE_MODE)
    os.fchmod(descriptor, FILE_MODE)
    return os.fdopen(descriptor, "wb")


class FolderWriter:
    """Writes under `.{name}.partial` and renames it to `name` once the manifest is in; every
    folder FOLDER_MODE, every file FILE_MODE."""

    def __init__(self, root: Path, name: str) -> None:
        _private_folder(root)
        self.final = root / name
        self.work = root / f".{name}{PARTIAL}"
        self.work.mkdir(mode=FOLDER_MODE)
        os.chmod(self.work, FOLDER_MODE)
        self.location = str(self.final)

    def _path(self, name: str) -> Path:
        path = self.work / _safe_relative(name)
        _private_folder(path.parent)
        return path

    def put_file(self, name: str, source: Path) -> None:
        with open(source, "rb") as copied, _private_file(self._path(name)) as copy:
            shutil.copyfileobj(copied, copy, 1 << 20)

    def put_bytes(self, name: str, data: bytes) -> None:
        with _private_file(self._path(name)) as file:
            file.write(data)

    def commit(self, manifest: bytes) -> None:
        with _private_file(self._path(MANIFEST)) as file:
            file.write(manifest)
            file.flush()
            os.fsync(file.fileno())
        os.rename(self.work, self.final)

    def abort(self) -> None:
        shutil.rmtree(self.work, ignore_errors=True)


def _as_list(value: object) -> list:
    return value if isinstance(value, list) else [value]


def _missing_check(bucket: str, what: str, exc: Exception) -> None:
    log.warning(
        "backup: could not read the %s of bucket %s (%s): not checked whether anyone can read "
        "it (give the backup's keys s3:GetBucketPolicy and s3:GetBucketAcl)",
        what,
        bucket,
        exc,
    )


def _policy_lets_anyone_read(client: Any, bucket: str) -> bool:
    """Whether the bucket's policy allows anyone (Principal '*') to get objects, without a
    condition."""
    from botocore.exceptions import ClientError

    try:
        policy = json.loads(client.get_bucket_policy(Bucket=bucket)["Policy"])
    except ClientError as exc:
        if str(exc.response.get("Error", {}).get("Code", "")) != "NoSuchBucketPolicy":
            _missing_check(bucket, "policy", exc)
        return False
    for statement in _as_list(policy.get("Statement", [])):
        if not isinstance(statement, dict) or statement.get("Effect") != "Allow":
            continue
        if "Condition" in statement:
            continue
        principal = statement.get("Principal")
        anyone = principal == "*" or (
            isinstance(principal, dict) and "*" in _as_list(principal.get("AWS"))
        )
        actions = [str(a).lower() for a in _as_list(statement.get("Action", []))]
        if anyone and any(fnmatch.fnmatchcase("s3:getobject", a) for a in actions):
            return True
    return False


def _acl_lets_anyone_in(client: Any, bucket: str) -> bool:
    from botocore.exceptions import ClientError

    try:
        grants = client.get_bucket_acl(Bucket=bucket).get("Grants", [])
    except ClientError as exc:
        _missing_check(bucket, "ACL", exc)
        return False
    return any(g.get("Grantee", {}).get("URI") in PUBLIC_GRANTEES for g in grants)


def _refuse_public_bucket(client: Any, bucket: str) -> None:
    """A backup holds password hashes and sealed secrets: never in the images bucket, nor in
    a bucket whose policy or ACL lets anyone read it."""
    if get_settings().is_images_bucket(bucket):
        raise BackupError(
            "public_bucket",
            f"s3://{bucket} is the images bucket (S3_BUCKET), which anyone can read: backups go "
            "to a private bucket of their own",
        )
    if _policy_lets_anyone_read(client, bucket) or _acl_lets_anyone_in(client, bucket):
        raise BackupError(
            "public_bucket",
            f"The bucket {bucket!r} lets anyone read its objects (its policy or ACL): backups "
            "go to a private bucket",
        )


class BucketWriter:
    """Writes objects under `prefix/name/`; `manifest.json` is the last one put. Refuses a
    bucket anyone can read; the objects are put with no ACL (their owner's alone)."""

    def __init__(self, target: Target, name: str) -> None:
        self.client = _bucket_client(target.bucket)
        _refuse_public_bucket(self.client, target.bucket)
        self.bucket = target.bucket
        self.base = target.key(name)
        self.location = f"s3://{self.bucket}/{self.base}"
        self.written: list[str] = []

    def _key(self, name: str) -> str:
        key = f"{self.base}/{_safe_relative(name).as_posix()}"
        self.written.append(key)
        return key

    def put_file(self, name: str, source: Path) -> None:
        self.client.upload_file(str(source), self.bucket, self._key(name))

    def put_bytes(self, name: str, data: bytes) -> None:
        self.client.put_object(Bucket=self.bucket, Key=self._key(name), Body=data)

    def commit(self, manifest: bytes) -> None:
        self.put_bytes(MANIFEST, manifest)

    def abort(self) -> None:
        for key in self.written:
            try:
                self.client.delete_object(Bucket=self.bucket, Key=key)
            except Exception:
                log.warning("backup: could not remove %s from the bucket", key, exc_info=True)


def _writer(target: Target, name: str) -> Writer:
    if target.folder is not None:
        return FolderWriter(target.folder, name)
    return BucketWriter(target, name)


class Reader(Protocol):
    location: str

    def read(self, name: str) -> bytes | None: ...
    def fetch(self, name: str, dest: Path) -> None: ...


class FolderReader:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.location = str(folder)

    def read(self, name: str) -> bytes | None:
        try:
            return (self.folder / _safe_relative(name)).read_bytes()
        except FileNotFoundError:
            return None

    def fetch(self, name: str, dest: Path) -> None:
        shutil.copyfile(self.folder / _safe_relative(name), dest)


class BucketReader:
    def __init__(self, target: Target) -> None:
        self.client = _bucket_client(target.bucket)
        self.bucket = target.bucket
        self.base = target.prefix
        self.location = str(target)

    def _key(self, name: str) -> str:
        return "/".join(p for p in (self.base, _safe_relative(name).as_posix()) if p)

    def read(self, name: str) -> bytes | None:
        from botocore.exceptions import ClientError

        try:
            answer = self.client.get_object(Bucket=self.bucket, Key=self._key(name))
        except ClientError as exc:
            if str(exc.response.get("Error", {}).get("Code", "")) in ("404", "NoSuchKey"):
                return None
            raise
        return answer["Body"].read()

    def fetch(self, name: str, dest: Path) -> None:
        self.client.download_file(self.bucket, self._key(name), str(dest))


def _reader(location: str) -> Reader:
    target = parse_target(location)
    if target.folder is not None:
        return FolderReader(target.folder)
    return BucketReader(target)


def _safe_relative(name: str) -> PurePosixPath:
    """A path inside a backup, from a manifest that may have been tampered with: relative, no
    '..', no empty or hidden-dot segments."""
    path = PurePosixPath(name)
    if path.is_absolute() or not path.parts or any(p in ("", ".", "..") for p in path.parts):
        raise BackupError("damaged", f"A path in the backup is not acceptable: {name!r}")
    return path


# --- making a backup ------------------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    id: uuid.UUID
    location: str
    size_bytes: int
    tables: dict[str, int]
    images: int


@dataclass(frozen=True)
class DatabaseCopy:
    file_name: str
    path: Path
    revision: str | None
    tables: dict[str, int]


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for chunk in iter(lambda: file.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _sqlite_path(engine: Engine) -> Path:
    database = engine.url.database
    if not database or database == ":memory:":
        raise BackupError("bad_target", "An in-memory SQLite database cannot be backed up")
    return Path(database)


def _sqlite_counts(connection: sqlite3.Connection) -> tuple[str | None, dict[str, int]]:
    names = [
        row[0]
        for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
    ]
    tables = {n: connection.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in names}
    revision = None
    if "alembic_version" in tables:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
        revision = row[0] if row else None
    return revision, tables


def _copy_sqlite(engine: Engine, scratch: Path) -> DatabaseCopy:
    """SQLite's online backup API, in one step: the copy is one consistent moment, and the
    app's writers go on meanwhile (WAL)."""
    dest = scratch / SQLITE_FILE
    source = sqlite3.connect(_sqlite_path(engine), timeout=30)
    copy = sqlite3.connect(dest)
    try:
        source.backup(copy)
        revision, tables = _sqlite_counts(copy)
    finally:
        copy.close()
        source.close()
    return DatabaseCopy(SQLITE_FILE, dest, revision, tables)


def _libpq(engine: Engine) -> tuple[str, dict[str, str]]:
    """The database's libpq address for pg_dump and pg_restore, and an environment with its
    password (kept off the command line, where `ps` would show it)."""
    url = engine.url
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    address = url.set(drivername="postgresql", password=None).render_as_string(hide_password=False)
    return address, env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if not found:
        raise BackupError(
            "tool_missing", f"{name} is not installed (Debian: apt-get install postgresql-client)"
        )
    return found


def _run(command: list[str], env: dict[str, str]) -> None:
    done = subprocess.run(
        command, env=env, capture_output=True, text=True, timeout=COMMAND_TIMEOUT_SECONDS
    )
    if done.returncode != 0:
        lines = [line for line in (done.stderr or "").strip().splitlines() if line.strip()]
        raise BackupError(
            "tool_failed",
            f"{Path(command[0]).name} failed: {lines[-1] if lines else f'exit {done.returncode}'}",
        )


def _postgres_counts(connection: Connection) -> tuple[str | None, dict[str, int]]:
    names = connection.exec_driver_sql(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename"
    ).scalars()
    tables = {
        n: int(connection.exec_driver_sql(f'SELECT count(*) FROM "{n}"').scalar_one())
        for n in list(names)
    }
    revision = None
    if "alembic_version" in tables:
        revision = connection.exec_driver_sql(
            "SELECT version_num FROM alembic_version"
        ).scalar_one_or_none()
    return revision, tables


def _dump_postgres(engine: Engine, scratch: Path) -> DatabaseCopy:
    """`pg_dump` (custom format) of the snapshot this transaction exported, counted in it."""
    dest = scratch / POSTGRES_FILE
    address, env = _libpq(engine)
    pg_dump = _tool("pg_dump")
    with engine.connect().execution_options(isolation_level="REPEATABLE READ") as connection:
        with connection.begin():
            snapshot = connection.exec_driver_sql("SELECT pg_export_snapshot()").scalar_one()
            revision, tables = _postgres_counts(connection)
            _run(
                [
                    pg_dump,
                    "--format=custom",
                    "--no-owner",
                    "--no-privileges",
                    f"--snapshot={snapshot}",
                    f"--file={dest}",
                    f"--dbname={address}",
                ],
                env,
            )
    return DatabaseCopy(POSTGRES_FILE, dest, revision, tables)


def _copy_database(engine: Engine, scratch: Path) -> DatabaseCopy:
    if engine.dialect.name == "sqlite":
        return _copy_sqlite(engine, scratch)
    return _dump_postgres(engine, scratch)


def stored_type(path: str, data: bytes) -> str | None:
    """The content type the app stores `path` with when it is a file the app stores: in one of
    the storage's folders, under a name the storage accepts, an image of an accepted type whose
    content is the type its extension says; or a folder's empty placeholder (a bucket's
    folders). None for anything else: restore puts nothing else into storage, where a page or a
    script would be served to visitors."""
    folder, _, name = str(path).rpartition("/")
    try:
        if name == storage.PLACEHOLDER:
            storage._check_folder(folder)  # the storage's own rules for its paths
            return "text/plain" if not data else None
        storage._split(path)
    except StorageError:
        return None
    found = sniff(data)
    if found is None or IMAGE_EXTENSIONS.get(name.rpartition(".")[2].lower()) != found:
        return None
    return f"image/{found.lower()}"


def _copy_images(writer: Writer, skip: Path | None) -> tuple[list[dict], list[str], list[str]]:
    """Every stored image into `images/`; returns the manifest's entries, the files that went
    away while copying, and the files left out as not images the app stores (`stored_type`:
    restore would refuse them)."""
    store = storage.backend()
    skip_prefix = None
    if skip is not None and isinstance(store, storage.LocalStorage):
        try:  # a backup folder inside the media folder is not an image
            skip_prefix = skip.resolve().relative_to(store.root.resolve()).as_posix() + "/"
        except ValueError:
            skip_prefix = None
    entries, missing, skipped = [], [], []
    for path, _size in sorted(store.files()):
        if skip_prefix and path.startswith(skip_prefix):
            continue
        data = store.read(path)
        if data is None:
            missing.append(path)
            continue
        if stored_type(path, data) is None:
            skipped.append(path)
            continue
        writer.put_bytes(f"{IMAGES}/{path}", data)
        entries.append({"path": path, "bytes": len(data), "sha256": _sha256(data)})
    if skipped:
        log.warning(
            "backup: left out %d files of the storage that are not images the app stores: %s",
            len(skipped),
            ", ".join(skipped[:20]),
        )
    return entries, missing, skipped


def _start(engine: Engine, trigger: str, location: str, now: datetime) -> Backup:
    with session_scope(engine) as session:
        row = Backup(started_at=now, trigger=trigger, location=location[:1024], status="running")
        session.add(row)
    return row


def _finish(engine: Engine, backup_id: uuid.UUID, **values: Any) -> None:
    with session_scope(engine) as session:
        session.exec(update(Backup).where(col(Backup.id) == backup_id).values(**values))


def make_backup(
    *,
    engine: Engine | None = None,
    target: str | None = None,
    trigger: str = "manual",
    now: datetime | None = None,
) -> Result:
    """Back up the database and the stored images to `target` (the configured one when None);
    recorded in `backups`. A failure removes what was written, records the error and raises
    BackupError('failed')."""
    engine = engine or get_engine()
    now = now or utcnow()
    chosen = parse_target(target) if target else configured_target()
    clock = time.monotonic()

    def finished_at() -> datetime:  # `now` plus the time taken, so a given `now` is kept
        return now + timedelta(seconds=time.monotonic() - clock)

    row = _start(engine, trigger, str(chosen), now)
    name = f"{NAME_PREFIX}{now:%Y%m%dT%H%M%SZ}-{row.id.hex[:8]}"
    writer: Writer | None = None
    try:
        writer = _writer(chosen, name)
        with tempfile.TemporaryDirectory(prefix="storefront-backup-") as scratch:
            database = _copy_database(engine, Path(scratch))
            database_bytes = database.path.stat().st_size
            database_sha = _file_sha256(database.path)
            writer.put_file(database.file_name, database.path)
        images, missing, skipped = _copy_images(writer, chosen.folder)
        finished = finished_at()
        manifest = {
            "format": FORMAT,
            "id": str(row.id),
            "name": name,
            "trigger": trigger,
            "started_at": now.isoformat(),
            "finished_at": finished.isoformat(),
            "database": {
                "backend": engine.dialect.name,
                "file": database.file_name,
                "bytes": database_bytes,
                "sha256": database_sha,
                "alembic_revision": database.revision,
                "tables": database.tables,
            },
            "images": {
                "storage": get_settings().storage_backend,
                "count": len(images),
                "bytes": sum(i["bytes"] for i in images),
                "files": images,
                "missing": missing,
                "skipped": skipped,
            },
        }
        body = json.dumps(sign_manifest(manifest), indent=2, sort_keys=True).encode()
        writer.commit(body)
    except BaseException as exc:
        if writer is not None:
            writer.abort()
        reason = exc.message if isinstance(exc, ServiceError) else error_summary(exc)
        _finish(engine, row.id, status="failed", finished_at=finished_at(), error=reason[:2000])
        log.error("backup to %s failed: %s", chosen, reason)
        if not isinstance(exc, Exception):
            raise
        raise BackupError("failed", f"The backup failed: {reason}") from exc
    size = database_bytes + manifest["images"]["bytes"] + len(body)
    _finish(
        engine,
        row.id,
        status="done",
        finished_at=finished,
        location=writer.location[:1024],
        size_bytes=size,
    )
    log.info(
        "backup: %s written (%d bytes, %d images%s)",
        writer.location,
        size,
        len(images),
        f", {len(missing)} removed while copying" if missing else "",
    )
    _prune(chosen)
    return Result(row.id, writer.location, size, database.tables, len(images))


def finished_backups(target: Target) -> list[str]:
    """The names of the finished backups (with a manifest) in `target`, oldest first."""
    if target.folder is not None:
        if not target.folder.is_dir():
            return []
        return sorted(
            p.name
            for p in target.folder.iterdir()
            if p.name.startswith(NAME_PREFIX) and (p / MANIFEST).is_file()
        )
    client = _bucket_client(target.bucket)
    prefix = target.key("") + "/" if target.prefix else ""
    names = set()
    for page in client.get_paginator("list_objects_v2").paginate(
        Bucket=target.bucket, Prefix=prefix
    ):
        for item in page.get("Contents", []):
            rest = str(item["Key"])[len(prefix) :]
            head, _, tail = rest.partition("/")
            if head.startswith(NAME_PREFIX) and tail == MANIFEST:
                names.add(head)
    return sorted(names)


def _remove(target: Target, name: str) -> None:
    if target.folder is not None:
        shutil.rmtree(target.folder / name)
        return
    client = _bucket_client(target.bucket)
    prefix = target.key(name) + "/"
    keys = [
        str(item["Key"])
        for page in client.get_paginator("list_objects_v2").paginate(
            Bucket=target.bucket, Prefix=prefix
        )
        for item in page.get("Contents", [])
    ]
    # The manifest first: a half-removed backup is never taken for a finished one.
    for key in sorted(keys, key=lambda k: not k.endswith(f"/{MANIFEST}")):
        client.delete_object(Bucket=target.bucket, Key=key)


def _prune(target: Target) -> None:
    """Keep the newest BACKUP_KEEP finished backups of the target; failures are only logged."""
    keep = get_settings().backup_keep
    if keep <= 0:
        return
    try:
        for name in finished_backups(target)[:-keep]:
            _remove(target, name)
            log.info("backup: removed the old backup %s from %s", name, target)
    except Exception as exc:
        log.warning("backup: could not remove old backups from %s: %s", target, exc)


# --- restoring ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Restored:
    location: str
    revision: str | None
    tables: dict[str, int]
    images: int


def _canonical(manifest: dict) -> bytes:
    """The bytes a manifest's signature covers: all of it but the signature, in one spelling."""
    body = {key: value for key, value in manifest.items() if key != SIGNATURE}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def _signature(manifest: dict) -> str:
    key = sealed.derive_key(MANIFEST_PURPOSE)
    digest = hmac.new(key, _canonical(manifest), hashlib.sha256).hexdigest()
    return f"{SIGNATURE_SCHEME}:{digest}"


def sign_manifest(manifest: dict) -> dict:
    """`manifest` with its signature: HMAC-SHA256 with a key derived from SECRETS_KEY, else
    SECRET_KEY (services/sealed.derive_key), so only who holds the key can write a manifest
    restore accepts, and the checksums in it vouch for the files."""
    return {**manifest, SIGNATURE: _signature(manifest)}


def _check_signature(manifest: dict, location: str) -> None:
    given = manifest.get(SIGNATURE)
    if not isinstance(given, str) or not hmac.compare_digest(given, _signature(manifest)):
        raise BackupError(
            "forged",
            f"The manifest of {location} is not signed with this site's key: it was changed, "
            "or made before backups were signed, or with another SECRETS_KEY (else SECRET_KEY). "
            "Nothing was restored. A backup of this site made with an earlier key restores with "
            "that key set for the restore (SECRETS_KEY=... make restore ...).",
        )


def read_manifest(location: str) -> tuple[Reader, dict]:
    """The backup's manifest, once its signature holds."""
    reader = _reader(location)
    body = reader.read(MANIFEST)
    if body is None:
        raise BackupError(
            "incomplete",
            f"{reader.location} is not a finished backup: it has no {MANIFEST} (name the "
            f"folder or prefix of one backup, {NAME_PREFIX}...)",
        )
    try:
        manifest = json.loads(body)
    except ValueError as exc:
        raise BackupError("damaged", f"{MANIFEST} of {reader.location} is not JSON") from exc
    if not isinstance(manifest, dict):
        raise BackupError("damaged", f"{MANIFEST} of {reader.location} is not a manifest")
    _check_signature(manifest, reader.location)
    if manifest.get("format") != FORMAT:
        raise BackupError("unknown_format")
    return reader, manifest


def _check_revision(revision: str | None) -> None:
    """A backup of a schema this code does not know (a newer version's) is refused."""
    if revision is None:
        return
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    scripts = ScriptDirectory.from_config(Config(str(PROJECT_ROOT / "alembic.ini")))
    if revision not in {script.revision for script in scripts.walk_revisions()}:
        raise BackupError(
            "newer",
            f"This backup's schema ({revision}) is not one this version knows: restore it "
            "with the version of the app that made it",
        )


def rows_held(engine: Engine) -> dict[str, int]:
    """The tables of the database that hold rows (beyond BOOKKEEPING_TABLES), with how many."""
    names = inspect(engine).get_table_names()
    held = {}
    with engine.connect() as connection:
        for name in sorted(set(names) - BOOKKEEPING_TABLES):
            count = int(connection.execute(text(f'SELECT count(*) FROM "{name}"')).scalar_one())
            if count:
                held[name] = count
    return held


def _restore_sqlite(engine: Engine, source: Path) -> None:
    """Replace the whole database with the backup's, through the online backup API."""
    engine.dispose()
    target = sqlite3.connect(_sqlite_path(engine), timeout=30)
    backup = sqlite3.connect(source)
    try:
        backup.backup(target)
    finally:
        backup.close()
        target.close()


def _restore_postgres(engine: Engine, source: Path) -> None:
    """Drop whatever tables there are (the database was found empty, or `force`), then
    `pg_restore` in one transaction: a failure leaves no half-restored database."""
    pg_restore = _tool("pg_restore")
    names = inspect(engine).get_table_names()
    if names:
        with engine.begin() as connection:
            listed = ", ".join(f'"{name}"' for name in names)
            connection.exec_driver_sql(f"DROP TABLE {listed} CASCADE")
    engine.dispose()
    address, env = _libpq(engine)
    _run(
        [
            pg_restore,
            "--no-owner",
            "--no-privileges",
            "--exit-on-error",
            "--single-transaction",
            f"--dbname={address}",
            str(source),
        ],
        env,
    )


def _counts(engine: Engine) -> tuple[str | None, dict[str, int]]:
    """The schema's revision and the rows of every table, as the manifest counts them."""
    if engine.dialect.name == "sqlite":
        connection = sqlite3.connect(_sqlite_path(engine), timeout=30)
        try:
            return _sqlite_counts(connection)
        finally:
            connection.close()
    with engine.connect() as connection:
        return _postgres_counts(connection)


def _mark_restored(engine: Engine, manifest: dict, location: str) -> None:
    """The restored `backups` row of this backup was written while it ran: it is done."""
    with session_scope(engine) as session:
        session.exec(
            update(Backup)
            .where(col(Backup.id) == uuid.UUID(manifest["id"]))
            .values(
                status="done",
                finished_at=datetime.fromisoformat(manifest["finished_at"]),
                location=location[:1024],
            )
        )


@dataclass(frozen=True)
class FetchedImage:
    path: str
    copy: Path
    content_type: str


def _fetch_images(reader: Reader, files: list[dict], scratch: Path) -> list[FetchedImage]:
    """Every image of the manifest into `scratch`, each checked against its checksum and as a
    file the app stores (`stored_type`), before anything is restored."""
    fetched = []
    for number, entry in enumerate(files):
        path = _safe_relative(str(entry["path"])).as_posix()
        data = reader.read(f"{IMAGES}/{path}")
        if data is None or _sha256(data) != entry["sha256"]:
            raise BackupError("damaged", f"The image {path} of the backup is missing or damaged")
        content_type = stored_type(path, data)
        if content_type is None:
            raise BackupError(
                "not_image",
                f"{path} in the backup is not an image the app stores (by its name or its "
                "content): nothing was restored",
            )
        copy = scratch / f"image-{number}"
        copy.write_bytes(data)
        fetched.append(FetchedImage(path, copy, content_type))
    return fetched


def _restore_images(images: list[FetchedImage]) -> int:
    store = storage.backend()
    for image in images:
        data = image.copy.read_bytes()
        store.put(image.path, data, content_type=image.content_type, overwrite=True)
    return len(images)


def restore(location: str, *, engine: Engine | None = None, force: bool = False) -> Restored:
    """Put the backup at `location` back: the database (refused unless it is empty or
    `force`), checked against the manifest, then the images into the configured storage. Run
    it with the app stopped; `make restore` migrates afterwards."""
    engine = engine or get_engine()
    reader, manifest = read_manifest(location)
    database = manifest["database"]
    if database["backend"] != engine.dialect.name:
        raise BackupError(
            "other_backend",
            f"This is a backup of a {database['backend']} database; DATABASE_URL names a "
            f"{engine.dialect.name} one",
        )
    _check_revision(database.get("alembic_revision"))
    held = rows_held(engine)
    if held and not force:
        listed = ", ".join(f"{name} {count}" for name, count in held.items())
        raise BackupError(
            "not_empty",
            f"The database holds data (rows: {listed}): a backup is restored only into an empty "
            "database. To replace everything in it, restore with --force (make restore ... "
            "FORCE=1).",
            tables=held,
        )
    with tempfile.TemporaryDirectory(prefix="storefront-restore-") as scratch:
        copy = Path(scratch) / _safe_relative(database["file"]).name
        reader.fetch(database["file"], copy)
        if _file_sha256(copy) != database["sha256"]:
            raise BackupError("damaged", f"{database['file']} does not match its checksum")
        fetched = _fetch_images(reader, manifest["images"]["files"], Path(scratch))
        if engine.dialect.name == "sqlite":
            _restore_sqlite(engine, copy)
        else:
            _restore_postgres(engine, copy)
        revision, counted = _counts(engine)
        if counted != database["tables"]:
            differ = sorted(
                name
                for name in set(counted) | set(database["tables"])
                if counted.get(name) != database["tables"].get(name)
            )
            raise BackupError("damaged", f"The restored rows differ from the manifest: {differ}")
        _mark_restored(engine, manifest, reader.location)
        images = _restore_images(fetched)
    log.info("restore: %s put back (%d images)", reader.location, images)
    return Restored(reader.location, revision, dict(database["tables"]), images)


# --- the daily backup -----------------------------------------------------------------------


def daily_window(now: datetime) -> tuple[datetime, datetime] | None:
    """The start of today's backup window and of tomorrow's (both UTC-aware) when `now` is
    inside today's (BACKUP_HOUR local, for DAILY_WINDOW); None outside it."""
    zone = dates.business_zone()
    local = now.astimezone(zone)
    hour = clock_time(get_settings().backup_hour)
    start = datetime.combine(local.date(), hour, tzinfo=zone)
    if not start <= local < start + DAILY_WINDOW:
        return None
    following = datetime.combine(local.date() + timedelta(days=1), hour, tzinfo=zone)
    return start, following


def daily_enabled(*, session: Session) -> bool:
    row = session.get(BusinessSettings, 1)
    return bool(row and row.backup_daily)


def run_daily(
    *, engine: Engine | None = None, now: datetime | None = None, holder: str = ""
) -> Result | None:
    """The day's backup when it is on, `now` is in the day's window and this caller takes the
    day's lease (once for the whole cluster); None otherwise or when it failed (recorded)."""
    engine = engine or get_engine()
    now = now or utcnow()
    window = daily_window(now)
    if window is None:
        return None
    with session_scope(engine) as session:
        if not daily_enabled(session=session):
            return None
    period = window[1] - now
    if not take_lease(engine=engine, now=now, period=period, name=DAILY_LEASE, holder=holder):
        return None
    try:
        return make_backup(engine=engine, trigger="daily", now=now)
    except BackupError:
        return None  # recorded as failed and logged; the dashboard shows it


async def daily_backup_worker(*, engine: Engine | None = None) -> None:
    """Every worker asks every POLL_SECONDS; the one that takes the day's lease backs up."""
    while True:
        try:
            await asyncio.to_thread(run_daily, engine=engine)
        except Exception as exc:
            if is_outage(exc):
                log.warning("daily backup: database unavailable (%s)", error_summary(exc))
            else:
                log.exception("daily backup failed")
        await asyncio.sleep(POLL_SECONDS)


# --- the back office: the setting and the status -------------------------------------------


def is_configured(*, session: Session) -> bool:
    """Whether the operator chose backups: a target set, or the daily backup on."""
    settings = get_settings()
    return bool(settings.backup_url or settings.backup_dir) or daily_enabled(session=session)


@dataclass(frozen=True)
class LastBackups:
    """The newest backup that ended (done or failed) and the newest done one."""

    ended: Backup | None
    done: Backup | None
    configured: bool


def last_backups(*, session: Session) -> LastBackups:
    def newest(*statuses: str) -> Backup | None:
        return session.exec(
            select(Backup)
            .where(col(Backup.status).in_(statuses))
            .order_by(col(Backup.started_at).desc())
            .limit(1)
        ).first()

    return LastBackups(newest("done", "failed"), newest("done"), is_configured(session=session))


@dataclass(frozen=True)
class DailySetting:
    daily: bool
    target: str
    hour: int


def daily_setting(*, session: Session, actor_id: object) -> DailySetting:
    permissions.require_admin(session, actor_id, BackupError)
    settings = get_settings()
    return DailySetting(
        daily_enabled(session=session), str(configured_target()), settings.backup_hour
    )


def set_daily(*, session: Session, actor_id: object, daily: bool) -> None:
    """Turn the daily backup on or off (audited as a settings change)."""
    actor = permissions.require_admin(session, actor_id, BackupError)
    business.set_settings(session, actor.id, backup_daily=bool(daily))


def backups_in(target: Target) -> Iterator[str]:
    """The finished backups of `target`, newest first (for `manage backup --list`)."""
    yield from reversed(finished_backups(target))
