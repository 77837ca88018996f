"""The day sheet (/admin/day/{date}): the day's jobs on a driver's phone. One column, big targets,
dark text on white (readable in sunlight); each booking one block: when to leave, what to load,
who to call, where to go, what to bring back, notes, and the status buttons. Printed, the page
keeps only the sheet, headed with its title, the business's name and the day, one booking per
block."""

from __future__ import annotations

import reflex as rx

from storefront import i18n, routes
from storefront.components.admin_layout import admin_frame, notices
from storefront.components.set_up import set_up
from storefront.components.ui import kept_input, kept_select, loaded_for_this_visit
from storefront.i18n import N_o, _o, _s
from storefront.pages import registry
from storefront.services.booking.contact import fields_for
from storefront.services.payments import ledger
from storefront.state.admin_bookings import STATUS_LABELS
from storefront.state.auth import AuthState
from storefront.state.day_sheet import DaySheetState as S

DENIED = N_o("You must be staff or an admin to view this page.")
# What a status button says, and how it looks.
BUTTONS = {
    "on_the_way": (N_o("On the way"), "bg-sky-700 hover:bg-sky-800", "truck"),
    "completed": (N_o("Completed"), "bg-green-700 hover:bg-green-800", "circle-check"),
}
BIG_BUTTON = (
    "inline-flex items-center justify-center gap-2 min-h-[48px] px-4 rounded-xl text-base "
    "font-semibold text-white disabled:opacity-50 disabled:cursor-wait"
)
LINK_BUTTON = (
    "inline-flex items-center justify-center gap-2 min-h-[48px] px-4 rounded-xl text-base "
    "font-semibold border-2 border-slate-800 text-slate-900 bg-white hover:bg-slate-100"
)
# Printed: only the sheet under its header, each booking kept on one page where it fits.
PRINT_CSS = """
#day-sheet .print-only { display: none; }
@media print {
  body * { visibility: hidden; }
  #day-sheet, #day-sheet * { visibility: visible; }
  #day-sheet { position: absolute; left: 0; top: 0; width: 100%; }
  #day-sheet .no-print { display: none !important; }
  #day-sheet .print-only { display: block; }
  #day-sheet [data-testid="sheet-booking"] { break-inside: avoid; border: 1px solid #000; }
}
"""


def _status_word(status) -> rx.Var:
    return rx.match(status, *[(code, _o(word)) for code, word in STATUS_LABELS.items()], status)


def _fact(label: str, *value) -> rx.Component:
    return rx.el.div(
        rx.el.dt(label, class_name="text-sm font-semibold uppercase tracking-wide text-slate-600"),
        rx.el.dd(*value, class_name="text-lg text-slate-950 break-words"),
    )


def _line(line) -> rx.Component:
    return rx.el.li(
        rx.el.span(line.service, class_name="font-semibold"),
        " × ",
        line.quantity.to_string(),
        rx.el.span(" · ", line.start, "–", line.end, class_name="text-slate-700"),
        class_name="text-lg",
    )


def _note(note) -> rx.Component:
    return rx.el.li(
        rx.el.p(note.text, class_name="whitespace-pre-wrap text-base"),
        rx.el.p(note.author, " · ", note.written, class_name="text-sm text-slate-600"),
        class_name="border-l-4 border-amber-400 pl-3 py-1",
    )


def _status_button(booking, code: str) -> rx.Component:
    label, look, icon = BUTTONS[code]
    return rx.cond(
        booking.next_statuses.contains(code),
        rx.el.button(
            rx.icon(icon, size=20),
            _o(label),
            on_click=S.mark(booking.booking_id, code),
            disabled=S.busy != "",
            type="button",
            class_name=f"{BIG_BUTTON} {look}",
            data_testid=f"sheet-{code}",
        ),
    )


