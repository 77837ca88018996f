"""The sign-in, sign-up and password reset forms. They run as events; a success hands the
browser to the cookie route with a one-time ticket bound to this browser."""

from __future__ import annotations

import asyncio
import logging

import reflex as rx

from storefront import i18n, routes
from storefront.i18n import N_, _, ngettext
from storefront.services.accounts import auth, oauth, password_reset, two_factor
from storefront.state.access import access
from storefront.state.auth import AuthState, sign_in_redirect
from storefront.state.base import call_service

log = logging.getLogger(__name__)

SIGN_UP_REDIRECT_SECONDS = 1.5
PASSWORD_UPDATED_REDIRECT_SECONDS = 2.0
# The messages below are SPEC's English words, marked with N_ and translated (`_()`)
# where a handler shows them, in the language of the page that sent the event.
SIGN_IN_FALLBACK = N_("An error occurred during sign in")
SIGN_UP_FALLBACK = N_("An error occurred during registration")
UPDATE_FALLBACK = N_("An error occurred while updating your password")
RESET_FALLBACK = N_("An error occurred during password reset request")
# Service codes -> the messages the spec gives (or, where it gives none, plain ones).
AUTH_MESSAGES = {
    "invalid_credentials": N_("Invalid login credentials"),
    "missing_fields": N_("Please fill in all fields"),
    "invalid_email": N_("Email is invalid"),
    "weak_password": N_("Password must be at least 8 characters long"),
    "common_password": auth.COMMON_PASSWORD_MESSAGE,
    "password_too_long": N_("Password is too long"),
    "passwords_mismatch": N_("Passwords do not match"),
    "terms_required": N_("Please accept the Terms of Service and Privacy Policy"),
    "email_taken": N_("An account with this email already exists"),
    "missing_email": N_("Please enter your email address"),
    "invalid_or_expired": password_reset.INVALID_LINK_MESSAGE,
}
SIGN_IN_MISSING = N_("Please enter your email and password")
CODE_MESSAGES = {
    "invalid_code": N_("That code is not valid. Please try again."),
    "expired": N_("Your sign-in took too long. Please sign in again."),
    "missing": N_("Please enter the 6-digit code from your authenticator app"),
    "locked": N_(
        "Too many wrong codes: two-factor sign-in is locked. Sign in with one of your recovery "
        "codes, or ask the site's operator to reset it."
    ),
}
QUERY_ERRORS = {"expired": N_("Your sign-in took too long. Please try again.")}


def wait_message(seconds: int, *, what: str = "sign-in attempts") -> str:
    """'Please wait 1 second', 'Please wait 2 seconds'; `what`: 'sign-in attempts' or
    'attempts'."""
    if what == "attempts":
        text = ngettext(
            "Too many attempts. Please wait {seconds} second and try again.",
            "Too many attempts. Please wait {seconds} seconds and try again.",
            seconds,
        )
    else:
        text = ngettext(
            "Too many sign-in attempts. Please wait {seconds} second and try again.",
            "Too many sign-in attempts. Please wait {seconds} seconds and try again.",
            seconds,
        )
    return text.format(seconds=seconds)


def said(messages: dict[str, str], key: str, fallback: str = "") -> str:
    """`messages[key]` (N_-marked) in the language of the moment; `fallback` when it has none."""
    text = messages.get(key, fallback)
    return _(text) if text else ""


def message_for(error: auth.AuthError | password_reset.PasswordResetError, fallback: str) -> str:
    """The words for `error` in the language of the moment (`fallback`: N_-marked)."""
    if error.code == "rate_limited":
        return wait_message(int(error.details.get("retry_after", 1)), what="attempts")
    if error.code == "invalid_name":
        return error.message  # the field rule's words: on two lines, or an invisible character
    return said(AUTH_MESSAGES, error.code, fallback)


def in_edition(path: str | None) -> str:
    """`path` (a page of this site, in any edition) in the edition of the page the visitor is
    on: a sign-in on /en/sign-in leads to /en/account. A back-office page stays as it is: the
    back office opens in the language its admin chose (state/auth.py). Anything but a path of
    this site, before or after the change, gives the sign-in's default (i18n.local_path)."""
    default = auth.DEFAULT_AFTER_SIGN_IN
    if i18n.is_back_office(i18n.split(str(path or "/"))[1]):
        return i18n.local_path(path, default=default)
    return i18n.local_path(path, lang=i18n.language(), default=default)


def landing(redirect_to: str, account: auth.SignedInUser) -> str:
    """Where a signed-in account goes: an admin who must set up two-factor goes to do so. In
    the visitor's edition."""
    if account.two_factor_setup_needed:
        return in_edition(routes.ACCOUNT_SECURITY)
    return in_edition(
        auth.landing_after_sign_in(
            redirect_to, is_admin=account.is_admin, is_staff=account.is_staff
        )
    )


