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
