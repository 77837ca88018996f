"""'Initial Admin Setup' (docs/product.md §2, 4): when no admin exists at all, a signed-in account
that opens
the admin area may name the first admin by the email of an existing account. An AccountState:
the guard lets only signed-in callers through; services/accounts/first_admin.py allows the promotion only
while no admin exists, checked in the transaction that promotes, and on a public address only
with the one-time setup code from the server's log (docs/architecture.md §9.10)."""

from __future__ import annotations

import reflex as rx

from storefront.i18n import N_o, _o
from storefront.services.accounts import first_admin, users
from storefront.state.auth import AccountState, AuthState
from storefront.state.base import call_service
from storefront.state.sign_in import wait_message

FAILED = N_o("Failed to set first admin")
SETUP_MESSAGES = {
    "missing_email": N_o("Please enter an email address"),
    "code_invalid": N_o("Failed to set first admin: the setup code is not valid"),
}
CODE_MAX = 64

DONE = N_o("First admin set successfully!")


class InitialAdminState(AccountState):
    admin_missing: bool = False
    code_required: bool = False
    email: str = ""
    code: str = ""
    notice: str = ""
    error: str = ""

    @rx.event
    async def open_admin(self):
        """on_load of the admin area, after AuthState.require_account: whether the setup
        shows (no admin exists) instead of 'Access Denied' for a signed-in non-admin."""
        auth_state = await self.get_state(AuthState)
        user_id, _role = await auth_state._caller()
        if not user_id:
            return
        self.admin_missing = await call_service(users.admin_count) == 0
        self.code_required = first_admin.code_required()
        self.notice = self.error = ""

    @rx.event
    def type_email(self, value: str):
        self.email = str(value)[:255]

    @rx.event
    def type_code(self, value: str):
        self.code = str(value)[:CODE_MAX]

    @rx.event
    async def submit(self):
        caller = await self._caller_id()
        if not caller:
            return
        try:
            await call_service(
                first_admin.set_first_admin,
                actor_id=caller,
                email=self.email,
                code=self.code,
                ip=self.router.session.client_ip,
            )
        except first_admin.SetupError as exc:
            self.notice = ""
            if exc.code == "throttled":
                self.error = wait_message(int(exc.details.get("wait", 60)), what="attempts")
            else:
                self.error = _o(SETUP_MESSAGES.get(exc.code, FAILED))
            return
        self.notice, self.error, self.admin_missing, self.code = _o(DONE), "", False, ""
        auth_state = await self.get_state(AuthState)
        await auth_state._identify()
        if auth_state.is_admin:  # the page's figures were refused while it was not an admin
            from storefront.state.admin_dashboard import AdminDashboardState

            return AdminDashboardState.load
