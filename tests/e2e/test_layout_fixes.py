"""Layout and status fixes found by trying the screens at 1280 and 390 px (issue 20), each
measured in Chromium: boxes, computed styles and text, not pictures."""

from __future__ import annotations

import re
import uuid
from datetime import date, timedelta

import pytest
from playwright.sync_api import expect
from sqlmodel import Session

from storefront.db import make_engine
from tests.e2e.helpers import sq
from tests.e2e.test_admin_catalogue import _signed_in
from tests.factories import make_service

pytestmark = pytest.mark.e2e

# Where each line of an element's text starts a new line: the indexes of the characters that
# begin a line after the first (a Range per character, grouped by where its box sits).
LINE_STARTS = """(el) => {
  const node = el.firstChild, text = node.textContent, range = document.createRange();
  const starts = [];
  let top = null;
  for (let i = 0; i < text.length; i++) {
    range.setStart(node, i); range.setEnd(node, i + 1);
    const box = range.getClientRects()[0];
    if (!box) continue;
    if (top !== null && box.top > top + 2) starts.push(i);
    top = box.top;
  }
  return {text, starts};
}"""


def _commit(server, fn):
    engine = make_engine(server.database_url)
    try:
        with Session(engine) as session:
            result = fn(session)
            session.commit()
            return result
    finally:
        engine.dispose()


def _long_slug_service(server) -> str:
    """A service whose slug is long (its title's words joined by hyphens); returns its title."""
    title = f"Giant Inflatable Rainbow Castle With Water Slide And Ball Pit {uuid.uuid4().hex[:4]}"
    _commit(server, lambda session: make_service(session, title=title))
    return title


# --- 1. Back office frame -----------------------------------------------------------------


def test_the_admin_sidebar_runs_the_full_height_of_a_long_page(page, server):
    _signed_in(page, server, "admin")
    page.goto("/admin/services")
    expect(page.get_by_test_id("toggle-active").nth(10)).to_be_visible()
    # Where the white panel behind the links and the content beside it run, on the page (not
    # only the screen: a full-page screenshot or a print shows the whole column).
    boxes = page.evaluate(
        """() => {
          const nav = document.querySelector('[data-testid="admin-sidebar"]');
          // The sidebar's background: the nearest element from the links up that paints one.
          let panel = nav;
          while (getComputedStyle(panel).backgroundColor === 'rgba(0, 0, 0, 0)') {
            panel = panel.parentElement;
          }
          const main = document.querySelector('main').getBoundingClientRect();
          const p = panel.getBoundingClientRect();
          return {panel: [p.top + scrollY, p.bottom + scrollY],
                  main: [main.top + scrollY, main.bottom + scrollY],
                  page: document.documentElement.scrollHeight, view: innerHeight,
                  background: getComputedStyle(panel).backgroundColor};
        }"""
    )
    assert boxes["page"] > 2 * boxes["view"], boxes  # the page is long
    assert boxes["background"] in ("rgb(255, 255, 255)", "oklch(1 0 0)"), boxes
    assert boxes["panel"][0] <= boxes["main"][0] + 1, boxes
    assert boxes["panel"][1] >= boxes["main"][1] - 1, boxes
    # Its links stay in view at the bottom of the page.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    links = page.get_by_test_id("admin-sidebar").bounding_box()
    assert 0 <= links["y"] <= 100, links


@pytest.mark.parametrize("screen", ["page", "phone"])
def test_a_long_slug_breaks_after_its_hyphens(request, server, screen):
    browser_page = request.getfixturevalue(screen)
    _signed_in(browser_page, server, "admin")
    title = _long_slug_service(server)
    browser_page.goto("/admin/services")
    expect(browser_page.get_by_test_id("toggle-active").first).to_be_visible()
    browser_page.get_by_label("Search").fill(title)
    rows = browser_page.get_by_test_id("services-table").locator("tbody tr")
    expect(rows).to_have_count(1)
    slug = rows.first.locator("td").first.locator("p").nth(1)
    expect(slug).to_contain_text("giant-inflatable-rainbow")
    lines = slug.evaluate(LINE_STARTS)
    text, starts = lines["text"], lines["starts"]
    if screen == "phone":
        assert starts, lines  # too long for a phone's line: it wraps
    for start in starts:
        assert text[start - 1] == "-", (screen, text, starts)


