"""Admin Settings: the business's name, contact details, hours and notice. The currency is the
server's CURRENCY setting (one currency everywhere, docs/architecture.md §9.2), not set here."""

import reflex as rx

import storefront.models.municipalities as places
from storefront import i18n, routes
from storefront.components.admin_layout import (
    CARD,
    INPUT,
    LABEL,
    SMALL_BUTTON,
    admin_frame,
    notices,
)
from storefront.components.ui import PRIMARY_BUTTON, kept_input, kept_select
from storefront.i18n import N_o, _o
from storefront.pages import registry
from storefront.services.operations import travel
from storefront.state.admin_settings import (
    AdminBackupState,
    AdminTransportState,
    AdminTravelState,
    AdminTwoFactorState,
)
from storefront.state.admin_settings import AdminSettingsState as S

# (field, label, input type, hint)
FIELDS = [
    ("business_name", N_o("Business name"), "text", ""),
    ("phone", N_o("Phone"), "tel", N_o("Shown on the contact page and in mails")),
    (
        "whatsapp_number",
        N_o("WhatsApp number"),
        "tel",
        N_o("Digits with the country code, e.g. +38344000000"),
    ),
    ("email", N_o("Email"), "email", ""),
    ("instagram", N_o("Instagram"), "text", N_o("@handle or profile address")),
    ("facebook", N_o("Facebook page"), "text", ""),
    # Each text the pages show, beside its English (empty: the English pages show the first).
    ("address", N_o("Address"), "text", ""),
    (
        "address_en",
        N_o("Address (English)"),
        "text",
        N_o("Empty: the English pages show the address"),
    ),
    ("opening_hours", N_o("Opening hours"), "text", N_o("e.g. Monday to Friday 9AM-6PM")),
    (
        "opening_hours_en",
        N_o("Opening hours (English)"),
        "text",
        N_o("Empty: the English pages show the opening hours"),
    ),
    (
        "min_notice_hours",
        N_o("Minimum notice (hours)"),
        "number",
        N_o("How soon a booking may start"),
    ),
    # Event-day operations: reminders, the staff's digest, customers' own changes.
    (
        "reminder_lead_hours",
        N_o("Reminder before the event (hours)"),
        "number",
        N_o("The customer's reminder mail goes this long before the booking starts"),
    ),
    (
        "digest_hour",
        N_o("Staff digest of tomorrow's jobs at (hour, 0-23)"),
        "number",
        N_o("Local time; by WhatsApp and to the business email"),
    ),
    (
        "change_cutoff_hours",
        N_o("Customers may change a booking until (hours before)"),
        "number",
        N_o("After that, the booking's page asks them to call"),
    ),
    # What a booking owes (issue 36): the receipts' fiscal number and the deposit rule.
    ("fiscal_number", N_o("Fiscal number (NUI)"), "text", N_o("Printed on receipts")),
    (
        "deposit_percent",
        N_o("Deposit (%)"),
        "number",
        N_o("Of the total, asked by bank transfer before the day; 0 for no deposit"),
    ),
    (
        "deposit_above",
        N_o("Deposit asked above"),
        "text",
        N_o("Bookings whose total is above this amount are asked for the deposit"),
    ),
]


def _staff_language() -> rx.Component:
    """The language of the staff's WhatsApp messages, whatever the customer's."""
    field_id = "settings-staff_language"
    return rx.el.div(
        rx.el.label(_o("Staff messages in"), html_for=field_id, class_name=LABEL),
        rx.el.select(
            *[rx.el.option(i18n.NAMES[lang], value=lang) for lang in i18n.LANGUAGES],
            id=field_id,
            value=S.values.get("staff_language", i18n.DEFAULT),
            on_change=lambda v: S.set_value("staff_language", v),
            aria_describedby=f"{field_id}-hint",
            class_name=INPUT,
        ),
        rx.el.p(
            rx.cond(
                S.field_errors.contains("staff_language"),
                S.field_errors["staff_language"],
                _o("The WhatsApp message of every booking, whatever the customer's language"),
            ),
            id=f"{field_id}-hint",
            class_name="mt-1 text-xs text-slate-500",
        ),
    )


def _field(name: str, label: str, kind: str, hint: str) -> rx.Component:
    """A field of FIELDS; its label and hint are shown in the admin's language (no hint: '',
    never `_o('')`, which is the catalog's header)."""
    field_id = f"settings-{name}"
    hint = _o(hint) if hint else ""
    return rx.el.div(
        rx.el.label(_o(label), html_for=field_id, class_name=LABEL),
        rx.el.input(
            id=field_id,
            type=kind,
            value=S.values.get(name, ""),
            on_change=lambda v: S.set_value(name, v),
            aria_describedby=f"{field_id}-hint",
            aria_invalid=rx.cond(S.field_errors.contains(name), "true", "false"),
            class_name=INPUT,
        ),
        rx.el.p(
            rx.cond(S.field_errors.contains(name), S.field_errors[name], hint),
            id=f"{field_id}-hint",
            class_name=rx.cond(
                S.field_errors.contains(name),
                "mt-1 text-sm text-red-700",
                "mt-1 text-xs text-slate-500",
            ),
        ),
    )


