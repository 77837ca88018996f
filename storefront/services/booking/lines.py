"""A booking line (a service, how many, the day, the start, the hours) and the checks of its shape, with the booking errors every step of booking raises."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from storefront.services.booking import availability
from storefront.services.errors import ServiceError

MAX_LINES = 50
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


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


@dataclass(frozen=True)
class BookingLine:
    service_id: str
    quantity: int
    date: str  # YYYY-MM-DD, local; blank until chosen
    start_time: str  # HH:MM, local; blank until chosen
    duration_hours: int = 1


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
    if not line.date or not line.start_time:
        raise BookingError(
            "invalid_line", "Please select a date and time", line=index, field="date"
        )
    try:
        if not _DATE.match(str(line.date)):
            raise availability.AvailabilityError("invalid_date")
        availability.parse_day(line.date)
    except availability.AvailabilityError:
        raise BookingError("invalid_line", "Bad date", line=index, field="date") from None
    try:
        availability.parse_clock(line.start_time)
    except availability.AvailabilityError:
        raise BookingError(
            "invalid_line", "Bad start time", line=index, field="start_time"
        ) from None
