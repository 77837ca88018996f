"""A van's load list (/admin/day/load/{date}, issue 37): what to load in the morning, summed by
item across the van's deliveries ('2 × Bubble house'), and what comes back on its pickups.
Printed on one page, headed with the business's name, the van and the day; staff see their
van's, an admin picks a van."""

from __future__ import annotations

import reflex as rx

from storefront import routes
from storefront.components.admin_layout import admin_frame, notices
from storefront.components.ui import kept_select, loaded_for_this_visit
from storefront.i18n import _o
from storefront.pages import registry
from storefront.pages.admin.day_sheet import DENIED, LINK_BUTTON
from storefront.state.load_list import LoadListState as S

# Printed: only the list, on one page, larger type than the screen's small print.
PRINT_CSS = """
#load-list .print-only { display: none; }
@media print {
  @page { size: A4; margin: 12mm; }
  body * { visibility: hidden; }
  #load-list, #load-list * { visibility: visible; }
  #load-list { position: absolute; left: 0; top: 0; width: 100%; }
  #load-list .no-print { display: none !important; }
  #load-list .print-only { display: block; }
  #load-list li { break-inside: avoid; }
}
"""


def _lines(title: str, lines, test_id: str, empty: str) -> rx.Component:
    return rx.el.section(
        rx.el.h2(title, class_name="text-xl font-extrabold"),
        rx.cond(
            lines.length() > 0,
            rx.el.ul(
                rx.foreach(
                    lines,
                    lambda text: rx.el.li(
                        rx.el.span("☐ ", class_name="text-slate-500", aria_hidden="true"),
                        text,
                        class_name="text-lg py-2 border-b border-slate-300",
                    ),
                ),
                class_name="mt-2",
                data_testid=test_id,
            ),
            rx.el.p(empty, class_name="mt-2 text-base text-slate-700"),
        ),
        class_name="mt-5",
    )


def _van_picker() -> rx.Component:
    """An admin's van picker (a driver has one van: no picker)."""
    return rx.cond(
        S.vans.length() > 1,
        rx.el.div(
            rx.el.label(_o("Van"), html_for="load-van", class_name="font-semibold"),
            kept_select(
                rx.foreach(S.vans, lambda v: rx.el.option(v.name, value=v.id)),
                id="load-van",
                value=S.van_id,
                on_change=S.pick_van,
                class_name="block w-full max-w-xs mt-1 p-3 text-lg rounded-xl border-2 "
                "border-slate-400 bg-white",
                data_testid="load-van",
            ),
            class_name="mt-4 no-print",
        ),
    )


@registry.page(routes.ADMIN_DAY_LOAD, routes.ADMIN_DAY_LOAD_OF, loaders=[S.load])
def load_list_page() -> rx.Component:
    return admin_frame(
        _o("Load List"),
        rx.el.style(PRINT_CSS),
        rx.el.div(
            rx.el.header(
                rx.el.h1(_o("Load List"), " · ", S.business_name, class_name="text-2xl font-bold"),
                class_name="print-only mb-2",
            ),
            rx.el.p(S.title, class_name="text-xl font-bold", data_testid="load-day"),
            rx.el.nav(
                rx.el.a(
                    rx.icon("chevron-left", size=20),
                    _o("Day Sheet"),
                    href=S.sheet_url,
                    class_name=LINK_BUTTON,
                ),
                rx.el.button(
                    rx.icon("printer", size=20),
                    _o("Print"),
                    on_click=rx.call_script("window.print()"),
                    type="button",
                    class_name=LINK_BUTTON,
                ),
                class_name="mt-4 flex flex-wrap gap-2 no-print",
            ),
            rx.el.div(notices("", S.error), class_name="no-print"),
            _van_picker(),
            rx.cond(
                loaded_for_this_visit(S.loaded),
                rx.cond(
                    S.van_id != "",
                    rx.el.div(
                        rx.el.p(
                            _o("{van} · Jobs: {count}").format(van=S.van_name, count=S.stops),
                            class_name="mt-4 text-2xl font-extrabold",
                            data_testid="load-van-name",
                        ),
                        _lines(_o("To load"), S.load_lines, "load-lines", _o("Nothing to load.")),
                        _lines(
                            _o("Comes back"),
                            S.back_lines,
                            "load-back",
                            _o("Nothing comes back."),
                        ),
                    ),
                    rx.el.p(
                        _o("No van has jobs for you on this day."),
                        class_name="mt-6 text-lg text-slate-700",
                        data_testid="load-empty",
                    ),
                ),
                rx.el.p(_o("Loading the day..."), class_name="mt-6 text-lg", role="status"),
            ),
            id="load-list",
            class_name="max-w-2xl",
        ),
        current="day",
        denied=DENIED,
        open_to_staff=True,
    )
