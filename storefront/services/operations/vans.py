"""Vans and crews (issue 37): the business's vans, which van and crew take each run of a day
(a booking's delivery, its pickup), and the day's plan with the runs that clash.

Admins only. A van is never deleted (runs name it): it is set aside and brought back. `assign`
and `unassign` take the booking's van-job lock first thing (services/locks.py) and commit their
own transaction, so two admins assigning the same run at once end with one assignment and two
audit entries (docs/architecture.md §5). The rest leaves the transaction to its caller."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import TypeVar

from sqlalchemy import func
from sqlalchemy.exc import OperationalError
from sqlmodel import Session, col, select

from storefront.i18n import N_o, _o
from storefront.models import Booking, BookingItem, User, Van, VanJob, VanJobCrew, utcnow
from storefront.models.crews import LEGS
from storefront.services import audit, dates, fields, locks, permissions
from storefront.services.errors import ServiceError
from storefront.services.operations import runs as day_runs_of
from storefront.services.operations.runs import Run

T = TypeVar("T")

CREW_ROLES = ("staff", "admin")
LEG_WORDS = {"delivery": N_o("Delivery"), "pickup": N_o("Pickup")}
VAN_CLASH = N_o("Clashes with {reference} {leg} ({van})")
CREW_CLASH = N_o("{member} is also on {reference} {leg} ({van})")
NAME_TAKEN = N_o("Another van is already called {name}")
VAN_LABELS = {"name": N_o("Name"), "plate": N_o("Plate"), "note": N_o("What fits")}


class VanError(ServiceError):
    """Codes: the admin check's, invalid (details `fields`: {field: code}, `messages`: {field:
    message}), not_found (no such van), set_aside (a van set aside), not_staff (a crew member who
    is not staff), no_crew, no_run (the booking has no such run that day), invalid_day, busy."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "invalid": "Please check the van's details",
        "not_found": "No such van",
        "set_aside": "This van is set aside",
        "not_staff": "Only staff can be on a crew",
        "no_crew": "Choose at least one member of the crew",
        "no_run": "This booking has no such run on that day",
        "invalid_day": "Please give the day as YYYY-MM-DD",
        "busy": "Please try again",
    }


# --- vans ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VanRow:
    id: str
    name: str
    plate: str
    note: str
    active: bool
    runs: int  # the runs it was ever given


def list_vans(*, session: Session, actor_id: object) -> list[VanRow]:
    """Every van, the active first, by name (admins only)."""
    permissions.require_admin(session, actor_id, VanError)
    counts = dict(
        session.exec(select(VanJob.van_id, func.count()).group_by(col(VanJob.van_id))).all()
    )
    vans = session.exec(select(Van)).all()
    vans = sorted(vans, key=lambda v: (not v.active, v.name.casefold()))
    return [
        VanRow(str(v.id), v.name, v.plate, v.note, v.active, int(counts.get(v.id, 0))) for v in vans
    ]


def _van_id(value: object) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except (TypeError, ValueError):
        raise VanError("not_found") from None


