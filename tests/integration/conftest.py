"""Fixtures shared by the integration tests of one rule."""

import pytest

from storefront.settings import get_settings


@pytest.fixture
def limits(monkeypatch):
    """The booking limits and the mail cap at their documented defaults, whatever the suite
    runs with (tests/integration/test_booking_limits.py, test_limits_canonical.py)."""
    settings = get_settings()
    monkeypatch.setattr(settings, "booking_limit_per_address", 5)
    monkeypatch.setattr(settings, "booking_limit_per_email", 3)
    monkeypatch.setattr(settings, "booking_limit_per_phone", 3)
    monkeypatch.setattr(settings, "mail_cap_per_recipient", 5)
    return settings
