"""The audit log in words (services/audit.describe, entity_in_words): what the back office's
Audit Log shows of the details every write path stores as JSON."""

import pytest

from storefront import i18n
from storefront.models import AuditLog
from storefront.services import audit


@pytest.fixture(autouse=True)
def _back_office_english():
    """The Audit Log as /admin shows it: in the back office's default language, English (the
    Albanian of /sq/admin is the office catalog's: test_albanian_words below)."""
    with i18n.using("en"):
        yield


def test_albanian_words():
    with i18n.using("sq"):
        details = {"before": {"price": "150.00"}, "after": {"price": "200.00"}}
        assert audit.describe(details) == ("Çmimi: 150.00 -> 200.00",)


def test_a_change_is_one_line_per_changed_field_with_its_label():
    details = {
        "before": {"id": "1b", "title": "Bouncy castle", "price": "150.00", "active": True},
        "after": {"id": "1b", "title": "Bouncy castle", "price": "200.00", "active": False},
    }
    assert audit.describe(details) == ("Price: 150.00 -> 200.00", "Active: yes -> no")


def test_a_status_change_and_what_the_entry_adds():
    details = {
        "before": {"status": "pending"},
        "after": {"status": "confirmed"},
        "reference": "MG-1A2B3C4D",
        "override": True,
    }
    assert audit.describe(details) == (
        "Status: pending -> confirmed",
        "Capacity warning overridden: yes",
    )


def test_sections_are_merged_and_booking_items_numbered():
    before = {
        "booking": {"contact_phone": "+38344111222", "total_amount": "100.00"},
        "items": [{"quantity": 1, "start_datetime": "2026-06-10T08:00:00+00:00"}],
    }
    after = {
        "booking": {"contact_phone": "+38345987654", "total_amount": "100.00"},
        "items": [{"quantity": 2, "start_datetime": "2026-06-10T09:00:00+00:00"}],
    }
    # Times are the business's (Europe/Belgrade, summer: UTC+2).
    assert audit.describe({"before": before, "after": after}) == (
        "Phone: +38344111222 -> +38345987654",
        "Item 1 Quantity: 1 -> 2",
        "Item 1 Start: 10.06.2026 10:00 -> 10.06.2026 11:00",
    )


def test_created_and_deleted_rows_list_what_they_held_without_ids_or_blanks():
    row = {
        "id": "9f",
        "service_id": "2c",
        "day_of_week": 1,
        "start_time": "09:00:00",
        "reason": None,
        "created_at": "2026-01-01T00:00:00+00:00",
    }
    assert audit.describe({"before": None, "after": row}) == ("Day: Monday", "From: 09:00")
    assert audit.describe({"before": row, "after": None}) == ("Day: Monday", "From: 09:00")
    assert audit.describe({"before": None, "after": None}) == ()
    assert audit.describe("not a dict") == ()


def test_labels_name_settings_fields_and_unknown_ones_read_as_words():
    details = {
        "before": {"min_notice_hours": 24, "whatsapp_number": "+38344000000", "new_thing": "a"},
        "after": {"min_notice_hours": 48, "whatsapp_number": "+38344000000", "new_thing": "b"},
    }
    assert audit.describe(details) == (
        "Minimum notice (hours): 24 -> 48",
        "New thing: a -> b",
    )


def test_an_entity_is_named_by_its_name_now_or_as_stored():
    service = AuditLog(action="toggle_active", entity_type="service", entity_id="s1", details={})
    assert audit.entity_in_words(service, {("service", "s1"): "Bouncy castle"}) == (
        "Service: Bouncy castle"
    )
    deleted = AuditLog(
        action="delete",
        entity_type="service",
        entity_id="s2",
        details={"before": {"title": "Old castle"}, "after": None},
    )
    assert audit.entity_in_words(deleted, {}) == "Service: Old castle"
    booking = AuditLog(
        action="booking_delete",
        entity_type="booking",
        entity_id="b1",
        details={"before": {"booking": {"reference": "MG-1A2B3C4D"}}, "reference": "MG-1A2B3C4D"},
    )
    assert audit.entity_in_words(booking, {}) == "Booking: MG-1A2B3C4D"
    user = AuditLog(
        action="set_admin_role",
        entity_type="user",
        entity_id="u1",
        details={"email": "ana@example.com"},
    )
    assert audit.entity_in_words(user, {}) == "User: ana@example.com"
    item = AuditLog(
        action="create_banner_item",
        entity_type="banner_item",
        entity_id="i1",
        details={"before": None, "after": {"title": "Summer party"}},
    )
    assert audit.entity_in_words(item, {}) == "Banner item: Summer party"
    settings = AuditLog(action="settings_update", entity_type="settings", entity_id="1")
    assert audit.entity_in_words(settings, {}) == "Settings"
    availability = AuditLog(
        action="create_availability",
        entity_type="service_availability",
        entity_id="a1",
        details={"after": {"service_id": "s1", "day_of_week": 2}},
    )
    assert audit.entity_in_words(availability, {("service", "s1"): "Bouncy castle"}) == (
        "Availability: Bouncy castle"
    )
