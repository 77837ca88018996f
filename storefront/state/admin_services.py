"""Service Management (docs/product.md §2, 4): the list, its toggles and delete. An AdminState:
the guard refuses its events to anyone but an admin, and the catalogue service checks the role
again."""

from __future__ import annotations

import reflex as rx

from storefront.i18n import N_o, _o
from storefront.services.catalog import admin as catalog_admin
from storefront.services.catalog import listing as catalog_list
from storefront.state.auth import AdminState
from storefront.state.base import call_service
from storefront.state.errors import log_failure

LOAD_FAILED = N_o("Failed to load services")
TOGGLE_MESSAGES = {
    ("active", True): N_o("Service activated successfully"),
    ("active", False): N_o("Service deactivated successfully"),
    ("featured", True): N_o("Service featured successfully"),
    ("featured", False): N_o("Service unfeatured successfully"),
}
TOGGLE_FAILED = {
    "active": N_o("Failed to update service status"),
    "featured": N_o("Failed to update featured status"),
}
DELETE_FAILED = N_o("Failed to delete service")
DELETED = N_o("Service deleted successfully")
DEACTIVATED = N_o("This service has bookings, so it was deactivated instead of deleted.")
PUBLISHED = N_o("Service published successfully")
PUBLISH_FAILED = N_o("Failed to publish service")
REVIEW_FAILED = N_o("Failed to load the changes")
APPROVED = N_o("Changes approved: the service shows them now")
REJECTED = N_o("Changes rejected: the service stays as it was")
DECIDE_FAILED = {
    "slug_taken": N_o("The new slug is used by another service now; edit the service instead"),
    "category_not_found": N_o("The new category no longer exists; edit the service instead"),
    "no_revision": N_o("These changes are no longer waiting for review"),
}


class AdminServicesState(AdminState):
    rows: list[catalog_list.ServiceRow] = []
    total: int = 0
    page: int = 1
    pages: int = 1
    search: str = ""
    sort: str = "title"
    descending: bool = False
    loading: bool = False
    notice: str = ""
    error: str = ""
    # The service whose deletion waits for the admin's answer.
    delete_id: str = ""
    delete_title: str = ""
    # The service whose owner's pending changes the admin is looking at, field by field.
    review_id: str = ""
    review_title: str = ""
    changes: list[catalog_admin.FieldChange] = []

    async def _reload(self) -> None:
        actor = await self._admin_id()
        if not actor:
            return
        try:
            listed = await call_service(
                catalog_list.list_services,
                actor_id=actor,
                search=self.search,
                sort=self.sort,
                descending=self.descending,
                page=self.page,
            )
        except Exception as exc:
            log_failure("AdminServicesState._reload", exc, search=self.search[:40])
            self.rows, self.error = [], _o(LOAD_FAILED)
            return
        self.rows = list(listed.rows)
        self.total, self.page, self.pages = listed.total, listed.page, listed.pages

    @rx.event
    async def load(self):
        self.notice = self.error = ""
        self.delete_id = self.delete_title = ""
        self.loading = True
        yield
        await self._reload()
        self.loading = False

    @rx.event
    async def search_for(self, text: str):
        self.search, self.page = str(text)[: catalog_list.SEARCH_MAX], 1
        await self._reload()

    @rx.event
    async def sort_by(self, key: str):
        if key not in catalog_list.SORTS:
            return
        self.descending = not self.descending if self.sort == key else False
        self.sort, self.page = key, 1
        await self._reload()

    @rx.event
    async def go_to_page(self, page: int):
        try:
            self.page = max(1, int(page))
        except (TypeError, ValueError):
            return
        await self._reload()

    async def _toggle(self, what: str, service_id: str):
        actor = await self._admin_id()
        if not actor:
            return
        fn = catalog_list.toggle_active if what == "active" else catalog_list.toggle_featured
        self.notice = self.error = ""
        try:
            now_on = await call_service(fn, actor_id=actor, service_id=str(service_id)[:64])
        except Exception as exc:
            log_failure(f"AdminServicesState.toggle_{what}", exc, service=str(service_id)[:64])
            self.error = _o(TOGGLE_FAILED[what])
            return
        self.notice = _o(TOGGLE_MESSAGES[(what, now_on)])
        await self._reload()

    @rx.event
    async def toggle_active(self, service_id: str):
        await self._toggle("active", service_id)

    @rx.event
    async def toggle_featured(self, service_id: str):
        await self._toggle("featured", service_id)

    @rx.event
    async def publish(self, service_id: str):
        actor = await self._admin_id()
        if not actor:
            return
        self.notice = self.error = ""
        try:
            await call_service(
                catalog_list.set_status,
                actor_id=actor,
                service_id=str(service_id)[:64],
                status="published",
            )
        except Exception as exc:
            log_failure("AdminServicesState.publish", exc, service=str(service_id)[:64])
            self.error = _o(PUBLISH_FAILED)
            return
        self.notice = _o(PUBLISHED)
        await self._reload()

    @rx.event
    async def review(self, service_id: str, title: str):
        actor = await self._admin_id()
        if not actor:
            return
        self.notice = self.error = ""
        try:
            changes = await call_service(
                catalog_admin.pending_changes, actor_id=actor, service_id=str(service_id)[:64]
            )
        except Exception as exc:
            log_failure("AdminServicesState.review", exc, service=str(service_id)[:64])
            self.error = _o(REVIEW_FAILED)
            return
        self.review_id, self.review_title = str(service_id)[:64], str(title)[:200]
        self.changes = list(changes)

    @rx.event
    def close_review(self, _open: bool = False):
        self.review_id = self.review_title = ""
        self.changes = []

    async def _decide(self, approve: bool):
        actor = await self._admin_id()
        service_id = self.review_id
        self.review_id = self.review_title = ""
        self.changes = []
        if not actor or not service_id:
            return
        self.notice = self.error = ""
        fn = catalog_admin.approve_revision if approve else catalog_admin.reject_revision
        try:
            await call_service(fn, actor_id=actor, service_id=service_id)
        except catalog_admin.CatalogError as exc:
            self.error = _o(DECIDE_FAILED.get(exc.code, PUBLISH_FAILED))
            await self._reload()
            return
        except Exception as exc:
            log_failure(
                "AdminServicesState.approve_changes"
                if approve
                else "AdminServicesState.reject_changes",
                exc,
                service=service_id,
            )
            self.error = _o(PUBLISH_FAILED)
            return
        self.notice = _o(APPROVED) if approve else _o(REJECTED)
        await self._reload()

    @rx.event
    async def approve_changes(self):
        await self._decide(True)

    @rx.event
    async def reject_changes(self):
        await self._decide(False)

    @rx.event
    def ask_delete(self, service_id: str, title: str):
        self.delete_id, self.delete_title = str(service_id)[:64], str(title)[:200]

    @rx.event
    def cancel_delete(self, _open: bool = False):
        self.delete_id = self.delete_title = ""

    @rx.event
    async def confirm_delete(self):
        actor = await self._admin_id()
        service_id, self.delete_id, self.delete_title = self.delete_id, "", ""
        if not actor or not service_id:
            return
        self.notice = self.error = ""
        try:
            outcome = await call_service(
                catalog_list.delete_service, actor_id=actor, service_id=service_id
            )
        except Exception as exc:
            log_failure("AdminServicesState.confirm_delete", exc, service=service_id)
            self.error = _o(DELETE_FAILED)
            return
        self.notice = _o(DELETED) if outcome == "deleted" else _o(DEACTIVATED)
        await self._reload()
