"""'Initial Admin Setup' (SPEC 2, 4): when no admin exists at all, a signed-in account that opens
the admin area may name the first admin by the email of an existing account. An AccountState:
the guard lets only signed-in callers through; the role service allows the promotion only while
no admin exists, checked in the transaction that promotes."""

from __future__ import annotations

import reflex as rx

from storefront.services import users
from storefront.state.auth import AccountState, AuthState
from storefront.state.base import call_service

ROLE_MESSAGES = {"missing_email": "Please enter an email address"}
FAILED = "Failed to set first admin"
DONE = "First admin set successfully!"


class InitialAdminState(AccountState):
    admin_missing: bool = False
    email: str = ""
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
        self.notice = self.error = ""

    @rx.event
    def type_email(self, value: str):
        self.email = str(value)[:255]

    @rx.event
    async def submit(self):
        caller = await self._caller_id()
        if not caller:
            return
        try:
            await call_service(users.set_first_admin, actor_id=caller, email=self.email)
        except users.RoleError as exc:
            self.notice, self.error = "", ROLE_MESSAGES.get(exc.code, FAILED)
            return
        self.notice, self.error, self.admin_missing = DONE, "", False
        auth_state = await self.get_state(AuthState)
        await auth_state._identify()
