"""The availability rules (docs/architecture.md §5) as pure functions, with the clock pinned."""

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from storefront.services.booking.availability import (
    AvailabilityError,
    BlockedRange,
    Capacity,
    CartHold,
    Hold,
    OpeningHours,
    cart_hold_to_hold,
    check_duration,
    check_quantity,
    days_of_month,
    is_blocked,
    local_to_utc,
    service_calendar,
    slots_for_day,
)

ZONE = ZoneInfo("Europe/Belgrade")
NOW = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)  # a Monday, 08:00 local
DAY = date(2026, 6, 10)  # a Wednesday (day_of_week 3), well past the notice
WEDNESDAY = 3


def at(day: date, clock: str) -> datetime:
    """A local wall-clock time as UTC."""
    return datetime.combine(day, time.fromisoformat(clock), tzinfo=ZONE).astimezone(UTC)


def hold(day: date, clock: str, hours: int, quantity: int = 1) -> Hold:
    start = at(day, clock)
    return Hold(start, start + timedelta(hours=hours), quantity)


def calendar(**kwargs):
    kwargs.setdefault("zone", ZONE)
    kwargs.setdefault("min_notice", timedelta(hours=24))
    return service_calendar(**kwargs)


def free(cal, day=DAY, duration=1, quantity=1, now=NOW) -> list[str]:
    slots = slots_for_day(cal, day, duration_hours=duration, quantity=quantity, now=now)
    return [s.start_time for s in slots if s.available]


def offered(cal, day=DAY, duration=1, quantity=1, now=NOW) -> list[str]:
    slots = slots_for_day(cal, day, duration_hours=duration, quantity=quantity, now=now)
    return [s.start_time for s in slots]


def hours(start="09:00", end="12:00", slot=60, max_per_slot=None, available=True, day=WEDNESDAY):
    return OpeningHours(
        day, time.fromisoformat(start), time.fromisoformat(end), slot, max_per_slot, available
    )


# --- opening hours ---------------------------------------------------------------------------


def test_a_weekday_without_rows_is_open_eight_to_eight_in_hours():
    cal = calendar(hours=[hours(day=1)])  # rows for Monday only
    assert offered(cal) == [f"{h:02d}:00" for h in range(8, 20)]
    assert offered(cal, duration=3)[-1] == "17:00"  # ends by 20:00


def test_the_rows_of_the_weekday_give_start_times_and_the_booking_ends_by_closing():
    cal = calendar(hours=[hours("09:00", "12:00", slot=30)])
    assert offered(cal) == ["09:00", "09:30", "10:00", "10:30", "11:00"]
    assert offered(cal, duration=3) == ["09:00"]
    assert offered(cal, duration=4) == []


def test_two_periods_in_a_day_and_end_labels():
    cal = calendar(hours=[hours("09:00", "11:00"), hours("14:00", "16:00")])
    slots = slots_for_day(cal, DAY, duration_hours=1, quantity=1, now=NOW)
    assert [(s.start_time, s.end_time) for s in slots] == [
        ("09:00", "10:00"),
        ("10:00", "11:00"),
        ("14:00", "15:00"),
        ("15:00", "16:00"),
    ]


def test_a_weekday_whose_rows_are_all_switched_off_is_closed():
    cal = calendar(hours=[hours(available=False), hours("14:00", "18:00", available=False)])
    assert offered(cal) == []
    june = days_of_month(cal, 2026, 6, duration_hours=1, quantity=1, now=NOW)
    assert {d.date for d in june if not d.available} >= {"2026-06-03", "2026-06-10"}
    assert next(d for d in june if d.date == "2026-06-11").available  # Thursday: default hours


def test_a_switched_off_row_beside_an_open_one_only_removes_its_own_hours():
    cal = calendar(hours=[hours("09:00", "11:00"), hours("14:00", "16:00", available=False)])
    assert offered(cal) == ["09:00", "10:00"]


# --- capacity ---------------------------------------------------------------------------------


def test_units_in_use_plus_the_quantity_must_fit_the_units():
    cal = calendar(
        capacity=Capacity(total_units=2),
        holds=[hold(DAY, "10:00", 2), hold(DAY, "10:00", 2)],
    )
    assert free(cal) == ["08:00", "09:00", *(f"{h}:00" for h in range(12, 20))]
    assert "09:00" not in free(cal, duration=2)  # 09:00-11:00 runs into the holds


def test_quantity_counts_units_not_bookings():
    cal = calendar(capacity=Capacity(total_units=3), holds=[hold(DAY, "10:00", 1, quantity=2)])
    assert "10:00" in free(cal, quantity=1)
    assert "10:00" not in free(cal, quantity=2)
    assert free(cal, quantity=4) == []


