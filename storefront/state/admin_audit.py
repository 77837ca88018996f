"""The audit log viewer. An AdminState; the audit service checks the role again."""

from __future__ import annotations

import reflex as rx

from storefront.i18n import N_o, _o
from storefront.services import audit, paging
from storefront.state.auth import AdminState
from storefront.state.base import call_service
from storefront.state.errors import log_failure

LOAD_FAILED = N_o("Failed to load the audit log")
BAD_FILTER = N_o("Please check the filter: dates as DD.MM.YYYY.")


class AdminAuditState(AdminState):
    entries: list[dict[str, str]] = []
    # The entity filter's choices: the stored code and its name in the back office's words.
    entity_types: list[dict[str, str]] = []
    actor: str = ""
    entity_type: str = ""
    date_from: str = ""
    date_to: str = ""
    page: int = 1
    pages: int = 1
    total: int = 0
    error: str = ""

    @rx.event
    async def load(self):
        self.error = ""
        caller = await self._admin_id()
        if not caller:
            return
        try:
            found = await call_service(
                audit.entries,
                actor_id=caller,
                actor=self.actor,
                entity_type=self.entity_type,
                date_from=self.date_from,
                date_to=self.date_to,
                page=self.page,
            )
        except audit.AuditError as exc:
            self.error = _o(BAD_FILTER) if exc.code == "invalid_filter" else _o(LOAD_FAILED)
            return
        except Exception as exc:
            log_failure("AdminAuditState.load", exc)
            self.error = _o(LOAD_FAILED)
            return
        self.entries = [
            {
                "when": e.created_at,
                "actor": e.actor,
                "action": e.action_label,
                "entity": e.entity,
                "changes": "\n".join(e.changes),
            }
            for e in found.entries
        ]
        self.entity_types = [
            {"value": t, "label": audit.entity_type_label(t)} for t in found.entity_types
        ]
        self.page, self.pages, self.total = found.page, found.pages, found.total

    @rx.event
    def type_actor(self, value: str):
        self.actor = str(value)[: audit.ACTOR_SEARCH_MAX]

    @rx.event
    async def choose_entity(self, value: str):
        value = str(value)[:64]
        self.entity_type = "" if value == "all" else value
        self.page = 1
        await self.load()

    @rx.event
    def type_date_from(self, value: str):
        self.date_from = str(value)[:10]

    @rx.event
    def type_date_to(self, value: str):
        self.date_to = str(value)[:10]

    @rx.event
    async def apply_filters(self, _form: dict | None = None):
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
