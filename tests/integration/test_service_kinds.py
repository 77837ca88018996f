"""A service kind is one entry of storefront/models/kinds.py: the database's constraint agrees
with the registry, and a kind added as docs/extending.md says ('Add a service kind') is seen
through the service form, the admin list, its public page and the sitemap, on SQLite and
PostgreSQL."""

from __future__ import annotations

import re

import pytest
from alembic.migration import MigrationContext
from alembic.operations import Operations
from sqlalchemy import text
from sqlmodel import Session

from storefront.db import make_engine
from storefront.models import kinds
from storefront.models.kinds import DetailField, Kind
from storefront.models.service_details import Details, TextList
from storefront.services.catalog import admin as catalog_admin
from storefront.services.catalog import listing as catalog_list
from storefront.services.catalog import public as catalog
from storefront.services.catalog import seo
from tests.conftest import create_database, migrate
from tests.factories import make_user


def constraint_kinds(engine) -> set[str]:
    """The kinds the migrated database's ck_services_kind allows."""
    with engine.connect() as conn:
        if engine.dialect.name == "postgresql":
            sql = conn.execute(
                text(
                    "SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                    "WHERE conname = 'ck_services_kind'"
                )
            ).scalar_one()
        else:
            table = conn.execute(
                text("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'services'")
            ).scalar_one()
            sql = re.search(r"CONSTRAINT ck_services_kind CHECK \((.*?)\)\s*(,|\))", table).group(1)
    return set(re.findall(r"'([a-z_]+)'", sql))


def test_the_migrated_constraint_allows_exactly_the_registrys_kinds(engine):
    """Fails when a kind is added to models/kinds.py without its migration (or the reverse)."""
    assert constraint_kinds(engine) == set(kinds.names())


class BalloonArchDetails(Details):
    colours: TextList = []


BALLOON_ARCH = Kind(
    "balloon_arch",
    "Balloon arch",
    BalloonArchDetails,
    (DetailField("colours", "Colours", "lines", hint="One colour a line"),),
    price_unit="per_event",
    detail_page=True,
)


@pytest.fixture
def balloon_arch(request):
    """The recipe's steps on a database of its own: the registry entry, then the migration of
    the constraint (kinds.migrate_constraint, as the recipe's migration calls it)."""
    backend = request.node.callspec.params["backend"]
    url, drop = create_database(backend)
    migrate(url)
    kinds.register(BALLOON_ARCH)
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            kinds.migrate_constraint(Operations(MigrationContext.configure(conn)), kinds.names())
        yield engine
    finally:
        kinds.unregister(BALLOON_ARCH.name)
        engine.dispose()
        drop()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_new_kind_is_seen_through_form_admin_list_public_page_and_sitemap(backend, balloon_arch):
    assert constraint_kinds(balloon_arch) == set(kinds.names())
    with Session(balloon_arch, expire_on_commit=False) as session:
        admin = make_user(session, role="admin")
        session.commit()
        # The service form: the kind in its menu, its fields, its details saved and shown again.
        assert ("balloon_arch", "Balloon arch") in catalog_admin.kind_choices()
        assert [f.label for f in catalog_admin.detail_fields("balloon_arch")] == ["Colours"]
        form = catalog_admin.ServiceForm(
            title="Rainbow Arch",
            slug="rainbow-arch",
            description="An arch of balloons in every colour.",
            price="90",
            kind="balloon_arch",
            details={"colours": "red\nwhite\n"},
        )
        service_id = catalog_admin.save_service(session=session, actor_id=admin.id, form=form)
        session.commit()
        loaded = catalog_admin.load_form(session=session, actor_id=admin.id, service_id=service_id)
        assert loaded.kind == "balloon_arch"
        assert loaded.details == {"colours": "red\nwhite"}
        assert loaded.price_unit == "per_event"  # the kind's usual pricing
        # The admin list names the kind.
        rows = catalog_list.list_services(session=session, actor_id=admin.id, search="Rainbow")
        assert [(r.title, r.kind_label) for r in rows.rows] == [("Rainbow Arch", "Balloon arch")]
        # Its public page (a page of its own) and the sitemap.
        view = catalog.get_public_service(session=session, service_id="rainbow-arch")
        assert view is not None and view.kind in catalog.detail_page_kinds()
        urls = seo.sitemap_urls(session=session, base="https://events.example.com")
        assert "https://events.example.com/services/rainbow-arch" in urls
