"""Account, Security: two-factor sign-in with an authenticator app (services/accounts/two_factor.py).
An AccountState: the guard refuses guests; the service refuses non-admins. The secret is shown
only while being set up, and the recovery codes only once, right after; neither is kept in page
state after that."""

from __future__ import annotations

import logging

import reflex as rx

from storefront.i18n import N_, _
from storefront.services.accounts import two_factor
from storefront.state.auth import AccountState, AuthState
from storefront.state.base import call_service
from storefront.state.sign_in import wait_message

log = logging.getLogger(__name__)

# SPEC's English words (N_), translated where a handler shows them.
MESSAGES = {
    "invalid_code": N_("That code is not valid. Please try again."),
    "no_setup": N_("Please start the setup again."),
    "already_enabled": N_("Two-factor sign-in is already on."),
    "not_enabled": N_("Two-factor sign-in is off."),
    "not_allowed": N_("Two-factor sign-in is for admin accounts."),
    "link_needed": N_("Open the setup link we mailed to you to set up two-factor sign-in."),
}
FALLBACK = N_("Something went wrong. Please try again.")
TURNED_ON = N_("Two-factor sign-in is on. Keep your recovery codes somewhere safe.")
TURNED_OFF = N_("Two-factor sign-in is off.")
LINK_SENT = N_(
    "We sent a setup link to your email. Open it within 30 minutes to set up two-factor sign-in."
)


def message_for(error: two_factor.TwoFactorError) -> str:
    if error.code == "rate_limited":
        return wait_message(int(error.details.get("retry_after", 1)), what="attempts")
    return _(MESSAGES.get(error.code, FALLBACK))


class SecurityState(AccountState):
    enabled: bool = False
    required: bool = False
    recovery_codes_left: int = 0
    # Required for every admin and not on yet: setup starts from the link mailed to the
    # account (services/two_factor.send_setup_link); the link's token stays on the server.
    needs_link: bool = False
    _setup_link: str = ""
    # Only during setup: the QR code and the secret as text.
    setting_up: bool = False
    qr_code: str = ""
    secret_text: str = ""
    # Only right after setup, once.
    recovery_codes: list[str] = []
    error: str = ""
    notice: str = ""
    busy: bool = False

    def _forget_setup(self) -> None:
        self.setting_up, self.qr_code, self.secret_text = False, "", ""

    async def _refresh(self, user_id: str) -> None:
        status = await call_service(two_factor.status, user_id=user_id)
        self.enabled, self.required = status.enabled, status.required
        self.recovery_codes_left = status.recovery_codes_left
        self.needs_link = status.setup_needs_link and not self._setup_link

    @rx.event
    async def load(self):
        self._forget_setup()
        self.recovery_codes, self.error, self.notice, self.busy = [], "", "", False
        link = self.router.url.query_parameters.get(two_factor.SETUP_LINK_PARAM)
        self._setup_link = str(link or "")[:2048]
        user_id = await self._caller_id()
        if user_id:
            await self._refresh(user_id)

    @rx.event
    async def start_setup(self):
        user_id = await self._caller_id()
        if not user_id:
            return
        self.error, self.notice = "", ""
        try:
            setup = await call_service(
                two_factor.begin_setup, user_id=user_id, link=self._setup_link or None
            )
        except two_factor.TwoFactorError as exc:
            self.error = message_for(exc)
            return
        self.setting_up, self.qr_code, self.secret_text = True, setup.qr_data_uri, setup.secret_text

    @rx.event
    async def send_setup_link(self):
        user_id = await self._caller_id()
        if not user_id or self.busy:
            return
        self.busy, self.error, self.notice = True, "", ""
        yield
        try:
            await call_service(two_factor.send_setup_link, user_id=user_id)
        except two_factor.TwoFactorError as exc:
            self.busy, self.error = False, message_for(exc)
            return
        except Exception:
            log.exception("mailing the two-factor setup link failed")
            self.busy, self.error = False, _(FALLBACK)
            return
        self.busy, self.notice = False, _(LINK_SENT)

    @rx.event
    def cancel_setup(self):
        self._forget_setup()
        self.error = ""

    @rx.event
    async def confirm(self, form: dict):
        user_id = await self._caller_id()
        if not user_id or self.busy or not isinstance(form, dict):
            return
        self.busy, self.error = True, ""
        yield
        try:
            codes = await call_service(
                two_factor.confirm_setup, user_id=user_id, code=str(form.get("code") or "")[:64]
            )
        except two_factor.TwoFactorError as exc:
            self.busy, self.error = False, message_for(exc)
            return
        except Exception:
            log.exception("two-factor setup failed")
            self.busy, self.error = False, _(FALLBACK)
            return
        self._forget_setup()
        self.recovery_codes, self.notice, self.busy = codes, _(TURNED_ON), False
        await self._refresh(user_id)
        # An admin the setting held back is served again from now on.
        await (await self.get_state(AuthState))._identify()

    @rx.event
    def hide_recovery_codes(self):
        self.recovery_codes = []

    @rx.event
    async def disable(self, form: dict):
        user_id = await self._caller_id()
        if not user_id or self.busy or not isinstance(form, dict):
            return
        self.busy, self.error, self.notice = True, "", ""
        yield
        try:
            await call_service(
                two_factor.disable, user_id=user_id, proof=str(form.get("proof") or "")[:256]
            )
        except two_factor.TwoFactorError as exc:
            self.busy, self.error = False, message_for(exc)
            return
        except Exception:
            log.exception("turning two-factor off failed")
            self.busy, self.error = False, _(FALLBACK)
            return
        self.busy, self.notice, self.recovery_codes = False, _(TURNED_OFF), []
        await self._refresh(user_id)
        await (await self.get_state(AuthState))._identify()