def _switch_card(
    title: str, state, *, checked, on_change, text, test_id: str, switch_id: str, note=None
) -> rx.Component:
    """A setting of its own, saved as it is switched: a card with a checkbox and what it does."""
    return rx.el.section(
        rx.el.h2(title, class_name="text-lg font-bold"),
        notices(state.notice, state.error, test_id),
        rx.el.label(
            rx.el.input(
                type="checkbox",
                checked=checked,
                on_change=on_change,
                class_name="mr-2 mt-1",
                data_testid=switch_id,
            ),
            rx.el.span(text),
            class_name="mt-4 flex items-start text-sm",
        ),
        note if note is not None else rx.fragment(),
        class_name=CARD + " mt-6 p-4 md:p-6",
        data_testid=test_id,
    )


def _two_factor_setting() -> rx.Component:
    T = AdminTwoFactorState
    return _switch_card(
        _o("Admin sign-in"),
        T,
        checked=T.required,
        on_change=T.set_required,
        text=_o(
            "Require two-factor sign-in for every admin. An admin without it is sent to "
            "set it up and cannot use the admin screens until then."
        ),
        test_id="two-factor-setting",
        switch_id="require-two-factor",
    )


def _backup_setting() -> rx.Component:
    B = AdminBackupState
    return _switch_card(
        _o("Backups"),
        B,
        checked=B.daily,
        on_change=B.set_daily,
        text=_o(
            "Back up the database and the images every day, once for all servers, from {hour}:00."
        ).format(hour=B.hour),
        test_id="backup-setting",
        switch_id="backup-daily",
        note=rx.el.p(
            _o("Backups go to {target}. The server's BACKUP_URL or BACKUP_DIR sets where.").format(
                target=B.target
            ),
            class_name="mt-2 text-xs text-slate-500 break-all",
        ),
    )


def _fee_row(key: str, name: str) -> rx.Component:
    """One municipality's fee, or 'not served online'. Kept by the browser (components/ui.py:
    what is typed stays typed) and read when the card is saved."""
    T = AdminTransportState
    field_id = f"transport-{key}"
    return rx.el.div(
        rx.el.label(name, html_for=field_id, class_name="text-sm font-medium sm:w-44"),
        rx.el.div(
            kept_input(
                id=field_id,
                name=f"fee-{key}",
                type="text",
                input_mode="decimal",
                default_value=T.fees.get(key, ""),
                placeholder="0.00",
                aria_invalid=rx.cond(T.field_errors.contains(key), "true", "false"),
                class_name=INPUT.replace("w-full ", "") + " w-28",
                data_testid=field_id,
            ),
            rx.el.span("€", class_name="ml-1 text-sm text-slate-500"),
            rx.el.label(
                kept_input(
                    type="checkbox",
                    name=f"off-{key}",
                    default_checked=T.not_served.contains(key),
                    class_name="mr-1",
                    data_testid=f"{field_id}-not-served",
                ),
                _o("not served online"),
                class_name="ml-3 flex items-center text-xs whitespace-nowrap",
            ),
            class_name="flex items-center",
        ),
        rx.cond(
            T.field_errors.contains(key),
            rx.el.p(T.field_errors[key], class_name="text-sm text-red-700 sm:basis-full"),
        ),
        class_name="flex flex-col gap-1 border-b border-slate-100 py-2 sm:flex-row "
        "sm:flex-wrap sm:items-center sm:gap-3",
    )


def _transport_setting() -> rx.Component:
    """The transport to each of Kosovo's municipalities (services/booking/transport.py)."""
    T = AdminTransportState
    language = i18n.language()
    return rx.el.form(
        rx.el.h2(_o("Transport"), class_name="text-lg font-bold"),
        notices(T.notice, T.error, "transport-setting-notice"),
        rx.el.p(
            _o(
                "The transport a booking adds to its total, by the municipality of the event. "
                "0 for none (the home town); a municipality not served online asks the guest "
                "to call you."
            ),
            class_name="mt-2 text-sm text-slate-600",
        ),
        rx.el.div(
            *[_fee_row(key, name) for key, name in places.choices(language)],
            class_name="mt-4 grid gap-x-8 lg:grid-cols-2",
        ),
        rx.el.button(
            _o("Save transport fees"),
            type="submit",
            class_name=PRIMARY_BUTTON + " mt-6",
            data_testid="transport-save",
        ),
        on_submit=T.save,
        key=T.form_key,
        class_name=CARD + " mt-6 p-4 md:p-6",
        data_testid="transport-setting",
    )