def test_the_buffer_keeps_units_out_after_each_booking_and_after_the_new_one():
    cal = calendar(
        capacity=Capacity(total_units=1, buffer_minutes=60), holds=[hold(DAY, "10:00", 2)]
    )
    available = free(cal)
    assert "12:00" not in available and "13:00" in available  # the hold's buffer until 13:00
    assert "09:00" not in available  # the new booking's buffer would reach 11:00
    assert "08:00" in available  # 08:00-09:00 plus buffer ends exactly at 10:00


def test_the_peak_counts_only_holds_out_at_the_same_moment():
    cal = calendar(
        capacity=Capacity(total_units=2),
        holds=[hold(DAY, "10:00", 1), hold(DAY, "12:00", 1)],
    )
    assert "10:00" in free(cal, duration=4)  # one unit in use at any moment, never two
    crowded = cal.with_holds([hold(DAY, "11:00", 2)])
    assert "10:00" not in free(crowded, duration=4)


def test_bookings_starting_in_a_slot_stay_within_the_slot_maximum():
    cal = calendar(
        hours=[hours("09:00", "13:00", max_per_slot=1)],
        capacity=Capacity(total_units=5),
        holds=[hold(DAY, "10:00", 1)],
    )
    assert free(cal) == ["09:00", "11:00", "12:00"]
    two = calendar(
        hours=[hours("09:00", "13:00", max_per_slot=2)],
        capacity=Capacity(total_units=5),
        holds=[hold(DAY, "10:00", 1)],
    )
    assert "10:00" in free(two)


# --- blocked dates ----------------------------------------------------------------------------


def test_a_blocked_range_removes_whole_days():
    cal = calendar(blocked=[BlockedRange(date(2026, 6, 10), date(2026, 6, 12))])
    assert offered(cal) == []
    june = {
        d.date: d.available
        for d in days_of_month(cal, 2026, 6, duration_hours=1, quantity=1, now=NOW)
    }
    shown = [june[f"2026-06-{n:02d}"] for n in (9, 10, 11, 12, 13)]
    assert shown == [True, False, False, False, True]


@pytest.mark.parametrize(
    ("start", "end", "day", "blocked"),
    [
        (date(2020, 12, 24), date(2020, 12, 26), date(2026, 12, 25), True),
        (date(2020, 12, 24), date(2020, 12, 26), date(2026, 12, 27), False),
        (date(2019, 12, 30), date(2020, 1, 2), date(2026, 12, 31), True),
        (date(2019, 12, 30), date(2020, 1, 2), date(2027, 1, 1), True),
        (date(2019, 12, 30), date(2020, 1, 2), date(2027, 1, 3), False),
        (date(2019, 12, 30), date(2020, 1, 2), date(2026, 12, 29), False),
        (date(2024, 2, 29), date(2024, 2, 29), date(2028, 2, 29), True),
        (date(2024, 2, 29), date(2024, 2, 29), date(2027, 2, 28), True),
        (date(2024, 2, 29), date(2024, 2, 29), date(2027, 3, 1), False),
        (date(2024, 2, 29), date(2024, 2, 29), date(2028, 2, 28), False),
        (date(2023, 2, 28), date(2023, 3, 1), date(2028, 2, 29), True),
    ],
)
def test_yearly_blocks_compare_month_and_day(start, end, day, blocked):
    assert is_blocked(day, [BlockedRange(start, end, recurring_yearly=True)]) is blocked


def test_a_one_off_block_does_not_come_back_next_year():
    block = BlockedRange(date(2026, 12, 24), date(2026, 12, 26))
    assert is_blocked(date(2026, 12, 25), [block])
    assert not is_blocked(date(2027, 12, 25), [block])


# --- past times and notice -----------------------------------------------------------------


def test_past_times_and_the_minimum_notice_are_never_offered():
    now = at(DAY, "12:30")
    cal = calendar(min_notice=timedelta(hours=24))
    assert free(cal, day=DAY, now=now) == []
    tomorrow = DAY + timedelta(days=1)
    assert free(cal, day=tomorrow, now=now) == [f"{h}:00" for h in range(13, 20)]
    no_notice = calendar(min_notice=timedelta(0))
    assert free(no_notice, day=DAY, now=now) == [f"{h}:00" for h in range(13, 20)]
    assert free(no_notice, day=DAY - timedelta(days=1), now=now) == []


def test_a_month_in_the_past_has_no_available_day():
    cal = calendar()
    may = days_of_month(cal, 2026, 5, duration_hours=1, quantity=1, now=NOW)
    assert len(may) == 31 and not any(d.available for d in may)


# --- daylight saving (Europe/Belgrade, 2026) -----------------------------------------------


