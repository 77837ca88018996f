"""User Management."""

import reflex as rx

from storefront.components.first_admin import first_admin_setup
from storefront.components.layout import page_layout
from storefront.components.ui import error_box, loading_spinner, success_box
from storefront.state.admin_users import AdminUsersState
from storefront.state.auth import AuthState


def _row(user: dict) -> rx.Component:
    return rx.el.tr(
        rx.el.td(
            rx.el.p(user["name"], class_name="font-medium"),
            rx.el.p(user["email"], class_name="text-sm text-slate-500"),
            class_name="py-3",
        ),
        rx.el.td(user["role"], class_name="py-3"),
        rx.el.td(user["created_at"], class_name="py-3"),
        rx.el.td(
            rx.cond(
                user["role"] != "admin",
                rx.el.button(
                    "Make Admin",
                    on_click=AdminUsersState.make_admin(user["id"]),
                    class_name="px-3 py-1 rounded-full bg-fuchsia-600 text-white text-sm",
                ),
            ),
            class_name="py-3 text-right",
        ),
        class_name="border-t border-slate-100",
        data_testid="user-row",
    )


def admin_users() -> rx.Component:
    return page_layout(
        rx.cond(
            AuthState.auth_loading | ~AuthState.is_admin,
            loading_spinner(),
            rx.el.div(
                rx.el.h1("User Management", class_name="text-3xl font-bold"),
                rx.el.div(
                    success_box(AdminUsersState.notice, "admin-notice"),
                    error_box(AdminUsersState.error, "admin-error"),
                    class_name="mt-4 space-y-2",
                ),
                rx.cond(AdminUsersState.admin_count == 0, first_admin_setup()),
                rx.el.table(
                    rx.el.thead(
                        rx.el.tr(
                            *[
                                rx.el.th(h, class_name="py-2 text-left text-sm text-slate-500")
                                for h in ("User", "Role", "Created At", "")
                            ]
                        )
                    ),
                    rx.el.tbody(rx.foreach(AdminUsersState.rows, _row)),
                    class_name="mt-6 w-full",
                ),
                class_name="max-w-5xl mx-auto px-4 py-12",
            ),
        )
    )
