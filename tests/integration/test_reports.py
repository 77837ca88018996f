"""The owner's reports (issue 36, item 6; services/operations/reports.py) on known data, figures
worked out by hand, on SQLite and PostgreSQL; and nothing for anyone but an admin, neither from
the service nor from the CSV address.

November 2026 (Europe/Belgrade, UTC+1; 1 November is a Sunday, 21 weekdays):

  B1 confirmed  Castle x2 10.11 10-14 (200 a unit = 400), Arch 10.11 10-13 (150); transport 50,
                total 600; paid 300 on 10.11 -> Castle 200, Arch 75, transport 25
  B2 completed  Mascot 20.11 16-18 (80); paid 80 on 20.11, 50 on 21.11 reversed on 22.11
  B3 cancelled  Castle 15.11 (100)
  B4 pending    Arch 01.12 00:30 local (= 30.11 23:30 UTC: December), 120; 40 paid 01.12 local
  B5 confirmed  Castle 01.11 00:30-01:30 local (= 31.10 23:30 UTC: November), 100; paid 100 at
                01.11 00:30 local
  B6 completed  Arch 20.10 10-12 (60); paid 60 on 20.10, reversed on 05.11 (Arch -60 in November)
  B8 pending    Arch 26.11 10-11 (70), nothing paid, still to come on the 25th

Booked: Castle 400 + 100 = 500, Arch 150 + 70 = 220, Mascot 80: 800 (Fun 580, Decor 220).
Collected: 300 + 80 + 50 - 50 + 100 - 60 = 420: Castle 200 + 100 = 300, Arch 75 - 60 = 15,
Mascot 80, transport and other 25 (Fun 380, Decor 15).
Open unit-hours: Castle (Mon-Fri 10-18, 2 units, its own block on Wed 11.11) 20 days x 8 h x 2 =
320; Arch (every day 09-21) and Mascot (no rows: 08-20 by default) 29 days (28.11 blocked for
every service) x 12 h = 348; Tent (every day switched off) 0.
Booked unit-hours: Castle 2 x 4 + 1 = 9 (2.8 %), Arch 3 + 1 = 4 (1.1 %), Mascot 2 (0.6 %).
Cancellations: B1, B2, B3, B5, B8 start in November; B3 cancelled: 1 of 5, 20.0 %, value 100.
Unpaid after the event on 25.11 12:00 UTC: B6 (20.10, 60 of 60, 36 days), B1 (10.11, 300 of
600, 15 days): 360.
"""

from __future__ import annotations

import csv
import io
import uuid
from datetime import UTC, date, datetime, time
from decimal import Decimal
from zoneinfo import ZoneInfo

import httpx
import pytest
from sqlalchemy import delete
from sqlmodel import col

import storefront.db
from storefront.api import create_api
from storefront.models import (
    BlockedDate,
    Booking,
    BookingItem,
    Payment,
    ServiceAvailability,
    ServiceCategory,
    User,
)
from storefront.services.accounts import auth
from storefront.services.operations import reports
from tests.factories import make_service

LOCAL = ZoneInfo("Europe/Belgrade")
NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
D = Decimal


def _local(day: str, clock: str) -> datetime:
    return datetime.combine(date.fromisoformat(day), time.fromisoformat(clock), tzinfo=LOCAL)


def _booking(session, status, total, lines, transport="0", name="Arta Krasniqi"):
    booking = Booking(
        idempotency_key=uuid.uuid4().hex,
        status=status,
        contact_name=name,
        contact_email=f"{uuid.uuid4().hex[:6]}@example.com",
        contact_phone="+383 44 123 456",
        total_amount=D(total),
        transport_amount=D(transport),
    )
    session.add(booking)
    session.flush()
    for service, quantity, price, start, end in lines:
        session.add(
            BookingItem(
                booking_id=booking.id,
                service_id=service.id,
                service_name=service.title,
                service_price=D(price),
                quantity=quantity,
                start_datetime=start,
                end_datetime=end,
                status=status,
            )
        )
    session.flush()
    return booking


def _pay(session, booking, amount, when, reverses=None):
    payment = Payment(
        booking_id=booking.id,
        kind="reversal" if reverses else "payment",
        amount=D(amount),
        method="cash",
        recorded_at=when,
        idempotency_key=uuid.uuid4().hex,
        reverses_id=reverses.id if reverses else None,
    )
    session.add(payment)
    session.flush()
    return payment


