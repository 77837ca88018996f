"""The audit log: who changed what in the back office, when, and how it looked before and
after. Every admin write path calls `record` inside its own transaction, so a change and its
entry are committed together or not at all."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from enum import Enum
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, SQLModel, col, select

from storefront import i18n
from storefront.i18n import N_o, _o, _s
from storefront.models import AuditLog, Banner, BannerItem, Booking, Service, User, Van, kinds
from storefront.models.contact_fields import CONTACT_FIELDS
from storefront.services import dates, money, paging, permissions
from storefront.services.errors import ServiceError


def json_safe(value: Any) -> Any:
    """`value` as plain JSON: ids, money, dates and times become strings."""
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [json_safe(v) for v in value]
    if isinstance(value, uuid.UUID | Decimal | datetime | date | time):
        return value.isoformat() if isinstance(value, datetime | date | time) else str(value)
    if isinstance(value, Enum):
        return value.value
    return value


def snapshot(row: SQLModel | None, *, exclude: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """The columns of `row` as JSON, for the before/after of an entry (None for no row)."""
    if row is None:
        return None
    data = row.model_dump(exclude=set(exclude))
    return json_safe(data)


def _actor(session: Session, actor_id: str | uuid.UUID | None) -> uuid.UUID | None:
    try:
        actor = uuid.UUID(str(actor_id))
    except (TypeError, ValueError):
        return None
    return actor if session.get(User, actor) is not None else None


def record(
    session: Session,
    *,
    actor_id: str | uuid.UUID | None,
    action: str,
    entity_type: str,
    entity_id: str | uuid.UUID | None,
    before: Any = None,
    after: Any = None,
    **extra: Any,
) -> AuditLog:
    """Add one entry to the caller's transaction (it is committed with the change)."""
    details: dict[str, Any] = {"before": json_safe(before), "after": json_safe(after)}
    details.update(json_safe(extra))
    entry = AuditLog(
        actor_user_id=_actor(session, actor_id),
        action=action[:64],
        entity_type=entity_type[:64],
        entity_id=None if entity_id is None else str(entity_id)[:64],
        details=details,
    )
    session.add(entry)
    return entry


def saved(
    session: Session,
    row: Any,
    *,
    actor_id: str | uuid.UUID | None,
    action: str,
    entity_type: str,
    before: Any = None,
) -> AuditLog:
    """Write `row` (new or changed) in the caller's transaction and record it: the entry's
    `after` is the row as written."""
    session.add(row)
    session.flush()
    return record(
        session,
        actor_id=actor_id,
        action=action,
        entity_type=entity_type,
        entity_id=row.id,
        before=before,
        after=snapshot(row),
    )


@contextmanager
def changing(
    session: Session,
    row: Any,
    *,
    actor_id: str | uuid.UUID | None,
    action: str,
    entity_type: str,
    new: bool = False,
) -> Iterator[Any]:
    """Snapshot, change, audit: the one way a back-office change of one row is recorded. The
    entry's `before` is `row` as it is when the block starts (None for a `new` row), its
    `after` the row as the block left it, written (`saved`) in the caller's transaction. A
    block that raises writes and records nothing.

        with audit.changing(session, row, actor_id=..., action="...", entity_type="..."):
            row.is_available = False
    """
    before = None if new else snapshot(row)
    yield row
    saved(session, row, actor_id=actor_id, action=action, entity_type=entity_type, before=before)


def removed(
    session: Session,
    row: Any,
    *,
    actor_id: str | uuid.UUID | None,
    action: str,
    entity_type: str,
) -> AuditLog:
    """Delete `row` in the caller's transaction and record it: the entry's `before` is the row
    as it was, its `after` None."""
    before = snapshot(row)
    session.delete(row)
    session.flush()
    return record(
        session,
        actor_id=actor_id,
        action=action,
        entity_type=entity_type,
        entity_id=before["id"] if before else None,
        before=before,
        after=None,
    )


# --- the viewer ----------------------------------------------------------------------------------

PER_PAGE = 25
# The most of an email the log is searched by.
ACTOR_SEARCH_MAX = 100


class AuditError(ServiceError):
    """Codes: those of permissions.require_admin (the caller is not an admin who may use the
    back office), invalid_filter."""

    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "invalid_filter": "Invalid filter",
    }


