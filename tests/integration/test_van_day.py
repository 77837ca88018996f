"""The van's day on SQLite and PostgreSQL (issue 37): the day sheet of a driver shows their van's
jobs in driving order with the Route link, an admin's a van's on request; each job says when the
van leaves the depot (the drive from the driving table); the load list sums a van's items; the
server refuses a member of staff's change to another van's job (status, note, 'Collected'); and
the sheet reads a whole day in a few queries."""

import uuid
from datetime import UTC, date, datetime
from functools import partial
from urllib.parse import unquote

import pytest
from reflex.state import State
from sqlalchemy import event
from sqlmodel import select

import storefront.storefront  # noqa: F401  (registers every page and state)
from storefront.models import (
    Booking,
    BookingNote,
    BusinessSettings,
    Payment,
    User,
    Van,
    VanJob,
    VanJobCrew,
)
from storefront.services.booking import admin as ab
from storefront.services.booking.admin import AdminBookingError
from storefront.services.operations import day_sheet, travel
from storefront.services.payments import ledger
from storefront.state.day_sheet import DaySheetState
from tests.factories import line, make_service, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = "2026-06-13"
ON_THE_DAY = datetime(2026, 6, 13, 6, 0, tzinfo=UTC)
_place = partial(place, now=NOW)


def _user(session, role="staff", name=None) -> User:
    user = User(email=f"{role}-{uuid.uuid4().hex[:6]}@example.com", role=role, full_name=name)
    session.add(user)
    session.commit()
    return user


def _drives(session, address="", **minutes):
    row = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
    row.depot_municipality = "prishtine"
    row.address = address
    row.travel_minutes = {travel.pair("prishtine", key): m for key, m in minutes.items()}
    session.add(row)
    session.commit()


def _give(session, booking, leg, van, crew):
    job = VanJob(booking_id=uuid.UUID(booking.id), leg=leg, day=date(2026, 6, 13), van_id=van.id)
    session.add(job)
    session.flush()
    session.add_all([VanJobCrew(job_id=job.id, user_id=m.id) for m in crew])
    session.commit()


def _confirm(session, admin, booking):
    ab.set_status(
        session=session, actor_id=str(admin.id), booking_id=booking.id, status="confirmed", now=NOW
    )


@pytest.fixture
def day(session):
    """Two vans on DAY: the red van (Dren) takes a far and a near job, the blue van (Blerta)
    one; a fourth job has no van yet."""
    _drives(session, address="Rruga B 1, Prishtinë", gjakove=75, prishtine=10)
    admin = _user(session, "admin", "Ana Admin")
    dren, blerta, loose = (
        _user(session, name="Dren Driver"),
        _user(session, name="Blerta Bajrami"),
        _user(session, name="Lumi Loose"),
    )
    red, blue = Van(name=f"Red {uuid.uuid4().hex[:4]}"), Van(name=f"Blue {uuid.uuid4().hex[:4]}")
    session.add_all([red, blue])
    session.commit()
    house = make_service(session, title="Bubble house", units=5)
    chair = make_service(session, title="Tiffany chair", units=200)
    far = _place(
        session,
        [line(house, DAY, "14:00", hours=3), line(chair, DAY, "14:00", hours=3, quantity=40)],
        city="Gjakova",
        address="Rruga e Dëshmorëve 3",
    )
    near = _place(
        session,
        [line(house, DAY, "10:00", hours=2), line(chair, DAY, "10:00", hours=2, quantity=20)],
        address="Rruga Agim Ramadani 15",
    )
    other = _place(session, [line(chair, DAY, "09:00", hours=2, quantity=10)])
    free = _place(session, [line(chair, DAY, "15:00", hours=2, quantity=5)])
    for booking in (far, near, other, free):
        _confirm(session, admin, booking)
    _give(session, far, "delivery", red, [dren])
    _give(session, far, "pickup", red, [dren])
    _give(session, near, "delivery", red, [dren])
    _give(session, near, "pickup", red, [dren])
    _give(session, other, "delivery", blue, [blerta])
    return {
        "admin": admin,
        "dren": dren,
        "blerta": blerta,
        "loose": loose,
        "red": red,
        "blue": blue,
        "far": far,
        "near": near,
        "other": other,
        "free": free,
    }


