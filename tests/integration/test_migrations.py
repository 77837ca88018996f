"""The Alembic migrations build the schema the models describe, on both databases."""

import uuid
from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

import storefront.models  # noqa: F401
from storefront.db import make_engine
from tests.conftest import BACKENDS, create_database, migrate

NOW = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


@pytest.fixture(params=BACKENDS)
def blank_database(request):
    url, drop = create_database(request.param)
    yield url
    drop()


def test_upgrade_from_blank_matches_the_models(blank_database):
    migrate(blank_database)
    engine = make_engine(blank_database)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diff = compare_metadata(context, SQLModel.metadata)
            tables = set(inspect(conn).get_table_names())
    finally:
        engine.dispose()
    assert diff == [], f"models and migrations disagree: {diff}"
    assert set(SQLModel.metadata.tables) <= tables


def test_models_out_of_step_with_migrations_are_detected(blank_database):
    """The check above can fail: a column the migrations never created shows up as a diff."""
    from sqlalchemy import Column, Integer, MetaData, Table

    migrate(blank_database)
    metadata = MetaData()
    for table in SQLModel.metadata.tables.values():
        table.to_metadata(metadata)
    Table("services", metadata, Column("not_migrated", Integer), extend_existing=True)
    engine = make_engine(blank_database)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            diff = compare_metadata(context, metadata)
    finally:
        engine.dispose()
    assert any(op[0] == "add_column" and op[3].name == "not_migrated" for op in diff)


def test_downgrade_to_base_and_upgrade_again(blank_database):
    from alembic.config import Config

    from alembic import command

    migrate(blank_database)
    config = Config("alembic.ini")
    config.attributes["database_url"] = blank_database
    config.attributes["configure_logger"] = False
    command.downgrade(config, "base")
    engine = make_engine(blank_database)
    with engine.connect() as conn:
        assert set(inspect(conn).get_table_names()) <= {"alembic_version"}
    engine.dispose()
    migrate(blank_database)


def test_0003_backfills_references_and_price_units(blank_database):
    """Rows written before 0003 get their reference and, by kind or slug, their price unit."""
    from sqlalchemy import text

    migrate(blank_database, "0002")
    engine = make_engine(blank_database)
    booking_id = uuid.UUID("3f2a9c1e-0000-4000-8000-000000000001")
    services = {
        "tiffany-chairs": "service",
        "white-tables-60cm": "table",
        "paketa-maskota-1": "package",
        "oferta-100-persona": "wedding_offer",
        "mascot-elsa": "mascot",
    }
    try:
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO bookings (id, idempotency_key, status, contact_email, "
                    "contact_phone, venue_address, total_amount, currency, created_at, "
                    "updated_at) VALUES (:id, 'k1', 'pending', 'a@example.com', '+1', '', 0, "
                    "'EUR', :now, :now)"
                ),
                {"id": booking_id.hex if "sqlite" in blank_database else booking_id, "now": NOW},
            )
            for slug, kind in services.items():
                conn.execute(
                    text(
                        "INSERT INTO services (id, title, slug, description, kind, images, "
                        "metadata, featured, active, status, display_order, created_at, "
                        "updated_at) VALUES (:id, :slug, :slug, '', :kind, '[]', '{}', false, "
                        "true, 'published', 0, :now, :now)"
                    ),
                    {"id": uuid.uuid4().hex, "slug": slug, "kind": kind, "now": NOW},
                )
        migrate(blank_database)
        with engine.connect() as conn:
            reference = conn.execute(text("SELECT reference FROM bookings")).scalar_one()
            units = dict(conn.execute(text("SELECT slug, price_unit FROM services")).all())
    finally:
        engine.dispose()
    assert reference == "MG-3F2A9C1E"
    assert units == {
        "tiffany-chairs": "per_event",
        "white-tables-60cm": "per_event",
        "paketa-maskota-1": "per_event",
        "oferta-100-persona": "per_event",
        "mascot-elsa": "per_hour",
    }


