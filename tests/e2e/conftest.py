"""End-to-end fixtures: the production build served on loopback, over a fresh database of each
backend with the demo catalogue, driven by Playwright in Debian's Chromium."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import _TMP, BACKENDS, create_database, migrate
from tests.e2e.server import chromium, prod_server, tracked_changes, venv_env
from tests.mail_server import MailServer
from tests.webhook_server import WebhookServer

ROOT = Path(__file__).resolve().parents[2]
PORT = int(os.environ.get("E2E_PORT", "3111"))
ARTIFACTS = ROOT / "test-results"


@dataclass
class Server:
    url: str
    database_url: str
    backend: str
    # `git diff HEAD` before and after this server's build (None outside a git checkout).
    build_changes: tuple = (None, None)


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


@pytest.fixture(scope="session", params=BACKENDS)
def server(request, mail_server, webhook_server) -> Iterator[Server]:
    """The production build. Socket and HTTP tests use it without a browser, so it runs even
    where Chromium is missing; only the `browser` fixture skips then."""
    database_url, drop = create_database(request.param)
    migrate(database_url)
    env = venv_env(
        PORT,
        {
            "ENVIRONMENT": "test",
            # The tests write the catalogue straight to the database from this process and
            # look at a page at once: the server reads the catalogue's version at every page
            # load (still one lookup, the shapes stay cached). The 1 s bound of the default is
            # tested in tests/integration/test_catalog_cache.py and tests/scale.
            "CATALOGUE_CACHE_SECONDS": "0",
            # As behind one TLS proxy: the visitor's address is the last X-Forwarded-For entry.
            "TRUSTED_PROXY_HOPS": "1",
            "DATABASE_URL": database_url,
            "MEDIA_DIR": str(_TMP / f"media-{request.param}"),
            "SMTP_HOST": mail_server.host,
            "SMTP_PORT": str(mail_server.port),
            "SMTP_STARTTLS": "false",
            "NOTIFY_WEBHOOK_URL": webhook_server.url,
        },
    )
    subprocess.run([sys.executable, "-m", "storefront.seed"], cwd=ROOT, env=env, check=True)
    before = tracked_changes(ROOT)
    try:
        with prod_server(ROOT, PORT, env, ARTIFACTS / f"server-{request.param}.log") as url:
            changes = (before, tracked_changes(ROOT))
            yield Server(url, database_url, request.param, build_changes=changes)
    finally:
        drop()


@pytest.fixture(scope="session")
def browser():
    with chromium("browser tests") as browser:
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
