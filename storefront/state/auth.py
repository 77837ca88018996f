"""Who is calling. The session token arrives in the HttpOnly cookie of the websocket
connection; the account it belongs to is kept in private (`_`) vars that never leave the
server. States that need a signed-in caller derive from AccountState, admin states from
AdminState; the guard (state/guard.py) refuses their events to anyone else."""

from __future__ import annotations

import json
import time
from urllib.parse import quote

import reflex as rx

from storefront import routes
from storefront.services import auth
from storefront.state.base import call_service

RECHECK_SECONDS = 60


class AuthState(rx.State):
    # Private: what the server knows. Never sent to the browser.
    _user_id: str = ""
    _role: str = ""
    _checked_at: float = 0.0
    _token_hash: str = ""

    # Public: only what the page shows.
    auth_loading: bool = True
    signed_in: bool = False
    is_admin: bool = False
    user_name: str = ""
    user_email: str = ""
    avatar_url: str = ""

    def _cookie_token(self) -> str | None:
        return auth.token_from_cookie_header(self.router.headers.raw_headers.get("cookie"))

    async def _identify(self, *, force: bool = False) -> None:
        """Validate the cookie's session (again after RECHECK_SECONDS, or when forced)."""
        token = self._cookie_token()
        token_hash = auth.hash_token(token) if token else ""
        fresh = time.monotonic() - self._checked_at < RECHECK_SECONDS
        if not force and fresh and token_hash == self._token_hash:
            return
        user = await call_service(auth.session_user, token=token) if token else None
        self._token_hash, self._checked_at = token_hash, time.monotonic()
        self._user_id = user.user_id if user else ""
        self._role = user.role if user else ""
        self.signed_in = user is not None
        self.is_admin = bool(user and user.is_admin)
        self.user_name = (user.full_name or user.email.split("@")[0]) if user else ""
        self.user_email = user.email if user else ""
        self.avatar_url = user.avatar_url if user else ""

    async def _caller(self) -> tuple[str, str]:
        """(user id, role) of the caller, empty when signed out."""
        await self._identify()
        return self._user_id, self._role

    def _path(self) -> str:
        """The current page, without the trailing slash static hosting adds."""
        return (self.router.url.path or "/").rstrip("/") or "/"

    @rx.event
    async def check_session(self):
        """Runs on every page load; ends the spinner of guarded pages."""
        await self._identify(force=True)
        self.auth_loading = False

    @rx.event
    async def require_account(self):
        """Page guard (comfort only; the real check is the event guard)."""
        await self._identify(force=True)
        self.auth_loading = False
        if not self.signed_in:
            return rx.redirect(f"/sign-in?redirectTo={quote(self._path())}")

    @rx.event
    async def require_admin(self):
        await self._identify(force=True)
        self.auth_loading = False
        if not self.signed_in:
            return rx.redirect(f"/sign-in?redirectTo={quote(self._path())}")
        if not self.is_admin:
            return rx.redirect("/")

    @rx.event
    def sign_out(self):
        """The cookie route ends the session and clears the cookie."""
        self.auth_loading = True
        return full_page_redirect(routes.AUTH_SIGN_OUT)


class AccountState(rx.State):
    """Base of states whose events need a signed-in caller."""

    async def _caller_id(self) -> str:
        auth_state = await self.get_state(AuthState)
        user_id, _role = await auth_state._caller()
        return user_id


class AdminState(AccountState):
    """Base of states whose events need an admin."""


def full_page_redirect(url: str) -> rx.event.EventSpec:
    """Leave the single-page app for a plain HTTP route (the cookie routes), which React
    Router's navigation would not reach."""
    return rx.call_script(f"window.location.assign({json.dumps(url)})")
