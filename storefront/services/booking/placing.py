"""Placing a booking (docs/architecture.md §5).

`place_booking` is one transaction: it locks every service in the cart in sorted order
(PostgreSQL advisory locks; SQLite's write lock through `BEGIN IMMEDIATE`), re-checks every
line with the availability rules, prices every line from the catalogue, and writes the booking,
its items and its two outbox notifications together. The idempotency key makes a double click
or a retry return the same booking.
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy import and_, bindparam, event, func, literal, or_, true
from sqlalchemy.exc import (
    DBAPIError,
    DisconnectionError,
    IntegrityError,
    OperationalError,
)
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlmodel import Session, col, select

from storefront import i18n
from storefront.db import error_summary, is_outage, reads_one_by_one
from storefront.i18n import N_, _
from storefront.models import (
    Booking,
    BookingItem,
    User,
    booking_reference,
    new_id,
    utcnow,
)
from storefront.models.kinds import read_details
from storefront.models.service_details import own_hours
from storefront.services import business, limit_keys, locks, metrics
from storefront.services.booking import availability, transport
from storefront.services.booking.contact import Contact, booking_columns, clean_contact
from storefront.services.booking.lines import (
    BookingError,
    BookingLine,
    check_line_count,
    check_line_shape,
    check_line_time,
    clock_text,
    day_text,
)
from storefront.services.booking.pricing import bookable_services, line_name, price_line
from storefront.services.cache import OCCUPANCY
from storefront.services.catalog import public as catalog
from storefront.services.fields import normalize_email
from storefront.services.messaging import outbox
from storefront.settings import get_settings

MAX_KEY_LENGTH = 64
# The booking limits (issue 18): bookings, not lines, per visitor address in ADDRESS_WINDOW and
# per email and per phone in CONTACT_WINDOW; how many is in the settings (BOOKING_LIMIT_*). An
# address counts as its network (an IPv6 /64) and an email as its mailbox (issue 33,
# services/limit_keys.py); a cancelled booking does not count.
ADDRESS_WINDOW = timedelta(hours=1)
CONTACT_WINDOW = timedelta(hours=24)
LIMIT_MESSAGE = N_(
    "You have placed as many bookings as we take online in a short time. Your cart is kept: "
    "please try again later, or call or write to us to book more."
)
KEY_REUSED_MESSAGE = N_(
    "This checkout was already placed as {reference}, with other services or times, so your "
    "cart was not booked again. Please check it and place it again."
)
# Refusals whose message is written for the guest, shown as it is (checkout, booking screen).
GUEST_MESSAGE_CODES = ("too_many_bookings", "key_reused")
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PlacedBooking:
    id: str
    reference: str
    total: Decimal
    # The customer's confirmation mail was held back by the mail cap (MAIL_CAP_PER_RECIPIENT):
    # the screen that placed it says so.
    mail_held: bool = False


def _check_key(idempotency_key: object) -> str:
    if not isinstance(idempotency_key, str) or not 8 <= len(idempotency_key) <= MAX_KEY_LENGTH:
        raise BookingError("invalid_idempotency_key", "A checkout key of 8 to 64 characters")
    return idempotency_key


def _check_user(session: Session, user_id: object) -> uuid.UUID | None:
    if user_id is None:
        return None
    try:
        parsed = uuid.UUID(str(user_id))
    except ValueError:
        raise BookingError("invalid_user", "No such user") from None
    if session.get(User, parsed) is None:
        raise BookingError("invalid_user", "No such user")
    return parsed


# --- placing --------------------------------------------------------------------------------


def place_booking(
    *,
    session: Session,
    lines: Sequence[BookingLine],
    contact: Contact,
    idempotency_key: str,
    user_id: str | uuid.UUID | None = None,
    client_address: str | None = None,
    now: datetime | None = None,
) -> PlacedBooking:
    """Book every line or nothing. Commits its own transaction, so `session` must have none
    open; the same `idempotency_key` with the same lines again returns the booking already
    placed (with other lines: `key_reused`). `client_address` is the visitor's, for the limits
    and the back office's bulk cancel. Each refusal is counted by its code (/metrics)."""
    try:
        return _place_booking(
            session=session,
            lines=lines,
            contact=contact,
            idempotency_key=idempotency_key,
            user_id=user_id,
            client_address=client_address,
            now=now,
        )
    except BookingError as refused:
        metrics.booking_refused(refused.code)
        raise


