"""The one service form (docs/product.md §2, 5), drawn for admins (kind, status) and for signed-in
users
(their own drafts) alike; its state is state/service_form.py."""

from __future__ import annotations

import reflex as rx

from storefront.components.admin_layout import (
    DANGER_BUTTON,
    INPUT,
    LABEL,
    SMALL_BUTTON,
    in_both_languages,
)
from storefront.components.image_upload import image_upload
from storefront.components.ui import (
    NOT_READY,
    PRIMARY_BUTTON,
    error_box,
    loading_spinner,
    success_box,
)
from storefront.i18n import N_s, _s
from storefront.services.catalog.admin import (
    MAX_IMAGES,
    PRICE_UNITS,
    SERVICE_IMAGE_MAX_BYTES,
    kind_choices,
)
from storefront.state.service_form import UPLOAD_ID, FormField
from storefront.state.service_form import ServiceFormState as F

UNIT_LABELS = {"per_hour": N_s("Per hour"), "per_event": N_s("Per event")}
DEBOUNCE_MS = 200
OWNER_PENDING = N_s(
    "Your last changes wait for an admin's review; the site shows the published version until "
    "then. Saving again replaces them."
)
ADMIN_PENDING = N_s(
    "Its owner's changes wait for review on Service Management; this form shows the published "
    "version."
)


# The fields' values are the server's (value= with on_change): they take no keys, and the form
# is not sent, until the page has come alive (components/ui.NOT_READY), so nothing typed into
# the prerendered page is wiped by its first answer or lost with a press of Save.
def _text_input(input_id: str, value, on_change, **props) -> rx.Component:
    props.setdefault("disabled", NOT_READY)
    return rx.debounce_input(
        rx.el.input(id=input_id, value=value, on_change=on_change, class_name=INPUT, **props),
        debounce_timeout=DEBOUNCE_MS,
    )


def _text_area(input_id, value, on_change, rows: int = 4, **props) -> rx.Component:
    props.setdefault("disabled", NOT_READY)
    return rx.debounce_input(
        rx.el.textarea(
            id=input_id, value=value, on_change=on_change, rows=rows, class_name=INPUT, **props
        ),
        debounce_timeout=DEBOUNCE_MS,
    )


def _field(label: str, input_id: str, control: rx.Component, hint: str = "") -> rx.Component:
    return rx.el.div(
        rx.el.label(label, html_for=input_id, class_name=LABEL),
        control,
        rx.el.p(hint, class_name="mt-1 text-xs text-slate-600") if hint else rx.fragment(),
    )


def _detail(field: FormField) -> rx.Component:
    input_id = "detail-" + field.name
    value = F.details[field.name]

    def change(v):
        return F.set_detail(field.name, v)

    return rx.el.div(
        rx.el.label(field.label, html_for=input_id, class_name=LABEL),
        rx.match(
            field.widget,
            (
                "select",
                rx.el.select(
                    rx.foreach(
                        field.options,
                        lambda option: rx.el.option(
                            rx.cond(option == "", "—", option), value=option
                        ),
                    ),
                    id=input_id,
                    value=value,
                    on_change=change,
                    class_name=INPUT,
                ),
            ),
            ("textarea", _text_area(input_id, value, change)),
            ("lines", _text_area(input_id, value, change)),
            ("priced_lines", _text_area(input_id, value, change)),
            _text_input(
                input_id,
                value,
                change,
                type=rx.cond(field.widget == "number", "number", "text"),
            ),
        ),
        rx.cond(field.hint != "", rx.el.p(field.hint, class_name="mt-1 text-xs text-slate-600")),
        data_testid="detail-field",
    )


