"""Issue 34, item 9, on SQLite and PostgreSQL: how the server answers an address of the
catalogue (services/catalog/addresses.py): an old slug moves (301) to the service's address now in the
same edition, an address that leads nowhere is not found (404), the current one is served; and
a current address, once read, is answered from the worker's cache without the database."""

from __future__ import annotations

import pytest

from storefront.models import Service
from storefront.services import cache as catalog_cache
from storefront.services.catalog import addresses
from storefront.services.catalog.addresses import NOT_FOUND, SERVE, Answer
from tests.factories import make_service
from tests.integration import test_catalog_admin as catalog_tests
from tests.integration.test_service_slug_redirects import NEW, OLD, create, rename

admin, user = catalog_tests.admin, catalog_tests.user


def answered(session, path: str) -> Answer:
    entry = addresses.entry_of(path)
    assert isinstance(entry, addresses.Entry), path
    return addresses.answer(entry, session=session)


def test_an_old_slug_moves_to_the_address_of_now_in_its_edition(session, admin):
    service_id = create(session, admin, OLD)
    rename(session, admin, service_id, NEW)

    assert answered(session, f"/services/{OLD}") == Answer(301, f"/services/{NEW}")
    assert answered(session, f"/en/services/{OLD}/") == Answer(301, f"/en/services/{NEW}")
    assert answered(session, f"/services/{OLD}/book") == Answer(301, f"/services/{NEW}/book")
    assert answered(session, f"/en/services/{OLD}/book") == Answer(301, f"/en/services/{NEW}/book")
    # The /themes alias moves to the service's one address, as the page did in the browser.
    assert answered(session, f"/themes/{OLD}") == Answer(301, f"/services/{NEW}")
    # The current addresses, by slug or by id, are served as they are.
    for path in (
        f"/services/{NEW}",
        f"/en/services/{NEW}",
        f"/services/{service_id}",
        f"/services/{NEW}/book",
        f"/en/services/{service_id}/book",
        f"/themes/{NEW}",
    ):
        assert answered(session, path) == SERVE, path


def test_the_query_is_kept_and_the_location_stays_on_the_site(session, admin):
    service_id = create(session, admin, OLD)
    rename(session, admin, service_id, NEW)
    moved = answered(session, f"/en/services/{OLD}")

    assert addresses.moved_location(moved, "utm_source=x&a=1", "en") == (
        f"/en/services/{NEW}?utm_source=x&a=1"
    )
    # The query cannot make the address another site's: the path is the stored slug's.
    assert addresses.moved_location(moved, "//evil.example/x", "en") == (
        f"/en/services/{NEW}?//evil.example/x"
    )
    # A Location the rule refuses (never made from a stored slug) falls back to the edition's
    # home rather than leaving the site.
    assert addresses.moved_location(Answer(301, "//evil.example/x"), "", "en") == "/en"


@pytest.mark.parametrize(
    "path",
    [
        "/services/no-such-service",
        "/en/services/no-such-service",
        "/services/00000000-0000-4000-8000-000000000000",
        "/themes/no-such-theme",
        "/services/no-such-service/book",
        "/en/services/00000000-0000-4000-8000-000000000000/book",
        "/services/not-a-uuid-%3Cscript%3E/book",
        "/services/x.png",
    ],
)
def test_an_address_that_leads_nowhere_is_not_found(session, path):
    assert answered(session, path) == NOT_FOUND


def test_a_service_that_is_not_public_is_not_found(session, admin):
    draft = make_service(session, title="Secret draft", status="draft")
    hidden = make_service(session, title="Retired castle", active=False)
    session.commit()
    for service in (draft, hidden):
        for path in (
            f"/services/{service.slug}",
            f"/services/{service.id}",
            f"/en/services/{service.slug}/book",
            f"/themes/{service.slug}",
        ):
            assert answered(session, path) == NOT_FOUND, path


def test_a_kind_without_a_page_of_its_own_has_only_its_booking_screen(session):
    mascot = make_service(session, title="Elsa visit")
    mascot.kind = "mascot"
    session.add(mascot)
    session.commit()
    assert answered(session, f"/services/{mascot.slug}") == NOT_FOUND
    assert answered(session, f"/services/{mascot.slug}/book") == SERVE


@pytest.mark.parametrize(
    "path",
    [
        "/services",
        "/services/mascots",
        "/en/services/wedding-tables",
        "/services/MagicWeddings",
        "/services/create",
        "/services/edit/0b8f0b9e-0000-4000-8000-000000000000",
        "/services/edit/book",
        "/sq/services/anything",
        "/themes/a/book",
        "/admin/services/x",
        "/cart",
    ],
)
def test_other_addresses_are_left_to_the_pages(path):
    assert addresses.entry_of(path) is None


def test_the_not_found_page_itself_is_not_found():
    assert addresses.entry_of("/not-found") == "sq"
    assert addresses.entry_of("/en/not-found/") == "en"


def test_a_current_address_once_read_is_answered_from_the_cache(session, engine):
    service = make_service(session, title="Cached castle")
    session.commit()
    entry = addresses.entry_of(f"/services/{service.slug}")
    database = str(engine.url)
    catalog_cache.CACHE.clear()
    assert catalog_cache.fresh(addresses.answer, {"entry": entry}, database=database) is (
        catalog_cache.MISSING
    )
    assert addresses.answer(entry, session=session) == SERVE
    assert catalog_cache.fresh(addresses.answer, {"entry": entry}, database=database) == SERVE
    # A change of the catalogue is seen at the next read.
    session.get(Service, service.id).status = "draft"
    session.commit()
    assert addresses.answer(entry, session=session) == NOT_FOUND