metrics.refusal_codes(BookingError.CODES)


def _place_booking(
    *,
    session: Session,
    lines: Sequence[BookingLine],
    contact: Contact,
    idempotency_key: str,
    user_id: str | uuid.UUID | None,
    client_address: str | None,
    now: datetime | None,
) -> PlacedBooking:
    if session.in_transaction():
        raise RuntimeError("place_booking needs a session with no open transaction")
    key = _check_key(idempotency_key)
    check_line_count(lines)
    for index, line in enumerate(lines):
        check_line_shape(index, line)
        check_line_time(index, line)
    contact = clean_contact(contact)
    now = now or utcnow()
    try:
        # A package of a known length is booked for that length whatever the line says (a
        # forged or stale cart), and a retry of it is the same order (issue 34, item 3).
        lines = _shown_lengths(session, lines)
        order = _Order(
            lines=lines,
            contact=contact,
            key=key,
            digest=lines_digest(lines),
            client_address=str(client_address or "").strip()[:64] or None,
            user_id=user_id,
        )
        return _place(session, order, now)
    except (DBAPIError, DisconnectionError, PoolTimeoutError) as error:
        if not is_outage(error):
            raise
        _forget_transaction(session)
        # Nothing was committed, or the commit's answer was lost: either way the same key
        # again places the booking once or returns the one placed (docs/architecture.md §5).
        logger.warning("Booking refused, the database is unavailable: %s", error_summary(error))
        raise BookingError(
            "unavailable", "The booking system is unavailable; please try again"
        ) from None


def with_own_hours(line: BookingLine, hours: int | None) -> BookingLine:
    """`line` for `hours`, its service's own length (service_details.own_hours), when it has one;
    as asked otherwise (docs/architecture.md §5)."""
    return replace(line, duration_hours=hours) if hours else line


def _shown_lengths(session: Session, lines: Sequence[BookingLine]) -> tuple[BookingLine, ...]:
    """Each line for its service's own length as the catalogue's cache has it (no query once
    cached): what the first look judges and the key is bound to. Under the lock the length is
    read again with the service (`_terms`), and that is what is booked."""
    try:
        return tuple(
            with_own_hours(
                line,
                catalog.own_hours_of(
                    session=session, service_id=str(availability.service_id_of(line.service_id))
                ),
            )
            for line in lines
        )
    finally:
        session.rollback()  # a cache miss read the catalogue: the lock must open the transaction


def lines_digest(lines: Sequence[BookingLine]) -> str:
    """The SHA-256 of what the lines book (service, quantity, date, time, hours; in any order):
    what an idempotency key is bound to. Lines checked by `check_line_time` (typed values)."""
    canonical = sorted(
        [
            str(availability.service_id_of(line.service_id)),
            int(line.quantity),
            # As the cart writes them ('YYYY-MM-DD', 'HH:MM'): a key stays bound to the same
            # hash as when the lines were text.
            day_text(line.date),
            clock_text(line.start_time),
            int(line.duration_hours),
        ]
        for line in lines
    )
    return hashlib.sha256(json.dumps(canonical).encode()).hexdigest()


