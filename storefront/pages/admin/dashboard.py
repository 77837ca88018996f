"""The admin area's entry: the dashboard for admins, 'Initial Admin Setup' for a signed-in
account while no admin exists, 'Access Denied' for anyone else signed in."""

import reflex as rx

from storefront.components.admin_layout import access_denied, admin_frame
from storefront.components.first_admin import first_admin_setup
from storefront.components.ui import success_box
from storefront.state.auth import AuthState
from storefront.state.first_admin import InitialAdminState


def admin_home() -> rx.Component:
    return admin_frame(
        "Admin Dashboard",
        # Set after 'Initial Admin Setup' made the caller the first admin.
        success_box(InitialAdminState.notice, "first-admin-notice"),
        rx.el.p(
            "Welcome, ",
            AuthState.user_name,
            ".",
            class_name="mt-4 text-slate-600",
            data_testid="admin-home",
        ),
        current="dashboard",
        non_admin=rx.cond(
            InitialAdminState.admin_missing,
            rx.el.div(
                rx.el.h1("Admin", class_name="text-3xl font-bold"),
                first_admin_setup(),
                class_name="max-w-5xl mx-auto px-4 py-12",
            ),
            access_denied(),
        ),
    )
