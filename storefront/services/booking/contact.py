"""A booking's contact and event fields: their labels, limits (the model's columns) and checks, for checkout, the booking screen and the admin edit."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from sqlmodel import Session, col, select

from storefront.i18n import N_, N_s, _, _s
from storefront.models import (
    Booking,
    User,
)
from storefront.services import fields
from storefront.services.booking.lines import BookingError

# The one list of a booking's event types, stored lowercase and shown by their labels: the
# booking screen's six (docs/product.md §5), offered by checkout and the admin edit too (the
# spec's four there are among them; docs/architecture.md §9). The labels are translated where
# they are shown (`event_type_label`, the pages' selects: `_s(label)`, the site's words on its
# pages and the back office's on its own).
EVENT_TYPE_LABELS = {
    "wedding": N_s("Wedding"),
    "birthday": N_s("Birthday"),
    "corporate": N_s("Corporate"),
    "anniversary": N_s("Anniversary"),
    "graduation": N_s("Graduation"),
    "other": N_s("Other"),
}
EVENT_TYPES = tuple(EVENT_TYPE_LABELS)


def event_type_label(value: str | None) -> str:
    """'graduation' -> 'Graduation' (in the language of the moment); a value stored before the
    list was one keeps its text."""
    text = (value or "").strip()
    label = EVENT_TYPE_LABELS.get(text.lower())
    return _s(label) if label else text.capitalize()


MIN_GUESTS, MAX_GUESTS = 1, 500

# Where a contact field may be typed in, and so required: the cart's checkout, a service's
# booking screen, the admin edit. Where it is shown besides: the CSV export, the booking's
# page (the detail view), the customer's mails and the day sheet.
SCREENS = ("checkout", "booking", "admin")
SHOWN = (*SCREENS, "csv", "detail", "mail", "day_sheet")


@dataclass(frozen=True)
class ContactField:
    """One contact field of a booking, declared once (docs/extending.md 'Add a field to
    bookings'): checkout, the booking screen, the admin edit, their validation, `Contact`, the
    placed booking's row, the CSV, the detail view, the mails and the day sheet read it.

    name: the forms' and `Contact`'s name; column: the `Booking` column it is stored in, whose
    `max_length` is its limit; label: its words (a msgid: marked with `N_s` for a new field, as
    it is read on the site and in the back office); kind: its kind of text
    (services/fields.rule: line, text, email, phone); required: the screens that require it;
    shown: where it appears (SHOWN); by_hand: the screens lay it out in their own places (the
    first fields); a field without it is drawn after them, in the order declared here."""

    name: str
    column: str
    label: str
    kind: str = "line"
    required: frozenset[str] = frozenset()
    shown: frozenset[str] = frozenset(SHOWN)
    by_hand: bool = False

    @property
    def limit(self) -> int:
        return CONTACT_LIMITS[self.name]


def _at(*places: str) -> frozenset[str]:
    return frozenset(places)


_BOTH = _at("checkout", "booking")
_TYPED = _at("checkout", "booking", "admin")
# The declaration. What every booking needs is required on both public screens; the cart's
# checkout also asks for the address and ZIP code, the booking screen does not (docs/product.md
# §5); the admin edit requires the email and phone (and the address when the booking has one,
# services/booking/admin.update_booking). The event type and the guests are asked for, never
# assumed (issue 34): a mascot visit was saved as 'Wedding, 50 guests' when the form's first
# choices were left as they were. The first fields are laid out by hand, where each screen
# shows them (`shown` says where: the admin edit edits exactly those that name "admin").
CONTACT_FIELDS: tuple[ContactField, ...] = (
    ContactField(
        "full_name",
        "contact_name",
        N_("Full name"),
        required=_BOTH,
        shown=_TYPED | _at("csv", "detail", "mail", "day_sheet"),  # the mails' greeting
        by_hand=True,
    ),
    ContactField(
        "email",
        "contact_email",
        N_("Email"),
        "email",
        required=_TYPED,
        shown=_TYPED | _at("csv", "detail"),
        by_hand=True,
    ),
    ContactField(
        "phone",
        "contact_phone",
        N_("Phone number"),
        "phone",
        required=_TYPED,
        shown=_TYPED | _at("csv", "detail", "day_sheet"),
        by_hand=True,
    ),
    ContactField(
        "address",
        "venue_address",
        N_("Address"),
        required=_at("checkout"),
        shown=_TYPED | _at("csv", "detail", "day_sheet"),
        by_hand=True,
    ),
    ContactField(
        "city",
        "city",
        N_("City"),
        shown=_at("checkout", "admin", "csv", "detail", "day_sheet"),
        by_hand=True,
    ),
    ContactField("state", "state", N_("State"), shown=_at("checkout"), by_hand=True),
    ContactField(
        "zip_code",
        "zip_code",
        N_("ZIP code"),
        required=_at("checkout"),
        shown=_at("checkout", "admin", "csv"),
        by_hand=True,
    ),
    ContactField(
        "event_type",
        "event_type",
        N_("Event type"),
        required=_BOTH,
        shown=_TYPED | _at("csv", "detail", "day_sheet"),
        by_hand=True,
    ),
    ContactField(
        "special_requests",
        "special_requests",
        N_("Special requests"),
        "text",
        shown=_at("checkout", "admin", "csv", "detail", "day_sheet"),
        by_hand=True,
    ),
)


def fields_for(place: str, *, added: bool = False) -> tuple[ContactField, ...]:
    """The declared fields shown at `place` (SHOWN), in order; `added`: only those the screens
    do not lay out by hand (drawn after the others)."""
    return tuple(f for f in CONTACT_FIELDS if place in f.shown and not (added and f.by_hand))


def required_on(screen: str) -> tuple[str, ...]:
    """The names of the fields `screen` (SCREENS) requires."""
    return tuple(f.name for f in CONTACT_FIELDS if screen in f.required)


def stored(field: ContactField, value: object) -> str | None:
    """A clean value as its column keeps it: trimmed; empty is NULL where the column allows."""
    text = str(value or "").strip()
    if text:
        return text
    return None if Booking.__table__.c[field.column].nullable else ""


def booking_columns(contact: Contact) -> dict[str, str | None]:
    """The booking's columns of a (clean) contact, each as `stored`."""
    return {f.column: stored(f, contact_value(contact, f.name)) for f in CONTACT_FIELDS}


def added_values(booking: object, place: str) -> tuple[tuple[str, str], ...]:
    """(label msgid, value) of the added fields (not laid out by hand) shown at `place`, as a
    booking row holds them; the caller translates the label in its own words."""
    return tuple(
        (f.label, str(getattr(booking, f.column, None) or ""))
        for f in fields_for(place, added=True)
    )


# The input a form draws for each kind of text.
INPUT_KINDS = {"line": "text", "text": "text", "email": "email", "phone": "tel"}
# Each contact field: its column, label and kind of text (from the declaration).
CONTACT_COLUMNS = {f.name: (f.column, f.label, f.kind) for f in CONTACT_FIELDS}
CONTACT_LIMITS = {
    name: fields.max_length(Booking, column) for name, (column, *_) in CONTACT_COLUMNS.items()
}
GUESTS_MESSAGE = N_("Guests must be between {least} and {most}")
GUESTS_REQUIRED = N_("Number of guests is required")
# What every booking needs (the booking screen's required fields; checkout adds its own).
REQUIRED_CONTACT_FIELDS = required_on("booking")


@dataclass(frozen=True)
class Contact:
    """The checkout's information step (docs/product.md §3)."""

    full_name: str
    email: str
    phone: str
    address: str
    city: str = ""
    state: str = ""
    zip_code: str = ""
    event_type: str = "other"
    guest_count: int | None = 50  # None: left empty on the form (refused as required)
    special_requests: str = ""
    # The declared fields that have no attribute above (CONTACT_FIELDS), by name.
    extra: Mapping[str, str] = field(default_factory=dict)


def contact_value(contact: Contact, name: str) -> Any:
    """A declared field's value in `contact`: its attribute, else its entry in `extra`."""
    if name in _CONTACT_ATTRIBUTES:
        return getattr(contact, name)
    return contact.extra.get(name, "")


def check_fields(
    values: Mapping[str, object],
    *,
    required: Iterable[str] = REQUIRED_CONTACT_FIELDS,
    labels: Mapping[str, str] | None = None,
) -> fields.Checked:
    """The one validation of a booking's fields, for checkout, the booking screen and the admin
    edit: each field of `values` (named as in CONTACT_COLUMNS, plus guest_count) under the field
    rules (services/fields.py) with the limit of its column in the model; clean values (trimmed,
    the email normalised, the phone in E.164, the event type lowercase), and for each refused
    field its code (required, invalid, too_long, not_one_line, unprintable, out_of_range) and
    its message. `labels` names the fields as the calling screen does."""
    labels = labels or {}
    required = set(required)
    checked = fields.check(
        {
            name: fields.rule(
                kind,
                values[name],
                labels.get(name) or _(label),
                CONTACT_LIMITS[name],
                required=name in required,
            )
            for name, (_column, label, kind) in CONTACT_COLUMNS.items()
            if name in values
        }
    )
    if "event_type" in values:
        event_type = str(checked.values.get("event_type", "")).lower()
        if "event_type" not in checked.codes and event_type not in EVENT_TYPES:
            checked.refuse("event_type", "invalid", _("Event type is invalid"))
        checked.values["event_type"] = event_type
    if "guest_count" in values:
        guests = values["guest_count"]
        if guests is None:
            checked.refuse("guest_count", "required", _(GUESTS_REQUIRED))
        elif not isinstance(guests, int) or isinstance(guests, bool):
            checked.refuse("guest_count", "invalid", guests_message())
        elif not MIN_GUESTS <= guests <= MAX_GUESTS:
            checked.refuse("guest_count", "out_of_range", guests_message())
        else:
            checked.values["guest_count"] = guests
    return checked


def guests_message() -> str:
    """'Guests must be between 1 and 500', in the language of the moment."""
    return _(GUESTS_MESSAGE).format(least=MIN_GUESTS, most=MAX_GUESTS)


def check_contact(contact: Contact) -> fields.Checked:
    """A booking's contact under `check_fields` (what the checkout and the booking screen ask)."""
    names = (*CONTACT_COLUMNS, "guest_count")
    return check_fields({name: contact_value(contact, name) for name in names})


def clean_contact(contact: Contact) -> Contact:
    """The contact as it is stored, or BookingError `invalid_contact` (details `fields`:
    {field: code}, `messages`: {field: message})."""
    checked = check_contact(contact)
    if checked.codes:
        raise BookingError(
            "invalid_contact",
            "Please check the form",
            fields=checked.codes,
            messages=checked.messages,
        )
    clean = {k: v for k, v in checked.values.items() if k in _CONTACT_ATTRIBUTES}
    extra = {k: v for k, v in checked.values.items() if k not in _CONTACT_ATTRIBUTES}
    return replace(contact, **clean, extra={**contact.extra, **extra})


_CONTACT_ATTRIBUTES = frozenset(Contact.__dataclass_fields__) - {"extra"}
# The public forms' fields: the declared ones and the guests (each form's state holds them all;
# the booking screen sends those it shows).
FORM_FIELDS = (*(f.name for f in CONTACT_FIELDS if f.shown & _BOTH), "guest_count")


def contact_from_form(form: dict[str, Any]) -> Contact:
    """The checkout form's fields as a booking contact (strings trimmed and bounded). The event
    type is asked for: empty is refused as required."""
    text = {f: str(form.get(f) or "").strip()[:5000] for f in FORM_FIELDS}
    raw_guests = text.pop("guest_count")
    try:
        guests = int(raw_guests) if raw_guests else None  # None: required
    except ValueError:
        guests = -1  # refused by validation as out of range
    own = {k: v for k, v in text.items() if k in _CONTACT_ATTRIBUTES}
    extra = {k: v for k, v in text.items() if k not in _CONTACT_ATTRIBUTES}
    return Contact(**own, guest_count=guests, extra=extra)


def checkout_check(contact: Contact) -> fields.Checked:
    """The information step's fields: the booking's own rules (`check_contact`), plus
    the address and ZIP code, which the checkout asks for (the booking screen does not)."""
    checked = check_contact(contact)
    for name in required_on("checkout"):
        if not str(contact_value(contact, name)).strip() and name not in checked.codes:
            label = _(CONTACT_COLUMNS[name][1])
            required = fields.MESSAGES["required"]
            checked.refuse(name, "required", _(required).format(label=label))
    return checked


def checkout_errors(contact: Contact) -> dict[str, str]:
    """Field -> code for the information step (see `checkout_check`)."""
    return checkout_check(contact).codes


def known_contact(*, session: Session, user_id: object) -> dict[str, str]:
    """What a signed-in customer's forms start with: their name and email from the account and
    the phone of their latest booking ({} for no such user)."""
    try:
        user = session.get(User, uuid.UUID(str(user_id)[:64]))
    except ValueError:
        return {}
    if user is None:
        return {}
    latest = session.exec(
        select(Booking)
        .where(Booking.user_id == user.id)
        .order_by(col(Booking.created_at).desc())
        .limit(1)
    ).first()
    known = {
        "full_name": user.full_name or (latest.contact_name if latest else "") or "",
        "email": user.email or "",
        "phone": latest.contact_phone if latest else "",
    }
    return {k: v for k, v in known.items() if v}


def fill_known(form: dict[str, str], known: dict[str, str]) -> dict[str, str]:
    """`form` with the empty fields that `known` has filled in; what was typed stays."""
    return form | {k: v for k, v in known.items() if k in form and not str(form[k]).strip()}
