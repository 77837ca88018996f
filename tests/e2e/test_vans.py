"""Vans and the day's plan on a phone (issue 37): the owner adds two vans, gives three runs of a
day of this test's own to them with a crew, and sees the two runs one van cannot drive at once
flagged in red, each naming the other; the Settings Travel card keeps a refused value beside its
message. Staff and guests sending the plan's events get nothing."""

from __future__ import annotations

import random
import uuid
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect
from sqlmodel import Session, select

from storefront.db import make_engine
from storefront.models import User, VanJob
from storefront.services import dates
from storefront.services.booking import admin as admin_bookings
from storefront.services.booking import placing
from storefront.state.admin_vans import AdminVanPlanState
from tests.e2e.socket_client import Tab
from tests.e2e.socket_client import run as _run
from tests.e2e.test_staff_day import _admin, _signed_in, _staff
from tests.factories import contact, line, make_service

pytestmark = pytest.mark.e2e


def _bookings(server, day, starts: list[str]) -> list[tuple[str, str]]:
    """Confirmed bookings of a fresh castle (an hour's set-up) on `day`, one per start, in
    Ferizaj: [(id, reference)]."""
    engine = make_engine(server.database_url)
    made = []
    with Session(engine, expire_on_commit=False) as session:
        service = make_service(session, title=f"Castle {uuid.uuid4().hex[:6]}", units=5)
        service.kind, service.setup_lead_minutes = "service", 60
        admin = User(email=f"office-{uuid.uuid4().hex[:8]}@example.com", role="admin")
        session.add_all([service, admin])
        session.commit()
        service_id, admin_id = str(service.id), admin.id
        for start in starts:
            session.commit()
            placed = placing.place_booking(
                session=session,
                lines=[line(service_id, day.isoformat(), start, hours=2)],
                contact=contact(email="vans.guest@example.com", full_name="Drita Krasniqi"),
                idempotency_key=f"vans-{uuid.uuid4().hex}",
                now=datetime.now(dates.business_zone()) - timedelta(days=2),
            )
            admin_bookings.set_status(
                session=session, actor_id=admin_id, booking_id=placed.id, status="confirmed"
            )
            made.append((placed.id, placed.reference))
    engine.dispose()
    return made


def _named(server, user_id: str, name: str) -> None:
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        user = session.get(User, uuid.UUID(user_id))
        user.full_name = name
        session.add(user)
        session.commit()
    engine.dispose()


def _add_van(phone, name: str, plate: str) -> None:
    form = phone.get_by_test_id("van-form")
    form.get_by_test_id("van-name").fill(name)
    form.get_by_test_id("van-plate").fill(plate)
    form.get_by_test_id("van-note").fill("Two castles and 60 chairs")
    form.get_by_test_id("van-save").click()
    expect(phone.get_by_test_id("van-row").filter(has_text=name)).to_be_visible()


def _assign(phone, reference: str, van: str, member: str) -> None:
    run = phone.locator(f'[data-testid="plan-run"][data-reference="{reference}"]').filter(
        has=phone.locator('input[name="run"][value$=":delivery"]')
    )
    run.get_by_test_id("plan-van").select_option(label=van)
    run.get_by_label(member).check()
    run.get_by_test_id("plan-assign").click()
    expect(run.get_by_test_id("plan-assigned")).to_contain_text(van)


def test_the_owner_gives_three_runs_to_two_vans_and_sees_the_clash(phone, server):
    day = dates.today() + timedelta(days=random.randint(40, 120))
    (_a, first), (_b, second), (_c, third) = _bookings(server, day, ["12:00", "13:00", "18:00"])
    _admin_id, token = _admin(server)
    staff_id, _token, _email = _staff(server)
    member = f"Besa {uuid.uuid4().hex[:4]}"
    _named(server, staff_id, member)
    suffix = uuid.uuid4().hex[:4]
    one, two = f"Van A {suffix}", f"Van B {suffix}"
    _signed_in(phone, server, token)

    phone.goto(f"{server.url}/admin/vans")
    _add_van(phone, one, "01-111-AA")
    _add_van(phone, two, "01-222-BB")
    # A second van of the same name, in other letters, is refused beside its field and kept.
    phone.get_by_test_id("van-name").fill(one.upper())
    phone.get_by_test_id("van-save").click()
    expect(phone.get_by_test_id("van-name-error")).to_contain_text(one)
    expect(phone.get_by_test_id("van-name")).to_have_value(one.upper())
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    phone.goto(f"{server.url}/admin/vans/plan/{day.isoformat()}")
    expect(phone.get_by_test_id("plan-day")).to_contain_text(dates.display_day(day))
    _assign(phone, first, one, member)
    _assign(phone, second, one, member)
    _assign(phone, third, two, member)

    def delivery(reference: str):
        return phone.locator(f'[data-testid="plan-run"][data-reference="{reference}"]').filter(
            has=phone.locator('input[name="run"][value$=":delivery"]')
        )

    expect(delivery(first).get_by_test_id("plan-clash")).to_contain_text(
        f"Clashes with {second} delivery ({one})"
    )
    expect(delivery(second).get_by_test_id("plan-clash")).to_contain_text(
        f"Clashes with {first} delivery ({one})"
    )
    expect(delivery(third).get_by_test_id("plan-clash")).to_have_count(0)
    expect(phone.get_by_test_id("plan-by-van")).to_contain_text(two)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    engine = make_engine(server.database_url)
    with Session(engine) as session:
        assert len(session.exec(select(VanJob).where(VanJob.day == day)).all()) == 3
    engine.dispose()


def test_the_travel_card_keeps_a_refused_value(phone, server):
    _admin_id, token = _admin(server)
    _signed_in(phone, server, token)
    phone.goto(f"{server.url}/admin/settings")
    card = phone.get_by_test_id("travel-setting")
    field = card.get_by_test_id("travel-dragash")
    expect(field).to_be_enabled()
    field.fill("9999")
    card.get_by_test_id("travel-save").click()
    expect(card.get_by_test_id("travel-dragash-error")).to_contain_text("Dragash")
    expect(field).to_have_value("9999")
    field.fill("95")
    card.get_by_test_id("travel-save").click()
    expect(card.get_by_test_id("travel-setting-notice-notice")).to_contain_text(
        "Driving times saved"
    )
    phone.reload()
    card = phone.get_by_test_id("travel-setting")
    expect(card.get_by_test_id("travel-dragash")).to_have_value("95")
    # Back as it was: other tests' leave times use the default drive.
    card.get_by_test_id("travel-dragash").fill("")
    card.get_by_test_id("travel-save").click()
    expect(card.get_by_test_id("travel-setting-notice-notice")).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_staff_and_guests_sending_the_plan_events_get_nothing(server):
    day = dates.today() + timedelta(days=random.randint(130, 200))
    ((booking_id, reference),) = _bookings(server, day, ["12:00"])
    _staff_id, token, _email = _staff(server)
    name = AdminVanPlanState.get_full_name()
    seen: list[str] = []

    async def scenario(session_token):
        async with Tab(server.url, session_token) as tab:
            await tab.send_event(f"{name}.load", f"/admin/vans/plan/{day.isoformat()}", {})
            await tab.send_event(
                f"{name}.assign",
                f"/admin/vans/plan/{day.isoformat()}",
                {"form": {"run": f"{booking_id}:delivery", "van": str(uuid.uuid4())}},
            )
            seen.append(tab.states_text())

    _run(scenario(token))
    _run(scenario(None))
    assert reference not in "\n".join(seen)
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        assert session.exec(select(VanJob).where(VanJob.day == day)).all() == []
    engine.dispose()