def _note_form(booking) -> rx.Component:
    return rx.cond(
        S.note_for == booking.booking_id,
        rx.el.form(
            rx.el.label(_o("Note"), html_for="sheet-note", class_name="font-semibold"),
            rx.el.textarea(
                id="sheet-note",
                name="note",
                value=S.note_text,
                on_change=S.type_note,
                rows=3,
                class_name="w-full mt-1 p-3 text-base rounded-xl border-2 border-slate-400",
            ),
            rx.cond(
                S.note_error != "",
                rx.el.p(S.note_error, role="alert", class_name="mt-1 text-red-700 font-medium"),
            ),
            rx.el.div(
                rx.el.button(
                    _o("Save note"),
                    type="submit",
                    class_name=f"{BIG_BUTTON} bg-slate-900 hover:bg-black",
                    data_testid="sheet-note-save",
                ),
                rx.el.button(
                    _o("Cancel"), type="button", on_click=S.close_note, class_name=LINK_BUTTON
                ),
                class_name="mt-2 flex flex-wrap gap-2",
            ),
            on_submit=S.save_note,
            class_name="mt-3 no-print",
        ),
        rx.el.button(
            rx.icon("notebook-pen", size=20),
            _o("Add a note"),
            on_click=S.open_note(booking.booking_id),
            type="button",
            class_name=f"{LINK_BUTTON} no-print",
            data_testid="sheet-note-open",
        ),
    )


def _collect(booking) -> rx.Component:
    """What is left to collect, and 'Collected' (the balance to start with, editable)."""
    return rx.el.div(
        rx.cond(
            booking.balance != "0.00",
            rx.el.p(
                _o("To collect: {amount}").format(amount=booking.balance_label),
                class_name="text-xl font-extrabold text-slate-950",
                data_testid="sheet-to-collect",
            ),
            rx.el.p(
                _o("Paid: {amount}").format(amount=booking.paid_label),
                class_name="text-lg font-bold text-green-800",
                data_testid="sheet-paid",
            ),
        ),
        rx.cond(
            (booking.balance != "0.00") & (S.collect_for != booking.booking_id),
            rx.el.button(
                rx.icon("banknote", size=20),
                _o("Collected"),
                on_click=S.open_collect(booking.booking_id),
                type="button",
                class_name=f"{BIG_BUTTON} mt-2 bg-emerald-700 hover:bg-emerald-800 no-print",
                data_testid="sheet-collect-open",
            ),
        ),
        rx.cond(
            S.collect_for == booking.booking_id,
            rx.el.form(
                rx.el.div(
                    rx.el.div(
                        rx.el.label(
                            _o("Amount"), html_for="collect-amount", class_name="font-semibold"
                        ),
                        kept_input(
                            id="collect-amount",
                            name="amount",
                            default_value=S.collect_amount,
                            input_mode="decimal",
                            auto_complete="off",
                            class_name="w-full mt-1 p-3 text-lg rounded-xl border-2 border-slate-400",
                        ),
                    ),
                    rx.el.div(
                        rx.el.label(
                            _o("Method"), html_for="collect-method", class_name="font-semibold"
                        ),
                        kept_select(
                            *[
                                rx.el.option(_s(ledger.METHOD_WORDS[m]), value=m)
                                for m in ledger.STAFF_METHODS
                            ],
                            id="collect-method",
                            name="method",
                            default_value="cash",
                            class_name="w-full mt-1 p-3 text-lg rounded-xl border-2 border-slate-400 bg-white",
                        ),
                    ),
                    class_name="grid grid-cols-2 gap-3",
                ),
                rx.cond(
                    S.collect_error != "",
                    rx.el.p(
                        S.collect_error,
                        role="alert",
                        class_name="mt-1 text-red-700 font-medium",
                        data_testid="sheet-collect-error",
                    ),
                ),
                rx.el.div(
                    rx.el.button(
                        _o("Save payment"),
                        type="submit",
                        disabled=S.collect_busy,
                        class_name=f"{BIG_BUTTON} bg-emerald-700 hover:bg-emerald-800",
                        data_testid="sheet-collect-save",
                    ),
                    rx.el.button(
                        _o("Cancel"),
                        type="button",
                        on_click=S.close_collect,
                        class_name=LINK_BUTTON,
                    ),
                    class_name="mt-2 flex flex-wrap gap-2",
                ),
                on_submit=S.save_collect,
                key=S.collect_for,
                class_name="mt-2 no-print",
            ),
        ),
        class_name="mt-4 rounded-xl bg-emerald-50 border-2 border-emerald-300 p-3",
        data_testid="sheet-money",
    )


