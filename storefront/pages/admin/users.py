"""User Management."""

import reflex as rx

from storefront.components.admin_layout import admin_frame, admin_table, cell, notices
from storefront.components.first_admin import first_admin_setup
from storefront.state.admin_users import AdminUsersState

DENIED = "Access Denied - You must be an admin to view this page."


def _row(user: dict) -> rx.Component:
    return rx.el.tr(
        cell(
            "User",
            rx.el.div(
                rx.el.p(user["name"], class_name="font-medium"),
                rx.el.p(user["email"], class_name="text-sm text-slate-600 break-all"),
            ),
        ),
        cell("Role", user["role"]),
        cell("Created At", user["created_at"]),
        cell(
            "",
            rx.cond(
                user["role"] != "admin",
                rx.el.button(
                    "Make Admin",
                    on_click=AdminUsersState.make_admin(user["id"]),
                    class_name="px-3 py-1 rounded-full bg-fuchsia-700 text-white text-sm",
                ),
            ),
            class_name="md:text-right",
        ),
        data_testid="user-row",
    )


def admin_users() -> rx.Component:
    return admin_frame(
        "User Management",
        notices(AdminUsersState.notice, AdminUsersState.error),
        rx.cond(AdminUsersState.admin_count == 0, first_admin_setup()),
        admin_table(
            ["User", "Role", "Created At", ""],
            rx.foreach(AdminUsersState.rows, _row),
            test_id="users-table",
        ),
        current="users",
        denied=DENIED,
    )