def save_van(
    *, session: Session, actor_id: object, values: dict[str, object], van_id: object = None
) -> Van:
    """Add a van (no `van_id`) or change one: its name (required, one line, unique whatever
    the case), plate (one line) and what fits (a note), each within its column's length;
    refused ones are named in VanError `invalid`. Audited; the caller commits."""
    admin = permissions.require_admin(session, actor_id, VanError)
    van = None
    if van_id not in (None, ""):
        van = session.get(Van, _van_id(van_id))
        if van is None:
            raise VanError("not_found")
    values = values if isinstance(values, dict) else {}
    labels = {key: _o(label) for key, label in VAN_LABELS.items()}
    checked = fields.check(
        {
            "name": fields.rule(
                "line",
                values.get("name"),
                labels["name"],
                fields.max_length(Van, "name"),
                required=True,
            ),
            "plate": fields.rule(
                "line",
                values.get("plate"),
                labels["plate"],
                fields.max_length(Van, "plate"),
            ),
            "note": fields.rule(
                "text", values.get("note"), labels["note"], fields.max_length(Van, "note")
            ),
        }
    )
    name = checked.values.get("name")
    if name:
        same = select(Van).where(func.lower(Van.name) == name.lower())
        if van is not None:
            same = same.where(Van.id != van.id)
        taken = session.exec(same).first()
        if taken is not None:
            checked.refuse("name", "taken", _o(NAME_TAKEN).format(name=taken.name))
    if checked.codes:
        raise VanError("invalid", fields=checked.codes, messages=checked.messages)
    before = audit.snapshot(van)
    if van is None:
        van = Van(**checked.values)
    else:
        for key, value in checked.values.items():
            setattr(van, key, value)
    session.add(van)
    session.flush()
    audit.record(
        session,
        actor_id=admin.id,
        action="van_create" if before is None else "van_update",
        entity_type="van",
        entity_id=van.id,
        before=before,
        after=audit.snapshot(van),
    )
    return van


def set_active(*, session: Session, actor_id: object, van_id: object, active: bool) -> Van:
    """Set a van aside (it takes no new runs; those it has keep its name) or bring it back.
    Audited; the caller commits."""
    admin = permissions.require_admin(session, actor_id, VanError)
    van = session.get(Van, _van_id(van_id))
    if van is None:
        raise VanError("not_found")
    before = audit.snapshot(van)
    van.active = bool(active)
    session.add(van)
    session.flush()
    audit.record(
        session,
        actor_id=admin.id,
        action="van_update",
        entity_type="van",
        entity_id=van.id,
        before=before,
        after=audit.snapshot(van),
    )
    return van


def _person(user: User) -> str:
    return user.full_name or user.email or ""


def crew_choices(session: Session) -> list[tuple[str, str]]:
    """Who may be on a crew: staff and admins, by name (id, name)."""
    people = session.exec(select(User).where(col(User.role).in_(CREW_ROLES))).all()
    return sorted(((str(u.id), _person(u)) for u in people), key=lambda p: p[1].casefold())


# --- assigning ----------------------------------------------------------------------------------


def _committed(session: Session, work: Callable[[], T]) -> T:
    """`work` in its own transaction, committed; a lock not had in time is `busy`."""
    try:
        result = work()
        session.commit()
        return result
    except OperationalError as error:
        session.rollback()
        if locks.is_lock_timeout(error):
            raise VanError("busy") from None
        raise
    except BaseException:
        session.rollback()
        raise


def _run_of(session: Session, booking_id: uuid.UUID, leg: str, day: date | None) -> Run | None:
    """The booking's run of `leg` on `day` (any day its items start or end on, without one)."""
    if day is None:
        zone = dates.business_zone()
        days: set[date] = set()
        for start, end in session.exec(
            select(BookingItem.start_datetime, BookingItem.end_datetime).where(
                BookingItem.booking_id == booking_id
            )
        ).all():
            days.update({start.astimezone(zone).date(), end.astimezone(zone).date()})
        candidates = sorted(days)
    else:
        candidates = [day]
    for candidate in candidates:
        for run in day_runs_of.day_runs(session, candidate, booking_ids=[booking_id]):
            if run.leg == leg:
                return run
    return None


def _day_of(value: object) -> date | None:
    if value in (None, ""):
        return None
    if isinstance(value, date):
        return value
    picked = dates.typed_day(value)
    if picked is None:
        raise VanError("invalid_day")
    return picked


def _crew_state(session: Session, job: VanJob | None) -> dict[str, object] | None:
    if job is None:
        return None
    van = session.get(Van, job.van_id)
    members = session.exec(
        select(User)
        .join(VanJobCrew, col(VanJobCrew.user_id) == User.id)
        .where(VanJobCrew.job_id == job.id)
    ).all()
    return {
        "van": van.name if van else "",
        "crew": sorted((_person(m) for m in members), key=str.casefold),
        "day": job.day,
    }


