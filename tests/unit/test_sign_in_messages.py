"""The sign-in screens' copy for service codes (issue 12, item 14)."""

import pytest

from storefront import i18n
from storefront.services.accounts import auth
from storefront.state.sign_in import message_for, wait_message


@pytest.fixture(autouse=True)
def _english_edition():
    """These tests read SPEC's English copy: the English edition's words (the default edition
    says them in Albanian, tests/unit/test_translations.py)."""
    with i18n.using("en"):
        yield


def test_one_second_is_singular():
    assert wait_message(1) == "Too many sign-in attempts. Please wait 1 second and try again."
    assert wait_message(12) == "Too many sign-in attempts. Please wait 12 seconds and try again."


def test_codes_map_to_spec_messages():
    assert message_for(auth.AuthError("passwords_mismatch"), "x") == "Passwords do not match"
    assert message_for(auth.AuthError("weak_password"), "x") == (
        "Password must be at least 8 characters long"
    )
    # A declared code the screen has no words of its own for gets the screen's fallback.
    assert message_for(auth.AuthError("invalid_ticket"), "fallback") == "fallback"
