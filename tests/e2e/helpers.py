"""Small helpers the browser tests share."""

from __future__ import annotations

from datetime import date

from sqlmodel import Session

from storefront import i18n
from storefront.db import make_engine
from storefront.services import cache as catalog_cache
from storefront.services import dates


def sq(text: str, language: str = i18n.DEFAULT) -> str:
    """`text`, a marked string of the site written in English (SPEC's copy, what the English
    edition shows), in the words of the default edition (or of `language`): its Albanian from
    the catalog, so a test reads the page as a Kosovo customer does and survives a change of
    wording."""
    with i18n.using(language):
        return i18n.gettext(text)


def read(server, fn, **kwargs):
    """Call a service function against the database of the server under test, as the database
    has it now: this process's caches are another worker's, which see the server's changes only
    within CATALOGUE_CACHE_SECONDS (services/cache.py), so they are dropped first."""
    for cache in catalog_cache.CACHES:
        cache.clear()
    engine = make_engine(server.database_url)
    try:
        with Session(engine) as session:
            return fn(session=session, **kwargs)
    finally:
        engine.dispose()


def alive(page, selector: str = "body") -> None:
    """Wait until React has hydrated `selector`: a page paints before it asks for its scripts
    (rxconfig.FirstPaintPlugin), so a tap on a control that only the browser's code answers (the
    mobile menu) does nothing in the moment after it opens, as it would for a visitor."""
    page.wait_for_function(
        """(selector) => {
            const element = document.querySelector(selector);
            return !!element && Object.keys(element).some((k) => k.startsWith("__reactFiber"));
        }""",
        arg=selector,
    )


def slow_down(page) -> None:
    """A phone's processor (4x slower) on a network with 150 ms of latency: where what a page
    does after it opens is far enough from its first paint to be told apart."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 150, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})


def still(page) -> None:
    """Visitors who ask for reduced motion get no auto-advance; so do tests that click."""
    page.emulate_media(reduced_motion="reduce")


PASSWORD = "a long enough password"


def calendar_day(page, day: date, *, exact: bool = False, language: str = i18n.DEFAULT):
    """The button of `day` on the slot picker shown (on a page in `language`): goes forward to
    its month first (the picker opens on this month)."""
    from playwright.sync_api import expect

    picker = page.get_by_test_id("slot-picker")
    today = date.today()
    # A tab keeps its picker across page loads: until this page's opening has answered, the
    # picker may still show the month an earlier calendar was left on.
    expect(picker.get_by_test_id("picker-month-label")).to_have_text(
        f"{_month(today.month, language)} {today.year}"
    )
    expect(picker.get_by_test_id("picker-day").first).to_be_visible()
    for _ in range((day.year - today.year) * 12 + day.month - today.month):
        label = picker.get_by_test_id("picker-month-label")
        shown = label.inner_text()
        picker.get_by_role("button", name=sq("Next month", language)).click()
        expect(label).not_to_have_text(shown)
    return picker.get_by_role("button", name=day.isoformat(), exact=exact)


def sign_up(page, email: str, *, redirect: str = "") -> None:
    """Fill and send the sign-up form (the spec's fields, terms accepted) with PASSWORD."""
    page.goto("/sign-up" + (f"?redirectTo={redirect}" if redirect else ""))
    form = page.get_by_test_id("sign-up-form")
    form.get_by_label(sq("Full Name")).fill("Arta Krasniqi")
    form.get_by_label(sq("Email")).fill(email)
    form.get_by_label(sq("Password"), exact=True).fill(PASSWORD)
    form.get_by_label(sq("Confirm Password")).fill(PASSWORD)
    form.locator("input[name=terms]").check()
    form.get_by_role("button", name=sq("Create Account")).click()


def sign_in(page, email: str, password: str = PASSWORD, redirect: str = "") -> None:
    """Fill and send the sign-in form."""
    page.goto("/sign-in" + (f"?redirectTo={redirect}" if redirect else ""))
    form = page.get_by_test_id("sign-in-form")
    form.get_by_label(sq("Email")).fill(email)
    form.get_by_label(sq("Password")).fill(password)
    form.get_by_role("button", name=sq("Sign In")).click()


def _month(month: int, language: str) -> str:
    with i18n.using(language):
        return dates.month_name(month)


def event_details(
    page,
    prefix: str = "",
    *,
    event: str = "birthday",
    guests: str = "30",
    city: str | None = "prishtine",
) -> None:
    """The event type and the guests, which the checkout (prefix '') and the booking screen
    ('book-') ask for: neither starts chosen (issue 34, item 4); and the municipality (a key of
    models/municipalities.py; issue 36), unless `city` is None (chosen already)."""
    page.locator(f"#{prefix}event_type").select_option(event)
    page.locator(f"#{prefix}guest_count").fill(guests)
    if city is not None:
        page.locator(f"#{prefix}city").select_option(city)
