"""The availability and banner screens' states are admin states for the guard, are reset when a
tab's caller changes, and read the service id from the path without trusting more of it."""

import reflex as rx

import storefront.storefront  # noqa: F401  (registers every page and state)
from storefront.state import access, guard
from storefront.state.admin_availability import (
    AdminAvailabilityState,
    _checked,
    _service_id_from,
    _uuid,
)
from storefront.state.admin_banners import AdminBannersState


def test_both_screens_are_admin_only_and_private():
    assert guard.access_of(AdminAvailabilityState) == "admin"
    assert guard.access_of(AdminBannersState) == "admin"
    private = set(access.private_state_classes(rx.State))
    assert {AdminAvailabilityState, AdminBannersState} <= private


def test_banner_uploads_use_spec_banner_wording():
    """In the back office's English (its default); in Albanian on /sq/admin."""
    from storefront import i18n

    with i18n.using("en"):
        assert AdminBannersState.upload_messages["wrong_type"] == "File must be an image"
        assert (
            AdminBannersState.upload_messages["too_large"] == "Image size should be less than 5MB"
        )
    with i18n.using("sq"):
        assert AdminBannersState.upload_messages["wrong_type"] == "Skedari duhet të jetë imazh"


def test_the_service_id_comes_from_the_last_part_of_the_path_and_must_be_a_uuid():
    sid = "0b8e8a4e-6a51-4c52-9d8c-1f0b7f0c9a11"
    assert _uuid(_service_id_from(f"/admin/services/availability/{sid}/")) == sid
    assert _uuid(_service_id_from("/admin/services/availability/../../etc")) == ""
    assert _uuid(_service_id_from("/admin/services/availability/x" + "0" * 500)) == ""


def test_checkboxes_count_only_when_ticked():
    assert _checked({"is_available": "on"}, "is_available")
    assert not _checked({}, "is_available")
    assert not _checked({"is_available": ["on"]}, "is_available")
