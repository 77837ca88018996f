"""The owner's reports, one month at a time (docs/payments.md 'Reports'): booked and collected
revenue by category (a chart and a table) and by service, utilisation per service,
cancellations, and the balances unpaid after the event; each table as CSV."""

import reflex as rx

from storefront import routes
from storefront.components.admin_layout import (
    CARD,
    SMALL_BUTTON,
    admin_frame,
    admin_table,
    cell,
)
from storefront.components.ui import error_box, loaded_for_this_visit, loading_spinner
from storefront.i18n import _o
from storefront.pages import registry
from storefront.state.admin_reports import AdminReportsState as S

BOOKED_COLOUR = "#a21caf"
COLLECTED_COLOUR = "#0f766e"
TOTAL_ROW = "bg-slate-50 font-semibold"


def _csv_link(table: str) -> rx.Component:
    return rx.el.a(
        rx.icon("download", size=16),
        _o("CSV"),
        href=S.csv[table],
        download=True,
        class_name=SMALL_BUTTON,
        data_testid=f"csv-{table}",
    )


def _section_head(title: str, table: str | None = None, hint: str = "") -> rx.Component:
    return rx.el.div(
        rx.el.div(
            rx.el.h2(title, class_name="text-xl font-semibold"),
            rx.el.p(hint, class_name="text-sm text-slate-600") if hint else rx.fragment(),
        ),
        _csv_link(table) if table else rx.fragment(),
        class_name="mt-10 flex flex-wrap items-end justify-between gap-3",
    )


def _month_picker() -> rx.Component:
    return rx.el.nav(
        rx.el.button(
            rx.icon("chevron-left", size=18),
            rx.el.span(_o("Previous month"), class_name="sr-only sm:not-sr-only"),
            on_click=S.previous_month,
            type="button",
            class_name=SMALL_BUTTON,
            data_testid="month-previous",
        ),
        rx.el.p(
            S.month_label,
            class_name="min-w-[9rem] text-center text-lg font-semibold",
            aria_live="polite",
            data_testid="report-month",
        ),
        rx.el.button(
            rx.el.span(_o("Next month"), class_name="sr-only sm:not-sr-only"),
            rx.icon("chevron-right", size=18),
            on_click=S.next_month,
            type="button",
            class_name=SMALL_BUTTON,
            data_testid="month-next",
        ),
        rx.el.button(
            _o("This month"),
            on_click=S.this_month,
            type="button",
            class_name=SMALL_BUTTON,
            data_testid="month-this",
        ),
        aria_label=_o("Month"),
        class_name="mt-6 flex flex-wrap items-center gap-2",
    )


def _figure(label: str, value, test_id: str) -> rx.Component:
    return rx.el.div(
        rx.el.p(label, class_name="text-sm text-slate-600"),
        rx.el.p(value, class_name="mt-1 text-2xl font-bold whitespace-nowrap", data_testid=test_id),
        class_name=CARD + " p-4",
    )


def _chart() -> rx.Component:
    """Booked against collected per category: bars across, each labelled with its amount (the
    Decimal's words from the state; the axis of numbers is not shown)."""
    return rx.el.section(
        rx.el.h3(_o("Booked and collected by category"), class_name="font-semibold"),
        rx.recharts.bar_chart(
            rx.recharts.x_axis(type_="number", hide=True),
            rx.recharts.y_axis(data_key="name", type_="category", width=110, tick={"fontSize": 12}),
            rx.recharts.legend(),
            rx.recharts.bar(
                rx.recharts.label_list(
                    data_key="booked_label", position="right", font_size=12, fill="#334155"
                ),
                data_key="booked",
                name=_o("Booked"),
                fill=BOOKED_COLOUR,
                is_animation_active=False,
            ),
            rx.recharts.bar(
                rx.recharts.label_list(
                    data_key="collected_label", position="right", font_size=12, fill="#334155"
                ),
                data_key="collected",
                name=_o("Collected"),
                fill=COLLECTED_COLOUR,
                is_animation_active=False,
            ),
            data=S.chart,
            layout="vertical",
            margin={"top": 8, "right": 96, "left": 0, "bottom": 8},
            width="100%",
            height=S.chart_height,
        ),
        class_name=CARD + " mt-4 p-4 min-w-0",
        data_testid="revenue-chart",
    )


