"""Issue 18, finding 5, on SQLite and PostgreSQL: an owner's change to their published service
is not public until an admin approves it. The approved version stays on the public pages (and
in the catalogue cache) meanwhile; admins see the change field by field and approve or reject
it; the owner cannot approve their own; every step is in the audit log."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest

from storefront import i18n
from storefront.models import Service, ServiceCapacity
from storefront.models.catalog import ServiceRevision
from storefront.services.catalog import admin as catalog_admin
from storefront.services.catalog import listing as catalog_list
from storefront.services.catalog import public as catalog
from storefront.services.catalog.admin import CatalogError
from storefront.services.money import format_price
from tests.factories import image_bytes
from tests.integration import test_catalog_admin as catalog_tests
from tests.integration.test_catalog_admin import audit_rows, form

# The fixtures of tests/integration/test_catalog_admin.py: an admin and a plain user.
admin, user = catalog_tests.admin, catalog_tests.user


@pytest.fixture
def owner(user):
    """The plain user, who owns the service."""
    return user


def published(session, admin, owner, **overrides) -> str:
    """A service the owner made and an admin published."""
    service_id = catalog_admin.save_service(
        session=session, actor_id=owner.id, form=form(**overrides)
    )
    session.commit()
    catalog_list.set_status(
        session=session, actor_id=admin.id, service_id=service_id, status="published"
    )
    session.commit()
    return service_id


def public_price(session, service_id) -> Decimal | None:
    view = catalog.get_public_service(session=session, service_id=service_id)
    return None if view is None else view.price


def actions(session, service_id) -> list[str]:
    return [r.action for r in audit_rows(session, service_id)]


def test_an_owners_price_change_waits_for_an_admin(session, admin, owner):
    service_id = published(session, admin, owner)
    assert public_price(session, service_id) == Decimal("150.00")  # read, so now cached

    catalog_admin.save_service(
        session=session,
        actor_id=owner.id,
        form=form(price="999.00", title="Bubble House XL"),
        service_id=service_id,
    )
    session.commit()

    # The public reads (cached or not) still show the approved version.
    assert public_price(session, service_id) == Decimal("150.00")
    assert catalog.get_public_service.uncached(session=session, service_id=service_id).title == (
        "Bubble House Deluxe"
    )
    [listed] = [s for s in catalog.list_public_services(session=session) if s.id == service_id]
    assert (listed.title, listed.price) == ("Bubble House Deluxe", Decimal("150.00"))
    live = session.get(Service, uuid.UUID(service_id))
    session.refresh(live)
    assert (live.status, live.price) == ("published", Decimal("150.00"))

    # The owner sees their pending change in the form, and is told it waits for review.
    pending_form = catalog_admin.load_form(
        session=session, actor_id=owner.id, service_id=service_id
    )
    assert (pending_form.price, pending_form.title) == ("999.00", "Bubble House XL")
    assert pending_form.pending_review

    # The admin sees it on the list and field by field, before and after.
    [row] = catalog_list.list_services(session=session, actor_id=admin.id).rows
    assert row.pending_review
    changes = catalog_admin.pending_changes(
        session=session, actor_id=admin.id, service_id=service_id
    )
    by_field = {c.field: (c.before, c.after) for c in changes}
    assert by_field["price"] == (format_price("150.00"), format_price("999.00"))
    assert by_field["title"] == ("Bubble House Deluxe", "Bubble House XL")
    assert "description" not in by_field  # only what changed

    # The owner cannot approve their own change; another user cannot see it.
    with pytest.raises(CatalogError) as refused:
        catalog_admin.approve_revision(session=session, actor_id=owner.id, service_id=service_id)
    assert refused.value.code == "not_allowed"
    session.rollback()
    with pytest.raises(CatalogError):
        catalog_admin.pending_changes(session=session, actor_id=owner.id, service_id=service_id)
    session.rollback()
    assert public_price(session, service_id) == Decimal("150.00")

    # The admin approves: the change is public at once, the cache follows.
    catalog_admin.approve_revision(session=session, actor_id=admin.id, service_id=service_id)
    session.commit()
    assert public_price(session, service_id) == Decimal("999.00")
    assert catalog.get_public_service(session=session, service_id=service_id).title == (
        "Bubble House XL"
    )
    assert session.get(ServiceRevision, uuid.UUID(service_id)) is None
    assert not catalog_list.list_services(session=session, actor_id=admin.id).rows[0].pending_review
    assert actions(session, service_id) == [
        "create",
        "set_status_published",
        "submit_for_review",
        "approve_revision",
    ]


def test_a_rejected_change_is_dropped_and_the_approved_version_stays(
    session, admin, owner, media_dir
):
    old = catalog_admin.store_image(
        session=session, actor_id=owner.id, data=image_bytes(), draft="f"
    )
    service_id = published(session, admin, owner, images=[old])
    new = catalog_admin.store_image(
        session=session, actor_id=owner.id, data=image_bytes(), draft="f"
    )
    catalog_admin.save_service(
        session=session,
        actor_id=owner.id,
        form=form(images=[new], total_units="9"),
        service_id=service_id,
    )
    session.commit()
    # The approved image is still public, and on disk, while the change waits.
    assert (media_dir / old["path"]).is_file() and (media_dir / new["path"]).is_file()
    view = catalog.get_public_service(session=session, service_id=service_id)
    assert view.image_urls == [old["url"]]
    assert session.get(ServiceCapacity, uuid.UUID(service_id)).total_units == 1
    changes = catalog_admin.pending_changes(
        session=session, actor_id=admin.id, service_id=service_id
    )
    assert {c.field for c in changes} == {"images", "total_units"}

    catalog_admin.reject_revision(session=session, actor_id=admin.id, service_id=service_id)
    session.commit()
    assert session.get(ServiceRevision, uuid.UUID(service_id)) is None
    assert (media_dir / old["path"]).is_file()
    assert not (media_dir / new["path"]).exists()  # only the rejected change used it
    assert actions(session, service_id)[-2:] == ["submit_for_review", "reject_revision"]


def test_drafts_and_admins_edits_apply_at_once(session, admin, owner):
    # The owner's own draft: no review needed, nothing is public.
    service_id = catalog_admin.save_service(session=session, actor_id=owner.id, form=form())
    session.commit()
    catalog_admin.save_service(
        session=session, actor_id=owner.id, form=form(price="120.00"), service_id=service_id
    )
    session.commit()
    live = session.get(Service, uuid.UUID(service_id))
    assert (live.price, live.status) == (Decimal("120.00"), "draft")
    assert session.get(ServiceRevision, uuid.UUID(service_id)) is None
    # An admin's edit of a published service is public at once.
    catalog_list.set_status(
        session=session, actor_id=admin.id, service_id=service_id, status="published"
    )
    catalog_admin.save_service(
        session=session,
        actor_id=admin.id,
        form=form(price="130.00", status="published"),
        service_id=service_id,
    )
    session.commit()
    assert public_price(session, service_id) == Decimal("130.00")


def test_the_review_writes_both_prices_one_way_with_their_currency(session, admin, owner):
    """Issue 34: the dialog showed the live price as stored ('80.00') and the proposed one as
    typed ('95'); both are prices as the site writes them, and an equal price typed another way
    ('80') is no change."""
    service_id = published(session, admin, owner, price="80.00")
    catalog_admin.save_service(
        session=session,
        actor_id=owner.id,
        form=form(price="95", price_unit="per_event"),
        service_id=service_id,
    )
    session.commit()
    for lang, price, unit in (
        ("en", ("€80.00", "€95.00"), ("Per hour", "Per event")),
        ("sq", ("80,00\u00a0€", "95,00\u00a0€"), None),
    ):
        with i18n.using(lang, office=True):
            changes = catalog_admin.pending_changes(
                session=session, actor_id=admin.id, service_id=service_id
            )
            by_field = {c.field: (c.before, c.after) for c in changes}
            assert by_field["price"] == price
            if unit:
                assert by_field["price_unit"] == unit
            else:  # the form's words in Albanian, not the stored codes
                assert "per_event" not in by_field["price_unit"][1]
    catalog_admin.save_service(
        session=session, actor_id=owner.id, form=form(price="80"), service_id=service_id
    )
    session.commit()
    changes = catalog_admin.pending_changes(
        session=session, actor_id=admin.id, service_id=service_id
    )
    assert "price" not in {c.field for c in changes}


def test_a_second_owner_edit_replaces_the_pending_one(session, admin, owner):
    service_id = published(session, admin, owner)
    for price in ("200.00", "210.00"):
        catalog_admin.save_service(
            session=session, actor_id=owner.id, form=form(price=price), service_id=service_id
        )
        session.commit()
    changes = catalog_admin.pending_changes(
        session=session, actor_id=admin.id, service_id=service_id
    )
    assert [(c.field, c.before, c.after) for c in changes] == [
        ("price", format_price("150.00"), format_price("210.00"))
    ]
    # A slug taken meanwhile by another service is refused at approval, nothing changes.
    catalog_admin.save_service(
        session=session,
        actor_id=owner.id,
        form=form(slug="castle-two"),
        service_id=service_id,
    )
    session.commit()
    catalog_admin.save_service(
        session=session, actor_id=admin.id, form=form(slug="castle-two", title="Other")
    )
    session.commit()
    with pytest.raises(CatalogError) as taken:
        catalog_admin.approve_revision(session=session, actor_id=admin.id, service_id=service_id)
    assert taken.value.code == "slug_taken"
    session.rollback()
    assert public_price(session, service_id) == Decimal("150.00")
