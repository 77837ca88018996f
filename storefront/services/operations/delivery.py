"""Proof of delivery (issue 37, docs/operations.md 'Proof of delivery'): at a job the crew marks
it 'Set up' with the name of who received it at the venue and, if they took one, a photo from
the phone's camera. The owner reads it on the booking's detail, the customer's booking page
says 'Set up at 14:05'.

Who may: `permissions.require_crew` (an admin; a member of staff on any job until a van has
it, then only its crew), and only on the job's day: a day one of the booking's services starts
(the business's zone) or the day of one of its van runs; never on a cancelled booking.

A photo is stored as every other upload (`storage.save_upload`: the upload throttle, the
account's quota, type by content, the size cap of kind 'delivery', re-encoded without metadata)
and shrunk to `PHOTO_MAX_SIDE` for phones. A second mark replaces who received it and the
photo (a mark without a photo keeps the one there) but keeps the first time: the job was set up
then, and a corrected name must not move it."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, select

from storefront.i18n import N_o, _o
from storefront.models import Booking, BookingItem, StoredUpload, User, utcnow
from storefront.models.crews import VanJob
from storefront.services import audit, dates, fields, permissions
from storefront.services.booking.admin import service_days
from storefront.services.errors import ServiceError
from storefront.services.media import storage

PHOTO_FOLDER = "deliveries"
# The longest side of a stored delivery photo: sharp on a phone, a fraction of a camera's file.
PHOTO_MAX_SIDE = 1600
RECEIVED_BY_MAX = fields.max_length(Booking, "received_by")
RECEIVED_BY_LABEL = N_o("Received by")

NOT_FOUND = N_o("Booking not found")
CANCELLED = N_o("A cancelled booking cannot be set up.")
NOT_ITS_DAY = N_o("A job is marked set up only on its day.")
NO_PHOTO = N_o("The photo was not found. Please take it again.")
# The words of permissions.require_crew's refusals, marked here so that the sheet can say them
# in the back office's language (the state shows `_o(exc.message)`).
REFUSED_WORDS = (N_o("This job is another van's"), N_o("Only staff may do this"))
SHEET_LINE = N_o("Set up at {time} · received by {name}")


class DeliveryError(ServiceError):
    CODES = {
        **permissions.ADMIN_CHECK_CODES,
        "not_found": NOT_FOUND,
        "cancelled": CANCELLED,
        "not_its_day": NOT_ITS_DAY,
        "no_photo": NO_PHOTO,
    }


@dataclass(frozen=True)
class SetUp:
    """A booking's proof of delivery for the screens ('' when not set up)."""

    at: str  # local HH:MM
    day: str  # local DD.MM.YYYY
    by: str
    received_by: str
    photo_url: str


NOT_SET_UP = SetUp(at="", day="", by="", received_by="", photo_url="")


def set_up_of(booking: Booking) -> SetUp:
    """What the screens show of a booking's set-up: time and day (local), who marked it, who
    received it, the photo's address."""
    if booking.set_up_at is None:
        return NOT_SET_UP
    zone = dates.business_zone()
    return SetUp(
        at=dates.local_time(booking.set_up_at, zone),
        day=dates.local_date(booking.set_up_at, zone),
        by=booking.set_up_by_name,
        received_by=booking.received_by,
        photo_url=storage.public_url(booking.set_up_photo) if booking.set_up_photo else "",
    )


def proof(session: Session, actor_id: object, booking_id: object) -> SetUp:
    """A booking's proof of delivery for the owner (the admin's booking detail)."""
    permissions.require_admin(session, actor_id, DeliveryError)
    try:
        booking = session.get(Booking, uuid.UUID(str(booking_id)[:64]))
    except ValueError:
        booking = None
    if booking is None:
        raise DeliveryError("not_found", NOT_FOUND)
    return set_up_of(booking)


def sheet_line(shown: SetUp) -> str:
    """What the day sheet says of a job set up, in the language of the moment ('' when not)."""
    return _o(SHEET_LINE).format(time=shown.at, name=shown.received_by) if shown.at else ""


def on_its_day(session: Session, booking: Booking, now: datetime | None = None) -> bool:
    """Whether today (the business's zone) is the job's day: a day one of its services starts,
    or the day of one of its van runs."""
    zone = dates.business_zone()
    today = dates.today(now)
    items = session.exec(select(BookingItem).where(BookingItem.booking_id == booking.id)).all()
    if today in service_days(items, zone):
        return True
    run = session.exec(
        select(VanJob.id).where(VanJob.booking_id == booking.id, VanJob.day == today)
    ).first()
    return run is not None


