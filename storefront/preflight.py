"""Checks before `make run-prod` starts the app on several workers or hosts:
`python -m storefront.preflight` prints what is missing and exits 2, or prints the plan and
exits 0. It reads the settings as the app does (the environment, then `.env`), except
REFLEX_REDIS_URL, which Reflex reads from the environment only.

Several workers or hosts need, all of them the same everywhere:
- DATABASE_URL on PostgreSQL (a SQLite file is one host's, and locks the others out);
- REFLEX_REDIS_URL (every tab's state; without it each worker would keep its own);
- STORAGE_BACKEND=s3 and its bucket (a local media folder is one host's);
- SECRET_KEY (tickets and links signed by one host are checked by another), a strong one
  (`make secret`): a weak or short key is refused;
- PUBLIC_URL, the load balancer's address (built into the frontend: the websocket goes there);
- SMTP_HOST: in prod mail is sent, never printed to the log (reset links would be in it);
- BACKUP_URL, when set, in a bucket of its own: the images bucket is public, and a backup
  holds password hashes and sealed secrets (the settings refuse it, `settings_problems`).
"""

from __future__ import annotations

import os
import sys
from urllib.parse import urlsplit

REQUIRED_HELP = {
    "DATABASE_URL": "postgresql://user:password@db-host:5432/storefront",
    "REFLEX_REDIS_URL": "redis://redis-host:6379/0 (in the environment: Reflex reads no .env)",
    "SECRET_KEY": "a long random value, the same on every host (make one with `make secret`)",
    "PUBLIC_URL": "the load balancer's address, e.g. https://events.example.com",
    "S3_BUCKET": "the bucket the images go to (created by the operator, publicly readable)",
    "SMTP_HOST": "the mail server (without one, mails and password reset links would only be "
    "printed to the log)",
}


def _dotenv() -> dict[str, str]:
    from dotenv import dotenv_values

    from storefront.settings import PROJECT_ROOT

    values = dotenv_values(PROJECT_ROOT / ".env")
    return {k.upper(): v for k, v in values.items() if v is not None}


def problems(
    environ: dict[str, str] | None = None, dotenv: dict[str, str] | None = None
) -> list[str]:
    """What stops the app from running on several workers or hosts; empty when nothing.
    `environ` and `dotenv` default to this process's environment and the project's `.env`."""
    environ = dict(os.environ if environ is None else environ)
    dotenv = _dotenv() if dotenv is None else dotenv
    # As the app sees them: the environment first, then .env (but Reflex reads Redis's address
    # from the environment only).
    seen = dotenv | {k.upper(): v for k, v in environ.items()}
    seen["REFLEX_REDIS_URL"] = environ.get("REFLEX_REDIS_URL", "")

    found: list[str] = []
    for name, example in REQUIRED_HELP.items():
        if not seen.get(name, "").strip():
            found.append(f"{name} is not set: {example}")
    database = seen.get("DATABASE_URL", "")
    if database and not database.startswith(("postgresql://", "postgresql+psycopg://")):
        found.append(
            f"DATABASE_URL must be PostgreSQL (postgresql://...), not {database.split(':')[0]}: "
            "every worker and host writes to the one database"
        )
    redis = seen["REFLEX_REDIS_URL"]
    if redis and urlsplit(redis).scheme not in ("redis", "rediss", "unix"):
        found.append(f"REFLEX_REDIS_URL must be a redis:// or rediss:// address, not {redis!r}")
    if seen.get("STORAGE_BACKEND", "s3") != "s3":
        found.append("STORAGE_BACKEND must be s3: a local media folder is only on one host")
    workers = environ.get("GRANIAN_WORKERS", "1")
    if not workers.isdigit() or int(workers) < 1:
        found.append(f"WORKERS (GRANIAN_WORKERS) must be a whole number of 1 or more: {workers!r}")
    return found


def settings_problems() -> list[str]:
    """The app's own checks of its settings (a weak SECRET_KEY, or no SMTP_HOST, is refused in
    prod)."""
    from pydantic import ValidationError

    from storefront.settings import Settings

    try:
        Settings()
    except ValidationError as exc:
        return [str(e["msg"]).removeprefix("Value error, ") for e in exc.errors()]
    return []


def main() -> int:
    found = problems() or settings_problems()
    if found:
        print("make run-prod: cannot start on several workers or hosts:", file=sys.stderr)
        for problem in found:
            print(f"  - {problem}", file=sys.stderr)
        print("See docs/operations.md, 'Several workers and hosts'.", file=sys.stderr)
        return 2
    from storefront.settings import Settings

    settings = Settings()
    print(
        f"Starting {os.environ.get('GRANIAN_WORKERS', '1')} workers for {settings.public_url}: "
        f"PostgreSQL at {urlsplit(settings.database_url).hostname}, "
        f"Redis at {urlsplit(os.environ['REFLEX_REDIS_URL']).hostname}, "
        f"images in S3 bucket {settings.s3_bucket!r}"
        + (f" at {settings.s3_endpoint_url}" if settings.s3_endpoint_url else "")
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
