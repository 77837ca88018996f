"""Service Management (docs/product.md §2): every service, searched, sorted and paged on the
server."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.admin_layout import (
    DANGER_BUTTON,
    INPUT,
    LABEL,
    SMALL_BUTTON,
    admin_frame,
    admin_table,
    cell,
    notices,
    pager,
)
from storefront.components.modal import modal
from storefront.components.ui import PRIMARY_BUTTON, loading_spinner
from storefront.i18n import N_o, _o
from storefront.pages import registry
from storefront.services.catalog.admin import FieldChange
from storefront.services.catalog.listing import ServiceRow
from storefront.state.admin_services import AdminServicesState as S

EMPTY = N_o("No services found. Create your first service!")
DELETE_QUESTION = N_o("Are you sure you want to delete this service? This action cannot be undone.")
REVIEW_TEXT = N_o(
    "Its owner changed this published service. The site shows the approved version until you "
    "approve the changes."
)
SORT_LABELS = [
    ("title", N_o("Name")),
    ("category", N_o("Category")),
    ("price", N_o("Price")),
    ("created_at", N_o("Created")),
]


def _badge(text, good) -> rx.Component:
    return rx.el.span(
        text,
        class_name=rx.cond(
            good,
            "px-2 py-0.5 rounded-full text-xs font-semibold bg-green-100 text-green-800",
            "px-2 py-0.5 rounded-full text-xs font-semibold bg-slate-200 text-slate-800",
        ),
    )


def _row(service: ServiceRow) -> rx.Component:
    return rx.el.tr(
        cell(
            _o("Name"),
            rx.el.div(
                rx.el.p(service.title, class_name="font-medium"),
                # Wrapped where a slug breaks by itself, after its hyphens; a part too long
                # for the column is broken only as a last resort (break-all split every word).
                rx.el.p(
                    service.slug,
                    class_name="text-xs text-slate-600 break-words",
                    data_testid="service-slug",
                ),
            ),
        ),
        cell(
            _o("Category"),
            rx.el.div(
                rx.el.p(service.category),
                rx.el.p(service.kind_label, class_name="text-xs text-slate-600"),
            ),
        ),
        cell(_o("Price"), service.price_label, class_name="whitespace-nowrap"),
        cell(
            _o("Status"),
            rx.el.div(
                _badge(rx.cond(service.active, _o("Active"), _o("Inactive")), service.active),
                rx.cond(
                    service.status == "draft",
                    rx.el.span(
                        _o("Draft"),
                        class_name="px-2 py-0.5 rounded-full text-xs font-semibold bg-amber-100 "
                        "text-amber-900",
                        data_testid="draft-badge",
                    ),
                ),
                rx.el.button(
                    _o("Toggle"),
                    on_click=S.toggle_active(service.id),
                    aria_label=_o("Toggle status of {title}").format(title=service.title),
                    class_name=SMALL_BUTTON,
                    data_testid="toggle-active",
                ),
                rx.cond(
                    service.status == "draft",
                    rx.el.button(
                        _o("Publish"),
                        on_click=S.publish(service.id),
                        class_name=SMALL_BUTTON,
                        data_testid="publish",
                    ),
                ),
                rx.cond(
                    service.pending_review,
                    rx.el.button(
                        _o("Changes to review"),
                        on_click=S.review(service.id, service.title),
                        aria_label=_o("Review the owner's changes of {title}").format(
                            title=service.title
                        ),
                        class_name="px-2 py-0.5 rounded-full text-xs font-semibold bg-amber-100 "
                        "text-amber-900 underline",
                        data_testid="review-changes",
                    ),
                ),
                class_name="flex flex-wrap items-center justify-end md:justify-start gap-2",
            ),
        ),
        cell(
            _o("Featured"),
            rx.el.div(
                _badge(rx.cond(service.featured, _o("Featured"), _o("Regular")), service.featured),
                rx.el.button(
                    _o("Toggle"),
                    on_click=S.toggle_featured(service.id),
                    aria_label=_o("Toggle featured of {title}").format(title=service.title),
                    class_name=SMALL_BUTTON,
                    data_testid="toggle-featured",
                ),
                class_name="flex flex-wrap items-center justify-end md:justify-start gap-2",
            ),
        ),
        cell(
            _o("Actions"),
            rx.el.div(
                rx.link(
                    _o("Edit"),
                    href=i18n.href(routes.ADMIN_SERVICES + "/edit/") + service.id,
                    class_name=SMALL_BUTTON,
                    underline="none",
                ),
                rx.link(
                    _o("Availability"),
                    href=i18n.href(routes.ADMIN_SERVICES + "/availability/") + service.id,
                    class_name=SMALL_BUTTON,
                    underline="none",
                ),
                rx.el.button(
                    _o("Delete"),
                    on_click=S.ask_delete(service.id, service.title),
                    class_name=DANGER_BUTTON,
                    data_testid="delete-service",
                ),
                class_name="flex flex-wrap justify-end md:justify-start gap-2",
            ),
        ),
        data_testid="service-row",
    )


def _toolbar() -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.label(_o("Search"), html_for="service-search", class_name=LABEL),
            rx.debounce_input(
                rx.el.input(
                    id="service-search",
                    type="search",
                    value=S.search,
                    on_change=S.search_for,
                    placeholder=_o("Name or slug"),
                    class_name=INPUT,
                ),
                debounce_timeout=300,
            ),
            class_name="flex-1 min-w-[12rem]",
        ),
        rx.el.div(
            rx.el.label(_o("Sort by"), html_for="service-sort", class_name=LABEL),
            rx.el.div(
                rx.el.select(
                    *[rx.el.option(_o(label), value=key) for key, label in SORT_LABELS],
                    id="service-sort",
                    value=S.sort,
                    on_change=S.sort_by,
                    class_name=INPUT,
                ),
                rx.el.button(
                    rx.cond(S.descending, _o("Descending"), _o("Ascending")),
                    on_click=S.sort_by(S.sort),
                    type="button",
                    class_name=SMALL_BUTTON + " whitespace-nowrap",
                ),
                class_name="flex gap-2",
            ),
        ),
        class_name="mt-6 flex flex-wrap items-end gap-4",
    )


def _dialog(title: str, text: str, subject, *body, actions, open, on_close, test_id: str):
    """A question about one service: its title, what is asked, and the answers."""
    return modal(
        rx.dialog.title(title, class_name="text-xl font-bold"),
        rx.dialog.description(text, class_name="mt-2 text-slate-700"),
        rx.el.p(subject, class_name="mt-2 font-medium"),
        *body,
        rx.el.div(*actions, class_name="mt-6 flex justify-end gap-2"),
        open=open,
        on_close=on_close,
        test_id=test_id,
    )


def _button(label: str, on_click, style: str, test_id: str) -> rx.Component:
    return rx.el.button(label, on_click=on_click, class_name=style, data_testid=test_id)


def _delete_dialog() -> rx.Component:
    return _dialog(
        _o("Delete service"),
        _o(DELETE_QUESTION),
        S.delete_title,
        actions=[
            rx.dialog.close(rx.el.button(_o("Cancel"), class_name=SMALL_BUTTON, type="button")),
            _button(_o("Delete"), S.confirm_delete, DANGER_BUTTON, "confirm-delete"),
        ],
        open=S.delete_id != "",
        on_close=S.cancel_delete,
        test_id="delete-dialog",
    )


def _change(change: FieldChange) -> rx.Component:
    def side(label: str, value, colour: str) -> rx.Component:
        return rx.el.div(
            rx.el.p(label, class_name="text-xs text-slate-600"),
            rx.el.p(
                value,
                class_name=f"mt-1 whitespace-pre-wrap break-words text-sm {colour} p-2 rounded",
            ),
        )

    return rx.el.div(
        rx.el.dt(change.label, class_name="font-semibold"),
        rx.el.dd(
            side(_o("Before"), change.before, "bg-red-50"),
            side(_o("After"), change.after, "bg-green-50"),
            class_name="mt-1 grid gap-2 sm:grid-cols-2",
        ),
        class_name="py-2 border-b border-slate-200",
        data_testid="review-change",
    )


def _review_dialog() -> rx.Component:
    return _dialog(
        _o("Changes to review"),
        _o(REVIEW_TEXT),
        S.review_title,
        rx.el.dl(rx.foreach(S.changes, _change), class_name="mt-4 max-h-[60vh] overflow-y-auto"),
        actions=[
            _button(_o("Reject"), S.reject_changes, DANGER_BUTTON, "reject-changes"),
            _button(_o("Approve"), S.approve_changes, SMALL_BUTTON, "approve-changes"),
        ],
        open=S.review_id != "",
        on_close=S.close_review,
        test_id="review-dialog",
    )


@registry.page(routes.ADMIN_SERVICES, loaders=[S.load])
def admin_services() -> rx.Component:
    return admin_frame(
        _o("Service Management"),
        notices(S.notice, S.error),
        _toolbar(),
        rx.cond(
            S.loading,
            loading_spinner(),
            rx.cond(
                S.rows.length() > 0,
                rx.fragment(
                    admin_table(
                        [
                            _o("Name"),
                            _o("Category"),
                            _o("Price"),
                            _o("Status"),
                            _o("Featured"),
                            _o("Actions"),
                        ],
                        rx.foreach(S.rows, _row),
                        test_id="services-table",
                    ),
                    pager(
                        S.page,
                        S.pages,
                        S.total,
                        S.go_to_page(S.page - 1),
                        S.go_to_page(S.page + 1),
                    ),
                ),
                rx.el.p(_o(EMPTY), class_name="mt-8 text-slate-700", data_testid="services-empty"),
            ),
        ),
        _delete_dialog(),
        _review_dialog(),
        current="services",
        actions=rx.link(
            _o("Add New Service"),
            href=i18n.href(routes.ADMIN_SERVICE_CREATE),
            underline="none",
            class_name=PRIMARY_BUTTON,
        ),
    )
