"""The day sheet: what the crew does on one day (docs/product.md §7), for staff and admins.

Every booking with an item that starts that day (pending, confirmed, on its way or completed;
never a cancelled one), in the order the crew leaves: when to leave (the earliest start less
the setup lead of its services, `Service.setup_lead_minutes` or its kind's), what to load, who to
call, where to go, and when to collect what comes back (`comes_back`). Staff set a confirmed
booking on its way on its day and then completed (admin_bookings.set_status, whose one rule the
buttons follow: the customer is told through the outbox) and write notes. Printed, the sheet is
headed with the business's name and the day."""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal

from sqlmodel import Session, col, select

from storefront.i18n import _o, _s
from storefront.models import (
    Booking,
    BookingItem,
    BookingNote,
    BusinessSettings,
    Service,
    User,
    Van,
    utcnow,
)
from storefront.services import audit, dates, fields, permissions
from storefront.services.booking.admin import AdminBookingError, service_days, staff_statuses
from storefront.services.booking.contact import event_type_label, fields_for
from storefront.services.messaging.notify import customer_name, with_plus
from storefront.services.money import format_price
from storefront.services.operations import delivery as proof_of_delivery
from storefront.services.operations.runs import (
    Run,
    comes_back,
    day_runs,
    load_list,
    maps_link,
    route_link,
    setup_lead,
)
from storefront.services.payments import cash, ledger

# The statuses a sheet shows (a cancelled booking is off it).
SHOWN_STATUSES = ("pending", "confirmed", "on_the_way", "completed")
NOTE_MAX = fields.max_length(BookingNote, "text")


@dataclass(frozen=True)
class SheetLine:
    service: str
    quantity: int
    start: str  # HH:MM local
    end: str


@dataclass(frozen=True)
class SheetNote:
    author: str
    written: str  # DD.MM.YYYY HH:MM local
    text: str


@dataclass(frozen=True)
class SheetBooking:
    booking_id: str
    reference: str
    status: str
    start: str  # HH:MM local, the earliest item's
    end: str  # HH:MM local, the latest item's
    leave: str  # HH:MM local: leaves the depot (the delivery run's depart: lead and drive)
    customer: str
    phone: str
    phone_link: str  # tel:+383...
    venue: str
    maps_link: str  # opens the address in a maps app ('' without an address)
    guests: str
    event_type: str
    special_requests: str
    lines: list[SheetLine]
    pickup: str  # HH:MM local, when to collect what comes back ('' when nothing does)
    pickup_load: str  # 'Bouncer × 2 · Tables × 8': what comes back
    notes: list[SheetNote]
    # The status buttons the caller may press now (admin_bookings.staff_statuses).
    next_statuses: list[str]
    # The declared fields the sheet shows after the others (contact.fields_for("day_sheet",
    # added=True)): name -> value ('' when left empty).
    details: dict[str, str] = field(default_factory=dict)
    # What is left to collect (issue 36): the balance as typed into 'Collected' ('40.00', '0.00'
    # when paid) and as read ('40,00 €'), what it owed and what was paid.
    balance: str = "0.00"
    balance_label: str = ""
    due_label: str = ""
    paid_label: str = ""
    set_up: str = ""  # proof of delivery, issue 37: 'Set up at 14:05 · received by Besa'
    # A rainy day (issue 37): its customer was offered a move or a cancellation and has not
    # answered (services/operations/weather.py); the crew waits before loading it.
    weather_offered: bool = False
    # Issue 37: when the van leaves the depot for the pickup ('' without one that day), the
    # delivery's and the pickup's van and crew ('' when not assigned), and whether the caller
    # may change the job (permissions.require_crew: staff only on their van's).
    pickup_leave: str = ""
    van: str = ""
    crew: str = ""
    pickup_van: str = ""
    pickup_crew: str = ""
    can_change: bool = True


@dataclass(frozen=True)
class SheetVan:
    id: str
    name: str


