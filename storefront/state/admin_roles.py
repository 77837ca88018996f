"""Admin role debug (docs/product.md §2): the caller's role as the page shows it beside what the
database
says, and the three buttons. An AdminState; the role service answers from the database."""

from __future__ import annotations

import reflex as rx

from storefront.i18n import N_o, _o
from storefront.services.accounts import users
from storefront.state.auth import AdminState, AuthState
from storefront.state.base import call_service
from storefront.state.errors import log_failure

CHECK_FAILED = N_o("Failed to check role")
SYNC_FAILED = N_o("Failed to sync role")
SYNCED = N_o("Role synchronized successfully")
ADMIN_OK = N_o("Admin function successful! You have proper admin permissions.")
ADMIN_FAILED = N_o("Admin function failed: {message}")


class RoleDebugState(AdminState):
    info: dict[str, str] = {}
    notice: str = ""
    error: str = ""

    async def _read(self, caller: str) -> None:
        auth_state = await self.get_state(AuthState)
        try:
            found = await call_service(users.role_info, actor_id=caller)
        except Exception as exc:
            log_failure("RoleDebugState._read", exc)
            self.error = _o(CHECK_FAILED)
            return
        self.info = {
            "user_id": found.user_id,
            "email": found.email,
            "page_role": "admin" if auth_state.is_admin else "user",
            "page_admin": "true" if auth_state.is_admin else "false",
            "database_role": found.role_in_database,
            "database_admin_check": "true" if found.admin_check else "false",
            "metadata": f"full_name: {found.full_name or 'N/A'}, role: {found.role_in_database}",
        }

    @rx.event
    async def load(self):
        self.notice = self.error = ""
        caller = await self._admin_id()
        if caller:
            await self._read(caller)

    @rx.event
    async def refresh(self):
        await self.load()

    @rx.event
    async def synchronize(self):
        caller = await self._admin_id()
        if not caller:
            return
        self.notice = self.error = ""
        try:
            await call_service(users.sync_user_role, actor_id=caller, target_user_id=caller)
        except Exception as exc:
            log_failure("RoleDebugState.synchronize", exc)
            self.error = _o(SYNC_FAILED)
            return
        self.notice = _o(SYNCED)
        await self._read(caller)

    @rx.event
    async def test_admin_function(self):
        caller = await self._admin_id()
        if not caller:
            return
        self.notice = self.error = ""
        try:
            await call_service(users.admin_function, actor_id=caller)
        except users.RoleError as exc:
            # the role service's words (services/accounts/users.py's RoleError, marked there)
            self.error = _o(ADMIN_FAILED).format(message=_o(exc.message))
            return
        self.notice = _o(ADMIN_OK)
