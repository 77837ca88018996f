"""The admin's schedule and blocked-date actions on SQLite and PostgreSQL: the spec's limits, no
overlapping rows on one weekday, only admins, an audit entry in the same transaction, and the
booking calendar following at once."""

import threading
import time
from datetime import UTC, date, datetime
from types import SimpleNamespace

import pytest
from sqlmodel import select

from storefront.db import make_engine, session_scope
from storefront.models import AuditLog, BlockedDate, ServiceAvailability
from storefront.services.booking import availability
from storefront.services.booking import availability_admin as admin
from storefront.services.booking.availability_admin import AvailabilityAdminError, check_schedule
from tests.factories import make_service, make_user

NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
WEDNESDAY = date(2026, 6, 10)


def _setup(session):
    service = make_service(session)
    boss = make_user(session, role="admin")
    plain = make_user(session)
    session.commit()
    # Plain values: a rollback expires rows, and reading one would open a transaction.
    return SimpleNamespace(id=str(service.id)), str(boss.id), str(plain.id)


def _schedule(**overrides):
    values = {"day_of_week": 3, "start_time": "09:00", "end_time": "12:00"}
    return check_schedule(**(values | overrides))


def _audit(session, action):
    return session.exec(select(AuditLog).where(AuditLog.action == action)).all()


def test_check_schedule_follows_spec_limits():
    row = check_schedule(day_of_week="1", start_time="09:00:00", end_time="17:00")
    assert (row.day_of_week, row.start_time.isoformat(), row.end_time.isoformat()) == (
        1,
        "09:00:00",
        "17:00:00",
    )
    assert (row.max_bookings_per_slot, row.slot_duration_minutes, row.is_available) == (1, 60, True)
    assert (
        check_schedule(
            day_of_week=0, start_time="08:00", end_time="09:00", slot_duration_minutes=480
        ).slot_duration_minutes
        == 480
    )
    bad = [
        ({"day_of_week": 7}, "invalid_day"),
        ({"day_of_week": -1}, "invalid_day"),
        ({"day_of_week": True}, "invalid_day"),
        ({"start_time": "9am"}, "invalid_time"),
        ({"end_time": "24:00"}, "invalid_time"),
        ({"start_time": "12:00", "end_time": "12:00"}, "invalid_span"),
        ({"start_time": "13:00", "end_time": "12:00"}, "invalid_span"),
        ({"slot_duration_minutes": 0}, "invalid_slot_duration"),
        ({"slot_duration_minutes": 481}, "invalid_slot_duration"),
        ({"slot_duration_minutes": "60.5"}, "invalid_slot_duration"),
        ({"max_bookings_per_slot": 0}, "invalid_max_bookings"),
        ({"max_bookings_per_slot": [1]}, "invalid_max_bookings"),
    ]
    for overrides, code in bad:
        values = {"day_of_week": 1, "start_time": "09:00", "end_time": "12:00"} | overrides
        with pytest.raises(AvailabilityAdminError) as caught:
            check_schedule(**values)
        assert caught.value.code == code, overrides


def test_create_lists_hours_trimmed_and_writes_the_audit(session):
    service, boss, _ = _setup(session)
    made = admin.create_availability(
        session=session, actor_id=boss, service_id=str(service.id), schedule=_schedule()
    )
    session.commit()
    admin.create_availability(
        session=session,
        actor_id=boss,
        service_id=service.id,
        schedule=_schedule(day_of_week=0, start_time="10:00", end_time="14:30"),
    )
    session.commit()
    rows = admin.list_schedule(session=session, actor_id=boss, service_id=str(service.id))
    assert [(r.day, r.start_time, r.end_time) for r in rows] == [
        ("Sunday", "10:00", "14:30"),
        ("Wednesday", "09:00", "12:00"),
    ]
    [entry, _] = _audit(session, "create_availability")
    assert str(entry.actor_user_id) in (boss,)
    created = [e for e in _audit(session, "create_availability") if e.entity_id == made.id]
    assert created[0].details["before"] is None
    assert created[0].details["after"]["start_time"] == "09:00:00"


def test_overlapping_rows_of_one_weekday_are_refused_touching_ones_are_not(session):
    service, boss, _ = _setup(session)
    first = admin.create_availability(
        session=session, actor_id=boss, service_id=service.id, schedule=_schedule()
    )
    session.commit()
    for start, end in (
        ("11:00", "13:00"),
        ("08:00", "09:30"),
        ("09:00", "12:00"),
        ("10:00", "11:00"),
    ):
        with pytest.raises(AvailabilityAdminError) as caught:
            admin.create_availability(
                session=session,
                actor_id=boss,
                service_id=service.id,
                schedule=_schedule(start_time=start, end_time=end),
            )
        session.rollback()
        assert caught.value.code == "overlap"
        assert caught.value.details["hours"] == "09:00-12:00"
    admin.create_availability(
        session=session,
        actor_id=boss,
        service_id=service.id,
        schedule=_schedule(start_time="12:00", end_time="17:00"),
    )
    session.commit()
    admin.create_availability(  # another weekday may use the same hours
        session=session, actor_id=boss, service_id=service.id, schedule=_schedule(day_of_week=4)
    )
    session.commit()
    # Editing a row may keep its own hours but not move onto its neighbour's.
    admin.update_availability(
        session=session,
        actor_id=boss,
        availability_id=first.id,
        schedule=_schedule(start_time="08:00", end_time="12:00", slot_duration_minutes=30),
    )
    session.commit()
    with pytest.raises(AvailabilityAdminError) as caught:
        admin.update_availability(
            session=session,
            actor_id=boss,
            availability_id=first.id,
            schedule=_schedule(start_time="08:00", end_time="12:30"),
        )
    session.rollback()
    assert caught.value.code == "overlap"
    count = len(session.exec(select(ServiceAvailability)).all())
    assert count == 3


