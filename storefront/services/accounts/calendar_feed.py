"""The private calendar subscription of an admin or staff member: an iCalendar address
(`/api/calendar/{token}.ics`) that Google Calendar or a phone's calendar polls, listing the
bookings of the last week and the months ahead.

The address holds a secret token of 256 random bits; the database keeps only a SHA-256 of it,
bound to the account's role when the address was made (`_token_hash`). So the address works only
while its account exists and still has that role (admin or staff), checked in the database at
every request: a deleted account, a member demoted to user (or moved to another role), or an
admin the back office refuses until they set up two-factor sign-in gets the same 404 as a token
that never existed. A role that changed ends the address for good (its row is deleted at the
next request): it does not come back with the role. Turning the subscription on again makes a
new token and the old address dies; turning it off deletes the row.

One event per booked service (a booking item), not per booking: the items of one booking may be
at different hours, each has its own status, and the item's id gives a UID that stays the same
when an admin moves its time, so a calendar moves the event instead of adding a second one.
What the crew needs on the day (customer, phone, address, guests, requests) is in each event."""

from __future__ import annotations

import hashlib
import re
import secrets
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event, Timezone
from sqlalchemy import delete, update
from sqlmodel import Session, col, select

from storefront import i18n, routes
from storefront.i18n import _o, office_ngettext
from storefront.models import Booking, BookingItem, CalendarFeed, User, utcnow
from storefront.services import audit, dates, permissions
from storefront.services.business import settings_row
from storefront.services.errors import ServiceError
from storefront.services.messaging import notify
from storefront.settings import get_settings

# The roles a feed is for; anyone else's address answers 404.
FEED_ROLES = ("admin", "staff")
# What the feed lists: bookings that are or were to be done; a cancelled line or booking is left
# out. Completed and on-the-way ones stay, so the day's events do not vanish while it runs.
SHOWN_STATUSES = ("pending", "confirmed", "on_the_way", "completed")
PAST = timedelta(days=7)
AHEAD = timedelta(days=183)
# A bound on one answer's size, whatever the business books.
MAX_EVENTS = 3000
# How often a calendar should fetch it again (clients treat this as a hint).
REFRESH = timedelta(hours=1)
# last_used_at is written at most this often: a feed fetched every few minutes costs no writes.
TOUCH_EVERY = timedelta(hours=1)
# secrets.token_urlsafe(32): 43 characters of the URL-safe alphabet.
TOKEN_BYTES = 32
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{43}")
PRODID = "-//Magic Events//Staff calendar//EN"
# The day sheet of staff (issue 22); admins open the booking itself.


class CalendarFeedError(ServiceError):
    """Codes: no_user, not_allowed (not an admin or staff member), two_factor_required (an admin
    who must set up two-factor sign-in first)."""

    CODES = {
        "no_user": "No user logged in",
        "not_allowed": "Only admins and staff have a calendar subscription",
        "two_factor_required": permissions.TWO_FACTOR_REQUIRED,
    }


@dataclass(frozen=True)
class FeedStatus:
    """What the profile shows: whether the caller may have a feed and whether it is on."""

    allowed: bool
    enabled: bool
    created_at: datetime | None = None
    last_used_at: datetime | None = None


@dataclass(frozen=True)
class FeedAddress:
    """The address made by `turn_on`, shown once: https (or http) and webcal."""

    url: str
    webcal_url: str


def _token_hash(token: str, role: str) -> str:
    """SHA-256 of the token bound to the role it was made for (see the module's docstring)."""
    return hashlib.sha256(f"{role}:{token}".encode()).hexdigest()


def feed_url(token: str) -> str:
    return get_settings().public_url.rstrip("/") + routes.CALENDAR_FEED.format(token=token)


def webcal_url(url: str) -> str:
    """The same address for the `webcal:` scheme, which calendars open as a subscription."""
    return "webcal://" + url.split("://", 1)[-1]


def _user(session: Session, user_id: object) -> User | None:
    try:
        return session.get(User, uuid.UUID(str(user_id)))
    except (TypeError, ValueError):
        return None