@pytest.fixture
def november(session):
    fun = ServiceCategory(name="Argëtim", slug="fun")
    decor = ServiceCategory(name="Dekorime", slug="decor")
    session.add_all([fun, decor])
    session.flush()
    weekdays = [(day, "10:00", "18:00", 60, 1) for day in range(1, 6)]
    castle = make_service(session, title="Castle", units=2, hours=weekdays)
    for day in (0, 6):
        session.add(
            ServiceAvailability(
                service_id=castle.id,
                day_of_week=day,
                start_time=time(10),
                end_time=time(18),
                is_available=False,
            )
        )
    arch = make_service(
        session, title="Arch", units=1, hours=[(d, "09:00", "21:00", 60, 1) for d in range(7)]
    )
    mascot = make_service(session, title="Mascot", units=1)
    tent = make_service(session, title="Tent", units=3)
    for day in range(7):
        session.add(
            ServiceAvailability(
                service_id=tent.id,
                day_of_week=day,
                start_time=time(9),
                end_time=time(17),
                is_available=False,
            )
        )
    make_service(session, title="Old tent", units=1, active=False)
    castle.category_id = mascot.category_id = tent.category_id = fun.id
    arch.category_id = decor.id
    session.add(
        BlockedDate(
            service_id=castle.id, start_date=date(2026, 11, 11), end_date=date(2026, 11, 11)
        )
    )
    session.add(
        BlockedDate(service_id=None, start_date=date(2026, 11, 28), end_date=date(2026, 11, 28))
    )
    session.flush()

    b1 = _booking(
        session,
        "confirmed",
        "600",
        [
            (castle, 2, "200", _local("2026-11-10", "10:00"), _local("2026-11-10", "14:00")),
            (arch, 1, "150", _local("2026-11-10", "10:00"), _local("2026-11-10", "13:00")),
        ],
        transport="50",
    )
    _pay(session, b1, "300", _local("2026-11-10", "15:00"))
    b2 = _booking(
        session,
        "completed",
        "80",
        [(mascot, 1, "80", _local("2026-11-20", "16:00"), _local("2026-11-20", "18:00"))],
    )
    _pay(session, b2, "80", _local("2026-11-20", "18:30"))
    mistake = _pay(session, b2, "50", _local("2026-11-21", "09:00"))
    _pay(session, b2, "-50", _local("2026-11-22", "09:00"), reverses=mistake)
    _booking(
        session,
        "cancelled",
        "100",
        [(castle, 1, "100", _local("2026-11-15", "10:00"), _local("2026-11-15", "12:00"))],
    )
    b4 = _booking(
        session,
        "pending",
        "120",
        [(arch, 1, "120", _local("2026-12-01", "00:30"), _local("2026-12-01", "02:30"))],
    )
    _pay(session, b4, "40", _local("2026-12-01", "00:10"))
    b5 = _booking(
        session,
        "confirmed",
        "100",
        [(castle, 1, "100", _local("2026-11-01", "00:30"), _local("2026-11-01", "01:30"))],
    )
    _pay(session, b5, "100", _local("2026-11-01", "00:30"))
    b6 = _booking(
        session,
        "completed",
        "60",
        [(arch, 1, "60", _local("2026-10-20", "10:00"), _local("2026-10-20", "12:00"))],
        name="",
    )
    october = _pay(session, b6, "60", _local("2026-10-20", "12:30"))
    _pay(session, b6, "-60", _local("2026-11-05", "09:00"), reverses=october)
    _booking(
        session,
        "pending",
        "70",
        [(arch, 1, "70", _local("2026-11-26", "10:00"), _local("2026-11-26", "11:00"))],
    )
    admin = User(email="owner@example.com", role="admin")
    session.add(admin)
    session.commit()
    yield {"admin": admin, "b1": b1, "b6": b6}
    # A reversal names its payment (RESTRICT): it goes first when the tables are emptied.
    session.rollback()
    session.exec(delete(Payment).where(col(Payment.reverses_id).is_not(None)))
    session.commit()


def _report(session, admin, month="2026-11"):
    return reports.monthly_report(session=session, actor_id=admin.id, month=month, now=NOW)