@dataclass(frozen=True)
class _Order:
    """What the guest asked for, checked: the lines, the clean contact, the key and what it is
    bound to, and who asks."""

    lines: tuple[BookingLine, ...]
    contact: Contact
    key: str
    digest: str
    client_address: str | None
    user_id: object

    @property
    def email(self) -> str:
        return normalize_email(self.contact.email)

    @property
    def mailbox(self) -> str:
        return limit_keys.mailbox(self.email)

    @property
    def phone(self) -> str:
        return self.contact.phone.strip()

    @property
    def service_ids(self) -> list[uuid.UUID]:
        return sorted({availability.service_id_of(line.service_id) for line in self.lines})


def _place(session: Session, order: _Order, now: datetime) -> PlacedBooking:
    plan = _plan(session, order, now)
    if isinstance(plan, PlacedBooking):
        return plan
    for _attempt in range(3):
        try:
            return _place_locked(session, order, plan, now)
        except IntegrityError:
            session.rollback()
            # The same key won in another request, or two new bookings drew the same
            # 8-character reference: then plan again with a new id.
            plan = _plan(session, order, now)
            if isinstance(plan, PlacedBooking):
                return plan
        except OperationalError as error:
            session.rollback()
            if locks.is_lock_timeout(error):
                raise BookingError("busy", "Please try again") from None
            raise
        except BaseException:
            session.rollback()
            raise
    raise BookingError("busy", "Please try again")


def _forget_transaction(session: Session) -> None:
    """Roll back what is left of a transaction whose connection may already be gone."""
    try:
        session.rollback()
    except Exception:  # the connection is dead; the pool has already discarded it
        logger.debug("rollback after a lost connection failed", exc_info=True)


def lock_services_of(session: Session, booking_id: uuid.UUID) -> None:
    """Take the engine's locks on the services of an existing booking (sorted), starting the
    transaction its change runs in: the back office's edits (services/booking/admin.py) and
    the customer's own changes (services/booking/changes.py). Whatever the session had open is
    rolled back first, so the lock is the transaction's first act (SQLite's `BEGIN IMMEDIATE`)."""
    session.rollback()
    service_ids = sorted(
        {
            sid
            for sid in session.exec(
                select(BookingItem.service_id).where(BookingItem.booking_id == booking_id)
            ).all()
            if sid is not None
        }
    )
    session.rollback()
    locks.take(session, *map(locks.service, service_ids))


@dataclass(frozen=True)
class _Offer:
    """What a line's service costs, is called and lasts (its own length, or None), read under
    the lock."""

    id: uuid.UUID
    title: str
    price: Decimal
    price_unit: str
    hours: int | None = None


@dataclass(frozen=True)
class _Plan:
    booking_id: uuid.UUID  # its MG- reference unused when planned
    owner: uuid.UUID | None
    rules: dict[uuid.UUID, availability.ServiceCalendar]  # for looking again while queueing


def _terms(
    session: Session, lines: Sequence[BookingLine]
) -> tuple[dict[int, _Offer], dict[uuid.UUID, availability.ServiceCalendar]]:
    """Each line's service (active, published, priced: else `service_not_found`) with its price
    and title, and each service's rules (hours, capacity, blocked days) without holds."""
    offers = {
        index: _Offer(
            s.id,
            line_name(s),
            Decimal(s.price),
            s.price_unit,
            own_hours(read_details(s.kind, s.meta)),
        )
        for index, s in bookable_services(session, lines).items()
    }
    rules = {
        offer.id: availability.load_rules(session=session, service_id=offer.id)
        for offer in offers.values()
    }
    return offers, rules


def _plan(session: Session, order: _Order, now: datetime) -> _Plan | PlacedBooking:
    """A first look without the lock: a first check of every line, a retry's booking, the user
    and the limits, so that once a slot is full (or a guest has booked enough) those still
    trying are told at once instead of waiting their turn; the lines come first, as the cheapest
    refusal when a burst meets a full slot (three statements). Nothing read here is used to
    book: under the lock everything is read again (`_place_locked`)."""
    try:
        reads_one_by_one(session)  # nothing here books: under the lock everything is read again
        rules = _shown_rules(session, order.lines)
        booked, filed_under = _shown_calendars(session, order.lines)
        # A retry (of a booking that took the slot itself, too) is answered with its booking.
        existing, versions = _booking_with_key_and_versions(session, order)
        if existing is not None:
            return _as_placed_before(session, existing)
        # The public calendars' holds count only if no booking or catalogue change has been
        # committed since they were read: else the bookings are read here.
        current = booked if booked and filed_under == versions else None
        check_lines_free(session, order.lines, rules, now, booked=current)
        owner = _check_user(session, order.user_id)
        _check_limits(session, order, now)
        return _Plan(_unused_reference_id(session), owner, rules)
    finally:
        session.rollback()


