"""The van's day on a driver's phone (issue 37): a driver signs in at 390 px, opens the sheet of
a day their van works, and sees only their van's jobs in driving order, each saying when to leave
the depot, with the Route link through the stops; 'All jobs' shows the others without their
buttons; the load list sums the van's items. Its own days (some weeks ahead): the e2e server and
database are shared by every test."""

from __future__ import annotations

import re
import uuid
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect
from sqlmodel import Session

from storefront import i18n, routes
from storefront.db import make_engine
from storefront.models import User, Van, VanJob, VanJobCrew
from storefront.services import dates
from storefront.services.accounts import auth
from storefront.services.booking import admin as admin_bookings
from storefront.services.booking import placing
from tests.e2e.helpers import PASSWORD, sign_in
from tests.factories import contact, line, make_service

pytestmark = pytest.mark.e2e


def _van_day(server, day) -> dict:
    """Two vans on `day`: the driver's takes three jobs (15:00, 10:00, 12:00), the other van one
    (09:00). Returns the driver's email, the references in driving order and the other's."""
    engine = make_engine(server.database_url)
    with Session(engine, expire_on_commit=False) as session:
        driver = User(
            email=f"van-driver-{uuid.uuid4().hex[:8]}@example.com",
            role="staff",
            full_name="Dren Driver",
            password_hash=auth.hash_password(PASSWORD),
        )
        other = User(email=f"van-other-{uuid.uuid4().hex[:8]}@example.com", role="staff")
        admin = User(email=f"van-office-{uuid.uuid4().hex[:8]}@example.com", role="admin")
        mine, theirs = (
            Van(name=f"Red {uuid.uuid4().hex[:4]}"),
            Van(name=f"Blue {uuid.uuid4().hex[:4]}"),
        )
        session.add_all([driver, other, admin, mine, theirs])
        session.commit()
        house = make_service(session, title=f"Bubble house {uuid.uuid4().hex[:4]}", units=10)
        chair = make_service(session, title=f"Tiffany chair {uuid.uuid4().hex[:4]}", units=500)
        refs = {}
        for start, van, crew in (
            ("15:00", mine, driver),
            ("10:00", mine, driver),
            ("12:00", mine, driver),
            ("09:00", theirs, other),
        ):
            lines = [
                line(house, day.isoformat(), start, hours=2),
                line(chair, day.isoformat(), start, hours=2, quantity=20),
            ]
            booked_by = contact(email="van.guest@example.com", full_name="Vjosa Hoxha")
            placed_at = datetime.now(dates.business_zone()) - timedelta(days=2)
            session.commit()  # the booking engine opens its own transaction
            placed = placing.place_booking(
                session=session,
                lines=lines,
                contact=booked_by,
                idempotency_key=f"van-{uuid.uuid4().hex}",
                now=placed_at,
            )
            admin_bookings.set_status(
                session=session, actor_id=admin.id, booking_id=placed.id, status="confirmed"
            )
            for leg in ("delivery", "pickup"):
                job = VanJob(booking_id=uuid.UUID(placed.id), leg=leg, day=day, van_id=van.id)
                session.add(job)
                session.flush()
                session.add(VanJobCrew(job_id=job.id, user_id=crew.id))
            session.commit()
            refs[start] = placed.reference
        result = {
            "email": driver.email,
            "van": mine.name,
            "order": [refs["10:00"], refs["12:00"], refs["15:00"]],
            "other": refs["09:00"],
            "house": house.title,
            "chair": chair.title,
        }
    engine.dispose()
    return result


def test_a_driver_sees_their_vans_day_in_order_with_the_route_and_load_list(phone, server):
    day = dates.today() + timedelta(days=37)
    seeded = _van_day(server, day)
    sign_in(phone, seeded["email"])
    expect(phone).to_have_url(re.compile(r"/admin/day/?$"), timeout=15000)
    phone.goto(i18n.href(routes.with_id(routes.ADMIN_DAY_OF, day.isoformat()), "en"))

    expect(phone.get_by_test_id("sheet-my-van")).to_contain_text(seeded["van"], timeout=15000)
    jobs = phone.get_by_test_id("sheet-booking")
    expect(jobs).to_have_count(3)
    for n, reference in enumerate(seeded["order"]):
        expect(jobs.nth(n)).to_contain_text(reference)
    expect(phone.get_by_text(seeded["other"])).to_have_count(0)
    # 10:00 with the chairs' and the house's setup lead, and 15 min within Prishtinë.
    expect(jobs.first.get_by_test_id("sheet-leave")).to_have_text(
        re.compile(r"^Leave the depot at 0\d:\d\d$")
    )
    expect(jobs.first.get_by_test_id("sheet-call")).to_have_attribute(
        "href", re.compile(r"^tel:\+383")
    )
    expect(jobs.first.get_by_test_id("sheet-map")).to_have_attribute(
        "href", re.compile(r"^https://www\.google\.com/maps/search/")
    )
    route = phone.get_by_test_id("sheet-route")
    expect(route).to_have_attribute(
        "href", re.compile(r"^https://www\.google\.com/maps/dir/\?api=1&travelmode=driving&origin=")
    )
    # Nothing wider than the phone.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    # 'All jobs': the other van's job shows, without its buttons.
    phone.get_by_test_id("sheet-all-jobs").click()
    other = phone.get_by_test_id("sheet-booking").filter(has_text=seeded["other"])
    expect(other).to_be_visible()
    expect(other.get_by_test_id("sheet-collect-open")).to_have_count(0)
    expect(other.get_by_test_id("sheet-note-open")).to_have_count(0)
    phone.get_by_test_id("sheet-my-jobs").click()
    expect(phone.get_by_test_id("sheet-booking")).to_have_count(3)

    # The load list: the van's three deliveries summed by item, and what comes back.
    phone.get_by_test_id("sheet-load-list").click()
    expect(phone.get_by_test_id("load-van-name")).to_contain_text(seeded["van"], timeout=15000)
    expect(phone.get_by_test_id("load-lines")).to_contain_text(f"3 × {seeded['house']}")
    expect(phone.get_by_test_id("load-lines")).to_contain_text(f"60 × {seeded['chair']}")
    expect(phone.get_by_test_id("load-back")).to_contain_text(f"60 × {seeded['chair']}")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