def test_a_driver_sees_their_vans_jobs_in_driving_order_with_the_route(session, day):
    sheet = day_sheet.day_sheet(session=session, actor_id=str(day["dren"].id), day=DAY)

    assert sheet.view == "mine" and sheet.has_own_van
    assert sheet.van_name == day["red"].name
    # The near job's van leaves first (10:00 less the chairs' lead and 10 min), then the far one.
    assert [b.reference for b in sheet.bookings] == [day["near"].reference, day["far"].reference]
    near, far = sheet.bookings
    assert (near.van, near.crew, near.pickup_van) == (
        day["red"].name,
        "Dren Driver",
        day["red"].name,
    )
    # Gjakova is 75 minutes away: the van leaves 75 min before it must be there.
    lead = int(
        (datetime.strptime(far.start, "%H:%M") - datetime.strptime(far.leave, "%H:%M")).seconds
        // 60
    )
    assert lead >= 75 and far.pickup_leave == "15:45"  # 17:00 less the drive
    assert far.maps_link.startswith("https://www.google.com/maps/search/")
    assert near.phone_link.startswith("tel:+383")
    assert sorted((x.service, x.quantity) for x in far.lines) == [
        ("Bubble house", 1),
        ("Tiffany chair", 40),
    ]
    assert "Tiffany chair × 40" in far.pickup_load
    assert near.next_statuses == [] or near.can_change
    route = unquote(sheet.route_link)
    assert route.startswith("https://www.google.com/maps/dir/?api=1")
    assert "origin=Rruga B 1, Prishtinë" in route
    # The stops in driving order: the near job, the far one, then the pickups.
    waypoints = route.split("waypoints=")[1].split("|")
    assert waypoints[0].startswith("Rruga Agim Ramadani 15") and "Gjakov" in waypoints[1]

    every = day_sheet.day_sheet(
        session=session, actor_id=str(day["dren"].id), day=DAY, show_all=True
    )
    assert every.view == "all" and every.route_link == ""
    shown = {b.reference: b for b in every.bookings}
    assert set(shown) >= {day[k].reference for k in ("far", "near", "other", "free")}
    # Another van's job shows without its buttons; a job without a van keeps them.
    assert not shown[day["other"].reference].can_change
    assert shown[day["other"].reference].next_statuses == []
    assert shown[day["free"].reference].can_change
    assert shown[day["other"].reference].van == day["blue"].name


def test_staff_without_a_run_and_admins_see_every_job_admins_filter_by_van(session, day):
    loose = day_sheet.day_sheet(session=session, actor_id=str(day["loose"].id), day=DAY)
    assert loose.view == "all" and not loose.has_own_van
    assert len(loose.bookings) == 4

    admin = day_sheet.day_sheet(session=session, actor_id=str(day["admin"].id), day=DAY)
    assert admin.view == "all" and len(admin.bookings) == 4
    assert {v.name for v in admin.vans} == {day["red"].name, day["blue"].name}
    assert all(b.can_change for b in admin.bookings)
    blue = day_sheet.day_sheet(
        session=session, actor_id=str(day["admin"].id), day=DAY, van=str(day["blue"].id)
    )
    assert blue.view == "van" and [b.reference for b in blue.bookings] == [day["other"].reference]
    assert blue.route_link
    odd = day_sheet.day_sheet(session=session, actor_id=str(day["admin"].id), day=DAY, van="x")
    assert odd.view == "all"


def test_the_load_list_sums_a_vans_items_and_what_comes_back(session, day):
    mine = day_sheet.van_load(session=session, actor_id=str(day["dren"].id), day=DAY)
    assert mine.van_name == day["red"].name
    assert mine.load == ["2 × Bubble house", "60 × Tiffany chair"]
    assert mine.comes_back == ["2 × Bubble house", "60 × Tiffany chair"]
    assert mine.stops == 2
    # Staff see only their own van's, whatever they ask for.
    asked = day_sheet.van_load(
        session=session, actor_id=str(day["dren"].id), day=DAY, van=str(day["blue"].id)
    )
    assert asked.van_id == str(day["red"].id)
    assert [v.name for v in asked.vans] == [day["red"].name]
    nothing = day_sheet.van_load(session=session, actor_id=str(day["loose"].id), day=DAY)
    assert nothing.van_id == "" and nothing.load == []
    # An admin any van's.
    blue = day_sheet.van_load(
        session=session, actor_id=str(day["admin"].id), day=DAY, van=str(day["blue"].id)
    )
    assert blue.load == ["10 × Tiffany chair"] and blue.comes_back == []


