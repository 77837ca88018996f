"""Admin Login, Create Admin Account and Reset Password."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.auth_layout import (
    auth_layout,
    error_box,
    field,
    submit_button,
    success_box,
)
from storefront.i18n import _
from storefront.pages import registry
from storefront.state.sign_in import ResetPasswordState, SignInState, SignUpState

LINK = "text-fuchsia-700 font-semibold"
SIGN_IN_SUBTITLE = routes.declared(routes.SIGN_IN).description  # its meta description too
SIGN_UP_SUBTITLE = routes.declared(routes.SIGN_UP).description  # its meta description too
RESET_SUBTITLE = routes.declared(routes.RESET_PASSWORD).description  # its meta description too


def _oauth_buttons() -> rx.Component:
    def button(provider: str, label: str, href) -> rx.Component:
        return rx.cond(
            SignInState.providers.contains(provider),
            rx.el.a(
                label,
                href=href,
                class_name="flex-1 text-center py-2.5 rounded-full border-2 border-slate-200 "
                "font-semibold hover:border-fuchsia-300",
            ),
        )

    return rx.cond(
        SignInState.providers.length() > 0,
        rx.el.div(
            rx.el.p(_("or continue with"), class_name="text-center text-xs text-slate-500"),
            rx.el.div(
                button("google", "Google", SignInState.google_href),
                button("github", "GitHub", SignInState.github_href),
                class_name="mt-3 flex gap-3",
            ),
            class_name="mt-6",
        ),
    )


def _code_form() -> rx.Component:
    """The second step of an account with two-factor sign-in on."""
    return rx.el.form(
        error_box(SignInState.error),
        rx.el.p(
            _("Enter the 6-digit code from your authenticator app, or one of your recovery codes."),
            class_name="text-sm text-slate-600",
        ),
        field(
            _("Authentication code"),
            "code",
            required=True,
            auto_complete="one-time-code",
            input_mode="text",
            auto_focus=True,
            max_length=20,
        ),
        submit_button(_("Verify"), SignInState.busy, _("Verifying...")),
        rx.el.button(
            _("Back"),
            type="button",
            on_click=SignInState.cancel_code,
            class_name="w-full py-2.5 rounded-full border-2 border-slate-200 font-semibold",
        ),
        on_submit=SignInState.submit_code,
        reset_on_submit=True,
        class_name="space-y-4",
        data_testid="two-factor-form",
    )


@registry.page(routes.SIGN_IN, on_load=[SignInState.open_page, SignInState.open_second_step])
def sign_in_page() -> rx.Component:
    return auth_layout(
        _("Admin Login"),
        _(SIGN_IN_SUBTITLE),
        rx.cond(SignInState.needs_code, _code_form(), _password_step()),
    )


def _password_step() -> rx.Component:
    return rx.fragment(
        rx.el.form(
            error_box(SignInState.error),
            field(_("Email"), "email", "email", required=True, auto_complete="email"),
            field(
                _("Password"),
                "password",
                "password",
                required=True,
                auto_complete="current-password",
            ),
            rx.el.div(
                rx.el.label(
                    rx.el.input(type="checkbox", name="remember", class_name="mr-2"),
                    _("Remember me"),
                    class_name="flex items-center text-sm",
                ),
                rx.link(
                    _("Forgot password?"),
                    href=i18n.href(routes.RESET_PASSWORD),
                    class_name="text-sm " + LINK,
                ),
                class_name="flex items-center justify-between",
            ),
            submit_button(_("Sign In"), SignInState.busy, _("Signing in...")),
            on_submit=SignInState.submit,
            reset_on_submit=False,
            class_name="space-y-4",
            data_testid="sign-in-form",
        ),
        _oauth_buttons(),
        rx.el.p(
            _("Don't have an account? "),
            rx.link(
                _("Sign up"),
                href=f"{i18n.prefix()}{SignInState.sign_up_href}",
                class_name=LINK,
            ),
            class_name="mt-6 text-center text-sm",
        ),
    )


@registry.page(routes.SIGN_UP, on_load=[SignUpState.open_page])
def sign_up_page() -> rx.Component:
    return auth_layout(
        _("Create Admin Account"),
        _(SIGN_UP_SUBTITLE),
        rx.el.form(
            error_box(SignUpState.error),
            success_box(SignUpState.message),
            field(_("Full Name"), "full_name", required=True, auto_complete="name"),
            field(_("Email"), "email", "email", required=True, auto_complete="email"),
            field(
                _("Password"), "password", "password", required=True, auto_complete="new-password"
            ),
            field(
                _("Confirm Password"),
                "confirm",
                "password",
                required=True,
                auto_complete="new-password",
            ),
            rx.el.label(
                rx.el.input(type="checkbox", name="terms", required=True, class_name="mr-2 mt-1"),
                rx.el.span(
                    _("I agree to the "),
                    rx.link(_("Terms of Service"), href=i18n.href(routes.TERMS), class_name=LINK),
                    _(" and "),
                    rx.link(_("Privacy Policy"), href=i18n.href(routes.PRIVACY), class_name=LINK),
                ),
                class_name="flex items-start text-sm",
            ),
            submit_button(_("Create Account"), SignUpState.busy, _("Creating account...")),
            on_submit=SignUpState.submit,
            reset_on_submit=False,
            # Every press reaches the server, which says what is missing (the terms too): a
            # press the browser blocked left the message of the one before on screen.
            no_validate=True,
            class_name="space-y-4",
            data_testid="sign-up-form",
        ),
        rx.el.p(
            _("Already have an account? "),
            rx.link(
                _("Sign in"),
                href=f"{i18n.prefix()}{SignUpState.sign_in_href}",
                class_name=LINK,
            ),
            class_name="mt-6 text-center text-sm",
        ),
    )


def _request_form() -> rx.Component:
    return rx.cond(
        ResetPasswordState.sent,
        rx.el.div(
            success_box(_("Password reset link sent! Please check your email.")),
            rx.el.button(
                _("Try a different email"),
                on_click=ResetPasswordState.try_different_email,
                class_name="mt-4 w-full py-2.5 rounded-full border-2 border-slate-200 font-semibold",
            ),
        ),
        rx.el.form(
            error_box(ResetPasswordState.error),
            field(_("Email"), "email", "email", required=True, auto_complete="email"),
            submit_button(_("Send Reset Link"), ResetPasswordState.busy, _("Sending...")),
            on_submit=ResetPasswordState.request_link,
            reset_on_submit=False,
            class_name="space-y-4",
            data_testid="reset-request-form",
        ),
    )


def _new_password_form() -> rx.Component:
    return rx.el.form(
        error_box(ResetPasswordState.error),
        success_box(ResetPasswordState.message),
        field(
            _("New Password"), "password", "password", required=True, auto_complete="new-password"
        ),
        field(
            _("Confirm New Password"),
            "confirm",
            "password",
            required=True,
            auto_complete="new-password",
        ),
        submit_button(_("Update Password"), ResetPasswordState.busy, _("Updating...")),
        on_submit=ResetPasswordState.set_password,
        reset_on_submit=False,
        class_name="space-y-4",
        data_testid="new-password-form",
    )


@registry.page(
    routes.RESET_PASSWORD,
    on_load=[ResetPasswordState.read_link, ResetPasswordState.open_page],
)
def reset_password_page() -> rx.Component:
    return auth_layout(
        rx.cond(ResetPasswordState.recovery, _("Set New Password"), _("Reset Password")),
        rx.cond(
            ResetPasswordState.recovery,
            _("Choose a new password for your account."),
            _(RESET_SUBTITLE),
        ),
        rx.cond(ResetPasswordState.recovery, _new_password_form(), _request_form()),
        rx.el.p(
            rx.link(_("Back to sign in"), href=i18n.href(routes.SIGN_IN), class_name=LINK),
            class_name="mt-6 text-center text-sm",
        ),
    )
