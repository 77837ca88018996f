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


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph() -> dict[str, set[str]]:
    """Module -> the storefront modules it imports, at module level or inside a function."""
    modules = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                    base = f"{base}.{node.module}" if node.module else base
                targets.add(base)
                targets.update(f"{base}.{alias.name}" for alias in node.names)
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circles_even_through_imports_inside_functions():
    """A circle hidden by an import inside a function still ties the modules together: no
    module of the app may reach itself through imports (package __init__ re-exports aside)."""
    graph = import_graph()
    # A package's __init__ that imports its own modules is not a circle of design.
    graph = {
        name: {t for t in targets if not (name.startswith(t + ".") or t.startswith(name + "."))}
        for name, targets in graph.items()
    }
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_guard_imports_no_screen_state():
    """state/guard.py reads the declarations of state/access.py; it imports no concrete state."""
    imported = import_graph()["storefront.state.guard"]
    assert not {m for m in imported if m.startswith("storefront.state.")} - {
        "storefront.state.access"
    }


def test_no_exception_is_swallowed():
    """Every `except Exception` logs the exception (a log call or state/errors.log_failure),
    raises, or hands the exception on (a health answer, a retry decision): nothing is caught and
    forgotten, and a database outage is never hidden."""
    silent = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not isinstance(node, ast.ExceptHandler) or not isinstance(node.type, ast.Name):
                continue
            if node.type.id not in {"Exception", "BaseException"}:
                continue
            body = ast.unparse(ast.Module(body=node.body, type_ignores=[]))
            handled = re.search(r"\b(log|logger|logging)\.\w+\(|log_failure\(|\braise\b", body)
            uses_it = node.name is not None and re.search(rf"\b{node.name}\b", body)
            if not (handled or uses_it):
                silent.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert not silent, f"an `except Exception` that neither logs nor uses it: {silent}"


# docs/architecture.md §5: the services that take a lock first and commit their own transaction.
COMMITTING_SERVICES = {
    "services/booking/placing.py",
    "services/booking/admin.py",
    "services/booking/changes.py",
    "services/throttle.py",
    "services/accounts/two_factor.py",
    "services/payments/ledger.py",
    "services/payments/receipts.py",
    "services/operations/vans.py",
}


def test_only_the_locking_services_commit():
    """Transactions belong to the caller; the five services §5 names are the exception."""
    committing = set()
    for path in _modules("services"):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "commit"
                and "session" in ast.unparse(node.func.value)
            ):
                committing.add(str(path.relative_to(PACKAGE)))
    assert committing == COMMITTING_SERVICES
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text()
    for name in COMMITTING_SERVICES:
        assert name.removeprefix("services/").removesuffix(".py") in doc, name


def test_screens_import_from_services_only_what_needs_no_session():
    """docs/architecture.md §2: a page or a component may take a service's constants and pure
    functions (labels, limits, formats); what reads or writes data goes through a state."""
    import importlib
    import inspect

    needing_a_session = []
    for path in _modules("pages") + _modules("components"):
        tree = ast.parse(path.read_text(), filename=str(path))
        used = {
            (node.value.id, node.attr)
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or not (node.module or "").startswith(
                "storefront.services"
            ):
                continue
            module = importlib.import_module(node.module)
            for alias in node.names:
                value = getattr(module, alias.name, None) or importlib.import_module(
                    f"{node.module}.{alias.name}"
                )
                if inspect.ismodule(value):  # the names the screen reads from it
                    local = alias.asname or alias.name
                    names = [getattr(value, attr) for name, attr in used if name == local]
                else:
                    names = [value]
                for item in names:
                    if inspect.isfunction(item) and "session" in inspect.signature(item).parameters:
                        needing_a_session.append(f"{path.relative_to(PACKAGE)}: {item.__name__}")
    assert not needing_a_session, needing_a_session


def _domain(module: str) -> str | None:
    """storefront.services.booking.cart -> 'booking'; a basic (services/dates.py) -> 'basics'."""
    parts = module.split(".")
    if parts[:2] != ["storefront", "services"] or len(parts) < 3:
        return None
    return parts[2] if len(parts) > 3 else "basics"


def domain_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, targets in import_graph().items():
        domain = _domain(module)
        if domain is None or module == "storefront.services":
            continue
        graph.setdefault(domain, set())
        for target in targets:
            other = _domain(target)
            if other not in {None, domain} and target != "storefront.services":
                graph[domain].add(other)
    return graph


def test_the_domains_of_services_import_one_another_one_way():
    """services/__init__.py's domains: the basics import no domain, and no two domains import
    each other, even through a third (a circle of domains is a folder that hides one domain)."""
    graph = domain_graph()
    assert graph["basics"] == set(), graph["basics"]
    assert cycles(graph) == [], graph
