"""The audit log in words (services/audit.describe, entity_in_words): what the back office's
Audit Log shows of the details every write path stores as JSON."""

import ast
from pathlib import Path

import pytest

from storefront import i18n
from storefront.models import (
    AuditLog,
    Banner,
    BannerItem,
    BlockedDate,
    Booking,
    BookingItem,
    BusinessSettings,
    CashHandover,
    Payment,
    Service,
    ServiceAvailability,
    ServiceCapacity,
    Van,
)
from storefront.services import audit, business


@pytest.fixture(autouse=True)
def _back_office_english():
    """The Audit Log as /admin shows it: in the back office's default language, English (the
    Albanian of /sq/admin is the office catalog's: test_albanian_words below)."""
    with i18n.using("en"):
        yield


def test_albanian_words():
    with i18n.using("sq"):
        details = {"before": {"price": "150.00"}, "after": {"price": "200.00"}}
        assert audit.describe(details) == ("Çmimi: 150,00\xa0€ -> 200,00\xa0€",)


def test_a_change_is_one_line_per_changed_field_with_its_label():
    details = {
        "before": {"id": "1b", "title": "Bouncy castle", "price": "150.00", "active": True},
        "after": {"id": "1b", "title": "Bouncy castle", "price": "200.00", "active": False},
    }
    assert audit.describe(details) == ("Price: €150.00 -> €200.00", "Active: yes -> no")


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


def _line(line_id: str, name: str, quantity: int, start: str) -> dict:
    return {
        "id": line_id,
        "service_name": name,
        "quantity": quantity,
        "start_datetime": start,
        "service_price": "95",
    }


def test_sections_are_merged_and_booking_lines_named_by_their_service():
    """Issue 34: a line read 'Item 1 Start'; it is its service's name, matched by its id."""
    before = {
        "booking": {"contact_phone": "+38344111222", "total_amount": "100.00"},
        "items": [
            _line("l1", "Bouncy castle", 1, "2026-06-10T08:00:00+00:00"),
            _line("l2", "Mascot Elsa", 1, "2026-06-10T08:00:00+00:00"),
        ],
    }
    after = {
        "booking": {"contact_phone": "+38345987654", "total_amount": "180.5"},
        # Listed in another order: each line still matches itself.
        "items": [
            _line("l2", "Mascot Elsa", 1, "2026-06-10T08:00:00+00:00"),
            _line("l1", "Bouncy castle", 2, "2026-06-10T09:00:00+00:00"),
        ],
    }
    # Times are the business's (Europe/Belgrade, summer: UTC+2).
    assert audit.describe({"before": before, "after": after}) == (
        "Phone: +38344111222 -> +38345987654",
        "Total: €100.00 -> €180.50",
        "Bouncy castle / Quantity: 1 -> 2",
        "Bouncy castle / Start: 10.06.2026 10:00 -> 10.06.2026 11:00",
    )
    with i18n.using("sq"):
        assert audit.describe({"before": before, "after": after})[2] == (
            "Bouncy castle / Sasia: 1 -> 2"
        )


def test_two_lines_of_one_service_are_told_apart_and_a_nameless_one_numbered():
    before = {
        "items": [
            _line("a", "Chairs", 10, "2026-06-10T08:00:00+00:00"),
            _line("b", "Chairs", 20, "2026-06-10T08:00:00+00:00"),
            {"quantity": 1},
        ]
    }
    after = {
        "items": [
            _line("a", "Chairs", 10, "2026-06-10T08:00:00+00:00"),
            _line("b", "Chairs", 25, "2026-06-10T08:00:00+00:00"),
            {"quantity": 3},
        ]
    }
    assert audit.describe({"before": before, "after": after}) == (
        "Chairs (2) / Quantity: 20 -> 25",
        "Item 3 / Quantity: 1 -> 3",
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
    held = ("Day: Monday", "Start Time: 09:00")
    assert audit.describe({"before": None, "after": row}) == held
    assert audit.describe({"before": row, "after": None}) == held
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


# --- every code and column in words (issue 34: raw codes and English names in /sq/admin/audit) --

SOURCES = Path(audit.__file__).resolve().parents[1]
# The calls that name an action, and where: keyword `action`, or this positional argument.
ACTION_ARGUMENT = {"_change": 3, "_audited": 3, "_record": 2, "_audit": 2}


def _recorded_actions() -> set[str]:
    """Every action code the app's sources record, read from their syntax."""
    found: set[str] = set()

    def codes(node: ast.AST) -> set[str]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, ast.IfExp):
            return codes(node.body) | codes(node.orelse)
        if isinstance(node, ast.JoinedStr):  # f"set_status_{status}": the statuses it takes
            return {"set_status_published", "set_status_draft"}
        return set()

    for path in SOURCES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", "")
            for keyword in node.keywords:
                if keyword.arg == "action" and name != "add_argument":
                    found |= codes(keyword.value)
            where = ACTION_ARGUMENT.get(name)
            if where is not None and len(node.args) > where:
                found |= codes(node.args[where])
    return found