def _my_day() -> rx.Component:
    """What the signed-in member of staff recorded on this day."""
    return rx.cond(
        S.mine_total != "",
        rx.el.div(
            rx.el.p(
                _o("You collected today: {amount}").format(amount=S.mine_total),
                class_name="text-lg font-bold",
            ),
            rx.el.p(rx.foreach(S.mine, lambda part: rx.el.span(part, " ")), class_name="text-base"),
            class_name="mt-4 rounded-xl border-2 border-emerald-400 bg-white p-3",
            data_testid="sheet-my-day",
        ),
    )


def _booking(booking) -> rx.Component:
    return rx.el.article(
        rx.el.div(
            rx.el.div(
                rx.el.p(
                    _o("Leave the depot at {time}").format(time=booking.leave),
                    class_name="text-2xl font-extrabold text-slate-950",
                    data_testid="sheet-leave",
                ),
                rx.el.p(
                    booking.start,
                    "–",
                    booking.end,
                    " · ",
                    booking.reference,
                    class_name="text-lg text-slate-800",
                ),
            ),
            rx.el.span(
                _status_word(booking.status),
                class_name="px-3 py-1 rounded-full border-2 border-slate-800 text-base font-bold",
                data_testid="sheet-status",
            ),
            class_name="flex flex-wrap items-start justify-between gap-2",
        ),
        # A rainy day's offer waits for the customer (issue 37): nothing to load yet.
        rx.cond(
            booking.weather_offered,
            rx.el.p(
                rx.icon("cloud-rain", size=20, class_name="shrink-0"),
                _o("Weather: the customer was offered a move or a cancellation"),
                class_name="mt-2 flex items-center gap-2 rounded-xl border-2 border-sky-700 "
                "bg-sky-50 px-3 py-2 text-base font-semibold text-sky-900",
                data_testid="sheet-weather",
            ),
        ),
        rx.el.dl(
            _fact(_o("Customer"), booking.customer),
            _fact(
                _o("Phone"),
                rx.cond(
                    booking.phone_link != "",
                    rx.el.a(
                        booking.phone,
                        href=booking.phone_link,
                        class_name="font-semibold text-sky-800 underline",
                        data_testid="sheet-call",
                    ),
                    "—",
                ),
            ),
            _fact(
                _o("Venue"),
                rx.cond(
                    booking.maps_link != "",
                    rx.el.a(
                        booking.venue,
                        href=booking.maps_link,
                        target="_blank",
                        rel="noopener",
                        class_name="font-semibold text-sky-800 underline",
                        data_testid="sheet-map",
                    ),
                    "—",
                ),
            ),
            rx.cond(
                booking.van != "",
                _fact(_o("Van"), booking.van, rx.cond(booking.crew != "", " · ", ""), booking.crew),
            ),
            rx.cond(booking.guests != "", _fact(_o("Guests"), booking.guests)),
            rx.cond(booking.event_type != "", _fact(_o("Event Type"), booking.event_type)),
            # The declared fields laid out by no screen by hand (models/contact_fields.py).
            *[
                rx.cond(
                    booking.details[f.name] != "",
                    _fact(_s(f.label), booking.details[f.name]),
                )
                for f in fields_for("day_sheet", added=True)
            ],
            class_name="mt-3 grid gap-3 sm:grid-cols-2",
        ),
        rx.el.h3(_o("Unload"), class_name="mt-4 text-lg font-bold"),
        rx.el.ul(rx.foreach(booking.lines, _line), class_name="mt-1 space-y-1"),
        rx.cond(
            booking.special_requests != "",
            rx.el.div(
                rx.el.h3(_o("Special Requests"), class_name="mt-4 text-lg font-bold"),
                rx.el.p(booking.special_requests, class_name="text-base whitespace-pre-wrap"),
            ),
        ),
        rx.cond(
            booking.pickup != "",
            rx.el.div(
                rx.el.h3(
                    _o("Pick up at {time}").format(time=booking.pickup),
                    class_name="text-lg font-bold",
                ),
                rx.cond(
                    booking.pickup_leave != "",
                    rx.el.p(
                        _o("Leave the depot at {time}").format(time=booking.pickup_leave),
                        class_name="text-base font-semibold",
                        data_testid="sheet-pickup-leave",
                    ),
                ),
                rx.cond(
                    (booking.pickup_van != "") & (booking.pickup_van != booking.van),
                    rx.el.p(
                        _o("Van"),
                        ": ",
                        booking.pickup_van,
                        " · ",
                        booking.pickup_crew,
                        class_name="text-base",
                    ),
                ),
                rx.el.p(_o("From {place}").format(place=booking.venue), class_name="text-base"),
                rx.el.p(
                    _o("Bring back: {items}").format(items=booking.pickup_load),
                    class_name="text-base text-slate-800",
                ),
                class_name="mt-4 rounded-xl bg-amber-50 border-2 border-amber-300 p-3",
                data_testid="sheet-pickup",
            ),
        ),
        rx.cond(
            booking.notes.length() > 0,
            rx.el.div(
                rx.el.h3(_o("Staff notes"), class_name="mt-4 text-lg font-bold"),
                rx.el.ul(rx.foreach(booking.notes, _note), class_name="mt-1 space-y-2"),
            ),
        ),
        # Another van's job (a driver's 'All jobs') is read only: require_crew refuses it.
        rx.cond(booking.can_change, _collect(booking)),
        set_up(booking),
        rx.el.div(
            _status_button(booking, "on_the_way"),
            _status_button(booking, "completed"),
            class_name="mt-4 flex flex-wrap gap-2 no-print",
        ),
        rx.cond(booking.can_change, rx.el.div(_note_form(booking), class_name="mt-3")),
        class_name="rounded-2xl border-2 border-slate-300 bg-white p-4 md:p-5",
        data_testid="sheet-booking",
    )