@dataclass(frozen=True)
class AuditEntry:
    id: str
    created_at: str  # DD.MM.YYYY HH:MM local
    actor: str  # the actor's email, or 'system'
    action: str  # the stored code: 'booking_bulk_cancel'
    action_label: str  # in words: 'Pending bookings cancelled together' (`action_in_words`)
    entity_type: str
    entity_id: str
    entity: str  # in words: 'Service: Bouncy castle', 'Booking: MG-1A2B3C4D', 'Settings'
    changes: tuple[str, ...]  # one line per field, `describe`


@dataclass(frozen=True)
class AuditPage:
    entries: tuple[AuditEntry, ...]
    total: int
    page: int
    pages: int
    entity_types: tuple[str, ...]


# --- in words: what the viewer shows of an entry (the stored details stay as they are) -------

# What each action is called in the back office (translated where shown, `action_in_words`).
# Every code a write path records is named here (tests/unit/test_audit_words.py reads them
# from the sources), so the log never shows a code such as 'booking_bulk_cancel'.
ACTION_LABELS = {
    # services
    "create": N_o("Service created"),
    "update": N_o("Service changed"),
    "delete": N_o("Service deleted"),
    "toggle_active": N_o("Service activated or deactivated"),
    "toggle_featured": N_o("Service featured or unfeatured"),
    "set_status_published": N_o("Service published"),
    "set_status_draft": N_o("Service taken back to draft"),
    "deactivate_instead_of_delete": N_o("Service deactivated instead of deleted (it has bookings)"),
    "submit_for_review": N_o("Owner's changes sent for review"),
    "approve_revision": N_o("Owner's changes approved"),
    "reject_revision": N_o("Owner's changes rejected"),
    # availability and blocked dates
    "create_availability": N_o("Availability added"),
    "update_availability": N_o("Availability changed"),
    "toggle_availability": N_o("Availability turned on or off"),
    "delete_availability": N_o("Availability deleted"),
    "block_dates": N_o("Dates blocked"),
    "unblock_dates": N_o("Blocked dates removed"),
    # bookings
    "booking_status": N_o("Booking status changed"),
    "booking_update": N_o("Booking edited"),
    "booking_delete": N_o("Booking deleted"),
    "booking_bulk_cancel": N_o("Pending bookings cancelled together"),
    "booking_note": N_o("Note added to a booking"),
    "booking_set_up": N_o("Job marked set up at the venue"),
    "booking_cancelled_by_customer": N_o("Booking cancelled by the customer"),
    "booking_moved_by_customer": N_o("Booking moved by the customer"),
    "booking_weather_offer": N_o("Move offered for the weather"),
    "payment_record": N_o("Payment recorded"),
    "payment_reverse": N_o("Payment reversed"),
    "cash_handover": N_o("Cash handed over"),
    "van_create": N_o("Van added"),
    "van_update": N_o("Van changed"),
    "van_assign": N_o("Run given to a van"),
    "van_unassign": N_o("Run taken off its van"),
    "receipt_issue": N_o("Receipt issued"),
    "receipt_reissue": N_o("Receipt issued again (same number)"),
    # users and sign-in
    "set_admin_role": N_o("Made an admin"),
    "set_first_admin": N_o("Made the first admin"),
    "make_admin_cli": N_o("Made an admin from the command line"),
    "set_staff_role": N_o("Made staff"),
    "remove_staff_role": N_o("Staff role removed"),
    "two_factor_on": N_o("Two-factor sign-in turned on"),
    "two_factor_off": N_o("Two-factor sign-in turned off"),
    "two_factor_locked": N_o("Two-factor sign-in locked after wrong codes"),
    "two_factor_unlocked": N_o("Two-factor sign-in unlocked with a recovery code"),
    "calendar_feed_on": N_o("Calendar subscription turned on"),
    "calendar_feed_off": N_o("Calendar subscription turned off"),
    # banners, storage, settings
    "create_banner": N_o("Banner created"),
    "create_banner_item": N_o("Banner item added"),
    "update_banner_item": N_o("Banner item changed"),
    "delete_banner_item": N_o("Banner item deleted"),
    "create_storage_folders": N_o("Storage folders created"),
    "settings_update": N_o("Settings changed"),
}
# A switch's entry says which way it went: (the field the entry's `after` holds, its words when
# the field is now on, when off).
SWITCH_ACTIONS = {
    "toggle_active": ("active", N_o("Service activated"), N_o("Service deactivated")),
    "toggle_featured": ("featured", N_o("Service featured"), N_o("Service unfeatured")),
    "toggle_availability": (
        "is_available",
        N_o("Availability turned on"),
        N_o("Availability turned off"),
    ),
}

