import re

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import sign_in
from tests.e2e.test_staff_day import _admin, _signed_in, _staff, _todays_booking

pytestmark = pytest.mark.e2e


def test_shots(phone, page, server):
    booking_id, reference = _todays_booking(server)
    _todays_booking(server)
    _s, _t, email = _staff(server)
    sign_in(phone, email)
    expect(phone).to_have_url(re.compile(r"/admin/day/?$"), timeout=15000)
    sheet = phone.get_by_test_id("sheet-booking").filter(has_text=reference)
    sheet.get_by_test_id("sheet-collect-open").click()
    sheet.locator("#collect-amount").fill("150")
    sheet.get_by_test_id("sheet-collect-save").click()
    expect(phone.get_by_test_id("sheet-my-day")).to_be_visible(timeout=15000)
    sheet.get_by_test_id("sheet-collect-open").click()
    phone.screenshot(path="/tmp/shots/daysheet_390.png", full_page=True)
    _a, token = _admin(server)
    phone.context.clear_cookies()
    _signed_in(phone, server, token)
    phone.goto("/admin/cash")
    expect(phone.get_by_test_id("cash-staff-row")).to_have_count(1, timeout=15000)
    phone.screenshot(path="/tmp/shots/cash_390.png", full_page=True)
    _signed_in(page, server, token)
    page.goto("/admin/cash")
    expect(page.get_by_test_id("cash-staff-row")).to_have_count(1, timeout=15000)
    page.screenshot(path="/tmp/shots/cash_desk.png", full_page=True)
    page.goto(f"/admin/bookings?q={reference}")
    page.get_by_test_id("booking-view").first.click()
    expect(page.get_by_test_id("payment-row")).to_have_count(1, timeout=15000)
    page.screenshot(path="/tmp/shots/detail_desk.png", full_page=False)
    page.goto("/admin/bookings")
    expect(page.get_by_test_id("booking-row").first).to_be_visible(timeout=15000)
    page.screenshot(path="/tmp/shots/list_desk.png", full_page=False)
    phone.goto("/admin/bookings")
    phone.get_by_test_id("booking-view").first.click()
    phone.wait_for_timeout(1500)
    phone.screenshot(path="/tmp/shots/detail_390.png", full_page=False)
