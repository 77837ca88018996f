"""A booking's contact fields, declared once (docs/extending.md, 'Add a field to bookings'),
beside the model that stores them, as models/kinds.py declares the service kinds: plain data
that every layer reads (services/booking/contact.py checks them; the screens, the CSV, the
mails and the day sheet show them)."""

from __future__ import annotations

from dataclasses import dataclass

from storefront.i18n import N_, N_s  # noqa: F401 (N_s: a new field's words, docs/extending.md)
from storefront.models.bookings import Booking

# Where a contact field may be typed in, and so required: the cart's checkout, a service's
# booking screen, the admin edit. Where it is shown besides: the CSV export, the booking's
# page (the detail view), the customer's mails and the day sheet.
SCREENS = ("checkout", "booking", "admin")
SHOWN = (*SCREENS, "csv", "detail", "mail", "day_sheet")


@dataclass(frozen=True)
class ContactField:
    """One contact field of a booking, declared once (docs/extending.md, 'Add a field to
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
        """The `max_length` its column declares: the one source of its limit."""
        return int(Booking.__table__.c[self.column].type.length)


def _at(*places: str) -> frozenset[str]:
    return frozenset(places)


# The two forms a guest fills in.
PUBLIC_FORMS = _at("checkout", "booking")
_TYPED = _at("checkout", "booking", "admin")
# The declaration. What every booking needs is required on both public screens; the cart's
# checkout also asks for the address and ZIP code, the booking screen does not (docs/product.md
# §5); the admin edit requires the email and phone (and the address when the booking has one,
# services/booking/admin.update_booking). The event type and the guests are asked for, never
# assumed (issue 34): a mascot visit was saved as 'Wedding, 50 guests' when the form's first
# choices were left as they were. The municipality is asked on both public screens (its
# transport, issue 36). The first fields are laid out by hand, where each screen
# shows them (`shown` says where: the admin edit edits exactly those that name "admin").
CONTACT_FIELDS: tuple[ContactField, ...] = (
    ContactField(
        "full_name",
        "contact_name",
        N_("Full name"),
        required=PUBLIC_FORMS,
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
    # The municipality (models/municipalities.py): a choice on every screen, stored by its
    # Albanian name; its transport is part of what the booking owes (issue 36), so every
    # booking placed online names one.
    ContactField(
        "city",
        "city",
        N_("City"),
        required=PUBLIC_FORMS,
        shown=_TYPED | _at("csv", "detail", "day_sheet"),
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
        required=PUBLIC_FORMS,
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


def added_values(booking: object, place: str) -> tuple[tuple[str, str], ...]:
    """(label msgid, value) of the added fields (not laid out by hand) shown at `place`, as a
    booking row holds them; the caller translates the label in its own words."""
    return tuple(
        (f.label, str(getattr(booking, f.column, None) or ""))
        for f in fields_for(place, added=True)
    )
