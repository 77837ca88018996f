"""Alembic environment: the models' metadata and the settings' database URL."""

from logging.config import fileConfig

from sqlmodel import SQLModel

import storefront.models  # noqa: F401  (registers every table)
from alembic import context
from storefront.db import make_engine
from storefront.settings import get_settings

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = SQLModel.metadata


def _url() -> str:
    return config.attributes.get("database_url") or get_settings().database_url


def _configure(**kwargs) -> None:
    context.configure(
        target_metadata=target_metadata,
        compare_type=True,
        render_as_batch=_url().startswith("sqlite"),
        **kwargs,
    )


def run_migrations_offline() -> None:
    _configure(url=_url(), literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def _run(connection) -> None:
    """The migrations on `connection`. On SQLite a change of a table's constraints rebuilds the
    table (batch mode: copy, drop, rename), and dropping a table with foreign keys on deletes
    every row that refers to it (a service's availability and capacity, a booking's items): so
    the keys are off while the migrations run, outside their transaction as SQLite requires
    (on the driver's connection: a statement through SQLAlchemy would open one), and checked
    before they are on again."""
    raw = connection.connection.driver_connection if connection.dialect.name == "sqlite" else None
    if raw is not None:
        raw.execute("PRAGMA foreign_keys=OFF")
    try:
        _configure(connection=connection)
        with context.begin_transaction():
            context.run_migrations()
        if raw is not None:
            broken = raw.execute("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise RuntimeError(f"the migrations left rows without their parent: {broken}")
    finally:
        if raw is not None:
            raw.execute("PRAGMA foreign_keys=ON")


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = make_engine(_url())
    with engine.connect() as connection:
        _run(connection)
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
