"""The one service form (docs/product.md §2, 5), on /admin/services/create|edit/{id} for admins
and on /services/create|edit/{id} for signed-in users. An AccountState: the guard lets signed-in
callers through; the catalogue service decides what each may change (an admin any service,
a user their own drafts)."""

from __future__ import annotations

import dataclasses
import time
import uuid
from typing import ClassVar

import reflex as rx

from storefront import i18n, routes
from storefront.i18n import N_s, _s
from storefront.services.catalog import admin as catalog_admin
from storefront.services.catalog import seo
from storefront.services.media import storage
from storefront.state.auth import AccountState, AuthState
from storefront.state.base import call_service, typed_just_now
from storefront.state.errors import log_failure
from storefront.state.uploads import ImageUploadMixin, refusal_message, shown

UPLOAD_ID = "service-images"
IMAGE_TYPES = "image/jpeg, image/png, image/webp, image/gif"
MAX_MB = catalog_admin.SERVICE_IMAGE_MAX_BYTES // (1024 * 1024)
# The messages below are SPEC's English words (N_), translated (`_s()`) where a handler
# shows them, in the language of the page that sent the event.
# docs/product.md §5's upload messages, by the storage and catalogue services' codes; their
# {placeholders} are filled from UPLOAD_VALUES.
UPLOAD_MESSAGES = {
    "too_large": N_s("File too large. Maximum size is {max_mb}MB"),
    "bad_type": N_s("File type not accepted. Please upload {types}"),
    "not_image": N_s("File must be an image"),
    "no_file": N_s("No file provided"),
    "too_many": N_s("Please upload only one image at a time"),
    "too_many_images": N_s("Maximum of {max_images} images allowed"),
    "too_many_pixels": N_s("Image dimensions are too large"),
}
UPLOAD_VALUES = {"max_mb": MAX_MB, "types": IMAGE_TYPES, "max_images": catalog_admin.MAX_IMAGES}
UPLOAD_FAILED = N_s("Error uploading image")
LOAD_FAILED = N_s("Error loading service data.")
NOT_SIGNED_IN = N_s("You must be logged in to create or edit a service.")
FAILED = N_s("An error occurred")
FIELD_MESSAGES = {
    ("title", "required"): N_s("Title is required"),
    ("title", "too_long"): N_s("Title can be at most 200 characters"),
    ("slug", "required"): N_s("Slug is required"),
    ("slug", "format"): N_s("Slug may hold only lowercase letters, digits and single hyphens"),
    ("description", "required"): N_s("Description is required"),
    ("description", "too_long"): N_s("Description can be at most 10000 characters"),
    ("title_en", "too_long"): N_s("English title can be at most 200 characters"),
    ("description_en", "too_long"): N_s("English description can be at most 10000 characters"),
    ("price", "number"): N_s("Price must be a number"),
    ("price", "range"): N_s("Price must be 0 or more"),
    ("price", "step"): N_s("Price can have at most two decimals"),
    ("total_units", "number"): N_s("Units must be a whole number"),
    ("total_units", "range"): N_s("Units must be between 1 and 1000"),
    ("buffer_time_minutes", "number"): N_s("Buffer must be a whole number of minutes"),
    ("buffer_time_minutes", "range"): N_s("Buffer must be between 0 and 1440 minutes"),
    ("setup_lead_minutes", "number"): N_s("Setup lead must be a whole number of minutes"),
    ("setup_lead_minutes", "range"): N_s("Setup lead must be between 0 and 1440 minutes"),
}
SAVED = N_s("Service saved successfully")
# An owner's change of their published service (issue 18, finding 5).
IN_REVIEW = N_s(
    "Your changes are saved and wait for an admin's review. Until they are approved, the site "
    "shows the published version."
)


def upload_message(code: str) -> str:
    """UPLOAD_MESSAGES[code] in the language of the moment, with its numbers."""
    return shown(UPLOAD_MESSAGES[code], UPLOAD_VALUES)


def address_change(old_slug: str, new_slug: str) -> str:
    """The warning shown while a published service's slug differs from its page's (issue 20,
    item 18)."""
    return _s(
        "Saving changes this service's public address from {old} to {new}. The old address "
        "will redirect to the new one."
    ).format(old=seo.detail_url(old_slug), new=seo.detail_url(new_slug))


