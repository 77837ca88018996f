"""The back office's rules that need no database: its states are admin-only (the event-day ones
staff-only: staff and admins) and reset with a change of caller, the CSV's cells are spreadsheet-safe, and the list's filter refuses junk."""

import pytest
import reflex as rx

import storefront.storefront  # noqa: F401  (registers every page and state)
from storefront.services.booking import admin as admin_bookings
from storefront.services.booking import admin_list as admin_booking_list
from storefront.state import access, guard
from storefront.state.admin_audit import AdminAuditState
from storefront.state.admin_booking_edit import AdminBookingEditState
from storefront.state.admin_bookings import AdminBookingsState
from storefront.state.admin_calendar import AdminCalendarState
from storefront.state.admin_dashboard import AdminDashboardState
from storefront.state.admin_roles import RoleDebugState
from storefront.state.admin_settings import AdminSettingsState, AdminTravelState
from storefront.state.admin_vans import AdminVanPlanState, AdminVansState
from storefront.state.day_sheet import DaySheetState

NEW_STATES = {
    AdminAuditState,
    AdminBookingEditState,
    AdminBookingsState,
    AdminDashboardState,
    RoleDebugState,
    AdminSettingsState,
    AdminTravelState,
    AdminVansState,
    AdminVanPlanState,
}
# The event-day screens (issue 22): staff (drivers, decorators) and admins.
STAFF_STATES = {AdminCalendarState, DaySheetState}


def test_every_back_office_state_needs_an_admin_and_is_reset_with_the_caller():
    assert {guard.access_of(state) for state in NEW_STATES} == {"admin"}
    assert {guard.access_of(state) for state in STAFF_STATES} == {"staff"}
    assert set(access.private_state_classes(rx.State)) >= NEW_STATES | STAFF_STATES


@pytest.mark.parametrize(
    ("access_level", "role", "allowed"),
    [
        ("staff", "staff", True),
        ("staff", "admin", True),
        ("staff", "user", False),
        ("admin", "staff", False),
        ("admin", "admin", True),
        ("account", "staff", True),
        ("account", "user", True),
        ("public", "", True),
    ],
)
def test_each_role_reaches_its_own_level_and_those_below(access_level, role, allowed):
    assert access.allows(access_level, "someone" if role else "", role) is allowed
    assert access.allows(access_level, "", "admin") is (access_level == "public")


@pytest.mark.parametrize(
    ("cell", "safe"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        # A phone number as the CSV writes it holds nothing a spreadsheet could run: as it is
        # (issue 34: a visible ' before every phone); other cells starting with '+' are not.
        ("+383 44 123 456", "+383 44 123 456"),
        ("+1 555-123-4567", "+1 555-123-4567"),
        ("+38344123456", "'+38344123456"),
        ("+383 44 SUM(A1)", "'+383 44 SUM(A1)"),
        ("+1+2", "'+1+2"),
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
