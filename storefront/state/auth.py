"""Who is calling. The session token arrives in the HttpOnly cookie of the websocket
connection; the account it belongs to is read from the database at every event that needs it
(one indexed row) and kept in private (`_`) vars that never leave the server.

The guard (state/guard.py) decides which events need a signed-in caller or an admin; when the
caller of a tab changes (signed out, or another account), every private state of that tab is
reset before anything is sent, because a tab's token outlives the sign-in and `hydrate` sends
the whole state tree to whoever holds it (docs/architecture.md §3)."""

from __future__ import annotations

import json
import time

import reflex as rx

from storefront import i18n, routes
from storefront.services.accounts import auth
from storefront.services.booking import contact as booking_contact
from storefront.state.access import access, private_state_classes
from storefront.state.base import call_service


def cookie_header(state: rx.State) -> str:
    """The raw `Cookie:` header of the tab's websocket connection."""
    root = state._get_root_state()
    headers = (root.router_data or {}).get("headers") or {}
    return str(headers.get("cookie") or "")


# How long a session reading at hydrate serves the page-load events that follow it.
PAGE_LOAD_SECONDS = 2.0


@access("public", identity=True)
class AuthState(rx.State):
    # Private: what the server knows. Never sent to the browser.
    _user_id: str = ""
    _role: str = ""
    # The language of the back office the caller chose (their profile); English by default.
    _back_office_language: str = "en"
    # When the session was last read (wall clock: a tab's events may reach any worker).
    _identified_at: float = 0.0
    # Set at this tab's hydrate: a state without it was lost and starts blank (state/guard.py).
    _hydrated: bool = False

    # Public: only what the page shows.
    auth_loading: bool = True
    signed_in: bool = False
    is_admin: bool = False
    # Staff or an admin: the event-day screens (the day sheet, the week calendar) open to them.
    is_staff: bool = False
    user_name: str = ""
    user_email: str = ""
    avatar_url: str = ""
    # An admin who must set up two-factor sign-in before the admin screens serve them.
    two_factor_setup_needed: bool = False

    def _cookie(self, name: str) -> str | None:
        for part in cookie_header(self).split(";"):
            key, _, value = part.strip().partition("=")
            if key == name and value:
                return value
        return None

    async def _identify(self) -> None:
        """Read the caller's session and role from the database, as they are now."""
        token = self._cookie(auth.COOKIE_NAME)
        user = await call_service(auth.session_user, token=token) if token else None
        user_id = user.user_id if user else ""
        if user_id != self._user_id:
            await self._forget_private_states()
        self._user_id = user_id
        # The role the admin check grants now: an admin who must set up two-factor sign-in
        # first is not served as one (services/permissions.py says the same to the services).
        setup_needed = bool(user and user.two_factor_setup_needed)
        self._role = ("user" if setup_needed else user.role) if user else ""
        self.two_factor_setup_needed = setup_needed
        self.signed_in = user is not None
        self.is_admin = bool(user and user.is_admin)
        self.is_staff = self.is_admin or self._role == "staff"
        self.user_name = (user.full_name or user.email.split("@")[0]) if user else ""
        self.user_email = user.email if user else ""
        self.avatar_url = user.avatar_url if user else ""
        self._back_office_language = (user.language if user else "") or i18n.BACK_OFFICE_DEFAULT
        self._identified_at = time.time()

    async def _forget_private_states(self) -> None:
        """Reset every non-public state of this tab to its defaults."""
        root = self._get_root_state()
        for state_class in private_state_classes(type(root)):
            substate = await root.get_state(state_class)
            substate.reset()

    async def with_known_contact(self, form: dict[str, str]) -> dict[str, str]:
        """`form` with a signed-in caller's name, email and phone in the fields still empty
        (booking_contact.known_contact); as it is for a guest."""
        user_id, _role = await self._caller()
        if not user_id:
            return form
        known = await call_service(booking_contact.known_contact, user_id=user_id)
        return booking_contact.fill_known(form, known)

    async def _caller(self) -> tuple[str, str]:
        """(user id, role) of the caller as the database says now; empty when signed out."""
        await self._identify()
        return self._user_id, self._role

    def _path(self) -> str:
        """The current page, without the trailing slash static hosting adds."""
        return (self.router.url.path or "/").rstrip("/") or "/"

    async def _identify_for_page(self) -> None:
        """The page-load reading of the session, for what the page shows (the navbar, the
        guarded pages' spinner and redirect). A full page load read it a moment ago, at
        hydrate (state/guard.py), so it is not read twice: a page load costs one indexed
        lookup at most. Every guarded event still reads it itself."""
        if time.time() - self._identified_at > PAGE_LOAD_SECONDS:
            await self._identify()

    @rx.event
    async def check_session(self):
        """Runs on every page load; ends the spinner of guarded pages."""
        await self._identify_for_page()
        self.auth_loading = False

    async def _send_guests_to_sign_in(self):
        await self._identify_for_page()
        self.auth_loading = False
        if not self.signed_in:
            path = self._path()
            # From the back office, the site's own sign-in page (the default edition's).
            lang = i18n.site_language_of(path)
            return rx.redirect(i18n.href(auth.with_return(routes.SIGN_IN, path), lang))
        return None

    @rx.event
    async def require_account(self):
        """Page guard (comfort only; the real check is the event guard)."""
        return await self._send_guests_to_sign_in()

    @rx.event
    async def require_admin(self):
        """The back office's page guard (comfort only; the real check is the event guard):
        guests go to sign in; a signed-in account the page is not for stays and sees 'Access
        Denied' (the frame decides: staff see the event-day screens); an admin who must set up
        two-factor sign-in first goes to do so; an admin or staff member on the back office's
        other edition goes to the same page in the language they chose (their profile)."""
        leave = await self._send_guests_to_sign_in()
        if leave is None and self.two_factor_setup_needed:
            return rx.redirect(self._site_href(routes.ACCOUNT_SECURITY))
        return leave if leave is not None else self.follow_back_office_language()

    @rx.event
    async def keep_back_office_language(self):
        """For the back office's entry page (open to any signed-in account): a member of staff
        goes on to the day sheet, their screen; an admin who must set up two-factor sign-in
        first goes to do so, as from every other back-office page (the Security page says
        why)."""
        await self._identify_for_page()
        if self.two_factor_setup_needed:
            return rx.redirect(self._site_href(routes.ACCOUNT_SECURITY))
        if self.is_staff and not self.is_admin:
            target = i18n.href(routes.ADMIN_DAY, self._back_office_language)
            return rx.redirect(target, replace=True)
        return self.follow_back_office_language()

    def _site_href(self, route: str) -> str:
        """`route`, a page of the site, in the edition of the site the visitor is in: from the
        back office (whatever its language), the default edition, as its sign-in page is."""
        return i18n.href(route, i18n.site_language_of(self._path()))

    def follow_back_office_language(self):
        """A redirect to this back-office page in the admin's (or staff member's) own language,
        or None."""
        if not self.is_staff:
            return None
        path = self.router.url.path or "/"
        if i18n.language_of(path) == self._back_office_language:
            return None
        query = self.router.url.query or ""
        lang = self._back_office_language
        target = i18n.local_path(
            (path.rstrip("/") or "/") + (f"?{query}" if query else ""),
            lang=lang,
            default=i18n.href(routes.ADMIN, lang),
        )
        return rx.redirect(target, replace=True)

    @rx.event
    async def sign_out(self):
        """Forget this tab's private states now; the cookie route (a POST from this page) ends
        the session and clears the cookie, and the page it leads to shows the visitor signed
        out (not before: until then the session is still alive). A visitor of another edition
        than the default lands on its home page."""
        await self._forget_private_states()
        self.auth_loading = True
        home = self._site_href(routes.HOME)
        if home == routes.HOME:
            return post_and_leave(routes.AUTH_SIGN_OUT)
        return post_and_leave(auth.with_return(routes.AUTH_SIGN_OUT, home))


