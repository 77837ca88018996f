"""Vans and crews on SQLite and PostgreSQL (issue 37): the vans an admin keeps, giving a run to
a van and its crew (refused for a van that is not there or set aside, a member who is not staff,
a run the booking does not have, anyone but an admin), audited, once however many admins press
at the same moment; and the day's plan with its clashes in words."""

import threading
import uuid
from datetime import UTC, date, datetime
from functools import partial

import pytest
from sqlmodel import Session, select

from storefront import i18n
from storefront.models import AuditLog, User, Van, VanJob, VanJobCrew
from storefront.services.operations import vans
from storefront.services.operations.vans import VanError
from tests.factories import line, make_service, place

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = date(2026, 6, 13)
_place = partial(place, now=NOW)


@pytest.fixture(autouse=True)
def _english():
    with i18n.using("en"):
        yield


def _user(session, role: str, name: str = "") -> User:
    user = User(email=f"{role}-{uuid.uuid4().hex[:6]}@example.com", role=role, full_name=name)
    session.add(user)
    session.commit()
    return user


def _van(session, admin, name: str, **values) -> Van:
    van = vans.save_van(session=session, actor_id=admin.id, values={"name": name, **values})
    session.commit()
    return van


def _castle(session):
    service = make_service(session, title="Castle", units=5)
    service.kind, service.setup_lead_minutes = "service", 60
    session.add(service)
    session.commit()
    return service


def test_vans_are_added_changed_and_set_aside_by_admins_only(session):
    admin, staff = _user(session, "admin"), _user(session, "staff")
    one = _van(session, admin, "Van 1", plate="01-123-AB", note="Two castles")
    with pytest.raises(VanError) as refused:
        vans.save_van(session=session, actor_id=admin.id, values={"name": " van 1 "})
    assert refused.value.code == "invalid"
    assert refused.value.details["fields"] == {"name": "taken"}
    assert "Van 1" in refused.value.details["messages"]["name"]
    session.rollback()
    with pytest.raises(VanError) as refused:
        vans.save_van(session=session, actor_id=admin.id, values={"name": "", "plate": "x" * 21})
    assert refused.value.details["fields"] == {"name": "required", "plate": "too_long"}
    session.rollback()
    for caller in (staff.id, _user(session, "user").id, None):
        with pytest.raises(VanError) as refused:
            vans.save_van(session=session, actor_id=caller, values={"name": "Van 9"})
        assert refused.value.code in ("not_allowed", "no_user")
        with pytest.raises(VanError):
            vans.list_vans(session=session, actor_id=caller)
        session.rollback()

    # Its own name in another case is not a clash with itself.
    vans.save_van(
        session=session,
        actor_id=admin.id,
        van_id=one.id,
        values={"name": "VAN 1", "plate": "01-123-AB"},
    )
    vans.set_active(session=session, actor_id=admin.id, van_id=one.id, active=False)
    session.commit()
    listed = vans.list_vans(session=session, actor_id=admin.id)
    assert [(v.name, v.plate, v.active) for v in listed] == [("VAN 1", "01-123-AB", False)]
    actions = session.exec(
        select(AuditLog.action).where(AuditLog.entity_type == "van").order_by(AuditLog.created_at)
    ).all()
    assert list(actions) == ["van_create", "van_update", "van_update"]


def test_assigning_refuses_what_cannot_be_and_reassigning_replaces_the_crew(session):
    admin = _user(session, "admin", "Ana")
    driver, helper = _user(session, "staff", "Besa"), _user(session, "staff", "Driton")
    customer = _user(session, "user")
    one, aside = _van(session, admin, "Van 1"), _van(session, admin, "Van old")
    vans.set_active(session=session, actor_id=admin.id, van_id=aside.id, active=False)
    session.commit()
    castle = _castle(session)
    booking = _place(session, [line(castle, str(DAY), "14:00", hours=2)], city="Ferizaj")

    def give(**changes):
        args = {
            "actor_id": admin.id,
            "booking_id": booking.id,
            "leg": "delivery",
            "van_id": one.id,
            "crew_ids": [driver.id],
            "day": DAY,
        } | changes
        return vans.assign(session=session, **args)

    for changes, code in [
        ({"van_id": uuid.uuid4()}, "not_found"),
        ({"van_id": "not-an-id"}, "not_found"),
        ({"van_id": aside.id}, "set_aside"),
        ({"crew_ids": [customer.id]}, "not_staff"),
        ({"crew_ids": [uuid.uuid4()]}, "not_staff"),
        ({"crew_ids": []}, "no_crew"),
        ({"day": date(2026, 6, 14)}, "no_run"),
        ({"leg": "lunch"}, "no_run"),
        ({"booking_id": uuid.uuid4()}, "no_run"),
        ({"actor_id": customer.id}, "not_allowed"),
        ({"actor_id": driver.id}, "not_allowed"),
    ]:
        with pytest.raises(VanError) as refused:
            give(**changes)
        assert refused.value.code == code, changes
    assert session.exec(select(VanJob)).all() == []

    give(crew_ids=[driver.id, helper.id])
    job = give(crew_ids=[helper.id], day=None)  # the run's day found without one
    assert job.day == DAY
    jobs = session.exec(select(VanJob)).all()
    assert len(jobs) == 1
    crew = session.exec(select(VanJobCrew.user_id)).all()
    assert list(crew) == [helper.id]
    entries = session.exec(
        select(AuditLog).where(AuditLog.action == "van_assign").order_by(AuditLog.created_at)
    ).all()
    assert len(entries) == 2
    assert entries[0].details["after"]["van"] == "Van 1"
    assert entries[0].details["after"]["crew"] == ["Besa", "Driton"]
    assert entries[1].details["before"]["crew"] == ["Besa", "Driton"]
    assert entries[1].details["after"]["crew"] == ["Driton"]

    assert vans.unassign(session=session, actor_id=admin.id, booking_id=booking.id, leg="delivery")
    assert session.exec(select(VanJob)).all() == []