def test_update_toggle_delete_with_before_and_after(session):
    service, boss, _ = _setup(session)
    row = admin.create_availability(
        session=session, actor_id=boss, service_id=service.id, schedule=_schedule()
    )
    session.commit()
    updated = admin.update_availability(
        session=session,
        actor_id=boss,
        availability_id=row.id,
        schedule=_schedule(day_of_week=1, max_bookings_per_slot=3, slot_duration_minutes=90),
    )
    session.commit()
    assert (updated.day, updated.max_bookings_per_slot, updated.slot_duration_minutes) == (
        "Monday",
        3,
        90,
    )
    [entry] = _audit(session, "update_availability")
    assert entry.details["before"]["day_of_week"] == 3
    assert entry.details["after"]["day_of_week"] == 1

    assert (
        admin.toggle_availability(session=session, actor_id=boss, availability_id=row.id) is False
    )
    session.commit()
    assert admin.toggle_availability(session=session, actor_id=boss, availability_id=row.id) is True
    session.commit()
    toggles = _audit(session, "toggle_availability")
    assert sorted(e.details["after"]["is_available"] for e in toggles) == [False, True]

    admin.delete_availability(session=session, actor_id=boss, availability_id=row.id)
    session.commit()
    assert session.exec(select(ServiceAvailability)).all() == []
    [deleted] = _audit(session, "delete_availability")
    assert deleted.details["before"]["id"] == row.id and deleted.details["after"] is None
    with pytest.raises(AvailabilityAdminError) as caught:
        admin.delete_availability(session=session, actor_id=boss, availability_id=row.id)
    assert caught.value.code == "availability_not_found"


def test_only_admins_change_anything(session):
    service, boss, plain = _setup(session)
    row = admin.create_availability(
        session=session, actor_id=boss, service_id=service.id, schedule=_schedule()
    )
    blocked = admin.block_dates(
        session=session, actor_id=boss, service_id=service.id, start_date="2026-06-10"
    )
    session.commit()
    audit_rows = len(session.exec(select(AuditLog)).all())
    actions = [
        lambda actor: admin.create_availability(
            session=session,
            actor_id=actor,
            service_id=service.id,
            schedule=_schedule(day_of_week=5),
        ),
        lambda actor: admin.update_availability(
            session=session,
            actor_id=actor,
            availability_id=row.id,
            schedule=_schedule(day_of_week=5),
        ),
        lambda actor: admin.toggle_availability(
            session=session, actor_id=actor, availability_id=row.id
        ),
        lambda actor: admin.delete_availability(
            session=session, actor_id=actor, availability_id=row.id
        ),
        lambda actor: admin.block_dates(
            session=session, actor_id=actor, service_id=service.id, start_date="2026-07-01"
        ),
        lambda actor: admin.unblock_dates(session=session, actor_id=actor, blocked_id=blocked.id),
        lambda actor: admin.list_schedule(session=session, actor_id=actor, service_id=service.id),
        lambda actor: admin.list_blocked_dates(
            session=session, actor_id=actor, service_id=service.id
        ),
    ]
    for action in actions:
        for actor, code in ((plain, "not_allowed"), (None, "no_user"), ("not-a-uuid", "no_user")):
            with pytest.raises(AvailabilityAdminError) as caught:
                action(actor)
            session.rollback()
            assert caught.value.code == code
    [kept] = session.exec(select(ServiceAvailability)).all()
    assert (kept.day_of_week, kept.is_available) == (3, True)
    assert len(session.exec(select(BlockedDate)).all()) == 1
    assert len(session.exec(select(AuditLog)).all()) == audit_rows


def test_unknown_service_and_rows(session):
    _service, boss, _ = _setup(session)
    for bad in ("00000000-0000-0000-0000-000000000000", "nonsense", ""):
        with pytest.raises(AvailabilityAdminError) as caught:
            admin.service_header(session=session, actor_id=boss, service_id=bad)
        assert caught.value.code == "service_not_found"
        session.rollback()
        with pytest.raises(AvailabilityAdminError) as caught:
            admin.toggle_availability(session=session, actor_id=boss, availability_id=bad)
        assert caught.value.code == "availability_not_found"
        session.rollback()


