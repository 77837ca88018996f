"""What a visitor is told when an event fails unexpectedly.

Each screen maps the failures it expects to the spec's words itself (a booking during a database
outage says 'Failed to place booking. Please try again.'). Anything that escapes a handler, or
the event guard, reaches this one handler. While the database cannot be reached (restarting, a
failover, the pool exhausted: storefront.db.is_outage) every screen would otherwise show
Reflex's 'An error occurred. Contact the website administrator.' and log a traceback per event;
instead the visitor reads the spec's 'Something went wrong. Please try again later.' and the log gets
one line. Every other exception keeps Reflex's handling: a traceback in the log and its notice."""

import logging

from reflex.app import default_backend_exception_handler
from reflex.event import EventSpec
from reflex_components_sonner.toast import toast

from storefront.db import error_summary, is_outage
from storefront.i18n import N_, _

log = logging.getLogger(__name__)

TRY_LATER = N_("Something went wrong. Please try again later.")


def refused_fields(exc: Exception, fallback: str) -> dict[str, str]:
    """A service's refusal of a form, field by field: each field its `details["fields"]` names,
    with the message its `details["messages"]` gives (already in the caller's language), else
    `fallback`. What a card shows beside its refused fields."""
    details = getattr(exc, "details", None) or {}
    messages = details.get("messages", {})
    return {k: messages.get(k) or fallback for k in details.get("fields", {})}


def log_failure(what: str, exception: Exception, **context: object) -> None:
    """Log a handler's unexpected failure once, with what it was doing and on what (ids): one
    line while the database is unavailable (as the handler below logs an outage), the
    traceback otherwise. The screen then shows its own message."""
    where = ", ".join(f"{key}={value}" for key, value in context.items())
    where = f" ({where})" if where else ""
    if is_outage(exception):
        log.warning(
            "%s failed%s, the database is unavailable: %s", what, where, error_summary(exception)
        )
    else:
        log.error("%s failed%s", what, where, exc_info=exception)


def backend_exception_handler(exception: Exception) -> EventSpec:
    if is_outage(exception):
        log.warning("an event failed, the database is unavailable: %s", error_summary(exception))
        return toast(
            _(TRY_LATER),
            level="error",
            fallback_to_alert=True,
            position="top-center",
            id="backend_error",
        )
    return default_backend_exception_handler(exception)
