"""The account area: Dashboard, Profile and Orders."""

import reflex as rx

from storefront import i18n, routes
from storefront.components.image_upload import image_upload
from storefront.components.layout import page_layout
from storefront.components.photo import img
from storefront.components.ui import (
    NOT_READY,
    PRIMARY_BUTTON,
    SECONDARY_BUTTON,
    error_box,
    kept_input,
    loading_spinner,
    success_box,
)
from storefront.i18n import N_, _
from storefront.pages import registry
from storefront.state.account import (
    AVATAR_MAX_BYTES,
    UPLOAD_ID,
    AccountAreaState,
    CalendarFeedState,
    ProfileState,
)
from storefront.state.auth import AuthState

TABS = [
    (N_("Dashboard"), routes.ACCOUNT),
    (N_("Profile"), routes.ACCOUNT_PROFILE),
    (N_("Orders"), routes.ACCOUNT_ORDERS),
    (N_("Security"), routes.ACCOUNT_SECURITY),  # two-factor sign-in: admins only
]
STATUS_STYLES = {
    "pending": "bg-amber-100 text-amber-800",
    "confirmed": "bg-green-100 text-green-800",
    "on_the_way": "bg-sky-100 text-sky-800",
    "completed": "bg-slate-200 text-slate-800",
    "cancelled": "bg-red-100 text-red-800",
}
CARD = "rounded-3xl border border-slate-100 bg-white shadow-sm p-6"


def _tab(label: str, href: str, *, current: bool) -> rx.Component:
    """A tab of the account area; the page being shown is marked (aria-current and colour)."""
    look = "bg-fuchsia-600 text-white" if current else "hover:bg-fuchsia-50"
    return rx.link(
        _(label),
        href=i18n.href(href),
        underline="none",
        aria_current="page" if current else None,
        class_name=f"px-4 py-2 rounded-full font-medium {look}",
    )


def account_frame(title: str, *children: rx.Component) -> rx.Component:
    """Guarded: a spinner until the session check ends (guests are sent to sign in). `title`
    is SPEC's English words (marked with N_ by the caller), shown translated; it also
    picks the tab marked as current."""
    return page_layout(
        rx.cond(
            AuthState.auth_loading | ~AuthState.signed_in,
            loading_spinner(),
            rx.el.div(
                rx.el.nav(
                    *[
                        _tab(label, href, current=label == title)
                        if href != routes.ACCOUNT_SECURITY
                        else rx.cond(AuthState.is_admin, _tab(label, href, current=label == title))
                        for label, href in TABS
                    ],
                    aria_label=_("Account"),
                    class_name="flex flex-wrap gap-2",
                    data_testid="account-tabs",
                ),
                rx.el.h1(_(title), class_name="mt-6 text-3xl font-bold"),
                *children,
                class_name="max-w-5xl mx-auto px-4 py-10",
            ),
        )
    )


def _service_card(service: dict) -> rx.Component:
    return rx.el.div(
        img(
            service["image_url"],
            service["title"],
            width=400,
            height=300,
            class_name="w-full aspect-[4/3] object-cover rounded-2xl bg-slate-100",
        ),
        rx.el.h3(service["title"], class_name="mt-3 font-semibold"),
        rx.el.p(
            service["status_label"],
            " · ",
            service["price_label"],
            class_name="text-sm text-slate-600",
        ),
        rx.link(
            _("Edit"),
            href=i18n.prefix() + routes.stem(routes.SERVICE_EDIT) + service["id"],
            class_name="mt-2 inline-block text-fuchsia-700 font-medium underline",
        ),
        class_name=CARD,
    )


@registry.page(routes.ACCOUNT, loaders=[AccountAreaState.load])
def dashboard() -> rx.Component:
    return account_frame(
        N_("Dashboard"),
        rx.el.div(
            rx.el.h2(_("Account Overview"), class_name="text-lg font-bold"),
            rx.el.p(AuthState.user_name, class_name="mt-2 font-medium"),
            rx.el.p(AuthState.user_email, class_name="text-slate-600"),
            rx.el.p(
                rx.cond(AuthState.is_admin, _("Role: admin"), _("Role: user")),
                class_name="text-sm text-slate-500",
            ),
            class_name=CARD + " mt-6",
            data_testid="account-overview",
        ),
        rx.el.div(
            rx.el.h2(_("Your Services"), class_name="text-xl font-bold"),
            rx.link(
                _("Create New Service"),
                href=i18n.href(routes.SERVICE_CREATE),
                underline="none",
                class_name=PRIMARY_BUTTON,
            ),
            class_name="mt-10 flex flex-wrap items-center justify-between gap-4",
        ),
        rx.el.div(error_box(AccountAreaState.error, "account-services-error"), class_name="mt-4"),
        rx.cond(
            AccountAreaState.services.length() > 0,
            rx.el.div(
                rx.foreach(AccountAreaState.services, _service_card),
                class_name="mt-6 grid gap-6 md:grid-cols-3",
            ),
            rx.el.p(_("You have not created any services yet."), class_name="mt-6 text-slate-600"),
        ),
    )


