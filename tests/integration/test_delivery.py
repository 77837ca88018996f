"""Proof of delivery on SQLite and PostgreSQL (issue 37, item 5): the crew marks a job 'Set up'
with who received it and a photo; who may, on which day, what is refused, where the photo goes
(the uploader's quota, shrunk for phones) and the audit entry."""

from __future__ import annotations

import io
import uuid
from datetime import UTC, date, datetime
from functools import partial

import pytest
from PIL import Image
from sqlmodel import select

from storefront.models import AuditLog, Booking, StoredUpload, Van, VanJob, VanJobCrew
from storefront.services import fields
from storefront.services.booking import admin as admin_bookings
from storefront.services.media import storage
from storefront.services.media.images import MAX_BYTES, StorageError
from storefront.services.operations import delivery
from storefront.services.operations.delivery import DeliveryError
from tests.factories import image_bytes, line, make_service, make_user, place
from tests.integration import test_storage_s3 as s3_tests

BOOKED = datetime(2026, 6, 1, 6, 0, tzinfo=UTC)
DAY = date(2026, 7, 14)
ON_THE_DAY = datetime(2026, 7, 14, 12, 5, tzinfo=UTC)  # 14:05 in Prishtina (summer, UTC+2)
_place = partial(place, now=BOOKED)


@pytest.fixture
def job(session):
    castle = make_service(session, title="Castle", units=3)
    return _place(session, [line(castle, str(DAY), "15:00", hours=2)])


@pytest.fixture
def staff(session):
    user = make_user(session, role="staff")
    user.full_name = "Arben Driver"
    session.add(user)
    session.commit()
    return user


def _van_job(session, booking_id: str, *crew) -> VanJob:
    van = Van(name=f"Van {uuid.uuid4().hex[:4]}")
    session.add(van)
    session.flush()
    run = VanJob(booking_id=uuid.UUID(booking_id), leg="delivery", day=DAY, van_id=van.id)
    session.add(run)
    session.flush()
    for member in crew:
        session.add(VanJobCrew(job_id=run.id, user_id=member.id))
    session.commit()
    return run


def _mark(session, actor, booking_id, received_by="Besa", photo=None, now=ON_THE_DAY):
    return delivery.mark_set_up(session, actor.id, booking_id, received_by, photo=photo, now=now)


def test_a_driver_marks_it_set_up_with_a_photo_shrunk_and_counted(session, job, staff, media_dir):
    big = image_bytes("JPEG", size=(3000, 2000))
    shown = _mark(session, staff, job.id, " Besa Krasniqi ", photo=big)
    session.commit()

    assert (shown.at, shown.received_by, shown.by) == ("14:05", "Besa Krasniqi", "Arben Driver")
    booking = session.get(Booking, uuid.UUID(job.id))
    assert booking.set_up_photo.startswith("deliveries/")
    assert shown.photo_url == storage.public_url(booking.set_up_photo)
    row = session.get(StoredUpload, booking.set_up_photo)
    assert (row.kind, row.owner_id, row.referenced) == ("delivery", staff.id, True)
    assert storage.used_bytes(session, staff.id) == row.bytes > 0
    with Image.open(media_dir / booking.set_up_photo) as stored:
        assert max(stored.size) == delivery.PHOTO_MAX_SIDE and stored.format == "WEBP"
    assert booking.set_up_photo in storage.pointed_at(session)  # the sweep keeps it
    entry = session.exec(select(AuditLog).where(AuditLog.action == "booking_set_up")).one()
    assert entry.entity_id == job.id and entry.details["after"]["received_by"] == "Besa Krasniqi"


def test_a_second_mark_keeps_the_first_time_and_replaces_the_name(session, job, staff):
    _mark(session, staff, job.id, "Besa", photo=image_bytes())
    session.commit()
    first = session.get(Booking, uuid.UUID(job.id)).set_up_photo
    later = ON_THE_DAY.replace(hour=13)
    again = _mark(session, staff, job.id, "Drita", now=later)
    session.commit()
    assert (again.at, again.received_by) == ("14:05", "Drita")
    assert session.get(Booking, uuid.UUID(job.id)).set_up_photo == first  # no new photo: kept
    _mark(session, staff, job.id, "Drita", photo=image_bytes(color=(1, 2, 3)), now=later)
    session.commit()
    session.expire_all()
    assert session.get(StoredUpload, first) is None  # the replaced photo is released


def test_an_uploaded_photo_is_referenced_by_its_path_only_by_its_uploader(session, job, staff):
    stored = storage.save_upload(session, "deliveries", image_bytes(), owner=staff, kind="delivery")
    session.commit()
    other = make_user(session, role="staff")
    session.commit()
    with pytest.raises(DeliveryError) as refused:
        _mark(session, other, job.id, photo=stored.path)
    assert refused.value.code == "no_photo"
    session.rollback()
    _mark(session, staff, job.id, photo=stored.path)
    session.commit()
    assert session.get(StoredUpload, stored.path).referenced


