"""Admin role debug (docs/product.md §2)."""

import reflex as rx

from storefront import routes
from storefront.components.admin_layout import CARD, SMALL_BUTTON, admin_frame, notices
from storefront.i18n import N_o, _o
from storefront.pages import registry
from storefront.state.admin_roles import RoleDebugState as S

FIELDS = [
    (N_o("User ID"), "user_id"),
    (N_o("Email"), "email"),
    (N_o("Frontend role"), "page_role"),
    (N_o("Frontend admin flag"), "page_admin"),
    (N_o("Database role"), "database_role"),
    (N_o("Database admin check"), "database_admin_check"),
    (N_o("User metadata"), "metadata"),
]


@registry.page(routes.ADMIN_ROLE_DEBUG, loaders=[S.load])
def role_debug_page() -> rx.Component:
    return admin_frame(
        _o("Role Debug"),
        notices(S.notice, S.error),
        rx.el.dl(
            *[
                rx.el.div(
                    rx.el.dt(
                        _o(label), class_name="text-xs font-semibold uppercase text-slate-500"
                    ),
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
                _o("Synchronize Role"),
                on_click=S.synchronize,
                class_name=SMALL_BUTTON,
                type="button",
            ),
            rx.el.button(
                _o("Test Admin Function"),
                on_click=S.test_admin_function,
                class_name=SMALL_BUTTON,
                type="button",
            ),
            rx.el.button(
                _o("Refresh Role Info"), on_click=S.refresh, class_name=SMALL_BUTTON, type="button"
            ),
            class_name="mt-4 flex flex-wrap gap-2",
        ),
        current="users",
    )
