"""Admin role debug (docs/product.md §2)."""

import reflex as rx

from storefront.components.admin_layout import CARD, SMALL_BUTTON, admin_frame, notices
from storefront.state.admin_roles import RoleDebugState as S

FIELDS = [
    ("User ID", "user_id"),
    ("Email", "email"),
    ("Frontend role", "page_role"),
    ("Frontend admin flag", "page_admin"),
    ("Database role", "database_role"),
    ("Database admin check", "database_admin_check"),
    ("User metadata", "metadata"),
]


def role_debug_page() -> rx.Component:
    return admin_frame(
        "Role Debug",
        notices(S.notice, S.error),
        rx.el.dl(
            *[
                rx.el.div(
                    rx.el.dt(label, class_name="text-xs font-semibold uppercase text-slate-500"),
                    rx.el.dd(
                        S.info.get(key, ""), class_name="break-all", data_testid=f"role-{key}"
                    ),
                    class_name="py-2 border-t border-slate-100 first:border-t-0",
                )
                for label, key in FIELDS
            ],
            class_name=CARD + " mt-6 p-4",
        ),
        rx.el.div(
            rx.el.button(
                "Synchronize Role", on_click=S.synchronize, class_name=SMALL_BUTTON, type="button"
            ),
            rx.el.button(
                "Test Admin Function",
                on_click=S.test_admin_function,
                class_name=SMALL_BUTTON,
                type="button",
            ),
            rx.el.button(
                "Refresh Role Info", on_click=S.refresh, class_name=SMALL_BUTTON, type="button"
            ),
            class_name="mt-4 flex flex-wrap gap-2",
        ),
        current="users",
    )
