"""The base of every service error: a stable code the UI maps to a message."""

from __future__ import annotations


class ServiceError(Exception):
    """Raised by a service; `code` is stable, `message` is a default text for logs and UIs."""

    def __init__(self, code: str, message: str | None = None, **details: object) -> None:
        super().__init__(message or code)
        self.code = code
        self.message = message or code
        self.details = details
