"""docs/architecture.md's direction of dependencies: pages -> components, state -> services ->
models."""

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "storefront"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _modules(folder: str) -> list[Path]:
    return sorted((PACKAGE / folder).rglob("*.py"))


@pytest.mark.parametrize("folder", ["services", "models", "seed"])
def test_services_and_models_do_not_import_reflex_or_ui(folder):
    for path in _modules(folder):
        bad = {
            name
            for name in _imports(path)
            if name.split(".")[0] == "reflex"
            or name.startswith(("storefront.state", "storefront.pages", "storefront.components"))
        }
        assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}"


@pytest.mark.parametrize("folder", ["state", "components", "pages"])
def test_ui_layers_write_no_sql(folder):
    for path in _modules(folder):
        bad = {
            name
            for name in _imports(path)
            if name.split(".")[0] in {"sqlalchemy", "sqlmodel"} or name == "storefront.models"
        }
        source = path.read_text()
        assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}"
        # A bare select(...) is a query; rx.el.select(...) is a drop-down.
        assert not re.search(r"(?<![\w.])select\(", source), (
            f"{path.relative_to(PACKAGE)} builds a query"
        )


def test_components_never_touch_the_database():
    for path in _modules("components") + _modules("pages"):
        bad = {n for n in _imports(path) if n in {"storefront.db", "storefront.state.base"}}
        assert not bad, f"{path.relative_to(PACKAGE)} imports {bad}"


def test_services_have_one_error_convention():
    """Each service raises its own ServiceError subclass with stable codes (docs/architecture.md
    §2); no
    bare Exception subclasses and no result objects carrying an `error` field beside them."""
    for path in _modules("services"):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef) or node.name == "ServiceError":
                continue
            bases = {ast.unparse(base) for base in node.bases}
            assert not bases & {"Exception", "ValueError", "RuntimeError"}, (
                f"{path.relative_to(PACKAGE)}: {node.name} is not a ServiceError"
            )
            fields = {
                item.target.id
                for item in node.body
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
            }
            assert not {"error", "success"} & fields, (
                f"{path.relative_to(PACKAGE)}: {node.name} returns errors instead of raising"
            )


def test_states_never_show_an_exceptions_text():
    """Visitors see the spec's messages; the log gets the exception (str(exc) in a state is a leak)."""
    for path in _modules("state"):
        source = path.read_text()
        assert not re.search(r"str\(\s*(exc|e|error|err)\s*\)", source), (
            f"{path.relative_to(PACKAGE)} puts an exception's text in state"
        )