def _member(session: Session, user_id: object) -> User:
    """The caller when the database says they may have a feed now, else CalendarFeedError."""
    user = _user(session, user_id)
    if user is None:
        raise CalendarFeedError("no_user")
    if user.role not in FEED_ROLES:
        raise CalendarFeedError("not_allowed")
    if permissions.two_factor_setup_needed(session, user):
        raise CalendarFeedError("two_factor_required")
    return user


def status(*, session: Session, user_id: object) -> FeedStatus:
    user = _user(session, user_id)
    if user is None:
        raise CalendarFeedError("no_user")
    if user.role not in FEED_ROLES:
        return FeedStatus(allowed=False, enabled=False)
    row = session.get(CalendarFeed, user.id)
    if row is None:
        return FeedStatus(allowed=True, enabled=False)
    return FeedStatus(
        allowed=True, enabled=True, created_at=row.created_at, last_used_at=row.last_used_at
    )


def end_for(session: Session, user_id: object) -> None:
    """Delete an account's address in the caller's transaction: for the code that changes a
    role (the address would also die at its next request, see the module's docstring)."""
    session.exec(delete(CalendarFeed).where(col(CalendarFeed.user_id) == uuid.UUID(str(user_id))))


def turn_on(*, session: Session, user_id: object, now: datetime | None = None) -> FeedAddress:
    """A new secret address for the caller (an admin or staff member); one made before stops
    working. The token is returned once and never stored."""
    user = _member(session, user_id)
    now = now or utcnow()
    token = secrets.token_urlsafe(TOKEN_BYTES)
    row = session.get(CalendarFeed, user.id)
    replaced = row is not None
    if row is None:
        row = CalendarFeed(user_id=user.id, token_hash="")
    row.token_hash = _token_hash(token, user.role)
    row.created_at, row.last_used_at = now, None
    session.add(row)
    audit.record(
        session,
        actor_id=user.id,
        action="calendar_feed_on",
        entity_type="user",
        entity_id=str(user.id),
        replaced=replaced,
    )
    session.flush()
    url = feed_url(token)
    return FeedAddress(url=url, webcal_url=webcal_url(url))


def turn_off(*, session: Session, user_id: object) -> None:
    """Delete the caller's address. Any account may end its own (a demoted one too)."""
    user = _user(session, user_id)
    if user is None:
        raise CalendarFeedError("no_user")
    gone = session.exec(delete(CalendarFeed).where(col(CalendarFeed.user_id) == user.id))
    if gone.rowcount:
        audit.record(
            session,
            actor_id=user.id,
            action="calendar_feed_off",
            entity_type="user",
            entity_id=str(user.id),
        )


def feed(*, session: Session, token: str, now: datetime | None = None) -> bytes | None:
    """The calendar of the address with `token`, or None (the route's 404) for a token that is
    not one, an account that is gone or no longer has the role the address was made for, and an
    admin who must set up two-factor sign-in first."""
    token = str(token or "")
    if not TOKEN_PATTERN.fullmatch(token):
        return None
    now = now or utcnow()
    made_for = {_token_hash(token, role): role for role in FEED_ROLES}
    row = session.exec(
        select(CalendarFeed).where(col(CalendarFeed.token_hash).in_(list(made_for)))
    ).first()
    if row is None:
        return None
    user = session.get(User, row.user_id)
    if user is None:
        return None
    if user.role != made_for[row.token_hash]:
        # The role it was made for was taken away: the address never works again.
        session.exec(
            delete(CalendarFeed).where(
                col(CalendarFeed.user_id) == user.id,
                col(CalendarFeed.token_hash) == row.token_hash,
            )
        )
        return None
    if permissions.two_factor_setup_needed(session, user):
        return None
    if row.last_used_at is None or now - row.last_used_at >= TOUCH_EVERY:
        session.exec(
            update(CalendarFeed)
            .where(
                col(CalendarFeed.user_id) == user.id,
                col(CalendarFeed.token_hash) == row.token_hash,
            )
            .values(last_used_at=now)
        )
    with i18n.using(user.language or i18n.BACK_OFFICE_DEFAULT):
        return _calendar(session, user, now)