def _avatar() -> rx.Component:
    return rx.cond(
        AuthState.avatar_url != "",
        img(
            AuthState.avatar_url,
            _("Avatar"),
            width=96,
            height=96,
            class_name="w-24 h-24 rounded-full object-cover",
            data_testid="avatar-image",
        ),
        rx.el.div(
            rx.icon("user", size=40),
            class_name="w-24 h-24 rounded-full bg-slate-100 flex items-center justify-center text-slate-400",
        ),
    )


@registry.page(routes.ACCOUNT_PROFILE, loaders=[ProfileState.load, CalendarFeedState.load])
def profile() -> rx.Component:
    return account_frame(
        N_("Profile"),
        rx.el.div(
            success_box(ProfileState.notice, "profile-notice"),
            error_box(ProfileState.error, "profile-error"),
            class_name="mt-6 space-y-2",
        ),
        rx.el.section(
            rx.el.h2(_("Avatar"), class_name="text-lg font-bold"),
            rx.el.div(
                _avatar(),
                image_upload(
                    ProfileState,
                    upload_id=UPLOAD_ID,
                    on_upload=ProfileState.upload_avatar,
                    max_bytes=AVATAR_MAX_BYTES,
                    prompt=_("Choose an image (max 2MB)"),
                    button_label=_("Upload Avatar"),
                    test_id="avatar",
                ),
                class_name="mt-4 flex flex-wrap items-center gap-6",
            ),
            class_name=CARD + " mt-6",
        ),
        rx.el.form(
            rx.el.h2(_("Personal Information"), class_name="text-lg font-bold"),
            rx.el.label(
                _("Full Name"), html_for="full_name", class_name="block mt-4 text-sm font-semibold"
            ),
            kept_input(
                id="full_name",
                name="full_name",
                default_value=ProfileState.full_name,
                auto_complete="name",
                class_name="mt-1 w-full max-w-md px-4 py-2 rounded-lg border-2 border-slate-200",
            ),
            # Staff and admins: the number customers get when the crew is on the way.
            rx.cond(
                AuthState.is_staff,
                rx.el.div(
                    rx.el.label(
                        _("Phone for customers on the event day"),
                        html_for="staff_phone",
                        class_name="block mt-4 text-sm font-semibold",
                    ),
                    kept_input(
                        id="staff_phone",
                        name="phone",
                        type="tel",
                        default_value=ProfileState.phone,
                        auto_complete="tel",
                        class_name="mt-1 w-full max-w-md px-4 py-2 rounded-lg border-2 "
                        "border-slate-200",
                    ),
                    rx.el.p(
                        _(
                            "When you mark a booking on its way, the customer's mail gives this "
                            "number; without it, the business's."
                        ),
                        class_name="mt-1 text-xs text-slate-500",
                    ),
                ),
            ),
            rx.el.div(
                rx.el.button(
                    rx.cond(ProfileState.saving, _("Saving..."), _("Save Changes")),
                    type="submit",
                    disabled=ProfileState.saving | NOT_READY,
                    class_name=PRIMARY_BUTTON,
                ),
                class_name="mt-4",
            ),
            key=ProfileState.form_key,
            on_submit=ProfileState.save,
            reset_on_submit=False,
            no_validate=True,
            class_name=CARD + " mt-6",
        ),
        rx.cond(
            AuthState.is_staff,
            rx.el.section(_back_office_language(), class_name=CARD + " mt-6"),
        ),
        rx.el.section(
            rx.el.h2(_("Security"), class_name="text-lg font-bold"),
            rx.el.label(_("Email"), class_name="block mt-4 text-sm font-semibold"),
            rx.el.input(
                value=AuthState.user_email,
                disabled=True,
                class_name="mt-1 w-full max-w-md px-4 py-2 rounded-lg border-2 border-slate-100 bg-slate-50 text-slate-500",
            ),
            rx.el.p(_("Email cannot be changed."), class_name="mt-1 text-xs text-slate-500"),
            rx.el.div(
                rx.el.span(_("Two-factor authentication"), class_name="font-medium"),
                rx.cond(
                    AuthState.is_admin,
                    rx.link(
                        _("Manage"),
                        href=i18n.href(routes.ACCOUNT_SECURITY),
                        underline="none",
                        class_name=SECONDARY_BUTTON,
                    ),
                    rx.el.button(
                        _("Enable"),
                        on_click=ProfileState.show_two_factor,
                        class_name=SECONDARY_BUTTON,
                    ),
                ),
                class_name="mt-6 flex items-center justify-between max-w-md",
            ),
            rx.cond(
                ProfileState.two_factor_notice != "",
                rx.el.p(ProfileState.two_factor_notice, class_name="mt-2 text-sm text-slate-600"),
            ),
            class_name=CARD + " mt-6",
        ),
        rx.cond(CalendarFeedState.allowed, _calendar_subscription()),
    )


