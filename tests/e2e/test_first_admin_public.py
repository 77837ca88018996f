"""Initial Admin Setup on a public address (issue 18, finding 1), against the production build
served with a PUBLIC_URL that is not loopback (`PUBLIC_HOST`, which the test browser resolves
to 127.0.0.1): a stranger who signs up cannot become admin by any handler, forged events
included; whoever runs the server reads the setup code from its log and uses it on the screen.

The server serves the session's one build (made for http://localhost:E2E_PORT: the page keeps
its own host for the websocket) on a loopback address of its own, with PUBLIC_URL set to the
public name, which is what the server's rules read."""

from __future__ import annotations

import re
import secrets
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import User
from storefront.services.accounts import auth
from storefront.state.admin_roles import RoleDebugState
from storefront.state.admin_users import AdminUsersState
from storefront.state.first_admin import InitialAdminState
from tests.conftest import _TMP, create_database, migrate
from tests.e2e.conftest import ARTIFACTS, PORT, loopback, visitor_address
from tests.e2e.server import PUBLIC_HOST, built_server, venv_env
from tests.e2e.socket_client import Tab, run
from tests.factories import signed_in_account

pytestmark = pytest.mark.e2e
PASSWORD = "a long enough password"
CODE = re.compile(r"First-admin setup code: ([A-Z2-7]{4}(?:-[A-Z2-7]{4}){3})")


@dataclass
class PublicServer:
    url: str  # http://127.0.0.1:PORT, where sockets and plain HTTP go
    public_url: str  # PUBLIC_URL, what the browser opens
    database_url: str
    log: Path


@pytest.fixture(scope="module")
def public_server(frontend_build, mail_server) -> Iterator[PublicServer]:
    database_url, drop = create_database("sqlite")
    migrate(database_url)
    port = PORT
    public_url = f"http://{PUBLIC_HOST}:{port}"
    host = loopback(101)  # where the test browser resolves PUBLIC_HOST (tests/e2e/conftest.py)
    env = venv_env(
        port,
        {
            "ENVIRONMENT": "test",
            "PUBLIC_URL": public_url,
            "CORS_ORIGINS": public_url,
            "SECRET_KEY": secrets.token_urlsafe(48),
            "TRUSTED_PROXY_HOPS": "1",
            "DATABASE_URL": database_url,
            "MEDIA_DIR": str(_TMP / "media-public"),
            "SMTP_HOST": mail_server.host,
            "SMTP_PORT": str(mail_server.port),
            "SMTP_STARTTLS": "false",
        },
    )
    log = ARTIFACTS / f"server-public-{host}.log"
    try:
        with built_server(host, port, env, log) as url:
            yield PublicServer(url, public_url, database_url, log)
    finally:
        drop()


def _role(server: PublicServer, user_id: str) -> str:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        role = session.get(User, uuid.UUID(user_id)).role
    engine.dispose()
    return role


def _admins(server: PublicServer) -> list[str]:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        emails = [u.email for u in session.exec(select(User).where(User.role == "admin"))]
    engine.dispose()
    return emails


def _logged_code(server: PublicServer, timeout: float = 30) -> str:
    """The code as an operator finds it: the last 'First-admin setup code' line of the log."""
    deadline = time.monotonic() + timeout
    while True:
        found = CODE.findall(server.log.read_text(errors="replace"))
        if found:
            return found[-1]
        if time.monotonic() > deadline:
            raise AssertionError(f"no setup code in {server.log}")
        time.sleep(0.5)


def test_a_stranger_cannot_become_admin_by_any_handler(public_server):
    server = public_server
    stranger_id, stranger_email, token = signed_in_account(
        server.database_url, password=PASSWORD, full_name="Stranger"
    )
    assert _role(server, stranger_id) == "user"  # a public address: sign-up makes no admin
    seen: list[str] = []

    async def attack():
        headers = {"X-Forwarded-For": visitor_address()}
        async with Tab(server.url, token, headers=headers) as tab:
            await tab.send(InitialAdminState.open_admin, "/admin")
            await tab.send(InitialAdminState.type_email, "/admin", value=stranger_email)
            await tab.send(InitialAdminState.submit, "/admin")  # no code at all
            for guess in ("AAAA-BBBB-CCCC-DDDD", "' OR 1=1 --", "x" * 500, "", "2222-3333"):
                await tab.send(InitialAdminState.type_code, "/admin", value=guess)
                await tab.send(InitialAdminState.submit, "/admin")
            # Handlers of the admin area: the guard refuses them to a non-admin.
            await tab.send(AdminUsersState.make_admin, "/admin/users", user_id=stranger_id)
            await tab.send(RoleDebugState.synchronize, "/admin/role-debug")
            await tab.send(RoleDebugState.test_admin_function, "/admin/role-debug")
            seen.append(await tab.wait_for("Too many attempts"))  # the sixth try

    run(attack())
    text = seen[0]
    assert "the setup code is not valid" in text
    assert "Too many attempts" in text  # the sixth try from one account is throttled
    assert "First admin set successfully!" not in text
    assert _role(server, stranger_id) == "user"
    assert _admins(server) == []
    # The code itself is nowhere in what the server sent.
    assert _logged_code(server) not in text


def test_the_operator_makes_the_first_admin_with_the_code_from_the_log(public_server, browser):
    server = public_server
    user_id, email, token = signed_in_account(
        server.database_url, password=PASSWORD, full_name="Operator"
    )
    context = browser.new_context(
        base_url=server.public_url,
        viewport={"width": 1280, "height": 900},
        extra_http_headers={"X-Forwarded-For": visitor_address()},
    )
    context.add_cookies([{"name": auth.COOKIE_NAME, "value": token, "url": server.public_url}])
    page = context.new_page()
    try:
        page.goto("/admin")
        setup = page.get_by_test_id("first-admin-setup")
        expect(setup).to_be_visible(timeout=20000)
        code_field = setup.get_by_label("Setup code")
        expect(code_field).to_be_visible()
        expect(setup).to_contain_text("in the server's log")
        setup.get_by_placeholder("Email of an existing user").fill(email)
        code_field.fill("WRONG-CODE-0000-0000")
        setup.get_by_role("button", name="Make First Admin").click()
        expect(page.get_by_test_id("first-admin-error")).to_have_text(
            "Failed to set first admin: the setup code is not valid"
        )
        assert _role(server, user_id) == "user"

        code_field.fill(_logged_code(server).lower())  # as typed off a log, in any case
        setup.get_by_role("button", name="Make First Admin").click()
        expect(page.get_by_test_id("first-admin-notice")).to_have_text(
            "First admin set successfully!"
        )
        expect(page.get_by_test_id("admin-home")).to_be_visible()
        assert _role(server, user_id) == "admin"
    finally:
        context.close()