@dataclass(frozen=True)
class DaySheet:
    day: date
    previous: date
    next: date
    bookings: list[SheetBooking]
    business_name: str  # the printout's header
    # What the caller recorded on this day, by method ('Cash: 200,00 €'), and its total.
    mine: list[str] = field(default_factory=list)
    mine_total: str = ""
    # Issue 37. `view`: 'all' (every job), 'mine' (the caller's van: staff with runs that day)
    # or 'van' (an admin's pick). The vans with runs that day (an admin's filter), the shown
    # van's id, and the Route link through its stops in driving order ('' on 'all').
    view: str = "all"
    vans: list[SheetVan] = field(default_factory=list)
    van_id: str = ""
    van_name: str = ""
    route_link: str = ""
    has_own_van: bool = False  # the caller has runs that day ('Your van' / 'All jobs')


def _day(value: object, now: datetime | None) -> date:
    if value in (None, ""):
        return dates.today(now)
    picked = dates.typed_day(value)
    if picked is None:
        raise AdminBookingError("invalid_filter", "Bad date", field="day")
    return picked


def origin_of(settings: BusinessSettings) -> str:
    """Where the vans leave from, for the Route link: the business's address, else its depot
    municipality."""
    return (settings.address or "").strip() or (settings.depot_municipality or "").strip()


def day_sheet(
    *,
    session: Session,
    actor_id: object,
    day: object = None,
    now: datetime | None = None,
    van: object = "",
    show_all: bool = False,
) -> DaySheet:
    """The sheet of `day` (YYYY-MM-DD or DD.MM.YYYY; today, in the business's zone, when blank).

    A member of staff with runs that day sees their van's jobs in driving order with a Route
    link, or every job with `show_all`; an admin every job, or one van's (`van`, its id). In a
    few queries for the whole day (bench/day_sheet.py: 200 jobs and 10 vans)."""
    actor = permissions.require_staff(session, actor_id, AdminBookingError)
    picked = _day(day, now)
    settings = session.get(BusinessSettings, 1) or BusinessSettings()
    mine = cash.my_day(session=session, actor_id=actor.id, day=picked)
    loaded: dict = {}
    runs = day_runs(session, picked, loaded=loaded)
    van_names = (
        {
            v.id: v.name
            for v in session.exec(
                select(Van).where(col(Van.id).in_({r.van_id for r in runs if r.van_id}))
            ).all()
        }
        if any(r.van_id for r in runs)
        else {}
    )
    own_vans = {r.van_id for r in runs if r.van_id and actor.id in r.crew}
    is_admin = actor.role == "admin"
    view, shown_van = "all", None
    if not is_admin and own_vans and not show_all:
        view = "mine"
    elif is_admin and str(van or ""):
        try:
            wanted = uuid.UUID(str(van)[:64])
        except ValueError:
            wanted = None
        if wanted in van_names:
            view, shown_van = "van", wanted
    if view == "mine":
        # One van a day for a driver; two (a crew lent for a run) show together.
        picked_runs = [r for r in runs if r.van_id in own_vans]
        if len(own_vans) == 1:
            shown_van = next(iter(own_vans))
    elif view == "van":
        picked_runs = [r for r in runs if r.van_id == shown_van]
    else:
        picked_runs = []
    booking_ids = list(dict.fromkeys(r.booking_id for r in picked_runs)) if view != "all" else None
    sheets = jobs(
        session,
        picked,
        now=now,
        runs=runs,
        booking_ids=booking_ids,
        actor=actor,
        van_names=van_names,
        loaded=loaded,
    )
    route = ""
    if view != "all":
        order = {bid: i for i, bid in enumerate(booking_ids or [])}
        sheets.sort(key=lambda s: order.get(uuid.UUID(s.booking_id), len(order)))
        stops: list[str] = []
        for run in picked_runs:
            if run.venue and (not stops or stops[-1] != run.venue):
                stops.append(run.venue)
        route = route_link(origin_of(settings), stops)
    return DaySheet(
        day=picked,
        previous=picked - timedelta(days=1),
        next=picked + timedelta(days=1),
        bookings=sheets,
        business_name=settings.business_name,
        mine=[
            f"{_s(ledger.METHOD_WORDS[method])}: {format_price(amount)}"
            for method, amount in sorted(mine.items())
        ],
        mine_total=format_price(sum(mine.values(), Decimal("0"))) if mine else "",
        view=view,
        vans=[
            SheetVan(id=str(vid), name=name)
            for vid, name in sorted(van_names.items(), key=lambda p: p[1].casefold())
        ],
        van_id=str(shown_van) if shown_van else "",
        van_name=van_names.get(shown_van, "") if shown_van else "",
        route_link=route,
        has_own_van=bool(own_vans),
    )