def test_every_recorded_action_has_words_in_both_languages():
    recorded = _recorded_actions()
    # The scan sees the codes the issue named, and others of every kind of write path.
    assert {"booking_bulk_cancel", "two_factor_on", "settings_update", "two_factor_locked"} <= (
        recorded
    )
    assert {"toggle_active", "submit_for_review", "set_staff_role", "make_admin_cli"} <= recorded
    assert recorded - set(audit.ACTION_LABELS) == set()
    assert audit.action_in_words("booking_bulk_cancel") == "Pending bookings cancelled together"
    with i18n.using("sq"):
        for code in recorded:
            words = audit.action_in_words(code)
            assert words != code and "_" not in words
        assert audit.action_in_words("settings_update") == i18n._o("Settings changed")
        assert audit.action_in_words("settings_update") != "Settings changed"


def test_a_switch_says_which_way_it_went():
    off = {"before": {"active": True}, "after": {"active": False}}
    assert audit.action_in_words("toggle_active", off) == "Service deactivated"
    on = {"before": {"is_available": False}, "after": {"is_available": True}}
    assert audit.action_in_words("toggle_availability", on) == "Availability turned on"
    assert audit.action_in_words("toggle_featured") == "Service featured or unfeatured"


@pytest.mark.parametrize(
    "model",
    [
        Service,
        ServiceCapacity,
        Booking,
        BookingItem,
        BusinessSettings,
        ServiceAvailability,
        BlockedDate,
        Banner,
        BannerItem,
        Payment,
        CashHandover,
        Van,
    ],
)
def test_every_column_the_log_records_is_named_or_hidden(model):
    unnamed = {
        name
        for name in model.model_fields
        if name not in audit.FIELD_LABELS
        and name not in audit.HIDDEN_FIELDS
        and name not in ("translations",)
    }
    assert unnamed == set()


def test_settings_read_as_the_settings_page_names_them_in_albanian():
    from storefront.pages.admin.settings import FIELDS

    details = {
        "before": {
            "reminder_lead_hours": 24,
            "staff_language": "sq",
            "backup_daily": False,
            "translations": {"en": {"address": "Prishtina"}},
        },
        "after": {
            "reminder_lead_hours": 12,
            "staff_language": "en",
            "backup_daily": True,
            "translations": {"en": {"address": "Pristina"}},
        },
    }
    with i18n.using("sq"):
        lines = audit.describe(details)
        assert lines == (
            "Kujtesa para eventit (orë): 24 -> 12",
            f"{i18n._o('Staff messages in')}: Shqip -> English",
            f"{i18n._o('Daily backup')}: jo -> po",
            "Adresa (anglisht): Prishtina -> Pristina",
        )
        for name, label, _type, _hint in FIELDS:
            if name.endswith("_en"):
                continue
            assert audit.field_label(name) == i18n._o(label)
        for name, (label, *_rest) in (business.SETTINGS_FIELDS | business.NUMBER_FIELDS).items():
            assert audit.field_label(name) == i18n._o(label)


def test_the_bulk_cancel_names_the_internet_address_and_its_bookings():
    details = {
        "before": {"status": "pending"},
        "after": {"status": "cancelled"},
        "references": ["MG-1", "MG-2"],
        "booking_ids": ["x", "y"],
        "address": "203.0.113.9",
    }
    assert audit.describe(details, "booking") == (
        "Status: pending -> cancelled",
        "Bookings: MG-1, MG-2",
        "Internet address (IP): 203.0.113.9",
    )
    by_email = dict(details, email="flood@example.com")
    del by_email["address"]
    assert audit.describe(by_email, "booking")[-1] == "Email: flood@example.com"
    # A user's entry names the user by email already.
    assert audit.describe({"email": "ana@example.com"}, "user") == ()
