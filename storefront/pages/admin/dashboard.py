"""The admin area's entry. Its screens come with the admin issues; the guard is already real."""

import reflex as rx

from storefront.components.first_admin import first_admin_setup
from storefront.components.layout import page_layout
from storefront.components.ui import loading_spinner, success_box
from storefront.state.auth import AuthState
from storefront.state.first_admin import InitialAdminState


def admin_home() -> rx.Component:
    return page_layout(
        rx.cond(
            AuthState.auth_loading,
            loading_spinner(),
            rx.cond(AuthState.is_admin, _dashboard(), _setup_or_wait()),
        )
    )


def _setup_or_wait() -> rx.Component:
    """A signed-in account that is not admin sees the setup only while no admin exists."""
    return rx.cond(
        InitialAdminState.admin_missing,
        rx.el.div(
            rx.el.h1("Admin", class_name="text-3xl font-bold"),
            first_admin_setup(),
            class_name="max-w-5xl mx-auto px-4 py-12",
        ),
        loading_spinner(),
    )


def _dashboard() -> rx.Component:
    return rx.el.div(
        # Set after 'Initial Admin Setup' made the caller the first admin.
        success_box(InitialAdminState.notice, "first-admin-notice"),
        rx.el.h1("Admin Dashboard", class_name="text-3xl font-bold"),
        rx.el.p(
            "Welcome, ",
            AuthState.user_name,
            ". The back office screens are on their way.",
            class_name="mt-4 text-slate-600",
        ),
        class_name="max-w-5xl mx-auto px-4 py-12",
        data_testid="admin-home",
    )
