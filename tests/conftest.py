"""Shared fixtures: fresh databases on SQLite and (when reachable) PostgreSQL, built by the
real Alembic migrations, a private media folder, and a real SMTP server (`smtp_server`,
`mailbox`)."""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

# Settings are read once per process: point them at throwaway places before any import.
_TMP = Path(tempfile.mkdtemp(prefix="storefront-tests-"))
os.environ["ENVIRONMENT"] = "test"
os.environ["MEDIA_DIR"] = str(_TMP / "media")
os.environ["DATABASE_URL"] = f"sqlite:///{_TMP / 'default.db'}"
# Reflex keeps tabs' states in `.states/` and tidies that folder when the app is imported: each
# test process (pytest-xdist runs two) has its own, or one's tidying removes the other's files
# mid-import.
os.environ["REFLEX_STATES_WORKDIR"] = str(_TMP / "states")
# The tests book as one customer (tests/factories.contact) and the browser tests share one
# database: the per-email and per-phone booking limits and the per-recipient mail cap would
# refuse them. Set high, not off, so their counting still runs; tests of the limits set the
# defaults themselves (tests/integration/test_booking_limits.py). The per-address limit keeps
# its default: each browser test is its own visitor (tests/e2e/conftest.visitor_address).
for _name in ("BOOKING_LIMIT_PER_EMAIL", "BOOKING_LIMIT_PER_PHONE", "MAIL_CAP_PER_RECIPIENT"):
    os.environ.setdefault(_name, "1000")

from sqlalchemy import text  # noqa: E402
from sqlalchemy.engine import Engine, make_url  # noqa: E402
from sqlmodel import Session, SQLModel  # noqa: E402

from storefront.db import make_engine  # noqa: E402
from storefront.services.cache import CACHES  # noqa: E402
from tests.mail_server import MailServer  # noqa: E402
from tests.webhook_server import WebhookServer  # noqa: E402

DEFAULT_PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def postgres_admin_url() -> str | None:
    """TEST_DATABASE_URL, or the local server when it answers; None when there is none."""
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        return url
    try:
        import psycopg

        with psycopg.connect(DEFAULT_PG_URL, connect_timeout=2):
            return DEFAULT_PG_URL
    except Exception:
        return None


BACKENDS = ["sqlite", "postgresql"]


def create_database(backend: str) -> tuple[str, callable]:
    """A new empty database; returns its URL and a function that drops it."""
    if backend == "sqlite":
        path = _TMP / f"test-{uuid.uuid4().hex[:8]}.db"
        return f"sqlite:///{path}", lambda: path.unlink(missing_ok=True)
    admin_url = postgres_admin_url()
    if admin_url is None:
        pytest.skip("PostgreSQL is not reachable (set TEST_DATABASE_URL to run these tests)")
    name = f"storefront_test_{uuid.uuid4().hex[:10]}"
    admin = make_engine(admin_url).execution_options(isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()

    return url, drop


def migrate(url: str, revision: str = "head") -> None:
    from alembic.config import Config

    from alembic import command

    config = Config(str(Path(__file__).resolve().parent.parent / "alembic.ini"))
    config.attributes["database_url"] = url
    config.attributes["configure_logger"] = False
    command.upgrade(config, revision)


@asynccontextmanager
async def upload_client() -> AsyncIterator:
    """An HTTP client of the real app's event processor, running, with its upload endpoint
    mounted as Reflex mounts it and wrapped by the storefront's body cap (one per test module:
    Reflex sets the processor up once per server, on one event loop)."""
    import httpx
    from reflex._upload import upload
    from starlette.applications import Starlette
    from starlette.routing import Route

    import storefront.storefront as site
    from storefront.api.body_limit import UploadBodyLimit

    app = site.app
    async with app._setup_event_processor():
        with app.set_contexts():
            api = UploadBodyLimit(
                Starlette(routes=[Route("/_upload", upload(app), methods=["POST"])])
            )
            transport = httpx.ASGITransport(app=api)
            async with httpx.AsyncClient(
                transport=transport, base_url="http://localhost"
            ) as client:
                yield client


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(request) -> Iterator[str]:
    """A migrated database of each backend, shared by the tests of a session."""
    url, drop = create_database(request.param)
    migrate(url)
    yield url
    drop()


@pytest.fixture(scope="session")
def engine(database_url: str) -> Iterator[Engine]:
    engine = make_engine(database_url)
    yield engine
    engine.dispose()


def _empty_all_tables(engine: Engine) -> None:
    with engine.begin() as conn:
        for table in reversed(SQLModel.metadata.sorted_tables):
            conn.execute(table.delete())
    # Plain table deletes pass by the ORM's hooks: forget what the catalogue cache holds.
    for cache in CACHES:
        cache.clear()


@pytest.fixture
def session(engine: Engine) -> Iterator[Session]:
    """A session on an empty database; every table is emptied again afterwards."""
    _empty_all_tables(engine)
    with Session(engine, expire_on_commit=False) as session:
        yield session
    _empty_all_tables(engine)


@pytest.fixture
def media_dir() -> Path:
    from storefront.settings import get_settings

    return get_settings().media_dir


@pytest.fixture
def smtp_server() -> Iterator[MailServer]:
    """A real SMTP server on 127.0.0.1 for this test; `.messages` are the mails it received."""
    with MailServer() as server:
        yield server


@pytest.fixture
def mailbox(smtp_server: MailServer, monkeypatch: pytest.MonkeyPatch) -> MailServer:
    """Mail the app sends goes over SMTP, in clear and without login, to `smtp_server`."""
    from storefront.settings import get_settings

    settings = get_settings()
    monkeypatch.setattr(settings, "smtp_host", smtp_server.host)
    monkeypatch.setattr(settings, "smtp_port", smtp_server.port)
    monkeypatch.setattr(settings, "smtp_starttls", False)
    monkeypatch.setattr(settings, "smtp_user", None)
    monkeypatch.setattr(settings, "smtp_password", None)
    return smtp_server


@pytest.fixture
def webhook(monkeypatch: pytest.MonkeyPatch) -> Iterator[WebhookServer]:
    """A real HTTP server on 127.0.0.1 as NOTIFY_WEBHOOK_URL, for this test."""
    from storefront.settings import get_settings

    with WebhookServer() as server:
        monkeypatch.setattr(get_settings(), "notify_webhook_url", server.url)
        yield server