def _photo_path(session: Session, actor: User, photo: bytes | str, now: datetime) -> str:
    if isinstance(photo, bytes | bytearray):
        stored = storage.save_upload(
            session,
            PHOTO_FOLDER,
            bytes(photo),
            owner=actor,
            kind="delivery",
            referenced=True,
            now=now,
            max_side=PHOTO_MAX_SIDE,
        )
        return stored.path
    row = session.get(StoredUpload, str(photo)[:255])
    if row is None or row.kind != "delivery" or row.owner_id != actor.id:
        raise DeliveryError("no_photo", NO_PHOTO)
    storage.claim(session, [row.path])
    return row.path


def _job(
    session: Session, actor_id: object, booking_id: object, now: datetime
) -> tuple[User, Booking]:
    """The caller and the booking when the caller may mark it set up now (see the module)."""
    actor = permissions.require_crew(session, actor_id, booking_id, DeliveryError)
    try:
        target = uuid.UUID(str(booking_id)[:64])
    except ValueError:
        raise DeliveryError("not_found", NOT_FOUND) from None
    booking = session.get(Booking, target)
    if booking is None:
        raise DeliveryError("not_found", NOT_FOUND)
    if booking.status == "cancelled":
        raise DeliveryError("cancelled", CANCELLED)
    if not on_its_day(session, booking, now):
        raise DeliveryError("not_its_day", NOT_ITS_DAY)
    return actor, booking


def store_photo(
    session: Session,
    actor_id: object,
    booking_id: object,
    data: bytes,
    now: datetime | None = None,
) -> tuple[str, str]:
    """Keep a photo the crew took for a job before they press 'Save' (the phone sends it as soon
    as it is chosen): checked, shrunk and counted as `mark_set_up` does, held as the job's draft
    upload until a mark points at it (else swept). Returns its path and address."""
    now = now or utcnow()
    actor, booking = _job(session, actor_id, booking_id, now)
    stored = storage.save_upload(
        session,
        PHOTO_FOLDER,
        bytes(data),
        owner=actor,
        kind="delivery",
        draft=f"set-up-{booking.id}",
        now=now,
        max_side=PHOTO_MAX_SIDE,
    )
    return stored.path, stored.url


def mark_set_up(
    session: Session,
    actor_id: object,
    booking_id: object,
    received_by: object,
    photo: bytes | str | None = None,
    now: datetime | None = None,
) -> SetUp:
    """Mark a booking's job set up (see the module). `photo`: the bytes of a new photo, or the
    path of a stored upload of kind 'delivery' the caller made. Refusals: DeliveryError,
    fields.FieldError (the name), storage.StorageError (the photo); nothing is changed then."""
    now = now or utcnow()
    actor, booking = _job(session, actor_id, booking_id, now)
    name = fields.single_line(received_by, RECEIVED_BY_LABEL, RECEIVED_BY_MAX, required=True)
    before = {
        "set_up_at": booking.set_up_at,
        "received_by": booking.received_by,
        "set_up_photo": booking.set_up_photo,
    }
    new_photo = _photo_path(session, actor, photo, now) if photo else None
    if new_photo and booking.set_up_photo and booking.set_up_photo != new_photo:
        storage.release(session, [booking.set_up_photo])
    booking.set_up_at = booking.set_up_at or now
    booking.set_up_by_name = (actor.full_name or actor.email or "")[:255]
    booking.received_by = name
    if new_photo:
        booking.set_up_photo = new_photo
    booking.updated_at = now
    session.add(booking)
    audit.record(
        session,
        actor_id=actor.id,
        action="booking_set_up",
        entity_type="booking",
        entity_id=booking.id,
        before=before,
        after={
            "set_up_at": booking.set_up_at,
            "received_by": booking.received_by,
            "set_up_photo": booking.set_up_photo,
        },
    )
    session.flush()
    return set_up_of(booking)


__all__ = [
    "DeliveryError",
    "PHOTO_MAX_SIDE",
    "SetUp",
    "mark_set_up",
    "on_its_day",
    "proof",
    "set_up_of",
    "sheet_line",
    "store_photo",
]
