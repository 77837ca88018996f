"""The admin catalogue on SQLite and PostgreSQL: the list, the toggles, delete, and the one
service form for admins and for users' own drafts; every change audited in its transaction."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import func
from sqlmodel import select

from storefront import i18n
from storefront.models import (
    AuditLog,
    Booking,
    BookingItem,
    Service,
    ServiceAvailability,
    ServiceCapacity,
    ServiceCategory,
)
from storefront.services.booking import availability
from storefront.services.catalog import admin as catalog_admin
from storefront.services.catalog import listing as catalog_list
from storefront.services.catalog import public as catalog
from storefront.services.catalog.admin import CatalogError, ServiceForm
from tests.factories import image_bytes, make_service, make_user


@pytest.fixture
def admin(session):
    user = make_user(session, role="admin")
    session.commit()
    return user


@pytest.fixture
def user(session):
    user = make_user(session, role="user")
    session.commit()
    return user


def audit_rows(session, entity_id=None) -> list[AuditLog]:
    query = select(AuditLog).where(AuditLog.entity_type == "service")
    if entity_id is not None:
        query = query.where(AuditLog.entity_id == str(entity_id))
    return list(session.exec(query.order_by(AuditLog.created_at)).all())


def form(**overrides) -> ServiceForm:
    values = {
        "title": "Bubble House Deluxe",
        "slug": "bubble-house-deluxe",
        "description": "A bubble house with balloons.",
        "price": "150.00",
        "kind": "service",
    }
    return ServiceForm(**(values | overrides))


def refused(code, fn, session, **kwargs) -> CatalogError:
    with pytest.raises(CatalogError) as error:
        fn(session=session, **kwargs)
    session.rollback()
    assert error.value.code == code, error.value.details
    return error.value


# --- the list ----------------------------------------------------------------------------


def test_list_searches_sorts_and_pages_on_the_server(session, admin):
    for i in range(25):
        make_service(session, title=f"Castle {i:02d}", price=str(100 + i))
    make_service(session, title="Mascot Elsa", active=False, status="draft")
    session.commit()

    first = catalog_list.list_services(session=session, actor_id=admin.id)
    assert (first.total, first.pages, len(first.rows)) == (26, 2, 20)
    assert first.rows[0].title == "Castle 00"
    second = catalog_list.list_services(session=session, actor_id=admin.id, page=2)
    assert [r.title for r in second.rows][-1] == "Mascot Elsa"
    assert second.rows[-1].status == "draft" and not second.rows[-1].active

    found = catalog_list.list_services(session=session, actor_id=admin.id, search="ELSA")
    assert [r.title for r in found.rows] == ["Mascot Elsa"]
    by_slug = catalog_list.list_services(session=session, actor_id=admin.id, search="castle-07")
    assert [r.title for r in by_slug.rows] == ["Castle 07"]
    with i18n.using("en"):  # the back office's default language: SPEC's 'Unknown' category
        dearest = catalog_list.list_services(
            session=session, actor_id=admin.id, sort="price", descending=True
        )
    assert dearest.rows[0].title == "Castle 24" and dearest.rows[0].category == "Unknown"
    beyond = catalog_list.list_services(session=session, actor_id=admin.id, page=99)
    assert beyond.page == 2


def test_only_admins_list_and_change_services(session, user):
    service = make_service(session)
    session.commit()
    refused("not_allowed", catalog_list.list_services, session, actor_id=user.id)
    refused("no_user", catalog_list.list_services, session, actor_id=None)
    refused("no_user", catalog_list.list_services, session, actor_id=str(uuid.uuid4()))
    for fn in (catalog_list.toggle_active, catalog_list.toggle_featured):
        refused("not_allowed", fn, session, actor_id=user.id, service_id=service.id)
    refused(
        "not_allowed",
        catalog_list.delete_service,
        session,
        actor_id=user.id,
        service_id=service.id,
    )
    refused(
        "not_allowed",
        catalog_list.set_status,
        session,
        actor_id=user.id,
        service_id=service.id,
        status="draft",
    )
    fresh = session.get(Service, service.id)
    assert fresh.active and not fresh.featured and fresh.status == "published"
    assert audit_rows(session) == []


# --- toggles and delete --------------------------------------------------------------------


def test_toggles_flip_and_are_audited_with_before_and_after(session, admin):
    service = make_service(session)
    session.commit()
    assert (
        catalog_list.toggle_active(session=session, actor_id=admin.id, service_id=service.id)
        is False
    )
    assert (
        catalog_list.toggle_featured(session=session, actor_id=admin.id, service_id=service.id)
        is True
    )
    session.commit()
    fresh = session.get(Service, service.id)
    session.refresh(fresh)
    assert not fresh.active and fresh.featured
    rows = audit_rows(session, service.id)
    assert [r.action for r in rows] == ["toggle_active", "toggle_featured"]
    assert (
        rows[0].details["before"]["active"] is True and rows[0].details["after"]["active"] is False
    )
    assert rows[0].actor_user_id == admin.id
    refused("not_found", catalog_list.toggle_active, session, actor_id=admin.id, service_id="nope")


def test_publishing_a_draft_puts_it_on_the_public_pages(session, admin):
    service = make_service(session, status="draft")
    session.commit()
    assert catalog.get_public_service(session=session, service_id=str(service.id)) is None
    catalog_list.set_status(
        session=session, actor_id=admin.id, service_id=service.id, status="published"
    )
    session.commit()
    assert catalog.get_public_service(session=session, service_id=str(service.id)) is not None


def test_delete_removes_a_service_without_bookings_with_its_hours_and_capacity(session, admin):
    service = make_service(session, hours=[(1, "09:00", "17:00", 60, 1)])
    session.commit()
    outcome = catalog_list.delete_service(session=session, actor_id=admin.id, service_id=service.id)
    session.commit()
    assert outcome == "deleted"
    assert session.get(Service, service.id) is None
    for model in (ServiceCapacity, ServiceAvailability):
        assert session.exec(select(func.count()).select_from(model)).one() == 0
    [entry] = audit_rows(session, service.id)
    assert entry.action == "delete" and entry.details["after"] is None
    assert entry.details["before"]["title"] == "Bouncy castle"


def test_delete_of_a_booked_service_deactivates_it_and_keeps_the_booking(session, admin):
    service = make_service(session)
    booking = Booking(
        contact_email="a@example.com",
        contact_phone="+38344111222",
        total_amount=Decimal("10"),
        idempotency_key=uuid.uuid4().hex,
    )
    session.add(booking)
    session.flush()
    start = datetime(2026, 7, 1, 10, tzinfo=UTC)
    session.add(
        BookingItem(
            booking_id=booking.id,
            service_id=service.id,
            service_name=service.title,
            service_price=Decimal("10"),
            start_datetime=start,
            end_datetime=start + timedelta(hours=1),
        )
    )
    session.commit()
    outcome = catalog_list.delete_service(session=session, actor_id=admin.id, service_id=service.id)
    session.commit()
    assert outcome == "deactivated"
    fresh = session.get(Service, service.id)
    session.refresh(fresh)
    assert fresh is not None and not fresh.active
    assert session.exec(select(func.count()).select_from(BookingItem)).one() == 1
    assert [r.action for r in audit_rows(session, service.id)] == ["deactivate_instead_of_delete"]


# --- the service form ----------------------------------------------------------------------


def test_an_admin_creates_a_service_with_kind_details_images_and_capacity(
    session, admin, media_dir
):
    category = ServiceCategory(name="Wedding Tables", slug=f"tables-{uuid.uuid4().hex[:6]}")
    session.add(category)
    session.commit()
    images = [
        catalog_admin.store_image(session=session, actor_id=admin.id, data=image_bytes(), draft="f")
        for i in range(2)
    ]
    service_id = catalog_admin.save_service(
        session=session,
        actor_id=admin.id,
        form=form(
            title="Gold Tables 80cm",
            slug="gold-tables-80cm",
            kind="table",
            category_id=str(category.id),
            details={"color": "black", "diameter": "80"},
            images=images,
            total_units="40",
            buffer_time_minutes="60",
        ),
    )
    session.commit()
    service = session.get(Service, uuid.UUID(service_id))
    assert (service.kind, service.price, service.price_unit) == (
        "table",
        Decimal("150.00"),
        "per_event",
    )
    assert service.meta == {"color": "black", "diameter": 80}
    assert service.active and not service.featured and service.status == "published"
    assert [i["path"] for i in service.images] == [i["path"] for i in images]
    assert all((media_dir / i["path"]).is_file() for i in images)
    capacity = session.get(ServiceCapacity, service.id)
    assert (capacity.total_units, capacity.buffer_time_minutes) == (40, 60)
    [entry] = audit_rows(session, service.id)
    assert entry.action == "create" and entry.details["before"] is None
    assert entry.details["after"]["capacity"]["total_units"] == 40
    public = catalog.get_public_service(session=session, service_id="gold-tables-80cm")
    assert public is not None and public.image_url == images[0]["url"]

    loaded = catalog_admin.load_form(session=session, actor_id=admin.id, service_id=service_id)
    assert loaded.details == {"color": "black", "diameter": "80"}
    assert (loaded.total_units, loaded.buffer_time_minutes) == ("40", "60")


def test_a_new_service_gets_specs_default_capacity(session, admin):
    service_id = catalog_admin.save_service(session=session, actor_id=admin.id, form=form())
    session.commit()
    capacity = session.get(ServiceCapacity, uuid.UUID(service_id))
    assert (capacity.total_units, capacity.buffer_time_minutes) == (1, 120)


@pytest.mark.parametrize(
    ("overrides", "field", "reason"),
    [
        ({"title": "  "}, "title", "required"),
        ({"slug": ""}, "slug", "required"),
        ({"slug": "Not a slug!"}, "slug", "format"),
        ({"description": ""}, "description", "required"),
        ({"price": "-1"}, "price", "range"),
        ({"price": "abc"}, "price", "number"),
        ({"price": "1.005"}, "price", "step"),
        ({"total_units": "0"}, "total_units", "range"),
        ({"buffer_time_minutes": "x"}, "buffer_time_minutes", "number"),
        ({"kind": "table", "details": {"color": "red"}}, "color", "detail"),
        (
            {"kind": "package", "details": {"type": "castle", "features": "🎈 50 balloons"}},
            None,
            None,
        ),
        ({"kind": "theme", "details": {"add_ons": "Lion visit | lots"}}, "add_ons", "detail"),
        ({"kind": "theme", "details": {"add_ons": "no price here"}}, "add_ons", "priced_line"),
        ({"images": [{"path": "../../etc/passwd", "url": "x"}]}, "images", "path"),
    ],
)
def test_the_form_names_what_is_wrong_and_stores_nothing(session, admin, overrides, field, reason):
    if field is None:  # the valid case among them
        catalog_admin.save_service(session=session, actor_id=admin.id, form=form(**overrides))
        session.rollback()
        return
    error = refused(
        "invalid", catalog_admin.save_service, session, actor_id=admin.id, form=form(**overrides)
    )
    assert (error.details["field"], error.details["reason"]) == (field, reason)
    assert session.exec(select(func.count()).select_from(Service)).one() == 0
    assert audit_rows(session) == []


def test_a_slug_belongs_to_one_service(session, admin):
    catalog_admin.save_service(session=session, actor_id=admin.id, form=form())
    session.commit()
    refused(
        "slug_taken",
        catalog_admin.save_service,
        session,
        actor_id=admin.id,
        form=form(title="Other"),
    )
    assert session.exec(select(func.count()).select_from(Service)).one() == 1


def test_at_most_five_images(session, admin):
    images = [{"path": f"services/{uuid.uuid4()}.webp", "url": ""} for _ in range(6)]
    refused(
        "too_many_images",
        catalog_admin.save_service,
        session,
        actor_id=admin.id,
        form=form(images=images),
    )
    for _ in range(catalog_admin.MAX_IMAGES):
        catalog_admin.store_image(session=session, actor_id=admin.id, data=image_bytes(), draft="f")
    refused(
        "too_many_images",
        catalog_admin.store_image,
        session,
        actor_id=admin.id,
        data=image_bytes(),
        draft="f",
    )


def test_slug_rule_of_spec():
    assert catalog_admin.slugify("  Magic   Bubble -- House! ") == "magic-bubble-house"
    assert catalog_admin.slugify("Shtëpi me flluska") == "shtëpi-me-flluska"


def test_a_users_service_is_their_draft_until_an_admin_publishes_it(session, admin, user):
    other = make_user(session)
    session.commit()
    service_id = catalog_admin.save_service(
        session=session,
        actor_id=user.id,
        form=form(kind="mascot", status="published", details={"color": "bg-red-500"}),
    )
    session.commit()
    service = session.get(Service, uuid.UUID(service_id))
    assert (service.status, service.user_id, service.kind, service.meta) == (
        "draft",
        user.id,
        "service",
        {},
    )
    assert catalog.get_public_service(session=session, service_id=service_id) is None
    assert catalog.list_public_services(session=session) == []
    with pytest.raises(availability.AvailabilityError):
        availability.bookable_service(session=session, service_id=service_id)

    # The owner edits it and it stays a draft; another user cannot even find it.
    catalog_admin.save_service(
        session=session,
        actor_id=user.id,
        form=form(title="Renamed", status="published"),
        service_id=service_id,
    )
    session.commit()
    session.refresh(service)
    assert (service.title, service.status) == ("Renamed", "draft")
    refused("not_found", catalog_admin.load_form, session, actor_id=other.id, service_id=service_id)
    refused(
        "not_found",
        catalog_admin.save_service,
        session,
        actor_id=other.id,
        form=form(title="Hijacked"),
        service_id=service_id,
    )
    session.refresh(service)
    assert service.title == "Renamed"

    # An admin publishes it from the form; the owner's next edit keeps it published, and
    # waits for an admin before it is public (tests/integration/test_service_review.py).
    catalog_admin.save_service(
        session=session,
        actor_id=admin.id,
        form=form(title="Renamed", status="published"),
        service_id=service_id,
    )
    session.commit()
    catalog_admin.save_service(
        session=session,
        actor_id=user.id,
        form=form(title="Renamed again", status="draft"),
        service_id=service_id,
    )
    session.commit()
    session.refresh(service)
    assert service.status == "published"
    assert catalog.get_public_service(session=session, service_id=service_id).title == "Renamed"
    assert [r.action for r in audit_rows(session, service_id)] == [
        "create",
        "update",
        "update",
        "submit_for_review",
    ]


def test_an_edit_keeps_featured_and_active(session, admin):
    service_id = catalog_admin.save_service(session=session, actor_id=admin.id, form=form())
    session.commit()
    catalog_list.toggle_featured(session=session, actor_id=admin.id, service_id=service_id)
    catalog_list.toggle_active(session=session, actor_id=admin.id, service_id=service_id)
    session.commit()
    catalog_admin.save_service(
        session=session, actor_id=admin.id, form=form(title="New name"), service_id=service_id
    )
    session.commit()
    service = session.get(Service, uuid.UUID(service_id))
    session.refresh(service)
    assert service.featured and not service.active and service.title == "New name"


def test_the_seed_details_come_back_through_the_form(session, admin):
    service_id = catalog_admin.save_service(
        session=session,
        actor_id=admin.id,
        form=form(
            kind="theme",
            details={
                "age": "2-8 years",
                "features": "Balloons\n\nBackdrop",
                "add_ons": "Lion visit | 149.00\nCake | 99",
            },
        ),
    )
    session.commit()
    service = session.get(Service, uuid.UUID(service_id))
    assert service.meta["features"] == ["Balloons", "Backdrop"]
    assert service.meta["add_ons"] == [
        {"name": "Lion visit", "price": "149.00"},
        {"name": "Cake", "price": "99"},
    ]
    loaded = catalog_admin.load_form(session=session, actor_id=admin.id, service_id=service_id)
    assert loaded.details["add_ons"] == "Lion visit | 149.00\nCake | 99"
    assert loaded.details["features"] == "Balloons\nBackdrop"


def test_an_image_taken_off_a_service_is_removed_from_storage(session, admin, media_dir):
    images = [
        catalog_admin.store_image(session=session, actor_id=admin.id, data=image_bytes(), draft="f")
        for i in range(2)
    ]
    service_id = catalog_admin.save_service(
        session=session, actor_id=admin.id, form=form(images=images)
    )
    session.commit()
    catalog_admin.save_service(
        session=session, actor_id=admin.id, form=form(images=images[1:]), service_id=service_id
    )
    session.commit()
    assert not (media_dir / images[0]["path"]).exists()
    assert (media_dir / images[1]["path"]).is_file()
    catalog_list.delete_service(session=session, actor_id=admin.id, service_id=service_id)
    session.commit()
    assert not (media_dir / images[1]["path"]).exists()


def test_a_service_has_an_english_title_and_description_beside_the_default_ones(session, admin):
    """Issue 21: the form edits both; an English text left empty shows the default one, and
    the English of the service's details (written by the seed) stays."""
    from storefront import i18n
    from storefront.models import Service

    service_id = catalog_admin.save_service(
        session=session,
        actor_id=admin.id,
        form=form(title_en="Deluxe bubble house", description_en=""),
    )
    session.commit()
    stored = session.get(Service, uuid.UUID(service_id))
    stored.translations = {
        **stored.translations,
        "en": {**stored.translations.get("en", {}), "details": {"x": 1}},
    }
    session.add(stored)
    session.commit()
    with i18n.using("en"):
        english = catalog.get_public_service(session=session, service_id=service_id)
    default = catalog.get_public_service(session=session, service_id=service_id)
    assert (english.title, default.title) == ("Deluxe bubble house", "Bubble House Deluxe")
    assert english.description == default.description == "A bubble house with balloons."

    loaded = catalog_admin.load_form(session=session, actor_id=admin.id, service_id=service_id)
    assert (loaded.title_en, loaded.description_en) == ("Deluxe bubble house", "")
    catalog_admin.save_service(
        session=session,
        actor_id=admin.id,
        form=form(title_en="", description_en="Balloons included."),
        service_id=service_id,
    )
    session.commit()
    stored = session.get(Service, uuid.UUID(service_id))
    assert stored.translations["en"] == {"description": "Balloons included.", "details": {"x": 1}}
    refused(
        "invalid",
        catalog_admin.save_service,
        session,
        actor_id=admin.id,
        form=form(title_en="x" * 201),
    )