def _image(image: dict, index) -> rx.Component:
    return rx.el.li(
        rx.image(
            src=image["url"],
            alt=_s("Service image {n}").format(n=(index + 1).to_string()),
            width="160",
            height="120",
            class_name="w-40 h-30 object-cover rounded-lg bg-slate-100",
        ),
        rx.el.div(
            rx.el.button(
                rx.icon("arrow-left", size=16),
                on_click=F.move_image(index, -1),
                disabled=index == 0,
                aria_label=_s("Move image {n} earlier").format(n=(index + 1).to_string()),
                type="button",
                class_name=SMALL_BUTTON,
            ),
            rx.el.button(
                rx.icon("arrow-right", size=16),
                on_click=F.move_image(index, 1),
                disabled=index == F.images.length() - 1,
                aria_label=_s("Move image {n} later").format(n=(index + 1).to_string()),
                type="button",
                class_name=SMALL_BUTTON,
            ),
            rx.el.button(
                rx.icon("trash-2", size=16),
                on_click=F.remove_image(index),
                aria_label=_s("Remove image {n}").format(n=(index + 1).to_string()),
                type="button",
                class_name=DANGER_BUTTON,
            ),
            class_name="mt-2 flex gap-1",
        ),
        class_name="flex flex-col items-start",
        data_testid="form-image",
    )


def _images() -> rx.Component:
    return rx.el.fieldset(
        rx.el.legend(_s("Images"), class_name="text-lg font-semibold"),
        rx.el.p(
            _s(
                "Up to {max_images} images (JPEG, PNG, WebP or GIF, at most 5 MB each). "
                "Recommended size at least 1000x600 pixels. The first image is the main one."
            ).format(max_images=MAX_IMAGES),
            class_name="text-sm text-slate-600",
        ),
        rx.el.ul(
            rx.foreach(F.images, _image),
            class_name="mt-3 flex flex-wrap gap-4",
        ),
        rx.cond(
            F.images.length() < MAX_IMAGES,
            rx.el.div(
                image_upload(
                    F,
                    upload_id=UPLOAD_ID,
                    on_upload=F.upload_image,
                    max_bytes=SERVICE_IMAGE_MAX_BYTES,
                    prompt=_s("Choose an image, or drop one here"),
                    button_label=_s("Upload Image"),
                    test_id="service-image",
                ),
                class_name="mt-3",
            ),
            rx.el.p(
                _s("Maximum of {max_images} images allowed").format(max_images=MAX_IMAGES),
                class_name="mt-3 text-sm text-slate-700",
            ),
        ),
        class_name="space-y-2",
    )


def _admin_fields() -> rx.Component:
    return rx.el.div(
        _field(
            _s("Kind"),
            "service-kind",
            rx.el.select(
                *[rx.el.option(label, value=name) for name, label in kind_choices()],
                id="service-kind",
                value=F.kind,
                on_change=F.set_kind,
                class_name=INPUT,
            ),
            _s("What the service is on the storefront; its own fields follow below."),
        ),
        _field(
            _s("Status"),
            "service-status",
            rx.el.select(
                rx.el.option(_s("Published"), value="published"),
                rx.el.option(_s("Draft"), value="draft"),
                id="service-status",
                value=F.status,
                on_change=F.set_status,
                class_name=INPUT,
            ),
        ),
        class_name="grid md:grid-cols-2 gap-4",
    )


