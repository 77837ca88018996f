"""The 'Initial Admin Setup' box, shown while no admin exists."""

import reflex as rx

from storefront.components.ui import PRIMARY_BUTTON, error_box, success_box
from storefront.i18n import _o
from storefront.state.first_admin import InitialAdminState

INPUT = "w-full max-w-md px-4 py-2 rounded-lg border-2 border-slate-200"


def _input(label: str, name: str, *, label_class: str, input_class: str, **props):
    """A label and its input, with ids 'first-admin-<name>'."""
    input_id = f"first-admin-{name}"
    return rx.fragment(
        rx.el.label(label, html_for=input_id, class_name=label_class),
        rx.el.input(id=input_id, class_name=input_class, **props),
    )


def first_admin_setup() -> rx.Component:
    return rx.el.section(
        rx.el.h2(_o("Initial Admin Setup"), class_name="font-bold"),
        rx.el.p(
            _o(
                "No admin exists yet. Enter the email of an existing user to make them the "
                "first admin."
            ),
            class_name="mt-1 text-sm text-slate-600",
        ),
        _input(
            _o("Email"),
            "email",
            label_class="sr-only",
            input_class="mt-3 " + INPUT,
            type="email",
            value=InitialAdminState.email,
            on_change=InitialAdminState.type_email,
            placeholder=_o("Email of an existing user"),
        ),
        rx.cond(
            InitialAdminState.code_required,
            rx.el.div(
                _input(
                    _o("Setup code"),
                    "code",
                    label_class="block text-sm font-medium text-slate-700",
                    input_class="mt-1 " + INPUT + " font-mono uppercase",
                    type="text",
                    value=InitialAdminState.code,
                    on_change=InitialAdminState.type_code,
                    placeholder="XXXX-XXXX-XXXX-XXXX",
                    auto_complete="off",
                    spell_check=False,
                    aria_describedby="first-admin-code-hint",
                ),
                rx.el.p(
                    _o(
                        "The one-time setup code is in the server's log (the line 'First-admin "
                        "setup code'), or run: {command}"
                    ).format(command="python -m storefront.manage setup-code"),
                    id="first-admin-code-hint",
                    class_name="mt-1 text-xs text-slate-600",
                ),
                class_name="mt-3",
            ),
        ),
        rx.el.div(
            rx.el.button(
                _o("Make First Admin"),
                on_click=InitialAdminState.submit,
                class_name=PRIMARY_BUTTON,
            ),
            class_name="mt-3",
        ),
        rx.el.div(
            success_box(InitialAdminState.notice, "first-admin-notice"),
            error_box(InitialAdminState.error, "first-admin-error"),
            class_name="mt-3 space-y-2",
        ),
        class_name="mt-6 rounded-2xl border border-amber-200 bg-amber-50 p-5",
        data_testid="first-admin-setup",
    )
