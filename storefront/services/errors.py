"""The base of every service error: a declared code the UI maps to a message.

Each service's error class declares its codes with what each means (`CODES`, code -> a default
text for logs and for screens that show it as it is). A code that is not declared raises
ValueError where the error is made, so a typo fails at once (and in the tests) instead of
falling back to a generic message; tests/unit/test_error_codes.py checks every code the services
raise is declared and has a message."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar


class ServiceError(Exception):
    """Raised by a service; `code` is one of the class's CODES, `message` a default text for
    logs and UIs (the code's declared text unless one is given)."""

    CODES: ClassVar[Mapping[str, str]] = {}

    def __init__(self, code: str, message: str | None = None, **details: object) -> None:
        if self.CODES and code not in self.CODES:
            raise ValueError(f"{type(self).__name__} declares no code {code!r} (see its CODES)")
        text = message or self.CODES.get(code) or code
        super().__init__(text)
        self.code = code
        self.message = text
        self.details = details
