"""The owner's reports in Chromium (issue 36, item 6): an admin opens /admin/reports on a phone
(390 px) and on a desktop and sees this month's revenue chart and tables, utilisation,
cancellations and the unpaid balance of a past event linked to its booking; moves to the previous
month and back; downloads a table as CSV. Anyone else gets neither the screen nor the CSV."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import expect
from sqlmodel import Session

from storefront.db import make_engine
from storefront.models import Booking, BookingItem, Payment, ServiceCategory, User
from storefront.services import dates
from storefront.services.accounts import auth
from storefront.state.admin_reports import AdminReportsState as S
from tests.e2e.socket_client import Tab, run
from tests.factories import make_service

pytestmark = pytest.mark.e2e

SHOTS = Path("/tmp/reports-shots")


def _signed_in(page, server, role: str, language: str = "en") -> None:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        user = User(
            email=f"{role}-{uuid.uuid4().hex[:8]}@example.com", role=role, language=language
        )
        session.add(user)
        session.flush()
        token = auth.create_session(session=session, user_id=user.id, remember=False)
        session.commit()
    engine.dispose()
    page.context.add_cookies([{"name": auth.COOKIE_NAME, "value": token, "url": server.url}])


def _month_of_data(server) -> dict[str, str]:
    """A category, a service, a booking that ended an hour ago (400 booked, 150 paid today) and
    one in the middle of last month with nothing paid (400 booked there)."""
    tag = uuid.uuid4().hex[:6]
    now = datetime.now(UTC)
    last_month = dates.day_start_utc(dates.today().replace(day=1)) - timedelta(days=15)
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        category = ServiceCategory(name=f"Festa {tag}", slug=f"festa-{tag}")
        session.add(category)
        session.flush()
        service = make_service(session, title=f"Kështjellë {tag}", units=2)
        service.category_id = category.id
        references = []
        for start, paid in ((now - timedelta(hours=3), "150"), (last_month, None)):
            booking = Booking(
                idempotency_key=uuid.uuid4().hex,
                status="confirmed",
                contact_name=f"Arta {tag}",
                contact_email=f"arta-{tag}@example.com",
                contact_phone="+383 44 123 456",
                total_amount=Decimal("400"),
            )
            session.add(booking)
            session.flush()
            session.add(
                BookingItem(
                    booking_id=booking.id,
                    service_id=service.id,
                    service_name=service.title,
                    service_price=Decimal("200"),
                    quantity=2,
                    start_datetime=start,
                    end_datetime=start + timedelta(hours=2),
                    status="confirmed",
                )
            )
            if paid:
                session.add(
                    Payment(
                        booking_id=booking.id,
                        amount=Decimal(paid),
                        method="cash",
                        recorded_at=now,
                        idempotency_key=uuid.uuid4().hex,
                    )
                )
            session.flush()
            references.append((booking.reference, str(booking.id)))
        session.commit()
        found = {
            "tag": tag,
            "category": category.name,
            "service": service.title,
            "old_reference": references[1][0],
            "old_id": references[1][1],
            "recent_reference": references[0][0],
        }
    engine.dispose()
    return found


def _sees_the_reports(page, data: dict[str, str], shot: str) -> None:
    page.goto("/admin/reports")
    expect(page.get_by_test_id("reports")).to_be_visible(timeout=30_000)
    month = page.get_by_test_id("report-month")
    this_month = month.inner_text()
    expect(
        page.get_by_test_id("revenue-chart").locator(".recharts-bar-rectangle").first
    ).to_be_visible()
    expect(page.get_by_test_id("revenue-by-category")).to_contain_text(data["category"])
    ours = page.get_by_test_id("service-row").filter(has_text=data["service"])
    expect(ours).to_contain_text("400.00")
    expect(ours).to_contain_text("150.00")  # collected
    expect(page.get_by_test_id("utilisation")).to_contain_text(data["service"])
    expect(page.get_by_test_id("cancellations")).to_be_visible()
    unpaid = page.get_by_test_id("unpaid")
    expect(unpaid).to_contain_text(data["old_reference"])
    expect(unpaid).to_contain_text(data["recent_reference"])  # ended an hour ago, 250 left
    link = unpaid.get_by_role("link", name=data["old_reference"])
    assert link.get_attribute("href").endswith(f"/admin/bookings/edit/{data['old_id']}")
    # Nothing runs off the screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{shot}.png"), full_page=True)
    # The previous month and back.
    page.get_by_test_id("month-previous").click()
    expect(month).not_to_have_text(this_month)
    expect(ours).to_contain_text("400.00")  # last month's booking, nothing collected
    expect(ours).not_to_contain_text("150.00")
    page.get_by_test_id("month-this").click()
    expect(month).to_have_text(this_month)
    expect(ours).to_contain_text("150.00")
    # The CSV of a table, with the browser's own cookie.
    href = page.get_by_test_id("csv-revenue_by_service").get_attribute("href")
    answer = page.request.get(href)
    assert answer.status == 200
    assert data["service"] in answer.text()


def test_an_admin_reads_the_reports_on_a_phone(phone, server):
    data = _month_of_data(server)
    _signed_in(phone, server, "admin")
    _sees_the_reports(phone, data, "phone")


def test_an_admin_reads_the_reports_on_a_desktop(page, server):
    data = _month_of_data(server)
    _signed_in(page, server, "admin")
    _sees_the_reports(page, data, "desktop")


def test_the_albanian_reports_on_a_phone(phone, server):
    """The back office in Albanian: the same screen in its words, nothing off the screen."""
    data = _month_of_data(server)
    _signed_in(phone, server, "admin", "sq")
    phone.goto("/sq/admin/reports")
    expect(phone.get_by_test_id("reports")).to_be_visible(timeout=30_000)
    expect(phone.locator("h1")).to_have_text("Raportet")
    expect(phone.get_by_test_id("reports")).to_contain_text("Shfrytëzimi sipas shërbimit")
    expect(phone.get_by_test_id("revenue-by-service")).to_contain_text(data["service"])
    month = phone.get_by_test_id("report-month").inner_text()
    assert month.split()[0] in ALBANIAN_MONTHS, month
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    SHOTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(SHOTS / "phone-sq.png"), full_page=True)


ALBANIAN_MONTHS = {
    "Janar",
    "Shkurt",
    "Mars",
    "Prill",
    "Maj",
    "Qershor",
    "Korrik",
    "Gusht",
    "Shtator",
    "Tetor",
    "Nëntor",
    "Dhjetor",
}


@pytest.mark.parametrize("role", ["staff", "user"])
def test_nobody_else_sees_them(page, server, role):
    data = _month_of_data(server)
    _signed_in(page, server, role)
    page.goto("/admin/reports")
    expect(page.get_by_test_id("access-denied")).to_be_visible(timeout=30_000)
    expect(page.get_by_test_id("reports")).to_have_count(0)
    expect(page.locator("body")).not_to_contain_text(data["service"])
    answer = page.request.get("/api/admin/reports/unpaid.csv")
    assert answer.status == 403
    assert data["old_reference"] not in answer.text()


def _token(server, role: str) -> str:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        user = User(email=f"{role}-{uuid.uuid4().hex[:8]}@example.com", role=role)
        session.add(user)
        session.flush()
        token = auth.create_session(session=session, user_id=user.id, remember=False)
        session.commit()
    engine.dispose()
    return token


def test_forged_report_events_show_nothing_but_to_an_admin(server):
    """Every handler of the state, sent over the real websocket by a guest, a member of staff
    and a customer: no figure, name or reference of the month reaches them; an admin's do."""
    data = _month_of_data(server)
    events = (S.load, S.previous_month, S.next_month, S.this_month)
    seen: dict[str, str] = {}

    async def scenario():
        for who, token in (
            ("guest", None),
            ("staff", _token(server, "staff")),
            ("user", _token(server, "user")),
            ("admin", _token(server, "admin")),
        ):
            async with Tab(server.url, token) as tab:
                for handler in events:
                    await tab.send(handler, "/admin/reports")
                seen[who] = "\n".join(tab.received)

    run(scenario())
    # (the messages are JSON with ASCII escapes: the tag, not the name with its 'ë', is sought)
    assert data["tag"] in seen["admin"] and data["old_reference"] in seen["admin"]
    for who in ("guest", "staff", "user"):
        assert data["tag"] not in seen[who], who
        assert data["old_reference"] not in seen[who], who
