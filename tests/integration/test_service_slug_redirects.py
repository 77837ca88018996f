"""Issue 20, item 18, on SQLite and PostgreSQL: a published service whose slug changes keeps its
old address, which resolves to the service under its new slug (the page redirects there); a
service that takes an old slug wins over the redirect; the sitemap and the structured data name
only the new address; the form knows the slug of the public page, to warn before it moves."""

from __future__ import annotations

from sqlmodel import select

from storefront.models import Service, ServiceSlugRedirect
from storefront.services.catalog import admin as catalog_admin
from storefront.services.catalog import listing as catalog_list
from storefront.services.catalog import public as catalog
from storefront.services.catalog import seo
from tests.integration import test_catalog_admin as catalog_tests
from tests.integration.test_catalog_admin import form
from tests.integration.test_service_review import published

# The fixtures of tests/integration/test_catalog_admin.py: an admin and a plain user.
admin, user = catalog_tests.admin, catalog_tests.user
OLD, NEW = "bubble-house-deluxe", "bubble-palace"


def rename(session, admin, service_id, slug, **overrides) -> None:
    catalog_admin.save_service(
        session=session,
        actor_id=admin.id,
        form=form(slug=slug, title=slug.replace("-", " ").title(), **overrides),
        service_id=service_id,
    )
    session.commit()


def create(session, admin, slug) -> str:
    service_id = catalog_admin.save_service(
        session=session, actor_id=admin.id, form=form(slug=slug, title="Another " + slug)
    )
    session.commit()
    return service_id


def shown_at(session, key):
    """(id, slug it moves to) of the service page asked for by `key`, None when not found."""
    view = catalog.get_public_service(session=session, service_id=key)
    return None if view is None else (view.id, catalog.moved_to(key, view))


def redirects(session) -> dict[str, str]:
    rows = session.exec(select(ServiceSlugRedirect)).all()
    return {r.old_slug: str(r.service_id) for r in rows}


def test_a_published_services_old_address_leads_to_its_new_one(session, admin):
    service_id = create(session, admin, OLD)
    assert shown_at(session, OLD) == (service_id, None)  # read, so now cached

    rename(session, admin, service_id, NEW)

    assert shown_at(session, OLD) == (service_id, NEW)
    assert shown_at(session, NEW) == (service_id, None)
    assert shown_at(session, service_id) == (service_id, None)
    assert redirects(session) == {OLD: service_id}
    # Search engines and link previews know only the new address.
    urls = seo.sitemap_urls(session=session, base="https://example.test")
    assert "https://example.test/services/" + NEW in urls
    assert "https://example.test/services/" + OLD not in urls
    data = seo.structured_data("/services/" + OLD, session=session)
    assert data[0]["url"] == seo.detail_url(NEW)


def test_every_old_address_leads_to_the_slug_it_has_now(session, admin):
    service_id = create(session, admin, OLD)
    rename(session, admin, service_id, NEW)
    rename(session, admin, service_id, "bubble-castle")

    assert shown_at(session, OLD) == (service_id, "bubble-castle")
    assert shown_at(session, NEW) == (service_id, "bubble-castle")

    rename(session, admin, service_id, OLD)  # back to its first slug: it answers there itself
    assert shown_at(session, OLD) == (service_id, None)
    assert redirects(session) == {NEW: service_id, "bubble-castle": service_id}


def test_a_service_that_takes_an_old_slug_wins_over_the_redirect(session, admin):
    moved = create(session, admin, OLD)
    rename(session, admin, moved, NEW)
    assert shown_at(session, OLD) == (moved, NEW)

    taker = create(session, admin, OLD)

    assert shown_at(session, OLD) == (taker, None)
    assert redirects(session) == {}
    # Another service renamed onto an old slug takes it the same way.
    rename(session, admin, taker, "bubble-dome")
    other = create(session, admin, "bouncy-ship")
    rename(session, admin, other, OLD)
    assert shown_at(session, OLD) == (other, None)
    assert shown_at(session, "bubble-dome") == (taker, None)
    assert redirects(session) == {"bouncy-ship": other}


def test_a_drafts_slug_change_keeps_no_old_address(session, admin):
    service_id = catalog_admin.save_service(
        session=session, actor_id=admin.id, form=form(slug=OLD, status="draft")
    )
    session.commit()
    rename(session, admin, service_id, NEW, status="draft")
    assert redirects(session) == {}


def test_old_addresses_go_with_their_service(session, admin):
    service_id = create(session, admin, OLD)
    rename(session, admin, service_id, NEW)
    assert shown_at(session, OLD) == (service_id, NEW)

    catalog_list.delete_service(session=session, actor_id=admin.id, service_id=service_id)
    session.commit()

    assert redirects(session) == {}
    assert shown_at(session, OLD) is None
    assert session.exec(select(Service)).all() == []


def test_an_owners_new_slug_moves_the_page_only_when_approved(session, admin, user):
    service_id = published(session, admin, user)
    catalog_admin.save_service(
        session=session, actor_id=user.id, form=form(slug=NEW), service_id=service_id
    )
    session.commit()
    assert shown_at(session, OLD) == (service_id, None)
    assert redirects(session) == {}

    catalog_admin.approve_revision(session=session, actor_id=admin.id, service_id=service_id)
    session.commit()

    assert shown_at(session, OLD) == (service_id, NEW)


def test_the_form_knows_the_slug_of_the_public_page(session, admin, user):
    service_id = published(session, admin, user)
    loaded = catalog_admin.load_form(session=session, actor_id=admin.id, service_id=service_id)
    assert loaded.public_slug == OLD
    # The owner editing a pending change still sees the public page's slug.
    catalog_admin.save_service(
        session=session, actor_id=user.id, form=form(slug=NEW), service_id=service_id
    )
    session.commit()
    owners = catalog_admin.load_form(session=session, actor_id=user.id, service_id=service_id)
    assert (owners.slug, owners.public_slug) == (NEW, OLD)

    draft = catalog_admin.save_service(
        session=session, actor_id=admin.id, form=form(slug="a-draft", status="draft")
    )
    session.commit()
    assert (
        catalog_admin.load_form(session=session, actor_id=admin.id, service_id=draft).public_slug
        == ""
    )
