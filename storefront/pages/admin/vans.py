"""Vans and the day's plan (issue 37): the business's vans (add, change, set aside), and for a
day every run in leave order with a van and a crew to give it, the runs that clash in red."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.admin_layout import (
    CARD,
    CHECKBOX,
    INPUT,
    LABEL,
    SMALL_BUTTON,
    admin_frame,
    notices,
)
from storefront.components.ui import (
    PRIMARY_BUTTON,
    field_error,
    kept_input,
    kept_select,
    kept_textarea,
    loaded_for_this_visit,
)
from storefront.i18n import _o
from storefront.pages import registry
from storefront.state.admin_vans import AdminVanPlanState as P
from storefront.state.admin_vans import AdminVansState as S


def _link(label: str, route: str, icon: str, test_id: str) -> rx.Component:
    return rx.link(
        rx.icon(icon, size=16),
        label,
        href=i18n.href(route),
        class_name=SMALL_BUTTON,
        underline="none",
        data_testid=test_id,
    )


# --- the vans -----------------------------------------------------------------------------------


def _van_field(name: str, label: str, *, area: bool = False) -> rx.Component:
    field_id = f"van-{name}"
    props = {
        "id": field_id,
        "name": name,
        "default_value": S.form.get(name, ""),
        "aria_invalid": rx.cond(S.field_errors.contains(name), "true", "false"),
        "aria_describedby": f"{field_id}-error",
        "class_name": INPUT,
        "data_testid": field_id,
    }
    return rx.el.div(
        rx.el.label(label, html_for=field_id, class_name=LABEL),
        kept_textarea(rows=2, **props) if area else kept_input(type="text", **props),
        field_error(S.field_errors, name, f"{field_id}-error", f"{field_id}-error"),
    )


def _van_form() -> rx.Component:
    return rx.el.form(
        rx.el.h2(
            rx.cond(S.editing != "", _o("Change the van"), _o("Add a van")),
            class_name="text-lg font-bold",
        ),
        rx.el.div(
            _van_field("name", _o("Name")),
            _van_field("plate", _o("Plate")),
            _van_field("note", _o("What fits"), area=True),
            class_name="mt-4 grid gap-4 md:grid-cols-3",
        ),
        rx.el.div(
            rx.el.button(
                _o("Save van"), type="submit", class_name=PRIMARY_BUTTON, data_testid="van-save"
            ),
            rx.cond(
                S.editing != "",
                rx.el.button(_o("Cancel"), type="button", on_click=S.new, class_name=SMALL_BUTTON),
            ),
            class_name="mt-4 flex flex-wrap items-center gap-2",
        ),
        on_submit=S.save,
        key=S.form_key,
        class_name=CARD + " mt-6 p-4 md:p-6",
        data_testid="van-form",
    )


def _van_card(van: dict) -> rx.Component:
    return rx.el.li(
        rx.el.div(
            rx.el.p(van["name"], class_name="font-semibold break-words"),
            rx.el.p(van["plate"], class_name="text-sm text-slate-600"),
            rx.cond(
                van["note"] != "",
                rx.el.p(van["note"], class_name="text-sm text-slate-600 break-words"),
            ),
            rx.cond(
                van["active"] == "",
                rx.el.p(_o("Not in use"), class_name="text-xs font-semibold text-amber-700"),
            ),
            class_name="min-w-0 flex-1",
        ),
        rx.el.div(
            rx.el.button(
                rx.icon("pencil", size=16),
                _o("Edit"),
                type="button",
                on_click=S.edit(van["id"]),
                class_name=SMALL_BUTTON,
                data_testid="van-edit",
            ),
            rx.cond(
                van["active"] != "",
                rx.el.button(
                    _o("Set aside"),
                    type="button",
                    on_click=S.set_active(van["id"], False),
                    class_name=SMALL_BUTTON,
                    data_testid="van-set-aside",
                ),
                rx.el.button(
                    _o("Bring back"),
                    type="button",
                    on_click=S.set_active(van["id"], True),
                    class_name=SMALL_BUTTON,
                    data_testid="van-bring-back",
                ),
            ),
            class_name="flex flex-wrap gap-2",
        ),
        class_name=CARD + " flex flex-col gap-3 p-4 sm:flex-row sm:items-start",
        data_testid="van-row",
    )


@registry.page(routes.ADMIN_VANS, loaders=[S.load])
def admin_vans_page() -> rx.Component:
    return admin_frame(
        _o("Vans"),
        notices(S.notice, S.error),
        rx.cond(
            loaded_for_this_visit(S.loaded),
            rx.fragment(
                _van_form(),
                rx.cond(
                    S.vans.length() > 0,
                    rx.el.ul(rx.foreach(S.vans, _van_card), class_name="mt-6 grid gap-3"),
                    rx.el.p(_o("No vans yet: add the first above."), class_name="mt-6"),
                ),
            ),
            rx.el.p(_o("Loading..."), class_name="mt-6", role="status"),
        ),
        current="vans",
        actions=_link(_o("Day's Plan"), routes.ADMIN_VANS_PLAN, "route", "vans-plan-link"),
    )


# --- the day's plan -----------------------------------------------------------------------------


def _crew_box(row: dict, member: dict) -> rx.Component:
    return rx.el.label(
        kept_input(
            type="checkbox",
            name="crew-" + member["id"],
            default_checked=row["crew_ids"].contains(member["id"]),
            class_name=CHECKBOX,
            data_testid="plan-crew",
        ),
        rx.el.span(member["name"], class_name="break-words"),
        class_name="flex items-center gap-2 text-sm",
    )


def _run(row: dict) -> rx.Component:
    clashing = row["clashes"] != ""
    return rx.el.form(
        rx.el.input(type="hidden", name="run", value=row["key"]),
        rx.el.div(
            rx.el.span(row["times"], class_name="font-bold"),
            rx.el.span(row["reference"], class_name="font-semibold"),
            rx.el.span(
                row["leg_words"],
                class_name="rounded-full bg-slate-100 px-2 text-xs font-semibold",
            ),
            class_name="flex flex-wrap items-center gap-2",
        ),
        rx.el.p(row["customer"], " · ", row["venue"], class_name="mt-1 text-sm break-words"),
        rx.el.p(row["load"], class_name="text-sm text-slate-600 break-words"),
        rx.cond(
            clashing,
            rx.el.p(
                rx.icon("triangle-alert", size=16, class_name="inline mr-1"),
                row["clashes"],
                role="alert",
                class_name="mt-2 text-sm font-semibold text-red-700 break-words",
                data_testid="plan-clash",
            ),
        ),
        rx.el.div(
            rx.el.div(
                rx.el.label(_o("Van"), class_name=LABEL),
                kept_select(
                    rx.el.option("—", value=""),
                    rx.foreach(P.van_choices, lambda v: rx.el.option(v["name"], value=v["id"])),
                    name="van",
                    default_value=row["van_id"],
                    aria_label=_o("Van"),
                    class_name=INPUT,
                    data_testid="plan-van",
                ),
            ),
            rx.el.fieldset(
                rx.el.legend(_o("Crew"), class_name=LABEL),
                rx.el.div(
                    rx.foreach(P.crew_choices, lambda m: _crew_box(row, m)),
                    class_name="flex flex-wrap gap-x-4 gap-y-2",
                ),
            ),
            class_name="mt-3 grid gap-3 md:grid-cols-2",
        ),
        rx.cond(
            P.run_errors.contains(row["key"]),
            rx.el.p(
                P.run_errors[row["key"]],
                class_name="mt-2 text-sm text-red-700",
                data_testid="plan-run-error",
            ),
        ),
        rx.el.div(
            rx.el.button(
                _o("Assign"), type="submit", class_name=PRIMARY_BUTTON, data_testid="plan-assign"
            ),
            rx.cond(
                row["van_name"] != "",
                rx.el.span(
                    row["van_name"],
                    " · ",
                    row["crew_names"],
                    class_name="text-sm text-slate-600 break-words",
                    data_testid="plan-assigned",
                ),
            ),
            class_name="mt-3 flex flex-wrap items-center gap-3",
        ),
        on_submit=P.assign,
        key=P.form_key + row["key"],
        class_name=rx.cond(
            clashing,
            CARD + " p-4 border-red-400 ring-1 ring-red-300",
            CARD + " p-4",
        ),
        data_testid="plan-run",
        data_reference=row["reference"],
        data_leg=row["leg"],
    )


def _nav() -> rx.Component:
    return rx.el.nav(
        rx.el.a(
            rx.icon("chevron-left", size=16),
            _o("Previous day"),
            href=P.previous_url,
            class_name=SMALL_BUTTON,
            data_testid="plan-previous",
        ),
        rx.el.a(_o("Today"), href=P.today_url, class_name=SMALL_BUTTON),
        rx.el.a(
            _o("Next day"),
            rx.icon("chevron-right", size=16),
            href=P.next_url,
            class_name=SMALL_BUTTON,
            data_testid="plan-next",
        ),
        aria_label=_o("Days"),
        class_name="mt-4 flex flex-wrap gap-2",
    )


@registry.page(routes.ADMIN_VANS_PLAN, routes.ADMIN_VANS_PLAN_OF, loaders=[P.load])
def admin_van_plan_page() -> rx.Component:
    return admin_frame(
        _o("Day's Plan"),
        rx.el.p(P.title, class_name="text-lg font-semibold", data_testid="plan-day"),
        _nav(),
        notices(P.notice, P.error),
        rx.cond(
            loaded_for_this_visit(P.loaded),
            rx.fragment(
                rx.cond(
                    P.clash_count > 0,
                    rx.el.p(
                        _o(
                            "Clashes: {count}. A van or a member of staff is on two runs at once."
                        ).format(count=P.clash_count),
                        class_name="mt-4 font-semibold text-red-700",
                        data_testid="plan-clash-count",
                    ),
                ),
                rx.cond(
                    P.by_van.length() > 0,
                    rx.el.ul(
                        rx.foreach(
                            P.by_van,
                            lambda v: rx.el.li(
                                rx.el.span(v["name"], class_name="font-semibold"),
                                ": ",
                                v["runs"],
                                class_name="break-words",
                            ),
                        ),
                        class_name=CARD + " mt-4 space-y-1 p-4 text-sm",
                        data_testid="plan-by-van",
                    ),
                ),
                rx.cond(
                    P.van_choices.length() == 0,
                    rx.el.p(
                        _o("Add your vans first."),
                        " ",
                        rx.link(_o("Vans"), href=i18n.href(routes.ADMIN_VANS)),
                        class_name="mt-4",
                    ),
                ),
                rx.cond(
                    P.runs.length() > 0,
                    rx.el.div(rx.foreach(P.runs, _run), class_name="mt-4 grid gap-3"),
                    rx.el.p(_o("No runs on this day."), class_name="mt-6 text-slate-600"),
                ),
            ),
            rx.el.p(_o("Loading the day..."), class_name="mt-6", role="status"),
        ),
        current="vans",
        actions=_link(_o("Vans"), routes.ADMIN_VANS, "truck", "vans-list-link"),
    )
