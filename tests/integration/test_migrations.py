"""The Alembic migrations build the schema the models describe, on both databases."""

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

import storefront.models  # noqa: F401
from storefront.db import make_engine
from tests.conftest import BACKENDS, create_database, migrate


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