def _shown_rules(
    session: Session, lines: Sequence[BookingLine]
) -> dict[uuid.UUID, availability.ServiceCalendar]:
    """Each line's service's rules as the public calendars show them (the catalogue cache, so
    no query once cached), or `service_not_found` naming the line: enough for the first look,
    which decides only who is refused early; under the lock they are read fresh (`_terms`)."""
    rules: dict[uuid.UUID, availability.ServiceCalendar] = {}
    for index, line in enumerate(lines):
        service_id = availability.service_id_of(line.service_id)
        try:
            rules[service_id] = availability.shown_rules(
                session=session, service_id=str(service_id)
            )
        except availability.AvailabilityError:
            raise BookingError("service_not_found", "No such service", line=index) from None
    return rules


def _shown_calendars(
    session: Session, lines: Sequence[BookingLine]
) -> tuple[dict[uuid.UUID, availability.ServiceCalendar], tuple | None]:
    """Each line's service's public calendar of the line's month, with its bookings
    (availability.month_calendar: the calendars' cache, so no query while it is current), and
    the versions they were filed under; empty when a service's lines fall in two months or a
    calendar was not filed (then the first look reads the bookings itself)."""
    months: dict[uuid.UUID, set[tuple[int, int]]] = defaultdict(set)
    for line in lines:
        months[availability.service_id_of(line.service_id)].add((line.date.year, line.date.month))
    calendars: dict[uuid.UUID, availability.ServiceCalendar] = {}
    filed_under: set[tuple | None] = set()
    for service_id, service_months in months.items():
        if len(service_months) != 1:
            return {}, None
        ((year, month),) = service_months
        calendar, version = availability.month_calendar.with_version(
            session=session, service_id=str(service_id), year=year, month=month
        )
        calendars[service_id] = calendar
        filed_under.add(version)
    if len(filed_under) != 1 or None in filed_under:
        return {}, None
    return calendars, filed_under.pop()


def _place_locked(session: Session, order: _Order, plan: _Plan, now: datetime) -> PlacedBooking:
    def look_again() -> None:
        # While others hold the lock: once their bookings have filled a line's slot, this guest
        # is refused now rather than after queueing (a retry of a placed key waits on, and is
        # answered with its booking under the lock).
        if _booking_with_key(session, order) is None:
            check_lines_free(session, order.lines, plan.rules, now)

    locks.take(
        session,
        *map(locks.service, order.service_ids),
        *_limit_lock_keys(order),
        while_waiting=look_again,
    )
    # Everything the booking depends on is read from here on, under the lock: a service
    # deactivated or repriced while this guest queued is sold on its new terms, or not at all.
    existing = _booking_with_key(session, order)
    if existing is not None:  # a double click: the first request has just placed it
        existing = _as_placed_before(session, existing)
        session.commit()
        return existing
    _check_limits(session, order, now)
    offers, rules = _terms(session, order.lines)
    # Each line for its service's own length as it is now (a package's length is not chosen).
    lines = [with_own_hours(line, offers[i].hours) for i, line in enumerate(order.lines)]
    spans = check_lines_free(session, lines, rules, now)
    # The transport to its municipality as the settings price it now (one not served online,
    # or not in the list, is refused) and the deposit rule.
    place = _served(session, order.contact.city)
    terms = business.settings_row(session)
    booking = _new_booking(order, plan, now)
    total = Decimal("0.00")
    for index, line in enumerate(lines):
        offer = offers[index]
        start, end = spans[index]
        unit_price = price_line(
            price=offer.price,
            price_unit=offer.price_unit,
            quantity=1,
            duration_hours=line.duration_hours,
        )
        total += unit_price * line.quantity
        session.add(
            BookingItem(
                booking_id=booking.id,
                service_id=offer.id,
                service_name=offer.title,
                service_price=unit_price,
                unit_price=offer.price,
                price_unit=offer.price_unit,
                quantity=line.quantity,
                start_datetime=start,
                end_datetime=end,
                created_at=now,
                updated_at=now,
            )
        )
    # What it owes: the lines, the transport to its municipality as the settings priced it
    # (read before any row is added), and the deposit asked of that total.
    booking.transport_amount = place.fee
    booking.total_amount = total + place.fee
    booking.deposit_amount = transport.deposit_for(
        booking.total_amount, terms.deposit_percent, Decimal(terms.deposit_above)
    )
    total = booking.total_amount
    session.add(booking)
    held = _announce(session, booking, now)
    session.flush()
    placed = PlacedBooking(str(booking.id), booking.reference, total, mail_held=held)
    session.commit()
    metrics.booking_placed(mail_held=held)
    return placed


