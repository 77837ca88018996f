"""The checkout form's rules (docs/product.md §5 'Checkout information') and the booking screen's id
rules."""

from storefront.models import BookingItem  # noqa: F401  (models registered for the services)
from storefront.services.booking import availability
from storefront.services.booking import contact as booking_contact

GOOD = {
    "full_name": "Arta Krasniqi",
    "email": "arta@example.com",
    "phone": "+383 44 123 456",
    "address": "Rruga 1",
    "zip_code": "10000",
    "city": "Prishtinë",
    "event_type": "wedding",
    "guest_count": "50",
}


def test_a_complete_form_has_no_errors():
    assert booking_contact.checkout_errors(booking_contact.contact_from_form(GOOD)) == {}


def test_each_required_field_is_named():
    for field in ("full_name", "email", "phone", "address", "zip_code", "city"):
        errors = booking_contact.checkout_errors(
            booking_contact.contact_from_form(GOOD | {field: "  "})
        )
        assert errors == {field: "required"}


def test_the_city_is_a_municipality_stored_by_its_albanian_name():
    """Issue 36: the municipality, however typed, is stored by its Albanian name; a place that
    is not one of Kosovo's municipalities is refused with a message saying so."""
    contact = booking_contact.contact_from_form(GOOD | {"city": "Đakovica"})
    assert booking_contact.clean_contact(contact).city == "Gjakovë"
    checked = booking_contact.checkout_check(
        booking_contact.contact_from_form(GOOD | {"city": "Tirana"})
    )
    assert checked.codes == {"city": "invalid"}
    assert checked.messages["city"] == "Zgjidhni komunën tuaj nga lista"


def test_email_guest_count_and_event_type_are_checked():
    errors = booking_contact.checkout_errors(
        booking_contact.contact_from_form(
            GOOD | {"email": "arta@", "guest_count": "501", "event_type": "rave"}
        )
    )
    assert errors == {"email": "invalid", "guest_count": "out_of_range", "event_type": "invalid"}
    # Issue 34, item 4: neither is assumed when left empty; both are asked for.
    empty = booking_contact.contact_from_form(GOOD | {"guest_count": "", "event_type": ""})
    assert empty.guest_count is None and empty.event_type == ""
    assert booking_contact.checkout_errors(empty) == {
        "guest_count": "required",
        "event_type": "required",
    }


def test_the_month_grid_starts_on_monday():
    statuses = [availability.DayStatus(f"2026-12-{d:02d}", d % 2 == 0) for d in range(1, 32)]
    grid = availability.month_grid(statuses)
    assert [g.date for g in grid[:2]] == ["", "2026-12-01"]  # 1 December 2026 is a Tuesday
    assert grid[2].day == "2" and grid[2].available