@pytest.mark.parametrize(("who", "code"), [("user", "not_allowed"), ("nobody", "no_user")])
def test_only_staff_and_admins_may(session, job, who, code):
    actor = make_user(session, role="user") if who == "user" else type("U", (), {"id": None})()
    session.commit()
    with pytest.raises(DeliveryError) as refused:
        _mark(session, actor, job.id)
    assert refused.value.code == code
    session.rollback()
    assert session.get(Booking, uuid.UUID(job.id)).set_up_at is None


def test_another_vans_crew_is_refused_and_its_own_and_an_admin_pass(session, job, staff):
    mine = make_user(session, role="staff")
    admin = make_user(session, role="admin")
    session.commit()
    _van_job(session, job.id, mine)
    with pytest.raises(DeliveryError) as refused:
        _mark(session, staff, job.id)
    assert refused.value.code == "not_allowed"
    session.rollback()
    assert _mark(session, mine, job.id).received_by == "Besa"
    assert _mark(session, admin, job.id, "Drita").received_by == "Drita"


def test_refused_when_cancelled_or_not_on_its_day(session, job, staff):
    with pytest.raises(DeliveryError) as early:
        _mark(session, staff, job.id, now=datetime(2026, 7, 13, 12, 0, tzinfo=UTC))
    assert early.value.code == "not_its_day"
    session.rollback()
    # The day of its van run counts too (a delivery the evening before).
    run = _van_job(session, job.id, staff)
    run.day = date(2026, 7, 13)
    session.add(run)
    session.commit()
    assert _mark(session, staff, job.id, now=datetime(2026, 7, 13, 17, 0, tzinfo=UTC)).at
    session.commit()
    booking = session.get(Booking, uuid.UUID(job.id))
    booking.status = "cancelled"
    session.add(booking)
    session.commit()
    with pytest.raises(DeliveryError) as cancelled:
        _mark(session, staff, job.id)
    assert cancelled.value.code == "cancelled"
    assert admin_bookings.service_days  # the one rule of a booking's days


@pytest.mark.parametrize("name", ["", "   ", "x" * 121, "two\nlines"])
def test_a_blank_or_bad_name_is_refused(session, job, staff, name):
    with pytest.raises(fields.FieldError):
        _mark(session, staff, job.id, name)
    session.rollback()
    assert session.get(Booking, uuid.UUID(job.id)).set_up_at is None


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"%PDF-1.4 not a picture", "not_image"),
        (b"\xff\xd8\xff" + b"0" * MAX_BYTES["delivery"], "too_large"),
    ],
)
def test_a_non_image_or_oversize_photo_is_refused_and_nothing_kept(session, job, staff, data, code):
    with pytest.raises(StorageError) as refused:
        _mark(session, staff, job.id, photo=data)
    assert refused.value.code == code
    session.rollback()
    assert session.get(Booking, uuid.UUID(job.id)).set_up_at is None
    assert session.exec(select(StoredUpload)).all() == []


def test_the_customer_sees_nothing_until_marked(session, job):
    booking = session.get(Booking, uuid.UUID(job.id))
    assert delivery.set_up_of(booking) == delivery.NOT_SET_UP


def test_a_photo_in_a_jpeg_keeps_only_pixels(session, job, staff, media_dir):
    out = io.BytesIO()
    Image.new("RGB", (20, 10)).save(out, format="JPEG", comment=b"GPS here")
    _mark(session, staff, job.id, photo=out.getvalue())
    session.commit()
    path = session.get(Booking, uuid.UUID(job.id)).set_up_photo
    assert b"GPS here" not in (media_dir / path).read_bytes()


# The bucket of tests/integration/test_storage_s3.py (a real moto server).
s3_endpoint, s3 = s3_tests.s3_endpoint, s3_tests.s3


def test_on_s3_the_photo_goes_to_the_bucket(session, job, staff, s3):
    shown = _mark(session, staff, job.id, photo=image_bytes("JPEG", size=(2000, 100)))
    session.commit()
    path = session.get(Booking, uuid.UUID(job.id)).set_up_photo
    assert s3_tests.keys(s3) == [path] and shown.photo_url == s3.url(path)
    status, body, _headers = s3_tests.fetch(shown.photo_url)
    with Image.open(io.BytesIO(body)) as stored:
        assert status == 200 and stored.size == (delivery.PHOTO_MAX_SIDE, 80)


def test_a_photo_sent_before_save_is_a_draft_until_the_mark_points_at_it(session, job, staff):
    path, url = delivery.store_photo(session, staff.id, job.id, image_bytes(), now=ON_THE_DAY)
    session.commit()
    row = session.get(StoredUpload, path)
    assert (row.referenced, row.kind) == (False, "delivery") and url == storage.public_url(path)
    shown = _mark(session, staff, job.id, photo=path)
    session.commit()
    session.refresh(row)
    assert row.referenced and shown.photo_url == url
    with pytest.raises(DeliveryError):  # only on the job's day, as the mark
        delivery.store_photo(session, staff.id, job.id, image_bytes(), now=BOOKED)
