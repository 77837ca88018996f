"""The arithmetic of bench/soak.py's drift table, apart from the traffic (no server, no Reflex):
percentiles, the two windows compared, and each aim of issue 38 as a line marked PASS or FAIL.

The aims, after the warm-up:
- each worker's memory (RSS) grows by less than 10 %;
- Redis grows by less than the tabs it holds: the bytes per tab Redis holds for a closed tab
  are at most 10 % more at the end than after the warm-up (a tab's state stays in Redis until
  Reflex's expiry, an hour by default, so the held tabs grow through a 30-minute run; what they
  account for is not drift, anything more per tab is; the tabs still open are half-way through
  their visit, so they are counted apart);
- the p95 of each event kind in the last window (5 minutes) is within 20 % of the first;
- no errors; every booking the tabs placed is in the database exactly once.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

RSS_GROWTH = 0.10
REDIS_PER_TAB_GROWTH = 0.10
P95_RATIO = 1.20
# Below this many events of a kind in either window, its p95 is printed but not judged (one slow
# event among a few decides a p95 there).
MIN_SAMPLES = 20


@dataclass(frozen=True)
class Check:
    """One line of the table: what was measured, its figures, the aim and whether it is met
    (None: printed, not judged)."""

    label: str
    figure: str
    aim: str
    ok: bool | None

    @property
    def verdict(self) -> str:
        return {True: "PASS", False: "FAIL", None: "n/a"}[self.ok]


def percentile(values: Iterable[float], q: float) -> float:
    """The value below which a share `q` of `values` lies (nearest rank: the ceil(q*n)-th
    smallest); NaN without values."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = math.ceil(round(q * len(ordered), 9))  # 0.95 x 100 is 95.00000000000001
    return ordered[max(1, min(len(ordered), rank)) - 1]


def windows(warmup: float, end: float, length: float) -> tuple[tuple[float, float], ...]:
    """The first and the last window after the warm-up, `length` seconds each, as (from, to)
    seconds of the run; each at most half of what follows the warm-up, so they never overlap."""
    if end <= warmup:
        raise ValueError("the run ends before its warm-up does")
    length = min(length, (end - warmup) / 2)
    return (warmup, warmup + length), (end - length, end)


def growth(before: float, after: float) -> float:
    """The change from `before` to `after` as a share of `before` (0.05 is 5 % more)."""
    return (after - before) / before if before else float("inf")


def latency_checks(
    samples: Iterable[tuple[float, str, float]],
    first: tuple[float, float],
    last: tuple[float, float],
    min_samples: int = MIN_SAMPLES,
) -> list[Check]:
    """Per event kind, its p95 in the `first` and the `last` window and their ratio (aim at most
    P95_RATIO). `samples` are (seconds into the run, kind, seconds it took)."""
    seen: dict[str, tuple[list[float], list[float]]] = defaultdict(lambda: ([], []))
    for at, kind, took in samples:
        early, late = seen[kind]
        if first[0] <= at < first[1]:
            early.append(took)
        elif last[0] <= at <= last[1]:
            late.append(took)
    checks = []
    for kind, (early, late) in seen.items():
        judged = len(early) >= min_samples and len(late) >= min_samples
        a, b = percentile(early, 0.95) * 1000, percentile(late, 0.95) * 1000
        ratio = b / a if early and late and a > 0 else float("nan")
        checks.append(
            Check(
                f"p95 {kind}",
                f"{a:.1f} ms (n={len(early)}) -> {b:.1f} ms (n={len(late)}): {ratio:.2f}x",
                f"<= {P95_RATIO:.2f}x" + ("" if judged else f" (judged from n >= {min_samples})"),
                ratio <= P95_RATIO if judged else None,
            )
        )
    return checks


def rss_checks(after_warmup: dict[int, int], at_end: dict[int, int]) -> list[Check]:
    """Each worker's RSS (bytes, by pid) after the warm-up and at the end; a worker missing at
    either end (it died, or was replaced) fails."""
    checks = []
    for pid in sorted(after_warmup.keys() | at_end.keys()):
        before, after = after_warmup.get(pid), at_end.get(pid)
        if before is None or after is None:
            where = "at the end" if after is None else "after the warm-up"
            checks.append(Check(f"worker {pid} RSS", f"not running {where}", "the same", False))
            continue
        change = growth(before, after)
        checks.append(
            Check(
                f"worker {pid} RSS",
                f"{before / 2**20:.1f} -> {after / 2**20:.1f} MiB ({change:+.1%})",
                f"< +{RSS_GROWTH:.0%}",
                change < RSS_GROWTH,
            )
        )
    return checks


