"""The back office's rules that need no database: its states are admin-only and reset with a
change of caller, the CSV's cells are spreadsheet-safe, and the list's filter refuses junk."""

import pytest
import reflex as rx

import storefront.storefront  # noqa: F401  (registers every page and state)
from storefront.services import admin_booking_list, admin_bookings
from storefront.state import access, guard
from storefront.state.admin_audit import AdminAuditState
from storefront.state.admin_booking_edit import AdminBookingEditState
from storefront.state.admin_bookings import AdminBookingsState
from storefront.state.admin_calendar import AdminCalendarState
from storefront.state.admin_dashboard import AdminDashboardState
from storefront.state.admin_roles import RoleDebugState
from storefront.state.admin_settings import AdminSettingsState

NEW_STATES = {
    AdminAuditState,
    AdminBookingEditState,
    AdminBookingsState,
    AdminCalendarState,
    AdminDashboardState,
    RoleDebugState,
    AdminSettingsState,
}


def test_every_back_office_state_needs_an_admin_and_is_reset_with_the_caller():
    assert {guard.access_of(state) for state in NEW_STATES} == {"admin"}
    assert set(access.private_state_classes(rx.State)) >= NEW_STATES


@pytest.mark.parametrize(
    ("cell", "safe"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+383 44 123 456", "'+383 44 123 456"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "'\rcmd"),
        ("MG-1A2B3C4D", "MG-1A2B3C4D"),
        ("", ""),
        (None, ""),
        (40, "40"),
    ],
)
def test_csv_cells_never_start_a_formula(cell, safe):
    assert admin_booking_list.spreadsheet_safe(cell) == safe


def test_the_filter_takes_known_statuses_and_real_days_only():
    assert admin_booking_list.check_filter(status="All").status == ""
    assert admin_booking_list.check_filter(status=" Confirmed ").status == "confirmed"
    assert admin_booking_list.check_filter(search="x" * 500).search == "x" * 100
    for bad in ({"status": "deleted"}, {"date_from": "2026-2-1"}, {"date_to": "2026-02-30"}):
        with pytest.raises(admin_bookings.AdminBookingError) as refused:
            admin_booking_list.check_filter(**bad)
        assert refused.value.code == "invalid_filter"
