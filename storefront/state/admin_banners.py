"""Banner Management (admin): choose a banner, create one, and add, edit or delete its items
(with the banner image upload). An AdminState: the guard refuses its events to anyone but an
admin, each handler asks who is calling, and the service checks the role again."""

from __future__ import annotations

import dataclasses
import logging
import uuid
from typing import ClassVar

import reflex as rx

from storefront.i18n import N_o, _o
from storefront.services.catalog import banner_admin, banners
from storefront.services.catalog.banner_admin import BannerAdminError
from storefront.services.media import storage
from storefront.state.auth import AdminState
from storefront.state.base import call_service
from storefront.state.uploads import ImageUploadMixin, refusal_message

log = logging.getLogger(__name__)

UPLOAD_ID = "banner-image"
IMAGE_MAX_BYTES = banner_admin.IMAGE_MAX_BYTES
# The screen's words (marked for the office catalog, shown through `_o()`).
NO_BANNERS = N_o("No banners found. You need to create one or run the banner_tables.sql script.")
LOAD_BANNERS_ERROR = N_o("Failed to load banners. Make sure the RLS policies are properly set up.")
LOAD_ITEMS_ERROR = N_o("Failed to load banner items")
CREATE_BANNER_ERROR = N_o("An error occurred creating the banner")
AUTH_ERROR = N_o("Authentication error. Please try again.")
CONFIRM_DELETE = N_o(
    "Are you sure you want to delete this banner item? This action cannot be undone."
)
BANNER_MESSAGES = {
    "name_missing": N_o("Banner name is required"),
    "name_taken": N_o("A banner with this name already exists."),  # our words: the spec has none
}
ITEM_MESSAGES = {
    "title_and_image_missing": N_o("Title and Banner Image are required"),
    # Our words where the spec has none.
    "bad_link_url": N_o(
        "Enter the link as a path on this site (like /contact) or a full http(s) address."
    ),
    "bad_display_order": N_o("Display order is a whole number of at least 0."),
}
UPLOAD_MESSAGES = {
    "not_image": N_o("File must be an image"),
    "too_large": N_o("Image size should be less than 5MB"),
}
UPLOAD_ERROR = N_o("Error uploading image")


class _OfficeTexts(dict):
    """N_o-marked texts by code, each read in the admin's language (`_o()`): the upload
    mixin reads a refused file's words by code and shows them as it finds them."""

    def __getitem__(self, key: str) -> str:
        return _o(super().__getitem__(key))


def _uuid(value: object) -> str:
    try:
        return str(uuid.UUID(str(value)[:64]))
    except ValueError:
        return ""


def _new_item_values(order: int) -> dict[str, str]:
    return {
        "title": "",
        "title_en": "",
        "description": "",
        "description_en": "",
        "link_url": "",
        "display_order": str(order),
    }


def folders_message(created: int, failed: int) -> tuple[str, str]:
    """(notice, error) for 'Create Storage Folders', in docs/product.md §8's words."""
    if failed == 0:
        return _o("Successfully created all {created} banner folders in storage").format(
            created=created
        ), ""
    if created:
        return "", _o("Created {created} folders, but {failed} failed...").format(
            created=created, failed=failed
        )
    return "", _o("Failed to create banner folders...")


