"""Deny by default (docs/architecture.md §3). An event runs only when its state's declared
access allows the caller (state/access.py, on each state class):
- "public" (the storefront, the cart, the sign-in forms, and Reflex's own hydrate/on-load
  machinery): anyone;
- "admin" (AdminState and every state below it): an admin, as the database says at this event;
- "account", or no declaration: a signed-in caller, as the database says at this event.
An event name that does not resolve to a registered handler is refused, and logged in one line
(Reflex's event processor refuses it before any middleware runs, with a traceback and the whole
event per event: `UnknownEventLog` turns that into one line, at most `UNKNOWN_EVENT_LINES` a
minute per worker, so a flood of forged events cannot fill the log).

A tab whose server-side state was lost (Redis restarted without a copy, or the state expired
while the tab sat idle) is reloaded instead of served: its state would start blank, and the
blank cart would overwrite the one in the browser. The page reloads, hydrates from the browser's
own storage (the cart, the sign-in cookie) and goes on; nothing the visitor had is lost. A state
declared `catalogue_only` (state/access.py) holds nothing of the tab, so its events (a catalogue
page's load) are served without that check and its Redis round trip.

The identity is read again at every guarded event and at every hydrate, so an ended session or a
lost role stops working at once, and a tab whose caller changed has its private states reset
before the state tree is sent (state/auth.py)."""

from __future__ import annotations

import logging
import threading
import time

import reflex as rx
from reflex.event import Event
from reflex.middleware import Middleware
from reflex.state import (
    BaseState,
    State,
    StateUpdate,
)
from reflex_base.registry import RegistrationContext

from storefront import i18n
from storefront.state.access import (
    REFLEX_STATES,
    access_of,
    allows,
    identity_state,
    is_catalogue_only,
)

log = logging.getLogger(__name__)

HYDRATE_EVENTS = frozenset(
    f"{State.get_full_name()}.{name}" for name in ("hydrate", "hydrate_and_load")
)


# Unknown event names logged per worker and minute; the rest are counted in the next line.
UNKNOWN_EVENT_LINES = 20
UNKNOWN_EVENT_WINDOW_SECONDS = 60.0
NAME_SHOWN = 120
_NO_HANDLER = "No registered handler found for event: "
# The logger of Reflex's event processor, which refuses an unknown name before the middleware.
EVENT_PROCESSOR_LOGGER = "reflex_base.event.processor.event_processor"


def _shown_name(name: object) -> str:
    """An event name as one log line shows it: quoted and escaped (no line breaks), cut short."""
    return repr(str(name)[:NAME_SHOWN])


class UnknownEventLog(logging.Filter):
    """Rewrites the event processor's record of an event whose name names no handler (its
    KeyError, traceback and whole event) into one warning line with the name, and keeps at most
    `UNKNOWN_EVENT_LINES` such lines per window; the next line says how many were left out."""

    def __init__(
        self, lines: int = UNKNOWN_EVENT_LINES, window: float = UNKNOWN_EVENT_WINDOW_SECONDS
    ):
        super().__init__()
        self.lines, self.window = lines, window
        self._lock = threading.Lock()
        self._started, self._logged, self._skipped = 0.0, 0, 0

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if not isinstance(error, KeyError) or not str(
            error.args[0] if error.args else ""
        ).startswith(_NO_HANDLER):
            return True
        name = str(error.args[0])[len(_NO_HANDLER) :]
        with self._lock:
            now = time.monotonic()
            if now - self._started >= self.window:
                self._started, self._logged = now, 0
                skipped, self._skipped = self._skipped, 0
            else:
                skipped = 0
            if self._logged >= self.lines:
                self._skipped += 1
                return False
            self._logged += 1
        record.msg = "refused unknown event %s" + (
            f" ({skipped} more left out of the log before it)" if skipped else ""
        )
        record.args = (_shown_name(name),)
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def install_unknown_event_log() -> UnknownEventLog:
    """Put the filter on the event processor's logger once per process."""
    logger = logging.getLogger(EVENT_PROCESSOR_LOGGER)
    for existing in logger.filters:
        if isinstance(existing, UnknownEventLog):
            return existing
    installed = UnknownEventLog()
    logger.addFilter(installed)
    return installed


install_unknown_event_log()


def target_of(event_name: str) -> type[BaseState] | None:
    """The state whose handler `event_name` runs, resolved as the event processor resolves
    it; None when it names no registered handler."""
    registered = RegistrationContext.get().event_handlers.get(event_name)
    if registered is None or not registered.states:
        return None
    return registered.states[0]


def _reload() -> StateUpdate:
    return StateUpdate(
        delta={}, events=Event.from_event_type(rx.call_script("window.location.reload()"))
    )


class AuthGuard(Middleware):
    async def preprocess(self, app, state: BaseState, event) -> StateUpdate | None:
        # The event speaks the language of the page that sent it (storefront/i18n.py).
        # The page's address from its own field: `state.router` assembles a whole RouterData
        # (session, headers, page, URL) on every read, and this runs on every event.
        i18n.set_page(state.rx_router_url.path)
        target = target_of(event.name)
        if target is None:
            log.warning("refused unknown event %s", _shown_name(event.name))
            return StateUpdate(delta={}, events=[])
        if target not in REFLEX_STATES and not is_catalogue_only(target):
            auth_state = await state.get_state(identity_state())
            if not auth_state._hydrated:
                log.info("reloading a tab whose state was lost (event %s)", event.name)
                return _reload()
        access = access_of(target)
        if access == "public" and event.name not in HYDRATE_EVENTS:
            return None
        auth_state = await state.get_state(identity_state())
        user_id, role = await auth_state._caller()  # resets private states if the caller changed
        if event.name in HYDRATE_EVENTS:
            auth_state._hydrated = True
        if allows(access, user_id, role):
            return None
        log.warning("refused %s for %s", event.name, user_id or "a guest")
        return StateUpdate(delta={}, events=[])
