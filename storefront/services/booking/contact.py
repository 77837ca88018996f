"""A booking's contact and event fields: their labels, limits (the model's columns) and checks, for checkout, the booking screen and the admin edit."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
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
# Each contact field: the booking column it is stored in (whose declared length is its limit),
# the label its messages use (translated when a message names it), and its kind of text
# (services/fields.rule).
CONTACT_COLUMNS = {
    "full_name": ("contact_name", N_("Full name"), "line"),
    "email": ("contact_email", N_("Email"), "email"),
    "phone": ("contact_phone", N_("Phone number"), "phone"),
    "address": ("venue_address", N_("Address"), "line"),
    "city": ("city", N_("City"), "line"),
    "state": ("state", N_("State"), "line"),
    "zip_code": ("zip_code", N_("ZIP code"), "line"),
    "event_type": ("event_type", N_("Event type"), "line"),
    "special_requests": ("special_requests", N_("Special requests"), "text"),
}
CONTACT_LIMITS = {
    name: fields.max_length(Booking, column) for name, (column, *_) in CONTACT_COLUMNS.items()
}
GUESTS_MESSAGE = N_("Guests must be between {least} and {most}")
GUESTS_REQUIRED = N_("Number of guests is required")
# What every booking needs; the cart's checkout also asks for the address and ZIP code
# (services/checkout.checkout_errors), the booking screen does not (docs/product.md §5).
# The event type and the guests are asked for, never assumed (issue 34): a mascot visit was
# saved as 'Wedding, 50 guests' when the form's first choices were left as they were.
REQUIRED_CONTACT_FIELDS = ("full_name", "email", "phone", "event_type")


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
    return check_fields({name: getattr(contact, name) for name in names})


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
    return replace(contact, **checked.values)


FORM_FIELDS = (
    "full_name",
    "email",
    "phone",
    "address",
    "city",
    "state",
    "zip_code",
    "event_type",
    "guest_count",
    "special_requests",
)


def contact_from_form(form: dict[str, Any]) -> Contact:
    """The checkout form's fields as a booking contact (strings trimmed and bounded)."""
    text = {f: str(form.get(f) or "").strip()[:5000] for f in FORM_FIELDS}
    try:
        guests = int(text["guest_count"]) if text["guest_count"] else None  # None: required
    except ValueError:
        guests = -1  # refused by validation as out of range
    return Contact(
        full_name=text["full_name"],
        email=text["email"],
        phone=text["phone"],
        address=text["address"],
        city=text["city"],
        state=text["state"],
        zip_code=text["zip_code"],
        event_type=text["event_type"],  # asked for: empty is refused as required
        guest_count=guests,
        special_requests=text["special_requests"],
    )


def checkout_check(contact: Contact) -> fields.Checked:
    """The information step's fields: the booking's own rules (`check_contact`), plus
    the address and ZIP code, which the checkout asks for (the booking screen does not)."""
    checked = check_contact(contact)
    for name in ("address", "zip_code"):
        if not str(getattr(contact, name)).strip() and name not in checked.codes:
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