class AdminBannersState(ImageUploadMixin, AdminState):
    # docs/product.md §5's words for a refused banner image.
    upload_messages: ClassVar[dict[str, str]] = _OfficeTexts(
        wrong_type=N_o("File must be an image"),
        too_large=N_o("Image size should be less than 5MB"),
        too_many=N_o("Please upload only one image at a time"),
    )

    banners: list[dict[str, str]] = []
    selected_id: str = ""
    items: list[dict[str, str]] = []
    loaded: bool = False
    notice: str = ""
    error: str = ""

    # The create-banner form; its key changes to clear it after a success.
    banner_error: str = ""
    banner_form_key: int = 0

    # The add/edit item modal (its inputs start from these values each time it opens).
    item_open: bool = False
    editing_item_id: str = ""
    item_values: dict[str, str] = _new_item_values(1)
    item_active: bool = True
    item_image_url: str = ""
    item_error: str = ""

    confirm_item_id: str = ""

    creating_folders: bool = False

    @rx.event
    async def create_folders(self):
        caller = await self._admin_id()
        if not caller or self.creating_folders:
            return
        self.creating_folders, self.notice, self.error = True, "", ""
        yield
        try:
            report = await call_service(banner_admin.create_banner_folders, actor_id=caller)
        except Exception:
            log.exception("creating the banner folders failed")
            self.notice, self.error = folders_message(0, len(storage.BANNER_FOLDERS))
        else:
            self.notice, self.error = folders_message(len(report.created), len(report.failed))
        self.creating_folders = False

    @rx.event
    async def load(self):
        self.notice = self.error = self.banner_error = self.upload_error = ""
        self.item_open, self.confirm_item_id = False, ""
        self.loaded = False
        caller = await self._admin_id()
        if not caller:
            return
        await self._reload_banners(caller)

    async def _reload_banners(self, caller: str, *, select: str = "") -> None:
        try:
            listed = await call_service(banner_admin.list_banners, actor_id=caller)
        except Exception:
            log.exception("banners: list")
            self.banners, self.items, self.selected_id = [], [], ""
            self.error = _o(LOAD_BANNERS_ERROR)
            return
        self.banners = [{"id": b.id, "name": b.name} for b in listed]
        ids = [b.id for b in listed]
        home = next((b.id for b in listed if b.name == banners.HOME_BANNER), "")
        wanted = select or self.selected_id
        self.selected_id = wanted if wanted in ids else (home or (ids[0] if ids else ""))
        self.loaded = True
        await self._reload_items(caller)

    async def _reload_items(self, caller: str) -> None:
        if not self.selected_id:
            self.items = []
            return
        try:
            rows = await call_service(
                banner_admin.list_items, actor_id=caller, banner_id=self.selected_id
            )
        except Exception:
            log.exception("banners: items of %s", self.selected_id)
            self.items, self.error = [], _o(LOAD_ITEMS_ERROR)
            return
        self.items = [_item_row(r) for r in rows]

    @rx.event
    async def select_banner(self, banner_id: str):
        caller = await self._admin_id()
        wanted = _uuid(banner_id)
        if not caller or not any(b["id"] == wanted for b in self.banners):
            return
        self.selected_id, self.notice, self.error = wanted, "", ""
        await self._reload_items(caller)

    @rx.event
    async def create_banner(self, form_data: dict):
        caller = await self._admin_id()
        if not caller:
            self.banner_error = _o(AUTH_ERROR)
            return
        if not isinstance(form_data, dict):
            return
        self.banner_error = ""
        try:
            made = await call_service(
                banner_admin.create_banner,
                actor_id=caller,
                name=str(form_data.get("name", ""))[: banner_admin.NAME_MAX + 1],
                description=str(form_data.get("description", ""))[
                    : banner_admin.DESCRIPTION_MAX + 1
                ],
            )
        except BannerAdminError as exc:
            self.banner_error = _o(BANNER_MESSAGES.get(exc.code, CREATE_BANNER_ERROR))
            return
        except Exception:
            log.exception("banners: create")
            self.banner_error = _o(CREATE_BANNER_ERROR)
            return
        self.notice, self.error = _o("Banner created successfully"), ""
        self.banner_form_key += 1
        await self._reload_banners(caller, select=made.id)

    # --- the item modal -------------------------------------------------------------------

    def _known_item(self, item_id: object) -> dict[str, str] | None:
        wanted = _uuid(item_id)
        return next((i for i in self.items if wanted and i["id"] == wanted), None)

    @rx.event
    def open_new_item(self):
        if not self.selected_id:
            return
        self.confirm_item_id, self.editing_item_id, self.item_error = "", "", ""
        self.item_values = _new_item_values(len(self.items) + 1)  # docs/product.md §9: count + 1
        self.item_active, self.item_image_url = True, ""
        self.upload_error, self.upload_progress = "", 0
        self.item_open = True

    @rx.event
    def open_edit_item(self, item_id: str):
        item = self._known_item(item_id)
        if item is None:
            return
        self.confirm_item_id, self.item_error = "", ""
        self.editing_item_id = item["id"]
        self.item_values = {
            "title": item["title"],
            "title_en": item["title_en"],
            "description": item["description"],
            "description_en": item["description_en"],
            "link_url": item["link_url"],
            "display_order": item["display_order"],
        }
        self.item_active, self.item_image_url = item["is_active"] == "yes", item["image_url"]
        self.upload_error, self.upload_progress = "", 0
        self.item_open = True

    @rx.event
    def close_item(self):
        self.item_open, self.item_error = False, ""

    @rx.event
    async def save_item(self, form_data: dict):
        caller = await self._admin_id()
        if not caller or not self.item_open or not isinstance(form_data, dict):
            return
        editing = self.editing_item_id
        fallback = (
            _o("Failed to update banner item") if editing else _o("Failed to create banner item")
        )
        self.item_error = ""
        try:
            item = banner_admin.check_item(
                title=str(form_data.get("title", ""))[: banner_admin.TITLE_MAX + 1],
                image_url=self.item_image_url,
                description=str(form_data.get("description", ""))[
                    : banner_admin.ITEM_DESCRIPTION_MAX + 1
                ],
                title_en=str(form_data.get("title_en", ""))[: banner_admin.TITLE_MAX + 1],
                description_en=str(form_data.get("description_en", ""))[
                    : banner_admin.ITEM_DESCRIPTION_MAX + 1
                ],
                link_url=str(form_data.get("link_url", ""))[: banner_admin.URL_MAX + 1],
                display_order=str(form_data.get("display_order", ""))[:12],
                is_active=str(form_data.get("is_active", "")).lower() in ("on", "true"),
            )
            if editing:
                await call_service(
                    banner_admin.update_item, actor_id=caller, item_id=editing, item=item
                )
            else:
                await call_service(
                    banner_admin.create_item,
                    actor_id=caller,
                    banner_id=self.selected_id,
                    item=item,
                )
        except BannerAdminError as exc:
            self.item_error = _o(ITEM_MESSAGES[exc.code]) if exc.code in ITEM_MESSAGES else fallback
            return
        except Exception:
            log.exception("banners: save item")
            self.item_error = fallback
            return
        self.item_open, self.editing_item_id = False, ""
        self.notice = (
            _o("Banner item updated successfully")
            if editing
            else _o("Banner item created successfully")
        )
        self.error = ""
        await self._reload_items(caller)

    @rx.event
    async def upload_banner_image(self, files: list[rx.UploadFile]):
        """Runs once the file has arrived (begin_upload ran at the click)."""
        caller = await self._admin_id()
        if not caller:
            self._finish_upload(error=_o(UPLOAD_ERROR))
            return
        if len(files) != 1:
            self._finish_upload(
                error=_o("Please upload only one image at a time")
                if files
                else _o("No file provided")
            )
            return
        data = await files[0].read(IMAGE_MAX_BYTES + 1)
        try:
            url = await call_service(banner_admin.store_banner_image, actor_id=caller, data=data)
        except BannerAdminError as exc:
            # Given in the admin's language (refusal_message passes them through the site's
            # catalog, which leaves them as they are).
            self._finish_upload(
                error=refusal_message(
                    exc, {k: _o(v) for k, v in UPLOAD_MESSAGES.items()}, _o(UPLOAD_ERROR)
                )
            )
        except Exception:
            log.exception("banners: image upload")
            self._finish_upload(error=_o(UPLOAD_ERROR))
        else:
            self.item_image_url = url
            self._finish_upload()
        yield rx.clear_selected_files(UPLOAD_ID)

    # --- delete -----------------------------------------------------------------------------

    @rx.event
    def ask_delete_item(self, item_id: str):
        item = self._known_item(item_id)
        if item is not None:
            self.item_open = False
            self.confirm_item_id = item["id"]

    @rx.event
    def cancel_delete(self):
        self.confirm_item_id = ""

    @rx.event
    async def delete_item(self):
        caller = await self._admin_id()
        item = self._known_item(self.confirm_item_id)
        self.confirm_item_id = ""
        if not caller or item is None:
            return
        try:
            await call_service(banner_admin.delete_item, actor_id=caller, item_id=item["id"])
        except Exception:
            log.exception("banners: delete item")
            self.notice, self.error = "", _o("Failed to delete banner item")
        else:
            self.notice, self.error = _o("Banner item deleted successfully"), ""
        await self._reload_items(caller)


def _item_row(row: banner_admin.ItemRow) -> dict[str, str]:
    data = {k: str(v) for k, v in dataclasses.asdict(row).items()}
    data["is_active"] = "yes" if row.is_active else "no"
    data["status"] = _o("Active") if row.is_active else _o("Inactive")
    return data