@access("account")
class AccountState(rx.State):
    """Base of states whose events need a signed-in caller (the guard also refuses events of
    any state that is not listed as public)."""

    async def _caller_id(self) -> str:
        auth_state = await self.get_state(AuthState)
        user_id, _role = await auth_state._caller()
        return user_id


@access("staff")
class StaffState(AccountState):
    """Base of the event-day screens' states: staff (drivers, decorators) and admins."""

    async def _staff_id(self) -> str:
        """The caller's id when the database says they are staff or an admin now, else ''."""
        auth_state = await self.get_state(AuthState)
        user_id, role = await auth_state._caller()
        return user_id if role in ("staff", "admin") else ""


@access("admin")
class AdminState(AccountState):
    """Base of states whose events need an admin."""

    async def _admin_id(self) -> str:
        """The caller's id when the database says they are an admin now, else ''."""
        auth_state = await self.get_state(AuthState)
        user_id, role = await auth_state._caller()
        return user_id if role == "admin" else ""


def post_and_leave(url: str) -> rx.event.EventSpec:
    """Submit an empty form to `url` (POST, with this page's Origin) and follow its answer."""
    return rx.call_script(
        "(() => { const f = document.createElement('form'); f.method = 'post'; "
        f"f.action = {json.dumps(url)}; document.body.appendChild(f); f.submit(); }})()"
    )


def sign_in_redirect(url: str, binding: str) -> rx.event.EventSpec:
    """Carry a sign-in ticket to the cookie route, with the `sf_bind` cookie it is bound to."""
    cookie = (
        f"{auth.BIND_COOKIE}={binding}; Max-Age={int(auth.TICKET_LIFETIME.total_seconds())}; "
        "Path=/api/auth; SameSite=Strict"
    )
    return rx.call_script(
        f"document.cookie = {json.dumps(cookie)} + "
        "(window.location.protocol === 'https:' ? '; Secure' : ''); "
        f"window.location.assign({json.dumps(url)})"
    )