def jobs(
    session: Session,
    day: date,
    *,
    now: datetime | None = None,
    runs: list[Run] | None = None,
    booking_ids: list[uuid.UUID] | None = None,
    actor: User | None = None,
    van_names: dict[uuid.UUID, str] | None = None,
    loaded: dict | None = None,
) -> list[SheetBooking]:
    """The bookings of `day`'s sheet in the order the crew leaves, each with the statuses staff
    may set at `now` (no caller check: for the sheet above and the staff's digest,
    services/operations/reminders.py). `booking_ids` (a van's jobs, which may include a pickup
    of a booking that started earlier) replaces the day's bookings; `actor` decides
    `can_change`. A few queries for the whole day, whatever its size."""
    zone = dates.business_zone()
    today = dates.today(now)
    if booking_ids is None:
        start, end = dates.day_start_utc(day), dates.day_start_utc(day + timedelta(days=1))
        booking_ids = list(
            session.exec(
                select(BookingItem.booking_id)
                .join(Booking, col(Booking.id) == BookingItem.booking_id)
                .where(
                    BookingItem.start_datetime >= start,
                    BookingItem.start_datetime < end,
                    col(Booking.status).in_(SHOWN_STATUSES),
                )
                .distinct()
            ).all()
        )
    if not booking_ids:
        return []
    if runs is None:
        runs = day_runs(session, day, booking_ids=booking_ids)
    by_run = {(r.booking_id, r.leg): r for r in runs}
    # The runs' reading has the day's bookings and items already (every booking of the sheet
    # has a run that day); read only what it does not have.
    loaded = loaded or {}
    bookings = dict(loaded.get("bookings", {}))
    rows: dict[uuid.UUID, list[tuple[BookingItem, Service | None]]] = defaultdict(list)
    rows.update(loaded.get("items", {}))
    missing = [b for b in booking_ids if b not in bookings or b not in rows]
    if missing:
        bookings.update(
            (b.id, b)
            for b in session.exec(select(Booking).where(col(Booking.id).in_(missing))).all()
        )
        for item, service in session.exec(
            select(BookingItem, Service)
            .join(Service, col(Service.id) == BookingItem.service_id, isouter=True)
            .where(col(BookingItem.booking_id).in_(missing), BookingItem.status != "cancelled")
            .order_by(col(BookingItem.start_datetime), col(BookingItem.id))
        ).all():
            rows[item.booking_id].append((item, service))
    notes: dict[uuid.UUID, list[BookingNote]] = defaultdict(list)
    for note in session.exec(
        select(BookingNote)
        .where(col(BookingNote.booking_id).in_(booking_ids))
        .order_by(col(BookingNote.created_at))
    ).all():
        notes[note.booking_id].append(note)
    paid = ledger.paid_of(session, booking_ids)
    crew_ids = {m for r in runs for m in r.crew}
    names = (
        {
            u.id: " ".join((u.full_name or "").split()) or u.email.split("@")[0]
            for u in session.exec(select(User).where(col(User.id).in_(crew_ids))).all()
        }
        if crew_ids
        else {}
    )
    if van_names is None:
        wanted = {r.van_id for r in runs if r.van_id}
        van_names = (
            {v.id: v.name for v in session.exec(select(Van).where(col(Van.id).in_(wanted))).all()}
            if wanted
            else {}
        )
    mine_ok = actor is None or actor.role == "admin"
    sheets = []
    for booking_id in booking_ids:
        booking = bookings.get(booking_id)
        if booking is None or not rows.get(booking_id):
            continue
        delivery, pickup = by_run.get((booking_id, "delivery")), by_run.get((booking_id, "pickup"))
        assigned = [r for r in (delivery, pickup) if r and r.van_id]
        # A booking another van has (and the caller is none of its crews) shows without its
        # buttons: require_crew refuses them anyway.
        can_change = mine_ok or not assigned or any(actor.id in r.crew for r in assigned)
        sheets.append(
            _sheet(
                zone,
                booking,
                rows[booking_id],
                notes[booking_id],
                paid.get(booking_id, Decimal("0")),
                today,
                delivery=delivery,
                pickup=pickup,
                names=names,
                van_names=van_names,
                can_change=can_change,
            )
        )
    sheets.sort(key=lambda s: (s[0], s[1].start, s[1].reference))
    return [sheet for _leave, sheet in sheets]