def _served(session: Session, city: str) -> transport.Served:
    """The booking's municipality and its fee, or `invalid_contact` on the city: not one of
    the list, or not served online (its message gives the business's phone)."""
    try:
        return transport.served(session, city)
    except transport.NotServed as refused:
        raise BookingError(
            "invalid_contact",
            "Please check the form",
            fields={"city": refused.code},
            messages={"city": refused.message},
        ) from None


def _as_placed_before(session: Session, placed: PlacedBooking) -> PlacedBooking:
    """A booking this key placed earlier (a retry, a double click), told as the first answer
    was: whether its confirmation was held back."""
    held = outbox.held_back(session, booking_id=uuid.UUID(placed.id))
    return replace(placed, mail_held=held)


def _limits(order: _Order) -> list[tuple[str, object, str, int, timedelta]]:
    """(name, column, value, allowed, window) of each limit that applies to this order."""
    settings = get_settings()
    limits = [
        (
            "address",
            Booking.client_network,
            limit_keys.network(order.client_address or ""),
            settings.booking_limit_per_address,
            ADDRESS_WINDOW,
        ),
        (
            "email",
            Booking.contact_mailbox,
            order.mailbox,
            settings.booking_limit_per_email,
            CONTACT_WINDOW,
        ),
        (
            "phone",
            Booking.contact_phone,
            order.phone,
            settings.booking_limit_per_phone,
            CONTACT_WINDOW,
        ),
    ]
    return [limit for limit in limits if limit[2] and limit[3] > 0]


def _check_limits(session: Session, order: _Order, now: datetime) -> None:
    """`too_many_bookings` when the address's network, the mailbox or the phone has placed its
    allowance of bookings in its window; cancelled ones do not count."""
    limits = _limits(order)
    if not limits:
        return
    # The three counts in one query (each condition has its index: migrations 0010, 0018).
    conditions = [
        and_(
            column == value,
            col(Booking.created_at) > now - window,
            col(Booking.status) != "cancelled",
        )
        for _name, column, value, _allowed, window in limits
    ]
    counts = session.exec(
        select(*(func.count().filter(condition) for condition in conditions)).where(
            or_(*conditions)
        )
    ).one()
    for (name, _column, _value, allowed, window), placed in zip(limits, counts, strict=True):
        if placed >= allowed:
            logger.warning(
                "Booking refused: the %s limit (%s in %s) was reached", name, allowed, window
            )
            # Shown to the guest as it is (GUEST_MESSAGE_CODES): in the guest's language.
            raise BookingError("too_many_bookings", _(LIMIT_MESSAGE), limit=name)