def test_0021_gives_the_seeded_mascot_packages_their_hour(blank_database):
    """Issue 34, item 3: the demo's mascot visits get their length (40 minutes or 1 hour: one
    hourly slot), so they are booked for it; a length already set, and other packages, stay."""
    import json

    from sqlalchemy import text

    migrate(blank_database, "0020")
    engine = make_engine(blank_database)
    services = {
        "paketa-maskota-1": {"type": "mascot", "features": ["⏱️ Qëndrim 40 minuta"]},
        "paketa-aktivitete-2": {"type": "mascot-activities", "features": []},
        "paketa-aktivitete-4": {"type": "mascot-activities", "hours": 2},  # an admin's choice
        "paketa-aktivitete-3": {"type": "mascot-activities", "hours": 3},
        "paketa-bubbles-1": {"type": "bouncer", "hours": 3},
        "my-own-mascot-visit": {"type": "mascot"},  # not the demo's: left to its admin
    }
    try:
        with engine.begin() as conn:
            for slug, meta in services.items():
                conn.execute(
                    text(
                        "INSERT INTO services (id, title, slug, description, kind, images, "
                        "metadata, featured, active, status, display_order, created_at, "
                        "updated_at, price_unit) VALUES (:id, :slug, :slug, '', 'package', '[]', "
                        ":meta, false, true, 'published', 0, :now, :now, 'per_event')"
                    ),
                    {
                        "id": uuid.uuid4().hex,
                        "slug": slug,
                        "meta": json.dumps(meta),
                        "now": NOW,
                    },
                )
        migrate(blank_database)
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT slug, metadata FROM services")).all()
    finally:
        engine.dispose()
    hours = {
        slug: (meta if isinstance(meta, dict) else json.loads(meta)).get("hours")
        for slug, meta in rows
    }
    assert hours == {
        "paketa-maskota-1": 1,
        "paketa-aktivitete-2": 1,
        "paketa-aktivitete-4": 2,
        "paketa-aktivitete-3": 3,
        "paketa-bubbles-1": 3,
        "my-own-mascot-visit": None,
    }


