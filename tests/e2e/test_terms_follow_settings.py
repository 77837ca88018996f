"""The terms say the cutoff the owner set (issue 34, item 8): '/terms' said 'up to 48 hours
before' after the owner set customers' changes to close 24 hours before."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from sqlmodel import Session

from storefront.db import make_engine
from storefront.models import BusinessSettings
from storefront.services import cache as catalog_cache  # noqa: F401 (a settings write bumps the cache)
from tests.e2e.helpers import sq

pytestmark = pytest.mark.e2e
CHANGES = (
    "Tell us as early as you can if your plans change. Bookings can be moved or cancelled free "
    "of charge up to {hours} hours before the event."
)


def _cutoff(server, hours: int) -> int:
    """Set the cutoff as the Settings page does; returns the one before."""
    engine = make_engine(server.database_url)
    with Session(engine) as session:
        row = session.get(BusinessSettings, 1) or BusinessSettings(id=1)
        before = row.change_cutoff_hours
        row.change_cutoff_hours = hours
        session.add(row)
        session.commit()
    engine.dispose()
    return before


def test_the_terms_say_the_cutoff_the_owner_set(page, server):
    before = _cutoff(server, 24)
    try:
        page.goto("/en/terms")
        expect(page.get_by_text(CHANGES.format(hours=24))).to_be_visible(timeout=15000)
        page.goto("/terms")
        expect(page.get_by_text(sq(CHANGES).format(hours=24))).to_be_visible(timeout=15000)
        expect(page.get_by_text("48")).to_have_count(0)
    finally:
        _cutoff(server, before)