def test_on_a_phone_the_admin_links_show_the_current_section(phone, server):
    _signed_in(phone, server, "admin")
    phone.goto("/admin/users")
    current = phone.get_by_test_id("admin-nav-users")
    expect(current).to_have_attribute("aria-current", "page")
    expect(phone.get_by_test_id("admin-nav-dashboard")).not_to_have_attribute(
        "aria-current", "page"
    )
    # Marked by its colours, and scrolled into the row's view (the last link of the row).
    phone.wait_for_function(
        """() => {
          const row = document.querySelector('[data-testid="admin-sidebar"]');
          const here = document.querySelector('[data-testid="admin-nav-users"]');
          const r = row.getBoundingClientRect(), h = here.getBoundingClientRect();
          return h.left >= r.left - 1 && h.right <= r.right + 1 && h.right <= innerWidth;
        }""",
        timeout=5000,
    )
    looks = phone.evaluate(
        """() => ['users', 'dashboard'].map(key => {
          const s = getComputedStyle(document.querySelector(`[data-testid="admin-nav-${key}"]`));
          return [s.backgroundColor, s.color];
        })"""
    )
    assert looks[0][0] != looks[1][0] and looks[0][1] != looks[1][1], looks
    assert phone.evaluate("scrollX") == 0


# --- 2. Dashboard -------------------------------------------------------------------------


@pytest.mark.parametrize("screen", ["page", "phone"])
def test_both_weekly_charts_name_the_same_weeks(request, server, screen):
    browser_page = request.getfixturevalue(screen)
    _signed_in(browser_page, server, "admin")
    browser_page.goto("/admin")
    charts = browser_page.get_by_test_id("weekly-charts")
    surfaces = charts.locator("svg.recharts-surface")
    expect(surfaces).to_have_count(2)
    expect(surfaces.nth(1).locator(".recharts-xAxis-tick-labels text").first).to_be_visible()
    labels = surfaces.evaluate_all(
        """svgs => svgs.map(svg => [...svg.querySelectorAll('.recharts-xAxis-tick-labels text')]
            .map(text => text.textContent))"""
    )
    assert labels[0] == labels[1], labels
    assert len(labels[0]) == 12, labels  # every week of the twelve, on a phone too
    # Each week's label sits under the same week in both charts: the plots are as wide.
    lefts = charts.locator(".recharts-cartesian-grid").evaluate_all(
        "grids => grids.map(g => Math.round(g.getBoundingClientRect().left))"
    )
    assert lefts[0] == lefts[1], lefts


def test_system_status_names_the_last_backup_and_says_whatsapp_plainly(page, server):
    _signed_in(page, server, "admin")
    page.goto("/admin")
    checks = page.get_by_test_id("status-check")
    expect(checks.nth(3)).to_contain_text("Last Backup")
    names = [c.split("\n")[0] for c in checks.all_inner_texts()]
    assert names[:4] == ["Database Connection", "Storage Service", "WhatsApp API", "Last Backup"]
    # The test server has no backup target (BACKUP_URL, BACKUP_DIR), nor the daily one ...
    expect(checks.nth(3)).to_have_text("Last BackupNot configured")
    # ... and a webhook (NOTIFY_WEBHOOK_URL): active, with its last delivery, nothing else.
    whatsapp = checks.nth(2).locator("p").nth(1)
    expect(whatsapp).to_have_text(
        re.compile(r"^Active; (nothing delivered yet|last delivered \d\d\.\d\d\.\d{4} \d\d:\d\d)$")
    )


# --- 3. The account's orders ----------------------------------------------------------------


def _as_badge(words: str) -> str:
    """A status as the orders' badge says it: its first letter capital (issue 34)."""
    return words[:1].upper() + words[1:]