def test_staff_may_not_change_another_vans_job(session, day):
    blerta, far, free = str(day["blerta"].id), day["far"], day["free"]

    with pytest.raises(AdminBookingError) as refused:
        ab.set_status(
            session=session,
            actor_id=blerta,
            booking_id=far.id,
            status="on_the_way",
            now=ON_THE_DAY,
        )
    assert refused.value.code == "not_allowed"
    assert refused.value.message == "This job is another van's"
    session.rollback()
    assert session.get(Booking, uuid.UUID(far.id)).status == "confirmed"

    with pytest.raises(AdminBookingError) as refused:
        day_sheet.add_note(session=session, actor_id=blerta, booking_id=far.id, text="Moved it")
    assert refused.value.code == "not_allowed"
    session.rollback()
    assert not session.exec(
        select(BookingNote).where(BookingNote.booking_id == uuid.UUID(far.id))
    ).all()

    with pytest.raises(ledger.PaymentError) as refused:
        ledger.record_payment(
            session=session,
            actor_id=blerta,
            booking_id=far.id,
            amount="10.00",
            method="cash",
            key=uuid.uuid4().hex,
        )
    assert refused.value.code == "not_allowed"
    session.rollback()
    assert not session.exec(select(Payment).where(Payment.booking_id == uuid.UUID(far.id))).all()

    # Its own crew may, and anyone on a job no van has yet; an admin always.
    ab.set_status(
        session=session,
        actor_id=str(day["dren"].id),
        booking_id=far.id,
        status="on_the_way",
        now=ON_THE_DAY,
    )
    day_sheet.add_note(session=session, actor_id=blerta, booking_id=free.id, text="Gate 2")
    ledger.record_payment(
        session=session,
        actor_id=str(day["admin"].id),
        booking_id=far.id,
        amount="10.00",
        method="cash",
        key=uuid.uuid4().hex,
    )
    assert session.get(Booking, uuid.UUID(far.id)).status == "on_the_way"


def test_the_sheet_reads_a_day_in_a_few_queries(session, day):
    house = make_service(session, title="Bubble house 2", units=50)
    for hour in range(8, 18):
        _place(session, [line(house, DAY, f"{hour:02d}:00", hours=1)])
    engine = session.get_bind()
    seen: list[str] = []

    def count(_conn, _cursor, statement, *_args):
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        sheet = day_sheet.day_sheet(session=session, actor_id=str(day["admin"].id), day=DAY)
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert len(sheet.bookings) == 14
    # Whatever the number of jobs: the caller, the settings, their money, the runs (bookings,
    # items, vans, crews), the vans' names, then the sheet's bookings, items, notes,
    # payments and the crew's names.
    assert len(seen) <= 20, seen


# --- forged events from a member of staff's socket --------------------------------------------


@pytest.fixture
def app_database(engine, monkeypatch):
    """The app's own calls (state/base.call_service) on the test database."""
    import storefront.db
    import storefront.state.base

    monkeypatch.setattr(storefront.db, "get_engine", lambda: engine)
    monkeypatch.setattr(storefront.state.base, "get_engine", lambda: engine)


def _sheet_tab(monkeypatch, caller: str, day: str):
    """A day sheet's state as a signed-in member of staff's socket holds it."""

    async def staff_id(_self):
        return caller

    monkeypatch.setattr(DaySheetState, "_staff_id", staff_id)
    root = State(_reflex_internal_init=True)
    tab = root.get_substate(DaySheetState.get_full_name().split(".")[1:])
    tab.day = day
    return DaySheetState, tab


async def _run(handler, *args):
    result = handler(*args)
    if hasattr(result, "__aiter__"):
        async for _ in result:
            pass
    elif hasattr(result, "__await__"):
        await result


async def test_forged_events_from_a_drivers_socket_change_nothing_on_another_vans_job(
    session, day, app_database, monkeypatch
):
    S, tab = _sheet_tab(monkeypatch, str(day["blerta"].id), DAY)
    await S._show(tab, str(day["blerta"].id), DAY)
    assert tab.view == "mine" and [b.reference for b in tab.bookings] == [day["other"].reference]
    far = day["far"].id

    # The other van's job is not on her sheet: a status for it is dropped.
    await _run(S.mark.fn, tab, far, "on_the_way")
    # 'All jobs': it shows, without buttons; a forged status, note and payment for it are
    # refused by the services, with a clear message.
    await _run(S.show_every.fn, tab, True)
    shown = next(b for b in tab.bookings if b.booking_id == far)
    assert not shown.can_change and shown.next_statuses == []
    await _run(S.mark.fn, tab, far, "on_the_way")
    # Even a sheet whose buttons were forged into the state: the service says no.
    tab.bookings = [
        b
        if b.booking_id != far
        else day_sheet.SheetBooking(
            **{**b.__dict__, "next_statuses": ["on_the_way"], "can_change": True}
        )
        for b in tab.bookings
    ]
    await _run(S.mark.fn, tab, far, "on_the_way")
    assert tab.error == "This job is another van's"
    S.open_note.fn(tab, far)
    S.type_note.fn(tab, "Moved to 16:00")
    await _run(S.save_note.fn, tab, {})
    assert tab.note_error == "This job is another van's"
    S.open_collect.fn(tab, far)
    await _run(S.save_collect.fn, tab, {"amount": "10.00", "method": "cash"})
    assert tab.collect_error == "This job is another van's"

    session.expire_all()
    assert session.get(Booking, uuid.UUID(far)).status == "confirmed"
    assert not session.exec(
        select(BookingNote).where(BookingNote.booking_id == uuid.UUID(far))
    ).all()
    assert not session.exec(select(Payment).where(Payment.booking_id == uuid.UUID(far))).all()
