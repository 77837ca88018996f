"""A page whose content arrives after it opens keeps that content's room while it waits (issue
23): the services list shows cards' skeletons, so neither its sections nor the footer jump when
the cards arrive. Measured as browsers do (the layout-shift entries, as Lighthouse's CLS), on a
phone-speed processor (4x slower) and a network with 150 ms of latency, where the cards arrive
well after the first paint: before the skeletons, 0.58 at 390 px and 0.17 at 1280 px."""

import pytest

from tests.e2e.helpers import slow_down

pytestmark = pytest.mark.e2e

# Core Web Vitals' 'good'.
MOST = 0.1
OBSERVE = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!entry.hadRecentInput) window.__shifts.push(entry.value);
  }
}).observe({type: "layout-shift", buffered: true});
"""


def _layout_shift(page, path: str) -> float:
    page.add_init_script(OBSERVE)
    slow_down(page)
    page.goto(path)
    page.locator('[data-testid="theme-card"]').first.wait_for()
    page.wait_for_timeout(500)  # the last cards' layout settles
    return page.evaluate("window.__shifts.reduce((a, b) => a + b, 0)")


@pytest.mark.parametrize("path", ["/services", "/en/services"])
def test_the_services_list_does_not_move_when_its_cards_arrive_on_a_phone(phone, path):
    assert _layout_shift(phone, path) <= MOST


@pytest.mark.parametrize("path", ["/services", "/en/services"])
def test_the_services_list_does_not_move_when_its_cards_arrive_on_a_desktop(page, path):
    assert _layout_shift(page, path) <= MOST