# A field's name as the back office's forms name it (translated where shown, `field_label`):
# the service form, the booking edit, the availability and blocked dates forms, the settings.
# Every column of a table the log records is named here or hidden (test_audit_words.py).
FIELD_LABELS = {
    # vans and their runs (services/operations/vans.py)
    "van": N_o("Van"),
    "crew": N_o("Crew"),
    "plate": N_o("Plate"),
    "leg": N_o("Run"),
    "depot_municipality": N_o("Depot's municipality"),
    "travel_minutes": N_o("Driving times"),
    # services and their capacity (the service form)
    "title": N_o("Title"),
    "slug": N_o("Slug"),
    "description": N_o("Description"),
    "price": N_o("Price"),
    "price_unit": N_o("Priced"),
    "kind": N_o("Kind"),
    "images": N_o("Images"),
    "meta": N_o("Details"),
    "featured": N_o("Featured"),
    "active": N_o("Active"),
    "status": N_o("Status"),
    "display_order": N_o("Display order"),
    "total_units": N_o("Units"),
    "buffer_time_minutes": N_o("Buffer (minutes)"),
    "setup_lead_minutes": N_o("Setup lead (minutes)"),
    # bookings and their items (the booking edit)
    "reference": N_o("Reference"),
    "contact_name": N_o("Customer name"),
    "contact_email": N_o("Email"),
    "contact_phone": N_o("Phone"),
    "venue_address": N_o("Venue address"),
    "city": N_o("City"),
    "state": N_o("State"),
    "zip_code": N_o("ZIP Code"),
    "event_type": N_o("Event Type"),
    "guest_count": N_o("Guests"),
    "special_requests": N_o("Special requests"),
    "total_amount": N_o("Total"),
    "transport_amount": N_o("Transport"),
    "deposit_amount": N_o("Deposit"),
    "currency": N_o("Currency"),
    "language": N_o("Language"),
    "service_name": N_o("Service"),
    "unit_price": N_o("Price"),
    "service_price": N_o("Price for the booked time"),
    "quantity": N_o("Quantity"),
    "start_datetime": N_o("Start"),
    "end_datetime": N_o("End"),
    "notes": N_o("Notes"),
    # users
    "role": N_o("Role"),
    "email": N_o("Email"),
    # business settings (the settings page's labels)
    "business_name": N_o("Business name"),
    "phone": N_o("Phone"),
    "whatsapp_number": N_o("WhatsApp number"),
    "instagram": N_o("Instagram"),
    "facebook": N_o("Facebook page"),
    "address": N_o("Address"),
    "opening_hours": N_o("Opening hours"),
    "min_notice_hours": N_o("Minimum notice (hours)"),
    "reminder_lead_hours": N_o("Reminder before the event (hours)"),
    "digest_hour": N_o("Staff digest of tomorrow's jobs at (hour, 0-23)"),
    "change_cutoff_hours": N_o("Customers may change a booking until (hours before)"),
    "staff_language": N_o("Staff messages in"),
    "admin_two_factor_required": N_o("Two-factor sign-in required for admins"),
    "backup_daily": N_o("Daily backup"),
    "fiscal_number": N_o("Fiscal number (NUI)"),
    # payments and cash handovers (issue 36)
    "amount": N_o("Amount"),
    "method": N_o("Method"),
    "recorded_by_name": N_o("Recorded by"),
    "recorded_at": N_o("Recorded at"),
    "staff_name": N_o("Staff"),
    "received_by_name": N_o("Received by"),
    "day": N_o("Day"),
    "deposit_percent": N_o("Deposit (%)"),
    "deposit_above": N_o("Deposit asked above"),
    "transport_fees": N_o("Transport by municipality"),
    # crews and vans (issue 37): the proof of delivery, the weather's offer
    "set_up_at": N_o("Set up at"),
    "set_up_by_name": N_o("Set up by"),
    "received_by": N_o("Received by at the venue"),
    "set_up_photo": N_o("Set-up photo"),
    "weather_offered_at": N_o("Move offered for the weather"),
    "categories": N_o("Kinds of service"),
    "services": N_o("Services"),
    # availability and blocked dates (their forms)
    "day_of_week": N_o("Day"),
    "start_time": N_o("Start Time"),
    "end_time": N_o("End Time"),
    "slot_duration_minutes": N_o("Slot Duration (minutes)"),
    "max_bookings_per_slot": N_o("Max Bookings per Slot"),
    "is_available": N_o("Available"),
    "start_date": N_o("From"),
    "end_date": N_o("To"),
    "is_recurring_yearly": N_o("Every year"),
    "reason": N_o("Reason"),
    # banners
    "name": N_o("Name"),
    "is_active": N_o("Active"),
    "image_url": N_o("Image"),
    "link_url": N_o("Link"),
    # what some entries add besides before and after
    "override": N_o("Capacity warning overridden"),
    "conflicts": N_o("Conflicts"),
    "note": N_o("Note"),
    "references": N_o("Bookings"),
    "created": N_o("Folders created"),
    "failed": N_o("Folders failed"),
    "total_set_by_hand": N_o("Total set by hand"),
    "lines_total": N_o("The services' sum"),
    "moved_into_past": N_o("Moved into the past"),
    "replaced": N_o("Replaced an earlier address"),
}
# A booking's contact field declared after these is named by its declaration's words
# (models/contact_fields.py: CONTACT_FIELDS).
FIELD_LABELS |= {f.column: f.label for f in CONTACT_FIELDS if f.column not in FIELD_LABELS}
# What an entry adds under a name its before/after uses otherwise: the bulk cancel's `address`
# is the visitor's internet address, not a venue's or the business's.
EXTRA_LABELS = {"address": N_o("Internet address (IP)")}
# Columns that mean nothing to a reader (ids, timestamps, keys, counters) or that the entity's
# name shows.
HIDDEN_FIELDS = frozenset(
    {
        "id",
        "created_at",
        "updated_at",
        "service_id",
        "banner_id",
        "booking_id",
        "booking_ids",
        "user_id",
        "category_id",
        "idempotency_key",
        "lines_digest",
        "client_address",
        "client_network",
        "contact_mailbox",
        "calendar_sequence",
        "submitted_by",
        "submitted_at",
        "reverses_id",
        "recorded_by_id",
        "staff_id",
        "received_by_id",
    }
)
# Parts of an entry's before/after that are one thing to a reader: their fields are merged.
SECTIONS = ("service", "capacity", "booking", "revision")
ENTITY_LABELS = {
    "service": N_o("Service"),
    "booking": N_o("Booking"),
    "user": N_o("User"),
    "banner": N_o("Banner"),
    "banner_item": N_o("Banner item"),
    "settings": N_o("Settings"),
    "service_availability": N_o("Availability"),
    "blocked_date": N_o("Blocked dates"),
    "storage": N_o("Storage"),
    "van": N_o("Van"),
}
EMPTY = N_o("(empty)")
# A text kept in another language beside the default one (a service's or the settings'
# `translations`): 'Address (English)', as the forms name its field.
IN_ENGLISH = N_o("{field} (English)")
# Stored codes a reader sees as words (the back office's words for them).
ROLE_WORDS = {"admin": N_o("admin"), "staff": N_o("staff"), "user": N_o("user")}
STATUS_WORDS = {
    "pending": N_o("pending"),
    "confirmed": N_o("confirmed"),
    "on_the_way": N_o("on the way"),
    "completed": N_o("completed"),
    "cancelled": N_o("cancelled"),
    "published": N_o("Published"),
    "draft": N_o("Draft"),
}
# The service form's words for a price's unit (components/service_form.py).
UNIT_WORDS = {"per_hour": N_o("Per hour"), "per_event": N_o("Per event")}
MONEY_FIELDS = frozenset(
    {
        "price",
        "unit_price",
        "service_price",
        "total_amount",
        "lines_total",
        "transport_amount",
        "deposit_amount",
        "deposit_above",
        "amount",
    }
)
LANGUAGE_FIELDS = frozenset({"language", "staff_language"})
WEEKDAYS = dates.OFFICE_DAY_NAMES  # day_of_week 0 is Sunday
LONGEST_VALUE = 80


