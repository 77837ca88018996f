"""A booking line (a service, how many, the day, the start, the hours) and the checks of its shape, with the booking errors every step of booking raises."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, time
from datetime import datetime as datetime_type

from storefront.services.booking import availability
from storefront.services.errors import ServiceError

MAX_LINES = 50
# ASCII digits only, as the browser writes them (the checkout page's own first check,
# `cart.checkout_leave_script`, reads them with the same patterns).
CLOCK_PATTERN = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$", re.ASCII)
DATE_PATTERN = re.compile(r"^\d{4}-\d{2}-\d{2}$", re.ASCII)


class BookingError(ServiceError):
    """Codes: empty_cart, too_many_lines, invalid_line (details: line, field), service_not_found
    (line), slot_taken (line, service_id, date, start_time), slot_unavailable (the same and
    reason: blocked, closed, too_soon), invalid_contact (fields: {field: code}, messages:
    {field: message}),
    invalid_idempotency_key, invalid_user, busy (the lock could not be had in time),
    too_many_bookings (limit: address, email or phone), key_reused (the key placed other lines;
    reference: the booking it placed),
    unavailable (the database could not be reached or dropped the connection: nothing was
    placed, or a retry with the same key returns what was)."""

    CODES = {
        "busy": "Please try again",
        "empty_cart": "The cart is empty",
        "invalid_contact": "Please check the form",
        "invalid_idempotency_key": "A checkout key of 8 to 64 characters",
        "invalid_line": "Malformed cart line",
        "invalid_user": "No such user",
        "key_reused": "Key reused",
        "service_not_found": "No such service",
        "slot_taken": "This time slot is no longer available",
        "slot_unavailable": "This time cannot be booked",
        "too_many_bookings": "Too many bookings",
        "too_many_lines": "Too many services in one booking",
        "unavailable": "The booking system is unavailable; please try again",
    }


# --- the door: a day and a time as the browser writes them ----------------------------------


def parse_date(value: object) -> date | None:
    """A day as the browser writes it, 'YYYY-MM-DD' (of a real date), else None. The one parser
    of a booking's day: the states, the cart and a line given as text use it where the text comes
    in, and the services take the `date` (docs/architecture.md §5)."""
    if isinstance(value, date) and not isinstance(value, datetime_type):
        return value
    text = value if isinstance(value, str) else ""
    if not DATE_PATTERN.match(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def parse_time(value: object) -> time | None:
    """A start time as the browser writes it, 'HH:MM' on a 24-hour clock, else None: the one
    parser of a booking's start time (see `parse_date`)."""
    if isinstance(value, time):
        return time(value.hour, value.minute)
    text = value if isinstance(value, str) else ""
    if not CLOCK_PATTERN.match(text):
        return None
    return time(int(text[:2]), int(text[3:5]))


def day_text(day: date | None) -> str:
    """'YYYY-MM-DD', or blank: how the cart, the picker and a refusal write a day."""
    return day.isoformat() if day else ""


def clock_text(clock: time | None) -> str:
    """'HH:MM', or blank: how the cart, the picker and a refusal write a start time."""
    return f"{clock:%H:%M}" if clock else ""


@dataclass(frozen=True)
class BookingLine:
    """One line of a booking, typed: its day and start time are `date` and `time` values (None
    until chosen). Given as text (a test, a script), they are read here once with `parse_date` /
    `parse_time`; text they refuse is kept as it is, for `check_line_time` to refuse with its
    message."""

    service_id: str
    quantity: int
    date: date | None  # local; None until chosen
    start_time: time | None  # local; None until chosen
    duration_hours: int = 1

    def __post_init__(self) -> None:
        if isinstance(self.date, str):
            object.__setattr__(self, "date", parse_date(self.date) or (self.date or None))
        if isinstance(self.start_time, str):
            clock = parse_time(self.start_time)
            object.__setattr__(self, "start_time", clock or (self.start_time or None))


# --- checking what the browser sent -----------------------------------------------------------


def check_line_count(lines: Sequence[BookingLine]) -> None:
    if not lines:
        raise BookingError("empty_cart", "The cart is empty")
    if len(lines) > MAX_LINES:
        raise BookingError("too_many_lines", "Too many services in one booking")


def check_line_shape(index: int, line: BookingLine) -> None:
    if not isinstance(line, BookingLine):
        raise BookingError("invalid_line", "Malformed cart line", line=index, field="line")
    try:
        availability.service_id_of(line.service_id)
        availability.check_quantity(line.quantity)
        availability.check_duration(line.duration_hours)
    except availability.AvailabilityError as error:
        field = {"service_not_found": "service_id", "invalid_quantity": "quantity"}.get(
            error.code, "duration_hours"
        )
        raise BookingError("invalid_line", "Malformed cart line", line=index, field=field) from None


def check_line_time(index: int, line: BookingLine) -> None:
    """A day and a start time, as typed values (text was read once where it came in)."""
    if not line.date or not line.start_time:
        raise BookingError(
            "invalid_line", "Please select a date and time", line=index, field="date"
        )
    if not isinstance(line.date, date) or isinstance(line.date, datetime_type):
        raise BookingError("invalid_line", "Bad date", line=index, field="date")
    if not isinstance(line.start_time, time):
        raise BookingError("invalid_line", "Bad start time", line=index, field="start_time")