def _day_nav() -> rx.Component:
    return rx.el.nav(
        rx.el.a(
            rx.icon("chevron-left", size=20),
            _o("Previous day"),
            href=S.previous_url,
            class_name=LINK_BUTTON,
            data_testid="sheet-previous",
        ),
        rx.el.a(_o("Today"), href=S.today_url, class_name=LINK_BUTTON),
        rx.el.a(
            _o("Next day"),
            rx.icon("chevron-right", size=20),
            href=S.next_url,
            class_name=LINK_BUTTON,
            data_testid="sheet-next",
        ),
        rx.el.button(
            rx.icon("printer", size=20),
            _o("Print"),
            on_click=rx.call_script("window.print()"),
            type="button",
            class_name=LINK_BUTTON,
        ),
        aria_label=_o("Days"),
        class_name="mt-4 flex flex-wrap gap-2 no-print",
    )


def _van_bar() -> rx.Component:
    """The van's day (issue 37): a driver's van with its Route and load list, 'All jobs' and
    back; an admin's van filter."""
    route = rx.cond(
        S.route_link != "",
        rx.el.a(
            rx.icon("route", size=20),
            _o("Route"),
            href=S.route_link,
            target="_blank",
            rel="noopener",
            class_name=f"{BIG_BUTTON} bg-sky-700 hover:bg-sky-800",
            data_testid="sheet-route",
        ),
    )
    load = rx.el.a(
        rx.icon("package", size=20),
        _o("Load List"),
        href=S.load_url,
        class_name=LINK_BUTTON,
        data_testid="sheet-load-list",
    )
    driver = rx.el.div(
        rx.cond(
            S.view == "mine",
            rx.el.p(
                _o("Your van: {van}").format(van=S.van_name),
                class_name="text-xl font-extrabold",
                data_testid="sheet-my-van",
            ),
            rx.el.p(_o("All jobs of the day"), class_name="text-xl font-extrabold"),
        ),
        rx.el.div(
            route,
            load,
            rx.cond(
                S.view == "mine",
                rx.el.button(
                    rx.icon("list", size=20),
                    _o("All jobs"),
                    on_click=S.show_every(True),
                    type="button",
                    class_name=LINK_BUTTON,
                    data_testid="sheet-all-jobs",
                ),
                rx.el.button(
                    rx.icon("truck", size=20),
                    _o("Your van"),
                    on_click=S.show_every(False),
                    type="button",
                    class_name=LINK_BUTTON,
                    data_testid="sheet-my-jobs",
                ),
            ),
            class_name="mt-2 flex flex-wrap gap-2",
        ),
        class_name="mt-4 rounded-2xl border-2 border-sky-300 bg-sky-50 p-3 no-print",
        data_testid="sheet-van-bar",
    )
    admin = rx.el.div(
        rx.el.label(_o("Van"), html_for="sheet-van", class_name="font-semibold"),
        rx.el.div(
            kept_select(
                rx.el.option(_o("Every van"), value=""),
                rx.foreach(S.vans, lambda v: rx.el.option(v.name, value=v.id)),
                id="sheet-van",
                value=S.van_id,
                on_change=S.pick_van,
                class_name="p-3 text-lg rounded-xl border-2 border-slate-400 bg-white",
                data_testid="sheet-van",
            ),
            route,
            load,
            class_name="mt-1 flex flex-wrap items-center gap-2",
        ),
        class_name="mt-4 no-print",
    )
    rainy = rx.el.a(
        rx.icon("cloud-rain", size=18),
        _o("Rainy Day"),
        href=i18n.href(routes.ADMIN_RAINY_DAY),
        class_name="inline-flex items-center gap-1 p-3 text-lg rounded-xl border-2 "
        "border-slate-400 bg-white font-semibold",
        data_testid="sheet-rainy-day",
    )
    return rx.cond(
        S.has_own_van,
        driver,
        rx.cond(
            AuthState.is_admin,
            rx.fragment(
                rx.cond(S.vans.length() > 0, admin),
                rx.el.div(rainy, class_name="mt-3 no-print"),
            ),
        ),
    )


