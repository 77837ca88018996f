"""An admin turns on two-factor sign-in in Chromium, reading the key the page shows and making
the code with pyotp as an authenticator app would, then signs in with it: at 390 px and 1280 px,
with a screenshot of each step (issue 18, finding 11)."""

import os
import time
from pathlib import Path

import pyotp
import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import sign_in
from tests.e2e.test_admin_ops import _admin

pytestmark = pytest.mark.e2e
SHOTS = Path(os.environ.get("TWO_FACTOR_SHOTS", "/tmp/shots-F"))


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"]
    page.screenshot(path=str(SHOTS / f"{width}-{name}.png"), full_page=True)


@pytest.mark.parametrize("viewport", ["phone", "page"])
def test_an_admin_turns_on_two_factor_and_signs_in_with_it(request, viewport, server):
    page = request.getfixturevalue(viewport)
    email = _admin(server)
    sign_in(page, email, redirect="/admin")
    expect(page.get_by_test_id("admin-home")).to_be_visible(timeout=15000)

    page.goto("/account/security")
    card = page.get_by_test_id("two-factor")
    card.get_by_role("button", name="Set up two-factor sign-in").click()
    expect(page.get_by_test_id("two-factor-qr")).to_be_visible()
    secret = page.get_by_test_id("two-factor-secret").inner_text().replace(" ", "")
    assert len(secret) >= 16
    _shot(page, "1-setup")
    totp = pyotp.TOTP(secret)
    form = page.get_by_test_id("two-factor-confirm")
    form.get_by_label("Code").fill("000000" if totp.now() != "000000" else "111111")
    form.get_by_role("button", name="Turn on").click()
    expect(page.get_by_test_id("security-error")).to_contain_text("not valid")
    form.get_by_label("Code").fill(totp.now())
    form.get_by_role("button", name="Turn on").click()
    codes = page.get_by_test_id("recovery-codes").get_by_role("listitem")
    # Ten argon2 hashes (slow on purpose) before the answer: seconds on a busy 2-core machine.
    expect(codes).to_have_count(10, timeout=30000)
    expect(page.get_by_test_id("two-factor-secret")).to_have_count(0)
    _shot(page, "2-recovery-codes")

    # Signed out (a new browser session), the password alone no longer signs in.
    page.context.clear_cookies()
    sign_in(page, email, redirect="/admin")
    code_form = page.get_by_test_id("two-factor-form")
    expect(code_form).to_be_visible(timeout=15000)
    _shot(page, "3-code-asked")
    # The code of the next 30 seconds (one step of drift is allowed): the setup's code was
    # used already and is accepted once.
    code_form.get_by_label("Authentication code").fill(totp.at(time.time() + 30))
    code_form.get_by_role("button", name="Verify").click()
    expect(page.get_by_test_id("admin-home")).to_be_visible(timeout=15000)
    _shot(page, "4-signed-in")
