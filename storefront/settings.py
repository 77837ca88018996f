"""Configuration from environment variables (or `.env`), with defaults that run on a laptop."""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from email_validator import EmailNotValidError, validate_email
from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEV_SECRET = "dev-secret-change-me-not-for-production-use"
# SECRET_KEY signs sign-in tickets, booking links, OAuth state, device cookies and derives the
# first-admin setup code: in prod or on a public address it must be at least this long and not
# a known placeholder (`make secret` prints a good one).
SECRET_MIN_BYTES = 32
MAKE_SECRET = (
    "make one with `make secret` (python -c 'import secrets; print(secrets.token_urlsafe(48))')"
)
WEAK_SECRETS = frozenset(
    {
        "secret",
        "secretkey",
        "mysecret",
        "mysecretkey",
        "yoursecretkey",
        "supersecret",
        "supersecretkey",
        "topsecret",
        "changeme",
        "changethis",
        "changeit",
        "password",
        "passw0rd",
        "dev",
        "development",
        "test",
        "testing",
        "default",
        "admin",
        "letmein",
        "insecure",
        "notsecret",
        "placeholder",
        "example",
        "key",
        "qwerty",
        "123456",
        "1234567890",
        "djangoinsecure",
    }
)


def secret_key_problem(key: str) -> str | None:
    """Why `key` is too weak to sign anything on a public site, or None: the development
    placeholder, fewer than SECRET_MIN_BYTES bytes, a known placeholder word (in any case, with
    any separators), a pattern repeated ('aaaa...', 'secretsecret...'), or very few different
    characters."""
    plain = "".join(ch for ch in key.lower() if ch.isalnum())
    if key == DEV_SECRET:
        return "SECRET_KEY is the development placeholder"
    if len(key.encode()) < SECRET_MIN_BYTES:
        return f"SECRET_KEY is shorter than {SECRET_MIN_BYTES} bytes"
    if plain in WEAK_SECRETS:
        return "SECRET_KEY is a known placeholder"
    if any(plain == plain[:n] * (len(plain) // n) for n in range(1, len(plain) // 2 + 1)):
        return "SECRET_KEY is a short pattern repeated"
    if len(set(plain)) < 10:
        return "SECRET_KEY has too few different characters"
    return None


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=PROJECT_ROOT / ".env", extra="ignore")

    environment: Literal["dev", "test", "prod"] = "dev"
    secret_key: str = DEV_SECRET
    # The key secrets at rest are sealed with (the admins' TOTP secrets, services/accounts/sealed.py)
    # and backup manifests are signed with, when set; else SECRET_KEY is. Set it to rotate
    # SECRET_KEY without touching what is sealed; after changing either, run
    # `python -m storefront.manage reseal-secrets --old-key -` (docs/operations.md, 'Security').
    secrets_key: str | None = None

    database_url: str = f"sqlite:///{PROJECT_ROOT / 'data' / 'storefront.db'}"
    database_echo: bool = False

    # Public address of the site, used in mails and links.
    public_url: str = "http://localhost:3000"
    cors_origins: str = "http://localhost:3000"

    # Files: a local folder (the default) or an S3-compatible bucket (the default when
    # ENVIRONMENT=prod: every command run with the production settings, `make seed` included,
    # stores where the workers of every host read, as storefront/preflight.py requires).
    storage_backend: Literal["local", "s3"] = "local"
    media_dir: Path = PROJECT_ROOT / "data" / "media"
    media_url_prefix: str = "/media"
    s3_bucket: str = "images"
    s3_endpoint_url: str | None = None
    s3_region: str = "us-east-1"
    s3_access_key_id: str | None = None
    s3_secret_access_key: str | None = None
    s3_public_url: str | None = None
    # The request body of Reflex's upload endpoint, counted before anything reads it: one image
    # (5 MB at most) plus multipart overhead.
    upload_max_bytes: int = Field(default=6 * 1024 * 1024, gt=0)
    # What one account may keep in storage (its images, saved or not, in MB) and upload per
    # hour (refused uploads count too: each costs a re-encode). The admin quota None: no quota.
    upload_quota_mb: float = Field(default=50.0, gt=0)
    upload_quota_admin_mb: float | None = Field(default=None, gt=0)
    uploads_per_hour: int = Field(default=30, gt=0)
    uploads_per_hour_admin: int = Field(default=200, gt=0)
    # An upload no saved row points at (a form left unsaved) is removed by the orphan sweep
    # (storage.sweep_orphans) once it is this old.
    upload_orphan_grace_hours: float = Field(default=24.0, gt=0)
    # How long a worker serves the public catalogue from its cache before it looks whether
    # another worker changed it: the staleness bound across workers (services/cache.py).
    catalogue_cache_seconds: float = Field(default=1.0, ge=0, le=60)

    # Backups (services/operations/backup.py; docs/operations.md, 'Backups'): `make backup` and the daily job (a
    # business setting) write to BACKUP_URL (s3://bucket/prefix, reached with the S3_* endpoint
    # and keys) when it is set, else to the folder BACKUP_DIR (data/backups when unset). The
    # daily job starts at BACKUP_HOUR, local time (or within the next hours if no worker ran
    # then). BACKUP_KEEP: how many finished backups the target keeps (the oldest go after a
    # new one finished); 0 keeps them all.
    backup_url: str | None = None
    backup_dir: Path | None = None
    backup_hour: int = Field(default=3, ge=0, le=23)
    backup_keep: int = Field(default=14, ge=0)

    # Mail: SMTP when a host is set, otherwise printed to the console.
    smtp_host: str | None = None
    smtp_port: int = 587
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_starttls: bool = True
    smtp_timeout: float = 10.0  # seconds, for connecting and for each SMTP reply
    mail_from: str = "Magic Events <no-reply@localhost>"

    # Staff notifications (WhatsApp message handler webhook); logged when unset.
    notify_webhook_url: str | None = None
    notify_timeout: float = 10.0  # seconds, for connecting to and hearing from the webhook
    staff_phone: str = "+38344000000"

    # The outbox sender: a background task of every app worker (OUTBOX_WORKER=false turns it
    # off, for tests that send themselves). A message that keeps failing is marked failed once
    # it has had OUTBOX_MAX_ATTEMPTS attempts and is OUTBOX_RETRY_HOURS old (both), so an
    # outage of the webhook or the mail server of up to that long loses nothing.
    outbox_worker: bool = True
    outbox_poll_seconds: float = 2.0
    outbox_max_attempts: int = 8
    outbox_retry_hours: float = Field(default=48.0, ge=0)
    # At most this many new-booking confirmations per mailbox (services/limit_keys.mailbox) in
    # 24 hours: more are held back when the booking is placed (status 'suppressed'), and the
    # screen says so. Mails about an existing booking and every other mail are never capped;
    # nor are staff WhatsApp messages. 0 turns the cap off.
    mail_cap_per_recipient: int = Field(default=5, ge=0)
    # Bookings placed (not lines: a cart of five services is one booking) per visitor address
    # in an hour, and per email and per phone number in 24 hours; one more is refused with a
    # message and the cart is kept. 0 turns a limit off.
    booking_limit_per_address: int = Field(default=5, ge=0)
    booking_limit_per_email: int = Field(default=3, ge=0)
    booking_limit_per_phone: int = Field(default=3, ge=0)

    # Housekeeping (services/operations/housekeeping.py): purges expired sessions, used sign-in tickets,
    # old throttle counters, outbox rows sent more than HOUSEKEEPING_RETENTION_DAYS ago and
    # orphaned uploads, once per HOUSEKEEPING_INTERVAL_MINUTES for the whole cluster (a lease
    # row in the database). HOUSEKEEPING=false turns the task off in this process.
    housekeeping: bool = True
    housekeeping_interval_minutes: float = Field(default=60.0, gt=0)
    housekeeping_retention_days: int = Field(default=30, ge=1)

    # OAuth providers: each shows only when both id and secret are set.
    google_client_id: str | None = None
    google_client_secret: str | None = None
    github_client_id: str | None = None
    github_client_secret: str | None = None
    # Provider endpoints; the defaults are the real ones, tests point them at a local provider.
    google_authorize_url: str = "https://accounts.google.com/o/oauth2/v2/auth"
    google_token_url: str = "https://oauth2.googleapis.com/token"
    # Google's ID tokens: the keys that sign them and the issuer they must name.
    google_jwks_url: str = "https://www.googleapis.com/oauth2/v3/certs"
    google_issuer: str = "https://accounts.google.com"
    github_authorize_url: str = "https://github.com/login/oauth/authorize"
    github_token_url: str = "https://github.com/login/oauth/access_token"
    github_user_url: str = "https://api.github.com/user"
    github_emails_url: str = "https://api.github.com/user/emails"

    currency: str = "EUR"
    timezone: str = "Europe/Belgrade"

    # Reverse proxies in front of the app (a TLS terminator counts as one): the visitor's
    # address is the entry this many places from the end of X-Forwarded-For. 0 ignores the header.
    trusted_proxy_hops: int = 0
    # `/metrics` (docs/operations.md, 'Metrics'): answered to `Authorization: Bearer <token>`
    # with this token from anywhere, and without a token only to a private or loopback address
    # (the visitor's address behind TRUSTED_PROXY_HOPS). Empty: every scrape with a token is
    # refused. `make secret` prints a good one.
    metrics_token: str = ""
    # On a public address, only this account becomes admin by signing up (docs/architecture.md
    # §9.8).
    owner_email: str | None = None

    @field_validator("owner_email")
    @classmethod
    def _one_owner_address(cls, value: str | None) -> str | None:
        """OWNER_EMAIL is one address, checked by the library every email field uses
        (email-validator, as in services/fields.py, which settings must not import: services
        read settings); a list or a malformed address is refused at start."""
        if value is None or not value.strip():
            return None
        try:
            checked = validate_email(value.strip(), check_deliverability=False)
        except EmailNotValidError:
            raise ValueError(f"OWNER_EMAIL must be one email address, not {value!r}") from None
        return checked.normalized.lower()

    @field_validator("secrets_key")
    @classmethod
    def _blank_secrets_key_is_unset(cls, value: str | None) -> str | None:
        return value if value and value.strip() else None

    @field_validator("backup_url")
    @classmethod
    def _backup_url_is_a_bucket(cls, value: str | None) -> str | None:
        """BACKUP_URL names a bucket (s3://bucket or s3://bucket/prefix); a folder is BACKUP_DIR."""
        if value is None or not value.strip():
            return None
        parts = urlsplit(value.strip())
        if parts.scheme != "s3" or not parts.netloc:
            raise ValueError(
                f"BACKUP_URL must be s3://bucket/prefix, not {value!r} (a folder is BACKUP_DIR)"
            )
        return value.strip().rstrip("/")

    def is_images_bucket(self, bucket: str) -> bool:
        """Whether `bucket` is the one the site's images are in: public, so never a place
        for backups."""
        return self.storage_backend == "s3" and bucket == self.s3_bucket

    @model_validator(mode="after")
    def _refuse_backups_in_the_images_bucket(self) -> Settings:
        bucket = urlsplit(self.backup_url).netloc if self.backup_url else ""
        if bucket and self.is_images_bucket(bucket):
            raise ValueError(
                f"BACKUP_URL is in the images bucket ({bucket!r}, S3_BUCKET), which anyone can "
                "read: backups hold password hashes and sealed secrets; give them a private "
                "bucket of their own"
            )
        return self

    @property
    def backup_target(self) -> str:
        """Where backups go: BACKUP_URL, else BACKUP_DIR, else data/backups."""
        return self.backup_url or str(self.backup_dir or PROJECT_ROOT / "data" / "backups")

    @model_validator(mode="before")
    @classmethod
    def _production_stores_in_the_bucket(cls, data: object) -> object:
        """Without STORAGE_BACKEND, images go to the bucket in production and whenever a
        bucket is named (S3_BUCKET): every command run with the several-hosts settings (`make
        seed` in the same shell too) stores where the hosts share them (issue 38)."""
        if isinstance(data, dict):
            values = {str(k).lower(): v for k, v in data.items()}
            named = str(values.get("s3_bucket") or "").strip() != ""
            prod = str(values.get("environment", "")).lower() == "prod"
            if "storage_backend" not in values and (prod or named):
                data = {**data, "storage_backend": "s3"}
        return data

    @model_validator(mode="after")
    def _refuse_weak_secret(self) -> Settings:
        problem = secret_key_problem(self.secret_key)
        if problem and (self.environment == "prod" or self.is_public):
            raise ValueError(
                f"{problem}: SECRET_KEY must be a long random secret when ENVIRONMENT=prod or "
                "PUBLIC_URL is not a loopback address (anyone could forge sign-in tickets and "
                f"booking links with a guessable one); {MAKE_SECRET}"
            )
        return self

    @model_validator(mode="after")
    def _refuse_weak_secrets_key(self) -> Settings:
        problem = secret_key_problem(self.secrets_key) if self.secrets_key else None
        if problem and (self.environment == "prod" or self.is_public):
            raise ValueError(
                f"{problem.replace('SECRET_KEY', 'SECRETS_KEY')}: when set, SECRETS_KEY must be "
                f"a long random secret too; {MAKE_SECRET}"
            )
        return self

    @model_validator(mode="after")
    def _refuse_prod_without_mail(self) -> Settings:
        if self.environment == "prod" and not (self.smtp_host or "").strip():
            raise ValueError(
                "SMTP_HOST must be set when ENVIRONMENT=prod: without a mail server, mails "
                "(password reset links included) would only be printed to the log"
            )
        return self

    @property
    def is_public(self) -> bool:
        """Whether PUBLIC_URL is reachable by others (not localhost or a loopback address)."""
        host = (urlsplit(self.public_url).hostname or "").lower()
        if host == "localhost" or host.endswith(".localhost"):
            return False
        try:
            return not ipaddress.ip_address(host).is_loopback
        except ValueError:
            return True

    @property
    def cors_origin_list(self) -> list[str]:
        return [o.strip() for o in self.cors_origins.split(",") if o.strip()]


@lru_cache
def get_settings() -> Settings:
    return Settings()