def test_booked_and_collected_by_category_and_service(session, november):
    revenue = _report(session, november["admin"]).revenue
    assert revenue.booked == D("800.00")
    assert revenue.collected == D("420.00")
    by_service = {r.name: (r.category, r.booked, r.collected) for r in revenue.by_service}
    assert by_service == {
        "Castle": ("Argëtim", D("500.00"), D("300.00")),
        "Arch": ("Dekorime", D("220.00"), D("15.00")),
        "Mascot": ("Argëtim", D("80.00"), D("80.00")),
        "Transport and other": ("", D("0.00"), D("25.00")),
    }
    assert [r.name for r in revenue.by_service] == [
        "Castle",
        "Arch",
        "Mascot",
        "Transport and other",
    ]
    by_category = [(r.name, r.booked, r.collected) for r in revenue.by_category]
    assert by_category == [
        ("Argëtim", D("580.00"), D("380.00")),
        ("Dekorime", D("220.00"), D("15.00")),
        ("Transport and other", D("0.00"), D("25.00")),
    ]
    assert all(isinstance(r.collected, Decimal) for r in revenue.by_service)


def test_the_month_is_local_time(session, november):
    """December holds B4's line (00:30 local on the 1st) and its 40 paid at 00:10 local."""
    revenue = _report(session, november["admin"], "2026-12").revenue
    assert revenue.booked == D("120.00")
    assert revenue.collected == D("40.00")
    assert [(r.name, r.collected) for r in revenue.by_service] == [("Arch", D("40.00"))]


def test_utilisation_counts_blocked_days_and_units(session, november):
    rows = _report(session, november["admin"]).utilisation
    assert [(r.service, r.booked_hours, r.open_hours, r.share) for r in rows] == [
        ("Castle", D("9.00"), D("320.00"), D("2.8")),
        ("Arch", D("4.00"), D("348.00"), D("1.1")),
        ("Mascot", D("2.00"), D("348.00"), D("0.6")),
        ("Tent", D("0.00"), D("0.00"), None),
    ]


def test_cancellations_share(session, november):
    found = _report(session, november["admin"]).cancellations
    assert (found.bookings, found.cancelled, found.share) == (5, 1, D("20.0"))
    assert found.cancelled_value == D("100.00")


def test_unpaid_after_the_event_oldest_first(session, november):
    unpaid = _report(session, november["admin"]).unpaid
    assert [
        (r.reference, r.event_day, r.total, r.paid, r.balance, r.days) for r in unpaid.rows
    ] == [
        (november["b6"].reference, date(2026, 10, 20), D("60.00"), D("0.00"), D("60.00"), 36),
        (november["b1"].reference, date(2026, 11, 10), D("600.00"), D("300.00"), D("300.00"), 15),
    ]
    assert unpaid.rows[0].customer.endswith("@example.com")  # no name: the email
    assert unpaid.rows[1].customer == "Arta Krasniqi"
    assert (unpaid.count, unpaid.balance) == (2, D("360.00"))
    shown = reports.unpaid(session=session, now=NOW, limit=1)
    assert (len(shown.rows), shown.count, shown.balance) == (1, 2, D("360.00"))


def test_months_are_checked(session, november):
    with pytest.raises(reports.ReportError) as refused:
        _report(session, november["admin"], "2026-13")
    assert refused.value.code == "invalid_month"
    assert reports.parse_month("", now=NOW).key == "2026-11"
    assert reports.shift_month("2026-12", 1) == "2027-01"
    assert reports.shift_month("2026-01", -1) == "2025-12"


@pytest.mark.parametrize("role", ["staff", "user"])
def test_nobody_else_gets_a_report(session, november, role):
    someone = User(email=f"{role}@example.com", role=role)
    session.add(someone)
    session.commit()
    for actor in (someone.id, None, "not-an-id"):
        with pytest.raises(reports.ReportError) as refused:
            reports.monthly_report(session=session, actor_id=actor, month="2026-11", now=NOW)
        assert refused.value.code in ("not_allowed", "no_user")
        with pytest.raises(reports.ReportError):
            reports.table_rows(session=session, actor_id=actor, table="unpaid", now=NOW)


# --- the CSV -------------------------------------------------------------------------------------


@pytest.fixture
def app_on_test_database(engine, monkeypatch):
    monkeypatch.setattr(storefront.db, "get_engine", lambda: engine)
    monkeypatch.setattr(reports, "utcnow", lambda: NOW)


def _token(session, user) -> str:
    token = auth.create_session(session=session, user_id=user.id, remember=False)
    session.commit()
    return token


async def _get(path: str, token: str | None) -> httpx.Response:
    transport = httpx.ASGITransport(app=create_api())
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        if token:
            client.cookies.set(auth.COOKIE_NAME, token)
        return await client.get(path)