def _revision(name: str):
    """A migration's module, to read the texts it writes out."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "alembic" / "versions" / name
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _alembic(action: str, url: str, revision: str) -> None:
    from alembic.config import Config

    from alembic import command

    config = Config("alembic.ini")
    config.attributes["database_url"] = url
    config.attributes["configure_logger"] = False
    getattr(command, action)(config, revision)


def test_0022_writes_the_old_seeds_english_in_albanian_and_keeps_an_admins(blank_database):
    """A database seeded when the default edition's texts were English (issue 34): what still
    holds the seed's English reads in Albanian on the default edition and in the same English
    on /en, like a database seeded today; what an admin wrote is left as it is."""
    from sqlmodel import Session, select

    from storefront import i18n
    from storefront.models import Banner, BannerItem, BusinessSettings, Service, ServiceCategory
    from storefront.seed import catalog, catalog_en, load_demo
    from storefront.services import content

    old = _revision("0022_default_edition_in_albanian.py")
    # 0022 writes data only: the database is seeded through today's models at head, made as the
    # old seed left it, then taken back to 0022's schema and marked as at 0021, so upgrading
    # runs 0022 on it (a later revision's columns would not let today's models load at 0021).
    migrate(blank_database)
    engine = make_engine(blank_database)
    try:
        with Session(engine) as session:
            load_demo(session=session)
            session.commit()
            # The database as the old seed left it: the English in the default columns and, as
            # its loader wrote it, in translations['en'] (catalog_en held the same English).
            for row in session.exec(select(ServiceCategory)).all():
                for field, (english, _albanian) in old.CATEGORIES.get(row.slug, {}).items():
                    setattr(row, field, english)
                session.add(row)
            for row in session.exec(select(Service)).all():
                texts = old.SERVICES.get(row.slug, {})
                for field in ("title", "description"):
                    if field in texts:
                        setattr(row, field, texts[field][0])
                details = {k: english for k, (english, _a) in texts.get("details", {}).items()}
                row.meta = {**row.meta, **details}
                session.add(row)
            banners = {b.name: b for b in session.exec(select(Banner)).all()}
            for name, (english, _albanian) in old.BANNERS.items():
                banners[name].description = english
                session.add(banners[name])
            for name, captions in old.BANNER_ITEMS.items():
                by_title = {
                    i.title: i
                    for i in session.exec(
                        select(BannerItem).where(BannerItem.banner_id == banners[name].id)
                    ).all()
                }
                for english, albanian in captions.items():
                    by_title[albanian].title = english
                    session.add(by_title[albanian])
            settings = session.get(BusinessSettings, 1)
            settings.address, settings.opening_hours = (
                "Prishtina, Kosovo",
                ("Monday to Friday 9AM-6PM"),
            )
            settings.translations = {}  # seeded before the settings had English
            session.add(settings)

            def service(slug: str) -> Service:
                return session.exec(select(Service).where(Service.slug == slug)).one()

            # Seeded before the catalogue had English: nothing in translations.
            princess = service("mascot-ice-princess")
            princess.translations = {}
            # An admin's own texts: a default one rewritten, an English one written.
            ranger = service("mascot-space-ranger")
            ranger.meta = {**ranger.meta, "full_description": "Rojtari ynë i hapësirës."}
            ranger.translations = {}
            safari = service("jungle-safari")
            safari.translations = {"en": {"details": {"features": ["Our own jungle"]}}}
            bouncers = session.exec(
                select(ServiceCategory).where(ServiceCategory.slug == "bouncers")
            ).one()
            bouncers.name = "Kërcyese"
            session.add_all([princess, ranger, safari, bouncers])
            session.commit()

        _alembic("downgrade", blank_database, "0022")
        _alembic("stamp", blank_database, "0021")
        migrate(blank_database)

        with Session(engine) as session:
            settings = session.get(BusinessSettings, 1)
            assert (settings.address, settings.opening_hours) == (
                "Prishtinë, Kosovë",
                "E hënë - e premte 9:00-18:00",
            )
            assert content.written(settings.translations, "en") == {
                "address": "Prishtina, Kosovo",
                "opening_hours": "Monday to Friday 9AM-6PM",
            }
            categories = {c.slug: c for c in session.exec(select(ServiceCategory)).all()}
            assert categories["bouncers"].name == "Kërcyese"
            for spec in catalog.CATEGORIES:
                if spec["slug"] != "bouncers":
                    row = categories[spec["slug"]]
                    assert row.name == spec["name"]
                    assert (
                        content.text(row.translations, "name", row.name, "en")
                        == (catalog_en.CATEGORIES[spec["slug"]]["name"])
                    )
            services = {s.slug: s for s in session.exec(select(Service)).all()}
            for slug in old.SERVICES:
                spec = next(s for s in catalog.SERVICES if s["slug"] == slug)
                english = catalog_en.SERVICES[slug]
                row = services[slug]
                assert row.description == spec["description"], slug
                assert (
                    content.text(row.translations, "description", "", "en")
                    == (english["description"])
                ), slug
                shown = content.details(row.translations, row.meta, "en")
                for key, value in english["details"].items():
                    if (slug, key) == ("mascot-space-ranger", "full_description"):
                        assert row.meta[key] == "Rojtari ynë i hapësirës."
                        assert shown[key] == "Rojtari ynë i hapësirës."  # no English to show
                    elif (slug, key) == ("jungle-safari", "features"):
                        assert row.meta[key] == spec["meta"][key]
                        assert shown[key] == ["Our own jungle"]
                    else:
                        assert row.meta[key] == spec["meta"][key], (slug, key)
                        assert shown[key] == value, (slug, key)
            # Rows the texts do not name are as they were.
            assert services["paketa-maskota-1"].title == "Paketa 1"
            with i18n.using("en"):
                items = {
                    (i.banner_id, i.title): content.text(i.translations, "title", i.title)
                    for i in session.exec(select(BannerItem)).all()
                }
            banners = {b.name: b for b in session.exec(select(Banner)).all()}
            for name, captions in old.BANNER_ITEMS.items():
                for english, albanian in captions.items():
                    assert items[(banners[name].id, albanian)] == english
            assert banners["banner-mascots"].description == "Galeria e maskotave në faqen Maskotat."
            # The seed finds nothing left to write but the English titles of the three rows
            # whose English was taken out above (names: the same in both editions).
            report = load_demo(session=session)
            assert report.inserted == {"english_texts": 3}
            english = content.written(services["mascot-ice-princess"].translations, "en")
            assert english["title"] == "Ice Princess"
            session.commit()

        # Down again: the default columns are the old English, an admin's text as it was.
        _alembic("downgrade", blank_database, "0021")
        with Session(engine) as session:
            princess = session.exec(
                select(Service).where(Service.slug == "mascot-ice-princess")
            ).one()
            assert princess.description == old.SERVICES["mascot-ice-princess"]["description"][0]
            names = dict(session.exec(select(ServiceCategory.slug, ServiceCategory.name)).all())
            assert (names["mascots"], names["bouncers"]) == ("Mascots", "Kërcyese")
            address = session.connection().exec_driver_sql(
                "SELECT address FROM business_settings WHERE id = 1"
            )
            assert address.scalar_one() == "Prishtina, Kosovo"
    finally:
        engine.dispose()
