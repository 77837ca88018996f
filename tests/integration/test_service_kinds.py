"""A service kind is one entry of storefront/models/kinds.py: the database's constraint agrees
with the registry (docs/extending.md's recipe is applied in test_recipe_service_kind.py)."""

from __future__ import annotations

import re

from sqlalchemy import text

from storefront.models import kinds


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
