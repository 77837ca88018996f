"""Hours of traffic without drift (issue 38): a bounded mix of tabs against `make run-prod
WORKERS=4` on PostgreSQL, Redis and S3, for `--minutes` (30), and a table of what drifted.

What it starts, all on loopback and stopped at the end (also on Ctrl-C or an error): a fresh
PostgreSQL database on TEST_DATABASE_URL's server (dropped at the end), Redis database 13 of the
running Redis (SOAK_REDIS_URL; flushed before and after), moto's S3 server, a local SMTP server
(tests/mail_server.py: the confirmations are really sent), the demo catalogue, an admin, then
`make run-prod WORKERS=4` itself (its preflight, migrations, build step and `storefront.prod
serve`) on 127.0.0.1:3590, behind which the tabs count as visitors of their own addresses
(TRUSTED_PROXY_HOPS=1 and an X-Forwarded-For per tab, as behind the balancer).

The traffic: `--tabs` (40) socket.io tabs at once, each a visitor (bench/ws_load.py's Tab, its
own token) that opens the site on a catalogue page, browses a few more pages, sends an event
that does nothing (Reflex's floor: a slower machine shows there too), opens a service's booking
screen or a theme's page, adds a mascot to the cart, opens the cart, opens the slot picker on it
and chooses a day; now and then (at most `--bookings`, 15 a minute by default, spread over the
run) it picks a free time, goes through checkout and places the booking, each on a service and
day no other booking of the run has; of the others, 3 in 10 go as far as the checkout's review
(on a day of their own too) and leave there, an abandoned checkout. Then the tab closes and a
new visitor takes its place, so Redis holds the tabs of the last hour (Reflex's expiry). One admin tab pages through the
bookings list all along, about a page a second (`--admin-think`, 0.5-1.5 s: enough pages in a
window for a p95). Each visitor's step waits a think time (`--think`, 2-6 s), so the 2 cores
serve rather than queue: the aim is drift, not throughput.

A page visit is timed as the browser's navigation (Reflex's on-load event, until the page's
loads are done and it is hydrated again); an event on a page until the answer to an event sent
right behind it comes back (a tab's events are handled in order).

Every 30 s: each granian worker's RSS (/proc), the soak's Redis database's keys and Redis's
used_memory (shared with other databases: printed, not judged), the events and errors so far,
the machine's load average, the CPU time of each worker and of the soak itself. Shortly
before the warm-up ends and at the end, a census of the database's keys (MEMORY USAGE of each,
grouped by tab): it slows the events it meets, so it falls where none is judged. At the end the drift table (bench/drift.py has the aims): each
worker's RSS after the warm-up against the end, Redis's bytes per held (closed) tab, p95 per
event kind in the first and the last `--window` minutes after the warm-up, errors, and the
bookings the tabs placed against the database's. Exits 1 when an aim is missed. Printed
beside them, not judged: the workers' CPU per timed step in each window (the app doing more
work for the same traffic), and the soak's own (its CPU per step, how late its loop wakes): a
latency that drifts while neither does is the machine, not the app.

Run: `make soak` or `.venv/bin/python bench/soak.py [--minutes 30 --warmup 5 --tabs 40]`;
`--steps steps.csv` also writes every timed step (when, kind, ms) to look at afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import drift  # noqa: E402
from bench.booking_race import OVERBOOKED  # noqa: E402
from bench.ws_load import ANSWER_TIMEOUT, Tab  # noqa: E402
from tests.e2e.socket_client import NAMESPACE, event_message, event_name  # noqa: E402

PORT = 3590
WORKERS = 4
REDIS_URL = os.environ.get("SOAK_REDIS_URL", "redis://127.0.0.1:6379/13")
BUCKET = "images"  # in moto's S3 of this run
SAMPLE_SECONDS = 30.0
TICK = 0.1  # the soak's own loop is timed by a sleep this long (`Record.delays`)
PASSWORD = "soak-admin-password-1"
HYDRATED = "is_hydrated_rx_state_"
# What a failed event sends: Reflex's error toast (state/errors.py) or the guard's reload of a
# tab whose state was lost (state/guard.py).
ERROR_MARKS = ('"backend_error"', "window.location.reload()")
TOKEN = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
# Bookings a minute by default: 75 in each judged 5-minute window, so the booking steps' p95 is
# the 4th slowest of its window, not the slowest but one (at 5 a minute, 25 samples could not
# tell drift from two slow bookings).
BOOKINGS_PER_MINUTE = 15
# The admin tab's think time, shorter than a visitor's: one tab makes few steps, and at a
# visitor's 2-6 s its 70-odd pages a window left the p95 to the 4th slowest, which one passing
# stall of the machine (every kind slower for a few seconds) decided. At about one page a
# second a window holds about 290, the p95 is the 15th slowest, and a page whose work grew with
# the bookings still shows: the tab pages through all of them, to the last page, again and again.
ADMIN_THINK = (0.5, 1.5)
# The share of the visitors who do not book that go on to the checkout's review and leave
# there (an abandoned checkout, the usual end of a visit that books nothing). With them, the
# steps from a time to the review count about 135 in a window, not the bookings' 75: a p95 of
# 75 was the 4th slowest, and in a steady run (every other kind within 0.89-1.08x, the workers'
# CPU per step 0.95x) two such kinds came out at 0.65x and 1.21x.
ABANDON_SHARE = 0.3
# The catalogue's pages a visitor opens and browses.
CATALOGUE_PAGES = (
    "/",
    "/services",
    "/services/weddings",
    "/services/mascots",
    "/services/bouncers",
    "/services/wedding-tables",
)
# The checkout's information step as a guest fills it (`nth` makes the email and the phone the
# booking's own: a guest may place 3 bookings a day).
GUEST_FORM = {
    "full_name": "Soak Guest",
    "address": "Rruga Agim Ramadani 15",
    "city": "prishtine",
    "state": "",
    "zip_code": "10000",
    "event_type": "birthday",
    "guest_count": "30",
    "special_requests": "",
}


def event_names() -> dict[str, str]:
    """The event names the tabs send, as the browser names them."""
    from reflex.state import OnLoadInternalState, State

    from storefront.state.admin_bookings import AdminBookingsState
    from storefront.state.book_service import BookServiceState
    from storefront.state.cart import CartState
    from storefront.state.checkout import CheckoutState
    from storefront.state.slot_picker import SlotPickerState
    from storefront.state.theme import ThemeState

    return {
        "hydrate": f"{State.get_full_name()}.hydrate_and_load",
        "on_load": event_name(OnLoadInternalState.on_load_internal),
        # Answered after every event sent before it: the leaf's own setter of the flag, which
        # loads no other state from Redis (the root's would load the whole tree).
        "barrier": event_name(OnLoadInternalState.set_is_hydrated),
        "add": event_name(CartState.add_service),
        "edit_time": event_name(CartState.edit_time),
        "close_time": event_name(CartState.close_time),
        "apply_time": event_name(CartState.apply_time),
        "pick_day": event_name(SlotPickerState.pick_day),
        "next_month": event_name(SlotPickerState.next_month),
        "pick_time": event_name(SlotPickerState.pick_time),
        "review": event_name(CheckoutState.continue_to_review),
        "complete": event_name(CheckoutState.complete),
        "cart": CartState.get_full_name(),
        "picker": SlotPickerState.get_full_name(),
        "checkout": CheckoutState.get_full_name(),
        "admin_bookings": AdminBookingsState.get_full_name(),
        "book_service": BookServiceState.get_full_name(),
        "theme": ThemeState.get_full_name(),
    }


# ---------------------------------------------------------------------------------------------
# What the run records


@dataclass
class Record:
    started: float = field(default_factory=time.monotonic)
    samples: list[tuple[float, str, float]] = field(default_factory=list)  # at, kind, seconds
    errors: list[tuple[float, str]] = field(default_factory=list)  # at, what
    references: list[str] = field(default_factory=list)  # bookings the tabs placed
    claimed: set[tuple[str, str]] = field(default_factory=set)  # (service, day) booked or being
    bookings_started: int = 0
    tabs_opened: int = 0
    open_tokens: set[str] = field(default_factory=set)  # the tabs open now (the admin's too)
    delays: list[tuple[float, float]] = field(default_factory=list)  # at, how late a tick woke

    def now(self) -> float:
        return time.monotonic() - self.started

    def error(self, what: str) -> None:
        self.errors.append((self.now(), what))


@dataclass
class Plan:
    seconds: float
    max_bookings: int
    think: tuple[float, float]
    services: list[dict[str, str]]  # the mascots: id, slug
    themes: list[str]  # the themes' slugs
    admin_think: tuple[float, float] = ADMIN_THINK


class Failed(Exception):
    """A step that got an error answer, or none: counted, and the visitor leaves."""


# ---------------------------------------------------------------------------------------------
# One tab


class Visitor:
    """A browser tab: page visits and events, each timed and checked for an error answer."""

    def __init__(self, url: str, record: Record, names: dict[str, str], headers: dict) -> None:
        self.tab = Tab(url, headers)
        self.record, self.names = record, names
        self.path, self.query = "/", None
        self.state: dict[str, dict] = {}  # the latest value of every var the server sent

    def value(self, state: str, var: str, default=None):
        return self.state.get(state, {}).get(f"{var}_rx_state_", default)

    async def _emit(self, name: str, payload: dict) -> None:
        if not self.tab.inbox.empty():
            # Every answer is read by the step it belongs to: one left over would end the next
            # step's wait too early.
            raise Failed(f"an answer nobody waited for, before {name.rsplit('.', 1)[-1]}")
        message = event_message(name, self.tab.token, self.path, payload, self.query)
        await self.tab.client.emit("event", message, namespace=NAMESPACE)

    async def _answers(self, kind: str, started: float) -> None:
        """Read answers until one carries the hydrated flag (the page's loads are done, or the
        event sent behind this step's has been answered), keeping what they say."""
        deadline = started + ANSWER_TIMEOUT
        while True:
            try:
                message = await asyncio.wait_for(
                    self.tab.inbox.get(), max(0.0, deadline - time.perf_counter())
                )
            except TimeoutError:
                raise Failed(f"{kind}: no answer in {ANSWER_TIMEOUT:.0f} s") from None
            text = json.dumps(message)
            if any(mark in text for mark in ERROR_MARKS):
                raise Failed(f"{kind}: an error answer")
            done = False
            for state, values in ((message or {}).get("delta") or {}).items():
                self.state.setdefault(state, {}).update(values)
                done = done or values.get(HYDRATED) is True
            if done:
                return

    def _timed(self, kind: str, started: float) -> None:
        self.record.samples.append((self.record.now(), kind, time.perf_counter() - started))

    async def open(self, kind: str, path: str, query: dict | None = None) -> None:
        """A new tab on `path`: connect, hydrate, run the page's loads."""
        self.path, self.query = path, query
        self.record.open_tokens.add(self.tab.token)
        try:
            await self.tab.connect()
        except Exception as exc:
            raise Failed(f"connect: {type(exc).__name__}") from None
        started = time.perf_counter()
        await self._emit(self.names["hydrate"], {})
        await self._answers(kind, started)
        self._timed(kind, started)

    async def visit(
        self, kind: str, path: str, query: dict | None = None, *, chains: bool = False
    ) -> None:
        """Go to `path` inside the app, as the browser's router does: its on-load events (and
        the event one of them chains, queued behind the page's hydrated flag)."""
        self.path, self.query = path, query
        started = time.perf_counter()
        await self._emit(self.names["on_load"], {})
        await self._answers(kind, started)
        if chains:
            await self._emit(self.names["barrier"], {"value": True})
            await self._answers(kind, started)
        self._timed(kind, started)

    async def send(self, kind: str, name: str, payload: dict, *, chains: bool = False) -> None:
        """An event on the page, done when the answer to the event sent right behind it
        arrives; when the handler chains another event (Reflex queues it behind that answer),
        when the answer to one more arrives."""
        started = time.perf_counter()
        await self._emit(self.names[name], payload)
        if name != "barrier":  # the event that does nothing answers for itself
            await self._emit(self.names["barrier"], {"value": True})
        await self._answers(kind, started)
        if chains:
            await self._emit(self.names["barrier"], {"value": True})
            await self._answers(kind, started)
        self._timed(kind, started)

    async def close(self) -> None:
        self.record.open_tokens.discard(self.tab.token)
        try:
            await self.tab.close()
        except Exception:
            pass


# ---------------------------------------------------------------------------------------------
# The traffic


def _address(number: int) -> str:
    """Visitor `number`'s own address (the booking limits count per address)."""
    return f"10.{(number >> 16) & 255}.{(number >> 8) & 255}.{number & 255}"


async def _think(rng: random.Random, plan: Plan, think: tuple[float, float] | None = None) -> None:
    await asyncio.sleep(rng.uniform(*(think or plan.think)))


def _may_book(record: Record, plan: Plan) -> bool:
    """Bookings spread evenly over the run: no more than its share of `max_bookings` so far."""
    share = plan.max_bookings * min(1.0, record.now() / plan.seconds)
    return record.bookings_started < min(plan.max_bookings, int(share) + 1)


def _claim(record: Record, service: str, days: list[dict]) -> str | None:
    """An open day of `service` that no other booking of the run has taken, claimed; two days
    ahead at least (tomorrow's evening times pass the 24 hours' notice while the guest books)."""
    earliest = (date.today() + timedelta(days=2)).isoformat()
    for day in days:
        if day.get("available") != "yes" or day["date"] < earliest:
            continue
        if (service, day["date"]) not in record.claimed:
            record.claimed.add((service, day["date"]))
            return day["date"]
    return None


async def visitor(number: int, url: str, record: Record, plan: Plan, names: dict) -> None:
    """One visitor's tab, from opening the site to closing it."""
    rng = random.Random(number)
    tab = Visitor(url, record, names, {"X-Forwarded-For": _address(number)})
    record.tabs_opened += 1
    try:
        await tab.open("open a tab (a catalogue page)", rng.choice(CATALOGUE_PAGES))
        for _ in range(rng.randint(1, 3)):
            await _think(rng, plan)
            await tab.visit("catalogue page", rng.choice(CATALOGUE_PAGES))
        await _think(rng, plan)
        # Reflex's floor: an event that does nothing, so a change of the machine's speed
        # shows apart from the app's.
        await tab.send("an event that does nothing", "barrier", {"value": True})
        service = rng.choice(plan.services)
        await _think(rng, plan)
        if rng.random() < 0.5 or not plan.themes:
            page, slug, state, shown = "booking screen", service["slug"], "book_service", "ready"
            path = f"/services/{slug}/book"
        else:
            page, slug, state, shown = "theme", rng.choice(plan.themes), "theme", "found"
            path = f"/services/{slug}"
        # The booking screen's load opens its slot picker (a chained event).
        await tab.visit(
            f"service page ({page})", path, {"service_id": slug}, chains=state == "book_service"
        )
        if tab.value(names[state], "status") != shown:
            raise Failed(f"service page ({page}): {tab.value(names[state], 'status')}")
        await _think(rng, plan)
        await tab.send("add to cart", "add", {"service_id": service["id"]})
        await _think(rng, plan)
        await tab.visit("cart page", "/cart")
        lines = tab.value(names["cart"], "lines") or []
        line = next((x for x in lines if x.get("service_id") == service["id"]), None)
        if line is None:
            raise Failed("cart page: the added line is not in the cart")
        await _think(rng, plan)
        await tab.send("slot picker: open", "edit_time", {"item_id": line["id"]}, chains=True)
        days = tab.value(names["picker"], "days") or []
        open_days = [d["date"] for d in days if d.get("available") == "yes"]
        if not open_days:
            raise Failed("slot picker: no open day")
        booking = _may_book(record, plan)
        # Most visitors who do not book only look; some go as far as the review and leave
        # there. Either way on a day of their own, so no step meets another tab's booking.
        leaving = not booking and rng.random() < ABANDON_SHARE
        day = _claim(record, service["id"], days) if booking or leaving else None
        for _ in range(2 if (booking or leaving) and day is None else 0):  # taken: the next
            await tab.send("slot picker: another month", "next_month", {})
            days = tab.value(names["picker"], "days") or []
            if (day := _claim(record, service["id"], days)) is not None:
                break
        if day is None:  # just looking, or every open day of this service is booked: look
            booking = leaving = False
            looked = [d["date"] for d in days if d.get("available") == "yes"]
            if not looked:
                raise Failed("slot picker: no open day in the next months")
            day = rng.choice(looked)
        record.bookings_started += booking
        await _think(rng, plan)
        await tab.send("slot picker: a day's times", "pick_day", {"day": day})
        if booking:
            await book(tab, number, rng, record, plan, names)
        elif leaving:
            await to_review(tab, number, rng, plan, names)
        else:
            await _think(rng, plan)
            await tab.send("slot picker: close", "close_time", {})
    except Failed as failure:
        record.error(str(failure))
    except Exception as exc:  # a dropped connection, a delta not as expected
        record.error(f"{type(exc).__name__}: {str(exc)[:80]}")
    finally:
        await tab.close()


async def to_review(tab: Visitor, number: int, rng: random.Random, plan: Plan, names: dict) -> None:
    """From the slot picker on the cart's line, on a day of this tab's own, to the checkout's
    review: a time, the line's time set, the checkout page, the guest's details."""
    slots = tab.value(names["picker"], "slots") or []
    free = [s["start"] for s in slots if s.get("available") == "yes"]
    if not free:
        raise Failed("slot picker: a claimed open day has no free time")
    await _think(rng, plan)
    await tab.send("slot picker: a time", "pick_time", {"start_time": rng.choice(free)})
    await tab.send("cart: set the line's time", "apply_time", {})
    if tab.value(names["cart"], "time_error"):
        raise Failed(f"cart: {tab.value(names['cart'], 'time_error')}")
    await _think(rng, plan)
    await tab.visit("checkout page", "/checkout")
    form = GUEST_FORM | {
        "email": f"soak.guest.{number}@example.com",
        "phone": f"+383 44 {100000 + number:06d}",
    }
    await _think(rng, plan)
    await tab.send("checkout: review", "review", {"form_data": form})
    if tab.value(names["checkout"], "step") != "review":
        raise Failed(f"checkout: {tab.value(names['checkout'], 'errors')}")


async def book(
    tab: Visitor, number: int, rng: random.Random, record: Record, plan: Plan, names: dict
) -> None:
    """From the slot picker on the cart's line to a placed booking."""
    await to_review(tab, number, rng, plan, names)
    await _think(rng, plan)
    await tab.send("place a booking", "complete", {})
    reference = tab.value(names["checkout"], "reference")
    if tab.value(names["checkout"], "step") != "confirmation" or not reference:
        raise Failed(f"place a booking: {tab.value(names['checkout'], 'place_error')}")
    record.references.append(reference)


async def admin(url: str, cookie: str, record: Record, plan: Plan, names: dict, end: float):
    """The admin's tab, paging the bookings list from the first page to the last and again."""
    from storefront.services.accounts import auth

    rng = random.Random(-1)
    tab = Visitor(url, record, names, {"Cookie": f"{auth.COOKIE_NAME}={cookie}"})
    page = 1
    try:
        await tab.open("admin: bookings page", "/admin/bookings")
        while record.now() < end:
            await _think(rng, plan, plan.admin_think)
            pages = int(tab.value(names["admin_bookings"], "pages") or 1)
            page = page + 1 if page < pages else 1
            await tab.visit(
                "admin: bookings page", "/admin/bookings", {"page": str(page)} if page > 1 else None
            )
            if tab.value(names["admin_bookings"], "error"):
                raise Failed(f"admin: {tab.value(names['admin_bookings'], 'error')}")
    except Failed as failure:
        record.error(str(failure))
    finally:
        await tab.close()


async def traffic(url: str, cookie: str, record: Record, plan: Plan, tabs: int, sampler) -> None:
    """`tabs` visitors at once until the run's end (each replaced when it closes), the admin,
    and the sampler; the visitors start spread over the first think times."""
    names = event_names()
    end = plan.seconds
    numbers = iter(range(1, 10**9))

    async def seat(first_delay: float) -> None:
        await asyncio.sleep(first_delay)
        while record.now() < end:
            await visitor(next(numbers), url, record, plan, names)

    async def ticks() -> None:
        """This process's own pace: how late a 100 ms sleep wakes."""
        while record.now() < end:
            asked = time.perf_counter()
            await asyncio.sleep(TICK)
            record.delays.append((record.now(), time.perf_counter() - asked - TICK))

    spread = plan.think[1] * 2
    seats = [seat(spread * n / tabs) for n in range(tabs)]
    await asyncio.gather(
        admin(url, cookie, record, plan, names, end), sampler(end), ticks(), *seats
    )


# ---------------------------------------------------------------------------------------------
# What is measured every 30 s


@dataclass
class Census:
    """Redis's keys of the soak's database, counted once after the warm-up and once at the end
    (MEMORY USAGE of every key: too slow for every sample, it would slow the events it meets)."""

    closed_bytes: int  # the keys of the tabs closed by then, which Redis still holds
    closed_tabs: int
    other_bytes: int  # the open tabs' keys and keys of no tab
    tabs: int  # every tab Redis holds
    took: float  # seconds the census took


@dataclass
class Sample:
    at: float
    rss: dict[int, int]  # worker pid -> bytes
    redis_keys: int  # the soak's database
    used_memory: int  # the whole Redis's (other databases too)
    events: int
    errors: int
    tabs_open: int
    load: float  # the machine's 1-minute load average (other work on it shows here)
    cpu: dict[int, float]  # worker pid -> CPU seconds so far
    own_cpu: float  # this process's CPU seconds so far (its threads: the mail server's too)
    census: Census | None = None


def _children() -> dict[int, list[int]]:
    found: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parent = int(stat.rsplit(")", 1)[1].split()[1])
            found.setdefault(parent, []).append(int(entry.name))
    return found


def _cmdline(pid: int) -> str:
    try:
        return (Path("/proc") / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def worker_pids(port: int) -> list[int]:
    """The granian workers serving `port`: the processes below the first `storefront.prod
    serve` (forked from it, under the same command line) that have none of their own."""
    children = _children()
    serving = {
        int(p.name)
        for p in Path("/proc").iterdir()
        if p.name.isdigit() and f"storefront.prod serve 127.0.0.1 {port}" in _cmdline(int(p.name))
    }
    below_another = {child for pid in serving for child in children.get(pid, [])}
    leaves, todo = [], list(serving - below_another)
    while todo:
        pid = todo.pop()
        below = children.get(pid, [])
        if not below and pid in below_another:
            leaves.append(pid)
        todo += below
    return sorted(leaves)


def rss(pid: int) -> int:
    """Resident memory of `pid` in bytes (VmRSS); 0 when it is gone."""
    try:
        status = (Path("/proc") / str(pid) / "status").read_text()
    except OSError:
        return 0
    kb = next((line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return int(kb) * 1024


def cpu_seconds(pid: int) -> float:
    """User and system CPU time `pid` used so far; 0 when it is gone."""
    try:
        fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def census(client, open_tokens: set[str]) -> Census:
    started = time.perf_counter()
    keys = list(client.scan_iter(count=1000))
    sizes: list[int] = []
    for start in range(0, len(keys), 500):
        pipe = client.pipeline(transaction=False)
        for key in keys[start : start + 500]:
            pipe.memory_usage(key, samples=0)
        sizes += [size or 0 for size in pipe.execute()]
    closed: dict[str, int] = {}
    tabs, other = set(), 0
    for key, size in zip(keys, sizes, strict=True):
        found = TOKEN.search(key)
        token = found.group().decode() if found else None
        if token is not None:
            tabs.add(token)
        if token is None or token in open_tokens:
            other += size
        else:
            closed[token] = closed.get(token, 0) + size
    took = time.perf_counter() - started
    return Census(sum(closed.values()), len(closed), other, len(tabs), took)


def sampler_for(port: int, record: Record, samples: list[Sample], redis_url: str, warmup: float):
    """The sampler: every SAMPLE_SECONDS until the run's end, and a census of Redis's keys at
    the end and shortly before the warm-up ends (it reads every key: the events it meets are
    slower, so it falls where none is judged)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    census_at = warmup - min(30.0, warmup / 4)

    def take(with_census: bool) -> Sample:
        return Sample(
            record.now(),
            {pid: rss(pid) for pid in worker_pids(port)},
            client.dbsize(),
            client.info("memory")["used_memory"],
            len(record.samples),
            len(record.errors),
            len(record.open_tokens),
            os.getloadavg()[0],
            {pid: cpu_seconds(pid) for pid in worker_pids(port)},
            time.process_time(),
            census(client, set(record.open_tokens)) if with_census else None,
        )

    async def run(end: float) -> None:
        counted = False
        while True:
            last = record.now() >= end
            due = last or (not counted and record.now() >= census_at)
            sample = await asyncio.to_thread(take, due)
            counted = counted or due
            samples.append(sample)
            held = (
                f", {sample.census.tabs} tabs held ({sample.census.took:.1f} s)"
                if sample.census
                else ""
            )
            print(
                f"  {sample.at / 60:5.1f} min  workers "
                + " ".join(f"{b / 2**20:.0f}" for b in sample.rss.values())
                + f" MiB  redis {sample.redis_keys} keys{held}"
                f" (used_memory {sample.used_memory / 2**20:.0f} MiB)  tabs open"
                f" {sample.tabs_open}, opened {record.tabs_opened}, events {sample.events},"
                f" bookings {len(record.references)}, errors {sample.errors},"
                f" load {sample.load:.1f}",
                flush=True,
            )
            if last:
                return
            pause = min(SAMPLE_SECONDS, max(0.0, end - record.now()))
            if not counted and record.now() < census_at:
                pause = min(pause, max(0.0, census_at - record.now()))
            await asyncio.sleep(pause)

    return run


# ---------------------------------------------------------------------------------------------
# The site under test


@dataclass
class Site:
    url: str
    database_url: str
    admin_cookie: str
    mail: object  # tests.mail_server.MailServer


def _catalogue(database_url: str) -> tuple[list[dict[str, str]], list[str]]:
    """The published mascots with a price (added, picked, booked) and the themes' slugs."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    with engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT id, slug, kind FROM services WHERE active AND status = 'published'"
                " AND kind IN ('mascot', 'theme') ORDER BY display_order"
            )
        ).all()
        priced = {
            str(r[0])
            for r in conn.execute(text("SELECT id FROM services WHERE price IS NOT NULL")).all()
        }
    engine.dispose()
    mascots = [
        {"id": str(r[0]), "slug": r[1]} for r in rows if r[2] == "mascot" and str(r[0]) in priced
    ]
    return mascots, [r[1] for r in rows if r[2] == "theme"]


@contextmanager
def site(work: Path) -> Iterator[Site]:
    """Everything `make run-prod WORKERS=4` needs, then `make run-prod` itself; all of it
    stopped and the database dropped on the way out."""
    import redis

    from tests.conftest import create_database, migrate
    from tests.e2e.server import venv_env
    from tests.factories import signed_in_account
    from tests.mail_server import MailServer, free_port
    from tests.scale.conftest import S3_KEYS, make_run_prod, moto_s3

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # moto's line per request
    redis.Redis.from_url(REDIS_URL).flushdb()
    database_url, drop = create_database("postgresql")
    try:
        migrate(database_url)
        with moto_s3(free_port(), BUCKET) as s3_endpoint, MailServer() as mail:
            env = venv_env(
                PORT,
                {
                    "ENVIRONMENT": "prod",
                    "SECRET_KEY": secrets.token_urlsafe(48),
                    "DATABASE_URL": database_url,
                    "REFLEX_REDIS_URL": REDIS_URL,
                    "STORAGE_BACKEND": "s3",
                    "S3_BUCKET": BUCKET,
                    "S3_ENDPOINT_URL": s3_endpoint,
                    "S3_REGION": "us-east-1",
                    **S3_KEYS,
                    # As behind the balancer: each tab is the visitor its X-Forwarded-For names.
                    "TRUSTED_PROXY_HOPS": "1",
                    "SMTP_HOST": mail.host,
                    "SMTP_PORT": str(mail.port),
                    "SMTP_STARTTLS": "false",
                },
            )
            subprocess.run(
                [sys.executable, "-m", "storefront.seed"],
                cwd=ROOT,
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )
            _user, _email, cookie = signed_in_account(
                database_url, role="admin", password=PASSWORD, full_name="Soak Admin"
            )
            log = work / "run-prod.log"
            print(f"make run-prod WORKERS={WORKERS} on 127.0.0.1:{PORT} (log: {log}) ...")
            with make_run_prod(PORT, WORKERS, env, log) as url:
                yield Site(url, database_url, cookie, mail)
    finally:
        drop()
        redis.Redis.from_url(REDIS_URL).flushdb()


def stored_bookings(database_url: str) -> dict[str, int]:
    """Reference -> rows of every booking in the database."""
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT reference, count(*) FROM bookings GROUP BY 1")).all()
    engine.dispose()
    return {r[0]: r[1] for r in rows}


def overbooked(database_url: str) -> int:
    from sqlalchemy import create_engine, text

    engine = create_engine(database_url)
    with engine.connect() as conn:
        found = len(conn.execute(text(OVERBOOKED)).all())
    engine.dispose()
    return found


# ---------------------------------------------------------------------------------------------
# The table


def _nearest(samples: list[Sample], at: float) -> Sample:
    """The first sample taken at or after `at` (the last one when none is)."""
    return next((s for s in samples if s.at >= at), samples[-1])


def report(
    record: Record, samples: list[Sample], plan: Plan, warmup: float, window: float, site: Site
) -> list[drift.Check]:
    after_warmup, at_end = _nearest(samples, warmup), samples[-1]
    counted = next(s.census for s in samples if s.census)  # shortly before the warm-up ends
    first, last = drift.windows(warmup, plan.seconds, window)
    stored = stored_bookings(site.database_url)
    mails = "\n".join(str(m) for m in site.mail.messages)
    mailed = sum(1 for r in record.references if r in mails)
    overlaps = overbooked(site.database_url)
    step_ends = [at for at, _kind, _took in record.samples]
    checks = [
        *drift.rss_checks(after_warmup.rss, at_end.rss),
        drift.redis_check(
            (counted.closed_bytes, counted.closed_tabs),
            (at_end.census.closed_bytes, at_end.census.closed_tabs),
        ),
        drift.Check(
            "Redis: open tabs and keys of no tab",
            f"{counted.other_bytes / 2**20:.2f} -> "
            f"{at_end.census.other_bytes / 2**20:.2f} MiB ({after_warmup.tabs_open} -> "
            f"{at_end.tabs_open} tabs open); used_memory {after_warmup.used_memory / 2**20:.1f}"
            f" -> {at_end.used_memory / 2**20:.1f} MiB (the whole Redis)",
            "",
            None,
        ),
        *drift.latency_checks(record.samples, first, last),
        drift.cpu_per_step_check(
            f"workers' CPU per timed step (all {WORKERS})",
            [(s.at, sum(s.cpu.values())) for s in samples],
            step_ends,
            first,
            last,
        ),
        drift.cpu_per_step_check(
            "the soak's own CPU per timed step",
            [(s.at, s.own_cpu) for s in samples],
            step_ends,
            first,
            last,
        ),
        drift.delay_check(record.delays, first, last),
        drift.error_check(what for _at, what in record.errors),
        drift.bookings_check(record.references, stored),
        drift.Check("overbooked booking items (by query)", str(overlaps), "0", overlaps == 0),
        drift.Check(
            "bookings whose reference is in a mail received",
            f"{mailed} of {len(record.references)} ({len(site.mail.messages)} mails)",
            "",
            None,
        ),
    ]
    minutes = plan.seconds / 60
    loads = [
        statistics.mean([s.load for s in samples if a <= s.at <= b] or [float("nan")])
        for a, b in (first, last)
    ]
    print(
        f"\n### Drift: {minutes:g} minutes, {warmup / 60:g} warm-up, windows of"
        f" {(first[1] - first[0]) / 60:g} minutes"
        f" ({first[0] / 60:g}-{first[1] / 60:g} and {last[0] / 60:g}-{last[1] / 60:g});"
        f" {record.tabs_opened} tabs opened, {len(record.samples)} timed steps,"
        f" {len(record.references)} bookings; the machine's load average"
        f" {loads[0]:.1f} and {loads[1]:.1f} in the windows, on {os.cpu_count()} cores\n"
    )
    print(drift.table(checks))
    return checks


def write_steps(path: Path, record: Record) -> None:
    """Every timed step as a CSV row: when (seconds into the run), its kind, how long (ms); to
    see when a window's slow steps came (together, across kinds: the machine; one kind, spread
    out: that step)."""
    import csv

    with path.open("w", newline="") as out:
        rows = csv.writer(out)
        rows.writerow(["seconds", "kind", "ms"])
        rows.writerows(
            (f"{at:.3f}", kind, f"{took * 1000:.2f}") for at, kind, took in record.samples
        )
    print(f"every timed step: {path}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="the run (default 30)")
    parser.add_argument("--warmup", type=float, default=5.0, help="minutes not judged (5)")
    parser.add_argument(
        "--window", type=float, default=5.0, help="minutes compared at each end (5)"
    )
    parser.add_argument("--tabs", type=int, default=40, help="visitors' tabs at once (40)")
    parser.add_argument(
        "--bookings",
        type=int,
        default=None,
        help="at most this many bookings, spread over the run (default 15 a minute)",
    )
    parser.add_argument(
        "--think", default="2,6", help="seconds between a tab's steps, low,high (2,6)"
    )
    parser.add_argument(
        "--admin-think",
        default=",".join(f"{x:g}" for x in ADMIN_THINK),
        help="seconds between the admin tab's pages, low,high (0.5,1.5)",
    )
    parser.add_argument(
        "--steps",
        type=Path,
        default=None,
        help="also write every timed step to this CSV (seconds into the run, kind, ms)",
    )
    args = parser.parse_args()
    if args.warmup >= args.minutes:
        parser.error("--warmup must be shorter than --minutes")
    low, high = (float(x) for x in args.think.split(","))
    admin_low, admin_high = (float(x) for x in args.admin_think.split(","))
    work = Path(tempfile.mkdtemp(prefix="soak-"))
    samples: list[Sample] = []
    with site(work) as running:
        mascots, themes = _catalogue(running.database_url)
        plan = Plan(
            seconds=args.minutes * 60,
            max_bookings=args.bookings
            if args.bookings is not None
            else int(BOOKINGS_PER_MINUTE * args.minutes),
            think=(low, high),
            services=mascots,
            themes=themes,
            admin_think=(admin_low, admin_high),
        )
        workers = worker_pids(PORT)
        print(
            f"workers {workers}; {len(mascots)} mascots, {len(themes)} themes;"
            f" {args.tabs} tabs for {args.minutes:g} minutes (warm-up {args.warmup:g}),"
            f" at most {plan.max_bookings} bookings",
            flush=True,
        )
        if len(workers) != WORKERS:
            print(f"expected {WORKERS} workers, found {len(workers)}: {workers}", flush=True)
        record = Record()
        sampler = sampler_for(PORT, record, samples, REDIS_URL, args.warmup * 60)
        asyncio.run(traffic(running.url, running.admin_cookie, record, plan, args.tabs, sampler))
        time.sleep(5)  # the outbox sends the last confirmations
        checks = report(record, samples, plan, args.warmup * 60, args.window * 60, running)
    if args.steps:
        write_steps(args.steps, record)
    failed = [c for c in checks if c.ok is False]
    print("\nresult:", "every aim met" if not failed else f"{len(failed)} aim(s) missed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