def redis_check(after_warmup: tuple[int, int], at_end: tuple[int, int]) -> Check:
    """The soak's Redis database: (bytes, tabs held) after the warm-up and at the end. Its
    growth is what the tabs added account for (tabs added x bytes per tab after the warm-up)
    plus what is left over; the aim bounds the bytes per tab."""
    (bytes_before, tabs_before), (bytes_after, tabs_after) = after_warmup, at_end
    per_tab_before = bytes_before / tabs_before if tabs_before else float("nan")
    per_tab_after = bytes_after / tabs_after if tabs_after else float("nan")
    accounted = (tabs_after - tabs_before) * per_tab_before
    beyond = bytes_after - bytes_before - accounted
    change = growth(per_tab_before, per_tab_after) if tabs_before and tabs_after else float("nan")
    return Check(
        "Redis bytes per held tab (closed)",
        f"{bytes_before / 2**20:.2f} MiB / {tabs_before} tabs -> {bytes_after / 2**20:.2f} MiB /"
        f" {tabs_after} tabs; growth {(bytes_after - bytes_before) / 2**20:+.2f} MiB, the added"
        f" tabs account for {accounted / 2**20:+.2f} MiB, beyond them {beyond / 2**20:+.2f} MiB;"
        f" {per_tab_before / 1024:.1f} -> {per_tab_after / 1024:.1f} KiB per tab"
        f" ({change:+.1%})",
        f"< +{REDIS_PER_TAB_GROWTH:.0%} per tab",
        change < REDIS_PER_TAB_GROWTH,
    )


def error_check(errors: Iterable[str]) -> Check:
    """Errors by what they were (an unanswered event, a refused connection, an error delta)."""
    counted = Counter(errors)
    shown = "; ".join(f"{n} x {what}" for what, n in counted.most_common(5))
    total = sum(counted.values())
    return Check("errors", f"{total}" + (f" ({shown})" if shown else ""), "0", total == 0)


def bookings_check(placed: Iterable[str], stored: dict[str, int]) -> Check:
    """The references the tabs were given against the database's bookings (reference -> rows):
    each placed one stored exactly once, and nothing stored that no tab placed."""
    placed = list(placed)
    doubled_by_client = [r for r, n in Counter(placed).items() if n > 1]
    missing = [r for r in placed if stored.get(r, 0) == 0]
    doubled = [r for r, n in stored.items() if n > 1]
    unknown = sorted(set(stored) - set(placed))
    problems = [
        f"{len(missing)} missing" if missing else "",
        f"{len(doubled)} stored twice" if doubled else "",
        f"{len(doubled_by_client)} given twice" if doubled_by_client else "",
        f"{len(unknown)} not placed by a tab" if unknown else "",
    ]
    said = ", ".join(p for p in problems if p)
    return Check(
        "bookings placed / in the database",
        f"{len(placed)} / {sum(stored.values())}" + (f" ({said})" if said else ""),
        "each exactly once",
        not said,
    )


def table(checks: Iterable[Check]) -> str:
    """The checks as a Markdown table."""
    lines = ["| what | figure | aim | |", "| --- | --- | --- | --- |"]
    lines += [f"| {c.label} | {c.figure} | {c.aim} | {c.verdict} |" for c in checks]
    return "\n".join(lines)


def cpu_per_step_check(
    label: str,
    cpu: Iterable[tuple[float, float]],
    steps: Iterable[float],
    first: tuple[float, float],
    last: tuple[float, float],
) -> Check:
    """CPU seconds a process group spent per timed step in each window, from its cumulative CPU
    time sampled as (at, seconds) and the times the steps ended: a server that does more work
    for the same traffic as it runs on shows here, apart from what the machine's other work does
    to latency. Printed, not judged."""
    cpu, steps = sorted(cpu), list(steps)

    def per_step(window: tuple[float, float]) -> float:
        inside = [(at, used) for at, used in cpu if window[0] <= at <= window[1]]
        count = sum(1 for at in steps if inside and inside[0][0] <= at <= inside[-1][0])
        if len(inside) < 2 or not count:
            return float("nan")
        return (inside[-1][1] - inside[0][1]) / count

    before, after = per_step(first), per_step(last)
    return Check(
        label,
        "too few samples"
        if math.isnan(before) or math.isnan(after) or not before
        else f"{before * 1000:.1f} -> {after * 1000:.1f} ms a step: {after / before:.2f}x",
        "",
        None,
    )


def delay_check(delays: Iterable[tuple[float, float]], first, last) -> Check:
    """The soak's own event loop: p95 of how late its ticks woke, in each window (a load
    generator that falls behind adds its delay to every step it times). Printed, not judged."""
    delays = list(delays)
    p95 = [
        percentile((d for at, d in delays if window[0] <= at < window[1]), 0.95)
        for window in (first, last)
    ]
    return Check(
        "the soak's own loop: p95 of a tick's delay",
        f"{p95[0] * 1000:.1f} -> {p95[1] * 1000:.1f} ms",
        "",
        None,
    )