def service_form() -> rx.Component:
    return rx.cond(
        F.loading,
        loading_spinner(),
        rx.el.form(
            rx.el.div(
                success_box(F.notice, "service-form-notice"),
                error_box(F.error, "service-form-error"),
                rx.cond(
                    F.pending_review & (F.notice == ""),
                    rx.el.p(
                        rx.cond(F.admin_form, _s(ADMIN_PENDING), _s(OWNER_PENDING)),
                        role="status",
                        class_name="rounded-lg bg-amber-50 border border-amber-200 "
                        "text-amber-900 px-4 py-3 text-sm",
                        data_testid="service-form-pending",
                    ),
                ),
                class_name="space-y-2 empty:hidden",
            ),
            in_both_languages(
                _s("Title"),
                _text_input("service-title", F.title, F.set_title, required=True, max_length=200),
                _text_input(
                    "service-title-en",
                    F.title_en,
                    F.set_title_en,
                    max_length=200,
                    aria_describedby="service-title-label",
                ),
                field_id="service-title",
            ),
            _field(
                _s("Slug"),
                "service-slug",
                _text_input("service-slug", F.slug, F.set_slug, required=True, max_length=200),
                _s("Made from the title until you change it; used in the page's address."),
            ),
            rx.cond(
                F.address_warning != "",
                rx.el.p(
                    F.address_warning,
                    role="status",
                    class_name="rounded-lg bg-amber-50 border border-amber-200 "
                    "text-amber-900 px-4 py-3 text-sm",
                    data_testid="service-address-warning",
                ),
            ),
            in_both_languages(
                _s("Description"),
                _text_area("service-description", F.description, F.set_description, required=True),
                _text_area(
                    "service-description-en",
                    F.description_en,
                    F.set_description_en,
                    aria_describedby="service-description-label",
                ),
                field_id="service-description",
            ),
            rx.el.div(
                _field(
                    _s("Price (EUR)"),
                    "service-price",
                    _text_input(
                        "service-price",
                        F.price,
                        F.set_price,
                        type="number",
                        step="0.01",
                        min="0",
                        input_mode="decimal",
                    ),
                    _s("Optional."),
                ),
                _field(
                    _s("Priced"),
                    "service-price-unit",
                    rx.el.select(
                        rx.el.option(_s("As usual for this kind"), value=""),
                        *[rx.el.option(_s(UNIT_LABELS[u]), value=u) for u in PRICE_UNITS],
                        id="service-price-unit",
                        value=F.price_unit,
                        on_change=F.set_price_unit,
                        class_name=INPUT,
                    ),
                ),
                _field(
                    _s("Category"),
                    "service-category",
                    rx.el.select(
                        rx.el.option(_s("No category"), value=""),
                        rx.foreach(F.categories, lambda c: rx.el.option(c["name"], value=c["id"])),
                        id="service-category",
                        value=F.category_id,
                        on_change=F.set_category,
                        class_name=INPUT,
                    ),
                ),
                class_name="grid md:grid-cols-3 gap-4",
            ),
            rx.cond(F.admin_form, _admin_fields()),
            rx.cond(
                F.fields.length() > 0,
                rx.el.fieldset(
                    rx.el.legend(_s("Details"), class_name="text-lg font-semibold"),
                    rx.foreach(F.fields, _detail),
                    class_name="space-y-4",
                ),
            ),
            rx.el.fieldset(
                rx.el.legend(_s("Capacity"), class_name="text-lg font-semibold"),
                rx.el.div(
                    _field(
                        _s("Units"),
                        "service-units",
                        _text_input(
                            "service-units",
                            F.total_units,
                            F.set_total_units,
                            type="number",
                            min="1",
                            max="1000",
                        ),
                        _s("How many can be out at the same time."),
                    ),
                    _field(
                        _s("Buffer (minutes)"),
                        "service-buffer",
                        _text_input(
                            "service-buffer",
                            F.buffer_time_minutes,
                            F.set_buffer,
                            type="number",
                            min="0",
                            max="1440",
                        ),
                        _s("The pause each booking needs after it."),
                    ),
                    _field(
                        _s("Setup lead (minutes)"),
                        "service-setup-lead",
                        _text_input(
                            "service-setup-lead",
                            F.setup_lead_minutes,
                            F.set_setup_lead,
                            type="number",
                            min="0",
                            max="1440",
                        ),
                        _s(
                            "How long before the start the crew leaves for it (the day sheet); "
                            "blank: the usual for its kind."
                        ),
                    ),
                    class_name="grid md:grid-cols-2 gap-4",
                ),
                class_name="space-y-2",
            ),
            _images(),
            rx.el.div(
                rx.el.button(
                    rx.cond(F.saving, _s("Saving..."), _s("Save Service")),
                    type="submit",
                    disabled=F.saving | F.uploading | NOT_READY,
                    class_name=PRIMARY_BUTTON,
                    data_testid="save-service",
                ),
                class_name="flex gap-3",
            ),
            on_submit=F.save,
            class_name="mt-6 space-y-6 rounded-2xl border border-slate-200 bg-white p-4 md:p-6",
            data_testid="service-form",
        ),
    )