def assign(
    *,
    session: Session,
    actor_id: object,
    booking_id: object,
    leg: str,
    van_id: object,
    crew_ids: list[object],
    day: object = None,
) -> VanJob:
    """Give a booking's delivery or pickup (`leg`) to a van and its crew (admins only): the van
    must exist and not be set aside, each member be staff or an admin, at least one of them,
    and the booking have that run (on `day` when given). A run already given is given again
    (its crew replaced). Under the booking's van-job lock, audited ('van_assign', the van's and
    the crew's names); commits its own transaction."""
    try:
        target = uuid.UUID(str(booking_id))
    except (TypeError, ValueError):
        raise VanError("no_run") from None
    picked = _day_of(day)

    def work() -> VanJob:
        locks.take(session, locks.van_job(target))
        admin = permissions.require_admin(session, actor_id, VanError)
        if leg not in LEGS:
            raise VanError("no_run")
        van = session.get(Van, _van_id(van_id))
        if van is None:
            raise VanError("not_found")
        if not van.active:
            raise VanError("set_aside")
        wanted: list[uuid.UUID] = []
        for raw in crew_ids if isinstance(crew_ids, list | tuple) else []:
            try:
                member_id = uuid.UUID(str(raw))
            except (TypeError, ValueError):
                raise VanError("not_staff") from None
            if member_id not in wanted:
                wanted.append(member_id)
        if not wanted:
            raise VanError("no_crew")
        members = session.exec(select(User).where(col(User.id).in_(wanted))).all()
        if len(members) != len(wanted) or any(m.role not in CREW_ROLES for m in members):
            raise VanError("not_staff")
        booking = session.get(Booking, target)
        run = _run_of(session, target, leg, picked) if booking is not None else None
        if run is None:
            raise VanError("no_run")
        job = session.exec(
            select(VanJob).where(VanJob.booking_id == target, VanJob.leg == leg)
        ).first()
        before = _crew_state(session, job)
        if job is None:
            job = VanJob(booking_id=target, leg=leg, day=run.day, van_id=van.id)
        else:
            for member in session.exec(select(VanJobCrew).where(VanJobCrew.job_id == job.id)).all():
                session.delete(member)
        job.day, job.van_id = run.day, van.id
        job.assigned_by_id, job.assigned_at = admin.id, utcnow()
        session.add(job)
        session.flush()
        session.add_all([VanJobCrew(job_id=job.id, user_id=m) for m in wanted])
        session.flush()
        audit.record(
            session,
            actor_id=admin.id,
            action="van_assign",
            entity_type="booking",
            entity_id=target,
            before=before,
            after=_crew_state(session, job),
            reference=booking.reference,
            leg=leg,
        )
        return job

    return _committed(session, work)


def unassign(*, session: Session, actor_id: object, booking_id: object, leg: str) -> bool:
    """Take a run off its van (admins only): whether it had one. Audited; commits."""
    try:
        target = uuid.UUID(str(booking_id))
    except (TypeError, ValueError):
        raise VanError("no_run") from None

    def work() -> bool:
        locks.take(session, locks.van_job(target))
        admin = permissions.require_admin(session, actor_id, VanError)
        job = session.exec(
            select(VanJob).where(VanJob.booking_id == target, VanJob.leg == leg)
        ).first()
        if job is None:
            return False
        before = _crew_state(session, job)
        booking = session.get(Booking, target)
        session.delete(job)
        session.flush()
        audit.record(
            session,
            actor_id=admin.id,
            action="van_unassign",
            entity_type="booking",
            entity_id=target,
            before=before,
            reference=booking.reference if booking else "",
            leg=leg,
        )
        return True

    return _committed(session, work)


# --- the day's plan -----------------------------------------------------------------------------