def test_a_closed_weekday_and_blocked_dates_show_on_the_booking_calendar(session):
    service, boss, _ = _setup(session)
    other = SimpleNamespace(id=str(make_service(session, title="Other bouncer").id))
    session.commit()

    def wednesday_open(svc=service):
        days = availability.month_days(
            session=session, service_id=svc.id, year=2026, month=6, now=NOW
        )
        return {d.date: d.available for d in days}[WEDNESDAY.isoformat()]

    assert wednesday_open()  # no rows: the default day
    row = admin.create_availability(
        session=session, actor_id=boss, service_id=service.id, schedule=_schedule()
    )
    session.commit()
    assert wednesday_open()
    admin.toggle_availability(session=session, actor_id=boss, availability_id=row.id)
    session.commit()
    assert not wednesday_open()  # the weekday's only row is off: closed
    admin.toggle_availability(session=session, actor_id=boss, availability_id=row.id)
    session.commit()
    assert wednesday_open()

    mine = admin.block_dates(
        session=session,
        actor_id=boss,
        service_id=service.id,
        start_date="2026-06-09",
        end_date="2026-06-11",
        reason="Maintenance",
    )
    session.commit()
    assert not wednesday_open() and wednesday_open(other)
    everyone = admin.block_dates(
        session=session,
        actor_id=boss,
        service_id=str(service.id),
        start_date="2025-06-10",
        reason="Festa",
        recurring_yearly=True,
        all_services=True,
    )
    session.commit()
    assert not wednesday_open(other)  # yearly, for all services
    listed = admin.list_blocked_dates(session=session, actor_id=boss, service_id=other.id)
    assert [(b.dates, b.all_services, b.recurring_yearly, b.reason) for b in listed] == [
        ("10.06.2025", True, True, "Festa")
    ]
    listed = admin.list_blocked_dates(session=session, actor_id=boss, service_id=service.id)
    assert [b.dates for b in listed] == ["10.06.2025", "09.06.2026 – 11.06.2026"]

    admin.unblock_dates(session=session, actor_id=boss, blocked_id=everyone.id)
    admin.unblock_dates(session=session, actor_id=boss, blocked_id=mine.id)
    session.commit()
    assert wednesday_open() and wednesday_open(other)
    assert [e.action for e in session.exec(select(AuditLog).order_by(AuditLog.created_at)).all()][
        -2:
    ] == ["unblock_dates", "unblock_dates"]


def test_block_dates_checks_its_arguments(session):
    service, boss, _ = _setup(session)
    bad = [
        ({"start_date": "2026-13-01"}, "invalid_date"),
        ({"start_date": ""}, "invalid_date"),
        ({"start_date": "1999-01-01"}, "invalid_date"),
        ({"start_date": "2026-06-10", "end_date": "2026-06-09"}, "invalid_range"),
        ({"start_date": "2026-06-10", "reason": "x" * 256}, "reason_too_long"),
        ({"start_date": "2026-06-10", "all_services": "yes"}, "invalid_date"),
    ]
    for kwargs, code in bad:
        with pytest.raises(AvailabilityAdminError) as caught:
            admin.block_dates(session=session, actor_id=boss, service_id=service.id, **kwargs)
        session.rollback()
        assert caught.value.code == code, kwargs
    assert session.exec(select(BlockedDate)).all() == []
    one_day = admin.block_dates(
        session=session, actor_id=boss, service_id=service.id, start_date="2026-06-10"
    )
    assert (one_day.start_date, one_day.end_date, one_day.all_services) == (
        "2026-06-10",
        "2026-06-10",
        False,
    )


def test_two_admins_adding_overlapping_rows_at_once_get_one(session, database_url, monkeypatch):
    """The second admin waits for the first one's lock, then sees the first row: without the
    lock both would check while neither had written, and both rows would be stored."""
    service, boss, _ = _setup(session)
    checked = admin._check_no_overlap

    def slow_check(*args, **kwargs):
        checked(*args, **kwargs)
        time.sleep(0.6)  # between the check and the write, the other admin tries

    monkeypatch.setattr(admin, "_check_no_overlap", slow_check)
    outcomes: list[str] = []

    def attempt(start: str, end: str, delay: float) -> None:
        time.sleep(delay)
        engine = make_engine(database_url)
        try:
            with session_scope(engine) as own:
                admin.create_availability(
                    session=own,
                    actor_id=boss,
                    service_id=service.id,
                    schedule=_schedule(start_time=start, end_time=end),
                )
            outcomes.append("created")
        except AvailabilityAdminError as error:
            outcomes.append(error.code)
        finally:
            engine.dispose()

    threads = [
        threading.Thread(target=attempt, args=("09:00", "12:00", 0)),
        threading.Thread(target=attempt, args=("11:00", "14:00", 0.2)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(outcomes) == ["created", "overlap"]
    session.rollback()
    assert len(session.exec(select(ServiceAvailability)).all()) == 1
