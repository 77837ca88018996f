"""Banner Management: choose a banner, its items in display order, the add/edit item modal with
the banner image upload, and a form to create a banner."""

from __future__ import annotations

import reflex as rx

from storefront import routes
from storefront.components.admin_layout import (
    ACCESS_DENIED,
    CARD,
    DANGER_BUTTON,
    INPUT,
    LABEL,
    SMALL_BUTTON,
    admin_frame,
    admin_table,
    cancel_save,
    cell,
    checkbox,
    confirm_dialog,
    in_both_languages,
    notices,
)
from storefront.components.image_upload import image_upload
from storefront.components.modal import modal
from storefront.components.photo import img
from storefront.components.ui import PRIMARY_BUTTON, error_box, loaded_for_this_visit
from storefront.i18n import _o
from storefront.pages import registry
from storefront.services.catalog.banner_admin import (
    DESCRIPTION_MAX,
    ITEM_DESCRIPTION_MAX,
    NAME_MAX,
    TITLE_MAX,
    URL_MAX,
)
from storefront.state.admin_banners import (
    CONFIRM_DELETE,
    IMAGE_MAX_BYTES,
    NO_BANNERS,
    UPLOAD_ID,
    AdminBannersState,
)

S = AdminBannersState


def _field(label: str, control: rx.Component, field_id: str) -> rx.Component:
    return rx.el.div(rx.el.label(label, html_for=field_id, class_name=LABEL), control)


def _choose_banner() -> rx.Component:
    return rx.el.section(
        rx.el.h2(_o("Banner"), class_name="sr-only"),
        rx.el.label(_o("Select Banner"), html_for="banner-select", class_name=LABEL),
        rx.el.select(
            rx.foreach(S.banners, lambda b: rx.el.option(b["name"], value=b["id"])),
            id="banner-select",
            value=S.selected_id,
            on_change=S.select_banner,
            class_name=INPUT + " md:max-w-md",
            data_testid="banner-select",
        ),
        class_name="mt-6",
    )


def _item_row(item: dict) -> rx.Component:
    return rx.el.tr(
        cell(
            _o("Image"),
            img(
                src=item["image_url"],
                alt=item["title"],
                width=56,
                height=70,
                class_name="w-14 h-[70px] object-cover rounded-lg bg-slate-100",
            ),
        ),
        cell(_o("Title"), item["title"], class_name="font-medium"),
        cell(
            _o("Description"),
            rx.el.span(item["description"], class_name="line-clamp-2 text-slate-600"),
        ),
        cell(_o("Link"), rx.el.span(item["link_url"], class_name="break-words")),
        cell(_o("Order"), item["display_order"], data_testid="banner-item-order"),
        cell(_o("Status"), item["status"]),
        cell(
            _o("Actions"),
            rx.el.div(
                rx.el.button(
                    _o("Edit"),
                    on_click=S.open_edit_item(item["id"]),
                    type="button",
                    aria_label=_o("Edit {title}").format(title=item["title"]),
                    class_name=SMALL_BUTTON,
                    data_testid="banner-item-edit",
                ),
                rx.el.button(
                    _o("Delete"),
                    on_click=S.ask_delete_item(item["id"]),
                    type="button",
                    aria_label=_o("Delete {title}").format(title=item["title"]),
                    class_name=DANGER_BUTTON,
                    data_testid="banner-item-delete",
                ),
                class_name="flex flex-wrap gap-2 justify-end md:justify-start",
            ),
        ),
        data_testid="banner-item-row",
    )


def _items() -> rx.Component:
    return rx.el.section(
        rx.el.div(
            rx.el.h2(_o("Banner Items"), class_name="text-xl font-semibold"),
            rx.el.button(
                rx.icon("plus", size=16),
                _o("Add Item"),
                on_click=S.open_new_item,
                type="button",
                class_name=PRIMARY_BUTTON + " py-2",
                data_testid="banner-item-add",
            ),
            class_name="flex flex-wrap items-center justify-between gap-3",
        ),
        rx.cond(
            S.items.length() == 0,
            rx.el.p(
                _o("This banner has no items yet."),
                class_name=CARD + " mt-4 p-6 text-center text-slate-600",
                data_testid="banner-items-empty",
            ),
            admin_table(
                [
                    _o("Image"),
                    _o("Title"),
                    _o("Description"),
                    _o("Link"),
                    _o("Order"),
                    _o("Status"),
                    _o("Actions"),
                ],
                rx.foreach(S.items, _item_row),
                test_id="banner-items-table",
            ),
        ),
        class_name="mt-8",
    )


def _create_banner() -> rx.Component:
    return rx.el.section(
        rx.el.form(
            rx.el.h2(_o("Create Banner"), class_name="text-xl font-semibold"),
            rx.el.div(
                _field(
                    _o("Banner Name"),
                    rx.el.input(
                        type="text",
                        id="banner-name",
                        name="name",
                        max_length=NAME_MAX,
                        class_name=INPUT,
                    ),
                    "banner-name",
                ),
                _field(
                    _o("Description (optional)"),
                    rx.el.input(
                        type="text",
                        id="banner-description",
                        name="description",
                        max_length=DESCRIPTION_MAX,
                        class_name=INPUT,
                    ),
                    "banner-description",
                ),
                class_name="mt-3 grid gap-3 md:grid-cols-2",
            ),
            rx.el.div(error_box(S.banner_error, "banner-create-error"), class_name="mt-3"),
            rx.el.button(
                _o("Create Banner"),
                type="submit",
                class_name=PRIMARY_BUTTON + " py-2 mt-3",
                data_testid="banner-create",
            ),
            key=S.banner_form_key,
            on_submit=S.create_banner,
            reset_on_submit=False,
            class_name=CARD + " p-4",
            data_testid="banner-create-form",
        ),
        class_name="mt-10",
    )