def _customer_with_an_order(server, page) -> None:
    """A signed-in customer (its session cookie in `page`) with one booking of a long name."""
    from storefront.models import utcnow
    from storefront.services.booking.placing import place_booking
    from tests.factories import contact, line, signed_in_account

    user_id, _, token = signed_in_account(
        server.database_url, role="user", password="a long enough password", full_name="Orders"
    )
    day = (date.today() + timedelta(days=40)).isoformat()

    def book(session):
        service = make_service(
            session,
            title="Enchanted Garden Party Package",
            hours=[(d, "09:00", "17:00", 60, 1) for d in range(7)],
        )
        service_id = str(service.id)
        session.commit()
        place_booking(
            session=session,
            lines=[line(service_id, day, "10:00")],
            contact=contact(),
            idempotency_key=f"key-{uuid.uuid4().hex}",
            now=utcnow(),
            user_id=user_id,
        )

    _commit(server, book)
    page.context.add_cookies([{"name": "sf_session", "value": token, "url": server.url}])


def test_on_a_phone_every_column_of_the_orders_shows(phone, server):
    _customer_with_an_order(server, phone)
    phone.goto("/account/orders")
    row = phone.get_by_test_id("order-link").first.locator("xpath=ancestor::tr")
    status = row.locator("td").last
    expect(status.get_by_test_id("order-status")).to_have_text(_as_badge(sq("pending")))
    cells = row.locator("td").evaluate_all(
        """cells => cells.map(c => { const b = c.getBoundingClientRect();
            return [c.dataset.label, b.left, b.right, c.innerText]; })"""
    )
    assert len(cells) == 5, cells
    for _label, left, right, text in cells:
        assert 0 <= left and right <= 390, cells  # within the screen, no sideways scrolling
        assert text.strip(), cells
    box = status.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    # Each value is named by its column on the card.
    label = status.evaluate("td => getComputedStyle(td, '::before').content")
    assert label == f'"{sq("Status")}"', label
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_orders_headings_line_up_with_their_columns(page, server):
    _customer_with_an_order(server, page)
    page.goto("/account/orders")
    row = page.get_by_test_id("order-link").first.locator("xpath=ancestor::tr")
    expect(row.locator("td").last.get_by_test_id("order-status")).to_have_text(
        _as_badge(sq("pending"))
    )
    columns = page.evaluate(
        """() => {
          const table = document.querySelector('[data-testid="order-link"]').closest('table');
          const span = (el) => { const r = document.createRange(); r.selectNodeContents(el);
                                 const b = r.getBoundingClientRect(); return [b.left, b.right]; };
          const heads = [...table.querySelectorAll('thead th')];
          const cells = [...table.querySelector('tbody tr').querySelectorAll('td')];
          return heads.map((th, i) => ({
            name: th.textContent, align: getComputedStyle(cells[i]).textAlign,
            head: span(th), cell: span(cells[i]),
          }));
        }"""
    )
    assert [c["name"] for c in columns] == [
        sq("Reference"),
        sq("Event date"),
        sq("Services"),
        sq("Total"),
        sq("Status"),
    ]
    for column in columns:
        side = 1 if column["align"] in ("right", "end") else 0
        assert abs(column["head"][side] - column["cell"][side]) <= 2, column


# --- 4. The floating cart button ------------------------------------------------------------

# Whether every point across an element (its middle line, left to right) is the element itself
# (or inside it) on the screen, i.e. nothing floats over any part of it.
UNCOVERED = """(el) => {
  const box = el.getBoundingClientRect(), y = box.top + box.height / 2;
  const covered = [];
  for (let x = box.left + 2; x < box.right - 1; x += 8) {
    const top = document.elementFromPoint(x, y);
    if (!top || !(el === top || el.contains(top))) covered.push([Math.round(x), top && top.outerHTML.slice(0, 60)]);
  }
  return covered;
}"""


def test_the_cart_button_covers_nothing_on_the_booking_screen(phone, server):
    phone.goto("/services/enchanted-princess")
    phone.get_by_role("link", name=sq("Book Now")).first.click()
    expect(phone.get_by_test_id("book-screen")).to_be_visible()
    expect(phone.get_by_test_id("book-total")).not_to_have_text("")
    for test_id in ("book-total", "book-submit"):
        target = phone.get_by_test_id(test_id)
        # Scrolled to the bottom of the screen, where the cart button floats.
        target.evaluate("el => el.scrollIntoView({block: 'end'})")
        phone.wait_for_timeout(100)
        assert target.evaluate(UNCOVERED) == [], test_id
    expect(phone.get_by_test_id("floating-cart")).to_have_count(0)
    # Elsewhere the button is there.
    phone.goto("/services/mascots")
    expect(phone.get_by_test_id("floating-cart")).to_be_visible()
