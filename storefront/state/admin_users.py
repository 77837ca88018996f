"""User Management: list accounts (searched and paged on the server), 'Make Admin', and
'Initial Admin Setup'. An AdminState: the guard refuses its events to anyone but an admin; the
role service checks the caller again."""

from __future__ import annotations

import reflex as rx

from storefront.i18n import N_o, _o
from storefront.services import dates, paging
from storefront.services.accounts import users
from storefront.state.auth import AdminState
from storefront.state.base import call_service

# The confirmation 'Make Admin' asks first: there is no way back on screen (no demotion).
CONFIRM_MAKE_ADMIN = N_o(
    "They will be able to open every admin screen and change bookings, services, users and "
    "settings. This screen cannot take the admin role away again."
)


STAFF_GIVEN = N_o("The user is now staff: they see the day sheet and the week calendar.")
STAFF_TAKEN = N_o("The user is no longer staff.")


class AdminUsersState(AdminState):
    rows: list[dict[str, str]] = []
    admin_count: int = 0
    search: str = ""
    page: int = 1
    pages: int = 1
    total: int = 0
    notice: str = ""
    error: str = ""
    # The user 'Make Admin' waits to be confirmed for ('' when no confirmation is open).
    confirm_user_id: str = ""
    confirm_email: str = ""

    async def _reload(self, caller: str) -> None:
        found = await call_service(
            users.users_page, actor_id=caller, search=self.search, page=self.page
        )
        self.admin_count = found.admin_count
        self.page, self.pages, self.total = found.page, found.pages, found.total
        self.rows = [
            {
                "id": str(u.id),
                "name": u.full_name or _o("N/A"),
                "email": u.email,
                "role": u.role if u.role in ("admin", "staff") else "user",
                "created_at": dates.local_date(u.created_at),
            }
            for u in found.users
        ]

    @rx.event
    async def load(self):
        self.notice = self.error = ""
        caller = await self._admin_id()  # the guard checked too; the list is private
        if caller:
            await self._reload(caller)

    @rx.event
    def type_search(self, value: str):
        self.search = str(value)[: users.SEARCH_MAX]

    @rx.event
    async def apply_search(self, _form: dict | None = None):
        self.page = 1
        await self.load()

    @rx.event
    async def next_page(self):
        self.page = paging.next_page(self.page, self.pages)
        await self.load()

    @rx.event
    async def previous_page(self):
        self.page = paging.previous_page(self.page)
        await self.load()

    @rx.event
    def ask_make_admin(self, user_id: str):
        """Open the confirmation for a user of the list shown (not yet an admin)."""
        row = next((r for r in self.rows if r["id"] == str(user_id) and r["role"] != "admin"), None)
        if row is not None:
            self.confirm_user_id, self.confirm_email = row["id"], row["email"]

    @rx.event
    def cancel_make_admin(self):
        self.confirm_user_id = self.confirm_email = ""

    @rx.event
    async def set_staff(self, user_id: str, staff: bool):
        """'Make Staff' / 'Remove Staff' (event-day operations: the day sheet and the calendar)."""
        caller = await self._admin_id()
        if not caller:
            return
        try:
            await call_service(
                users.set_staff_role,
                actor_id=caller,
                target_user_id=str(user_id)[:64],
                staff=bool(staff),
            )
        except users.RoleError as exc:
            self.notice, self.error = "", _o(exc.message)
        else:
            done = STAFF_GIVEN if staff else STAFF_TAKEN
            self.notice, self.error = _o(done), ""
        await self._reload(caller)

    @rx.event
    async def make_admin(self, user_id: str):
        self.confirm_user_id = self.confirm_email = ""
        caller = await self._admin_id()
        if not caller:
            return
        try:
            await call_service(
                users.set_admin_role, actor_id=caller, target_user_id=str(user_id)[:64]
            )
        except users.RoleError:
            self.notice, self.error = "", _o("Failed to set admin role")
        else:
            self.notice, self.error = _o("User has been set as admin successfully!"), ""
        await self._reload(caller)
