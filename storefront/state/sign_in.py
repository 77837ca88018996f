"""The sign-in, sign-up and password reset forms. They run as events; a success hands the
browser to the cookie route with a one-time ticket."""

from __future__ import annotations

import asyncio
import logging
from urllib.parse import quote

import reflex as rx

from storefront.services import auth, oauth, password_reset
from storefront.state.auth import AuthState, full_page_redirect
from storefront.state.base import call_service

log = logging.getLogger(__name__)

SIGN_UP_REDIRECT_SECONDS = 1.5
PASSWORD_UPDATED_REDIRECT_SECONDS = 2.0
SIGN_IN_FALLBACK = "An error occurred during sign in"
SIGN_UP_FALLBACK = "An error occurred during registration"
UPDATE_FALLBACK = "An error occurred while updating your password"
SIGN_IN_ERRORS = {
    "invalid_credentials": "Invalid login credentials",
    "missing_fields": "Please enter your email and password",
}
QUERY_ERRORS = {"expired": "Your sign-in took too long. Please try again."}


_PENDING: set[asyncio.Task] = set()


def _finished_reset(task: asyncio.Task) -> None:
    _PENDING.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.error("password reset request failed", exc_info=task.exception())


class AuthFormState(rx.State):
    """What the three auth screens share: the target after signing in, errors, the busy flag."""

    redirect_to: str = auth.DEFAULT_AFTER_SIGN_IN
    error: str = ""
    message: str = ""
    busy: bool = False
    providers: list[str] = []

    @rx.event
    async def open_page(self):
        """on_load: an already signed-in visitor goes straight on (SPEC 4)."""
        params = self.router.url.query_parameters
        self.redirect_to = auth.safe_redirect(params.get("redirectTo"))
        self.error, self.message, self.busy = "", "", False
        self.providers = oauth.enabled_providers()
        if params.get("error") == "oauth":
            provider = str(params.get("provider", "provider"))[:20]
            self.error = f"Error signing in with {provider}"
        elif params.get("error") in QUERY_ERRORS:
            self.error = QUERY_ERRORS[params["error"]]
        auth_state = await self.get_state(AuthState)
        await auth_state._identify(force=True)
        auth_state.auth_loading = False
        if auth_state.signed_in and auth_state._path() != "/reset-password":
            return rx.redirect(self.redirect_to)

    @rx.var
    def sign_up_href(self) -> str:
        return f"/sign-up?redirectTo={quote(self.redirect_to)}"

    @rx.var
    def sign_in_href(self) -> str:
        return f"/sign-in?redirectTo={quote(self.redirect_to)}"

    @rx.var
    def google_href(self) -> str:
        return f"/api/auth/oauth/google/start?redirectTo={quote(self.redirect_to)}"

    @rx.var
    def github_href(self) -> str:
        return f"/api/auth/oauth/github/start?redirectTo={quote(self.redirect_to)}"


class SignInState(AuthFormState):
    @rx.event
    async def submit(self, form: dict):
        if self.busy or not isinstance(form, dict):
            return
        email = str(form.get("email") or "")[:255]
        password = str(form.get("password") or "")[: auth.PASSWORD_MAX_LENGTH]
        remember = bool(form.get("remember"))
        self.busy, self.error = True, ""
        yield
        try:
            result = await call_service(
                auth.sign_in, email=email, password=password, ip=self.router.session.client_ip
            )
        except Exception:
            log.exception("sign-in failed")
            self.busy, self.error = False, SIGN_IN_FALLBACK
            return
        if result.user is None:
            self.busy = False
            if result.error == "rate_limited":
                self.error = (
                    "Too many sign-in attempts. Please wait "
                    f"{result.retry_after} seconds and try again."
                )
            else:
                self.error = SIGN_IN_ERRORS.get(result.error or "", SIGN_IN_FALLBACK)
            return
        ticket = auth.issue_ticket(result.user.id, remember=remember)
        yield full_page_redirect(auth.completion_url(ticket, self.redirect_to))


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
            user, first = await call_service(
                auth.register, accepted_terms=bool(form.get("terms")), **fields
            )
        except auth.AuthError as exc:
            self.busy, self.error = False, exc.message
            return
        except Exception:
            log.exception("sign-up failed")
            self.busy, self.error = False, SIGN_UP_FALLBACK
            return
        self.message = (
            "Registration successful! You are now an admin."
            if first
            else "Registration successful!"
        )
        yield
        await asyncio.sleep(SIGN_UP_REDIRECT_SECONDS)
        target = auth.after_sign_up(self.redirect_to, is_admin=first)
        ticket = auth.issue_ticket(user.id, remember=False)
        yield full_page_redirect(auth.completion_url(ticket, target))


class ResetPasswordState(AuthFormState):
    sent: bool = False

    @rx.var
    def recovery(self) -> bool:
        """The mailed link opens the 'Set New Password' form."""
        params = self.router.url.query_parameters
        return params.get("type") == "recovery" and bool(params.get("token"))

    @rx.event
    async def request_link(self, form: dict):
        if self.busy or not isinstance(form, dict):
            return
        email = str(form.get("email") or "").strip()[:255]
        if not email:
            self.error = "Please enter your email address"
            return
        # The answer must not tell whether the account exists, not even by its timing: the
        # link is made and mailed in the background and the page answers at once.
        task = asyncio.create_task(call_service(password_reset.request_reset, email=email))
        _PENDING.add(task)
        task.add_done_callback(_finished_reset)
        self.busy, self.sent, self.error = False, True, ""

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
        except (auth.AuthError, password_reset.PasswordResetError) as exc:
            self.busy, self.error = False, exc.message
            return
        except Exception:
            log.exception("password update failed")
            self.busy, self.error = False, UPDATE_FALLBACK
            return
        self.message = "Password updated successfully!"
        yield
        await asyncio.sleep(PASSWORD_UPDATED_REDIRECT_SECONDS)
        yield rx.redirect("/sign-in")
