"""A booking line's day and time are read once, where the browser's text comes in
(docs/architecture.md §5): one parser, typed values after it, and the idempotency key's hash the
same as when lines were text."""

import hashlib
import json
from datetime import date, datetime, time

import pytest

from storefront.services.booking import lines, placing
from storefront.services.booking.lines import BookingError, BookingLine

SERVICE = "6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b"


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("2026-06-10", date(2026, 6, 10)),
        ("2026-02-30", None),
        ("10.06.2026", None),
        ("2026-6-10", None),
        ("2026-06-1\u0660", None),  # not ASCII digits
        ("", None),
        (None, None),
        (20260610, None),
        (date(2026, 6, 10), date(2026, 6, 10)),
        (datetime(2026, 6, 10, 10), None),
    ],
)
def test_one_parser_of_a_day(text, day):
    assert lines.parse_date(text) == day


@pytest.mark.parametrize(
    ("text", "clock"),
    [
        ("10:00", time(10, 0)),
        ("23:59", time(23, 59)),
        ("24:00", None),
        ("9:00", None),
        ("10h", None),
        ("1\u0662:30", None),
        ("", None),
        (None, None),
        (time(9, 30, 15), time(9, 30)),
    ],
)
def test_one_parser_of_a_start_time(text, clock):
    assert lines.parse_time(text) == clock


def test_a_line_given_text_reads_it_once_and_keeps_what_it_refuses():
    line = BookingLine(SERVICE, 1, "2026-06-10", "10:00", 2)
    assert (line.date, line.start_time) == (date(2026, 6, 10), time(10, 0))
    assert BookingLine(SERVICE, 1, "", "", 1).date is None
    with pytest.raises(BookingError) as bad_day:
        lines.check_line_time(0, BookingLine(SERVICE, 1, "10.06.2026", "10:00", 1))
    assert (bad_day.value.message, bad_day.value.details["field"]) == ("Bad date", "date")
    with pytest.raises(BookingError) as bad_time:
        lines.check_line_time(0, BookingLine(SERVICE, 1, "2026-06-10", "10h", 1))
    assert bad_time.value.details["field"] == "start_time"
    with pytest.raises(BookingError) as missing:
        lines.check_line_time(0, BookingLine(SERVICE, 1, None, None, 1))
    assert missing.value.message == "Please select a date and time"


def test_the_key_is_bound_to_the_same_hash_as_when_lines_were_text():
    typed = BookingLine(SERVICE, 2, date(2026, 6, 10), time(9, 0), 3)
    as_text = json.dumps([[SERVICE, 2, "2026-06-10", "09:00", 3]])
    assert placing.lines_digest([typed]) == hashlib.sha256(as_text.encode()).hexdigest()
    assert placing.lines_digest([BookingLine(SERVICE, 2, "2026-06-10", "09:00", 3)]) == (
        placing.lines_digest([typed])
    )