def _limit_lock_keys(order: _Order) -> list[locks.Key]:
    """The lock keys of the order's limited values: two bookings of one network, mailbox or
    phone are counted one after the other, whatever services they book. With the mail cap on,
    the mailbox's key is taken even when its booking limit is off: the cap counts the mailbox's
    confirmations under it (outbox.enqueue)."""
    values = {f"{name}:{value}" for name, _column, value, _allowed, _window in _limits(order)}
    if get_settings().mail_cap_per_recipient and order.mailbox:
        values.add(f"email:{order.mailbox}")
    return [locks.booking_limit(value) for value in sorted(values)]


def _booking_with_key(session: Session, order: _Order) -> PlacedBooking | None:
    """The booking this key placed, if any; `key_reused` when it placed other lines."""
    row = session.exec(
        select(Booking.id, Booking.reference, Booking.total_amount, Booking.lines_digest).where(
            Booking.idempotency_key == order.key
        )
    ).first()
    return _placed_with_key(row, order)


def _booking_with_key_and_versions(
    session: Session, order: _Order
) -> tuple[PlacedBooking | None, tuple]:
    """`_booking_with_key`, and in the same statement the versions the public calendars' cache
    files its entries under (catalog_cache.OCCUPANCY), as committed now: one round trip for the
    first look of a guest in a burst."""
    row = session.exec(_KEY_AND_VERSIONS, params={"key": order.key}).one()
    width = len(OCCUPANCY.names)
    booking_row = None if row[width] is None else tuple(row[width:])
    return _placed_with_key(booking_row, order), tuple(row[:width])


def _key_and_versions_statement():
    """Built once: building a statement with subqueries costs more than running it."""
    found = (
        select(Booking.id, Booking.reference, Booking.total_amount, Booking.lines_digest)
        .where(Booking.idempotency_key == bindparam("key"))
        .subquery()
    )
    one = select(literal(1).label("one")).subquery()
    return select(*OCCUPANCY.version_columns(), *found.c).select_from(one.outerjoin(found, true()))


_KEY_AND_VERSIONS = _key_and_versions_statement()


def _placed_with_key(row, order: _Order) -> PlacedBooking | None:
    if row is None:
        return None
    if row[3] is not None and row[3] != order.digest:
        raise BookingError(
            "key_reused", _(KEY_REUSED_MESSAGE).format(reference=row[1]), reference=row[1]
        )
    return PlacedBooking(str(row[0]), row[1], Decimal(row[2]))


def check_lines_free(
    session: Session,
    lines: Sequence[BookingLine],
    rules: dict[uuid.UUID, availability.ServiceCalendar],
    now: datetime,
    *,
    booked: dict[uuid.UUID, availability.ServiceCalendar] | None = None,
    exclude_booking: uuid.UUID | None = None,
) -> dict[int, tuple[datetime, datetime]]:
    """The UTC span of every line, once each has been found free by the one capacity check
    (availability.check_in_order) with the booking screen's rules (opening hours, notice, the
    slot maximum: availability.slot_refusal); lines of the same service count against each other
    in cart order. `exclude_booking`'s own items are left out (a customer moving that booking,
    services/booking/changes.py); else `slot_taken` or `slot_unavailable` naming the first line
    refused. The caller holds the services' locks; only the first look, which holds none, hands
    in `booked` calendars it has checked current."""
    wants: list[availability.Want] = []
    for index, line in enumerate(lines):
        service_id = availability.service_id_of(line.service_id)
        start = availability.local_to_utc(line.date, line.start_time, rules[service_id].zone)
        if start is None:  # a time the clocks skip
            raise _refused(index, line, "closed")
        end = start + timedelta(hours=line.duration_hours)
        wants.append(availability.Want(index, service_id, start, end, line.quantity))

    def judge(calendar: availability.ServiceCalendar, want: availability.Want) -> str | None:
        line = lines[want.key]
        return availability.slot_refusal(
            calendar,
            line.date,
            line.start_time,
            duration_hours=line.duration_hours,
            quantity=line.quantity,
            now=now,
        )

    refused = availability.check_in_order(
        session, wants, judge=judge, rules=rules, booked=booked, exclude_booking=exclude_booking
    )
    if refused:
        want, reason = min(refused, key=lambda pair: pair[0].key)
        raise _refused(want.key, lines[want.key], reason)
    return {want.key: (want.start, want.end) for want in wants}


