"""End-to-end fixtures: the production build, made once (storefront/prod.py), served on loopback
over a fresh database with the demo catalogue (PostgreSQL when it answers, else SQLite), driven by
Playwright in Debian's Chromium. With pytest-xdist each worker serves the one build on a loopback
address of its own (127.0.0.1, 127.0.0.2, ...), all on E2E_PORT."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import _TMP, create_database, migrate, postgres_admin_url
from tests.e2e.server import PUBLIC_HOST, build_frontend, built_server, chromium, venv_env
from tests.mail_server import MailServer
from tests.webhook_server import WebhookServer

ROOT = Path(__file__).resolve().parents[2]
PORT = int(os.environ.get("E2E_PORT", "3111"))
ARTIFACTS = ROOT / "test-results"

# How long an `expect(...)` waits for the page by default (Playwright's own is 5 s). The suite
# runs two Chromium workers, the server and, in one file, five tabs slowed to a phone's
# processor on two cores: an answer that takes 0.1-0.3 s alone has been seen to take more than
# 5 s there (a CI failure with an empty <main>, no error). No test here judges speed (bench/
# does), so an assertion waits long enough for a loaded machine; one that fails still fails.
EXPECT_TIMEOUT_MS = 15_000


def pytest_configure(config):
    try:
        from playwright.sync_api import expect
    except ImportError:  # the browser tests skip without Playwright's browser anyway
        return
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)


# The session's one frontend build is made for this address. Its host is `localhost`, so the
# page opens its websocket on whatever host it was loaded from (Reflex's getBackendURL): each
# test worker serves the same build on a loopback address of its own, all on PORT.
BUILD_URL = f"http://localhost:{PORT}"


def worker_number() -> int:
    """0 without pytest-xdist, else N of the worker gwN."""
    return int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)


# Several test sessions at once share the one build (made for E2E_PORT): each takes loopback
# addresses of its own, E2E_LOOPBACK_OFFSET further on (10: 127.0.0.11, 127.0.0.12, ...).
LOOPBACK_OFFSET = int(os.environ.get("E2E_LOOPBACK_OFFSET", "0"))


def loopback(base: int = 1) -> str:
    """This worker's own loopback address: 127.0.0.1 for the first, 127.0.0.2 for the next."""
    return f"127.0.0.{base + LOOPBACK_OFFSET + worker_number()}"


def browser_backend() -> str:
    """The browser tests run on PostgreSQL when it answers (as in production), SQLite otherwise;
    the integration tests cover both backends below the screens."""
    return "postgresql" if postgres_admin_url() else "sqlite"


@dataclass
class Server:
    url: str  # where this worker's server answers, and its PUBLIC_URL
    database_url: str
    backend: str
    log: Path  # what the server printed
    # `git diff HEAD` before and after this session's build (None outside a git checkout).
    build_changes: tuple = (None, None)
    # The address the frontend was built for (canonical and preview addresses of the pages).
    site_url: str = BUILD_URL


@pytest.fixture(scope="session")
def mail_server() -> Iterator[MailServer]:
    """A real SMTP server the app under test sends its mail to."""
    with MailServer() as server:
        yield server


@pytest.fixture(scope="session")
def webhook_server() -> Iterator[WebhookServer]:
    """A real HTTP server standing in for the staff WhatsApp message handler."""
    with WebhookServer() as server:
        yield server


@pytest.fixture(scope="session", autouse=True)
def frontend_build() -> tuple:
    """The production frontend, built once for all the session's servers (and the test workers
    beside this one, and tests/scale): `tracked_changes` before and after. Every worker asks for
    it first thing (autouse), before any worker serves: a worker that came to it late, while
    another one's server was answering, would find the build to check while that server uses
    it."""
    return build_frontend(BUILD_URL)


@pytest.fixture(scope="session")
def server(frontend_build, mail_server, webhook_server) -> Iterator[Server]:
    """The production build served on this worker's loopback address, over a fresh database
    with the demo catalogue. Socket and HTTP tests use it without a browser, so it runs even
    where Chromium is missing; only the `browser` fixture skips then."""
    backend = browser_backend()
    database_url, drop = create_database(backend)
    migrate(database_url)
    host = loopback()
    url = f"http://{host}:{PORT}"
    env = venv_env(
        PORT,
        {
            "ENVIRONMENT": "test",
            "PUBLIC_URL": url,
            "CORS_ORIGINS": url,
            # The tests write the catalogue straight to the database from this process and
            # look at a page at once: the server reads the catalogue's version at every page
            # load (still one lookup, the shapes stay cached). The 1 s bound of the default is
            # tested in tests/integration/test_catalog_cache.py and tests/scale.
            "CATALOGUE_CACHE_SECONDS": "0",
            # As behind one TLS proxy: the visitor's address is the last X-Forwarded-For entry.
            "TRUSTED_PROXY_HOPS": "1",
            "DATABASE_URL": database_url,
            "MEDIA_DIR": str(_TMP / f"media-{backend}"),
            "SMTP_HOST": mail_server.host,
            "SMTP_PORT": str(mail_server.port),
            "SMTP_STARTTLS": "false",
            "NOTIFY_WEBHOOK_URL": webhook_server.url,
        },
    )
    subprocess.run([sys.executable, "-m", "storefront.seed"], cwd=ROOT, env=env, check=True)
    log = ARTIFACTS / f"server-{backend}-{host}.log"
    try:
        with built_server(host, PORT, env, log) as url:
            yield Server(url, database_url, backend, log, build_changes=frontend_build)
    finally:
        drop()


@pytest.fixture(scope="session")
def browser():
    # storefront.public.test: the public-address server of tests/e2e/test_first_admin_public.py.
    with chromium("browser tests", host_rules=f"MAP {PUBLIC_HOST} {loopback(101)}") as browser:
        yield browser


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call" and report.failed:
        item.failed_in_call = True
    return report


def visitor_address() -> str:
    """A visitor's own address as the trusted proxy reports it (the server runs behind one):
    each test's browser is a different visitor, so the per-address limits (sign-ups, reset
    requests, contact messages) of one test never spill into the next."""
    return f"10.{random.randrange(256)}.{random.randrange(256)}.{random.randrange(1, 255)}"


def _open_page(request, browser, server: Server, viewport: dict):
    context = browser.new_context(
        viewport=viewport,
        base_url=server.url,
        extra_http_headers={"X-Forwarded-For": visitor_address()},
    )
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda msg: console.append(f"{msg.type}: {msg.text}"))
    yield page
    if getattr(request.node, "failed_in_call", False):
        ARTIFACTS.mkdir(exist_ok=True)
        name = request.node.name.replace("/", "_")
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
        (ARTIFACTS / f"{name}.console.txt").write_text("\n".join(console))
    context.close()


@pytest.fixture
def page(request, browser, server):
    """A desktop-sized page (1280 px wide)."""
    yield from _open_page(request, browser, server, {"width": 1280, "height": 900})


@pytest.fixture
def phone(request, browser, server):
    """A phone-sized page (390 px wide)."""
    yield from _open_page(request, browser, server, {"width": 390, "height": 844})