@dataclasses.dataclass
class FormField:
    name: str = ""
    label: str = ""
    widget: str = "text"
    options: list[str] = dataclasses.field(default_factory=list)
    hint: str = ""


def _message(exc: catalog_admin.CatalogError) -> str:
    """The words for `exc`, in the language of the moment."""
    if exc.code == "slug_taken":
        return _s("This slug is used by another service")
    if exc.code == "too_many_images":
        return upload_message("too_many_images")
    if exc.code == "category_not_found":
        return _s("Please choose a category from the list")
    if exc.code == "invalid":
        field_name = str(exc.details.get("field", ""))
        reason = str(exc.details.get("reason", ""))
        if (field_name, reason) in FIELD_MESSAGES:
            return _s(FIELD_MESSAGES[(field_name, reason)])
        for kind in catalog_admin.kind_names():
            for spec in catalog_admin.detail_fields(kind):
                if spec.name == field_name:
                    return _s("Please check '{field}'").format(field=_s(spec.label))
    return _s(FAILED)


# The text fields a visitor types into (kept by `load` when typed as the page opened).
TYPED_FIELDS = (
    "title",
    "title_en",
    "slug",
    "description",
    "description_en",
    "price",
    "total_units",
    "buffer_time_minutes",
    "setup_lead_minutes",
)