def test_the_hour_that_does_not_exist_in_spring_is_skipped():
    spring = date(2026, 3, 29)  # 02:00 CET jumps to 03:00 CEST
    assert local_to_utc(spring, time(2, 30), ZONE) is None
    assert local_to_utc(spring, time(3, 0), ZONE) == datetime(2026, 3, 29, 1, 0, tzinfo=UTC)
    cal = calendar(hours=[hours("00:00", "06:00", day=0)], min_notice=timedelta(0))
    now = datetime(2026, 3, 1, tzinfo=UTC)
    slots = slots_for_day(cal, spring, duration_hours=1, quantity=1, now=now)
    assert [(s.start_time, s.end_time) for s in slots] == [
        ("00:00", "01:00"),
        ("01:00", "03:00"),  # one real hour later the clocks read 03:00
        ("03:00", "04:00"),
        ("04:00", "05:00"),
        ("05:00", "06:00"),
    ]
    # 01:00 for four real hours ends 06:00 local: still within closing
    assert "01:00" in free(cal, day=spring, duration=4, now=now)
    assert "01:00" not in free(cal, day=spring, duration=5, now=now)
    taken = cal.with_holds(
        [Hold(datetime(2026, 3, 29, 1, 0, tzinfo=UTC), datetime(2026, 3, 29, 2, 0, tzinfo=UTC))]
    )
    assert "03:00" not in free(taken, day=spring, now=now)
    assert "04:00" in free(taken, day=spring, now=now)


def test_the_hour_that_happens_twice_in_autumn_means_its_first_occurrence():
    autumn = date(2026, 10, 25)  # 03:00 CEST falls back to 02:00 CET
    assert local_to_utc(autumn, time(2, 30), ZONE) == datetime(2026, 10, 25, 0, 30, tzinfo=UTC)
    cal = calendar(hours=[hours("00:00", "06:00", day=0)], min_notice=timedelta(0))
    now = datetime(2026, 10, 1, tzinfo=UTC)
    slots = slots_for_day(cal, autumn, duration_hours=1, quantity=1, now=now)
    assert [s.start_time for s in slots] == ["00:00", "01:00", "02:00", "03:00", "04:00", "05:00"]
    assert (
        next(s for s in slots if s.start_time == "02:00").end_time == "02:00"
    )  # 03:00 CEST = 02:00 CET
    # The day is seven real hours long: 00:00 for 7 hours ends at 06:00 local
    assert "00:00" in free(cal, day=autumn, duration=7, now=now)
    first = Hold(datetime(2026, 10, 25, 0, 0, tzinfo=UTC), datetime(2026, 10, 25, 1, 0, tzinfo=UTC))
    assert "02:00" not in free(cal.with_holds([first]), day=autumn, now=now)
    second = Hold(
        datetime(2026, 10, 25, 1, 0, tzinfo=UTC), datetime(2026, 10, 25, 2, 0, tzinfo=UTC)
    )
    assert "02:00" in free(cal.with_holds([second]), day=autumn, now=now)
    assert "03:00" in free(cal.with_holds([second]), day=autumn, now=now)


def test_months_with_a_daylight_saving_change_have_every_date():
    cal = calendar()
    for month, days in ((3, 31), (10, 31)):
        statuses = days_of_month(cal, 2026, month, duration_hours=1, quantity=1, now=NOW)
        assert [d.date for d in statuses] == [
            f"2026-{month:02d}-{n:02d}" for n in range(1, days + 1)
        ]


# --- cart lines and arguments -------------------------------------------------------------


def test_cart_lines_count_like_bookings():
    line = cart_hold_to_hold(CartHold(date(2026, 6, 10), time(10, 0), 2, 1), ZONE)
    assert line == hold(DAY, "10:00", 2)
    cal = calendar(capacity=Capacity(total_units=1)).with_holds([line])
    assert "10:00" not in free(cal) and "11:00" not in free(cal) and "12:00" in free(cal)


@pytest.mark.parametrize(
    "line",
    [
        # Text is read where the cart comes in (cart.parse), never here.
        CartHold("2026-06-10", time(10, 0), 2),
        CartHold(date(2026, 6, 10), "10:00", 2),
        CartHold(date(2026, 6, 10), time(10, 0), 9),
        CartHold(date(2026, 6, 10), time(10, 0), 2, 0),
        CartHold(date(2026, 3, 29), time(2, 30), 1),
    ],
)
def test_a_malformed_cart_line_is_refused(line):
    with pytest.raises(AvailabilityError) as error:
        cart_hold_to_hold(line, ZONE)
    assert error.value.code == "invalid_cart_hold"


@pytest.mark.parametrize("value", [0, 9, -1, True, "2", 1.5, None])
def test_durations_are_whole_hours_from_one_to_eight(value):
    with pytest.raises(AvailabilityError) as error:
        check_duration(value)
    assert error.value.code == "invalid_duration"


@pytest.mark.parametrize("value", [0, -3, True, "1", None, 10_000])
def test_quantities_are_whole_and_positive(value):
    with pytest.raises(AvailabilityError) as error:
        check_quantity(value)
    assert error.value.code == "invalid_quantity"