def action_in_words(action: str, details: Any = None) -> str:
    """What an entry did, in the language of the moment: 'booking_bulk_cancel' -> 'Pending
    bookings cancelled together'; a switch says which way it went ('Service deactivated')."""
    switch = SWITCH_ACTIONS.get(action)
    after = details.get("after") if isinstance(details, dict) else None
    if switch and isinstance(after, dict) and isinstance(after.get(switch[0]), bool):
        return _o(switch[1] if after[switch[0]] else switch[2])
    label = ACTION_LABELS.get(action)
    return _o(label) if label else action.replace("_", " ").strip().capitalize()


def entity_type_label(code: str) -> str:
    """What a kind of entry is called ('service_availability' -> 'Availability'), in the
    language of the moment; an unnamed one as its code."""
    label = ENTITY_LABELS.get(code)
    return _o(label) if label else code.replace("_", " ")


def field_label(name: str) -> str:
    """A field's name as the back office says it ('total_amount' -> 'Total'), in the language of
    the moment."""
    label = FIELD_LABELS.get(name)
    return _o(label) if label else name.replace("_", " ").strip().capitalize()


def _money(value: Any) -> str | None:
    """A stored amount ('150.00', 95) as every price is written, with its currency; None for
    what is not an amount."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        return None
    try:
        amount = Decimal(str(value).strip())
    except ArithmeticError:
        return None
    return money.format_price(amount) if amount.is_finite() else None


def _in_words(name: str, value: Any) -> str:
    """One stored value as a person reads it: prices with their currency, local dates and
    times, yes/no, weekdays, the forms' words for codes."""
    if value is None or value == "" or value == [] or value == {}:
        return _o(EMPTY)
    if isinstance(value, bool):
        return _o("yes") if value else _o("no")
    if name == "day_of_week" and isinstance(value, int) and 0 <= value < len(WEEKDAYS):
        return _o(WEEKDAYS[value])
    if name == "role" and value in ROLE_WORDS:
        return _o(ROLE_WORDS[value])
    if name == "status" and value in STATUS_WORDS:
        return _o(STATUS_WORDS[value])
    if name == "price_unit" and value in UNIT_WORDS:
        return _o(UNIT_WORDS[value])
    if name == "kind" and value in kinds.KINDS:
        return _s(kinds.KINDS[value].label)
    if name in LANGUAGE_FIELDS and value in i18n.NAMES:
        return i18n.NAMES[value]
    if name in MONEY_FIELDS and (amount := _money(value)) is not None:
        return amount
    if isinstance(value, list):
        if all(isinstance(v, dict) for v in value):
            return str(len(value))  # images, price lines: how many
        return ", ".join(_in_words(name, v) for v in value)
    text = str(value)
    if isinstance(value, str) and len(text) >= 10 and text[4:5] == "-" and text[7:8] == "-":
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            pass
        else:
            if len(text) == 10:
                return dates.display_day(text)
            if moment.tzinfo is not None:
                return f"{dates.local_date(moment)} {dates.local_time(moment)}"
    if isinstance(value, str) and len(text) == 8 and text[2:3] == ":" and text[5:6] == ":":
        return text[:5]  # a time of day, 'HH:MM:SS'
    text = " ".join(text.split())
    return text if len(text) <= LONGEST_VALUE else text[: LONGEST_VALUE - 1] + "\u2026"


