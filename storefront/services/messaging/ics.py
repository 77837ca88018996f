"""A booking as an iCalendar file: one event per booked service, in the business's time zone.
Used for the `.ics` download (METHOD:PUBLISH, an import) and for the mails about a booking
(RFC 5546: METHOD:REQUEST with the business as ORGANIZER and the customer as ATTENDEE, or
METHOD:CANCEL once cancelled). Each event keeps its UID and carries the booking's SEQUENCE, which
rises with every change, so a calendar that took an earlier file updates the event instead of
adding another; STATUS follows the booking (TENTATIVE while pending)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

from icalendar import Calendar, Event, vCalAddress

from storefront import i18n
from storefront.i18n import _o
from storefront.models import Booking, BookingItem, BusinessSettings
from storefront.settings import get_settings

PRODID = "-//Magic Events//Storefront//EN"
# iCalendar's STATUS for an event, from the booking item's status.
EVENT_STATUS = {"pending": "TENTATIVE", "cancelled": "CANCELLED"}
PUBLISH, REQUEST, CANCEL = "PUBLISH", "REQUEST", "CANCEL"
# How a mail attaches the file: the method and the character set said in its MIME type too.
MIME_TYPE = "text/calendar; charset=utf-8; method={method}"


def mail_method(booking: Booking) -> str:
    """The method of the file a mail about `booking` carries: an update, or its cancellation."""
    return CANCEL if booking.status == "cancelled" else REQUEST


TIMEZONE_MARGIN = timedelta(days=366)


def ics_for_booking(
    booking: Booking,
    items: Iterable[BookingItem],
    *,
    business: BusinessSettings,
    method: str = PUBLISH,
) -> bytes:
    """In the language the booking was made in (storefront/i18n.py); `method`: PUBLISH for a
    download, `mail_method(booking)` for a mail."""
    with i18n.using(booking.language):
        return _calendar(booking, items, business=business, method=method)


def _calendar(
    booking: Booking, items: Iterable[BookingItem], *, business: BusinessSettings, method: str
) -> bytes:
    settings = get_settings()
    zone = ZoneInfo(settings.timezone)
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("method", method)
    domain = urlsplit(settings.public_url).hostname or "localhost"
    items = sorted(items, key=lambda i: (i.start_datetime, i.service_name))
    for item in items:
        event = _event(booking, item, business=business, zone=zone, domain=domain)
        if method != PUBLISH:  # a scheduling message names who sends it and to whom
            event.add("organizer", _address(business.email, business.business_name))
            event.add("attendee", _address(booking.contact_email, booking.contact_name or ""))
        calendar.add_component(event)
    if items:
        # The time zone's rules around the booked days only, not fifty years of them.
        calendar.add_missing_timezones(
            first_date=items[0].start_datetime.date() - TIMEZONE_MARGIN,
            last_date=max(i.end_datetime for i in items).date() + TIMEZONE_MARGIN,
        )
    return calendar.to_ical()


def _event(
    booking: Booking, item: BookingItem, *, business: BusinessSettings, zone: ZoneInfo, domain: str
) -> Event:
    event = Event()
    # Stable per item, so a calendar updates the event when the file is imported again.
    event.add("uid", f"{item.id}@{domain}")
    event.add("dtstamp", booking.updated_at)
    event.add("dtstart", item.start_datetime.astimezone(zone))
    event.add("dtend", item.end_datetime.astimezone(zone))
    summary = item.service_name if item.quantity == 1 else f"{item.service_name} x{item.quantity}"
    event.add("summary", summary)
    event.add(
        "description",
        _o("Booking {reference}").format(reference=booking.reference)
        + f"\n{business.business_name}: {business.phone}, {business.email}",
    )
    venue = ", ".join(part for part in (booking.venue_address, booking.city or "") if part)
    if venue:
        event.add("location", venue)
    event.add("sequence", booking.calendar_sequence or 0)
    status = "cancelled" if booking.status == "cancelled" else item.status
    event.add("status", EVENT_STATUS.get(status, "CONFIRMED"))
    return event


def _address(email: str, name: str) -> vCalAddress:
    address = vCalAddress(f"mailto:{email}")
    if name:
        address.params["cn"] = name
    return address
