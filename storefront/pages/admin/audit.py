"""The audit log: who changed what in the back office, filterable by actor, entity and day."""

import reflex as rx

from storefront import routes
from storefront.components.admin_layout import (
    CARD,
    INPUT,
    LABEL,
    SMALL_BUTTON,
    admin_frame,
    admin_table,
    cell,
    notices,
    pager,
)
from storefront.components.ui import date_input
from storefront.i18n import _o
from storefront.pages import registry
from storefront.state.admin_audit import AdminAuditState as S


def _row(entry: dict) -> rx.Component:
    return rx.el.tr(
        cell(_o("When"), entry["when"], class_name="whitespace-nowrap"),
        cell(_o("Actor"), entry["actor"], class_name="break-all"),
        cell(_o("Action"), entry["action"]),
        cell(_o("Entity"), entry["entity"], class_name="[overflow-wrap:anywhere]"),
        cell(
            _o("Details"),
            # one line per field, in words (services/audit.describe)
            rx.el.p(
                entry["changes"],
                class_name="text-sm whitespace-pre-line [overflow-wrap:anywhere]",
                data_testid="audit-changes",
            ),
        ),
        data_testid="audit-row",
    )


def _filters() -> rx.Component:
    return rx.el.form(
        rx.el.div(
            rx.el.label(_o("Actor email"), html_for="audit-actor", class_name=LABEL),
            rx.el.input(
                id="audit-actor",
                type="search",
                value=S.actor,
                on_change=S.type_actor,
                class_name=INPUT,
            ),
        ),
        rx.el.div(
            rx.el.label(_o("Entity"), html_for="audit-entity", class_name=LABEL),
            rx.el.select(
                rx.el.option(_o("All"), value="all"),
                rx.foreach(S.entity_types, lambda t: rx.el.option(t["label"], value=t["value"])),
                id="audit-entity",
                value=rx.cond(S.entity_type == "", "all", S.entity_type),
                on_change=S.choose_entity,
                class_name=INPUT,
            ),
        ),
        rx.el.div(
            rx.el.label(_o("From"), html_for="audit-from", class_name=LABEL),
            date_input(
                id="audit-from",
                value=S.date_from,
                on_change=S.type_date_from,
                class_name=INPUT,
            ),
        ),
        rx.el.div(
            rx.el.label(_o("To"), html_for="audit-to", class_name=LABEL),
            date_input(
                id="audit-to",
                value=S.date_to,
                on_change=S.type_date_to,
                class_name=INPUT,
            ),
        ),
        rx.el.div(
            rx.el.button(_o("Filter"), type="submit", class_name=SMALL_BUTTON),
            class_name="flex items-end",
        ),
        on_submit=S.apply_filters,
        class_name=CARD + " mt-6 p-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-5",
    )


@registry.page(routes.ADMIN_AUDIT, loaders=[S.load])
def admin_audit_page() -> rx.Component:
    return admin_frame(
        _o("Audit Log"),
        notices(rx.Var.create(""), S.error),
        _filters(),
        admin_table(
            [_o("When"), _o("Actor"), _o("Action"), _o("Entity"), _o("Details")],
            rx.foreach(S.entries, _row),
            test_id="audit-table",
        ),
        pager(S.page, S.pages, S.total, S.previous_page, S.next_page),
        current="settings",
    )
