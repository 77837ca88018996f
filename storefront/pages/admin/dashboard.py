"""The admin area's entry. Its screens come with the admin issues; the guard is already real."""

import reflex as rx

from storefront.components.layout import page_layout
from storefront.components.ui import loading_spinner
from storefront.state.auth import AuthState


def admin_home() -> rx.Component:
    return page_layout(
        rx.cond(
            AuthState.auth_loading | ~AuthState.is_admin,
            loading_spinner(),
            rx.el.div(
                rx.el.h1("Admin Dashboard", class_name="text-3xl font-bold"),
                rx.el.p(
                    "Welcome, ",
                    AuthState.user_name,
                    ". The back office screens are on their way.",
                    class_name="mt-4 text-slate-600",
                ),
                class_name="max-w-5xl mx-auto px-4 py-12",
                data_testid="admin-home",
            ),
        )
    )