class ServiceFormState(ImageUploadMixin, AccountState):
    service_id: str = ""
    admin_form: bool = False
    loading: bool = False
    saving: bool = False
    notice: str = ""
    error: str = ""
    # A change of this published service waits for an admin (shown above the form).
    pending_review: bool = False
    # The slug of the service's public page now ('' when it has none): saving another moves it.
    public_slug: str = ""

    title: str = ""
    slug: str = ""
    description: str = ""
    title_en: str = ""
    description_en: str = ""
    price: str = ""
    price_unit: str = ""
    category_id: str = ""
    kind: str = "service"
    status: str = "published"
    details: dict[str, str] = {}
    images: list[dict[str, str]] = []
    total_units: str = str(catalog_admin.DEFAULT_UNITS)
    buffer_time_minutes: str = str(catalog_admin.DEFAULT_BUFFER_MINUTES)
    setup_lead_minutes: str = ""

    categories: list[dict[str, str]] = []
    fields: list[FormField] = []
    # The slug made from the title last time: typing a title renews the slug only while the
    # slug is empty or still this one (docs/product.md §5).
    _auto_slug: str = ""
    # When a text field was last typed into (a page's on_load keeps what was typed as it opened).
    _typed_at: float = 0.0
    # This opening of the form: the uploads made on it and not saved yet are counted and
    # removed by it (catalog_admin.store_image, discard_image).
    _draft: str = ""

    upload_messages: ClassVar[dict[str, str]] = {
        "wrong_type": UPLOAD_MESSAGES["bad_type"],
        "too_large": UPLOAD_MESSAGES["too_large"],
        "too_many": UPLOAD_MESSAGES["too_many"],
    }
    upload_message_values: ClassVar[dict[str, object]] = UPLOAD_VALUES

    def _show_kind(self, kind: str, values: dict[str, str] | None = None) -> None:
        self.kind = kind
        # The kinds' words (models/kinds.py) in the language of the moment.
        self.fields = [
            FormField(f.name, _s(f.label), f.widget, list(f.options), _s(f.hint) if f.hint else "")
            for f in catalog_admin.detail_fields(kind)
        ]
        self.details = values if values is not None else catalog_admin.details_to_form(kind, {})

    def _fill(self, form: catalog_admin.ServiceForm) -> None:
        self.title, self.slug, self.description = form.title, form.slug, form.description
        self.title_en, self.description_en = form.title_en, form.description_en
        self.price, self.price_unit = form.price, form.price_unit
        self.category_id, self.status = form.category_id, form.status
        self.images = list(form.images)
        self.total_units = form.total_units
        self.buffer_time_minutes = form.buffer_time_minutes
        self.setup_lead_minutes = form.setup_lead_minutes
        self.pending_review = form.pending_review
        self.public_slug = form.public_slug
        self._auto_slug = catalog_admin.slugify(form.title)
        self._show_kind(form.kind, dict(form.details))

    @rx.var
    def address_warning(self) -> str:
        """Said before saving when the slug typed would move the service's public page."""
        new_slug = self.slug.strip().lower()
        if not self.public_slug or not new_slug or new_slug == self.public_slug:
            return ""
        return address_change(self.public_slug, new_slug)

    @rx.event
    async def load(self):
        """Runs on every page of the form: empty on create, the service on edit. On create,
        what was typed while the page opened (before this ran) is kept."""
        path = (self.router.url.path or "").rstrip("/")
        typed = (
            {name: getattr(self, name) for name in TYPED_FIELDS}
            if "/edit/" not in path and typed_just_now(self._typed_at)
            else {}
        )
        self.reset()
        self._draft = uuid.uuid4().hex
        self.admin_form = path.startswith(routes.ADMIN)
        edit_id = path.rsplit("/", 1)[-1] if "/edit/" in path else ""
        self.loading = True
        yield
        user_id = await self._caller_id()
        if not user_id:
            self.error, self.loading = _s(NOT_SIGNED_IN), False
            return
        try:
            self.categories = [
                {"id": cid, "name": name}
                for cid, name in await call_service(catalog_admin.category_choices)
            ]
            if edit_id:
                form = await call_service(
                    catalog_admin.load_form, actor_id=user_id, service_id=edit_id[:64]
                )
                self.service_id = edit_id[:64]
            else:
                form = catalog_admin.ServiceForm()
            self._fill(form)
            for name, value in typed.items():
                if value:
                    setattr(self, name, value)
            if typed:
                self._auto_slug = catalog_admin.slugify(self.title)
        except Exception as exc:
            log_failure("ServiceFormState.load", exc, service=edit_id[:64] or None)
            self.error = _s(LOAD_FAILED)
        self.loading = False

    @rx.event
    def set_title(self, value: str):
        self._typed_at = time.time()
        self.title = str(value)[:300]
        if not self.slug or self.slug == self._auto_slug:
            self.slug = self._auto_slug = catalog_admin.slugify(self.title)

    @rx.event
    def set_title_en(self, value: str):
        self._typed_at = time.time()
        self.title_en = str(value)[:300]

    @rx.event
    def set_description_en(self, value: str):
        self._typed_at = time.time()
        self.description_en = str(value)[:12000]

    @rx.event
    def set_slug(self, value: str):
        self._typed_at = time.time()
        self.slug = str(value)[:300]

    @rx.event
    def set_description(self, value: str):
        self._typed_at = time.time()
        self.description = str(value)[:12000]

    @rx.event
    def set_price(self, value: str):
        self._typed_at = time.time()
        self.price = str(value)[:20]

    @rx.event
    def set_price_unit(self, value: str):
        self.price_unit = str(value)[:16]

    @rx.event
    def set_category(self, value: str):
        self.category_id = str(value)[:64]

    @rx.event
    def set_status(self, value: str):
        self.status = "draft" if value == "draft" else "published"

    @rx.event
    def set_kind(self, value: str):
        if value in catalog_admin.kind_names():
            self._show_kind(value)
            self.price_unit = ""

    @rx.event
    def set_detail(self, name: str, value: str):
        if any(f.name == name for f in self.fields):
            self.details = {**self.details, name: str(value)[:12000]}

    @rx.event
    def set_total_units(self, value: str):
        self._typed_at = time.time()
        self.total_units = str(value)[:10]

    @rx.event
    def set_buffer(self, value: str):
        self._typed_at = time.time()
        self.buffer_time_minutes = str(value)[:10]

    @rx.event
    def set_setup_lead(self, value: str):
        self._typed_at = time.time()
        self.setup_lead_minutes = str(value)[:10]

    @rx.event
    def move_image(self, index: int, step: int):
        try:
            i, j = int(index), int(index) + (1 if int(step) > 0 else -1)
        except (TypeError, ValueError):
            return
        if 0 <= i < len(self.images) and 0 <= j < len(self.images):
            images = list(self.images)
            images[i], images[j] = images[j], images[i]
            self.images = images

    @rx.event
    async def remove_image(self, index: int):
        """Off the form; an image uploaded on it and never saved also leaves the storage."""
        try:
            i = int(index)
        except (TypeError, ValueError):
            return
        if not 0 <= i < len(self.images):
            return
        removed = self.images[i]
        self.images = self.images[:i] + self.images[i + 1 :]
        user_id = await self._caller_id()
        if user_id and self._draft:
            try:
                await call_service(
                    catalog_admin.discard_image,
                    actor_id=user_id,
                    draft=self._draft,
                    path=str(removed.get("path", "")),
                )
            except Exception as exc:
                log_failure(
                    "ServiceFormState.remove_image", exc, path=str(removed.get("path", ""))[:255]
                )

    @rx.event
    async def upload_image(self, files: list[rx.UploadFile]):
        """One image at a time, checked on the server whatever the browser allowed."""
        user_id = await self._caller_id()
        if not user_id:
            self._finish_upload(error=_s(UPLOAD_FAILED))
            return
        if len(files) != 1:
            self._finish_upload(error=upload_message("too_many" if files else "no_file"))
            return
        data = await files[0].read(catalog_admin.SERVICE_IMAGE_MAX_BYTES + 1)
        try:
            image = await call_service(
                catalog_admin.store_image,
                actor_id=user_id,
                data=data,
                draft=self._draft,
                service_id=self.service_id or None,
                kept=[str(i.get("path", "")) for i in self.images],
            )
        except (catalog_admin.CatalogError, storage.StorageError) as exc:
            self._finish_upload(
                error=refusal_message(exc, UPLOAD_MESSAGES, UPLOAD_FAILED, UPLOAD_VALUES)
            )
        except Exception as exc:
            log_failure("ServiceFormState.upload_image", exc, service=self.service_id or None)
            self._finish_upload(error=_s(UPLOAD_FAILED))
        else:
            self.images = [*self.images, image]
            self._finish_upload()
        yield rx.clear_selected_files(UPLOAD_ID)

    @rx.event
    async def save(self):
        user_id = await self._caller_id()
        if self.saving:
            return
        if not user_id:
            self.error = (
                _s("User must be logged in to update a service")
                if self.service_id
                else _s("User must be logged in to create a service")
            )
            return
        self.saving, self.notice, self.error = True, "", ""
        yield
        form = catalog_admin.ServiceForm(
            title=self.title,
            slug=self.slug,
            description=self.description,
            title_en=self.title_en,
            description_en=self.description_en,
            price=self.price,
            price_unit=self.price_unit,
            category_id=self.category_id,
            kind=self.kind,
            status=self.status,
            details=dict(self.details),
            images=list(self.images),
            total_units=self.total_units,
            buffer_time_minutes=self.buffer_time_minutes,
            setup_lead_minutes=self.setup_lead_minutes,
        )
        try:
            saved_id = await call_service(
                catalog_admin.save_service,
                actor_id=user_id,
                form=form,
                service_id=self.service_id or None,
            )
        except catalog_admin.CatalogError as exc:
            self.error, self.saving = _message(exc), False
            return
        except Exception as exc:
            log_failure("ServiceFormState.save", exc, service=self.service_id or None)
            self.error, self.saving = _s(FAILED), False
            return
        self.service_id, self.notice, self.saving = saved_id, _s(SAVED), False
        auth_state = await self.get_state(AuthState)
        if not auth_state.is_admin:
            try:
                self.pending_review = await call_service(
                    catalog_admin.review_pending, actor_id=user_id, service_id=saved_id
                )
            except Exception as exc:
                log_failure("ServiceFormState.save (review state)", exc, service=saved_id)
            if self.pending_review:  # stay, so the owner reads what happened
                self.notice = _s(IN_REVIEW)
                return
        yield rx.redirect(
            i18n.href(
                routes.ADMIN_SERVICES if self.admin_form and auth_state.is_admin else routes.ACCOUNT
            )
        )