async def test_the_csv_has_the_screens_rows(session, november, app_on_test_database):
    token = _token(session, november["admin"])
    answer = await _get("/api/admin/reports/revenue_by_service.csv?month=2026-11", token)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/csv")
    assert "reports-revenue_by_service-2026-11.csv" in answer.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(answer.text)))
    assert rows == [
        ["Service", "Category", "Booked", "Collected"],
        ["Castle", "Argëtim", "500.00", "300.00"],
        ["Arch", "Dekorime", "220.00", "15.00"],
        ["Mascot", "Argëtim", "80.00", "80.00"],
        ["Transport and other", "", "0.00", "25.00"],
        ["Total", "", "800.00", "420.00"],
    ]
    answer = await _get("/api/admin/reports/unpaid.csv?month=2026-11", token)
    rows = list(csv.reader(io.StringIO(answer.text)))
    assert rows[0][0] == "Reference"
    assert [row[0] for row in rows[1:-1]] == [november["b6"].reference, november["b1"].reference]
    assert rows[-1][-2] == "360.00"
    answer = await _get("/api/admin/reports/utilisation.csv?month=2026-11", token)
    rows = list(csv.reader(io.StringIO(answer.text)))
    assert rows[1] == ["Castle", "2", "9.00", "320.00", "2.8"]
    answer = await _get("/api/admin/reports/cancellations.csv?month=2026-11", token)
    assert list(csv.reader(io.StringIO(answer.text)))[1] == ["5", "1", "20.0", "100.00"]
    assert (await _get("/api/admin/reports/nope.csv", token)).status_code == 404
    assert (await _get("/api/admin/reports/unpaid.csv?month=13", token)).status_code == 400


async def test_the_csv_refuses_everyone_else(session, november, app_on_test_database):
    staff = User(email="driver@example.com", role="staff")
    user = User(email="guest@example.com", role="user")
    session.add_all([staff, user])
    session.commit()
    for token in (_token(session, staff), _token(session, user), None, "forged"):
        for table in reports.TABLES:
            answer = await _get(f"/api/admin/reports/{table}.csv?month=2026-11", token)
            assert answer.status_code == 403
            assert "Castle" not in answer.text and "MG-" not in answer.text


def test_a_deleted_services_lines_keep_their_name(session, november):
    """A line whose service was deleted (service_id None) is a row of its own name, under 'No
    category', booked and collected; two such names stay two rows."""
    for name, price in (("Old swing", "30"), ("Old slide", "20")):
        booking = Booking(
            idempotency_key=uuid.uuid4().hex,
            status="confirmed",
            contact_email="x@example.com",
            contact_phone="+383 44 000 000",
            total_amount=D(price),
        )
        session.add(booking)
        session.flush()
        session.add(
            BookingItem(
                booking_id=booking.id,
                service_id=None,
                service_name=name,
                service_price=D(price),
                quantity=1,
                start_datetime=_local("2026-11-12", "10:00"),
                end_datetime=_local("2026-11-12", "11:00"),
                status="confirmed",
            )
        )
        session.flush()
        _pay(session, booking, price, _local("2026-11-12", "12:00"))
    session.commit()
    revenue = _report(session, november["admin"]).revenue
    rows = {r.name: (r.category, r.booked, r.collected) for r in revenue.by_service}
    assert rows["Old swing"] == ("No category", D("30.00"), D("30.00"))
    assert rows["Old slide"] == ("No category", D("20.00"), D("20.00"))
    assert (revenue.booked, revenue.collected) == (D("850.00"), D("470.00"))
    categories = {r.name: (r.booked, r.collected) for r in revenue.by_category}
    assert categories["No category"] == (D("50.00"), D("50.00"))
    # Not in utilisation: no service to be open.
    assert "Old swing" not in {r.service for r in _report(session, november["admin"]).utilisation}


async def test_the_csv_speaks_the_admins_language(session, november, app_on_test_database):
    november["admin"].language = "sq"
    session.add(november["admin"])
    session.commit()
    token = _token(session, november["admin"])
    answer = await _get("/api/admin/reports/revenue_by_category.csv?month=2026-11", token)
    rows = list(csv.reader(io.StringIO(answer.text)))
    assert rows[0] == ["Kategoria", "Të rezervuara", "Arkëtuar"]
    assert rows[-2] == ["Transporti dhe të tjera", "0.00", "25.00"]
    assert rows[-1] == ["Totali", "800.00", "420.00"]