@dataclass(frozen=True)
class PlanRun:
    key: str  # '<booking id>:<leg>'
    booking_id: str
    reference: str
    customer: str
    leg: str  # 'delivery' or 'pickup'
    leg_words: str
    depart: str  # HH:MM, local
    back: str
    municipality: str
    venue: str
    load: str  # 'Castle × 2, Tiffany chair × 60'
    van_id: str  # '' when not given yet
    van_name: str
    crew_ids: list[str]
    crew_names: str
    clashes: list[str] = field(default_factory=list)  # in words


@dataclass(frozen=True)
class VanDay:
    van_id: str
    name: str
    runs: list[str]  # 'HH:MM–HH:MM MG-… Delivery', in order


@dataclass(frozen=True)
class DayPlan:
    day: date
    previous: date
    next: date
    runs: list[PlanRun]
    vans: list[tuple[str, str]]  # the active vans (id, name): the choices
    crew: list[tuple[str, str]]  # staff and admins (id, name)
    by_van: list[VanDay]
    clashes: int


def plan(
    *, session: Session, actor_id: object, day: object = None, now: datetime | None = None
) -> DayPlan:
    """The day's runs in leave order with their van and crew, each run's clashes in words, and
    each van's runs in order (admins only). `day`: a date or 'YYYY-MM-DD'; today without."""
    permissions.require_admin(session, actor_id, VanError)
    picked = _day_of(day) or dates.today(now)
    found = day_runs_of.day_runs(session, picked)
    all_vans = {v.id: v for v in session.exec(select(Van)).all()}
    people = {
        u.id: _person(u)
        for u in session.exec(
            select(User).where(col(User.id).in_({m for r in found for m in r.crew}))
        ).all()
    }
    by_key = {r.key: r for r in found}

    def van_name(van: uuid.UUID | None) -> str:
        return all_vans[van].name if van in all_vans else ""

    def named(other: Run) -> dict[str, str]:
        return {
            "reference": other.reference,
            "leg": _o(LEG_WORDS[other.leg]).lower(),
            "van": van_name(other.van_id),
        }

    words: dict[str, list[str]] = {r.key: [] for r in found}
    clashes = day_runs_of.clashes(found)
    for clash in clashes:
        for mine, theirs in ((clash.first, clash.second), (clash.second, clash.first)):
            other = by_key[theirs]
            if clash.kind == "van":
                words[mine].append(_o(VAN_CLASH).format(**named(other)))
            else:
                words[mine].append(
                    _o(CREW_CLASH).format(member=people.get(clash.who, ""), **named(other))
                )
    rows = [
        PlanRun(
            key=r.key,
            booking_id=str(r.booking_id),
            reference=r.reference,
            customer=r.customer,
            leg=r.leg,
            leg_words=_o(LEG_WORDS[r.leg]),
            depart=dates.local_time(r.depart),
            back=dates.local_time(r.back),
            municipality=r.municipality,
            venue=r.venue,
            load=", ".join(f"{name} × {quantity}" for name, quantity in r.load),
            van_id=str(r.van_id) if r.van_id else "",
            van_name=van_name(r.van_id),
            crew_ids=[str(m) for m in r.crew],
            crew_names=", ".join(sorted((people.get(m, "") for m in r.crew), key=str.casefold)),
            clashes=words[r.key],
        )
        for r in found
    ]
    by_van = [
        VanDay(
            str(van.id),
            van.name,
            [
                f"{row.depart}–{row.back} {row.reference} {row.leg_words}"
                for row in rows
                if row.van_id == str(van.id)
            ],
        )
        for van in sorted(all_vans.values(), key=lambda v: v.name.casefold())
        if any(row.van_id == str(van.id) for row in rows)
    ]
    return DayPlan(
        day=picked,
        previous=picked - timedelta(days=1),
        next=picked + timedelta(days=1),
        runs=rows,
        vans=[
            (str(v.id), v.name)
            for v in sorted(all_vans.values(), key=lambda v: v.name.casefold())
            if v.active
        ],
        crew=crew_choices(session),
        by_van=by_van,
        clashes=len(clashes),
    )
