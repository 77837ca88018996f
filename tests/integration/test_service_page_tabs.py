"""Issue 20, item 19, on SQLite and PostgreSQL: a service's page shows only the tabs it has
something for, and 'View More Themes' on themes only."""

from __future__ import annotations

from storefront.services.catalog import admin as catalog_admin
from storefront.services.catalog import public as catalog
from tests.integration import test_catalog_admin as catalog_tests
from tests.integration.test_catalog_admin import form

# The fixtures of tests/integration/test_catalog_admin.py: an admin and a plain user.
admin, user = catalog_tests.admin, catalog_tests.user


def page_of(session, admin, **overrides):
    service_id = catalog_admin.save_service(
        session=session, actor_id=admin.id, form=form(**overrides)
    )
    session.commit()
    view = catalog.get_public_service(session=session, service_id=service_id)
    return catalog.page_tabs(view), catalog.more_themes(view)


def test_a_plain_service_has_its_description_only(session, admin):
    assert page_of(session, admin) == (("description",), False)


def test_a_theme_shows_the_tabs_it_has_content_for(session, admin):
    full = {"features": "Tiara\nThrone", "add_ons": "Photo booth | 50"}
    assert page_of(session, admin, kind="theme", details=full) == (
        ("description", "features", "addons"),
        True,
    )
    features_only = {"features": "Tiara"}
    assert page_of(session, admin, kind="theme", slug="t2", details=features_only) == (
        ("description", "features"),
        True,
    )
    assert page_of(session, admin, kind="theme", slug="t3") == (("description",), True)