def _line_names(before: Any, after: Any) -> dict[str, str]:
    """{a booking line's key: what the log calls it}: its service's name ('Bouncy castle'), with
    its number among the lines of the same name when there are several ('Bouncy castle (2)').
    A line is keyed by its id where the entry stored one, so a line matches itself before and
    after whatever their order."""
    names: dict[str, str] = {}
    for side in (before, after):
        items = side.get("items") if isinstance(side, dict) else None
        if not isinstance(items, list):
            continue
        for number, line in enumerate(items, start=1):
            if not isinstance(line, dict):
                continue
            key = _line_key(line, number)
            name = str(line.get("service_name") or "").strip()
            if not name:
                name = _o("Item {number}").format(number=number)
            names.setdefault(key, name)
    plain = dict(names)
    for key, name in plain.items():
        same = [k for k, n in plain.items() if n == name]
        if len(same) > 1:
            names[key] = f"{name} ({same.index(key) + 1})"
    return names


def _line_key(line: dict[str, Any], number: int) -> str:
    return f"items.{line.get('id') or number}"


def _fields(
    value: Any, label: str = "", lines: dict[str, str] | None = None, *, extra: bool = False
) -> dict[str, tuple[str, Any]]:
    """A before or after as {key: (label, value)}: sections merged, booking lines under their
    service's name (`lines`, from `_line_names`), nested details (a service's `meta`) under their
    parent's label, texts in another language under their field's name and the language, hidden
    columns left out. `extra`: what an entry adds beside its before and after."""
    out: dict[str, tuple[str, Any]] = {}
    if not isinstance(value, dict):
        return out
    for name, item in value.items():
        if name in HIDDEN_FIELDS:
            continue
        if name in SECTIONS and (item is None or isinstance(item, dict)):
            out.update(_fields(item, label, lines))
        elif name == "items" and isinstance(item, list):
            for number, line in enumerate(item, start=1):
                if not isinstance(line, dict):
                    continue
                key = _line_key(line, number)
                named = (lines or {}).get(key) or _o("Item {number}").format(number=number)
                inner = _fields(line, f"{named} / ", lines)
                out.update({f"{key}.{k}": v for k, v in inner.items()})
        elif name == "translations" and isinstance(item, dict):
            for lang, texts in item.items():
                if not isinstance(texts, dict):
                    continue
                for field, text in texts.items():
                    shown = field_label(field)
                    worded = (
                        _o(IN_ENGLISH).format(field=shown) if lang == "en" else f"{shown} ({lang})"
                    )
                    out[f"translations.{lang}.{field}"] = (f"{label}{worded}", text)
        elif isinstance(item, dict) and item:
            inner = _fields(item, f"{label}{field_label(name)} / ", lines)
            out.update({f"{name}.{k}": v for k, v in inner.items()})
        else:
            worded = _o(EXTRA_LABELS[name]) if extra and name in EXTRA_LABELS else field_label(name)
            out[name] = (f"{label}{worded}", item)
    return out