def _carry_ticket(user_id: str, remember: bool, target: str) -> rx.event.EventSpec:
    binding = auth.new_binding()
    ticket = auth.issue_ticket(user_id, remember=remember, binding=binding)
    return sign_in_redirect(auth.completion_url(ticket, target), binding)


@access("public")
class AuthFormState(rx.State):
    """What the three auth screens share: the target after signing in, errors, the busy flag."""

    redirect_to: str = auth.DEFAULT_AFTER_SIGN_IN
    error: str = ""
    message: str = ""
    busy: bool = False
    providers: list[str] = []

    @rx.event
    async def open_page(self):
        """on_load: an already signed-in visitor goes straight on (docs/product.md §4)."""
        params = self.router.url.query_parameters
        # In this page's edition, so every way on (the form, OAuth, the sign-up link) keeps it.
        self.redirect_to = in_edition(params.get("redirectTo"))
        self.error, self.message, self.busy = "", "", False
        self.providers = oauth.enabled_providers()
        if params.get("error") == "oauth":
            provider = oauth.label_from_query(params.get("provider"))
            self.error = _(oauth.FALLBACK_MESSAGE).format(provider=provider)
        elif params.get("error") in QUERY_ERRORS:
            self.error = said(QUERY_ERRORS, params["error"])
        auth_state = await self.get_state(AuthState)
        await auth_state._identify()
        auth_state.auth_loading = False
        if auth_state.signed_in and i18n.split(auth_state._path())[1] != routes.RESET_PASSWORD:
            return rx.redirect(in_edition(self.redirect_to))

    @rx.var
    def sign_up_href(self) -> str:
        return auth.with_return(routes.SIGN_UP, self.redirect_to)

    @rx.var
    def sign_in_href(self) -> str:
        return auth.with_return(routes.SIGN_IN, self.redirect_to)

    @rx.var
    def google_href(self) -> str:
        return auth.with_return(routes.OAUTH_START.format(provider="google"), self.redirect_to)

    @rx.var
    def github_href(self) -> str:
        return auth.with_return(routes.OAUTH_START.format(provider="github"), self.redirect_to)


class SignInState(AuthFormState):
    # The second step of an account with two-factor on: the signed ticket of its password step
    # stays on the server (services/accounts/two_factor.py); the page only knows a code is asked for.
    _pending: str = ""
    needs_code: bool = False

    @rx.event
    async def open_second_step(self):
        """on_load, after open_page: a new visit starts at the password, except when the OAuth
        callback sent this browser here with its ticket (an HttpOnly cookie) for the code."""
        self._pending, self.needs_code = "", False
        auth_state = await self.get_state(AuthState)
        ticket = auth_state._cookie(two_factor.PENDING_COOKIE)
        step = self.router.url.query_parameters.get("step")
        if step == two_factor.SIGN_IN_STEP and two_factor.pending_is_valid(ticket):
            self._pending, self.needs_code = str(ticket), True

    @rx.event
    def cancel_code(self):
        self._pending, self.needs_code, self.error, self.busy = "", False, "", False

    @rx.event
    async def submit_code(self, form: dict):
        if self.busy or not isinstance(form, dict):
            return
        code = str(form.get("code") or "").strip()[:64]
        if not self._pending:
            self.needs_code, self.error = False, said(CODE_MESSAGES, "expired")
            return
        if not code:
            self.error = said(CODE_MESSAGES, "missing")
            return
        self.busy, self.error = True, ""
        yield
        try:
            done = await call_service(
                two_factor.complete_sign_in,
                ticket=self._pending,
                code=code,
                ip=self.router.session.client_ip,
            )
        except two_factor.TwoFactorError as exc:
            self.busy = False
            if exc.code == "rate_limited":
                self.error = wait_message(int(exc.details.get("retry_after", 1)))
            else:
                self.error = said(CODE_MESSAGES, exc.code, SIGN_IN_FALLBACK)
            if exc.code == "expired":
                self._pending, self.needs_code = "", False
            return
        except Exception:
            log.exception("two-factor sign-in failed")
            self.busy, self.error = False, _(SIGN_IN_FALLBACK)
            return
        self._pending = ""
        yield _carry_ticket(
            done.account.user_id, done.remember, landing(self.redirect_to, done.account)
        )

    @rx.event
    async def submit(self, form: dict):
        if self.busy or not isinstance(form, dict):
            return
        email = str(form.get("email") or "")[:255]
        password = str(form.get("password") or "")[: auth.PASSWORD_MAX_LENGTH]
        remember = bool(form.get("remember"))
        auth_state = await self.get_state(AuthState)
        self.busy, self.error = True, ""
        yield
        try:
            account = await call_service(
                auth.sign_in,
                email=email,
                password=password,
                ip=self.router.session.client_ip,
                device=auth_state._cookie(auth.DEVICE_COOKIE),
            )
        except auth.AuthError as exc:
            self.busy = False
            if exc.code == "rate_limited":
                self.error = wait_message(int(exc.details.get("retry_after", 1)))
            elif exc.code == "missing_fields":
                self.error = _(SIGN_IN_MISSING)
            else:
                self.error = message_for(exc, SIGN_IN_FALLBACK)
            return
        except Exception:
            log.exception("sign-in failed")
            self.busy, self.error = False, _(SIGN_IN_FALLBACK)
            return
        if await call_service(two_factor.is_enabled, user_id=account.user_id):
            # The password was right; the sign-in completes only with a code (submit_code).
            self._pending = two_factor.pending_ticket(account.user_id, remember=remember)
            self.busy, self.needs_code = False, True
            return
        yield _carry_ticket(account.user_id, remember, landing(self.redirect_to, account))


