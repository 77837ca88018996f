"""The back office's repeated patterns are written once: the admin check is
services/permissions.require_admin (no service wraps it or compares a caller's role
with 'admin' to refuse them), and paging arithmetic is services/paging.py's."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICES = Path(__file__).resolve().parents[2] / "storefront" / "services"
STATES = SERVICES.parent / "state"
PERMISSIONS = SERVICES / "permissions.py"
PAGING = SERVICES / "paging.py"


def _modules(*folders: Path):
    for folder in folders or (SERVICES,):
        for path in sorted(folder.rglob("*.py")):
            yield path, ast.parse(path.read_text(encoding="utf-8"))


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(SERVICES.parent.parent)}:{node.lineno}"


def _calls(node: ast.AST, name: str) -> bool:
    return any(
        isinstance(call, ast.Call)
        and (
            (isinstance(call.func, ast.Attribute) and call.func.attr == name)
            or (isinstance(call.func, ast.Name) and call.func.id == name)
        )
        for call in ast.walk(node)
    )


def _body_without_docstring(function: ast.FunctionDef) -> list[ast.stmt]:
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        return body[1:]
    return body


def _is_admin_role_test(test: ast.AST) -> bool:
    """`x.role == "admin"` / `!= "admin"`, or the users service's `check_role(...)`."""
    for node in ast.walk(test):
        if isinstance(node, ast.Compare) and any(
            isinstance(side, ast.Attribute) and side.attr == "role"
            for side in (node.left, *node.comparators)
        ):
            if any(isinstance(op, ast.Eq | ast.NotEq) for op in node.ops) and any(
                isinstance(side, ast.Constant) and side.value == "admin"
                for side in (node.left, *node.comparators)
            ):
                return True
    return _calls(test, "check_role")


def _raises_not_allowed(body: list[ast.stmt]) -> bool:
    for statement in body:
        for node in ast.walk(statement):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                first = node.exc.args[0] if node.exc.args else None
                if isinstance(first, ast.Constant) and first.value == "not_allowed":
                    return True
    return False


def test_no_service_wraps_the_admin_check_or_refuses_by_role_by_hand():
    found = []
    for path, tree in _modules():
        if path == PERMISSIONS:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                body = _body_without_docstring(node)
                # a private helper that only calls it (a public service may: 'Test Admin Function')
                private = node.name.startswith("_")
                wrapper = private and len(body) == 1 and _calls(body[0], "require_admin")
                if wrapper or node.name in ("_require_admin", "_admin", "require_admin"):
                    found.append(f"{_where(path, node)} {node.name} wraps require_admin")
            if isinstance(node, ast.If) and _is_admin_role_test(node.test):
                if _raises_not_allowed(node.body) or _raises_not_allowed(node.orelse):
                    found.append(f"{_where(path, node)} checks the admin role by hand")
    assert not found, "use permissions.require_admin:\n" + "\n".join(found)


def _paging_arithmetic(node: ast.AST) -> bool:
    """`.offset(<arithmetic>)`, or arithmetic on a `per_page`/`page_size`/`pages` name or a
    `.page`/`.pages` attribute (a state's 'Next' and 'Previous')."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "offset" and any(isinstance(a, ast.BinOp) for a in node.args):
            return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ARITHMETIC):
        names = {_name(side) for side in (node.left, node.right)}
        return bool(names & {"per_page", "page_size", "page", "pages"})
    return False


ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv)


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.UnaryOp):
        return _name(node.operand)
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def test_paging_arithmetic_is_written_only_in_the_paging_helper():
    found = [
        _where(path, node)
        for path, tree in _modules(SERVICES, STATES)
        if path != PAGING
        for node in ast.walk(tree)
        if _paging_arithmetic(node)
    ]
    assert not found, "use services/paging.window:\n" + "\n".join(found)


def test_the_checks_find_what_they_look_for():
    wrapper = ast.parse(
        "def _admin(session, actor_id):\n"
        "    return permissions.require_admin(session, actor_id, E)\n"
    ).body[0]
    assert _calls(_body_without_docstring(wrapper)[0], "require_admin")
    by_hand = ast.parse("if user.role != 'admin':\n    raise E('not_allowed', 'x')\n").body[0]
    assert _is_admin_role_test(by_hand.test) and _raises_not_allowed(by_hand.body)
    paging = ast.parse("q.offset((page - 1) * per_page)").body[0].value
    assert _paging_arithmetic(paging)
