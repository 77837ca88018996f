"""The bookings CSV speaks its admin's back-office language (issue 34): built outside any page,
it fell back to the site's default edition and wrote 'Diplomim' for an English admin whose list
says 'Graduation'. Through the app's own route, on SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import httpx
import pytest

import storefront.db
from storefront import i18n
from storefront.api import create_api
from storefront.models import User
from storefront.services.accounts import auth
from tests.factories import line, make_service, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)


@pytest.fixture
def app_on_test_database(engine, monkeypatch):
    monkeypatch.setattr(storefront.db, "get_engine", lambda: engine)


async def _event_types(session, language: str | None) -> list[str]:
    admin = User(email=f"admin-{language}@example.com", role="admin", language=language)
    session.add(admin)
    session.commit()
    token = auth.create_session(session=session, user_id=admin.id, remember=False)
    session.commit()
    transport = httpx.ASGITransport(app=create_api())
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        client.cookies.set(auth.COOKIE_NAME, token)
        answer = await client.get("/api/admin/bookings.csv")
    assert answer.status_code == 200
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    return [row["Event Type"] for row in rows]


async def test_the_csv_says_what_the_admins_list_says(session, app_on_test_database):
    castle = make_service(session, units=3)
    place(session, [line(castle, "2026-06-10", "10:00")], now=NOW, event_type="graduation")
    session.commit()
    assert await _event_types(session, None) == ["Graduation"]
    with i18n.using("sq", office=True):
        albanian = i18n._s("Graduation")
    assert albanian != "Graduation"
    assert await _event_types(session, "sq") == [albanian]