def _crew(run: Run | None, names: dict[uuid.UUID, str]) -> str:
    if run is None:
        return ""
    return ", ".join(sorted((names.get(m, "") for m in run.crew), key=str.casefold))


def _sheet(
    zone,
    booking: Booking,
    rows: list[tuple[BookingItem, Service | None]],
    notes: list[BookingNote],
    paid: Decimal,
    today: date,
    *,
    delivery: Run | None,
    pickup: Run | None,
    names: dict[uuid.UUID, str],
    van_names: dict[uuid.UUID, str],
    can_change: bool,
) -> tuple[datetime, SheetBooking]:
    items = [item for item, _service in rows]
    # Leaves the depot: the delivery run's depart (the setup lead and the drive from the
    # depot); a booking without a delivery that day (its pickup's) by the lead alone.
    leave_at = (
        delivery.depart
        if delivery is not None
        else min(item.start_datetime - setup_lead(service) for item, service in rows)
    )
    back = [(item, service) for item, service in rows if comes_back(service)]
    pickup_at = max((item.end_datetime for item, _service in back), default=None)
    venue = ", ".join(p for p in (booking.venue_address, booking.city) if p)
    phone = fields.readable_phone(booking.contact_phone)
    money = ledger.balance_of(booking, paid)
    sheet = SheetBooking(
        booking_id=str(booking.id),
        reference=booking.reference,
        status=booking.status,
        start=dates.local_time(items[0].start_datetime, zone),
        end=dates.local_time(max(i.end_datetime for i in items), zone),
        leave=dates.local_time(leave_at, zone),
        customer=customer_name(booking),
        phone=phone,
        phone_link="tel:" + with_plus(booking.contact_phone) if booking.contact_phone else "",
        venue=venue,
        maps_link=maps_link(venue),
        guests="" if booking.guest_count is None else str(booking.guest_count),
        event_type=event_type_label(booking.event_type) if booking.event_type else "",
        special_requests=booking.special_requests or "",
        details={
            f.name: str(getattr(booking, f.column) or "")
            for f in fields_for("day_sheet", added=True)
        },
        lines=[
            SheetLine(
                service=item.service_name,
                quantity=item.quantity,
                start=dates.local_time(item.start_datetime, zone),
                end=dates.local_time(item.end_datetime, zone),
            )
            for item in items
        ],
        pickup=dates.local_time(pickup_at, zone) if pickup_at else "",
        pickup_load=" · ".join(f"{item.service_name} × {item.quantity}" for item, _service in back),
        notes=[
            SheetNote(
                author=note.author_name or _o("Someone"),
                written=f"{dates.local_date(note.created_at, zone)} "
                f"{dates.local_time(note.created_at, zone)}",
                text=note.text,
            )
            for note in notes
        ],
        next_statuses=(
            staff_statuses(booking.status, service_days(items, zone), today) if can_change else []
        ),
        balance=f"{money.balance:.2f}",
        balance_label=format_price(money.balance, booking.currency),
        due_label=format_price(money.due, booking.currency),
        paid_label=format_price(money.paid, booking.currency),
        set_up=proof_of_delivery.sheet_line(proof_of_delivery.set_up_of(booking)),
        weather_offered=booking.weather_offered_at is not None,
        pickup_leave=dates.local_time(pickup.depart, zone) if pickup is not None else "",
        van=van_names.get(delivery.van_id, "") if delivery and delivery.van_id else "",
        crew=_crew(delivery, names),
        pickup_van=van_names.get(pickup.van_id, "") if pickup and pickup.van_id else "",
        pickup_crew=_crew(pickup, names),
        can_change=can_change,
    )
    return leave_at, sheet