def describe(details: Any, entity_type: str = "") -> tuple[str, ...]:
    """An entry's stored details in words, one line per field: 'Price: 150,00 € -> 200,00 €'
    for a change, 'Title: Bouncy castle' for what was created or deleted, then what the entry
    adds ('Capacity warning overridden: yes'). Fields that did not change are left out; a
    booking's line is named by its service ('Bouncy castle / Start: ...')."""
    if not isinstance(details, dict):
        return ()
    before, after = details.get("before"), details.get("after")
    lines_named = _line_names(before, after)
    old, new = _fields(before, lines=lines_named), _fields(after, lines=lines_named)
    lines: list[str] = []
    if isinstance(before, dict) and isinstance(after, dict):
        for key, (label, value) in new.items():
            if key in old and old[key][1] != value:
                field = key.rsplit(".", 1)[-1]
                was, now = _in_words(field, old[key][1]), _in_words(field, value)
                lines.append(f"{label}: {was} -> {now}")
    else:  # created (no before) or deleted (no after): what it held
        for key, (label, value) in (new or old).items():
            shown = _in_words(key.rsplit(".", 1)[-1], value)
            if shown != _o(EMPTY):
                lines.append(f"{label}: {shown}")
    extra = {k: v for k, v in details.items() if k not in ("before", "after")}
    # The entity's name says the reference (and a user's email); the actor column who ('by').
    named = {"reference", "by"} | ({"email"} if entity_type == "user" else set())
    for key, (label, value) in _fields(extra, extra=True).items():
        if key not in named:
            lines.append(f"{label}: {_in_words(key.rsplit('.', 1)[-1], value)}")
    return tuple(lines)


NAME_FIELDS = {
    "service": (Service, "title"),
    "booking": (Booking, "reference"),
    "user": (User, "email"),
    "banner": (Banner, "name"),
    "banner_item": (BannerItem, "title"),
    "van": (Van, "name"),
}


def _stored_name(details: Any, field: str) -> str:
    """The entity's name as the entry stored it (for an entity deleted since)."""
    if not isinstance(details, dict):
        return ""
    for side in (details.get("after"), details.get("before"), details):
        if not isinstance(side, dict):
            continue
        for part in (side, *(side.get(section) for section in SECTIONS)):
            if isinstance(part, dict) and part.get(field):
                return str(part[field])
    return ""


