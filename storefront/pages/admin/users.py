"""User Management."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.admin_layout import (
    CARD,
    INPUT,
    SMALL_BUTTON,
    admin_frame,
    admin_table,
    cell,
    confirm_dialog,
    notices,
    pager,
)
from storefront.components.first_admin import first_admin_setup
from storefront.i18n import N_o, _o
from storefront.pages import registry
from storefront.state.admin_users import CONFIRM_MAKE_ADMIN, AdminUsersState

ROLE_BUTTON = (
    "min-h-[32px] px-3 py-1 rounded-full border border-fuchsia-700 text-fuchsia-800 bg-white "
    "text-sm whitespace-nowrap hover:bg-fuchsia-50"
)
DENIED = N_o("Access Denied - You must be an admin to view this page.")


def _row(user: dict) -> rx.Component:
    return rx.el.tr(
        cell(
            _o("User"),
            rx.el.div(
                rx.el.p(user["name"], class_name="font-medium"),
                rx.el.p(user["email"], class_name="text-sm text-slate-600 break-all"),
            ),
        ),
        # The role is a code ('admin', 'staff', 'user'): its word is the page's.
        cell(
            _o("Role"),
            rx.match(user["role"], ("admin", _o("admin")), ("staff", _o("staff")), _o("user")),
        ),
        cell(_o("Created At"), user["created_at"]),
        cell(
            "",
            rx.cond(
                user["role"] != "admin",
                rx.el.div(
                    rx.cond(
                        user["role"] == "staff",
                        rx.el.button(
                            _o("Remove Staff"),
                            on_click=AdminUsersState.set_staff(user["id"], False),
                            type="button",
                            class_name=ROLE_BUTTON,
                            data_testid="remove-staff",
                        ),
                        rx.el.button(
                            _o("Make Staff"),
                            on_click=AdminUsersState.set_staff(user["id"], True),
                            type="button",
                            class_name=ROLE_BUTTON,
                            data_testid="make-staff",
                        ),
                    ),
                    rx.el.button(
                        _o("Make Admin"),
                        on_click=AdminUsersState.ask_make_admin(user["id"]),
                        type="button",
                        class_name="min-h-[32px] px-3 py-1 rounded-full bg-fuchsia-700 text-white "
                        "text-sm whitespace-nowrap",
                    ),
                    class_name="flex flex-wrap gap-2 md:justify-end",
                ),
            ),
            class_name="md:text-right",
        ),
        data_testid="user-row",
    )


def _confirm_make_admin() -> rx.Component:
    S = AdminUsersState
    # One sentence to translate; the email, in bold, goes where its placeholder is.
    before, after = _o("Make {email} an admin?").split("{email}", 1)
    return confirm_dialog(
        _o("Please confirm"),
        before,
        rx.el.strong(S.confirm_email, class_name="break-all"),
        after + " ",
        _o(CONFIRM_MAKE_ADMIN),
        confirm_label=_o("Make Admin"),
        on_confirm=S.make_admin(S.confirm_user_id),
        on_cancel=S.cancel_make_admin,
        open=S.confirm_user_id != "",
        test_id="make-admin-confirm",
        confirm_test_id="make-admin-confirm-yes",
        confirm_class="inline-flex items-center min-h-[32px] px-4 py-1 rounded-lg text-sm "
        "font-semibold bg-fuchsia-700 text-white hover:bg-fuchsia-800",
    )


@registry.page(routes.ADMIN_USERS, loaders=[AdminUsersState.load])
def admin_users() -> rx.Component:
    return admin_frame(
        _o("User Management"),
        notices(AdminUsersState.notice, AdminUsersState.error),
        rx.cond(AdminUsersState.admin_count == 0, first_admin_setup()),
        rx.el.form(
            rx.el.label(_o("Search users"), html_for="user-search", class_name="sr-only"),
            rx.el.input(
                id="user-search",
                type="search",
                value=AdminUsersState.search,
                on_change=AdminUsersState.type_search,
                placeholder=_o("Email or name"),
                class_name=INPUT + " max-w-sm",
            ),
            rx.el.button(_o("Search"), type="submit", class_name=SMALL_BUTTON),
            on_submit=AdminUsersState.apply_search,
            class_name=CARD + " mt-6 p-3 flex gap-2 items-center",
        ),
        admin_table(
            [_o("User"), _o("Role"), _o("Created At"), ""],
            rx.foreach(AdminUsersState.rows, _row),
            test_id="users-table",
        ),
        _confirm_make_admin(),
        pager(
            AdminUsersState.page,
            AdminUsersState.pages,
            AdminUsersState.total,
            AdminUsersState.previous_page,
            AdminUsersState.next_page,
        ),
        current="users",
        actions=rx.link(
            rx.icon("bug", size=16),
            _o("Role Debug"),
            href=i18n.href(routes.ADMIN_ROLE_DEBUG),
            class_name=SMALL_BUTTON,
            underline="none",
        ),
        denied=DENIED,
    )