# The orders table's columns and the side each is aligned to, heading and cells alike.
ORDER_COLUMNS = [
    (N_("Reference"), "text-left"),
    (N_("Event date"), "text-left"),
    (N_("Services"), "text-left"),
    (N_("Total"), "text-right"),
    (N_("Status"), "text-right"),
]
_ORDER_CELL = "px-3 py-3 align-top"


def _order_cell(column: int, *children) -> rx.Component:
    """A cell of the orders table, aligned as its heading; `data-label` names its column on a
    phone, where each order is a card (the `admin-table` layout, assets/styles.css)."""
    label, align = ORDER_COLUMNS[column]
    return rx.el.td(*children, data_label=_(label), class_name=f"{_ORDER_CELL} {align}")


def _booking_row(booking: dict) -> rx.Component:
    return rx.el.tr(
        _order_cell(
            0,
            rx.link(
                booking["reference"],
                href=i18n.prefix() + routes.stem(routes.BOOKING_CONFIRMATION) + booking["id"],
                class_name="font-mono text-sm",
                data_testid="order-link",
            ),
        ),
        _order_cell(1, booking["event_date"]),
        _order_cell(2, booking["services"]),
        _order_cell(
            3,
            rx.el.span(booking["total_label"], class_name="whitespace-nowrap"),
            # What is left to pay, once something was paid; 'Paid' when nothing is.
            rx.cond(
                booking["money_state"] == "part_paid",
                rx.el.p(
                    _("Left to pay: {balance}").format(balance=booking["balance_label"]),
                    class_name="text-xs text-slate-600 whitespace-nowrap",
                    data_testid="order-balance",
                ),
                rx.cond(
                    booking["money_state"] == "paid",
                    rx.el.p(
                        _("Paid"),
                        class_name="text-xs font-semibold text-green-800",
                        data_testid="order-balance",
                    ),
                ),
            ),
        ),
        _order_cell(
            4,
            rx.el.span(
                booking["status_label"],
                class_name="px-3 py-1 rounded-full text-xs font-semibold bg-slate-100",
                data_testid="order-status",
            ),
            # Until the cutoff its customer cancels or moves it on the booking's own page.
            rx.cond(
                booking["changeable"] == "yes",
                rx.link(
                    _("Change or cancel"),
                    href=i18n.prefix() + routes.stem(routes.BOOKING_CONFIRMATION) + booking["id"],
                    class_name="mt-2 block text-sm font-semibold text-fuchsia-700 underline",
                    data_testid="order-change",
                ),
            ),
        ),
        data_testid="order-row",
    )


@registry.page(routes.ACCOUNT_ORDERS, loaders=[AccountAreaState.load])
def orders() -> rx.Component:
    return account_frame(
        N_("Orders"),
        rx.cond(
            AccountAreaState.bookings.length() > 0,
            rx.el.div(
                # On a phone each order is a card of named cells, so every column (the
                # Status too) shows without scrolling sideways.
                rx.el.table(
                    rx.el.thead(
                        rx.el.tr(
                            *[
                                rx.el.th(
                                    _(label),
                                    scope="col",
                                    class_name=f"px-3 py-2 text-sm text-slate-500 {align}",
                                )
                                for label, align in ORDER_COLUMNS
                            ]
                        )
                    ),
                    rx.el.tbody(rx.foreach(AccountAreaState.bookings, _booking_row)),
                    class_name="admin-table w-full",
                    data_testid="orders-table",
                ),
                class_name=CARD + " mt-6",
            ),
            rx.el.div(
                rx.el.p(_("You have no bookings yet."), class_name="text-slate-600"),
                rx.link(
                    _("Browse Services"),
                    href=i18n.href(routes.HOME),
                    underline="none",
                    class_name=PRIMARY_BUTTON + " mt-4",
                ),
                class_name=CARD + " mt-6 text-center",
                data_testid="orders-empty",
            ),
        ),
    )