def entity_names(session: Session, entries: list[AuditLog]) -> dict[tuple[str, str], str]:
    """{(entity type, entity id): its name now} for the entries' services, bookings, users,
    banners and banner items that still exist; one query per type. Availability rows and
    blocked dates are named by their service."""
    wanted: dict[str, set[uuid.UUID]] = {}

    def want(kind: str, raw: Any) -> None:
        try:
            wanted.setdefault(kind, set()).add(uuid.UUID(str(raw)))
        except (TypeError, ValueError):
            pass

    for entry in entries:
        if entry.entity_type in NAME_FIELDS:
            want(entry.entity_type, entry.entity_id)
        else:
            want("service", _stored_name(entry.details, "service_id"))
    names: dict[tuple[str, str], str] = {}
    for kind, ids in wanted.items():
        model, field = NAME_FIELDS[kind]
        rows = session.exec(select(model.id, getattr(model, field)).where(col(model.id).in_(ids)))
        names.update({(kind, str(i)): str(name) for i, name in rows.all() if name})
    return names


def entity_in_words(entry: AuditLog, names: dict[tuple[str, str], str]) -> str:
    """'Service: Bouncy castle', 'Booking: MG-1A2B3C4D', 'User: ana@example.com', 'Settings'."""
    label = ENTITY_LABELS.get(entry.entity_type)
    kind = _o(label) if label else field_label(entry.entity_type)
    if entry.entity_type in NAME_FIELDS:
        field = NAME_FIELDS[entry.entity_type][1]
        name = names.get((entry.entity_type, entry.entity_id or "")) or _stored_name(
            entry.details, field
        )
        if not name and entry.entity_type == "booking":
            name = _stored_name(entry.details, "reference")
    else:
        service = _stored_name(entry.details, "service_id")
        name = names.get(("service", service), "")
        if entry.entity_type == "blocked_date" and not service:
            name = _o("All services")
    if name:
        return f"{kind}: {name}"
    shown_id = entry.entity_id and entry.entity_type != "settings"
    return f"{kind} {entry.entity_id}" if shown_id else kind


def _unnamed_actor(entry: AuditLog) -> str:
    """Who made an entry that names no account: a guest through their booking's signed link
    (services/booking/changes.py), else the system."""
    if isinstance(entry.details, dict) and entry.details.get("by") == "link":
        return _o("customer (booking link)")
    return _o("system")


def entries(
    *,
    session: Session,
    actor_id: object,
    actor: str = "",
    entity_type: str = "",
    date_from: str = "",
    date_to: str = "",
    page: int = 1,
    per_page: int = PER_PAGE,
) -> AuditPage:
    """The log, newest first, filtered by the actor's email (part of it), the entity type and
    local days (inclusive); admins only."""
    permissions.require_admin(session, actor_id, AuditError)
    where: list[Any] = []
    term = str(actor or "").strip()[:ACTOR_SEARCH_MAX]
    if term:
        where.append(col(User.email).icontains(term, autoescape=True))
    if entity_type:
        where.append(AuditLog.entity_type == str(entity_type)[:64])
    try:
        first, last = dates.typed_days(date_from, date_to)
    except ValueError:
        raise AuditError("invalid_filter") from None
    where += dates.within_days(AuditLog.created_at, first, last)
    base = select(AuditLog, User.email).join(User, isouter=True).where(*where)
    total = session.exec(
        select(func.count()).select_from(AuditLog).join(User, isouter=True).where(*where)
    ).one()
    shown = paging.window(total=total, page=page, per_page=per_page, most=100)
    rows = session.exec(
        shown.of(base.order_by(col(AuditLog.created_at).desc(), col(AuditLog.id)))
    ).all()
    kinds = session.exec(select(AuditLog.entity_type).distinct().order_by(AuditLog.entity_type))
    names = entity_names(session, [entry for entry, _email in rows])
    return AuditPage(
        entries=tuple(
            AuditEntry(
                id=str(entry.id),
                created_at=f"{dates.local_date(entry.created_at)} "
                f"{dates.local_time(entry.created_at)}",
                actor=email or _unnamed_actor(entry),
                action=entry.action,
                action_label=action_in_words(entry.action, entry.details),
                entity_type=entry.entity_type,
                entity_id=entry.entity_id or "",
                entity=entity_in_words(entry, names),
                changes=describe(entry.details, entry.entity_type),
            )
            for entry, email in rows
        ),
        total=total,
        page=shown.page,
        pages=shown.pages,
        entity_types=tuple(kinds.all()),
    )
