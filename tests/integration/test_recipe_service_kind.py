"""docs/extending.md, 'Add a service kind', applied as it is written: the recipe's code blocks
are taken from the doc (under a throwaway name, so a kind a developer added by following them
does not collide), the kind is registered, the migration is run on a fresh database, and the
kind is seen through the service form, the admin list, its public page and the sitemap, on
SQLite and PostgreSQL. A step left out of the doc, or a doc out of step with the code (a kind
added to the registry but not to the recipe's migration), fails here."""

from __future__ import annotations

import ast
import re
import shutil
import textwrap
from pathlib import Path

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlmodel import Session

from alembic import command
from storefront.db import make_engine
from storefront.models import kinds, service_details
from storefront.services.catalog import admin as catalog_admin
from storefront.services.catalog import listing as catalog_list
from storefront.services.catalog import public as catalog
from storefront.services.catalog import seo
from tests.conftest import create_database, migrate
from tests.factories import make_service, make_user
from tests.integration.test_service_kinds import constraint_kinds

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "extending.md"
# The doc's example, and the throwaway name the test gives it.
RENAMES = (
    ("balloon_arch", "recipe_garland"),
    ("BalloonArch", "RecipeGarland"),
    ("Balloon arch", "Recipe garland"),
)


def recipe_blocks() -> list[str]:
    """The python code blocks of the recipe, in order, dedented and renamed."""
    text = DOC.read_text()
    section = text[text.index("## Add a service kind") :]
    section = section[: section.index("\n## ", 1)]
    blocks = [textwrap.dedent(b) for b in re.findall(r"```python\n(.*?)```", section, re.S)]
    for old, new in RENAMES:
        blocks = [b.replace(old, new) for b in blocks]
    if "balloon_arch" in kinds.names():
        # Someone followed the recipe for real: their kind stays in the throwaway's list.
        blocks[2] = blocks[2].replace(
            '    "recipe_garland",\n', '    "balloon_arch",\n    "recipe_garland",\n'
        )
    return blocks


def test_the_recipe_has_its_three_blocks_and_marks_its_words():
    details, registration, migration = recipe_blocks()
    assert "class RecipeGarlandDetails(Details)" in details
    # The back office shows a kind's words in both languages: each is marked like the real
    # entries' (a plain string would stay English in the Albanian back office).
    call = next(
        node
        for node in ast.walk(ast.parse(registration))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Kind"
    )
    words = [call.args[1]]
    for field in (
        n for n in ast.walk(call) if getattr(getattr(n, "func", None), "id", "") == "DetailField"
    ):
        words.append(field.args[1])
        words += [k.value for k in field.keywords if k.arg == "hint"]
    assert words and all(getattr(w.func, "id", "") == "N_s" for w in words), ast.unparse(call)
    # A migration means the same thing next year: the recipe's part reads nothing of the app.
    imported = {
        node.module if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(ast.parse(migration))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert not {name for name in imported if name and name.startswith("storefront")}


def _alembic(url: str, folder: Path, migration: str) -> Config:
    """Alembic on a copy of alembic/ holding the recipe's migration as the newest revision."""
    if not folder.exists():
        shutil.copytree(ROOT / "alembic", folder, ignore=shutil.ignore_patterns("__pycache__"))
        head = ScriptDirectory(str(folder)).get_current_head()
        (folder / "versions" / "9001_recipe_kind.py").write_text(
            f'"""The recipe\'s migration."""\n\nfrom alembic import op\n\nrevision = "9001"\n'
            f'down_revision = "{head}"\n\n{migration}'
        )
    config = Config(str(ROOT / "alembic.ini"))
    config.set_main_option("script_location", str(folder))
    config.attributes["database_url"] = url
    config.attributes["configure_logger"] = False
    return config


@pytest.fixture
def recipe_kind(request, monkeypatch, tmp_path):
    """Steps 1-3 of the recipe on a database of its own, which already holds a service with its
    week and its capacity (a migration that rebuilds the services table must keep them)."""
    details, registration, migration = recipe_blocks()
    # Step 1: the schema, at the end of models/service_details.py.
    scope = dict(vars(service_details))
    exec(details, scope)  # noqa: S102 (the doc's own code)
    monkeypatch.setattr(
        service_details, "RecipeGarlandDetails", scope["RecipeGarlandDetails"], raising=False
    )
    # Step 2: the registration, at the end of models/kinds.py.
    exec(registration, dict(vars(kinds)))  # noqa: S102
    backend = request.node.callspec.params["backend"]
    url, drop = create_database(backend)
    migrate(url)
    engine = make_engine(url)
    try:
        with Session(engine) as session:
            make_service(session, title="Castle", units=2)
            session.commit()
        before = _rows(engine)
        # Step 3: the migration, as the doc writes it, run by Alembic as `make migrate` runs it.
        config = _alembic(url, tmp_path / "alembic", migration)
        command.upgrade(config, "head")
        assert _rows(engine) == before, "the migration lost rows"
        yield engine, config
    finally:
        kinds.unregister("recipe_garland")
        engine.dispose()
        drop()


def _rows(engine) -> dict[str, int]:
    with engine.connect() as conn:
        return {
            table: conn.execute(text(f"SELECT count(*) FROM {table}")).scalar_one()
            for table in ("services", "service_availability", "service_capacity")
        }


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_kind_added_by_the_recipe_is_seen_everywhere(backend, recipe_kind):
    engine, config = recipe_kind
    # The doc's list is the registry's: a kind added since, and not to the recipe, fails here.
    assert constraint_kinds(engine) == set(kinds.names())
    with Session(engine, expire_on_commit=False) as session:
        admin = make_user(session, role="admin")
        session.commit()
        # The service form: the kind in its menu, its fields, its details saved and shown again.
        assert ("recipe_garland", "Recipe garland") in catalog_admin.kind_choices()
        assert [f.label for f in catalog_admin.detail_fields("recipe_garland")] == ["Colours"]
        form = catalog_admin.ServiceForm(
            title="Rainbow Garland",
            slug="rainbow-garland",
            description="A garland of balloons in every colour.",
            price="90",
            kind="recipe_garland",
            details={"colours": "red\nwhite\n"},
        )
        service_id = catalog_admin.save_service(session=session, actor_id=admin.id, form=form)
        session.commit()
        loaded = catalog_admin.load_form(session=session, actor_id=admin.id, service_id=service_id)
        assert loaded.kind == "recipe_garland"
        assert loaded.details == {"colours": "red\nwhite"}
        assert loaded.price_unit == "per_event"  # the kind's usual pricing
        # The admin list names the kind.
        rows = catalog_list.list_services(session=session, actor_id=admin.id, search="Rainbow")
        assert [(r.title, r.kind_label) for r in rows.rows] == [
            ("Rainbow Garland", "Recipe garland")
        ]
        # Its public page (a page of its own) and the sitemap.
        view = catalog.get_public_service(session=session, service_id="rainbow-garland")
        assert view is not None and view.kind in catalog.detail_page_kinds()
        urls = seo.sitemap_urls(session=session, base="https://events.example.com")
        assert "https://events.example.com/services/rainbow-garland" in urls
        session.execute(text("DELETE FROM services WHERE kind = 'recipe_garland'"))
        session.commit()
    # The migration's way down leaves the kinds as they were.
    command.downgrade(config, "-1")
    assert constraint_kinds(engine) == set(kinds.names()) - {"recipe_garland"}