def _calendar(session: Session, user: User, now: datetime) -> bytes:
    settings = get_settings()
    zone = dates.business_zone()
    business = settings_row(session)
    first, last = now - PAST, now + AHEAD
    rows = session.exec(
        select(BookingItem, Booking)
        .join(Booking, col(Booking.id) == col(BookingItem.booking_id))
        .where(
            col(Booking.status).in_(SHOWN_STATUSES),
            col(BookingItem.status).in_(SHOWN_STATUSES),
            col(BookingItem.end_datetime) >= first,
            col(BookingItem.start_datetime) < last,
        )
        .order_by(col(BookingItem.start_datetime), col(BookingItem.id))
        .limit(MAX_EVENTS)
    ).all()
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    name = _o("{business}: bookings").format(business=business.business_name)
    calendar.add("name", name)
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", settings.timezone)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", REFRESH)
    # The zone's rules over the feed's span (and a margin), always, even on an empty day.
    calendar.add_component(
        Timezone.from_tzinfo(
            zone,
            tzid=settings.timezone,
            first_date=(first - timedelta(days=31)).date(),
            last_date=(last + timedelta(days=31)).date(),
        )
    )
    domain = urlsplit(settings.public_url).hostname or "localhost"
    for item, booking in rows:
        calendar.add_component(_event(item, booking, user=user, zone=zone, domain=domain))
    return calendar.to_ical()


def _summary(item: BookingItem, booking: Booking) -> str:
    service = item.service_name if item.quantity == 1 else f"{item.service_name} x{item.quantity}"
    summary = _o("{service} for {customer}").format(
        service=service, customer=notify.customer_name(booking)
    )
    return _o("Pending: {summary}").format(summary=summary) if item.status == "pending" else summary


def _office_link(booking: Booking, item: BookingItem, user: User) -> str:
    """The booking in the back office, in the member's language: its edit page for an admin,
    the day's sheet for staff."""
    if user.role == "admin":
        path = routes.with_id(routes.ADMIN_BOOKING_EDIT, str(booking.id))
    else:
        day = item.start_datetime.astimezone(dates.business_zone()).date().isoformat()
        path = routes.with_id(routes.ADMIN_DAY_OF, str(day))
    return get_settings().public_url.rstrip("/") + i18n.href(path)


def _description(item: BookingItem, booking: Booking, link: str) -> str:
    status = notify.STATUS_WORDS.get(item.status)
    lines = [
        _o("Booking {reference}").format(reference=booking.reference)
        + (f" ({_o(status)})" if status else ""),
        f"{_o('Customer')}: {notify.customer_name(booking)}",
        f"{_o('Phone')}: {booking.contact_phone}",
    ]
    if booking.guest_count is not None:
        lines.append(
            office_ngettext("{count} guest", "{count} guests", booking.guest_count).format(
                count=booking.guest_count
            )
        )
    if booking.special_requests:
        lines.append(_o("Special requests: {text}").format(text=booking.special_requests))
    if item.notes:
        lines.append(f"{_o('Notes')}: {item.notes}")
    lines.append(link)
    return "\n".join(lines)


def _event(
    item: BookingItem, booking: Booking, *, user: User, zone: ZoneInfo, domain: str
) -> Event:
    event = Event()
    # Its own UID (not the customer's file's): the same item in the same calendar every time.
    event.add("uid", f"staff-{item.id}@{domain}")
    changed = max(booking.updated_at, item.updated_at)
    event.add("dtstamp", changed)
    event.add("last-modified", changed)
    event.add("dtstart", item.start_datetime.astimezone(zone))
    event.add("dtend", item.end_datetime.astimezone(zone))
    event.add("summary", _summary(item, booking))
    venue = ", ".join(part for part in (booking.venue_address, booking.city or "") if part)
    if venue:
        event.add("location", venue)
    link = _office_link(booking, item, user)
    event.add("description", _description(item, booking, link))
    event.add("url", link)
    event.add("status", "TENTATIVE" if item.status == "pending" else "CONFIRMED")
    event.add("transp", "OPAQUE")
    return event
