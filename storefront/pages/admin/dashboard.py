"""The admin area's entry: the dashboard for admins, 'Initial Admin Setup' for a signed-in
account while no admin exists, 'Access Denied' for anyone else signed in."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.admin_layout import CARD, access_denied, admin_frame
from storefront.components.first_admin import first_admin_setup
from storefront.components.ui import success_box
from storefront.i18n import N_o, _o
from storefront.pages import registry
from storefront.state.admin_dashboard import AdminDashboardState as D
from storefront.state.auth import AuthState
from storefront.state.first_admin import InitialAdminState

# (label, count key, where it links: docs/product.md §2)
STAT_CARDS = [
    (N_o("Total Users"), "users", routes.ADMIN_USERS, "users"),
    (N_o("Admin Users"), "admins", routes.ADMIN_USERS, "shield-check"),
    (N_o("Services"), "services", routes.ADMIN_SERVICES, "package"),
    (N_o("Bookings"), "bookings", routes.ADMIN_BOOKINGS, "calendar-check"),
]
QUICK_ACTIONS = [
    (N_o("Manage Users"), routes.ADMIN_USERS, "users"),
    (N_o("Create New Service"), routes.ADMIN_SERVICE_CREATE, "plus"),
    (N_o("View Recent Bookings"), routes.ADMIN_BOOKINGS, "calendar-check"),
    (N_o("System Settings"), routes.ADMIN_SETTINGS, "settings"),
]


def _stat(label: str, key: str, href: str, icon: str) -> rx.Component:
    return rx.link(
        rx.el.div(
            rx.icon(icon, size=22, class_name="text-fuchsia-700"),
            rx.el.p(_o(label), class_name="text-sm text-slate-600"),
            class_name="flex items-center gap-2",
        ),
        rx.el.p(D.counts[key], class_name="mt-2 text-3xl font-bold", data_testid=f"stat-{key}"),
        href=i18n.href(href),
        underline="none",
        class_name=CARD + " block p-4 text-slate-900 hover:border-fuchsia-300",
    )


def _check(check: dict) -> rx.Component:
    ok = check["ok"] == "yes"
    return rx.el.li(
        rx.el.span(
            rx.cond(ok, rx.icon("circle-check", size=18), rx.icon("circle-alert", size=18)),
            class_name=rx.cond(ok, "text-green-700", "text-red-700"),
        ),
        rx.el.div(
            rx.el.p(check["name"], class_name="font-medium"),
            rx.el.p(check["detail"], class_name="text-sm text-slate-600 break-words"),
        ),
        class_name="flex gap-2 py-2 border-t border-slate-100 first:border-t-0",
        data_testid="status-check",
    )


def _week_axis() -> rx.Component:
    """The weeks under both weekly charts. Recharts leaves out labels that do not fit, and the
    bar chart (weeks as bands) and the line chart (weeks as points at the edges) left out
    different ones, so the two charts named the same weeks differently. Every week is labelled
    now, slanted so twelve fit a phone, in both charts alike."""
    return rx.recharts.x_axis(
        data_key="week",
        interval=0,
        angle=-45,
        text_anchor="end",
        height=48,
        tick={"fontSize": 12},
    )


# Both charts' value axes are as wide, so their plots (and weeks) line up one above the other.
VALUE_AXIS_WIDTH = 64


def _charts() -> rx.Component:
    return rx.el.div(
        rx.el.section(
            rx.el.h2(_o("Bookings per week"), class_name="font-semibold"),
            rx.recharts.bar_chart(
                rx.recharts.cartesian_grid(stroke_dasharray="3 3"),
                _week_axis(),
                rx.recharts.y_axis(allow_decimals=False, width=VALUE_AXIS_WIDTH),
                rx.recharts.tooltip(),
                rx.recharts.bar(data_key="bookings", name=_o("Bookings"), fill="#a21caf"),
                data=D.weeks,
                width="100%",
                height=240,
            ),
            rx.el.h2(_o("Booked value per week"), class_name="mt-6 font-semibold"),
            rx.recharts.line_chart(
                rx.recharts.cartesian_grid(stroke_dasharray="3 3"),
                _week_axis(),
                rx.recharts.y_axis(width=VALUE_AXIS_WIDTH),
                rx.recharts.tooltip(),
                rx.recharts.line(data_key="value", name=_o("Booked value"), stroke="#0f766e"),
                data=D.weeks,
                width="100%",
                height=240,
            ),
            class_name=CARD + " p-4 min-w-0",
            data_testid="weekly-charts",
        ),
        rx.el.section(
            rx.el.h2(_o("Upcoming bookings by service"), class_name="font-semibold"),
            rx.cond(
                D.upcoming.length() > 0,
                rx.recharts.bar_chart(
                    rx.recharts.x_axis(type_="number", allow_decimals=False),
                    rx.recharts.y_axis(data_key="service", type_="category", width=120),
                    rx.recharts.tooltip(),
                    rx.recharts.bar(data_key="bookings", name=_o("Bookings"), fill="#7c3aed"),
                    data=D.upcoming,
                    layout="vertical",
                    width="100%",
                    height=260,
                ),
                rx.el.p(_o("No upcoming bookings."), class_name="mt-2 text-sm text-slate-600"),
            ),
            class_name=CARD + " p-4 min-w-0",
            data_testid="upcoming-chart",
        ),
        class_name="mt-6 grid gap-4 lg:grid-cols-2",
    )


def _dashboard() -> list[rx.Component]:
    return [
        # Set after 'Initial Admin Setup' made the caller the first admin.
        success_box(InitialAdminState.notice, "first-admin-notice"),
        rx.el.p(
            _o("Welcome, {name}.").format(name=AuthState.user_name),
            class_name="mt-4 text-slate-600",
            data_testid="admin-home",
        ),
        rx.cond(
            D.sample,
            rx.el.p(
                _o("Sample numbers: the statistics could not be read."),
                role="alert",
                class_name="mt-4 rounded-lg bg-amber-50 border border-amber-200 px-4 py-2 text-sm",
                data_testid="stats-sample",
            ),
        ),
        rx.el.div(
            *[_stat(*card) for card in STAT_CARDS],
            class_name="mt-6 grid gap-4 grid-cols-2 lg:grid-cols-4",
            data_testid="admin-stats",
        ),
        rx.el.div(
            rx.el.section(
                rx.el.h2(_o("Quick Actions"), class_name="font-semibold"),
                rx.el.div(
                    *[
                        rx.link(
                            rx.icon(icon, size=18),
                            _o(label),
                            href=i18n.href(href),
                            underline="none",
                            class_name="flex items-center gap-2 rounded-lg border border-slate-200 "
                            "px-3 py-3 text-slate-800 hover:bg-fuchsia-50",
                        )
                        for label, href, icon in QUICK_ACTIONS
                    ],
                    class_name="mt-3 grid gap-2 sm:grid-cols-2",
                ),
                class_name=CARD + " p-4",
            ),
            rx.el.section(
                rx.el.h2(_o("System Status"), class_name="font-semibold"),
                rx.el.ul(rx.foreach(D.checks, _check), class_name="mt-2"),
                class_name=CARD + " p-4",
                data_testid="system-status",
            ),
            class_name="mt-6 grid gap-4 lg:grid-cols-2",
        ),
        _charts(),
    ]


@registry.page(
    routes.ADMIN,
    # Also shows 'Initial Admin Setup' while no admin exists: any account may open it.
    on_load=[
        AuthState.require_account,
        AuthState.keep_back_office_language,
        InitialAdminState.open_admin,
        D.load,
    ],
)
def admin_home() -> rx.Component:
    return admin_frame(
        _o("Admin Dashboard"),
        *_dashboard(),
        current="dashboard",
        non_admin=rx.cond(
            InitialAdminState.admin_missing,
            rx.el.div(
                rx.el.h1(_o("Admin"), class_name="text-3xl font-bold"),
                first_admin_setup(),
                class_name="max-w-5xl mx-auto px-4 py-12",
            ),
            access_denied(),
        ),
    )