def _print_header() -> rx.Component:
    """What heads the printout (the screen has the frame's title): the sheet's title, the
    business's name and the day, in the page's language."""
    return rx.el.header(
        rx.el.h1(_o("Day Sheet"), " · ", S.business_name, class_name="text-2xl font-extrabold"),
        rx.el.p(S.title, class_name="text-xl font-bold"),
        class_name="print-only mb-4 border-b-2 border-black pb-2",
        data_testid="sheet-print-header",
    )


@registry.page(routes.ADMIN_DAY, routes.ADMIN_DAY_OF, loaders=[S.load])
def day_sheet_page() -> rx.Component:
    return admin_frame(
        _o("Day Sheet"),
        rx.el.style(PRINT_CSS),
        rx.el.div(
            _print_header(),
            rx.el.p(S.title, class_name="text-xl font-bold no-print", data_testid="sheet-day"),
            _day_nav(),
            _van_bar(),
            rx.el.div(notices(S.notice, S.error), class_name="no-print"),
            _my_day(),
            rx.cond(
                loaded_for_this_visit(S.loaded),
                rx.cond(
                    S.bookings.length() > 0,
                    rx.el.div(
                        rx.foreach(S.bookings, _booking),
                        class_name="mt-4 flex flex-col gap-4",
                    ),
                    rx.el.p(
                        _o("No jobs on this day."),
                        class_name="mt-6 text-lg text-slate-700",
                        data_testid="sheet-empty",
                    ),
                ),
                rx.el.p(_o("Loading the day..."), class_name="mt-6 text-lg", role="status"),
            ),
            id="day-sheet",
            class_name="max-w-3xl",
        ),
        current="day",
        denied=DENIED,
        open_to_staff=True,
    )