class SignUpState(AuthFormState):
    @rx.event
    async def submit(self, form: dict):
        if self.busy or not isinstance(form, dict):
            return
        fields = {
            k: str(form.get(k) or "")[:300] for k in ("full_name", "email", "password", "confirm")
        }
        self.busy, self.error, self.message = True, "", ""
        yield
        try:
            account = await call_service(
                auth.register,
                accepted_terms=bool(form.get("terms")),
                ip=self.router.session.client_ip,
                **fields,
            )
        except auth.AuthError as exc:
            self.busy, self.error = False, message_for(exc, SIGN_UP_FALLBACK)
            return
        except Exception:
            log.exception("sign-up failed")
            self.busy, self.error = False, _(SIGN_UP_FALLBACK)
            return
        self.message = (
            _("Registration successful! You are now an admin.")
            if account.is_admin
            else _("Registration successful!")
        )
        yield
        await asyncio.sleep(SIGN_UP_REDIRECT_SECONDS)
        yield _carry_ticket(account.user_id, False, landing(self.redirect_to, account))


class ResetPasswordState(AuthFormState):
    sent: bool = False
    # The mailed link opens the 'Set New Password' form. Set at the page's load, not computed
    # from the router: a computed var that reads the router is loaded with every event of every
    # tab (docs/architecture.md §3).
    recovery: bool = False

    @rx.event
    def read_link(self):
        """on_load, before `open_page`: which of the page's two forms the address asks for."""
        params = self.router.url.query_parameters
        self.recovery = params.get("type") == "recovery" and bool(params.get("token"))

    @rx.event
    async def request_link(self, form: dict):
        if self.busy or not isinstance(form, dict):
            return
        email = str(form.get("email") or "").strip()[:255]
        if not email:
            self.error = said(AUTH_MESSAGES, "missing_email")
            return
        # The answer does not tell whether the account exists: the mail goes out through the
        # outbox, so the page answers as fast either way.
        self.busy, self.error = True, ""
        yield
        try:
            await call_service(
                password_reset.request_reset, email=email, ip=self.router.session.client_ip
            )
        except password_reset.PasswordResetError as exc:
            self.busy, self.error = False, message_for(exc, RESET_FALLBACK)
            return
        except Exception:
            log.exception("password reset request failed")
            self.busy, self.error = False, _(RESET_FALLBACK)
            return
        self.busy, self.sent = False, True

    @rx.event
    def try_different_email(self):
        self.sent, self.error = False, ""

    @rx.event
    async def set_password(self, form: dict):
        if self.busy or not isinstance(form, dict):
            return
        token = str(self.router.url.query_parameters.get("token") or "")[:200]
        self.busy, self.error, self.message = True, "", ""
        yield
        try:
            await call_service(
                password_reset.complete_reset,
                token=token,
                password=str(form.get("password") or "")[: auth.PASSWORD_MAX_LENGTH],
                confirm=str(form.get("confirm") or "")[: auth.PASSWORD_MAX_LENGTH],
            )
        except password_reset.PasswordResetError as exc:
            self.busy, self.error = False, message_for(exc, UPDATE_FALLBACK)
            return
        except Exception:
            log.exception("password update failed")
            self.busy, self.error = False, _(UPDATE_FALLBACK)
            return
        self.message = _("Password updated successfully!")
        yield
        await asyncio.sleep(PASSWORD_UPDATED_REDIRECT_SECONDS)
        yield rx.redirect(i18n.href(routes.SIGN_IN))
