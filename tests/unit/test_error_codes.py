"""Error codes are declared: every service error class lists its codes with a message, every
code a service raises by name is among them, an undeclared code fails where it is made, and the
screens' code -> message maps name only declared codes (a typo there would fall back to a
generic message without a word)."""

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import storefront.services as services_package
from storefront.services.errors import ServiceError

ROOT = Path(__file__).resolve().parents[2]


def _error_classes() -> dict[str, type[ServiceError]]:
    found = {}
    for module in pkgutil.walk_packages(services_package.__path__, "storefront.services."):
        loaded = importlib.import_module(module.name)
        for name, value in vars(loaded).items():
            if (
                inspect.isclass(value)
                and issubclass(value, ServiceError)
                and value is not ServiceError
            ):
                found[name] = value
    return found


CLASSES = _error_classes()


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_every_error_class_declares_its_codes_each_with_a_message(name):
    codes = CLASSES[name].CODES
    assert codes, f"{name} declares no CODES"
    assert all(re.fullmatch(r"[a-z_]+", code) and text.strip() for code, text in codes.items())


def test_every_code_raised_by_name_is_declared():
    undeclared = []
    for path in sorted((ROOT / "storefront" / "services").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            cls = CLASSES.get(node.func.id)
            if cls is None or not node.args or not isinstance(node.args[0], ast.Constant):
                continue
            if node.args[0].value not in cls.CODES:
                undeclared.append(
                    f"{path.name}:{node.lineno} {cls.__name__}({node.args[0].value!r})"
                )
    assert not undeclared, undeclared


def test_an_undeclared_code_fails_where_it_is_made():
    booking_error = CLASSES["BookingError"]
    with pytest.raises(ValueError, match="declares no code 'slot_takn'"):
        booking_error("slot_takn")
    assert booking_error("slot_taken").message == booking_error.CODES["slot_taken"]


def _code_maps() -> list[tuple[str, set[str]]]:
    """The states' dicts whose keys are error codes (names ending in MESSAGES)."""
    maps = []
    for path in sorted((ROOT / "storefront" / "state").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else []
            targets += [node.target] if isinstance(node, ast.AnnAssign) else []
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            names += [t.attr for t in targets if isinstance(t, ast.Attribute)]
            # FIELD_MESSAGES maps are keyed by form fields, not by error codes.
            code_map = any(
                n.upper().endswith("MESSAGES") and "FIELD" not in n.upper() for n in names
            )
            if code_map and isinstance(node.value, ast.Dict):
                keys = {k.value for k in node.value.keys if isinstance(k, ast.Constant)}
                maps.append((f"{path.name}:{node.lineno}", {k for k in keys if isinstance(k, str)}))
    return maps


# Codes a screen makes itself, before any service is asked: the upload checks the browser runs
# (state/uploads.py) and the sign-in code form's empty field (state/sign_in.py).
SCREEN_CODES = {"too_many", "wrong_type", "missing"}


def test_the_screens_map_only_declared_codes():
    declared = set().union(*(cls.CODES for cls in CLASSES.values())) | SCREEN_CODES
    assert _code_maps(), "no code -> message maps found in storefront/state"
    unknown = [(where, sorted(keys - declared)) for where, keys in _code_maps() if keys - declared]
    assert not unknown, unknown
