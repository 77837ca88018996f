"""The drift table's arithmetic (bench/drift.py, used by bench/soak.py): each aim of issue 38
passes on figures within it and fails on figures past it."""

from __future__ import annotations

import math

import pytest

from bench import drift


def test_percentile_is_the_nearest_rank():
    values = list(range(1, 101))  # 1..100
    assert drift.percentile(values, 0.95) == 95  # not 96: 0.95 x 100 is 95.00000000000001
    assert drift.percentile(reversed(values), 0.5) == 50
    assert drift.percentile([7.0], 0.95) == 7.0
    assert (
        drift.percentile(
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20], 0.95
        )
        == 19
    )
    assert math.isnan(drift.percentile([], 0.95))


def test_windows_are_the_first_and_last_after_the_warm_up_and_never_overlap():
    assert drift.windows(300, 1800, 300) == ((300, 600), (1500, 1800))
    # A short run: each window at most half of what follows the warm-up.
    assert drift.windows(60, 240, 300) == ((60, 150), (150, 240))
    with pytest.raises(ValueError):
        drift.windows(300, 300, 300)


def _samples(kind: str, early: float, late: float, n: int = 30):
    return [(400.0 + i, kind, early) for i in range(n)] + [
        (1600.0 + i, kind, late) for i in range(n)
    ]


def test_latency_drift_within_a_fifth_passes_and_past_it_fails():
    first, last = (300, 600), (1500, 1800)
    (steady,) = drift.latency_checks(_samples("add to cart", 0.100, 0.119), first, last)
    (slower,) = drift.latency_checks(_samples("add to cart", 0.100, 0.125), first, last)
    assert steady.ok is True and "1.19x" in steady.figure
    assert slower.ok is False and "1.25x" in slower.figure


def test_latency_outside_the_windows_is_not_counted_and_few_samples_are_not_judged():
    first, last = (300, 600), (1500, 1800)
    outside = [(100.0, "cart page", 9.0), (900.0, "cart page", 9.0)]  # warm-up, the middle
    (check,) = drift.latency_checks(_samples("cart page", 0.05, 0.05) + outside, first, last)
    assert check.ok is True and "50.0 ms" in check.figure and "n=30" in check.figure
    (few,) = drift.latency_checks(_samples("place a booking", 0.1, 0.5, n=5), first, last)
    assert few.ok is None and few.verdict == "n/a"


def test_worker_memory_growth_under_a_tenth_passes():
    mib = 2**20
    checks = drift.rss_checks({11: 200 * mib, 12: 200 * mib}, {11: 219 * mib, 12: 221 * mib})
    assert [c.ok for c in checks] == [True, False]
    assert "+9.5%" in checks[0].figure and "+10.5%" in checks[1].figure


def test_a_worker_that_died_or_was_replaced_fails():
    checks = drift.rss_checks({11: 100, 12: 100}, {11: 100, 13: 100})
    assert [(c.label, c.ok) for c in checks] == [
        ("worker 11 RSS", True),
        ("worker 12 RSS", False),
        ("worker 13 RSS", False),
    ]


def test_redis_growth_the_held_tabs_account_for_passes_and_more_per_tab_fails():
    kib = 1024
    # 100 tabs of 30 KiB after the warm-up; 400 tabs at the end.
    held = drift.redis_check((100 * 30 * kib, 100), (400 * 31 * kib, 400))
    leaking = drift.redis_check((100 * 30 * kib, 100), (400 * 34 * kib, 400))
    assert held.ok is True and "+3.3%" in held.figure
    assert leaking.ok is False and "+13.3%" in leaking.figure
    assert "the added tabs account for +8.79 MiB" in held.figure


def test_errors_pass_only_at_zero():
    assert drift.error_check([]).ok is True
    check = drift.error_check(["cart page: no answer in 30 s"] * 2 + ["connect: ConnectionError"])
    assert check.ok is False and check.figure.startswith("3 (2 x cart page")


def test_each_booking_placed_must_be_stored_exactly_once():
    assert drift.bookings_check(["A", "B"], {"A": 1, "B": 1}).ok is True
    missing = drift.bookings_check(["A", "B"], {"A": 1})
    doubled = drift.bookings_check(["A"], {"A": 2})
    unknown = drift.bookings_check(["A"], {"A": 1, "Z": 1})
    assert (missing.ok, doubled.ok, unknown.ok) == (False, False, False)
    assert "1 missing" in missing.figure and "1 stored twice" in doubled.figure
    assert "1 not placed by a tab" in unknown.figure


def test_the_table_marks_each_line():
    text = drift.table([drift.Check("errors", "0", "0", True), drift.Check("x", "1", "0", False)])
    assert "| errors | 0 | 0 | PASS |" in text and "| x | 1 | 0 | FAIL |" in text


def test_cpu_per_step_divides_each_windows_cpu_by_its_steps():
    cpu = [(0, 0.0), (60, 1.0), (120, 2.0), (540, 9.0), (600, 12.0)]
    steps = [10.0 * n for n in range(61)]  # one step every 10 s
    check = drift.cpu_per_step_check("workers", cpu, steps, (0, 120), (540, 600))
    # 2 s over the 13 steps at 0-120 s; 3 s over the 7 steps at 540-600 s
    assert check.figure == f"{2 / 13 * 1000:.1f} -> {3 / 7 * 1000:.1f} ms a step: 2.79x"
    assert check.ok is None
    assert drift.cpu_per_step_check("w", [(0, 0.0)], steps, (0, 120), (540, 600)).figure == (
        "too few samples"
    )


def test_delay_is_the_p95_of_each_window():
    delays = [(float(t), 0.001) for t in range(100)] + [(float(t), 0.010) for t in range(500, 600)]
    check = drift.delay_check(delays, (0, 100), (500, 600))
    assert check.figure == "1.0 -> 10.0 ms"
