"""The one date-and-time picker: a month with unavailable days greyed and not clickable, the
duration (1-8 hours; a package of a known length shows its length instead) and the free start
times of the chosen day."""

import reflex as rx

from storefront.i18n import _
from storefront.services import dates
from storefront.state.slot_picker import DURATIONS, SlotPickerState


def _day(day: dict) -> rx.Component:
    chosen = day["date"] == SlotPickerState.selected_date
    return rx.cond(
        day["date"] == "",
        rx.el.span(),
        rx.el.button(
            day["day"],
            type="button",
            on_click=SlotPickerState.pick_day(day["date"]),
            disabled=day["available"] != "yes",
            aria_pressed=rx.cond(chosen, "true", "false"),
            aria_label=day["date"],
            class_name=rx.cond(
                chosen,
                "h-10 rounded-lg bg-fuchsia-600 text-white font-semibold",
                rx.cond(
                    day["available"] == "yes",
                    "h-10 rounded-lg hover:bg-fuchsia-50 text-slate-900 font-medium",
                    "h-10 rounded-lg text-slate-300 line-through cursor-not-allowed",
                ),
            ),
            data_testid="picker-day",
        ),
    )


def _slot(slot: dict) -> rx.Component:
    chosen = slot["start"] == SlotPickerState.selected_time
    return rx.el.button(
        slot["start"],
        type="button",
        on_click=SlotPickerState.pick_time(slot["start"]),
        disabled=slot["available"] != "yes",
        aria_pressed=rx.cond(chosen, "true", "false"),
        class_name=rx.cond(
            chosen,
            "px-3 py-2 rounded-lg bg-fuchsia-600 text-white text-sm font-semibold",
            rx.cond(
                slot["available"] == "yes",
                "px-3 py-2 rounded-lg border border-slate-200 text-sm hover:border-fuchsia-400",
                "px-3 py-2 rounded-lg border border-slate-100 text-sm text-slate-300 line-through",
            ),
        ),
        data_testid="picker-slot",
    )


def slot_picker(on_duration=None, *, choose_duration: bool = True) -> rx.Component:
    """`on_duration` also runs when the duration changes (the booking screen's total);
    `choose_duration=False` leaves the duration out (a booking's move keeps every line's
    hours). A service with its own length (a package: `SlotPickerState.own_length`) shows that
    length as text instead of the choice."""
    duration_changed = [SlotPickerState.pick_duration, *([on_duration] if on_duration else [])]
    duration = rx.cond(
        SlotPickerState.own_length,
        rx.el.p(
            _("Duration: {hours} h").format(hours=SlotPickerState.duration),
            class_name="mt-4 text-sm font-semibold",
            data_testid="picker-own-length",
        ),
        rx.el.div(
            rx.el.label(
                _("Duration"), html_for="picker-duration", class_name="text-sm font-semibold"
            ),
            rx.el.select(
                *[rx.el.option(_("{hours} h").format(hours=h), value=h) for h in DURATIONS],
                id="picker-duration",
                value=SlotPickerState.duration,
                on_change=duration_changed,
                class_name="ml-3 px-3 py-1.5 rounded-lg border-2 border-slate-200",
            ),
            class_name="mt-4 flex items-center",
        ),
    )
    return rx.el.div(
        rx.el.div(
            rx.el.button(
                rx.icon("chevron-left", size=18),
                type="button",
                on_click=SlotPickerState.previous_month,
                aria_label=_("Previous month"),
                class_name="p-2 rounded-lg hover:bg-slate-100",
            ),
            rx.el.span(
                SlotPickerState.month_label,
                aria_live="polite",
                class_name="font-semibold",
                data_testid="picker-month-label",
            ),
            rx.el.button(
                rx.icon("chevron-right", size=18),
                type="button",
                on_click=SlotPickerState.next_month,
                aria_label=_("Next month"),
                class_name="p-2 rounded-lg hover:bg-slate-100",
            ),
            class_name="flex items-center justify-between",
        ),
        rx.el.div(
            *[
                rx.el.span(d, class_name="text-xs text-center text-slate-600")
                for d in dates.weekday_initials()
            ],
            rx.foreach(SlotPickerState.days, _day),
            class_name="mt-2 grid grid-cols-7 gap-1",
            data_testid="picker-month",
        ),
        *([duration] if choose_duration else []),
        rx.cond(
            SlotPickerState.selected_date != "",
            rx.el.div(
                rx.el.p(
                    _("Start times on {day}").format(day=SlotPickerState.selected_label),
                    class_name="text-sm",
                ),
                rx.el.div(
                    rx.foreach(SlotPickerState.slots, _slot),
                    class_name="mt-2 flex flex-wrap gap-2",
                ),
                class_name="mt-4",
            ),
        ),
        rx.cond(
            SlotPickerState.error != "",
            rx.el.p(SlotPickerState.error, class_name="mt-3 text-sm text-red-600", role="alert"),
        ),
        rx.cond(
            (SlotPickerState.no_day_reason != "") & ~SlotPickerState.loading,
            rx.el.p(
                SlotPickerState.no_day_reason,
                role="status",
                class_name="mt-3 text-sm text-amber-800 bg-amber-50 rounded-lg px-3 py-2",
                data_testid="picker-no-day",
            ),
        ),
        data_testid="slot-picker",
    )
