"""User Management: list accounts, 'Make Admin', and 'Initial Admin Setup'. An AdminState: the
guard refuses its events to anyone but an admin; the role service checks the caller again."""

from __future__ import annotations

import reflex as rx

from storefront.services import dates, users
from storefront.state.auth import AdminState
from storefront.state.base import call_service


class AdminUsersState(AdminState):
    rows: list[dict[str, str]] = []
    admin_count: int = 0
    notice: str = ""
    error: str = ""

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