def test_the_plan_names_each_runs_clashes(session):
    admin = _user(session, "admin", "Ana")
    driver = _user(session, "staff", "Besa")
    one, two = _van(session, admin, "Van 1"), _van(session, admin, "Van 2")
    castle = _castle(session)
    a = _place(session, [line(castle, str(DAY), "10:00", hours=2)], city="Ferizaj")
    b = _place(session, [line(castle, str(DAY), "11:00", hours=2)], city="Ferizaj")
    c = _place(session, [line(castle, str(DAY), "18:00", hours=1)], city="Ferizaj")
    for booking, van in ((a, one), (b, one), (c, two)):
        vans.assign(
            session=session,
            actor_id=admin.id,
            booking_id=booking.id,
            leg="delivery",
            van_id=van.id,
            crew_ids=[driver.id],
            day=DAY,
        )

    day = vans.plan(session=session, actor_id=admin.id, day="2026-06-13")
    shown = {(r.reference, r.leg): r for r in day.runs}
    assert shown[(a.reference, "delivery")].clashes == [
        f"Clashes with {b.reference} delivery (Van 1)"
    ]
    assert shown[(b.reference, "delivery")].clashes == [
        f"Clashes with {a.reference} delivery (Van 1)"
    ]
    assert shown[(c.reference, "delivery")].clashes == []
    assert shown[(c.reference, "delivery")].van_name == "Van 2"
    assert shown[(c.reference, "delivery")].crew_names == "Besa"
    assert [v.name for v in day.by_van] == ["Van 1", "Van 2"]
    assert day.by_van[0].runs[0].endswith(f"{a.reference} Delivery")
    assert (day.previous, day.next) == (date(2026, 6, 12), date(2026, 6, 14))
    with pytest.raises(VanError) as refused:
        vans.plan(session=session, actor_id=driver.id, day=DAY)
    assert refused.value.code == "not_allowed"
    with pytest.raises(VanError) as refused:
        vans.plan(session=session, actor_id=admin.id, day="13/06")
    assert refused.value.code == "invalid_day"


def test_two_admins_giving_one_run_at_once_end_with_one_assignment(session, engine):
    first, second = _user(session, "admin", "Ana"), _user(session, "admin", "Arta")
    driver = _user(session, "staff", "Besa")
    one, two = _van(session, first, "Van 1"), _van(session, first, "Van 2")
    booking = _place(session, [line(_castle(session), str(DAY), "14:00", hours=2)], city="Peja")
    pairs = ((first.id, one.id), (second.id, two.id))
    driver_id, booking_id = driver.id, booking.id
    session.close()
    start = threading.Barrier(2)
    results: list = [None, None]

    def press(n: int) -> None:
        admin_id, van_id = pairs[n]
        start.wait()
        try:
            with Session(engine, expire_on_commit=False) as own:
                results[n] = vans.assign(
                    session=own,
                    actor_id=admin_id,
                    booking_id=booking_id,
                    leg="delivery",
                    van_id=van_id,
                    crew_ids=[driver_id],
                    day=DAY,
                ).van_id
        except Exception as error:  # noqa: BLE001 - the test reads it
            results[n] = error

    threads = [threading.Thread(target=press, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert all(isinstance(r, uuid.UUID) for r in results), results
    session.expire_all()
    jobs = session.exec(select(VanJob)).all()
    assert len(jobs) == 1
    assert len(session.exec(select(VanJobCrew)).all()) == 1
    entries = session.exec(select(AuditLog).where(AuditLog.action == "van_assign")).all()
    assert len(entries) == 2
    # The last to press holds the run; its entry says what it replaced.
    assert sorted(e.details["before"] is None for e in entries) == [False, True]