@dataclass(frozen=True)
class LoadList:
    day: date
    business_name: str
    van_id: str
    van_name: str
    vans: list[SheetVan]  # an admin's picker: the vans with runs that day
    load: list[str]  # '2 × Bubble house'
    comes_back: list[str]
    stops: int  # the van's jobs that day


def van_load(
    *,
    session: Session,
    actor_id: object,
    day: object = None,
    van: object = "",
    now: datetime | None = None,
) -> LoadList:
    """The load list of a van and day (issue 37): its deliveries' items summed by name, and what
    its pickups bring back. Staff see their van's (the one they are crew of that day), admins
    any van's (`van`, its id; the first van of the day when blank)."""
    actor = permissions.require_staff(session, actor_id, AdminBookingError)
    picked = _day(day, now)
    settings = session.get(BusinessSettings, 1) or BusinessSettings()
    runs = day_runs(session, picked)
    wanted_ids = {r.van_id for r in runs if r.van_id}
    vans = (
        {v.id: v.name for v in session.exec(select(Van).where(col(Van.id).in_(wanted_ids))).all()}
        if wanted_ids
        else {}
    )
    if actor.role == "admin":
        allowed = set(vans)
    else:
        allowed = {r.van_id for r in runs if r.van_id and actor.id in r.crew}
    choices = [
        SheetVan(id=str(vid), name=vans[vid])
        for vid in sorted(allowed, key=lambda v: vans.get(v, "").casefold())
        if vid in vans
    ]
    chosen = None
    try:
        wanted = uuid.UUID(str(van or "")[:64]) if van else None
    except ValueError:
        wanted = None
    if wanted in allowed:
        chosen = wanted
    elif choices:
        chosen = uuid.UUID(choices[0].id)
    van_runs = [r for r in runs if chosen is not None and r.van_id == chosen]
    load, back = load_list(van_runs)
    return LoadList(
        day=picked,
        business_name=settings.business_name,
        van_id=str(chosen) if chosen else "",
        van_name=vans.get(chosen, "") if chosen else "",
        vans=choices,
        load=[f"{quantity} × {name}" for name, quantity in load],
        comes_back=[f"{quantity} × {name}" for name, quantity in back],
        stops=len({r.booking_id for r in van_runs}),
    )


def add_note(
    *,
    session: Session,
    actor_id: object,
    booking_id: object,
    text: object,
    now: datetime | None = None,
) -> SheetNote:
    """Write a note on a booking (staff or admin), audited. Refused when blank or too long
    (fields.FieldError, its message naming the field), and on another van's job for staff
    (permissions.require_crew)."""
    actor = permissions.require_crew(session, actor_id, booking_id, AdminBookingError)
    try:
        target = uuid.UUID(str(booking_id))
    except ValueError:
        raise AdminBookingError("not_found", "Booking not found") from None
    booking = session.get(Booking, target)
    if booking is None:
        raise AdminBookingError("not_found", "Booking not found")
    written = fields.multi_line(text, _o("Note"), NOTE_MAX, required=True)
    author = " ".join((actor.full_name or "").split()) or actor.email.split("@")[0]
    written_at = now or utcnow()
    note = BookingNote(
        booking_id=booking.id,
        author_id=actor.id,
        author_name=author,
        text=written,
        created_at=written_at,
    )
    session.add(note)
    audit.record(
        session,
        actor_id=actor.id,
        action="booking_note",
        entity_type="booking",
        entity_id=booking.id,
        after={"note": written},
        reference=booking.reference,
    )
    zone = dates.business_zone()
    return SheetNote(
        author=author,
        written=f"{dates.local_date(written_at, zone)} {dates.local_time(written_at, zone)}",
        text=written,
    )