def _category_row(row: dict) -> rx.Component:
    return rx.el.tr(
        cell(_o("Category"), row["name"]),
        cell(_o("Booked"), row["booked"], class_name="whitespace-nowrap md:text-right"),
        cell(_o("Collected"), row["collected"], class_name="whitespace-nowrap md:text-right"),
        data_testid="category-row",
    )


def _service_row(row: dict) -> rx.Component:
    return rx.el.tr(
        cell(_o("Service"), row["name"], class_name="[overflow-wrap:anywhere]"),
        cell(_o("Category"), row["category"]),
        cell(_o("Booked"), row["booked"], class_name="whitespace-nowrap md:text-right"),
        cell(_o("Collected"), row["collected"], class_name="whitespace-nowrap md:text-right"),
        data_testid="service-row",
    )


def _total_row(leading: int) -> rx.Component:
    return rx.el.tr(
        cell("", _o("Total"), col_span=leading),
        cell(_o("Booked"), S.booked_total, class_name="whitespace-nowrap md:text-right"),
        cell(_o("Collected"), S.collected_total, class_name="whitespace-nowrap md:text-right"),
        class_name=TOTAL_ROW,
        data_testid="revenue-total",
    )


def _revenue() -> list[rx.Component]:
    return [
        _section_head(
            _o("Revenue"),
            hint=_o(
                "Booked: lines of bookings not cancelled, by the day of the event. Collected: "
                "payments recorded in the month, less reversals, shared over each booking's lines."
            ),
        ),
        rx.el.div(
            _figure(_o("Booked"), S.booked_total, "booked-total"),
            _figure(_o("Collected"), S.collected_total, "collected-total"),
            class_name="mt-4 grid gap-4 grid-cols-2",
        ),
        rx.cond(
            S.chart.length() > 0,
            _chart(),
            rx.el.p(
                _o("Nothing booked or collected this month."), class_name="mt-4 text-slate-600"
            ),
        ),
        _section_head(_o("By category"), "revenue_by_category"),
        admin_table(
            [_o("Category"), _o("Booked"), _o("Collected")],
            rx.fragment(rx.foreach(S.categories, _category_row), _total_row(1)),
            test_id="revenue-by-category",
        ),
        _section_head(_o("By service"), "revenue_by_service"),
        admin_table(
            [_o("Service"), _o("Category"), _o("Booked"), _o("Collected")],
            rx.fragment(rx.foreach(S.services, _service_row), _total_row(2)),
            test_id="revenue-by-service",
        ),
    ]


def _utilisation_row(row: dict) -> rx.Component:
    return rx.el.tr(
        cell(_o("Service"), row["service"], class_name="[overflow-wrap:anywhere]"),
        cell(_o("Units"), row["units"], class_name="md:text-right"),
        cell(_o("Booked unit-hours"), row["booked"], class_name="md:text-right"),
        cell(_o("Open unit-hours"), row["open"], class_name="md:text-right"),
        cell(
            _o("Utilisation"),
            rx.el.div(
                rx.el.div(
                    rx.el.div(
                        class_name="h-2 rounded-full bg-fuchsia-600",
                        style={"width": row["width"]},
                    ),
                    class_name="h-2 w-24 rounded-full bg-slate-200 overflow-hidden",
                    aria_hidden="true",
                ),
                rx.el.span(row["share"], class_name="whitespace-nowrap"),
                class_name="flex items-center gap-2",
            ),
        ),
        data_testid="utilisation-row",
    )


def _idle(row: dict) -> rx.Component:
    return rx.el.li(
        rx.el.span(row["service"], class_name="[overflow-wrap:anywhere]"),
        rx.el.span(
            _o("{open} open unit-hours").format(open=row["open"]),
            class_name="text-slate-600 whitespace-nowrap",
        ),
        class_name="flex justify-between gap-3 border-b border-slate-100 py-1",
    )


