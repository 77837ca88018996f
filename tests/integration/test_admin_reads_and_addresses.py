"""Issue 33, finding 6, on SQLite and PostgreSQL through the app's own HTTP routes: a booking's
calendar file follows the admin check of every admin path (an admin who must still set up
two-factor sign-in gets nothing of anyone else's booking), and the routes read the visitor's
address from every X-Forwarded-For line, as the websocket does."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import pytest
from starlette.requests import Request

import storefront.db
from storefront.api import auth as auth_routes
from storefront.api import create_api
from storefront.models import BusinessSettings, User
from storefront.services.accounts import auth
from storefront.services.booking import placing
from storefront.settings import get_settings
from tests.factories import contact, line, make_service

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-10"


@pytest.fixture
def app_on_test_database(engine, monkeypatch):
    monkeypatch.setattr(storefront.db, "get_engine", lambda: engine)


def _signed_in(session, email: str, role: str) -> str:
    user = User(email=email, full_name="Someone", role=role)
    session.add(user)
    session.commit()
    token = auth.create_session(session=session, user_id=user.id, remember=False)
    session.commit()
    return token


async def _ics(booking_id: str, token: str) -> int:
    transport = httpx.ASGITransport(app=create_api())
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        answer = await client.get(
            f"/api/bookings/{booking_id}.ics", cookies={auth.COOKIE_NAME: token}
        )
    return answer.status_code


async def test_an_admin_who_must_set_up_two_factor_downloads_no_booking(
    session, app_on_test_database
):
    bouncer = make_service(session, title="Bouncer", units=1)
    session.commit()
    placed = placing.place_booking(
        session=session,
        lines=[line(bouncer, DAY, "10:00")],
        contact=contact(),
        idempotency_key="ics-rights-key-1",
        now=NOW,
    )
    session.commit()
    admin = _signed_in(session, "admin@example.com", "admin")
    assert await _ics(placed.id, admin) == 200
    settings = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
    settings.admin_two_factor_required = True
    session.add(settings)
    session.commit()
    assert await _ics(placed.id, admin) == 404
    assert await _ics(placed.id, _signed_in(session, "user@example.com", "user")) == 404


def _request(*forwarded: bytes) -> Request:
    headers = [(b"x-forwarded-for", value) for value in forwarded]
    return Request({"type": "http", "headers": headers, "client": ("10.0.0.1", 5000)})


def test_the_routes_read_every_forwarded_for_line(monkeypatch):
    """Two X-Forwarded-For lines (a client's own, then the trusted proxy's): with one trusted
    hop the visitor is the last entry of them all, the proxy's report."""
    monkeypatch.setattr(get_settings(), "trusted_proxy_hops", 1)
    spoofed = _request(b"203.0.113.66", b"198.51.100.7")
    assert auth_routes.client_ip(spoofed) == "198.51.100.7"
    assert auth_routes.client_ip(_request(b"203.0.113.66, 198.51.100.8")) == "198.51.100.8"
    monkeypatch.setattr(get_settings(), "trusted_proxy_hops", 2)
    assert auth_routes.client_ip(spoofed) == "203.0.113.66"
    monkeypatch.setattr(get_settings(), "trusted_proxy_hops", 0)
    assert auth_routes.client_ip(spoofed) == "10.0.0.1"