def _minutes_row(key: str, name: str) -> rx.Component:
    """One municipality's minutes from the depot (empty: the default). Kept by the browser and
    read when the card is saved."""
    T = AdminTravelState
    field_id = f"travel-{key}"
    return rx.el.div(
        rx.el.label(name, html_for=field_id, class_name="text-sm font-medium sm:w-44"),
        rx.el.div(
            kept_input(
                id=field_id,
                name=f"minutes-{key}",
                type="text",
                input_mode="numeric",
                default_value=T.minutes.get(key, ""),
                # Empty: the default drive, or the drive within the depot's own municipality.
                placeholder=rx.cond(
                    T.depot == key, str(travel.LOCAL_MINUTES), str(travel.DEFAULT_MINUTES)
                ),
                aria_invalid=rx.cond(T.field_errors.contains(key), "true", "false"),
                class_name=INPUT.replace("w-full ", "") + " w-24",
                data_testid=field_id,
            ),
            rx.el.span(_o("min"), class_name="ml-1 text-sm text-slate-500"),
            class_name="flex items-center",
        ),
        rx.cond(
            T.field_errors.contains(key),
            rx.el.p(
                T.field_errors[key],
                class_name="text-sm text-red-700 sm:basis-full",
                data_testid=f"{field_id}-error",
            ),
        ),
        class_name="flex flex-col gap-1 border-b border-slate-100 py-2 sm:flex-row "
        "sm:flex-wrap sm:items-center sm:gap-3",
    )


def _travel_setting() -> rx.Component:
    """The drive from the depot to each municipality (services/operations/travel.py): what the
    day's runs leave and come back by."""
    T = AdminTravelState
    language = i18n.language()
    return rx.el.form(
        rx.el.h2(_o("Travel"), class_name="text-lg font-bold"),
        notices(T.notice, T.error, "travel-setting-notice"),
        rx.el.p(
            _o(
                "How many minutes a van drives from the depot to each municipality: the day's "
                "runs leave and come back by them. Empty: {default} minutes."
            ).format(default=travel.DEFAULT_MINUTES),
            class_name="mt-2 text-sm text-slate-600",
        ),
        rx.el.div(
            rx.el.label(_o("The depot's municipality"), html_for="travel-depot", class_name=LABEL),
            kept_select(
                *[rx.el.option(name, value=key) for key, name in places.choices(language)],
                id="travel-depot",
                name="depot",
                default_value=T.depot,
                class_name=INPUT + " sm:w-72",
                data_testid="travel-depot",
            ),
            rx.cond(
                T.field_errors.contains("depot"),
                rx.el.p(T.field_errors["depot"], class_name="text-sm text-red-700"),
            ),
            class_name="mt-4",
        ),
        rx.el.div(
            *[_minutes_row(key, name) for key, name in places.choices(language)],
            class_name="mt-4 grid gap-x-8 lg:grid-cols-2",
        ),
        rx.el.button(
            _o("Save driving times"),
            type="submit",
            class_name=PRIMARY_BUTTON + " mt-6",
            data_testid="travel-save",
        ),
        on_submit=T.save,
        key=T.form_key,
        class_name=CARD + " mt-6 p-4 md:p-6",
        data_testid="travel-setting",
    )


@registry.page(
    routes.ADMIN_SETTINGS,
    loaders=[
        S.load,
        AdminTwoFactorState.load,
        AdminBackupState.load,
        AdminTransportState.load,
        AdminTravelState.load,
    ],
)
def admin_settings_page() -> rx.Component:
    return admin_frame(
        _o("Settings"),
        notices(S.notice, S.error),
        rx.el.form(
            rx.el.h2(_o("Business details"), class_name="text-lg font-bold"),
            rx.el.div(
                *[_field(*f) for f in FIELDS],
                _staff_language(),
                class_name="mt-4 grid gap-4 md:grid-cols-2",
            ),
            rx.el.button(
                _o("Save Settings"),
                type="submit",
                class_name=PRIMARY_BUTTON + " mt-6",
                data_testid="settings-save",
            ),
            on_submit=S.save,
            class_name=CARD + " mt-6 p-4 md:p-6",
            data_testid="settings-form",
        ),
        _transport_setting(),
        _travel_setting(),
        _two_factor_setting(),
        _backup_setting(),
        current="settings",
        actions=rx.link(
            rx.icon("scroll-text", size=16),
            _o("Audit Log"),
            href=i18n.href(routes.ADMIN_AUDIT),
            class_name=SMALL_BUTTON,
            underline="none",
        ),
    )
