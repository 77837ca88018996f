"""User Management: list accounts, 'Make Admin', and 'Initial Admin Setup'. An AdminState: the
guard refuses its events to anyone but an admin; the role service checks the caller again."""

from __future__ import annotations

import reflex as rx

from storefront.services import dates, users
from storefront.state.auth import AdminState, AuthState
from storefront.state.base import call_service


class AdminUsersState(AdminState):
    rows: list[dict[str, str]] = []
    admin_count: int = 0
    notice: str = ""
    error: str = ""
    first_admin_email: str = ""

    async def _reload(self) -> None:
        listed = await call_service(users.list_users)
        self.admin_count = sum(1 for u in listed if u.role == "admin")
        self.rows = [
            {
                "id": str(u.id),
                "name": u.full_name or "N/A",
                "email": u.email,
                "role": "admin" if u.role == "admin" else "user",
                "created_at": dates.local_date(u.created_at),
            }
            for u in listed
        ]

    @rx.event
    async def load(self):
        self.notice = self.error = ""
        if not await self._admin_id():  # the guard checked too; the list is private
            return
        await self._reload()

    @rx.event
    async def make_admin(self, user_id: str):
        caller = await self._admin_id()
        if not caller:
            return
        try:
            await call_service(
                users.set_admin_role, actor_id=caller, target_user_id=str(user_id)[:64]
            )
        except users.RoleError:
            self.notice, self.error = "", "Failed to set admin role"
        else:
            self.notice, self.error = "User has been set as admin successfully!", ""
        await self._reload()

    @rx.event
    def type_first_admin_email(self, value: str):
        self.first_admin_email = str(value)[:255]

    @rx.event
    async def set_first_admin(self):
        if not self.first_admin_email.strip():
            self.error = "Please enter an email address"
            return
        caller = await self._caller_id()
        try:
            await call_service(users.set_first_admin, actor_id=caller, email=self.first_admin_email)
        except users.RoleError:
            self.notice, self.error = "", "Failed to set first admin"
        else:
            self.notice, self.error = "First admin set successfully!", ""
            auth_state = await self.get_state(AuthState)
            await auth_state._identify()
        await self._reload()
