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
    municipalities,
)
from storefront.models.contact_fields import (  # noqa: F401 (the screens read them here)
    CONTACT_FIELDS,
    PUBLIC_FORMS,
    SCREENS,
    SHOWN,
    ContactField,
    added_values,
    fields_for,
    required_on,
)
from storefront.services import fields
from storefront.services.booking.lines import BookingError
from storefront.services.booking.transport import UNKNOWN_MESSAGE

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


def stored(field: ContactField, value: object) -> str | None:
    """A clean value as its column keeps it: trimmed; empty is NULL where the column allows."""
    text = str(value or "").strip()
    if text:
        return text
    return None if Booking.__table__.c[field.column].nullable else ""


def booking_columns(contact: Contact) -> dict[str, str | None]:
    """The booking's columns of a (clean) contact, each as `stored`."""
    return {f.column: stored(f, contact_value(contact, f.name)) for f in CONTACT_FIELDS}


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
    if "city" in values and "city" not in checked.codes and checked.values.get("city"):
        # The municipality, whichever way it was written, stored by its Albanian name
        # (models/municipalities.py); one not in the list is refused.
        found = municipalities.find(checked.values["city"])
        if found is None:
            checked.refuse("city", "invalid", _s(UNKNOWN_MESSAGE))
        else:
            checked.values["city"] = found.sq
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
FORM_FIELDS = (*(f.name for f in CONTACT_FIELDS if f.shown & PUBLIC_FORMS), "guest_count")


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