def _refused(index: int, line: BookingLine, reason: str) -> BookingError:
    details = {
        "line": index,
        "service_id": str(line.service_id),
        "date": day_text(line.date),
        "start_time": clock_text(line.start_time),
    }
    if reason == "taken":
        return BookingError("slot_taken", "This time slot is no longer available", **details)
    return BookingError("slot_unavailable", "This time cannot be booked", reason=reason, **details)


def _new_booking(order: _Order, plan: _Plan, now: datetime) -> Booking:
    booking_id, contact = plan.booking_id, order.contact
    return Booking(
        id=booking_id,
        reference=booking_reference(booking_id),
        idempotency_key=order.key,
        lines_digest=order.digest,
        client_address=order.client_address,
        status="pending",
        # Every declared contact field in its column (models/contact_fields.py).
        **booking_columns(contact) | {"contact_email": order.email, "contact_phone": order.phone},
        guest_count=contact.guest_count,
        currency=get_settings().currency,
        # The language of the page it was placed on: its mails, calendar file and confirmation.
        language=i18n.language(),
        user_id=plan.owner,
        created_at=now,
        updated_at=now,
    )


def _unused_reference_id(session: Session) -> uuid.UUID:
    """A new id whose MG- reference no booking has (8 hex digits do repeat in time)."""
    while True:
        candidate = new_id()
        taken = session.exec(
            select(Booking.id).where(Booking.reference == booking_reference(candidate))
        ).first()
        if taken is None:
            return candidate


def _announce(session: Session, booking: Booking, now: datetime) -> bool:
    """The staff's WhatsApp message and the customer's confirmation, in the booking's
    transaction (services/messaging/outbox.py sends them once it commits); whether the confirmation was
    held back by the mail cap (counted under the mailbox's lock, `_limit_lock_keys`)."""
    queued = [
        outbox.enqueue(
            session=session,
            channel=channel,
            topic=topic,
            recipient=recipient,
            payload={"booking_id": str(booking.id)},
            booking_id=booking.id,
            now=now,
        )
        for channel, topic, recipient in (
            ("whatsapp", "booking_placed", business.staff_whatsapp(session)),
            ("email", "booking_confirmation", booking.contact_email),
        )
    ]
    return any(outbox.is_held(row) for row in queued)


@event.listens_for(Booking, "before_insert")
@event.listens_for(Booking, "before_update")
def _limit_keys_follow(_mapper, _connection, booking: Booking) -> None:
    """What the limits count (Booking.client_network, Booking.contact_mailbox) follows the
    stored address and email whenever a booking is written, whoever changed them (the back
    office's edit too)."""
    booking.client_network = limit_keys.network(booking.client_address or "") or None
    booking.contact_mailbox = limit_keys.mailbox(booking.contact_email or "") or None


def other_cart_holds(
    lines: Iterable[BookingLine],
    *,
    service_id: str,
    except_index: int | None = None,
    hours: int | None = None,
) -> list[availability.CartHold]:
    """The cart's other lines of a service with a date and time: what `month_days` and
    `day_slots` count besides the bookings while one line's time is being chosen. `hours`: the
    service's own length, which each of them holds whatever the cart says."""
    return [
        availability.CartHold(
            line.date, line.start_time, hours or line.duration_hours, line.quantity
        )
        for index, line in enumerate(lines)
        if index != except_index
        and str(line.service_id) == str(service_id)
        and line.date
        and line.start_time
    ]