def _item_form() -> rx.Component:
    values = S.item_values
    return rx.el.form(
        rx.dialog.title(
            rx.cond(S.editing_item_id != "", _o("Edit Banner Item"), _o("Add Banner Item")),
            class_name="text-xl font-bold pr-8",
        ),
        rx.el.div(
            in_both_languages(
                _o("Title"),
                *[
                    rx.el.input(
                        type="text",
                        id="item-title" + suffix,
                        name="title" + suffix.replace("-", "_"),
                        max_length=TITLE_MAX,
                        default_value=values["title" + suffix.replace("-", "_")],
                        aria_describedby="item-title-label" if suffix else None,
                        class_name=INPUT,
                    )
                    for suffix in ("", "-en")
                ],
                field_id="item-title",
            ),
            in_both_languages(
                _o("Description (optional)"),
                *[
                    rx.el.textarea(
                        id="item-description" + suffix,
                        name="description" + suffix.replace("-", "_"),
                        rows=3,
                        max_length=ITEM_DESCRIPTION_MAX,
                        default_value=values["description" + suffix.replace("-", "_")],
                        aria_describedby="item-description-label" if suffix else None,
                        class_name=INPUT,
                    )
                    for suffix in ("", "-en")
                ],
                field_id="item-description",
            ),
            rx.el.div(
                rx.el.p(_o("Banner Image"), class_name=LABEL),
                rx.cond(
                    S.item_image_url != "",
                    img(
                        src=S.item_image_url,
                        alt=_o("Banner image preview"),
                        width=112,
                        height=140,
                        class_name="mb-2 w-28 h-[140px] object-cover rounded-lg bg-slate-100",
                        data_testid="banner-item-preview",
                    ),
                ),
                image_upload(
                    S,
                    upload_id=UPLOAD_ID,
                    on_upload=S.upload_banner_image,
                    max_bytes=IMAGE_MAX_BYTES,
                    prompt=_o("Choose an image (PNG, JPG, WEBP or GIF, up to 5MB)"),
                    button_label=_o("Upload Image"),
                    test_id="banner-image",
                ),
            ),
            rx.el.div(
                _field(
                    _o("Link (optional)"),
                    rx.el.input(
                        type="text",
                        id="item-link",
                        name="link_url",
                        max_length=URL_MAX,
                        placeholder="/contact",
                        default_value=values["link_url"],
                        class_name=INPUT,
                    ),
                    "item-link",
                ),
                _field(
                    _o("Display Order"),
                    rx.el.input(
                        type="number",
                        id="item-order",
                        name="display_order",
                        min=0,
                        step=1,
                        default_value=values["display_order"],
                        class_name=INPUT,
                    ),
                    "item-order",
                ),
                class_name="grid grid-cols-1 sm:grid-cols-2 gap-3",
            ),
            checkbox(_o("Active"), id="item-active", name="is_active", checked=S.item_active),
            error_box(S.item_error, "banner-item-error"),
            cancel_save(S.close_item, save_test_id="banner-item-save", disabled=S.uploading),
            class_name="mt-4 flex flex-col gap-4",
        ),
        on_submit=S.save_item,
        reset_on_submit=False,
    )


def _confirm_delete() -> rx.Component:
    return confirm_dialog(
        _o("Please confirm"),
        _o(CONFIRM_DELETE),
        confirm_label=_o("Delete"),
        on_confirm=S.delete_item,
        on_cancel=S.cancel_delete,
        open=S.confirm_item_id != "",
        test_id="banner-item-confirm",
        confirm_test_id="banner-item-confirm-yes",
        confirm_class="inline-flex items-center min-h-[32px] px-4 py-1 rounded-lg text-sm "
        "font-semibold bg-red-600 text-white hover:bg-red-700",
    )


@registry.page(routes.ADMIN_BANNERS, loaders=[AdminBannersState.load])
def admin_banners() -> rx.Component:
    return admin_frame(
        _o("Banner Management"),
        notices(S.notice, S.error, prefix="banners"),
        rx.cond(
            loaded_for_this_visit(S.loaded),
            rx.fragment(
                rx.cond(
                    S.banners.length() == 0,
                    rx.el.p(
                        _o(NO_BANNERS),
                        class_name=CARD + " mt-6 p-6 text-center text-slate-600",
                        data_testid="banners-empty",
                    ),
                    rx.fragment(_choose_banner(), _items()),
                ),
                _create_banner(),
                modal(
                    _item_form(),
                    open=S.item_open,
                    on_close=S.close_item,
                    test_id="banner-item-modal",
                ),
                _confirm_delete(),
            ),
        ),
        current="banners",
        denied=ACCESS_DENIED,
        actions=rx.el.button(
            rx.cond(S.creating_folders, _o("Creating..."), _o("Create Storage Folders")),
            on_click=S.create_folders,
            disabled=S.creating_folders,
            type="button",
            class_name=SMALL_BUTTON,
            data_testid="create-folders",
        ),
    )