def _utilisation() -> list[rx.Component]:
    return [
        _section_head(
            _o("Utilisation per service"),
            "utilisation",
            _o(
                "Booked unit-hours (quantity x hours) over open unit-hours (opening hours of "
                "each day, blocked days left out, x units)."
            ),
        ),
        rx.cond(
            S.utilisation.length() > 0,
            admin_table(
                [
                    _o("Service"),
                    _o("Units"),
                    _o("Booked unit-hours"),
                    _o("Open unit-hours"),
                    _o("Utilisation"),
                ],
                rx.foreach(S.utilisation, _utilisation_row),
                test_id="utilisation",
            ),
            rx.el.p(_o("Nothing booked this month."), class_name="mt-4 text-slate-600"),
        ),
        rx.cond(
            S.idle.length() > 0,
            rx.el.details(
                rx.el.summary(
                    _o("{count} services with nothing booked").format(count=S.idle.length()),
                    class_name="cursor-pointer font-medium",
                ),
                rx.el.ul(
                    rx.foreach(S.idle, _idle),
                    class_name="mt-3 grid gap-x-6 gap-y-1 sm:grid-cols-2 lg:grid-cols-3 text-sm",
                ),
                class_name=CARD + " mt-4 p-4",
                data_testid="utilisation-idle",
            ),
        ),
    ]


def _cancellations() -> list[rx.Component]:
    return [
        _section_head(
            _o("Cancellations"),
            "cancellations",
            _o("Bookings whose event starts this month."),
        ),
        rx.el.div(
            _figure(_o("Bookings"), S.cancellations["bookings"], "cancel-bookings"),
            _figure(_o("Cancelled"), S.cancellations["cancelled"], "cancel-count"),
            _figure(_o("Share"), S.cancellations["share"], "cancel-share"),
            _figure(_o("Cancelled value"), S.cancellations["value"], "cancel-value"),
            class_name="mt-4 grid gap-4 grid-cols-2 lg:grid-cols-4",
            data_testid="cancellations",
        ),
    ]


def _unpaid_row(row: dict) -> rx.Component:
    return rx.el.tr(
        cell(
            _o("Reference"),
            rx.link(
                row["reference"],
                href=row["href"],
                class_name="font-mono font-medium text-fuchsia-700 underline",
            ),
        ),
        cell(_o("Customer"), row["customer"], class_name="[overflow-wrap:anywhere]"),
        cell(_o("Event date"), row["event_day"], class_name="whitespace-nowrap"),
        cell(_o("Total"), row["total"], class_name="whitespace-nowrap md:text-right"),
        cell(_o("Paid"), row["paid"], class_name="whitespace-nowrap md:text-right"),
        cell(_o("Balance"), row["balance"], class_name="whitespace-nowrap md:text-right"),
        cell(_o("Days since"), row["days"], class_name="md:text-right"),
        data_testid="unpaid-row",
    )


def _unpaid() -> list[rx.Component]:
    return [
        _section_head(
            _o("Unpaid after the event"),
            "unpaid",
            _o("Bookings not cancelled whose event has ended with a balance left; oldest first."),
        ),
        rx.cond(
            S.unpaid_count > 0,
            rx.fragment(
                admin_table(
                    [
                        _o("Reference"),
                        _o("Customer"),
                        _o("Event date"),
                        _o("Total"),
                        _o("Paid"),
                        _o("Balance"),
                        _o("Days since"),
                    ],
                    rx.fragment(
                        rx.foreach(S.unpaid, _unpaid_row),
                        rx.el.tr(
                            cell("", _o("Total"), col_span=5),
                            cell(
                                _o("Balance"),
                                S.unpaid_total,
                                class_name="whitespace-nowrap md:text-right",
                            ),
                            cell("", ""),
                            class_name=TOTAL_ROW,
                            data_testid="unpaid-total",
                        ),
                    ),
                    test_id="unpaid",
                ),
                rx.cond(
                    S.unpaid_shown < S.unpaid_count,
                    rx.el.p(
                        _o("The oldest {shown} of {count}; the CSV has every one.").format(
                            shown=S.unpaid_shown, count=S.unpaid_count
                        ),
                        class_name="mt-2 text-sm text-slate-600",
                        data_testid="unpaid-more",
                    ),
                ),
            ),
            rx.el.p(
                _o("Every event that has passed is paid."),
                class_name="mt-4 text-slate-600",
                data_testid="unpaid-none",
            ),
        ),
    ]


@registry.page(routes.ADMIN_REPORTS, loaders=[S.load])
def admin_reports() -> rx.Component:
    return admin_frame(
        _o("Reports"),
        rx.el.div(error_box(S.error, "reports-error"), class_name="mt-4 empty:hidden"),
        _month_picker(),
        rx.cond(
            loaded_for_this_visit(S.loaded),
            rx.el.div(
                *_revenue(),
                *_utilisation(),
                *_cancellations(),
                *_unpaid(),
                class_name="pb-10",
                data_testid="reports",
            ),
            loading_spinner(),
        ),
        current="reports",
    )