def _back_office_language() -> rx.Component:
    """An admin's choice of the back office's language (English by default)."""
    return rx.el.div(
        rx.el.label(
            _("Back office language"),
            html_for="back_office_language",
            class_name="block text-sm font-semibold",
        ),
        rx.el.select(
            *[rx.el.option(i18n.NAMES[lang], value=lang) for lang in i18n.BACK_OFFICE_PREFIXES],
            id="back_office_language",
            value=ProfileState.back_office_language,
            on_change=ProfileState.choose_back_office_language,
            class_name="mt-1 w-full max-w-md px-4 py-2 rounded-lg border-2 border-slate-200 bg-white",
            data_testid="back-office-language",
        ),
        class_name="mt-6",
    )


def _calendar_address() -> rx.Component:
    """The address made a moment ago, shown once: to copy, or to open as a subscription."""
    return rx.el.div(
        rx.el.label(
            _("Your calendar address"),
            html_for="calendar_feed_url",
            class_name="block text-sm font-semibold",
        ),
        rx.el.input(
            id="calendar_feed_url",
            value=CalendarFeedState.url,
            read_only=True,
            on_focus=rx.call_script("document.getElementById('calendar_feed_url').select()"),
            class_name="mt-1 w-full px-4 py-2 rounded-lg border-2 border-slate-200 font-mono text-sm",
            data_testid="calendar-feed-url",
        ),
        rx.el.div(
            rx.el.button(
                _("Copy"),
                on_click=[
                    rx.set_clipboard(CalendarFeedState.url),
                    rx.toast(_("Copied")),
                ],
                class_name=SECONDARY_BUTTON,
            ),
            rx.el.a(
                _("Subscribe on this device"),
                href=CalendarFeedState.webcal_url,
                class_name=SECONDARY_BUTTON,
                data_testid="calendar-feed-webcal",
            ),
            class_name="mt-3 flex flex-wrap gap-3",
        ),
        rx.el.p(
            _(
                "In Google Calendar: Other calendars, +, From URL, and paste the address. On a "
                "phone, 'Subscribe on this device' opens its calendar."
            ),
            class_name="mt-2 text-xs text-slate-500",
        ),
        class_name="mt-4 rounded-2xl border-2 border-amber-200 bg-amber-50 p-4",
    )


def _calendar_subscription() -> rx.Component:
    """Admins and staff: the bookings in their own calendar, through a private address."""
    return rx.el.section(
        rx.el.h2(_("Calendar subscription"), class_name="text-lg font-bold"),
        rx.el.p(
            _(
                "The bookings of the coming months in Google Calendar or your phone's calendar. "
                "The address is private: anyone who has it sees the bookings, so do not share "
                "it. A new address stops the old one."
            ),
            class_name="mt-1 text-sm text-slate-600",
        ),
        rx.el.div(
            success_box(CalendarFeedState.notice, "calendar-feed-notice"),
            error_box(CalendarFeedState.error, "calendar-feed-error"),
            class_name="mt-4 space-y-2",
        ),
        rx.el.p(
            rx.cond(
                CalendarFeedState.enabled,
                _("On since {date}.").format(date=CalendarFeedState.since),
                _("Off."),
            ),
            rx.cond(
                CalendarFeedState.last_used != "",
                " "
                + _("Last read by a calendar: {when}.").format(when=CalendarFeedState.last_used),
                "",
            ),
            class_name="mt-3 text-sm",
            data_testid="calendar-feed-status",
        ),
        rx.cond(CalendarFeedState.url != "", _calendar_address()),
        rx.el.div(
            rx.el.button(
                rx.cond(CalendarFeedState.enabled, _("Make a new address"), _("Turn on")),
                on_click=CalendarFeedState.turn_on,
                disabled=CalendarFeedState.busy,
                class_name=PRIMARY_BUTTON,
            ),
            rx.cond(
                CalendarFeedState.enabled,
                rx.el.button(
                    _("Turn off"),
                    on_click=CalendarFeedState.turn_off,
                    disabled=CalendarFeedState.busy,
                    class_name=SECONDARY_BUTTON,
                ),
            ),
            class_name="mt-4 flex flex-wrap gap-3",
        ),
        class_name=CARD + " mt-6",
        data_testid="calendar-feed",
    )
