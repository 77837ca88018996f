"""A day's runs on SQLite and PostgreSQL (issue 37): each booking's delivery and pickup with
their leave and return times from the driving table, the van and crew assigned, the runs that
clash, and a van's load list."""

import uuid
from datetime import UTC, date, datetime
from functools import partial

import pytest
from sqlmodel import select

from storefront.models import Booking, BusinessSettings, User, Van, VanJob, VanJobCrew
from storefront.services import dates
from storefront.services.operations import runs, travel
from storefront.services.operations.travel import TravelError
from tests.factories import line, make_service, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = date(2026, 6, 13)
_place = partial(place, now=NOW)


def _local(moment: datetime) -> str:
    return dates.local_time(moment)


def _admin(session) -> str:
    user = User(email=f"admin-{uuid.uuid4().hex[:6]}@example.com", role="admin")
    session.add(user)
    session.commit()
    return str(user.id)


def _kind(session, service, kind, lead=None):
    service.kind, service.setup_lead_minutes = kind, lead
    session.add(service)
    session.commit()
    return service


def _drives(session, **minutes):
    row = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
    row.depot_municipality = "prishtine"
    row.travel_minutes = {travel.pair("prishtine", key): m for key, m in minutes.items()}
    session.add(row)
    session.commit()


def test_runs_leave_the_depot_the_drive_before_the_setup_and_come_back_after(session):
    _drives(session, gjakove=75, prishtine=10)
    castle = _kind(session, make_service(session, title="Castle", units=3), "service", lead=60)
    elsa = _kind(session, make_service(session, title="Elsa", units=1), "mascot")
    far = _place(session, [line(castle, str(DAY), "14:00", hours=3, quantity=2)], city="Gjakova")
    near = _place(session, [line(elsa, str(DAY), "11:00", hours=2)], city="Prishtinë")
    unknown = _place(session, [line(castle, str(DAY), "16:00", hours=2)], city="Prishtina")
    old = session.get(Booking, uuid.UUID(unknown.id))
    old.city = "Somewhere"  # placed before municipalities were checked
    session.add(old)
    session.commit()

    day = runs.day_runs(session, DAY)

    shown = [(r.reference, r.leg, _local(r.depart), _local(r.arrive), _local(r.back)) for r in day]
    # Summer: Belgrade is UTC+2. The castle: 75 min away, an hour's setup before 14:00, so it
    # leaves at 11:45, arrives 13:00, is back 15:15; collected at 17:00 (leave 15:45), an hour
    # packing, back 19:15. Elsa (a visit: nothing comes back), 10 min away, her kind's lead.
    lead = int(runs.setup_lead(elsa).total_seconds() // 60)
    elsa_arrive = f"{11 * 60 - lead:d}"
    assert (near.reference, "delivery") in {(s[0], s[1]) for s in shown}
    assert (far.reference, "delivery", "11:45", "13:00", "15:15") in shown
    assert (far.reference, "pickup", "15:45", "17:00", "19:15") in shown
    assert (near.reference, "pickup") not in {(s[0], s[1]) for s in shown}
    elsa_run = next(r for r in day if r.reference == near.reference)
    assert (elsa_run.arrive - elsa_run.depart).total_seconds() == 10 * 60
    assert int(elsa_arrive) * 60 == (
        elsa_run.arrive.astimezone(dates.business_zone()).hour * 3600
        + elsa_run.arrive.astimezone(dates.business_zone()).minute * 60
    )
    # A municipality nobody knows is the default drive away.
    odd = next(r for r in day if r.reference == unknown.reference and r.leg == "delivery")
    assert odd.drive_minutes == travel.DEFAULT_MINUTES
    # In the order the vans leave.
    assert [r.depart for r in day] == sorted(r.depart for r in day)
    assert next(r for r in day if r.key == f"{far.id}:delivery").load == (("Castle", 2),)


def test_a_van_or_a_member_on_overlapping_runs_is_a_clash(session):
    _drives(session, ferizaj=30)
    castle = _kind(session, make_service(session, title="Castle", units=5), "service", lead=60)
    a = _place(session, [line(castle, str(DAY), "10:00", hours=2)], city="Ferizaj")
    b = _place(session, [line(castle, str(DAY), "11:00", hours=2)], city="Ferizaj")
    c = _place(session, [line(castle, str(DAY), "16:00", hours=1)], city="Ferizaj")
    one, two = Van(name=f"Van {uuid.uuid4().hex[:4]}"), Van(name=f"Van {uuid.uuid4().hex[:4]}")
    driver = User(email=f"d-{uuid.uuid4().hex[:6]}@example.com", role="staff")
    session.add_all([one, two, driver])
    session.commit()

    def give(booking, van, leg="delivery", crew=()):
        job = VanJob(booking_id=uuid.UUID(booking.id), leg=leg, day=DAY, van_id=van.id)
        session.add(job)
        session.flush()
        session.add_all([VanJobCrew(job_id=job.id, user_id=m.id) for m in crew])
        session.commit()

    give(a, one, crew=[driver])
    give(c, one)  # the evening's castle: no overlap with the morning's
    give(b, two, crew=[driver])

    found = runs.clashes(runs.day_runs(session, DAY))
    assert [(x.kind, x.who) for x in found] == [("crew", driver.id)]
    assert {found[0].first, found[0].second} == {f"{a.id}:delivery", f"{b.id}:delivery"}

    moved = session.exec(select(VanJob).where(VanJob.booking_id == uuid.UUID(b.id))).one()
    moved.van_id = one.id
    session.add(moved)
    session.commit()
    found = runs.clashes(runs.day_runs(session, DAY))
    assert [(x.kind, x.who) for x in found] == [("van", one.id)]


def test_the_load_list_sums_a_vans_items_by_name(session):
    house = _kind(session, make_service(session, title="Bubble house", units=5), "service")
    chair = _kind(session, make_service(session, title="Tiffany chair", units=200), "table")
    _place(session, [line(house, str(DAY), "10:00", hours=2)], city="Prishtina")
    _place(
        session,
        [line(house, str(DAY), "12:00", hours=2), line(chair, str(DAY), "12:00", quantity=60)],
        city="Prishtina",
    )
    out, back = runs.load_list(runs.day_runs(session, DAY))
    assert out == [("Bubble house", 2), ("Tiffany chair", 60)]
    assert back == [("Bubble house", 2), ("Tiffany chair", 60)]


def test_the_travel_card_checks_every_value_and_keeps_other_drives(session):
    admin = _admin(session)
    row = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
    row.travel_minutes = {travel.pair("peje", "gjakove"): 40}
    session.add(row)
    session.commit()
    with pytest.raises(TravelError) as refused:
        travel.update_travel(
            session=session,
            actor_id=admin,
            values={"depot": "prishtine", "gjakove": "9999", "peje": "abc", "prizren": "60"},
        )
    assert set(refused.value.details["fields"]) == {"gjakove", "peje"}
    with pytest.raises(TravelError):
        travel.update_travel(session=session, actor_id=admin, values={"depot": "nowhere"})
    travel.update_travel(
        session=session,
        actor_id=admin,
        values={"depot": "prishtine", "gjakove": "75", "prizren": " 60 ", "peje": ""},
    )
    session.commit()
    shown = travel.editable_travel(session=session)
    assert (shown["depot"], shown["gjakove"], shown["prizren"], shown["peje"]) == (
        "prishtine",
        "75",
        "60",
        "",
    )
    kept = travel.travel_of(session)
    assert kept.between("gjakove", "peje") == 40
    assert kept.from_depot("Gjakovë") == 75 and kept.from_depot("Peja") == travel.DEFAULT_MINUTES
    staff = User(email=f"s-{uuid.uuid4().hex[:6]}@example.com", role="staff")
    session.add(staff)
    session.commit()
    with pytest.raises(TravelError) as refused:
        travel.update_travel(session=session, actor_id=str(staff.id), values={"depot": "peje"})
    assert refused.value.code == "not_allowed"


def test_once_a_run_is_assigned_only_its_crew_and_admins_may_act_on_the_job(session):
    from storefront.services import permissions
    from storefront.services.booking.admin import AdminBookingError

    castle = _kind(session, make_service(session, title="Castle", units=2), "service")
    job = _place(session, [line(castle, str(DAY), "10:00", hours=2)], city="Prishtina")
    driver, other = (
        User(email=f"{n}-{uuid.uuid4().hex[:6]}@example.com", role="staff") for n in "ab"
    )
    customer = User(email=f"c-{uuid.uuid4().hex[:6]}@example.com", role="user")
    van = Van(name=f"Van {uuid.uuid4().hex[:4]}")
    session.add_all([driver, other, customer, van])
    session.commit()

    def may(user) -> bool:
        try:
            permissions.require_crew(session, str(user), job.id, AdminBookingError)
        except AdminBookingError:
            return False
        return True

    # Before any van is given the job, every member of staff may act on it.
    assert may(driver.id) and may(other.id) and not may(customer.id)
    run = VanJob(booking_id=uuid.UUID(job.id), leg="pickup", day=DAY, van_id=van.id)
    session.add(run)
    session.flush()
    session.add(VanJobCrew(job_id=run.id, user_id=driver.id))
    session.commit()
    assert may(driver.id) and not may(other.id) and may(_admin(session))
